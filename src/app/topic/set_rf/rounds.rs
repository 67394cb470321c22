//! `topic set-rf --execute`: the rounds of a change. Each round runs the shared Cruise Control
//! flow once with every pending topic in one `topic_configuration` request, reads the factors
//! back from Kafka and hands the engine how the round ended; the state file is written after
//! every step ([`Saver`]), so a re-run after an interruption (or `--no-wait`) follows the task it
//! started instead of starting over.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::super::{groups, onto_held};
use super::hold_guard::HoldGuard;
use super::state_file::Saver;
use super::{
    Prepared, ProposalSummary, SetRfRun, SetRfSpec, base_request, flow_config, observe, summary,
};
use crate::app::Reporter;
use crate::cruise_control::params::TopicConfigurationRequest;
use crate::cruise_control::{CruiseControlClient, Observer};
use crate::driver::cc_flow::{self as flow, FlowDriver, FlowHooks, FlowReport};
use crate::engine::cc_flow::{CcFlow, FlowConfig, Outcome, Stage};
use crate::engine::failure::{Classified, FailureKind};
use crate::engine::model::NodeId;
use crate::engine::replicas::{ClusterFacts, ReplicasState, RoundEnd, round_end};
use crate::kafka::KafkaClient;

/// The change: rounds until every topic is at its target (or a round ends the run), the state
/// file written after every step.
///
/// # Errors
/// Kafka cannot be read back after a round.
pub async fn execute<H: FlowHooks>(
    kafka: &KafkaClient,
    cc: &CruiseControlClient,
    prepared: Prepared,
    spec: &SetRfSpec,
    hooks: &H,
    obs: &dyn Observer,
    reporter: &dyn Reporter,
) -> anyhow::Result<SetRfRun<H::Error>> {
    let Prepared {
        names,
        facts,
        mut state,
        held,
        saved_flow,
        others,
    } = prepared;
    let hooks = &HoldGuard::new(hooks, &held, spec.assume_yes);
    let saver = Saver::new(&spec.state_file, &state, others, saved_flow.as_ref());
    let base = base_request(spec, &facts);
    let started = Instant::now();
    let deadline = started + spec.timeout;
    let mut confirmed = spec.assume_yes;
    let mut proposal: Option<ProposalSummary> = None;
    let mut resume = resumable(&mut state, saved_flow, &facts);
    saver.save(&state, None);
    let mut final_error: Option<H::Error> = None;
    let round = Round {
        cc,
        hooks,
        obs,
        saver: &saver,
    };

    while state.unfinished() {
        let Some(request) = round_request(&base, &state, resume.is_some()) else {
            break;
        };
        // While a node is held every round's proposal is checked before it runs (HoldGuard's
        // confirm), so the confirmation step is never skipped.
        let remaining = deadline.saturating_duration_since(Instant::now());
        let config = flow_config(spec, confirmed && held.is_empty(), remaining);
        let report = round.run(&request, config, resume.take(), &mut state).await;
        confirmed |= report.flow.confirmed();
        note_proposal(&mut proposal, &report, &names, &held);
        let end = match (round_end(&report.outcome), &report.outcome) {
            (Some(end), _) => end,
            (None, Outcome::Started { task_id }) => {
                // --no-wait: the change is with Cruise Control.
                submitted(&mut state, task_id.clone(), &report.flow, &saver);
                return Ok(SetRfRun {
                    state,
                    proposal,
                    submitted: Some(task_id.clone()),
                    error: None,
                });
            }
            (None, _) => {
                keep_for_a_rerun(&state, &report.flow, &saver);
                final_error = report.error;
                break;
            }
        };
        let (_, after) = observe_settled(kafka, &names, &state, &end).await?;
        state.handle_round(&end, &after);
        saver.save(&state, None);
        if let Err(gave_up) = before_the_next_round(&end, spec, started, deadline, reporter).await {
            final_error = Some(H::Error::from(gave_up));
            break;
        }
    }

    Ok(SetRfRun {
        state,
        proposal,
        submitted: None,
        error: final_error,
    })
}

/// The saved flow to follow again: an ongoing change's, saved while following. Without one,
/// the task of an ongoing change cannot be followed (saved mid-request): it is treated as
/// forgotten, and what is not at its target yet is sent again.
fn resumable(
    state: &mut ReplicasState,
    saved_flow: Option<CcFlow>,
    facts: &ClusterFacts,
) -> Option<CcFlow> {
    let resumable = saved_flow.filter(|f| {
        f.execution_started()
            && f.outcome().is_none()
            && f.task_id()
                .is_some_and(|t| state.ongoing_tasks().contains(t))
    });
    if resumable.is_none() && !state.ongoing_tasks().is_empty() {
        state.handle_round(&RoundEnd::Lost, facts);
    }
    resumable
}

/// The next round's request: every pending topic by target factor, or none when the round
/// follows the execution an earlier run started. `None`: nothing left to send.
fn round_request(
    base: &TopicConfigurationRequest,
    state: &ReplicasState,
    resuming: bool,
) -> Option<TopicConfigurationRequest> {
    let mut request = base.clone();
    request.by_factor = if resuming {
        BTreeMap::new()
    } else {
        groups(state)
    };
    (resuming || !request.by_factor.is_empty()).then_some(request)
}

/// One round: the shared flow, started anew or resumed, saving the state after every step.
struct Round<'a, H> {
    cc: &'a CruiseControlClient,
    hooks: &'a H,
    obs: &'a dyn Observer,
    saver: &'a Saver<'a>,
}

impl<H: FlowHooks> Round<'_, H> {
    async fn run(
        &self,
        request: &TopicConfigurationRequest,
        config: FlowConfig,
        resume: Option<CcFlow>,
        state: &mut ReplicasState,
    ) -> FlowReport<H::Error> {
        let resumed = resume.is_some();
        let state_cell = Mutex::new(state);
        let after_step = |f: &CcFlow| {
            let mut s = state_cell.lock().unwrap_or_else(PoisonError::into_inner);
            // The moment Cruise Control accepted the execution, every pending topic of this
            // round is ongoing under its task (saved before anything else can happen).
            if f.execution_started() && !resumed && !s.to_send().is_empty() {
                s.handle_sent(f.task_id().map(str::to_string));
            }
            self.saver.save(&s, f.outcome().is_none().then_some(f));
        };
        let interrupt = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        let (cc, hooks, obs) = (self.cc, self.hooks, self.obs);
        match resume {
            Some(f) => {
                // The hooks say "following" once Cruise Control shows it still knows the task
                // (a forgotten one is reported as such, not followed first).
                let driver = FlowDriver::resume(cc, request, f, hooks, obs);
                flow::run_driver(driver, interrupt, after_step).await
            }
            None => {
                let driver = FlowDriver::new(cc, request, config, hooks, obs);
                flow::run_driver(driver, interrupt, after_step).await
            }
        }
    }
}

/// The proposal the run reports. The dry run lists the movements (the execution's answer is
/// not verbose): its topics stay in the summary.
fn note_proposal<E>(
    proposal: &mut Option<ProposalSummary>,
    report: &FlowReport<E>,
    names: &BTreeSet<String>,
    held: &BTreeMap<NodeId, String>,
) {
    if let Some(p) = report.proposal.as_ref() {
        let mut s = summary(&p.value, names);
        s.onto_held = onto_held(&p.value.proposals, held);
        *proposal = Some(s);
    }
    if let Some(p) = report.execution.as_ref() {
        let topics = proposal.take().map(|p| p.topics).unwrap_or_default();
        let mut s = summary(&p.value, names);
        if s.topics.is_empty() {
            s.topics = topics;
        }
        *proposal = Some(s);
    }
}

/// `--no-wait`: the round's topics are ongoing under the task, and the flow is saved as
/// following, so the next run of the same command follows this task.
fn submitted(state: &mut ReplicasState, task_id: Option<String>, flow: &CcFlow, saver: &Saver) {
    state.handle_sent(task_id);
    saver.save(state, Some(&reopen(flow.clone())));
}

/// A round that ended the run (not ready, declined, interrupted, timed out, a failed request
/// while following): the state stays for a re-run, which follows the execution again when one
/// may still run.
fn keep_for_a_rerun(state: &ReplicasState, flow: &CcFlow, saver: &Saver) {
    let keep = flow.execution_started()
        && flow.outcome().is_some_and(|o| {
            matches!(
                o,
                Outcome::Interrupted { .. }
                    | Outcome::TimedOut { .. }
                    | Outcome::Error {
                        stage: Stage::Follow,
                        ..
                    }
            )
        });
    if keep {
        // Follow it again next time (the flow, re-opened as following).
        saver.save(state, Some(&reopen(flow.clone())));
    } else {
        saver.save(state, None);
    }
}

/// Between rounds: a busy Cruise Control leaves the changes pending and is retried after the
/// poll interval, a forgotten task is sent again. `Err`: waiting in line would pass the
/// deadline; the run gives up.
async fn before_the_next_round(
    end: &RoundEnd,
    spec: &SetRfSpec,
    started: Instant,
    deadline: Instant,
    reporter: &dyn Reporter,
) -> Result<(), Classified> {
    if let RoundEnd::Busy(why) = end {
        if Instant::now() + spec.poll_interval >= deadline {
            return Err(Classified::new(
                FailureKind::Busy,
                format!(
                    "gave up after {} waiting in line: {why}; the change stays pending (re-run to retry)",
                    humantime::format_duration(Duration::from_secs(started.elapsed().as_secs()))
                ),
            ));
        }
        reporter.note(&format!(
            "The change waits in line (pending): {why}; retrying in {}",
            humantime::format_duration(spec.poll_interval)
        ));
        tokio::time::sleep(spec.poll_interval).await;
    } else if *end == RoundEnd::Lost {
        reporter.note(
            "Cruise Control forgot the task (restarted?): sending what is not done yet again",
        );
    }
    Ok(())
}

/// A flow that stopped while its execution may still run, made resumable: the next run
/// follows the same task ([`CcFlow::follow_again`]).
fn reopen(mut flow: CcFlow) -> CcFlow {
    flow.follow_again();
    flow
}

/// Reads the factors back after a round; after a completion Kafka's metadata may trail
/// Cruise Control by a moment, so unfinished topics are re-read for a few seconds.
async fn observe_settled(
    kafka: &KafkaClient,
    names: &BTreeSet<String>,
    state: &ReplicasState,
    end: &RoundEnd,
) -> anyhow::Result<(Option<String>, ClusterFacts)> {
    let settle_until = Instant::now() + Duration::from_secs(10);
    loop {
        let (id, facts) = observe(kafka, names).await?;
        let settled = state.changes.iter().all(|(t, c)| {
            c.state.is_final() || facts.topics.get(t).is_some_and(|f| f.is_at(c.target))
        });
        if settled
            || !matches!(end, RoundEnd::Completed | RoundEnd::NothingToDo)
            || Instant::now() >= settle_until
        {
            return Ok((id, facts));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reopened_flow_follows_again() {
        let f: CcFlow = serde_json::from_value(serde_json::json!({
            "config": {"execute": true, "assume_yes": true, "no_wait": false, "timeout_ms": 1000,
                       "wait_for_ready_ms": 0, "poll_interval_ms": 10},
            "phase": {"phase": "done", "outcome": "timed-out", "task_id": "t"},
            "started_at": 0, "confirmed": true, "execution_requested": true,
            "execution_started": true, "task_id": "t", "last_progress": null
        }))
        .unwrap();
        let r = reopen(f);
        assert!(r.outcome().is_none());
        assert_eq!(r.task_id(), Some("t"));
    }
}
