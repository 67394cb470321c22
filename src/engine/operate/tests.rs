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
    // Cruise Control lists values decoded, spaces and all, in any order.
    let r = request_of(
        "POST /kafkacruisecontrol/remove_broker?reason=kafkaops operate: remove-brokers brokers 4 [9-2]&brokerid=4,5&json=true&dryrun=false",
    );
    assert_eq!(r.endpoint, "remove_broker");
    assert!(!r.dryrun);
    assert_eq!(r.brokers, [4, 5].into_iter().collect());
    assert!(r.params.contains(&(
        "reason".into(),
        "kafkaops operate: remove-brokers brokers 4 [9-2]".into()
    )));
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
    // A state saved before the parameters were kept: the old rule (brokers, start time).
    let found = find_our_task(&tasks, "add_broker", None, &b, Millis(100_000)).unwrap();
    assert_eq!(found.user_task_id, "ours");
    assert!(find_our_task(&tasks, "add_broker", None, &b, Millis(200_000)).is_none());
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
            held: BTreeMap::new(),
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
        k.reassignments.push(crate::engine::view::Reassignment {
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
    use crate::engine::cc_flow::Command;
    use crate::engine::view::MonitorState;
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
    let sent = sent_params(s);
    s.mark_requested(now, Some(sent));
}

/// The parameters the shell sends for the running mover's execution (as `act.rs` builds them:
/// endpoint parameters, `dryrun=false`, the reason with the mover's tag).
fn sent_params(s: &OperateState) -> RequestParams {
    let mut q: RequestParams = Vec::new();
    if let Some(r) = s.rebalance() {
        if !r.rebalance.brokers.is_empty() {
            q.push(("brokerid".into(), ids(&r.rebalance.brokers)));
        }
        if let Some(d) = &r.destinations {
            q.push(("destination_broker_ids".into(), ids(d)));
        }
    }
    q.push(("dryrun".into(), "false".into()));
    q.push((
        "reason".into(),
        format!("kafkaops operate: test [{}]", s.request_tag()),
    ));
    q
}

/// How Cruise Control lists a request with these parameters (values decoded, any order).
fn listed(endpoint: &str, q: &RequestParams) -> String {
    let mut q = q.clone();
    q.reverse();
    q.push(("json".into(), "true".into()));
    format!(
        "POST /kafkacruisecontrol/{endpoint}?{}",
        q.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
    )
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
        kind: crate::engine::failure::FailureKind::Unreachable,
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
    let sent = saved.rebalance().and_then(|r| r.request.clone()).unwrap();
    if let Ok(cc) = &mut obs.cc {
        let mut t = task("t1", &listed("add_broker", &sent), 1_000_100);
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

/// Whether the decision calls broker `b` safe to stop.
fn says_safe(d: &Decision, b: i32) -> bool {
    d.notes
        .iter()
        .any(|n| n.contains(&format!("broker {b} is drained")) && n.contains("safe to stop"))
}

#[test]
fn safe_to_stop_while_a_reassignment_in_flight_adds_a_replica_to_the_broker() {
    // Broker 4 is on the drain list and holds no replica by count, but the same observation
    // lists a reassignment (anyone's) adding a replica to it.
    let policy = policy_add_remove(&[4]);
    let mut s = OperateState::new();
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[]);
    if let Ok(k) = &mut obs.kafka {
        k.reassignments.push(Reassignment {
            topic: "orders".into(),
            partition: 0,
            replicas: vec![1, 2, 4],
            adding: vec![4],
            removing: vec![3],
        });
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(!says_safe(&d, 4), "{d:?}");
    assert!(
        d.notes
            .iter()
            .any(|n| n.contains("broker 4") && n.contains("not safe to stop")),
        "{d:?}"
    );
    // The reassignment is over and the broker still holds nothing: now it is.
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(says_safe(&d, 4), "{d:?}");
}

/// A state whose imbalance rebalance (our own full rebalance) is executing.
fn imbalance_running(policy: &OperatePolicy, obs: &Observation) -> OperateState {
    use crate::engine::anomalies::AnomalyType;
    let mut s = OperateState::new();
    let mut first = obs.clone();
    if let Ok(cc) = &mut first.cc {
        cc.anomalies = vec![AnomalyRecord {
            kind: AnomalyType::GoalViolation,
            anomaly_id: "gv-1".into(),
            status: "DETECTED".into(),
            detected_at_ms: Some(999_000),
            status_updated_at_ms: Some(999_000),
            fixable_goals: vec!["ReplicaDistributionGoal".into()],
            unfixable_goals: Vec::new(),
            failed_brokers: BTreeMap::new(),
            failed_disks: BTreeMap::new(),
            description: None,
        }];
    }
    let d = decide(&mut s, &first, policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert_eq!(
        s.rebalance().map(|r| r.rebalance.mode),
        Some(Mode::Imbalance)
    );
    drive_to_start(&mut s, first.now);
    let mut f = s.flow().cloned().unwrap();
    f.handle_execution_started(Some("full".into()), first.now);
    s.set_flow(f);
    s
}

#[test]
fn safe_to_stop_on_every_loop_while_our_own_mover_may_fill_it() {
    let policy = OperatePolicy {
        modes: [Mode::RemoveBrokers, Mode::Imbalance].into_iter().collect(),
        drain: [4].into_iter().collect(),
        scale_up_grace_ms: 0,
        replication_factors: [("orders".to_string(), 3)].into_iter().collect(),
    };
    // (a) Our full rebalance was sent before broker 4 went on the drain list: nothing
    // excludes it, so Cruise Control may place replicas on it while it runs.
    let no_drain = OperatePolicy {
        drain: BTreeSet::new(),
        ..policy.clone()
    };
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[("orders", 3)]);
    let mut s = imbalance_running(&no_drain, &obs);
    let mut running = obs.clone();
    busy(&mut running, "full");
    for _ in 0..3 {
        let d = decide(&mut s, &running, &policy, &config());
        assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
        assert!(!says_safe(&d, 4), "{d:?}");
    }
    // (b) A replication-factor round runs: topic_configuration cannot be told to keep new
    // replicas off broker 4.
    let mut s = OperateState::new();
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[("orders", 2)]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepReplicationFactors], "{d:?}");
    assert!(!says_safe(&d, 4), "{d:?}");
    drive_to_start(&mut s, obs.now);
    let mut f = s.flow().cloned().unwrap();
    f.handle_execution_started(Some("rf".into()), obs.now);
    s.set_flow(f);
    let mut running = obs.clone();
    busy(&mut running, "rf");
    for _ in 0..3 {
        let d = decide(&mut s, &running, &policy, &config());
        assert_eq!(d.acts, vec![Act::StepReplicationFactors], "{d:?}");
        assert!(!says_safe(&d, 4), "{d:?}");
    }
}

#[test]
fn our_task_is_found_by_its_parameters_whatever_the_clocks_say() {
    let policy = policy_add_remove(&[]);
    let mut s = OperateState::new();
    let obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    drive_to_start(&mut s, obs.now);
    // Saved with the request in flight; the leader restarts (no answer was saved).
    let saved = s.clone();
    let sent = saved.rebalance().and_then(|r| r.request.clone()).unwrap();
    assert!(
        sent.iter()
            .any(|(k, v)| k == "reason" && v.contains(saved.request_tag())),
        "{sent:?}"
    );
    // Cruise Control's clock is 10 minutes behind: its task started "before" the request.
    // Listed next to an older identical-looking request and one of someone else.
    let skew = 600_000;
    let requested = obs.now.0;
    let start = |behind: u64| i64::try_from(requested - behind).unwrap();
    let mut ours = task("ours", &listed("add_broker", &sent), start(skew));
    ours.status = TaskStatus::InExecution;
    let mut older = sent.clone();
    for (k, v) in &mut older {
        if k == "reason" {
            *v = "kafkaops operate: test [1-1]".into();
        }
    }
    let tasks = vec![
        task("older", &listed("add_broker", &older), start(skew + 1)),
        task(
            "theirs",
            "POST /kafkacruisecontrol/add_broker?brokerid=3&dryrun=false&json=true",
            start(skew),
        ),
        ours,
    ];
    // The old rule (5 s of skew) misses it.
    let b: BTreeSet<i32> = [3].into_iter().collect();
    assert!(find_our_task(&tasks, "add_broker", None, &b, Millis(requested)).is_none());
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    obs.now = Millis(requested + 2_000);
    busy(&mut obs, "ours");
    if let Ok(cc) = &mut obs.cc {
        cc.user_tasks = Some(tasks.clone());
    }
    let mut s = saved.clone();
    assert!(s.needs_user_tasks());
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert_eq!(s.flow().and_then(CcFlow::task_id), Some("ours"), "{d:?}");
    // Listed as sent (encoded) by the test double: the same task.
    let encoded = listed("add_broker", &sent)
        .replace("kafkaops operate: test", "kafkaops+operate%3A+test")
        .replace('[', "%5B")
        .replace(']', "%5D");
    let t = task("enc", &encoded, start(skew));
    assert_eq!(
        find_our_task(&[t], "add_broker", Some(&sent), &b, Millis(requested))
            .map(|t| t.user_task_id.as_str()),
        Some("enc")
    );
    // Only someone else's request is listed, the executor idle: never reached Cruise Control
    // (counted as failed, retried later), not "attached" to theirs.
    let mut s = saved;
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    if let Ok(cc) = &mut obs.cc {
        cc.user_tasks = Some(vec![tasks[0].clone(), tasks[1].clone()]);
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(
        d.records
            .iter()
            .any(|r| r.result == RecordResult::Failed && r.reason.contains("never reached")),
        "{d:?}"
    );
}

#[test]
fn a_full_rebalance_is_matched_on_its_whole_parameter_set() {
    let sent: RequestParams = vec![
        ("dryrun".into(), "false".into()),
        (
            "goals".into(),
            "RackAwareGoal,ReplicaDistributionGoal".into(),
        ),
        ("excluded_topics".into(), "__.+".into()),
        ("destination_broker_ids".into(), "1,2,3".into()),
        (
            "reason".into(),
            "kafkaops operate: imbalance cluster [5-1]".into(),
        ),
    ];
    let b = BTreeSet::new();
    let url = |q: &RequestParams| listed("rebalance", q);
    let mut other_goals = sent.clone();
    other_goals[1].1 = "RackAwareGoal".into();
    let mut fewer = sent.clone();
    fewer.remove(3);
    let mut more = sent.clone();
    more.push(("replication_throttle".into(), "1000".into()));
    let tasks = vec![
        task(
            "any-after",
            "POST /kafkacruisecontrol/rebalance?dryrun=false&json=true",
            9_000_000,
        ),
        task("goals", &url(&other_goals), 9_000_000),
        task("fewer", &url(&fewer), 9_000_000),
        task("more", &url(&more), 9_000_000),
    ];
    assert!(find_our_task(&tasks, "rebalance", Some(&sent), &b, Millis(1_000)).is_none());
    let mut with_ours = tasks.clone();
    with_ours.push(task("ours", &url(&sent), 1));
    assert_eq!(
        find_our_task(&with_ours, "rebalance", Some(&sent), &b, Millis(1_000))
            .map(|t| t.user_task_id.as_str()),
        Some("ours")
    );
    // A dry run of the same parameters is not it.
    let mut dry = sent.clone();
    dry[0].1 = "true".into();
    let t = task("dry", &url(&dry), 1);
    assert!(find_our_task(&[t], "rebalance", Some(&sent), &b, Millis(0)).is_none());
}

#[test]
fn requests_sent_while_brokers_are_drained_keep_replicas_off_them() {
    // Broker 4 is drained (empty); an imbalance rebalance starts: its request names the other
    // brokers as the only destinations, so broker 4 stays safe to stop while it runs.
    let policy = OperatePolicy {
        modes: [Mode::RemoveBrokers, Mode::Imbalance].into_iter().collect(),
        drain: [4].into_iter().collect(),
        scale_up_grace_ms: 0,
        ..OperatePolicy::default()
    };
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[]);
    let mut s = imbalance_running(&policy, &obs);
    let r = s.rebalance().unwrap();
    assert_eq!(r.destinations, Some([1, 2, 3].into_iter().collect()));
    assert!(!r.may_fill(4) && r.may_fill(1));
    assert!(
        r.request
            .as_ref()
            .unwrap()
            .iter()
            .any(|(k, v)| k == "destination_broker_ids" && v == "1,2,3")
    );
    let mut running = obs.clone();
    busy(&mut running, "full");
    let d = decide(&mut s, &running, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert!(says_safe(&d, 4) && d.safe_to_stop.contains(&4), "{d:?}");
    // Someone else's execution, though, may fill it.
    let mut s = OperateState::new();
    let mut theirs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[]);
    busy(&mut theirs, "theirs");
    let d = decide(&mut s, &theirs, &policy, &config());
    assert!(!says_safe(&d, 4) && d.safe_to_stop.is_empty(), "{d:?}");
    // Cruise Control cannot be read: nobody can tell.
    let mut down = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[]);
    down.cc = Err("refused".into());
    let d = decide(&mut s, &down, &policy, &config());
    assert!(d.safe_to_stop.is_empty(), "{d:?}");
    // A removal of broker 3 while 4 is drained: only 1 and 2 may receive its replicas.
    let mut s = OperateState::new();
    let policy = OperatePolicy {
        drain: [3, 4].into_iter().collect(),
        ..policy
    };
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    let r = s.rebalance().unwrap();
    assert_eq!(r.rebalance.brokers, [3].into_iter().collect());
    assert_eq!(r.destinations, Some([1, 2].into_iter().collect()));
    assert!(d.safe_to_stop.contains(&4), "{d:?}");
    // A drain with no other broker on the list needs no restriction.
    let mut s = OperateState::new();
    let policy = OperatePolicy {
        drain: [3].into_iter().collect(),
        ..policy
    };
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert_eq!(s.rebalance().unwrap().destinations, None);
}

#[test]
fn a_drained_broker_missing_from_the_observation_is_still_no_destination() {
    // Found by the soak (benches/soak.sh): broker 5 on the drain list was killed and not listed
    // again yet when an imbalance rebalance was prepared; its request went out without
    // destination_broker_ids, and Cruise Control, which saw broker 5 back by then, could fill it.
    let policy = OperatePolicy {
        modes: [Mode::RemoveBrokers, Mode::Imbalance].into_iter().collect(),
        drain: [5].into_iter().collect(),
        scale_up_grace_ms: 0,
        ..OperatePolicy::default()
    };
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6)], &[]);
    let s = imbalance_running(&policy, &obs);
    let r = s.rebalance().unwrap();
    assert_eq!(r.destinations, Some([1, 2, 3, 4].into_iter().collect()));
    assert!(!r.may_fill(5));
    assert!(
        r.request
            .as_ref()
            .unwrap()
            .iter()
            .any(|(k, v)| k == "destination_broker_ids" && v == "1,2,3,4"),
        "{:?}",
        r.request
    );
    // A removal of broker 4 while drained broker 5 is missing: only 1, 2 and 3 may receive.
    let policy = OperatePolicy {
        drain: [4, 5].into_iter().collect(),
        ..policy
    };
    let mut s = OperateState::new();
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    let r = s.rebalance().unwrap();
    assert_eq!(r.rebalance.brokers, [4].into_iter().collect());
    assert_eq!(r.destinations, Some([1, 2, 3].into_iter().collect()));
}

#[test]
fn a_drain_set_that_leaves_too_few_brokers_drains_nothing() {
    // Every broker (the policy's drain plus the node pool's scale-down, merged by the shell).
    let policy = policy_add_remove(&[1, 2, 3]);
    let mut s = OperateState::new();
    let obs = observation(&[(1, 6), (2, 6), (3, 0)], &[("orders", 2)]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty() && s.mover.is_none(), "{d:?}");
    assert!(d.safe_to_stop.is_empty(), "{d:?}");
    assert!(
        d.waits
            .iter()
            .any(|w| w.contains("draining brokers 1,2,3 is refused") && w.contains("no broker")),
        "{d:?}"
    );
    // Two of four brokers, topics of three replicas.
    let policy = policy_add_remove(&[3, 4]);
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[("orders", 3)]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty() && s.mover.is_none(), "{d:?}");
    assert!(d.safe_to_stop.is_empty(), "{d:?}");
    assert!(
        d.waits
            .iter()
            .any(|w| w.contains("draining brokers 3,4 is refused")
                && w.contains("fewer than the 3 replicas")
                && w.contains("orders")),
        "{d:?}"
    );
    // Nor a factor the policy asks for.
    let policy = OperatePolicy {
        replication_factors: [("orders".to_string(), 3)].into_iter().collect(),
        ..policy_add_remove(&[3, 4])
    };
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[("orders", 2)]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(s.rebalance().is_none(), "{d:?} {s:?}");
    assert!(d.waits.iter().any(|w| w.contains("is to get")), "{d:?}");
    // One of four, topics of three: drained.
    let policy = policy_add_remove(&[4]);
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6)], &[("orders", 3)]);
    let mut s = OperateState::new();
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    // A removal queued before the drain set grew is not started.
    let policy = policy_add_remove(&[3, 4]);
    let mut busy_obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6)], &[("orders", 3)]);
    busy(&mut busy_obs, "theirs");
    let d = decide(&mut s, &busy_obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(!d.acts.contains(&Act::StepRebalance), "{d:?} {s:?}");
    assert!(s.mover.is_none(), "{s:?}");
}

#[test]
fn an_executor_state_that_says_nothing_is_not_idle() {
    let policy = policy_add_remove(&[]);
    let mut s = OperateState::new();
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    if let Ok(cc) = &mut obs.cc {
        cc.executor = ExecutorState::default();
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty() && s.mover.is_none(), "{d:?}");
    assert!(
        d.waits
            .iter()
            .any(|w| w.contains("scale-up of brokers 3 waits") && w.contains("unknown")),
        "{d:?}"
    );
}

#[test]
fn a_held_broker_is_no_destination_and_no_scale_up_until_its_hold_ends() {
    let policy = OperatePolicy {
        modes: [Mode::AddBrokers, Mode::RemoveBrokers, Mode::Imbalance]
            .into_iter()
            .collect(),
        scale_up_grace_ms: 0,
        ..OperatePolicy::default()
    };
    let hold = |obs: &mut Observation, b: i32| {
        obs.kafka
            .as_mut()
            .unwrap()
            .held
            .insert(b, "disk swap".into());
    };
    // An imbalance rebalance names every broker but the held one as its destinations.
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6)], &[]);
    hold(&mut obs, 3);
    let s = imbalance_running(&policy, &obs);
    let r = s.rebalance().unwrap();
    assert_eq!(r.destinations, Some([1, 2, 4].into_iter().collect()));
    assert!(!r.may_fill(3));
    assert!(
        r.request
            .as_ref()
            .unwrap()
            .iter()
            .any(|(k, v)| k == "destination_broker_ids" && v == "1,2,4"),
        "{:?}",
        r.request
    );
    // A removal while broker 3 is held: only 1 and 2 may receive.
    let drain = OperatePolicy {
        drain: [4].into_iter().collect(),
        ..policy.clone()
    };
    let mut s = OperateState::new();
    let d = decide(&mut s, &obs, &drain, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert_eq!(
        s.rebalance().unwrap().destinations,
        Some([1, 2].into_iter().collect())
    );
    // An empty held broker is not a scale-up, and the wait says why.
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[]);
    hold(&mut obs, 4);
    let mut s = OperateState::new();
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    assert!(s.mover.is_none());
    assert!(
        d.waits
            .iter()
            .any(|w| w == "scale-up of broker 4 waits: it is held (disk swap)"),
        "{d:?}"
    );
    // Once the hold is gone (expired or removed), broker 4 is added.
    obs.kafka.as_mut().unwrap().held.clear();
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    let r = s.rebalance().unwrap();
    assert_eq!(r.rebalance.mode, Mode::AddBrokers);
    assert_eq!(r.rebalance.brokers, [4].into_iter().collect());
    // Held again before its request was sent: the scale-up is not run.
    hold(&mut obs, 4);
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(
        s.rebalance().is_none() && d.acts.is_empty(),
        "{d:?} {:?}",
        s.mover
    );
}

#[test]
fn no_replication_factor_round_starts_while_a_node_is_held() {
    let policy = OperatePolicy {
        modes: [Mode::AddBrokers].into_iter().collect(),
        scale_up_grace_ms: 3_600_000,
        replication_factors: [("orders".to_string(), 3)].into_iter().collect(),
        ..OperatePolicy::default()
    };
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6)], &[("orders", 2)]);
    obs.kafka
        .as_mut()
        .unwrap()
        .held
        .insert(3, "disk swap".into());
    let mut s = OperateState::new();
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    assert!(s.mover.is_none());
    assert!(
        d.waits
            .iter()
            .any(|w| w.contains("orders wait: node(s) 3 (disk swap) are held")),
        "{d:?}"
    );
    obs.kafka.as_mut().unwrap().held.clear();
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepReplicationFactors], "{d:?}");
}

/// `operate --once --dry-run` lists every action, in the order the loop would take them, not
/// only the first one it starts (issue #26).
#[test]
fn a_dry_run_plans_every_action_in_order_not_only_the_first() {
    let policy = OperatePolicy {
        modes: [Mode::AddBrokers, Mode::RemoveBrokers]
            .into_iter()
            .collect(),
        drain: [5].into_iter().collect(),
        scale_up_grace_ms: 0,
        replication_factors: [("orders".to_string(), 3)].into_iter().collect(),
    };
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0), (5, 6)], &[("orders", 2)]);
    obs.roll = Some(RollWish {
        nodes: [1, 2].into_iter().collect(),
        reason: "desired broker configuration".into(),
    });
    let state = OperateState::new();
    let mut first_state = state.clone();
    let first = decide(&mut first_state, &obs, &policy, &config());
    let started_now: Vec<&Record> = first
        .records
        .iter()
        .filter(|r| r.result == RecordResult::Started)
        .collect();
    assert_eq!(started_now.len(), 1, "one mover at a time: {first:?}");

    let plan = plan_ahead(&state, &obs, &policy, &config());
    let kinds: Vec<(&str, &str)> = plan
        .iter()
        .map(|r| (r.kind.as_str(), r.target.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("rebalance-remove-brokers", "brokers 5"),
            ("rebalance-add-brokers", "brokers 4"),
            ("roll", "nodes 1,2"),
            ("set-rf", "topics orders"),
        ],
        "{plan:#?}"
    );
    assert_eq!(
        plan[0], *started_now[0],
        "the first is what the loop starts now"
    );
    assert!(plan.iter().all(|r| r.result == RecordResult::Started));
    // Planning changes nothing of the state it was given.
    assert_eq!(state, OperateState::new());
}

#[test]
fn a_dry_run_with_nothing_to_do_plans_nothing_and_a_blocked_one_plans_nothing_now() {
    let policy = OperatePolicy {
        modes: [Mode::AddBrokers].into_iter().collect(),
        scale_up_grace_ms: 0,
        ..OperatePolicy::default()
    };
    let obs = observation(&[(1, 6), (2, 6), (3, 6)], &[]);
    assert!(plan_ahead(&OperateState::new(), &obs, &policy, &config()).is_empty());
    // Someone else's execution runs: nothing would start now.
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 0)], &[]);
    if let Ok(cc) = &mut obs.cc {
        cc.executor.state = "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into();
    }
    assert!(plan_ahead(&OperateState::new(), &obs, &policy, &config()).is_empty());
}
