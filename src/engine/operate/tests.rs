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
