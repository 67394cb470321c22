//! Node holds on Kubernetes (issue #29): with `--strimzi CLUSTER` the holds live in the
//! ConfigMap `kafkaops-holds-CLUSTER` beside the cluster's resources, on a real kube-apiserver in
//! front of a real 3-node Kafka cluster bound to Strimzi-shaped pods. Ground truth is the
//! apiserver (the ConfigMap's data, read with the harness's admin client), Kafka's metadata (no
//! holds topic appears) and the harness's record of the pods it replaced:
//!
//! - `hold add|list|remove` write and read the ConfigMap as kafkaops' own identity (the Role of
//!   `examples/kafkaops-rbac.yaml`); a hold past its expiry is listed as expired;
//! - `roll --strimzi --nodes 1,2` with node 2 held restarts pod 1 only and says node 2 is held;
//!   `roll --all` then restarts pods 1 and 3, its plan (text and JSON) naming the hold;
//! - two `hold add` processes started together both keep their hold, and eight concurrent
//!   changes through the store itself (which conflict on the resourceVersion for certain) are
//!   all kept: a conflict is re-read and retried, never lost.

use crate::support;

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kafkaops::engine::holds::Hold;
use kafkaops::engine::model::NodeId;
use kafkaops::platform::kube::KubeTarget;
use kafkaops::platform::kube::holds::ConfigMapHolds;
use kube::api::Api;
use serde_json::Value;
use support::bin::{Out, run};
use support::kafka::{placement, wait_for};
use support::kube::{KubeEnv, NAMESPACE, PausedStrimzi};

const CLUSTER: &str = "held-cluster";
const POOL: &str = "kafka";
const CONFIGMAP: &str = "kafkaops-holds-held-cluster";

fn add(node: &str, reason: &str, expires: &str) -> Vec<String> {
    [
        "--yes",
        "hold",
        "add",
        "--nodes",
        node,
        "--reason",
        reason,
        "--expires",
        expires,
    ]
    .iter()
    .map(ToString::to_string)
    .collect()
}

fn listed(f: &PausedStrimzi, state: &std::path::Path) -> Vec<Value> {
    let o = run(&mut f.kafkaops(state, &["hold", "list", "-o", "json"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    o.json()["holds"].as_array().cloned().unwrap_or_default()
}

/// The ConfigMap's data as the apiserver has it.
fn stored(env: &KubeEnv) -> BTreeMap<String, String> {
    let api: Api<ConfigMap> = Api::namespaced(env.admin(), NAMESPACE);
    env.block_on(api.get_opt(CONFIGMAP))
        .expect("get the holds ConfigMap")
        .and_then(|c| c.data)
        .unwrap_or_default()
}

fn ok(o: &Out) {
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
}

#[test]
fn holds_live_in_a_configmap_on_kubernetes_and_a_roll_skips_the_held_pod() {
    let f = PausedStrimzi::start(CLUSTER, POOL, "held");
    let (env, strimzi, bootstrap) = (&f.env, &f.strimzi, f.bootstrap.as_str());
    let state = tempfile::tempdir().unwrap();
    let state = state.path();

    // Add: the ConfigMap holds it (the apiserver says so), Kafka has no holds topic.
    let a = add("2", "disk swap", "4h");
    ok(&run(&mut f.kafkaops(
        state,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
    )));
    let data = stored(env);
    let hold: Hold = serde_json::from_str(&data["node-2"]).expect("a hold");
    assert_eq!((hold.node, hold.reason.as_str()), (NodeId(2), "disk swap"));
    let missing = placement(bootstrap, "__kafkaops_holds").unwrap_err();
    assert!(
        missing.to_string().contains("UnknownTopic"),
        "no holds topic on Kubernetes: {missing}"
    );
    let h = listed(&f, state);
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(
        (h[0]["node"].clone(), h[0]["expired"].clone()),
        (2.into(), false.into())
    );

    // A roll of nodes 1 and 2 restarts pod 1 only and says node 2 is held.
    let roll_dir = state.join("roll").display().to_string();
    let o = run(&mut f.kafkaops(
        state,
        &[
            "--yes",
            "roll",
            "--nodes",
            "1,2",
            "--poll-interval",
            "1s",
            "--state-dir",
            &roll_dir,
        ],
    ));
    ok(&o);
    assert!(
        o.stdout.contains("held, not restarted: node 2") && o.stdout.contains("disk swap"),
        "{}",
        o.stdout
    );
    let restarted: Vec<i32> = strimzi.restarts().iter().map(|r| r.node).collect();
    assert_eq!(restarted, vec![1], "only the pod of node 1 is restarted");

    // `roll --all` with node 2 still held: the plan (text, then the JSON document) names the
    // hold, the result restarts every other node (1 and 3), and pod 2 is never deleted.
    let uid_2 = strimzi.uids().unwrap().get(&2).cloned();
    let all_args = |dir: &str, json: bool| {
        let mut a = vec!["roll", "--all", "--poll-interval", "1s", "--state-dir", dir];
        if json {
            a.splice(0..0, ["--yes", "-o", "json"]);
        } else {
            a.push("--dry-run");
        }
        a.into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    let all_dir = state.join("roll-all").display().to_string();
    let dry = all_args(&all_dir, false);
    let o = run(&mut f.kafkaops(state, &dry.iter().map(String::as_str).collect::<Vec<_>>()));
    ok(&o);
    assert!(
        o.stdout.contains("held, not restarted: node 2") && o.stdout.contains("disk swap"),
        "the plan of --all names the hold:\n{}",
        o.stdout
    );
    assert_eq!(strimzi.restarts().len(), 1, "a dry run restarts nothing");
    let real = all_args(&all_dir, true);
    let o = run(&mut f.kafkaops(state, &real.iter().map(String::as_str).collect::<Vec<_>>()));
    ok(&o);
    let doc = o.json();
    let held = doc["plan"]["held"].as_array().cloned().unwrap_or_default();
    assert_eq!(held.len(), 1, "{doc}");
    assert!(
        held[0]["node"] == 2
            && held[0]["reason"]
                .as_str()
                .is_some_and(|r| r.contains("disk swap")),
        "{doc}"
    );
    let result = &doc["result"];
    assert_eq!(result["status"], "done", "{doc}");
    let mut in_result: Vec<i64> = result["restarted"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default();
    in_result.sort_unstable();
    assert_eq!(in_result, vec![1, 3], "{doc}");
    assert_eq!(result["skipped"], serde_json::json!([]), "{doc}");
    // The result names the held node too, with the hold's reason (not only the plan).
    assert_eq!(result["held"], doc["plan"]["held"], "{doc}");
    let mut restarted: Vec<i32> = strimzi.restarts()[1..].iter().map(|r| r.node).collect();
    restarted.sort_unstable();
    assert_eq!(restarted, vec![1, 3], "every node but the held one");
    assert_eq!(
        strimzi.uids().unwrap().get(&2).cloned(),
        uid_2,
        "pod 2 kept"
    );

    // Remove: the key is gone from the ConfigMap.
    ok(&run(&mut f.kafkaops(
        state,
        &["--yes", "hold", "remove", "--nodes", "2"],
    )));
    assert!(!stored(env).contains_key("node-2"));
    assert!(listed(&f, state).is_empty());

    // Expiry: listed as expired once it passes, no one removing it.
    let a = add("3", "log recovery", "2s");
    ok(&run(&mut f.kafkaops(
        state,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
    )));
    wait_for(
        "the hold of node 3 to expire",
        Duration::from_secs(30),
        || {
            let h = listed(&f, state);
            Ok((h.len() == 1 && h[0]["node"] == 3 && h[0]["expired"] == true).then_some(()))
        },
    )
    .expect("expired");

    // Two processes adding at once: both holds kept.
    let spawn = |node: &str| {
        let a = add(node, "concurrent", "1h");
        f.kafkaops(state, &a.iter().map(String::as_str).collect::<Vec<_>>())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn kafkaops")
    };
    let (first, second) = (spawn("1"), spawn("2"));
    for child in [first, second] {
        let out = child.wait_with_output().expect("wait for kafkaops");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let data = stored(env);
    assert!(
        data.contains_key("node-1") && data.contains_key("node-2") && data.contains_key("node-3"),
        "{data:?}"
    );

    // Eight writers through the store at once (as kafkaops' identity): they conflict on the
    // resourceVersion, are re-read and retried, and every hold is kept.
    let conn = env
        .block_on(
            KubeTarget {
                kubeconfig: Some(env.kubeconfig.clone()),
                context: Some("kafkaops".into()),
                namespace: Some(NAMESPACE.into()),
            }
            .connect(),
        )
        .expect("connect as kafkaops");
    let store = ConfigMapHolds::new(&conn, CONFIGMAP);
    let writes = (10..18).map(|n| {
        let store = store.clone();
        async move {
            let hold = Hold {
                node: NodeId(n),
                reason: format!("writer {n}"),
                created_ms: 0,
                expires_ms: u64::MAX,
            };
            store.change(&[hold], &[]).await
        }
    });
    for r in env.block_on(futures::future::join_all(writes)) {
        r.expect("a concurrent change is retried, not refused");
    }
    let held: Vec<i32> = env
        .block_on(store.read())
        .expect("read")
        .iter()
        .map(|h| h.node.0)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(held, vec![1, 2, 3, 10, 11, 12, 13, 14, 15, 16, 17]);
}
