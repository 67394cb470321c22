//! The dry run: [`Roller::plan`] previews every step of the roll from one snapshot, assuming
//! each action succeeds and each restarted node comes back in sync. It runs the very
//! selection the roll runs (`select`), so the preview is what the roll does while the cluster
//! does not change; split out of the roller core (`mod.rs`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use crate::engine::model::{
    ClusterSnapshot, Millis, NodeId, NodeSnapshot, ObservedState, PartitionSnapshot,
};

use super::select::{
    Cache, Selection, held_nodes, select, sensitive_settings, unselected_unhealthy,
};
use super::{
    ConfigChange, NodeContext, NodeReason, NodeState, Roller, hold_for, merge_observation,
};

/// One step of a [`Plan`].
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum PlanStep {
    Restart {
        nodes: Vec<NodeReason>,
        reason: String,
    },
    Reconfigure {
        node: NodeId,
        changes: Vec<ConfigChange>,
        reason: String,
    },
    /// The plan cannot go on from the current snapshot.
    Blocked { nodes: Vec<NodeId>, reason: String },
}

/// Preview of a roll from one snapshot, assuming every action succeeds and
/// the cluster returns to the observed state after each one.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Plan {
    pub steps: Vec<PlanStep>,
    /// Nodes that need neither a restart nor a reconfiguration.
    pub untouched: Vec<NodeId>,
    /// A resumed roll: nodes it already restarted or reconfigured before it stopped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub already_rolled: Vec<NodeId>,
    /// Unhealthy nodes outside the selection: left alone (unless
    /// `include_unhealthy`), still counted by every safety check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unselected_unhealthy: Vec<NodeReason>,
    /// Held nodes (`kafkaops hold`) the roll leaves alone, with the hold's
    /// reason; still counted by every safety check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<NodeReason>,
    /// Desired settings Kafka returns no value for because they are sensitive:
    /// neither compared nor applied dynamically (only a restart applies them,
    /// from the node's own configuration).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sensitive_settings: Vec<NodeSettings>,
}

/// Settings of one node.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeSettings {
    pub node: NodeId,
    pub keys: Vec<String>,
}

impl Plan {
    /// Number of restart batches.
    #[must_use]
    pub fn restart_batches(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, PlanStep::Restart { .. }))
            .count()
    }
}

impl Roller {
    /// Previews the roll from `snapshot` without changing this roller.
    #[must_use]
    pub fn plan(&self, snapshot: &ClusterSnapshot) -> Plan {
        let mut nodes = self.nodes.clone();
        let mut cache = Cache::carrying(self.planned.clone(), self.placement.clone(), snapshot);
        merge_observation(
            &mut nodes,
            &self.requests,
            &self.holds,
            snapshot,
            Millis(0),
            None,
        );
        // The preview's own picture of the cluster: a node it restarts is assumed to come back and
        // rejoin the ISR of its partitions. Without this, a down node restarted first still looked
        // out of sync to every later step, and the preview reported a block the real roll does not
        // meet (it re-observes after each batch).
        let mut assumed = std::borrow::Cow::Borrowed(snapshot);
        let mut plan = Plan {
            unselected_unhealthy: unselected_unhealthy(&self.config, &nodes),
            held: held_nodes(&nodes),
            sensitive_settings: sensitive_settings(&nodes, snapshot),
            ..Plan::default()
        };
        // Each step changes one context; a bound keeps a bug from looping.
        for _ in 0..=4 * nodes.len() * (self.config.max_reconfig_attempts as usize + 2) {
            let selection = select(&self.config, &nodes, &assumed, &mut cache);
            match hold_for(self.other_mover.as_ref(), selection) {
                Selection::Restart(batch, reason) => {
                    for n in &batch {
                        if let Some(ctx) = nodes.get_mut(&n.node) {
                            ctx.num_restarts += 1;
                            ctx.state = NodeState::Serving;
                            ctx.reachable = true;
                            ctx.was_healthy = true;
                        }
                    }
                    let ids: Vec<NodeId> = batch.iter().map(|n| n.node).collect();
                    // Only the batch's own partitions can change (1,003 one-node steps over
                    // 100,000 partitions made scanning them all 8 s of a dry run, issue #27).
                    let mut touched: Vec<u32> = {
                        let index = cache.index(&assumed);
                        ids.iter().flat_map(|id| index.of(*id)).copied().collect()
                    };
                    touched.sort_unstable();
                    touched.dedup();
                    if assume_back_in_sync(&mut assumed, &ids, &touched) {
                        // Only ISRs and states changed, not who holds what: the index, the
                        // graph and a portable colouring still fit.
                        cache = cache.next_step(&assumed);
                    }
                    plan.steps.push(PlanStep::Restart {
                        nodes: batch,
                        reason,
                    });
                }
                Selection::Reconfigure(node, changes, reason) => {
                    if let Some(ctx) = nodes.get_mut(&node) {
                        // Assume the change sticks: the node needs nothing more.
                        ctx.desired_config.clear();
                        ctx.num_reconfigs += 1;
                    }
                    plan.steps.push(PlanStep::Reconfigure {
                        node,
                        changes,
                        reason,
                    });
                }
                Selection::Blocked(blocked, err) => {
                    plan.steps.push(PlanStep::Blocked {
                        nodes: blocked,
                        reason: err.to_string(),
                    });
                    break;
                }
                Selection::Abort(err) => {
                    plan.steps.push(PlanStep::Blocked {
                        nodes: Vec::new(),
                        reason: err.to_string(),
                    });
                    break;
                }
                Selection::Done => break,
            }
        }
        self.untouched_and_rolled(&nodes, &mut plan);
        plan
    }

    /// The nodes of `nodes` no step of `plan` touches: untouched, or already rolled by this
    /// (resumed) roll.
    fn untouched_and_rolled(&self, nodes: &BTreeMap<NodeId, NodeContext>, plan: &mut Plan) {
        let touched: BTreeSet<NodeId> = plan
            .steps
            .iter()
            .flat_map(|s| match s {
                PlanStep::Restart { nodes, .. } => nodes.iter().map(|n| n.node).collect(),
                PlanStep::Reconfigure { node, .. } => vec![*node],
                PlanStep::Blocked { nodes, .. } => nodes.clone(),
            })
            .collect();
        // A resumed roll: nodes this roll already restarted or reconfigured are not "untouched".
        let rolled = |n: &NodeId| {
            self.nodes
                .get(n)
                .is_some_and(|c| c.num_restarts > 0 || c.num_reconfigs > 0)
        };
        plan.untouched = nodes
            .iter()
            .filter(|(n, c)| !touched.contains(n) && !rolled(n) && c.held.is_none())
            .map(|(n, _)| n)
            .copied()
            .collect();
        plan.already_rolled = nodes
            .keys()
            .filter(|n| !touched.contains(n) && rolled(n))
            .copied()
            .collect();
    }
}

/// The preview's assumption after restarting `ids`: each serves again and is back in the ISR of
/// every partition it is an assigned (not an adding) replica of; an offline partition gets it as
/// leader. `touched`: the indices (into `snapshot.partitions`) of every partition one of `ids`
/// is a replica of (the partition index's, any others are left as they are). Returns whether
/// anything changed (then per-snapshot caches are stale).
pub(super) fn assume_back_in_sync(
    snapshot: &mut std::borrow::Cow<'_, ClusterSnapshot>,
    ids: &[NodeId],
    touched: &[u32],
) -> bool {
    // Each node's place in `ids`: a partition is checked against its few replicas, not against
    // the whole batch (a batch of 667 brokers over 300,000 partitions made this the largest
    // part of a whole-roll plan), and rejoins the ISR in the order of `ids` as before.
    let rank: HashMap<NodeId, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let stale_node = |n: &NodeSnapshot| {
        rank.contains_key(&n.id) && (n.state != ObservedState::Serving || !n.reachable)
    };
    let out_of_sync = |p: &PartitionSnapshot| {
        let mut out: Vec<(usize, NodeId)> = p
            .replicas
            .iter()
            .filter(|r| !p.adding.contains(r) && !p.isr.contains(r))
            .filter_map(|r| rank.get(r).map(|i| (*i, *r)))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    let stale_partition = |p: &PartitionSnapshot| {
        p.replicas
            .iter()
            .any(|r| rank.contains_key(r) && !p.adding.contains(r) && !p.isr.contains(r))
    };
    let at = |i: &u32| usize::try_from(*i).ok();
    if !snapshot.nodes.iter().any(stale_node)
        && !touched
            .iter()
            .filter_map(at)
            .filter_map(|i| snapshot.partitions.get(i))
            .any(stale_partition)
    {
        return false;
    }
    let owned = snapshot.to_mut();
    for n in owned.nodes.iter_mut().filter(|n| rank.contains_key(&n.id)) {
        n.state = ObservedState::Serving;
        n.reachable = true;
    }
    for i in touched.iter().filter_map(at) {
        let Some(p) = owned.partitions.get_mut(i) else {
            continue;
        };
        for (_, id) in out_of_sync(p) {
            p.isr.push(id);
            if p.leader.is_none() {
                p.leader = Some(id);
            }
        }
    }
    true
}

/// `node 1: a, b; node 2: c`.
#[must_use]
pub fn describe_settings(settings: &[NodeSettings]) -> String {
    settings
        .iter()
        .map(|s| format!("node {}: {}", s.node, s.keys.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}
