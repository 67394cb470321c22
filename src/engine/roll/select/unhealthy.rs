//! Step 1 of a decision, RESTART_FIRST: the unhealthy nodes (not running, not ready,
//! unreachable) go first, one at a time and still under the availability and quorum rules,
//! with the rescue of combined controllers when none runs. Apart from the selection of healthy
//! batches (`brokers`) because it has its own rules and order.

use super::*;

/// Step 1, RESTART_FIRST: the unhealthy nodes `first` (not running, not ready, unreachable;
/// outside the selection only when included), one at a time, pure controllers first, each
/// passing the availability and quorum rules; all combined controllers together when none runs.
pub(super) fn select_unhealthy(
    config: &RollConfig,
    nodes: &BTreeMap<NodeId, NodeContext>,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
    blocker: Option<RollError>,
    leader: Option<NodeId>,
    mut first: Vec<&NodeContext>,
) -> Selection {
    if let Some(err) = blocker {
        return Selection::Blocked(ids(&first), err);
    }
    for c in &first {
        if c.num_restarts >= config.max_restart_attempts {
            return Selection::Abort(RollError::MaxRestartsExceeded {
                node: c.id,
                restarts: c.num_restarts,
                max: config.max_restart_attempts,
            });
        }
    }
    if let Some(s) = rescue_combined_controllers(config, nodes, leader) {
        return s;
    }
    first.sort_by_key(|c| (first_rank(c.roles), c.id));
    let mut first_err = None;
    // By timestamp alone: a controller that looks stopped but whose timestamp is still
    // fresh may hold a vote, so it passes the quorum rule like any other.
    let caught_up = safety::caught_up_by_timestamp(snapshot).unwrap_or_default();
    for c in &first {
        match check_unhealthy(c, snapshot, cache, &caught_up) {
            Ok(()) => return restart_unhealthy(c, first.len()),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    blocked_or_inconsistent(ids(&first), first_err)
}

/// May the unhealthy node `c` restart now (availability, and the quorum rule for a
/// controller that may hold a vote)?
pub(super) fn check_unhealthy(
    c: &NodeContext,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
    caught_up: &[NodeId],
) -> Result<(), RollError> {
    // A process that is not running holds no ISR place its restart
    // could take away (Kafka keeps a dead sole replica in the ISR of
    // an offline partition; restarting it is the cure).
    let availability = if c.state == NodeState::NotRunning {
        Ok(())
    } else {
        safety::check_availability(snapshot, cache.index(snapshot), c.id, Strictness::Unhealthy)
    };
    availability.and_then(|()| {
        // Unhealthy controllers pass the quorum rule too, caught up
        // or not (as Strimzi does): a lagging controller may still
        // be the vote that keeps the majority. Only a controller
        // that is not running and not counted by the leader holds
        // no vote its restart could take away.
        let holds_no_vote = c.state == NodeState::NotRunning && !caught_up.contains(&c.id);
        if c.roles.controller && !holds_no_vote {
            safety::check_quorum(snapshot, &[c.id])
        } else {
            Ok(())
        }
    })
}

/// The restart of the unhealthy node `c`, one of `left` unhealthy nodes.
pub(super) fn restart_unhealthy(c: &NodeContext, left: usize) -> Selection {
    let why = if c.reachable {
        format!("{} node is {:?}", c.roles, c.state)
    } else {
        format!("{} node is unreachable via the Admin API", c.roles)
    };
    let selection = if c.selected {
        ""
    } else {
        " (outside the selection; unhealthy nodes included)"
    };
    Selection::Restart(
        vec![NodeReason {
            node: c.id,
            reason: format!("{why}{selection}{}", reasons_suffix(c)),
        }],
        format!(
            "unhealthy nodes restart first, one at a time (pure controllers, \
             combined, brokers); {left} unhealthy node(s) left"
        ),
    )
}

/// The rescue of strimzi#9426: every controller is a combined node and
/// none runs, so no quorum can form until a majority starts together.
/// Only when the quorum really has no leader: with a leader, a
/// controller that looks not running is not what it seems (e.g. a
/// fenced broker side in log recovery).
pub(super) fn rescue_combined_controllers(
    config: &RollConfig,
    nodes: &BTreeMap<NodeId, NodeContext>,
    leader: Option<NodeId>,
) -> Option<Selection> {
    let controllers: Vec<&NodeContext> = nodes.values().filter(|c| c.roles.controller).collect();
    if leader.is_none()
        && !controllers.is_empty()
        && controllers.iter().all(|c| {
            c.roles.is_combined()
                && c.state == NodeState::NotRunning
                && c.eligible_when_unhealthy(config)
        })
    {
        let batch = controllers
            .iter()
            .map(|c| NodeReason {
                node: c.id,
                reason: format!("combined node is NOT_RUNNING{}", reasons_suffix(c)),
            })
            .collect();
        return Some(Selection::Restart(
            batch,
            format!(
                "all {} controllers are combined nodes, none is running and the quorum has no \
                 leader: restarting them together so that a quorum can form",
                controllers.len()
            ),
        ));
    }
    None
}
