//! `rebalance pace --throttle RATE` (issue #17) on a real 3-node KRaft cluster with the Cruise
//! Control double (which applies `replication_throttle` to the brokers and topics as Cruise
//! Control does): an `add_broker` execution crawling under a 1 KB/s throttle is re-paced with
//! `--throttle 256000`; Kafka's own broker configs (`leader.`/`follower.replication.throttled.rate`,
//! read with the Admin API) show 1024 before and 256000 after, the resumed execution completes,
//! and every partition of the original proposal ends on the proposal's target replicas (Kafka
//! metadata). The request sequence and the refusal paths are tested on the wire
//! (`tests/wire/pace_throttle.rs`).
//!
//! Run with `cargo test --test cluster pace_throttle:: -- --nocapture` to see the steps.

use crate::support;

use support::bin::{Out, kafkaops_bin, run};

use serde_json::Value;

fn kafkaops_sync(cc_url: &str, bootstrap: &str, args: &[&str]) -> Out {
    let state_dir = tempfile::tempdir().unwrap();
    run(support::bin::kafkaops()
        .env("KAFKAOPS_CRUISE_CONTROL_URL", cc_url)
        .env("KAFKAOPS_BOOTSTRAP_SERVERS", bootstrap)
        .env("KAFKAOPS_STATE_DIR", state_dir.path())
        .args(args))
}

#[test]
fn a_new_throttle_reaches_the_brokers_and_the_plan_completes() {
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
    // 4 partitions on brokers 1 and 2, 2 MB each: a follower's first fetch (1 MB) is not
    // throttled yet, the rest is.
    let assignment: Vec<Vec<i32>> = (0..4)
        .map(|p| if p % 2 == 0 { vec![1, 2] } else { vec![2, 1] })
        .collect();
    create_topic(&bootstrap, "slow", &assignment, &[]).unwrap();
    produce_bulk(&bootstrap, "slow", 1600, 5_000, 1_000_000).unwrap();
    let cc = CcDouble::start(&bootstrap, CcDoubleOptions::default()).unwrap();
    let url = cc.url();
    let rate = |b: i32, which: &str| {
        broker_config(
            &bootstrap,
            b,
            &format!("{which}.replication.throttled.rate"),
        )
        .unwrap()
    };

    eprintln!("== an add_broker execution under a 1 KB/s throttle, one partition at a time");
    let o = kafkaops_sync(
        &url,
        &bootstrap,
        &[
            "rebalance",
            "add",
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
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let doc: Value = serde_json::from_str(&o.stdout).unwrap();
    let first_task = doc["execution"]["task_id"].as_str().unwrap().to_string();
    let target: Vec<(i32, Vec<i32>)> = doc["proposal"]["movements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["topic"] == "slow")
        .map(|m| {
            let mut r: Vec<i32> = serde_json::from_value(m["new_replicas"].clone()).unwrap();
            r.sort_unstable();
            (m["partition"].as_i64().unwrap() as i32, r)
        })
        .collect();
    assert!(target.len() >= 2, "enough to move: {doc:#}");
    wait_for("the 1 KB/s throttle on broker 3", WAIT, || {
        Ok(
            (rate(3, "follower").as_deref() == Some("1024") && admin.reassignments()?.len() == 1)
                .then_some(()),
        )
    })
    .unwrap();
    assert_eq!(rate(3, "leader").as_deref(), Some("1024"));

    eprintln!("== pace --throttle 256000");
    let o = kafkaops_sync(
        &url,
        &bootstrap,
        &[
            "rebalance",
            "pace",
            "--throttle",
            "256000",
            "--yes",
            "-o",
            "json",
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["status"], "resumed", "{v}");
    assert_eq!(v["stopped_task_id"], first_task.as_str(), "{v}");
    assert_eq!(v["approved"], "remaining", "{v}");
    let new_task = v["task_id"].as_str().unwrap().to_string();
    assert_ne!(new_task, first_task);
    // Kafka's own configs, while the resumed execution runs (the double removes them at the end).
    let mut seen = Vec::new();
    wait_for("the new throttle on the brokers", WAIT, || {
        let now = (rate(3, "leader"), rate(3, "follower"));
        seen.push(now.clone());
        Ok((now == (Some("256000".into()), Some("256000".into()))).then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e}: seen {seen:?}"));

    eprintln!("== the resumed execution completes");
    let o = kafkaops_sync(
        &url,
        &bootstrap,
        &[
            "rebalance",
            "status",
            "--task",
            &new_task,
            "--follow",
            "-o",
            "json",
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let now: Vec<(i32, Vec<i32>)> = placement(&bootstrap, "slow")
        .unwrap()
        .into_iter()
        .filter(|p| target.iter().any(|(t, _)| *t == p.partition))
        .map(|p| {
            let mut r = p.replicas;
            r.sort_unstable();
            (p.partition, r)
        })
        .collect();
    let mut want = target.clone();
    want.sort();
    assert_eq!(now, want, "the original proposal's target");
    assert!(admin.reassignments().unwrap().is_empty());
    drop(cc);
}
