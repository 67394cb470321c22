//! `operate --once --dry-run`: every action in order (issue #26).

use super::*;

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
