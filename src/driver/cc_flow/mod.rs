//! The one driver of the Cruise Control execution flow.
//!
//! [`crate::engine::cc_flow::CcFlow`] decides (pure); this module acts: it executes each command
//! against Cruise Control (through [`CruiseControlApi`], so a scripted double can stand in for
//! the REST client), sleeps, listens for the interrupt signal while an execution may run,
//! and feeds every answer back. Commands plug in what differs between them: the request
//! ([`CcOperation`]: `rebalance`, `add_broker`, `remove_broker` through [`RebalanceRequest`](crate::cruise_control::params::RebalanceRequest),
//! `topic_configuration` through [`TopicConfigurationRequest`](crate::cruise_control::params::TopicConfigurationRequest)) and the people-facing side
//! ([`FlowHooks`]: the input check, the proposal display, the confirmation prompt, the progress
//! sink and the stop-or-leave question). No command keeps its own follow or Ctrl-C loop.
//!
//! [`FlowDriver::step`] executes one command and hands back the next wake-up, so a controller
//! (`operate`) can step once per reconcile and keep the serializable [`CcFlow`] in between;
//! [`run`] is the CLI's loop over it, sleeping and listening for Ctrl-C.
//!
//! The failure wording (not ready, busy, interrupted, timed out) lives here too ([`words`]), so
//! every command that runs the flow says the same thing with the same failure class (which the
//! binary's edge maps to an exit code).

mod ports;
pub mod words;

pub use ports::{CcOperation, FlowHooks, FlowReport, log_previous_stop};

pub use words::{
    INTERRUPT_STOP_REASON, PREVIOUS_STOP_NOTE, goals_unsatisfiable_message, not_ready_message,
    outcome_error,
};

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use crate::cruise_control::error::ErrorClass;
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::{Answer, CcError, CruiseControlApi, Observer};
use crate::engine::cc_flow::{
    CcFlow, Command, Failure, FailureClass, FlowConfig, Outcome, Stage, TaskView, WaitReason,
};
use crate::engine::drift::{self, DriftReport, Plan};
use crate::engine::failure::FailureKind;
use crate::engine::model::Millis;
use crate::engine::view::{ExecutorState, MonitorState, TaskStatus};
use words::{explain_goals, explain_not_ready, outcome_error as describe_outcome};

/// How long the stop request after an interrupt may take.
const STOP_TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the flow for `op` to its end: [`FlowDriver::step`] in a loop, sleeping between steps.
///
/// `interrupt` resolves on Ctrl-C; it is only polled once the execution request is being sent
/// (before that nothing has changed and the process's default Ctrl-C handling stays).
pub async fn run<C, O, H>(
    cc: &C,
    op: &O,
    config: FlowConfig,
    hooks: &H,
    obs: &dyn Observer,
    interrupt: impl Future<Output = ()>,
) -> FlowReport<H::Error>
where
    C: CruiseControlApi,
    O: CcOperation,
    H: FlowHooks<C>,
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
pub async fn run_driver<C, O, H>(
    mut driver: FlowDriver<'_, C, O, H>,
    interrupt: impl Future<Output = ()>,
    mut after_step: impl FnMut(&CcFlow),
) -> FlowReport<H::Error>
where
    C: CruiseControlApi,
    O: CcOperation,
    H: FlowHooks<C>,
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
pub struct FlowDriver<'a, C, O, H: FlowHooks<C>> {
    cc: &'a C,
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
    /// The wait for a previous execution's stop was announced.
    said_previous_stop: bool,
    /// A resumed flow follows an execution started earlier: say so at the first look that
    /// shows the task still known.
    announce_following: bool,
    outcome: Option<Outcome>,
}

impl<'a, C, O, H> FlowDriver<'a, C, O, H>
where
    C: CruiseControlApi,
    O: CcOperation,
    H: FlowHooks<C>,
{
    /// Starts a flow now.
    pub fn new(
        cc: &'a C,
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
            said_previous_stop: false,
            announce_following: false,
            outcome: None,
        }
    }

    /// Continues a flow restored from saved state (see [`CcFlow::resume`]): a flow that was
    /// following an execution follows it again (never re-sending the execution request); its
    /// deadlines count from now.
    pub fn resume(
        cc: &'a C,
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
        // Announced once the first look shows the task is still known: a re-run must not say
        // it follows a task Cruise Control forgot (#25 point 7).
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
            said_previous_stop: false,
            announce_following: following,
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
        let next = match std::mem::replace(&mut self.next, Command::Nothing) {
            Command::ObserveReadiness => self.observe_readiness().await,
            Command::CheckInput => self.check_input().await,
            Command::RequestProposal => self.request_proposal().await,
            Command::AskConfirmation => self.ask_confirmation(),
            Command::RecheckProposal => self.recheck_proposal().await,
            Command::StartExecution => self.start_execution(interrupt).await,
            Command::Wait { until, reason } => return self.wait(until, reason),
            Command::ObserveProgress => self.observe_progress().await,
            Command::AskStopOrLeave { task_id } => {
                self.hooks.follow_ended();
                let choice = self.hooks.choose_after_interrupt(task_id.as_deref()).await;
                self.flow.handle_interrupt_choice(choice)
            }
            Command::StopExecution { .. } => self.stop_execution().await,
            Command::Finish(outcome) => {
                self.hooks.follow_ended();
                self.outcome = Some(outcome);
                self.next = Command::Nothing;
                return Step::Done;
            }
            Command::Nothing => return self.stalled(),
        };
        self.next = next;
        Step::Continue
    }

    /// Is Cruise Control's load model ready, and is its executor free?
    async fn observe_readiness(&mut self) -> Command {
        match self.cc.readiness(self.deadline, self.obs).await {
            Ok((m, executor)) => {
                let next = self.flow.handle_readiness(&m, &executor, self.now());
                self.monitor = Some(m);
                next
            }
            Err(e) => self.fail(e, false),
        }
    }

    /// The operation's own checks of its input against the cluster.
    async fn check_input(&mut self) -> Command {
        match self
            .hooks
            .check_input(self.cc, self.deadline, self.obs)
            .await
        {
            Ok(Ok(())) => self.flow.handle_input_checked(Ok(())),
            Ok(Err(e)) => {
                let reason = e.to_string();
                self.error = Some(e);
                self.flow.handle_input_checked(Err(reason))
            }
            Err(e) => self.fail(e, false),
        }
    }

    /// The dry run, shown to the command's side as it arrives.
    async fn request_proposal(&mut self) -> Command {
        let mut policy = self.cc.policy(self.deadline);
        if self.wait_for_ready {
            policy.wait_for_not_ready = true;
            policy.not_ready_deadline = Some(self.wait_until.max(Instant::now()));
        }
        match self.op.request(self.cc, true, &policy, self.obs).await {
            Ok(answer) => {
                let noop = answer.value.is_noop();
                self.hooks.proposal(&answer);
                self.proposal = Some(answer);
                self.flow.handle_proposal(noop)
            }
            Err(e) => self.fail(e, true),
        }
    }

    /// Asks to execute what was shown last (the re-check, else the dry run).
    fn ask_confirmation(&mut self) -> Command {
        let hooks = self.hooks;
        match self
            .recheck
            .as_ref()
            .or(self.proposal.as_ref())
            .map(|p| (p, hooks.confirm(p)))
        {
            Some((shown, Ok(()))) => {
                // What the operator saw and confirmed is what must run.
                self.approved = Some(Plan::from(&shown.value));
                self.flow.handle_confirmation(true)
            }
            Some((_, Err(e))) => {
                self.error = Some(e);
                self.flow.handle_confirmation(false)
            }
            None => self.flow.handle_confirmation(false),
        }
    }

    /// A fresh dry run compared with the approved plan before anything executes.
    async fn recheck_proposal(&mut self) -> Command {
        let approved = match self.approved.clone() {
            Some(p) => p,
            // --yes: the plan approved beforehand, else this run's dry run.
            None => match self.hooks.approved_plan() {
                Some(p) => p,
                None => self
                    .proposal
                    .as_ref()
                    .map(|p| Plan::from(&p.value))
                    .unwrap_or_default(),
            },
        };
        let policy = self.cc.policy(self.deadline);
        match self.op.request(self.cc, true, &policy, self.obs).await {
            Ok(answer) => {
                let report = drift::compare(
                    &approved,
                    &Plan::from(&answer.value),
                    &self.hooks.tolerance(),
                );
                if !report.within_tolerance {
                    self.hooks.drifted(&report, &answer);
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

    /// The execution request, sent once.
    async fn start_execution<F: Future<Output = ()>>(&mut self, interrupt: Pin<&mut F>) -> Command {
        // Never re-sent after a timeout: the execution may have started.
        let mut policy = self.cc.policy(self.deadline);
        policy.idempotent = false;
        let send = self.op.request(self.cc, false, &policy, self.obs);
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
            Some(Ok(answer)) => self.execution_started(answer),
            Some(Err(e)) => self.fail(e, true),
        }
    }

    /// Cruise Control accepted the execution: its own proposal is compared with the approved
    /// one, and following starts (unless `--no-wait`).
    fn execution_started(&mut self, answer: Answer<OptimizationResult>) -> Command {
        let hooks = self.hooks;
        let task_id = answer.task_id.clone();
        // What was approved: the confirmed or re-checked plan, else the plan approved
        // beforehand, else this run's dry run.
        let approved = self.approved.clone().or_else(|| {
            hooks
                .approved_plan()
                .or_else(|| self.proposal.as_ref().map(|p| Plan::from(&p.value)))
        });
        if let Some(approved) = approved.as_ref() {
            let d = drift::compare(approved, &Plan::from(&answer.value), &hooks.tolerance());
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

    /// A wait the caller sleeps through (the command stays next); what it waits for is said.
    fn wait(&mut self, until: Millis, reason: WaitReason) -> Step {
        match &reason {
            WaitReason::LoadModel { reason } => self.hooks.waiting_for_ready(reason),
            // Said once, not at every look.
            WaitReason::PreviousStop if !self.said_previous_stop => {
                self.said_previous_stop = true;
                self.hooks.waiting_for_previous_stop();
            }
            _ => {}
        }
        self.next = Command::Wait { until, reason };
        Step::WakeUpAt(until)
    }

    /// One look at the execution while following it.
    async fn observe_progress(&mut self) -> Command {
        let announce = std::mem::take(&mut self.announce_following);
        let (cc, hooks, deadline, obs) = (self.cc, self.hooks, self.deadline, self.obs);
        match observe_progress(cc, &self.flow, hooks, deadline, obs, announce).await {
            Ok((executor, task)) => self.flow.handle_progress(&executor, &task, self.now()),
            Err(e) => self.fail(e, false),
        }
    }

    /// Stops the execution after the operator chose to.
    async fn stop_execution(&mut self) -> Command {
        match self
            .cc
            .stop_execution(
                INTERRUPT_STOP_REASON,
                Instant::now() + STOP_TIMEOUT,
                self.obs,
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

    /// No command: done, or (never expected) the machine stalled.
    fn stalled(&mut self) -> Step {
        if self.outcome.is_some() {
            return Step::Done;
        }
        // The driver only feeds answers to the command it was given, so the machine never
        // ignores one; if it did, stop rather than spin.
        self.hooks.follow_ended();
        self.outcome = Some(Outcome::Error {
            stage: Stage::Follow,
            task_id: self.flow.task_id().map(str::to_string),
            failure: Failure {
                class: FailureClass::Permanent,
                kind: FailureKind::Failed,
                message: "internal error: the Cruise Control flow stalled".into(),
            },
        });
        Step::Done
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
                    kind: FailureKind::Failed,
                    message: "internal error: the Cruise Control flow did not finish".into(),
                },
            });
        let error = if outcome.failure_kind().is_none() {
            None
        } else {
            self.error.or_else(|| {
                Some(describe_outcome(
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
async fn observe_progress<C: CruiseControlApi, H: FlowHooks<C>>(
    cc: &C,
    flow: &CcFlow,
    hooks: &H,
    deadline: Instant,
    obs: &dyn Observer,
    announce_following: bool,
) -> Result<(ExecutorState, TaskView), CcError> {
    let executor = cc.executor(deadline, obs).await?;
    // Every request holds one of Cruise Control's few user-task slots for about 5 s (reference
    // section 13): while the executor says it runs our task, that answer is enough and the task
    // list is not asked for.
    let task = match flow.task_id() {
        None => TaskView::NoId,
        Some(id) if !executor.is_idle() && executor.running_task() == Some(id) => {
            TaskView::Status(TaskStatus::InExecution)
        }
        Some(id) => match cc.task_status(id, deadline, obs).await {
            Ok(status) => TaskView::Status(status),
            Err(CcError::TaskLost { .. }) => TaskView::Lost,
            Err(e) => return Err(e),
        },
    };
    // A resumed flow says it follows the task only if Cruise Control still knows it (or still
    // runs it); a forgotten one ends as lost without that line.
    let running_ours = !executor.is_idle() && executor.running_task() == flow.task_id();
    if announce_following && (task != TaskView::Lost || running_ours) {
        hooks.following_again(flow.task_id());
    }
    if !executor.is_idle() {
        hooks.progress(&executor);
    }
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
        kind: e.failure_kind(),
        message: e.to_string(),
    }
}
