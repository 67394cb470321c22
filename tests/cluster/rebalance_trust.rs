//! Rebalances you can trust with production (issue #16), against the Cruise Control test double
//! (`tests/env/cc-double`) on a real 1-controller + 4-broker KRaft cluster. Every oracle is
//! ground truth: the real replica placement from Kafka metadata and the double's own user tasks
//! (what it was really asked to execute), never kafkaops' own report alone.
//!
//! One cluster for the whole binary (one test, steps in order); run with
//! `cargo test --test cluster rebalance_trust:: -- --nocapture` to see the steps.

use crate::support;
use support::WAIT;

use std::collections::BTreeMap;

use kafkaops::kafka::{ConfigChange, ConfigTarget};
use serde_json::Value;
use support::admin::Admin;
use support::bin::{Out, kafkaops_bin, run};
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, produce_bulk, wait_for};

fn command(url: &str) -> std::process::Command {
    let mut cmd = support::bin::kafkaops();
    cmd.env("KAFKAOPS_CRUISE_CONTROL_URL", url);
    cmd
}

fn kafkaops(cc: &CcDouble, args: &[&str]) -> Out {
    run(command(&cc.url()).args(args))
}

/// The replica lists of `topic`, from the real cluster metadata.
fn assignment(bootstrap: &str, topic: &str) -> BTreeMap<i32, Vec<i32>> {
    placement(bootstrap, topic)
        .unwrap()
        .into_iter()
        .map(|p| (p.partition, p.replicas))
        .collect()
}

/// A kafkaops running in the background; its stderr is collected as it comes.
struct Bg {
    child: std::process::Child,
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
    reader: std::thread::JoinHandle<()>,
    args: Vec<String>,
}

/// Starts `kafkaops <args>` in the background (stdout and stderr piped).
fn spawn_kafkaops(cc: &CcDouble, args: &[&str]) -> Bg {
    use std::io::BufRead;
    eprintln!("$ kafkaops {} &", args.join(" "));
    let mut child = command(&cc.url())
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let pipe = child.stderr.take().unwrap();
    let sink = std::sync::Arc::clone(&stderr);
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(pipe).lines().map_while(Result::ok) {
            let mut s = sink.lock().unwrap();
            s.push_str(&line);
            s.push('\n');
        }
    });
    Bg {
        child,
        stderr,
        reader,
        args: args.iter().map(ToString::to_string).collect(),
    }
}

impl Bg {
    /// Waits until its stderr contains `needle` (bounded by `WAIT`).
    fn wait_stderr(&self, needle: &str) {
        wait_for(&format!("kafkaops to say {needle:?}"), WAIT, || {
            Ok(self.stderr.lock().unwrap().contains(needle).then_some(()))
        })
        .unwrap_or_else(|e| panic!("{e}: {}", self.stderr.lock().unwrap()));
    }
}

/// Waits for a background kafkaops (bounded by `WAIT`).
fn finish(bg: Bg) -> Out {
    let Bg {
        child,
        stderr,
        reader,
        args,
    } = bg;
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(WAIT) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SAFETY: kill(2) on a child we started.
            unsafe { libc::kill(i32::try_from(pid).unwrap(), libc::SIGKILL) };
            panic!("kafkaops (pid {pid}) did not end within {WAIT:?}");
        }
    };
    reader.join().unwrap();
    let o = Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: stderr.lock().unwrap().clone(),
        args,
    };
    eprintln!("  -> exit {}", o.code);
    o
}

/// The double's executor state and the task it runs.
fn executor(cc: &CcDouble) -> (String, Option<String>) {
    let s = cc_get(cc, "state?json=true&substates=executor");
    let e = &s["ExecutorState"];
    (
        e["state"].as_str().unwrap_or("").to_string(),
        e["triggeredUserTaskId"]
            .as_str()
            .filter(|t| !t.is_empty())
            .map(str::to_string),
    )
}

/// Waits until the double executes something; returns its task id.
fn wait_executing(cc: &CcDouble) -> String {
    wait_for("the double to execute", WAIT, || {
        let (state, task) = executor(cc);
        Ok((state != "NO_TASK_IN_PROGRESS").then_some(task).flatten())
    })
    .unwrap()
}

/// GET an endpoint of the double (ground truth about what it was asked).
fn cc_get(cc: &CcDouble, path_and_query: &str) -> Value {
    let url = format!("{}/{path_and_query}", cc.url());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let r = reqwest::get(&url).await.unwrap();
        let text = r.text().await.unwrap();
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{url}: {e}: {text}"))
    })
}

/// The request URLs of every user task the double knows (executions say `dryrun=false`; a
/// reviewed request is listed as sent, `review_id=N`, and only approved executions are sent so).
fn executions_requested(cc: &CcDouble) -> Vec<String> {
    let tasks = cc_get(cc, "user_tasks?json=true");
    tasks["userTasks"]
        .as_array()
        .unwrap_or_else(|| panic!("user_tasks: {tasks}"))
        .iter()
        .filter_map(|t| t["RequestURL"].as_str())
        .filter(|u| u.contains("dryrun=false") || u.contains("review_id="))
        .map(str::to_string)
        .collect()
}

/// Waits until no partition reassignment is in flight.
fn wait_reassignments_done(admin: &Admin) {
    wait_for("reassignments to finish", WAIT, || {
        Ok(admin.reassignments()?.is_empty().then_some(()))
    })
    .unwrap();
}

fn double(bootstrap: &str, extra: &[&str]) -> CcDouble {
    CcDouble::start(
        bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            extra_args: extra.iter().map(|s| (*s).to_string()).collect(),
            ..Default::default()
        },
    )
    .expect("cc-double")
}

#[test]
fn rebalances_you_can_trust() {
    let _ = kafkaops_bin(); // copy it now, before anything else can rebuild it
    let cluster = KafkaCluster::start(ClusterSpec::split(1, 4)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let admin = Admin::connect(&cluster).expect("admin");
    // 12 partitions, RF 2, only on brokers 1-3: broker 4 is the "new" broker.
    let on_123: Vec<Vec<i32>> = (0..12)
        .map(|i| {
            let a = [1, 2, 3];
            vec![a[i % 3], a[(i + 1) % 3]]
        })
        .collect();
    create_topic(&bootstrap, "orders", &on_123, &[]).unwrap();
    let cc = double(&bootstrap, &[]);
    let fast = ["--poll-interval", "200ms"];
    let dir = tempfile::tempdir().unwrap();

    eprintln!(
        "step: a proposal that changed between approval and execution is stopped before anything moves"
    );
    let dry = kafkaops(&cc, &["rebalance", "add", "--brokers", "4", "-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let plan_path = dir.path().join("plan.json");
    std::fs::write(&plan_path, &dry.stdout).unwrap();
    let approved = dry.json();
    assert!(approved["summary"]["replica_movements"].as_u64().unwrap() >= 4);
    // Meanwhile someone moves partitions 0-3 onto broker 4 by hand: the proposal the double
    // computes now differs from the approved one.
    let mut moved = BTreeMap::new();
    for p in 0..4 {
        let mut r = on_123[p as usize].clone();
        r[1] = 4;
        admin.reassign("orders", p, &r).unwrap();
        moved.insert(p, r);
    }
    wait_reassignments_done(&admin);
    // The controller has finished the moves; the broker answering Metadata may still show a
    // moved partition's transitional replica set (e.g. [1, 4, 2]) for a moment: read `before`
    // once the metadata shows every move done, or a late update reads as "something moved".
    let before = wait_for("the manual moves to show in the metadata", WAIT, || {
        let a = assignment(&bootstrap, "orders");
        Ok(moved.iter().all(|(p, r)| a.get(p) == Some(r)).then_some(a))
    })
    .unwrap();
    let mut args = vec![
        "rebalance",
        "add",
        "--brokers",
        "4",
        "--execute",
        "--yes",
        "-o",
        "json",
        "--approved-plan",
        plan_path.to_str().unwrap(),
    ];
    args.extend(fast);
    let r = kafkaops(&cc, &args);
    assert_eq!(r.code, 1, "refused: {}\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("changed since it was approved"),
        "{}",
        r.stderr
    );
    let v = r.json();
    assert_eq!(v["execution"]["status"], "drifted", "{v}");
    assert_eq!(v["drift"]["within_tolerance"], false, "{v}");
    assert!(v["approved_proposal"]["summary"].is_object(), "{v}");
    assert!(v["proposal"]["summary"].is_object(), "{v}");
    // Ground truth: nothing moved, and the double was never asked to execute.
    assert_eq!(assignment(&bootstrap, "orders"), before);
    assert!(admin.reassignments().unwrap().is_empty());
    assert_eq!(executions_requested(&cc), Vec::<String>::new());

    eprintln!("step: an unchanged proposal executes, and the JSON keeps both proposals");
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
    // Under --yes alone nothing re-checks (nobody approved the dry run); the execution's own
    // proposal is still compared with it.
    assert!(v["drift"].is_null(), "{v}");
    assert_eq!(v["execution_drift"]["within_tolerance"], true, "{v}");
    assert!(v["approved_proposal"]["summary"].is_object(), "{v}");
    assert_eq!(executions_requested(&cc).len(), 1);
    let after = assignment(&bootstrap, "orders");
    assert!(
        after.values().filter(|r| r.contains(&4)).count() >= 6,
        "broker 4 got its replicas: {after:?}"
    );

    eprintln!(
        "step: two-step verification end to end (#25 points 3 and 17: one held execution, approved, run)"
    );
    let reviewed = double(&bootstrap, &["--two-step-verification"]);
    let before = assignment(&bootstrap, "orders");
    assert!(before.values().any(|r| r.contains(&4)));
    let remove = [
        "rebalance",
        "remove",
        "--brokers",
        "4",
        "--execute",
        "-o",
        "json",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        remove
            .iter()
            .chain(extra)
            .chain(fast.iter())
            .map(|s| (*s).to_string())
            .collect()
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        kafkaops(&reviewed, &args)
    };
    // --execute: kafkaops' own dry run is held; the execution request is what gets reviewed.
    let r = run(with(&["--yes"]));
    assert_eq!(
        r.code, 8,
        "the execution is held: {}\n{}",
        r.stdout, r.stderr
    );
    assert!(r.stderr.contains("review id 1"), "{}", r.stderr);
    assert!(r.stderr.contains("execution"), "{}", r.stderr);
    assert!(!r.stdout.contains("nothing-to-do"), "{}", r.stdout);
    // Ground truth: nothing moved so far, nothing was executed.
    assert_eq!(assignment(&bootstrap, "orders"), before);
    assert_eq!(executions_requested(&reviewed), Vec::<String>::new());
    let board = cc_get(&reviewed, "review_board?json=true");
    let statuses: Vec<&str> = board["RequestInfo"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["Status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        vec!["DISCARDED", "PENDING_REVIEW"],
        "kafkaops discarded its own held dry run: {board}"
    );
    // `--ids` is filtered by kafkaops (review_ids makes Cruise Control answer 500).
    let list = kafkaops(
        &reviewed,
        &["rebalance", "review", "list", "--ids", "1", "-o", "json"],
    );
    assert_eq!(list.code, 0, "{}", list.stderr);
    let board = list.json();
    assert_eq!(board.as_array().unwrap().len(), 1, "{board}");
    assert_eq!(board[0]["id"], 1, "{board}");
    assert_eq!(board[0]["status"], "PENDING_REVIEW", "{board}");
    assert_eq!(board[0]["execution"], true, "{board}");
    assert_eq!(board[0]["endpoint"], "remove_broker", "{board}");
    // An unknown review id is said plainly, and nothing is reviewed.
    let unknown = kafkaops(&reviewed, &["rebalance", "review", "approve", "9"]);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(
        unknown.stderr.contains("review id 9 is unknown"),
        "{}",
        unknown.stderr
    );
    assert!(!unknown.stderr.contains("null"), "{}", unknown.stderr);
    let r = run(with(&["--review-id", "9"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("review id 9 is unknown"), "{}", r.stderr);
    let r = run(with(&["--review-id", "1"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let ok = kafkaops(&reviewed, &["rebalance", "review", "approve", "1"]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let r = run(with(&["--review-id", "1"]));
    assert_eq!(
        r.code,
        0,
        "the approved execution runs: {}\n{}",
        r.stderr,
        reviewed.log()
    );
    assert_eq!(r.json()["execution"]["status"], "completed", "{}", r.stdout);
    let after = assignment(&bootstrap, "orders");
    assert!(
        after.values().all(|r| !r.contains(&4)),
        "broker 4 emptied: {after:?}"
    );
    assert_eq!(executions_requested(&reviewed).len(), 1);
    // Submitted once: never again.
    let r = run(with(&["--review-id", "1"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    drop(reviewed);

    eprintln!("step: status --task after --no-wait re-attaches and reports completion");
    let r = kafkaops(
        &cc,
        &[
            "rebalance",
            "add",
            "--brokers",
            "4",
            "--execute",
            "--yes",
            "--no-wait",
            "-o",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let task = r.json()["task_id"].as_str().unwrap().to_string();
    let s = kafkaops(
        &cc,
        &[
            "rebalance",
            "status",
            "--task",
            &task,
            "--follow",
            "-o",
            "json",
            "--poll-interval",
            "200ms",
        ],
    );
    assert_eq!(s.code, 0, "{}\n{}", s.stdout, s.stderr);
    assert_eq!(s.json()["status"], "completed", "{}", s.stdout);
    // Ground truth: the double's own task record, and the replicas on broker 4.
    let t = cc_get(&cc, &format!("user_tasks?json=true&user_task_ids={task}"));
    assert_eq!(t["userTasks"][0]["Status"], "Completed", "{t}");
    assert!(
        assignment(&bootstrap, "orders")
            .values()
            .any(|r| r.contains(&4))
    );
    let s = kafkaops(&cc, &["rebalance", "status", "--task", &task, "-o", "json"]);
    assert_eq!(s.code, 0, "{}", s.stderr);
    assert_eq!(s.json()["status"], "completed");

    eprintln!("step: status --task after stop reports stopped (exit 9)");
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
    produce_bulk(&bootstrap, "big", 300, 10_000, 100_000).unwrap();
    admin.set_broker_throttle(&[1, 2, 3, 4], 20_000).unwrap();
    let slow_remove = [
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
        "-o",
        "json",
    ];
    let mut args = slow_remove.to_vec();
    args.push("--no-wait");
    let r = kafkaops(&cc, &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let task = r.json()["task_id"].as_str().unwrap().to_string();
    // status shows the throttle in force (read from the brokers), the task kind and timing.
    let s = kafkaops(
        &cc,
        &[
            "--bootstrap-servers",
            &bootstrap,
            "rebalance",
            "status",
            "-o",
            "json",
        ],
    );
    assert_eq!(s.code, 0, "{}", s.stderr);
    let s = s.json();
    assert_eq!(s["executing"], true, "{s}");
    assert_eq!(s["details"]["task_kind"], "user", "{s}");
    assert!(s["details"]["elapsed_ms"].is_u64(), "{s}");
    let throttled: Vec<i64> = s["throttles"]
        .as_array()
        .unwrap_or_else(|| panic!("{s}"))
        .iter()
        .filter(|t| {
            t["follower_bytes_per_second"] == 20000 && t["leader_bytes_per_second"] == 20000
        })
        .map(|t| t["broker"].as_i64().unwrap())
        .collect();
    assert_eq!(throttled, vec![1, 2, 3, 4], "{s}");
    let st = kafkaops(&cc, &["rebalance", "stop", "--poll-interval", "200ms"]);
    assert_eq!(st.code, 0, "{}", st.stderr);
    let s = kafkaops(&cc, &["rebalance", "status", "--task", &task, "-o", "json"]);
    assert_eq!(s.code, 9, "stopped: {}\n{}", s.stdout, s.stderr);
    assert_eq!(s.json()["status"], "stopped", "{}", s.stdout);
    let t = cc_get(&cc, &format!("user_tasks?json=true&user_task_ids={task}"));
    assert_eq!(t["userTasks"][0]["Status"], "CompletedWithError", "{t}");
    assert!(
        assignment(&bootstrap, "big")
            .values()
            .any(|r| r.contains(&4)),
        "the stopped removal left replicas on broker 4"
    );
    wait_reassignments_done(&admin);

    eprintln!("step: SIGTERM mid-follow leaves the execution running, names the task, exits 143");
    let mut args = slow_remove.to_vec();
    args.extend(fast);
    let bg = spawn_kafkaops(&cc, &args);
    let task = wait_executing(&cc);
    // Mid-follow: kafkaops has the task id and follows it.
    bg.wait_stderr("following it");
    // SAFETY: kill(2) on a child we started.
    assert_eq!(
        unsafe { libc::kill(i32::try_from(bg.child.id()).unwrap(), libc::SIGTERM) },
        0
    );
    let r = finish(bg);
    assert_eq!(r.code, 143, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains(&task), "names the task: {}", r.stderr);
    assert!(r.stderr.contains("keeps running"), "{}", r.stderr);
    // Ground truth: the double still executes that task.
    let (state, running) = executor(&cc);
    assert_ne!(state, "NO_TASK_IN_PROGRESS");
    assert_eq!(running.as_deref(), Some(task.as_str()));
    let st = kafkaops(&cc, &["rebalance", "stop", "--poll-interval", "200ms"]);
    assert_eq!(st.code, 0, "{}", st.stderr);
    wait_reassignments_done(&admin);

    eprintln!(
        "step: a remove that leaves replicas behind (a topic created meanwhile) fails with 11"
    );
    let mut args = vec!["--bootstrap-servers", bootstrap.as_str()];
    args.extend(slow_remove);
    args.extend(fast);
    let bg = spawn_kafkaops(&cc, &args);
    wait_executing(&cc);
    // kafkaops cordons the leaving broker before moving anything (KIP-1066), which is what keeps
    // new topics off it; this step is about the check after the execution, so someone uncordons
    // broker 4 by hand and places a topic on it. The broker applies the change after the
    // controller commits it: retry the placement until Kafka accepts it.
    admin
        .alter(
            ConfigTarget::Broker(4),
            vec![ConfigChange::delete("cordoned.log.dirs")],
        )
        .unwrap();
    wait_for(
        "Kafka to accept a topic on uncordoned broker 4",
        WAIT,
        || Ok(create_topic(&bootstrap, "late", &[vec![4, 1]], &[]).ok()),
    )
    .unwrap();
    for b in 1..=4 {
        admin
            .alter(
                ConfigTarget::Broker(b),
                vec![
                    ConfigChange::delete("leader.replication.throttled.rate"),
                    ConfigChange::delete("follower.replication.throttled.rate"),
                ],
            )
            .unwrap();
    }
    let r = finish(bg);
    assert_eq!(r.code, 11, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("late-0"),
        "names what is left: {}",
        r.stderr
    );
    assert_eq!(r.json()["execution"]["status"], "completed", "{}", r.stdout);
    // Ground truth: Kafka still has late-0 on broker 4, and nothing else is there.
    assert!(assignment(&bootstrap, "late")[&0].contains(&4));
    for t in ["orders", "big"] {
        assert!(
            assignment(&bootstrap, t).values().all(|r| !r.contains(&4)),
            "{t} moved off broker 4"
        );
    }
}
