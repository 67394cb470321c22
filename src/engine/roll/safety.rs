//! The two safety gates a restart must pass: partition availability
//! (Strimzi's `KafkaAvailability.canRoll`, hardened against reassignments in
//! flight: the ISR must hold both now and once they complete, against the
//! partition's effective `min.insync.replicas`, and an unknown value refuses
//! instead of defaulting to 1) and KRaft quorum health (Strimzi's
//! `KafkaQuorumCheck`, counting controllers from their assigned roles).
//!
//! Both are pure functions of a [`ClusterSnapshot`], so the batching code, the
//! plan preview and the property tests all ask the very same question.

use std::collections::HashMap;

use crate::engine::model::{ClusterSnapshot, NodeId, effective_min_isr_with};

use super::error::RollError;

/// Name of the controller setting the quorum check reads from the active
/// controller.
pub const FETCH_TIMEOUT_KEY: &str = "controller.quorum.fetch.timeout.ms";
/// Kafka's default for [`FETCH_TIMEOUT_KEY`].
pub const DEFAULT_FETCH_TIMEOUT_MS: i64 = 2000;

/// Partitions per node: indices into `snapshot.partitions` of every partition
/// a node holds or is about to hold a replica of, plus each partition's
/// effective `min.insync.replicas` (`None` = unknown). Built once per decision
/// in one pass.
#[derive(Debug, Default)]
pub struct PartitionIndex {
    by_node: HashMap<NodeId, Vec<u32>>,
    min_isr: Vec<Option<u32>>,
}

impl PartitionIndex {
    #[must_use]
    pub fn build(snapshot: &ClusterSnapshot) -> PartitionIndex {
        let broker_min: HashMap<NodeId, u32> = snapshot
            .nodes
            .iter()
            .filter_map(|n| n.broker_min_isr().map(|m| (n.id, m)))
            .collect();
        let mut by_node: HashMap<NodeId, Vec<u32>> = HashMap::new();
        let mut min_isr = Vec::with_capacity(snapshot.partitions.len());
        for (i, p) in snapshot.partitions.iter().enumerate() {
            // More than 2^32 partitions cannot be observed; saturate rather
            // than panic.
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            for r in p.all_replicas() {
                by_node.entry(r).or_default().push(i);
            }
            min_isr.push(effective_min_isr_with(&snapshot.topics, p, |id| {
                broker_min.get(&id).copied()
            }));
        }
        PartitionIndex { by_node, min_isr }
    }

    /// Partition indices of `node` (empty if it holds none).
    #[must_use]
    pub fn of(&self, node: NodeId) -> &[u32] {
        self.by_node.get(&node).map_or(&[], Vec::as_slice)
    }

    /// Effective `min.insync.replicas` of partition `pi` (`None`: unknown).
    #[must_use]
    pub fn min_isr(&self, pi: u32) -> Option<u32> {
        self.min_isr.get(pi as usize).copied().flatten()
    }
}

/// How strictly to judge a node's restart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strictness {
    /// Strimzi's `canRoll`: also refuse when a partition is already under
    /// min ISR and the node holds a replica of it (it may be the first to
    /// catch up).
    Healthy,
    /// For a node that is already not running/ready: refuse only when the
    /// node is still in an ISR its restart would take below min ISR.
    /// Restarting a replica that is out of sync cannot lower any ISR.
    Unhealthy,
}

/// One ISR judged for one node: how big it is and whether the node is in it.
fn judge(
    isr: impl Iterator<Item = NodeId>,
    node: NodeId,
    holds_replica: bool,
    min_isr: usize,
    strictness: Strictness,
) -> Option<(usize, bool)> {
    let mut size = 0usize;
    let mut in_isr = false;
    for r in isr {
        size += 1;
        in_isr |= r == node;
    }
    let blocked = if in_isr {
        size <= min_isr
    } else {
        strictness == Strictness::Healthy && size < min_isr && holds_replica
    };
    blocked.then_some((size, in_isr))
}

/// Can `node` restart without taking a partition below `min.insync.replicas`?
///
/// Rules, per partition the node holds or is about to hold:
/// - refuse when the partition's effective min ISR is unknown (fail safe:
///   treating it as 1 would allow any restart);
/// - skip topics whose replication factor is not above `min.insync.replicas`
///   (Strimzi's `replicas.size() <= minIsr`: such partitions cannot be rolled
///   without a gap anyway, and refusing would block every roll forever);
/// - judge the ISR both as it is NOW (replicas being removed are still in it
///   and still count: producers need them until the reassignment completes)
///   and as it will be once an ongoing reassignment completes (replicas being
///   removed do not count, replicas being added only once in sync), so a
///   Cruise Control move racing the roll cannot take the partition below min
///   ISR either way;
/// - refuse if the node is in such an ISR and the ISR minus the node is below
///   min ISR;
/// - with [`Strictness::Healthy`], also refuse if such an ISR is already below
///   min ISR and the node holds a replica.
///
/// # Errors
/// The first partition that blocks the restart.
pub fn check_availability(
    snapshot: &ClusterSnapshot,
    index: &PartitionIndex,
    node: NodeId,
    strictness: Strictness,
) -> Result<(), RollError> {
    for &pi in index.of(node) {
        let Some(p) = snapshot.partitions.get(pi as usize) else {
            continue;
        };
        let Some(min_isr) = index.min_isr(pi) else {
            return Err(RollError::MinIsrUnknown {
                node,
                topic: p.tp.topic.clone(),
                partition: p.tp.partition,
            });
        };
        let min = min_isr as usize;
        if p.replicas.len() <= min {
            continue;
        }
        let now = judge(
            p.isr.iter().copied(),
            node,
            p.replicas.contains(&node),
            min,
            strictness,
        );
        let blocked = now.or_else(|| {
            judge(
                p.target_isr(),
                node,
                p.target_replicas().any(|r| r == node),
                min,
                strictness,
            )
        });
        if let Some((isr, in_isr)) = blocked {
            let (topic, partition) = (p.tp.topic.clone(), p.tp.partition);
            return Err(if in_isr && isr == min {
                RollError::WouldBreakMinIsr {
                    node,
                    topic,
                    partition,
                    isr,
                    min_isr,
                }
            } else {
                RollError::AlreadyUnderMinIsr {
                    node,
                    topic,
                    partition,
                    isr,
                    min_isr,
                }
            });
        }
    }
    Ok(())
}

/// Controllers by currently assigned role, sorted by id.
#[must_use]
pub fn controllers(snapshot: &ClusterSnapshot) -> Vec<NodeId> {
    let mut c: Vec<NodeId> = snapshot
        .nodes
        .iter()
        .filter(|n| n.roles.controller)
        .map(|n| n.id)
        .collect();
    c.sort_unstable();
    c
}

/// The active controller's `controller.quorum.fetch.timeout.ms`, or Kafka's
/// default when it is not known.
#[must_use]
pub fn fetch_timeout_ms(snapshot: &ClusterSnapshot) -> i64 {
    snapshot
        .quorum
        .as_ref()
        .and_then(|q| q.leader)
        .and_then(|l| snapshot.node(l))
        .and_then(|n| n.config.get(FETCH_TIMEOUT_KEY))
        .and_then(|e| e.value.as_deref())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|v| *v > 0)
        .unwrap_or(DEFAULT_FETCH_TIMEOUT_MS)
}

/// Controllers (by assigned role) that count as caught up from the active
/// controller's point of view: the leader itself, and voters whose
/// `LastCaughtUpTimestamp` is within the fetch timeout of the leader's.
///
/// # Errors
/// `QuorumUnknown` when there is no quorum description or no leader.
pub fn caught_up_controllers(snapshot: &ClusterSnapshot) -> Result<Vec<NodeId>, RollError> {
    let quorum = snapshot
        .quorum
        .as_ref()
        .ok_or_else(|| RollError::QuorumUnknown {
            detail: "the quorum could not be described".into(),
        })?;
    let leader = quorum.leader.ok_or_else(|| RollError::QuorumUnknown {
        detail: "the quorum has no leader".into(),
    })?;
    // Voters and observers alike: a controller (by role) that is not a voter yet (KIP-853)
    // fetches as an observer, and must not count as lagging only for that.
    let ts = |id: NodeId| {
        quorum
            .member(id)
            .and_then(|v| v.last_caught_up_ms)
            .filter(|t| *t >= 0)
    };
    let leader_ts = ts(leader).ok_or_else(|| RollError::QuorumUnknown {
        detail: format!("no LastCaughtUpTimestamp for the leader {leader}"),
    })?;
    let timeout = fetch_timeout_ms(snapshot);
    Ok(controllers(snapshot)
        .into_iter()
        .filter(|&c| c == leader || ts(c).is_some_and(|t| leader_ts - t < timeout))
        .collect())
}

/// Majority rule for a quorum of `n` controllers with `remaining` caught up
/// after a restart: Strimzi's (N=1 always, N=2 the other must be caught up,
/// else a majority of N).
#[must_use]
pub fn quorum_needed(n: usize) -> usize {
    match n {
        0 | 1 => 0,
        2 => 1,
        _ => n / 2 + 1,
    }
}

/// Can the controllers in `restarting` restart together without the quorum
/// losing its majority? Counts controllers from assigned roles (not the
/// voters list, which is inconsistent while scaling) and uses the active
/// controller's fetch timeout.
///
/// # Errors
/// `QuorumAtRisk`, or `QuorumUnknown` when the quorum cannot be judged.
pub fn check_quorum(snapshot: &ClusterSnapshot, restarting: &[NodeId]) -> Result<(), RollError> {
    let all = controllers(snapshot);
    let nodes: Vec<NodeId> = restarting
        .iter()
        .copied()
        .filter(|n| all.contains(n))
        .collect();
    if nodes.is_empty() || all.len() <= 1 {
        return Ok(());
    }
    let caught_up = caught_up_controllers(snapshot)?;
    let remaining = caught_up.iter().filter(|c| !nodes.contains(c)).count();
    let needed = quorum_needed(all.len());
    if remaining < needed {
        return Err(RollError::QuorumAtRisk {
            nodes,
            caught_up: remaining,
            controllers: all.len(),
            needed,
        });
    }
    // Only voters elect and commit: counting observer controllers above must never let the
    // voters themselves drop below a caught-up majority. Voters are taken among the controllers
    // by assigned role, so stale entries of a voters list (scaling, KIP-853) do not count.
    let voters: Vec<NodeId> = snapshot
        .quorum
        .as_ref()
        .map(|q| {
            q.voters
                .iter()
                .map(|v| v.id)
                .filter(|id| all.contains(id))
                .collect()
        })
        .unwrap_or_default();
    let restarting_voters = nodes.iter().filter(|n| voters.contains(n)).count();
    if voters.len() > 1 && restarting_voters > 0 {
        let remaining_voters = caught_up
            .iter()
            .filter(|c| voters.contains(c) && !nodes.contains(c))
            .count();
        let needed_voters = quorum_needed(voters.len());
        if remaining_voters < needed_voters {
            return Err(RollError::QuorumAtRisk {
                nodes,
                caught_up: remaining_voters,
                controllers: voters.len(),
                needed: needed_voters,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::{
        ConfigEntry, NodeRoles, NodeSnapshot, ObservedState, PartitionSnapshot, QuorumSnapshot,
        TopicPartition, TopicSettings, VoterState,
    };

    fn with_partition(replicas: &[i32], isr: &[i32], min: u32) -> ClusterSnapshot {
        ClusterSnapshot {
            partitions: vec![PartitionSnapshot {
                tp: TopicPartition {
                    topic: "t".into(),
                    partition: 0,
                },
                replicas: replicas.iter().map(|r| NodeId(*r)).collect(),
                isr: isr.iter().map(|r| NodeId(*r)).collect(),
                leader: None,
                adding: vec![],
                removing: vec![],
            }],
            topics: [(
                "t".to_string(),
                TopicSettings {
                    min_insync_replicas: Some(min),
                },
            )]
            .into(),
            ..ClusterSnapshot::default()
        }
    }

    fn can(s: &ClusterSnapshot, node: i32, strict: Strictness) -> bool {
        check_availability(s, &PartitionIndex::build(s), NodeId(node), strict).is_ok()
    }

    #[test]
    fn strimzi_can_roll_rules() {
        use Strictness::{Healthy, Unhealthy};
        // ISR above min: fine.
        assert!(can(&with_partition(&[1, 2, 3], &[1, 2, 3], 2), 1, Healthy));
        // ISR at min and node in it: blocked.
        assert!(!can(&with_partition(&[1, 2, 3], &[1, 2], 2), 1, Healthy));
        // Node out of sync, ISR at min: fine.
        assert!(can(&with_partition(&[1, 2, 3], &[1, 2], 2), 3, Healthy));
        // Already under min and node holds a replica: blocked when healthy,
        // allowed for an unhealthy out-of-sync node (it can only help).
        assert!(!can(&with_partition(&[1, 2, 3], &[1], 2), 3, Healthy));
        assert!(can(&with_partition(&[1, 2, 3], &[1], 2), 3, Unhealthy));
        // RF <= min ISR is skipped (note <=).
        assert!(can(&with_partition(&[1, 2], &[1, 2], 2), 1, Healthy));
        assert!(can(&with_partition(&[1], &[1], 1), 1, Healthy));
    }

    #[test]
    fn isr_must_hold_now_and_after_reassignments_and_unknown_min_isr_refuses() {
        use Strictness::Healthy;
        // The example: replicas [1,4,2], adding [4] (not in sync),
        // removing [2], ISR [1,2], min 2. Node 2 still holds an ISR place.
        let mut s = with_partition(&[1, 4, 2], &[1, 2], 2);
        s.partitions[0].adding = vec![NodeId(4)];
        s.partitions[0].removing = vec![NodeId(2)];
        assert!(matches!(
            check_availability(&s, &PartitionIndex::build(&s), NodeId(2), Healthy),
            Err(RollError::WouldBreakMinIsr { isr: 2, .. })
        ));
        // Node 1 stays the only target in-sync replica: refused too.
        assert!(!can(&s, 1, Healthy));
        // Unknown topic settings refuse, naming the partition.
        s.topics.clear();
        assert_eq!(
            check_availability(&s, &PartitionIndex::build(&s), NodeId(4), Healthy),
            Err(RollError::MinIsrUnknown {
                node: NodeId(4),
                topic: "t".into(),
                partition: 0
            })
        );
    }

    fn controller(id: i32) -> NodeSnapshot {
        NodeSnapshot {
            id: NodeId(id),
            roles: NodeRoles::CONTROLLER,
            state: ObservedState::Serving,
            reachable: true,
            rack: None,
            config: Default::default(),
            incarnation: None,
        }
    }

    fn quorum_snapshot(n: i32, ts: &[(i32, i64)]) -> ClusterSnapshot {
        ClusterSnapshot {
            nodes: (0..n).map(controller).collect(),
            quorum: Some(QuorumSnapshot {
                leader: Some(NodeId(0)),
                voters: ts
                    .iter()
                    .map(|(id, t)| VoterState {
                        id: NodeId(*id),
                        last_caught_up_ms: Some(*t),
                        last_fetch_ms: None,
                    })
                    .collect(),
                observers: vec![],
            }),
            ..ClusterSnapshot::default()
        }
    }

    #[test]
    fn observer_controllers_count_but_never_replace_a_voter_majority() {
        // Voters 0,1,2 and observer controller 3, all caught up: restarting 1 is fine (it
        // blocked every voter restart when observers were never counted as caught up).
        let mut s = quorum_snapshot(4, &[(0, 10_000), (1, 10_000), (2, 10_000)]);
        s.quorum.as_mut().unwrap().observers = vec![VoterState {
            id: NodeId(3),
            last_caught_up_ms: Some(10_000),
            last_fetch_ms: None,
        }];
        assert!(check_quorum(&s, &[NodeId(1)]).is_ok());
        // Voters 0,1,2 (2 lagging), observer controllers 3,4 caught up: by roles 3 of 5 would
        // remain, but only voter 0 of 3 would: refused.
        let mut s = quorum_snapshot(5, &[(0, 10_000), (1, 10_000), (2, 1_000)]);
        s.quorum.as_mut().unwrap().observers = [3, 4]
            .into_iter()
            .map(|id| VoterState {
                id: NodeId(id),
                last_caught_up_ms: Some(10_000),
                last_fetch_ms: None,
            })
            .collect();
        assert!(matches!(
            check_quorum(&s, &[NodeId(1)]),
            Err(RollError::QuorumAtRisk { controllers: 3, .. })
        ));
    }

    #[test]
    fn strimzi_quorum_rule() {
        let s = quorum_snapshot(3, &[(0, 10_000), (1, 10_000), (2, 9_000)]);
        assert!(check_quorum(&s, &[NodeId(1)]).is_ok());
        let s = quorum_snapshot(3, &[(0, 10_000), (1, 10_000), (2, 7_000)]);
        assert!(check_quorum(&s, &[NodeId(1)]).is_err());
        assert!(check_quorum(&s, &[NodeId(2)]).is_ok());
        // N = 5 needs three others.
        let s = quorum_snapshot(5, &[(0, 10_000), (1, 10_000), (2, 10_000), (3, 0), (4, 0)]);
        assert!(check_quorum(&s, &[NodeId(1)]).is_err());
        assert!(check_quorum(&s, &[NodeId(3)]).is_ok());
        // N = 2: the other must be caught up; N = 1: always.
        let s = quorum_snapshot(2, &[(0, 10_000), (1, 10_000)]);
        assert!(check_quorum(&s, &[NodeId(1)]).is_ok());
        assert!(check_quorum(&s, &[NodeId(0), NodeId(1)]).is_err());
        assert!(check_quorum(&quorum_snapshot(1, &[(0, 1)]), &[NodeId(0)]).is_ok());
        // No leader: unknown.
        let mut s = quorum_snapshot(3, &[(0, 1), (1, 1), (2, 1)]);
        s.quorum.as_mut().unwrap().leader = None;
        assert!(matches!(
            check_quorum(&s, &[NodeId(1)]),
            Err(RollError::QuorumUnknown { .. })
        ));
        // The leader's fetch timeout is used.
        let mut s = quorum_snapshot(3, &[(0, 10_000), (1, 10_000), (2, 7_000)]);
        s.nodes[0].config.insert(
            FETCH_TIMEOUT_KEY.into(),
            ConfigEntry {
                value: Some("5000".into()),
                read_only: true,
            },
        );
        assert!(check_quorum(&s, &[NodeId(1)]).is_ok());
    }
}
