//! Tests of the Cruise Control test double (`tests/env/cc-double`) against documented Cruise
//! Control behaviour (`shared/reference/cruise-control.md`), over a real Kafka 4.x cluster:
//! response shapes, the 202 / `User-Task-ID` flow, parameter and error handling, the active-task
//! limit, one execution at a time, warm-up, restart, Basic auth and TLS, and an `add_broker`
//! execution that really moves replicas onto the new broker.
//!
//! Each test starts one cluster (the harness serializes them) and several cheap double JVMs on it.
//! Run with `cargo test --test cluster cc_double:: -- --nocapture` to see the steps.

use crate::support;
use support::WAIT;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use kafkaops::kafka::{ConfigChange, ConfigTarget};
use serde_json::Value;
use support::admin::Admin;
use support::cc_double::{CcApiUser, CcDouble, CcDoubleOptions, CcRole, strimzi_api_users};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};

/// One HTTP answer.
#[derive(Debug)]
struct Resp {
    status: u16,
    task_id: Option<String>,
    content_type: String,
    text: String,
    /// `WWW-Authenticate`, when sent.
    www_authenticate: Option<String>,
}

impl Resp {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.text))
    }
    fn error_message(&self) -> String {
        self.json()["errorMessage"]
            .as_str()
            .unwrap_or_else(|| panic!("no errorMessage in {}", self.text))
            .to_string()
    }
}

/// A small blocking HTTP client over async reqwest (the blocking feature is not enabled).
struct Http {
    rt: tokio::runtime::Runtime,
    client: reqwest::Client,
    base: String,
    auth: Option<(String, String)>,
}

impl Http {
    fn new(cc: &CcDouble) -> Self {
        Self::with(cc, None)
    }

    fn with(cc: &CcDouble, auth: Option<(&str, &str)>) -> Self {
        // No idle connections: a restarted double must not be reached through a dead pooled socket.
        let mut b = reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .pool_max_idle_per_host(0);
        if let Some(ca) = cc.ca_pem_path() {
            let pem = std::fs::read(ca).expect("read CA");
            b = b.add_root_certificate(reqwest::Certificate::from_pem(&pem).expect("CA PEM"));
        }
        Self {
            rt: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap(),
            client: b.build().expect("http client"),
            base: cc.url(),
            auth: auth.map(|(u, p)| (u.to_string(), p.to_string())),
        }
    }

    fn send(
        &self,
        method: &str,
        path: &str,
        task: Option<&str>,
        body: Option<&str>,
    ) -> Result<Resp> {
        let url = format!("{}/{}", self.base, path);
        let m = reqwest::Method::from_bytes(method.as_bytes())?;
        let mut r = self.client.request(m, &url);
        if let Some((u, p)) = &self.auth {
            r = r.basic_auth(u, Some(p));
        }
        if let Some(t) = task {
            r = r.header("User-Task-ID", t);
        }
        if let Some(b) = body {
            r = r
                .header("Content-Type", "application/json")
                .body(b.to_string());
        }
        self.rt.block_on(async {
            let resp = r.send().await.with_context(|| format!("{method} {url}"))?;
            let status = resp.status().as_u16();
            let header = |n: &str| {
                resp.headers()
                    .get(n)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string)
            };
            let task_id = header("User-Task-ID");
            let content_type = header("Content-Type").unwrap_or_default();
            let www_authenticate = header("WWW-Authenticate");
            let text = resp.text().await?;
            Ok(Resp {
                status,
                task_id,
                content_type,
                text,
                www_authenticate,
            })
        })
    }

    fn get(&self, path: &str) -> Resp {
        self.send("GET", path, None, None).unwrap()
    }
    fn post(&self, path: &str) -> Resp {
        self.send("POST", path, None, None).unwrap()
    }

    /// `user_tasks` entry for `id`, `None` if the double does not know it.
    fn user_task(&self, id: &str) -> Result<Option<Value>> {
        let r = self.send(
            "GET",
            &format!("user_tasks?json=true&fetch_completed_task=true&user_task_ids={id}"),
            None,
            None,
        )?;
        if r.status != 200 {
            return Err(anyhow!("user_tasks answered {}: {}", r.status, r.text));
        }
        Ok(r.json()["userTasks"]
            .as_array()
            .and_then(|a| a.first().cloned()))
    }

    /// Waits until the user task `id` has one of `statuses`; returns the entry.
    fn wait_task(&self, id: &str, statuses: &[&str]) -> Value {
        wait_for(&format!("user task {id} in {statuses:?}"), WAIT, || {
            let t = self.user_task(id)?;
            Ok(t.filter(|t| statuses.contains(&t["Status"].as_str().unwrap_or(""))))
        })
        .unwrap()
    }
}

/// Replica count per broker over `topics`, from the real cluster metadata.
fn replicas_per_broker(bootstrap: &str, topics: &[&str]) -> BTreeMap<i32, usize> {
    let mut m = BTreeMap::new();
    for t in topics {
        // Metadata may lag on the broker asked right after a change: retry until it answers.
        let parts = wait_for(&format!("placement of {t}"), WAIT, || {
            placement(bootstrap, t).map(Some)
        })
        .unwrap();
        for p in parts {
            for b in p.replicas {
                *m.entry(b).or_insert(0) += 1;
            }
        }
    }
    m
}

/// Shapes, errors, limits, 202 flow, warm-up, restart, auth and TLS.
#[test]
fn api_contract_matches_documented_cruise_control() {
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    create_topic(
        &bootstrap,
        "alpha",
        &[vec![1, 2], vec![2, 3], vec![3, 1]],
        &[],
    )
    .unwrap();
    create_topic(&bootstrap, "beta", &[vec![1, 2], vec![1, 3]], &[]).unwrap();

    // --- Warm-up, shapes, errors: one double with a 12 s warm-up (the first request must come
    // inside it, counted from the JVM's start: 4 s was missed at load 20) and a fast task scanner.
    // When even 12 s passed before the first answer (load 36 on 2 cores), that double cannot
    // show its warm-up: it is started again with twice the warm-up (12, 24, 48 s).
    eprintln!("step: warm-up answers NotEnoughValidWindows");
    let (_, (mut cc, r, s, warmup)) = inside_window("the first warm-up", |n| {
        let warmup = 12 << (n - 1);
        let cc = CcDouble::start(
            &bootstrap,
            CcDoubleOptions {
                warmup_seconds: warmup,
                task_scan_millis: Some(300),
                max_active_tasks: Some(50),
                ..Default::default()
            },
        )
        .expect("cc-double");
        let r = Http::new(&cc).get("proposals?json=true");
        let s = Http::new(&cc)
            .get("state?json=true&substates=analyzer,monitor")
            .json();
        let warming = r.status == 500 && s["AnalyzerState"]["isProposalReady"] == false;
        (warming, Duration::from_secs(warmup), (cc, r, s, warmup))
    });
    let http = Http::new(&cc);
    assert_eq!(r.status, 500, "{}", r.text);
    assert!(
        r.error_message().contains("NotEnoughValidWindowsException"),
        "{}",
        r.text
    );
    assert_eq!(s["AnalyzerState"]["isProposalReady"], false);
    assert!(s.get("ExecutorState").is_none(), "substates filter: {s}");
    wait_for("proposal readiness", WAIT, || {
        let s = http
            .get("state?json=true&substates=analyzer,monitor")
            .json();
        Ok((s["AnalyzerState"]["isProposalReady"] == true
            && s["MonitorState"]["numValidPartitions"]
                .as_u64()
                .unwrap_or(0)
                > 0)
        .then_some(()))
    })
    .unwrap();

    eprintln!("step: /state shape");
    let r = http.get("state?json=true");
    assert_eq!(r.status, 200);
    assert!(
        r.content_type.starts_with("application/json"),
        "{}",
        r.content_type
    );
    assert!(
        r.task_id.is_some(),
        "every request that reaches the task manager gets User-Task-ID"
    );
    let s = r.json();
    assert_eq!(s["version"], 1);
    assert_eq!(s["ExecutorState"]["state"], "NO_TASK_IN_PROGRESS");
    assert_eq!(s["MonitorState"]["state"], "RUNNING");
    assert_eq!(s["MonitorState"]["numTotalPartitions"], 5);
    for k in [
        "selfHealingEnabled",
        "selfHealingDisabled",
        "recentGoalViolations",
        "recentBrokerFailures",
    ] {
        assert!(s["AnomalyDetectorState"][k].is_array(), "{k} in {s}");
    }
    assert!(s["AnomalyDetectorState"]["balancednessScore"].is_f64());

    eprintln!("step: proposals shape (verbose)");
    let p = http.get("proposals?json=true&verbose=true");
    assert_eq!(p.status, 200, "{}", p.text);
    let p = p.json();
    for k in [
        "numReplicaMovements",
        "dataToMoveMB",
        "numLeaderMovements",
        "excludedTopics",
        "onDemandBalancednessScoreAfter",
    ] {
        assert!(p["summary"].get(k).is_some(), "summary.{k} in {p}");
    }
    assert!(
        p["goalSummary"].as_array().unwrap().iter().all(|g| {
            ["VIOLATED", "FIXED", "NO-ACTION"].contains(&g["status"].as_str().unwrap())
        })
    );
    assert!(p.get("loadBeforeOptimization").is_some() && p.get("loadAfterOptimization").is_some());
    assert_eq!(
        p["loadAfterOptimization"]["brokers"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert!(p["proposals"].is_array());

    eprintln!("step: kafka_cluster_state shape");
    let k = http.get("kafka_cluster_state?json=true&topic=alpha").json();
    assert_eq!(k["KafkaBrokerState"]["Summary"]["Topics"], 1);
    assert_eq!(k["KafkaBrokerState"]["Summary"]["Replicas"], 6);
    assert_eq!(k["KafkaBrokerState"]["ReplicaCountByBrokerId"]["1"], 2);
    assert!(k["KafkaPartitionState"]["urp"].is_array());

    eprintln!("step: parameter validation and error bodies");
    let r = http.post("rebalance?json=true&foo=1");
    assert_eq!(r.status, 400);
    assert_eq!(
        r.error_message(),
        "Unrecognized endpoint parameters in REBALANCE POST request: [foo]."
    );
    assert_eq!(r.json()["version"], 1);
    let r = http.post("add_broker?json=true&brokerid=1&destination_broker_ids=2");
    assert_eq!(
        r.status, 400,
        "add_broker rejects destination_broker_ids: {}",
        r.text
    );
    let r = http.get("rebalance?json=true");
    assert_eq!(r.status, 404, "wrong method: {}", r.text);
    let r = http.get("state?json=true&substates=foo");
    assert_eq!(r.status, 400);
    let r = http.post("rebalance?json=true&concurrent_partition_movements_per_broker=0");
    assert_eq!(r.status, 400);
    let r = http.post("rebalance?json=true&dryrun=true&stop_ongoing_execution=true");
    assert_eq!(r.status, 400);
    let r =
        http.get("proposals?json=true&goals=ReplicaDistributionGoal&ignore_proposal_cache=true");
    assert_eq!(r.status, 400);
    let r = http.post("add_broker?json=true&brokerid=9");
    assert_eq!(r.status, 500);
    assert!(
        r.error_message()
            .contains("IllegalArgumentException: Broker [9] does not exist."),
        "{}",
        r.text
    );
    assert!(
        r.error_message()
            .starts_with("Error processing POST request '/add_broker' due to: '")
    );
    let r = http.post("rebalance?json=true&goals=ReplicaDistributionGoal");
    assert_eq!(r.status, 500);
    assert!(
        r.error_message().contains("Missing hard goals"),
        "{}",
        r.text
    );
    let r =
        http.post("rebalance?json=true&goals=ReplicaDistributionGoal&skip_hard_goal_check=true");
    assert_eq!(r.status, 200, "{}", r.text);
    let r = http.post("topic_configuration?json=true&topic=alpha&replication_factor=4");
    assert_eq!(r.status, 500);
    assert!(
        r.error_message().contains("only 3 alive brokers"),
        "{}",
        r.text
    );
    let r = http.post("topic_configuration?json=true&topic=alpha&replication_factor=2");
    assert!(
        r.error_message()
            .contains("already have target replication factor"),
        "{}",
        r.text
    );
    let r = http.post("topic_configuration?json=true&topic=nomatch.*&replication_factor=2");
    assert!(
        r.error_message()
            .contains("There is no topic in cluster matching pattern"),
        "{}",
        r.text
    );
    let r = http.post("topic_configuration?json=true&topic=alpha");
    assert_eq!(r.status, 400, "topic without replication_factor");
    let r = http
        .send("POST", "topic_configuration?json=true", None, None)
        .unwrap();
    assert_eq!(r.status, 400);
    assert!(
        r.error_message()
            .contains("Nothing executable found in request.")
    );
    let body = r#"{"replication_factor":{"topic_by_replication_factor":{"3":"alpha|beta"}}}"#;
    let r = http
        .send(
            "POST",
            "topic_configuration?json=true&verbose=true",
            None,
            Some(body),
        )
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["summary"]["numReplicaMovements"],
        5,
        "one new replica per partition (dry run)"
    );
    let r = http
        .send(
            "POST",
            "topic_configuration?json=true&topic=alpha&replication_factor=3",
            None,
            Some(body),
        )
        .unwrap();
    assert_eq!(r.status, 400, "body plus query parameters");
    let r = http.get("state?json=false");
    assert!(r.content_type.starts_with("text/plain"));

    eprintln!("step: user_tasks shape and statuses");
    let done = http.get("proposals?json=true");
    let id = done.task_id.clone().unwrap();
    let t = http.wait_task(&id, &["Completed"]);
    assert_eq!(t["UserTaskId"], id.as_str());
    assert!(t["StartMs"].is_string(), "StartMs is a string: {t}");
    assert!(
        t["RequestURL"]
            .as_str()
            .unwrap()
            .starts_with("GET /kafkacruisecontrol/proposals?")
    );
    let orig: Value = serde_json::from_str(t["originalResponse"].as_str().unwrap()).unwrap();
    assert!(
        orig.get("summary").is_some(),
        "originalResponse is the JSON text of the result"
    );
    let failed = http
        .post("add_broker?json=true&brokerid=9")
        .task_id
        .unwrap();
    let t = http.wait_task(&failed, &["CompletedWithError"]);
    assert_eq!(t["originalResponse"], "CompletedWithError");
    let list = http
        .get("user_tasks?json=true&types=CompletedWithError")
        .json();
    assert!(
        list["userTasks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["Status"] == "CompletedWithError")
    );

    eprintln!("step: restart forgets every task and warms up again");
    // The warm-up is checked only when these requests came inside it (counted from the new
    // JVM's start); on a machine so loaded that they did not, the double is restarted again.
    let (warming, r) = inside_window("the restart's warm-up", |_| {
        cc.restart().unwrap();
        assert!(
            http.user_task(&id).unwrap().is_none(),
            "task survived a restart"
        );
        let r = http
            .send("GET", "proposals?json=true", Some(&id), None)
            .unwrap();
        assert_eq!(r.status, 500);
        assert!(
            r.error_message().contains("Unexpected header"),
            "{}",
            r.text
        );
        let r = http.get("proposals?json=true");
        (
            r.error_message().contains("NotEnoughValidWindowsException"),
            Duration::from_secs(warmup),
            r,
        )
    });
    assert!(warming, "warm-up after restart: {}", r.text);
    drop(cc);

    // --- 202 flow and the active-task limit.
    eprintln!("step: 202 + User-Task-ID, re-poll with the header");
    let slow = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            min_compute_millis: Some(3000),
            max_block_millis: Some(300),
            task_scan_millis: Some(60_000),
            max_active_tasks: Some(3),
            ..Default::default()
        },
    )
    .unwrap();
    let http = Http::new(&slow);
    let path = "rebalance?json=true&verbose=true&dryrun=true";
    let r = http.post(path);
    assert_eq!(r.status, 202, "{}", r.text);
    let id = r.task_id.clone().expect("202 carries User-Task-ID");
    let progress = r.json();
    assert_eq!(progress["progress"][0]["operation"], "Rebalance");
    assert_eq!(
        progress["progress"][0]["operationProgress"][0]["step"],
        "PENDING"
    );
    let other = http
        .send("POST", "rebalance?json=true&dryrun=true", Some(&id), None)
        .unwrap();
    assert_eq!(
        other.status, 500,
        "the id is bound to the whole parameter set"
    );
    assert!(other.error_message().contains("Unexpected header"));
    let final_resp = wait_for("the re-polled rebalance to finish", WAIT, || {
        let r = http.send("POST", path, Some(&id), None)?;
        match r.status {
            202 => Ok(None),
            200 => Ok(Some(r)),
            s => Err(support::kafka::fatal(format!("unexpected {s}: {}", r.text))),
        }
    })
    .unwrap();
    assert_eq!(final_resp.task_id.as_deref(), Some(id.as_str()));
    assert!(final_resp.json().get("loadBeforeOptimization").is_some());

    eprintln!("step: max.active.user.tasks");
    // Slots are freed only by the scanner (60 s here): the first rebalance still holds one, the
    // two state calls below take the other two, the third call is refused.
    assert_eq!(http.get("state?json=true&substates=executor").status, 200);
    assert_eq!(http.get("state?json=true&substates=executor").status, 200);
    let r = http.get("user_tasks?json=true");
    assert_eq!(r.status, 500, "{}", r.text);
    assert!(
        r.error_message().contains(
            "There are already 3 active user tasks, which has reached the servlet capacity."
        ),
        "{}",
        r.text
    );
    drop(slow);

    // --- Retention: completed tasks are evicted retention after their start.
    eprintln!("step: completed.user.task.retention.time.ms");
    let short = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_retention_seconds: Some(5),
            task_scan_millis: Some(200),
            ..Default::default()
        },
    )
    .unwrap();
    let http = Http::new(&short);
    // "Young" is checked only when the listing came inside the retention (counted from before
    // the task was created); on a machine so loaded that it did not, a new task is made.
    let (listed, id) = inside_window("the task's retention", |_| {
        let id = http.get("kafka_cluster_state?json=true").task_id.unwrap();
        (
            http.user_task(&id).unwrap().is_some(),
            Duration::from_secs(5),
            id,
        )
    });
    assert!(listed, "listed while young");
    wait_for("the task to be evicted", WAIT, || {
        Ok(http.user_task(&id)?.is_none().then_some(()))
    })
    .unwrap();
    drop(short);

    // --- Basic auth and TLS.
    eprintln!("step: Basic auth over TLS");
    let secure = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            basic_auth: Some(("admin".into(), "s3cret".into())),
            tls: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(secure.url().starts_with("https://"));
    let anonymous = Http::new(&secure);
    assert_eq!(anonymous.get("state?json=true").status, 401);
    let wrong = Http::with(&secure, Some(("admin", "nope")));
    assert_eq!(wrong.get("state?json=true").status, 401);
    let ok = Http::with(&secure, Some(("admin", "s3cret")));
    let r = ok.get("state?json=true&substates=executor");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["ExecutorState"]["state"], "NO_TASK_IN_PROGRESS");
}

/// Runs `attempt` (given its number, 1 to 3) up to 3 times: a timed behaviour of the double (its
/// warm-up, a task's retention) can be seen only when the answers come inside the window each
/// attempt returns (a later attempt may ask for a longer one), counted from the attempt's start.
/// Returns the first attempt whose check held, or whose answers came inside the window, or the
/// third: the caller asserts the check, so a check that fails inside the window still fails the
/// test.
fn inside_window<T>(what: &str, mut attempt: impl FnMut(u32) -> (bool, Duration, T)) -> (bool, T) {
    let mut n = 1;
    loop {
        let began = Instant::now();
        let (held, window, value) = attempt(n);
        if held || began.elapsed() < window || n == 3 {
            return (held, value);
        }
        eprintln!(
            "{what}: the answers came {:.1?} after the attempt began, past {window:?}: again",
            began.elapsed()
        );
        n += 1;
    }
}

/// add_broker really moves replicas onto the new broker; one execution at a time; executor
/// progress; stop_proposal_execution cancels; a real replication-factor change; goal violations.
#[test]
fn executions_move_real_replicas() {
    let cluster = KafkaCluster::start(ClusterSpec::split(1, 4)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let on_123: Vec<Vec<i32>> = (0..12)
        .map(|i| {
            let a = [1, 2, 3];
            vec![a[i % 3], a[(i + 1) % 3]]
        })
        .collect();
    create_topic(&bootstrap, "orders", &on_123, &[]).unwrap();
    create_topic(&bootstrap, "events", &on_123[..6], &[]).unwrap();
    let topics = ["events", "orders"];
    let before = replicas_per_broker(&bootstrap, &topics);
    assert_eq!(before.get(&4), None, "broker 4 starts empty");

    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(300),
            max_active_tasks: Some(50),
            anomaly_interval_seconds: Some(1),
            // Real Cruise Control checks only anomaly.detection.goals (hard goals by default).
            anomaly_detection_goals: Some(vec![
                "RackAwareGoal".into(),
                "ReplicaDistributionGoal".into(),
                "LeaderReplicaDistributionGoal".into(),
            ]),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let http = Http::new(&cc);

    eprintln!("step: the skew (broker 4 empty) is reported as a goal violation");
    let violation = wait_for("a goal violation", WAIT, || {
        let s = http
            .get("state?json=true&substates=anomaly_detector")
            .json();
        Ok(s["AnomalyDetectorState"]["recentGoalViolations"]
            .as_array()
            .and_then(|a| a.first().cloned()))
    })
    .unwrap();
    assert!(violation["anomalyId"].as_str().unwrap().len() >= 32);
    assert_eq!(
        violation["status"], "IGNORED",
        "self-healing is off by default"
    );
    assert!(violation["detectionMs"].is_u64());
    assert!(
        violation["fixableViolatedGoals"]
            .as_array()
            .unwrap()
            .contains(&Value::from("ReplicaDistributionGoal")),
        "{violation}"
    );

    eprintln!("step: add_broker dry run changes nothing");
    let dry = http.post("add_broker?json=true&brokerid=4&verbose=true");
    assert_eq!(dry.status, 200, "{}", dry.text);
    let dry = dry.json();
    let moves = dry["summary"]["numReplicaMovements"].as_u64().unwrap();
    assert!(
        moves >= 8,
        "36 replicas over 4 brokers: about 9 should move, got {moves}"
    );
    for p in dry["proposals"].as_array().unwrap() {
        let old: BTreeSet<i64> = p["oldReplicas"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        let new: BTreeSet<i64> = p["newReplicas"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        for added in new.difference(&old) {
            assert_eq!(
                *added, 4,
                "add_broker moves replicas only onto broker 4: {p}"
            );
        }
    }
    assert_eq!(
        replicas_per_broker(&bootstrap, &topics),
        before,
        "dryrun=true is the default"
    );

    eprintln!("step: add_broker dryrun=false, one replica movement at a time");
    let r = http.post("add_broker?json=true&brokerid=4&dryrun=false&concurrent_partition_movements_per_broker=1&reason=test");
    assert_eq!(r.status, 200, "{}", r.text);
    let exec_id = r.task_id.clone().unwrap();
    let busy = http.post("rebalance?json=true&dryrun=false");
    assert_eq!(busy.status, 500, "{}", busy.text);
    assert!(
        busy.error_message()
            .contains("Cannot start a new execution while there is an ongoing execution"),
        "{}",
        busy.text
    );
    // With one movement at a time the execution lasts several executor polls: observe it.
    let ex = wait_for("inter-broker movement in progress", WAIT, || {
        let s = http.get("state?json=true&substates=executor").json();
        let ex = s["ExecutorState"].clone();
        if ex["state"] == "NO_TASK_IN_PROGRESS" {
            return Err(support::kafka::fatal(format!(
                "execution ended before it was observed: {ex}"
            )));
        }
        Ok((ex["state"] == "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS").then_some(ex))
    })
    .unwrap();
    assert_eq!(
        http.user_task(&exec_id).unwrap().unwrap()["Status"],
        "InExecution"
    );
    {
        assert_eq!(ex["triggeredUserTaskId"], exec_id.as_str());
        assert!(
            ex["triggeredTaskReason"]
                .as_str()
                .unwrap()
                .starts_with("test (Client: ")
        );
        assert_eq!(ex["numTotalPartitionMovements"].as_u64(), Some(moves));
        let sum = [
            "numPendingPartitionMovements",
            "numInProgressPartitionMovements",
            "numFinishedPartitionMovements",
        ]
        .iter()
        .map(|k| ex[*k].as_u64().unwrap())
        .sum::<u64>();
        assert_eq!(sum, moves, "pending + in progress + finished = total: {ex}");
        assert!(
            ex["numInProgressPartitionMovements"].as_u64().unwrap() <= 1,
            "concurrency 1 on broker 4"
        );
    }
    let t = http.wait_task(&exec_id, &["Completed", "CompletedWithError"]);
    assert_eq!(t["Status"], "Completed", "{t}\n{}", cc.log());
    wait_for("executor idle", WAIT, || {
        let s = http.get("state?json=true&substates=executor").json();
        Ok((s["ExecutorState"]["state"] == "NO_TASK_IN_PROGRESS").then_some(()))
    })
    .unwrap();
    let after = replicas_per_broker(&bootstrap, &topics);
    eprintln!("replicas per broker before {before:?} after {after:?}");
    assert!(
        after.get(&4).copied().unwrap_or(0) >= 8,
        "broker 4 got replicas: {after:?}"
    );
    assert_eq!(
        after.values().sum::<usize>(),
        36,
        "no replica lost or added"
    );
    let (max, min) = (after.values().max().unwrap(), after.values().min().unwrap());
    assert!(max - min <= 1, "balanced replica counts: {after:?}");
    for p in placement(&bootstrap, "orders").unwrap() {
        assert_eq!(p.isr.len(), 2, "ISR complete after the move: {p:?}");
    }

    eprintln!("step: stop_proposal_execution cancels a running remove_broker");
    let r = http.post("remove_broker?json=true&brokerid=4&dryrun=false&concurrent_partition_movements_per_broker=1");
    assert_eq!(r.status, 200, "{}", r.text);
    let remove_id = r.task_id.unwrap();
    let stop = http.post("stop_proposal_execution?json=true");
    assert_eq!(stop.status, 200);
    assert_eq!(stop.json()["message"], "Proposal execution stopped.");
    let t = http.wait_task(&remove_id, &["Completed", "CompletedWithError"]);
    assert_eq!(
        t["Status"], "CompletedWithError",
        "a stopped execution ends with an error: {t}"
    );
    let stopped = replicas_per_broker(&bootstrap, &topics);
    assert!(
        stopped.get(&4).copied().unwrap_or(0) > 0,
        "the removal did not run to the end: {stopped:?}"
    );

    eprintln!("step: topic_configuration changes the replication factor for real");
    let r =
        http.post("topic_configuration?json=true&topic=events&replication_factor=3&dryrun=false");
    assert_eq!(r.status, 200, "{}", r.text);
    let rf_id = r.task_id.unwrap();
    let t = http.wait_task(&rf_id, &["Completed", "CompletedWithError"]);
    assert_eq!(t["Status"], "Completed", "{t}\n{}", cc.log());
    for p in placement(&bootstrap, "events").unwrap() {
        assert_eq!(p.replicas.len(), 3, "RF 3 after the change: {p:?}");
        assert_eq!(p.replicas.iter().collect::<BTreeSet<_>>().len(), 3);
    }

    eprintln!("step: self-healing fixes a goal violation with a real rebalance");
    create_topic(&bootstrap, "skew", &vec![vec![1, 2]; 8], &[]).unwrap();
    let healer = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            self_healing: true,
            anomaly_interval_seconds: Some(1),
            // Real Cruise Control checks only anomaly.detection.goals (hard goals by default).
            anomaly_detection_goals: Some(vec![
                "RackAwareGoal".into(),
                "ReplicaDistributionGoal".into(),
                "LeaderReplicaDistributionGoal".into(),
            ]),
            task_scan_millis: Some(300),
            max_active_tasks: Some(50),
            ..Default::default()
        },
    )
    .expect("self-healing cc-double");
    let http = Http::new(&healer);
    let fix = wait_for("a goal violation whose fix started", WAIT, || {
        let s = http
            .get("state?json=true&substates=anomaly_detector")
            .json();
        Ok(s["AnomalyDetectorState"]["recentGoalViolations"]
            .as_array()
            .and_then(|a| a.iter().find(|v| v["status"] == "FIX_STARTED").cloned()))
    })
    .unwrap();
    eprintln!("anomaly {fix}");
    wait_for("the self-healing rebalance to end", WAIT, || {
        let s = http.get("state?json=true").json();
        let idle = s["ExecutorState"]["state"] == "NO_TASK_IN_PROGRESS"
            && s["AnomalyDetectorState"]
                .get("ongoingSelfHealingAnomaly")
                .is_none();
        Ok(idle.then_some(s))
    })
    .map(|s| {
        assert!(
            s["AnomalyDetectorState"]["metrics"]["numSelfHealingStarted"]
                .as_u64()
                .unwrap()
                >= 1
        )
    })
    .unwrap();
    let healed = replicas_per_broker(&bootstrap, &["events", "orders", "skew"]);
    let (max, min) = (
        healed.values().max().unwrap(),
        healed.values().min().unwrap(),
    );
    assert!(
        max - min <= 1,
        "self-healing balanced the replica counts: {healed:?}\n{}",
        healer.log()
    );
}

/// `topic_configuration` as section 13 of the reference records it from a real Cruise Control
/// (racks a,b,c,a as there): one step per recorded point.
#[test]
fn topic_configuration_answers_as_recorded_from_a_real_cruise_control() {
    let cluster = KafkaCluster::start(ClusterSpec::combined(4).with_racks(["a", "b", "c", "a"]))
        .expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    // 12 partitions RF 3 (the recorded decrease), a look-alike, and an RF 1 topic to increase.
    let rf3: Vec<Vec<i32>> = (0..12)
        .map(|i| vec![1 + i % 3, 1 + (i + 1) % 3, 1 + (i + 2) % 3])
        .collect();
    create_topic(&bootstrap, "orders", &rf3, &[]).unwrap();
    create_topic(&bootstrap, "orders2", &rf3[..2], &[]).unwrap();
    let rf1: Vec<Vec<i32>> = (0..4).map(|i| vec![1 + i % 4]).collect();
    create_topic(&bootstrap, "skew", &rf1, &[]).unwrap();
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let http = Http::new(&cc);
    let body = |b: &str, q: &str| {
        http.send(
            "POST",
            &format!("topic_configuration?json=true{q}"),
            None,
            Some(b),
        )
        .unwrap()
    };

    eprintln!("point: the body form carries several factors in one request");
    let r = body(
        r#"{"replication_factor":{"topic_by_replication_factor":{"2":"orders","3":"skew"}}}"#,
        "",
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.task_id.is_some());
    assert_eq!(
        r.json()["summary"]["numReplicaMovements"],
        12 + 2 * 4,
        "{}",
        r.text
    );
    for key in ["summary", "goalSummary", "loadAfterOptimization", "version"] {
        assert!(r.json().get(key).is_some(), "{key} in {}", r.text);
    }

    eprintln!("point: the pattern must match whole topic names");
    let r = http.post("topic_configuration?json=true&topic=ord&replication_factor=2");
    assert_eq!(r.status, 500);
    assert!(
        r.error_message()
            .contains("There is no topic in cluster matching pattern 'ord'."),
        "{}",
        r.text
    );
    let r = http.post("topic_configuration?json=true&topic=ord.*&replication_factor=2");
    assert_eq!(r.status, 200, "{}", r.text);
    let r = http.post("topic_configuration?json=true&topic=orders%7Cskew&replication_factor=2");
    assert_eq!(r.status, 200, "{}", r.text);

    eprintln!("point: the two recorded 400s");
    let r = body(
        r#"{"replication_factor":{"topic_by_replication_factor":{"2":"orders"}}}"#,
        "&topic=orders&replication_factor=2",
    );
    assert_eq!(r.status, 400);
    assert!(
        r.text.contains("Requesting topic replication factor change from both HTTP request parameter and body is forbidden."),
        "{}",
        r.text
    );
    let r = http.post("topic_configuration?json=true&topic=orders");
    assert_eq!(r.status, 400);
    assert!(
        r.text.contains(
            "Topic's replication factor is not specified in URL while subject topic is specified."
        ),
        "{}",
        r.text
    );

    eprintln!("point: a decrease counts deleted replicas as replica movements, leaders kept");
    let r = http.post("topic_configuration?json=true&topic=orders&replication_factor=2");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["summary"]["numReplicaMovements"], 12, "{}", r.text);
    assert_eq!(r.json()["summary"]["numLeaderMovements"], 0, "{}", r.text);

    eprintln!("point: already at the target is an error naming the pattern by factor");
    let r = http.post("topic_configuration?json=true&topic=orders&replication_factor=3");
    assert_eq!(r.status, 500);
    assert!(
        r.error_message()
            .contains("All topics matching given pattern already have target replication factor")
            && r.error_message()
                .contains("Requested topic pattern by replication factor: {3=orders}."),
        "{}",
        r.text
    );

    eprintln!("point: a factor above the live broker count answers 500");
    let r = http.post("topic_configuration?json=true&topic=skew&replication_factor=5");
    assert_eq!(r.status, 500, "{}", r.text);
    assert!(r.task_id.is_some());
    assert!(r.error_message().contains("alive brokers"), "{}", r.text);

    eprintln!(
        "point: an increase runs a replica phase then a leader phase, new replicas rack-distinct"
    );
    let r = http.post(
        "topic_configuration?json=true&topic=skew&replication_factor=3&dryrun=false&skip_rack_awareness_check=false",
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let id = r.task_id.unwrap();
    let t = http.wait_task(&id, &["Completed", "CompletedWithError"]);
    assert_eq!(t["Status"], "Completed", "{t}\n{}", cc.log());
    let log = cc.log();
    let replica = log
        .find(&format!(
            "execution {id} phase INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS"
        ))
        .unwrap_or_else(|| panic!("no replica phase:\n{log}"));
    let leader = log
        .find(&format!(
            "execution {id} phase LEADER_MOVEMENT_TASK_IN_PROGRESS"
        ))
        .unwrap_or_else(|| panic!("no leader phase:\n{log}"));
    assert!(replica < leader, "replica phase first:\n{log}");
    let rack = |b: i32| {
        if b == 1 || b == 4 {
            "a"
        } else if b == 2 {
            "b"
        } else {
            "c"
        }
    };
    for p in placement(&bootstrap, "skew").unwrap() {
        assert_eq!(p.replicas.len(), 3, "{p:?}");
        let racks: BTreeSet<&str> = p.replicas.iter().map(|b| rack(*b)).collect();
        assert_eq!(racks.len(), 3, "rack-distinct replicas: {p:?}");
    }
    for p in placement(&bootstrap, "orders2").unwrap() {
        assert_eq!(p.replicas.len(), 3, "the look-alike is untouched: {p:?}");
    }
}

/// Placement of `topics` from Kafka: (topic, partition) -> replicas.
fn placement_of(bootstrap: &str, topics: &[&str]) -> BTreeMap<(String, i32), Vec<i32>> {
    let mut m = BTreeMap::new();
    for t in topics {
        let parts = wait_for(&format!("placement of {t}"), WAIT, || {
            placement(bootstrap, t).map(Some)
        })
        .unwrap();
        for p in parts {
            m.insert(((*t).to_string(), p.partition), p.replicas);
        }
    }
    m
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

/// Each point of reference section 13 ("Observed on a real Cruise Control server") as one step, so
/// the double cannot drift back: MonitorState while warming up / running / LOADING, empty per-broker
/// maps, `load`, host capacity fields, number types, `excludedBrokersForLeadership`, the 202
/// `operation` sentence, balancedness from the model, the real error statuses and bare 400 texts,
/// hard goals enforced without a partial proposal, and the executor's counters (steps, gone in the
/// leader phase, only `state` when idle). 4 combined nodes on racks a,b,c,a.
#[test]
fn fidelity_to_a_real_cruise_control_section_13() {
    let cluster = KafkaCluster::start(ClusterSpec::combined(4).with_racks(["a", "b", "c", "a"]))
        .expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    // RF 3 on racks a,b,c (brokers 1,2,3): broker 2 is rack b's only broker.
    let rf3: Vec<Vec<i32>> = (0..6)
        .map(|i| {
            let a = [1, 2, 3];
            vec![a[i % 3], a[(i + 1) % 3], a[(i + 2) % 3]]
        })
        .collect();
    create_topic(&bootstrap, "orders", &rf3, &[]).unwrap();
    // Skewed RF 1 topic: every replica and leader on broker 1.
    let skew: Vec<Vec<i32>> = (0..24).map(|_| vec![1]).collect();
    create_topic(&bootstrap, "skew", &skew, &[]).unwrap();
    let topics = ["orders", "skew"];

    // Step 13.1 is checked only when its answer came inside the warm-up, which starts with the
    // double's JVM: at load 25-45 the first answer came 19-21 s after the start. Then a new
    // double is started with twice the warm-up, up to 3 times (10, 20, 40 s).
    let (warming, (cc, m)) = inside_window("the first warm-up", |n| {
        let warmup = Duration::from_secs(10 << (n - 1));
        let cc = CcDouble::start(
            &bootstrap,
            CcDoubleOptions {
                warmup_seconds: warmup.as_secs(),
                task_scan_millis: Some(300),
                max_active_tasks: Some(50),
                extra_args: vec!["--progress-step-millis".into(), "1500".into()],
                ..Default::default()
            },
        )
        .expect("cc-double");
        eprintln!(
            "step 13.1: MonitorState while warming up: numTotalPartitions 0, no progress percentages"
        );
        let m = Http::new(&cc)
            .get("state?json=true&substates=monitor")
            .json()["MonitorState"]
            .clone();
        let held = m["numTotalPartitions"] == 0;
        (held, warmup, (cc, m))
    });
    assert!(warming, "{m}");
    let http = Http::new(&cc);
    assert_eq!(m["state"], "RUNNING", "{m}");
    assert_eq!(m["numTotalPartitions"], 0, "{m}");
    assert_eq!(m["numValidPartitions"], 0, "{m}");
    wait_for("proposal readiness", WAIT, || {
        let s = http.get("state?json=true&substates=analyzer").json();
        Ok((s["AnalyzerState"]["isProposalReady"] == true).then_some(()))
    })
    .unwrap();
    eprintln!(
        "step 13.2: MonitorState when RUNNING: no bootstrap/loading percentages; verbose windows"
    );
    let m = http
        .get("state?json=true&substates=monitor&verbose=true")
        .json()["MonitorState"]
        .clone();
    assert_eq!(m["numTotalPartitions"], 30, "6 + 24 partitions: {m}");
    assert!(m.get("bootstrapProgressPct").is_none(), "{m}");
    assert!(m.get("loadingProgressPct").is_none(), "{m}");
    let windows = m["monitoredWindows"]
        .as_object()
        .expect("monitoredWindows map");
    assert!(!windows.is_empty(), "{m}");
    for (start, cov) in windows {
        assert!(start.parse::<u64>().is_ok() && cov.is_f64(), "{m}");
    }

    eprintln!("step 13.3: kafka_cluster_state: per-broker zero counts are absent ({{}})");
    let k = http.get("kafka_cluster_state?json=true").json();
    assert_eq!(
        k["KafkaBrokerState"]["OfflineReplicaCountByBrokerId"],
        serde_json::json!({})
    );
    assert_eq!(
        k["KafkaBrokerState"]["OutOfSyncCountByBrokerId"],
        serde_json::json!({})
    );

    eprintln!(
        "step 13.4: load answers 200 with brokers and hosts (capacity fields, NumCore float)"
    );
    let r = http.get("load?json=true");
    assert_eq!(r.status, 200, "{}", r.text);
    let load = r.json();
    assert_eq!(load["brokers"].as_array().unwrap().len(), 4, "{load}");
    let check_hosts = |stats: &Value| {
        let hosts = stats["hosts"].as_array().expect("hosts[]");
        assert!(!hosts.is_empty(), "{stats}");
        for h in hosts {
            for f in [
                "NumCore",
                "DiskCapacityMB",
                "NetworkInCapacity",
                "NetworkOutCapacity",
            ] {
                assert!(h[f].is_f64(), "hosts[].{f} in {h}");
            }
            assert!(h["Rack"].is_string(), "{h}");
        }
        for b in stats["brokers"].as_array().unwrap() {
            assert!(b["NumCore"].is_f64(), "brokers[].NumCore is a float: {b}");
        }
    };
    check_hosts(&load);
    let leaders_on_1 = load["brokers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["Broker"] == 1)
        .unwrap()["Leaders"]
        .as_u64()
        .unwrap();
    assert!(
        leaders_on_1 >= 24,
        "load reflects the real placement: {load}"
    );

    eprintln!("step 13.5: optimization results: number types, balancedness from the model");
    let p = http.get("proposals?json=true&verbose=true").json();
    check_hosts(&p["loadAfterOptimization"]);
    check_hosts(&p["loadBeforeOptimization"]);
    for g in p["goalSummary"].as_array().unwrap() {
        let st = &g["clusterModelStats"]["statistics"];
        for kind in ["MIN", "MAX"] {
            for f in ["replicas", "leaderReplicas", "topicReplicas"] {
                assert!(st[kind][f].is_u64(), "{kind}.{f} is an integer: {st}");
            }
        }
        assert!(st["AVG"]["replicas"].is_f64(), "{st}");
    }
    let before = p["summary"]["onDemandBalancednessScoreBefore"]
        .as_f64()
        .unwrap();
    let after = p["summary"]["onDemandBalancednessScoreAfter"]
        .as_f64()
        .unwrap();
    // Ground truth: broker 1 holds all of "skew" (Kafka metadata), so the cluster is not balanced.
    let counts = replicas_per_broker(&bootstrap, &topics);
    assert!(
        counts[&1] > counts.get(&4).copied().unwrap_or(0) + 20,
        "{counts:?}"
    );
    assert!(
        before < 100.0 && before > 0.0,
        "a skewed cluster is not 100 balanced: {before}"
    );
    assert!(
        after > before,
        "the proposal improves the score: {before} -> {after}"
    );

    eprintln!("step 13.6: remove_broker: excludedBrokersForLeadership is [] unless asked");
    let r = http.post("remove_broker?json=true&brokerid=4&dryrun=true");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["summary"]["excludedBrokersForLeadership"],
        serde_json::json!([])
    );

    eprintln!("step 13.7: errors: statuses and bare texts");
    let r = http.post("rebalance?json=true&dryrun=true&goals=NoSuchGoal");
    assert_eq!(r.status, 500, "{}", r.text);
    assert!(r.task_id.is_some(), "an invalid goal gets a User-Task-ID");
    assert!(
        r.error_message()
            .contains("Goals [NoSuchGoal] are not supported. Supported: ["),
        "{}",
        r.text
    );
    let bare = |path: &str, method: &str, want: &str| {
        let r = http.send(method, path, None, None).unwrap();
        assert_eq!(r.status, 400, "{path}: {}", r.text);
        assert_eq!(
            r.text.trim(),
            want,
            "{path}: the 400 body is the bare message"
        );
    };
    bare(
        "rebalance?dryrun=true&concurrent_partition_movements_per_broker=abc",
        "POST",
        "For input string: \"abc\"",
    );
    bare(
        "add_broker?dryrun=true",
        "POST",
        "Target broker ID is not provided for ADD_BROKER request",
    );
    bare(
        "rebalance?dryrun=true&stop_ongoing_execution=true",
        "POST",
        "stop_ongoing_execution and dryrun cannot both be set to true.",
    );
    bare(
        "rebalance?dryrun=true&concurrent_partition_movements_per_broker=0",
        "POST",
        "The requested movement concurrency must be positive (Requested: 0).",
    );
    let r = http.get("state?substates=nope");
    assert_eq!(r.status, 400);
    assert!(
        r.text.starts_with("Unsupported substates in [nope]"),
        "{}",
        r.text
    );
    let r = http.post("remove_broker?json=true&brokerid=99&dryrun=true");
    assert_eq!(r.status, 500);
    assert!(
        r.error_message().contains("Broker 99 does not exist."),
        "{}",
        r.text
    );
    let r = http.post("add_broker?json=true&brokerid=99&dryrun=true");
    assert_eq!(r.status, 500);
    assert!(
        r.error_message().contains("Broker [99] does not exist."),
        "{}",
        r.text
    );

    eprintln!(
        "step 13.8: a hard goal that cannot be met fails, no partial proposal, nothing moves"
    );
    let placed = placement_of(&bootstrap, &topics);
    for dryrun in ["true", "false"] {
        let r = http.post(&format!(
            "remove_broker?json=true&brokerid=2&dryrun={dryrun}"
        ));
        assert_eq!(r.status, 500, "{}", r.text);
        let msg = r.error_message();
        assert!(
            msg.contains("OptimizationFailureException: [RackAwareGoal] Cannot move Replica[")
                && msg.contains("Add at least 1 broker to a rack other than"),
            "{msg}"
        );
        assert!(
            r.json().get("summary").is_none(),
            "no partial proposal: {}",
            r.text
        );
    }
    let s = http.get("state?json=true&substates=executor").json();
    assert_eq!(s["ExecutorState"]["state"], "NO_TASK_IN_PROGRESS");
    assert_eq!(placement_of(&bootstrap, &topics), placed, "nothing moved");

    eprintln!(
        "step 13.9: executor: counters in steps, gone in the leader phase, only state when idle"
    );
    let r = http.post(
        "rebalance?json=true&dryrun=false&concurrent_partition_movements_per_broker=2&concurrent_leader_movements=1",
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let exec_id = r.task_id.clone().unwrap();
    let started = std::time::Instant::now();
    let mut replica_samples: Vec<Value> = Vec::new();
    let mut leader_samples: Vec<Value> = Vec::new();
    let idle = wait_for("the execution to end", WAIT, || {
        let ex = http.get("state?json=true&substates=executor").json()["ExecutorState"].clone();
        match ex["state"].as_str().unwrap_or("") {
            "NO_TASK_IN_PROGRESS" => return Ok(Some(ex)),
            "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS" => replica_samples.push(ex),
            "LEADER_MOVEMENT_TASK_IN_PROGRESS" => leader_samples.push(ex),
            _ => {}
        }
        std::thread::sleep(Duration::from_millis(40));
        Ok(None)
    })
    .unwrap();
    let elapsed = started.elapsed();
    assert_eq!(
        keys(&idle),
        BTreeSet::from(["state".to_string()]),
        "idle: only state: {idle}"
    );
    assert!(
        !replica_samples.is_empty(),
        "replica phase observed\n{}",
        cc.log()
    );
    assert!(
        !leader_samples.is_empty(),
        "leader phase observed\n{}",
        cc.log()
    );
    for ex in &leader_samples {
        assert!(
            ex.get("numTotalPartitionMovements").is_none()
                && ex.get("numFinishedPartitionMovements").is_none(),
            "partition counters disappear in the leader phase: {ex}"
        );
    }
    let counter = |ex: &Value| {
        (
            ex["numFinishedPartitionMovements"].as_u64(),
            ex["numPendingPartitionMovements"].as_u64(),
            ex["numInProgressPartitionMovements"].as_u64(),
        )
    };
    let changes = replica_samples
        .windows(2)
        .filter(|w| counter(&w[0]) != counter(&w[1]))
        .count();
    // Counters refresh every 1.5 s: they cannot change more often than that, however often asked.
    let bound = (elapsed.as_millis() / 1500) as usize + 1;
    assert!(
        changes <= bound && replica_samples.len() > changes + 1,
        "counters move in steps: {changes} changes over {} samples in {elapsed:?}",
        replica_samples.len()
    );
    let t = http.wait_task(&exec_id, &["Completed", "CompletedWithError"]);
    assert_eq!(t["Status"], "Completed", "{t}");
    drop(cc);

    eprintln!("step 13.10: 202 bodies name the operation as a sentence");
    let slow = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            min_compute_millis: Some(2000),
            max_block_millis: Some(200),
            ..Default::default()
        },
    )
    .unwrap();
    let http = Http::new(&slow);
    let r = http.post("add_broker?json=true&brokerid=4&dryrun=true");
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(r.json()["progress"][0]["operation"], "Add brokers");
    drop(slow);

    eprintln!("step 13.11: LOADING after a restart with stored samples");
    let loading = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            extra_args: vec!["--loading-seconds".into(), "60".into()],
            ..Default::default()
        },
    )
    .unwrap();
    let http = Http::new(&loading);
    let m = http.get("state?json=true&substates=monitor").json()["MonitorState"].clone();
    assert_eq!(m["state"], "LOADING", "{m}");
    assert!(m["loadingProgressPct"].is_f64(), "{m}");
    assert_eq!(
        (
            m["numValidPartitions"].clone(),
            m["numTotalPartitions"].clone()
        ),
        (0.into(), 0.into()),
        "{m}"
    );
    let r = http.get("proposals?json=true");
    assert_eq!(r.status, 200, "proposals answer while LOADING: {}", r.text);
    let r = http.post("rebalance?json=true&dryrun=true");
    assert_eq!(
        r.status, 200,
        "dry-run rebalance answers while LOADING: {}",
        r.text
    );
    let r = http.post("add_broker?json=true&brokerid=4&dryrun=true");
    assert_eq!(r.status, 500, "{}", r.text);
    assert!(
        r.error_message()
            .contains("Unable to generate proposal since load monitor is in LOADING state."),
        "{}",
        r.text
    );
}

/// `ExecutorState` now.
fn executor_state(http: &Http) -> Value {
    http.get("state?json=true&substates=executor").json()["ExecutorState"].clone()
}

/// Whether Kafka's controller already refuses a manual placement on `broker` (its log dirs are
/// cordoned; the controller learns it from the broker's heartbeat): a validate-only CreateTopics
/// with the assignment `[[broker]]`, which creates nothing.
pub(crate) fn controller_refuses_placement_on(bootstrap: &str, broker: i32) -> Result<bool> {
    use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
    use rdkafka::client::DefaultClientContext;
    use rdkafka::types::RDKafkaErrorCode;
    let admin: AdminClient<DefaultClientContext> = rdkafka::ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("log_level", "3")
        .create()?;
    let assignment: [&[i32]; 1] = [&[broker]];
    let topic = NewTopic::new("cordon-probe", 1, TopicReplication::Variable(&assignment));
    let opts = AdminOptions::new()
        .validate_only(true)
        .operation_timeout(Some(Duration::from_secs(10)));
    let results = futures::executor::block_on(admin.create_topics([&topic], &opts))?;
    Ok(matches!(
        results.into_iter().next(),
        Some(Err((_, RDKafkaErrorCode::InvalidReplicaAssignment)))
    ))
}

/// The delay before an execution's first move and the linger of a stop, in the double below.
const FIRST_MOVE_DELAY: Duration = Duration::from_secs(2);
const STOP_LINGER: Duration = Duration::from_secs(3);

/// Each point of reference section 14 ("Observed on a real Cruise Control server, second round")
/// as one step, so the double cannot drift from what a real server answers: the error texts with
/// and without exception prefixes, 400 for a bad task id and for `admin` with no action, the
/// self-healing toggle, the leader-concurrency wording, `stackTrace` as a string, the swapped
/// "Unexpected header" text, the review board's 500/400 answers and `RequestInfo` values,
/// `partition_load`, float average concurrency and the leader-phase caps, `recentlyRemovedBrokers`,
/// the executor counting leader-only reorders, `user_tasks` grouped by type, an execution's start
/// delay and a stop that lingers, an RF change that moves other topics' leaders, a down broker as
/// `DEAD` and drained, Kafka refusing moves onto a cordoned broker, and HTTPS with Basic auth and
/// Cruise Control's roles. 4 combined nodes on racks a,b,c,a.
#[test]
fn fidelity_to_a_real_cruise_control_section_14() {
    let mut cluster =
        KafkaCluster::start(ClusterSpec::combined(4).with_racks(["a", "b", "c", "a"]))
            .expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let admin = Admin::connect(&cluster).unwrap();
    // Rack-distinct placements: orders over brokers 1,2,3; r4 with a replica on broker 4; lead has
    // every leader on broker 2 (leader-only moves to propose).
    let orders: Vec<Vec<i32>> = (0..6)
        .map(|i| {
            let a = [1, 2, 3];
            vec![a[i % 3], a[(i + 1) % 3]]
        })
        .collect();
    create_topic(&bootstrap, "orders", &orders, &[]).unwrap();
    let r4: Vec<Vec<i32>> = (0..8)
        .map(|i| vec![4, if i % 2 == 0 { 2 } else { 3 }])
        .collect();
    create_topic(&bootstrap, "r4", &r4, &[]).unwrap();
    create_topic(&bootstrap, "lead", &vec![vec![2, 3]; 6], &[]).unwrap();

    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(300),
            max_active_tasks: Some(50),
            first_move_delay: Some(FIRST_MOVE_DELAY),
            stop_linger: Some(STOP_LINGER),
            extra_args: vec!["--execution-poll-millis".into(), "500".into()],
            ..Default::default()
        },
    )
    .expect("cc-double");
    let http = Http::new(&cc);
    let due_to = |method: &str, endpoint: &str, text: &str| {
        format!("Error processing {method} request '/{endpoint}' due to: '{text}'.")
    };

    eprintln!("step 14.1: error texts as sent, with and without exception prefixes");
    let r = http.post("rebalance?json=true&dryrun=true&goals=NoSuchGoal");
    assert_eq!(r.status, 500, "{}", r.text);
    let msg = r.error_message();
    let head = "com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: \
                java.lang.IllegalArgumentException: Goals [NoSuchGoal] are not supported. Supported: [";
    assert!(msg.contains(head), "{msg}");
    let list = msg
        .split_once("Supported: [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(l, _)| l.split(", ").map(str::to_string).collect::<Vec<_>>())
        .unwrap();
    let mut sorted = list.clone();
    sorted.sort_by_key(|g| g.to_lowercase());
    assert_eq!(list.len(), 22, "the 22 supported goals: {list:?}");
    assert_eq!(list, sorted, "listed alphabetically");
    let r = http.post("add_broker?json=true&brokerid=99&dryrun=true");
    assert_eq!(
        r.error_message(),
        due_to(
            "POST",
            "add_broker",
            "com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: \
             java.lang.IllegalArgumentException: Broker [99] does not exist."
        )
    );
    for (path, text) in [
        (
            "topic_configuration?json=true&topic=ord&replication_factor=2",
            "There is no topic in cluster matching pattern 'ord'.",
        ),
        (
            "topic_configuration?json=true&topic=orders&replication_factor=2",
            "All topics matching given pattern already have target replication factor. \
             Requested topic pattern by replication factor: {2=orders}.",
        ),
    ] {
        let r = http.post(path);
        assert_eq!(r.status, 500, "{}", r.text);
        let m = r.error_message();
        assert!(m.contains(text), "{m}");
        assert!(
            !m.contains("KafkaCruiseControlException") && !m.contains("RuntimeException"),
            "no KafkaCruiseControlException / RuntimeException prefix: {m}"
        );
    }
    let r = http.post("topic_configuration?json=true&topic=orders&replication_factor=5");
    let m = r.error_message();
    assert!(
        m.contains("java.lang.RuntimeException: Unable to change replication factor (RF) of topics [orders] to 5 since there are only 4 alive brokers")
            && !m.contains("IllegalArgumentException"),
        "{m}"
    );

    eprintln!("step 14.2: 400 for a bad task id; stackTrace is a string in 400/403/404 bodies");
    let r = http.get("user_tasks?json=true&user_task_ids=not-a-uuid");
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(r.error_message(), "Invalid UUID string: not-a-uuid");
    for (r, status) in [
        (r, 400),
        (http.get("state?json=true&foo=1"), 400),
        (http.get("review_board?json=true"), 403),
        (http.get("nosuchendpoint?json=true"), 404),
    ] {
        assert_eq!(r.status, status, "{}", r.text);
        assert!(r.json()["stackTrace"].is_string(), "{}", r.text);
    }
    let r = http.get("review_board?json=true");
    assert_eq!(
        r.error_message(),
        "Cannot process GET request '/review_board' due to: 'Attempt to access REVIEW_BOARD \
         endpoint without enabling 'two.step.verification.enabled' config.'."
    );

    eprintln!("step 14.3: a foreign User-Task-ID: header name and value swapped in the text");
    let foreign = "6f1c2b7e-0000-4000-8000-000000000001";
    let r = http
        .send("GET", "proposals?json=true", Some(foreign), None)
        .unwrap();
    assert_eq!(r.status, 500);
    assert_eq!(
        r.error_message(),
        due_to(
            "GET",
            "proposals",
            &format!("Unexpected header {foreign} (value: User-Task-ID) in the request.")
        )
    );

    eprintln!("step 14.4: admin: no action is a 400; the leader-concurrency wording");
    let r = http.post("admin?json=true");
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(r.error_message(), "Nothing executable found in request.");
    let r = http.post("admin?json=true&concurrent_leader_movements=7");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["ongoingConcurrencyChangeRequest"],
        "Cluster Leadership movement concurrency is set to 7\n"
    );

    eprintln!("step 14.5: admin toggles self-healing at runtime");
    let r = http.post("admin?json=true&enable_self_healing_for=goal_violation");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["selfHealingEnabledBefore"],
        serde_json::json!({"GOAL_VIOLATION": false})
    );
    assert_eq!(
        r.json()["selfHealingEnabledAfter"],
        serde_json::json!({"GOAL_VIOLATION": true})
    );
    let ad = http
        .get("state?json=true&substates=anomaly_detector")
        .json()["AnomalyDetectorState"]
        .clone();
    assert!(
        ad["selfHealingEnabled"]
            .as_array()
            .unwrap()
            .contains(&Value::from("GOAL_VIOLATION")),
        "{ad}"
    );
    let r = http.post("admin?json=true&disable_self_healing_for=GOAL_VIOLATION");
    assert_eq!(
        r.json()["selfHealingEnabledAfter"],
        serde_json::json!({"GOAL_VIOLATION": false})
    );
    let r = http.post("admin?json=true&enable_self_healing_for=nope");
    assert_eq!(r.status, 400, "{}", r.text);

    eprintln!("step 14.6: partition_load answers records; a bad resource is a 400");
    let r = http.get("partition_load?json=true&resource=disk");
    assert_eq!(r.status, 200, "{}", r.text);
    let records = r.json()["records"].as_array().unwrap().clone();
    assert_eq!(records.len(), 6 + 8 + 6, "one record per partition");
    for rec in &records {
        for f in [
            "topic",
            "partition",
            "leader",
            "followers",
            "cpu",
            "disk",
            "networkInbound",
            "networkOutbound",
            "msg_in",
        ] {
            assert!(rec.get(f).is_some(), "{f} in {rec}");
        }
    }
    let rec = records
        .iter()
        .find(|r| r["topic"] == "lead" && r["partition"] == 0)
        .unwrap();
    assert_eq!(
        (rec["leader"].clone(), rec["followers"].clone()),
        (2.into(), serde_json::json!([3])),
        "records reflect the real placement: {rec}"
    );
    let r = http.get("partition_load?json=true&resource=foo");
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.error_message().starts_with("Invalid resource type foo."),
        "{}",
        r.text
    );

    eprintln!(
        "step 14.7: the executor counts leader-only reorders as partition movements; \
         balancedness from the model; the leader phase's per-broker (250) and cluster (1000) caps; \
         an execution starts in STARTING_EXECUTION and moves after the configured delay"
    );
    let dry = http.post("rebalance?json=true&dryrun=true&verbose=true");
    assert_eq!(dry.status, 200, "{}", dry.text);
    let dry = dry.json();
    let (before, after) = (
        dry["summary"]["onDemandBalancednessScoreBefore"]
            .as_f64()
            .unwrap(),
        dry["summary"]["onDemandBalancednessScoreAfter"]
            .as_f64()
            .unwrap(),
    );
    assert!(
        before > 0.0 && before < after && after <= 100.0,
        "{before} -> {after}"
    );
    let ints = |v: &Value| -> Vec<i64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect()
    };
    let proposals = dry["proposals"].as_array().unwrap();
    let list_changes = proposals
        .iter()
        .filter(|p| ints(&p["oldReplicas"]) != ints(&p["newReplicas"]))
        .count();
    let set_changes = proposals
        .iter()
        .filter(|p| {
            ints(&p["oldReplicas"]).into_iter().collect::<BTreeSet<_>>()
                != ints(&p["newReplicas"]).into_iter().collect::<BTreeSet<_>>()
        })
        .count();
    assert!(
        list_changes > set_changes,
        "the proposal has leader-only reorders: {list_changes} list changes, {set_changes} set changes"
    );
    let asked = std::time::Instant::now();
    let r = http.post("rebalance?json=true&dryrun=false");
    assert_eq!(r.status, 200, "{}", r.text);
    let rebalance_id = r.task_id.clone().unwrap();
    let ex = executor_state(&http);
    let still_starting = admin.reassignments().unwrap().is_empty();
    assert_eq!(ex["state"], "STARTING_EXECUTION", "{ex}");
    assert!(
        keys(&ex).is_subset(&BTreeSet::from(
            [
                "state",
                "triggeredUserTaskId",
                "triggeredSelfHealingTaskId",
                "triggeredTaskReason"
            ]
            .map(String::from)
        )),
        "STARTING_EXECUTION carries no counters: {ex}"
    );
    assert!(
        still_starting || executor_state(&http)["state"] != "STARTING_EXECUTION",
        "nothing moves before the first-move delay"
    );
    let mut replica_phase: Vec<Value> = Vec::new();
    let mut leader_phase: Vec<Value> = Vec::new();
    let mut first_move: Option<Duration> = None;
    // Sampled without back-off: a leader batch lasts about one executor poll (500 ms here).
    loop {
        assert!(
            asked.elapsed() < WAIT,
            "the rebalance did not end\n{}",
            cc.log()
        );
        let ex = executor_state(&http);
        match ex["state"].as_str().unwrap_or("") {
            "NO_TASK_IN_PROGRESS" => break,
            "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS" => {
                first_move.get_or_insert(asked.elapsed());
                replica_phase.push(ex);
            }
            "LEADER_MOVEMENT_TASK_IN_PROGRESS" => leader_phase.push(ex),
            _ => {}
        }
        std::thread::sleep(Duration::from_millis(40));
    }
    let first_move = first_move.expect("a replica phase");
    assert!(
        first_move >= FIRST_MOVE_DELAY,
        "the first move came {first_move:?} after the request"
    );
    for ex in &replica_phase {
        assert_eq!(
            ex["numTotalPartitionMovements"].as_u64(),
            Some(list_changes as u64),
            "reorders count as partition movements: {ex}"
        );
        assert!(
            ex["averageConcurrentPartitionMovementsPerBroker"].is_f64(),
            "a float: {ex}"
        );
    }
    assert!(!leader_phase.is_empty(), "leader phase observed");
    for ex in &leader_phase {
        assert_eq!(ex["maximumBrokerLeaderMovementConcurrency"], 250, "{ex}");
        assert_eq!(ex["minimumBrokerLeaderMovementConcurrency"], 250, "{ex}");
        assert!(
            ex["averageBrokerLeaderMovementConcurrency"].is_f64(),
            "{ex}"
        );
        assert_eq!(ex["clusterLeaderMovementConcurrency"], 1000, "{ex}");
    }
    let t = http.wait_task(&rebalance_id, &["Completed", "CompletedWithError"]);
    assert_eq!(t["Status"], "Completed", "{t}\n{}", cc.log());

    eprintln!(
        "step 14.8: recentlyRemovedBrokers during and after a removal; a stop lingers in \
         STOPPING_EXECUTION, during which a new execution is refused"
    );
    let r = http.post(
        "remove_broker?json=true&brokerid=4&dryrun=false&concurrent_partition_movements_per_broker=1",
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let remove_id = r.task_id.clone().unwrap();
    assert_eq!(
        executor_state(&http)["recentlyRemovedBrokers"],
        serde_json::json!([4]),
        "during the removal"
    );
    wait_for("the removal's replica phase", WAIT, || {
        let ex = executor_state(&http);
        if ex["state"] == "NO_TASK_IN_PROGRESS" {
            return Err(support::kafka::fatal(format!("the removal ended: {ex}")));
        }
        Ok((ex["state"] == "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS").then_some(()))
    })
    .unwrap();
    let busy = http.post("rebalance?json=true&dryrun=false");
    assert_eq!(
        busy.error_message(),
        due_to(
            "POST",
            "rebalance",
            "java.lang.IllegalStateException: Cannot start a new execution while there is an \
             ongoing execution. Please use stop_ongoing_execution=true to stop ongoing execution \
             and start a new one."
        )
    );
    let stop = http.post("stop_proposal_execution?json=true");
    assert_eq!(stop.status, 200, "{}", stop.text);
    let mut seen = BTreeSet::new();
    let stopping = wait_for("STOPPING_EXECUTION", WAIT, || {
        let ex = executor_state(&http);
        let state = ex["state"].as_str().unwrap_or("").to_string();
        seen.insert(state.clone());
        Ok((state == "STOPPING_EXECUTION").then_some(ex))
    })
    .unwrap();
    let stopping_seen = std::time::Instant::now();
    assert!(
        seen.iter()
            .all(|s| s == "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS"
                || s == "STOPPING_EXECUTION"),
        "the replica phase shows until the stop is noticed: {seen:?}"
    );
    for k in [
        "numCancelledPartitionMovements",
        "numInProgressPartitionMovements",
        "abortingPartitions",
        "numCancelledLeadershipMovements",
        "maximumConcurrentPartitionMovementsPerBroker",
        "clusterLeaderMovementConcurrency",
    ] {
        assert!(stopping.get(k).is_some(), "{k} in {stopping}");
    }
    assert!(
        stopping.get("numTotalPartitionMovements").is_none(),
        "{stopping}"
    );
    assert_eq!(
        http.user_task(&remove_id).unwrap().unwrap()["Status"],
        "InExecution",
        "the stopped task ends only when the executor is idle"
    );
    let r = http.post("rebalance?json=true&dryrun=false");
    assert!(
        r.status == 500 && r.error_message().contains("Cannot start a new execution"),
        "a new execution while stopping: {}",
        r.text
    );
    let idle = wait_for("the executor to be idle", WAIT, || {
        let ex = executor_state(&http);
        Ok((ex["state"] == "NO_TASK_IN_PROGRESS").then_some(ex))
    })
    .unwrap();
    let lingered = stopping_seen.elapsed();
    assert!(
        lingered + Duration::from_millis(1000) >= STOP_LINGER,
        "STOPPING_EXECUTION lasted {lingered:?}"
    );
    let t = http.wait_task(&remove_id, &["Completed", "CompletedWithError"]);
    assert_eq!(t["Status"], "CompletedWithError", "{t}");
    assert_eq!(
        idle["recentlyRemovedBrokers"],
        serde_json::json!([4]),
        "after the removal, however it ended: {idle}"
    );
    let r = http.post("admin?json=true&drop_recently_removed_brokers=4");
    assert_eq!(
        r.json()["dropRecentBrokersRequest"],
        "Dropped recently removed brokers (requested: [4] after-dropping: []).\n"
    );
    assert_eq!(
        keys(&executor_state(&http)),
        BTreeSet::from(["state".to_string()])
    );

    eprintln!("step 14.9: an RF change also moves other topics' leaders (read back from Kafka)");
    // Every leader of skewlead on broker 1 (racks a, c): the change of rfx evens them out too.
    create_topic(&bootstrap, "skewlead", &vec![vec![1, 3]; 8], &[]).unwrap();
    create_topic(&bootstrap, "rfx", &[vec![2], vec![3]], &[]).unwrap();
    let r = http.post("topic_configuration?json=true&topic=rfx&replication_factor=2&verbose=true");
    assert_eq!(r.status, 200, "{}", r.text);
    let others: Vec<Value> = r.json()["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["topicPartition"]["topic"] != "rfx")
        .cloned()
        .collect();
    assert!(
        !others.is_empty(),
        "leader moves on other topics: {}",
        r.text
    );
    for p in &others {
        assert_ne!(p["oldLeader"], p["newReplicas"][0], "a leader move: {p}");
        assert_eq!(
            ints(&p["oldReplicas"]).into_iter().collect::<BTreeSet<_>>(),
            ints(&p["newReplicas"]).into_iter().collect::<BTreeSet<_>>(),
            "leadership only: {p}"
        );
    }
    let r = http.post("topic_configuration?json=true&topic=rfx&replication_factor=2&dryrun=false");
    assert_eq!(r.status, 200, "{}", r.text);
    let t = http.wait_task(&r.task_id.unwrap(), &["Completed", "CompletedWithError"]);
    assert_eq!(t["Status"], "Completed", "{t}\n{}", cc.log());
    for p in &others {
        let topic = p["topicPartition"]["topic"].as_str().unwrap();
        let partition = p["topicPartition"]["partition"].as_i64().unwrap();
        let want = p["newReplicas"][0].as_i64().unwrap();
        wait_for(&format!("{topic}-{partition} led by {want}"), WAIT, || {
            Ok(placement(&bootstrap, topic)?
                .iter()
                .any(|x| i64::from(x.partition) == partition && i64::from(x.leader) == want)
                .then_some(()))
        })
        .unwrap();
    }

    eprintln!("step 14.10: user_tasks lists tasks grouped by type, not by start time");
    let a1 = http
        .post("rebalance?json=true&dryrun=true&reason=a1")
        .task_id
        .unwrap();
    let m1 = http.get("kafka_cluster_state?json=true").task_id.unwrap();
    let a2 = http
        .post("rebalance?json=true&dryrun=true&reason=a2")
        .task_id
        .unwrap();
    for id in [&a1, &m1, &a2] {
        http.wait_task(id, &["Completed"]);
    }
    let listed: Vec<String> = http.get("user_tasks?json=true").json()["userTasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["UserTaskId"].as_str().map(str::to_string))
        .filter(|id| [&a1, &m1, &a2].contains(&id))
        .collect();
    let pos = |id: &str| listed.iter().position(|x| x == id).unwrap();
    assert_eq!(
        pos(&a2).abs_diff(pos(&a1)),
        1,
        "the two rebalances are listed together: {listed:?}"
    );
    assert_ne!(
        listed,
        vec![a1.clone(), m1.clone(), a2.clone()],
        "not in start order"
    );

    eprintln!("step 14.11: a broker that is down shows as DEAD and rebalance drains it");
    create_topic(&bootstrap, "on4", &[vec![4, 2], vec![4, 3]], &[]).unwrap();
    cluster.stop_node(4).unwrap();
    wait_for("broker 4 to be gone from the metadata", WAIT, || {
        let load = http.get("load?json=true").json();
        Ok(load["brokers"].as_array().and_then(|b| {
            b.iter()
                .find(|b| b["Broker"] == 4 && b["BrokerState"] == "DEAD")
                .map(|_| ())
        }))
    })
    .unwrap();
    let dry = http.post("rebalance?json=true&dryrun=true&verbose=true");
    assert_eq!(dry.status, 200, "{}", dry.text);
    let dry = dry.json();
    let drained: Vec<&Value> = dry["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| ints(&p["oldReplicas"]).contains(&4))
        .collect();
    assert!(
        drained
            .iter()
            .any(|p| p["topicPartition"]["topic"] == "on4"),
        "{dry}"
    );
    for p in dry["proposals"].as_array().unwrap() {
        assert!(!ints(&p["newReplicas"]).contains(&4), "drained: {p}");
    }
    let k = http.get("kafka_cluster_state?json=true").json();
    assert!(
        k["KafkaBrokerState"]["OfflineReplicaCountByBrokerId"]["4"]
            .as_u64()
            .unwrap_or(0)
            > 0,
        "{k}"
    );
    cluster.start_node(4).unwrap();
    cluster.wait_until_unfenced(4, WAIT).unwrap();
    wait_for("on4 back in sync", WAIT, || {
        Ok(placement(&bootstrap, "on4")?
            .iter()
            .all(|p| p.isr.len() == 2)
            .then_some(()))
    })
    .unwrap();

    eprintln!(
        "step 14.12: Kafka refuses moves onto a cordoned broker: the task ends CompletedWithError, \
         nothing moved"
    );
    let fill: Vec<Vec<i32>> = (0..9).map(|i| vec![1 + i % 3]).collect();
    create_topic(&bootstrap, "fill", &fill, &[]).unwrap();
    // A fresh client: the old one's connection to broker 4 predates its restart. Broker 4 applies
    // the change itself, so retry until it is reachable again.
    let admin = Admin::connect(&cluster).unwrap();
    wait_for("broker 4 to take its cordon", WAIT, || {
        admin
            .alter(
                ConfigTarget::Broker(4),
                vec![ConfigChange::set("cordoned.log.dirs", "*")],
            )
            .map(Some)
    })
    .unwrap();
    wait_for("the controller to know broker 4 is cordoned", WAIT, || {
        Ok(controller_refuses_placement_on(&bootstrap, 4)?.then_some(()))
    })
    .unwrap();
    let r = http.post("add_broker?json=true&brokerid=4&dryrun=true");
    assert!(
        r.json()["summary"]["numReplicaMovements"].as_u64().unwrap() > 0,
        "{}",
        r.text
    );
    let all = ["orders", "r4", "lead", "skewlead", "rfx", "on4", "fill"];
    // Replica sets: a leader-only reorder of replicas already on broker 4 moves no replica.
    let sets = |bootstrap: &str| -> BTreeMap<(String, i32), BTreeSet<i32>> {
        placement_of(bootstrap, &all)
            .into_iter()
            .map(|(k, v)| (k, v.into_iter().collect()))
            .collect()
    };
    let placed = sets(&bootstrap);
    let r = http.post("add_broker?json=true&brokerid=4&dryrun=false");
    assert_eq!(r.status, 200, "{}", r.text);
    // Dead tasks make Cruise Control stop the execution itself (it lingers in STOPPING_EXECUTION).
    wait_for("Cruise Control to stop the execution", WAIT, || {
        let ex = executor_state(&http);
        if ex["state"] == "NO_TASK_IN_PROGRESS" {
            return Err(support::kafka::fatal(format!(
                "ended without stopping: {ex}"
            )));
        }
        Ok((ex["state"] == "STOPPING_EXECUTION").then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", cc.log()));
    let t = http.wait_task(&r.task_id.unwrap(), &["Completed", "CompletedWithError"]);
    assert_eq!(t["Status"], "CompletedWithError", "{t}\n{}", cc.log());
    assert_eq!(executor_state(&http)["state"], "NO_TASK_IN_PROGRESS");
    assert!(admin.reassignments().unwrap().is_empty());
    assert_eq!(sets(&bootstrap), placed, "0 replicas moved");
    assert!(
        cc.log().contains("all its log directories are cordoned"),
        "{}",
        cc.log()
    );
    drop(cc);

    eprintln!("step 14.13: the servlet-capacity text has no exception prefix");
    let full = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            max_active_tasks: Some(2),
            task_scan_millis: Some(60_000),
            ..Default::default()
        },
    )
    .unwrap();
    let http = Http::new(&full);
    http.get("state?json=true&substates=executor");
    http.get("state?json=true&substates=executor");
    let r = http.get("state?json=true&substates=executor");
    assert_eq!(r.status, 500, "{}", r.text);
    assert_eq!(
        r.error_message(),
        due_to(
            "GET",
            "state",
            "There are already 2 active user tasks, which has reached the servlet capacity."
        )
    );
    drop(full);

    eprintln!("step 14.14: two-step verification: the review board's answers and RequestInfo");
    let reviewed = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(300),
            // Every request holds a slot until the scanner runs: room for this step's burst.
            max_active_tasks: Some(50),
            extra_args: vec!["--two-step-verification".into()],
            ..Default::default()
        },
    )
    .unwrap();
    let http = Http::new(&reviewed);
    let r = http.post("rebalance?json=true&dryrun=true&reason=why");
    assert_eq!(r.status, 200, "{}", r.text);
    let info = r.json()["RequestInfo"][0].clone();
    assert_eq!(info["Status"], "PENDING_REVIEW", "{info}");
    assert_eq!(
        info["EndpointWithParams"],
        "REBALANCE?json=true&dryrun=true&reason=why"
    );
    assert_eq!(info["Reason"], "Awaiting review.");
    let id = info["Id"].as_i64().unwrap();
    let r = http.get(&format!("review_board?json=true&review_ids={id}"));
    assert_eq!(
        r.status, 500,
        "review_board?review_ids= is a server bug: {}",
        r.text
    );
    assert_eq!(r.error_message(), due_to("GET", "review_board", "null"));
    let board = http.get("review_board?json=true");
    assert_eq!(board.status, 200, "{}", board.text);
    assert_eq!(board.json()["RequestInfo"][0]["Id"], id);
    let r = http.post("review?json=true&approve=99");
    assert_eq!(r.status, 500, "{}", r.text);
    assert_eq!(r.error_message(), due_to("POST", "review", "null"));
    let r = http.post(&format!("review?json=true&approve={id}&reason=ok"));
    assert_eq!(r.status, 200, "{}", r.text);
    let info = r.json()["RequestInfo"][0].clone();
    assert_eq!(info["Status"], "APPROVED");
    assert!(
        info["Reason"].as_str().unwrap().starts_with("ok (Client: "),
        "the reason follows the status: {info}"
    );
    let r = http.post(&format!("rebalance?json=true&review_id={id}"));
    assert_eq!(
        r.status, 400,
        "json=true and review_id are mutually exclusive: {}",
        r.text
    );
    let r = http.post(&format!("rebalance?review_id={id}"));
    assert_eq!(r.status, 200, "a bare review_id runs it: {}", r.text);
    assert!(
        r.json().get("summary").is_some(),
        "answered as the held request asked (json): {}",
        r.text
    );
    let info = http.get("review_board?json=true").json()["RequestInfo"][0].clone();
    assert_eq!(info["Status"], "SUBMITTED");
    assert_eq!(info["Reason"], "Submitted approved request.");
    drop(reviewed);

    eprintln!(
        "step 14.15: HTTPS with Basic auth and Cruise Control's roles (Strimzi's ADMIN and USER users)"
    );
    let mut users = strimzi_api_users("admin-pw", "health-pw");
    users.push(CcApiUser::new("viewer", "viewer-pw", CcRole::Viewer));
    let secure = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            tls: true,
            users,
            max_active_tasks: Some(50),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(secure.url().starts_with("https://"));
    let anonymous = Http::new(&secure);
    let r = anonymous.get("state?json=true");
    assert_eq!(r.status, 401, "{}", r.text);
    assert_eq!(
        r.www_authenticate.as_deref(),
        Some("basic realm=\"DefaultLoginService\"")
    );
    assert!(
        r.content_type.starts_with("text/html") && r.text.contains("HTTP ERROR 401"),
        "Jetty's page, not CC JSON: {}",
        r.text
    );
    assert_eq!(
        Http::with(&secure, Some(("healthcheck", "wrong")))
            .get("state?json=true")
            .status,
        401
    );
    let health = Http::with(&secure, Some(("healthcheck", "health-pw")));
    assert_eq!(health.get("state?json=true&substates=executor").status, 200);
    assert_eq!(health.get("proposals?json=true").status, 200);
    for (method, path) in [
        ("POST", "rebalance?json=true&dryrun=true"),
        ("POST", "stop_proposal_execution?json=true"),
        ("GET", "bootstrap?json=true"),
    ] {
        let r = health.send(method, path, None, None).unwrap();
        assert_eq!(r.status, 403, "USER may not {method} {path}: {}", r.text);
        assert!(
            r.content_type.starts_with("text/html") && r.text.contains("!role"),
            "{}",
            r.text
        );
    }
    let viewer = Http::with(&secure, Some(("viewer", "viewer-pw")));
    assert_eq!(viewer.get("user_tasks?json=true").status, 200);
    assert_eq!(viewer.get("kafka_cluster_state?json=true").status, 200);
    assert_eq!(viewer.get("state?json=true").status, 403);
    let operator = Http::with(&secure, Some(("rebalance-operator", "admin-pw")));
    assert_eq!(operator.post("rebalance?json=true&dryrun=true").status, 200);
    assert_eq!(
        operator.get("bootstrap?json=true").status,
        500,
        "not modelled, but allowed"
    );
    let r = anonymous.get("../wrongprefix/state");
    assert_eq!(r.status, 404, "no constraint outside the API: {}", r.text);
    assert!(r.text.contains("HTTP ERROR 404"), "{}", r.text);
}
