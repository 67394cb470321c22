//! The flow's guarantees on hand-written event sequences (the property tests in
//! `tests/engine/cc_flow_properties.rs` check them on random ones).

use super::*;
use crate::engine::view::MonitorState;

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
    let mut restored: CcFlow = serde_json::from_str(&serde_json::to_string(&f).unwrap()).unwrap();
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

fn stopping() -> ExecutorState {
    ExecutorState {
        state: "STOPPING_EXECUTION".into(),
        triggered_user_task_id: Some("old".into()),
        ..ExecutorState::default()
    }
}

#[test]
fn an_execution_waits_for_a_stop_that_lingers_then_runs() {
    // After a stop a real Cruise Control stays in STOPPING_EXECUTION for ~45 s (#25 point 9).
    let mut f = CcFlow::new(config(true, true, false));
    assert_eq!(f.start(Millis(0)), Command::ObserveReadiness);
    assert_eq!(
        f.handle_readiness(&ready(), &stopping(), Millis(0)),
        Command::Wait {
            until: Millis(1_000),
            reason: WaitReason::PreviousStop
        }
    );
    assert!(!f.execution_requested());
    assert_eq!(f.handle_wait_over(Millis(1_000)), Command::ObserveReadiness);
    assert!(matches!(
        f.handle_readiness(&ready(), &stopping(), Millis(1_000)),
        Command::Wait { .. }
    ));
    assert_eq!(f.handle_wait_over(Millis(2_000)), Command::ObserveReadiness);
    assert_eq!(
        f.handle_readiness(&ready(), &idle(), Millis(2_000)),
        Command::CheckInput
    );
    // Another execution that runs is still "busy", and a stop that outlasts the deadline too.
    let mut f = CcFlow::new(config(true, true, false));
    f.start(Millis(0));
    assert!(matches!(
        f.handle_readiness(&ready(), &busy("t"), Millis(0)),
        Command::Finish(Outcome::Busy { .. })
    ));
    let mut f = CcFlow::new(config(true, true, false));
    f.start(Millis(0));
    assert!(matches!(
        f.handle_readiness(&ready(), &stopping(), Millis(59_500)),
        Command::Finish(Outcome::Busy { .. })
    ));
    // A dry run never looks at the executor.
    let mut f = CcFlow::new(config(false, false, false));
    assert_eq!(f.start(Millis(0)), Command::CheckInput);
}

#[test]
fn a_followed_execution_seen_stopping_is_remembered() {
    let mut f = following(Some("t"));
    assert!(!f.saw_stopping());
    let stopping_ours = ExecutorState {
        triggered_user_task_id: Some("t".into()),
        ..stopping()
    };
    assert!(matches!(
        f.handle_progress(
            &stopping_ours,
            &TaskView::Status(TaskStatus::InExecution),
            Millis(1_000)
        ),
        Command::Wait { .. }
    ));
    assert!(f.saw_stopping());
    assert_eq!(f.handle_wait_over(Millis(2_000)), Command::ObserveProgress);
    assert_eq!(
        f.handle_progress(
            &idle(),
            &TaskView::Status(TaskStatus::CompletedWithError),
            Millis(2_000)
        ),
        Command::Finish(Outcome::Failed {
            task_id: Some("t".into())
        })
    );
    assert!(f.saw_stopping());
}
