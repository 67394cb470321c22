//! What starts, in which order, and what waits while something else moves.

use super::*;

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
