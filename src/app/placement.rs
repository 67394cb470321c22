//! What an execution changed, as Kafka shows it: the replica placement read before and after.
//!
//! A real Cruise Control reports its execution coarsely: partition counters vanish in the leader
//! phase, only `state` remains once idle, and its leader count includes leaders that move with
//! their replicas (reference section 13). So the summary of `rebalance ... --execute` also says
//! what kafkaops itself saw change in the cluster's metadata, when it can reach Kafka
//! (`--bootstrap-servers`). Reading is best effort: without Kafka the summary has Cruise
//! Control's figures only.

use std::collections::BTreeMap;

use serde::Serialize;

use std::time::Duration;

use super::Reporter;
use crate::kafka::KafkaAdmin;
use crate::kafka::ffi::TopicDescription;
use crate::settings::KafkaSettings;

/// (topic, partition) -> (leader, replicas sorted).
pub type Placement = BTreeMap<(String, i32), (Option<i32>, Vec<i32>)>;

/// What changed between two placements.
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PlacementChange {
    /// Partitions whose replica set changed.
    pub partitions_moved: u64,
    /// Partitions whose leader changed (with or without their replicas).
    pub leaders_changed: u64,
}

/// How far an execution's proposal is done, as Kafka shows it now: what `rebalance stop` and
/// `rebalance status --task --follow` end with (they did not see the placement before the
/// execution, but the task's proposal says where every partition was to go).
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ProposalDone {
    /// Partitions whose replica set the proposal changes.
    pub movements: u64,
    /// Of those, the ones whose replica set in Kafka is now the proposed one.
    pub done: u64,
    /// Partitions whose replicas the proposal only reorders (a leader change): Cruise Control's
    /// executor counts them as partition movements, the proposal as leadership moves.
    pub reorders: u64,
}

/// How far `proposals` are done in `now` (pure); partitions Kafka no longer shows are not done.
#[must_use]
pub fn proposal_done(
    proposals: &[crate::cruise_control::model::Proposal],
    now: &Placement,
) -> ProposalDone {
    let mut d = ProposalDone {
        movements: 0,
        done: 0,
        reorders: 0,
    };
    for p in proposals {
        let (mut old, mut new) = (p.old_replicas.clone(), p.new_replicas.clone());
        old.sort_unstable();
        new.sort_unstable();
        if old == new {
            if p.old_replicas != p.new_replicas {
                d.reorders += 1;
            }
            continue;
        }
        d.movements += 1;
        let key = (p.topic_partition.topic.clone(), p.topic_partition.partition);
        if now.get(&key).is_some_and(|(_, r)| *r == new) {
            d.done += 1;
        }
    }
    d
}

/// The placement of every partition in `topics` (pure).
#[must_use]
pub fn placement_of(topics: &[TopicDescription]) -> Placement {
    let mut m = Placement::new();
    for t in topics {
        for p in &t.partitions {
            let mut r = p.replicas.clone();
            r.sort_unstable();
            m.insert((t.name.clone(), p.partition), (p.leader, r));
        }
    }
    m
}

/// What changed from `before` to `after`, over the partitions both know (pure).
#[must_use]
pub fn changes(before: &Placement, after: &Placement) -> PlacementChange {
    let mut c = PlacementChange {
        partitions_moved: 0,
        leaders_changed: 0,
    };
    for (k, (leader, replicas)) in before {
        if let Some((l, r)) = after.get(k) {
            if r != replicas {
                c.partitions_moved += 1;
            }
            if l != leader {
                c.leaders_changed += 1;
            }
        }
    }
    c
}

/// Reads the placement of every topic, or `None` (with a note) when Kafka is not configured or
/// cannot be read.
pub async fn read(
    settings: &KafkaSettings,
    request_timeout: Duration,
    reporter: &dyn Reporter,
) -> Option<Placement> {
    settings.bootstrap_servers.as_ref()?;
    let read = async {
        let kafka = super::clients::kafka(settings, request_timeout, None).await?;
        let names = kafka.list_topics().await?;
        anyhow::Ok(placement_of(&kafka.describe_topics(names).await?))
    };
    match read.await {
        Ok(p) => Some(p),
        Err(e) => {
            reporter.note(&format!("Cannot read the placement from Kafka: {e:#}"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::ffi::PartitionDescription;

    fn topic(parts: &[(i32, i32, &[i32])]) -> TopicDescription {
        TopicDescription {
            name: "t".into(),
            internal: false,
            partitions: parts
                .iter()
                .map(|(p, l, r)| PartitionDescription {
                    partition: *p,
                    leader: Some(*l),
                    replicas: r.to_vec(),
                    isr: r.to_vec(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_proposal_is_done_where_kafka_shows_its_new_replica_sets() {
        use crate::cruise_control::model::Proposal;
        let prop = |p: i32, old: &[i32], new: &[i32]| Proposal {
            topic_partition: crate::cruise_control::lenient::TopicPartition {
                topic: "t".into(),
                partition: p,
            },
            old_leader: old.first().map(|l| i64::from(*l)),
            old_replicas: old.to_vec(),
            new_replicas: new.to_vec(),
        };
        let now = placement_of(&[topic(&[
            (0, 4, &[4, 2]),
            (1, 1, &[1, 2]),
            (2, 3, &[3, 2]),
            (3, 2, &[1, 2]),
        ])]);
        let d = proposal_done(
            &[
                prop(0, &[1, 2], &[4, 2]),
                prop(1, &[1, 2], &[4, 2]),
                prop(2, &[2, 3], &[3, 2]),
                prop(3, &[1, 2], &[2, 1]),
                prop(9, &[1, 2], &[2, 3]),
            ],
            &now,
        );
        assert_eq!(
            d,
            ProposalDone {
                movements: 3,
                done: 1,
                reorders: 2
            }
        );
    }

    #[test]
    fn counts_moved_replica_sets_and_changed_leaders() {
        let before = placement_of(&[topic(&[(0, 1, &[1, 2]), (1, 2, &[2, 3]), (2, 3, &[3, 1])])]);
        // 0: replicas moved (and leader); 1: reordered only (same set), leader moved; 2: same.
        let after = placement_of(&[topic(&[(0, 4, &[4, 2]), (1, 3, &[3, 2]), (2, 3, &[1, 3])])]);
        assert_eq!(
            changes(&before, &after),
            PlacementChange {
                partitions_moved: 1,
                leaders_changed: 2
            }
        );
        assert_eq!(
            changes(&before, &before),
            PlacementChange {
                partitions_moved: 0,
                leaders_changed: 0
            }
        );
    }
}
