//! Unit tests: every builder sends only the names its endpoint accepts, and a reason on mutations.

use super::*;

#[test]
fn a_replay_keeps_the_parameters_and_sets_the_throttle() {
    let (e, q) = replay_query(
        "http://cc:9090/kafkacruisecontrol/add_broker?brokerid=4&json=true&dryrun=false&replication_throttle=1024&reason=x&concurrent_partition_movements_per_broker=2",
        5_000_000,
        true,
        "again",
    )
    .unwrap();
    assert_eq!(e, Endpoint::AddBroker);
    assert_accepted(e, &q);
    assert!(q.contains(&("brokerid", "4".into())));
    assert!(q.contains(&("concurrent_partition_movements_per_broker", "2".into())));
    assert!(q.contains(&("replication_throttle", "5000000".into())));
    assert!(q.contains(&("dryrun", "true".into())));
    assert_eq!(
        q.iter()
            .filter(|(k, _)| *k == "replication_throttle")
            .count(),
        1
    );
    assert!(!q.iter().any(|(k, _)| *k == "json"));
    // Cruise Control's own form.
    let (e, q) = replay_query(
        "POST /kafkacruisecontrol/remove_broker?brokerid=2,3&dryrun=false&json=true",
        7,
        false,
        "r",
    )
    .unwrap();
    assert_eq!(e, Endpoint::RemoveBroker);
    assert!(q.contains(&("brokerid", "2,3".into())));
    assert!(q.contains(&("dryrun", "false".into())));
    assert!(replay_query("/kafkacruisecontrol/state?verbose=true", 1, true, "r").is_err());
    assert!(replay_query("/kafkacruisecontrol/rebalance?bogus=1", 1, true, "r").is_err());
}

fn assert_accepted(endpoint: Endpoint, q: &Query) {
    let ok = accepted(endpoint);
    for (k, _) in q {
        assert!(ok.contains(k), "{endpoint} does not accept {k}");
    }
}

fn full_goals() -> GoalOptions {
    GoalOptions {
        goals: vec!["RackAwareGoal".into(), "ReplicaCapacityGoal".into()],
        excluded_topics: Some("__.*".into()),
        skip_hard_goal_check: true,
        exclude_recently_demoted_brokers: true,
        destination_broker_ids: vec![1, 2],
        rebalance_disk: false,
    }
}

fn full_exec() -> ExecutionOptions {
    ExecutionOptions {
        dryrun: false,
        replication_throttle: Some(1000),
        concurrent_partition_movements_per_broker: Some(2),
        concurrent_leader_movements: Some(10),
        max_partition_movements_in_cluster: Some(7),
        concurrent_intra_broker_partition_movements: Some(3),
        replica_movement_strategies: vec!["PrioritizeSmallReplicaMovementStrategy".into()],
    }
}

#[test]
fn every_builder_sends_only_accepted_names_and_a_reason_on_mutations() {
    for kind in [
        RebalanceKind::AddBrokers(vec![3, 4]),
        RebalanceKind::RemoveBrokers {
            brokers: vec![3],
            destinations: vec![1, 2],
        },
        RebalanceKind::Full,
        RebalanceKind::Demote(vec![2]),
        RebalanceKind::RemoveDisks(vec!["1-/data/a".into()]),
    ] {
        let r = RebalanceRequest {
            kind: kind.clone(),
            goals: full_goals(),
            execution: full_exec(),
            reason: "why".into(),
            verbose: true,
            review_id: None,
            extra: Vec::new(),
        };
        let q = r.query();
        assert_accepted(kind.endpoint(), &q);
        assert!(q.contains(&("reason", "why".into())));
        assert!(q.contains(&("dryrun", "false".into())));
    }
    let p = ProposalsRequest {
        goals: full_goals(),
        destination_broker_ids: vec![1],
        ignore_proposal_cache: true,
        verbose: true,
        reason: "r".into(),
    };
    let q = p.query();
    assert_accepted(Endpoint::Proposals, &q);
    // goals and ignore_proposal_cache together are a 400.
    assert!(!q.iter().any(|(k, _)| *k == "ignore_proposal_cache"));
    let t = TopicConfigurationRequest {
        topic: "a|b".into(),
        replication_factor: 3,
        by_factor: Default::default(),
        skip_rack_awareness_check: true,
        execution: full_exec(),
        goals: full_goals(),
        reason: "r".into(),
    };
    assert_accepted(Endpoint::TopicConfiguration, &t.query());
    assert_eq!(t.body(), None);
    // Body form: several factors in one request, never with topic/replication_factor.
    let mut b = t.clone();
    b.by_factor = [(2, r"a\.x|b".to_string()), (3, "c".to_string())].into();
    let q = b.query();
    assert_accepted(Endpoint::TopicConfiguration, &q);
    assert!(
        !q.iter()
            .any(|(k, _)| *k == "topic" || *k == "replication_factor")
    );
    let body: serde_json::Value = serde_json::from_str(&b.body().unwrap()).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"replication_factor":{"topic_by_replication_factor":{"2":"a\\.x|b","3":"c"}}})
    );
    assert_accepted(Endpoint::State, &state_query(&Substate::ALL, true));
    assert_accepted(
        Endpoint::UserTasks,
        &user_tasks_query(&["a".into(), "b".into()], true),
    );
    assert_accepted(Endpoint::StopProposalExecution, &stop_query("r"));
    assert_accepted(
        Endpoint::KafkaClusterState,
        &kafka_cluster_state_query(Some("t"), true),
    );
    assert_accepted(Endpoint::Load, &load_query(true));
}

#[test]
fn add_broker_never_gets_destinations_and_zero_values_are_omitted() {
    assert!(!accepted(Endpoint::AddBroker).contains(&"destination_broker_ids"));
    assert!(
        !accepted(Endpoint::AddBroker).contains(&"concurrent_intra_broker_partition_movements")
    );
    let r = RebalanceRequest {
        kind: RebalanceKind::AddBrokers(vec![4]),
        goals: GoalOptions::default(),
        execution: ExecutionOptions {
            dryrun: true,
            replication_throttle: Some(0),
            concurrent_partition_movements_per_broker: Some(0),
            concurrent_leader_movements: None,
            ..ExecutionOptions::default()
        },
        reason: "r".into(),
        verbose: false,
        review_id: None,
        extra: Vec::new(),
    };
    let names: Vec<_> = r.query().into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        names,
        vec![
            "brokerid",
            "exclude_recently_removed_brokers",
            "dryrun",
            "reason"
        ]
    );
    assert_accepted(Endpoint::AddBroker, &r.query());
}
