use super::*;

#[test]
fn request_urls_tell_endpoint_dry_run_and_brokers() {
    let r = request_of("POST /kafkacruisecontrol/add_broker?brokerid=4%2C5&dryrun=false");
    assert_eq!(r.endpoint, "add_broker");
    assert!(!r.dryrun);
    assert_eq!(r.brokers, [4, 5].into_iter().collect());
    assert!(request_of("POST /kafkacruisecontrol/add_broker?brokerid=4").dryrun);
    let r = request_of("POST /kafkacruisecontrol/rebalance?DRYRUN=FALSE");
    assert_eq!((r.endpoint.as_str(), r.dryrun), ("rebalance", false));
}

fn task(id: &str, url: &str, start: i64) -> UserTask {
    UserTask {
        user_task_id: id.into(),
        request_url: url.into(),
        client_identity: String::new(),
        start_ms: Some(start),
        status: TaskStatus::InExecution,
        original_response: None,
    }
}

#[test]
fn our_task_is_the_execution_of_the_same_request_since_it_was_sent() {
    let b: BTreeSet<i32> = [4].into_iter().collect();
    let tasks = vec![
        task("old", "POST /x/add_broker?brokerid=4&dryrun=false", 1_000),
        task("dry", "POST /x/add_broker?brokerid=4", 100_000),
        task(
            "other",
            "POST /x/add_broker?brokerid=5&dryrun=false",
            100_000,
        ),
        task("ours", "POST /x/add_broker?brokerid=4&dryrun=false", 99_000),
        task(
            "rm",
            "POST /x/remove_broker?brokerid=4&dryrun=false",
            100_500,
        ),
    ];
    let found = find_our_task(&tasks, "add_broker", &b, Millis(100_000)).unwrap();
    assert_eq!(found.user_task_id, "ours");
    assert!(find_our_task(&tasks, "add_broker", &b, Millis(200_000)).is_none());
}

fn config() -> FlowConfig {
    FlowConfig {
        execute: true,
        assume_yes: true,
        no_wait: false,
        timeout_ms: 60_000,
        wait_for_ready_ms: 0,
        poll_interval_ms: 1_000,
        recheck: false,
        follow_timeout_ms: Some(u64::MAX),
    }
}

fn observation(brokers: &[(i32, u64)], topics: &[(&str, u16)]) -> Observation {
    Observation {
        now: Millis(1_000_000),
        kafka: Ok(KafkaView {
            brokers: brokers.iter().copied().collect(),
            reassignments: Vec::new(),
            topics: topics
                .iter()
                .map(|(t, rf)| {
                    (
                        (*t).to_string(),
                        TopicFacts {
                            partitions: 3,
                            min_rf: *rf,
                            max_rf: *rf,
                            min_isr: None,
                        },
                    )
                })
                .collect(),
            racks: BTreeSet::new(),
        }),
        cc: Ok(CcView {
            executor: ExecutorState {
                state: "NO_TASK_IN_PROGRESS".into(),
                ..ExecutorState::default()
            },
            anomalies: Vec::new(),
            user_tasks: None,
        }),
        operator: None,
        platform_error: None,
        other_roll: None,
        roll: None,
    }
}

#[test]
fn a_factor_not_in_force_starts_a_round_when_nothing_else_moves() {
    let mut s = OperateState::new();
    let policy = OperatePolicy {
        modes: [Mode::AddBrokers].into_iter().collect(),
        scale_up_grace_ms: 3_600_000,
        replication_factors: [("orders".to_string(), 3)].into_iter().collect(),
        ..OperatePolicy::default()
    };
    let obs = observation(&[(1, 6), (2, 6), (3, 6)], &[("orders", 2)]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepReplicationFactors], "{d:?}");
    assert_eq!(s.mover_name(), "set-rf");
}

#[test]
fn modes_absent_from_the_policy_never_start_and_drained_brokers_are_not_scale_ups() {
    let mut s = OperateState::new();
    let policy = OperatePolicy {
        modes: BTreeSet::new(),
        drain: [4].into_iter().collect(),
        scale_up_grace_ms: 0,
        ..OperatePolicy::default()
    };
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0), (5, 0)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    assert!(s.mover.is_none());
    assert!(
        d.notes.iter().any(|n| n.contains("broker 4 is drained")),
        "{d:?}"
    );
    assert!(
        d.notes
            .iter()
            .any(|n| n.contains("brokers 5 hold no replica")),
        "{d:?}"
    );
}

#[test]
fn nothing_starts_while_others_move_and_the_wait_says_why() {
    let policy = OperatePolicy {
        modes: [Mode::AddBrokers].into_iter().collect(),
        scale_up_grace_ms: 0,
        ..OperatePolicy::default()
    };
    // Reassignments someone else started (the executor is idle).
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    if let Ok(k) = &mut obs.kafka {
        k.reassignments
            .push(crate::kafka::observation::Reassignment {
                topic: "orders".into(),
                partition: 0,
                replicas: vec![1, 2],
                adding: vec![2],
                removing: vec![],
            });
    }
    let mut s = OperateState::new();
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty() && s.mover.is_none(), "{d:?}");
    assert!(
        d.waits
            .iter()
            .any(|w| w.starts_with("scale-up of brokers 3 waits")
                && w.contains("not started by Cruise Control")),
        "{d:?}"
    );
    // Anyone's execution.
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    if let Ok(cc) = &mut obs.cc {
        cc.executor.state = "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into();
        cc.executor.triggered_user_task_id = Some("theirs".into());
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty() && s.mover.is_none(), "{d:?}");
    assert!(
        d.waits
            .iter()
            .any(|w| w.contains("Cruise Control is executing") && w.contains("theirs")),
        "{d:?}"
    );
    // Free again: it starts.
    let obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
}

fn policy_add_remove(drain: &[i32]) -> OperatePolicy {
    OperatePolicy {
        modes: [Mode::AddBrokers, Mode::RemoveBrokers]
            .into_iter()
            .collect(),
        drain: drain.iter().copied().collect(),
        scale_up_grace_ms: 0,
        ..OperatePolicy::default()
    }
}

/// Drives the running flow up to its execution request (as the shell would, everything ok).
fn drive_to_start(s: &mut OperateState, now: Millis) {
    use crate::cruise_control::model::MonitorState;
    use crate::engine::cc_flow::Command;
    let mut f = s.flow().cloned().unwrap();
    let mut cmd = f.resume(now);
    for _ in 0..10 {
        cmd = match cmd {
            Command::ObserveReadiness => f.handle_readiness(
                &MonitorState::default(),
                &ExecutorState {
                    state: "NO_TASK_IN_PROGRESS".into(),
                    ..ExecutorState::default()
                },
                now,
            ),
            Command::CheckInput => f.handle_input_checked(Ok(())),
            Command::RequestProposal => f.handle_proposal(false),
            Command::StartExecution => break,
            other => panic!("unexpected {other:?}"),
        };
    }
    s.set_flow(f);
    assert!(s.about_to_execute());
    s.mark_requested(now);
}

fn busy(obs: &mut Observation, task: &str) {
    if let Ok(cc) = &mut obs.cc {
        cc.executor.state = "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into();
        cc.executor.triggered_user_task_id = Some(task.into());
    }
}

#[test]
fn a_failed_execution_request_is_looked_for_in_user_tasks_never_sent_again() {
    use crate::engine::cc_flow::{Failure, FailureClass};
    let policy = policy_add_remove(&[]);
    let mut s = OperateState::new();
    let obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    drive_to_start(&mut s, obs.now);
    // The request timed out: it may have reached Cruise Control.
    let mut f = s.flow().cloned().unwrap();
    f.handle_error(Failure {
        class: FailureClass::Retryable,
        exit: crate::error::ExitCode::Unreachable,
        message: "timed out".into(),
    });
    s.set_flow(f);
    let saved = s.clone();
    assert!(
        s.needs_user_tasks(),
        "the task is to be found in user_tasks"
    );
    // Cruise Control lists it (still computing; the executor is idle): attach, follow it.
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    obs.now = Millis(1_002_000);
    if let Ok(cc) = &mut obs.cc {
        let mut t = task(
            "t1",
            "POST /kafkacruisecontrol/add_broker?brokerid=3&dryrun=false",
            1_000_100,
        );
        t.status = TaskStatus::Active;
        cc.user_tasks = Some(vec![t]);
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert_eq!(s.flow().and_then(CcFlow::task_id), Some("t1"), "{s:?}");
    assert!(s.flow().unwrap().execution_requested());
    // Not listed while the executor runs something: wait, never a second request.
    let mut s = saved.clone();
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    busy(&mut obs, "someone");
    if let Ok(cc) = &mut obs.cc {
        cc.user_tasks = Some(Vec::new());
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    assert!(s.needs_user_tasks());
    // Not listed, executor idle: it never reached Cruise Control; counted as failed, retried.
    let mut s = saved;
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    if let Ok(cc) = &mut obs.cc {
        cc.user_tasks = Some(Vec::new());
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(
        d.records.iter().any(|r| r.result == RecordResult::Failed
            && r.reason.contains("never reached Cruise Control")),
        "{d:?}"
    );
}

#[test]
fn a_running_roll_restarts_no_node_while_others_move() {
    let policy = policy_add_remove(&[]);
    let mut s = OperateState::new();
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6)], &[]);
    obs.roll = Some(RollWish {
        nodes: [1, 2, 3].into_iter().collect(),
        reason: "config".into(),
    });
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRoll], "{d:?}");
    // Someone else's execution started meanwhile.
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6)], &[]);
    busy(&mut obs, "theirs");
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    assert!(
        d.waits
            .iter()
            .any(|w| w.starts_with("the roll of nodes 1,2,3 waits") && w.contains("theirs")),
        "{d:?}"
    );
    assert_eq!(s.mover_name(), "roll");
    // Over: the roll goes on.
    let obs = observation(&[(1, 6), (2, 6), (3, 6)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRoll], "{d:?}");
}

/// A state where a remove of broker 4 runs (task known) and an add of broker 5 is queued.
fn removing_4_with_5_queued(policy: &OperatePolicy) -> OperateState {
    let mut s = OperateState::new();
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6)], &[]);
    let d = decide(&mut s, &obs, policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    drive_to_start(&mut s, obs.now);
    let mut f = s.flow().cloned().unwrap();
    f.handle_execution_started(Some("rm".into()), obs.now);
    s.set_flow(f);
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6), (5, 0)], &[]);
    busy(&mut obs, "rm");
    let d = decide(&mut s, &obs, policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert!(
        s.rebalancer.queued().contains_key(&Mode::AddBrokers),
        "{s:?}"
    );
    s
}

/// The running rebalance's flow ended as completed (as the shell would leave it).
fn complete(s: &mut OperateState) {
    let mut f = s.flow().cloned().unwrap();
    let mut cmd = f.resume(Millis(1_001_000));
    for _ in 0..5 {
        cmd = match cmd {
            crate::engine::cc_flow::Command::ObserveProgress => f.handle_progress(
                &ExecutorState {
                    state: "NO_TASK_IN_PROGRESS".into(),
                    ..ExecutorState::default()
                },
                &crate::engine::cc_flow::TaskView::Status(TaskStatus::Completed),
                Millis(1_001_000),
            ),
            crate::engine::cc_flow::Command::Wait { until, .. } => f.handle_wait_over(until),
            _ => break,
        };
    }
    assert!(f.outcome().is_some(), "{f:?}");
    s.set_flow(f);
}

#[test]
fn the_next_queued_rebalance_waits_for_others_to_stop_moving() {
    let policy = policy_add_remove(&[4]);
    let mut s = removing_4_with_5_queued(&policy);
    complete(&mut s);
    // Ours ended, but someone else started reassignments: the queued add of 5 waits.
    let mut obs = observation(&[(1, 8), (2, 8), (3, 8), (4, 0), (5, 0)], &[]);
    if let Ok(k) = &mut obs.kafka {
        k.reassignments.push(Reassignment {
            topic: "orders".into(),
            partition: 0,
            replicas: vec![1, 2],
            adding: vec![2],
            removing: vec![],
        });
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    assert!(
        d.waits
            .iter()
            .any(|w| w.contains("add-brokers rebalance of brokers 5 waits")
                && w.contains("not started by Cruise Control")),
        "{d:?}"
    );
    // The Strimzi platform cannot be read: still waits.
    let mut obs = observation(&[(1, 8), (2, 8), (3, 8), (4, 0), (5, 0)], &[]);
    obs.platform_error = Some("forbidden".into());
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    // Free: it starts.
    let obs = observation(&[(1, 8), (2, 8), (3, 8), (4, 0), (5, 0)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert_eq!(
        s.rebalance().map(|r| r.rebalance.brokers.clone()),
        Some([5].into_iter().collect())
    );
}

#[test]
fn queued_requests_are_checked_again_when_they_start() {
    // Broker 5, queued for an add, is put on the drain list: never filled, never "safe to stop"
    // while the add is queued.
    let policy = policy_add_remove(&[4]);
    let mut s = removing_4_with_5_queued(&policy);
    let drain_5 = policy_add_remove(&[4, 5]);
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6), (5, 0)], &[]);
    busy(&mut obs, "rm");
    let d = decide(&mut s, &obs, &drain_5, &config());
    assert!(
        !d.notes.iter().any(|n| n.contains("broker 5 is drained")),
        "{d:?}"
    );
    complete(&mut s);
    let obs = observation(&[(1, 8), (2, 8), (3, 8), (4, 0), (5, 0)], &[]);
    let d = decide(&mut s, &obs, &drain_5, &config());
    assert!(
        !d.acts.contains(&Act::StepRebalance),
        "no add of a broker on the drain list: {d:?} {s:?}"
    );
    assert!(s.mover.is_none(), "{s:?}");
    let d = decide(&mut s, &obs, &drain_5, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    assert!(
        d.notes.iter().any(|n| n.contains("broker 5 is drained")),
        "{d:?}"
    );
    // Broker 3 queued for a drain, then taken off the list: not drained.
    let policy = policy_add_remove(&[3, 4]);
    let mut s = OperateState::new();
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    // Held by someone else's execution before anything was sent; 3 leaves the drain list.
    let policy = policy_add_remove(&[4]);
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6)], &[]);
    busy(&mut obs, "theirs");
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert_eq!(
        s.rebalance().map(|r| r.rebalance.brokers.clone()),
        Some([4].into_iter().collect()),
        "{d:?}"
    );
}

#[test]
fn nothing_starts_while_another_roll_holds_the_roll_lease_and_each_wish_names_it() {
    let held = "kafka-roll-abc held by alice-laptop-123, renewed 2026-11-23T12:00:00Z";
    let policy = OperatePolicy {
        modes: [Mode::AddBrokers].into_iter().collect(),
        scale_up_grace_ms: 0,
        replication_factors: [("orders".to_string(), 3)].into_iter().collect(),
        ..OperatePolicy::default()
    };
    let mut s = OperateState::new();
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[("orders", 2)]);
    obs.roll = Some(RollWish {
        nodes: [1].into_iter().collect(),
        reason: "config".into(),
    });
    obs.other_roll = Some(held.into());
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty() && s.mover.is_none(), "{d:?} {s:?}");
    for wish in [
        "scale-up of brokers 3 waits",
        "roll of nodes 1 waits",
        "replication factors of topics orders waits",
    ] {
        assert!(
            d.waits.iter().any(|w| w.starts_with(wish)
                && w.contains("another roll is in progress")
                && w.contains("alice-laptop-123")),
            "{wish}: {d:?}"
        );
    }
    // Released: the scale-up goes first.
    obs.other_roll = None;
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
}

#[test]
fn an_unsent_rebalance_waits_for_another_roll_but_a_sent_one_goes_on() {
    let held = "kafka-roll-abc held by alice";
    let policy = policy_add_remove(&[]);
    let mut s = OperateState::new();
    let obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    // Someone's roll took the lease before our request was sent: it is not sent.
    let mut held_obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    held_obs.other_roll = Some(held.into());
    let d = decide(&mut s, &held_obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    assert!(
        d.waits.iter().any(|w| w.contains("add-brokers rebalance")
            && w.contains("another roll is in progress (kafka-roll-abc held by alice)")),
        "{d:?}"
    );
    // Sent before the roll began: ours is followed, not stopped.
    drive_to_start(&mut s, obs.now);
    let mut f = s.flow().cloned().unwrap();
    f.handle_execution_started(Some("ours".into()), obs.now);
    s.set_flow(f);
    busy(&mut held_obs, "ours");
    let d = decide(&mut s, &held_obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
}
