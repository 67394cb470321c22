//! Node holds (issue #29) on a real 3-node KRaft cluster, judged by what kafkaops reads back
//! from the cluster's own holds topic:
//!
//! - an unknown node is refused with exit 2 and nothing is written (no holds topic appears);
//! - `hold add --nodes 2` creates `__kafkaops_holds` (compacted, Kafka's own topic config says
//!   so), `hold list -o json` shows the hold; `roll --all --dry-run` plans no restart of node 2
//!   and says it is held with its reason;
//! - `hold remove` writes a tombstone: the list is empty again;
//! - a hold with a short expiry is listed as expired once it passes, and the roll no longer
//!   leaves its node alone.

use crate::support;
use support::WAIT;
use support::admin::Admin;

use serde_json::Value;
use support::bin::{Out, run};
use support::control::connection_args;
use support::kafka::{ClusterSpec, KafkaCluster, wait_for};

fn kafkaops(cluster: &KafkaCluster, args: &[&str]) -> std::process::Command {
    let mut cmd = support::bin::kafkaops();
    cmd.args(connection_args(cluster))
        .env(
            "KAFKAOPS_STATE_DIR",
            support::bin::test_state_dir("kafkaops-hold-test"),
        )
        .args(args);
    cmd
}

fn holds(o: &Out) -> Vec<Value> {
    o.json()["holds"].as_array().cloned().unwrap_or_default()
}

#[test]
fn hold_add_list_remove_expire_round_trip_and_roll_skips_the_held_node() {
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");

    // Bad input: exit 2, nothing written (the topic is not even created).
    let o = run(&mut kafkaops(
        &cluster,
        &[
            "--yes",
            "hold",
            "add",
            "--nodes",
            "42",
            "--reason",
            "x",
            "--expires",
            "1h",
        ],
    ));
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("unknown node id(s) 42"), "{}", o.stderr);
    let o = run(&mut kafkaops(
        &cluster,
        &[
            "--yes",
            "hold",
            "add",
            "--nodes",
            "2",
            "--reason",
            "x",
            "--expires",
            "soon",
        ],
    ));
    assert_eq!(o.code, 2, "{}", o.stderr);
    let o = run(&mut kafkaops(&cluster, &["hold", "list", "-o", "json"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(holds(&o).is_empty(), "{}", o.stdout);

    // Add: the topic is created compacted; the hold reads back.
    let o = run(&mut kafkaops(
        &cluster,
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
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = run(&mut kafkaops(&cluster, &["hold", "list", "-o", "json"]));
    let h = holds(&o);
    assert_eq!(h.len(), 1, "{}", o.stdout);
    assert_eq!(h[0]["node"], 2);
    assert_eq!(h[0]["reason"], "disk swap");
    assert_eq!(h[0]["expired"], false);
    let admin = Admin::connect(&cluster).expect("admin");
    assert_eq!(
        admin
            .topic_config("__kafkaops_holds", "cleanup.policy")
            .expect("topic config")
            .as_deref(),
        Some("compact")
    );

    // The roll leaves node 2 alone and says why.
    let o = run(&mut kafkaops(&cluster, &["roll", "--all", "--dry-run"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("held, not restarted: node 2") && o.stdout.contains("disk swap"),
        "{}",
        o.stdout
    );
    let restarted: Vec<&str> = o
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("node ") && !l.contains("held"))
        .collect();
    assert!(
        restarted.iter().all(|l| !l.contains("node 2 ")),
        "{}",
        o.stdout
    );
    assert!(
        restarted.iter().any(|l| l.contains("node 1 ")),
        "{}",
        o.stdout
    );

    // Remove: a tombstone; the list is empty again.
    let o = run(&mut kafkaops(
        &cluster,
        &["--yes", "hold", "remove", "--nodes", "2"],
    ));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = run(&mut kafkaops(&cluster, &["hold", "list", "-o", "json"]));
    assert!(holds(&o).is_empty(), "{}", o.stdout);

    // Expiry: listed as expired once past, and no longer honoured by the roll.
    let o = run(&mut kafkaops(
        &cluster,
        &[
            "--yes",
            "hold",
            "add",
            "--nodes",
            "3",
            "--reason",
            "short",
            "--expires",
            "2s",
        ],
    ));
    assert_eq!(o.code, 0, "{}", o.stderr);
    wait_for("the hold of node 3 expired", WAIT, || {
        let o = run(&mut kafkaops(&cluster, &["hold", "list", "-o", "json"]));
        let h = holds(&o);
        Ok((h.len() == 1 && h[0]["node"] == 3 && h[0]["expired"] == true).then_some(()))
    })
    .expect("expired");
    let o = run(&mut kafkaops(&cluster, &["roll", "--all", "--dry-run"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.stdout.contains("held, not restarted"), "{}", o.stdout);
}
