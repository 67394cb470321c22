//! One Cruise Control execution flow, as a pure state machine.
//!
//! `rebalance add|remove|full` today, `topic set-rf` (topic_configuration), `rebalance imbalance`
//! and the `operate` controller next all run the same conversation with Cruise Control: observe
//! (before an execution) that nothing else executes, check the input, ask for a dry-run
//! proposal, stop if it moves nothing, ask the operator, start the execution once, follow it
//! until it ends, and on Ctrl-C either stop it or leave it running. Kept in one place, that
//! conversation gets one set of guarantees (never an execution without a confirmation unless
//! `--yes`, never a second execution request, never a started task's id lost) that property
//! tests check on random event sequences.
//!
//! Whether Cruise Control can answer is judged by its answer, not by its `MonitorState`
//! counters: a real server answers proposals while the monitor still reports 0 valid of 0
//! partitions (LOADING after a restart), and its own not-ready answers (NotEnoughValidWindows,
//! LOADING) end the flow as "not ready" (reference section 13). The monitor is still read before
//! an execution (with the executor) to word that message; a dry run sends its proposal request
//! first, so it takes as few of Cruise Control's user-task slots as possible.
//!
//! [`CcFlow`] does no IO and reads no clock (STYLE.md §1): the driver (the shell's Cruise
//! Control flow driver) executes each [`Command`], feeds what happened back through a
//! `handle_*` method together with `now`, and gets the next [`Command`]. The flow ends with
//! [`Command::Finish`] carrying an [`Outcome`], whose failure class ([`Outcome::failure_kind`])
//! the binary's edge maps to an exit code. The state is plain serde data, so `operate` can
//! persist it between steps.
//!
//! A flow restored from saved state continues with [`CcFlow::resume`].
//!
//! An event that does not fit the current phase (a late answer, a duplicate) changes nothing and
//! yields [`Command::Nothing`]: the driver keeps waiting for the answer it asked for.

use serde::{Deserialize, Serialize};

use crate::engine::failure::FailureKind;
use crate::engine::model::Millis;
use crate::engine::view::{ExecutionProgress, ExecutorState, MonitorState, TaskStatus};

/// What the flow was asked to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlowConfig {
    /// Execute the proposal (`false`: dry run only, show it).
    pub execute: bool,
    /// `--yes`: execute without asking.
    pub assume_yes: bool,
    /// Return once the execution started instead of following it.
    pub no_wait: bool,
    /// The whole flow (proposal and execution) must end within this long; with
    /// `follow_timeout_ms`, only up to the start of the execution.
    pub timeout_ms: u64,
    /// How long to wait for Cruise Control's load model (0: fail at once when it is not ready).
    pub wait_for_ready_ms: u64,
    /// Pause between observations.
    pub poll_interval_ms: u64,
    /// Before executing, ask for the proposal once more as a dry run and execute only if it
    /// matches the approved one (see [`crate::engine::drift`]); past the tolerance the operator
    /// is asked again, `--yes` refuses.
    #[serde(default)]
    pub recheck: bool,
    /// Following the execution has its own deadline, counted from its start (`u64::MAX`: follow
    /// as long as it runs). `None`: `timeout_ms` covers the whole flow.
    #[serde(default)]
    pub follow_timeout_ms: Option<u64>,
}

/// What a [`Command::Wait`] waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "for", rename_all = "kebab-case")]
pub enum WaitReason {
    /// Cruise Control's load model is not ready yet.
    LoadModel { reason: String },
    /// The next look at the running execution.
    Execution,
}

/// What the driver must do next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Command {
    /// Read the monitor and executor state; answer with [`CcFlow::handle_readiness`].
    ObserveReadiness,
    /// Run the operation's own input checks; answer with [`CcFlow::handle_input_checked`].
    CheckInput,
    /// Ask for the dry-run proposal; answer with [`CcFlow::handle_proposal`].
    RequestProposal,
    /// Ask the operator; answer with [`CcFlow::handle_confirmation`].
    AskConfirmation,
    /// Ask for the proposal again as a dry run and compare it with the approved one; answer
    /// with [`CcFlow::handle_recheck`] (or [`CcFlow::handle_error`]).
    RecheckProposal,
    /// Send the (one) execution request; answer with [`CcFlow::handle_execution_started`].
    StartExecution,
    /// Read the executor and the user task; answer with [`CcFlow::handle_progress`].
    ObserveProgress,
    /// Sleep until `until`, then call [`CcFlow::handle_wait_over`].
    Wait { until: Millis, reason: WaitReason },
    /// Interrupted while an execution may run: ask whether to stop it or leave it running;
    /// answer with [`CcFlow::handle_interrupt_choice`].
    AskStopOrLeave { task_id: Option<String> },
    /// Ask Cruise Control to stop the execution; answer with [`CcFlow::handle_stop_answered`].
    StopExecution { task_id: Option<String> },
    /// The event did not fit the current phase: keep waiting for the pending answer.
    Nothing,
    /// The flow is over.
    Finish(Outcome),
}

/// What became of the execution when the operator interrupted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AfterInterrupt {
    /// No execution had been requested: nothing was changed.
    NothingStarted,
    /// The execution (or its request in flight) was left running.
    LeftRunning,
    /// Cruise Control was asked to stop it and accepted.
    StopRequested,
    /// Asking Cruise Control to stop it failed.
    StopFailed,
}

/// The operator's answer after an interrupt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InterruptChoice {
    LeaveRunning,
    Stop,
}

/// Where in the flow an error happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    Readiness,
    /// The operation's input check could not ask Cruise Control.
    Input,
    Proposal,
    /// The execution request itself (a timed-out one may have started the execution).
    Start,
    Follow,
}

/// How an error is classified (by the client, once).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureClass {
    /// Nothing to do: the target state already holds (e.g. already at the replication factor).
    NoOp,
    /// Trying later may work (the client already retried what it was allowed to).
    Retryable,
    /// The input or the cluster must change.
    Permanent,
}

/// A failed request, as the flow sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    pub class: FailureClass,
    /// What kind of failure this is (the client's classification); saved as `exit`, the name
    /// it had when flows kept exit codes.
    #[serde(rename = "exit")]
    pub kind: FailureKind,
    pub message: String,
}

/// How the flow ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    /// Dry run: the proposal was shown, nothing changed.
    Proposed,
    /// The proposal moves nothing: nothing was executed.
    NothingToDo,
    /// The load model did not become ready in time.
    NotReady { reason: String },
    /// Another execution is running (only checked when executing).
    Busy { running: String },
    /// The operation's own input check refused.
    Rejected { reason: String },
    /// The operator did not confirm (or could not be asked).
    Declined,
    /// The proposal changed past the tolerance between the approval and the execution, and
    /// `--yes` (or too many rounds) did not allow asking again: nothing was executed.
    Drifted { reasons: Vec<String> },
    /// `--no-wait`: the execution started.
    Started { task_id: Option<String> },
    /// The execution finished.
    Completed { task_id: Option<String> },
    /// The execution ended with an error or was stopped by someone else.
    Failed { task_id: Option<String> },
    /// Cruise Control forgot the task (restart, expiry) and the executor no longer runs it.
    TaskLost { task_id: String },
    /// The flow's deadline passed while following; the execution keeps running.
    TimedOut { task_id: Option<String> },
    /// The operator interrupted.
    Interrupted {
        task_id: Option<String>,
        after: AfterInterrupt,
    },
    /// A request failed.
    Error {
        stage: Stage,
        /// Set when an execution had started (errors while following).
        task_id: Option<String>,
        failure: Failure,
    },
}

impl Outcome {
    /// The failure class of this outcome (`None`: it is not a failure; a dry run, nothing to
    /// do, or an execution that started or completed). The edge maps it to an exit code.
    #[must_use]
    pub fn failure_kind(&self) -> Option<FailureKind> {
        match self {
            Outcome::Proposed
            | Outcome::NothingToDo
            | Outcome::Started { .. }
            | Outcome::Completed { .. } => None,
            Outcome::NotReady { .. } => Some(FailureKind::NotReady),
            Outcome::Busy { .. } => Some(FailureKind::Busy),
            Outcome::Rejected { .. } => Some(FailureKind::Invalid),
            Outcome::Declined
            | Outcome::Drifted { .. }
            | Outcome::Failed { .. }
            | Outcome::TaskLost { .. } => Some(FailureKind::Failed),
            Outcome::TimedOut { .. } => Some(FailureKind::TimedOut),
            Outcome::Interrupted { .. } => Some(FailureKind::Interrupted),
            Outcome::Error { failure, .. } => {
                (failure.kind != FailureKind::NoOp).then_some(failure.kind)
            }
        }
    }

    /// The task id of the execution this outcome is about, if one started.
    #[must_use]
    pub fn task_id(&self) -> Option<&str> {
        match self {
            Outcome::Started { task_id }
            | Outcome::Completed { task_id }
            | Outcome::Failed { task_id }
            | Outcome::TimedOut { task_id }
            | Outcome::Interrupted { task_id, .. }
            | Outcome::Error { task_id, .. } => task_id.as_deref(),
            Outcome::TaskLost { task_id } => Some(task_id),
            _ => None,
        }
    }
}

/// What the follow loop sees of the started user task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TaskView {
    /// No task id was returned: follow the executor only.
    NoId,
    /// Cruise Control no longer lists the task (restart or expiry).
    Lost,
    Status(TaskStatus),
}

/// The follow loop's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowStep {
    Continue,
    Completed,
    Failed,
    /// The outcome cannot be known (task forgotten).
    Unknown,
}

/// Has the followed execution finished? (pure)
#[must_use]
pub fn follow_step(
    task: &TaskView,
    executor: &ExecutorState,
    our_task: Option<&str>,
) -> FollowStep {
    match task {
        TaskView::Status(TaskStatus::Completed) => FollowStep::Completed,
        TaskView::Status(TaskStatus::CompletedWithError) => FollowStep::Failed,
        TaskView::Status(_) => FollowStep::Continue,
        TaskView::NoId => {
            if executor.is_idle() {
                FollowStep::Completed
            } else {
                FollowStep::Continue
            }
        }
        TaskView::Lost => {
            if !executor.is_idle() && our_task.is_some() && executor.running_task() == our_task {
                FollowStep::Continue
            } else {
                FollowStep::Unknown
            }
        }
    }
}

/// Where the flow is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "kebab-case")]
pub enum Phase {
    /// Not started.
    New,
    /// Waiting for the readiness observation.
    ObservingReadiness,
    /// Waiting for the load model (a [`Command::Wait`] is pending).
    WaitingForReadiness,
    CheckingInput,
    Proposing,
    Confirming,
    /// The re-check dry run before the execution is in flight.
    Rechecking,
    /// The execution request is in flight.
    Starting,
    /// Waiting for a progress observation.
    Observing,
    /// Between two progress observations.
    Following,
    /// Interrupted: waiting for the operator's choice.
    ChoosingAfterInterrupt,
    /// Interrupted: the stop request is in flight.
    Stopping,
    Done(Outcome),
}

/// The Cruise Control execution flow (serializable).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CcFlow {
    config: FlowConfig,
    phase: Phase,
    /// When [`CcFlow::start`] ran: the deadlines count from here.
    started_at: Millis,
    /// The operator (or `--yes`) allowed the execution.
    confirmed: bool,
    /// The execution request was sent (at most once, ever).
    execution_requested: bool,
    /// Cruise Control answered the execution request.
    execution_started: bool,
    /// The user task of the started execution (never dropped once known).
    task_id: Option<String>,
    /// The last progress seen while the executor was busy.
    last_progress: Option<ExecutionProgress>,
    /// Re-checks that found the proposal changed (each one asks the operator again).
    #[serde(default)]
    drift_rounds: u32,
    /// When the execution started (the follow deadline counts from here).
    #[serde(default)]
    follow_started_at: Option<Millis>,
}

/// How many times a changed proposal is shown and asked about again before giving up.
pub const MAX_DRIFT_ROUNDS: u32 = 3;

impl CcFlow {
    #[must_use]
    pub fn new(config: FlowConfig) -> CcFlow {
        CcFlow {
            config,
            phase: Phase::New,
            started_at: Millis(0),
            confirmed: false,
            execution_requested: false,
            execution_started: false,
            task_id: None,
            last_progress: None,
            drift_rounds: 0,
            follow_started_at: None,
        }
    }

    /// A flow that follows an execution started earlier, by another run (`--no-wait`, a timed-out
    /// or cancelled run, a lost terminal): `rebalance status --task ID --follow`. It is in the
    /// phase after the execution request, so it never asks for a proposal or an execution;
    /// continue it with [`CcFlow::resume`], which observes the task.
    #[must_use]
    pub fn attach(config: FlowConfig, task_id: String, now: Millis) -> CcFlow {
        let mut f = CcFlow::new(config);
        f.started_at = now;
        f.confirmed = true;
        f.execution_requested = true;
        f.execution_started = true;
        f.task_id = Some(task_id);
        f.follow_started_at = Some(now);
        f.phase = Phase::Observing;
        f
    }

    #[must_use]
    pub fn config(&self) -> &FlowConfig {
        &self.config
    }

    #[must_use]
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The outcome, once [`Command::Finish`] was issued.
    #[must_use]
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.phase {
            Phase::Done(o) => Some(o),
            _ => None,
        }
    }

    /// Whether the execution request was sent (an interrupt from here on may leave it running).
    #[must_use]
    pub fn execution_requested(&self) -> bool {
        self.execution_requested
    }

    /// Whether the operator (or `--yes`) allowed the execution.
    #[must_use]
    pub fn confirmed(&self) -> bool {
        self.confirmed
    }

    /// Whether Cruise Control answered the execution request (it started).
    #[must_use]
    pub fn execution_started(&self) -> bool {
        self.execution_started
    }

    #[must_use]
    pub fn task_id(&self) -> Option<&str> {
        self.task_id.as_deref()
    }

    /// The command to issue after the state was restored (a crash or a restart between a
    /// command and its answer): the pending command again, except the execution request,
    /// which may have reached Cruise Control and is never sent twice; a flow restored while
    /// starting ends as interrupted with the execution possibly running.
    pub fn resume(&mut self, now: Millis) -> Command {
        match self.phase.clone() {
            Phase::New => self.start(now),
            Phase::ObservingReadiness | Phase::WaitingForReadiness => {
                self.phase = Phase::ObservingReadiness;
                Command::ObserveReadiness
            }
            Phase::CheckingInput => Command::CheckInput,
            Phase::Proposing => Command::RequestProposal,
            Phase::Confirming => Command::AskConfirmation,
            Phase::Rechecking => Command::RecheckProposal,
            Phase::Starting => self.finish(Outcome::Interrupted {
                task_id: self.task_id.clone(),
                after: AfterInterrupt::LeftRunning,
            }),
            Phase::Observing | Phase::Following => {
                self.phase = Phase::Observing;
                Command::ObserveProgress
            }
            Phase::ChoosingAfterInterrupt => Command::AskStopOrLeave {
                task_id: self.task_id.clone(),
            },
            Phase::Stopping => Command::StopExecution {
                task_id: self.task_id.clone(),
            },
            Phase::Done(outcome) => Command::Finish(outcome),
        }
    }

    /// Makes a flow that ended while its execution may still run (`--no-wait`, interrupted,
    /// timed out, a failed poll) follow that execution again, for a command that saved it and
    /// runs again ([`CcFlow::resume`] then observes it; nothing is re-sent). Returns whether it
    /// did: only a started execution with a known task can be followed.
    pub fn follow_again(&mut self) -> bool {
        if !self.execution_started || self.task_id.is_none() {
            return false;
        }
        self.phase = Phase::Following;
        true
    }

    /// The last progress seen; after a completion, every movement counted as finished.
    #[must_use]
    pub fn progress(&self) -> Option<&ExecutionProgress> {
        self.last_progress.as_ref()
    }

    fn deadline(&self) -> Millis {
        self.started_at.plus(self.config.timeout_ms)
    }

    /// The deadline while following: from the execution's start when it has its own.
    fn follow_deadline(&self) -> Millis {
        match (self.config.follow_timeout_ms, self.follow_started_at) {
            (Some(ms), Some(start)) => start.plus(ms),
            _ => self.deadline(),
        }
    }

    fn finish(&mut self, outcome: Outcome) -> Command {
        self.phase = Phase::Done(outcome.clone());
        Command::Finish(outcome)
    }

    /// Starts the flow at `now`.
    pub fn start(&mut self, now: Millis) -> Command {
        if self.phase != Phase::New {
            return Command::Nothing;
        }
        self.started_at = now;
        if !self.config.execute {
            // A dry run needs no executor check, and whether Cruise Control can answer is best
            // judged by its answer (reference section 13): one user-task slot fewer.
            self.phase = Phase::CheckingInput;
            return Command::CheckInput;
        }
        self.phase = Phase::ObservingReadiness;
        Command::ObserveReadiness
    }

    /// The monitor and executor as observed at `now`.
    pub fn handle_readiness(
        &mut self,
        monitor: &MonitorState,
        executor: &ExecutorState,
        now: Millis,
    ) -> Command {
        if self.phase != Phase::ObservingReadiness {
            return Command::Nothing;
        }
        // The monitor's counters do not decide readiness: a real Cruise Control answers proposals
        // while its MonitorState still says 0 valid of 0 partitions (LOADING after a restart), so
        // the flow asks, and its own not-ready answer (NotEnoughValidWindows, LOADING) is what
        // ends the flow with "not ready" (reference section 13). The driver's retry policy waits
        // for that answer to change until --wait-for-ready.
        let _ = (monitor, now);
        if self.config.execute && !executor.is_idle() {
            return self.finish(Outcome::Busy {
                running: executor.describe(),
            });
        }
        self.phase = Phase::CheckingInput;
        Command::CheckInput
    }

    /// The operation's input check: `Err(reason)` when it refused.
    pub fn handle_input_checked(&mut self, result: Result<(), String>) -> Command {
        if self.phase != Phase::CheckingInput {
            return Command::Nothing;
        }
        match result {
            Ok(()) => {
                self.phase = Phase::Proposing;
                Command::RequestProposal
            }
            Err(reason) => self.finish(Outcome::Rejected { reason }),
        }
    }

    /// The dry-run proposal arrived; `noop` when it moves nothing.
    pub fn handle_proposal(&mut self, noop: bool) -> Command {
        if self.phase != Phase::Proposing {
            return Command::Nothing;
        }
        if !self.config.execute {
            return self.finish(Outcome::Proposed);
        }
        if noop {
            return self.finish(Outcome::NothingToDo);
        }
        if self.config.assume_yes {
            self.confirmed = true;
            return self.recheck_or_execute();
        }
        self.phase = Phase::Confirming;
        Command::AskConfirmation
    }

    /// Confirmed: re-check the proposal first when configured, else execute.
    fn recheck_or_execute(&mut self) -> Command {
        if self.config.recheck && self.confirmed && !self.execution_requested {
            self.phase = Phase::Rechecking;
            return Command::RecheckProposal;
        }
        self.request_execution()
    }

    /// The re-check dry run compared with the approved proposal: `within` the tolerance, or
    /// not (with the reasons). Past the tolerance nothing is executed: the operator is asked
    /// about the new proposal (which becomes the approved one if confirmed), `--yes` refuses.
    pub fn handle_recheck(&mut self, within: bool, reasons: Vec<String>) -> Command {
        if self.phase != Phase::Rechecking {
            return Command::Nothing;
        }
        if within {
            return self.request_execution();
        }
        self.drift_rounds += 1;
        self.confirmed = false;
        if self.config.assume_yes || self.drift_rounds >= MAX_DRIFT_ROUNDS {
            return self.finish(Outcome::Drifted { reasons });
        }
        self.phase = Phase::Confirming;
        Command::AskConfirmation
    }

    fn request_execution(&mut self) -> Command {
        // The one place that asks for an execution: once, and only when allowed.
        if self.execution_requested || !self.confirmed {
            return Command::Nothing;
        }
        self.execution_requested = true;
        self.phase = Phase::Starting;
        Command::StartExecution
    }

    /// The operator's answer.
    pub fn handle_confirmation(&mut self, confirmed: bool) -> Command {
        if self.phase != Phase::Confirming {
            return Command::Nothing;
        }
        if !confirmed {
            return self.finish(Outcome::Declined);
        }
        self.confirmed = true;
        self.recheck_or_execute()
    }

    /// Cruise Control accepted the execution request (with the user task id it returned).
    pub fn handle_execution_started(&mut self, task_id: Option<String>, now: Millis) -> Command {
        if self.phase != Phase::Starting {
            return Command::Nothing;
        }
        self.execution_started = true;
        self.follow_started_at = Some(now);
        if self.task_id.is_none() {
            self.task_id = task_id;
        }
        if self.config.no_wait {
            return self.finish(Outcome::Started {
                task_id: self.task_id.clone(),
            });
        }
        self.follow_or_time_out(now)
    }

    fn follow_or_time_out(&mut self, now: Millis) -> Command {
        let next = now.plus(self.config.poll_interval_ms);
        if next > self.follow_deadline() {
            return self.finish(Outcome::TimedOut {
                task_id: self.task_id.clone(),
            });
        }
        self.phase = Phase::Following;
        Command::Wait {
            until: next,
            reason: WaitReason::Execution,
        }
    }

    /// A [`Command::Wait`] is over.
    pub fn handle_wait_over(&mut self, _now: Millis) -> Command {
        match self.phase {
            Phase::WaitingForReadiness => {
                self.phase = Phase::ObservingReadiness;
                Command::ObserveReadiness
            }
            Phase::Following => {
                self.phase = Phase::Observing;
                Command::ObserveProgress
            }
            _ => Command::Nothing,
        }
    }

    /// The executor and the user task, observed at `now` while following.
    pub fn handle_progress(
        &mut self,
        executor: &ExecutorState,
        task: &TaskView,
        now: Millis,
    ) -> Command {
        if self.phase != Phase::Observing {
            return Command::Nothing;
        }
        if !executor.is_idle() {
            let seen = executor.progress();
            match self.last_progress.as_mut() {
                Some(p) => p.observe(&seen),
                None => self.last_progress = Some(seen),
            }
        }
        match follow_step(task, executor, self.task_id.as_deref()) {
            FollowStep::Continue => self.follow_or_time_out(now),
            FollowStep::Completed => {
                if let Some(p) = self.last_progress.as_mut() {
                    // The executor no longer reports counters once idle: the last
                    // observation is the truth up to the end, which is "everything".
                    p.partitions_finished = p.partitions_total;
                    p.partitions_in_progress = 0;
                    p.partitions_pending = 0;
                    p.leaders_finished = p.leaders_total;
                    p.data_finished_mb = p.data_total_mb;
                    p.state.clone_from(&executor.state);
                }
                self.finish(Outcome::Completed {
                    task_id: self.task_id.clone(),
                })
            }
            FollowStep::Failed => self.finish(Outcome::Failed {
                task_id: self.task_id.clone(),
            }),
            FollowStep::Unknown => match self.task_id.clone() {
                Some(task_id) => self.finish(Outcome::TaskLost { task_id }),
                // Without an id there is no task to lose: Unknown cannot happen, but a lost
                // answer still must not claim success.
                None => self.finish(Outcome::Failed { task_id: None }),
            },
        }
    }

    /// A request failed.
    pub fn handle_error(&mut self, failure: Failure) -> Command {
        let stage = match self.phase {
            Phase::ObservingReadiness => Stage::Readiness,
            Phase::CheckingInput => Stage::Input,
            Phase::Proposing | Phase::Rechecking if failure.class == FailureClass::NoOp => {
                return self.finish(Outcome::NothingToDo);
            }
            Phase::Proposing | Phase::Rechecking => Stage::Proposal,
            Phase::Starting => Stage::Start,
            Phase::Observing => Stage::Follow,
            Phase::Stopping => return self.handle_stop_answered(false),
            _ => return Command::Nothing,
        };
        self.finish(Outcome::Error {
            stage,
            task_id: self.task_id.clone(),
            failure,
        })
    }

    /// The operator interrupted (Ctrl-C).
    pub fn handle_interrupt(&mut self) -> Command {
        match self.phase {
            Phase::New
            | Phase::ObservingReadiness
            | Phase::WaitingForReadiness
            | Phase::CheckingInput
            | Phase::Proposing
            | Phase::Confirming
            | Phase::Rechecking => self.finish(Outcome::Interrupted {
                task_id: None,
                after: AfterInterrupt::NothingStarted,
            }),
            Phase::Starting | Phase::Observing | Phase::Following => {
                self.phase = Phase::ChoosingAfterInterrupt;
                Command::AskStopOrLeave {
                    task_id: self.task_id.clone(),
                }
            }
            // A second interrupt while asking: leave it running and go.
            Phase::ChoosingAfterInterrupt => {
                self.handle_interrupt_choice(InterruptChoice::LeaveRunning)
            }
            Phase::Stopping | Phase::Done(_) => Command::Nothing,
        }
    }

    /// What the operator chose after an interrupt.
    pub fn handle_interrupt_choice(&mut self, choice: InterruptChoice) -> Command {
        if self.phase != Phase::ChoosingAfterInterrupt {
            return Command::Nothing;
        }
        match choice {
            InterruptChoice::LeaveRunning => self.finish(Outcome::Interrupted {
                task_id: self.task_id.clone(),
                after: AfterInterrupt::LeftRunning,
            }),
            InterruptChoice::Stop => {
                self.phase = Phase::Stopping;
                Command::StopExecution {
                    task_id: self.task_id.clone(),
                }
            }
        }
    }

    /// Cruise Control answered the stop request (`accepted: false` when it failed).
    pub fn handle_stop_answered(&mut self, accepted: bool) -> Command {
        if self.phase != Phase::Stopping {
            return Command::Nothing;
        }
        self.finish(Outcome::Interrupted {
            task_id: self.task_id.clone(),
            after: if accepted {
                AfterInterrupt::StopRequested
            } else {
                AfterInterrupt::StopFailed
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(execute: bool, yes: bool, no_wait: bool) -> FlowConfig {
        FlowConfig {
            execute,
            assume_yes: yes,
            no_wait,
            timeout_ms: 60_000,
            wait_for_ready_ms: 0,
            poll_interval_ms: 1_000,
            recheck: false,
            follow_timeout_ms: None,
        }
    }

    fn ready() -> MonitorState {
        MonitorState {
            state: "RUNNING".into(),
            num_monitored_windows: Some(3),
            num_valid_partitions: Some(10),
            ..MonitorState::default()
        }
    }

    fn sampling() -> MonitorState {
        MonitorState {
            state: "RUNNING".into(),
            num_monitored_windows: Some(0),
            ..MonitorState::default()
        }
    }

    fn idle() -> ExecutorState {
        ExecutorState {
            state: "NO_TASK_IN_PROGRESS".into(),
            ..ExecutorState::default()
        }
    }

    fn busy(task: &str) -> ExecutorState {
        ExecutorState {
            state: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into(),
            triggered_user_task_id: Some(task.into()),
            num_total_partition_movements: 4,
            num_finished_partition_movements: 1,
            total_data_to_move: Some(40.0),
            finished_data_movement: Some(10.0),
            ..ExecutorState::default()
        }
    }

    /// A flow driven up to the proposal.
    fn proposing(cfg: FlowConfig) -> CcFlow {
        let execute = cfg.execute;
        let mut f = CcFlow::new(cfg);
        if execute {
            assert_eq!(f.start(Millis(0)), Command::ObserveReadiness);
            assert_eq!(
                f.handle_readiness(&ready(), &idle(), Millis(0)),
                Command::CheckInput
            );
        } else {
            // A dry run asks Cruise Control directly: no state request first.
            assert_eq!(f.start(Millis(0)), Command::CheckInput);
        }
        assert_eq!(f.handle_input_checked(Ok(())), Command::RequestProposal);
        f
    }

    fn following(task: Option<&str>) -> CcFlow {
        let mut f = proposing(config(true, true, false));
        assert_eq!(f.handle_proposal(false), Command::StartExecution);
        assert!(matches!(
            f.handle_execution_started(task.map(str::to_string), Millis(0)),
            Command::Wait {
                reason: WaitReason::Execution,
                ..
            }
        ));
        assert_eq!(f.handle_wait_over(Millis(1_000)), Command::ObserveProgress);
        f
    }

    #[test]
    fn dry_run_ends_with_the_proposal() {
        let mut f = proposing(config(false, false, false));
        assert_eq!(f.handle_proposal(false), Command::Finish(Outcome::Proposed));
        assert!(!f.execution_requested());
        assert_eq!(f.outcome().unwrap().failure_kind(), None);
    }

    #[test]
    fn a_noop_proposal_executes_nothing() {
        let mut f = proposing(config(true, true, false));
        assert_eq!(
            f.handle_proposal(true),
            Command::Finish(Outcome::NothingToDo)
        );
        // "already at the target" from topic_configuration is a no-op too.
        let mut f = proposing(config(true, true, false));
        let noop = Failure {
            class: FailureClass::NoOp,
            kind: FailureKind::NoOp,
            message: "already".into(),
        };
        assert_eq!(f.handle_error(noop), Command::Finish(Outcome::NothingToDo));
        assert!(!f.execution_requested());
    }

    #[test]
    fn without_yes_the_operator_is_asked_and_may_decline() {
        let mut f = proposing(config(true, false, false));
        assert_eq!(f.handle_proposal(false), Command::AskConfirmation);
        assert_eq!(
            f.handle_confirmation(false),
            Command::Finish(Outcome::Declined)
        );
        assert_eq!(
            f.outcome().unwrap().failure_kind(),
            Some(FailureKind::Failed)
        );
        let mut f = proposing(config(true, false, false));
        f.handle_proposal(false);
        assert_eq!(f.handle_confirmation(true), Command::StartExecution);
        assert!(f.confirmed() && f.execution_requested());
    }

    #[test]
    fn a_sampling_monitor_does_not_refuse_the_request() {
        // A real Cruise Control answers proposals while its monitor still counts 0 valid
        // partitions (reference section 13): the flow asks; Cruise Control's own not-ready
        // answer is what ends it with exit 4 (the driver's retry policy waits for it).
        let mut cfg = config(true, true, false);
        cfg.wait_for_ready_ms = 2_500;
        let mut f = CcFlow::new(cfg);
        f.start(Millis(100));
        assert_eq!(
            f.handle_readiness(&sampling(), &idle(), Millis(100)),
            Command::CheckInput
        );
        assert_eq!(f.handle_input_checked(Ok(())), Command::RequestProposal);
        let c = f.handle_error(Failure {
            class: FailureClass::Retryable,
            kind: FailureKind::NotReady,
            message: "NotEnoughValidWindowsException".into(),
        });
        assert!(matches!(c, Command::Finish(Outcome::Error { .. })), "{c:?}");
        assert_eq!(
            f.outcome().unwrap().failure_kind(),
            Some(FailureKind::NotReady)
        );
    }

    #[test]
    fn a_running_execution_is_busy_only_when_executing() {
        let mut f = CcFlow::new(config(true, true, false));
        f.start(Millis(0));
        let c = f.handle_readiness(&ready(), &busy("other"), Millis(0));
        assert!(
            matches!(c, Command::Finish(Outcome::Busy { ref running }) if running.contains("task other")),
            "{c:?}"
        );
        assert_eq!(f.outcome().unwrap().failure_kind(), Some(FailureKind::Busy));
        // A dry run does not look at the executor at all.
        let mut f = CcFlow::new(config(false, false, false));
        assert_eq!(f.start(Millis(0)), Command::CheckInput);
    }

    #[test]
    fn rejected_input_is_a_usage_error() {
        let mut f = CcFlow::new(config(true, true, false));
        f.start(Millis(0));
        f.handle_readiness(&ready(), &idle(), Millis(0));
        assert_eq!(
            f.handle_input_checked(Err("unknown broker 9".into())),
            Command::Finish(Outcome::Rejected {
                reason: "unknown broker 9".into()
            })
        );
        assert_eq!(
            f.outcome().unwrap().failure_kind(),
            Some(FailureKind::Invalid)
        );
    }

    #[test]
    fn no_wait_ends_once_started() {
        let mut f = proposing(config(true, true, true));
        f.handle_proposal(false);
        assert_eq!(
            f.handle_execution_started(Some("t1".into()), Millis(5)),
            Command::Finish(Outcome::Started {
                task_id: Some("t1".into())
            })
        );
    }

    #[test]
    fn following_to_completion_counts_everything_finished() {
        let mut f = following(Some("t1"));
        assert!(matches!(
            f.handle_progress(
                &busy("t1"),
                &TaskView::Status(TaskStatus::InExecution),
                Millis(1_000)
            ),
            Command::Wait {
                until: Millis(2_000),
                ..
            }
        ));
        assert_eq!(f.progress().unwrap().partitions_finished, 1);
        f.handle_wait_over(Millis(2_000));
        assert_eq!(
            f.handle_progress(
                &idle(),
                &TaskView::Status(TaskStatus::Completed),
                Millis(2_000)
            ),
            Command::Finish(Outcome::Completed {
                task_id: Some("t1".into())
            })
        );
        let p = f.progress().unwrap();
        assert_eq!(p.partitions_finished, 4);
        assert!((p.data_finished_mb - 40.0).abs() < f64::EPSILON);
        assert_eq!(p.state, "NO_TASK_IN_PROGRESS");
    }

    #[test]
    fn follow_outcomes_failed_lost_timed_out_and_errors() {
        let mut f = following(Some("t1"));
        assert_eq!(
            f.handle_progress(
                &idle(),
                &TaskView::Status(TaskStatus::CompletedWithError),
                Millis(1_000)
            ),
            Command::Finish(Outcome::Failed {
                task_id: Some("t1".into())
            })
        );
        let mut f = following(Some("t1"));
        assert_eq!(
            f.handle_progress(&idle(), &TaskView::Lost, Millis(1_000)),
            Command::Finish(Outcome::TaskLost {
                task_id: "t1".into()
            })
        );
        // Lost while our execution still runs: keep following.
        let mut f = following(Some("t1"));
        assert!(matches!(
            f.handle_progress(&busy("t1"), &TaskView::Lost, Millis(1_000)),
            Command::Wait { .. }
        ));
        // No id: the executor going idle is the end.
        let mut f = following(None);
        assert_eq!(
            f.handle_progress(&idle(), &TaskView::NoId, Millis(1_000)),
            Command::Finish(Outcome::Completed { task_id: None })
        );
        // The deadline passes while following.
        let mut f = following(Some("t1"));
        let c = f.handle_progress(
            &busy("t1"),
            &TaskView::Status(TaskStatus::InExecution),
            Millis(59_500),
        );
        assert_eq!(
            c,
            Command::Finish(Outcome::TimedOut {
                task_id: Some("t1".into())
            })
        );
        assert_eq!(
            f.outcome().unwrap().failure_kind(),
            Some(FailureKind::TimedOut)
        );
        // A failed poll ends the flow with the task id.
        let mut f = following(Some("t1"));
        let fail = Failure {
            class: FailureClass::Retryable,
            kind: FailureKind::Unreachable,
            message: "refused".into(),
        };
        let c = f.handle_error(fail);
        assert!(
            matches!(&c, Command::Finish(Outcome::Error { stage: Stage::Follow, task_id: Some(t), .. }) if t == "t1"),
            "{c:?}"
        );
        assert_eq!(
            f.outcome().unwrap().failure_kind(),
            Some(FailureKind::Unreachable)
        );
    }

    #[test]
    fn interrupts_before_and_after_the_execution_request() {
        let mut f = proposing(config(true, false, false));
        f.handle_proposal(false);
        assert_eq!(
            f.handle_interrupt(),
            Command::Finish(Outcome::Interrupted {
                task_id: None,
                after: AfterInterrupt::NothingStarted
            })
        );
        // While the request is in flight: ask, leave it running.
        let mut f = proposing(config(true, true, false));
        f.handle_proposal(false);
        assert_eq!(
            f.handle_interrupt(),
            Command::AskStopOrLeave { task_id: None }
        );
        assert_eq!(
            f.handle_interrupt_choice(InterruptChoice::LeaveRunning),
            Command::Finish(Outcome::Interrupted {
                task_id: None,
                after: AfterInterrupt::LeftRunning
            })
        );
        // While following: stop it.
        let mut f = following(Some("t1"));
        assert_eq!(
            f.handle_interrupt(),
            Command::AskStopOrLeave {
                task_id: Some("t1".into())
            }
        );
        assert_eq!(
            f.handle_interrupt_choice(InterruptChoice::Stop),
            Command::StopExecution {
                task_id: Some("t1".into())
            }
        );
        // A late progress answer changes nothing.
        assert_eq!(
            f.handle_progress(&idle(), &TaskView::NoId, Millis(2)),
            Command::Nothing
        );
        assert_eq!(
            f.handle_stop_answered(true),
            Command::Finish(Outcome::Interrupted {
                task_id: Some("t1".into()),
                after: AfterInterrupt::StopRequested
            })
        );
        assert_eq!(
            f.outcome().unwrap().failure_kind(),
            Some(FailureKind::Interrupted)
        );
        // The stop request failing is reported as such.
        let mut f = following(Some("t1"));
        f.handle_interrupt();
        f.handle_interrupt_choice(InterruptChoice::Stop);
        let fail = Failure {
            class: FailureClass::Retryable,
            kind: FailureKind::Unreachable,
            message: "refused".into(),
        };
        assert_eq!(
            f.handle_error(fail),
            Command::Finish(Outcome::Interrupted {
                task_id: Some("t1".into()),
                after: AfterInterrupt::StopFailed
            })
        );
        // A second interrupt while asking leaves it running.
        let mut f = following(Some("t1"));
        f.handle_interrupt();
        assert_eq!(
            f.handle_interrupt(),
            Command::Finish(Outcome::Interrupted {
                task_id: Some("t1".into()),
                after: AfterInterrupt::LeftRunning
            })
        );
    }

    #[test]
    fn a_failed_execution_request_is_never_resent() {
        let mut f = proposing(config(true, true, false));
        assert_eq!(f.handle_proposal(false), Command::StartExecution);
        let timeout = Failure {
            class: FailureClass::Retryable,
            kind: FailureKind::TimedOut,
            message: "timed out".into(),
        };
        assert!(matches!(
            f.handle_error(timeout),
            Command::Finish(Outcome::Error {
                stage: Stage::Start,
                ..
            })
        ));
        assert_eq!(f.handle_proposal(false), Command::Nothing);
        assert_eq!(f.handle_confirmation(true), Command::Nothing);
    }

    #[test]
    fn a_restored_flow_resumes_without_a_second_execution_request() {
        let mut f = proposing(config(true, true, false));
        assert_eq!(f.handle_proposal(false), Command::StartExecution);
        let mut restored: CcFlow =
            serde_json::from_str(&serde_json::to_string(&f).unwrap()).unwrap();
        assert_eq!(
            restored.resume(Millis(10)),
            Command::Finish(Outcome::Interrupted {
                task_id: None,
                after: AfterInterrupt::LeftRunning
            })
        );
        let mut f = following(Some("t1"));
        assert_eq!(f.resume(Millis(10)), Command::ObserveProgress);
        assert_eq!(f.task_id(), Some("t1"));
        let mut f = proposing(config(true, false, false));
        assert_eq!(f.resume(Millis(0)), Command::RequestProposal);
        f.handle_proposal(false);
        assert_eq!(f.resume(Millis(0)), Command::AskConfirmation);
    }

    #[test]
    fn the_state_round_trips_through_json() {
        let mut f = following(Some("t1"));
        f.handle_progress(
            &busy("t1"),
            &TaskView::Status(TaskStatus::InExecution),
            Millis(1_000),
        );
        let json = serde_json::to_string(&f).unwrap();
        let back: CcFlow = serde_json::from_str(&json).unwrap();
        assert_eq!(back, f);
        assert_eq!(back.task_id(), Some("t1"));
    }

    #[test]
    fn follow_decisions() {
        let st = |s| TaskView::Status(s);
        assert_eq!(
            follow_step(&st(TaskStatus::InExecution), &busy("t1"), Some("t1")),
            FollowStep::Continue
        );
        assert_eq!(
            follow_step(&st(TaskStatus::Completed), &idle(), Some("t1")),
            FollowStep::Completed
        );
        assert_eq!(
            follow_step(&st(TaskStatus::CompletedWithError), &idle(), Some("t1")),
            FollowStep::Failed
        );
        assert_eq!(
            follow_step(&TaskView::NoId, &busy("t1"), None),
            FollowStep::Continue
        );
        assert_eq!(
            follow_step(&TaskView::NoId, &idle(), None),
            FollowStep::Completed
        );
        // Task forgotten (restart) while our execution still runs: keep following.
        assert_eq!(
            follow_step(&TaskView::Lost, &busy("t1"), Some("t1")),
            FollowStep::Continue
        );
        assert_eq!(
            follow_step(&TaskView::Lost, &idle(), Some("t1")),
            FollowStep::Unknown
        );
        assert_eq!(
            follow_step(&TaskView::Lost, &busy("other"), Some("t1")),
            FollowStep::Unknown
        );
    }

    fn rechecking(yes: bool) -> CcFlow {
        let mut cfg = config(true, yes, false);
        cfg.recheck = true;
        let mut f = proposing(cfg);
        if yes {
            assert_eq!(f.handle_proposal(false), Command::RecheckProposal);
        } else {
            assert_eq!(f.handle_proposal(false), Command::AskConfirmation);
            assert_eq!(f.handle_confirmation(true), Command::RecheckProposal);
        }
        assert!(!f.execution_requested());
        f
    }

    #[test]
    fn an_unchanged_recheck_executes() {
        let mut f = rechecking(true);
        assert_eq!(f.handle_recheck(true, vec![]), Command::StartExecution);
        assert!(f.execution_requested());
    }

    #[test]
    fn a_drifted_recheck_refuses_under_yes_and_asks_again_otherwise() {
        let mut f = rechecking(true);
        assert_eq!(
            f.handle_recheck(false, vec!["moved".into()]),
            Command::Finish(Outcome::Drifted {
                reasons: vec!["moved".into()]
            })
        );
        assert!(!f.execution_requested());
        assert_eq!(
            f.outcome().unwrap().failure_kind(),
            Some(FailureKind::Failed)
        );

        let mut f = rechecking(false);
        assert_eq!(f.handle_recheck(false, vec![]), Command::AskConfirmation);
        assert!(!f.confirmed());
        // Asked again and confirmed: checked again before anything runs.
        assert_eq!(f.handle_confirmation(true), Command::RecheckProposal);
        assert_eq!(f.handle_recheck(true, vec![]), Command::StartExecution);
    }

    #[test]
    fn a_proposal_that_keeps_changing_is_given_up() {
        let mut f = rechecking(false);
        for _ in 1..MAX_DRIFT_ROUNDS {
            assert_eq!(f.handle_recheck(false, vec![]), Command::AskConfirmation);
            assert_eq!(f.handle_confirmation(true), Command::RecheckProposal);
        }
        assert!(matches!(
            f.handle_recheck(false, vec![]),
            Command::Finish(Outcome::Drifted { .. })
        ));
        assert!(!f.execution_requested());
    }

    #[test]
    fn a_separate_follow_deadline_counts_from_the_start_of_the_execution() {
        let mut cfg = config(true, true, false);
        cfg.follow_timeout_ms = Some(u64::MAX);
        let mut f = proposing(cfg);
        assert_eq!(f.handle_proposal(false), Command::StartExecution);
        // The execution starts after most of the flow's 60 s.
        assert!(matches!(
            f.handle_execution_started(Some("t".into()), Millis(59_000)),
            Command::Wait { .. }
        ));
        // Far past the flow's timeout, still progressing: no "timed out".
        for now in [120_000u64, 3_600_000, 86_400_000] {
            assert_eq!(f.handle_wait_over(Millis(now)), Command::ObserveProgress);
            assert!(matches!(
                f.handle_progress(
                    &busy("t"),
                    &TaskView::Status(TaskStatus::InExecution),
                    Millis(now)
                ),
                Command::Wait { .. }
            ));
        }
        // A bounded follow deadline counts from the start.
        let mut cfg = config(true, true, false);
        cfg.follow_timeout_ms = Some(10_000);
        let mut f = proposing(cfg);
        assert_eq!(f.handle_proposal(false), Command::StartExecution);
        f.handle_execution_started(Some("t".into()), Millis(59_000));
        assert_eq!(f.handle_wait_over(Millis(65_000)), Command::ObserveProgress);
        assert!(matches!(
            f.handle_progress(
                &busy("t"),
                &TaskView::Status(TaskStatus::InExecution),
                Millis(65_000)
            ),
            Command::Wait { .. }
        ));
        assert_eq!(f.handle_wait_over(Millis(69_500)), Command::ObserveProgress);
        assert!(matches!(
            f.handle_progress(
                &busy("t"),
                &TaskView::Status(TaskStatus::InExecution),
                Millis(69_500)
            ),
            Command::Finish(Outcome::TimedOut { .. })
        ));
    }
}
