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
//! [`FlowDriver::step`] executes one command and hands back the next wake-up, so a controller
//! (`operate`) can step once per reconcile and keep the serializable [`CcFlow`] in between;
//! [`run`] is the CLI's loop over it, sleeping and listening for Ctrl-C.
//!
//! The failure wording (not ready, busy, interrupted, timed out) lives here too, so every
//! command that runs the flow says the same thing with the same exit code.

use std::future::Future;
use std::pin::Pin;
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
use crate::engine::drift::{self, DriftReport, Plan, Tolerance};
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

    /// The query parameters of the execution request (`dryrun=false`) as sent, without the
    /// `json=true` the client adds: what Cruise Control's `user_tasks` lists it with. `None`
    /// when the operation cannot say.
    fn execution_query(&self) -> Option<Vec<(String, String)>> {
        None
    }
}

fn owned(q: super::params::Query) -> Vec<(String, String)> {
    q.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
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

    fn execution_query(&self) -> Option<Vec<(String, String)>> {
        let mut req = self.clone();
        req.execution.dryrun = false;
        Some(owned(req.query()))
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

    fn execution_query(&self) -> Option<Vec<(String, String)>> {
        let mut req = self.clone();
        req.execution.dryrun = false;
        Some(owned(req.query()))
    }
}

/// The command's side of the flow: checks, prompts and the progress sink.
pub trait FlowHooks {
    /// The command's error type (the CLI's `CliError`).
    type Error: From<CcError> + From<CodedError> + std::fmt::Display;

    /// The operation's own input checks against the cluster (e.g. broker ids), after Cruise
    /// Control was found ready and before any proposal: `Err` when Cruise Control could not be
    /// asked, `Ok(Err(..))` when the input is refused.
    fn check_input(
        &self,
        cc: &CruiseControlClient,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<Result<(), Self::Error>, CcError>>;
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
    /// The plan approved before this run (`--approved-plan`), which a `--yes` execution must
    /// match instead of the dry run of this run. Default: none, the dry run is the approved one.
    fn approved_plan(&self) -> Option<Plan> {
        None
    }
    /// How far the re-checked proposal may differ from the approved one.
    fn tolerance(&self) -> Tolerance {
        Tolerance::default()
    }
    /// The re-check found the proposal changed past the tolerance: nothing was executed. Shown
    /// before the operator is asked again (or before `--yes` refuses).
    fn drifted(&self, _report: &DriftReport, _new: &Answer<OptimizationResult>) {}
    /// The execution's own proposal (Cruise Control recomputes it once more for the execution)
    /// differs past the tolerance from the approved one: the execution is already running, so
    /// this can only be told (the re-check before it is what prevents it).
    fn execution_drifted(&self, _report: &DriftReport, _task_id: Option<&str>) {}
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
    /// The last re-check dry run before the execution (when the flow re-checks).
    pub recheck: Option<Answer<OptimizationResult>>,
    /// The last comparison of a re-check with the approved plan.
    pub drift: Option<DriftReport>,
    /// The execution's own answer compared with the approved plan (when re-checked).
    pub execution_drift: Option<DriftReport>,
    /// Why the flow failed, worded for people, for every outcome whose exit code is not 0.
    pub error: Option<E>,
}

/// The reason sent with the stop request after an interrupt.
pub const INTERRUPT_STOP_REASON: &str = "kafkaops: interrupted by the user";

/// How long the stop request after an interrupt may take.
const STOP_TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the flow for `op` to its end: [`FlowDriver::step`] in a loop, sleeping between steps.
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
    run_driver(
        FlowDriver::new(cc, op, config, hooks, obs),
        interrupt,
        |_| {},
    )
    .await
}

/// [`run`] for a driver made by [`FlowDriver::new`] or [`FlowDriver::resume`], calling
/// `after_step` with the state machine after every step, so a command can persist it (the
/// `topic set-rf` state file) and resume after a crash or a restart.
pub async fn run_driver<O, H>(
    mut driver: FlowDriver<'_, O, H>,
    interrupt: impl Future<Output = ()>,
    mut after_step: impl FnMut(&CcFlow),
) -> FlowReport<H::Error>
where
    O: CcOperation,
    H: FlowHooks,
{
    tokio::pin!(interrupt);
    loop {
        let step = driver.step(interrupt.as_mut()).await;
        after_step(driver.flow());
        match step {
            Step::Continue => {}
            Step::WakeUpAt(until) => {
                let pause = Duration::from_millis(until.since(driver.now()));
                if driver.interruptible() {
                    tokio::select! {
                        () = tokio::time::sleep(pause) => driver.wake_up(),
                        () = &mut interrupt => driver.interrupt(),
                    }
                } else {
                    tokio::time::sleep(pause).await;
                    driver.wake_up();
                }
            }
            Step::Done => return driver.into_report(),
        }
    }
}

/// What [`FlowDriver::step`] leaves to its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Step again at once.
    Continue,
    /// Nothing to do before `until` ([`FlowDriver::now`]'s clock): then call
    /// [`FlowDriver::wake_up`] (or [`FlowDriver::interrupt`] if interrupted meanwhile).
    WakeUpAt(Millis),
    /// The flow is over: [`FlowDriver::into_report`].
    Done,
}

/// The flow's state machine plus what acting on it needs: a step function over
/// [`CcFlow`], for the CLI's loop ([`run`]) and for a controller that steps once per reconcile
/// and keeps [`FlowDriver::flow`] between steps.
pub struct FlowDriver<'a, O, H: FlowHooks> {
    cc: &'a CruiseControlClient,
    op: &'a O,
    hooks: &'a H,
    obs: &'a dyn Observer,
    origin: Instant,
    deadline: Instant,
    wait_until: Instant,
    wait_for_ready: bool,
    flow: CcFlow,
    next: Command,
    monitor: Option<MonitorState>,
    proposal: Option<Answer<OptimizationResult>>,
    execution: Option<Answer<OptimizationResult>>,
    recheck: Option<Answer<OptimizationResult>>,
    /// The plan the execution must match (set when the operator or `--yes` approves).
    approved: Option<Plan>,
    drift: Option<DriftReport>,
    execution_drift: Option<DriftReport>,
    error: Option<H::Error>,
    follow_started: Option<Instant>,
    stop_error: Option<CcError>,
    /// The interrupt signal fired (it is never polled again).
    interrupted: bool,
    outcome: Option<Outcome>,
}

impl<'a, O, H> FlowDriver<'a, O, H>
where
    O: CcOperation,
    H: FlowHooks,
{
    /// Starts a flow now.
    pub fn new(
        cc: &'a CruiseControlClient,
        op: &'a O,
        config: FlowConfig,
        hooks: &'a H,
        obs: &'a dyn Observer,
    ) -> Self {
        let origin = Instant::now();
        let deadline = origin + Duration::from_millis(config.timeout_ms);
        let wait_until =
            origin + Duration::from_millis(config.wait_for_ready_ms.min(config.timeout_ms));
        let wait_for_ready = config.wait_for_ready_ms > 0;
        let mut flow = CcFlow::new(config);
        let next = flow.start(Millis(0));
        Self {
            cc,
            op,
            hooks,
            obs,
            origin,
            deadline,
            wait_until,
            wait_for_ready,
            flow,
            next,
            monitor: None,
            proposal: None,
            execution: None,
            recheck: None,
            approved: None,
            drift: None,
            execution_drift: None,
            error: None,
            follow_started: None,
            stop_error: None,
            interrupted: false,
            outcome: None,
        }
    }

    /// Continues a flow restored from saved state (see [`CcFlow::resume`]): a flow that was
    /// following an execution follows it again (never re-sending the execution request); its
    /// deadlines count from now.
    pub fn resume(
        cc: &'a CruiseControlClient,
        op: &'a O,
        mut flow: CcFlow,
        hooks: &'a H,
        obs: &'a dyn Observer,
    ) -> Self {
        let config = flow.config().clone();
        let origin = Instant::now();
        let deadline = origin + Duration::from_millis(config.timeout_ms);
        let wait_until =
            origin + Duration::from_millis(config.wait_for_ready_ms.min(config.timeout_ms));
        let next = flow.resume(Millis(0));
        let following = flow.execution_started() && flow.outcome().is_none();
        let deadline = match follow_deadline(&config) {
            Some(d) if following => d,
            _ => deadline,
        };
        if following {
            hooks.following(flow.task_id());
        }
        Self {
            cc,
            op,
            hooks,
            obs,
            origin,
            deadline,
            wait_until,
            wait_for_ready: config.wait_for_ready_ms > 0,
            flow,
            next,
            monitor: None,
            proposal: None,
            execution: None,
            recheck: None,
            approved: None,
            drift: None,
            execution_drift: None,
            error: None,
            follow_started: following.then(Instant::now),
            stop_error: None,
            interrupted: false,
            outcome: None,
        }
    }

    /// Milliseconds since the flow started: the clock of [`Step::WakeUpAt`].
    #[must_use]
    pub fn now(&self) -> Millis {
        Millis(u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(u64::MAX))
    }

    /// The state machine (serializable).
    #[must_use]
    pub fn flow(&self) -> &CcFlow {
        &self.flow
    }

    /// Whether an interrupt now could leave an execution running (so the caller should listen).
    #[must_use]
    pub fn interruptible(&self) -> bool {
        self.flow.execution_requested() && !self.interrupted && self.outcome.is_none()
    }

    /// A [`Step::WakeUpAt`] is due.
    pub fn wake_up(&mut self) {
        self.next = self.flow.handle_wait_over(self.now());
    }

    /// The operator interrupted.
    pub fn interrupt(&mut self) {
        self.interrupted = true;
        self.next = self.flow.handle_interrupt();
    }

    /// Executes the pending command and feeds its result back. `interrupt` is raced against
    /// the execution request only (its answer may never come).
    pub async fn step<F: Future<Output = ()>>(&mut self, interrupt: Pin<&mut F>) -> Step {
        let (cc, hooks, obs, deadline) = (self.cc, self.hooks, self.obs, self.deadline);
        let next = match std::mem::replace(&mut self.next, Command::Nothing) {
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
                        let next = self.flow.handle_readiness(&m, &executor, self.now());
                        self.monitor = Some(m);
                        next
                    }
                    Err(e) => self.fail(e, false),
                }
            }
            Command::CheckInput => match hooks.check_input(cc, deadline, obs).await {
                Ok(Ok(())) => self.flow.handle_input_checked(Ok(())),
                Ok(Err(e)) => {
                    let reason = e.to_string();
                    self.error = Some(e);
                    self.flow.handle_input_checked(Err(reason))
                }
                Err(e) => self.fail(e, false),
            },
            Command::RequestProposal => {
                let mut policy = cc.policy(deadline);
                if self.wait_for_ready {
                    policy.wait_for_not_ready = true;
                    policy.not_ready_deadline = Some(self.wait_until.max(Instant::now()));
                }
                match self.op.request(cc, true, &policy, obs).await {
                    Ok(answer) => {
                        let noop = answer.value.is_noop();
                        hooks.proposal(&answer);
                        self.proposal = Some(answer);
                        self.flow.handle_proposal(noop)
                    }
                    Err(e) => self.fail(e, true),
                }
            }
            Command::AskConfirmation => match self
                .recheck
                .as_ref()
                .or(self.proposal.as_ref())
                .map(|p| (p, hooks.confirm(p)))
            {
                Some((shown, Ok(()))) => {
                    // What the operator saw and confirmed is what must run.
                    self.approved = Some(Plan::of(&shown.value));
                    self.flow.handle_confirmation(true)
                }
                Some((_, Err(e))) => {
                    self.error = Some(e);
                    self.flow.handle_confirmation(false)
                }
                None => self.flow.handle_confirmation(false),
            },
            Command::RecheckProposal => {
                let approved = match self.approved.clone() {
                    Some(p) => p,
                    // --yes: the plan approved beforehand, else this run's dry run.
                    None => match hooks.approved_plan() {
                        Some(p) => p,
                        None => self
                            .proposal
                            .as_ref()
                            .map(|p| Plan::of(&p.value))
                            .unwrap_or_default(),
                    },
                };
                match self.op.request(cc, true, &cc.policy(deadline), obs).await {
                    Ok(answer) => {
                        let report =
                            drift::compare(&approved, &Plan::of(&answer.value), &hooks.tolerance());
                        if !report.within_tolerance {
                            hooks.drifted(&report, &answer);
                        }
                        let (within, reasons) = (report.within_tolerance, report.reasons.clone());
                        self.approved = Some(approved);
                        self.drift = Some(report);
                        self.recheck = Some(answer);
                        self.flow.handle_recheck(within, reasons)
                    }
                    Err(e) => self.fail(e, true),
                }
            }
            Command::StartExecution => {
                // Never re-sent after a timeout: the execution may have started.
                let mut policy = cc.policy(deadline);
                policy.idempotent = false;
                let send = self.op.request(cc, false, &policy, obs);
                // Ctrl-C from here on never kills the process silently: while the request is in
                // flight the execution may or may not have started, and the operator is told so
                // (or may stop it).
                let answer = if self.interrupted {
                    Some(send.await)
                } else {
                    tokio::select! {
                        r = send => Some(r),
                        () = interrupt => None,
                    }
                };
                match answer {
                    None => {
                        self.interrupted = true;
                        self.flow.handle_interrupt()
                    }
                    Some(Ok(answer)) => {
                        let task_id = answer.task_id.clone();
                        // What was approved: the confirmed or re-checked plan, else the plan
                        // approved beforehand, else this run's dry run.
                        let approved = self.approved.clone().or_else(|| {
                            hooks
                                .approved_plan()
                                .or_else(|| self.proposal.as_ref().map(|p| Plan::of(&p.value)))
                        });
                        if let Some(approved) = approved.as_ref() {
                            let d = drift::compare(
                                approved,
                                &Plan::of(&answer.value),
                                &hooks.tolerance(),
                            );
                            if !d.within_tolerance {
                                hooks.execution_drifted(&d, task_id.as_deref());
                            }
                            self.execution_drift = Some(d);
                        }
                        self.execution = Some(answer);
                        if let Some(d) = follow_deadline(self.flow.config()) {
                            self.deadline = d;
                        }
                        let next = self.flow.handle_execution_started(task_id, self.now());
                        if !matches!(next, Command::Finish(Outcome::Started { .. })) {
                            self.follow_started = Some(Instant::now());
                            hooks.following(self.flow.task_id());
                        }
                        next
                    }
                    Some(Err(e)) => self.fail(e, true),
                }
            }
            Command::Wait { until, reason } => {
                if let WaitReason::LoadModel { reason } = &reason {
                    hooks.waiting_for_ready(reason);
                }
                self.next = Command::Wait { until, reason };
                return Step::WakeUpAt(until);
            }
            Command::ObserveProgress => {
                match observe_progress(cc, &self.flow, hooks, deadline, obs).await {
                    Ok((executor, task)) => self.flow.handle_progress(&executor, &task, self.now()),
                    Err(e) => self.fail(e, false),
                }
            }
            Command::AskStopOrLeave { task_id } => {
                hooks.follow_ended();
                let choice = hooks.choose_after_interrupt(task_id.as_deref()).await;
                self.flow.handle_interrupt_choice(choice)
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
                    Ok(_) => self.flow.handle_stop_answered(true),
                    Err(e) => {
                        self.stop_error = Some(e);
                        self.flow.handle_stop_answered(false)
                    }
                }
            }
            Command::Finish(outcome) => {
                hooks.follow_ended();
                self.outcome = Some(outcome);
                self.next = Command::Nothing;
                return Step::Done;
            }
            Command::Nothing => {
                if self.outcome.is_some() {
                    return Step::Done;
                }
                // The driver only feeds answers to the command it was given, so the machine
                // never ignores one; if it did, stop rather than spin.
                hooks.follow_ended();
                self.outcome = Some(Outcome::Error {
                    stage: Stage::Follow,
                    task_id: self.flow.task_id().map(str::to_string),
                    failure: Failure {
                        class: FailureClass::Permanent,
                        exit: ExitCode::Failed,
                        message: "internal error: the Cruise Control flow stalled".into(),
                    },
                });
                return Step::Done;
            }
        };
        self.next = next;
        Step::Continue
    }

    /// Records a request error (worded for people; `explain`: say how long Cruise Control has
    /// been sampling if it is a not-enough-windows one) and feeds its class back.
    fn fail(&mut self, e: CcError, explain: bool) -> Command {
        let f = failure(&e);
        self.error = Some(if explain {
            explain_not_ready(e, self.monitor.as_ref())
        } else {
            explain_goals(e)
        });
        self.flow.handle_error(f)
    }

    /// What the flow did (call after [`Step::Done`]).
    pub fn into_report(self) -> FlowReport<H::Error> {
        let outcome = self
            .outcome
            .or_else(|| self.flow.outcome().cloned())
            .unwrap_or(Outcome::Error {
                stage: Stage::Follow,
                task_id: self.flow.task_id().map(str::to_string),
                failure: Failure {
                    class: FailureClass::Permanent,
                    exit: ExitCode::Failed,
                    message: "internal error: the Cruise Control flow did not finish".into(),
                },
            });
        let error = if outcome.exit_code() == ExitCode::Ok {
            None
        } else {
            self.error.or_else(|| {
                Some(outcome_error(
                    &outcome,
                    self.monitor.as_ref(),
                    self.follow_started.map(|s| s.elapsed()),
                    self.stop_error.as_ref(),
                ))
            })
        };
        FlowReport {
            flow: self.flow,
            outcome,
            monitor: self.monitor,
            proposal: self.proposal,
            execution: self.execution,
            recheck: self.recheck,
            drift: self.drift,
            execution_drift: self.execution_drift,
            error,
        }
    }
}

/// The requests' deadline while following, when following has its own (capped for `Instant`).
fn follow_deadline(config: &FlowConfig) -> Option<Instant> {
    const FAR: u64 = 10 * 365 * 24 * 3600 * 1000;
    config
        .follow_timeout_ms
        .map(|ms| Instant::now() + Duration::from_millis(ms.min(FAR)))
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
    // Every request holds one of Cruise Control's few user-task slots for about 5 s (reference
    // section 13): while the executor says it runs our task, that answer is enough and the task
    // list is not asked for.
    let task = match flow.task_id() {
        None => TaskView::NoId,
        Some(id) if !executor.is_idle() && executor.running_task() == Some(id) => {
            TaskView::Status(super::model::TaskStatus::InExecution)
        }
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
        exit: crate::error_codes::cruise_control(e),
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
            "; its oldest metric window started {} ago",
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
    if e.to_string()
        .to_ascii_lowercase()
        .contains("load monitor is in loading state")
    {
        tracing::debug!("{e}");
        return not_ready(
            monitor,
            "its load monitor is still LOADING its stored metric samples",
        );
    }
    explain_goals(e)
}

/// Says which goal Cruise Control could not satisfy and its hint, for an
/// `OptimizationFailureException` (exit 12): it proposed nothing, so nothing was changed.
fn explain_goals<E: From<CcError> + From<CodedError>>(e: CcError) -> E {
    if !matches!(
        e.class(),
        ErrorClass::Permanent(super::error::Permanent::OptimizationFailure)
    ) {
        return e.into();
    }
    tracing::debug!("{e}");
    CodedError::new(
        crate::error_codes::cruise_control(&e),
        goals_unsatisfiable_message(&e.to_string()),
    )
    .into()
}

/// "Cruise Control could not satisfy the goals: <goal> ..." from the exception text, e.g.
/// `OptimizationFailureException: [RackAwareGoal] Cannot move Replica[...] ... Add at least 1
/// broker to a rack other than [a].` (pure).
#[must_use]
pub fn goals_unsatisfiable_message(text: &str) -> String {
    let after = text
        .split_once("OptimizationFailureException:")
        .map_or(text, |(_, rest)| rest)
        .trim();
    let goal = after
        .strip_prefix('[')
        .and_then(|r| r.split_once(']'))
        .map(|(g, _)| g.to_string());
    let detail = after
        .split_once(']')
        .filter(|_| goal.is_some())
        .map_or(after, |(_, rest)| rest)
        .trim()
        .trim_end_matches(['\'', '.'])
        .trim_end_matches('\'')
        .to_string();
    let hint = detail
        .find("Add at least")
        .map(|i| detail[i..].trim_end_matches('.').to_string());
    let mut msg = format!(
        "Cruise Control could not satisfy the goals: {} cannot be met",
        goal.as_deref().unwrap_or("a goal")
    );
    match hint {
        Some(h) => {
            let cause = detail[..detail.find("Add at least").unwrap_or(0)].trim();
            if !cause.is_empty() {
                msg.push_str(&format!(" ({})", cause.trim_end_matches('.')));
            }
            msg.push_str(&format!(". Cruise Control's hint: {h}"));
        }
        None if !detail.is_empty() => msg.push_str(&format!(" ({detail})")),
        None => {}
    }
    msg.push_str(". It proposed nothing and nothing was changed");
    msg
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
        Outcome::Drifted { reasons } => coded(
            ExitCode::Failed,
            format!(
                "the proposal changed since it was approved ({}); nothing was executed. Look at the new proposal (dry run) and run again, or allow more with --max-drift / --max-data-mb",
                reasons.join("; ")
            ),
        ),
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
    #[test]
    fn an_unsatisfiable_goal_is_named_with_its_hint() {
        // The text recorded from a real Cruise Control (reference section 13), as the client sees it.
        let text = "Cruise Control at http://cc answered 500: Error processing POST request '/remove_broker' due to: 'com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: com.linkedin.kafka.cruisecontrol.exception.OptimizationFailureException: [RackAwareGoal] Cannot move Replica[isLeader=false,rack=b,broker=2,TopicPartition=orders-0,origPos=1,newPos=1] to a broker in a rack other than [a, c]. Add at least 1 broker to a rack other than [a, c].'.";
        let msg = super::goals_unsatisfiable_message(text);
        assert!(
            msg.starts_with(
                "Cruise Control could not satisfy the goals: RackAwareGoal cannot be met"
            ),
            "{msg}"
        );
        assert!(
            msg.contains(
                "Cruise Control's hint: Add at least 1 broker to a rack other than [a, c]"
            ),
            "{msg}"
        );
        assert!(msg.ends_with("nothing was changed"), "{msg}");
        let bare =
            super::goals_unsatisfiable_message("OptimizationFailureException: something odd");
        assert!(
            bare.contains("a goal cannot be met (something odd)"),
            "{bare}"
        );
    }

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
        assert!(
            msg.contains("oldest metric window started 3m 12s ago"),
            "{msg}"
        );
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
