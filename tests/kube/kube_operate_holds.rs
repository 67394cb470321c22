//! `operate`'s roll leaves a held node alone (issue #29), on a real kube-apiserver in front of a
//! real 3-node Kafka cluster bound to Strimzi-shaped pods: node 2 is held (`kafkaops hold add`,
//! the ConfigMap `kafkaops-holds-CLUSTER`) and both pods 1 and 2 are annotated
//! `strimzi.io/manual-rolling-update=true`. `kafkaops operate` (the real binary, as the identity
//! of `examples/operate/rbac.yaml`) rolls pod 1 (deleted and recreated, its annotation removed)
//! and never deletes pod 2, whose annotation stays; its log names the roll of node 1 only, says
//! once that node 2 is held (the hold's reason and expiry) and that the roll waits for it, and
//! the roll's records say the same. Once the hold is removed, operate says so once and rolls
//! pod 2.
//! Ground truth is the apiserver (the pods' uids and annotations) and the harness's record of
//! the pods it replaced.

use crate::support;
use support::WAIT;

use std::collections::BTreeMap;

use support::bin::run;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{fatal, placement, wait_for};
use support::kube::{OPERATE_USER, PausedStrimzi};
use support::operate::{Operate, OperateOptions, http_port, last_loop, write_policy};

const CLUSTER: &str = "held-operate";
const ANNOTATION: &str = "strimzi.io/manual-rolling-update";

#[test]
fn operate_roll_never_deletes_the_pod_of_a_held_node() {
    let f = PausedStrimzi::start(CLUSTER, "kafka", "held");
    let (strimzi, bootstrap) = (&f.strimzi, f.bootstrap.as_str());
    // operate acts only while the operator's reconciliation is paused: the fixture pauses it.
    // Cruise Control as Strimzi deploys it (TLS, Basic auth; discovered through its Service
    // and Secrets): operate needs it even when nothing is to rebalance.
    let password = "held-operate-password";
    let cc = CcDouble::start(
        bootstrap,
        CcDoubleOptions {
            basic_auth: Some(("rebalance-operator".into(), password.into())),
            tls: true,
            ..CcDoubleOptions::default()
        },
    )
    .expect("the Cruise Control double");
    let ca = cc.ca_pem_path().expect("the double's CA");
    strimzi.cruise_control_service(cc.port()).expect("service");
    strimzi
        .cruise_control_secrets(password, &std::fs::read_to_string(&ca).unwrap())
        .expect("secrets");
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("cli-state");

    // Node 2 is held; pods 1 and 2 both ask for a roll.
    let o = run(&mut f.kafkaops(
        &state,
        &[
            "--yes",
            "hold",
            "add",
            "--nodes",
            "2",
            "--reason",
            "disk swap",
            "--expires",
            "4h",
        ],
    ));
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let before = strimzi.uids().unwrap();
    strimzi.annotate(1, ANNOTATION, "true").unwrap();
    strimzi.annotate(2, ANNOTATION, "true").unwrap();

    let policy = write_policy(
        dir.path(),
        "policy.yaml",
        "autoRebalance:
  - mode: add-brokers
    template: { name: t }
templates:
  t: {}
",
    );
    let mut opts = OperateOptions::new("", "", &policy, &dir.path().join("unused"));
    opts.connection = Some(f.connection(OPERATE_USER));
    let mut op = Operate::start(&opts).unwrap();
    wait_for("pod 1 rolled and its roll finished", WAIT, || {
        if let Some(code) = op.exited() {
            return Err(fatal(format!("operate exited ({code:?})")));
        }
        let rolled = strimzi.uids()?.get(&1) != before.get(&1);
        Ok((rolled
            && !strimzi.annotations(1)?.contains_key(ANNOTATION)
            && op.log().contains("succeeded"))
        .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    wait_for("full ISRs after the roll", WAIT, || {
        Ok(placement(bootstrap, "held")?
            .iter()
            .all(|p| p.isr.len() == 3)
            .then_some(()))
    })
    .unwrap();
    // Two more loops after the roll (operate's `/metrics`): still nothing for node 2.
    let port = http_port(&op).expect("operate's /metrics port");
    for _ in 0..2 {
        let since = last_loop(port).unwrap_or(0.0);
        wait_for("operate to loop again after the roll", WAIT, || {
            Ok(last_loop(port).filter(|t| *t > since).map(|_| ()))
        })
        .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    }
    // Ground truth while the hold stands: pod 2 is the same pod, still annotated; only pod 1
    // was replaced.
    let log = op.log();
    assert_eq!(strimzi.uids().unwrap().get(&2), before.get(&2), "{log}");
    assert!(
        strimzi.annotations(2).unwrap().contains_key(ANNOTATION),
        "the held pod's annotation is left for after the hold\n{log}"
    );
    let restarted: Vec<i32> = strimzi.restarts().iter().map(|r| r.node).collect();
    assert_eq!(
        restarted,
        vec![1],
        "only the pod of node 1 is deleted\n{log}"
    );
    assert_held_log(&log);

    hold_removed_then_node_2_rolls(&f, &state, &mut op, &before);
    drop(cc);
}

/// What operate said while node 2 was held (`log`): it rolled node 1, never a roll naming node
/// 2; it said once (not at every loop) that node 2 is held, with the hold's reason and expiry,
/// and that the roll waits for it; the roll's records (started, succeeded) say the same.
fn assert_held_log(log: &str) {
    let roll_lines: Vec<&str> = log.lines().filter(|l| l.contains("roll")).collect();
    assert!(
        roll_lines.iter().any(|l| l.contains("roll nodes 1 succeeded")
            || l.contains("roll of node 1 succeeded")),
        "{log}"
    );
    assert!(
        !roll_lines
            .iter()
            .any(|l| l.contains("nodes 1,2") || l.contains("node 2 ") && l.contains("restart")),
        "operate never plans to restart node 2\n{log}"
    );
    let held: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("node 2 is held (disk swap, until "))
        .collect();
    assert_eq!(held.len(), 1, "said once\n{log}");
    assert!(held[0].contains("the roll waits for it"), "{log}");
    for result in ["started", "succeeded"] {
        assert!(
            roll_lines
                .iter()
                .any(|l| l.contains(&format!("nodes 1 {result}"))
                    && l.contains("the roll waits for them: node 2 (")
                    && l.contains("disk swap, until ")),
            "the {result} record names the held node\n{log}"
        );
    }
}

/// The hold removed: operate says once that node 2 is no longer held, and rolls it.
fn hold_removed_then_node_2_rolls(
    f: &PausedStrimzi,
    state: &std::path::Path,
    op: &mut Operate,
    before: &BTreeMap<i32, String>,
) {
    let strimzi = &f.strimzi;
    let o = run(&mut f.kafkaops(state, &["--yes", "hold", "remove", "--nodes", "2"]));
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    wait_for("node 2 rolled once its hold is removed", WAIT, || {
        if let Some(code) = op.exited() {
            return Err(fatal(format!("operate exited ({code:?})")));
        }
        Ok((strimzi.uids()?.get(&2) != before.get(&2)
            && !strimzi.annotations(2)?.contains_key(ANNOTATION)
            && op.log().contains("roll nodes 2 succeeded"))
        .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    assert_eq!(op.terminate().unwrap(), Some(0), "{}", op.log());
    let log = op.log();
    eprintln!("--- operate ---\n{log}");
    let ended = log
        .lines()
        .filter(|l| l.contains("node 2 is no longer held (its hold expired or was removed)"))
        .count();
    assert_eq!(ended, 1, "said once\n{log}");
    let restarted: Vec<i32> = strimzi.restarts().iter().map(|r| r.node).collect();
    assert_eq!(restarted, vec![1, 2], "{log}");
}
