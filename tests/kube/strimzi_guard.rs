//! A running Strimzi operator (issue #17): `roll` and `rebalance --execute` refuse while the
//! `Kafka` resource's reconciliation is not paused or a `KafkaRebalance` of the cluster is
//! `Rebalancing`, unless `--force`; dry runs only warn.
//!
//! Against a real kube-apiserver (tests/support/kube.rs, kafkaops bound to exactly
//! `examples/kafkaops-rbac.yaml`) whose Strimzi-shaped pods are bound to a real 3-node Kafka
//! cluster, and the Cruise Control double moving replicas on it. Ground truth: the harness's
//! log of replaced pods and the pods' UIDs on the apiserver (nothing restarted), Kafka's own
//! metadata (nothing moved), never kafkaops' output alone. Each refusal is followed by the same
//! command going through once the cause is gone, so a guard that refused everything (or a
//! double that moved nothing) would fail too.

use crate::support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use support::bin::{Out as Run, run};
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};
use support::kube::{FakeStrimzi, KubeEnv, NAMESPACE};

const CLUSTER: &str = "my-cluster";
const POOL: &str = "kafka";
const TOPIC: &str = "skewed";
const PAUSE: &str =
    "kubectl annotate kafka my-cluster -n kafka strimzi.io/pause-reconciliation=true";

/// `kafkaops --strimzi my-cluster -n kafka ... ARGS` as the kafkaops user (the documented Role),
/// with nothing but the kubeconfig.
fn kafkaops(env: &KubeEnv, state: &std::path::Path, args: &[&str]) -> Run {
    run(support::bin::kafkaops()
        .args(["--yes", "--strimzi", CLUSTER, "-n", NAMESPACE])
        .args(["--kube-context", "kafkaops"])
        .arg("--kubeconfig")
        .arg(&env.kubeconfig)
        .args(args)
        .env("KAFKAOPS_STATE_DIR", state))
}

fn roll(env: &KubeEnv, state: &std::path::Path, args: &[&str]) -> Run {
    let mut all = vec!["roll", "--poll-interval", "1s", "--state-dir"];
    let dir = state.to_str().unwrap();
    all.push(dir);
    all.extend_from_slice(args);
    kafkaops(env, state, &all)
}

fn replicas(bootstrap: &str) -> Vec<Vec<i32>> {
    placement(bootstrap, TOPIC)
        .expect("placement")
        .into_iter()
        .map(|p| {
            let mut r = p.replicas;
            r.sort_unstable();
            r
        })
        .collect()
}

#[test]
fn an_active_strimzi_operator_blocks_rolls_and_executions() {
    let env = KubeEnv::start().expect("start the apiserver");
    let kafka = KafkaCluster::start(ClusterSpec::combined(3)).expect("start Kafka");
    let bootstrap = kafka.bootstrap_servers();
    // Every replica on brokers 1 and 2: a full rebalance moves some onto 3.
    create_topic(&bootstrap, TOPIC, &vec![vec![1, 2]; 6], &[]).expect("create topic");
    let kafka = Arc::new(Mutex::new(kafka));
    let strimzi = FakeStrimzi::install(&env, CLUSTER, POOL, Arc::clone(&kafka)).expect("strimzi");
    let state = tempfile::tempdir().unwrap();
    let full_isr = |what: &str| {
        wait_for(what, Duration::from_secs(120), || {
            let p = placement(&bootstrap, TOPIC)?;
            Ok(p.iter()
                .all(|p| p.isr.len() == p.replicas.len())
                .then_some(()))
        })
        .expect("full ISRs");
    };
    full_isr("full ISRs at the start");

    // 1. Reconciliation not paused: the roll is refused with the pause command, nothing restarts.
    let before = strimzi.uids().unwrap();
    let run = roll(&env, state.path(), &["--all"]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert!(run.stderr.contains(PAUSE), "{}", run.stderr);
    assert!(
        run.stderr.contains("reconciliation is not paused") && run.stderr.contains("--force"),
        "{}",
        run.stderr
    );
    assert!(strimzi.restarts().is_empty(), "nothing restarted");
    assert_eq!(strimzi.uids().unwrap(), before, "pod UIDs unchanged");
    // A dry run is never refused: it warns.
    let run = roll(&env, state.path(), &["--all", "--dry-run"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("Warning") && run.stderr.contains(PAUSE),
        "{}",
        run.stderr
    );
    assert!(strimzi.restarts().is_empty(), "a dry run restarts nothing");

    // 2. --force: rolls, with a warning.
    let run = roll(&env, state.path(), &["--nodes", "1", "--force"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("Warning: --force"), "{}", run.stderr);
    let rolled: Vec<i32> = strimzi.restarts().iter().map(|r| r.node).collect();
    assert_eq!(rolled, vec![1]);
    full_isr("full ISRs after the forced roll");

    // 3. Paused: rolls, without a warning.
    strimzi.pause_reconciliation(true).unwrap();
    let run = roll(&env, state.path(), &["--nodes", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("Warning: --force"), "{}", run.stderr);
    assert!(!run.stderr.contains(PAUSE), "{}", run.stderr);
    let rolled: Vec<i32> = strimzi.restarts().iter().map(|r| r.node).collect();
    assert_eq!(rolled, vec![1, 2]);
    let after = strimzi.uids().unwrap();
    assert!(before[&1] != after[&1] && before[&2] != after[&2] && before[&3] == after[&3]);
    full_isr("full ISRs after the paused roll");

    // 4. A KafkaRebalance of the cluster that is Rebalancing blocks `rebalance full --execute`
    // (reconciliation paused), naming it; Kafka's metadata shows nothing moved.
    let password = "guard-password";
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            basic_auth: Some(("rebalance-operator".into(), password.into())),
            tls: true,
            ..CcDoubleOptions::default()
        },
    )
    .expect("start the Cruise Control double");
    strimzi.cruise_control_service(cc.port()).unwrap();
    let ca = std::fs::read_to_string(cc.ca_pem_path().expect("tls")).unwrap();
    strimzi.cruise_control_secrets(password, &ca).unwrap();
    strimzi
        .kafka_rebalance("my-rebalance", "Rebalancing")
        .unwrap();
    let placed = replicas(&bootstrap);
    let execute = [
        "rebalance",
        "full",
        "--execute",
        "--poll-interval",
        "500ms",
        "--output",
        "json",
    ];
    let run = kafkaops(&env, state.path(), &execute);
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "KafkaRebalance my-rebalance of cluster my-cluster in namespace kafka is Rebalancing"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(PAUSE), "paused: {}", run.stderr);
    assert_eq!(replicas(&bootstrap), placed, "nothing moved");
    // `topic set-rf --execute` the same way; its replication factor stays 2.
    let run = kafkaops(
        &env,
        state.path(),
        &["topic", "set-rf", "--topics", TOPIC, "-r", "3", "--execute"],
    );
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("refusing the replication-factor change")
            && run.stderr.contains("my-rebalance"),
        "{}",
        run.stderr
    );
    assert_eq!(replicas(&bootstrap), placed, "nothing moved");
    // Without `list kafkarebalances` (the documented Role minus that verb) kafkaops cannot
    // tell, and says which permission is missing (exit 6).
    env.limit("kafkarebalances", "list").unwrap();
    let out = support::bin::kafkaops()
        .args(["--yes", "--strimzi", CLUSTER, "-n", NAMESPACE])
        .args(["--kube-context", "limited"])
        .arg("--kubeconfig")
        .arg(&env.kubeconfig)
        .args(["roll", "--all", "--state-dir"])
        .arg(state.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{stderr}");
    assert!(
        stderr
            .contains("cannot list kafkarebalances.kafka.strimzi.io in namespace kafka: forbidden"),
        "{stderr}"
    );
    assert_eq!(strimzi.restarts().len(), 2, "nothing restarted");
    // Its dry run is not refused.
    let run = kafkaops(
        &env,
        state.path(),
        &["rebalance", "full", "--output", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("my-rebalance"), "{}", run.stderr);
    assert_eq!(replicas(&bootstrap), placed, "a dry run moves nothing");

    // 5. Once the KafkaRebalance is Ready the same execution runs and moves replicas onto 3.
    strimzi.kafka_rebalance("my-rebalance", "Ready").unwrap();
    let run = kafkaops(&env, state.path(), &execute);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let moved = replicas(&bootstrap);
    assert!(
        moved.iter().any(|r| r.contains(&3)),
        "the execution moved replicas onto broker 3: {moved:?}"
    );
    assert_eq!(strimzi.error(), None);
    drop(cc);
    drop(strimzi);
}
