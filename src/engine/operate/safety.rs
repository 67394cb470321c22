//! The checks that keep movers apart and drained brokers honest: why nothing may start now
//! (anyone's execution, reassignments others started, the operator guard, another roll, an
//! unreadable side), whether a drain set is refused, and which drained brokers are safe to stop
//! (nothing in flight or running may put a replica on them).

use std::collections::{BTreeMap, BTreeSet};

use super::decision::{Decision, ids, target_of, topics_of};
use super::observation::{KafkaView, Observation, OperatePolicy};
use super::state::{Mover, OperateState};
use crate::engine::cc_flow::CcFlow;
use crate::engine::movers::{self, CruiseControlView};
use crate::engine::operator_guard;
use crate::engine::rebalance::Mode;

/// Why draining the brokers on the drain list is refused (`None`: it may go on): it would leave
/// no broker, or fewer brokers than a topic's replication factor (or a factor the policy asks
/// for). Checked on every loop against the merged drain set, so a drain Kubernetes adds
/// (Strimzi's scale-down of a node pool) gets the checks the policy file gets.
pub(super) fn drain_refused(policy: &OperatePolicy, k: &KafkaView) -> Option<String> {
    let drained: BTreeSet<i32> = k
        .brokers
        .keys()
        .copied()
        .filter(|b| policy.drain.contains(b))
        .collect();
    if drained.is_empty() {
        return None;
    }
    let left = k.brokers.len() - drained.len();
    let refuse = |why: String| {
        Some(format!(
            "draining brokers {} is refused: {why}; nothing on the drain list is drained or said safe to stop until the drain list changes",
            ids(&drained)
        ))
    };
    if left == 0 {
        return refuse("it would leave no broker for their replicas".into());
    }
    let widest = k
        .topics
        .iter()
        .map(|(t, f)| (usize::from(f.max_rf), t.as_str(), "has"))
        .chain(
            policy
                .replication_factors
                .iter()
                .map(|(t, f)| (usize::from(*f), t.as_str(), "is to get")),
        )
        .max_by_key(|(rf, _, _)| *rf);
    if let Some((rf, topic, verb)) = widest
        && rf > left
    {
        return refuse(format!(
            "it would leave {left} broker(s), fewer than the {rf} replicas each partition of topic {topic} {verb}"
        ));
    }
    None
}

/// Says which drained brokers may be stopped (after this decision's own starts): registered,
/// holding no replica, and nothing may put one there now.
pub(super) fn safe_to_stop(
    state: &OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    d: &mut Decision,
) {
    let Ok(k) = &obs.kafka else { return };
    for (&b, &n) in &k.brokers {
        if !policy.drain.contains(&b) || n > 0 {
            continue;
        }
        match may_fill(state, obs, k, b) {
            Some(why) => d.notes.push(format!(
                "broker {b} holds no replica, but {why}: not safe to stop yet"
            )),
            None => {
                d.notes.push(format!(
                    "broker {b} is drained (holds no replica): safe to stop"
                ));
                d.safe_to_stop.insert(b);
            }
        }
    }
}

/// Why a replica may be on its way to broker `b`, or be put there by what runs (`None`:
/// nothing may): a reassignment in flight involves it (the replica counts and the reassignments
/// are separate reads, so a count of 0 does not rule out a replica being added); a rebalance of
/// ours (queued or running) whose request does not rule it out as a destination; a
/// replication-factor round of ours (`topic_configuration` cannot be told to avoid a broker);
/// an execution that is not ours; or Cruise Control cannot be read.
pub(super) fn may_fill(
    state: &OperateState,
    obs: &Observation,
    k: &KafkaView,
    b: i32,
) -> Option<String> {
    if let Some(r) = k
        .reassignments
        .iter()
        .find(|r| r.adding.contains(&b) || r.replicas.contains(&b) || r.removing.contains(&b))
    {
        let what = if r.adding.contains(&b) {
            "adds a replica to it"
        } else {
            "involves it"
        };
        return Some(format!(
            "a partition reassignment in flight ({}-{}) {what}",
            r.topic, r.partition
        ));
    }
    if adding(state, b) {
        return Some("an add-brokers rebalance for it is queued or runs".into());
    }
    let ours = state.flow().and_then(CcFlow::task_id);
    match &state.mover {
        Some(Mover::Rebalance(r)) if r.may_fill(b) => {
            return Some(format!(
                "the {} rebalance of {} runs and its request does not keep replicas off it",
                r.rebalance.mode.name(),
                target_of(&r.rebalance)
            ));
        }
        Some(Mover::ReplicationFactors(r)) => {
            return Some(format!(
                "the replication-factor round of {} runs (Cruise Control's topic_configuration cannot be told to keep new replicas off a broker)",
                topics_of(&r.replicas)
            ));
        }
        _ => {}
    }
    match &obs.cc {
        Err(e) => Some(format!(
            "Cruise Control cannot be read ({e}): an execution may be moving replicas onto it"
        )),
        Ok(cc)
            if !cc.executor.is_idle() && (ours.is_none() || cc.executor.running_task() != ours) =>
        {
            Some(format!(
                "Cruise Control is executing ({}), which may move replicas onto it",
                cc.executor.describe()
            ))
        }
        Ok(_) => None,
    }
}

/// Whether an add-brokers rebalance for broker `b` is queued or runs (it may fill `b`).
pub(super) fn adding(state: &OperateState, b: i32) -> bool {
    state
        .rebalancer
        .queued()
        .get(&Mode::AddBrokers)
        .is_some_and(|q| q.contains(&b))
        || state.rebalance().is_some_and(|r| {
            r.rebalance.mode == Mode::AddBrokers && r.rebalance.brokers.contains(&b)
        })
}

/// Why nothing may start now (empty: it may).
pub(super) fn blockers(obs: &Observation) -> Vec<String> {
    // Cruise Control's execution and the reassignments nobody's execution owns: the rule every
    // mover of ours shares (`kafkaops roll` asks the same, see `engine::movers`).
    let cc = CruiseControlView::of(obs.cc.as_ref().map(|c| &c.executor).map_err(String::as_str));
    let mut out = match &obs.kafka {
        Err(e) => {
            let mut out = movers::other_movers(cc, &[], &BTreeMap::new()).blockers();
            out.push(format!("Kafka cannot be read ({e})"));
            out
        }
        Ok(k) => movers::other_movers(cc, &k.reassignments, &BTreeMap::new()).blockers(),
    };
    if let Some(e) = &obs.platform_error {
        out.push(format!("the platform cannot be read ({e})"));
    }
    if let Some(r) = &obs.other_roll {
        out.push(format!("another roll is in progress ({r})"));
    }
    if let Some(view) = &obs.operator
        && let operator_guard::Decision::Refuse(e) =
            operator_guard::decide(view, operator_guard::Action::Execute("rebalance"), false)
    {
        out.push(e.reasons.join("; "));
    }
    out
}
