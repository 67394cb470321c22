//! `kafkaops topic set-rf` against the Cruise Control test double (`tests/env/cc-double`) on a
//! real 3-node KRaft cluster, checked in the real metadata: every bad input is refused with exit
//! 2 and changes nothing; a dry run changes nothing; 50 topics 3 -> 2 and 20 topics 2 -> 3 in one
//! run that first waits in line behind an execution already running, with look-alike topic names
//! untouched; a re-run is a no-op; `--status`; `--no-wait` and then the same command following
//! that task; Ctrl-C (exit 130) and then the same command following the task; a task stopped
//! mid-way (CompletedWithError: exit 7, the unchanged topics named); and a Cruise Control restart
//! in the middle of a change (the unfinished topics are sent again from the state file).
//!
//! One cluster for the whole binary (one test, steps in order); run with
//! `cargo test --test cluster topic_set_rf:: -- --nocapture` to see the steps.

use crate::support;
use support::WAIT;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Instant;

use serde_json::Value;
use support::bin::{Out, kafkaops_bin, run};
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};

struct Env {
    bootstrap: String,
    cc_url: String,
    state_dir: PathBuf,
}

fn command(env: &Env, args: &[&str]) -> std::process::Command {
    let mut cmd = support::bin::kafkaops();
    cmd.env("KAFKAOPS_BOOTSTRAP_SERVERS", &env.bootstrap)
        .env("KAFKAOPS_CRUISE_CONTROL_URL", &env.cc_url)
        .env("KAFKAOPS_STATE_DIR", &env.state_dir)
        .args(["topic", "set-rf"])
        .args(args);
    cmd
}

fn kafkaops(env: &Env, args: &[&str]) -> Out {
    run(&mut command(env, args))
}

/// `kafkaops topic status -o json` (the subcommand; `set-rf --status` is its old spelling).
fn topic_status(env: &Env) -> Out {
    let mut cmd = support::bin::kafkaops();
    cmd.env("KAFKAOPS_BOOTSTRAP_SERVERS", &env.bootstrap)
        .env("KAFKAOPS_CRUISE_CONTROL_URL", &env.cc_url)
        .env("KAFKAOPS_STATE_DIR", &env.state_dir)
        .args(["topic", "status", "-o", "json"]);
    run(&mut cmd)
}

/// The replication factor of every partition of `topic` (sorted, deduplicated).
fn factors(bootstrap: &str, topic: &str) -> BTreeSet<usize> {
    placement(bootstrap, topic)
        .unwrap()
        .iter()
        .map(|p| {
            let distinct: BTreeSet<i32> = p.replicas.iter().copied().collect();
            assert_eq!(distinct.len(), p.replicas.len(), "{topic}: {p:?}");
            p.replicas.len()
        })
        .collect()
}

fn assert_rf(bootstrap: &str, topics: &[String], rf: usize) {
    for t in topics {
        assert_eq!(
            factors(bootstrap, t),
            BTreeSet::from([rf]),
            "{t} should have replication factor {rf}"
        );
    }
}

/// `n` partitions with `rf` replicas on brokers 1..=3, rotating the leader.
fn assignment(n: usize, rf: usize, shift: usize) -> Vec<Vec<i32>> {
    (0..n)
        .map(|p| (0..rf).map(|r| ((p + shift + r) % 3) as i32 + 1).collect())
        .collect()
}

fn names(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i:02}")).collect()
}

#[test]
fn set_rf_on_a_real_cluster() {
    let _ = kafkaops_bin();
    let t0 = Instant::now();
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let cold = names("cold.", 50); // 3 -> 2
    let hot = names("hot.", 20); // 2 -> 3
    let blockers = names("blocker.", 6); // 2 -> 3, the execution already running
    let warm = names("warm.", 12); // 2 -> 3, through a Cruise Control restart
    let later = names("later.", 4); // 2 -> 3, --no-wait then resumed
    let stopped = names("stopped.", 8); // 2 -> 3, stopped: CompletedWithError
    let paused = names("paused.", 6); // 2 -> 3, Ctrl-C, then the same command again
    // Look-alikes: an unescaped `.` or a partial-name regex would catch them.
    let lookalike3 = vec!["coldX00".to_string(), "cold.00.bak".to_string()];
    let lookalike2 = vec!["hotX00".to_string(), "xhot.00".to_string()];
    for (i, t) in cold.iter().chain(&lookalike3).enumerate() {
        create_topic(&bootstrap, t, &assignment(2, 3, i), &[]).unwrap();
    }
    for (i, t) in hot.iter().chain(&lookalike2).chain(&blockers).enumerate() {
        create_topic(&bootstrap, t, &assignment(2, 2, i), &[]).unwrap();
    }
    for (i, t) in warm.iter().chain(&later).chain(&stopped).enumerate() {
        create_topic(&bootstrap, t, &assignment(1, 2, i), &[]).unwrap();
    }
    // 8 partitions each (48 movements at one per broker, a few per second): the change must
    // still run when the test's Ctrl-C comes, on a loaded machine too (with one partition each
    // it ended in 5 s and the signal came after it, at load 20).
    for (i, t) in paused.iter().enumerate() {
        create_topic(&bootstrap, t, &assignment(8, 2, i), &[]).unwrap();
    }
    create_topic(
        &bootstrap,
        "guarded",
        &assignment(1, 3, 0),
        &[("min.insync.replicas", "3")],
    )
    .unwrap();
    eprintln!(
        "setup: cluster and {} topics in {:.1?}",
        cold.len()
            + hot.len()
            + blockers.len()
            + warm.len()
            + later.len()
            + stopped.len()
            + paused.len()
            + 5,
        t0.elapsed()
    );

    let mut cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            // Executions advance once a second: slow enough to restart the double mid-change.
            extra_args: vec!["--execution-poll-millis".into(), "1000".into()],
            ..Default::default()
        },
    )
    .expect("cc-double");
    let state = tempfile::tempdir().unwrap();
    let env = Env {
        bootstrap: bootstrap.clone(),
        cc_url: cc.url(),
        state_dir: state.path().to_path_buf(),
    };
    let fast = ["--poll-interval", "500ms"];

    eprintln!("step: every bad input is refused with exit 2 and changes nothing");
    let exec = ["--execute", "--yes"];
    let bad = |args: &[&str], needle: &str| {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(exec);
        all.extend(fast);
        let o = kafkaops(&env, &all);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(needle), "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains("nothing was changed"), "{}", o.stderr);
    };
    bad(&["--topics", "cold.00,nope", "-r", "2"], "nope");
    bad(&["--topics", "cold.00", "-r", "0"], "at least 1");
    bad(
        &["--topics", "cold.00", "-r", "4"],
        "more than the 3 broker",
    );
    bad(
        &["--topics", "guarded", "-r", "2"],
        "min.insync.replicas (3)",
    );
    let twice = state.path().join("twice.yaml");
    std::fs::write(
        &twice,
        "- topic: cold.01\n  replication_factor: 2\n- topic: cold.01\n  replication_factor: 3\n",
    )
    .unwrap();
    bad(
        &["--from-file", twice.to_str().unwrap()],
        "listed with different replication factors",
    );
    assert_rf(&bootstrap, &cold[..2], 3);
    assert_rf(&bootstrap, &["guarded".to_string()], 3);
    let allowed = kafkaops(
        &env,
        &[
            "--topics",
            "guarded",
            "-r",
            "2",
            "--allow-below-min-isr",
            "-o",
            "json",
        ],
    );
    assert_eq!(allowed.code, 0, "{}", allowed.stderr);
    assert_eq!(allowed.json()["dry_run"], true);
    assert_rf(&bootstrap, &["guarded".to_string()], 3);

    eprintln!("step: dry run of 70 topics changes nothing");
    let desired = state.path().join("desired.yaml");
    let mut yaml = String::new();
    for t in &cold {
        yaml.push_str(&format!("- topic: {t}\n  replication_factor: 2\n"));
    }
    for t in &hot {
        yaml.push_str(&format!("- topic: {t}\n  replication_factor: 3\n"));
    }
    std::fs::write(&desired, yaml).unwrap();
    let desired = desired.to_str().unwrap();
    let dry = kafkaops(&env, &["--from-file", desired, "-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let dry = dry.json();
    assert_eq!(dry["topics"].as_array().unwrap().len(), 70);
    assert!(
        dry["topics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["state"] == "pending")
    );
    assert_eq!(
        dry["proposal"]["replica_movements"], 140,
        "50 x 2 deleted + 20 x 2 added replicas: {dry}"
    );
    assert_rf(&bootstrap, &cold, 3);
    assert_rf(&bootstrap, &hot, 2);

    eprintln!(
        "step: an execution already running: the change waits in line, then 70 topics change"
    );
    // The blocking execution must still run when kafkaops asks, which takes seconds on a loaded
    // machine (the empty blockers' change ended first at load 20-28): 2 MB per topic to copy at
    // 250 KB/s, one movement per broker at a time, keeps it running for tens of seconds.
    for t in &blockers {
        support::kafka::produce_bulk(&bootstrap, t, 400, 5_000, 1_000_000).unwrap();
    }
    let blocker = serde_json::json!({"replication_factor":{"topic_by_replication_factor":{"3": blockers.join("|").replace('.', "\\.")}}});
    let http = http::post(
        &cc.url(),
        "topic_configuration?json=true&dryrun=false&concurrent_partition_movements_per_broker=1&replication_throttle=250000&skip_rack_awareness_check=true",
        Some(&blocker.to_string()),
    );
    assert_eq!(http.0, 200, "{}", http.1);
    let t_run = Instant::now();
    let run = kafkaops(
        &env,
        &[
            "--from-file",
            desired,
            "--execute",
            "--yes",
            "--concurrent-partition-movements-per-broker",
            "50",
            "--poll-interval",
            "500ms",
            "-o",
            "json",
        ],
    );
    eprintln!("70-topic run took {:.1?}", t_run.elapsed());
    assert_eq!(run.code, 0, "{}\n{}", run.stderr, cc.log());
    assert!(run.stderr.contains("waits in line"), "{}", run.stderr);
    let v = run.json();
    let topics = v["topics"].as_array().unwrap();
    assert_eq!(topics.len(), 70);
    for t in topics {
        assert_eq!(t["state"], "done", "{t}");
        assert_eq!(t["after"], t["target"], "{t}");
    }
    assert_eq!(
        v["task_ids"].as_array().unwrap().len(),
        1,
        "one request: {v}"
    );
    assert_rf(&bootstrap, &cold, 2);
    assert_rf(&bootstrap, &hot, 3);
    assert_rf(&bootstrap, &blockers, 3);
    assert_rf(&bootstrap, &lookalike3, 3);
    assert_rf(&bootstrap, &lookalike2, 2);
    assert_rf(&bootstrap, &["guarded".to_string()], 3);

    eprintln!("step: the same command again is a no-op");
    let again = kafkaops(
        &env,
        &["--from-file", desired, "--execute", "--yes", "-o", "json"],
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    for t in again.json()["topics"].as_array().unwrap() {
        assert_eq!(t["state"], "done", "{t}");
        assert!(t["message"].as_str().unwrap().contains("skipped"), "{t}");
    }

    eprintln!("step: --status (the old spelling of `topic status`) reports from the state file");
    let st = kafkaops(&env, &["--status", "-o", "json"]);
    assert_eq!(st.code, 0, "{}", st.stderr);
    assert_eq!(st.json()["topics"].as_array().unwrap().len(), 70);

    eprintln!("step: --no-wait submits and returns; the same command again follows that task");
    // The task must still run when the same command comes again (three kafkaops runs later, which
    // take seconds on a loaded machine): 4 MB per topic to copy at 250 KB/s keeps each new
    // replica busy for ~16 s.
    for t in &later {
        support::kafka::produce_bulk(&bootstrap, t, 800, 5_000, 1_000_000).unwrap();
    }
    let list = later.join(",");
    let later_args = [
        "--topics",
        list.as_str(),
        "-r",
        "3",
        "--execute",
        "--yes",
        "--concurrent-partition-movements-per-broker",
        "1",
        "--replication-throttle",
        "250000",
        "--poll-interval",
        "500ms",
        "-o",
        "json",
    ];
    let mut args = later_args.to_vec();
    args.push("--no-wait");
    let submitted = kafkaops(&env, &args);
    assert_eq!(submitted.code, 0, "{}", submitted.stderr);
    let v = submitted.json();
    let task = v["task_ids"][0].as_str().unwrap().to_string();
    for t in v["topics"].as_array().unwrap() {
        assert_eq!(t["state"], "ongoing", "{t}");
        assert_eq!(t["task_id"], task.as_str());
    }
    // A run for other topics (here a no-op) leaves the ongoing change in the state file.
    let other = kafkaops(
        &env,
        &[
            "--topics",
            "guarded",
            "-r",
            "3",
            "--execute",
            "--yes",
            "-o",
            "json",
        ],
    );
    assert_eq!(other.code, 0, "{}", other.stderr);
    assert_eq!(other.json()["topics"].as_array().unwrap().len(), 1);
    // `topic status` re-reads Kafka and asks Cruise Control about the task.
    let st = topic_status(&env);
    let listed = st.json()["topics"].as_array().unwrap().clone();
    assert_eq!(listed.len(), 5, "later.* and guarded: {}", st.stdout);
    for t in listed.iter().filter(|t| t["topic"] != "guarded") {
        assert_eq!(t["task_id"], task.as_str(), "{t}");
        match t["state"].as_str().unwrap() {
            "done" => {}
            "ongoing" => assert!(
                t["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("Cruise Control task status"),
                "{t}"
            ),
            other => panic!("{other}: {t}"),
        }
    }
    let resumed = kafkaops(&env, &later_args);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert!(
        resumed
            .stderr
            .contains("Following the change started earlier"),
        "{}",
        resumed.stderr
    );
    let v = resumed.json();
    assert_eq!(
        v["task_ids"],
        serde_json::json!([task]),
        "not sent again: {v}"
    );
    assert!(
        v["topics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["state"] == "done")
    );
    assert_rf(&bootstrap, &later, 3);

    eprintln!("step: Ctrl-C leaves the change running; the same command again follows it");
    let list = paused.join(",");
    let paused_args = [
        "--topics",
        list.as_str(),
        "-r",
        "3",
        "--execute",
        "--yes",
        "--concurrent-partition-movements-per-broker",
        "1",
        "--poll-interval",
        "500ms",
        "-o",
        "json",
    ];
    let err_path = state.path().join("paused.err");
    let mut child = command(&env, &paused_args)
        .stdout(Stdio::null())
        .stderr(Stdio::from(std::fs::File::create(&err_path).unwrap()))
        .spawn()
        .unwrap();
    let state_file = state.path().join("topic-set-rf.json");
    let task = wait_for("the paused.* change to be ongoing", WAIT, || {
        let Ok(text) = std::fs::read_to_string(&state_file) else {
            return Ok(None);
        };
        let Ok(v) = serde_json::from_str::<Value>(&text) else {
            return Ok(None);
        };
        Ok(v["replicas"]["changes"][paused[0].as_str()]["task_id"]
            .as_str()
            .filter(|_| v["replicas"]["changes"][paused[0].as_str()]["state"] == "ongoing")
            .map(str::to_string))
    })
    .unwrap();
    // SAFETY: signalling our own child process by its pid.
    unsafe {
        libc::kill(i32::try_from(child.id()).unwrap(), libc::SIGINT);
    }
    let status = wait_for("the interrupted run to end", WAIT, || Ok(child.try_wait()?)).unwrap();
    let stderr = std::fs::read_to_string(&err_path).unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("keeps running"), "{stderr}");
    let resumed = kafkaops(&env, &paused_args);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert!(
        resumed
            .stderr
            .contains("Following the change started earlier"),
        "{}",
        resumed.stderr
    );
    assert_eq!(
        resumed.json()["task_ids"],
        serde_json::json!([task]),
        "followed, not sent again"
    );
    assert_rf(&bootstrap, &paused, 3);

    eprintln!("step: a task that ends CompletedWithError exits 7 and names the topics");
    let list = stopped.join(",");
    let out_path = state.path().join("stopped.out");
    let err_path = state.path().join("stopped.err");
    let mut child = command(
        &env,
        &[
            "--topics",
            &list,
            "-r",
            "3",
            "--execute",
            "--yes",
            "--concurrent-partition-movements-per-broker",
            "1",
            "--poll-interval",
            "500ms",
            "-o",
            "json",
        ],
    )
    .stdout(Stdio::from(std::fs::File::create(&out_path).unwrap()))
    .stderr(Stdio::from(std::fs::File::create(&err_path).unwrap()))
    .spawn()
    .unwrap();
    wait_for("the first stopped.* topic to reach RF 3", WAIT, || {
        Ok(stopped
            .iter()
            .any(|t| factors(&bootstrap, t) == BTreeSet::from([3]))
            .then_some(()))
    })
    .unwrap();
    let (code, text) = http::post(&cc.url(), "stop_proposal_execution?json=true", None);
    assert_eq!(code, 200, "{text}");
    let status = wait_for("the stopped run to end", WAIT, || Ok(child.try_wait()?)).unwrap();
    let stdout = std::fs::read_to_string(&out_path).unwrap();
    let stderr = std::fs::read_to_string(&err_path).unwrap();
    assert_eq!(status.code(), Some(7), "{stderr}");
    assert!(
        stderr.contains("did not reach their target replication factor"),
        "{stderr}"
    );
    let v = support::schema::json_of(&["topic", "set-rf"], &stdout);
    let failed: Vec<&Value> = v["topics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["state"] == "failed")
        .collect();
    assert!(!failed.is_empty(), "{v}");
    for t in failed {
        assert!(
            t["message"]
                .as_str()
                .unwrap()
                .contains("CompletedWithError"),
            "{t}"
        );
        assert_eq!(t["after"], 2, "{t}");
    }

    eprintln!("step: Cruise Control restarts in the middle of a change");
    let list = warm.join(",");
    let out_path = state.path().join("restart.out");
    let err_path = state.path().join("restart.err");
    let mut child = command(
        &env,
        &[
            "--topics",
            &list,
            "-r",
            "3",
            "--execute",
            "--yes",
            "--concurrent-partition-movements-per-broker",
            "1",
            "--poll-interval",
            "500ms",
            "-o",
            "json",
        ],
    )
    .stdout(Stdio::from(std::fs::File::create(&out_path).unwrap()))
    .stderr(Stdio::from(std::fs::File::create(&err_path).unwrap()))
    .spawn()
    .unwrap();
    let done_before = wait_for("the first warm topics to reach RF 3", WAIT, || {
        let done = warm
            .iter()
            .filter(|t| factors(&bootstrap, t) == BTreeSet::from([3]))
            .count();
        Ok((done >= 1).then_some(done))
    })
    .unwrap();
    assert!(
        done_before < warm.len(),
        "the change ended before the restart"
    );
    cc.restart().expect("restart the double");
    eprintln!("restarted the double with {done_before} of 12 warm topics done");
    let status = wait_for("the set-rf run to end", WAIT, || Ok(child.try_wait()?)).unwrap();
    let stdout = std::fs::read_to_string(&out_path).unwrap();
    let stderr = std::fs::read_to_string(&err_path).unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}\n{}", cc.log());
    assert!(stderr.contains("forgot the task"), "{stderr}");
    let v = support::schema::json_of(&["topic", "set-rf"], &stdout);
    assert_eq!(
        v["task_ids"].as_array().unwrap().len(),
        2,
        "the unfinished topics went to a second task: {v}"
    );
    assert_rf(&bootstrap, &warm, 3);
    assert_rf(&bootstrap, &cold, 2);
    eprintln!("whole test: {:.1?}", t0.elapsed());
}

/// A tiny HTTP POST helper (reqwest's blocking client is not enabled): the execution already
/// running (`topic_configuration`, one partition move at a time) and `stop_proposal_execution`.
mod http {
    pub fn post(base: &str, path: &str, body: Option<&str>) -> (u16, String) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut r = reqwest::Client::new().post(format!("{base}/{path}"));
            if let Some(b) = body {
                r = r
                    .header("Content-Type", "application/json")
                    .body(b.to_string());
            }
            let r = r.send().await.unwrap();
            let status = r.status().as_u16();
            (status, r.text().await.unwrap())
        })
    }
}
