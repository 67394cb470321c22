//! The KRaft lifecycle requests of the Kafka adapter (`src/kafka/kraft/`) against a real
//! cluster, through the library API, judged by what the nodes report through other means
//! (Jolokia: raft-metrics, feature gauges, app-info; the harness's files and rdkafka metadata),
//! with the engine's rules (`engine::kraft`) fed from the adapter's real answers.
//!
//! One cluster serves every step (starting one costs 5-60 s on 2 cores): 3 combined nodes and
//! broker 4, a dynamic quorum, started on the previous Kafka release (`tests/env/pom.xml`
//! `kafka.previous.version`) while an `acks=all` producer runs throughout:
//! 1. DescribeQuorum in full and every node's feature levels (ApiVersions v4);
//! 2. a 4th controller started as an observer is added with AddRaftVoter and removed with
//!    RemoveRaftVoter, each after the engine allowed it;
//! 3. broker 4's replicas are moved away and it is stopped (a ghost registration);
//! 4. the combined nodes are restarted one by one onto the current release; UpdateFeatures
//!    `metadata.version` validate-only is refused while one still runs the old one, and while
//!    the ghost broker 4 is registered;
//! 5. UnregisterBroker of broker 4; then UpdateFeatures validate-only passes without changing
//!    anything, and the real one finalizes the new level on every node;
//! 6. the producer saw no failed send.
//!
//! Run with `cargo test --test cluster kraft_lifecycle:: -- --nocapture`.

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow};
use kafkaops::engine::kraft::ghosts::{self, GhostView, UnregisterRefusal};
use kafkaops::engine::kraft::quorum::{self, Limits, QuorumRefusal, Verdict};
use kafkaops::engine::kraft::upgrade::{self, Blocker, FinalizeRefusal};
use kafkaops::engine::kraft::{KRAFT_VERSION, METADATA_VERSION};
use kafkaops::engine::model::NodeId;
use kafkaops::kafka::KafkaError;
use kafkaops::kafka::client::{ClusterObserver, KafkaClient};
use kafkaops::kafka::config::ConnectionConfig;
use kafkaops::kafka::kraft::{
    self, FeatureUpdate, NodeFeatureAnswer, UpgradeKind, finalized_kraft_version,
};
use kafkaops::kafka::observation::{RaftEndpoint, RawQuorum};
use support::kafka::{
    BackgroundProducer, ClusterSpec, KafkaCluster, KafkaVersion, create_topic, placement, wait_for,
};

use support::WAIT;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn config(cluster: &KafkaCluster, controllers: bool) -> ConnectionConfig {
    let mut c = ConnectionConfig::new(cluster.bootstrap_servers());
    c.request_timeout = Duration::from_secs(20);
    if controllers {
        c = c.with_property("bootstrap.controllers", cluster.controller_bootstrap());
    }
    c
}

/// Which nodes' processes run, as the harness knows (the platform's answer in production).
fn running(cluster: &mut KafkaCluster) -> BTreeMap<i32, bool> {
    let ids: Vec<i32> = cluster.nodes().iter().map(|n| n.id).collect();
    ids.into_iter()
        .map(|id| (id, cluster.is_running(id)))
        .collect()
}

/// The engine's quorum view from the adapter's real answers.
fn quorum_view(
    rt: &tokio::runtime::Runtime,
    client: &KafkaClient,
    cluster: &mut KafkaCluster,
) -> anyhow::Result<(RawQuorum, quorum::QuorumView)> {
    let q = rt.block_on(client.describe_quorum())?;
    let features = rt.block_on(client.finalized_features())?;
    let controllers: BTreeSet<i32> = rt
        .block_on(client.registered_controllers())?
        .into_keys()
        .collect();
    let view = kraft::quorum_view(
        &q,
        finalized_kraft_version(&features),
        &controllers,
        &running(cluster),
    );
    Ok((q, view))
}

fn upgrade_view(
    rt: &tokio::runtime::Runtime,
    client: &KafkaClient,
) -> anyhow::Result<(upgrade::UpgradeView, BTreeMap<i32, NodeFeatureAnswer>)> {
    let finalized = rt.block_on(client.finalized_features())?;
    let nodes = rt.block_on(client.node_features())?;
    Ok((kraft::upgrade_view(&finalized, &nodes), nodes))
}

fn ghost_view(
    rt: &tokio::runtime::Runtime,
    client: &KafkaClient,
    cluster: &mut KafkaCluster,
    voters: &RawQuorum,
) -> anyhow::Result<GhostView> {
    let brokers = rt.block_on(client.registered_brokers())?;
    let observation = rt.block_on(client.observe())?;
    let moving = rt.block_on(client.list_reassignments())?;
    let (registrations, partitions) =
        kraft::ghost_registrations(&brokers, &running(cluster), &observation.topics, &moving);
    Ok(GhostView {
        registrations,
        partitions,
        voters: voters.voters.iter().map(|v| NodeId(v.id)).collect(),
    })
}

fn mv_target(level: i16) -> Vec<FeatureUpdate> {
    vec![FeatureUpdate {
        feature: METADATA_VERSION.into(),
        level,
        kind: UpgradeKind::Upgrade,
    }]
}

/// Waits until every partition of `topic` has all its replicas in sync again.
fn wait_full_isr(bootstrap: &str, topic: &str) {
    wait_for(&format!("{topic} fully in sync"), WAIT, || {
        let p = placement(bootstrap, topic)?;
        Ok(p.iter()
            .all(|p| p.isr.len() == p.replicas.len())
            .then_some(()))
    })
    .unwrap();
}

#[test]
fn quorum_changes_ghost_unregistration_and_a_finalized_upgrade_on_real_kafka() {
    let previous = KafkaVersion::Previous.number().unwrap();
    let current = KafkaVersion::Current.number().unwrap();
    let mut spec = ClusterSpec::combined(3)
        .with_dynamic_quorum()
        .with_version(KafkaVersion::Previous);
    spec.brokers = 1;
    let mut cluster = KafkaCluster::start(spec).expect("start 3 combined + 1 broker");
    eprintln!(
        "3 combined + 1 broker (dynamic quorum, Kafka {previous}) ready in {:.1?}",
        cluster.start_duration()
    );
    let rt = runtime();
    let client = rt
        .block_on(KafkaClient::connect(config(&cluster, true)))
        .unwrap();
    let bootstrap = cluster.bootstrap_servers();
    let limits = Limits::default();

    // ---- 1. DescribeQuorum in full, feature levels per node -----------------------------------
    let leader = cluster.quorum_leader().unwrap().expect("a quorum leader");
    let q = rt.block_on(client.describe_quorum()).unwrap();
    assert_eq!(q.version, 2);
    assert_eq!(q.leader_id, Some(leader));
    assert!(q.leader_epoch >= 1 && q.high_watermark >= 0, "{q:?}");
    let voter_ids: Vec<i32> = q.voters.iter().map(|v| v.id).collect();
    assert_eq!(
        voter_ids.iter().copied().collect::<BTreeSet<_>>(),
        BTreeSet::from([1, 2, 3])
    );
    for v in &q.voters {
        assert_eq!(
            v.directory_id.as_deref(),
            Some(cluster.directory_id(v.id).unwrap().as_str()),
            "voter {}'s directory id is the one in its meta.properties",
            v.id
        );
        assert!(v.log_end_offset >= 0);
        let port = cluster.node(v.id).unwrap().controller_port.unwrap();
        assert_eq!(
            q.voter_endpoints[&v.id],
            vec![RaftEndpoint {
                name: "CONTROLLER".into(),
                host: "127.0.0.1".into(),
                port
            }]
        );
    }
    let me = q.voters.iter().find(|v| v.id == leader).unwrap();
    assert_eq!(me.last_fetch_timestamp, me.last_caught_up_timestamp);
    assert!(
        q.observers.iter().any(|o| o.id == 4),
        "broker 4 observes: {q:?}"
    );

    let finalized = rt.block_on(client.finalized_features()).unwrap();
    let previous_mv = cluster.finalized_level(1, METADATA_VERSION).unwrap();
    assert_eq!(finalized.finalized[METADATA_VERSION], previous_mv);
    assert_eq!(finalized_kraft_version(&finalized), Some(1));
    assert_eq!(finalized.api_versions_version, 4);
    let (view, nodes) = upgrade_view(&rt, &client).unwrap();
    assert_eq!(nodes.keys().copied().collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    for (id, answer) in &nodes {
        let f = answer.features.as_ref().expect("every node answers");
        let (min, max) = cluster.supported_levels(*id, METADATA_VERSION).unwrap();
        assert_eq!(
            (
                f.supported[METADATA_VERSION].min,
                f.supported[METADATA_VERSION].max
            ),
            (min, max)
        );
        // ApiVersions v4 lists features whose minimum level is 0.
        assert_eq!(f.supported[KRAFT_VERSION].max, 1, "node {id}");
    }
    let (software, _) = upgrade::summary(&view);
    eprintln!("software per node: {software:?}");
    let status = quorum::status(&quorum_view(&rt, &client, &mut cluster).unwrap().1, &limits);
    assert_eq!(status.verdict, Verdict::Healthy, "{status:#?}");

    // ---- producer, topics -------------------------------------------------------------------
    create_topic(
        &bootstrap,
        "kraft-acks",
        &[vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]],
        &[("min.insync.replicas", "2")],
    )
    .unwrap();
    create_topic(&bootstrap, "ghost", &[vec![4, 1]], &[]).unwrap();
    let producer = BackgroundProducer::start(&bootstrap, "kraft-acks").unwrap();

    // ---- 2. add a 4th controller, then remove it ----------------------------------------------
    let began = Instant::now();
    let added = cluster
        .add_controller(KafkaVersion::Current, WAIT)
        .expect("a controller observing");
    eprintln!("controller {added} observing in {:.1?}", began.elapsed());
    let directory_id = cluster.directory_id(added).unwrap();
    // The engine decides on the adapter's answers; the new node may need a moment to register
    // and catch up.
    let add = wait_for("the engine to allow adding the observer", WAIT, || {
        let (_, view) = quorum_view(&rt, &client, &mut cluster)?;
        // Until it has registered and fetched: NotAController, NotAnObserver, NotCaughtUp.
        quorum::check_add(&view, NodeId(added), &limits)
            .map(Some)
            .map_err(|e| anyhow!("{e}"))
    })
    .unwrap();
    assert_eq!(add.directory_id, directory_id);
    let endpoints = rt.block_on(client.controller_endpoints(added)).unwrap();
    let port = cluster.node(added).unwrap().controller_port.unwrap();
    assert_eq!(
        endpoints,
        vec![RaftEndpoint {
            name: "CONTROLLER".into(),
            host: "127.0.0.1".into(),
            port
        }]
    );
    let began = Instant::now();
    rt.block_on(client.add_raft_voter(added, &add.directory_id, &endpoints))
        .expect("AddRaftVoter");
    eprintln!("AddRaftVoter answered in {:.1?}", began.elapsed());
    // Kafka answers once the new voter set is committed: every controller knows 4 voters.
    let q = rt.block_on(client.describe_quorum()).unwrap();
    assert!(q.voters.iter().any(|v| v.id == added), "{q:?}");
    wait_for("4 voters everywhere", WAIT, || {
        let leader = cluster.quorum_leader()?.context("no leader")?;
        Ok((cluster.raft_state(leader)?.voters == Some(4)
            && cluster.raft_state(added)?.state == "follower")
            .then_some(()))
    })
    .unwrap();
    let (q, view) = wait_for("the new voter caught up", WAIT, || {
        let (q, view) = quorum_view(&rt, &client, &mut cluster)?;
        let s = quorum::status(&view, &limits);
        Ok((s.verdict == Verdict::Healthy).then_some((q, view)))
    })
    .unwrap();
    assert_eq!(q.voter_endpoints[&added], endpoints);
    // Adding it again is refused by the engine, and by Kafka.
    assert_eq!(
        quorum::check_add(&view, NodeId(added), &limits),
        Err(QuorumRefusal::AlreadyVoter {
            node: NodeId(added)
        })
    );
    let again = rt
        .block_on(client.add_raft_voter(added, &add.directory_id, &endpoints))
        .unwrap_err();
    assert!(
        matches!(&again, KafkaError::Api { name, .. } if name == "DUPLICATE_VOTER"),
        "{again}"
    );
    // The active controller is never removed directly.
    let leader = view.leader.unwrap();
    assert_eq!(
        quorum::check_remove(&view, leader, &limits),
        Err(QuorumRefusal::ActiveController { node: leader })
    );
    // A wrong directory id: Kafka does not find that voter, nothing changes.
    let wrong = rt
        .block_on(client.remove_raft_voter(added, &cluster.directory_id(1).unwrap()))
        .unwrap_err();
    assert!(
        matches!(&wrong, KafkaError::Api { name, .. } if name == "VOTER_NOT_FOUND"),
        "{wrong}"
    );
    let remove = quorum::check_remove(&view, NodeId(added), &limits).expect("removable");
    let began = Instant::now();
    rt.block_on(client.remove_raft_voter(added, &remove.directory_id))
        .expect("RemoveRaftVoter");
    eprintln!("RemoveRaftVoter answered in {:.1?}", began.elapsed());
    wait_for("3 voters again, the removed one observing", WAIT, || {
        let q = rt.block_on(client.describe_quorum())?;
        let leader = cluster.quorum_leader()?.context("no leader")?;
        Ok((q.voters.len() == 3
            && q.observers.iter().any(|o| o.id == added)
            && cluster.raft_state(leader)?.voters == Some(3))
        .then_some(()))
    })
    .unwrap();
    let during = producer.stats();
    assert_eq!(during.failed(), 0, "quorum changes: {during:?}");
    eprintln!("producer after the quorum changes: {during:?}");

    // ---- 3. a ghost broker: replicas moved away, stopped ---------------------------------------
    let (q, _) = quorum_view(&rt, &client, &mut cluster).unwrap();
    let view = ghost_view(&rt, &client, &mut cluster, &q).unwrap();
    assert!(matches!(
        ghosts::check_unregister(&view, NodeId(4)),
        Err(UnregisterRefusal::NotFenced { .. })
    ));
    rt.block_on(client.alter_partition_reassignment("ghost", 0, &[1, 2]))
        .unwrap();
    wait_for("ghost-0 moved to [1, 2]", WAIT, || {
        let p = placement(&bootstrap, "ghost")?;
        let moving = rt.block_on(client.list_reassignments())?;
        Ok((p[0].replicas == vec![1, 2] && moving.is_empty()).then_some(()))
    })
    .unwrap();
    cluster.stop_node(4).expect("stop broker 4");
    wait_for("broker 4 registered and fenced", WAIT, || {
        let b = rt.block_on(client.registered_brokers())?;
        Ok(b.iter().any(|b| b.id == 4 && b.fenced).then_some(()))
    })
    .unwrap();

    // ---- 4. roll the combined nodes onto the current release ----------------------------------
    let target = cluster.supported_levels(1, METADATA_VERSION).unwrap().1;
    assert_eq!(target, previous_mv, "still all on the previous release");
    for id in [1, 2, 3] {
        if id == 3 {
            // Two of three run the new software: Kafka refuses the new level, and so does the
            // engine, naming the node (and the ghost broker it cannot ask).
            let new_mv = cluster.supported_levels(1, METADATA_VERSION).unwrap().1;
            let err = rt
                .block_on(client.update_features(&mv_target(new_mv), true))
                .unwrap_err();
            eprintln!("validate-only with node 3 on {previous}: {err}");
            assert!(
                matches!(&err, KafkaError::Api { name, .. } if name == "INVALID_UPDATE_VERSION"),
                "{err}"
            );
            let (view, _) = upgrade_view(&rt, &client).unwrap();
            let targets = BTreeMap::from([(METADATA_VERSION.to_string(), new_mv)]);
            match upgrade::check_finalize(&view, &targets) {
                Err(FinalizeRefusal::NodesNotReady { blockers, .. }) => {
                    let ids: Vec<NodeId> = blockers.iter().map(|(n, _)| *n).collect();
                    assert_eq!(ids, vec![NodeId(3), NodeId(4)], "{blockers:?}");
                    assert!(matches!(
                        blockers[0].1,
                        Blocker::Unsupported { supported: Some(r) } if r.max == previous_mv
                    ));
                }
                other => panic!("finalize with node 3 on the old release: {other:?}"),
            }
        }
        let began = Instant::now();
        cluster
            .restart_node_onto(id, KafkaVersion::Current)
            .expect("restart onto the current release");
        cluster.wait_until_ready(WAIT).expect("cluster ready");
        wait_full_isr(&bootstrap, "kraft-acks");
        assert_eq!(cluster.software_version(id).unwrap(), current);
        eprintln!("node {id} on Kafka {current} in {:.1?}", began.elapsed());
    }
    let new_mv = cluster.supported_levels(1, METADATA_VERSION).unwrap().1;
    assert!(new_mv > previous_mv);

    // The ghost broker still supports only the old level: Kafka counts its registration.
    let err = rt
        .block_on(client.update_features(&mv_target(new_mv), true))
        .unwrap_err();
    eprintln!("validate-only with the ghost broker registered: {err}");
    assert!(err.to_string().contains("Broker 4"), "{err}");

    // ---- 5. unregister the ghost, then finalize -----------------------------------------------
    let (q, _) = quorum_view(&rt, &client, &mut cluster).unwrap();
    let view = ghost_view(&rt, &client, &mut cluster, &q).unwrap();
    ghosts::check_unregister(&view, NodeId(4)).expect("broker 4 may go");
    rt.block_on(client.unregister_broker(4))
        .expect("UnregisterBroker");
    wait_for("broker 4 no longer registered", WAIT, || {
        let b = rt.block_on(client.registered_brokers())?;
        Ok((!b.iter().any(|b| b.id == 4)).then_some(()))
    })
    .unwrap();
    let gone = rt.block_on(client.unregister_broker(4)).unwrap_err();
    eprintln!("unregistering it again: {gone}");

    let (view, _) = upgrade_view(&rt, &client).unwrap();
    let targets = BTreeMap::from([(METADATA_VERSION.to_string(), new_mv)]);
    let changes = upgrade::check_finalize(&view, &targets).expect("every node supports it");
    assert_eq!(
        (changes[0].from, changes[0].to),
        (Some(previous_mv), new_mv)
    );
    rt.block_on(client.update_features(&mv_target(new_mv), true))
        .expect("validate-only passes");
    // Through a broker too (it forwards to the active controller).
    let via_broker = rt
        .block_on(KafkaClient::connect(config(&cluster, false)))
        .unwrap();
    rt.block_on(via_broker.update_features(&mv_target(new_mv), true))
        .expect("validate-only through a broker");
    for id in [1, 2, 3] {
        assert_eq!(
            cluster.finalized_level(id, METADATA_VERSION).unwrap(),
            previous_mv,
            "validate-only changed nothing on node {id}"
        );
    }
    rt.block_on(client.update_features(&mv_target(new_mv), false))
        .expect("finalize");
    wait_for(
        "every node finalized the new metadata.version",
        WAIT,
        || {
            let nodes = rt.block_on(client.node_features())?;
            let all = nodes.values().all(|a| {
                a.features
                    .as_ref()
                    .is_ok_and(|f| f.finalized.get(METADATA_VERSION) == Some(&new_mv))
            });
            Ok(all.then_some(()))
        },
    )
    .unwrap();
    for id in [1, 2, 3] {
        assert_eq!(
            cluster.finalized_level(id, METADATA_VERSION).unwrap(),
            new_mv
        );
        // kraft.version untouched by the upgrade.
        assert_eq!(cluster.finalized_level(id, KRAFT_VERSION).unwrap(), 1);
    }

    // ---- 6. no failed send; what stays of the removed controller -----------------------------
    let stats = producer.stop();
    eprintln!("producer: {stats:?}");
    assert!(stats.sent > 0);
    assert_eq!(stats.failed(), 0, "{stats:?}");
    cluster.stop_node(added).unwrap();
    let controllers = rt.block_on(client.registered_controllers()).unwrap();
    eprintln!(
        "registered controllers after controller {added} was removed and stopped: {:?}",
        controllers.keys().collect::<Vec<_>>()
    );
}
