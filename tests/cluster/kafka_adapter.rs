//! The Kafka adapter against a real KRaft cluster (3 controllers + 3 brokers, Kafka from
//! `tests/env`): what it observes must match what the cluster reports through other means
//! (the harness's rdkafka metadata and Jolokia), and its two changes (IncrementalAlterConfigs,
//! preferred leader election) must do exactly what they claim.
//!
//! One split cluster serves every test but one (starting one costs 10-60 s on 2 cores): the
//! tests take turns through a mutex, each first restores "every node running", and the last
//! test to finish stops the cluster (the harness also kills its JVMs if the process dies).
//! The combined-mode test starts its own small cluster; the harness runs one at a time.
//! Waits poll with deadlines; nothing sleeps a fixed time.
//!
//! Run with `cargo test --test cluster kafka_adapter::`.

use crate::support;
use support::WAIT;

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use kafkaops::engine::model::{NodeId, ObservedState};
use kafkaops::engine::view::ConfigSource;
use kafkaops::kafka::client::{BrokerConfigReads, ClusterObserver, KafkaAdmin, KafkaClient};
use kafkaops::kafka::config::ConnectionConfig;
use kafkaops::kafka::convert::to_snapshot;
use kafkaops::kafka::observation::{
    BrokerState, BrokerStateSource, FencingSource, FetchTimeoutSource, KafkaObservation,
    RolesSource, apply_process_status,
};
use kafkaops::kafka::{ConfigChange, ConfigTarget};
use kafkaops::platform::process::ProcessPlatform;
use kafkaops::platform::witness::RestartWitness;
use kafkaops::platform::{Platform, PlatformNode};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement};

/// Tests in this file; the last one to finish stops the cluster.
const TESTS: usize = 7;
/// Brokers' `controller.quorum.fetch.timeout.ms`, different from the controllers' (default
/// 2000) so a test can tell whose value the adapter read.
const BROKER_FETCH_TIMEOUT: &str = "2500";

static CLUSTER: OnceLock<Mutex<Option<KafkaCluster>>> = OnceLock::new();
static FINISHED: AtomicUsize = AtomicUsize::new(0);

/// Exclusive use of the shared cluster; counts the test as finished when dropped (also on
/// panic) and stops the cluster after the last test.
struct Fixture {
    guard: Option<MutexGuard<'static, Option<KafkaCluster>>>,
}

impl Fixture {
    fn acquire() -> Fixture {
        let lock = CLUSTER.get_or_init(|| Mutex::new(None));
        let mut guard = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if guard.is_none() {
            let spec = ClusterSpec::split(3, 3)
                .with_broker_prop("controller.quorum.fetch.timeout.ms", BROKER_FETCH_TIMEOUT);
            let cluster = KafkaCluster::start(spec).expect("start a 3+3 cluster");
            eprintln!("cluster started in {:?}", cluster.start_duration());
            *guard = Some(cluster);
        }
        let cluster = guard.as_mut().expect("cluster");
        // A previous test may have failed half-way: every node runs again.
        let ids: Vec<i32> = cluster.nodes().iter().map(|n| n.id).collect();
        for id in ids {
            if !cluster.is_running(id) {
                cluster
                    .start_node(id)
                    .expect("restart a node a failed test left stopped");
            }
        }
        cluster.wait_until_ready(WAIT).expect("cluster ready");
        Fixture { guard: Some(guard) }
    }

    fn cluster(&mut self) -> &mut KafkaCluster {
        self.guard
            .as_mut()
            .and_then(|g| g.as_mut())
            .expect("cluster")
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let mut guard = self.guard.take().expect("guard");
        if FINISHED.fetch_add(1, Ordering::SeqCst) + 1 == TESTS {
            // Dropping the cluster stops every JVM it started.
            guard.take();
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Polls `f` (given its own handle to `client`) until it returns `Some`, or fails after
/// `deadline` showing the last value seen.
async fn poll<T, V: std::fmt::Debug, F: Future<Output = (Option<T>, V)>>(
    what: &str,
    deadline: Duration,
    client: &KafkaClient,
    mut f: impl FnMut(KafkaClient) -> F,
) -> T {
    let start = Instant::now();
    let mut delay = Duration::from_millis(100);
    loop {
        let (done, seen) = f(client.clone()).await;
        if let Some(v) = done {
            return v;
        }
        assert!(
            start.elapsed() < deadline,
            "timed out waiting for {what}; last seen: {seen:#?}"
        );
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_secs(1));
    }
}

/// Broker-state endpoint setting: each broker's Jolokia read of the BrokerState gauge.
fn jolokia_urls(cluster: &KafkaCluster) -> String {
    cluster
        .nodes()
        .iter()
        .filter(|n| n.role.is_broker())
        .map(|n| format!("{}={}", n.id, n.broker_state_url()))
        .collect::<Vec<_>>()
        .join(",")
}

fn config(cluster: &KafkaCluster, controllers: bool, endpoint: bool) -> ConnectionConfig {
    let mut c = ConnectionConfig::new(cluster.bootstrap_servers());
    c.request_timeout = Duration::from_secs(15);
    if controllers {
        c = c.with_property("bootstrap.controllers", cluster.controller_bootstrap());
    }
    if endpoint {
        c = c.with_property("kafkaops.broker.state.url", jolokia_urls(cluster));
    }
    c
}

/// One observation; while nodes die or come back a single attempt may fail (a broker that
/// just died times out), so errors are retried until `WAIT` has passed.
async fn observe(client: &KafkaClient) -> KafkaObservation {
    let start = Instant::now();
    loop {
        match client.observe().await {
            Ok(o) => return o,
            Err(e) => {
                assert!(start.elapsed() < WAIT, "observe kept failing: {e}");
                eprintln!("observe failed, retrying: {e}");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

#[test]
fn observation_matches_the_cluster() {
    let mut fx = Fixture::acquire();
    let cluster = fx.cluster();
    let bootstrap = cluster.bootstrap_servers();
    create_topic(
        &bootstrap,
        "observed",
        &[vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]],
        &[("min.insync.replicas", "2")],
    )
    .expect("create topic");
    create_topic(&bootstrap, "observed-rf2", &[vec![1, 2]], &[]).expect("create topic");
    let raft_leader = cluster.quorum_leader().expect("raft metrics");
    let rt = runtime();
    let full = config(cluster, true, true);
    let o = rt.block_on(async {
        let client = KafkaClient::connect(full).await.expect("connect");
        // Replicas join the ISR shortly after creation.
        poll("full ISRs", WAIT, &client, |client| async move {
            let o = observe(&client).await;
            let ok = o
                .topic("observed")
                .is_some_and(|t| t.partitions.iter().all(|p| p.isr.len() == 3));
            (
                ok.then(|| o.clone()),
                o.topics
                    .iter()
                    .map(|t| (t.name.clone(), t.partitions.clone()))
                    .collect::<Vec<_>>(),
            )
        })
        .await
    });

    // Nodes and roles.
    let brokers: BTreeSet<i32> = o
        .nodes
        .iter()
        .filter(|n| n.roles.broker)
        .map(|n| n.id)
        .collect();
    let controllers: BTreeSet<i32> = o
        .nodes
        .iter()
        .filter(|n| n.roles.controller)
        .map(|n| n.id)
        .collect();
    assert_eq!(brokers, cluster.broker_ids().into_iter().collect());
    assert_eq!(controllers, cluster.controller_ids().into_iter().collect());
    for n in o.nodes.iter().filter(|n| n.roles.broker) {
        assert_eq!(n.fenced, Some(false), "broker {}", n.id);
        assert_eq!(
            n.broker_state,
            Some(BrokerState::Running),
            "broker {} via Jolokia: {:?}",
            n.id,
            n.broker_state_error
        );
        assert_eq!(n.port, cluster.node(n.id).unwrap().broker_port);
    }
    for n in o.nodes.iter().filter(|n| !n.roles.broker) {
        assert_eq!(
            n.port,
            cluster.node(n.id).unwrap().controller_port,
            "controller listener of {}",
            n.id
        );
    }
    assert!(matches!(
        o.broker_state_source,
        BrokerStateSource::Endpoint { .. }
    ));
    assert_eq!(
        o.fencing_source,
        FencingSource::Reported,
        "Kafka 4.x reports fencing"
    );

    // Partitions as the cluster's own metadata reports them, and min ISR.
    let t = o.topic("observed").unwrap();
    assert_eq!((t.min_insync_replicas, t.configs_read), (Some(2), true));
    // Partition metadata merged from every broker's view.
    assert_eq!(
        o.metadata_from.iter().copied().collect::<BTreeSet<i32>>(),
        brokers
    );
    assert!(o.unknown_replica_ids.is_empty());
    // Roles from process.roles: brokers via the brokers, controllers via
    // bootstrap.controllers (KIP-919).
    for n in &o.nodes {
        assert_eq!(n.roles_source, RolesSource::ProcessRoles, "node {}", n.id);
    }
    let real = placement(&bootstrap, "observed").unwrap();
    assert_eq!(t.partitions.len(), real.len());
    for (mine, theirs) in t.partitions.iter().zip(&real) {
        assert_eq!(mine.partition, theirs.partition);
        assert_eq!(mine.replicas, theirs.replicas);
        assert_eq!(mine.leader, Some(theirs.leader));
        assert_eq!(
            mine.isr.iter().collect::<BTreeSet<_>>(),
            theirs.isr.iter().collect::<BTreeSet<_>>()
        );
        assert!(mine.offline_replicas.is_empty());
    }
    // No topic override: none reported (the broker-level value is in each broker's config).
    let rf2 = o.topic("observed-rf2").unwrap();
    assert_eq!((rf2.min_insync_replicas, rf2.configs_read), (None, true));
    let broker_default: Option<i32> = o.broker_configs[&1]
        .iter()
        .find(|e| e.name == "min.insync.replicas")
        .and_then(|e| e.value.as_deref())
        .and_then(|v| v.parse().ok());
    assert!(
        broker_default.is_some(),
        "brokers report min.insync.replicas"
    );

    // Broker configs with read-only flags: a static-only key and a dynamic one.
    let cfg = &o.broker_configs[&1];
    let entry = |k: &str| {
        cfg.iter()
            .find(|e| e.name == k)
            .unwrap_or_else(|| panic!("{k} missing"))
    };
    assert!(entry("log.dirs").read_only);
    assert!(!entry("log.cleaner.threads").read_only);
    assert_eq!(
        entry("controller.quorum.fetch.timeout.ms").value.as_deref(),
        Some(BROKER_FETCH_TIMEOUT)
    );

    // Quorum: leader as the controllers' raft metrics say, the three voters, timestamps.
    assert_eq!(o.quorum.leader_id, raft_leader);
    let leader = o.quorum.leader_id.expect("a quorum leader");
    let voters: BTreeSet<i32> = o.quorum.voters.iter().map(|v| v.id).collect();
    assert_eq!(voters, controllers);
    for v in &o.quorum.voters {
        assert!(
            v.last_caught_up_timestamp.is_some(),
            "voter {} caught-up timestamp",
            v.id
        );
        if v.id != leader {
            assert!(
                v.last_fetch_timestamp.is_some(),
                "follower {} fetch timestamp",
                v.id
            );
        }
    }
    let observers: BTreeSet<i32> = o.quorum.observers.iter().map(|v| v.id).collect();
    assert!(
        brokers.is_subset(&observers),
        "brokers observe the quorum: {observers:?}"
    );
    // Read from the active controller itself (2000, Kafka's default), not from a broker (2500).
    assert_eq!(
        o.quorum.fetch_timeout_source,
        FetchTimeoutSource::ActiveController(leader)
    );
    assert_eq!(o.quorum.fetch_timeout_ms, 2000);
    assert!(o.reassignments.is_empty());

    // Without bootstrap.controllers the value comes from a broker, and the observation says so.
    let o2 = rt.block_on(async {
        observe(
            &KafkaClient::connect(config(cluster, false, false))
                .await
                .unwrap(),
        )
        .await
    });
    assert!(
        matches!(o2.quorum.fetch_timeout_source, FetchTimeoutSource::Broker(b) if brokers.contains(&b))
    );
    assert_eq!(o2.quorum.fetch_timeout_ms, 2500);
    assert_eq!(
        o2.broker_state_source,
        BrokerStateSource::InferredFromFencing
    );
    assert_eq!(o2.quorum.leader_id, Some(leader));
    // Without bootstrap.controllers the controllers' roles are inferred, and said so; the
    // brokers' still come from their process.roles.
    for n in &o2.nodes {
        assert_eq!(
            n.roles_source.is_inferred(),
            !n.roles.broker,
            "node {}: {:?}",
            n.id,
            n.roles_source
        );
    }

    // The engine's view.
    let s = to_snapshot(&o);
    assert_eq!(s.nodes.len(), 6);
    assert!(
        s.nodes.iter().all(|n| n.state == ObservedState::Serving),
        "{:?}",
        s.nodes
    );
    assert_eq!(s.topics["observed"].min_insync_replicas, Some(2));
    assert_eq!(s.topics["observed-rf2"].min_insync_replicas, None);
    for n in s.nodes.iter().filter(|n| n.roles.broker) {
        assert_eq!(
            n.config["min.insync.replicas"]
                .value
                .as_deref()
                .map(str::parse::<i32>),
            broker_default.map(Ok),
            "broker {}",
            n.id
        );
    }
    let q = s.quorum.as_ref().unwrap();
    assert!(q.observers.iter().any(|o| o.last_fetch_ms.is_some()));
    assert_eq!(kafkaops::engine::roll::safety::fetch_timeout_ms(&s), 2000);
    assert_eq!(s.quorum.unwrap().leader, Some(NodeId(leader)));
}

#[test]
fn incremental_alter_configs_changes_only_the_named_keys() {
    let mut fx = Fixture::acquire();
    let cluster = fx.cluster();
    let rt = runtime();
    rt.block_on(async {
        let client = KafkaClient::connect(config(cluster, false, false))
            .await
            .unwrap();
        let value = |client: KafkaClient, key: &'static str| async move {
            let cfg = client.describe_broker_configs(2).await.expect("describe");
            let e = cfg.into_iter().find(|e| e.name == key).expect("key");
            (e.value, e.source)
        };
        // An existing dynamic per-broker config...
        client
            .incremental_alter_configs(
                ConfigTarget::Broker(2),
                vec![ConfigChange::set("log.cleaner.backoff.ms", "16000")],
            )
            .await
            .expect("set backoff");
        poll(
            "log.cleaner.backoff.ms=16000 on broker 2",
            WAIT,
            &client,
            |client| async move {
                let v = value(client.clone(), "log.cleaner.backoff.ms").await;
                ((v.0.as_deref() == Some("16000")).then_some(()), v)
            },
        )
        .await;
        // ...survives an incremental change of another key (AlterConfigs would reset it).
        client
            .incremental_alter_configs(
                ConfigTarget::Broker(2),
                vec![ConfigChange::set("log.cleaner.threads", "2")],
            )
            .await
            .expect("set threads");
        poll(
            "log.cleaner.threads=2 on broker 2",
            WAIT,
            &client,
            |client| async move {
                let v = value(client.clone(), "log.cleaner.threads").await;
                (
                    (v == (Some("2".to_string()), ConfigSource::DynamicBroker)).then_some(()),
                    v,
                )
            },
        )
        .await;
        assert_eq!(
            value(client.clone(), "log.cleaner.backoff.ms").await,
            (Some("16000".to_string()), ConfigSource::DynamicBroker),
            "the other dynamic config is untouched"
        );
        // Other brokers are not affected by a per-broker change.
        let other = client.describe_broker_configs(1).await.unwrap();
        let threads = other
            .iter()
            .find(|e| e.name == "log.cleaner.threads")
            .unwrap();
        assert_ne!(threads.source, ConfigSource::DynamicBroker);

        // Deleting restores the static/default values.
        client
            .incremental_alter_configs(
                ConfigTarget::Broker(2),
                vec![
                    ConfigChange::delete("log.cleaner.threads"),
                    ConfigChange::delete("log.cleaner.backoff.ms"),
                ],
            )
            .await
            .expect("delete");
        poll(
            "overrides gone on broker 2",
            WAIT,
            &client,
            |client| async move {
                let a = value(client.clone(), "log.cleaner.threads").await;
                let b = value(client.clone(), "log.cleaner.backoff.ms").await;
                (
                    (a.1 != ConfigSource::DynamicBroker && b.1 != ConfigSource::DynamicBroker)
                        .then_some(()),
                    (a, b),
                )
            },
        )
        .await;

        // A read-only key is refused by the broker, with the broker named.
        let err = client
            .incremental_alter_configs(
                ConfigTarget::Broker(2),
                vec![ConfigChange::set("log.dirs", "/tmp/x")],
            )
            .await
            .unwrap_err();
        assert!(err.to_string().contains("broker 2"), "{err}");
    });
}

#[test]
fn preferred_leader_election_restores_leaders_after_a_restart() {
    let mut fx = Fixture::acquire();
    let cluster = fx.cluster();
    let bootstrap = cluster.bootstrap_servers();
    let assignment = vec![vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]];
    create_topic(
        &bootstrap,
        "elect",
        &assignment,
        &[("min.insync.replicas", "2")],
    )
    .expect("create topic");
    let rt = runtime();
    let client = rt
        .block_on(KafkaClient::connect(config(cluster, false, false)))
        .unwrap();
    let preferred_led = |o: &KafkaObservation| {
        o.topic("elect").is_some_and(|t| {
            t.partitions
                .iter()
                .all(|p| p.leader == p.replicas.first().copied())
        })
    };
    rt.block_on(poll(
        "preferred leaders before the restart",
        WAIT,
        &client,
        |client| async move {
            let o = observe(&client).await;
            (preferred_led(&o).then_some(()), o.topic("elect").cloned())
        },
    ));

    // A graceful restart moves broker 1's leadership away (controlled shutdown).
    cluster.restart_node(1).expect("restart broker 1");
    rt.block_on(async {
        let o = poll(
            "broker 1 unfenced and back in every ISR",
            WAIT,
            &client,
            |client| async move {
                let o = observe(&client).await;
                let n = o.node(1).cloned();
                (
                    n.as_ref()
                        .is_some_and(|n| n.fenced == Some(false) && n.in_sync == Some(true))
                        .then(|| o.clone()),
                    n,
                )
            },
        )
        .await;
        let p0 = &o.topic("elect").unwrap().partitions[0];
        assert_ne!(
            p0.leader,
            Some(1),
            "broker 1 lost leadership of elect-0 in the restart"
        );

        let partitions: Vec<(String, i32)> = (0..3).map(|p| ("elect".to_string(), p)).collect();
        let outcomes = client
            .elect_preferred_leaders(Some(partitions))
            .await
            .expect("elect");
        for o in &outcomes {
            assert!(o.error.is_none(), "{o:?}");
        }
        assert!(
            outcomes.iter().any(|o| o.partition == 0),
            "elect-0 had an election: {outcomes:?}"
        );
        poll(
            "preferred leaders restored",
            WAIT,
            &client,
            |client| async move {
                let o = observe(&client).await;
                (preferred_led(&o).then_some(()), o.topic("elect").cloned())
            },
        )
        .await;
        // All partitions: nothing needs an election any more, which is success.
        let all = client
            .elect_preferred_leaders(None)
            .await
            .expect("elect all");
        assert!(all.iter().all(|o| o.error.is_none()), "{all:?}");
    });
}

#[test]
fn killed_broker_shows_fenced_and_out_of_isr() {
    let mut fx = Fixture::acquire();
    let cluster = fx.cluster();
    let bootstrap = cluster.bootstrap_servers();
    create_topic(
        &bootstrap,
        "victim",
        &[vec![3, 1, 2], vec![1, 2, 3]],
        &[("min.insync.replicas", "2")],
    )
    .expect("topic");
    let rt = runtime();
    let endpoint = config(cluster, true, true);
    let inferred = config(cluster, false, false);
    // The restart witness watches broker 3 (killed) and broker 2 (stays up).
    let witness = RestartWitness::default();
    let mut witnessed = witness.subscribe();
    let address = |id: i32| cluster.node(id).unwrap().broker_address().unwrap();
    let (a3, a2) = (address(3), address(2));
    rt.block_on(async {
        witness.watch(3, &a3).await;
        witness.watch(2, &a2).await;
    });
    cluster.kill_node(3).expect("kill -9 broker 3");
    rt.block_on(async {
        tokio::time::timeout(WAIT, witnessed.changed())
            .await
            .expect("the witness sees broker 3's process end")
            .unwrap();
    });
    assert_eq!(
        (witness.incarnation(3), witness.generation(2)),
        ("witness-1".to_string(), 0)
    );
    witness.stop();
    rt.block_on(async {
        let client = KafkaClient::connect(endpoint).await.unwrap();
        let o = poll(
            "broker 3 fenced and out of every ISR",
            WAIT,
            &client,
            |client| async move {
                let o = observe(&client).await;
                let n = o.node(3).cloned();
                let gone = n.as_ref().is_some_and(|n| n.fenced == Some(true))
                    && o.topic("victim")
                        .is_some_and(|t| t.partitions.iter().all(|p| !p.isr.contains(&3)));
                (gone.then(|| o.clone()), (n, o.topic("victim").cloned()))
            },
        )
        .await;
        let n = o.node(3).unwrap();
        assert!(n.roles.broker);
        assert_eq!(n.in_sync, Some(false));
        assert_eq!(
            n.broker_state,
            Some(BrokerState::Unknown),
            "the endpoint of a dead JVM does not answer"
        );
        assert!(n.broker_state_error.is_some());
        for p in &o.topic("victim").unwrap().partitions {
            assert_eq!(p.offline_replicas, vec![3]);
            assert_ne!(p.leader, Some(3));
        }
        let s = to_snapshot(&o);
        let node = s.node(NodeId(3)).unwrap();
        assert_eq!(node.state, ObservedState::NotRunning);
        assert!(!node.reachable);

        // Without an endpoint the state is inferred from fencing, and the platform's TCP
        // probe tells a stopped broker (NOT_RUNNING) from a fenced live one (UNKNOWN).
        let mut o = observe(&KafkaClient::connect(inferred).await.unwrap()).await;
        assert_eq!(
            o.node(3).unwrap().broker_state,
            Some(BrokerState::NotRunning)
        );
        let platform = ProcessPlatform::status_only(
            o.nodes
                .iter()
                .map(|n| PlatformNode {
                    id: n.id,
                    host: n.host.clone().unwrap_or_default(),
                    address: n.host.as_ref().zip(n.port).map(|(h, p)| format!("{h}:{p}")),
                })
                .collect(),
            Duration::from_secs(5),
        );
        let running = platform.is_running(3).await.map_err(|e| e.to_string());
        assert_eq!(running, Ok(false));
        apply_process_status(&mut o, &BTreeMap::from([(3, running)]));
        let n = o.node(3).unwrap();
        assert_eq!(
            (n.broker_state, n.process_running),
            (Some(BrokerState::NotRunning), Some(false))
        );
        assert_eq!(
            to_snapshot(&o).node(NodeId(3)).unwrap().state,
            ObservedState::NotRunning
        );
    });
    cluster.start_node(3).expect("start broker 3");
    rt.block_on(async {
        let client = KafkaClient::connect(config(cluster, false, false))
            .await
            .unwrap();
        poll("broker 3 back", WAIT, &client, |client| async move {
            let o = observe(&client).await;
            let n = o.node(3).cloned();
            (
                n.as_ref()
                    .is_some_and(|n| n.fenced == Some(false) && n.in_sync == Some(true))
                    .then_some(()),
                n,
            )
        })
        .await;
    });
}

#[test]
fn ongoing_reassignment_is_listed() {
    let mut fx = Fixture::acquire();
    let cluster = fx.cluster();
    let bootstrap = cluster.bootstrap_servers();
    create_topic(&bootstrap, "moving", &[vec![1, 2]], &[]).expect("topic");
    let rt = runtime();
    // With broker 3 down, a reassignment adding it cannot finish: it stays ongoing.
    cluster.kill_node(3).expect("kill broker 3");
    let client = rt
        .block_on(KafkaClient::connect(config(cluster, true, false)))
        .unwrap();
    rt.block_on(async {
        poll("broker 3 fenced", WAIT, &client, |client| async move {
            let o = observe(&client).await;
            let n = o.node(3).cloned();
            (
                n.as_ref()
                    .is_some_and(|n| n.fenced == Some(true))
                    .then_some(()),
                n,
            )
        })
        .await;
        client
            .alter_partition_reassignment("moving", 0, &[1, 2, 3])
            .await
            .expect("start reassignment");
        let o = observe(&client).await;
        let r = o
            .reassignments
            .iter()
            .find(|r| r.topic == "moving")
            .expect("listed");
        assert_eq!(
            (r.partition, r.adding.clone(), r.removing.clone()),
            (0, vec![3], vec![])
        );
        let snapshot = to_snapshot(&o);
        let p = snapshot
            .partitions
            .iter()
            .find(|p| p.tp.topic == "moving")
            .unwrap();
        assert_eq!(p.adding, vec![NodeId(3)]);
    });
    cluster.start_node(3).expect("start broker 3");
    rt.block_on(poll(
        "the reassignment completes once broker 3 is back",
        WAIT,
        &client,
        |client| async move {
            let ongoing = client.list_reassignments().await.expect("list");
            (ongoing.is_empty().then_some(()), ongoing)
        },
    ));
}

/// What a preview reads (issue #27): with only the broker configs a decision needs
/// (`BrokerConfigReads::Needed`, `roll --dry-run`), the brokers holding a replica of a topic
/// without a `min.insync.replicas` override are asked (and any the quorum does not vouch for);
/// the others' roles come from the registrations. The snapshot the engine decides on is the
/// one reading every broker's configs gives, on a real cluster: roles, states, reachability,
/// each partition's effective min ISR.
#[test]
fn a_preview_reads_the_broker_configs_it_needs_and_sees_what_a_roll_sees() {
    let mut fx = Fixture::acquire();
    let cluster = fx.cluster();
    let bootstrap = cluster.bootstrap_servers();
    create_topic(
        &bootstrap,
        "preview-override",
        &[vec![1, 2, 3], vec![3, 1, 2]],
        &[("min.insync.replicas", "2")],
    )
    .expect("create topic");
    create_topic(&bootstrap, "preview-fallback", &[vec![1, 2]], &[]).expect("create topic");
    let rt = runtime();
    rt.block_on(async {
        let client = KafkaClient::connect(config(cluster, true, false))
            .await
            .expect("connect");
        // Both topics known to every broker and in sync before the two looks are compared.
        let every = poll("both topics in sync", WAIT, &client, |client| async move {
            let o = observe(&client).await;
            let ok = ["preview-override", "preview-fallback"].iter().all(|t| {
                o.topic(t)
                    .is_some_and(|t| t.partitions.iter().all(|p| p.isr.len() == p.replicas.len()))
            });
            (ok.then(|| o.clone()), o.metadata_from.clone())
        })
        .await;
        let lazy_client = KafkaClient::connect(config(cluster, true, false))
            .await
            .expect("connect");
        lazy_client.read_broker_configs(BrokerConfigReads::Needed);
        let lazy = observe(&lazy_client).await;
        let listed: BTreeSet<i32> = every.broker_configs.keys().copied().collect();
        assert_eq!(listed, BTreeSet::from([1, 2, 3]));
        let needed: BTreeSet<i32> = lazy
            .topics
            .iter()
            .filter(|t| t.min_insync_replicas.is_none())
            .flat_map(|t| t.partitions.iter().flat_map(|p| p.replicas.clone()))
            .filter(|b| listed.contains(b))
            .collect();
        assert!(needed.is_superset(&BTreeSet::from([1, 2])), "{needed:?}");
        let read: BTreeSet<i32> = lazy.broker_configs.keys().copied().collect();
        let unvouched: BTreeSet<i32> = listed.difference(&lazy.vouched_alive).copied().collect();
        eprintln!("needed {needed:?}, read {read:?}, not vouched for {unvouched:?}");
        assert!(read.is_superset(&needed), "{read:?} {needed:?}");
        assert!(read.is_subset(&(&needed | &unvouched)), "{read:?}");
        for n in &lazy.nodes {
            let m = every.node(n.id).expect("same nodes");
            assert_eq!((n.roles, n.fenced), (m.roles, m.fenced), "node {}", n.id);
            if n.roles.broker && !read.contains(&n.id) {
                assert_eq!(n.roles_source, RolesSource::Registrations, "node {}", n.id);
            } else {
                assert_eq!(n.roles_source, m.roles_source, "node {}", n.id);
            }
        }
        let (a, b) = (to_snapshot(&lazy), to_snapshot(&every));
        for (x, y) in a.nodes.iter().zip(&b.nodes) {
            assert_eq!(
                (x.id, x.roles, x.state, x.reachable),
                (y.id, y.roles, y.state, y.reachable)
            );
        }
        for p in &a.partitions {
            assert_eq!(a.effective_min_isr(p), b.effective_min_isr(p), "{:?}", p.tp);
        }
        let fallback = a
            .partitions
            .iter()
            .find(|p| p.tp.topic == "preview-fallback")
            .expect("partition");
        assert!(
            a.effective_min_isr(fallback).is_some(),
            "read from brokers 1, 2"
        );
    });
}

/// Combined nodes (broker and controller in one process): roles, and the active controller's
/// fetch timeout read both ways (its controller listener, or its broker config).
/// Uses its own short-lived cluster (the harness runs it after or before the shared one).
#[test]
fn combined_nodes_are_observed_with_both_roles() {
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("start 3 combined nodes");
    let rt = runtime();
    rt.block_on(async {
        for controllers in [true, false] {
            let client = KafkaClient::connect(config(&cluster, controllers, false))
                .await
                .unwrap();
            let o = observe(&client).await;
            assert_eq!(o.nodes.len(), 3);
            for n in &o.nodes {
                assert!(
                    n.roles.broker && n.roles.controller,
                    "node {} is combined",
                    n.id
                );
                assert_eq!(n.fenced, Some(false));
                // Combined nodes answer DescribeConfigs as brokers: process.roles is read
                // with or without bootstrap.controllers.
                assert_eq!(n.roles_source, RolesSource::ProcessRoles, "node {}", n.id);
            }
            let leader = o.quorum.leader_id.expect("leader");
            assert_eq!(
                o.quorum.fetch_timeout_source,
                FetchTimeoutSource::ActiveController(leader),
                "bootstrap.controllers: {controllers}"
            );
            assert_eq!(o.quorum.fetch_timeout_ms, 2000);
            let s = to_snapshot(&o);
            assert!(s.nodes.iter().all(|n| n.roles.is_combined()));
        }
        // Reading only the configs a decision needs: a combined node is a listed controller,
        // asked its process.roles over its controller listener, never taken for a broker only.
        let client = KafkaClient::connect(config(&cluster, true, false))
            .await
            .unwrap();
        client.read_broker_configs(BrokerConfigReads::Needed);
        let o = observe(&client).await;
        for n in &o.nodes {
            assert!(n.roles.broker && n.roles.controller, "node {}", n.id);
            assert_eq!(n.roles_source, RolesSource::ProcessRoles, "node {}", n.id);
        }
        let s = to_snapshot(&o);
        assert!(s.nodes.iter().all(|n| n.roles.is_combined() && n.reachable));
    });
}

/// Runs the real binary's `roll` against the fixture cluster.
fn kafkaops_roll(cluster: &KafkaCluster, args: &[&str]) -> (i32, String, String) {
    let out = support::bin::kafkaops()
        .args(["--bootstrap-servers", &cluster.bootstrap_servers()])
        .args([
            "-X",
            &format!("bootstrap.controllers={}", cluster.controller_bootstrap()),
        ])
        .args(["--yes", "roll"])
        .args(args)
        .output()
        .expect("run kafkaops");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    eprintln!(
        "roll {args:?} -> {:?}\n{stdout}\n{stderr}",
        out.status.code()
    );
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

#[test]
fn roll_reports_unselected_unhealthy_nodes_and_refuses_an_incomplete_state_list() {
    let mut fx = Fixture::acquire();
    let cluster = fx.cluster();
    // A broker-state list without broker 3: a usage error before anything runs (the restart
    // command would leave a mark).
    let marker = std::env::temp_dir().join(format!("kafkaops-roll-marker-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let partial = jolokia_urls(cluster)
        .split(',')
        .filter(|e| !e.starts_with("3="))
        .collect::<Vec<_>>()
        .join(",");
    let restart = format!("touch {}", marker.display());
    let (code, _, stderr) = kafkaops_roll(
        cluster,
        &[
            "-X",
            &format!("kafkaops.broker.state.url={partial}"),
            "--all",
            "--restart-command",
            &restart,
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("broker(s) 3"), "{stderr}");
    assert!(!marker.exists(), "nothing may be restarted");

    // A stopped broker outside the selection is reported, not restarted.
    cluster.kill_node(3).expect("kill broker 3");
    let rt = runtime();
    rt.block_on(async {
        let client = KafkaClient::connect(config(cluster, false, false))
            .await
            .unwrap();
        poll("broker 3 fenced", WAIT, &client, |client| async move {
            let o = observe(&client).await;
            let n = o.node(3).cloned();
            (
                n.as_ref()
                    .is_some_and(|n| n.fenced == Some(true))
                    .then_some(()),
                n,
            )
        })
        .await;
    });
    let (code, stdout, stderr) = kafkaops_roll(cluster, &["--nodes", "1", "--dry-run"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(
            "node 3 (broker, not running): not restarted (outside the selection; \
             --include-unhealthy)"
        ),
        "{stdout}"
    );
    cluster.start_node(3).expect("start broker 3");
    cluster.wait_until_ready(WAIT).expect("cluster ready again");
}
