//! `kafkaops operate` in Kubernetes against a real kube-apiserver (tests/support/kube.rs), as
//! the identity bound to exactly the Role of `examples/operate/rbac.yaml`.
//!
//! The ports (src/commands/operate/kube_ports.rs): the ConfigMap store refuses a stale write;
//! the Lease makes a second instance wait while the first renews, hands over at once on
//! release, and a leader that stopped renewing (its runtime gone, as a frozen or partitioned
//! process) is not the leader any more when a standby takes over; the recorder's Events; the
//! Strimzi scale-down intent from KafkaNodePools. Ground truth is the apiserver, read with the
//! harness's admin identity, and its audit log of every request the operate identity made.
//!
//! End to end (`operate_failover_on_kubernetes`): a real KRaft cluster whose pods the harness
//! plays (tests/support/kube.rs), the Cruise Control double (HTTPS + Basic auth, found with its
//! credentials and CA through the Strimzi resources alone), and two `kafkaops operate`
//! processes with the Lease and the ConfigMap state, as the Deployment in `examples/operate/`
//! runs them. The leader is SIGKILLed in the middle of an add_broker execution; the standby
//! takes over once the lease expired, sends no second execution (the double's own
//! `user_tasks`), follows the task to its end and finishes the state machine (the ConfigMap).
//! Then the KafkaNodePool is scaled down (node 4 named in `strimzi.io/remove-node-ids`): the
//! leader drains node 4 (one remove_broker, Kafka's metadata shows it empty). Then a pod
//! annotated `strimzi.io/manual-rolling-update=true` waits while a manual `kafkaops roll`
//! holds the roll Lease (the pod untouched), then is rolled by operate once that Lease is
//! released (the harness saw only that pod replaced) while an `acks=all` producer runs, with
//! zero failed sends; a manual `kafkaops roll` started while operate rolls exits 5 naming
//! operate. The standby
//! runs with a 10 minute resync: the drain and the roll after the failover happen only because
//! the watch of the pools and pods woke its loop. Last, the Role
//! is compared with what operate asked the apiserver (its audit log): every request allowed,
//! every rule used (but the two annotation-clearing patches a roll of another shape needs).

use crate::support;
use support::WAIT;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use kafkaops::app::operate::ports::{ActionRecord, ActionResult, Recorder};
use kafkaops::commands::operate::kube_ports::EventRecorder;
use kafkaops::platform::kube::configmap::{ConfigMapStore, STATE_KEY};
use kafkaops::platform::kube::leader::LeaseLeadership;
use kafkaops::platform::kube::strimzi;
use kafkaops::platform::kube::{KubeConn, KubePlatform, KubeTarget, PodSelector, strimzi_resource};
use kafkaops::state::{Leadership, Store, StoreError as PortError};
use kube::api::{Api, DynamicObject, Patch, PatchParams, PostParams};
use serde_json::json;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{
    BackgroundProducer, ClusterSpec, KafkaCluster, create_topic, placement, wait_for,
};
use support::kube::{FakeStrimzi, KubeEnv, NAMESPACE, OPERATE_USER};
use support::operate::{
    Operate, OperateOptions, Task, epoch_ms, fill, replicas_per_broker, throttle, user_tasks_tls,
    write_policy,
};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

/// A connection as the operate identity, made on `rt` (its client lives there).
fn operate_conn(env: &KubeEnv, rt: &tokio::runtime::Runtime) -> KubeConn {
    rt.block_on(
        KubeTarget {
            kubeconfig: Some(env.kubeconfig.clone()),
            context: Some(OPERATE_USER.into()),
            namespace: Some(NAMESPACE.into()),
        }
        .connect(),
    )
    .expect("connect as operate")
}

/// Polls `f` until it answers `Some`, failing after `limit`.
fn wait_until<T>(what: &str, limit: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn parse_time(t: &str) -> SystemTime {
    humantime::parse_rfc3339_weak(t.trim_end_matches('Z')).expect("a MicroTime")
}

#[test]
fn ports_against_the_apiserver() {
    let env = KubeEnv::start().expect("start the apiserver");
    let rt = runtime();
    let conn = operate_conn(&env, &rt);
    let admin = env.admin();

    // --- The state store: a stale write is refused, never applied. ---
    let cm_name = "kafkaops-operate-my-cluster";
    let configmaps: Api<k8s_openapi::api::core::v1::ConfigMap> =
        Api::namespaced(admin.clone(), NAMESPACE);
    let stored = || -> Option<String> {
        env.block_on(configmaps.get_opt(cm_name))
            .unwrap()
            .and_then(|c| c.data)
            .and_then(|mut d| d.remove(STATE_KEY))
    };
    let first = ConfigMapStore::new(&conn, cm_name);
    let second = ConfigMapStore::new(&conn, cm_name);
    rt.block_on(async {
        assert_eq!(first.load().await.unwrap(), None);
        first.save(r#"{"v":1}"#).await.unwrap();
        first.save(r#"{"v":2}"#).await.unwrap();
    });
    assert_eq!(stored().as_deref(), Some(r#"{"v":2}"#));
    rt.block_on(async {
        assert_eq!(second.load().await.unwrap().as_deref(), Some(r#"{"v":2}"#));
        second.save(r#"{"v":3,"by":"second"}"#).await.unwrap();
        // The first instance's view is stale now: its write is refused.
        let stale = first.save(r#"{"v":3,"by":"first"}"#).await;
        assert!(matches!(stale, Err(PortError::Conflict(_))), "{stale:?}");
    });
    assert_eq!(stored().as_deref(), Some(r#"{"v":3,"by":"second"}"#));
    rt.block_on(async {
        // A store that never read it must not overwrite it either.
        let blind = ConfigMapStore::new(&conn, cm_name);
        let r = blind.save(r#"{"v":0}"#).await;
        assert!(matches!(r, Err(PortError::Conflict(_))), "{r:?}");
        // Reading again makes the first one current.
        assert_eq!(
            first.load().await.unwrap().as_deref(),
            Some(r#"{"v":3,"by":"second"}"#)
        );
        first.save(r#"{"v":4}"#).await.unwrap();
    });
    assert_eq!(stored().as_deref(), Some(r#"{"v":4}"#));

    // --- The Lease: a second instance waits while the first renews; release hands over. ---
    let lease = "kafkaops-operate-my-cluster";
    let duration = Duration::from_secs(10);
    let (rt_a, rt_b) = (runtime(), runtime());
    let a = Arc::new(LeaseLeadership::new(
        &operate_conn(&env, &rt_a),
        lease,
        "operate-a",
        duration,
    ));
    let b = Arc::new(LeaseLeadership::new(
        &operate_conn(&env, &rt_b),
        lease,
        "operate-b",
        duration,
    ));
    assert!(!a.is_leader());
    rt_a.block_on(a.acquire()).expect("a acquires a free lease");
    assert!(a.is_leader());
    assert_eq!(
        env.lease_holder(lease).unwrap().as_deref(),
        Some("operate-a")
    );
    let b_waits = {
        let b = Arc::clone(&b);
        rt_b.spawn(async move { b.acquire().await })
    };
    // The leader renews (two renewals seen by the apiserver) while the standby waits.
    let mut seen = BTreeSet::new();
    wait_until("two renewals of the leader", duration * 3, || {
        seen.insert(env.lease_renew_time(lease).unwrap()?);
        (seen.len() >= 3).then_some(())
    });
    assert!(
        !b.is_leader(),
        "the standby must wait while the leader renews"
    );
    assert!(a.is_leader());
    assert_eq!(
        env.lease_holder(lease).unwrap().as_deref(),
        Some("operate-a")
    );
    assert!(!b_waits.is_finished());
    // Release: the standby takes over before the released lease would have expired.
    let last_renewal = parse_time(&env.lease_renew_time(lease).unwrap().unwrap());
    rt_a.block_on(a.release());
    assert!(!a.is_leader());
    wait_until("the standby leads after the release", duration * 2, || {
        b.is_leader().then_some(())
    });
    assert!(
        SystemTime::now() < last_renewal + duration,
        "the standby took over only after the lease expired, not at the release"
    );
    rt_b.block_on(b_waits).unwrap().expect("b acquired");
    assert_eq!(
        env.lease_holder(lease).unwrap().as_deref(),
        Some("operate-b")
    );

    // --- Expiry: the leader stops renewing (its runtime is gone, as a frozen process); the
    // standby takes over once the lease expired, and by then the old leader knows it is not
    // the leader any more. ---
    rt_b.shutdown_background();
    let a2 = LeaseLeadership::new(&operate_conn(&env, &rt_a), lease, "operate-a", duration);
    let b_renewed = parse_time(&env.lease_renew_time(lease).unwrap().unwrap());
    rt_a.block_on(a2.acquire()).expect("a takes over");
    assert!(
        SystemTime::now() >= b_renewed + duration,
        "taken over before the lease expired"
    );
    assert!(a2.is_leader());
    assert!(!b.is_leader(), "an expired leader still believes it leads");
    assert_eq!(
        env.lease_holder(lease).unwrap().as_deref(),
        Some("operate-a")
    );

    // --- The recorder: an Event on the Kafka resource with the action's reason. ---
    let kafkas: Api<DynamicObject> =
        Api::namespaced_with(admin.clone(), NAMESPACE, &strimzi_resource("Kafka"));
    env.block_on(
        kafkas.create(
            &PostParams::default(),
            &serde_json::from_value(json!({
                "apiVersion": "kafka.strimzi.io/v1", "kind": "Kafka",
                "metadata": { "name": "my-cluster", "namespace": NAMESPACE },
                "spec": { "kafka": {} },
            }))
            .unwrap(),
        ),
    )
    .unwrap();
    let recorder = rt
        .block_on(EventRecorder::for_strimzi(&conn, "my-cluster", "operate-a"))
        .expect("recorder");
    rt.block_on(recorder.record(&ActionRecord {
        kind: "rebalance-add-brokers".into(),
        target: "brokers 4,5".into(),
        reason: "brokers 4,5 joined and hold no replica since 2m".into(),
        result: ActionResult::Started,
    }));
    let events = env.events().unwrap();
    assert!(
        events.contains(&(
            "my-cluster".into(),
            "RebalanceAddBrokersStarted".into(),
            "rebalance-add-brokers brokers 4,5: brokers 4,5 joined and hold no replica since 2m"
                .into()
        )),
        "{events:?}"
    );

    // --- Strimzi scale-down intent: the nodes the pools are about to lose. ---
    let pools: Api<DynamicObject> =
        Api::namespaced_with(admin.clone(), NAMESPACE, &strimzi_resource("KafkaNodePool"));
    for (name, cluster, ids, annotation) in [
        ("brokers", "my-cluster", vec![3, 4, 5], Some("[4]")),
        ("controllers", "my-cluster", vec![0, 1, 2], None),
        ("elsewhere", "other-cluster", vec![7, 8], Some("[7]")),
    ] {
        let mut meta = json!({ "name": name, "namespace": NAMESPACE,
                               "labels": { "strimzi.io/cluster": cluster } });
        if let Some(a) = annotation {
            meta["annotations"] = json!({ "strimzi.io/remove-node-ids": a });
        }
        env.block_on(async {
            pools
                .create(
                    &PostParams::default(),
                    &serde_json::from_value(json!({
                        "apiVersion": "kafka.strimzi.io/v1", "kind": "KafkaNodePool",
                        "metadata": meta, "spec": { "replicas": ids.len() },
                    }))
                    .unwrap(),
                )
                .await
                .unwrap();
            pools
                .patch_status(
                    name,
                    &PatchParams::default(),
                    &Patch::Merge(json!({ "status": { "nodeIds": ids } })),
                )
                .await
                .unwrap();
        });
    }
    let intent = || rt.block_on(strimzi::scale_down_intent(&conn, "my-cluster"));
    // Annotated, but no pool is scaled down: nothing leaves.
    assert_eq!(intent().unwrap(), BTreeSet::new());
    let scale = |name: &str, replicas: usize| {
        env.block_on(pools.patch(
            name,
            &PatchParams::default(),
            &Patch::Merge(json!({ "spec": { "replicas": replicas } })),
        ))
        .unwrap();
    };
    scale("brokers", 2);
    scale("controllers", 2);
    scale("elsewhere", 0);
    // The annotated node of one pool, the highest of the other; not the other cluster's.
    assert_eq!(intent().unwrap(), BTreeSet::from([2, 4]));

    // --- RBAC: every request the operate identity made was allowed by the Role. ---
    let rules = KubeEnv::operate_rules().unwrap();
    let audited = env.audited(OPERATE_USER).unwrap();
    assert!(!audited.is_empty(), "the audit log recorded nothing");
    for (group, resource, verb, code) in &audited {
        assert!(
            rules.contains(&(group.clone(), resource.clone(), verb.clone())),
            "operate asked {verb} {resource} ({group:?}), which examples/operate/rbac.yaml does not allow"
        );
        assert_ne!(*code, 403, "{verb} {resource} forbidden");
    }
}

const CLUSTER: &str = "my-cluster";
const STATE: &str = "kafkaops-operate-my-cluster";
/// The saved operate state in the ConfigMap (admin), if any.
fn saved_state(env: &KubeEnv) -> Option<serde_json::Value> {
    let api: Api<k8s_openapi::api::core::v1::ConfigMap> = Api::namespaced(env.admin(), NAMESPACE);
    let cm = env.block_on(api.get_opt(STATE)).ok()??;
    serde_json::from_str(cm.data?.get(STATE_KEY)?).ok()
}

#[test]
fn operate_failover_on_kubernetes() {
    let env = KubeEnv::start().expect("start the apiserver");
    let kafka = KafkaCluster::start(ClusterSpec::combined(4)).expect("start Kafka");
    let bootstrap = kafka.bootstrap_servers();
    // 12 partitions, RF 2, only on brokers 1-3: broker 4 is new and empty.
    let on_123: Vec<Vec<i32>> = (0..12)
        .map(|i| {
            let a = [1, 2, 3];
            vec![a[i % 3], a[(i + 1) % 3]]
        })
        .collect();
    create_topic(&bootstrap, "orders", &on_123, &[]).expect("create topic");
    // Enough data, throttled, that the execution runs until the test lifts the throttle.
    fill(&bootstrap, "orders", 12, 200_000).expect("fill");
    throttle(&bootstrap, &["orders"], &[1, 2, 3, 4], Some(10_000)).expect("throttle");
    let kafka = Arc::new(std::sync::Mutex::new(kafka));
    let strimzi =
        FakeStrimzi::install(&env, CLUSTER, "kafka", Arc::clone(&kafka)).expect("strimzi");
    let password = "operate-test-password";
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            basic_auth: Some(("rebalance-operator".into(), password.into())),
            tls: true,
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            ..CcDoubleOptions::default()
        },
    )
    .expect("start the Cruise Control double");
    // operate executes only while the operator's reconciliation is paused (the same guard as
    // `rebalance --execute`); the harness plays the operator.
    strimzi.pause_reconciliation(true).expect("pause");
    let ca = cc.ca_pem_path().expect("the double's CA");
    strimzi.cruise_control_service(cc.port()).expect("service");
    strimzi
        .cruise_control_secrets(password, &std::fs::read_to_string(&ca).unwrap())
        .expect("secrets");
    let tasks = || -> Vec<Task> {
        user_tasks_tls(&cc.url(), &ca, "rebalance-operator", password).expect("user_tasks")
    };
    let add_executions = |since: i64| -> Vec<Task> {
        tasks()
            .into_iter()
            .filter(|t| t.endpoint() == "add_broker" && t.executes() && t.start_ms >= since)
            .collect()
    };
    let count = |broker: i32| {
        replicas_per_broker(&bootstrap)
            .unwrap()
            .get(&broker)
            .copied()
            .unwrap_or(0)
    };

    let dir = tempfile::tempdir().unwrap();
    let policy = write_policy(
        dir.path(),
        "policy.yaml",
        "autoRebalance:
  - mode: add-brokers
    template: { name: t }
  - mode: remove-brokers
    template: { name: t }
scaleUpGracePeriod: 0s
templates:
  t: {}
",
    );
    let lease_duration = Duration::from_secs(6);
    // Only the Kubernetes side: Kafka and Cruise Control are discovered (--strimzi).
    let mut opts = OperateOptions::new("", "", &policy, &dir.path().join("unused-state"));
    opts.connection = Some(
        [
            "--strimzi",
            CLUSTER,
            "-n",
            NAMESPACE,
            "--kube-context",
            OPERATE_USER,
            "--kubeconfig",
            &env.kubeconfig.display().to_string(),
        ]
        .map(String::from)
        .to_vec(),
    );
    opts.extra_args = vec!["--lease-duration".into(), "6s".into()];
    let t0 = epoch_ms();
    let mut a = Operate::start(&opts).unwrap();
    let a_id = format!("/{}", a.pid().unwrap());
    wait_until("the first instance to hold the lease", WAIT, || {
        env.lease_holder(STATE)
            .unwrap()
            .filter(|h| h.ends_with(&a_id))
    });
    // The standby, once it leads, loops only every 10 minutes: what it does after the failover
    // (the drain, the roll) is woken by a running flow or by the watch of the pods and pools.
    let mut b = Operate::start(&OperateOptions {
        resync: "10m".into(),
        ..opts.clone()
    })
    .unwrap();
    let b_id = format!("/{}", b.pid().unwrap());
    wait_until("the second instance to stand by", WAIT, || {
        b.log().contains("standing by: the lease").then_some(())
    });

    // The leader starts the add_broker execution; killed in the middle of it.
    let task = wait_for("an add_broker execution in progress", WAIT, || {
        Ok(add_executions(t0)
            .into_iter()
            .find(|t| t.status == "InExecution"))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n--- a ---\n{}\n--- b ---\n{}", a.log(), b.log()));
    assert!(task.url.contains("brokerid=4"), "{task:?}");
    a.kill().unwrap();
    let killed = Instant::now();
    // The last renewal of the killed leader (read after the kill: none can follow it).
    let renewed_before_kill = parse_time(&env.lease_renew_time(STATE).unwrap().unwrap());
    let a_log = a.log();
    // Killed after the answer was saved (the task id in the state) or with the request in
    // flight (saved before sending, no task id yet: the standby must find it in user_tasks).
    let saved = saved_state(&env).expect("a saved state in the ConfigMap");
    match saved["mover"]["flow"]["task_id"].as_str() {
        Some(id) => assert_eq!(id, task.id, "{saved}\n{a_log}"),
        None => assert!(saved["mover"]["requested_at"].is_u64(), "{saved}\n{a_log}"),
    }
    assert!(
        !b.log().contains("leading"),
        "the standby acted before the kill"
    );

    // The standby takes over once the lease expired (not before: the lease says who leads).
    wait_until("the standby to hold the lease", WAIT, || {
        env.lease_holder(STATE)
            .unwrap()
            .filter(|h| h.ends_with(&b_id))
    });
    let took_over = killed.elapsed();
    // When the standby took the Lease, by its own clock (the `acquireTime` it wrote; this host's
    // clock): this test's own polling, slow at load 20-45, does not count.
    let acquired = parse_time(&env.lease_acquire_time(STATE).unwrap().unwrap());
    let expired = renewed_before_kill + lease_duration;
    assert!(
        acquired >= expired,
        "the standby took a lease that had not expired: acquired at {acquired:?}, expired at {expired:?}"
    );
    // What the code guarantees: the standby polls every duration/6 (1 s here), so it takes an
    // expired Lease within one poll; 2 s of slack for its own API calls.
    let standby_poll = lease_duration / 6;
    let late = acquired.duration_since(expired).unwrap_or_default();
    eprintln!(
        "the standby took over {took_over:.1?} after the leader was killed (lease 6 s), \
         {late:.1?} after the Lease expired"
    );
    assert!(
        late < standby_poll + Duration::from_secs(2),
        "the standby took the Lease {late:?} after it expired (polls every {standby_poll:?})"
    );
    wait_for("the standby to follow the running task", WAIT, || {
        Ok(b.log()
            .contains(&format!("following the execution (task {})", task.id))
            .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", b.log()));
    throttle(&bootstrap, &["orders"], &[1, 2, 3, 4], None).expect("lift the throttle");
    wait_for(
        "the state machine to finish (Idle, nothing running)",
        WAIT,
        || {
            Ok(saved_state(&env).and_then(|s| {
                (s["rebalancer"]["state"] == "Idle" && s["mover"].is_null()).then_some(())
            }))
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}\n{}", b.log()));
    let adds = add_executions(t0);
    assert_eq!(
        adds.len(),
        1,
        "exactly one add_broker execution across the failover: {adds:?}\n{a_log}\n---\n{}",
        b.log()
    );
    assert_eq!(adds[0].status, "Completed", "{adds:?}");
    assert!(count(4) > 0, "broker 4 was filled");
    let events = env.events().unwrap();
    assert!(
        events
            .iter()
            .any(|(on, reason, _)| on == CLUSTER && reason == "RebalanceAddBrokersStarted"),
        "{events:?}"
    );

    // Strimzi scale-down intent: the pool scaled to 3 with node 4 named for removal; the
    // leader drains it (remove_broker) before the operator would remove it.
    let pools: Api<DynamicObject> =
        Api::namespaced_with(env.admin(), NAMESPACE, &strimzi_resource("KafkaNodePool"));
    let t_down = epoch_ms();
    env.block_on(pools.patch(
        "kafka",
        &PatchParams::default(),
        &Patch::Merge(json!({
            "metadata": { "annotations": { "strimzi.io/remove-node-ids": "[4]" } },
            "spec": { "replicas": 3 },
        })),
    ))
    .expect("scale the pool down");
    wait_for("broker 4 drained, the state machine Idle", WAIT, || {
        Ok((count(4) == 0
            && saved_state(&env)
                .is_some_and(|s| s["rebalancer"]["state"] == "Idle" && s["mover"].is_null()))
        .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", b.log()));
    assert!(
        b.log().contains("the cluster changed (KafkaNodePool kafka"),
        "the pool's watch woke the loop\n{}",
        b.log()
    );
    let removes: Vec<Task> = tasks()
        .into_iter()
        .filter(|t| t.endpoint() == "remove_broker" && t.executes() && t.start_ms >= t_down)
        .collect();
    assert_eq!(removes.len(), 1, "{removes:?}\n{}", b.log());
    assert!(removes[0].url.contains("brokerid=4"), "{removes:?}");

    // A pod annotated strimzi.io/manual-rolling-update=true is rolled by operate (the pod
    // deleted and recreated, Kafka's own checks between), an acks=all producer running.
    create_topic(
        &bootstrap,
        "rolled",
        &[vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]],
        &[("min.insync.replicas", "2")],
    )
    .expect("create the rolled topic");
    wait_for("full ISRs", WAIT, || {
        Ok(placement(&bootstrap, "rolled")?
            .iter()
            .all(|p| p.isr.len() == 3)
            .then_some(()))
    })
    .unwrap();
    let producer = BackgroundProducer::start(&bootstrap, "rolled").expect("producer");
    wait_for("the producer to send", WAIT, || {
        Ok((producer.stats().sent > 100).then_some(()))
    })
    .unwrap();
    let before = strimzi.uids().unwrap();
    let restarts_before = strimzi.restarts().len();
    // Nothing runs (the mover is empty) and the policy is unchanged: with the 10 minute resync
    // only the watch of the pods can wake the loop for the annotation.
    let log_before = b.log().len();
    // A manual `kafkaops roll` of the same cluster holds the roll Lease (taken and renewed as
    // the command does it, by another identity): operate restarts nothing while it is held.
    let rt = runtime();
    let admin = rt
        .block_on(
            KubeTarget {
                kubeconfig: Some(env.kubeconfig.clone()),
                context: Some("admin".into()),
                namespace: Some(NAMESPACE.into()),
            }
            .connect(),
        )
        .expect("connect as admin");
    let manual = rt
        .block_on(
            KubePlatform::new(admin, PodSelector::strimzi(CLUSTER), WAIT)
                .take_lease(Duration::from_secs(30)),
        )
        .expect("take the roll lease as a manual roll");
    let manual_id = kafkaops::platform::kube::identity();
    strimzi
        .annotate(2, "strimzi.io/manual-rolling-update", "true")
        .unwrap();
    wait_for("operate to wait for the manual roll", WAIT, || {
        Ok(b.log()[log_before..]
            .lines()
            .any(|l| {
                l.contains("roll of nodes 2 waits: another roll is in progress")
                    && l.contains(&manual_id)
            })
            .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", b.log()));
    // Ground truth: pod 2 is the same pod, no restart, and the Lease is still the manual one.
    assert_eq!(
        strimzi.uids().unwrap().get(&2),
        before.get(&2),
        "{}",
        b.log()
    );
    assert_eq!(strimzi.restarts().len(), restarts_before, "{}", b.log());
    assert_eq!(
        env.lease_holder(&format!("kafkaops-roll-{CLUSTER}"))
            .unwrap()
            .as_deref(),
        Some(manual_id.as_str())
    );
    // The manual roll ends (its Lease deleted, as `kafkaops roll` leaves it); its own pod
    // restarts would wake operate, here the harness touches the pod.
    rt.block_on(manual.release());
    strimzi.annotate(2, "kafkaops.test/touched", "1").unwrap();
    // operate's roll takes the same Lease: a manual `kafkaops roll` meanwhile is busy (exit 5)
    // and names operate as the holder.
    let roll_lease = format!("kafkaops-roll-{CLUSTER}");
    wait_until("operate's roll to take the roll lease", WAIT, || {
        env.lease_holder(&roll_lease)
            .unwrap()
            .filter(|h| h.ends_with(&b_id))
    });
    let manual_state = tempfile::tempdir().unwrap();
    let refused = support::bin::kafkaops()
        .args(["--yes", "roll", "--strimzi", CLUSTER, "-n", NAMESPACE])
        .args(["--kube-context", "admin"])
        .arg("--kubeconfig")
        .arg(&env.kubeconfig)
        .arg("--state-dir")
        .arg(manual_state.path())
        .output()
        .expect("run kafkaops roll");
    let refused_err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(5), "{refused_err}");
    assert!(
        refused_err.contains(&roll_lease) && refused_err.contains(&b_id),
        "names the lease and operate as its holder: {refused_err}"
    );
    wait_for("pod 2 rolled and the roll finished", WAIT, || {
        let uids = strimzi.uids()?;
        let rolled = uids.get(&2).is_some_and(|u| Some(u) != before.get(&2));
        Ok((rolled
            && !strimzi
                .annotations(2)?
                .contains_key("strimzi.io/manual-rolling-update")
            && saved_state(&env).is_some_and(|s| s["mover"].is_null()))
        .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", b.log()));
    let woken = b.log()[log_before..]
        .lines()
        .find(|l| l.contains("the cluster changed ("))
        .map(str::to_string);
    assert!(
        woken.is_some_and(|l| l.contains(&format!("pod {}", strimzi.pod_name(2)))),
        "the annotation woke the loop through the watch\n{}",
        b.log()
    );
    wait_for("the producer to send after the roll", WAIT, || {
        Ok((producer.stats().sent > 200).then_some(()))
    })
    .unwrap();
    let stats = producer.stop();
    eprintln!("producer during the roll: {stats:?}");
    assert_eq!(stats.failed(), 0, "failed sends during the roll: {stats:?}");
    let rolled: Vec<i32> = strimzi.restarts()[restarts_before..]
        .iter()
        .map(|r| r.node)
        .collect();
    assert_eq!(
        rolled,
        vec![2],
        "only the annotated pod is rolled\n{}",
        b.log()
    );
    let events = env.events().unwrap();
    assert!(
        events
            .iter()
            .any(|(on, reason, _)| on == &strimzi.pod_name(2) && reason == "ManualRollingUpdate"),
        "{events:?}"
    );

    // SIGTERM: exit 0 and the lease released (holder cleared) for the next one at once.
    assert_eq!(b.terminate().unwrap(), Some(0), "{}", b.log());
    assert_eq!(env.lease_holder(STATE).unwrap().as_deref(), Some(""));

    // RBAC: the Role of examples/operate/rbac.yaml is exactly what operate asked for.
    let rules = KubeEnv::operate_rules().unwrap();
    let audited = env.audited(OPERATE_USER).unwrap();
    let used: BTreeSet<(String, String, String)> = audited
        .iter()
        .map(|(g, r, v, _)| (g.clone(), r.clone(), v.clone()))
        .collect();
    for (g, r, v, code) in &audited {
        assert_ne!(*code, 403, "{v} {r} ({g:?}) was forbidden");
    }
    let unallowed: Vec<_> = used.difference(&rules).collect();
    // Two rules only a roll of another shape uses: clearing the annotation of a recreated pod
    // that still carries it (a controller copying it), and of an annotated StrimziPodSet once
    // all its pods were rolled (`kafkaops roll` tests both: tests/kube/kube_roll.rs).
    let conditional: BTreeSet<(String, String, String)> = [
        ("", "pods", "patch"),
        ("kafka.strimzi.io", "strimzipodsets", "patch"),
    ]
    .map(|(g, r, v)| (g.to_string(), r.to_string(), v.to_string()))
    .into();
    let unused: Vec<_> = rules
        .difference(&used)
        .filter(|r| !conditional.contains(*r))
        .collect();
    assert!(
        unallowed.is_empty() && unused.is_empty(),
        "examples/operate/rbac.yaml differs from what operate uses:\n asked but not in the Role: \
         {unallowed:?}\n in the Role but never asked: {unused:?}"
    );
    drop(cc);
    drop(strimzi);
}
