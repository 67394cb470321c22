//! Topics a roll cannot keep available, decided before anything restarts.
//!
//! The roller keeps every partition at or above its min ISR *if that is possible*; for some
//! topics it is not, whatever the order: a single replica goes offline with its broker, a
//! partition whose replication factor is at or below `min.insync.replicas` drops below it as
//! soon as any replica restarts (acks=all producers fail), and partitions already under min
//! ISR or offline have nothing to spare. Operators want that list before they start (and
//! `roll --strict` refuses while it is not empty), and afterwards the summary says which of
//! them the roll actually touched. Pure: a [`ClusterSnapshot`] and node ids in, a list out.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::model::{ClusterSnapshot, NodeId};

/// Why a topic cannot stay available through a roll.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Risk {
    /// Replication factor 1: the partition is offline while its broker restarts.
    ReplicationFactorOne,
    /// Replication factor at or below the effective `min.insync.replicas`: acks=all producers
    /// fail while any replica restarts.
    FactorAtOrBelowMinIsr {
        replication_factor: u32,
        min_isr: u32,
    },
    /// Partitions already under their min ISR.
    UnderMinIsr { partitions: Vec<i32> },
    /// Partitions without a leader.
    Offline { partitions: Vec<i32> },
}

impl std::fmt::Display for Risk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(",");
        match self {
            Risk::ReplicationFactorOne => write!(f, "replication factor 1"),
            Risk::FactorAtOrBelowMinIsr {
                replication_factor,
                min_isr,
            } => write!(
                f,
                "replication factor {replication_factor} <= min.insync.replicas {min_isr} (acks=all fails while a replica restarts)"
            ),
            Risk::UnderMinIsr { partitions } => {
                write!(
                    f,
                    "partition(s) {} already under min ISR",
                    parts(partitions)
                )
            }
            Risk::Offline { partitions } => {
                write!(f, "partition(s) {} offline", parts(partitions))
            }
        }
    }
}

/// One topic the roll cannot keep available, with the nodes of the roll that hold it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RiskyTopic {
    pub topic: String,
    pub risks: Vec<Risk>,
    /// Nodes holding a replica of it that the roll restarts.
    pub nodes: Vec<NodeId>,
}

impl RiskyTopic {
    /// `orders: replication factor 1 (nodes 2)`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "{}: {} (on node(s) {})",
            self.topic,
            self.risks
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
            self.nodes
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        )
    }
}

/// The topics that have a replica on one of `restarting` and cannot stay available while it
/// restarts. A topic with no replica on those nodes is left out: this roll does not touch it.
#[must_use]
pub fn risky_topics(snapshot: &ClusterSnapshot, restarting: &BTreeSet<NodeId>) -> Vec<RiskyTopic> {
    #[derive(Default)]
    struct Acc {
        factors: BTreeSet<u32>,
        min_isr: Option<u32>,
        under: Vec<i32>,
        offline: Vec<i32>,
        nodes: BTreeSet<NodeId>,
    }
    let mut by_topic: BTreeMap<&str, Acc> = BTreeMap::new();
    for p in &snapshot.partitions {
        let touched: Vec<NodeId> = p
            .all_replicas()
            .filter(|r| restarting.contains(r))
            .collect();
        if touched.is_empty() {
            continue;
        }
        let acc = by_topic.entry(p.tp.topic.as_str()).or_default();
        acc.nodes.extend(touched);
        let rf = u32::try_from(p.target_replicas().count()).unwrap_or(u32::MAX);
        acc.factors.insert(rf);
        let min_isr = snapshot.effective_min_isr(p);
        if let Some(m) = min_isr {
            acc.min_isr = Some(acc.min_isr.map_or(m, |a: u32| a.max(m)));
            if p.leader.is_some() && (p.target_isr().count() as u64) < u64::from(m) {
                acc.under.push(p.tp.partition);
            }
        }
        if p.leader.is_none() {
            acc.offline.push(p.tp.partition);
        }
    }
    by_topic
        .into_iter()
        .filter_map(|(topic, mut acc)| {
            let mut risks = Vec::new();
            let smallest = acc.factors.iter().next().copied().unwrap_or(0);
            if smallest <= 1 {
                risks.push(Risk::ReplicationFactorOne);
            } else if let Some(m) = acc.min_isr
                && smallest <= m
            {
                risks.push(Risk::FactorAtOrBelowMinIsr {
                    replication_factor: smallest,
                    min_isr: m,
                });
            }
            acc.under.sort_unstable();
            acc.offline.sort_unstable();
            if !acc.under.is_empty() {
                risks.push(Risk::UnderMinIsr {
                    partitions: acc.under,
                });
            }
            if !acc.offline.is_empty() {
                risks.push(Risk::Offline {
                    partitions: acc.offline,
                });
            }
            (!risks.is_empty()).then(|| RiskyTopic {
                topic: topic.to_string(),
                risks,
                nodes: acc.nodes.into_iter().collect(),
            })
        })
        .collect()
}

/// The risky topics that the roll actually touched: those with a replica on a restarted node.
#[must_use]
pub fn affected(risky: &[RiskyTopic], restarted: &[NodeId]) -> Vec<RiskyTopic> {
    risky
        .iter()
        .filter_map(|t| {
            let nodes: Vec<NodeId> = t
                .nodes
                .iter()
                .copied()
                .filter(|n| restarted.contains(n))
                .collect();
            (!nodes.is_empty()).then(|| RiskyTopic { nodes, ..t.clone() })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::{PartitionSnapshot, TopicPartition, TopicSettings};

    fn p(
        topic: &str,
        n: i32,
        replicas: &[i32],
        isr: &[i32],
        leader: Option<i32>,
    ) -> PartitionSnapshot {
        PartitionSnapshot {
            tp: TopicPartition {
                topic: topic.into(),
                partition: n,
            },
            replicas: replicas.iter().copied().map(NodeId).collect(),
            isr: isr.iter().copied().map(NodeId).collect(),
            leader: leader.map(NodeId),
            adding: Vec::new(),
            removing: Vec::new(),
        }
    }

    fn snapshot(parts: Vec<PartitionSnapshot>, min_isr: &[(&str, u32)]) -> ClusterSnapshot {
        let mut topics = BTreeMap::new();
        for part in &parts {
            topics.insert(
                part.tp.topic.clone(),
                TopicSettings {
                    min_insync_replicas: min_isr
                        .iter()
                        .find(|(t, _)| *t == part.tp.topic)
                        .map(|(_, m)| *m),
                },
            );
        }
        ClusterSnapshot {
            partitions: parts,
            topics,
            ..ClusterSnapshot::default()
        }
    }

    #[test]
    fn each_kind_of_risk_is_found_and_safe_topics_are_not() {
        let s = snapshot(
            vec![
                p("rf1", 0, &[1], &[1], Some(1)),
                p("tight", 0, &[1, 2], &[1, 2], Some(1)),
                p("safe", 0, &[1, 2, 3], &[1, 2, 3], Some(1)),
                p("under", 0, &[1, 2, 3], &[1], Some(1)),
                p("dead", 0, &[2, 3], &[], None),
                p("elsewhere", 0, &[3], &[3], Some(3)),
            ],
            &[("tight", 2), ("safe", 2), ("under", 2), ("dead", 1)],
        );
        let r = risky_topics(&s, &BTreeSet::from([NodeId(1), NodeId(2)]));
        let names: Vec<&str> = r.iter().map(|t| t.topic.as_str()).collect();
        assert_eq!(names, vec!["dead", "rf1", "tight", "under"]);
        assert_eq!(r[1].risks, vec![Risk::ReplicationFactorOne]);
        assert_eq!(
            r[2].risks,
            vec![Risk::FactorAtOrBelowMinIsr {
                replication_factor: 2,
                min_isr: 2
            }]
        );
        assert_eq!(
            r[3].risks,
            vec![Risk::UnderMinIsr {
                partitions: vec![0]
            }]
        );
        assert_eq!(
            r[0].risks,
            vec![Risk::Offline {
                partitions: vec![0]
            }]
        );
        assert_eq!(r[2].nodes, vec![NodeId(1), NodeId(2)]);
        assert!(
            r[1].describe()
                .contains("rf1: replication factor 1 (on node(s) 1)")
        );

        // rf1 lives on node 1 only: a roll that restarted only node 2 did not touch it.
        let touched = affected(&r, &[NodeId(2)]);
        let names: Vec<&str> = touched.iter().map(|t| t.topic.as_str()).collect();
        assert_eq!(names, vec!["dead", "tight", "under"]);
        assert_eq!(touched[1].nodes, vec![NodeId(2)]);
    }
}
