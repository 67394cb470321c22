//! Selection of the next action: which batch or node the roll acts on next
//! (the heart of the algorithm) and the per-snapshot cache it uses. Split
//! out of the roller core (`mod.rs`) to keep both readable.

mod brokers;
mod unhealthy;

use self::brokers::*;
use self::unhealthy::*;
use super::batch::ConflictGraph;
use super::placement::{KeptPlacement, PlacementKey};
use super::*;

/// What to do next, before bookkeeping.
pub(super) enum Selection {
    Restart(Vec<NodeReason>, String),
    Reconfigure(NodeId, Vec<ConfigChange>, String),
    Blocked(Vec<NodeId>, RollError),
    Abort(RollError),
    Done,
}

/// Lazily built per-snapshot structures (one decision, or one step of a plan), except what
/// the roller carries from one decision to the next: `batches`
/// ([`PlannedBatches::portable`]), and the index and the graph while the placement is the
/// same (`placement`).
#[derive(Default)]
pub(super) struct Cache {
    pub(super) index: Option<PartitionIndex>,
    pub(super) graph: Option<ConflictGraph>,
    /// The placement `index` and `graph` were computed from, when they came from an earlier
    /// snapshot (else it is taken from this one when they are kept).
    key: Option<PlacementKey>,
    /// The planned batches and what they were planned from.
    pub(super) batches: Option<PlannedBatches>,
    pub(super) node_slot: Option<HashMap<NodeId, usize>>,
    pub(super) healthy_availability: HashMap<NodeId, Result<(), RollError>>,
    /// Every node's refusal under [`Strictness::Healthy`], when computed for all nodes at once
    /// ([`Cache::judge_all_healthy`]): a node not in it may restart.
    healthy_refused: Option<HashMap<NodeId, RollError>>,
}

/// A colouring of the conflict graph ([`ConflictGraph::plan_batches`]) and what it was
/// computed from. The search costs up to ~0.5 s at 1,000 brokers on a random placement, and
/// the plan is the same while its inputs are: the brokers it is for, the cap and the conflict
/// graph (who shares a partition with whom). When no combined controller is among the brokers
/// the quorum veto plays no part, so those inputs are all of it and the colouring is carried
/// from one decision to the next (`portable`); with one, the veto reads the snapshot's quorum,
/// so the colouring lives for one snapshot only. A reused class is still only a candidate: the
/// batch taken from it passes the live checks of the decision that takes it.
#[derive(Debug, Clone)]
pub(super) struct PlannedBatches {
    pub(super) planned_for: Vec<NodeId>,
    pub(super) max_batch_size: usize,
    pub(super) graph: ConflictGraph,
    pub(super) classes: Vec<Vec<NodeId>>,
    pub(super) portable: bool,
}

impl PlannedBatches {
    /// Was this colouring computed from these inputs?
    fn fits(&self, planned_for: &[NodeId], max_batch_size: usize, graph: &ConflictGraph) -> bool {
        self.planned_for == planned_for
            && self.max_batch_size == max_batch_size
            && self.graph == *graph
    }
}

impl Cache {
    /// A cache for `snapshot` that keeps a colouring valid beyond one snapshot, and the index
    /// and the graph of `kept` when `snapshot` has the same placement.
    pub(super) fn carrying(
        batches: Option<PlannedBatches>,
        kept: Option<KeptPlacement>,
        snapshot: &ClusterSnapshot,
    ) -> Cache {
        let (key, index, graph) = kept
            .and_then(|k| k.reuse(snapshot))
            .map_or((None, None, None), |(k, i, g)| (Some(k), i, g));
        Cache {
            index,
            graph,
            key,
            batches: batches.filter(|b| b.portable),
            ..Cache::default()
        }
    }

    /// What the next decision may reuse: the portable colouring, and the index and the graph
    /// with the placement of `snapshot`, the snapshot this cache was used with.
    pub(super) fn keep(
        &mut self,
        snapshot: &ClusterSnapshot,
    ) -> (Option<PlannedBatches>, Option<KeptPlacement>) {
        let kept = (self.index.is_some() || self.graph.is_some()).then(|| KeptPlacement {
            key: self
                .key
                .take()
                .unwrap_or_else(|| PlacementKey::of(snapshot)),
            index: self.index.take(),
            graph: self.graph.take(),
        });
        (self.batches.take(), kept)
    }

    /// The cache for the next step of a plan, whose assumed snapshot differs from the last one
    /// only in ISRs, leaders and node states (`assume_back_in_sync`): the placement is the
    /// same, so the index (with who serves read again), the graph and a portable colouring
    /// stay.
    pub(super) fn next_step(&mut self, snapshot: &ClusterSnapshot) -> Cache {
        Cache {
            index: self.index.take().map(|i| i.with_serving_of(snapshot)),
            graph: self.graph.take(),
            key: self.key.take(),
            batches: self.batches.take().filter(|b| b.portable),
            ..Cache::default()
        }
    }

    pub(super) fn index(&mut self, snapshot: &ClusterSnapshot) -> &PartitionIndex {
        self.index
            .get_or_insert_with(|| PartitionIndex::build(snapshot))
    }

    pub(super) fn node<'a>(
        &mut self,
        snapshot: &'a ClusterSnapshot,
        id: NodeId,
    ) -> Option<&'a NodeSnapshot> {
        let slots = self.node_slot.get_or_insert_with(|| {
            snapshot
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.id, i))
                .collect()
        });
        slots.get(&id).map(|&i| &snapshot.nodes[i])
    }

    /// Before asking [`Cache::healthy_availability`] about `asking` of the snapshot's brokers:
    /// when they are more than an eighth of them, judges every node at once
    /// ([`safety::availability_of_all`]: one pass over the partitions in order, where one walk
    /// per node over its own partitions jumps around memory). The answers are the same either
    /// way; only their cost differs.
    pub(super) fn judge_all_healthy(&mut self, snapshot: &ClusterSnapshot, asking: usize) {
        let brokers = snapshot.nodes.iter().filter(|n| n.roles.broker).count();
        if self.healthy_refused.is_none() && asking.saturating_mul(8) > brokers && asking > 1 {
            let index = self.index(snapshot);
            let refused = safety::availability_of_all(snapshot, index, Strictness::Healthy);
            self.healthy_refused = Some(refused);
        }
    }

    /// [`safety::check_availability`] with [`Strictness::Healthy`], memoised.
    pub(super) fn healthy_availability(
        &mut self,
        snapshot: &ClusterSnapshot,
        id: NodeId,
    ) -> Result<(), RollError> {
        if let Some(r) = self.healthy_availability.get(&id) {
            return r.clone();
        }
        if let Some(refused) = &self.healthy_refused {
            return refused.get(&id).map_or(Ok(()), |e| Err(e.clone()));
        }
        let r = safety::check_availability(snapshot, self.index(snapshot), id, Strictness::Healthy);
        self.healthy_availability.insert(id, r.clone());
        r
    }
}

/// Unhealthy nodes outside the selection that the roll leaves alone, with
/// their state.
pub(super) fn unselected_unhealthy(
    config: &RollConfig,
    nodes: &BTreeMap<NodeId, NodeContext>,
) -> Vec<NodeReason> {
    nodes
        .values()
        .filter(|c| c.held.is_none() && c.is_unhealthy() && !c.eligible_when_unhealthy(config))
        .map(|c| NodeReason {
            node: c.id,
            reason: format!(
                "{} node is {}; not selected, left alone (include unhealthy nodes to restart it)",
                c.roles,
                c.describe_state()
            ),
        })
        .collect()
}

/// Held nodes (`kafkaops hold`) the roll leaves alone, with the hold's reason.
pub(super) fn held_nodes(nodes: &BTreeMap<NodeId, NodeContext>) -> Vec<NodeReason> {
    nodes
        .values()
        .filter_map(|c| {
            c.held.as_ref().map(|why| NodeReason {
                node: c.id,
                reason: format!("held: {why}"),
            })
        })
        .collect()
}

/// Per node, the desired settings that are sensitive: Kafka returns no value
/// for them, so they are neither compared nor applied dynamically.
pub(super) fn sensitive_settings(
    nodes: &BTreeMap<NodeId, NodeContext>,
    snapshot: &ClusterSnapshot,
) -> Vec<NodeSettings> {
    nodes
        .values()
        .filter(|c| !c.desired_config.is_empty())
        .filter_map(|c| {
            let current = snapshot.node(c.id).map(|n| &n.config);
            let keys = ConfigDiff::compute(&c.desired_config, current).sensitive_keys;
            (!keys.is_empty()).then_some(NodeSettings { node: c.id, keys })
        })
        .collect()
}

pub(super) fn describe_reasons(nodes: &[NodeReason]) -> String {
    nodes
        .iter()
        .map(|n| format!("{} ({})", n.node, n.reason))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What holds every restart back: a node in log recovery, or a broker whose
/// state is unknown (it may be in log recovery).
pub(super) fn restart_blocker(nodes: &BTreeMap<NodeId, NodeContext>) -> Option<RollError> {
    if let Some(c) = nodes.values().find(|c| c.state == NodeState::Recovering) {
        return Some(RollError::NodeInLogRecovery { node: c.id });
    }
    nodes
        .values()
        .find(|c| c.roles.broker && c.state == NodeState::Unknown)
        .map(|c| RollError::NodeStateUnknown { node: c.id })
}

/// The next action for the given contexts (the heart of the algorithm), with
/// the unhealthy nodes left alone named in a restart's reason.
pub(super) fn select(
    config: &RollConfig,
    nodes: &BTreeMap<NodeId, NodeContext>,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
) -> Selection {
    match select_inner(config, nodes, snapshot, cache) {
        Selection::Restart(batch, mut reason) => {
            let left = unselected_unhealthy(config, nodes);
            if !left.is_empty() {
                let _ = write!(
                    reason,
                    "; left alone (unhealthy, outside the selection): {}",
                    describe_reasons(&left)
                );
            }
            Selection::Restart(batch, reason)
        }
        other => other,
    }
}

pub(super) fn select_inner(
    config: &RollConfig,
    nodes: &BTreeMap<NodeId, NodeContext>,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
) -> Selection {
    let recovering: Vec<NodeId> = nodes
        .values()
        .filter(|c| c.state == NodeState::Recovering)
        .map(|c| c.id)
        .collect();
    let blocker = restart_blocker(nodes);
    let leader = snapshot.quorum.as_ref().and_then(|q| q.leader);

    // 1. RESTART_FIRST: not running, not ready, unreachable; only selected
    // nodes unless unhealthy ones outside the selection are included.
    let first: Vec<&NodeContext> = nodes
        .values()
        .filter(|c| c.is_unhealthy() && c.eligible_when_unhealthy(config))
        .collect();
    if !first.is_empty() {
        return select_unhealthy(config, nodes, snapshot, cache, blocker, leader, first);
    }

    // 2. Split the healthy nodes into RESTART and RECONFIGURE.
    let (restart, reconfigure) = split_healthy(config, nodes, snapshot, cache);

    if !restart.is_empty() {
        let restart_ids: Vec<NodeId> = restart.iter().map(|(c, _)| c.id).collect();
        if let Some(err) = blocker {
            return Selection::Blocked(restart_ids, err);
        }
        for (c, _) in &restart {
            if c.num_restarts >= config.max_restart_attempts {
                return Selection::Abort(RollError::MaxRestartsExceeded {
                    node: c.id,
                    restarts: c.num_restarts,
                    max: config.max_restart_attempts,
                });
            }
        }
        return select_restart_batch(config, nodes, &restart, leader, snapshot, cache);
    }

    if !reconfigure.is_empty()
        && reconfigure
            .iter()
            .all(|(c, _)| c.state == NodeState::Recovering)
    {
        let waiting: Vec<NodeId> = reconfigure.iter().map(|(c, _)| c.id).collect();
        return Selection::Blocked(
            waiting.clone(),
            RollError::NodeInLogRecovery { node: waiting[0] },
        );
    }
    if let Some((c, changes)) = reconfigure
        .into_iter()
        .find(|(c, _)| c.state != NodeState::Recovering)
    {
        let keys: Vec<&str> = changes.iter().map(|d| d.key.as_str()).collect();
        let reason = format!(
            "every changed setting is dynamic ({}); attempt {} of {}",
            keys.join(", "),
            c.num_reconfigs + 1,
            config.max_reconfig_attempts
        );
        return Selection::Reconfigure(c.id, changes, reason);
    }

    if let Some(&r) = recovering.first() {
        return Selection::Blocked(recovering.clone(), RollError::NodeInLogRecovery { node: r });
    }
    Selection::Done
}

/// Step 2: the healthy nodes split into those to RESTART (with the reason) and those to
/// RECONFIGURE (with the dynamic changes); nodes already restarted in this roll are left out.
#[allow(clippy::type_complexity)]
fn split_healthy<'a>(
    config: &RollConfig,
    nodes: &'a BTreeMap<NodeId, NodeContext>,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
) -> (
    Vec<(&'a NodeContext, String)>,
    Vec<(&'a NodeContext, Vec<ConfigChange>)>,
) {
    let mut restart: Vec<(&NodeContext, String)> = Vec::new();
    let mut reconfigure: Vec<(&NodeContext, Vec<ConfigChange>)> = Vec::new();
    for c in nodes.values() {
        // A held node is left alone whatever it is asked for.
        if c.num_restarts > 0 || c.held.is_some() {
            continue;
        }
        if !c.restart_reasons.is_empty() {
            restart.push((c, c.restart_reasons.join("; ")));
            continue;
        }
        let current = cache.node(snapshot, c.id).map(|n| &n.config);
        let diff = ConfigDiff::compute(&c.desired_config, current);
        if !diff.static_keys.is_empty() {
            restart.push((
                c,
                format!(
                    "changed setting(s) {} cannot be updated dynamically",
                    diff.static_keys.join(", ")
                ),
            ));
        } else if !diff.dynamic.is_empty() {
            if c.num_reconfigs >= config.max_reconfig_attempts {
                restart.push((
                    c,
                    format!(
                        "{} reconfiguration attempt(s) did not apply {}",
                        c.num_reconfigs,
                        diff.dynamic
                            .iter()
                            .map(|d| d.key.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            } else {
                reconfigure.push((c, diff.dynamic));
            }
        }
    }
    (restart, reconfigure)
}

/// `Blocked` by the first error of a non-empty group (a group without one
/// is a bug: abort rather than panic).
pub(super) fn blocked_or_inconsistent(nodes: Vec<NodeId>, err: Option<RollError>) -> Selection {
    match err {
        Some(e) => Selection::Blocked(nodes, e),
        None => Selection::Abort(RollError::StateInconsistent {
            detail: format!("no node of {nodes:?} could restart and none was refused"),
        }),
    }
}

pub(super) fn ids(nodes: &[&NodeContext]) -> Vec<NodeId> {
    nodes.iter().map(|c| c.id).collect()
}

pub(super) fn reasons_suffix(c: &NodeContext) -> String {
    if c.restart_reasons.is_empty() {
        String::new()
    } else {
        format!(" (also: {})", c.restart_reasons.join("; "))
    }
}

/// Order inside `RESTART_FIRST`: pure controllers, combined, brokers.
pub(super) fn first_rank(roles: NodeRoles) -> u8 {
    if roles.is_pure_controller() {
        0
    } else if roles.is_combined() {
        1
    } else {
        2
    }
}

/// The active combined controller, last: when every partition stays at or above min ISR
/// without it and the quorum keeps a majority.
fn select_active_combined(
    id: NodeId,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
    reason_of: &dyn Fn(NodeId) -> String,
) -> Selection {
    let check = cache
        .healthy_availability(snapshot, id)
        .and_then(|()| safety::check_quorum(snapshot, &[id]));
    match check {
        Ok(()) => Selection::Restart(
            vec![NodeReason {
                node: id,
                reason: reason_of(id),
            }],
            if single_voter(snapshot) {
                format!(
                    "{SINGLE_CONTROLLER}; every partition stays at or above \
                     min.insync.replicas without it"
                )
            } else {
                "the active combined controller restarts last; the quorum keeps a majority \
                 and every partition stays at or above min.insync.replicas without it"
                    .to_string()
            },
        ),
        Err(e) => Selection::Blocked(vec![id], e),
    }
}

/// Picks the next batch from the `RESTART` group: non-active pure controllers
/// one at a time, then the active pure controller, then a batch of brokers and
/// non-active combined nodes, the active combined controller last.
pub(super) fn select_restart_batch(
    config: &RollConfig,
    nodes: &BTreeMap<NodeId, NodeContext>,
    restart: &[(&NodeContext, String)],
    leader: Option<NodeId>,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
) -> Selection {
    let reason_of = |id: NodeId| {
        restart
            .iter()
            .find(|(c, _)| c.id == id)
            .map(|(_, r)| r.clone())
            .unwrap_or_default()
    };
    let is_active = |c: &NodeContext| Some(c.id) == leader;
    let pure: Vec<&NodeContext> = restart
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| c.roles.is_pure_controller())
        .collect();
    let non_active_pure: Vec<&NodeContext> =
        pure.iter().copied().filter(|c| !is_active(c)).collect();
    let active_pure: Vec<&NodeContext> = pure.iter().copied().filter(|c| is_active(c)).collect();
    let brokers: Vec<&NodeContext> = restart
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| c.roles.broker && !is_active(c))
        .collect();
    let active_combined: Vec<&NodeContext> = restart
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| c.roles.broker && is_active(c))
        .collect();
    let others: Vec<&NodeContext> = restart
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| !c.roles.broker && !c.roles.controller)
        .collect();

    if let Some(s) = select_pure_controller(&non_active_pure, &active_pure, snapshot, &reason_of) {
        return s;
    }
    if !brokers.is_empty() {
        let waits = !active_combined.is_empty();
        return select_broker_batch(
            config, nodes, &brokers, waits, leader, snapshot, cache, &reason_of,
        );
    }
    if let Some(c) = active_combined.first() {
        return select_active_combined(c.id, snapshot, cache, &reason_of);
    }
    if let Some(c) = others.first() {
        return Selection::Restart(
            vec![NodeReason {
                node: c.id,
                reason: reason_of(c.id),
            }],
            "node has neither role; restarting it affects no partition or quorum".to_string(),
        );
    }
    Selection::Done
}
