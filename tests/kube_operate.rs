//! `kafkaops operate` in Kubernetes against a real kube-apiserver (tests/support/kube.rs), as
//! the identity bound to exactly the Role of `examples/operate/rbac.yaml`.
//!
//! The ports (src/commands/operate/kube_ports.rs): the ConfigMap store refuses a stale write;
//! the Lease makes a second instance wait while the first renews, hands over at once on
//! release, and a leader that stopped renewing (its runtime gone, as a frozen or partitioned
//! process) is not the leader any more when a standby takes over; the recorder's Events; the
//! Strimzi scale-down intent from KafkaNodePools. Ground truth is the apiserver, read with the
//! harness's admin identity, and its audit log of every request the operate identity made.

mod support;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use kafkaops::commands::operate::kube_ports::{
    ConfigMapStore, EventRecorder, LeaseLeadership, STATE_KEY,
};
use kafkaops::commands::operate::ports::{
    ActionRecord, ActionResult, Leadership, PortError, Recorder, StateStore,
};
use kafkaops::platform::kube::{KubeConn, KubeTarget, strimzi_resource};
use kube::api::{Api, DynamicObject, Patch, PatchParams, PostParams};
use serde_json::json;
use support::kube::{KubeEnv, NAMESPACE, OPERATE_USER};

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
    let intent = || rt.block_on(kafkaops::strimzi::scale_down_intent(&conn, "my-cluster"));
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
