//! Folding an observation into the roller: each node's context (state, reachability,
//! selection, hold) from a fresh snapshot, and the check that a node the roll is not acting on
//! did not go from healthy to unhealthy. Split out of the roller core (`mod.rs`).

use std::collections::{BTreeMap, HashSet};

use crate::engine::model::{ClusterSnapshot, Millis, NodeId, ObservedState};

use super::restart::Awaiting;
use super::safety::PartitionIndex;
use super::{ActionKind, NodeContext, NodeRequest, NodeState, RollError, Roller};

impl Roller {
    /// Updates contexts; fails when a node the roll is not acting on went
    /// from healthy to unhealthy.
    pub(super) fn observe(
        &mut self,
        snapshot: &ClusterSnapshot,
        now: Millis,
    ) -> Result<(), RollError> {
        let acting: Vec<NodeId> = self
            .awaiting
            .as_ref()
            .map(|a| a.nodes.clone())
            .unwrap_or_default();
        let before: BTreeMap<NodeId, bool> = self
            .nodes
            .iter()
            .map(|(id, c)| (*id, c.was_healthy))
            .collect();
        merge_observation(
            &mut self.nodes,
            &self.requests,
            &self.holds,
            snapshot,
            now,
            self.awaiting.as_ref(),
        );
        let mut failure = None;
        for ctx in self.nodes.values_mut() {
            if acting.contains(&ctx.id) {
                continue;
            }
            let healthy_now = ctx.is_serving() && ctx.reachable;
            if before.get(&ctx.id) == Some(&true) && !healthy_now && failure.is_none() {
                failure = Some(if !ctx.is_serving() || ctx.reachable {
                    RollError::NodeBecameUnhealthy {
                        node: ctx.id,
                        state: ctx.observed,
                    }
                } else {
                    RollError::NodeBecameUnreachable { node: ctx.id }
                });
            }
            ctx.was_healthy = healthy_now;
        }
        failure.map_or(Ok(()), Err)
    }
}

/// Is `node` in the ISR of every partition it is a replica of?
pub(super) fn back_in_all_isrs(
    snapshot: &ClusterSnapshot,
    index: &PartitionIndex,
    node: NodeId,
) -> bool {
    index.of(node).iter().all(|&pi| {
        let p = &snapshot.partitions[pi as usize];
        !p.replicas.contains(&node) || p.isr.contains(&node)
    })
}

/// Does `node` lead every partition it is the preferred leader of?
pub(super) fn leads_all_preferred(
    snapshot: &ClusterSnapshot,
    index: &PartitionIndex,
    node: NodeId,
) -> bool {
    index.of(node).iter().all(|&pi| {
        let p = &snapshot.partitions[pi as usize];
        p.replicas.first() != Some(&node) || p.leader == Some(node)
    })
}

/// The nodes that do not lead every partition they are the preferred leader of: for every node
/// at once what [`leads_all_preferred`] says of one (one pass over the partitions in order, where
/// asking node by node over each one's partitions jumped around memory, issue #27).
fn not_leading_all_preferred(snapshot: &ClusterSnapshot) -> HashSet<NodeId> {
    snapshot
        .partitions
        .iter()
        .filter_map(|p| {
            let preferred = *p.replicas.first()?;
            (p.leader != Some(preferred)).then_some(preferred)
        })
        .collect()
}

/// Folds a snapshot into the contexts.
pub(super) fn merge_observation(
    nodes: &mut BTreeMap<NodeId, NodeContext>,
    requests: &BTreeMap<NodeId, NodeRequest>,
    holds: &BTreeMap<NodeId, String>,
    snapshot: &ClusterSnapshot,
    now: Millis,
    awaiting: Option<&Awaiting>,
) {
    let not_leading = not_leading_all_preferred(snapshot);
    for n in &snapshot.nodes {
        let ctx = nodes.entry(n.id).or_insert_with(|| {
            let req = requests.get(&n.id).cloned().unwrap_or_default();
            NodeContext {
                id: n.id,
                roles: n.roles,
                state: NodeState::Unknown,
                reachable: n.reachable,
                restart_reasons: req.restart_reasons,
                desired_config: req.desired_config,
                num_restarts: 0,
                num_reconfigs: 0,
                last_transition: now,
                observed: ObservedState::Unknown,
                selected: false,
                held: None,
                expected_software: req.expected_software,
                was_healthy: false,
            }
        });
        ctx.roles = n.roles;
        ctx.reachable = n.reachable;
        ctx.observed = n.state;
        ctx.selected = requests.contains_key(&n.id);
        let acting = awaiting.filter(|a| a.nodes.contains(&n.id));
        // A node being restarted stays RESTARTED until the restart counts
        // (see `RestartProgress`), whatever it looks like meanwhile.
        let restarting = acting.is_some_and(|a| {
            a.kind == ActionKind::Restart
                && a.restarts.get(&n.id).is_none_or(|p| p.back_at.is_none())
        });
        let state = match n.state {
            _ if restarting => NodeState::Restarted,
            ObservedState::Serving => {
                if n.roles.broker && not_leading.contains(&n.id) {
                    NodeState::Serving
                } else {
                    NodeState::LeadingAllPreferred
                }
            }
            other => match acting.map(|a| a.kind) {
                Some(ActionKind::Restart) => NodeState::Restarted,
                Some(ActionKind::Reconfigure) => NodeState::Reconfigured,
                None => match other {
                    ObservedState::Unknown => NodeState::Unknown,
                    ObservedState::NotRunning => NodeState::NotRunning,
                    ObservedState::NotReady => NodeState::NotReady,
                    ObservedState::Recovering => NodeState::Recovering,
                    // Matched above; kept total rather than panicking.
                    ObservedState::Serving => NodeState::Serving,
                },
            },
        };
        if state != ctx.state {
            ctx.state = state;
            ctx.last_transition = now;
        }
    }
    // A node that vanished from the observation is no longer running.
    let observed: HashSet<NodeId> = snapshot.nodes.iter().map(|n| n.id).collect();
    for ctx in nodes.values_mut() {
        ctx.selected = requests.contains_key(&ctx.id);
        ctx.held = holds.get(&ctx.id).cloned();
        if !observed.contains(&ctx.id) && ctx.state != NodeState::NotRunning {
            ctx.state = NodeState::NotRunning;
            ctx.observed = ObservedState::NotRunning;
            ctx.last_transition = now;
        }
    }
}
