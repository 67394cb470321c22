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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PlacementChange {
    /// Partitions whose replica set changed.
    pub partitions_moved: u64,
    /// Partitions whose leader changed (with or without their replicas).
    pub leaders_changed: u64,
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
