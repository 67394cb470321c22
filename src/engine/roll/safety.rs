//! The two safety gates a restart must pass: partition availability
//! (Strimzi's `KafkaAvailability.canRoll`, hardened against reassignments in
//! flight: the ISR must hold both now and once they complete, against the
//! partition's effective `min.insync.replicas`, and an unknown value refuses
//! instead of defaulting to 1) and KRaft quorum health (Strimzi's
//! `KafkaQuorumCheck`, counting controllers from their assigned roles, and
//! keeping a caught-up majority of the leader's real voter set).
//!
//! What the snapshot shows not serving never counts: a replica that is shutting
//! down, crashed but not yet fenced, or unreachable is discounted from every
//! ISR before a restart of another replica is judged, and a controller that is
//! not running is no caught-up voter, whatever its `LastCaughtUpTimestamp`
//! still says.
//!
//! Both are pure functions of a [`ClusterSnapshot`], so the batching code, the
//! plan preview and the property tests all ask the very same question. The
//! "caught up" rule ([`is_caught_up`]) is also the adapter's (`kafka::convert`):
//! one rule, not two copies.

use std::collections::{HashMap, HashSet};

use crate::engine::model::{ClusterSnapshot, NodeId, NodeSnapshot, effective_min_isr_with};

use super::error::RollError;

/// Name of the controller setting the quorum check reads from the active
/// controller.
pub const FETCH_TIMEOUT_KEY: &str = "controller.quorum.fetch.timeout.ms";
/// Kafka's default for [`FETCH_TIMEOUT_KEY`].
pub const DEFAULT_FETCH_TIMEOUT_MS: i64 = 2000;

/// Partitions per node: indices into `snapshot.partitions` of every partition
/// a node holds or is about to hold a replica of, plus each partition's
/// effective `min.insync.replicas` (`None` = unknown). Built in one pass, and kept from one
/// decision to the next while the placement and the settings are the same (`placement`).
#[derive(Debug, Default, Clone)]
pub struct PartitionIndex {
    by_node: HashMap<NodeId, Vec<u32>>,
    min_isr: Vec<Option<u32>>,
    /// Nodes the snapshot shows serving ([`NodeSnapshot::is_serving`]); an ISR
    /// member outside this set is discounted when another node is judged.
    serving: HashSet<NodeId>,
}

impl PartitionIndex {
    #[must_use]
    pub fn build(snapshot: &ClusterSnapshot) -> PartitionIndex {
        let broker_min: HashMap<NodeId, Option<u32>> = snapshot
            .nodes
            .iter()
            .map(|n| (n.id, n.broker_min_isr()))
            .collect();
        let serving = serving_nodes(snapshot);
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
        PartitionIndex {
            by_node,
            min_isr,
            serving,
        }
    }

    /// This index for another snapshot of the same placement and settings: only which nodes
    /// serve is read again (the caller has checked the rest, `placement::PlacementKey`).
    #[must_use]
    pub(super) fn with_serving_of(mut self, snapshot: &ClusterSnapshot) -> PartitionIndex {
        self.serving = serving_nodes(snapshot);
        self
    }

    /// Does `replica` count in an ISR when `node`'s restart is judged? The node
    /// itself as listed; any other replica only while the snapshot shows it
    /// serving (a replica shutting down or crashed before Kafka fenced it is
    /// still listed, but will not ack).
    fn counts(&self, replica: NodeId, node: NodeId) -> bool {
        replica == node || self.serving.contains(&replica)
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

/// The nodes `snapshot` shows serving ([`NodeSnapshot::is_serving`]).
fn serving_nodes(snapshot: &ClusterSnapshot) -> HashSet<NodeId> {
    snapshot
        .nodes
        .iter()
        .filter(|n| n.is_serving())
        .map(|n| n.id)
        .collect()
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
/// - count in each ISR only the node itself and the replicas the snapshot
///   shows serving (SERVING and reachable): one shutting down, crashed but
///   not yet fenced, starting or unreachable is still listed by Kafka for a
///   while, but gives producers no acknowledgement;
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
        if let Some(e) = partition_blocks(snapshot, index, pi, node, strictness) {
            return Err(e);
        }
    }
    Ok(())
}

/// [`check_availability`] of every node at once: the refusal of each node some partition
/// blocks (nodes not listed may restart). The same answers, in one pass over the partitions in
/// order instead of one walk per node over its own (at 1,000 brokers / 100,000 partitions the
/// walks jump between partitions and were most of a decision, issue #27): a node's first
/// blocking partition in index order is the one [`check_availability`] reports.
#[must_use]
pub fn availability_of_all(
    snapshot: &ClusterSnapshot,
    index: &PartitionIndex,
    strictness: Strictness,
) -> HashMap<NodeId, RollError> {
    let mut refused: HashMap<NodeId, RollError> = HashMap::new();
    for (pi, p) in snapshot.partitions.iter().enumerate() {
        let pi = u32::try_from(pi).unwrap_or(u32::MAX);
        for node in p.all_replicas() {
            if refused.contains_key(&node) {
                continue;
            }
            if let Some(e) = partition_blocks(snapshot, index, pi, node, strictness) {
                refused.insert(node, e);
            }
        }
    }
    refused
}

/// Does partition `pi` keep `node` from restarting ([`check_availability`]'s rules)?
fn partition_blocks(
    snapshot: &ClusterSnapshot,
    index: &PartitionIndex,
    pi: u32,
    node: NodeId,
    strictness: Strictness,
) -> Option<RollError> {
    let p = snapshot.partitions.get(pi as usize)?;
    let Some(min_isr) = index.min_isr(pi) else {
        return Some(RollError::MinIsrUnknown {
            node,
            topic: p.tp.topic.clone(),
            partition: p.tp.partition,
        });
    };
    let min = min_isr as usize;
    if p.replicas.len() <= min {
        return None;
    }
    let now = judge(
        p.isr.iter().copied().filter(|r| index.counts(*r, node)),
        node,
        p.replicas.contains(&node),
        min,
        strictness,
    );
    let (isr, in_isr) = now.or_else(|| {
        judge(
            p.target_isr().filter(|r| index.counts(*r, node)),
            node,
            p.target_replicas().any(|r| r == node),
            min,
            strictness,
        )
    })?;
    let (topic, partition) = (p.tp.topic.clone(), p.tp.partition);
    Some(if in_isr && isr == min {
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
    })
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

/// The "caught up" rule, from the active controller's point of view: a
/// `LastCaughtUpTimestamp` (`ts`) at most `timeout_ms` older than the leader's
/// own (`leader_ts`, both in the leader's clock). A timestamp AHEAD of the
/// leader's is not caught up: Kafka keeps the highest value it ever recorded,
/// so after the leader's clock stepped back a voter that died long ago can
/// report a time in the "future".
#[must_use]
pub fn is_caught_up(leader_ts: i64, ts: i64, timeout_ms: i64) -> bool {
    leader_ts
        .checked_sub(ts)
        .is_some_and(|behind| (0..timeout_ms).contains(&behind))
}

/// The first quorum member whose `LastCaughtUpTimestamp` is ahead of the
/// leader's own: the leader's clock stepped back (Kafka keeps the highest value
/// it recorded). Then no timestamp can be trusted: a controller that stopped
/// long ago can land inside the fetch timeout of the stepped-back clock.
pub fn clock_stepped_back(
    leader_ts: i64,
    timestamps: impl IntoIterator<Item = (NodeId, i64)>,
) -> Option<(NodeId, i64)> {
    timestamps.into_iter().find(|(_, t)| *t > leader_ts)
}

/// Controllers (by assigned role) that count as caught up from the active
/// controller's point of view: the leader itself, and voters whose
/// `LastCaughtUpTimestamp` is within the fetch timeout of the leader's
/// ([`is_caught_up`]). Either only while the snapshot shows the node serving:
/// a stopped controller (or a combined node shutting down) keeps a fresh
/// timestamp for the fetch timeout but holds no vote.
///
/// # Errors
/// `QuorumUnknown` when there is no quorum description or no leader.
pub fn caught_up_controllers(snapshot: &ClusterSnapshot) -> Result<Vec<NodeId>, RollError> {
    let running = |id: NodeId| snapshot.node(id).is_some_and(NodeSnapshot::is_serving);
    Ok(caught_up_by_timestamp(snapshot)?
        .into_iter()
        .filter(|&c| running(c))
        .collect())
}

/// Controllers (by assigned role) whose quorum timestamps say "caught up" (the
/// leader, and [`is_caught_up`]), whether or not the snapshot shows them
/// running: such a controller may still hold a vote, so restarting it is
/// judged by the quorum rule.
///
/// # Errors
/// `QuorumUnknown` when there is no quorum description or no leader.
pub fn caught_up_by_timestamp(snapshot: &ClusterSnapshot) -> Result<Vec<NodeId>, RollError> {
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
    let members = quorum.voters.iter().chain(&quorum.observers);
    if let Some(ahead) = clock_stepped_back(
        leader_ts,
        members.filter_map(|v| v.last_caught_up_ms.map(|t| (v.id, t))),
    ) {
        return Err(RollError::QuorumUnknown {
            detail: format!(
                "node {}'s LastCaughtUpTimestamp {} is ahead of the quorum leader {leader}'s \
                 clock ({leader_ts}): the leader's clock stepped back, and until it has passed \
                 every timestamp it recorded, a long-stopped controller can look caught up",
                ahead.0, ahead.1
            ),
        });
    }
    let timeout = fetch_timeout_ms(snapshot);
    Ok(controllers(snapshot)
        .into_iter()
        .filter(|&c| c == leader || ts(c).is_some_and(|t| is_caught_up(leader_ts, t, timeout)))
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
/// losing its majority? Two rules, both from the active controller's fetch
/// timeout and counting only running controllers as caught up:
/// - Strimzi's, over the controllers by assigned role (observer controllers,
///   KIP-853, count too);
/// - a caught-up majority of the leader's real voter set, whatever the roles
///   say: only voters elect and commit, and a voter whose controller role was
///   removed before `RemoveRaftVoter` is still one of the N a majority is
///   counted over (it just never counts as caught up).
///
/// # Errors
/// `QuorumAtRisk`, or `QuorumUnknown` when the quorum cannot be judged.
pub fn check_quorum(snapshot: &ClusterSnapshot, restarting: &[NodeId]) -> Result<(), RollError> {
    let all = controllers(snapshot);
    let voters: Vec<NodeId> = snapshot
        .quorum
        .as_ref()
        .map(|q| q.voters.iter().map(|v| v.id).collect())
        .unwrap_or_default();
    let nodes: Vec<NodeId> = restarting
        .iter()
        .copied()
        .filter(|n| all.contains(n))
        .collect();
    if nodes.is_empty() || (all.len() <= 1 && voters.len() <= 1) {
        return Ok(());
    }
    let caught_up = caught_up_controllers(snapshot)?;
    if all.len() > 1 {
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
    }
    // Only voters elect and commit: counting observer controllers above must never let the
    // voters themselves drop below a caught-up majority.
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
#[path = "safety_tests.rs"]
mod tests;
