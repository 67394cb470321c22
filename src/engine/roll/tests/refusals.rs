//! What the roll refuses or waits for: min ISR (also during reassignments and with unknown
//! settings), the quorum, nodes in unknown or unhealthy states, an inconsistent restored state.

use super::*;

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
