//! Issue 23 (second safety audit), points 1-6: one test per unsafe input, named after it; then
//! the later cases of the same kind (read-only settings, Cruise Control executions, replanned
//! batches, resumed plans, held nodes).

use super::*;

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
