//! `rebalance pace --throttle RATE` (issues #17, #26) on a real 3-node KRaft cluster with the
//! Cruise Control double, which applies `replication_throttle` batch by batch as Cruise
//! Control's `ReplicationThrottleHelper` does (it sets its own rate back on a batch's brokers
//! where it differs). During `rebalance remove --brokers 3 --execute` crawling under a 1 KB/s
//! throttle, one partition at a time, `pace --throttle 256000` changes the brokers'
//! `leader.`/`follower.replication.throttled.rate` (read back with the Admin API) while the same
//! execution keeps running; pace holds the new rate against the double's per-batch reset until
//! the execution ends; the execution completes with every partition off broker 3; broker 3 stays
//! cordoned throughout. `rebalance status --task --follow` attached to that execution says it
//! follows it, not that it started it. The stop/resume path (an execution without a throttle) and its refusals
//! are tested on the wire (`tests/wire/pace_throttle.rs`).
//!
//! Run with `cargo test --test cluster pace_throttle:: -- --nocapture` to see the steps.

use crate::support;

use std::io::Read;
use std::process::Stdio;
use std::time::Instant;

use support::bin::{Out, kafkaops_bin, run};

use serde_json::Value;

fn kafkaops_cmd(cc_url: &str, bootstrap: &str, state: &std::path::Path) -> std::process::Command {
    let mut c = support::bin::kafkaops();
    c.env("KAFKAOPS_CRUISE_CONTROL_URL", cc_url)
        .env("KAFKAOPS_BOOTSTRAP_SERVERS", bootstrap)
        .env("KAFKAOPS_STATE_DIR", state);
    c
}

#[test]
fn a_new_throttle_reaches_the_brokers_while_the_removal_runs_on() {
    use support::WAIT;
    use support::admin::Admin;
    use support::cc_double::{CcDouble, CcDoubleOptions};
    use support::kafka::{
        ClusterSpec, KafkaCluster, broker_config, create_topic, placement, produce_bulk, wait_for,
    };

    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let admin = Admin::connect(&cluster).unwrap();
    let state = tempfile::tempdir().unwrap();
    // 4 partitions led by broker 3, 2 MB each: a follower's first fetch (1 MB) is not
    // throttled yet, the rest is.
    let assignment: Vec<Vec<i32>> = (0..4)
        .map(|p| if p % 2 == 0 { vec![3, 1] } else { vec![3, 2] })
        .collect();
    create_topic(&bootstrap, "slow", &assignment, &[]).unwrap();
    produce_bulk(&bootstrap, "slow", 1600, 5_000, 1_000_000).unwrap();
    let cc = CcDouble::start(&bootstrap, CcDoubleOptions::default()).unwrap();
    let url = cc.url();
    let sync =
        |args: &[&str]| -> Out { run(kafkaops_cmd(&url, &bootstrap, state.path()).args(args)) };
    let config = |b: i32, key: &str| broker_config(&bootstrap, b, key).unwrap();
    let rate = |b: i32, which: &str| config(b, &format!("{which}.replication.throttled.rate"));
    let cordoned = || config(3, "cordoned.log.dirs").as_deref() == Some("*");

    eprintln!("== remove broker 3 under a 1 KB/s throttle, one partition at a time");
    let o = sync(&[
        "rebalance",
        "remove",
        "--brokers",
        "3",
        "--execute",
        "--yes",
        "--no-wait",
        "--replication-throttle",
        "1024",
        "--concurrent-partition-movements-per-broker",
        "1",
        "-o",
        "json",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let doc: Value = o.json();
    let task = doc["task_id"].as_str().unwrap().to_string();
    wait_for("the 1 KB/s throttle on broker 3", WAIT, || {
        Ok(
            (rate(3, "leader").as_deref() == Some("1024") && admin.reassignments()?.len() == 1)
                .then_some(()),
        )
    })
    .unwrap();
    assert!(cordoned(), "the leaving broker is cordoned");

    eprintln!("== status --task --follow on the running execution does not say it started it");
    let o = sync(&[
        "rebalance",
        "status",
        "--task",
        &task,
        "--follow",
        "--follow-timeout",
        "2s",
        "--poll-interval",
        "1s",
    ]);
    assert!(
        o.stderr
            .contains(&format!("Following the running execution (task {task})"))
            && !o.stderr.contains("Execution started"),
        "{}",
        o.stderr
    );

    eprintln!("== pace --throttle 256000 (holds the rate until the execution ends)");
    let mut pace = kafkaops_cmd(&url, &bootstrap, state.path())
        .args([
            "rebalance",
            "pace",
            "--throttle",
            "256000",
            "--yes",
            "--poll-interval",
            "1s",
            "-o",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut seen = Vec::new();
    wait_for("the new throttle on the brokers", WAIT, || {
        let now = (rate(3, "leader"), rate(3, "follower"));
        if seen.last() != Some(&now) {
            seen.push(now.clone());
        }
        Ok((now == (Some("256000".into()), Some("256000".into()))).then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e}: seen {seen:?}"));
    // The same execution runs on: nothing was stopped or re-submitted.
    let s = sync(&["rebalance", "status", "-o", "json"]);
    let s: Value = s.json();
    assert_eq!(s["task_id"], task.as_str(), "{s}");
    assert!(cordoned(), "the leaving broker stays cordoned");

    eprintln!("== pace holds the rate until the execution ends, then returns");
    let started = Instant::now();
    let status = loop {
        if let Some(st) = pace.try_wait().unwrap() {
            break st;
        }
        assert!(cordoned(), "the leaving broker stays cordoned");
        assert!(
            started.elapsed() < WAIT,
            "pace did not return when the execution ended"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    let mut out = String::new();
    let mut err = String::new();
    pace.stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    pace.stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    eprintln!("pace stderr:\n{err}");
    assert_eq!(status.code(), Some(0), "{err}");
    let v = support::schema::json_of(&["rebalance", "pace"], &out);
    assert_eq!(v["status"], "changed", "{v}");
    assert_eq!(v["task_id"], task.as_str(), "{v}");
    assert_eq!(v["holding"], true, "{v}");
    assert!(
        err.contains("setting 256000 B/s again"),
        "the double set its own rate back for a later batch and pace set the new one again: {err}"
    );

    eprintln!("== the execution completed: broker 3 is empty and still cordoned");
    let o = sync(&["rebalance", "status", "--task", &task, "-o", "json"]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    wait_for("no reassignment left", WAIT, || {
        Ok(admin.reassignments()?.is_empty().then_some(()))
    })
    .unwrap();
    for p in placement(&bootstrap, "slow").unwrap() {
        assert!(!p.replicas.contains(&3), "{p:?} moved off broker 3");
    }
    assert!(cordoned(), "the leaving broker stays cordoned");
    for b in 1..=3 {
        assert_eq!(
            rate(b, "leader"),
            None,
            "broker {b}: the throttle is cleared at the end"
        );
        assert_eq!(rate(b, "follower"), None, "broker {b}");
    }
    drop(cc);
}
