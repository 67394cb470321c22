//! Regression tests of the roll engine, one per safety bug of the roll-safety
//! audit, each named after what broke. Every test builds its snapshot by hand
//! so the input that used to trigger the bug can be read off the test, and
//! drives the roller through the same feed-back calls an executor makes.

use std::collections::BTreeMap;

use super::sim::default_config;
use super::*;
use crate::engine::model::{
    ConfigEntry, MIN_ISR_KEY, PartitionSnapshot, QuorumSnapshot, TopicSettings, VoterState,
};

fn n(id: i32) -> NodeId {
    NodeId(id)
}

fn node(id: i32, roles: NodeRoles, state: ObservedState) -> NodeSnapshot {
    NodeSnapshot {
        id: n(id),
        roles,
        state,
        reachable: state != ObservedState::NotRunning,
        rack: None,
        config: default_config(),
        incarnation: Some(format!("uid-{id}-0")),
    }
}

fn partition(topic: &str, replicas: &[i32], isr: &[i32]) -> PartitionSnapshot {
    PartitionSnapshot {
        tp: TopicPartition {
            topic: topic.into(),
            partition: 0,
        },
        replicas: replicas.iter().map(|r| n(*r)).collect(),
        isr: isr.iter().map(|r| n(*r)).collect(),
        leader: replicas.first().map(|r| n(*r)),
        adding: Vec::new(),
        removing: Vec::new(),
    }
}

fn quorum(leader: Option<i32>, voters: &[(i32, i64)]) -> Option<QuorumSnapshot> {
    Some(QuorumSnapshot {
        leader: leader.map(n),
        voters: voters
            .iter()
            .map(|(id, ts)| VoterState {
                id: n(*id),
                last_caught_up_ms: Some(*ts),
                last_fetch_ms: Some(*ts),
            })
            .collect(),
        observers: Vec::new(),
    })
}

fn topic(name: &str, min: Option<u32>) -> BTreeMap<String, TopicSettings> {
    BTreeMap::from([(
        name.to_string(),
        TopicSettings {
            min_insync_replicas: min,
        },
    )])
}

fn restart(ids: &[i32]) -> BTreeMap<NodeId, NodeRequest> {
    ids.iter()
        .map(|id| {
            (
                n(*id),
                NodeRequest {
                    restart_reasons: vec!["manual rolling update".into()],
                    desired_config: BTreeMap::new(),
                    expected_software: None,
                },
            )
        })
        .collect()
}

fn select_only(ids: &[i32]) -> BTreeMap<NodeId, NodeRequest> {
    ids.iter()
        .map(|id| (n(*id), NodeRequest::default()))
        .collect()
}

fn blocked_reason(d: &Decision) -> String {
    match d {
        Decision::Wait { for_what, .. } => for_what.to_string(),
        other => panic!("expected a wait, got {other:?}"),
    }
}

/// Controller 0 (leading the quorum) and brokers 1, 2, 3 sharing one
/// partition with min ISR 2, so the brokers restart one at a time.
fn brokers_cluster() -> ClusterSnapshot {
    ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::BROKER, ObservedState::Serving),
            node(2, NodeRoles::BROKER, ObservedState::Serving),
            node(3, NodeRoles::BROKER, ObservedState::Serving),
        ],
        partitions: vec![partition("t", &[1, 2, 3], &[1, 2, 3])],
        topics: topic("t", Some(2)),
        quorum: quorum(Some(0), &[(0, 0)]),
    }
}

/// Bug 1: minISR 2, replicas [1,4,2], adding [4] (not in the ISR yet),
/// removing [2], ISR [1,2]. Judging only the ISR after completion ([1],
/// without 2) let node 2 restart, and the real ISR dropped to [1].
#[test]
fn removing_replica_still_in_isr_is_not_restarted() {
    let mut p = partition("foo", &[1, 4, 2], &[1, 2]);
    p.adding = vec![n(4)];
    p.removing = vec![n(2)];
    let snapshot = ClusterSnapshot {
        nodes: (1..=4)
            .map(|i| node(i, NodeRoles::BROKER, ObservedState::Serving))
            .chain([node(0, NodeRoles::CONTROLLER, ObservedState::Serving)])
            .collect(),
        partitions: vec![p],
        topics: topic("foo", Some(2)),
        quorum: quorum(Some(0), &[(0, 0)]),
    };
    let mut roller = Roller::new(RollConfig::default(), restart(&[2]));
    let d = roller.decide(&snapshot, Millis(0));
    assert!(blocked_reason(&d).contains("foo-0"), "{d:?}");
    assert_eq!(
        roller.decide(&snapshot, Millis(300_000)),
        Decision::Abort {
            reason: RollError::WouldBreakMinIsr {
                node: n(2),
                topic: "foo".into(),
                partition: 0,
                isr: 2,
                min_isr: 2,
            }
        }
    );
}

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

/// Bug 3: a missing `min.insync.replicas` was taken as 1. Unknown now fails
/// safe and names the topic.
#[test]
fn unknown_min_isr_refuses_naming_the_topic() {
    let mut snapshot = brokers_cluster();
    snapshot.partitions = vec![partition("orders", &[1, 2, 3], &[1, 2])];
    snapshot.topics = BTreeMap::new();
    let mut roller = Roller::new(RollConfig::default(), restart(&[1]));
    let d = roller.decide(&snapshot, Millis(0));
    assert!(blocked_reason(&d).contains("orders-0"), "{d:?}");
    assert_eq!(
        roller.decide(&snapshot, Millis(300_000)),
        Decision::Abort {
            reason: RollError::MinIsrUnknown {
                node: n(1),
                topic: "orders".into(),
                partition: 0,
            }
        }
    );
    // Known topic without override, but no broker reports a value: unknown.
    snapshot.topics = topic("orders", None);
    let mut roller = Roller::new(RollConfig::default(), restart(&[1]));
    let d = roller.decide(&snapshot, Millis(0));
    assert!(blocked_reason(&d).contains("orders-0"), "{d:?}");
}

/// Bug 3: broker-level values that differ per broker: the highest among the
/// partition's replicas applies (leadership can move to any of them).
#[test]
fn differing_broker_min_isr_uses_the_highest_replica_value() {
    let mut snapshot = brokers_cluster();
    snapshot.partitions = vec![partition("orders", &[1, 2, 3], &[1, 2])];
    snapshot.topics = topic("orders", None);
    for (i, v) in [(1, "1"), (2, "2"), (3, "1")] {
        snapshot.nodes[i].config.insert(
            MIN_ISR_KEY.into(),
            ConfigEntry {
                value: Some(v.into()),
                read_only: false,
                sensitive: false,
            },
        );
    }
    let mut roller = Roller::new(RollConfig::default(), restart(&[1]));
    let d = roller.decide(&snapshot, Millis(0));
    assert!(
        blocked_reason(&d).contains("orders-0") && blocked_reason(&d).contains("min.insync"),
        "{d:?}"
    );
}

/// Bug 4: combined nodes that read NOT_RUNNING while the quorum has a leader
/// (broker side fenced, e.g. log recovery) were all restarted at once. The
/// parallel restart is only for a quorum without a leader.
#[test]
fn all_combined_rescue_only_without_a_leader() {
    let mut snapshot = ClusterSnapshot {
        nodes: (0..3)
            .map(|i| node(i, NodeRoles::COMBINED, ObservedState::NotRunning))
            .collect(),
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(Some(0), &[(0, 10_000), (1, 1_000), (2, 1_000)]),
    };
    let mut roller = Roller::new(RollConfig::default(), restart(&[0, 1, 2]));
    let d = roller.decide(&snapshot, Millis(0));
    assert_eq!(d.restarted_nodes().len(), 1, "{d:?}");
    // With every timestamp fresh, each of them may still hold a vote while none shows
    // running (issue 23, point 2): no rescue, and no restart either.
    snapshot.quorum = quorum(Some(0), &[(0, 10_000), (1, 10_000), (2, 10_000)]);
    let mut roller = Roller::new(RollConfig::default(), restart(&[0, 1, 2]));
    let d = roller.decide(&snapshot, Millis(0));
    assert!(d.restarted_nodes().is_empty(), "{d:?}");
    assert!(blocked_reason(&d).contains("quorum"), "{d:?}");
    // Without a leader the rescue applies.
    snapshot.quorum = quorum(None, &[(0, 0), (1, 0), (2, 0)]);
    let mut roller = Roller::new(RollConfig::default(), restart(&[0, 1, 2]));
    assert_eq!(
        roller.decide(&snapshot, Millis(0)).restarted_nodes(),
        vec![n(0), n(1), n(2)]
    );
}

/// Bug 6: unhealthy (RESTART_FIRST) controllers skipped the quorum check
/// when they were not caught up. With three controllers and both followers
/// lagging, restarting one leaves only the leader.
#[test]
fn lagging_controllers_restart_first_only_if_the_quorum_allows() {
    let snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::CONTROLLER, ObservedState::NotReady),
            node(2, NodeRoles::CONTROLLER, ObservedState::NotReady),
        ],
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(Some(0), &[(0, 100_000), (1, 1_000), (2, 1_000)]),
    };
    let mut roller = Roller::new(RollConfig::default(), select_only(&[0, 1, 2]));
    let d = roller.decide(&snapshot, Millis(0));
    assert!(blocked_reason(&d).contains("controller"), "{d:?}");
    assert!(d.restarted_nodes().is_empty());

    // Five controllers, two lagging: three caught up remain, a majority.
    let snapshot = ClusterSnapshot {
        nodes: (0..5)
            .map(|i| {
                let state = if i >= 3 {
                    ObservedState::NotReady
                } else {
                    ObservedState::Serving
                };
                node(i, NodeRoles::CONTROLLER, state)
            })
            .collect(),
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(
            Some(0),
            &[(0, 100_000), (1, 100_000), (2, 100_000), (3, 0), (4, 0)],
        ),
    };
    let mut roller = Roller::new(RollConfig::default(), select_only(&[0, 1, 2, 3, 4]));
    assert_eq!(
        roller.decide(&snapshot, Millis(0)).restarted_nodes(),
        vec![n(3)]
    );
}

/// Bugs 8/9: a broker whose state could not be read (UNKNOWN: maybe in log
/// recovery, maybe a broken state endpoint) was restarted first. It is not,
/// and it holds every other restart back like a recovering node.
#[test]
fn broker_in_unknown_state_is_not_restarted_and_blocks_other_restarts() {
    let mut snapshot = brokers_cluster();
    snapshot.nodes[2].state = ObservedState::Unknown;
    let mut roller = Roller::new(
        RollConfig {
            blocked_timeout_ms: 10_000,
            ..RollConfig::default()
        },
        restart(&[1, 2]),
    );
    let d = roller.decide(&snapshot, Millis(0));
    assert!(blocked_reason(&d).contains("unknown state"), "{d:?}");
    assert_eq!(
        roller.decide(&snapshot, Millis(10_000)),
        Decision::Abort {
            reason: RollError::NodeStateUnknown { node: n(2) }
        }
    );
}

/// Bug 10: `--nodes 1` also restarted other unhealthy nodes. Outside the
/// selection (the keys of the requests) they are reported and left alone,
/// unless `include_unhealthy`.
#[test]
fn unhealthy_nodes_outside_the_selection_are_not_restarted() {
    let mut snapshot = brokers_cluster();
    snapshot.partitions.clear();
    snapshot.topics.clear();
    snapshot.nodes[3] = node(3, NodeRoles::BROKER, ObservedState::NotRunning);
    let roller = Roller::new(RollConfig::default(), restart(&[1]));
    let plan = roller.plan(&snapshot);
    assert_eq!(
        plan.unselected_unhealthy
            .iter()
            .map(|r| r.node)
            .collect::<Vec<_>>(),
        vec![n(3)]
    );
    assert_eq!(plan.restart_batches(), 1);
    let mut roller = Roller::new(RollConfig::default(), restart(&[1]));
    match roller.decide(&snapshot, Millis(0)) {
        Decision::Restart { nodes, reason } => {
            assert_eq!(nodes.iter().map(|r| r.node).collect::<Vec<_>>(), vec![n(1)]);
            assert!(
                reason.contains("left alone") && reason.contains('3'),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    let config = RollConfig {
        include_unhealthy: true,
        ..RollConfig::default()
    };
    let mut roller = Roller::new(config, restart(&[1]));
    assert_eq!(
        roller.decide(&snapshot, Millis(0)).restarted_nodes(),
        vec![n(3)]
    );
}

/// Restored state that does not match the observation (an awaited node with
/// no context and gone from the cluster) aborts instead of panicking.
#[test]
fn inconsistent_restored_state_aborts_instead_of_panicking() {
    let snapshot = brokers_cluster();
    let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2]));
    roller.decide(&snapshot, Millis(0));
    roller.handle_restart_done(n(1), Millis(10));
    let mut json = serde_json::to_value(&roller).unwrap();
    json["nodes"].as_object_mut().unwrap().remove("1");
    json["requests"].as_object_mut().unwrap().remove("1");
    let mut restored: Roller = serde_json::from_value(json).unwrap();
    let mut without = snapshot.clone();
    without.nodes.retain(|x| x.id != n(1));
    let d = restored.decide(&without, Millis(1_000));
    assert!(
        matches!(
            d,
            Decision::Abort {
                reason: RollError::StateInconsistent { .. }
            }
        ),
        "{d:?}"
    );
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

/// A down broker restarted first rejoins the ISR in the real roll, so the preview must not report
/// the later restarts of brokers sharing its partitions as blocked (the command refuses up front on
/// a blocked preview). Broker 1 is down and out of the ISR of [1,2,3] (min ISR 2): restarting 2 now
/// would leave one in-sync replica, but after 1 is back it is safe.
#[test]
fn preview_assumes_a_restarted_down_node_rejoins_the_isr() {
    let mut snapshot = brokers_cluster();
    snapshot.nodes[1] = node(1, NodeRoles::BROKER, ObservedState::NotRunning);
    snapshot.partitions[0].isr = vec![n(2), n(3)];
    snapshot.partitions[0].leader = Some(n(2));
    let roller = Roller::new(RollConfig::default(), restart(&[1, 2, 3]));
    let plan = roller.plan(&snapshot);
    let batches: Vec<Vec<NodeId>> = plan
        .steps
        .iter()
        .map(|s| match s {
            PlanStep::Restart { nodes, .. } => nodes.iter().map(|r| r.node).collect::<Vec<_>>(),
            other => panic!("the preview must not block: {other:?}"),
        })
        .collect();
    assert_eq!(
        batches.first(),
        Some(&vec![n(1)]),
        "the down node goes first"
    );
    let mut rest: Vec<NodeId> = batches[1..].iter().flatten().copied().collect();
    rest.sort();
    assert_eq!(rest, vec![n(2), n(3)]);
    assert!(
        batches[1..].iter().all(|b| b.len() == 1),
        "2 and 3 share a partition with min ISR 2: one at a time"
    );
    // The live engine still refuses 2 while 1 is out of the ISR: only the preview assumes.
    let mut live = Roller::new(RollConfig::default(), restart(&[2, 3]));
    assert!(
        !live
            .decide(&snapshot, Millis(0))
            .restarted_nodes()
            .contains(&n(2)),
        "2 must not restart while 1 is out of the ISR"
    );
}

// ---------------------------------------------------------------------------------------------
// Issue 23 (second safety audit), points 1-6: one test per unsafe input, named after it.
// ---------------------------------------------------------------------------------------------

/// Point 1: brokers 1-3, ISR [1,2,3], min ISR 2; node 3 is outside the selection and shutting
/// down (broker state 7), or crashed and not yet fenced (listed SERVING by fencing, but not
/// answering the Admin API). Restarting 1 would leave [2] in sync: it must wait.
#[test]
fn replica_not_serving_outside_the_selection_does_not_count_toward_min_isr() {
    for crashed in [false, true] {
        let mut snapshot = brokers_cluster();
        if crashed {
            snapshot.nodes[3].reachable = false;
        } else {
            snapshot.nodes[3].state = ObservedState::from_broker_state(7);
        }
        let mut roller = Roller::new(RollConfig::default(), restart(&[1]));
        let d = roller.decide(&snapshot, Millis(0));
        assert!(d.restarted_nodes().is_empty(), "crashed={crashed}: {d:?}");
        assert!(blocked_reason(&d).contains("t-0"), "{d:?}");
        // The preview says so too.
        let plan = Roller::new(RollConfig::default(), restart(&[1])).plan(&snapshot);
        assert!(
            matches!(plan.steps.first(), Some(PlanStep::Blocked { reason, .. }) if reason.contains("t-0")),
            "{plan:?}"
        );
        // Selected nodes of a batch are judged the same way (step 2 of the selection).
        let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2]));
        assert!(
            roller
                .decide(&snapshot, Millis(0))
                .restarted_nodes()
                .is_empty(),
            "crashed={crashed}"
        );
    }
}

/// Point 2: voters 0 (leader), 1, 2; node 2 not running (the platform says so), or a combined
/// node shutting down (broker state 7), with its `LastCaughtUpTimestamp` still inside the
/// fetch timeout. Restarting 1 would leave one running voter of three.
#[test]
fn stopped_voter_with_a_fresh_timestamp_is_not_a_caught_up_voter() {
    for combined in [false, true] {
        let roles = if combined {
            NodeRoles::COMBINED
        } else {
            NodeRoles::CONTROLLER
        };
        let mut snapshot = ClusterSnapshot {
            nodes: (0..3)
                .map(|i| node(i, roles, ObservedState::Serving))
                .collect(),
            partitions: vec![],
            topics: BTreeMap::new(),
            quorum: quorum(Some(0), &[(0, 10_000), (1, 10_000), (2, 9_500)]),
        };
        snapshot.nodes[2].state = if combined {
            ObservedState::from_broker_state(7)
        } else {
            ObservedState::NotRunning
        };
        let mut roller = Roller::new(RollConfig::default(), restart(&[1]));
        let d = roller.decide(&snapshot, Millis(10_000));
        assert!(d.restarted_nodes().is_empty(), "combined={combined}: {d:?}");
        assert!(blocked_reason(&d).contains("quorum"), "{d:?}");
    }
}

/// Point 3: the leader's voter set is {0..4}; 3 and 4 are stale voters listed with broker-only
/// roles (their controller role was removed before RemoveRaftVoter). Restarting 1 would leave
/// 2 caught-up voters of 5: the majority is over the real voter set, whatever the roles say.
#[test]
fn stale_voters_listed_with_broker_roles_still_count_in_the_majority() {
    let snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(2, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(3, NodeRoles::BROKER, ObservedState::Serving),
            node(4, NodeRoles::BROKER, ObservedState::Serving),
        ],
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(
            Some(0),
            &[
                (0, 10_000),
                (1, 10_000),
                (2, 10_000),
                (3, 10_000),
                (4, 10_000),
            ],
        ),
    };
    let mut roller = Roller::new(
        RollConfig {
            blocked_timeout_ms: 1_000,
            ..RollConfig::default()
        },
        restart(&[1]),
    );
    let d = roller.decide(&snapshot, Millis(10_000));
    assert!(d.restarted_nodes().is_empty(), "{d:?}");
    assert_eq!(
        roller.decide(&snapshot, Millis(11_000)),
        Decision::Abort {
            reason: RollError::QuorumAtRisk {
                nodes: vec![n(1)],
                caught_up: 2,
                controllers: 5,
                needed: 3,
            }
        }
    );
}

/// Point 4: Kafka keeps the highest `LastCaughtUpTimestamp`; after the leader's clock stepped
/// back, voter 2 (long dead) reports a time in the leader's "future". A negative lag is not
/// caught up: restarting 1 would leave the leader alone.
#[test]
fn voter_timestamp_ahead_of_the_leaders_clock_is_not_caught_up() {
    let snapshot = ClusterSnapshot {
        nodes: (0..3)
            .map(|i| node(i, NodeRoles::CONTROLLER, ObservedState::Serving))
            .collect(),
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(Some(0), &[(0, 10_000), (1, 10_000), (2, 600_000)]),
    };
    let mut roller = Roller::new(RollConfig::default(), restart(&[1]));
    let d = roller.decide(&snapshot, Millis(10_000));
    assert!(d.restarted_nodes().is_empty(), "{d:?}");
    assert!(blocked_reason(&d).contains("quorum"), "{d:?}");
    // Found by the world model with only the negative lag refused: once the leader's clock
    // stepped back, the timestamp of a controller that stopped long ago can land inside the
    // fetch timeout of the new clock (2 at 9_500, "fresh"), while the live voter 1 is ahead.
    // Any timestamp ahead of the leader's means none can be trusted.
    let snapshot = ClusterSnapshot {
        quorum: quorum(Some(0), &[(0, 10_000), (1, 30_000), (2, 9_500)]),
        ..snapshot
    };
    let mut roller = Roller::new(RollConfig::default(), restart(&[1]));
    let d = roller.decide(&snapshot, Millis(10_000));
    assert!(d.restarted_nodes().is_empty(), "{d:?}");
    assert!(blocked_reason(&d).contains("stepped back"), "{d:?}");
}

/// Point 5: no topic override; the leader's broker-level `min.insync.replicas` cannot be read
/// (it is 3), the other replicas say 2. Taking the highest known value (2) let the ISR go to 2;
/// while any replica's value is unknown the partition's min ISR is unknown: refuse.
#[test]
fn unknown_broker_min_isr_of_one_replica_refuses_like_an_unknown_topic() {
    let mut snapshot = brokers_cluster();
    snapshot.topics = topic("t", None);
    for i in [2, 3] {
        snapshot.nodes[i].config.insert(
            MIN_ISR_KEY.into(),
            ConfigEntry {
                value: Some("2".into()),
                read_only: false,
                sensitive: false,
            },
        );
    }
    let mut roller = Roller::new(
        RollConfig {
            blocked_timeout_ms: 1_000,
            ..RollConfig::default()
        },
        restart(&[2]),
    );
    let d = roller.decide(&snapshot, Millis(0));
    assert!(d.restarted_nodes().is_empty(), "{d:?}");
    assert_eq!(
        roller.decide(&snapshot, Millis(1_000)),
        Decision::Abort {
            reason: RollError::MinIsrUnknown {
                node: n(2),
                topic: "t".into(),
                partition: 0,
            }
        }
    );
}

/// Point 6: DescribeConfigs returns no value for unset keys, not only for sensitive ones. A
/// desired `create.topic.policy.class.name` (read-only, unset) next to a dynamic key was
/// "reconfigured" with the dynamic key only, and on its own counted as done without a restart.
/// Only sensitive keys may be skipped, and the plan and the summary name them.
#[test]
fn unset_read_only_setting_is_a_restart_and_only_sensitive_ones_are_skipped() {
    const POLICY: &str = "create.topic.policy.class.name";
    const PASSWORD: &str = "ssl.keystore.password";
    let mut snapshot = brokers_cluster();
    snapshot.nodes[1].config.insert(
        POLICY.into(),
        ConfigEntry {
            value: None,
            read_only: true,
            sensitive: false,
        },
    );
    snapshot.nodes[1].config.insert(
        PASSWORD.into(),
        ConfigEntry {
            value: None,
            read_only: false,
            sensitive: true,
        },
    );
    let desired = |pairs: &[(&str, &str)]| -> BTreeMap<NodeId, NodeRequest> {
        BTreeMap::from([(
            n(1),
            NodeRequest {
                restart_reasons: Vec::new(),
                desired_config: pairs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
                expected_software: None,
            },
        )])
    };
    // Next to a dynamic change: a restart, not a reconfiguration of the dynamic key only.
    let mut roller = Roller::new(
        RollConfig::default(),
        desired(&[(POLICY, "com.example.Policy"), ("log.retention.ms", "1")]),
    );
    let d = roller.decide(&snapshot, Millis(0));
    assert_eq!(d.restarted_nodes(), vec![n(1)], "{d:?}");
    // On its own: a restart, never "done".
    let mut roller = Roller::new(
        RollConfig::default(),
        desired(&[(POLICY, "com.example.Policy")]),
    );
    let d = roller.decide(&snapshot, Millis(0));
    assert_eq!(d.restarted_nodes(), vec![n(1)], "{d:?}");
    // A sensitive key cannot be compared: skipped, and said so in the plan and the summary.
    let requests = desired(&[(PASSWORD, "secret")]);
    let plan = Roller::new(RollConfig::default(), requests.clone()).plan(&snapshot);
    assert_eq!(
        plan.sensitive_settings,
        vec![NodeSettings {
            node: n(1),
            keys: vec![PASSWORD.to_string()],
        }]
    );
    assert!(plan.steps.is_empty(), "{plan:?}");
    let mut roller = Roller::new(RollConfig::default(), requests);
    match roller.decide(&snapshot, Millis(0)) {
        Decision::Done { summary } => assert!(
            summary
                .notes
                .iter()
                .any(|note| note.contains(PASSWORD) && note.contains("node 1")),
            "{summary:?}"
        ),
        other => panic!("{other:?}"),
    }
}

/// Issue 23, point 10: a roll restarted brokers while Cruise Control executed (its execution
/// moving replicas onto broker 4 died: "the new replica is down"). While an execution runs no
/// node is restarted or reconfigured: the decision is a blocked wait naming the task and saying
/// that the block clears when the execution ends; a block for another reason (a partition the
/// execution is moving) is named beside it; an action under way is still waited for; Cruise
/// Control unreachable holds the roll too; once idle the roll goes on.
#[test]
fn no_restart_while_cruise_control_executes() {
    use crate::engine::movers::{CruiseControlView, Execution};
    let executing = CruiseControlView::Executing(Execution {
        state: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into(),
        task: Some("task-42".into()),
        description: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS (task task-42), reason: \
                      remove brokers"
            .into(),
    });
    let snapshot = brokers_cluster();
    let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2]));
    roller.handle_cruise_control(&executing);
    // The plan says so too.
    let plan = roller.plan(&snapshot);
    match plan.steps.first() {
        Some(PlanStep::Blocked { nodes, reason }) => {
            assert_eq!(nodes, &vec![n(1)]);
            assert!(reason.contains("task task-42"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let d = roller.decide(&snapshot, Millis(0));
    let why = blocked_reason(&d);
    assert!(
        why.contains("Cruise Control is executing")
            && why.contains("task task-42")
            && why.contains("the block clears when the execution ends"),
        "{why}"
    );
    // It lasts: the roll aborts with that error after blocked_timeout_ms, as any block.
    match roller.clone().decide(&snapshot, Millis(300_000)) {
        Decision::Abort {
            reason: RollError::CruiseControlExecuting { task, also, .. },
        } => {
            assert_eq!(task.as_deref(), Some("task-42"));
            assert_eq!(also, None);
        }
        other => panic!("{other:?}"),
    }
    // A partition the execution moves also blocks: both are said.
    let mut moving = snapshot.clone();
    moving.partitions[0].isr = vec![n(1), n(2)];
    let mut r = Roller::new(RollConfig::default(), restart(&[1]));
    r.handle_cruise_control(&executing);
    let why = blocked_reason(&r.decide(&moving, Millis(0)));
    assert!(
        why.contains("task task-42") && why.contains("meanwhile also") && why.contains("t-0"),
        "{why}"
    );
    // Cruise Control cannot be asked: held back too.
    let mut r = Roller::new(RollConfig::default(), restart(&[1]));
    r.handle_cruise_control(&CruiseControlView::Unreachable("connection refused".into()));
    let why = blocked_reason(&r.decide(&snapshot, Millis(0)));
    assert!(
        why.contains("cannot be asked") && why.contains("connection refused"),
        "{why}"
    );
    // Idle again: node 1 restarts.
    roller.handle_cruise_control(&CruiseControlView::Idle);
    let d = roller.decide(&snapshot, Millis(10_000));
    assert_eq!(d.restarted_nodes(), vec![n(1)], "{d:?}");
    // An execution that starts while node 1 restarts: node 1 is still waited for, node 2 is
    // not restarted.
    roller.handle_restart_done(n(1), Millis(10_500));
    roller.handle_process_ended(n(1), Millis(10_500));
    roller.handle_cruise_control(&executing);
    let d = roller.decide(&snapshot, Millis(11_000));
    assert!(
        matches!(&d, Decision::Wait { for_what, .. } if !for_what.is_blocked()),
        "{d:?}"
    );
    let d = roller.decide(&snapshot, Millis(12_000));
    assert!(blocked_reason(&d).contains("task task-42"), "{d:?}");
}

/// The colouring is carried from one decision to the next only while the conflict graph is
/// the same: once two brokers planned into one batch come to share a partition (a new
/// partition, a reassignment), the next batch must not hold both (it would take that partition
/// down by two replicas at once).
#[test]
fn colouring_carried_between_decisions_is_replanned_when_brokers_come_to_share_a_partition() {
    let mut p0 = partition("t", &[1, 2], &[1, 2]);
    p0.tp.partition = 0;
    let mut p1 = partition("t", &[3, 4], &[3, 4]);
    p1.tp.partition = 1;
    let mut snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::BROKER, ObservedState::Serving),
            node(2, NodeRoles::BROKER, ObservedState::Serving),
            node(3, NodeRoles::BROKER, ObservedState::Serving),
            node(4, NodeRoles::BROKER, ObservedState::Serving),
        ],
        partitions: vec![p0, p1],
        topics: topic("t", Some(1)),
        quorum: quorum(Some(0), &[(0, 0)]),
    };
    let config = RollConfig {
        max_batch_size: 4,
        ..RollConfig::default()
    };
    let mut roller = Roller::new(config, restart(&[1, 2, 3, 4]));
    let first = roller.decide(&snapshot, Millis(0)).restarted_nodes();
    assert_eq!(first.len(), 2, "{first:?}");
    assert!(roller.planned.as_ref().is_some_and(|p| p.portable));
    for (i, id) in first.iter().enumerate() {
        roller.handle_restart_done(*id, Millis(10 + i as u64));
        let slot = snapshot.nodes.iter().position(|x| x.id == *id).unwrap();
        snapshot.nodes[slot].incarnation = Some(format!("uid-{}-1", id.0));
    }
    let rest: Vec<i32> = [1, 2, 3, 4]
        .into_iter()
        .filter(|id| !first.contains(&n(*id)))
        .collect();
    // The two brokers left now share a new partition, both in its ISR.
    let mut p2 = partition("t", &rest, &rest);
    p2.tp.partition = 2;
    snapshot.partitions.push(p2);
    assert!(matches!(
        roller.decide(&snapshot, Millis(1_000)),
        Decision::Wait { .. }
    ));
    let next = roller.decide(&snapshot, Millis(2_000)).restarted_nodes();
    assert_eq!(next.len(), 1, "{next:?} share partition t-2");
    assert!(rest.contains(&next[0].0), "{next:?}");
}

/// Issue #26: a resumed roll's plan does not list a node it already restarted as untouched.
#[test]
fn a_resumed_plan_does_not_call_restarted_nodes_untouched() {
    let snapshot = brokers_cluster();
    let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2]));
    assert_eq!(
        roller.decide(&snapshot, Millis(0)).restarted_nodes(),
        vec![n(1)]
    );
    roller.handle_restart_done(n(1), Millis(10));
    roller.handle_process_ended(n(1), Millis(20));
    let plan = roller.plan(&snapshot);
    assert!(!plan.untouched.contains(&n(1)), "{plan:?}");
    assert_eq!(plan.already_rolled, vec![n(1)], "{plan:?}");
    // Nodes outside the selection and not rolled stay untouched.
    assert!(plan.untouched.contains(&n(3)), "{plan:?}");
}

/// Issue 29 (node holds): a held node is left alone whatever it is asked for (a restart reason,
/// or unhealthy with unhealthy nodes included), the plan and the summary name it with the hold's
/// reason, and it still counts in the safety checks (its replica keeps min ISR 2 satisfied only
/// while it serves).
#[test]
fn held_node_is_never_restarted_and_is_reported() {
    let holds = || BTreeMap::from([(n(2), "disk swap".to_string())]);
    let snapshot = brokers_cluster();
    let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2, 3]));
    roller.handle_holds(holds());
    let plan = roller.plan(&snapshot);
    assert_eq!(
        plan.held,
        vec![NodeReason {
            node: n(2),
            reason: "held: disk swap".into()
        }]
    );
    let planned: Vec<NodeId> = plan
        .steps
        .iter()
        .flat_map(|s| match s {
            PlanStep::Restart { nodes, .. } => nodes.iter().map(|r| r.node).collect::<Vec<_>>(),
            other => panic!("unexpected step {other:?}"),
        })
        .collect();
    assert_eq!(planned, vec![n(1), n(3)]);
    assert!(!plan.untouched.contains(&n(2)), "{plan:?}");

    // A held node that is down: not restarted even with unhealthy nodes included, and its
    // missing replica still counts (min ISR 2 of [1, 3] left: one at a time is refused).
    let mut down = brokers_cluster();
    down.nodes[2] = node(2, NodeRoles::BROKER, ObservedState::NotRunning);
    down.partitions = vec![partition("t", &[1, 2, 3], &[1, 3])];
    let mut roller = Roller::new(
        RollConfig {
            include_unhealthy: true,
            blocked_timeout_ms: 10_000,
            ..RollConfig::default()
        },
        restart(&[1, 2, 3]),
    );
    roller.handle_holds(holds());
    let d = roller.decide(&down, Millis(0));
    assert!(matches!(d, Decision::Wait { .. }), "{d:?}");
    assert!(blocked_reason(&d).contains("min"), "{d:?}");

    // Driven to the end: 2 never restarted, the summary says it was held.
    let mut roller = Roller::new(RollConfig::default(), restart(&[1, 2, 3]));
    roller.handle_holds(holds());
    let mut restarted = Vec::new();
    let mut now = Millis(0);
    let mut snapshot = brokers_cluster();
    for _ in 0..200 {
        match roller.decide(&snapshot, now) {
            Decision::Restart { nodes, .. } => {
                for r in &nodes {
                    restarted.push(r.node);
                    roller.handle_restart_done(r.node, now);
                    roller.handle_process_ended(r.node, now);
                    // Back at once with a new incarnation.
                    let i = snapshot.nodes.iter().position(|x| x.id == r.node).unwrap();
                    snapshot.nodes[i].incarnation = Some(format!("uid-{}-{}", r.node, now.0));
                }
            }
            Decision::Done { summary } => {
                assert_eq!(
                    summary.held.iter().map(|r| r.node).collect::<Vec<_>>(),
                    vec![n(2)]
                );
                assert!(
                    summary.notes.iter().any(|x| x.contains("disk swap")),
                    "{summary:?}"
                );
                break;
            }
            Decision::Abort { reason } => panic!("aborted: {reason}"),
            _ => {}
        }
        now = now.plus(1_000);
    }
    assert_eq!(restarted, vec![n(1), n(3)]);
}

/// A roll onto new software (`upgrade --to`): brokers 1 and 2 must come back reporting
/// `metadata.version` 33.
fn software_roll() -> Roller {
    let requests = [1, 2]
        .into_iter()
        .map(|id| {
            (
                n(id),
                NodeRequest {
                    restart_reasons: vec!["software version: runs 4.3, target 4.4".into()],
                    desired_config: BTreeMap::new(),
                    expected_software: Some(33),
                },
            )
        })
        .collect();
    Roller::new(RollConfig::default(), requests)
}

/// Restarts node 1 and shows it serving again after evidence of its restart (a new
/// incarnation): from the next decision on it would count as back.
fn restart_node_1(roller: &mut Roller, snapshot: &mut ClusterSnapshot) {
    assert_eq!(
        roller.decide(snapshot, Millis(0)).restarted_nodes(),
        vec![n(1)]
    );
    roller.handle_restart_done(n(1), Millis(10));
    snapshot.nodes[1].incarnation = Some("uid-1-1".into());
    assert!(matches!(
        roller.decide(snapshot, Millis(1_000)),
        Decision::Wait { .. }
    ));
}

#[test]
fn a_node_back_on_the_wrong_software_stops_the_roll_and_nothing_else_restarts() {
    let mut roller = software_roll();
    let mut snapshot = brokers_cluster();
    roller.handle_software(BTreeMap::from([(n(1), Ok(Some(30))), (n(2), Ok(Some(30)))]));
    restart_node_1(&mut roller, &mut snapshot);
    // Back and serving, but on the old software: the roll stops, node 2 is not restarted.
    let d = roller.decide(&snapshot, Millis(2_000));
    assert_eq!(
        d,
        Decision::Abort {
            reason: RollError::WrongSoftware {
                node: n(1),
                reported: Some(30),
                expected: 33,
            }
        }
    );
    let text = match &d {
        Decision::Abort { reason } => reason.to_string(),
        _ => unreachable!(),
    };
    assert!(
        text.contains("4.3-IV0")
            && text.contains("4.4-IV2")
            && text.contains("nothing was finalized"),
        "{text}"
    );
    assert!(roller.is_finished());
    assert_eq!(roller.decide(&snapshot, Millis(3_000)), d);
    // A node that does not report the feature at all is no better.
    let mut roller = software_roll();
    let mut snapshot = brokers_cluster();
    roller.handle_software(BTreeMap::from([(n(1), Ok(None))]));
    restart_node_1(&mut roller, &mut snapshot);
    assert!(matches!(
        roller.decide(&snapshot, Millis(2_000)),
        Decision::Abort {
            reason: RollError::WrongSoftware { reported: None, .. }
        }
    ));
}

#[test]
fn a_node_counts_as_back_only_once_its_target_software_is_read() {
    let mut roller = software_roll();
    let mut snapshot = brokers_cluster();
    restart_node_1(&mut roller, &mut snapshot);
    // Its software cannot be read yet: not back, node 2 waits, the wait says why.
    roller.handle_software(BTreeMap::from([(n(1), Err("connection refused".into()))]));
    let d = roller.decide(&snapshot, Millis(2_000));
    let why = blocked_reason(&d);
    assert!(
        why.contains("software") && why.contains("connection refused"),
        "{why}"
    );
    // Never read: the post-restart timeout ends the roll like a node that never served.
    let mut late = roller.clone();
    assert!(matches!(
        late.decide(&snapshot, Millis(60_010)),
        Decision::Abort {
            reason: RollError::NotServingInTime { .. }
        }
    ));
    // Read on the target software: back, node 2 is next. The saved state (JSON) keeps what
    // each node must run, so a resumed roll checks it too.
    roller.handle_software(BTreeMap::from([(n(1), Ok(Some(33))), (n(2), Ok(Some(30)))]));
    let d = roller.decide(&snapshot, Millis(3_000));
    assert_eq!(d.restarted_nodes(), vec![n(2)], "{d:?}");
    let mut resumed: Roller =
        serde_json::from_str(&serde_json::to_string(&roller).unwrap()).unwrap();
    assert_eq!(resumed.contexts()[&n(2)].expected_software, Some(33));
    resumed.handle_restart_done(n(2), Millis(3_010));
    snapshot.nodes[2].incarnation = Some("uid-2-1".into());
    resumed.decide(&snapshot, Millis(4_000));
    // The restored roller was given no report yet: not back.
    assert!(blocked_reason(&resumed.decide(&snapshot, Millis(5_000))).contains("software"));
    resumed.handle_software(BTreeMap::from([(n(1), Ok(Some(33))), (n(2), Ok(Some(30)))]));
    assert!(matches!(
        resumed.decide(&snapshot, Millis(6_000)),
        Decision::Abort {
            reason: RollError::WrongSoftware { node, .. }
        } if node == n(2)
    ));
}
