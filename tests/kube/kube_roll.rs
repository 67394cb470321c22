//! `kafkaops roll --strimzi` against a real kube-apiserver (tests/support/kube.rs) whose
//! Strimzi-shaped pods are bound to a real 5-node Kafka cluster by the harness's fake Strimzi
//! and kubelet. Ground truth comes from the harness (which pods it replaced and when, Kafka's
//! own metadata, the producer's delivery reports) and from the apiserver (pod UIDs, Events,
//! the Lease), never from kafkaops' output alone.
//!
//! One test runs every scenario in order on one cluster (starting five Kafka nodes and an
//! apiserver is the expensive part): pods Kubernetes gives a reason for (a stuck pod, an
//! annotated pod) rolled without any selection, stuck first; a missing RBAC permission reported
//! by verb and object; a full roll under an `acks=all` producer while a second roll, a quorum
//! change, an upgrade roll and a finalization are refused by the Lease.

use crate::support;

use std::collections::BTreeSet;
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use support::bin::Out as Run;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{
    BackgroundProducer, ClusterSpec, KafkaCluster, create_topic, placement, wait_for,
};
use support::kube::{FakeStrimzi, KubeEnv, NAMESPACE};

const CLUSTER: &str = "my-cluster";
const POOL: &str = "kafka";
const TOPIC: &str = "rolled";
const LEASE: &str = "kafkaops-roll-my-cluster";

fn roll_command(env: &KubeEnv, context: &str, state: &std::path::Path, args: &[&str]) -> Command {
    let mut cmd = support::bin::kafkaops();
    cmd.args([
        "--yes",
        "roll",
        "--poll-interval",
        "1s",
        "--strimzi",
        CLUSTER,
    ])
    .args(["-n", NAMESPACE, "--kube-context", context])
    .arg("--kubeconfig")
    .arg(&env.kubeconfig)
    .arg("--state-dir")
    .arg(state)
    .args(args);
    cmd
}

/// The arguments `cmd` runs with (which command's schema [`Run::json`] checks its output against).
fn args_of(cmd: &Command) -> Vec<String> {
    cmd.get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

fn finish(what: &str, start: Instant, out: Output, args: Vec<String>) -> Run {
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        args,
    };
    eprintln!(
        "{what} -> exit {} in {:.1?}\n--- stderr ---\n{}",
        run.code,
        start.elapsed(),
        run.stderr
    );
    run
}

/// `kafkaops --strimzi CLUSTER ... ARGS` with only the kubeconfig: no Kafka or Cruise Control
/// setting at all.
fn kafkaops(env: &KubeEnv, cluster: &str, args: &[&str]) -> Run {
    let start = Instant::now();
    let mut cmd = support::bin::kafkaops();
    cmd.args([
        "--strimzi",
        cluster,
        "-n",
        NAMESPACE,
        "--kube-context",
        "kafkaops",
    ])
    .arg("--kubeconfig")
    .arg(&env.kubeconfig)
    .args(args);
    let out = cmd.output().expect("run kafkaops");
    finish(
        &format!("kafkaops --strimzi {cluster} {args:?}"),
        start,
        out,
        args_of(&cmd),
    )
}

fn roll(env: &KubeEnv, context: &str, state: &std::path::Path, args: &[&str]) -> Run {
    let start = Instant::now();
    let mut cmd = roll_command(env, context, state, args);
    let out = cmd.output().expect("run kafkaops");
    finish(
        &format!("kafkaops roll {args:?} as {context}"),
        start,
        out,
        args_of(&cmd),
    )
}

/// Installed as `kubectl-kafkaops`, usage and completions show the name it was called by.
#[test]
fn kubectl_plugin_name() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("kubectl-kafkaops");
    std::os::unix::fs::symlink(support::bin::kafkaops_bin(), &plugin).unwrap();
    let help = Command::new(&plugin)
        .args(["roll", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("Usage: kubectl kafkaops roll"), "{text}");
    // The Kubernetes flags are named in the global-options summary of every subcommand's help.
    assert!(text.contains("Kubernetes: --strimzi"), "{text}");
    let bash = Command::new(&plugin)
        .args(["completions", "bash"])
        .output()
        .unwrap();
    let script = String::from_utf8_lossy(&bash.stdout);
    assert!(script.contains("-o default kubectl-kafkaops"), "{script}");
    let plain = support::bin::kafkaops()
        .args(["roll", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&plain.stdout).contains("Usage: kafkaops roll"));
}

#[test]
fn strimzi_roll_reasons_rbac_lease_and_zero_failed_sends() {
    let env = KubeEnv::start().expect("start the apiserver");
    eprintln!("apiserver ready {:.1?} after start", env.ready_after);
    // A missing Kafka resource is named with the verb.
    let run = kafkaops(&env, "nope", &["rebalance", "full"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("cannot get kafkas.kafka.strimzi.io nope in namespace kafka: not found"),
        "{}",
        run.stderr
    );
    let kafka = KafkaCluster::start(ClusterSpec::combined(5)).expect("start Kafka");
    let bootstrap = kafka.bootstrap_servers();
    let ids = kafka.broker_ids();
    assert_eq!(ids, vec![1, 2, 3, 4, 5]);
    // RF 3 / min ISR 2 with preferred leaders on every node; nodes 2 and 4 share no partition,
    // so while 4 is down (stuck) the restart of 2 is not blocked: the roll refuses up front a
    // plan that is blocked at the start.
    let assignment: Vec<Vec<i32>> = vec![
        vec![1, 2, 3],
        vec![2, 3, 5],
        vec![3, 4, 5],
        vec![4, 5, 1],
        vec![5, 1, 2],
        vec![1, 3, 4],
        vec![2, 5, 1],
        vec![4, 1, 3],
    ];
    create_topic(
        &bootstrap,
        TOPIC,
        &assignment,
        &[("min.insync.replicas", "2")],
    )
    .expect("create topic");
    let kafka = Arc::new(Mutex::new(kafka));
    let strimzi = FakeStrimzi::install(&env, CLUSTER, POOL, Arc::clone(&kafka)).expect("strimzi");
    // The harness plays the operator; a user pauses its reconciliation before rolling (an
    // unpaused operator refuses the roll: tests/kube/strimzi_guard.rs).
    strimzi.pause_reconciliation(true).expect("pause");
    let state = tempfile::tempdir().unwrap();
    let full_isr = |what: &str| {
        wait_for(what, Duration::from_secs(120), || {
            let p = placement(&bootstrap, TOPIC)?;
            Ok(p.iter().all(|p| p.isr.len() == 3).then_some(()))
        })
        .expect("full ISRs");
    };
    full_isr("full ISRs at the start");

    // 1. No selection: the pods Kubernetes gives a reason for, the stuck one first.
    strimzi
        .annotate(2, "strimzi.io/manual-rolling-update", "true")
        .unwrap();
    strimzi.crash_loop(4).unwrap();
    let before = strimzi.uids().unwrap();
    let run = roll(&env, "kafkaops", state.path(), &["--output", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let restarted: Vec<(i32, Option<String>)> = strimzi
        .restarts()
        .iter()
        .map(|r| (r.node, r.stuck.clone()))
        .collect();
    assert_eq!(
        restarted,
        vec![(4, Some("CrashLoopBackOff".into())), (2, None)],
        "the stuck pod first, then the annotated one, nothing else"
    );
    let after = strimzi.uids().unwrap();
    for id in &ids {
        assert_eq!(
            before[id] != after[id],
            *id == 2 || *id == 4,
            "pod {id} UID changed iff it was rolled"
        );
    }
    assert!(
        !strimzi
            .annotations(2)
            .unwrap()
            .contains_key("strimzi.io/manual-rolling-update"),
        "the annotation is gone after the restart"
    );
    let events = env.events().unwrap();
    let reasons: BTreeSet<(String, String)> = events
        .iter()
        .map(|(pod, reason, _)| (pod.clone(), reason.clone()))
        .collect();
    assert!(
        reasons.contains(&(strimzi.pod_name(4), "PodStuck".into()))
            && reasons.contains(&(strimzi.pod_name(2), "ManualRollingUpdate".into())),
        "an Event per restart with its reason: {events:?}"
    );
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(env.lease_holder(LEASE).unwrap(), None, "lease released");
    full_isr("full ISRs after the first roll");
    // Its journal lists the pod deletes with the apiserver's answers; no token in the journal
    // nor in a bundle (tests/kube/kube_journal.rs).
    super::kube_journal::roll_journal_lists_pod_deletes_and_no_token(
        &env,
        &bootstrap,
        state.path(),
        &[strimzi.pod_name(4), strimzi.pod_name(2)],
    );

    // 1b. A pod Pending/Unschedulable (its process stopped), then one on an old revision: each
    // restarted alone, with its reason in the Event.
    let n = strimzi.restarts().len();
    strimzi.unschedulable(3).unwrap();
    let run = roll(&env, "kafkaops", state.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rolled: Vec<(i32, Option<String>)> = strimzi.restarts()[n..]
        .iter()
        .map(|r| (r.node, r.stuck.clone()))
        .collect();
    assert_eq!(rolled, vec![(3, Some("Pending/Unschedulable".into()))]);
    full_isr("full ISRs after the unschedulable pod");
    strimzi.old_revision(5).unwrap();
    let run = roll(&env, "kafkaops", state.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rolled: Vec<i32> = strimzi.restarts()[n + 1..].iter().map(|r| r.node).collect();
    assert_eq!(rolled, vec![5]);
    assert_eq!(
        strimzi.annotations(5).unwrap()["strimzi.io/revision"],
        "rev-1",
        "recreated from the current template"
    );
    let events = env.events().unwrap();
    assert!(
        events
            .iter()
            .any(|(pod, reason, note)| pod == &strimzi.pod_name(3)
                && reason == "PodStuck"
                && note.contains("Pending/Unschedulable"))
            && events.iter().any(
                |(pod, reason, _)| pod == &strimzi.pod_name(5) && reason == "PodHasOldRevision"
            ),
        "{events:?}"
    );
    // Nothing left to do: a roll without selection changes nothing.
    let run = roll(&env, "kafkaops", state.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(strimzi.restarts().len(), n + 2);
    full_isr("full ISRs after the old revision");

    // 2. A Role without `create` on leases: refused by name, nothing restarted.
    env.limit("leases", "create").unwrap();
    let n = strimzi.restarts().len();
    let run = roll(&env, "limited", state.path(), &["--all"]);
    assert_eq!(run.code, 6, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("cannot create leases.coordination.k8s.io kafkaops-roll-my-cluster in namespace kafka: forbidden"),
        "{}",
        run.stderr
    );
    assert_eq!(strimzi.restarts().len(), n, "nothing restarted");

    // 3. Every pod (the StrimziPodSet annotated for a manual rolling update, `roll` without a
    // selection), with an acks=all producer running; a second roll meanwhile is refused by the
    // Lease.
    let producer = BackgroundProducer::start(&bootstrap, TOPIC).expect("producer");
    wait_for("the producer to send", Duration::from_secs(30), || {
        Ok((producer.stats().sent > 100).then_some(()))
    })
    .unwrap();
    let before = strimzi.uids().unwrap();
    let first_state = tempfile::tempdir().unwrap();
    let start = Instant::now();
    strimzi
        .annotate_pod_set("strimzi.io/manual-rolling-update", "true")
        .unwrap();
    let mut first_cmd = roll_command(&env, "kafkaops", first_state.path(), &["--output", "json"]);
    let first_args = args_of(&first_cmd);
    let first = first_cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the first roll");
    let holder = wait_for(
        "the first roll to take the lease",
        Duration::from_secs(120),
        || env.lease_holder(LEASE),
    )
    .unwrap();
    assert!(holder.starts_with("kafkaops@"), "{holder}");
    let second = roll(&env, "kafkaops", state.path(), &["--all"]);
    assert_eq!(second.code, 5, "{}", second.stderr);
    assert!(
        second.stderr.contains(LEASE) && second.stderr.contains(&holder),
        "names the lease and its holder: {}",
        second.stderr
    );
    // The lease is renewed while the roll runs, and still refuses a second roll.
    let renewed = env.lease_renew_time(LEASE).unwrap();
    wait_for("the lease to be renewed", Duration::from_secs(60), || {
        Ok((env.lease_renew_time(LEASE)? != renewed).then_some(()))
    })
    .unwrap();
    assert_eq!(
        env.lease_holder(LEASE).unwrap().as_deref(),
        Some(holder.as_str())
    );
    let again = roll(&env, "kafkaops", state.path(), &["--all"]);
    assert_eq!(again.code, 5, "{}", again.stderr);
    // A quorum change, an upgrade roll and a finalization (issue #28) are refused the same way
    // while the roll holds the Lease: exit 5, the Lease and its holder named, before Kafka is
    // asked. Without the Lease the finalization would pass (nothing to finalize) and the
    // upgrade roll would find nothing to do: only the Lease refuses them.
    // The voter count the active controller reports (Jolokia), read again while a node may be
    // restarting.
    let voters = || {
        wait_for(
            "the quorum leader's voter count",
            Duration::from_secs(60),
            || {
                let mut k = kafka.lock().unwrap();
                let Some(leader) = k.quorum_leader()? else {
                    return Ok(None);
                };
                Ok(k.raft_state(leader)?.voters)
            },
        )
        .unwrap()
    };
    assert_eq!(voters(), 5);
    let current = support::kafka::KafkaVersion::Current.number().unwrap();
    for args in [
        vec!["--yes", "quorum", "remove", "--controller", "5"],
        vec!["--yes", "upgrade", "--to", current.as_str()],
        vec!["--yes", "upgrade", "--finalize"],
    ] {
        let run = kafkaops(&env, CLUSTER, &args);
        assert_eq!(run.code, 5, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains(LEASE) && run.stderr.contains(&holder),
            "{args:?} names the lease and its holder: {}",
            run.stderr
        );
    }
    assert_eq!(voters(), 5, "no voter removed");
    let first = finish(
        "first roll (StrimziPodSet annotated)",
        start,
        first.wait_with_output().unwrap(),
        first_args,
    );
    assert_eq!(first.code, 0, "{}\n{}", first.stdout, first.stderr);
    let stats = producer.stop();
    assert!(stats.sent > 0, "{stats:?}");
    assert_eq!(stats.failed(), 0, "zero failed sends: {stats:?}");
    let rolled: Vec<i32> = strimzi.restarts()[n..].iter().map(|r| r.node).collect();
    let mut sorted = rolled.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ids, "every pod replaced exactly once: {rolled:?}");
    let after = strimzi.uids().unwrap();
    assert!(
        ids.iter().all(|id| before[id] != after[id]),
        "every pod has a new UID"
    );
    assert_eq!(env.lease_holder(LEASE).unwrap(), None, "lease released");
    let events = env.events().unwrap();
    assert_eq!(events.len(), 4 + ids.len());
    assert_eq!(
        events
            .iter()
            .filter(|(_, reason, note)| reason == "ManualRollingUpdate"
                && note.contains("StrimziPodSet my-cluster-kafka is annotated"))
            .count(),
        ids.len(),
        "{events:?}"
    );
    assert!(
        !strimzi
            .pod_set_annotations()
            .unwrap()
            .contains_key("strimzi.io/manual-rolling-update"),
        "the StrimziPodSet's annotation is removed once all its pods were restarted"
    );
    assert_eq!(strimzi.error(), None);
    full_isr("full ISRs at the end");
    let json: serde_json::Value = first.json();
    assert_eq!(json["result"]["status"], "done", "{json}");

    // 3b. Any pods by label selector (no Strimzi discovery): a dry run plans the annotated pod
    // with its Kubernetes reason and touches nothing.
    strimzi
        .annotate(1, "strimzi.io/manual-rolling-update", "true")
        .unwrap();
    let n = strimzi.restarts().len();
    let start = Instant::now();
    let mut cmd = support::bin::kafkaops();
    cmd.args(["--bootstrap-servers", &bootstrap, "-n", NAMESPACE])
        .arg("--kubeconfig")
        .arg(&env.kubeconfig)
        .args(["roll", "--dry-run", "--output", "json", "--pod-selector"])
        .arg(format!("strimzi.io/cluster={CLUSTER}"))
        .arg("--state-dir")
        .arg(state.path());
    let out = cmd.output().unwrap();
    let run = finish("roll --pod-selector --dry-run", start, out, args_of(&cmd));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let plan: serde_json::Value = run.json();
    let steps = plan["plan"]["steps"].as_array().expect("steps").clone();
    assert_eq!(steps.len(), 1, "{plan}");
    assert_eq!(steps[0]["nodes"][0]["node"], 1, "{plan}");
    assert!(
        steps[0]["nodes"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("annotated strimzi.io/manual-rolling-update=true"),
        "{plan}"
    );
    assert_eq!(strimzi.restarts().len(), n, "a dry run restarts nothing");
    assert_eq!(
        env.lease_holder(LEASE).unwrap(),
        None,
        "a dry run takes no lease"
    );

    // 4. Discovery: a rebalance dry run finds Cruise Control (HTTPS + Basic auth), its
    // credentials and CA from the Strimzi resources alone.
    let password = "discovered-password";
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            basic_auth: Some(("rebalance-operator".into(), password.into())),
            tls: true,
            ..CcDoubleOptions::default()
        },
    )
    .expect("start the Cruise Control double");
    strimzi
        .cruise_control_service(cc.port())
        .expect("cruise control service");
    let run = kafkaops(&env, CLUSTER, &["rebalance", "full", "--output", "json"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "cannot get secrets my-cluster-cruise-control-api in namespace kafka: not found"
        ),
        "a missing Secret is named: {}",
        run.stderr
    );
    let ca = std::fs::read_to_string(cc.ca_pem_path().expect("tls")).unwrap();
    strimzi
        .cruise_control_secrets(password, &ca)
        .expect("secrets");
    let run = kafkaops(&env, CLUSTER, &["rebalance", "full", "--output", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains(password) && !run.stderr.contains(password));
    let proposal: serde_json::Value = run.json();
    assert!(proposal.is_object(), "{proposal}");
    drop(cc);
    drop(strimzi);
}
