//! The options users have elsewhere (Strimzi's `KafkaRebalance`, cccli) reaching Cruise Control,
//! checked before anything is sent (pure).
//!
//! Every endpoint accepts its own parameter names and answers 400 to any other (reference §1):
//! [`unsupported`] turns an option the chosen endpoint cannot take into a usage error (exit 2)
//! instead of silently dropping it, and [`cc_params`] lets `--cc-param KEY=VALUE` pass anything
//! else through, refusing the names kafkaops sets itself (`dryrun` above all: a pass-through must
//! never turn a dry run into an execution or skip the confirmation).

use super::ProposalSpec;
use crate::cruise_control::params::{Query, RebalanceKind, RebalanceRequest, accepted};

/// Options of `full` only.
#[derive(Debug, Clone, Default)]
pub struct FullOptions {
    pub destination_brokers: Vec<i32>,
    pub rebalance_disk: bool,
    pub concurrent_intra_broker_partition_movements: Option<u32>,
}

/// Applies the `full`-only options to a request.
pub fn apply_full(req: &mut RebalanceRequest, full: &FullOptions) {
    req.goals
        .destination_broker_ids
        .clone_from(&full.destination_brokers);
    req.goals.rebalance_disk = full.rebalance_disk;
    req.execution.concurrent_intra_broker_partition_movements =
        full.concurrent_intra_broker_partition_movements;
}

/// The flags given that the endpoint of `kind` does not accept, with the parameter each maps to.
#[must_use]
pub fn unsupported(kind: &RebalanceKind, a: &ProposalSpec) -> Vec<String> {
    let given: [(&str, &'static str, bool); 9] = [
        ("--goals", "goals", !a.goals.is_empty()),
        (
            "--skip-hard-goal-check",
            "skip_hard_goal_check",
            a.skip_hard_goal_check,
        ),
        (
            "--excluded-topics",
            "excluded_topics",
            a.excluded_topics.is_some(),
        ),
        (
            "--replication-throttle",
            "replication_throttle",
            a.replication_throttle.is_some(),
        ),
        (
            "--concurrent-partition-movements-per-broker",
            "concurrent_partition_movements_per_broker",
            a.concurrent_partition_movements_per_broker.is_some(),
        ),
        (
            "--concurrent-leader-movements",
            "concurrent_leader_movements",
            a.concurrent_leader_movements.is_some(),
        ),
        (
            "--max-partition-movements-in-cluster",
            "max_partition_movements_in_cluster",
            a.max_partition_movements_in_cluster.is_some(),
        ),
        (
            "--replica-movement-strategies",
            "replica_movement_strategies",
            !a.replica_movement_strategies.is_empty(),
        ),
        (
            "--exclude-recently-demoted-brokers",
            "exclude_recently_demoted_brokers",
            a.exclude_recently_demoted_brokers,
        ),
    ];
    let ok = accepted(kind.endpoint());
    given
        .iter()
        .filter(|(_, param, set)| *set && !ok.contains(param))
        .map(|(flag, _, _)| (*flag).to_string())
        .collect()
}

/// Names `--cc-param` may not set: kafkaops sets them itself, and `dryrun`/`review_id` would
/// bypass the dry run, the confirmation or the review.
const RESERVED: &[&str] = &[
    "json",
    "dryrun",
    "review_id",
    "reason",
    "brokerid",
    "brokerid_and_logdirs",
    "verbose",
];

/// Parses `--cc-param KEY=VALUE` for the request's endpoint (pure).
pub fn cc_params(req: &RebalanceRequest, raw: &[String]) -> Result<Query, String> {
    let endpoint = req.kind.endpoint();
    let ok = accepted(endpoint);
    let already: Vec<&'static str> = req.query().into_iter().map(|(k, _)| k).collect();
    let mut out: Query = Vec::new();
    for p in raw {
        let Some((k, v)) = p.split_once('=') else {
            return Err(format!("--cc-param {p:?}: expected KEY=VALUE"));
        };
        let key = k.trim().to_ascii_lowercase();
        if RESERVED.contains(&key.as_str()) {
            return Err(format!(
                "--cc-param {key}: kafkaops sets {key} itself and it cannot be passed through"
            ));
        }
        let Some(name) = ok.iter().copied().find(|n| *n == key) else {
            return Err(format!(
                "--cc-param {key}: Cruise Control's {endpoint} does not accept it (it would answer 400); accepted: {}",
                ok.join(", ")
            ));
        };
        if already.contains(&name) || out.iter().any(|(n, _)| *n == name) {
            return Err(format!(
                "--cc-param {key} is already set (by an option of its own or twice)"
            ));
        }
        out.push((name, v.to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cruise_control::params::{ExecutionOptions, GoalOptions};

    fn req(kind: RebalanceKind) -> RebalanceRequest {
        RebalanceRequest {
            kind,
            goals: GoalOptions::default(),
            execution: ExecutionOptions {
                dryrun: true,
                ..ExecutionOptions::default()
            },
            reason: "r".into(),
            verbose: true,
            review_id: None,
            extra: Vec::new(),
        }
    }

    #[test]
    fn pass_through_refuses_what_would_bypass_the_dry_run_or_cause_a_400() {
        let r = req(RebalanceKind::Full);
        let q = cc_params(
            &r,
            &[
                "fast_mode=false".into(),
                "Data_From=VALID_PARTITIONS".into(),
            ],
        )
        .unwrap();
        assert_eq!(
            q,
            vec![
                ("fast_mode", "false".to_string()),
                ("data_from", "VALID_PARTITIONS".to_string())
            ]
        );
        assert!(
            cc_params(&r, &["dryrun=false".into()])
                .unwrap_err()
                .contains("itself")
        );
        assert!(
            cc_params(&r, &["nope=1".into()])
                .unwrap_err()
                .contains("400")
        );
        assert!(cc_params(&r, &["novalue".into()]).is_err());
        let add = req(RebalanceKind::AddBrokers(vec![4]));
        // add_broker rejects destination_broker_ids (reference §3.4).
        assert!(cc_params(&add, &["destination_broker_ids=1".into()]).is_err());
        // Already sent by kafkaops for add_broker.
        assert!(cc_params(&add, &["exclude_recently_removed_brokers=true".into()]).is_err());
    }
}
