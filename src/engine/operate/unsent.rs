//! A rebalance or replication-factor round whose execution request is not sent yet is checked
//! again before it is: it waits while something blocks it, runs only for the brokers still
//! wanted, and is sent with destinations that keep replicas off drained and held brokers.

use std::collections::BTreeSet;

use super::decision::{Act, Decision, ids, target_of, topics_of};
use super::observation::{KafkaView, Observation, OperatePolicy};
use super::safety::blockers;
use super::state::{Mover, OperateState};
use crate::engine::cc_flow::{CcFlow, FlowConfig};
use crate::engine::rebalance::{Mode, Rebalance};

/// A rebalance or replication-factor round whose execution request is not sent yet (just
/// started by the machine after another ended, or queued before): it starts only when nothing
/// blocks it (anyone's execution, reassignments others started, the Strimzi operator guard, an
/// unreadable platform), else it waits; and a rebalance runs only for brokers still wanted
/// (still on the drain list and holding replicas; registered and off the drain list for a
/// scale-up), so a broker taken off the drain list is not drained and a broker put on it is not
/// filled. Requests queued in the machine are re-checked here when they start.
pub(super) fn hold_unsent(
    state: &mut OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    drain_ok: bool,
    flow: &FlowConfig,
    d: &mut Decision,
) {
    // Each pass may end a rebalance no longer wanted, and the machine may start the next.
    for _ in 0..4 {
        if !check_unsent(state, obs, policy, drain_ok, flow, d) {
            return;
        }
    }
}

/// One pass of [`hold_unsent`]: `true` when the unsent mover was narrowed or ended and is to be
/// checked again (the machine may have started the next), `false` when it stands as it is.
fn check_unsent(
    state: &mut OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    drain_ok: bool,
    flow: &FlowConfig,
    d: &mut Decision,
) -> bool {
    let step = match &state.mover {
        Some(Mover::Rebalance(_)) => Act::StepRebalance,
        Some(Mover::ReplicationFactors(_)) => Act::StepReplicationFactors,
        _ => return false,
    };
    let Some(f) = state.flow() else { return false };
    if f.execution_requested() || f.outcome().is_some() || !d.acts.contains(&step) {
        return false;
    }
    let why = blockers(obs);
    if !why.is_empty() {
        wait_blocked(state, &step, &why, d);
        return false;
    }
    let (Some(r), Ok(k)) = (state.rebalance_mut(), &obs.kafka) else {
        return false;
    };
    let mode = r.rebalance.mode;
    let wanted = still_wanted(&r.rebalance, policy, k, drain_ok);
    if wanted == r.rebalance.brokers {
        // Brokers on the drain list are never destinations of a request sent now.
        match destinations(&r.rebalance, policy, k) {
            Some(to) if to.is_empty() => {
                d.acts.retain(|a| *a != step);
                state.finish(
                    false,
                    "not run: every broker is on the drain list or held, none may receive replicas",
                    obs.now,
                    policy,
                    flow,
                    d,
                );
                return true;
            }
            to => {
                if to != r.destinations {
                    // The proposal is computed again with the destinations it is sent with.
                    r.destinations = to;
                    r.flow = CcFlow::new(flow.clone());
                    r.requested_at = None;
                    r.request = None;
                }
            }
        }
        return false;
    }
    let dropped: BTreeSet<i32> = r.rebalance.brokers.difference(&wanted).copied().collect();
    let why = no_longer_wanted(mode, &dropped);
    if !wanted.is_empty() {
        d.notes.push(format!(
            "the {} rebalance runs for brokers {} only: {why}",
            mode.name(),
            ids(&wanted)
        ));
        r.rebalance.brokers = wanted;
        r.flow = CcFlow::new(flow.clone());
        r.requested_at = None;
        r.request = None;
        // Checked again (destinations) on the next pass.
        return true;
    }
    d.acts.retain(|a| *a != step);
    state.finish(false, &format!("not run: {why}"), obs.now, policy, flow, d);
    true
}

/// Why the `dropped` brokers of a rebalance of `mode` are no longer in it.
fn no_longer_wanted(mode: Mode, dropped: &BTreeSet<i32>) -> String {
    match mode {
        Mode::RemoveBrokers => format!(
            "brokers {} are no longer to be drained (off the drain list or empty)",
            ids(dropped)
        ),
        _ => format!(
            "brokers {} are no longer to be filled (on the drain list, held or gone)",
            ids(dropped)
        ),
    }
}

/// Something blocks the unsent mover (`why`): it is not stepped, and waits naming it.
fn wait_blocked(state: &OperateState, step: &Act, why: &[String], d: &mut Decision) {
    d.acts.retain(|a| a != step);
    let what = match (state.rebalance(), state.replication_factors()) {
        (Some(r), _) => format!(
            "the {} rebalance of {}",
            r.rebalance.mode.name(),
            target_of(&r.rebalance)
        ),
        (_, Some(r)) => {
            format!("the replication-factor round of {}", topics_of(&r.replicas))
        }
        _ => return,
    };
    d.waits.push(format!("{what} waits: {}", why.join("; ")));
}

/// The brokers of rebalance `r` still wanted: still on the drain list and holding replicas
/// (`drain_ok`: the drain set is not refused) for a scale-down; registered, off the drain list
/// and not held for a scale-up.
fn still_wanted(
    r: &Rebalance,
    policy: &OperatePolicy,
    k: &KafkaView,
    drain_ok: bool,
) -> BTreeSet<i32> {
    r.brokers
        .iter()
        .copied()
        .filter(|b| match r.mode {
            Mode::RemoveBrokers => {
                drain_ok && policy.drain.contains(b) && k.brokers.get(b).is_some_and(|n| *n > 0)
            }
            Mode::AddBrokers => {
                k.brokers.contains_key(b) && !policy.drain.contains(b) && !k.held.contains_key(b)
            }
            Mode::Imbalance => true,
        })
        .collect()
}

/// The only brokers a rebalance request sent now may move replicas to: every registered broker
/// but those on the drain list, the held ones and those it removes, when the drain list names a
/// broker it does not remove or a node is held (`None`: no restriction needed; add_broker fills
/// only the brokers it adds, and a held broker is never added). A broker on the drain list (or
/// held) counts whether or not the observation lists it: one missing now (stopped, killed,
/// fenced) may be back by the time Cruise Control computes the proposal, and an unrestricted
/// request would then let it fill that broker.
pub(super) fn destinations(
    r: &Rebalance,
    policy: &OperatePolicy,
    k: &KafkaView,
) -> Option<BTreeSet<i32>> {
    if r.mode == Mode::AddBrokers
        || (policy.drain.iter().all(|b| r.brokers.contains(b)) && k.held.is_empty())
    {
        return None;
    }
    Some(
        k.brokers
            .keys()
            .copied()
            .filter(|b| {
                !policy.drain.contains(b) && !r.brokers.contains(b) && !k.held.contains_key(b)
            })
            .collect(),
    )
}
