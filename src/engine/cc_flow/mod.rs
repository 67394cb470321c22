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

mod events;

use crate::engine::failure::FailureKind;
use crate::engine::model::Millis;
use crate::engine::view::{ExecutionProgress, ExecutorState, TaskStatus};

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
    /// A stopped execution is still winding down (`STOPPING_EXECUTION`, about 45 s on a real
    /// Cruise Control): the next look at the executor, before anything is asked.
    PreviousStop,
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
    /// The followed execution's executor was seen in `STOPPING_EXECUTION`: it was stopped (by
    /// a stop request, or by Cruise Control itself when moves die).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    saw_stopping: bool,
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
            saw_stopping: false,
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

    /// Whether the followed execution's executor was seen stopping (`STOPPING_EXECUTION`).
    #[must_use]
    pub fn saw_stopping(&self) -> bool {
        self.saw_stopping
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

    pub(super) fn finish(&mut self, outcome: Outcome) -> Command {
        self.phase = Phase::Done(outcome.clone());
        Command::Finish(outcome)
    }
}

#[cfg(test)]
mod tests;
