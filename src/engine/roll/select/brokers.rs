//! The healthy brokers' batches: the individually safe nodes in the first planned batch of
//! partition-disjoint nodes (the colouring of the conflict graph, kept while its inputs are the
//! same), and the pure controllers one at a time. Apart from `mod.rs`'s order of steps so the
//! batch search reads on its own.

use super::*;

/// The next batch of brokers (and non-active combined nodes) from those waiting to restart:
/// the individually safe ones, in the first planned batch of partition-disjoint nodes that has
/// one (planned over every broker of this phase, so the plan holds while the roll works through
/// it), the controllers among them keeping the quorum together.
#[allow(clippy::too_many_arguments)]
pub(super) fn select_broker_batch(
    config: &RollConfig,
    nodes: &BTreeMap<NodeId, NodeContext>,
    brokers: &[&NodeContext],
    active_combined_waits: bool,
    leader: Option<NodeId>,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
    reason_of: &dyn Fn(NodeId) -> String,
) -> Selection {
    // Individually safe candidates first.
    let (safe, first_err) = individually_safe(brokers, snapshot, cache);
    if safe.is_empty() {
        return blocked_or_inconsistent(ids(brokers), first_err);
    }
    let controllers = safety::controllers(snapshot);
    let accept = |chosen: &[NodeId], next: NodeId| {
        if !controllers.contains(&next) {
            return true;
        }
        let mut set: Vec<NodeId> = chosen
            .iter()
            .copied()
            .filter(|n| controllers.contains(n))
            .collect();
        set.push(next);
        safety::check_quorum(snapshot, &set).is_ok()
    };
    // The batches are planned for every broker of this phase, those
    // already restarted included, so the plan stays the same while the
    // roll works through it (and `plan()` shows what the roll does).
    let planned_for = phase_brokers(nodes, brokers, leader);
    let (graph, classes) = planned_batches(
        cache,
        snapshot,
        planned_for,
        config.max_batch_size,
        &controllers,
        &accept,
    );
    // The first planned batch with a member that may restart now; the
    // live checks filter it, whatever they hold back waits for a later one.
    let (mut batch, planned) = first_planned_batch(classes, &safe, config.max_batch_size, &accept);
    if batch.is_empty() {
        // Unreachable while every safe broker is planned; kept as a net.
        batch = graph.greedy_batch(&safe, config.max_batch_size.max(1), accept);
    }
    let reason = broker_batch_reason(
        config,
        &batch,
        brokers.len(),
        safe.len(),
        planned,
        first_err.as_ref(),
        active_combined_waits,
    );
    let nodes = batch
        .into_iter()
        .map(|id| NodeReason {
            node: id,
            reason: reason_of(id),
        })
        .collect();
    Selection::Restart(nodes, reason)
}

/// The conflict graph of every broker and the batches planned for `planned_for`: the cache's,
/// when they were planned from the same brokers, cap and graph; else planned now (the
/// controllers among them keep their first class, `accept` vetoes what breaks the quorum).
pub(super) fn planned_batches<'c>(
    cache: &'c mut Cache,
    snapshot: &ClusterSnapshot,
    planned_for: Vec<NodeId>,
    max_batch_size: usize,
    controllers: &[NodeId],
    accept: &dyn Fn(&[NodeId], NodeId) -> bool,
) -> (&'c ConflictGraph, &'c [Vec<NodeId>]) {
    let graph = cache.graph.get_or_insert_with(|| {
        let all_brokers: Vec<NodeId> = snapshot
            .nodes
            .iter()
            .filter(|n| n.roles.broker)
            .map(|n| n.id)
            .collect();
        ConflictGraph::build(snapshot, &all_brokers)
    });
    if cache
        .batches
        .as_ref()
        .is_none_or(|b| !b.fits(&planned_for, max_batch_size, graph))
    {
        let classes = graph.plan_batches(
            &planned_for,
            max_batch_size,
            accept,
            |n| !controllers.contains(&n),
            batch::DEFAULT_SEARCH_BUDGET,
        );
        let portable = !planned_for.iter().any(|n| controllers.contains(n));
        cache.batches = Some(PlannedBatches {
            planned_for,
            max_batch_size,
            graph: graph.clone(),
            classes,
            portable,
        });
    }
    let classes = cache
        .batches
        .as_ref()
        .map_or(&[][..], |b| b.classes.as_slice());
    (graph, classes)
}

/// Why this broker batch: how many of those waiting, its place in the plan, what capped it,
/// what was held back.
#[allow(clippy::too_many_arguments)]
pub(super) fn broker_batch_reason(
    config: &RollConfig,
    batch: &[NodeId],
    waiting: usize,
    safe: usize,
    planned: (usize, usize),
    first_err: Option<&RollError>,
    active_combined_waits: bool,
) -> String {
    let mut reason = format!(
        "{} of {} broker(s) waiting to restart share no partition and each keeps every \
         partition at or above min.insync.replicas (ISR judged after ongoing \
         reassignments); planned batch {} of {}",
        batch.len(),
        waiting,
        planned.0,
        planned.1
    );
    if batch.len() == config.max_batch_size && safe > batch.len() {
        let _ = write!(
            reason,
            "; capped at max batch size {}",
            config.max_batch_size
        );
    }
    if safe < waiting
        && let Some(e) = first_err
    {
        let _ = write!(reason, "; {} held back, e.g. {e}", waiting - safe);
    }
    if active_combined_waits {
        reason.push_str("; the active combined controller waits until last");
    }
    reason
}

/// The brokers waiting to restart that may restart now on their own (availability, and the
/// quorum for a combined node), and the first refusal of the others.
pub(super) fn individually_safe(
    brokers: &[&NodeContext],
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
) -> (Vec<NodeId>, Option<RollError>) {
    let mut safe: Vec<NodeId> = Vec::new();
    let mut first_err = None;
    cache.judge_all_healthy(snapshot, brokers.len());
    for c in brokers {
        let check = cache.healthy_availability(snapshot, c.id).and_then(|()| {
            if c.roles.controller {
                safety::check_quorum(snapshot, &[c.id])
            } else {
                Ok(())
            }
        });
        match check {
            Ok(()) => safe.push(c.id),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    (safe, first_err)
}

/// Pure controllers first: those that are not the active controller one at a time, each
/// leaving the quorum a majority; then the active one. `None` when no pure controller waits.
pub(super) fn select_pure_controller(
    non_active_pure: &[&NodeContext],
    active_pure: &[&NodeContext],
    snapshot: &ClusterSnapshot,
    reason_of: &dyn Fn(NodeId) -> String,
) -> Option<Selection> {
    if !non_active_pure.is_empty() {
        let mut first_err = None;
        for c in non_active_pure {
            match safety::check_quorum(snapshot, &[c.id]) {
                Ok(()) => {
                    return Some(Selection::Restart(
                        vec![NodeReason {
                            node: c.id,
                            reason: reason_of(c.id),
                        }],
                        format!(
                            "pure controllers that are not the active controller restart first, \
                             one at a time; the quorum keeps a majority without node {}",
                            c.id
                        ),
                    ));
                }
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        return Some(blocked_or_inconsistent(ids(non_active_pure), first_err));
    }
    if let Some(c) = active_pure.first() {
        return Some(match safety::check_quorum(snapshot, &[c.id]) {
            Ok(()) => Selection::Restart(
                vec![NodeReason {
                    node: c.id,
                    reason: reason_of(c.id),
                }],
                if single_voter(snapshot) {
                    SINGLE_CONTROLLER.to_string()
                } else {
                    "the active pure controller restarts after the other controllers; the quorum \
                     keeps a majority without it"
                        .to_string()
                },
            ),
            Err(e) => Selection::Blocked(vec![c.id], e),
        });
    }
    None
}

/// The brokers the batches of this phase are planned for: every broker but the active
/// controller that restarted in this roll or waits to.
pub(super) fn phase_brokers(
    nodes: &BTreeMap<NodeId, NodeContext>,
    brokers: &[&NodeContext],
    leader: Option<NodeId>,
) -> Vec<NodeId> {
    nodes
        .values()
        .filter(|c| {
            c.roles.broker
                && Some(c.id) != leader
                && (c.num_restarts > 0 || brokers.iter().any(|b| b.id == c.id))
        })
        .map(|c| c.id)
        .collect()
}

/// The first planned batch with a member that may restart now (safe, accepted with the others),
/// and its place in the plan (1-based, of how many; 0 when none).
pub(super) fn first_planned_batch(
    classes: &[Vec<NodeId>],
    safe: &[NodeId],
    max_batch_size: usize,
    accept: &dyn Fn(&[NodeId], NodeId) -> bool,
) -> (Vec<NodeId>, (usize, usize)) {
    let mut batch: Vec<NodeId> = Vec::new();
    let mut planned = (0, classes.len());
    for (i, class) in classes.iter().enumerate() {
        for &n in class {
            if batch.len() < max_batch_size.max(1) && safe.contains(&n) && accept(&batch, n) {
                batch.push(n);
            }
        }
        if !batch.is_empty() {
            planned.0 = i + 1;
            break;
        }
    }
    (batch, planned)
}
