//! Property tests of the Cruise Control execution flow (`kafkaops::engine::cc_flow`).
//!
//! Two kinds of runs. Random event sequences, fitting the current phase or not (late answers,
//! duplicates, interrupts anywhere): the safety invariants hold after every event (never an
//! execution without a confirmation unless `--yes`, never a second execution request, a
//! started task's id never lost, an interrupt after the execution request always ends in
//! stop-or-leave naming the task, nothing changes after the end). And a well-behaved driver
//! answering each command with random but valid answers, saving and restoring the state after
//! every step as `operate` will, and once losing the answer to a command and resuming from the
//! saved state (`CcFlow::resume`): every run ends with an outcome within a bounded number of
//! steps, and the invariants hold on the way (a resumed flow never sends a second execution
//! request).
//!
//! Default: 256 cases per property; `PROPTEST_CASES=5000` for a heavier run.

use kafkaops::engine::cc_flow::{
    AfterInterrupt, CcFlow, Command, Failure, FailureClass, FlowConfig, InterruptChoice, Outcome,
    TaskView,
};
use kafkaops::engine::failure::FailureKind;
use kafkaops::engine::model::Millis;
use kafkaops::engine::view::{ExecutorState, MonitorState, TaskStatus};
use kafkaops::error::ExitCode;
use kafkaops::error_codes::OutcomeExitCode;
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

fn monitor(ready: bool) -> MonitorState {
    MonitorState {
        state: "RUNNING".into(),
        num_monitored_windows: Some(i64::from(ready)),
        num_valid_partitions: Some(10),
        ..MonitorState::default()
    }
}

fn executor(busy: bool, running: Option<u8>) -> ExecutorState {
    if !busy {
        return ExecutorState {
            state: "NO_TASK_IN_PROGRESS".into(),
            ..ExecutorState::default()
        };
    }
    ExecutorState {
        state: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into(),
        triggered_user_task_id: running.map(task),
        num_total_partition_movements: 10,
        num_finished_partition_movements: 3,
        ..ExecutorState::default()
    }
}

fn task(n: u8) -> String {
    format!("task-{n}")
}

#[derive(Debug, Clone, Copy)]
enum TaskKind {
    NoId,
    Lost,
    Active,
    InExecution,
    Completed,
    CompletedWithError,
}

fn task_view(k: TaskKind) -> TaskView {
    match k {
        TaskKind::NoId => TaskView::NoId,
        TaskKind::Lost => TaskView::Lost,
        TaskKind::Active => TaskView::Status(TaskStatus::Active),
        TaskKind::InExecution => TaskView::Status(TaskStatus::InExecution),
        TaskKind::Completed => TaskView::Status(TaskStatus::Completed),
        TaskKind::CompletedWithError => TaskView::Status(TaskStatus::CompletedWithError),
    }
}

fn any_task_kind() -> impl Strategy<Value = TaskKind> {
    prop_oneof![
        Just(TaskKind::NoId),
        Just(TaskKind::Lost),
        Just(TaskKind::Active),
        Just(TaskKind::InExecution),
        Just(TaskKind::Completed),
        Just(TaskKind::CompletedWithError),
    ]
}

fn failure(class: FailureClass) -> Failure {
    Failure {
        class,
        kind: match class {
            FailureClass::NoOp => FailureKind::NoOp,
            FailureClass::Retryable => FailureKind::Unreachable,
            FailureClass::Permanent => FailureKind::Failed,
        },
        message: "boom".into(),
    }
}

fn any_class() -> impl Strategy<Value = FailureClass> {
    prop_oneof![
        Just(FailureClass::NoOp),
        Just(FailureClass::Retryable),
        Just(FailureClass::Permanent),
    ]
}

/// Anything a driver could feed, whether it fits the phase or not.
#[derive(Debug, Clone)]
enum Ev {
    Start,
    Readiness {
        ready: bool,
        busy: bool,
    },
    InputChecked(bool),
    Proposal {
        noop: bool,
    },
    Confirmation(bool),
    /// The re-check before the execution: within the tolerance or not.
    Recheck(bool),
    ExecutionStarted(Option<u8>),
    WaitOver,
    Progress {
        busy: bool,
        running: Option<u8>,
        task: TaskKind,
    },
    Error(FailureClass),
    Interrupt,
    Choice(bool),
    StopAnswered(bool),
    Advance(u16),
    /// The state was saved and restored (a crash between a command and its answer).
    Resume,
}

fn any_event() -> impl Strategy<Value = Ev> {
    prop_oneof![
        Just(Ev::Start),
        (any::<bool>(), any::<bool>()).prop_map(|(ready, busy)| Ev::Readiness { ready, busy }),
        any::<bool>().prop_map(Ev::InputChecked),
        any::<bool>().prop_map(|noop| Ev::Proposal { noop }),
        any::<bool>().prop_map(Ev::Confirmation),
        any::<bool>().prop_map(Ev::Recheck),
        proptest::option::of(0u8..3).prop_map(Ev::ExecutionStarted),
        Just(Ev::WaitOver),
        (any::<bool>(), proptest::option::of(0u8..3), any_task_kind()).prop_map(
            |(busy, running, task)| Ev::Progress {
                busy,
                running,
                task
            }
        ),
        any_class().prop_map(Ev::Error),
        Just(Ev::Interrupt),
        any::<bool>().prop_map(Ev::Choice),
        any::<bool>().prop_map(Ev::StopAnswered),
        (0u16..5000).prop_map(Ev::Advance),
        Just(Ev::Resume),
    ]
}

fn any_config() -> impl Strategy<Value = FlowConfig> {
    (
        prop_oneof![4 => Just(true), 1 => Just(false)],
        any::<bool>(),
        any::<bool>(),
        1_000u64..20_000,
        0u64..5_000,
        100u64..2_000,
        any::<bool>(),
        proptest::option::of(1_000u64..30_000),
    )
        .prop_map(
            |(
                execute,
                assume_yes,
                no_wait,
                timeout_ms,
                wait_for_ready_ms,
                poll_interval_ms,
                recheck,
                follow_timeout_ms,
            )| {
                FlowConfig {
                    execute,
                    assume_yes,
                    no_wait,
                    timeout_ms,
                    wait_for_ready_ms,
                    poll_interval_ms,
                    recheck,
                    follow_timeout_ms,
                }
            },
        )
}

/// One step of a random run: a valid answer to the pending command (picked by the byte) or any
/// event at all.
#[derive(Debug, Clone)]
enum Step {
    Answer(u8),
    Random(Ev),
}

/// What the invariant checker remembers about a run.
#[derive(Debug, Default)]
struct Watch {
    /// The last command the flow issued (what the driver would be doing).
    pending: Option<Command>,
    /// The operator said yes to an [`Command::AskConfirmation`].
    operator_confirmed: bool,
    /// The last re-check answered "within the tolerance" (and nothing was asked since).
    recheck_passed: bool,
    execution_requests: u32,
    /// The task id the flow accepted from the execution's start.
    started_task: Option<String>,
    /// An interrupt was accepted after the execution request.
    interrupted_while_running: bool,
    outcome: Option<Outcome>,
}

impl Watch {
    /// Checks one step: `cmd` was the flow's answer to `ev`.
    fn step(&mut self, flow: &CcFlow, ev: &Ev, cmd: &Command) -> Result<(), TestCaseError> {
        let config = flow.config();
        if let (Some(Command::AskConfirmation), Ev::Confirmation(true)) = (&self.pending, ev) {
            self.operator_confirmed = true;
        }
        match (&self.pending, ev) {
            (Some(Command::RecheckProposal), Ev::Recheck(within)) => self.recheck_passed = *within,
            (Some(Command::AskConfirmation), Ev::Confirmation(_)) => self.recheck_passed = false,
            _ => {}
        }
        if let Some(done) = &self.outcome {
            if matches!(ev, Ev::Resume) {
                prop_assert_eq!(cmd, &Command::Finish(done.clone()));
            } else {
                prop_assert_eq!(
                    cmd,
                    &Command::Nothing,
                    "an event after the end changed something"
                );
            }
            prop_assert_eq!(flow.outcome(), Some(done));
            return Ok(());
        }
        if *cmd == Command::StartExecution {
            self.execution_requests += 1;
            prop_assert!(config.execute, "an execution without --execute");
            prop_assert!(
                config.assume_yes || self.operator_confirmed,
                "an execution without a confirmation"
            );
            prop_assert!(
                !config.recheck || self.recheck_passed,
                "an execution without a matching re-check of the proposal"
            );
        }
        prop_assert!(self.execution_requests <= 1, "a second execution request");
        if let (Ev::ExecutionStarted(Some(n)), Some(Command::StartExecution)) = (ev, &self.pending)
            && self.started_task.is_none()
        {
            self.started_task = Some(task(*n));
        }
        if let Some(t) = &self.started_task {
            prop_assert_eq!(flow.task_id(), Some(t.as_str()), "the task id was lost");
        }
        if let Command::AskStopOrLeave { task_id } = cmd {
            prop_assert!(flow.execution_requested());
            prop_assert_eq!(task_id.as_deref(), flow.task_id());
            self.interrupted_while_running = true;
        }
        if let Command::Finish(outcome) = cmd {
            prop_assert_eq!(flow.outcome(), Some(outcome));
            if let Some(t) = &self.started_task {
                prop_assert_eq!(
                    outcome.task_id(),
                    Some(t.as_str()),
                    "the outcome {:?} does not name the task",
                    outcome
                );
            }
            if self.interrupted_while_running {
                let Outcome::Interrupted { after, task_id } = outcome else {
                    return Err(TestCaseError::fail(format!(
                        "an interrupt after the execution request ended in {outcome:?}"
                    )));
                };
                prop_assert!(matches!(
                    after,
                    AfterInterrupt::LeftRunning
                        | AfterInterrupt::StopRequested
                        | AfterInterrupt::StopFailed
                ));
                prop_assert_eq!(task_id.as_deref(), flow.task_id());
                prop_assert_eq!(outcome.exit_code(), ExitCode::Interrupted);
            }
            if matches!(
                outcome,
                Outcome::Interrupted {
                    after: AfterInterrupt::NothingStarted,
                    ..
                }
            ) {
                prop_assert!(!flow.execution_requested());
            }
            if matches!(
                outcome,
                Outcome::Started { .. }
                    | Outcome::Completed { .. }
                    | Outcome::Failed { .. }
                    | Outcome::TaskLost { .. }
                    | Outcome::TimedOut { .. }
            ) {
                prop_assert_eq!(self.execution_requests, 1);
            }
            if matches!(
                outcome,
                Outcome::Proposed
                    | Outcome::NotReady { .. }
                    | Outcome::Rejected { .. }
                    | Outcome::Drifted { .. }
            ) {
                prop_assert_eq!(self.execution_requests, 0);
            }
            self.outcome = Some(outcome.clone());
        }
        if *cmd != Command::Nothing {
            self.pending = Some(cmd.clone());
        }
        Ok(())
    }
}

fn apply(flow: &mut CcFlow, ev: &Ev, now: &mut Millis) -> Command {
    match ev {
        Ev::Start => flow.start(*now),
        Ev::Readiness { ready, busy } => {
            flow.handle_readiness(&monitor(*ready), &executor(*busy, Some(9)), *now)
        }
        Ev::InputChecked(ok) => flow.handle_input_checked(if *ok {
            Ok(())
        } else {
            Err("unknown broker".into())
        }),
        Ev::Proposal { noop } => flow.handle_proposal(*noop),
        Ev::Confirmation(yes) => flow.handle_confirmation(*yes),
        Ev::Recheck(within) => flow.handle_recheck(*within, vec!["changed".into()]),
        Ev::ExecutionStarted(t) => flow.handle_execution_started(t.map(task), *now),
        Ev::WaitOver => flow.handle_wait_over(*now),
        Ev::Progress {
            busy,
            running,
            task: k,
        } => flow.handle_progress(&executor(*busy, *running), &task_view(*k), *now),
        Ev::Error(class) => flow.handle_error(failure(*class)),
        Ev::Interrupt => flow.handle_interrupt(),
        Ev::Choice(stop) => flow.handle_interrupt_choice(if *stop {
            InterruptChoice::Stop
        } else {
            InterruptChoice::LeaveRunning
        }),
        Ev::StopAnswered(ok) => flow.handle_stop_answered(*ok),
        Ev::Advance(ms) => {
            *now = now.plus(u64::from(*ms));
            Command::Nothing
        }
        Ev::Resume => {
            *flow = serde_json::from_str(&serde_json::to_string(&*flow).unwrap()).unwrap();
            flow.resume(*now)
        }
    }
}

/// A valid answer to `cmd`, picked by `choice` (a random byte), as a driver would feed it:
/// mostly the answer that moves the flow on, so that random runs reach the execution.
fn answer(cmd: &Command, choice: u8, now: Millis) -> (Ev, Millis) {
    let ev = match cmd {
        Command::ObserveReadiness => Ev::Readiness {
            ready: !choice.is_multiple_of(8),
            busy: choice % 16 == 1,
        },
        Command::CheckInput => Ev::InputChecked(choice % 16 != 2),
        Command::RequestProposal => match choice % 16 {
            3 => Ev::Error(FailureClass::Permanent),
            4 => Ev::Error(FailureClass::NoOp),
            5 => Ev::Proposal { noop: true },
            _ => Ev::Proposal { noop: false },
        },
        Command::AskConfirmation => Ev::Confirmation(choice % 8 != 6),
        Command::RecheckProposal => match choice % 16 {
            3 => Ev::Error(FailureClass::Permanent),
            1 | 5 => Ev::Recheck(false),
            _ => Ev::Recheck(true),
        },
        Command::StartExecution => match choice % 16 {
            7 => Ev::Error(FailureClass::Retryable),
            8 => Ev::ExecutionStarted(None),
            _ => Ev::ExecutionStarted(Some(choice % 3)),
        },
        Command::ObserveProgress => match choice % 16 {
            9 => Ev::Error(FailureClass::Retryable),
            10 => Ev::Progress {
                busy: false,
                running: None,
                task: TaskKind::Completed,
            },
            11 => Ev::Progress {
                busy: false,
                running: None,
                task: TaskKind::CompletedWithError,
            },
            12 => Ev::Progress {
                busy: choice.is_multiple_of(2),
                running: Some(choice % 3),
                task: TaskKind::Lost,
            },
            13 => Ev::Progress {
                busy: false,
                running: None,
                task: TaskKind::NoId,
            },
            _ => Ev::Progress {
                busy: true,
                running: Some(choice % 3),
                task: TaskKind::InExecution,
            },
        },
        Command::Wait { until, .. } => {
            return (Ev::WaitOver, (*until).max(now));
        }
        Command::AskStopOrLeave { .. } => Ev::Choice(choice.is_multiple_of(2)),
        Command::StopExecution { .. } => match choice % 4 {
            2 => Ev::Error(FailureClass::Retryable),
            3 => Ev::StopAnswered(false),
            _ => Ev::StopAnswered(true),
        },
        Command::Nothing | Command::Finish(_) => Ev::Interrupt,
    };
    (ev, now)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        ..ProptestConfig::default()
    })]

    /// Any event sequence, fitting or not (mostly valid answers, so that runs get deep; some
    /// random events: late, duplicate or out-of-order answers, interrupts anywhere): the safety
    /// invariants hold after every event.
    #[test]
    fn random_events_never_break_the_invariants(
        config in any_config(),
        steps in proptest::collection::vec(
            prop_oneof![
                3 => any::<u8>().prop_map(Step::Answer),
                1 => any_event().prop_map(Step::Random),
            ],
            0..80,
        ),
    ) {
        let mut flow = CcFlow::new(config);
        let mut now = Millis(0);
        let mut watch = Watch::default();
        let mut pending = Command::Nothing;
        for step in &steps {
            let ev = match step {
                Step::Random(ev) => ev.clone(),
                Step::Answer(_) if pending == Command::Nothing => Ev::Start,
                Step::Answer(choice) => {
                    let (ev, at) = answer(&pending, *choice, now);
                    now = at;
                    ev
                }
            };
            let cmd = apply(&mut flow, &ev, &mut now);
            watch.step(&flow, &ev, &cmd)?;
            if cmd != Command::Nothing {
                pending = cmd;
            }
        }
    }

    /// A driver answering each command validly (with interrupts at random moments), saving and
    /// restoring the state after every step: every run ends with an outcome, in bounded steps.
    #[test]
    fn every_driven_run_terminates_with_an_outcome(
        config in any_config(),
        choices in proptest::collection::vec(any::<u8>(), 0..200),
        interrupt_at in proptest::option::of(0usize..30),
        restore_at in proptest::option::of(0usize..30),
        step_ms in 1u64..400,
    ) {
        let mut flow = CcFlow::new(config);
        let mut now = Millis(0);
        let mut watch = Watch::default();
        let mut cmd = flow.start(now);
        watch.step(&flow, &Ev::Start, &cmd)?;
        let mut steps = 0usize;
        while !matches!(cmd, Command::Finish(_)) {
            prop_assert!(steps < 2_000, "no outcome after {} steps: {:?}", steps, flow);
            prop_assert_ne!(&cmd, &Command::Nothing, "the flow stalled in {:?}", flow.phase());
            // What `operate` does between steps: persist, and carry on from what was saved.
            let saved = serde_json::to_string(&flow).unwrap();
            let restored: CcFlow = serde_json::from_str(&saved).unwrap();
            prop_assert_eq!(&restored, &flow);
            flow = restored;
            let ev = if Some(steps) == interrupt_at {
                Ev::Interrupt
            } else if Some(steps) == restore_at {
                // The answer to `cmd` is lost: carry on from the saved state.
                Ev::Resume
            } else {
                // Past the random choices: ready, confirmed, running until the deadline.
                let choice = choices.get(steps).copied().unwrap_or(7);
                let (ev, at) = answer(&cmd, choice, now);
                now = at;
                ev
            };
            now = now.plus(step_ms);
            let next = apply(&mut flow, &ev, &mut now);
            watch.step(&flow, &ev, &next)?;
            if next != Command::Nothing {
                cmd = next;
            }
            steps += 1;
        }
        let Command::Finish(outcome) = &cmd else { unreachable!() };
        prop_assert_eq!(flow.outcome(), Some(outcome));
        if !flow.config().execute {
            prop_assert!(!flow.execution_requested());
        }
    }
}
