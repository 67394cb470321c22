//! Restarts count only on evidence that the old process ended and the new one serves (and, for a
//! controller, fetches).

use super::*;

/// Bug 2: the first SERVING observation after the decision ended the wait,
/// although a `kill -TERM`-style command returns before the old process has
/// exited. Now the restart counts only with restart-done feed-back, evidence
/// that the old process ended, and a SERVING observation made after it.
#[test]
fn restart_counts_only_after_the_process_ended() {
    let snapshot = brokers_cluster();
    let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2]));
    assert_eq!(
        roller.decide(&snapshot, Millis(0)).restarted_nodes(),
        vec![n(1)]
    );
    roller.handle_restart_done(n(1), Millis(10));
    // The old process still serves (same incarnation, never seen down): no
    // evidence it restarted, so node 2 must wait.
    let d = roller.decide(&snapshot, Millis(1_000));
    assert!(blocked_reason(&d).contains("no evidence"), "{d:?}");
    // The witness reports the old process gone; the observation fed to the
    // same decision may predate that, so it does not count yet.
    roller.handle_process_ended(n(1), Millis(1_500));
    let d = roller.decide(&snapshot, Millis(2_000));
    assert!(matches!(d, Decision::Wait { .. }), "{d:?}");
    // A later observation of the node serving: back, node 2 is next.
    let d = roller.decide(&snapshot, Millis(3_000));
    assert_eq!(d.restarted_nodes(), vec![n(2)], "{d:?}");
    assert_eq!(roller.contexts()[&n(1)].num_restarts, 1);
}

/// Bug 2, other evidence: a changed incarnation (new pod UID, new witness
/// generation) or the node seen going down (shutting-down states are not
/// serving).
#[test]
fn incarnation_change_or_shutdown_state_is_evidence_of_the_restart() {
    let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2]));
    let mut snapshot = brokers_cluster();
    assert_eq!(
        roller.decide(&snapshot, Millis(0)).restarted_nodes(),
        vec![n(1)]
    );
    roller.handle_restart_done(n(1), Millis(10));
    snapshot.nodes[1].incarnation = Some("uid-1-1".into());
    assert!(matches!(
        roller.decide(&snapshot, Millis(1_000)),
        Decision::Wait { .. }
    ));
    assert_eq!(
        roller.decide(&snapshot, Millis(2_000)).restarted_nodes(),
        vec![n(2)]
    );

    // Broker state 7 (SHUTTING_DOWN) is NotReady: evidence, and not back.
    let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2]));
    let mut snapshot = brokers_cluster();
    roller.decide(&snapshot, Millis(0));
    roller.handle_restart_done(n(1), Millis(10));
    snapshot.nodes[1].state = ObservedState::from_broker_state(7);
    assert!(matches!(
        roller.decide(&snapshot, Millis(1_000)),
        Decision::Wait { .. }
    ));
    snapshot.nodes[1].state = ObservedState::Serving;
    assert_eq!(
        roller.decide(&snapshot, Millis(2_000)).restarted_nodes(),
        vec![n(2)]
    );
}

/// Bug 2: without any evidence by the deadline, the roll aborts and says so.
#[test]
fn restart_without_evidence_aborts_saying_so() {
    let snapshot = brokers_cluster();
    let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2]));
    roller.decide(&snapshot, Millis(0));
    roller.handle_restart_done(n(1), Millis(100));
    match roller.decide(&snapshot, Millis(60_100)) {
        Decision::Abort {
            reason:
                RollError::NotServingInTime {
                    node,
                    waited_ms,
                    detail,
                    ..
                },
        } => {
            assert_eq!((node, waited_ms), (n(1), 60_000));
            assert!(detail.contains("no evidence"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
}

/// A failed restart command aborts the roll; nothing else restarts.
#[test]
fn failed_restart_command_aborts_the_roll() {
    let snapshot = brokers_cluster();
    let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2]));
    roller.decide(&snapshot, Millis(0));
    roller.handle_restart_failed(n(1), Millis(5), "exit status 1".into());
    let expected = Decision::Abort {
        reason: RollError::RestartFailed {
            node: n(1),
            error: "exit status 1".into(),
        },
    };
    assert_eq!(roller.decide(&snapshot, Millis(1_000)), expected);
    assert_eq!(roller.decide(&snapshot, Millis(9_000)), expected);
}

/// Bug 5: a stopped controller keeps looking caught up (and, to the
/// adapter, SERVING) until the fetch timeout passes. A restarted controller
/// counts as back only once its `LastCaughtUpTimestamp` moved past the value
/// seen after its process ended.
#[test]
fn stopped_controller_is_not_back_until_it_fetches() {
    let mut snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(2, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(3, NodeRoles::BROKER, ObservedState::Serving),
        ],
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(Some(0), &[(0, 10_000), (1, 10_000), (2, 10_000)]),
    };
    let mut roller = Roller::new(RollConfig::default(), restart(&[1]));
    assert_eq!(
        roller.decide(&snapshot, Millis(10_000)).restarted_nodes(),
        vec![n(1)]
    );
    roller.handle_restart_done(n(1), Millis(10_050));
    roller.handle_process_ended(n(1), Millis(10_100));
    snapshot.quorum = quorum(Some(0), &[(0, 11_000), (1, 10_000), (2, 11_000)]);
    assert!(matches!(
        roller.decide(&snapshot, Millis(11_000)),
        Decision::Wait { .. }
    ));
    // Still within the fetch timeout, still "SERVING": not back.
    snapshot.quorum = quorum(Some(0), &[(0, 11_500), (1, 10_000), (2, 11_500)]);
    let d = roller.decide(&snapshot, Millis(11_500));
    assert!(matches!(d, Decision::Wait { .. }), "{d:?}");
    // It fetched since its restart: back, and the roll is done.
    snapshot.quorum = quorum(Some(0), &[(0, 12_000), (1, 11_900), (2, 12_000)]);
    match roller.decide(&snapshot, Millis(12_000)) {
        Decision::Done { summary } => assert_eq!(summary.restarted, vec![n(1)]),
        other => panic!("{other:?}"),
    }
}

/// Bug 5, the race: the observation fed to the decision that first learns
/// the process ended was made while the old process still fetched, and it
/// fetched once more before dying. That last fetch is not a fetch "since the
/// restart".
#[test]
fn last_fetch_of_the_old_controller_process_does_not_count() {
    let mut snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(2, NodeRoles::CONTROLLER, ObservedState::Serving),
        ],
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(Some(0), &[(0, 10_000), (1, 10_000), (2, 10_000)]),
    };
    let mut roller = Roller::new(RollConfig::default(), restart(&[1]));
    assert_eq!(
        roller.decide(&snapshot, Millis(10_000)).restarted_nodes(),
        vec![n(1)]
    );
    roller.handle_restart_done(n(1), Millis(10_050));
    // Observed at 10_200 (old process alive), then it fetched at 10_300 and
    // died; the end is reported after the observation was made.
    snapshot.quorum = quorum(Some(0), &[(0, 10_200), (1, 10_200), (2, 10_200)]);
    roller.handle_process_ended(n(1), Millis(10_300));
    assert!(matches!(
        roller.decide(&snapshot, Millis(10_400)),
        Decision::Wait { .. }
    ));
    snapshot.quorum = quorum(Some(0), &[(0, 11_000), (1, 10_300), (2, 11_000)]);
    let d = roller.decide(&snapshot, Millis(11_000));
    assert!(matches!(d, Decision::Wait { .. }), "{d:?}");
    snapshot.quorum = quorum(Some(0), &[(0, 11_500), (1, 10_300), (2, 11_500)]);
    let d = roller.decide(&snapshot, Millis(11_500));
    assert!(matches!(d, Decision::Wait { .. }), "{d:?}");
    snapshot.quorum = quorum(Some(0), &[(0, 12_000), (1, 11_900), (2, 12_000)]);
    assert!(matches!(
        roller.decide(&snapshot, Millis(12_000)),
        Decision::Done { .. }
    ));
}
