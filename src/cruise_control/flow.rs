//! The one driver of the Cruise Control execution flow.
//!
//! [`crate::engine::cc_flow::CcFlow`] decides (pure); this module acts: it executes each command
//! against Cruise Control, sleeps, listens for the interrupt signal while an execution may run,
//! and feeds every answer back. Commands plug in what differs between them: the request
//! ([`CcOperation`]: `rebalance`, `add_broker`, `remove_broker` through [`RebalanceRequest`],
//! `topic_configuration` through [`TopicConfigurationRequest`]) and the people-facing side
//! ([`FlowHooks`]: the input check, the proposal display, the confirmation prompt, the progress
//! sink and the stop-or-leave question). No command keeps its own follow or Ctrl-C loop.
//!
//! The failure wording (not ready, busy, interrupted, timed out) lives here too, so every
//! command that runs the flow says the same thing with the same exit code.

use std::future::Future;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::client::{Answer, CruiseControlClient, Observer};
use super::error::{CcError, ErrorClass, Transient};
use super::model::{ExecutorState, MonitorState, OptimizationResult};
use super::params::{RebalanceRequest, Substate, TopicConfigurationRequest};
use super::retry::RetryPolicy;
use crate::engine::cc_flow::{
    AfterInterrupt, CcFlow, Command, Failure, FailureClass, FlowConfig, InterruptChoice, Outcome,
    Stage, TaskView, WaitReason,
};
use crate::engine::model::Millis;
use crate::error::{CodedError, ExitCode};

/// What the flow executes: a request that Cruise Control answers with a proposal, sent once as
/// a dry run and (when confirmed) once as the execution.
pub trait CcOperation {
    /// Sends the request, as a dry run or as the execution.
    fn request(
        &self,
        cc: &CruiseControlClient,
        dryrun: bool,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<Answer<OptimizationResult>, CcError>>;
}

impl CcOperation for RebalanceRequest {
    fn request(
        &self,
        cc: &CruiseControlClient,
        dryrun: bool,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<Answer<OptimizationResult>, CcError>> {
        let mut req = self.clone();
        req.execution.dryrun = dryrun;
        let policy = *policy;
        async move { cc.rebalance(&req, &policy, obs).await }
    }
}

impl CcOperation for TopicConfigurationRequest {
    fn request(
        &self,
        cc: &CruiseControlClient,
        dryrun: bool,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<Answer<OptimizationResult>, CcError>> {
        let mut req = self.clone();
        req.execution.dryrun = dryrun;
        let policy = *policy;
        async move { cc.topic_configuration(&req, &policy, obs).await }
    }
}

/// The command's side of the flow: checks, prompts and the progress sink.
pub trait FlowHooks {
    /// The command's error type (the CLI's `CliError`).
    type Error: From<CcError> + From<CodedError> + std::fmt::Display;

    /// The operation's own input checks against the cluster (e.g. broker ids), after Cruise
    /// Control was found ready and before any proposal.
    fn check_input(
        &self,
        cc: &CruiseControlClient,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<(), Self::Error>>;
    /// The load model is not ready; the flow waits for it.
    fn waiting_for_ready(&self, reason: &str);
    /// The dry-run proposal arrived (shown before any confirmation).
    fn proposal(&self, dry_run: &Answer<OptimizationResult>);
    /// Asks the operator to execute `dry_run`; `Err` when declined or nobody can answer.
    fn confirm(&self, dry_run: &Answer<OptimizationResult>) -> Result<(), Self::Error>;
    /// The execution started and is followed from now on.
    fn following(&self, task_id: Option<&str>);
    /// An observation of the busy executor while following.
    fn progress(&self, executor: &ExecutorState);
    /// Following is over (finished or interrupted): clear progress displays. May be called
    /// more than once.
    fn follow_ended(&self);
    /// Interrupted while an execution may run: stop it or leave it running?
    fn choose_after_interrupt(
        &self,
        task_id: Option<&str>,
    ) -> impl Future<Output = InterruptChoice>;
}

/// What the flow did.
#[derive(Debug)]
pub struct FlowReport<E> {
    /// The final (serializable) state of the flow.
    pub flow: CcFlow,
    pub outcome: Outcome,
    /// The monitor state of the readiness check.
    pub monitor: Option<MonitorState>,
    /// The dry-run answer.
    pub proposal: Option<Answer<OptimizationResult>>,
    /// The answer to the execution request (Cruise Control's recomputed proposal).
    pub execution: Option<Answer<OptimizationResult>>,
    /// Why the flow failed, worded for people, for every outcome whose exit code is not 0.
    pub error: Option<E>,
}

/// The reason sent with the stop request after an interrupt.
pub const INTERRUPT_STOP_REASON: &str = "kafkaops: interrupted by the user";

/// How long the stop request after an interrupt may take.
const STOP_TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the flow for `op` to its end.
///
/// `interrupt` resolves on Ctrl-C; it is only polled once the execution request is being sent
/// (before that nothing has changed and the process's default Ctrl-C handling stays).
pub async fn run<O, H>(
    cc: &CruiseControlClient,
    op: &O,
    config: FlowConfig,
    hooks: &H,
    obs: &dyn Observer,
    interrupt: impl Future<Output = ()>,
) -> FlowReport<H::Error>
where
    O: CcOperation,
    H: FlowHooks,
{
    let origin = Instant::now();
    let now = || Millis(u64::try_from(origin.elapsed().as_millis()).unwrap_or(u64::MAX));
    let deadline = origin + Duration::from_millis(config.timeout_ms);
    let wait_until =
        origin + Duration::from_millis(config.wait_for_ready_ms.min(config.timeout_ms));
    let wait_for_ready = config.wait_for_ready_ms > 0;
    let mut flow = CcFlow::new(config);
    let mut monitor: Option<MonitorState> = None;
    let mut proposal: Option<Answer<OptimizationResult>> = None;
    let mut execution: Option<Answer<OptimizationResult>> = None;
    let mut error: Option<H::Error> = None;
    let mut follow_started: Option<Instant> = None;
    let mut stop_error: Option<CcError> = None;
    let mut interrupted = false;
    tokio::pin!(interrupt);

    let mut cmd = flow.start(now());
    let outcome = loop {
        cmd = match cmd {
            Command::ObserveReadiness => {
                match cc
                    .state(
                        &[Substate::Monitor, Substate::Executor, Substate::Analyzer],
                        true,
                        deadline,
                        obs,
                    )
                    .await
                {
                    Ok(state) => {
                        let m = state.monitor.unwrap_or_default();
                        let executor = state.executor.unwrap_or_default();
                        let next = flow.handle_readiness(&m, &executor, now());
                        monitor = Some(m);
                        next
                    }
                    Err(e) => {
                        let f = failure(&e);
                        error = Some(e.into());
                        flow.handle_error(f)
                    }
                }
            }
            Command::CheckInput => match hooks.check_input(cc, deadline, obs).await {
                Ok(()) => flow.handle_input_checked(Ok(())),
                Err(e) => {
                    let reason = e.to_string();
                    error = Some(e);
                    flow.handle_input_checked(Err(reason))
                }
            },
            Command::RequestProposal => {
                let mut policy = cc.policy(deadline);
                if wait_for_ready {
                    policy.wait_for_not_ready = true;
                    policy.not_ready_deadline = Some(wait_until.max(Instant::now()));
                }
                match op.request(cc, true, &policy, obs).await {
                    Ok(answer) => {
                        let noop = answer.value.is_noop();
                        hooks.proposal(&answer);
                        proposal = Some(answer);
                        flow.handle_proposal(noop)
                    }
                    Err(e) => {
                        let f = failure(&e);
                        error = Some(explain_not_ready(e, monitor.as_ref()));
                        flow.handle_error(f)
                    }
                }
            }
            Command::AskConfirmation => match proposal.as_ref().map(|p| hooks.confirm(p)) {
                Some(Ok(())) => flow.handle_confirmation(true),
                Some(Err(e)) => {
                    error = Some(e);
                    flow.handle_confirmation(false)
                }
                None => flow.handle_confirmation(false),
            },
            Command::StartExecution => {
                // Never re-sent after a timeout: the execution may have started.
                let mut policy = cc.policy(deadline);
                policy.idempotent = false;
                let send = op.request(cc, false, &policy, obs);
                // Ctrl-C from here on never kills the process silently: while the request is in
                // flight the execution may or may not have started, and the operator is told so
                // (or may stop it).
                let answer = if interrupted {
                    Some(send.await)
                } else {
                    tokio::select! {
                        r = send => Some(r),
                        () = &mut interrupt => None,
                    }
                };
                match answer {
                    None => {
                        interrupted = true;
                        flow.handle_interrupt()
                    }
                    Some(Ok(answer)) => {
                        let task_id = answer.task_id.clone();
                        execution = Some(answer);
                        let next = flow.handle_execution_started(task_id, now());
                        if !matches!(next, Command::Finish(Outcome::Started { .. })) {
                            follow_started = Some(Instant::now());
                            hooks.following(flow.task_id());
                        }
                        next
                    }
                    Some(Err(e)) => {
                        let f = failure(&e);
                        error = Some(explain_not_ready(e, monitor.as_ref()));
                        flow.handle_error(f)
                    }
                }
            }
            Command::Wait { until, reason } => {
                if let WaitReason::LoadModel { reason } = &reason {
                    hooks.waiting_for_ready(reason);
                }
                let pause = Duration::from_millis(until.since(now()));
                if flow.execution_requested() && !interrupted {
                    tokio::select! {
                        () = tokio::time::sleep(pause) => flow.handle_wait_over(now()),
                        () = &mut interrupt => {
                            interrupted = true;
                            flow.handle_interrupt()
                        }
                    }
                } else {
                    tokio::time::sleep(pause).await;
                    flow.handle_wait_over(now())
                }
            }
            Command::ObserveProgress => {
                match observe_progress(cc, &flow, hooks, deadline, obs).await {
                    Ok((executor, task)) => flow.handle_progress(&executor, &task, now()),
                    Err(e) => {
                        let f = failure(&e);
                        error = Some(e.into());
                        flow.handle_error(f)
                    }
                }
            }
            Command::AskStopOrLeave { task_id } => {
                hooks.follow_ended();
                let choice = hooks.choose_after_interrupt(task_id.as_deref()).await;
                flow.handle_interrupt_choice(choice)
            }
            Command::StopExecution { .. } => {
                match cc
                    .stop_proposal_execution(
                        INTERRUPT_STOP_REASON,
                        Instant::now() + STOP_TIMEOUT,
                        obs,
                    )
                    .await
                {
                    Ok(_) => flow.handle_stop_answered(true),
                    Err(e) => {
                        stop_error = Some(e);
                        flow.handle_stop_answered(false)
                    }
                }
            }
            Command::Finish(outcome) => {
                hooks.follow_ended();
                break outcome;
            }
            Command::Nothing => {
                // The driver only feeds answers to the command it was given, so the machine
                // never ignores one; if it did, stop rather than spin.
                hooks.follow_ended();
                break Outcome::Error {
                    stage: Stage::Follow,
                    task_id: flow.task_id().map(str::to_string),
                    failure: Failure {
                        class: FailureClass::Permanent,
                        exit: ExitCode::Failed,
                        message: "internal error: the Cruise Control flow stalled".into(),
                    },
                };
            }
        };
    };

    let error = if outcome.exit_code() == ExitCode::Ok {
        None
    } else {
        error.or_else(|| {
            Some(outcome_error(
                &outcome,
                monitor.as_ref(),
                follow_started.map(|s| s.elapsed()),
                stop_error.as_ref(),
            ))
        })
    };
    FlowReport {
        flow,
        outcome,
        monitor,
        proposal,
        execution,
        error,
    }
}

/// One look at the running execution: the executor, then the user task.
async fn observe_progress<H: FlowHooks>(
    cc: &CruiseControlClient,
    flow: &CcFlow,
    hooks: &H,
    deadline: Instant,
    obs: &dyn Observer,
) -> Result<(ExecutorState, TaskView), CcError> {
    let executor = cc
        .state(&[Substate::Executor], false, deadline, obs)
        .await?
        .executor
        .unwrap_or_default();
    if !executor.is_idle() {
        hooks.progress(&executor);
    }
    let task = match flow.task_id() {
        None => TaskView::NoId,
        Some(id) => match cc.user_task(id, deadline, obs).await {
            Ok(t) => TaskView::Status(t.status),
            Err(CcError::TaskLost { .. }) => TaskView::Lost,
            Err(e) => return Err(e),
        },
    };
    Ok((executor, task))
}

/// A client error as the flow sees it.
fn failure(e: &CcError) -> Failure {
    Failure {
        class: match e.class() {
            ErrorClass::NoOp => FailureClass::NoOp,
            ErrorClass::Retryable(_) => FailureClass::Retryable,
            ErrorClass::Permanent(_) => FailureClass::Permanent,
        },
        exit: e.exit_code(),
        message: e.to_string(),
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The message for "Cruise Control is still sampling", with how long it has been.
#[must_use]
pub fn not_ready_message(monitor: &MonitorState, reason: &str, now_ms: i64) -> String {
    let mut msg = format!("Cruise Control is not ready yet: {reason}");
    if let Some(since) = monitor.sampling_since_ms() {
        let secs = u64::try_from((now_ms - since).max(0) / 1000).unwrap_or(0);
        msg.push_str(&format!(
            "; it has been sampling for {}",
            humantime::format_duration(Duration::from_secs(secs))
        ));
    } else if let Some(w) = monitor.num_monitored_windows {
        msg.push_str(&format!("; {w} metric window(s) collected so far"));
    }
    if let Some(pct) = monitor.monitoring_coverage_pct {
        msg.push_str(&format!(", {pct:.0}% of partitions covered"));
    }
    msg.push_str(
        ". Nothing was changed; retry later or pass --wait-for-ready (e.g. --wait-for-ready 10m)",
    );
    msg
}

fn not_ready<E: From<CodedError>>(monitor: Option<&MonitorState>, reason: &str) -> E {
    let blank = MonitorState::default();
    CodedError::new(
        ExitCode::NotReady,
        not_ready_message(monitor.unwrap_or(&blank), reason, now_ms()),
    )
    .into()
}

/// Adds how long Cruise Control has been sampling to a not-enough-windows error.
fn explain_not_ready<E: From<CcError> + From<CodedError>>(
    e: CcError,
    monitor: Option<&MonitorState>,
) -> E {
    if matches!(
        e.class(),
        ErrorClass::Retryable(Transient::NotEnoughValidWindows)
    ) {
        tracing::debug!("{e}");
        return not_ready(
            monitor,
            "its load model does not have enough valid metric windows yet (NotEnoughValidWindowsException)",
        );
    }
    e.into()
}

fn task_suffix(task_id: Option<&str>) -> String {
    task_id.map(|t| format!(" (task {t})")).unwrap_or_default()
}

/// The error that tells people about a failing outcome that no request error explains.
fn outcome_error<E: From<CcError> + From<CodedError>>(
    outcome: &Outcome,
    monitor: Option<&MonitorState>,
    following_for: Option<Duration>,
    stop_error: Option<&CcError>,
) -> E {
    let coded = |code, msg: String| E::from(CodedError::new(code, msg));
    match outcome {
        Outcome::NotReady { reason } => not_ready(monitor, reason),
        Outcome::Busy { running } => coded(
            ExitCode::Busy,
            format!(
                "another execution is already running on Cruise Control: {running}; nothing was changed. Wait for it (`kafkaops rebalance status`) or stop it (`kafkaops rebalance stop`)"
            ),
        ),
        Outcome::Failed { task_id } => coded(
            ExitCode::Failed,
            format!(
                "the execution (task {}) ended with an error or was stopped; some replicas may have moved, see `kafkaops rebalance status` and Cruise Control's log",
                task_id.as_deref().unwrap_or("-")
            ),
        ),
        Outcome::TaskLost { task_id } => CcError::TaskLost {
            task_id: task_id.clone(),
        }
        .into(),
        Outcome::TimedOut { task_id } => CcError::DeadlineExceeded {
            waiting_for: format!(
                "the execution{} to finish (it keeps running on Cruise Control; see `kafkaops rebalance status`)",
                task_suffix(task_id.as_deref())
            ),
            after: following_for.unwrap_or_default(),
        }
        .into(),
        Outcome::Interrupted { task_id, after } => {
            let task = task_suffix(task_id.as_deref());
            let msg = match after {
                AfterInterrupt::NothingStarted => {
                    "interrupted before anything was executed; nothing was changed".to_string()
                }
                AfterInterrupt::StopRequested => format!(
                    "interrupted: asked Cruise Control to stop the execution{task}; replicas already moved stay where they are"
                ),
                AfterInterrupt::StopFailed => format!(
                    "interrupted, and stopping the execution{task} failed: {}; run `kafkaops rebalance stop`",
                    stop_error.map_or_else(|| "no answer".to_string(), ToString::to_string)
                ),
                AfterInterrupt::LeftRunning => {
                    let what = if task_id.is_some() {
                        format!("the execution{task} keeps running on Cruise Control")
                    } else {
                        "the execution was being started and may be running on Cruise Control"
                            .to_string()
                    };
                    format!(
                        "interrupted: {what}; follow it with `kafkaops rebalance status`, stop it with `kafkaops rebalance stop`"
                    )
                }
            };
            coded(ExitCode::Interrupted, msg)
        }
        Outcome::Error { failure, .. } => coded(failure.exit, failure.message.clone()),
        Outcome::Rejected { reason } => coded(ExitCode::Usage, reason.clone()),
        Outcome::Declined => coded(
            ExitCode::Failed,
            "the execution was not confirmed; nothing was changed".into(),
        ),
        Outcome::Proposed
        | Outcome::NothingToDo
        | Outcome::Started { .. }
        | Outcome::Completed { .. } => coded(ExitCode::Ok, String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cruise_control::lenient::from_str;

    #[test]
    fn not_ready_message_says_for_how_long() {
        let m: MonitorState = from_str(
            r#"{"state":"RUNNING","numMonitoredWindows":0,"monitoringCoveragePct":12.5,
                "monitoredWindows":{"1700000000000":0.1}}"#,
        )
        .unwrap();
        let msg = not_ready_message(&m, "no windows", 1_700_000_192_000);
        assert!(msg.contains("sampling for 3m 12s"), "{msg}");
        assert!(
            msg.contains("12% of partitions") || msg.contains("13% of partitions"),
            "{msg}"
        );
        assert!(msg.contains("--wait-for-ready"), "{msg}");
    }

    #[test]
    fn interrupted_outcomes_name_the_task_and_what_became_of_it() {
        let e: crate::error::CliError = outcome_error(
            &Outcome::Interrupted {
                task_id: Some("t1".into()),
                after: AfterInterrupt::LeftRunning,
            },
            None,
            None,
            None,
        );
        assert_eq!(e.code, ExitCode::Interrupted);
        assert!(e.to_string().contains("(task t1) keeps running"), "{e}");
        let e: crate::error::CliError = outcome_error(
            &Outcome::Interrupted {
                task_id: None,
                after: AfterInterrupt::LeftRunning,
            },
            None,
            None,
            None,
        );
        assert!(e.to_string().contains("may be running"), "{e}");
        let e: crate::error::CliError = outcome_error(
            &Outcome::TaskLost {
                task_id: "t1".into(),
            },
            None,
            None,
            None,
        );
        assert_eq!(e.code, ExitCode::Failed);
        let e: crate::error::CliError = outcome_error(
            &Outcome::TimedOut { task_id: None },
            None,
            Some(Duration::from_secs(3)),
            None,
        );
        assert_eq!(e.code, ExitCode::Timeout);
    }
}
