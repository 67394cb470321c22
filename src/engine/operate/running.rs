//! The running rebalance or replication-factor round between loops: a flow restored with its
//! execution request in flight (or whose request got no answer) is attached to the task Cruise
//! Control lists for it, never sent again; a flow that waits says why; one that ended is
//! finished and recorded.

use std::collections::BTreeSet;

use super::decision::{
    Act, Decision, Record, RecordResult, describe_outcome, endpoint_of, target_of, topics_of,
};
use super::observation::{Observation, OperatePolicy};
use super::state::{Mover, OperateState};
use super::tasks::{RequestParams, find_our_task};
use crate::engine::cc_flow::{CcFlow, FlowConfig, Outcome, Phase, Stage};
use crate::engine::model::Millis;
use crate::engine::replicas::{ChangeState, round_end};

/// What became of the running mover's Cruise Control flow.
enum FlowState {
    /// Drive it (new, resumed, attached or followed again).
    Step,
    /// It cannot go on now (why).
    Wait(String),
    /// It ended.
    Ended(Outcome),
    /// A saved execution request never reached Cruise Control.
    NeverSent,
}

/// The execution request of `flow` may have reached Cruise Control without its answer reaching
/// us: the flow was restored with the request in flight, or the request failed or timed out
/// (it is never retried; Cruise Control may have started the execution). Either way its task is
/// looked for in `user_tasks` before anything else may start.
pub(super) fn request_unanswered(flow: &CcFlow) -> bool {
    (*flow.phase() == Phase::Starting && flow.task_id().is_none())
        || matches!(
            flow.outcome(),
            Some(Outcome::Error {
                stage: Stage::Start,
                task_id: None,
                ..
            })
        )
}

/// The running flow after a restart, an outage or its end; attaches a flow whose execution
/// request got no answer (restored in flight, failed or timed out) to the task Cruise Control
/// lists for it.
#[allow(clippy::too_many_arguments)]
fn resolve_flow(
    flow: &mut CcFlow,
    requested_at: Option<Millis>,
    started_at: Millis,
    endpoint: &str,
    sent: Option<&RequestParams>,
    brokers: &BTreeSet<i32>,
    obs: &Observation,
    config: &FlowConfig,
    d: &mut Decision,
) -> FlowState {
    let unanswered = request_unanswered(flow);
    if !unanswered && let Some(outcome) = flow.outcome().cloned() {
        let keeps_running = matches!(
            outcome,
            Outcome::TimedOut { .. }
                | Outcome::Error {
                    stage: Stage::Follow,
                    ..
                }
        );
        if keeps_running && flow.follow_again() {
            // Following failed (Cruise Control did not answer) while it executes: follow again.
            d.notes.push(format!(
                "following task {} again",
                flow.task_id().unwrap_or("-")
            ));
            return FlowState::Step;
        }
        return FlowState::Ended(outcome);
    }
    let cc = match &obs.cc {
        Ok(cc) => cc,
        Err(e) => return FlowState::Wait(format!("Cruise Control cannot be reached ({e})")),
    };
    if unanswered {
        // The execution request may have reached Cruise Control (restored in flight, or it
        // failed or timed out): find its task, never send it again.
        let Some(tasks) = &cc.user_tasks else {
            return FlowState::Wait("Cruise Control's user tasks were not read".into());
        };
        let since = requested_at.unwrap_or(started_at);
        if let Some(t) = find_our_task(tasks, endpoint, sent, brokers, since) {
            d.notes.push(format!(
                "attaching to Cruise Control task {} ({endpoint}, {:?}) whose execution request got no answer",
                t.user_task_id, t.status
            ));
            *flow = CcFlow::attach(config.clone(), t.user_task_id.clone(), obs.now);
            return FlowState::Step;
        }
        if !cc.executor.is_idle() {
            return FlowState::Wait(format!(
                "Cruise Control is executing ({}), and no task of ours is listed",
                cc.executor.describe()
            ));
        }
        return FlowState::NeverSent;
    }
    FlowState::Step
}

/// The running rebalance or replication-factor round: attach after a restart, follow, or
/// finish.
pub(super) fn running(
    state: &mut OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    flow: &FlowConfig,
    d: &mut Decision,
) {
    match &state.mover {
        Some(Mover::Rebalance(_)) => running_rebalance(state, obs, policy, flow, d),
        Some(Mover::ReplicationFactors(_)) => running_replication_factors(state, obs, flow, d),
        _ => {}
    }
}

/// Why a mover whose saved execution request Cruise Control does not list is ended.
const NEVER_SENT: &str =
    "the execution request never reached Cruise Control (no task of ours is listed)";

/// The running rebalance: attach, follow, or finish it (and start what the machine starts next).
fn running_rebalance(
    state: &mut OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    flow: &FlowConfig,
    d: &mut Decision,
) {
    let now = obs.now;
    let Some(Mover::Rebalance(r)) = &mut state.mover else {
        return;
    };
    let mode = r.rebalance.mode;
    let brokers = r.rebalance.brokers.clone();
    match resolve_flow(
        &mut r.flow,
        r.requested_at,
        r.started_at,
        endpoint_of(mode),
        r.request.as_ref(),
        &brokers,
        obs,
        flow,
        d,
    ) {
        FlowState::Step => d.acts.push(Act::StepRebalance),
        FlowState::Wait(why) => d.waits.push(format!(
            "the {} rebalance of {} waits: {why}",
            mode.name(),
            target_of(&r.rebalance)
        )),
        FlowState::Ended(outcome) => {
            let succeeded = matches!(outcome, Outcome::Completed { .. } | Outcome::NothingToDo);
            state.finish(succeeded, &describe_outcome(&outcome), now, policy, flow, d);
        }
        FlowState::NeverSent => state.finish(false, NEVER_SENT, now, policy, flow, d),
    }
}

/// The running replication-factor round: attach, follow, or (once Kafka can be read) end it,
/// keeping the factors that failed for good.
fn running_replication_factors(
    state: &mut OperateState,
    obs: &Observation,
    flow: &FlowConfig,
    d: &mut Decision,
) {
    let Some(Mover::ReplicationFactors(r)) = &mut state.mover else {
        return;
    };
    let topics = topics_of(&r.replicas);
    let st = resolve_flow(
        &mut r.flow,
        r.requested_at,
        r.started_at,
        "topic_configuration",
        r.request.as_ref(),
        &BTreeSet::new(),
        obs,
        flow,
        d,
    );
    let end = match st {
        FlowState::Step => {
            d.acts.push(Act::StepReplicationFactors);
            return;
        }
        FlowState::Wait(why) => {
            d.waits
                .push(format!("the replication factors of {topics} wait: {why}"));
            return;
        }
        FlowState::Ended(o) => (round_end(&o), describe_outcome(&o)),
        FlowState::NeverSent => (None, NEVER_SENT.to_string()),
    };
    let Ok(k) = &obs.kafka else {
        d.waits.push(format!(
            "the end of the replication-factor round of {topics} waits: Kafka cannot be read"
        ));
        return;
    };
    if let (Some(e), _) = &end {
        r.replicas.handle_round(e, &k.facts());
    } else {
        r.replicas.observe(&k.facts());
    }
    let mut failed = Vec::new();
    for (t, c) in &r.replicas.changes {
        if c.state == ChangeState::Failed {
            state_failed(&mut failed, t, c.target);
        }
    }
    let succeeded = !r.replicas.unfinished() && !r.replicas.any_failed();
    d.records.push(Record {
        kind: "set-rf".into(),
        target: topics,
        reason: end.1,
        result: if succeeded {
            RecordResult::Succeeded
        } else {
            RecordResult::Failed
        },
    });
    state.mover = None;
    state.rf_failed.extend(failed);
}

fn state_failed(out: &mut Vec<(String, u16)>, topic: &str, target: u16) {
    out.push((topic.to_string(), target));
}
