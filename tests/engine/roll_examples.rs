//! Example tests for the cases the Strimzi proposal names, each built by
//! hand so the expected decision can be read off the test.

use std::collections::BTreeMap;

use kafkaops::engine::model::{
    ClusterSnapshot, ConfigEntry, Millis, NodeId, NodeRoles, NodeSnapshot, ObservedState,
    PartitionSnapshot, QuorumSnapshot, TopicPartition, TopicSettings, VoterState,
};
use kafkaops::engine::roll::sim::{
    ClusterSpec, Outcome, Phase, Placement, SimCluster, default_config, run_roll,
};
use kafkaops::engine::roll::{Decision, NodeRequest, PlanStep, RollConfig, RollError, Roller};

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
        incarnation: None,
    }
}

fn partition(topic: &str, p: i32, replicas: &[i32], isr: &[i32]) -> PartitionSnapshot {
    PartitionSnapshot {
        tp: TopicPartition {
            topic: topic.into(),
            partition: p,
        },
        replicas: replicas.iter().map(|r| n(*r)).collect(),
        isr: isr.iter().map(|r| n(*r)).collect(),
        leader: replicas.first().map(|r| n(*r)),
        adding: Vec::new(),
        removing: Vec::new(),
    }
}

fn quorum(leader: i32, voters: &[(i32, i64)]) -> Option<QuorumSnapshot> {
    Some(QuorumSnapshot {
        leader: Some(n(leader)),
        voters: voters
            .iter()
            .map(|(id, ts)| VoterState {
                id: n(*id),
                last_caught_up_ms: Some(*ts),
                last_fetch_ms: None,
            })
            .collect(),
        observers: Vec::new(),
    })
}

fn restart_all(ids: &[i32]) -> BTreeMap<NodeId, NodeRequest> {
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

/// The selection without restart reasons: restarted only if unhealthy.
fn select_only(ids: &[i32]) -> BTreeMap<NodeId, NodeRequest> {
    ids.iter()
        .map(|id| (n(*id), NodeRequest::default()))
        .collect()
}

fn topics(entries: &[(&str, u32)]) -> BTreeMap<String, TopicSettings> {
    entries
        .iter()
        .map(|(t, m)| {
            (
                t.to_string(),
                TopicSettings {
                    min_insync_replicas: Some(*m),
                },
            )
        })
        .collect()
}

fn restarted(d: &Decision) -> Vec<NodeId> {
    d.restarted_nodes()
}

/// Three combined nodes, all not running (pods pending): they restart
/// together so that a quorum can form (strimzi#9426).
#[test]
fn all_combined_nodes_not_running_restart_together() {
    let snapshot = ClusterSnapshot {
        nodes: (0..3)
            .map(|i| node(i, NodeRoles::COMBINED, ObservedState::NotRunning))
            .collect(),
        partitions: vec![partition("t", 0, &[0, 1, 2], &[0])],
        topics: topics(&[("t", 2)]),
        quorum: None,
    };
    let mut roller = Roller::new(RollConfig::default(), restart_all(&[0, 1, 2]));
    let d = roller.decide(&snapshot, Millis(0));
    assert_eq!(restarted(&d), vec![n(0), n(1), n(2)], "{d:?}");

    // The same in the simulator, end to end.
    let spec = ClusterSpec {
        brokers: 2,
        combined: 3,
        controllers: 0,
        topics: 2,
        partitions_per_topic: 4,
        replication_factor: 3,
        min_isr_choices: vec![2],
        racks: 1,
        placement: Placement::Random,
    };
    let mut sim = SimCluster::generate(&spec, 7);
    for c in sim.controllers() {
        sim.take_down(c, None);
    }
    sim.advance_to(Millis(0));
    assert_eq!(sim.quorum_leader, None);
    let mut roller = Roller::new(RollConfig::default(), sim.requests());
    let (outcome, _) = run_roll(&mut sim, &mut roller, 10_000, |_, _| {});
    assert_eq!(outcome, Outcome::Done);
    assert_eq!(sim.batches[0], vec![n(0), n(1), n(2)]);
    assert!(sim.violations.is_empty(), "{:?}", sim.violations);
}

/// One not-running combined node among serving ones restarts alone.
#[test]
fn one_combined_node_not_running_restarts_alone() {
    let snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::COMBINED, ObservedState::NotRunning),
            node(1, NodeRoles::COMBINED, ObservedState::Serving),
            node(2, NodeRoles::COMBINED, ObservedState::Serving),
        ],
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(1, &[(0, 0), (1, 10_000), (2, 10_000)]),
    };
    let mut roller = Roller::new(RollConfig::default(), select_only(&[0, 1, 2]));
    let d = roller.decide(&snapshot, Millis(0));
    assert_eq!(restarted(&d), vec![n(0)], "{d:?}");
}

/// Pure controllers that are not active first, then the active controller,
/// then brokers.
#[test]
fn active_pure_controller_restarts_after_other_controllers_and_before_brokers() {
    let spec = ClusterSpec {
        brokers: 3,
        combined: 0,
        controllers: 3,
        topics: 1,
        partitions_per_topic: 6,
        replication_factor: 3,
        min_isr_choices: vec![2],
        racks: 3,
        placement: Placement::RackAware,
    };
    let mut sim = SimCluster::generate(&spec, 1);
    // Controllers are 3, 4, 5; make 4 the active one.
    sim.quorum_leader = Some(n(4));
    sim.advance_to(Millis(0));
    for id in 0..6 {
        sim.restart_reasons.insert(n(id), vec!["CA renewed".into()]);
    }
    let mut roller = Roller::new(RollConfig::default(), sim.requests());
    let (outcome, _) = run_roll(&mut sim, &mut roller, 10_000, |_, _| {});
    assert_eq!(outcome, Outcome::Done);
    assert!(sim.violations.is_empty(), "{:?}", sim.violations);
    assert_eq!(sim.batches[0], vec![n(3)]);
    assert_eq!(sim.batches[1], vec![n(5)]);
    // 4 was active when its turn came (the quorum leader never moved in this
    // run because 4 stayed up until then).
    assert_eq!(sim.batches[2], vec![n(4)]);
    let brokers: Vec<NodeId> = sim.batches[3..].iter().flatten().copied().collect();
    assert_eq!(brokers.len(), 3);
}

/// In a combined cluster the active controller restarts last.
#[test]
fn active_combined_controller_restarts_last() {
    let spec = ClusterSpec {
        brokers: 2,
        combined: 3,
        controllers: 0,
        topics: 2,
        partitions_per_topic: 5,
        replication_factor: 2,
        min_isr_choices: vec![1],
        racks: 1,
        placement: Placement::Random,
    };
    let mut sim = SimCluster::generate(&spec, 3);
    sim.quorum_leader = Some(n(1));
    for id in 0..5 {
        sim.restart_reasons
            .insert(n(id), vec!["image changed".into()]);
    }
    let mut roller = Roller::new(
        RollConfig {
            max_batch_size: 2,
            ..RollConfig::default()
        },
        sim.requests(),
    );
    let (outcome, _) = run_roll(&mut sim, &mut roller, 10_000, |_, _| {});
    assert_eq!(outcome, Outcome::Done);
    assert!(sim.violations.is_empty(), "{:?}", sim.violations);
    assert_eq!(sim.batches.last(), Some(&vec![n(1)]), "{:?}", sim.batches);
    assert_eq!(sim.batches.iter().flatten().count(), 5);
}

/// A broker in log recovery holds every restart back, and the roll goes on
/// once it has recovered.
#[test]
fn broker_in_log_recovery_blocks_restarts_until_recovered() {
    let spec = ClusterSpec {
        brokers: 3,
        combined: 0,
        controllers: 1,
        topics: 1,
        partitions_per_topic: 3,
        replication_factor: 3,
        min_isr_choices: vec![1],
        racks: 1,
        placement: Placement::Random,
    };
    let mut sim = SimCluster::generate(&spec, 5);
    sim.take_down(n(0), None);
    sim.nodes.get_mut(&n(0)).unwrap().phase = Phase::Recovering {
        until: Millis(40_000),
    };
    for id in [1, 2] {
        sim.restart_reasons
            .insert(n(id), vec!["config changed".into()]);
    }
    let mut roller = Roller::new(RollConfig::default(), sim.requests());
    let d = roller.decide(&sim.snapshot(), Millis(0));
    match &d {
        Decision::Wait { for_what, .. } => {
            assert!(for_what.to_string().contains("log recovery"), "{for_what}")
        }
        other => panic!("expected a wait, got {other:?}"),
    }
    let plan = roller.plan(&sim.snapshot());
    assert!(
        matches!(&plan.steps[0], PlanStep::Blocked { reason, .. } if reason.contains("log recovery")),
        "{plan:?}"
    );
    let mut roller = Roller::new(RollConfig::default(), sim.requests());
    let (outcome, _) = run_roll(&mut sim, &mut roller, 10_000, |sim, d| {
        if let Decision::Restart { .. } = d {
            assert!(
                sim.now >= Millis(40_000),
                "restarted during log recovery at {}",
                sim.now
            );
        }
    });
    assert_eq!(outcome, Outcome::Done);
    assert!(sim.violations.is_empty(), "{:?}", sim.violations);
}

/// A node still in log recovery after `blocked_timeout_ms` aborts the roll
/// with that reason.
#[test]
fn endless_log_recovery_aborts_with_the_reason() {
    let snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::COMBINED, ObservedState::Serving),
            node(1, NodeRoles::BROKER, ObservedState::Recovering),
            node(2, NodeRoles::BROKER, ObservedState::Serving),
        ],
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(0, &[(0, 0)]),
    };
    let config = RollConfig {
        blocked_timeout_ms: 10_000,
        ..RollConfig::default()
    };
    let mut roller = Roller::new(config, restart_all(&[2]));
    assert!(matches!(
        roller.decide(&snapshot, Millis(0)),
        Decision::Wait { .. }
    ));
    assert!(matches!(
        roller.decide(&snapshot, Millis(5_000)),
        Decision::Wait { .. }
    ));
    let d = roller.decide(&snapshot, Millis(10_000));
    assert_eq!(
        d,
        Decision::Abort {
            reason: RollError::NodeInLogRecovery { node: n(1) }
        }
    );
    // Nothing further after an abort.
    assert_eq!(roller.decide(&snapshot, Millis(20_000)), d);
}

/// RF=1 topics cannot be rolled without a gap; like Strimzi, they are not
/// allowed to block the roll.
#[test]
fn rf1_topics_do_not_block() {
    let snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::BROKER, ObservedState::Serving),
            node(2, NodeRoles::BROKER, ObservedState::Serving),
        ],
        partitions: vec![
            partition("single", 0, &[1], &[1]),
            partition("single", 1, &[2], &[2]),
        ],
        topics: topics(&[("single", 1)]),
        quorum: quorum(0, &[(0, 0)]),
    };
    let mut roller = Roller::new(
        RollConfig {
            max_batch_size: 5,
            ..RollConfig::default()
        },
        restart_all(&[1, 2]),
    );
    let d = roller.decide(&snapshot, Millis(0));
    assert_eq!(restarted(&d), vec![n(1), n(2)], "{d:?}");
}

/// Topics with RF <= min.insync.replicas are skipped (Strimzi's `<=`), while
/// RF > min ISR partitions at exactly min ISR block.
#[test]
fn rf_not_above_min_isr_is_skipped_but_rf_above_min_isr_at_min_blocks() {
    let mut snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::BROKER, ObservedState::Serving),
            node(2, NodeRoles::BROKER, ObservedState::Serving),
            node(3, NodeRoles::BROKER, ObservedState::Serving),
        ],
        partitions: vec![partition("rf2", 0, &[1, 2], &[1, 2])],
        topics: topics(&[("rf2", 2), ("rf3", 2)]),
        quorum: quorum(0, &[(0, 0)]),
    };
    let mut roller = Roller::new(RollConfig::default(), restart_all(&[1]));
    assert_eq!(restarted(&roller.decide(&snapshot, Millis(0))), vec![n(1)]);

    snapshot
        .partitions
        .push(partition("rf3", 0, &[1, 2, 3], &[1, 2]));
    let mut roller = Roller::new(RollConfig::default(), restart_all(&[1]));
    match roller.decide(&snapshot, Millis(0)) {
        Decision::Wait { for_what, .. } => {
            assert!(
                for_what.to_string().contains("rf3-0")
                    && for_what.to_string().contains("min.insync.replicas"),
                "{for_what}"
            );
        }
        other => panic!("expected a blocked wait, got {other:?}"),
    }
    // Still blocked after the timeout: abort with the typed reason.
    let d = roller.decide(&snapshot, Millis(300_000));
    assert_eq!(
        d,
        Decision::Abort {
            reason: RollError::WouldBreakMinIsr {
                node: n(1),
                topic: "rf3".into(),
                partition: 0,
                isr: 2,
                min_isr: 2,
            }
        }
    );
}

/// The race the proposal leaves open: foo-0 has ISR [1, 2, 4] while 4 is
/// being added and 2 removed. Restarting 1 would leave [4] once 2 is gone.
#[test]
fn reassignment_in_flight_is_judged_after_completion() {
    let mut p = partition("foo", 0, &[1, 2, 4], &[1, 2, 4]);
    p.adding = vec![n(4)];
    p.removing = vec![n(2)];
    let snapshot = ClusterSnapshot {
        nodes: (0..5)
            .map(|i| node(i, NodeRoles::BROKER, ObservedState::Serving))
            .collect(),
        partitions: vec![p],
        topics: topics(&[("foo", 2)]),
        quorum: None,
    };
    let mut roller = Roller::new(RollConfig::default(), restart_all(&[1]));
    match roller.decide(&snapshot, Millis(0)) {
        Decision::Wait { for_what, .. } => {
            assert!(for_what.to_string().contains("foo-0"), "{for_what}")
        }
        other => panic!("expected a blocked wait, got {other:?}"),
    }
    // Node 2, the one leaving, may restart: the target ISR [1, 4] stays at 2.
    let mut roller = Roller::new(RollConfig::default(), restart_all(&[2]));
    assert_eq!(restarted(&roller.decide(&snapshot, Millis(0))), vec![n(2)]);
}

/// Quorum health uses the active controller's fetch timeout and counts
/// controllers by their assigned roles; voters left in the leader's voter set
/// by a scale-down still count in its majority until they are removed
/// (issue 23, point 3).
#[test]
fn quorum_check_uses_active_controller_timeout_and_assigned_roles() {
    let mut snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(2, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(3, NodeRoles::BROKER, ObservedState::Serving),
        ],
        partitions: vec![],
        topics: BTreeMap::new(),
        // Node 2 is 5 s behind the leader.
        quorum: quorum(0, &[(0, 100_000), (1, 100_000), (2, 95_000)]),
    };
    // With the default 2 s timeout, 2 is not caught up: restarting 1 would
    // leave only the leader.
    let mut roller = Roller::new(RollConfig::default(), restart_all(&[1]));
    match roller.decide(&snapshot, Millis(0)) {
        Decision::Wait { for_what, .. } => {
            assert!(for_what.to_string().contains("controller"), "{for_what}")
        }
        other => panic!("expected a blocked wait, got {other:?}"),
    }
    // The active controller runs with a 10 s timeout: now 2 counts.
    snapshot.nodes[0].config.insert(
        "controller.quorum.fetch.timeout.ms".into(),
        ConfigEntry {
            value: Some("10000".into()),
            read_only: true,
            sensitive: false,
        },
    );
    let mut roller = Roller::new(RollConfig::default(), restart_all(&[1]));
    assert_eq!(restarted(&roller.decide(&snapshot, Millis(0))), vec![n(1)]);

    // Scale-down leftovers in the leader's voters list (9, 10 gone, both far behind, not yet
    // removed with RemoveRaftVoter): the leader needs 3 of those 5 to commit, so restarting 1
    // (leaving 0 and 2) would stall the metadata quorum. Refused until they are removed.
    // (Before issue 23 this asserted the restart of 1: N=3 by roles.)
    if let Some(q) = snapshot.quorum.as_mut() {
        q.voters.push(VoterState {
            id: n(9),
            last_caught_up_ms: Some(0),
            last_fetch_ms: None,
        });
        q.voters.push(VoterState {
            id: n(10),
            last_caught_up_ms: None,
            last_fetch_ms: None,
        });
    }
    let mut roller = Roller::new(RollConfig::default(), restart_all(&[1]));
    match roller.decide(&snapshot, Millis(0)) {
        Decision::Wait { for_what, .. } => assert!(
            for_what.to_string().contains("quorum") && for_what.to_string().contains('5'),
            "{for_what}"
        ),
        other => panic!("expected a blocked wait, got {other:?}"),
    }
    if let Some(q) = snapshot.quorum.as_mut() {
        q.voters.retain(|v| v.id.0 < 9);
    }
    let mut roller = Roller::new(RollConfig::default(), restart_all(&[1]));
    assert_eq!(restarted(&roller.decide(&snapshot, Millis(0))), vec![n(1)]);
}

fn dynamic_change(key: &str, value: &str) -> BTreeMap<NodeId, NodeRequest> {
    BTreeMap::from([(
        n(1),
        NodeRequest {
            restart_reasons: vec![],
            desired_config: BTreeMap::from([(key.to_string(), value.to_string())]),
            expected_software: None,
        },
    )])
}

/// Dynamic-only changes reconfigure, a read-only change restarts, and a
/// reconfiguration that does not stick turns into a restart after
/// `max_reconfig_attempts`.
#[test]
fn reconfigure_when_dynamic_restart_when_not_or_after_failed_attempts() {
    let snapshot = ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::BROKER, ObservedState::Serving),
        ],
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(0, &[(0, 0)]),
    };
    let mut roller = Roller::new(
        RollConfig::default(),
        dynamic_change("log.retention.ms", "1000"),
    );
    assert!(
        matches!(roller.decide(&snapshot, Millis(0)), Decision::Reconfigure { node, .. } if node == n(1))
    );

    let mut roller = Roller::new(RollConfig::default(), dynamic_change("log.dirs", "/x"));
    assert_eq!(restarted(&roller.decide(&snapshot, Millis(0))), vec![n(1)]);

    // The change never sticks (the snapshot keeps the old value).
    let config = RollConfig {
        max_reconfig_attempts: 2,
        ..RollConfig::default()
    };
    let mut roller = Roller::new(config, dynamic_change("log.retention.ms", "1000"));
    let mut kinds = Vec::new();
    let mut now = Millis(0);
    for _ in 0..10 {
        let d = roller.decide(&snapshot, now);
        kinds.push(match &d {
            Decision::Reconfigure { .. } => "reconfigure",
            Decision::Restart { .. } => "restart",
            _ => "other",
        });
        if let Decision::Restart { nodes, .. } = &d {
            assert!(nodes[0].reason.contains("reconfiguration attempt"), "{d:?}");
            break;
        }
        now = now.plus(1_000);
    }
    assert_eq!(kinds, vec!["reconfigure", "reconfigure", "restart"]);
}

/// A node that never comes back aborts the roll with `NotServingInTime`, and
/// nothing else is restarted.
#[test]
fn node_that_never_returns_aborts_the_roll() {
    let spec = ClusterSpec {
        brokers: 4,
        combined: 0,
        controllers: 1,
        topics: 1,
        partitions_per_topic: 4,
        replication_factor: 2,
        min_isr_choices: vec![1],
        racks: 1,
        placement: Placement::Random,
    };
    let mut sim = SimCluster::generate(&spec, 9);
    for id in 0..4 {
        sim.restart_reasons.insert(n(id), vec!["x".into()]);
        sim.nodes.get_mut(&n(id)).unwrap().behaviour.never_returns = true;
    }
    let mut roller = Roller::new(RollConfig::default(), sim.requests());
    let (outcome, _) = run_roll(&mut sim, &mut roller, 10_000, |_, _| {});
    assert!(
        matches!(
            outcome,
            Outcome::Aborted(RollError::NotServingInTime {
                waited_ms: 60_000,
                ..
            })
        ),
        "{outcome:?}"
    );
    assert_eq!(sim.batches.len(), 1);
}

/// Brokers 0..=2 and a controller; one topic of 3 partitions at RF 2, min ISR 1 (seed 11).
fn three_brokers_rf2() -> SimCluster {
    let spec = ClusterSpec {
        brokers: 3,
        combined: 0,
        controllers: 1,
        topics: 1,
        partitions_per_topic: 3,
        replication_factor: 2,
        min_isr_choices: vec![1],
        racks: 1,
        placement: Placement::Random,
    };
    SimCluster::generate(&spec, 11)
}

/// A healthy node that crashes while another is being restarted aborts the
/// roll.
#[test]
fn healthy_node_turning_unhealthy_aborts() {
    let mut sim = three_brokers_rf2();
    sim.restart_reasons.insert(n(0), vec!["x".into()]);
    sim.scheduled.push((
        Millis(1_500),
        kafkaops::engine::roll::sim::Fault::Crash {
            node: n(2),
            down_ms: None,
        },
    ));
    let mut roller = Roller::new(RollConfig::default(), sim.requests());
    let (outcome, _) = run_roll(&mut sim, &mut roller, 10_000, |_, _| {});
    assert_eq!(
        outcome,
        Outcome::Aborted(RollError::NodeBecameUnhealthy {
            node: n(2),
            state: ObservedState::NotRunning
        })
    );
}

/// Found by the soak (`benches/soak.sh`): a node outside the action crashed while the roll's
/// own restart was still coming back, the roll stopped at once, and `operate`'s next roll
/// restarted the crashed node while ours still came up (two restarts at the same time). The
/// roll now stops only once its own node is back: when it ends, node 0 serves again, and
/// nothing else was restarted meanwhile.
#[test]
fn a_node_turning_unhealthy_during_our_restart_stops_the_roll_once_ours_is_back() {
    let mut sim = three_brokers_rf2();
    sim.restart_reasons.insert(n(0), vec!["x".into()]);
    sim.restart_reasons.insert(n(1), vec!["x".into()]);
    sim.scheduled.push((
        Millis(1_500),
        kafkaops::engine::roll::sim::Fault::Crash {
            node: n(2),
            down_ms: None,
        },
    ));
    // Polls often enough to see node 2 go down while node 0 is still down.
    let config = RollConfig {
        poll_interval_ms: 500,
        ..RollConfig::default()
    };
    let mut roller = Roller::new(config, sim.requests());
    let mut at_stop = None;
    let (outcome, _) = run_roll(&mut sim, &mut roller, 10_000, |sim, d| {
        if matches!(d, Decision::Abort { .. }) {
            at_stop = Some(sim.nodes[&n(0)].is_serving());
        }
    });
    assert_eq!(
        outcome,
        Outcome::Aborted(RollError::NodeBecameUnhealthy {
            node: n(2),
            state: ObservedState::NotRunning
        })
    );
    assert_eq!(sim.batches, vec![vec![n(0)]], "only node 0 was restarted");
    assert_eq!(
        at_stop,
        Some(true),
        "the roll stopped while its own restart of node 0 was still coming back"
    );
}

/// `max_restart_attempts` is enforced before restarting.
#[test]
fn max_restarts_exceeded_aborts() {
    let snapshot = ClusterSnapshot {
        nodes: vec![node(0, NodeRoles::COMBINED, ObservedState::Serving)],
        partitions: vec![],
        topics: BTreeMap::new(),
        quorum: quorum(0, &[(0, 0)]),
    };
    let config = RollConfig {
        max_restart_attempts: 0,
        ..RollConfig::default()
    };
    let mut roller = Roller::new(config, restart_all(&[0]));
    assert_eq!(
        roller.decide(&snapshot, Millis(0)),
        Decision::Abort {
            reason: RollError::MaxRestartsExceeded {
                node: n(0),
                restarts: 0,
                max: 0
            }
        }
    );
}

/// After a restart the roller waits for SERVING, asks for a preferred leader
/// election once the node is back in all its ISRs, then goes on.
#[test]
fn preferred_leader_election_once_back_in_isr() {
    let spec = ClusterSpec {
        brokers: 3,
        combined: 0,
        controllers: 1,
        topics: 1,
        partitions_per_topic: 6,
        replication_factor: 3,
        min_isr_choices: vec![2],
        racks: 1,
        placement: Placement::Random,
    };
    let mut sim = SimCluster::generate(&spec, 2);
    sim.restart_reasons.insert(n(0), vec!["x".into()]);
    let mut roller = Roller::new(RollConfig::default(), sim.requests());
    let mut elections = Vec::new();
    let (outcome, _) = run_roll(&mut sim, &mut roller, 10_000, |sim, d| {
        if let Decision::ElectPreferredLeaders {
            nodes, partitions, ..
        } = d
        {
            // Back in every ISR when asked.
            for p in &sim.partitions {
                if p.p.replicas.contains(&n(0)) {
                    assert!(p.p.isr.contains(&n(0)));
                }
            }
            elections.push((nodes.clone(), partitions.len()));
        }
    });
    assert_eq!(outcome, Outcome::Done);
    assert_eq!(elections.len(), 1);
    assert_eq!(elections[0].0, vec![n(0)]);
    assert!(elections[0].1 > 0);
    for p in &sim.partitions {
        assert_eq!(p.p.leader, p.p.replicas.first().copied(), "{}", p.p.tp);
    }
}

/// The dry-run plan lists batches in order with a reason per node.
#[test]
fn plan_lists_batches_with_reasons() {
    let spec = ClusterSpec {
        brokers: 6,
        combined: 0,
        controllers: 3,
        topics: 3,
        partitions_per_topic: 10,
        replication_factor: 3,
        min_isr_choices: vec![2],
        racks: 3,
        placement: Placement::RackAware,
    };
    let mut sim = SimCluster::generate(&spec, 4);
    for id in 0..9 {
        sim.restart_reasons
            .insert(n(id), vec![format!("reason for {id}")]);
    }
    let config = RollConfig {
        max_batch_size: 3,
        ..RollConfig::default()
    };
    let roller = Roller::new(config, sim.requests());
    let plan = roller.plan(&sim.snapshot());
    // Controllers 7 and 8 (non-active), then 6 (active), then brokers in
    // rack-sized batches of 2 (6 brokers over 3 racks).
    let batches: Vec<Vec<NodeId>> = plan
        .steps
        .iter()
        .map(|s| match s {
            PlanStep::Restart { nodes, .. } => nodes.iter().map(|n| n.node).collect(),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(batches[0], vec![n(7)]);
    assert_eq!(batches[1], vec![n(8)]);
    assert_eq!(batches[2], vec![n(6)]);
    assert_eq!(batches[3..].iter().map(Vec::len).sum::<usize>(), 6);
    assert_eq!(batches.len(), 6, "{batches:?}");
    for s in &plan.steps {
        if let PlanStep::Restart { nodes, reason } = s {
            assert!(!reason.is_empty());
            for x in nodes {
                assert_eq!(x.reason, format!("reason for {}", x.node));
            }
        }
    }
    // JSON shape is stable enough to print for --dry-run.
    let json = serde_json::to_value(&plan).unwrap();
    assert_eq!(json["steps"][0]["action"], "restart");
}

/// The roller can be saved and restored between steps (one step per
/// reconcile) and then decides exactly as the original would.
#[test]
fn roller_survives_a_json_round_trip_mid_roll() {
    let spec = ClusterSpec {
        brokers: 4,
        combined: 3,
        controllers: 0,
        topics: 2,
        partitions_per_topic: 6,
        replication_factor: 3,
        min_isr_choices: vec![2],
        racks: 3,
        placement: Placement::RackAware,
    };
    let mut sim = SimCluster::generate(&spec, 21);
    for id in 0..7 {
        sim.restart_reasons.insert(n(id), vec!["x".into()]);
    }
    let mut a = sim.clone();
    let mut roller = Roller::new(RollConfig::default(), sim.requests());
    let mut decisions = Vec::new();
    let (outcome, _) = run_roll(&mut a, &mut roller, 10_000, |_, d| {
        decisions.push(d.clone())
    });
    assert_eq!(outcome, Outcome::Done);

    let mut roller = Roller::new(RollConfig::default(), sim.requests());
    sim.start_roll(roller.config().clone());
    for (step, expected) in decisions.iter().enumerate() {
        let json = serde_json::to_string(&roller).unwrap();
        roller = serde_json::from_str(&json).unwrap();
        let d = roller.decide(&sim.snapshot(), sim.now);
        assert_eq!(&d, expected, "step {step}");
        sim.apply(&d);
        sim.feed_back(&mut roller, &d);
        match &d {
            Decision::Wait { until, .. } => {
                let to = (*until).max(sim.now.plus(1));
                sim.advance_to(to);
            }
            _ => sim.advance_to(sim.now.plus(100)),
        }
    }
    let json = serde_json::to_string(decisions.last().unwrap()).unwrap();
    let back: Decision = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, decisions.last().unwrap());
}
