//! Rebalance requests: the use case `rebalance add|remove|full|demote|remove-disks`,
//! `rebalance imbalance` and `operate` share.
//!
//! A command resolves its clap arguments into a [`ProposalSpec`] (plain data; `operate` starts
//! from [`ProposalSpec::default`], the values of a flagless command, and merges its policy's
//! [`Template`] in); [`checked_request`] turns it into the Cruise Control request, refusing
//! options the endpoint would answer 400 to before anything is sent. The broker-id checks are
//! pure and unit-tested here. Errors are typed ([`InputError`]) or
//! [`Classified`]; the edge maps them to exit codes.

pub mod drift;
pub mod failure;
pub mod leaving;
mod options;
pub mod review;
mod stop;
pub mod task;
pub mod template;

use std::path::PathBuf;
use std::time::Duration;

pub use options::{FullOptions, apply_full, cc_params, unsupported};
pub use stop::wait_until_idle;
pub use template::Template;

use crate::cruise_control::params::{
    ExecutionOptions, GoalOptions, RebalanceKind, RebalanceRequest,
};
use crate::engine::failure::{Classified, FailureKind};

/// What a rebalance proposal (and its execution) is asked with: the options of
/// `rebalance add|remove|full|...` resolved from the command line, or `operate`'s from its
/// policy. Clap-free: the commands build it from their arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)]
pub struct ProposalSpec {
    pub goals: Vec<String>,
    pub skip_hard_goal_check: bool,
    pub excluded_topics: Option<String>,
    pub replication_throttle: Option<u64>,
    pub concurrent_partition_movements_per_broker: Option<u32>,
    pub concurrent_leader_movements: Option<u32>,
    pub max_partition_movements_in_cluster: Option<u32>,
    pub replica_movement_strategies: Vec<String>,
    pub exclude_recently_demoted_brokers: bool,
    /// `KEY=VALUE` parameters passed through to Cruise Control (checked by [`cc_params`]).
    pub cc_params: Vec<String>,
    pub show_internal: bool,
    pub execute: bool,
    /// How far (percent) the proposal about to run may differ from the approved one.
    pub max_drift: u32,
    pub max_data_mb: Option<u64>,
    pub approved_plan: Option<PathBuf>,
    pub review_id: Option<i64>,
    pub no_wait: bool,
    pub timeout: Duration,
    pub follow_timeout: Option<Duration>,
    pub reason: String,
    pub wait_for_ready: Duration,
    pub poll_interval: Duration,
    pub wait_for_reassignments: Duration,
    pub force: bool,
}

impl Default for ProposalSpec {
    /// The options of a command given no flag (the command line's defaults; a unit test in
    /// `commands` holds the two equal).
    fn default() -> ProposalSpec {
        ProposalSpec {
            goals: Vec::new(),
            skip_hard_goal_check: false,
            excluded_topics: None,
            replication_throttle: None,
            concurrent_partition_movements_per_broker: None,
            concurrent_leader_movements: None,
            max_partition_movements_in_cluster: None,
            replica_movement_strategies: Vec::new(),
            exclude_recently_demoted_brokers: false,
            cc_params: Vec::new(),
            show_internal: false,
            execute: false,
            max_drift: 10,
            max_data_mb: None,
            approved_plan: None,
            review_id: None,
            no_wait: false,
            timeout: Duration::from_secs(30 * 60),
            follow_timeout: None,
            reason: "kafkaops".into(),
            wait_for_ready: Duration::ZERO,
            poll_interval: Duration::from_secs(5),
            wait_for_reassignments: Duration::ZERO,
            force: false,
        }
    }
}

/// Input that cannot work, found before any call that changes something.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error(
        "broker(s) {} are both removed and given as destinations; nothing was changed",
        ids(.0)
    )]
    DestinationIsRemoved(Vec<i32>),
    #[error(
        "broker(s) {} are not brokers Cruise Control knows (known brokers: {}); unknown ids and KRaft controller-only nodes cannot be used; nothing was changed",
        ids(.unknown),
        ids(.known)
    )]
    UnknownBrokers { unknown: Vec<i32>, known: Vec<i32> },
    #[error("removing broker(s) {} would leave no broker for their replicas; nothing was changed", ids(.0))]
    RemovesEveryBroker(Vec<i32>),
}

/// Broker ids as people read them in messages: `1,2,3`, or `(none)`.
#[must_use]
pub fn ids(v: &[i32]) -> String {
    if v.is_empty() {
        return "(none)".into();
    }
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

/// Checks that need no cluster: a broker both removed and a destination.
///
/// # Errors
/// A broker is both removed and a destination.
pub fn validate_args(kind: &RebalanceKind) -> Result<(), InputError> {
    if let RebalanceKind::RemoveBrokers {
        brokers,
        destinations,
    } = kind
    {
        let both: Vec<i32> = brokers
            .iter()
            .copied()
            .filter(|b| destinations.contains(b))
            .collect();
        if !both.is_empty() {
            return Err(InputError::DestinationIsRemoved(both));
        }
    }
    Ok(())
}

/// Checks the ids against the brokers Cruise Control knows.
///
/// # Errors
/// An id Cruise Control does not know, or a removal of every broker.
pub fn validate_against_cluster(kind: &RebalanceKind, known: &[i32]) -> Result<(), InputError> {
    let given: Vec<i32> = match kind {
        RebalanceKind::AddBrokers(b) => b.clone(),
        RebalanceKind::RemoveBrokers {
            brokers,
            destinations,
        } => brokers.iter().chain(destinations).copied().collect(),
        other => other.named_brokers(),
    };
    let mut unknown: Vec<i32> = given.into_iter().filter(|b| !known.contains(b)).collect();
    unknown.sort_unstable();
    unknown.dedup();
    if !unknown.is_empty() {
        return Err(InputError::UnknownBrokers {
            unknown,
            known: known.to_vec(),
        });
    }
    if let RebalanceKind::RemoveBrokers { brokers, .. } = kind
        && known.iter().all(|k| brokers.contains(k))
    {
        return Err(InputError::RemovesEveryBroker(brokers.clone()));
    }
    Ok(())
}

/// The request of `add`, `remove`, `full` (and `imbalance` and `operate`, with a template
/// merged in): the request for `kind` with every option, refused ([`FailureKind::Invalid`],
/// nothing sent) when an option does not reach the endpoint (see [`options`]).
///
/// # Errors
/// An option the endpoint does not accept, or a `--cc-param` that cannot be passed through.
pub fn checked_request(
    kind: &RebalanceKind,
    a: &ProposalSpec,
    full: Option<&FullOptions>,
) -> Result<RebalanceRequest, Classified> {
    let bad = options::unsupported(kind, a);
    if !bad.is_empty() {
        return Err(Classified::new(
            FailureKind::Invalid,
            format!(
                "{} cannot be used with Cruise Control's {} endpoint; nothing was changed",
                bad.join(", "),
                kind.endpoint()
            ),
        ));
    }
    let mut request = proposal_request(kind, a);
    if let Some(full) = full {
        options::apply_full(&mut request, full);
    }
    request.extra = options::cc_params(&request, &a.cc_params)
        .map_err(|e| Classified::new(FailureKind::Invalid, format!("{e}; nothing was changed")))?;
    Ok(request)
}

/// The dry-run request for `kind` with the spec's goal and execution options (no check).
#[must_use]
pub fn proposal_request(kind: &RebalanceKind, a: &ProposalSpec) -> RebalanceRequest {
    RebalanceRequest {
        kind: kind.clone(),
        goals: GoalOptions {
            goals: a.goals.clone(),
            excluded_topics: a.excluded_topics.clone(),
            skip_hard_goal_check: a.skip_hard_goal_check,
            exclude_recently_demoted_brokers: a.exclude_recently_demoted_brokers,
            ..GoalOptions::default()
        },
        execution: ExecutionOptions {
            dryrun: true,
            replication_throttle: a.replication_throttle,
            concurrent_partition_movements_per_broker: a.concurrent_partition_movements_per_broker,
            concurrent_leader_movements: a.concurrent_leader_movements,
            max_partition_movements_in_cluster: a.max_partition_movements_in_cluster,
            replica_movement_strategies: a.replica_movement_strategies.clone(),
            concurrent_intra_broker_partition_movements: None,
        },
        reason: a.reason.clone(),
        verbose: true,
        review_id: None,
        extra: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destination_that_is_removed_is_a_usage_error() {
        let k = RebalanceKind::RemoveBrokers {
            brokers: vec![3, 4],
            destinations: vec![1, 4],
        };
        assert_eq!(
            validate_args(&k),
            Err(InputError::DestinationIsRemoved(vec![4]))
        );
        assert!(validate_args(&RebalanceKind::AddBrokers(vec![4])).is_ok());
    }

    #[test]
    fn unknown_and_controller_only_ids_are_rejected() {
        let known = [1, 2, 3, 4];
        assert!(validate_against_cluster(&RebalanceKind::AddBrokers(vec![4]), &known).is_ok());
        let e = validate_against_cluster(&RebalanceKind::AddBrokers(vec![0, 4, 9]), &known)
            .unwrap_err();
        assert_eq!(
            e,
            InputError::UnknownBrokers {
                unknown: vec![0, 9],
                known: known.to_vec()
            }
        );
        assert!(e.to_string().contains("controller-only"));
        let dest = RebalanceKind::RemoveBrokers {
            brokers: vec![4],
            destinations: vec![7],
        };
        assert!(matches!(
            validate_against_cluster(&dest, &known),
            Err(InputError::UnknownBrokers { .. })
        ));
        let all = RebalanceKind::RemoveBrokers {
            brokers: vec![1, 2, 3, 4],
            destinations: vec![],
        };
        assert!(matches!(
            validate_against_cluster(&all, &known),
            Err(InputError::RemovesEveryBroker(_))
        ));
        assert!(validate_against_cluster(&RebalanceKind::Full, &[]).is_ok());
    }
}
