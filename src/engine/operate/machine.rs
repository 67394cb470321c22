//! The auto-rebalance precedence: the wishes (scale-down, scale-up, imbalance) are fed to the
//! seed's state machine ([`AutoRebalancer`](crate::engine::rebalance::AutoRebalancer)) in
//! precedence order, it keeps the queue, and what it asks for (start, stop a running scale-up,
//! nothing) is applied to the state here: a mode absent from the policy never starts, a
//! scale-down preempts a scale-up, and a rebalance that ends starts the next one queued.

use std::collections::BTreeSet;

use super::decision::{Act, Decision, Record, RecordResult, ids, kind_of, target_of};
use super::observation::OperatePolicy;
use super::state::{Mover, OperateState, RunningRebalance};
use crate::engine::anomalies::AnomalyRecord;
use crate::engine::cc_flow::{CcFlow, FlowConfig};
use crate::engine::model::Millis;
use crate::engine::rebalance::{Action as FsmAction, Event, Mode, Rebalance};

impl OperateState {
    /// Feeds the machine one event, noting its transition.
    fn handle(&mut self, e: Event, now: Millis, d: &mut Decision) -> FsmAction {
        let before = self.rebalancer.state();
        let a = self.rebalancer.handle(e, now);
        let after = self.rebalancer.state();
        if before != after {
            d.transitions.push((before, after));
        }
        a
    }

    /// Ends the running rebalance (`succeeded` or not) and starts what the machine starts next.
    pub(super) fn finish(
        &mut self,
        succeeded: bool,
        why: &str,
        now: Millis,
        policy: &OperatePolicy,
        flow: &FlowConfig,
        d: &mut Decision,
    ) {
        let Some(Mover::Rebalance(r)) = self.mover.take() else {
            return;
        };
        if r.rebalance.mode == Mode::AddBrokers {
            // Not re-requested before another grace period (e.g. a proposal that moved nothing).
            for b in &r.rebalance.brokers {
                self.empty_since.insert(*b, now);
            }
        }
        d.records.push(Record {
            kind: kind_of(r.rebalance.mode).into(),
            target: target_of(&r.rebalance),
            reason: why.to_string(),
            result: if succeeded {
                RecordResult::Succeeded
            } else {
                RecordResult::Failed
            },
        });
        let a = self.handle(Event::RebalanceFinished { succeeded }, now, d);
        self.apply(a, now, policy, flow, d, "");
    }

    /// Applies what the machine asked for.
    fn apply(
        &mut self,
        a: FsmAction,
        now: Millis,
        policy: &OperatePolicy,
        flow: &FlowConfig,
        d: &mut Decision,
        reason: &str,
    ) {
        match a {
            FsmAction::Nothing => {}
            FsmAction::Start(r) if !policy.modes.contains(&r.mode) => {
                // Queued under an older policy: a mode absent from the policy never starts.
                d.notes.push(format!(
                    "not starting the {} rebalance of {}: {} is not in the policy's autoRebalance",
                    r.mode.name(),
                    target_of(&r),
                    r.mode.name()
                ));
                let a = self.handle(Event::RebalanceFinished { succeeded: false }, now, d);
                self.apply(a, now, policy, flow, d, reason);
            }
            FsmAction::Start(r) => self.start(r, now, flow, d, reason),
            FsmAction::StopRunning => self.stop_running(now, policy, flow, d),
        }
    }

    /// Starts rebalance `r` (the machine asked for it; `reason` empty: say why from its mode).
    fn start(
        &mut self,
        r: Rebalance,
        now: Millis,
        flow: &FlowConfig,
        d: &mut Decision,
        reason: &str,
    ) {
        let why = if reason.is_empty() {
            match r.mode {
                Mode::RemoveBrokers => {
                    format!("brokers {} are to be drained", ids(&r.brokers))
                }
                Mode::AddBrokers => format!("brokers {} hold no replica", ids(&r.brokers)),
                Mode::Imbalance => format!(
                    "Cruise Control reports {} fixable goal violation(s)",
                    r.anomalies.len()
                ),
            }
        } else {
            reason.to_string()
        };
        d.records.push(Record {
            kind: kind_of(r.mode).into(),
            target: target_of(&r),
            reason: why,
            result: RecordResult::Started,
        });
        let tag = self.next_tag(now);
        self.mover = Some(Mover::Rebalance(RunningRebalance {
            rebalance: r,
            flow: CcFlow::new(flow.clone()),
            requested_at: None,
            stop_requested: false,
            started_at: now,
            destinations: None,
            tag,
            request: None,
        }));
        d.acts.push(Act::StepRebalance);
    }

    /// A scale-down preempts the running scale-up: ask Cruise Control to stop its execution,
    /// or, when nothing was executed yet, drop it (the machine queues it again).
    fn stop_running(
        &mut self,
        now: Millis,
        policy: &OperatePolicy,
        flow: &FlowConfig,
        d: &mut Decision,
    ) {
        let Some(Mover::Rebalance(r)) = &mut self.mover else {
            return;
        };
        if r.flow.execution_requested() {
            r.stop_requested = true;
            d.records.push(Record {
                kind: "stop-rebalance".into(),
                target: target_of(&r.rebalance),
                reason: "a scale-down preempts the running scale-up".into(),
                result: RecordResult::Started,
            });
            d.acts.push(Act::StopRebalance {
                task_id: r.flow.task_id().map(str::to_string),
            });
        } else {
            // Nothing was executed yet: drop the flow, the machine queues it again.
            self.finish(
                false,
                "preempted by a scale-down before anything was executed",
                now,
                policy,
                flow,
                d,
            );
        }
    }
}

/// Feeds the machine its events in precedence order (only modes the policy has).
#[allow(clippy::too_many_arguments)]
pub(super) fn feed(
    state: &mut OperateState,
    to_drain: &BTreeSet<i32>,
    scale_up: &BTreeSet<i32>,
    anomalies: Option<Vec<AnomalyRecord>>,
    policy: &OperatePolicy,
    flow: &FlowConfig,
    now: Millis,
    d: &mut Decision,
) {
    let mut events = Vec::new();
    if !to_drain.is_empty() {
        if policy.modes.contains(&Mode::RemoveBrokers) {
            events.push(Event::ScaleDownRequested(to_drain.clone()));
        } else {
            d.waits.push(format!(
                "brokers {} still hold replicas: remove-brokers is not in the policy's autoRebalance",
                ids(to_drain)
            ));
        }
    }
    if !scale_up.is_empty() {
        if policy.modes.contains(&Mode::AddBrokers) {
            events.push(Event::ScaleUpRequested(scale_up.clone()));
        } else {
            d.notes.push(format!(
                "brokers {} hold no replica: add-brokers is not in the policy's autoRebalance",
                ids(scale_up)
            ));
        }
    }
    if let Some(a) = anomalies
        && policy.modes.contains(&Mode::Imbalance)
    {
        events.push(Event::AnomaliesObserved(a));
    }
    events.push(Event::Tick);
    for e in events {
        let a = state.handle(e, now, d);
        state.apply(a, now, policy, flow, d, "");
    }
}

/// The machine's queued modes, as wishes.
pub(super) fn queued_wishes(state: &OperateState) -> Vec<String> {
    state
        .rebalancer
        .queued()
        .into_iter()
        .map(|(mode, brokers)| {
            if brokers.is_empty() {
                format!("queued {} rebalance", mode.name())
            } else {
                format!(
                    "queued {} rebalance of brokers {}",
                    mode.name(),
                    ids(&brokers)
                )
            }
        })
        .collect()
}
