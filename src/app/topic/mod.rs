//! Replication-factor rounds: the use case `topic set-rf` and `operate` share.
//!
//! Every round sends one `topic_configuration` request with every pending topic, grouped by
//! target factor (the JSON body; names are escaped so the whole-name regex matches only them).
//! The engine ([`crate::engine::replicas`]) decides what is pending; here is how a round's
//! request is built, once for both callers. [`set_rf`] is `topic set-rf`'s use case.

pub mod set_rf;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::cruise_control::model::Proposal;
use crate::cruise_control::params::{ExecutionOptions, GoalOptions, TopicConfigurationRequest};
use crate::engine::replicas::{ReplicasState, whole_names_regex};

/// What a round is sent with besides its topics: the execution's throttle and concurrency, and
/// the request's reason. `Default`: Cruise Control's own settings and no reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundOptions {
    pub replication_throttle: Option<u64>,
    pub concurrent_partition_movements_per_broker: Option<u32>,
    pub concurrent_leader_movements: Option<u32>,
    pub reason: String,
}

/// The request every round sends (its `by_factor` filled per round, see [`groups`]): the
/// rack-awareness check is skipped only when no broker has a rack (`racks` false); throttle and
/// concurrency pass through.
#[must_use]
pub fn base_request(options: &RoundOptions, racks: bool) -> TopicConfigurationRequest {
    TopicConfigurationRequest {
        topic: String::new(),
        replication_factor: 0,
        by_factor: BTreeMap::new(),
        skip_rack_awareness_check: !racks,
        execution: ExecutionOptions {
            dryrun: true,
            replication_throttle: options.replication_throttle,
            concurrent_partition_movements_per_broker: options
                .concurrent_partition_movements_per_broker,
            concurrent_leader_movements: options.concurrent_leader_movements,
            ..ExecutionOptions::default()
        },
        goals: GoalOptions::default(),
        reason: options.reason.clone(),
    }
}

/// What a round sends: every pending topic, grouped by target factor, as whole-name regexes.
#[must_use]
pub fn groups(state: &ReplicasState) -> BTreeMap<u16, String> {
    state
        .to_send()
        .into_iter()
        .map(|(rf, topics)| (rf, whole_names_regex(&topics)))
        .collect()
}

/// The request of the round for `state`'s pending changes.
#[must_use]
pub fn round_request(
    state: &ReplicasState,
    options: &RoundOptions,
    racks: bool,
) -> TopicConfigurationRequest {
    let mut request = base_request(options, racks);
    request.by_factor = groups(state);
    request
}

/// One topic a replication-factor proposal touches, with what it moves there.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TouchedTopic {
    pub topic: String,
    /// One of the topics the command names (its factor changes); `false`: Cruise Control moves
    /// it as well (a real server also moves other topics' leaders, reference section 14).
    pub named: bool,
    /// Partitions whose replica set changes.
    pub replica_movements: u64,
    /// Partitions whose leader changes.
    pub leader_movements: u64,
}

/// Every topic the proposal's movements touch (pure), the named ones first, each once, in name
/// order. A partition counts as a replica movement when its replica set changes and as a leader
/// movement when its first replica (the preferred leader) changes.
#[must_use]
pub fn touched_topics(proposals: &[Proposal], named: &BTreeSet<String>) -> Vec<TouchedTopic> {
    let mut by: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for p in proposals {
        let old: BTreeSet<i32> = p.old_replicas.iter().copied().collect();
        let new: BTreeSet<i32> = p.new_replicas.iter().copied().collect();
        let old_leader = p
            .old_leader
            .and_then(|l| i32::try_from(l).ok())
            .or_else(|| p.old_replicas.first().copied());
        let replica = u64::from(old != new);
        let leader = u64::from(old_leader != p.new_replicas.first().copied());
        if replica + leader == 0 {
            continue;
        }
        let e = by.entry(p.topic_partition.topic.as_str()).or_default();
        e.0 += replica;
        e.1 += leader;
    }
    let mut out: Vec<TouchedTopic> = by
        .into_iter()
        .map(|(t, (r, l))| TouchedTopic {
            topic: t.to_string(),
            named: named.contains(t),
            replica_movements: r,
            leader_movements: l,
        })
        .collect();
    out.sort_by_key(|t| !t.named);
    out
}

/// A held node (issue 29) a proposal places new replicas on.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OntoHeld {
    pub node: i32,
    pub reason: String,
    /// `topic-partition` of every partition that gains a replica there.
    pub partitions: Vec<String>,
}

/// The held nodes `proposals` place a new replica on (pure): a broker in a partition's new
/// replica set that was not in its old one. `topic_configuration` takes no destination, so this
/// is how a replication-factor change is kept off held nodes: its proposal is checked.
#[must_use]
pub fn onto_held(
    proposals: &[Proposal],
    held: &BTreeMap<crate::engine::model::NodeId, String>,
) -> Vec<OntoHeld> {
    let mut by: BTreeMap<i32, Vec<String>> = BTreeMap::new();
    for p in proposals {
        for b in p
            .new_replicas
            .iter()
            .filter(|b| !p.old_replicas.contains(b))
        {
            if held.contains_key(&crate::engine::model::NodeId(*b)) {
                by.entry(*b).or_default().push(format!(
                    "{}-{}",
                    p.topic_partition.topic, p.topic_partition.partition
                ));
            }
        }
    }
    by.into_iter()
        .map(|(node, partitions)| OntoHeld {
            node,
            reason: held
                .get(&crate::engine::model::NodeId(node))
                .cloned()
                .unwrap_or_default(),
            partitions,
        })
        .collect()
}

/// What is said of held nodes a proposal places replicas on.
#[must_use]
pub fn onto_held_message(hits: &[OntoHeld]) -> String {
    let each = hits
        .iter()
        .map(|h| {
            format!(
                "node {} ({}): {}",
                h.node,
                h.reason,
                h.partitions.join(", ")
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "Cruise Control's proposal places new replicas on held nodes ({each}); topic_configuration cannot be told to keep replicas off a broker, so kafkaops does not execute it: remove the hold (`kafkaops hold remove`) or wait until it expires"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cruise_control::lenient::TopicPartition;

    fn p(topic: &str, old: &[i32], new: &[i32]) -> Proposal {
        Proposal {
            topic_partition: TopicPartition {
                topic: topic.into(),
                partition: 0,
            },
            old_leader: old.first().map(|l| i64::from(*l)),
            old_replicas: old.to_vec(),
            new_replicas: new.to_vec(),
        }
    }

    #[test]
    fn only_new_replicas_on_held_nodes_count() {
        let held: BTreeMap<crate::engine::model::NodeId, String> =
            [(crate::engine::model::NodeId(3), "disk swap".to_string())].into();
        let proposals = [
            p("orders", &[1], &[1, 3]),
            p("orders", &[3, 1], &[1, 3]),
            p("orders", &[1, 2, 3], &[1, 2]),
            p("other", &[2], &[2, 1]),
        ];
        let hits = onto_held(&proposals, &held);
        assert_eq!(
            hits,
            vec![OntoHeld {
                node: 3,
                reason: "disk swap".into(),
                partitions: vec!["orders-0".into()]
            }]
        );
        assert!(onto_held_message(&hits).contains("node 3 (disk swap): orders-0"));
        assert!(onto_held(&proposals, &BTreeMap::new()).is_empty());
    }

    #[test]
    fn other_topics_whose_leaders_move_are_listed_after_the_named_ones() {
        let proposals = [
            p("zeta", &[1, 2], &[2, 1]),
            p("orders", &[1, 2, 3], &[1, 2]),
            p("alpha", &[3, 1], &[1, 3]),
            p("alpha", &[2, 3], &[3, 2]),
            p("same", &[1, 2], &[1, 2]),
        ];
        let named: BTreeSet<String> = ["orders".to_string()].into();
        let t = touched_topics(&proposals, &named);
        let names: Vec<(&str, bool, u64, u64)> = t
            .iter()
            .map(|t| {
                (
                    t.topic.as_str(),
                    t.named,
                    t.replica_movements,
                    t.leader_movements,
                )
            })
            .collect();
        assert_eq!(
            names,
            vec![
                ("orders", true, 1, 0),
                ("alpha", false, 0, 2),
                ("zeta", false, 0, 1)
            ]
        );
    }
}
