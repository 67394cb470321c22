//! One loop's decision ([`decide`]): the broker facts (what is to be drained, what is new and
//! empty), then the running mover, then what may start in precedence order (scale-down,
//! scale-up, rolls, replication factors, imbalance), then the checks every unsent request and
//! every drained broker get.

use std::collections::BTreeSet;

use super::decision::{Act, Decision, ids, target_of, topics_of};
use super::machine::{feed, queued_wishes};
use super::observation::{Observation, OperatePolicy};
use super::running::running;
use super::safety::{blockers, drain_refused, safe_to_stop};
use super::start::nothing_runs;
use super::state::OperateState;
use super::unsent::hold_unsent;
use crate::engine::anomalies::AnomalyRecord;
use crate::engine::cc_flow::FlowConfig;
use crate::engine::rebalance::Mode;

/// What this loop's observation asks to move.
pub(super) struct Wanted {
    /// Brokers on the drain list that still hold replicas (none while the drain is refused).
    pub to_drain: BTreeSet<i32>,
    /// Registered brokers off the drain list that held no replica for the grace period.
    pub scale_up: BTreeSet<i32>,
    /// Cruise Control's anomaly records, when it could be read.
    pub anomalies: Option<Vec<AnomalyRecord>>,
}

impl Wanted {
    /// The scale-down and scale-up wishes, as waits name them.
    pub(super) fn broker_wishes(&self) -> Vec<String> {
        let mut wishes = Vec::new();
        if !self.to_drain.is_empty() {
            wishes.push(format!("scale-down of brokers {}", ids(&self.to_drain)));
        }
        if !self.scale_up.is_empty() {
            wishes.push(format!("scale-up of brokers {}", ids(&self.scale_up)));
        }
        wishes
    }
}

/// Decides one loop: updates `state` and says what the shell must do.
pub fn decide(
    state: &mut OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    flow: &FlowConfig,
) -> Decision {
    let mut d = Decision::default();

    // A drain set that would leave too few brokers (the policy's, or Strimzi's scale-down added
    // to it) drains nothing.
    let refused = obs
        .kafka
        .as_ref()
        .ok()
        .and_then(|k| drain_refused(policy, k));
    if let Some(why) = &refused {
        d.waits.push(why.clone());
    }
    let mut wanted = wanted(state, obs, policy, refused.is_none(), &mut d);

    // 1. The running rebalance, if any: resolve, follow, or finish it.
    if state.mover.is_some() {
        running(state, obs, policy, flow, &mut d);
    }
    // Brokers the running rebalance (maybe just started) covers are not requested again.
    if let Some(r) = state.rebalance() {
        for b in &r.rebalance.brokers {
            if r.rebalance.mode == Mode::RemoveBrokers {
                wanted.to_drain.remove(b);
            }
            if r.rebalance.mode == Mode::AddBrokers {
                wanted.scale_up.remove(b);
            }
        }
    }

    if state.rebalance().is_some() {
        rebalance_runs(state, wanted, obs, policy, flow, &mut d);
    } else if state.roll().is_some() || state.replication_factors().is_some() {
        other_mover_runs(state, &wanted, obs, &mut d);
    } else {
        nothing_runs(state, wanted, obs, policy, flow, &mut d);
    }
    hold_unsent(state, obs, policy, refused.is_none(), flow, &mut d);
    if refused.is_none() {
        safe_to_stop(state, obs, policy, &mut d);
    }
    d
}

/// Broker facts: what is to be drained (`drain_ok`: the drain set is not refused), what is new
/// and empty (and held, which waits); the anomalies Cruise Control reported.
fn wanted(
    state: &mut OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    drain_ok: bool,
    d: &mut Decision,
) -> Wanted {
    let now = obs.now;
    let mut to_drain = BTreeSet::new();
    let mut scale_up = BTreeSet::new();
    match &obs.kafka {
        Ok(k) => {
            state
                .empty_since
                .retain(|b, _| k.brokers.get(b) == Some(&0) && !policy.drain.contains(b));
            for (&b, &n) in &k.brokers {
                if policy.drain.contains(&b) {
                    if n > 0 && drain_ok {
                        to_drain.insert(b);
                    }
                } else if n == 0 {
                    let since = *state.empty_since.entry(b).or_insert(now);
                    if now.since(since) >= policy.scale_up_grace_ms {
                        if let Some(why) = k.held.get(&b) {
                            d.waits
                                .push(format!("scale-up of broker {b} waits: it is held ({why})"));
                        } else {
                            scale_up.insert(b);
                        }
                    }
                }
            }
        }
        Err(e) => d.waits.push(format!(
            "scale-up and scale-down detection waits: Kafka metadata cannot be read ({e})"
        )),
    }
    Wanted {
        to_drain,
        scale_up,
        anomalies: obs.cc.as_ref().ok().map(|c| c.anomalies.clone()),
    }
}

/// 2. While a rebalance of ours runs: a scale-down preempts a scale-up; the rest queues.
fn rebalance_runs(
    state: &mut OperateState,
    wanted: Wanted,
    obs: &Observation,
    policy: &OperatePolicy,
    flow: &FlowConfig,
    d: &mut Decision,
) {
    let wait_on = state
        .rebalance()
        .map(|r| {
            format!(
                "the {} rebalance of {} runs",
                r.rebalance.mode.name(),
                target_of(&r.rebalance)
            )
        })
        .unwrap_or_default();
    feed(
        state,
        &wanted.to_drain,
        &wanted.scale_up,
        wanted.anomalies,
        policy,
        flow,
        obs.now,
        d,
    );
    if state.mover.is_some() {
        let mut wishes = queued_wishes(state);
        if let Some(w) = &obs.roll {
            wishes.push(format!("roll of nodes {}", ids(&w.nodes)));
        }
        for w in wishes {
            d.waits.push(format!("{w} waits: {wait_on}"));
        }
    }
}

/// 2'. A roll or a replication-factor round runs: nothing else starts until it ends.
fn other_mover_runs(state: &OperateState, wanted: &Wanted, obs: &Observation, d: &mut Decision) {
    let wait_on = match (state.roll(), state.replication_factors()) {
        (Some(r), _) => format!("the roll of nodes {} runs", ids(&r.nodes)),
        (_, Some(r)) => format!(
            "the replication-factor round of {} runs",
            topics_of(&r.replicas)
        ),
        _ => String::new(),
    };
    let mut wishes = queued_wishes(state);
    wishes.extend(wanted.broker_wishes());
    for w in wishes {
        d.waits.push(format!("{w} waits: {wait_on}"));
    }
    if let Some(r) = state.roll() {
        // Someone else's execution or reassignments started meanwhile: no node restarts
        // while they move data; the roll resumes from its saved run once they are over.
        let why = blockers(obs);
        if why.is_empty() {
            d.acts.push(Act::StepRoll);
        } else {
            d.waits.push(format!(
                "the roll of nodes {} waits: {}",
                ids(&r.nodes),
                why.join("; ")
            ));
        }
    }
}
