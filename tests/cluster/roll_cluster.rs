//! `kafkaops roll` against real KRaft clusters (Kafka from `tests/env`), run as the real binary.
//!
//! How the restart command reaches the test's JVMs: each test runs a tiny control HTTP server
//! (a thread on `127.0.0.1:0`) that restarts node `{id}` through the harness (graceful stop,
//! then start; it answers once the new process is spawned) and records every restart with the
//! quorum leader at that moment. kafkaops gets `--restart-command 'curl -sf
//! http://127.0.0.1:PORT/restart/{id}'`, exactly as an operator would give it an `ssh ...`.
//!
//! The harness runs one cluster at a time. The split cluster
//! (3 controllers + 4 brokers) runs every scenario in order in one test (a roll of every node
//! with an `acks=all` producer, a dynamic change, a static change, bad input, a node that never
//! comes back); the combined cluster (3 nodes) runs the full roll and a killed-and-resumed roll.
//! A third (1 controller + 3 brokers) resumes a saved roll on a faked clock moved back: that test
//! drives the roll's real IO (`KafkaRollIo`, Kafka adapter, process platform, restart witness)
//! with the library's step function, since the clock source is the IO's, not the host's. Waits
//! poll with deadlines; nothing sleeps a fixed time. Every JVM is stopped when a test ends, also
//! on panic.
//!
//! Run with `cargo test --test cluster roll_cluster:: -- --nocapture` (a few minutes on 2 cores).

use crate::support;
use support::WAIT;

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use support::bin::{Out as Run, run};
use support::control::{ControlServer, Restart, connection_args};
use support::kafka::{
    BackgroundProducer, ClusterSpec, KafkaCluster, broker_config, create_topic, placement, wait_for,
};

const TOPIC: &str = "rolled";

/// Runs `kafkaops roll ARGS` against the cluster (the cluster lock is not held meanwhile:
/// the control server needs it).
fn kafkaops_roll(conn: &[String], args: &[&str]) -> Run {
    run(&mut roll_command(conn, args))
}

/// The state directory of this test process (not the user's).
fn state_dir() -> std::path::PathBuf {
    support::bin::test_state_dir("kafkaops-roll-cluster-state")
}

fn roll_command(conn: &[String], args: &[&str]) -> Command {
    let mut cmd = support::bin::kafkaops();
    cmd.args(conn)
        .args(["--yes", "roll", "--poll-interval", "1s"])
        .args(args)
        .env("KAFKAOPS_STATE_DIR", state_dir());
    cmd
}

fn ids(v: &serde_json::Value) -> Vec<i32> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| i32::try_from(x.as_i64().unwrap()).unwrap())
        .collect()
}

/// RF 3 / min ISR 2 over the broker-role nodes, preferred leaders spread evenly.
fn create_rolled_topic(cluster: &KafkaCluster) {
    let brokers = cluster.broker_ids();
    let assignment: Vec<Vec<i32>> = (0..brokers.len() * 2)
        .map(|p| (0..3).map(|r| brokers[(p + r) % brokers.len()]).collect())
        .collect();
    create_topic(
        &cluster.bootstrap_servers(),
        TOPIC,
        &assignment,
        &[("min.insync.replicas", "2")],
    )
    .expect("create topic");
    wait_for("full ISRs", WAIT, || {
        let p = placement(&cluster.bootstrap_servers(), TOPIC)?;
        Ok(p.iter().all(|p| p.isr.len() == 3).then_some(()))
    })
    .expect("full ISRs");
}

/// Every partition of the topic is led by its preferred replica.
fn assert_preferred_leaders(bootstrap: &str) {
    let p = placement(bootstrap, TOPIC).expect("placement");
    let wrong: Vec<_> = p.iter().filter(|p| p.leader != p.replicas[0]).collect();
    assert!(
        wrong.is_empty(),
        "not led by the preferred replica: {wrong:?}"
    );
}

/// Roll every node with an `acks=all` producer running; the common assertions.
fn roll_all_with_producer(
    cluster: &Arc<Mutex<KafkaCluster>>,
    server: &ControlServer,
    conn: &[String],
) {
    let (bootstrap, all_nodes, controllers) = {
        let c = cluster.lock().unwrap();
        let mut all: Vec<i32> = c.nodes().iter().map(|n| n.id).collect();
        all.sort_unstable();
        (c.bootstrap_servers(), all, c.controller_ids())
    };
    let producer = BackgroundProducer::start(&bootstrap, TOPIC).expect("producer");
    wait_for("the producer to get going", WAIT, || {
        Ok((producer.stats().sent > 50).then_some(()))
    })
    .expect("producer sends");
    let before = server.restarts().len();
    let cmd = server.restart_command();
    let run = kafkaops_roll(
        conn,
        &[
            "--all",
            "--restart-command",
            &cmd,
            "--post-restart-timeout",
            "3m",
            "--output",
            "json",
        ],
    );
    let stats = producer.stop();
    eprintln!("producer: {stats:?}");
    assert_eq!(run.code, 0, "roll failed:\n{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["result"]["status"], "done", "{doc:#}");

    // Every node exactly once.
    let restarts: Vec<Restart> = server.restarts()[before..].to_vec();
    let mut restarted: Vec<i32> = restarts.iter().map(|r| r.node).collect();
    restarted.sort_unstable();
    assert_eq!(restarted, all_nodes, "each node once: {restarts:?}");
    let mut reported = ids(&doc["result"]["restarted"]);
    reported.sort_unstable();
    assert_eq!(reported, all_nodes);

    // Controllers first for a split cluster; the active controller last among them.
    let is_controller = |id: i32| controllers.contains(&id);
    let controller_restarts: Vec<&Restart> =
        restarts.iter().filter(|r| is_controller(r.node)).collect();
    if controllers
        .iter()
        .all(|c| !cluster.lock().unwrap().broker_ids().contains(c))
    {
        let first: Vec<i32> = restarts[..controllers.len()]
            .iter()
            .map(|r| r.node)
            .collect();
        assert!(
            first.iter().all(|id| is_controller(*id)),
            "controllers restart before brokers: {restarts:?}"
        );
    }
    let (last, others) = controller_restarts.split_last().expect("controllers");
    assert_eq!(
        last.leader_before,
        Some(last.node),
        "the last controller restarted was the active one: {restarts:?}"
    );
    for r in others {
        assert_ne!(
            r.leader_before,
            Some(r.node),
            "an active controller restarted before others: {restarts:?}"
        );
    }

    // No failed send, and the producer kept going.
    assert!(stats.sent > 0, "{stats:?}");
    assert_eq!(stats.failed(), 0, "failed sends during the roll: {stats:?}");
    // Preferred leaders at the end (checked right away: the roll waits for it).
    assert_preferred_leaders(&bootstrap);
}

fn start(spec: ClusterSpec) -> (Arc<Mutex<KafkaCluster>>, ControlServer, Vec<String>) {
    let cluster = KafkaCluster::start(spec).expect("start the cluster");
    eprintln!("cluster started in {:?}", cluster.start_duration());
    create_rolled_topic(&cluster);
    let conn = connection_args(&cluster);
    let cluster = Arc::new(Mutex::new(cluster));
    let server = ControlServer::start(Arc::clone(&cluster));
    (cluster, server, conn)
}

#[test]
fn split_cluster_roll_reconfigure_bad_input_and_abort() {
    let (cluster, server, conn) = start(ClusterSpec::split(3, 4));
    let bootstrap = cluster.lock().unwrap().bootstrap_servers();
    let cmd = server.restart_command();

    // 1. Roll every node with an acks=all producer running.
    roll_all_with_producer(&cluster, &server, &conn);

    // 2. A dynamic change is applied without any restart.
    let before = server.restarts().len();
    let run = kafkaops_roll(
        &conn,
        &[
            "--set",
            "log.cleaner.threads=2",
            "--restart-command",
            &cmd,
            "--output",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        server.restarts().len(),
        before,
        "a dynamic change restarted a node"
    );
    let doc = run.json();
    let mut reconfigured = ids(&doc["result"]["reconfigured"]);
    reconfigured.sort_unstable();
    let brokers = cluster.lock().unwrap().broker_ids();
    assert_eq!(reconfigured, brokers);
    for b in &brokers {
        assert_eq!(
            broker_config(&bootstrap, *b, "log.cleaner.threads")
                .unwrap()
                .as_deref(),
            Some("2"),
            "broker {b}"
        );
    }

    // 3. A static change restarts (only the node it is asked for), here through the
    //    stop/start command pair instead of one restart command.
    let (stop_cmd, start_cmd) = server.stop_start_commands();
    let run = kafkaops_roll(
        &conn,
        &[
            "--nodes",
            "1",
            "--set",
            "auto.create.topics.enable=true",
            "--stop-command",
            &stop_cmd,
            "--start-command",
            &start_cmd,
            "--output",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let new: Vec<i32> = server.restarts()[before..].iter().map(|r| r.node).collect();
    assert_eq!(new, vec![1], "a static change restarts the node");
    assert_eq!(ids(&run.json()["result"]["restarted"]), vec![1]);

    // 4. Bad input touches nothing.
    let before = server.restarts().len();
    let run = kafkaops_roll(&conn, &["--nodes", "1,99", "--restart-command", &cmd]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("unknown node id(s) 99"),
        "{}",
        run.stderr
    );
    let run = kafkaops_roll(
        &conn,
        &["--nodes", "2", "--restart-command", "echo nope >&2; exit 7"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("restarting node 2 failed") && run.stderr.contains("nope"),
        "{}",
        run.stderr
    );
    // Issue #26: the summary says node 2 was not restarted (it was counted as restarted).
    let said = format!("{}\n{}", run.stdout, run.stderr);
    assert!(
        said.contains("restart failed (not restarted, may be down): 2")
            && said.contains("restarted:    none")
            && said.contains("node 2 was not restarted and may be down"),
        "{said}"
    );
    assert_eq!(
        server.restarts().len(),
        before,
        "bad input restarted a node"
    );

    // 5. A node that never comes back: the roll stops there and restarts nothing else.
    let plan = kafkaops_roll(&conn, &["--all", "--dry-run", "--output", "json"]).json();
    let first = plan["plan"]["steps"][0]["nodes"][0]["node"]
        .as_i64()
        .map(|n| i32::try_from(n).unwrap())
        .unwrap_or_else(|| panic!("no first step: {plan:#}"));
    cluster.lock().unwrap().break_node(first);
    let before = server.restarts().len();
    // The broken node exits at once and never serves, so the run always sits out this timeout:
    // 10 s (30 s until 2026-11-28) is still ten polls, and what is checked (the roll stops at
    // that node and restarts nothing else) does not depend on how long it waited.
    let run = kafkaops_roll(
        &conn,
        &[
            "--all",
            "--restart-command",
            &cmd,
            "--post-restart-timeout",
            "10s",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("node {first} did not become SERVING")),
        "{}",
        run.stderr
    );
    let new: Vec<i32> = server.restarts()[before..].iter().map(|r| r.node).collect();
    assert_eq!(new, vec![first], "only the broken node was restarted");
    let mut c = cluster.lock().unwrap();
    c.repair_node(first);
    if !c.is_running(first) {
        c.start_node(first).expect("start the repaired node");
    }
    c.wait_until_ready(WAIT).expect("ready again");
    drop(c);

    drop(server);
}

#[test]
fn combined_cluster_roll_all() {
    let (cluster, server, conn) = start(ClusterSpec::combined(3));
    roll_all_with_producer(&cluster, &server, &conn);
    drop(server);
}

/// The saved roll in the state directory, if any (path and JSON).
fn saved_roll() -> Option<(std::path::PathBuf, serde_json::Value)> {
    let dir = std::fs::read_dir(state_dir()).ok()?;
    for entry in dir.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).ok()?;
            let json = serde_json::from_str(&text).ok()?;
            return Some((path, json));
        }
    }
    None
}

/// Nodes the saved roll is restarting whose old process is known to have ended and that do not
/// count as back yet (the roll is in the middle of a batch).
fn mid_restart(saved: &serde_json::Value) -> Vec<i64> {
    let Some(restarts) = saved["run"]["roller"]["awaiting"]["restarts"].as_object() else {
        return Vec::new();
    };
    restarts
        .iter()
        .filter(|(_, p)| !p["ended"].is_null() && p["back_at"].is_null() && !p["done_at"].is_null())
        .filter_map(|(id, _)| id.parse().ok())
        .collect()
}

/// Runs `kafkaops roll ARGS` and kills it (SIGKILL) once its saved state satisfies `cond`.
fn run_and_kill_when<T>(
    conn: &[String],
    args: &[&str],
    what: &str,
    cond: impl Fn(&serde_json::Value) -> Option<T>,
) -> T {
    let mut child = roll_command(conn, args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .expect("spawn kafkaops roll");
    let found = wait_for(what, WAIT, || {
        if let Some(status) = child.try_wait()? {
            anyhow::bail!("kafkaops roll ended before it could be killed: {status}");
        }
        Ok(saved_roll().and_then(|(_, s)| cond(&s)))
    });
    child.kill().expect("SIGKILL kafkaops roll");
    let status = child.wait().expect("wait for the killed roll");
    eprintln!("kafkaops roll killed: {status}");
    found.expect(what)
}

/// `kafkaops roll` killed with SIGKILL in the middle of a batch (its node down or coming
/// back), resumed and killed again while a restart command was in flight, then run again
/// with the same arguments: the last run resumes from the saved state and finishes; each
/// node is restarted once in total and no `acks=all` send fails.
#[test]
fn a_killed_roll_resumes_and_restarts_each_node_once() {
    let started = Instant::now();
    let (cluster, server, conn) = start(ClusterSpec::combined(3));
    let _ = std::fs::remove_dir_all(state_dir());
    let (bootstrap, all_nodes) = {
        let c = cluster.lock().unwrap();
        let mut all: Vec<i32> = c.nodes().iter().map(|n| n.id).collect();
        all.sort_unstable();
        (c.bootstrap_servers(), all)
    };
    let producer = BackgroundProducer::start(&bootstrap, TOPIC).expect("producer");
    wait_for("the producer to get going", WAIT, || {
        Ok((producer.stats().sent > 50).then_some(()))
    })
    .expect("producer sends");
    let cmd = server.restart_command();
    // --command-timeout bounds how long an unconfirmed restart is looked for (1 min here).
    let args = [
        "--all",
        "--restart-command",
        &cmd,
        "--command-timeout",
        "30s",
        "--post-restart-timeout",
        "3m",
        "--output",
        "json",
    ];
    // 1. Kill it while the first restarted node is down or coming back, as saved.
    let killed_during = run_and_kill_when(&conn, &args, "the roll to be mid-restart", |s| {
        let nodes = mid_restart(s);
        (!nodes.is_empty()).then_some(nodes)
    });
    eprintln!("killed kafkaops roll while node(s) {killed_during:?} restarted");
    // 2. Resume it, and kill it again while the next restart command is in flight (saved as
    //    issued, never confirmed): the next run must judge it from evidence, not re-issue it.
    let in_flight = run_and_kill_when(&conn, &args, "a restart command in flight", |s| {
        let p = &s["run"]["pending"];
        (p["status"] == "issued" && p["decision"]["decision"] == "restart")
            .then(|| p["decision"]["nodes"].clone())
    });
    eprintln!("killed kafkaops roll while the restart of {in_flight} was in flight");
    let restarts_before_resume = server.restarts().len();
    assert!(restarts_before_resume >= 1);
    let (path, _) = saved_roll().expect("the killed roll left its state");

    // A different request is refused while the saved roll exists.
    // A node the killed run restarted: the refused run would restart it a second time.
    let first_id = i32::try_from(killed_during[0]).unwrap();
    let first = first_id.to_string();
    let other = kafkaops_roll(&conn, &["--nodes", &first, "--restart-command", &cmd]);
    assert_eq!(other.code, 2, "{}", other.stderr);
    assert!(
        other.stderr.contains("--discard-state") && other.stderr.contains(&*path.to_string_lossy()),
        "{}",
        other.stderr
    );
    // (The restart in flight may reach the control server only now: count node `first`'s.)
    let restarts_of_first = server
        .restarts()
        .iter()
        .filter(|r| r.node == first_id)
        .count();
    assert_eq!(restarts_of_first, 1, "the refused roll restarted a node");

    // The same request resumes and finishes.
    let run = kafkaops_roll(&conn, &args);
    let stats = producer.stop();
    eprintln!("producer: {stats:?}");
    assert_eq!(run.code, 0, "resumed roll failed:\n{}", run.stderr);
    assert!(
        run.stderr.contains("Resuming the roll saved in"),
        "{}",
        run.stderr
    );
    assert_eq!(run.json()["result"]["status"], "done");
    // Issue #26: the resumed plan does not call a node the killed runs restarted "untouched".
    let plan = &run.json()["plan"];
    let untouched = plan.get("untouched").map(ids).unwrap_or_default();
    assert!(
        !untouched.contains(&first_id),
        "node {first_id} was restarted before the resume, yet untouched: {plan:#}"
    );
    let mut restarted: Vec<i32> = server.restarts().iter().map(|r| r.node).collect();
    restarted.sort_unstable();
    assert_eq!(
        restarted,
        all_nodes,
        "each node once in total: {:?}",
        server.restarts()
    );
    assert_eq!(stats.failed(), 0, "failed sends: {stats:?}");
    assert!(stats.sent > 0);
    assert!(saved_roll().is_none(), "a finished roll removes its state");
    let _ = std::fs::remove_dir_all(state_dir());
    eprintln!(
        "killed-and-resumed roll test took {:.1?}",
        started.elapsed()
    );
    drop(server);
}

/// Saves every run it is given (the JSON the state file would hold) and fails, as a process
/// killed at that moment, at the first save of a restart as `Issued`: what is left is the run
/// with that restart `Decided` and never issued.
#[derive(Default)]
struct KillBeforeIssue {
    last: std::sync::Mutex<Option<String>>,
    killed: std::sync::atomic::AtomicBool,
}

impl KillBeforeIssue {
    fn last(&self) -> Option<String> {
        self.last.lock().unwrap().clone()
    }
}

impl kafkaops::state::Store<kafkaops::driver::RollRun> for KillBeforeIssue {
    async fn load(&self) -> Result<Option<kafkaops::driver::RollRun>, kafkaops::state::StoreError> {
        Ok(self.last().and_then(|l| serde_json::from_str(&l).ok()))
    }

    async fn save(
        &self,
        run: &kafkaops::driver::RollRun,
    ) -> Result<(), kafkaops::state::StoreError> {
        use std::sync::atomic::Ordering::SeqCst;
        let issued = run.pending.as_ref().is_some_and(|p| {
            p.status == kafkaops::driver::ActionStatus::Issued
                && !p.decision.restarted_nodes().is_empty()
        });
        if issued && !self.killed.load(SeqCst) {
            self.killed.store(true, SeqCst);
            return Err(kafkaops::state::StoreError::Io("killed (injected)".into()));
        }
        *self.last.lock().unwrap() = Some(serde_json::to_string(run)?);
        Ok(())
    }
}

/// The driver's events, in words, in order.
#[derive(Default)]
struct Events(Vec<String>);

impl kafkaops::driver::Progress for Events {
    fn event(&mut self, event: &kafkaops::driver::Event<'_>) {
        use kafkaops::driver::Event;
        self.0.push(match event {
            Event::Observed { snapshot, .. } => {
                let down: Vec<String> = snapshot
                    .nodes
                    .iter()
                    .filter(|n| {
                        n.state != kafkaops::engine::model::ObservedState::Serving || !n.reachable
                    })
                    .map(|n| n.id.to_string())
                    .collect();
                format!("observed (not serving: [{}])", down.join(","))
            }
            Event::Decided(d) => format!("decided {d:?}"),
            Event::Resumed {
                not_issued,
                clock_behind_ms,
                ..
            } => format!(
                "resumed (not issued: {}, clock behind by {clock_behind_ms} ms)",
                not_issued.map_or_else(|| "none".into(), |d| format!("{:?}", d.restarted_nodes()))
            ),
            other => format!("{other:?}"),
        });
    }
}

/// Issue 23, point 7, on a real cluster (1 controller, brokers 1..=3, every partition of the
/// topic on all three, min.insync.replicas 2). A roll of node 1 decides "restart 1" from a
/// real observation and is killed before it issues the command (the saved run has it
/// `Decided`). Meanwhile node 2 stops (ISRs [1,3]). The run is resumed through the roll's
/// real IO (Kafka adapter, process platform, restart witness) whose clock source is faked 10
/// minutes behind the decision (the host's clock is not touched): before, the saved decision's
/// age saturated to 0 and node 1 was restarted at once, leaving the partitions one replica in
/// sync. The resumed run observes first, sees node 2 down and stops; node 1 is not restarted.
/// Then, with node 2 back and only the clock moved back, a resumed run observes, decides again
/// and restarts node 1 once.
#[test]
fn a_saved_roll_resumed_with_the_clock_moved_back_observes_before_acting() {
    use std::sync::atomic::{AtomicU64, Ordering};

    use kafkaops::driver::kafka_io::{KafkaRollIo, system_clock};
    use kafkaops::driver::{
        DriverOptions, NoProgress, NoStore, Outcome, RollIo, RollRun, StepResult, step,
    };
    use kafkaops::engine::model::{Millis, NodeId};
    use kafkaops::engine::roll::{NodeRequest, RollConfig, RollError, Roller};
    use kafkaops::kafka::client::{ClusterObserver, KafkaClient};
    use kafkaops::kafka::config::ConnectionConfig;
    use kafkaops::platform::PlatformNode;
    use kafkaops::platform::process::{ProcessPlatform, RestartMethod};
    use kafkaops::platform::witness::RestartWitness;

    let started = Instant::now();
    let (cluster, server, _conn) = start(ClusterSpec::split(1, 3));
    let (bootstrap, config) = {
        let c = cluster.lock().unwrap();
        let urls = c
            .nodes()
            .iter()
            .filter(|n| n.role.is_broker())
            .map(|n| format!("{}={}", n.id, n.broker_state_url()))
            .collect::<Vec<_>>()
            .join(",");
        let mut config = ConnectionConfig::new(c.bootstrap_servers())
            .with_property("bootstrap.controllers", c.controller_bootstrap())
            .with_property("kafkaops.broker.state.url", urls);
        config.request_timeout = Duration::from_secs(15);
        (c.bootstrap_servers(), config)
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // The fake clock: the host's, minus `behind`.
    let behind = Arc::new(AtomicU64::new(0));
    let io = rt.block_on(async {
        let client = KafkaClient::connect(config).await.expect("connect");
        let observation = client.observe().await.expect("observe");
        let nodes: Vec<PlatformNode> = observation
            .nodes
            .iter()
            .map(|n| PlatformNode {
                id: n.id,
                host: n.host.clone().unwrap_or_default(),
                address: n.host.as_ref().zip(n.port).map(|(h, p)| format!("{h}:{p}")),
            })
            .collect();
        let client = client.with_known_brokers(vec![1, 2, 3]);
        let platform = ProcessPlatform::new(
            nodes,
            RestartMethod::Restart(server.restart_command()),
            Duration::from_secs(60),
        );
        let witness = RestartWitness::new(Duration::from_secs(5), Duration::from_secs(540));
        let behind = Arc::clone(&behind);
        KafkaRollIo::new(client, platform, witness)
            .await
            .expect("the roll's IO")
            .with_clock(Arc::new(move || {
                Millis(system_clock().0 - behind.load(Ordering::SeqCst))
            }))
    });
    let config = RollConfig {
        poll_interval_ms: 1_000,
        ..RollConfig::default()
    };
    let requests = std::collections::BTreeMap::from([(
        NodeId(1),
        NodeRequest {
            restart_reasons: vec!["selected with --nodes".into()],
            desired_config: std::collections::BTreeMap::new(),
            expected_software: None,
        },
    )]);
    let options = DriverOptions {
        settle_after_restart_ms: 1_000,
        ..DriverOptions::default()
    };
    // A roll killed between deciding "restart 1" and issuing it; its saved run.
    let kill_before_issue = || -> (String, Millis) {
        let mut run = RollRun::new(Roller::new(config.clone(), requests.clone()), io.now());
        let mut store = KillBeforeIssue::default();
        let r = rt.block_on(step(
            &mut run,
            &io,
            &mut NoProgress,
            &mut store,
            false,
            &options,
        ));
        assert!(
            matches!(r, StepResult::Finished(Outcome::SaveFailed(_))),
            "{r:?}"
        );
        let saved = store.last().expect("the decided run was saved");
        let restored: RollRun = serde_json::from_str(&saved).unwrap();
        let p = restored.pending.expect("saved with its decision");
        assert_eq!(p.status, kafkaops::driver::ActionStatus::Decided);
        assert_eq!(p.decision.restarted_nodes(), vec![NodeId(1)]);
        (saved, p.decided_at)
    };
    let (saved, decided_at) = kill_before_issue();
    assert!(server.restarts().is_empty(), "{:?}", server.restarts());

    // Meanwhile node 2 stops: every partition is left with ISR [1,3].
    cluster.lock().unwrap().stop_node(2).expect("stop node 2");
    wait_for("ISRs without node 2", WAIT, || {
        let p = placement(&bootstrap, TOPIC)?;
        Ok(p.iter()
            .all(|p| !p.isr.contains(&2) && p.isr.len() == 2)
            .then_some(()))
    })
    .expect("ISRs [1,3]");

    // Resumed on a clock 10 minutes behind the decision.
    behind.store(io.now().since(decided_at) + 600_000, Ordering::SeqCst);
    assert!(io.now() < decided_at);
    let mut run: RollRun = serde_json::from_str(&saved).unwrap();
    let mut events = Events::default();
    let result = rt.block_on(step(
        &mut run,
        &io,
        &mut events,
        &mut NoStore,
        false,
        &options,
    ));
    eprintln!("resumed step: {result:?}\n{:#?}", events.0);
    assert!(
        server.restarts().is_empty(),
        "node 1 restarted on the saved decision: {:?}",
        server.restarts()
    );
    // About 10 minutes behind the decision (less the milliseconds the resume itself took).
    let behind_ms: u64 = events.0[0]
        .strip_prefix("resumed (not issued: [NodeId(1)], clock behind by ")
        .and_then(|r| r.strip_suffix(" ms)"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{:#?}", events.0));
    assert!(behind_ms > 590_000, "{:#?}", events.0);
    assert_eq!(
        events.0[1], "observed (not serving: [2])",
        "{:#?}",
        events.0
    );
    assert!(events.0[2].starts_with("decided Abort"), "{:#?}", events.0);
    match result {
        StepResult::Finished(Outcome::Aborted(
            RollError::NodeBecameUnhealthy { node, .. } | RollError::NodeBecameUnreachable { node },
        )) => assert_eq!(node, NodeId(2)),
        other => panic!("{other:?}"),
    }

    // Node 2 back; only the clock moved back: the resumed run observes, decides again and
    // restarts node 1 once.
    {
        let mut c = cluster.lock().unwrap();
        c.start_node(2).expect("start node 2");
    }
    wait_for("full ISRs again", WAIT, || {
        let p = placement(&bootstrap, TOPIC)?;
        Ok(p.iter().all(|p| p.isr.len() == 3).then_some(()))
    })
    .expect("full ISRs");
    behind.store(0, Ordering::SeqCst);
    let (saved, decided_at) = kill_before_issue();
    behind.store(io.now().since(decided_at) + 600_000, Ordering::SeqCst);
    let mut run: RollRun = serde_json::from_str(&saved).unwrap();
    let mut events = Events::default();
    let mut outcome = None;
    let deadline = Instant::now() + Duration::from_secs(240);
    while Instant::now() < deadline {
        match rt.block_on(step(
            &mut run,
            &io,
            &mut events,
            &mut NoStore,
            false,
            &options,
        )) {
            StepResult::Wake(at) => rt.block_on(io.sleep_until(at)),
            StepResult::Finished(o) => {
                outcome = Some(o);
                break;
            }
        }
    }
    let decided: Vec<&String> = events
        .0
        .iter()
        .filter(|e| e.starts_with("decided Restart"))
        .collect();
    eprintln!("second resume: {outcome:?}\n{:#?}", decided);
    assert!(
        matches!(outcome, Some(Outcome::Done(_))),
        "{outcome:?}\n{:#?}",
        events.0
    );
    assert_eq!(events.0[1], "observed (not serving: [])", "{:#?}", events.0);
    let restarted: Vec<i32> = server.restarts().iter().map(|r| r.node).collect();
    assert_eq!(restarted, vec![1], "{:?}", server.restarts());
    eprintln!(
        "clock-moved-back resume test took {:.1?}",
        started.elapsed()
    );
    drop(server);
}
