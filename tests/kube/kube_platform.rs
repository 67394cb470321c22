//! Kubernetes access paths beyond `tests/kube/kube_roll.rs`, against the real kube-apiserver of
//! `tests/support/kube.rs` (kafkaops bound to exactly `examples/kafkaops-rbac.yaml`):
//!
//! - Strimzi discovery from outside the cluster when Cruise Control's Service has no external
//!   address: kafkaops opens a port-forward itself. The apiserver proxies it to the harness's
//!   fake kubelet (`tests/env/kube/apiserver/fakekubelet`, the kubelet's own streaming code),
//!   which connects it to the Cruise Control double. The double's certificate names only the
//!   Service (as Strimzi's does), not 127.0.0.1, so TLS must verify against the Service name.
//!   Ground truth: the fake kubelet's log of forwarded streams, the double's answer.
//! - A StatefulSet mid-rollout (`status.updateRevision` ahead of some pods'
//!   `controller-revision-hash`): `roll --pod-selector` without a selection restarts exactly the
//!   pods on the old revision. Ground truth: the harness's log of replaced pods, pod UIDs and
//!   revision labels on the apiserver.
//! - `--node-id-label`: pods `kafka-0..2` bound to Kafka nodes 1..3 and labelled with their node
//!   id; the dry run and the roll act on the node the label names (deleting `kafka-1` restarts
//!   node 2). Ground truth: the harness's binding of pods to Kafka processes and its restart log.

use crate::support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use support::bin::{Out, run};
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};
use support::kube::{FakeStatefulSet, FakeStrimzi, KubeEnv, NAMESPACE};

const CLUSTER: &str = "my-cluster";

/// kafkaops as `context` with nothing but the kubeconfig (no Kafka or Cruise Control setting).
fn kafkaops(env: &KubeEnv, context: &str, args: &[&str]) -> Out {
    run(support::bin::kafkaops()
        .args(["--yes", "-n", NAMESPACE, "--kube-context", context])
        .arg("--kubeconfig")
        .arg(&env.kubeconfig)
        .args(args))
}

#[test]
fn strimzi_cruise_control_through_a_port_forward() {
    let env = KubeEnv::start().expect("start the apiserver");
    let kafka = KafkaCluster::start(ClusterSpec::combined(3)).expect("start Kafka");
    let bootstrap = kafka.bootstrap_servers();
    let kafka = Arc::new(Mutex::new(kafka));
    let strimzi =
        FakeStrimzi::install(&env, CLUSTER, "kafka", Arc::clone(&kafka)).expect("strimzi");
    let password = "forwarded-password";
    let svc = format!("{CLUSTER}-cruise-control");
    // Strimzi's Cruise Control certificate: the Service's names, no IP address.
    let names = format!(
        "dns:{svc},dns:{svc}.{NAMESPACE},dns:{svc}.{NAMESPACE}.svc,dns:{svc}.{NAMESPACE}.svc.cluster.local"
    );
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            basic_auth: Some(("rebalance-operator".into(), password.into())),
            tls: true,
            tls_names: Some(names),
            ..CcDoubleOptions::default()
        },
    )
    .expect("start the Cruise Control double");
    strimzi
        .cruise_control_in_cluster(&env, cc.port())
        .expect("cruise control service and pod");
    let ca = std::fs::read_to_string(cc.ca_pem_path().expect("tls")).unwrap();
    strimzi
        .cruise_control_secrets(password, &ca)
        .expect("secrets");
    let forwarded = || {
        env.log_tail("kubelet", 1000)
            .matches(&format!(
                "forwarding {NAMESPACE}/{svc}-6d4f7c9b8-x2k7p:9090 to 127.0.0.1:{}",
                cc.port()
            ))
            .count()
    };
    assert_eq!(forwarded(), 0);

    // A dry run with only --strimzi and the kubeconfig reaches the double through the
    // port-forward: the fake kubelet forwarded streams to it, and its proposal came back.
    let run = kafkaops(
        &env,
        "kafkaops",
        &[
            "--strimzi",
            CLUSTER,
            "rebalance",
            "full",
            "--output",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let proposal: serde_json::Value = run.json();
    assert!(proposal.is_object(), "{proposal}");
    assert!(!run.stdout.contains(password) && !run.stderr.contains(password));
    assert!(
        forwarded() >= 2,
        "the probe and at least one Cruise Control request went through the kubelet:\n{}",
        env.log_tail("kubelet", 40)
    );

    // The Cruise Control pod carries the cluster's labels too; a roll of the cluster does not
    // take it for a Kafka node.
    let state = tempfile::tempdir().unwrap();
    let run = kafkaops(
        &env,
        "kafkaops",
        &[
            "--strimzi",
            CLUSTER,
            "roll",
            "--all",
            "--dry-run",
            "--output",
            "json",
            "--state-dir",
            state.path().to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.planned_roll_nodes(), vec![1, 2, 3], "{}", run.stdout);
    assert!(strimzi.restarts().is_empty(), "a dry run restarts nothing");

    // Without `create pods/portforward` the permission is named (exit 6), and nothing was
    // forwarded.
    env.limit("pods/portforward", "create").unwrap();
    let before = forwarded();
    let run = kafkaops(
        &env,
        "limited",
        &[
            "--strimzi",
            CLUSTER,
            "rebalance",
            "full",
            "--output",
            "json",
        ],
    );
    assert_eq!(run.code, 6, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "cannot create pods/portforward {svc}-6d4f7c9b8-x2k7p in namespace kafka: forbidden"
        )),
        "{}",
        run.stderr
    );
    assert_eq!(forwarded(), before);
    assert_eq!(strimzi.error(), None);
    drop(cc);
    drop(strimzi);
}

#[test]
fn statefulset_pods_on_the_old_revision_are_restarted_only() {
    let env = KubeEnv::start().expect("start the apiserver");
    let kafka = KafkaCluster::start(ClusterSpec::combined(3)).expect("start Kafka");
    let bootstrap = kafka.bootstrap_servers();
    create_topic(
        &bootstrap,
        "replicated",
        &[vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]],
        &[("min.insync.replicas", "2")],
    )
    .expect("create topic");
    let kafka = Arc::new(Mutex::new(kafka));
    let sts = FakeStatefulSet::install(&env, "kafka", "kafka-5d8b6c7f9", Arc::clone(&kafka))
        .expect("statefulset");
    let full_isr = |what: &str| {
        wait_for(what, Duration::from_secs(120), || {
            let p = placement(&bootstrap, "replicated")?;
            Ok(p.iter().all(|p| p.isr.len() == 3).then_some(()))
        })
        .expect("full ISRs");
    };
    full_isr("full ISRs at the start");
    let state = tempfile::tempdir().unwrap();
    let roll = |args: &[&str]| {
        let mut all = vec![
            "--bootstrap-servers",
            &bootstrap,
            "roll",
            "--pod-selector",
            "app=kafka",
            "--poll-interval",
            "1s",
            "--state-dir",
            state.path().to_str().unwrap(),
        ];
        all.extend_from_slice(args);
        kafkaops(&env, "kafkaops", &all)
    };

    // Nothing to restart while every pod is on the update revision.
    let run = roll(&["--dry-run", "--output", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let plan: serde_json::Value = run.json();
    assert_eq!(
        plan["plan"]["steps"].as_array().map(Vec::len),
        Some(0),
        "{plan}"
    );

    // Mid-rollout: the controller moved to a new revision and replaced pod 3 (the highest
    // ordinal goes first); pods 1 and 2 are still on the old one.
    let new = "kafka-7c4f8d9b6";
    sts.update_revision("kafka-5d8b6c7f9", new).unwrap();
    let pods: kube::Api<k8s_openapi::api::core::v1::Pod> =
        kube::Api::namespaced(env.admin(), NAMESPACE);
    env.block_on(pods.delete("kafka-3", &Default::default()))
        .expect("delete kafka-3");
    wait_for("kafka-3 recreated", Duration::from_secs(120), || {
        Ok(
            (sts.restarts().len() == 1
                && sts.revisions()?.get(&3).map(String::as_str) == Some(new))
            .then_some(()),
        )
    })
    .unwrap();
    sts.wait_all_ready(Duration::from_secs(120)).unwrap();
    full_isr("full ISRs after the controller replaced kafka-3");
    let before = sts.uids().unwrap();

    // The plan names the old revision as the reason, for 1 and 2 only.
    let run = roll(&["--all", "--dry-run", "--output", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let plan: serde_json::Value = run.json();
    let reasons: Vec<(i64, String)> = plan["plan"]["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["nodes"].as_array().cloned().unwrap_or_default())
        .map(|n| {
            (
                n["node"].as_i64().unwrap_or(-1),
                n["reason"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    for (node, reason) in &reasons {
        assert_eq!(
            reason.contains(new),
            *node != 3,
            "node {node}: {reason} ({plan})"
        );
    }
    assert_eq!(reasons.len(), 3, "{plan}");

    // No selection: the roll restarts exactly the pods on the old revision.
    let run = roll(&["--output", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let mut restarted: Vec<i32> = sts.restarts().iter().skip(1).map(|r| r.node).collect();
    restarted.sort_unstable();
    assert_eq!(restarted, vec![1, 2], "{}", run.stderr);
    let after = sts.uids().unwrap();
    assert!(before[&1] != after[&1] && before[&2] != after[&2]);
    assert_eq!(
        before[&3], after[&3],
        "kafka-3 (on the update revision) kept"
    );
    assert!(
        sts.revisions().unwrap().values().all(|r| r == new),
        "{:?}",
        sts.revisions()
    );
    full_isr("full ISRs after the roll");
    // Then nothing is left to do.
    let run = roll(&["--output", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(sts.restarts().len(), 3, "nothing more restarted");
    assert_eq!(sts.error(), None);
    drop(sts);
}

#[test]
fn pods_map_to_node_ids_by_a_label() {
    let env = KubeEnv::start().expect("start the apiserver");
    let kafka = KafkaCluster::start(ClusterSpec::combined(3)).expect("start Kafka");
    let bootstrap = kafka.bootstrap_servers();
    create_topic(
        &bootstrap,
        "replicated",
        &[vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]],
        &[("min.insync.replicas", "2")],
    )
    .expect("create topic");
    let kafka = Arc::new(Mutex::new(kafka));
    let label = "kafka.example.com/node-id";
    // Pods kafka-0, kafka-1, kafka-2 bound to Kafka nodes 1, 2, 3, each labelled with its node
    // id: the number ending a pod's name is not its node id.
    let sts = FakeStatefulSet::install_labelled(
        &env,
        "kafka",
        "kafka-5d8b6c7f9",
        Arc::clone(&kafka),
        label,
    )
    .expect("statefulset");
    assert_eq!(sts.pod_name(2), "kafka-1");
    sts.annotate(2, "strimzi.io/manual-rolling-update", "true")
        .unwrap();
    let state = tempfile::tempdir().unwrap();
    let roll = |args: &[&str]| {
        let mut all = vec![
            "--bootstrap-servers",
            &bootstrap,
            "roll",
            "--pod-selector",
            "app=kafka",
            "--node-id-label",
            label,
            "--poll-interval",
            "1s",
            "--state-dir",
            state.path().to_str().unwrap(),
        ];
        all.extend_from_slice(args);
        kafkaops(&env, "kafkaops", &all)
    };
    let planned = |run: &Out| -> Vec<(i64, String)> {
        let plan: serde_json::Value = run.json();
        plan["plan"]["steps"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|s| s["nodes"].as_array().cloned().unwrap_or_default())
            .map(|n| {
                (
                    n["node"].as_i64().unwrap_or(-1),
                    n["reason"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    };

    // The dry run plans node 2 only, for the annotated pod kafka-1.
    let run = roll(&["--dry-run", "--output", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let plan = planned(&run);
    assert_eq!(plan.len(), 1, "{plan:?}");
    assert_eq!(plan[0].0, 2, "{plan:?}");
    assert!(plan[0].1.contains("pod kafka-1 is annotated"), "{plan:?}");
    // With every node selected, each node's reason is its own (the annotation stays on 2).
    let run = roll(&["--all", "--dry-run", "--output", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let mut plan = planned(&run);
    plan.sort();
    assert_eq!(
        plan.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        vec![1, 2, 3],
        "{plan:?}"
    );
    for (node, reason) in &plan {
        assert_eq!(
            reason.contains("kafka-1"),
            *node == 2,
            "node {node}: {reason}"
        );
    }
    assert!(sts.restarts().is_empty(), "a dry run restarts nothing");

    // The roll deletes kafka-1, which restarts Kafka node 2 (the harness's binding), and no
    // other pod.
    let before = sts.uids().unwrap();
    let run = roll(&["--output", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let restarted: Vec<i32> = sts.restarts().iter().map(|r| r.node).collect();
    assert_eq!(restarted, vec![2], "{}", run.stderr);
    let after = sts.uids().unwrap();
    assert_ne!(before[&2], after[&2]);
    assert_eq!(
        (before[&1].clone(), before[&3].clone()),
        (after[&1].clone(), after[&3].clone())
    );
    assert!(
        env.events()
            .unwrap()
            .iter()
            .any(|(pod, reason, _)| pod == "kafka-1" && reason == "ManualRollingUpdate"),
        "{:?}",
        env.events()
    );
    assert_eq!(sts.error(), None);
    drop(sts);
}
