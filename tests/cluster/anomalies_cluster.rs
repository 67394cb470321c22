//! Anomalies on a real Kafka cluster (1 controller + 4 brokers on racks a, b, c, a) with the
//! Cruise Control test double, one cluster for the whole binary, steps in order:
//!
//! 1. The double's anomaly detector behaves as reference §13 records for a real Cruise Control:
//!    only goals in `anomaly.detection.goals` are checked (with the default, hard goals only, a
//!    skewed placement raises nothing while a rack violation is reported), the same violation
//!    gets a new `anomalyId` every detection interval, at most 10 entries are kept, in no order,
//!    with status `IGNORED` (self-healing off), and a violation a rack layout cannot satisfy is
//!    reported with an unfixable goal. `anomalies watch --once` shows it once; `rebalance
//!    imbalance` reports it and does not act on it.
//! 2. The flow: a deliberately skewed placement raises a goal violation once the
//!    distribution goals are detection goals; `anomalies watch --exit-on goal-violation` exits 10;
//!    a watch survives a Cruise Control restart without repeating the violation;
//!    `rebalance imbalance --execute --yes` fixes it and the real placement is balanced; running
//!    it again does nothing.
//!
//! Run with `cargo test --test cluster anomalies_cluster:: -- --nocapture` to see the steps.

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rdkafka::admin::{AdminClient, AdminOptions};
use rdkafka::client::DefaultClientContext;
use rdkafka::config::ClientConfig;
use serde_json::Value;
use support::WAIT;
use support::bin::{Out, kafkaops_bin, run};
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};

fn kafkaops(cc: &CcDouble, args: &[&str]) -> Out {
    run(support::bin::kafkaops()
        .env("KAFKAOPS_CRUISE_CONTROL_URL", cc.url())
        .args(args))
}

/// `GET /state?substates=anomaly_detector` of the double.
fn anomaly_state(cc: &CcDouble) -> Value {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let url = format!("{}/state?json=true&substates=anomaly_detector", cc.url());
    let body = rt.block_on(async {
        reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .build()
            .unwrap()
            .get(url)
            .send()
            .await?
            .text()
            .await
    });
    let body = body.expect("GET /state");
    let v: Value = serde_json::from_str(&body).expect("state JSON");
    v["AnomalyDetectorState"].clone()
}

fn goal_violations(cc: &CcDouble) -> Vec<Value> {
    anomaly_state(cc)["recentGoalViolations"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

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

fn delete_topics(bootstrap: &str, topics: &[&str]) {
    let admin: AdminClient<DefaultClientContext> = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("log_level", "3")
        .create()
        .unwrap();
    let opts = AdminOptions::new().operation_timeout(Some(Duration::from_secs(30)));
    let res = futures::executor::block_on(admin.delete_topics(topics, &opts)).unwrap();
    for r in res {
        r.unwrap_or_else(|(t, e)| panic!("delete {t}: {e:?}"));
    }
    wait_for("deleted topics to disappear", WAIT, || {
        Ok(topics
            .iter()
            .all(|t| placement(bootstrap, t).map_or(true, |p| p.is_empty()))
            .then_some(()))
    })
    .unwrap();
}

/// A running `kafkaops` whose stdout and stderr lines are collected as they come.
struct Background {
    child: Child,
    stdout: Arc<Mutex<Vec<String>>>,
    stderr: Arc<Mutex<Vec<String>>>,
}

impl Background {
    fn spawn(cc: &CcDouble, args: &[&str]) -> Background {
        let mut cmd = support::bin::kafkaops();
        cmd.env("KAFKAOPS_CRUISE_CONTROL_URL", cc.url())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let collect = |r: Box<dyn std::io::Read + Send>| {
            let lines = Arc::new(Mutex::new(Vec::new()));
            let l = lines.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(r).lines() {
                    let Ok(line) = line else { break };
                    l.lock().unwrap().push(line);
                }
            });
            lines
        };
        let stdout = collect(Box::new(child.stdout.take().unwrap()));
        let stderr = collect(Box::new(child.stderr.take().unwrap()));
        Background {
            child,
            stdout,
            stderr,
        }
    }

    fn stdout(&self) -> Vec<String> {
        self.stdout.lock().unwrap().clone()
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().join("\n")
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn anomalies_on_a_real_cluster() {
    let started = Instant::now();
    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::split(1, 4).with_racks(["a", "b", "c", "a"]))
        .expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    // The skew: 12 partitions, RF 2, only on brokers 1 and 2 (distinct racks).
    let skew: Vec<Vec<i32>> = (0..12)
        .map(|i| if i % 2 == 0 { vec![1, 2] } else { vec![2, 1] })
        .collect();
    create_topic(&bootstrap, "skew", &skew, &[]).unwrap();
    // A rack violation a rebalance could fix (brokers 1 and 4 share rack a) and one no layout can
    // satisfy (4 replicas, 3 racks).
    create_topic(&bootstrap, "same-rack", &[vec![1, 4]], &[]).unwrap();
    create_topic(&bootstrap, "four-replicas", &[vec![1, 2, 3, 4]], &[]).unwrap();

    eprintln!("step 1: fidelity of the anomaly detector (reference section 13)");
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            anomaly_interval_seconds: Some(1),
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let first = wait_for("a goal violation", WAIT, || {
        Ok(goal_violations(&cc).first().cloned())
    })
    .unwrap();
    eprintln!("first violation: {first}");
    // Only anomaly.detection.goals are checked: the default (hard goals) ignores the skew.
    assert_eq!(first["status"], "IGNORED", "self-healing is off: {first}");
    assert_eq!(
        strings(&first["fixableViolatedGoals"]),
        Vec::<String>::new()
    );
    assert_eq!(strings(&first["unfixableViolatedGoals"]), ["RackAwareGoal"]);
    // A new anomalyId every interval for the same violation, at most 10 kept.
    let ten = wait_for("10 detections", WAIT, || {
        let v = goal_violations(&cc);
        assert!(v.len() <= 10, "at most 10 kept: {}", v.len());
        Ok((v.len() == 10).then_some(v))
    })
    .unwrap();
    let ids: BTreeSet<String> = ten
        .iter()
        .map(|a| a["anomalyId"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 10, "a new id per detection");
    for a in &ten {
        assert_eq!(
            strings(&a["unfixableViolatedGoals"]),
            ["RackAwareGoal"],
            "{a}"
        );
        assert_eq!(a["status"], "IGNORED");
    }
    // In no order: the same entries come back in different orders.
    let mut orders = BTreeSet::new();
    let mut newest_ids = BTreeSet::new();
    wait_for(
        "the list in another order and the oldest entries dropped",
        WAIT,
        || {
            let v = goal_violations(&cc);
            assert!(v.len() <= 10);
            let order: Vec<String> = v
                .iter()
                .map(|a| a["anomalyId"].as_str().unwrap().to_string())
                .collect();
            let detected: Vec<i64> = v
                .iter()
                .map(|a| a["detectionMs"].as_i64().unwrap())
                .collect();
            let sorted = detected.windows(2).all(|w| w[0] <= w[1]);
            orders.insert((sorted, order.len()));
            newest_ids.extend(order.iter().cloned());
            let dropped = ids.iter().any(|i| !order.contains(i));
            Ok((orders.contains(&(false, 10)) && dropped).then_some(()))
        },
    )
    .unwrap();

    eprintln!(
        "step 1b: anomalies watch --once shows the violation once; imbalance does not act on it"
    );
    let once = kafkaops(&cc, &["anomalies", "watch", "--once", "-o", "jsonl"]);
    assert_eq!(once.code, 0, "{}", once.stderr);
    let lines = support::schema::jsonl_of(&once.args, &once.stdout);
    let gv: Vec<&Value> = lines
        .iter()
        .filter(|l| l["type"] == "goal-violation")
        .collect();
    assert_eq!(gv.len(), 1, "10 detections, one content: {}", once.stdout);
    assert_eq!(gv[0]["fixable"], false);
    let state_dir = tempfile::tempdir().unwrap();
    let state_arg = state_dir.path().to_str().unwrap();
    let before = replicas_per_broker(&bootstrap, &["skew", "same-rack", "four-replicas"]);
    let r = kafkaops(
        &cc,
        &[
            "rebalance",
            "imbalance",
            "--execute",
            "--yes",
            "--state-dir",
            state_arg,
            "-o",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = r.json();
    assert_eq!(v["status"], "nothing-to-fix", "{v}");
    assert_eq!(
        v["unfixable"][0]["unfixable_goals"][0], "RackAwareGoal",
        "{v}"
    );
    assert!(
        r.stderr.contains("Not acting on goal violation"),
        "{}",
        r.stderr
    );
    assert_eq!(
        replicas_per_broker(&bootstrap, &["skew", "same-rack", "four-replicas"]),
        before,
        "an unfixable violation is never acted on"
    );
    drop(cc);
    delete_topics(&bootstrap, &["same-rack", "four-replicas"]);

    eprintln!(
        "step 2: the skew is a goal violation once the distribution goals are detection goals"
    );
    let mut cc = CcDouble::start(
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
    let skewed = replicas_per_broker(&bootstrap, &["skew"]);
    eprintln!("replicas per broker before: {skewed:?}");
    let t = Instant::now();
    let w = kafkaops(
        &cc,
        &[
            "anomalies",
            "watch",
            "--exit-on",
            "goal-violation",
            "--interval",
            "500ms",
            "-o",
            "jsonl",
        ],
    );
    assert_eq!(w.code, 10, "--exit-on goal-violation: {}", w.stderr);
    let line = support::schema::record_of(&w.args, w.stdout.lines().next().unwrap())
        .expect("one JSON object per line");
    assert_eq!(line["type"], "goal-violation");
    assert!(
        strings(&line["fixable_goals"]).contains(&"ReplicaDistributionGoal".to_string()),
        "{line}"
    );
    assert_eq!(line["fixable"], true);
    eprintln!("watch exited 10 after {:?}", t.elapsed());

    eprintln!("step 2b: a watch survives a Cruise Control restart without repeating the violation");
    let bg = Background::spawn(
        &cc,
        &[
            "anomalies",
            "watch",
            "--interval",
            "300ms",
            "--max-backoff",
            "1s",
            "-o",
            "jsonl",
        ],
    );
    wait_for("the watch to print the violation", WAIT, || {
        Ok((!bg.stdout().is_empty()).then_some(()))
    })
    .unwrap();
    let restarted_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    // Down until the watch says so: a restart quicker than one request's retries (10 s) would
    // be absorbed by the client and never seen as an outage.
    cc.stop();
    wait_for("the watch to report the outage", WAIT, || {
        Ok(bg.stderr().contains("DISCONNECTED").then_some(()))
    })
    .unwrap();
    cc.restart().expect("restart the double");
    wait_for(
        "a re-detection after the restart and the watch reconnected",
        WAIT,
        || {
            let fresh = goal_violations(&cc)
                .iter()
                .any(|a| a["detectionMs"].as_i64().unwrap_or(0) > restarted_at);
            Ok((fresh && bg.stderr().contains("Reconnected")).then_some(()))
        },
    )
    .unwrap_or_else(|e| {
        panic!(
            "{e:#}\nviolations: {:?}\nwatch stderr:\n{}\ndouble log:\n{}",
            goal_violations(&cc),
            bg.stderr(),
            cc.log()
        )
    });
    // The watch polls every 300 ms: let it see the double's later re-detections too.
    wait_for("two re-detections after the restart", WAIT, || {
        Ok((goal_violations(&cc).len() >= 2).then_some(()))
    })
    .unwrap();
    let out = bg.stdout();
    let stderr = bg.stderr();
    drop(bg);
    eprintln!("watch across the restart printed {out:?}\nstderr: {stderr}");
    assert_eq!(
        out.len(),
        1,
        "the re-detected violation is not new: {out:?}"
    );
    assert!(stderr.contains("DISCONNECTED"), "{stderr}");

    eprintln!("step 2c: rebalance imbalance fixes it; the real placement is balanced");
    let template = state_dir.path().join("template.yaml");
    std::fs::write(
        &template,
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaRebalance\nmetadata:\n  name: imbalance-template\n  annotations:\n    strimzi.io/rebalance-template: \"true\"\nspec:\n  goals: [RackAwareGoal, ReplicaDistributionGoal, LeaderReplicaDistributionGoal]\n  skipHardGoalCheck: true\n  concurrentPartitionMovementsPerBroker: 5\n",
    )
    .unwrap();
    let tmpl = template.to_str().unwrap();
    let t = Instant::now();
    let r = kafkaops(
        &cc,
        &[
            "rebalance",
            "imbalance",
            "--execute",
            "--yes",
            "--template",
            tmpl,
            "--state-dir",
            state_arg,
            "--wait-for-ready",
            "2m",
            "--poll-interval",
            "200ms",
            "-o",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stderr, cc.log());
    let v: Value = r.json();
    assert_eq!(v["execution"]["status"], "completed", "{v}");
    eprintln!("imbalance fixed in {:?}", t.elapsed());
    let after = replicas_per_broker(&bootstrap, &["skew"]);
    eprintln!("replicas per broker after: {after:?}");
    let (min, max) = (
        after.values().min().copied().unwrap_or(0),
        after.values().max().copied().unwrap_or(0),
    );
    assert_eq!(after.len(), 4, "every broker holds replicas: {after:?}");
    assert!(max - min <= 1, "balanced: {after:?}");
    assert_eq!(after.values().sum::<usize>(), 24);
    for p in placement(&bootstrap, "skew").unwrap() {
        assert_eq!(p.isr.len(), 2, "ISR complete: {p:?}");
    }
    let files: Vec<_> = std::fs::read_dir(state_dir.path())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.starts_with("imbalance-"))
        .collect();
    // One state file per Cruise Control URL (step 1's double had another port).
    let ours = format!(
        "imbalance-http-127-0-0-1-{}-kafkacruisecontrol.json",
        cc.port()
    );
    assert!(files.contains(&ours), "{ours} in {files:?}");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(state_dir.path().join(&ours)).unwrap())
            .unwrap();
    assert_eq!(saved["auto_rebalance"]["state"], "Idle", "{saved}");
    assert!(
        !saved["auto_rebalance"]["ledger"]["fixed"]
            .as_array()
            .unwrap()
            .is_empty(),
        "the violation is recorded as fixed: {saved}"
    );

    eprintln!("step 2d: running it again does nothing");
    let again = kafkaops(
        &cc,
        &[
            "rebalance",
            "imbalance",
            "--execute",
            "--yes",
            "--template",
            tmpl,
            "--state-dir",
            state_arg,
            "-o",
            "json",
        ],
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    let v: Value = again.json();
    assert_eq!(v["status"], "nothing-to-fix", "{v}\n{}", again.stderr);
    assert!(
        !v["already_handled"].as_array().unwrap().is_empty(),
        "the old detections are recognised as handled: {v}"
    );
    assert_eq!(replicas_per_broker(&bootstrap, &["skew"]), after);

    eprintln!("step 2e: --watch fixes a violation that appears later, once");
    let bg = Background::spawn(
        &cc,
        &[
            "rebalance",
            "imbalance",
            "--watch",
            "--interval",
            "1s",
            "--execute",
            "--yes",
            "--template",
            tmpl,
            "--state-dir",
            state_arg,
            "--poll-interval",
            "200ms",
            "-o",
            "jsonl",
        ],
    );
    // New skew: 8 partitions, RF 2, on brokers 3 and 4 only.
    let skew2: Vec<Vec<i32>> = (0..8)
        .map(|i| if i % 2 == 0 { vec![3, 4] } else { vec![4, 3] })
        .collect();
    create_topic(&bootstrap, "skew2", &skew2, &[]).unwrap();
    let topics = ["skew", "skew2"];
    let skewed2 = replicas_per_broker(&bootstrap, &topics);
    eprintln!("replicas per broker with skew2: {skewed2:?}");
    let t = Instant::now();
    let fixed = wait_for("the watching imbalance to rebalance", WAIT, || {
        let out = bg.stdout();
        Ok(out
            .iter()
            .filter_map(|l| support::schema::record_of(&["rebalance", "imbalance", "--watch"], l))
            .find(|v| v["execution"]["status"] == "completed"))
    })
    .unwrap_or_else(|e| panic!("{e:#}\nstderr: {}\n{}", bg.stderr(), cc.log()));
    eprintln!(
        "--watch rebalanced after {:?}: {}",
        t.elapsed(),
        fixed["execution"]
    );
    let balanced = replicas_per_broker(&bootstrap, &topics);
    eprintln!("replicas per broker after the watch's rebalance: {balanced:?}");
    let (min, max) = (
        balanced.values().min().copied().unwrap_or(0),
        balanced.values().max().copied().unwrap_or(0),
    );
    assert!(max - min <= 1, "balanced: {balanced:?}");
    // It keeps watching and does not rebalance again for re-detections of the fixed violation:
    // wait for several more detection rounds, then count the rebalances.
    wait_for("more detection rounds", WAIT, || {
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        let newest = goal_violations(&cc)
            .iter()
            .filter_map(|a| a["detectionMs"].as_i64())
            .max()
            .unwrap_or(0);
        // No new violation for 3 s after the fix while the watch polls every second.
        Ok((now_ms - newest > 3_000 && bg.stderr().contains("Recorded")).then_some(()))
    })
    .unwrap();
    let out = bg.stdout();
    let stderr = bg.stderr();
    drop(bg);
    let runs = out
        .iter()
        .filter_map(|l| support::schema::record_of(&["rebalance", "imbalance", "--watch"], l))
        .filter(|v| v.get("execution").is_some())
        .count();
    assert_eq!(
        runs, 1,
        "one rebalance for one violation: {out:?}\n{stderr}"
    );
    eprintln!("whole test: {:?}", started.elapsed());
}
