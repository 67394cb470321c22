//! The flow's transitions: one `handle_*` method per thing the driver reports (readiness, the
//! input check, the proposal, the confirmation, the execution request's answer, progress, an
//! error, an interrupt and its choice), each returning the next [`Command`]. An event that does
//! not fit the current phase changes nothing and yields [`Command::Nothing`].

use super::{
    AfterInterrupt, CcFlow, Command, Failure, FailureClass, FollowStep, InterruptChoice,
    MAX_DRIFT_ROUNDS, Outcome, Phase, Stage, TaskView, WaitReason, follow_step,
};
use crate::engine::model::Millis;
use crate::engine::view::{ExecutorState, MonitorState};

impl CcFlow {
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
        let _ = monitor;
        // A stop lingers in STOPPING_EXECUTION (reference section 14): the executor will be free
        // soon, so an execution waits for it (until the deadline) instead of failing as busy.
        if self.config.execute && executor.is_stopping() {
            let next = now.plus(self.config.poll_interval_ms);
            if next <= self.deadline() {
                self.phase = Phase::WaitingForReadiness;
                return Command::Wait {
                    until: next,
                    reason: WaitReason::PreviousStop,
                };
            }
        }
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
    pub(super) fn recheck_or_execute(&mut self) -> Command {
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

    pub(super) fn request_execution(&mut self) -> Command {
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

    pub(super) fn follow_or_time_out(&mut self, now: Millis) -> Command {
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
        self.saw_stopping |= executor.is_stopping();
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
