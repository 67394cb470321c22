//! `kafkaops operate` and the movers, end to end on a real KRaft cluster (1 controller + 3
//! brokers in racks a, b, c) with the Cruise Control test double really moving replicas. The
//! oracles are Kafka's metadata (the placement) and the double's own record of the requests it
//! got (`user_tasks`), never operate's view.
//!
//! a) A skewed placement (every replica on brokers 1 and 2) that the double's anomaly detector
//!    reports as a fixable goal violation: with a policy that does not enable `imbalance`,
//!    operate starts nothing; a bad version of the policy written next (unknown template) is
//!    reported with its field and counted, and still nothing starts (the last good policy stays);
//!    the good version enabling `imbalance` is picked up by the running operate, which fixes the
//!    violation with the policy's template: one `rebalance` execution, and the placement ends
//!    balanced with complete ISRs.
//!
//! b) A rebalance in execution (started by `kafkaops rebalance add --execute --no-wait` with a
//!    low replication throttle, so it lasts) holds back a roll that the policy asks for (a
//!    `roll.brokerConfig` value Kafka can only take with a restart): no broker process restarts
//!    until the double's `user_tasks` say the execution finished, then every broker restarts
//!    and runs with the new value.
//!
//! `cargo test --test cluster operate_movers:: -- --nocapture` shows the steps.

use crate::support;
use support::WAIT;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use support::bin::kafkaops_bin;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::control::{ControlServer, connection_args};
use support::kafka::{
    ClusterSpec, KafkaCluster, broker_config, create_topic, http_get, placement, produce_bulk,
    wait_for,
};
use support::operate::{
    Operate, OperateOptions, epoch_ms, executions, http_port, last_loop, saved_state, user_tasks,
    write_policy,
};

/// Replicas per broker of `topic` (Kafka's metadata).
fn spread(bootstrap: &str, topic: &str) -> BTreeMap<i32, usize> {
    let mut m = BTreeMap::new();
    for p in placement(bootstrap, topic).unwrap() {
        for r in p.replicas {
            *m.entry(r).or_insert(0) += 1;
        }
    }
    m
}

const IMBALANCE_POLICY: &str = "\
autoRebalance:
  - mode: imbalance
    template: { name: full }
templates:
  full:
    goals: [RackAwareGoal, ReplicaDistributionGoal, LeaderReplicaDistributionGoal]
    skipHardGoalCheck: true
    concurrentPartitionMovementsPerBroker: 5
";

#[test]
fn operate_fixes_a_goal_violation() {
    let _ = kafkaops_bin(); // copy it now, before anything else can rebuild it
    let cluster =
        KafkaCluster::start(ClusterSpec::split(1, 3).with_racks(["a", "b", "c"])).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let brokers = cluster.broker_ids();
    // The skew: 12 partitions, RF 2, only on the first two brokers (distinct racks).
    let (b1, b2) = (brokers[0], brokers[1]);
    let skew: Vec<Vec<i32>> = (0..12)
        .map(|i| {
            if i % 2 == 0 {
                vec![b1, b2]
            } else {
                vec![b2, b1]
            }
        })
        .collect();
    create_topic(&bootstrap, "skew", &skew, &[]).unwrap();
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            anomaly_interval_seconds: Some(1),
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            anomaly_detection_goals: Some(vec![
                "RackAwareGoal".into(),
                "ReplicaDistributionGoal".into(),
                "LeaderReplicaDistributionGoal".into(),
            ]),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let url = cc.url();
    eprintln!(
        "replicas per broker before: {:?}",
        spread(&bootstrap, "skew")
    );

    eprintln!("step a: the skew is a goal violation; a policy without `imbalance` leaves it");
    let dir = tempfile::tempdir().unwrap();
    let policy = write_policy(
        dir.path(),
        "policy.yaml",
        // Broker 3 holds nothing, but add-brokers is not enabled either: only a scale-down could run.
        "autoRebalance:\n  - mode: remove-brokers\n    template: { name: t }\ntemplates:\n  t: {}\n",
    );
    let o = OperateOptions::new(&url, &bootstrap, &policy, &dir.path().join("state"));
    let since = epoch_ms();
    let mut op = Operate::start(&o).expect("operate");
    let port = wait_for("operate's /metrics address", WAIT, || Ok(http_port(&op)))
        .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    let detector = "/kafkacruisecontrol/state?json=true&substates=anomaly_detector";
    wait_for("the double to report the goal violation", WAIT, || {
        let v: serde_json::Value = serde_json::from_str(&http_get(cc.port(), detector)?)?;
        let n = v["AnomalyDetectorState"]["recentGoalViolations"]
            .as_array()
            .map_or(0, Vec::len);
        Ok((n > 0).then_some(()))
    })
    .unwrap();
    let seen_at = epoch_ms() as f64 / 1000.0;
    let loops_after = |t: f64| {
        wait_for("two more loops", WAIT, || {
            Ok(last_loop(port).is_some_and(|l| l > t + 2.0).then_some(()))
        })
        .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    };
    loops_after(seen_at);
    assert!(
        user_tasks(&url).unwrap().iter().all(|t| !t.executes()),
        "a mode absent from the policy never starts: {:?}",
        user_tasks(&url).unwrap()
    );

    eprintln!("step a': a bad version of the policy is reported and the last good one stays");
    std::fs::write(
        &policy,
        IMBALANCE_POLICY.replace("{ name: full }", "{ name: ful }"),
    )
    .unwrap();
    wait_for("the bad policy reported with its field", WAIT, || {
        let metrics = http_get(port, "/metrics")?;
        let counted = metrics.contains("kafkaops_operate_errors_total{source=\"policy\"} 1");
        let named = op
            .log()
            .contains("autoRebalance[0].template.name: unknown template \"ful\"");
        Ok((counted && named).then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    loops_after(epoch_ms() as f64 / 1000.0);
    assert!(
        user_tasks(&url).unwrap().iter().all(|t| !t.executes()),
        "the bad version is not acted on: {:?}",
        user_tasks(&url).unwrap()
    );

    eprintln!(
        "step a'': the good version enabling `imbalance` is picked up; operate fixes the skew"
    );
    std::fs::write(&policy, IMBALANCE_POLICY).unwrap();
    // Balanced once the moves are done: mid-reassignment a partition lists its old and new
    // replicas (3), and a spread counted then can look balanced already.
    let balanced = |s: &BTreeMap<i32, usize>| {
        s.len() == brokers.len() && s.values().max().unwrap() - s.values().min().unwrap() <= 1
    };
    wait_for(
        "a balanced placement of `skew`, every partition on 2 replicas, both in the ISR",
        WAIT,
        || {
            let moved = placement(&bootstrap, "skew")?
                .iter()
                .all(|p| p.replicas.len() == 2 && p.isr.len() == 2);
            Ok((moved && balanced(&spread(&bootstrap, "skew"))).then_some(()))
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}\n--- operate ---\n{}", op.log()));
    let after = spread(&bootstrap, "skew");
    eprintln!("replicas per broker after: {after:?}");
    assert_eq!(after.values().sum::<usize>(), 24);
    assert!(balanced(&after), "{after:?}");
    // Ground truth of what reached Cruise Control: one execution of `rebalance`, nothing else.
    let rebalances = executions(&url, "rebalance", since).unwrap();
    assert_eq!(
        rebalances.len(),
        1,
        "one rebalance execution: {:?}\n{}",
        user_tasks(&url).unwrap(),
        op.log()
    );
    let url_of = &rebalances[0].url;
    for goal in ["ReplicaDistributionGoal", "LeaderReplicaDistributionGoal"] {
        assert!(url_of.contains(goal), "the template's goals: {url_of}");
    }
    for other in ["add_broker", "remove_broker"] {
        assert!(executions(&url, other, since).unwrap().is_empty());
    }
    // Back to Idle, and the loops that follow (the double keeps detecting every second, now
    // nothing) start nothing more.
    wait_for("operate's saved state to be Idle", WAIT, || {
        Ok(saved_state(&dir.path().join("state")).and_then(|s| {
            (s["rebalancer"]["state"] == "Idle" && s["mover"].is_null()).then_some(())
        }))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    let idle_at = epoch_ms() as f64 / 1000.0;
    wait_for("three more loops after Idle", WAIT, || {
        Ok(last_loop(port)
            .is_some_and(|t| t > idle_at + 3.0)
            .then_some(()))
    })
    .unwrap();
    assert_eq!(
        executions(&url, "rebalance", since).unwrap().len(),
        1,
        "{}",
        op.log()
    );
    assert_eq!(op.terminate().unwrap(), Some(0), "{}", op.log());
}

/// The execution's status in the double's `user_tasks`, polled every 100 ms in the background:
/// the last moment it was seen in execution, and whether it was seen finished.
struct ExecutionWatch {
    last_in_execution: Arc<Mutex<Option<Instant>>>,
    finished: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

impl ExecutionWatch {
    fn start(url: &str, task_id: &str) -> ExecutionWatch {
        let last_in_execution = Arc::new(Mutex::new(None));
        let finished = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (l, f, s) = (
            Arc::clone(&last_in_execution),
            Arc::clone(&finished),
            Arc::clone(&stop),
        );
        let (url, id) = (url.to_string(), task_id.to_string());
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                let asked = Instant::now();
                if let Ok(tasks) = user_tasks(&url)
                    && let Some(t) = tasks.iter().find(|t| t.id == id)
                {
                    match t.status.as_str() {
                        "Active" | "InExecution" => *l.lock().unwrap() = Some(asked),
                        _ => f.store(true, Ordering::Relaxed),
                    }
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        ExecutionWatch {
            last_in_execution,
            finished,
            stop,
        }
    }
}

impl Drop for ExecutionWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[test]
fn a_rebalance_in_execution_holds_a_roll_back() {
    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::split(1, 3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let brokers = cluster.broker_ids();
    let (b1, b2, b3) = (brokers[0], brokers[1], brokers[2]);
    // Data only on the first two brokers; `rebalance add` moves part of it onto the third.
    let on_12: Vec<Vec<i32>> = (0..6)
        .map(|i| {
            if i % 2 == 0 {
                vec![b1, b2]
            } else {
                vec![b2, b1]
            }
        })
        .collect();
    create_topic(&bootstrap, "data", &on_12, &[]).unwrap();
    produce_bulk(&bootstrap, "data", 600, 1_000, 16_384).unwrap();
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let url = cc.url();
    let conn = connection_args(&cluster);
    let cluster = Arc::new(Mutex::new(cluster));
    let server = ControlServer::start(Arc::clone(&cluster));

    let dir = tempfile::tempdir().unwrap();
    eprintln!("step b: a rebalance started by the CLI, throttled so it lasts");
    let out = support::bin::kafkaops()
        .env("KAFKAOPS_CRUISE_CONTROL_URL", &url)
        .args(&conn)
        .args(["rebalance", "add", "--brokers", &b3.to_string()])
        .args([
            "--execute",
            "--yes",
            "--no-wait",
            "--replication-throttle",
            "20000",
        ])
        .args(["-o", "json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "rebalance add: {e}\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    support::schema::check(&["rebalance".into(), "add".into()], &doc);
    assert_eq!(out.status.code(), Some(0), "{doc}");
    let task_id = executions(&url, "add_broker", 0)
        .unwrap()
        .last()
        .map(|t| t.id.clone())
        .unwrap_or_else(|| panic!("no add_broker execution in user_tasks: {doc}"));
    let watch = ExecutionWatch::start(&url, &task_id);
    wait_for("the execution to be seen in progress", WAIT, || {
        Ok(watch.last_in_execution.lock().unwrap().map(|_| ()))
    })
    .unwrap();

    // The policy wants a value Kafka takes only with a restart (a read-only broker setting);
    // the restart command writes it into the node's server.properties, as a config
    // management tool would, then restarts the node through the control server.
    let (setting, value) = ("queued.max.requests", "400");
    let node_dir = |id: i32| cluster.lock().unwrap().node_work_dir(id);
    let dirs: BTreeMap<i32, String> = brokers
        .iter()
        .map(|b| (*b, node_dir(*b).display().to_string()))
        .collect();
    let script = dir.path().join("restart-with-config.sh");
    let mut cases = String::new();
    for (id, d) in &dirs {
        cases.push_str(&format!(
            "  {id}) echo '{setting}={value}' >> '{d}/server.properties' ;;\n"
        ));
    }
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nset -e\ncase \"$1\" in\n{cases}esac\n{}\n",
            server.restart_command().replace("{id}", "$1")
        ),
    )
    .unwrap();
    let policy = write_policy(
        dir.path(),
        "policy.yaml",
        &format!("roll:\n  brokerConfig:\n    {setting}: \"{value}\"\n"),
    );
    let mut o = OperateOptions::new(&url, &bootstrap, &policy, &dir.path().join("state"));
    o.connection = Some(conn.clone());
    o.extra_args = vec![
        "--restart-command".into(),
        format!("sh {} {{id}}", script.display()),
    ];
    let mut op = Operate::start(&o).expect("operate");

    wait_for("the execution to finish", WAIT, || {
        Ok(watch.finished.load(Ordering::Relaxed).then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    let last_in_execution = watch.last_in_execution.lock().unwrap().unwrap();
    wait_for(
        &format!("every broker to run with {setting}={value}"),
        WAIT,
        || {
            for b in &brokers {
                if broker_config(&bootstrap, *b, setting)?.as_deref() != Some(value) {
                    return Ok(None);
                }
            }
            Ok(Some(()))
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    drop(watch);
    let restarts = server.restarts();
    eprintln!(
        "restarts: {:?}",
        restarts
            .iter()
            .map(|r| (r.node, r.at.saturating_duration_since(last_in_execution)))
            .collect::<Vec<_>>()
    );
    let mut restarted: Vec<i32> = restarts.iter().map(|r| r.node).collect();
    restarted.sort_unstable();
    assert_eq!(
        restarted,
        brokers,
        "each broker restarted once:\n{}",
        op.log()
    );
    for r in &restarts {
        assert!(
            r.at > last_in_execution,
            "node {} restarted while the execution was still running (seen in execution {:?} after the restart)\n{}",
            r.node,
            last_in_execution.duration_since(r.at),
            op.log()
        );
    }
    // While the execution ran, operate knew the roll was due and said what it waited for.
    let log = op.log();
    let waited = log
        .lines()
        .find(|l| l.contains("roll of nodes") && l.contains("waits: Cruise Control"));
    assert!(waited.is_some(), "no roll wait in the log:\n{log}");
    eprintln!("operate: {}", waited.unwrap());
    assert_eq!(op.terminate().unwrap(), Some(0), "{}", op.log());
    drop(server);
}
