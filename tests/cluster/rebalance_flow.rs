//! The whole `kafkaops rebalance` flow against the Cruise Control test double
//! (`tests/env/cc-double`) running over a real 4-broker KRaft cluster, checking
//! the real replica placement after each step: dry run (table and JSON), execute
//! and follow to completion (replicas land on the new broker), status, stop during
//! a (throttled) execution, remove (the broker is emptied), bad input (unknown and
//! controller-only ids change nothing), and HTTPS + basic auth.
//!
//! One cluster for the whole binary (one test, steps in order); run with
//! `cargo test --test cluster rebalance_flow:: -- --nocapture` to see the steps.

use crate::support;
use support::WAIT;

use std::collections::BTreeMap;
use std::time::Duration;

use assert_cmd::Command;
use rdkafka::admin::{AdminClient, AdminOptions, AlterConfig, ResourceSpecifier};
use rdkafka::client::DefaultClientContext;
use rdkafka::config::ClientConfig;
use rdkafka::producer::{BaseProducer, BaseRecord, Producer};
use support::bin::{Out, kafkaops_bin, run};
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};

fn kafkaops(cc: &CcDouble, args: &[&str]) -> Out {
    run(support::bin::kafkaops()
        .env("KAFKAOPS_CRUISE_CONTROL_URL", cc.url())
        .args(args))
}

/// Replica count per broker over `topics`, from the real cluster metadata.
fn replicas_per_broker(bootstrap: &str, topics: &[&str]) -> BTreeMap<i32, usize> {
    let mut m = BTreeMap::new();
    for t in topics {
        for p in placement(bootstrap, t).unwrap() {
            for r in p.replicas {
                *m.entry(r).or_insert(0) += 1;
            }
        }
    }
    m
}

/// Writes `bytes` of data into each partition of `topic`.
fn fill(bootstrap: &str, topic: &str, partitions: i32, bytes: usize) {
    let producer: BaseProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("acks", "all")
        .set("linger.ms", "20")
        .set("log_level", "3")
        .create()
        .unwrap();
    let payload = vec![b'x'; 10_000];
    for p in 0..partitions {
        for _ in 0..bytes / payload.len() {
            loop {
                let rec = BaseRecord::<(), [u8]>::to(topic)
                    .partition(p)
                    .payload(&payload[..]);
                match producer.send(rec) {
                    Ok(()) => break,
                    Err((_, _)) => {
                        producer.poll(Duration::from_millis(50));
                    }
                }
            }
            producer.poll(Duration::ZERO);
        }
    }
    producer.flush(Duration::from_secs(60)).unwrap();
}

/// Sets (or with `None` clears) the replication throttle rate on every broker.
fn throttle_brokers(bootstrap: &str, brokers: &[i32], rate: Option<u64>) {
    let admin: AdminClient<DefaultClientContext> = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("log_level", "3")
        .create()
        .unwrap();
    let value = rate.map(|r| r.to_string());
    // One broker resource per request: each must go to its own broker.
    for b in brokers {
        let c = AlterConfig::new(ResourceSpecifier::Broker(*b));
        let c = match &value {
            Some(v) => c
                .set("leader.replication.throttled.rate", v)
                .set("follower.replication.throttled.rate", v),
            None => c,
        };
        let opts = AdminOptions::new().request_timeout(Some(Duration::from_secs(10)));
        let res = futures::executor::block_on(admin.alter_configs([&c], &opts)).unwrap();
        for r in res {
            r.unwrap_or_else(|(res, code)| panic!("AlterConfigs {res:?}: {code:?}"));
        }
    }
}

#[test]
fn rebalance_flow_on_a_real_cluster() {
    let _ = kafkaops_bin(); // copy it now, before anything else can rebuild it
    let cluster = KafkaCluster::start(ClusterSpec::split(1, 4)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let controller = cluster.controller_ids()[0];
    // 12 partitions, RF 2, only on brokers 1-3: broker 4 is the "new" broker.
    let on_123: Vec<Vec<i32>> = (0..12)
        .map(|i| {
            let a = [1, 2, 3];
            vec![a[i % 3], a[(i + 1) % 3]]
        })
        .collect();
    create_topic(&bootstrap, "orders", &on_123, &[]).unwrap();
    let topics = ["orders"];
    let initial = replicas_per_broker(&bootstrap, &topics);
    assert_eq!(initial.get(&4), None);

    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            // The CLI polls every 200 ms here (5 s by default), so free task slots quickly.
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let fast = ["--poll-interval", "200ms"];

    eprintln!("step: dry run (table and JSON) changes nothing");
    let table = kafkaops(&cc, &["rebalance", "add", "--brokers", "4"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains("Proposal: add brokers 4 (dry run)"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("Dry run: nothing was changed"));
    let dry = kafkaops(&cc, &["rebalance", "add", "--brokers", "4", "-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let dry = dry.json();
    let planned = dry["summary"]["replica_movements"].as_u64().unwrap();
    assert!(planned >= 4, "about 6 of 24 replicas should move: {dry}");
    for m in dry["movements"].as_array().unwrap() {
        let old: Vec<i64> = serde_json::from_value(m["old_replicas"].clone()).unwrap();
        for n in m["new_replicas"].as_array().unwrap() {
            let n = n.as_i64().unwrap();
            assert!(old.contains(&n) || n == 4, "add moves only onto 4: {m}");
        }
    }
    assert_eq!(replicas_per_broker(&bootstrap, &topics), initial);

    eprintln!("step: unknown and controller-only ids are refused with exit 2; nothing moves");
    for ids in ["9", &controller.to_string(), "4,9"] {
        let r = kafkaops(
            &cc,
            &["rebalance", "add", "--brokers", ids, "--execute", "--yes"],
        );
        assert_eq!(r.code, 2, "{ids}: {}", r.stderr);
        assert!(
            r.stderr.contains("not brokers Cruise Control knows"),
            "{}",
            r.stderr
        );
    }
    let r = kafkaops(
        &cc,
        &[
            "rebalance",
            "remove",
            "--brokers",
            "3",
            "--destination-brokers",
            "3,4",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(replicas_per_broker(&bootstrap, &topics), initial);

    eprintln!("step: execute and follow to completion");
    let mut args = vec![
        "rebalance",
        "add",
        "--brokers",
        "4",
        "--execute",
        "--yes",
        "-o",
        "json",
    ];
    args.extend(fast);
    let r = kafkaops(&cc, &args);
    assert_eq!(r.code, 0, "{}\n{}", r.stderr, cc.log());
    let v = r.json();
    assert_eq!(v["execution"]["status"], "completed", "{v}");
    let after_add = replicas_per_broker(&bootstrap, &topics);
    eprintln!("replicas per broker: before {initial:?}, after add {after_add:?}");
    let on4 = after_add.get(&4).copied().unwrap_or(0);
    assert!(on4 >= 4, "broker 4 got replicas: {after_add:?}");
    assert_eq!(
        after_add.values().sum::<usize>(),
        24,
        "no replica lost or added"
    );
    for p in placement(&bootstrap, "orders").unwrap() {
        assert_eq!(p.isr.len(), 2, "ISR complete: {p:?}");
    }

    eprintln!("step: status when idle");
    let s = kafkaops(&cc, &["rebalance", "status", "-o", "json"]);
    assert_eq!(s.code, 0, "{}", s.stderr);
    assert_eq!(s.json()["executing"], false, "{}", s.stdout);

    eprintln!("step: stop a (throttled) removal while it runs");
    // A topic with data whose partitions all lead on broker 4; moving them off is throttled.
    create_topic(
        &bootstrap,
        "big",
        &[vec![4, 1], vec![4, 2], vec![4, 3]],
        &[
            ("leader.replication.throttled.replicas", "*"),
            ("follower.replication.throttled.replicas", "*"),
        ],
    )
    .unwrap();
    fill(&bootstrap, "big", 3, 1_000_000);
    throttle_brokers(&bootstrap, &[1, 2, 3, 4], Some(20_000));
    let all = ["orders", "big"];
    let before_stop = replicas_per_broker(&bootstrap, &all);
    let r = kafkaops(
        &cc,
        &[
            "rebalance",
            "remove",
            "--brokers",
            "4",
            "--concurrent-partition-movements-per-broker",
            "1",
            "--replication-throttle",
            "20000",
            "--execute",
            "--yes",
            "--no-wait",
            "-o",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let started = r.json();
    assert_eq!(started["execution"]["status"], "started");
    let task = started["task_id"].as_str().unwrap().to_string();
    let s = kafkaops(&cc, &["rebalance", "status", "-o", "json"]);
    assert_eq!(s.code, 0, "{}", s.stderr);
    let s = s.json();
    assert_eq!(
        s["executing"], true,
        "the throttled removal still runs: {s}"
    );
    assert_eq!(s["task_id"], task.as_str());
    let busy = kafkaops(&cc, &["rebalance", "full", "--execute", "--yes"]);
    assert_eq!(
        busy.code, 5,
        "another execution is running: {}",
        busy.stderr
    );
    let st = kafkaops(
        &cc,
        &[
            "rebalance",
            "stop",
            "-o",
            "json",
            "--poll-interval",
            "200ms",
        ],
    );
    assert_eq!(st.code, 0, "{}", st.stderr);
    let st = st.json();
    assert_eq!(st["stop_requested"], true, "{st}");
    assert_eq!(st["task_id"], task.as_str());
    let s = kafkaops(&cc, &["rebalance", "status", "-o", "json"]);
    assert_eq!(s.json()["executing"], false);
    let after_stop = wait_for("reassignments to settle after the stop", WAIT, || {
        let p = placement(&bootstrap, "big")?;
        Ok(p.iter().all(|p| p.replicas.len() == 2).then_some(()))
    })
    .map(|()| replicas_per_broker(&bootstrap, &all))
    .unwrap();
    eprintln!("replicas per broker: before stop {before_stop:?}, after stop {after_stop:?}");
    assert!(
        after_stop.get(&4).copied().unwrap_or(0) > 0,
        "the stopped removal did not empty broker 4: {after_stop:?}"
    );
    throttle_brokers(&bootstrap, &[1, 2, 3, 4], None);

    eprintln!("step: remove broker 4 to completion empties it");
    let mut args = vec![
        "rebalance",
        "remove",
        "--brokers",
        "4",
        "--execute",
        "--yes",
    ];
    args.extend(fast);
    let r = kafkaops(&cc, &args);
    assert_eq!(r.code, 0, "{}\n{}", r.stderr, cc.log());
    assert!(r.stdout.contains("Execution completed"), "{}", r.stdout);
    let after_remove = replicas_per_broker(&bootstrap, &all);
    eprintln!("replicas per broker after remove: {after_remove:?}");
    assert_eq!(after_remove.get(&4), None, "broker 4 is empty");
    assert_eq!(after_remove.values().sum::<usize>(), 24 + 6);

    eprintln!("step: adding back the broker Cruise Control just removed fills it again");
    // Regression: Cruise Control excludes recently removed brokers by default, so re-adding one
    // used to give an empty proposal.
    let mut args = vec!["rebalance", "add", "--brokers", "4", "--execute", "--yes"];
    args.extend(fast);
    let r = kafkaops(&cc, &args);
    assert_eq!(r.code, 0, "{}\n{}", r.stderr, cc.log());
    let readded = replicas_per_broker(&bootstrap, &all);
    eprintln!("replicas per broker after re-adding 4: {readded:?}");
    assert!(readded.get(&4).copied().unwrap_or(0) > 0, "{readded:?}");
    drop(cc);

    eprintln!("step: HTTPS with the CA file and basic auth");
    let secure = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            tls: true,
            basic_auth: Some(("ops".into(), "pw-for-tests".into())),
            ..Default::default()
        },
    )
    .expect("secure cc-double");
    let ca = secure.ca_pem_path().unwrap();
    let ca = ca.to_str().unwrap();
    let with_auth = |pw: &str, ca: Option<&str>| {
        let mut cmd = Command::from_std(support::bin::kafkaops());
        cmd.env("KAFKAOPS_CRUISE_CONTROL_URL", secure.url())
            .env("KAFKAOPS_CRUISE_CONTROL_USER", "ops")
            .env("KAFKAOPS_CRUISE_CONTROL_PASSWORD", pw)
            .args(["rebalance", "status"]);
        if let Some(ca) = ca {
            cmd.args(["--cruise-control-ca-file", ca]);
        }
        cmd.timeout(Duration::from_secs(60)).output().unwrap()
    };
    let ok = with_auth("pw-for-tests", Some(ca));
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let bad = with_auth("wrong-pw-123", Some(ca));
    assert_eq!(bad.status.code(), Some(6));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("refused the credentials") && !err.contains("wrong-pw-123"),
        "{err}"
    );
    let untrusted = with_auth("pw-for-tests", None);
    assert_eq!(untrusted.status.code(), Some(6));
    let err = String::from_utf8_lossy(&untrusted.stderr);
    assert!(err.contains("no CA file was given"), "{err}");
}

/// (topic, partition) -> (leader, replicas), from the real cluster metadata.
fn placement_map(bootstrap: &str, topics: &[&str]) -> BTreeMap<(String, i32), (i32, Vec<i32>)> {
    let mut m = BTreeMap::new();
    for t in topics {
        for p in placement(bootstrap, t).unwrap() {
            m.insert(((*t).to_string(), p.partition), (p.leader, p.replicas));
        }
    }
    m
}

fn no_capacity_error(out: &Out) {
    for needle in ["active user tasks", "user-task slot", "servlet capacity"] {
        assert!(
            !out.stderr.contains(needle) && !out.stdout.contains(needle),
            "capacity trouble ({needle}):\n{}\n{}",
            out.stdout,
            out.stderr
        );
    }
}

/// Against a double that behaves like the real server in what matters here (reference section
/// 13): 5 user-task slots freed by a 5 s scanner, coarse executor counters that vanish in the
/// leader phase, RackAwareGoal enforced. A dry run, `--execute`, `status` and `stop` back to back
/// never hit the slot limit, and the summary's numbers are the ones Kafka shows moved; then a
/// removal that would break the rack goal exits 12 naming the goal and Cruise Control's hint, and
/// nothing moves; a LOADING Cruise Control is asked (its proposal answers) and its LOADING refusal
/// is exit 4. 4 combined nodes on racks a,b,c,a.
#[test]
fn back_to_back_commands_and_an_unsatisfiable_rack_goal() {
    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::combined(4).with_racks(["a", "b", "c", "a"]))
        .expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    // RF 3 on racks a,b,c (broker 2 is rack b's only broker); RF 2 "skew" only on brokers 1,2.
    let rf3: Vec<Vec<i32>> = (0..6)
        .map(|i| {
            let a = [1, 2, 3];
            vec![a[i % 3], a[(i + 1) % 3], a[(i + 2) % 3]]
        })
        .collect();
    create_topic(&bootstrap, "orders", &rf3, &[]).unwrap();
    let skew: Vec<Vec<i32>> = (0..16).map(|_| vec![1, 2]).collect();
    create_topic(&bootstrap, "skew", &skew, &[]).unwrap();
    let topics = ["orders", "skew"];

    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            // Real Cruise Control: 5 slots, a 5 s scanner, counters in ~10 s jumps (shortened).
            max_active_tasks: Some(5),
            task_scan_millis: Some(5000),
            extra_args: vec![
                "--progress-step-millis".into(),
                "3000".into(),
                // Each leader batch takes one executor poll: a leader phase kafkaops can see.
                "--execution-poll-millis".into(),
                "700".into(),
            ],
            ..Default::default()
        },
    )
    .expect("cc-double");

    eprintln!("step: dry run, then --execute, status and stop back to back");
    let before = placement_map(&bootstrap, &topics);
    let dry = kafkaops(&cc, &["rebalance", "add", "--brokers", "4"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    no_capacity_error(&dry);
    let exec = kafkaops(
        &cc,
        &[
            "rebalance",
            "add",
            "--brokers",
            "4",
            "--execute",
            "--yes",
            "--concurrent-leader-movements",
            "1",
            "--bootstrap-servers",
            &bootstrap,
            "-o",
            "json",
        ],
    );
    assert_eq!(exec.code, 0, "{}\n{}", exec.stderr, cc.log());
    no_capacity_error(&exec);
    let status = kafkaops(&cc, &["rebalance", "status"]);
    assert_eq!(status.code, 0, "{}", status.stderr);
    no_capacity_error(&status);
    let stop = kafkaops(&cc, &["rebalance", "stop"]);
    assert_eq!(stop.code, 0, "{}", stop.stderr);
    no_capacity_error(&stop);
    assert!(
        cc.log().contains("phase LEADER_MOVEMENT_TASK_IN_PROGRESS"),
        "the execution had a leader phase, in which the double reports no partition counters\n{}",
        cc.log()
    );

    eprintln!("step: the summary's numbers are what Kafka shows moved");
    let after = placement_map(&bootstrap, &topics);
    let moved = before
        .iter()
        .filter(|(k, (_, r))| {
            let mut a = r.clone();
            let mut b = after[*k].1.clone();
            a.sort_unstable();
            b.sort_unstable();
            a != b
        })
        .count() as u64;
    let leaders_changed = before
        .iter()
        .filter(|(k, (l, _))| after[*k].0 != *l)
        .count() as u64;
    assert!(moved > 0, "replicas moved onto broker 4: {after:?}");
    let v = exec.json();
    let p = &v["execution"]["progress"];
    assert_eq!(v["execution"]["status"], "completed", "{v}");
    assert_eq!(p["partitions_total"].as_u64(), Some(moved), "{p}");
    assert_eq!(p["partitions_finished"].as_u64(), Some(moved), "{p}");
    assert_eq!(p["leaders_total"].as_u64(), Some(leaders_changed), "{p}");
    assert_eq!(p["leaders_finished"].as_u64(), Some(leaders_changed), "{p}");
    // What kafkaops itself read from Kafka before and after.
    let k = &v["execution"]["placement_in_kafka"];
    assert_eq!(k["partitions_moved"].as_u64(), Some(moved), "{v}");
    assert_eq!(k["leaders_changed"].as_u64(), Some(leaders_changed), "{v}");

    eprintln!(
        "step: removing rack b's only broker cannot satisfy RackAwareGoal: exit 12, nothing moves"
    );
    let before = placement_map(&bootstrap, &topics);
    let r = kafkaops(
        &cc,
        &[
            "rebalance",
            "remove",
            "--brokers",
            "2",
            "--execute",
            "--yes",
        ],
    );
    assert_eq!(r.code, 12, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("Cruise Control could not satisfy the goals: RackAwareGoal"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("Cruise Control's hint: Add at least 1 broker to a rack other than"),
        "{}",
        r.stderr
    );
    assert_eq!(placement_map(&bootstrap, &topics), before, "nothing moved");
    drop(cc);

    eprintln!("step: LOADING after a restart with stored samples: ask, do not refuse early");
    let loading = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            extra_args: vec!["--loading-seconds".into(), "120".into()],
            ..Default::default()
        },
    )
    .expect("cc-double");
    // MonitorState says LOADING with 0 valid of 0 partitions, yet a rebalance proposal answers.
    let r = kafkaops(&loading, &["rebalance", "full"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("Dry run: nothing was changed"),
        "{}",
        r.stdout
    );
    // add_broker answers with the LOADING error: that answer is "not ready" (exit 4).
    let r = kafkaops(&loading, &["rebalance", "add", "--brokers", "4"]);
    assert_eq!(r.code, 4, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("LOADING"), "{}", r.stderr);
    assert_eq!(placement_map(&bootstrap, &topics), before, "nothing moved");
}
