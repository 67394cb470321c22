//! The `kafkaops rebalance` binary against a wire-level Cruise Control double
//! (wiremock answering with the reference's shapes): snapshot tests of the table
//! and JSON output, and every exit code the command can produce.

use std::io::{BufRead, BufReader};
use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::cc_wire;
use cc_wire::{TASK, fixture, json, user_tasks_body};

use crate::support::bin;
use bin::Out as Run;

pub(crate) fn base_command(url: &str) -> StdCommand {
    let mut cmd = bin::kafkaops();
    cmd.env("RUST_LOG", "off")
        .env("KAFKAOPS_CRUISE_CONTROL_URL", url);
    cmd
}

/// Runs `kafkaops <args>` against `url` off the async runtime (the double lives on it).
async fn run(url: &str, args: &[&str]) -> Run {
    let mut cmd = base_command(url);
    cmd.args(args);
    bin::run_async(cmd).await
}

fn filters() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.add_filter(r"127\.0\.0\.1:\d+", "[CC]");
    s.add_filter(r"started [0-9a-z ]+ ago", "started [DURATION] ago");
    s.add_filter(r"after [0-9a-z. ]+ waiting", "after [DURATION] waiting");
    // Elapsed time and ETA of a running execution count from the fixture's date to now.
    s.add_filter(
        r"running for [0-9a-z ]+; (about [0-9a-z ]+ left|no ETA yet)",
        "running for [ELAPSED]; [ETA]",
    );
    s.add_filter(r#""(elapsed_ms|eta_ms)": \d+"#, r#""$1": [MS]"#);
    s.set_snapshot_path("snapshots");
    s.set_prepend_module_to_snapshot(false);
    s
}

/// A ready Cruise Control with brokers 1-4, idle executor.
pub(crate) async fn ready_cc() -> MockServer {
    let server = MockServer::start().await;
    mount_ready(&server).await;
    server
}

pub(crate) async fn mount_ready(server: &MockServer) {
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .and(query_param("substates", "monitor,executor,analyzer"))
        .respond_with(json(200, &fixture("state_ready.json")))
        .mount(server)
        .await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/kafka_cluster_state"))
        .respond_with(json(200, &fixture("kafka_cluster_state.json")))
        .mount(server)
        .await;
}

pub(crate) async fn mount_dry_run(server: &MockServer, endpoint: &str, body: &str) {
    Mock::given(method("POST"))
        .and(path(format!("/kafkacruisecontrol/{endpoint}")))
        .and(query_param("dryrun", "true"))
        .respond_with(json(200, body).insert_header("User-Task-ID", "dry-run-task"))
        .mount(server)
        .await;
}

async fn posts_with(server: &MockServer, needle: &str) -> usize {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.method.as_str() == "POST" && r.url.as_str().contains(needle))
        .count()
}

const FAST: [&str; 2] = ["--poll-interval", "10ms"];

#[tokio::test(flavor = "multi_thread")]
async fn add_dry_run_table_and_json() {
    let cc = ready_cc().await;
    mount_dry_run(&cc, "add_broker", &fixture("add_broker_verbose.json")).await;
    let table = run(&cc.uri(), &["rebalance", "add", "--brokers", "4"]).await;
    assert_eq!(table.code, 0, "{}", table.stderr);
    let js = run(
        &cc.uri(),
        &["rebalance", "add", "--brokers", "4", "--output", "json"],
    )
    .await;
    assert_eq!(js.code, 0, "{}", js.stderr);
    let v: serde_json::Value = js.json();
    assert_eq!(v["summary"]["replica_movements"], 3);
    assert!(v["summary"]["balancedness_before"].is_null(), "NaN -> null");
    filters().bind(|| {
        insta::assert_snapshot!("add_dry_run_table", table.stdout);
        insta::assert_snapshot!("add_dry_run_json", js.stdout);
    });
    assert_eq!(posts_with(&cc, "dryrun=false").await, 0);
    // The dry run carried the reason and only accepted names.
    let reqs = cc.received_requests().await.unwrap();
    let post = reqs
        .iter()
        .find(|r| r.url.path().ends_with("add_broker"))
        .unwrap();
    let q = post.url.query().unwrap();
    assert!(
        q.contains("json=true") && q.contains("reason=kafkaops") && q.contains("brokerid=4"),
        "{q}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn full_rebalance_with_nothing_to_move() {
    let cc = ready_cc().await;
    mount_dry_run(&cc, "rebalance", &fixture("rebalance_noop.json")).await;
    let r = run(
        &cc.uri(),
        &[
            "rebalance",
            "full",
            "--excluded-topics",
            "__consumer_offsets",
            "--execute",
            "--yes",
        ],
    )
    .await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    filters().bind(|| insta::assert_snapshot!("full_noop_execute_table", r.stdout));
    assert_eq!(
        posts_with(&cc, "dryrun=false").await,
        0,
        "nothing to execute"
    );
    assert_eq!(
        posts_with(&cc, "excluded_topics=__consumer_offsets").await,
        1
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn remove_sends_destinations() {
    let cc = ready_cc().await;
    mount_dry_run(&cc, "remove_broker", &fixture("add_broker_verbose.json")).await;
    let r = run(
        &cc.uri(),
        &[
            "rebalance",
            "remove",
            "--brokers",
            "4",
            "--destination-brokers",
            "1,2",
            "--replication-throttle",
            "1000000",
            "-o",
            "json",
        ],
    )
    .await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = r.json();
    assert_eq!(v["operation"], "remove_broker");
    assert_eq!(v["destination_brokers"], serde_json::json!([1, 2]));
    assert_eq!(posts_with(&cc, "destination_broker_ids=1%2C2").await, 1);
    assert_eq!(posts_with(&cc, "replication_throttle=1000000").await, 1);
}

/// Mounts an execution that runs for two polls, then completes.
async fn mount_execution(cc: &MockServer, final_status: &str) {
    mount_dry_run(cc, "add_broker", &fixture("add_broker_verbose.json")).await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/add_broker"))
        .and(query_param("dryrun", "false"))
        .respond_with(
            json(200, &fixture("add_broker_verbose.json")).insert_header("User-Task-ID", TASK),
        )
        .expect(1)
        .mount(cc)
        .await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .and(query_param("substates", "executor"))
        .respond_with(json(200, &fixture("state_executing.json")))
        .up_to_n_times(2)
        .with_priority(1)
        .mount(cc)
        .await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .and(query_param("substates", "executor"))
        .respond_with(json(200, &fixture("state_ready.json")))
        .with_priority(2)
        .mount(cc)
        .await;
    let original = fixture("add_broker_verbose.json");
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/user_tasks"))
        .and(query_param("user_task_ids", TASK))
        .respond_with(json(
            200,
            &user_tasks_body(false, "InExecution", Some(&original)),
        ))
        .up_to_n_times(2)
        .with_priority(1)
        .mount(cc)
        .await;
    let last = if final_status == "Completed" {
        original.clone()
    } else {
        "CompletedWithError".to_string()
    };
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/user_tasks"))
        .respond_with(json(
            200,
            &user_tasks_body(false, final_status, Some(&last)),
        ))
        .with_priority(2)
        .mount(cc)
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn execute_follows_the_execution_to_completion() {
    let cc = ready_cc().await;
    mount_execution(&cc, "Completed").await;
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
    args.extend(FAST);
    let r = run(&cc.uri(), &args).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = r.json();
    assert_eq!(v["execution"]["status"], "completed");
    assert_eq!(v["task_id"], TASK);
    filters().bind(|| insta::assert_snapshot!("add_execute_json", r.stdout));

    let cc = ready_cc().await;
    mount_execution(&cc, "Completed").await;
    let mut args = vec!["rebalance", "add", "--brokers", "4", "--execute", "--yes"];
    args.extend(FAST);
    let r = run(&cc.uri(), &args).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    filters().bind(|| insta::assert_snapshot!("add_execute_table", r.stdout));
}

#[tokio::test(flavor = "multi_thread")]
async fn no_wait_returns_the_task_id() {
    let cc = ready_cc().await;
    mount_execution(&cc, "Completed").await;
    let r = run(
        &cc.uri(),
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
    )
    .await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = r.json();
    assert_eq!(v["execution"]["status"], "started");
    assert_eq!(v["task_id"], TASK);
    let polls = cc
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path().ends_with("user_tasks"))
        .count();
    assert_eq!(polls, 0, "--no-wait does not follow");
}

#[tokio::test(flavor = "multi_thread")]
async fn status_table_and_json() {
    let cc = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(200, &fixture("state_executing.json")))
        .mount(&cc)
        .await;
    let table = run(&cc.uri(), &["rebalance", "status"]).await;
    let js = run(&cc.uri(), &["rebalance", "status", "-o", "json"]).await;
    js.json(); // checked against schemas/rebalance-status.json
    assert_eq!((table.code, js.code), (0, 0), "{}", table.stderr);
    filters().bind(|| {
        insta::assert_snapshot!("status_executing_table", table.stdout);
        insta::assert_snapshot!("status_executing_json", js.stdout);
    });
    let idle = ready_cc().await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(200, &fixture("state_sampling.json")))
        .mount(&idle)
        .await;
    let r = run(&idle.uri(), &["rebalance", "status"]).await;
    assert_eq!(r.code, 0);
    filters().bind(|| insta::assert_snapshot!("status_sampling_table", r.stdout));
}

#[tokio::test(flavor = "multi_thread")]
async fn stop_stops_a_running_execution_and_is_a_noop_when_idle() {
    let cc = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(200, &fixture("state_executing.json")))
        .up_to_n_times(2)
        .with_priority(1)
        .mount(&cc)
        .await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(200, &fixture("state_ready.json")))
        .with_priority(2)
        .mount(&cc)
        .await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/stop_proposal_execution"))
        .and(query_param("json", "true"))
        .and(query_param("reason", "kafkaops"))
        .respond_with(json(200, &fixture("stop.json")))
        .expect(1)
        .mount(&cc)
        .await;
    let r = run(
        &cc.uri(),
        &["rebalance", "stop", "-o", "json", "--poll-interval", "10ms"],
    )
    .await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.json(); // checked against schemas/rebalance-stop.json
    filters().bind(|| insta::assert_snapshot!("stop_json", r.stdout));

    let idle = ready_cc().await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(200, &fixture("state_ready.json")))
        .mount(&idle)
        .await;
    let r = run(&idle.uri(), &["rebalance", "stop"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Nothing is executing"));
    assert_eq!(posts_with(&idle, "stop_proposal_execution").await, 0);
}

/// One line per case: the exit code and the first line of the error.
fn case(name: &str, r: &Run) -> String {
    let first = r
        .stderr
        .lines()
        .find(|l| l.starts_with("error:"))
        .unwrap_or("(no error line)");
    format!("{name}: exit {} | {first}\n", r.code)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_exit_code() {
    let mut report = String::new();

    // 0: dry run.
    let cc = ready_cc().await;
    mount_dry_run(&cc, "add_broker", &fixture("add_broker_verbose.json")).await;
    let r = run(&cc.uri(), &["rebalance", "add", "--brokers", "4"]).await;
    assert_eq!(r.code, 0);
    report += &case("dry run", &r);

    // 2: unknown (or controller-only) broker: nothing mutating is called.
    let r = run(
        &cc.uri(),
        &["rebalance", "add", "--brokers", "4,9", "--execute", "--yes"],
    )
    .await;
    assert_eq!(r.code, 2);
    report += &case("unknown broker", &r);
    // 2: a removed broker given as a destination: nothing is called at all.
    let before = cc.received_requests().await.unwrap().len();
    let r = run(
        &cc.uri(),
        &[
            "rebalance",
            "remove",
            "--brokers",
            "3,4",
            "--destination-brokers",
            "1,4",
        ],
    )
    .await;
    assert_eq!(r.code, 2);
    assert_eq!(cc.received_requests().await.unwrap().len(), before);
    report += &case("removed broker as destination", &r);
    // 2: --execute without a terminal and without --yes.
    let r = run(
        &cc.uri(),
        &["rebalance", "add", "--brokers", "4", "--execute"],
    )
    .await;
    assert_eq!(r.code, 2);
    report += &case("execute without --yes, no terminal", &r);
    assert_eq!(
        posts_with(&cc, "add_broker").await,
        2,
        "only the two dry runs"
    );
    assert_eq!(posts_with(&cc, "dryrun=false").await, 0);
    // 2: an imbalance template that cannot be read (checked before any request).
    let before = cc.received_requests().await.unwrap().len();
    let r = run(
        &cc.uri(),
        &[
            "rebalance",
            "imbalance",
            "--template",
            "/nonexistent-kafkaops/template.yaml",
        ],
    )
    .await;
    assert_eq!(r.code, 2);
    assert_eq!(cc.received_requests().await.unwrap().len(), before);
    report += &case("imbalance template unreadable", &r);
    // 2: no Cruise Control URL.
    let mut cmd = base_command("x");
    cmd.env_remove("KAFKAOPS_CRUISE_CONTROL_URL")
        .args(["rebalance", "status"]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    let r = Run {
        code: out.status.code().unwrap(),
        stdout: String::new(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        args: vec!["rebalance".into(), "status".into()],
    };
    assert_eq!(r.code, 2);
    report += &case("no Cruise Control URL", &r);
    // 2: Cruise Control says a hard goal is missing.
    let hard = ready_cc().await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/rebalance"))
        .respond_with(json(500, &fixture("error_missing_hard_goals.json")))
        .mount(&hard)
        .await;
    let r = run(
        &hard.uri(),
        &["rebalance", "full", "--goals", "RackAwareGoal"],
    )
    .await;
    assert_eq!(r.code, 2);
    report += &case("missing hard goals", &r);

    // 12: Cruise Control could not satisfy the goals (optimisation failure).
    let fail = ready_cc().await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/rebalance"))
        .respond_with(json(500, &fixture("error_optimization_failure.json")))
        .mount(&fail)
        .await;
    let r = run(&fail.uri(), &["rebalance", "full"]).await;
    assert_eq!(r.code, 12);
    assert!(
        r.stderr
            .contains("Cruise Control could not satisfy the goals"),
        "{}",
        r.stderr
    );
    report += &case("optimization failure", &r);
    // 1: the execution ended with an error.
    let bad = ready_cc().await;
    mount_execution(&bad, "CompletedWithError").await;
    let mut args = vec!["rebalance", "add", "--brokers", "4", "--execute", "--yes"];
    args.extend(FAST);
    let r = run(&bad.uri(), &args).await;
    assert_eq!(r.code, 1);
    report += &case("execution ended with an error", &r);
    // 9: the execution was ended by a stop request (Cruise Control remembers a
    // stop_proposal_execution task started after the execution's).
    let stopped = ready_cc().await;
    let stop_task = serde_json::json!({"userTasks": [{
        "UserTaskId": "5a4b2c1d-0000-4000-8000-00000000aaaa",
        "RequestURL": "POST /kafkacruisecontrol/stop_proposal_execution?json=true",
        "ClientIdentity": "127.0.0.1",
        "StartMs": "1579874399999",
        "Status": "Completed"}], "version": 1});
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/user_tasks"))
        .and(query_param("endpoints", "stop_proposal_execution"))
        .respond_with(json(200, &stop_task.to_string()))
        .with_priority(1)
        .mount(&stopped)
        .await;
    mount_execution(&stopped, "CompletedWithError").await;
    let r = run(&stopped.uri(), &args).await;
    assert_eq!(r.code, 9, "{}", r.stderr);
    assert!(
        r.stderr.contains("stopped by a stop request"),
        "{}",
        r.stderr
    );
    report += &case("execution stopped by a stop request", &r);

    // 3: Cruise Control too slow.
    let slow = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(200, &fixture("state_ready.json")).set_delay(Duration::from_secs(5)))
        .mount(&slow)
        .await;
    let r = run(
        &slow.uri(),
        &[
            "rebalance",
            "status",
            "--timeout",
            "1s",
            "--request-timeout",
            "300ms",
        ],
    )
    .await;
    assert_eq!(r.code, 3);
    report += &case("timeout", &r);

    // 4: still sampling: Cruise Control is asked, and its own not-ready answer decides.
    let sampling = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(200, &fixture("state_sampling.json")))
        .mount(&sampling)
        .await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/kafka_cluster_state"))
        .respond_with(json(200, &fixture("kafka_cluster_state.json")))
        .mount(&sampling)
        .await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/add_broker"))
        .respond_with(json(500, &fixture("error_not_enough_windows.json")))
        .mount(&sampling)
        .await;
    let r = run(
        &sampling.uri(),
        &["rebalance", "add", "--brokers", "4", "--execute", "--yes"],
    )
    .await;
    assert_eq!(r.code, 4);
    assert!(
        r.stderr.contains("oldest metric window started"),
        "{}",
        r.stderr
    );
    report += &case("still sampling", &r);
    // 4: the monitor looked ready but the proposal says not enough windows.
    let windows = ready_cc().await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/add_broker"))
        .respond_with(json(500, &fixture("error_not_enough_windows.json")))
        .mount(&windows)
        .await;
    let r = run(&windows.uri(), &["rebalance", "add", "--brokers", "4"]).await;
    assert_eq!(r.code, 4);
    report += &case("not enough valid windows", &r);

    // 5: another execution is running.
    let busy = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(200, &fixture("state_executing.json")))
        .mount(&busy)
        .await;
    let r = run(
        &busy.uri(),
        &["rebalance", "add", "--brokers", "4", "--execute", "--yes"],
    )
    .await;
    assert_eq!(r.code, 5);
    assert_eq!(posts_with(&busy, "add_broker").await, 0);
    report += &case("another execution running", &r);

    // 6: wrong credentials.
    let auth = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(401).set_body_string("<html>401</html>"))
        .mount(&auth)
        .await;
    let mut cmd = base_command(&auth.uri());
    cmd.env("KAFKAOPS_CRUISE_CONTROL_USER", "admin")
        .env("KAFKAOPS_CRUISE_CONTROL_PASSWORD", "hunter2-secret")
        .args(["rebalance", "status"]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    let r = Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        args: vec!["rebalance".into(), "status".into()],
    };
    assert_eq!(r.code, 6);
    assert!(!r.stderr.contains("hunter2-secret") && !r.stdout.contains("hunter2-secret"));
    report += &case("401", &r);
    // 6: nothing listening.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let r = run(
        &format!("http://127.0.0.1:{port}"),
        &["rebalance", "status", "--timeout", "2s"],
    )
    .await;
    assert_eq!(r.code, 6);
    report += &case("unreachable", &r);

    filters().bind(|| insta::assert_snapshot!("exit_codes", report));
}

#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_while_following_leaves_the_execution_running_without_a_terminal() {
    let cc = ready_cc().await;
    mount_dry_run(&cc, "add_broker", &fixture("add_broker_verbose.json")).await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/add_broker"))
        .and(query_param("dryrun", "false"))
        .respond_with(
            json(200, &fixture("add_broker_verbose.json")).insert_header("User-Task-ID", TASK),
        )
        .mount(&cc)
        .await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .and(query_param("substates", "executor"))
        .respond_with(json(200, &fixture("state_executing.json")))
        .mount(&cc)
        .await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/user_tasks"))
        .respond_with(json(
            200,
            &user_tasks_body(false, "InExecution", Some("{}")),
        ))
        .mount(&cc)
        .await;
    let mut cmd = base_command(&cc.uri());
    cmd.args([
        "rebalance",
        "add",
        "--brokers",
        "4",
        "--execute",
        "--yes",
        "--poll-interval",
        "50ms",
    ])
    .env("RUST_LOG", "kafkaops=info")
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    let (code, stderr) = tokio::task::spawn_blocking(move || {
        let mut child = cmd.spawn().unwrap();
        let pid = child.id();
        let mut guard = scopeguard(pid);
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut seen = String::new();
        // Wait (bounded by the stream) until the binary reports it is following.
        for line in lines.by_ref() {
            let line = line.unwrap();
            seen.push_str(&line);
            seen.push('\n');
            if line.contains("partitions") {
                break;
            }
        }
        let ok = StdCommand::new("kill")
            .args(["-INT", &pid.to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
        for line in lines {
            seen.push_str(&line.unwrap());
            seen.push('\n');
        }
        let status = child.wait().unwrap();
        guard.0 = None;
        (status.code().unwrap_or(-1), seen)
    })
    .await
    .unwrap();
    assert_eq!(code, 130, "{stderr}");
    assert!(stderr.contains("keeps running"), "{stderr}");
    // Issue #26: the way back is the command that follows this task.
    assert!(
        stderr.contains(&format!("kafkaops rebalance status --task {TASK} --follow")),
        "{stderr}"
    );
    assert_eq!(posts_with(&cc, "stop_proposal_execution").await, 0);
}

/// Kills the child if the test panics before it exited.
pub(crate) struct Guard(pub(crate) Option<u32>);

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(pid) = self.0 {
            let _ = StdCommand::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
    }
}

pub(crate) fn scopeguard(pid: u32) -> Guard {
    Guard(Some(pid))
}

#[tokio::test(flavor = "multi_thread")]
async fn the_user_sees_what_is_waited_for() {
    // The active-task limit: retried after the server's 5 s task scan, and said so.
    let cc = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(500, &fixture("error_active_tasks.json")))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&cc)
        .await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(200, &fixture("state_ready.json")))
        .with_priority(2)
        .mount(&cc)
        .await;
    let r = run(&cc.uri(), &["rebalance", "status"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("Waiting for a free Cruise Control user-task slot"),
        "{}",
        r.stderr
    );

    // --wait-for-ready: waits while Cruise Control answers "not enough windows", then proposes.
    let cc = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/add_broker"))
        .respond_with(json(500, &fixture("error_not_enough_windows.json")))
        .up_to_n_times(2)
        .with_priority(1)
        .mount(&cc)
        .await;
    mount_ready(&cc).await;
    mount_dry_run(&cc, "add_broker", &fixture("add_broker_verbose.json")).await;
    let mut args = vec![
        "rebalance",
        "add",
        "--brokers",
        "4",
        "--wait-for-ready",
        "1m",
    ];
    args.extend(FAST);
    let r = run(&cc.uri(), &args).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("Waiting for Cruise Control to collect enough metric windows"),
        "{}",
        r.stderr
    );
}

/// Regression: Ctrl-C while the execution request itself was in flight used to kill the process
/// without a word; now it exits 130 and says the execution may have started.
#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_while_starting_the_execution_says_it_may_be_running() {
    let cc = ready_cc().await;
    mount_dry_run(&cc, "add_broker", &fixture("add_broker_verbose.json")).await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/add_broker"))
        .and(query_param("dryrun", "false"))
        .respond_with(
            json(200, &fixture("add_broker_verbose.json"))
                .insert_header("User-Task-ID", TASK)
                .set_delay(Duration::from_secs(60)),
        )
        .mount(&cc)
        .await;
    let mut cmd = base_command(&cc.uri());
    cmd.args(["rebalance", "add", "--brokers", "4", "--execute", "--yes"])
        .args(FAST)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let pid = child.id();
    let mut guard = scopeguard(pid);
    // Wait until the execution request has reached the server (bounded).
    let mut sent = false;
    for _ in 0..600 {
        let n = cc
            .received_requests()
            .await
            .unwrap_or_default()
            .iter()
            .filter(|r| r.method.as_str() == "POST" && r.url.as_str().contains("dryrun=false"))
            .count();
        if n > 0 {
            sent = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(sent, "the execution request never reached the server");
    let ok = StdCommand::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let (code, stderr) = tokio::task::spawn_blocking(move || {
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        (child.wait().unwrap().code().unwrap_or(-1), stderr)
    })
    .await
    .unwrap();
    guard.0 = None;
    assert_eq!(code, 130, "{stderr}");
    assert!(stderr.contains("may be running"), "{stderr}");
}

/// `rebalance imbalance` without `--execute`: the full rebalance is proposed with the template's
/// goals, nothing is recorded (so the next run proposes again); an unfixable violation alone is
/// reported and nothing is asked of Cruise Control beyond reading its state.
#[tokio::test]
async fn imbalance_dry_run_uses_the_template_and_records_nothing() {
    let cc = ready_cc().await;
    let violation = |fixable: &str, unfixable: &str| {
        format!(
            r#"{{"AnomalyDetectorState":{{"recentGoalViolations":[{{"anomalyId":"a1","status":"IGNORED",
              "detectionMs":1000,"statusUpdateMs":1000,"fixableViolatedGoals":[{fixable}],
              "unfixableViolatedGoals":[{unfixable}]}}]}},"version":1}}"#
        )
    };
    let detector = Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .and(query_param("substates", "anomaly_detector"))
        .respond_with(json(200, &violation(r#""ReplicaDistributionGoal""#, "")))
        .mount_as_scoped(&cc)
        .await;
    mount_dry_run(&cc, "rebalance", &fixture("add_broker_verbose.json")).await;
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("t.yaml");
    std::fs::write(
        &template,
        "spec:\n  goals: [RackAwareGoal, ReplicaDistributionGoal]\n  skipHardGoalCheck: true\n",
    )
    .unwrap();
    let state_dir = dir.path().join("state");
    let args = [
        "rebalance",
        "imbalance",
        "--template",
        template.to_str().unwrap(),
        "--state-dir",
        state_dir.to_str().unwrap(),
        "-o",
        "json",
    ];
    for _ in 0..2 {
        let r = run(&cc.uri(), &args).await;
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value = r.json();
        assert_eq!(v["operation"], "rebalance", "{v}");
        assert_eq!(v["dry_run"], true);
    }
    assert_eq!(posts_with(&cc, "dryrun=true").await, 2, "proposed twice");
    assert_eq!(
        posts_with(&cc, "goals=RackAwareGoal%2CReplicaDistributionGoal").await,
        2
    );
    assert_eq!(posts_with(&cc, "skip_hard_goal_check=true").await, 2);
    assert_eq!(posts_with(&cc, "dryrun=false").await, 0);
    assert!(!state_dir.exists(), "a dry run records nothing");
    drop(detector);

    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .and(query_param("substates", "anomaly_detector"))
        .respond_with(json(
            200,
            &violation(r#""ReplicaDistributionGoal""#, r#""RackAwareGoal""#),
        ))
        .mount(&cc)
        .await;
    let r = run(&cc.uri(), &args).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = r.json();
    assert_eq!(v["status"], "nothing-to-fix", "{v}");
    assert_eq!(v["unfixable"][0]["anomaly_id"], "a1");
    assert!(
        r.stderr.is_empty() || !r.stderr.contains("error"),
        "{}",
        r.stderr
    );
    assert_eq!(
        posts_with(&cc, "rebalance").await,
        2,
        "nothing asked of Cruise Control"
    );
}

/// The query pairs of the one POST to `endpoint`.
async fn post_query(server: &MockServer, endpoint: &str) -> Vec<(String, String)> {
    let reqs = server.received_requests().await.unwrap_or_default();
    let posts: Vec<_> = reqs
        .iter()
        .filter(|r| r.method.as_str() == "POST" && r.url.path().ends_with(endpoint))
        .collect();
    assert_eq!(posts.len(), 1, "one POST to {endpoint}");
    posts[0]
        .url
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn has(q: &[(String, String)], k: &str, v: &str) -> bool {
    q.iter().any(|(a, b)| a == k && b == v)
}

/// Each option users have elsewhere reaches Cruise Control as the parameter of its endpoint.
#[tokio::test(flavor = "multi_thread")]
async fn each_option_reaches_cruise_control() {
    let strategies = "PrioritizeSmallReplicaMovementStrategy,BaseReplicaMovementStrategy";
    // full: destinations, disk rebalance with intra-broker concurrency, cluster-wide cap,
    // strategies, recently demoted brokers, a pass-through parameter.
    let cc = ready_cc().await;
    mount_dry_run(&cc, "rebalance", &fixture("add_broker_verbose.json")).await;
    let r = run(
        &cc.uri(),
        &[
            "rebalance",
            "full",
            "--destination-brokers",
            "1,2",
            "--rebalance-disk",
            "--concurrent-intra-broker-partition-movements",
            "3",
            "--max-partition-movements-in-cluster",
            "7",
            "--replica-movement-strategies",
            strategies,
            "--exclude-recently-demoted-brokers",
            "--cc-param",
            "fast_mode=false",
        ],
    )
    .await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let q = post_query(&cc, "/rebalance").await;
    for (k, v) in [
        ("destination_broker_ids", "1,2"),
        ("rebalance_disk", "true"),
        ("concurrent_intra_broker_partition_movements", "3"),
        ("max_partition_movements_in_cluster", "7"),
        ("replica_movement_strategies", strategies),
        ("exclude_recently_demoted_brokers", "true"),
        ("fast_mode", "false"),
        ("dryrun", "true"),
    ] {
        assert!(has(&q, k, v), "{k}={v} in {q:?}");
    }

    // add: the options add_broker accepts.
    let cc = ready_cc().await;
    mount_dry_run(&cc, "add_broker", &fixture("add_broker_verbose.json")).await;
    let r = run(
        &cc.uri(),
        &[
            "rebalance",
            "add",
            "--brokers",
            "4",
            "--max-partition-movements-in-cluster",
            "7",
            "--replica-movement-strategies",
            strategies,
            "--cc-param",
            "data_from=VALID_PARTITIONS",
        ],
    )
    .await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let q = post_query(&cc, "/add_broker").await;
    assert!(has(&q, "max_partition_movements_in_cluster", "7"), "{q:?}");
    assert!(has(&q, "replica_movement_strategies", strategies), "{q:?}");
    assert!(has(&q, "data_from", "VALID_PARTITIONS"), "{q:?}");

    // demote: demote_broker with its own parameters, and no goal parameters.
    let cc = ready_cc().await;
    mount_dry_run(&cc, "demote_broker", &fixture("add_broker_verbose.json")).await;
    let r = run(
        &cc.uri(),
        &[
            "rebalance",
            "demote",
            "--brokers",
            "2",
            "--concurrent-leader-movements",
            "5",
            "--replica-movement-strategies",
            strategies,
            "--exclude-recently-demoted-brokers",
            "--cc-param",
            "skip_urp_demotion=false",
        ],
    )
    .await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("Proposal: demote brokers 2"),
        "{}",
        r.stdout
    );
    let q = post_query(&cc, "/demote_broker").await;
    for (k, v) in [
        ("brokerid", "2"),
        ("concurrent_leader_movements", "5"),
        ("replica_movement_strategies", strategies),
        ("exclude_recently_demoted_brokers", "true"),
        ("skip_urp_demotion", "false"),
        ("dryrun", "true"),
    ] {
        assert!(has(&q, k, v), "{k}={v} in {q:?}");
    }
    assert!(
        !q.iter()
            .any(|(k, _)| k == "goals" || k == "excluded_topics")
    );

    // remove-disks: remove_disks takes only the volumes, dryrun and reason.
    let cc = ready_cc().await;
    mount_dry_run(&cc, "remove_disks", &fixture("add_broker_verbose.json")).await;
    let r = run(
        &cc.uri(),
        &[
            "rebalance",
            "remove-disks",
            "--brokers-and-logdirs",
            "1-/data/a,1-/data/b",
        ],
    )
    .await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let q = post_query(&cc, "/remove_disks").await;
    let mut names: Vec<&str> = q.iter().map(|(k, _)| k.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["brokerid_and_logdirs", "dryrun", "json", "reason"]);
    assert!(
        has(&q, "brokerid_and_logdirs", "1-/data/a,1-/data/b"),
        "{q:?}"
    );
}

/// Options an endpoint cannot take, and pass-through names kafkaops sets itself, are refused
/// with exit 2 before anything is sent.
#[tokio::test(flavor = "multi_thread")]
async fn options_an_endpoint_cannot_take_are_refused_before_anything_is_sent() {
    let cc = ready_cc().await;
    for args in [
        &[
            "rebalance",
            "demote",
            "--brokers",
            "2",
            "--goals",
            "RackAwareGoal",
        ][..],
        &[
            "rebalance",
            "full",
            "--cc-param",
            "dryrun=false",
            "--execute",
            "--yes",
        ][..],
        &[
            "rebalance",
            "add",
            "--brokers",
            "4",
            "--cc-param",
            "destination_broker_ids=1",
        ][..],
        &[
            "rebalance",
            "remove-disks",
            "--brokers-and-logdirs",
            "1-/a",
            "--replication-throttle",
            "5",
        ][..],
    ] {
        let r = run(&cc.uri(), args).await;
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
    }
    let reqs = cc.received_requests().await.unwrap_or_default();
    assert!(
        reqs.iter().all(|r| r.method.as_str() != "POST"),
        "nothing was sent"
    );
    let help = run(&cc.uri(), &["rebalance", "remove", "--help"]).await;
    assert!(
        help.stdout
            .contains("still moves their replicas off the leaving brokers"),
        "{}",
        help.stdout
    );
}

/// With two-step verification every POST answers `{"RequestInfo": ...}` (an object in the yaml,
/// an array in the code): never "nothing to move", always exit 8 with the review id.
#[tokio::test(flavor = "multi_thread")]
async fn a_request_held_for_review_is_never_nothing_to_move() {
    for body in [
        r#"{"RequestInfo":[{"Id":7,"SubmitterAddress":"127.0.0.1","SubmissionTimeMs":1,"Status":"PENDING_REVIEW","EndpointWithParams":"POST /kafkacruisecontrol/rebalance?dryrun=true&json=true","Reason":"kafkaops"}],"version":1}"#,
        r#"{"RequestInfo":{"Id":7,"Status":"PENDING_REVIEW","EndpointWithParams":"POST /kafkacruisecontrol/rebalance?json=true"},"version":1}"#,
    ] {
        let cc = ready_cc().await;
        Mock::given(method("POST"))
            .and(path("/kafkacruisecontrol/rebalance"))
            .respond_with(json(200, body))
            .mount(&cc)
            .await;
        // A dry run is held as itself; with `--execute` the request held for the reviewer is
        // the execution request (#25 point 17: what is approved is what runs).
        for (args, executions) in [
            (&["rebalance", "full"][..], 0),
            (
                &["rebalance", "full", "--execute", "--yes", "-o", "json"][..],
                1,
            ),
        ] {
            let r = run(&cc.uri(), args).await;
            assert_eq!(r.code, 8, "{args:?}: {}", r.stderr);
            assert!(r.stderr.contains("review id 7"), "{}", r.stderr);
            assert!(!r.stdout.contains("Nothing to move"), "{}", r.stdout);
            assert!(!r.stdout.contains("nothing-to-do"), "{}", r.stdout);
            assert_eq!(
                posts_with(&cc, "dryrun=false").await,
                executions,
                "{args:?}"
            );
            // Its own held dry run (sent for the preview) is discarded: only the execution
            // request waits for the reviewer.
            assert_eq!(posts_with(&cc, "discard=").await, executions, "{args:?}");
        }
    }
}

/// In JSON mode on a terminal, the proposal is shown (on the terminal, stderr) before the
/// confirmation prompt; stdout stays for the JSON document. Runs kafkaops on a pseudo-terminal.
#[tokio::test(flavor = "multi_thread")]
async fn json_mode_on_a_terminal_shows_the_proposal_before_the_prompt() {
    use std::io::Write;
    let cc = ready_cc().await;
    mount_dry_run(&cc, "add_broker", &fixture("add_broker_verbose.json")).await;
    let mut cmd = base_command(&cc.uri());
    cmd.args([
        "rebalance",
        "add",
        "--brokers",
        "4",
        "--execute",
        "-o",
        "json",
    ])
    .env("TERM", "dumb");
    let (child, mut master, seen) = spawn_on_terminal(cmd);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !seen.lock().unwrap().contains("Execute this proposal") {
        assert!(
            std::time::Instant::now() < deadline,
            "no prompt: {}",
            seen.lock().unwrap()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let text = seen.lock().unwrap().clone();
    let shown = text
        .find("Proposal to execute: add brokers 4")
        .expect(&text);
    let prompt = text.find("Execute this proposal").unwrap();
    assert!(
        shown < prompt,
        "the proposal comes before the prompt: {text}"
    );
    master.write_all(b"n").unwrap();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "declined");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("Proposal to execute"),
        "stdout keeps only JSON"
    );
    assert_eq!(posts_with(&cc, "dryrun=false").await, 0);
}

/// `cmd` on a pseudo-terminal (stdin and stderr; 50 rows x 200 columns, so a progress line is
/// never cut): the child and everything it writes to the terminal, as it comes.
pub(crate) fn spawn_on_terminal(
    mut cmd: StdCommand,
) -> (
    std::process::Child,
    std::fs::File,
    std::sync::Arc<std::sync::Mutex<String>>,
) {
    use std::io::Read;
    use std::os::fd::FromRawFd;
    let size = libc::winsize {
        ws_row: 50,
        ws_col: 200,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let (master, slave) = unsafe {
        let (mut m, mut s) = (0, 0);
        // SAFETY: openpty(3) fills two descriptors we then own.
        let rc = libc::openpty(
            &mut m,
            &mut s,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        );
        assert_eq!(rc, 0, "openpty");
        (std::fs::File::from_raw_fd(m), std::fs::File::from_raw_fd(s))
    };
    cmd.stdin(slave.try_clone().unwrap())
        .stderr(slave)
        .stdout(Stdio::piped());
    let child = cmd.spawn().unwrap();
    drop(cmd); // the parent's copies of the slave end
    let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let sink = std::sync::Arc::clone(&seen);
    let mut reader = master.try_clone().unwrap();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    (child, master, seen)
}

/// An execution whose progress follows the clock: `finishedDataMovement` grows at
/// [`MB_PER_S`] from the first poll for [`MOVING`], then stalls (at the last value answered)
/// for [`STALLED`], then the task completes. For the first [`NO_TOTAL`] Cruise Control reports 9 partitions in progress
/// but no partition total (as a real server does before it counts them).
struct ClockedExecution {
    start: std::sync::OnceLock<std::time::Instant>,
    /// The counter last answered (MB).
    moved: std::sync::Mutex<f64>,
}

const MB_PER_S: f64 = 20.0;
const TOTAL_MB: f64 = 600.0;
const NO_TOTAL: Duration = Duration::from_millis(1200);
const MOVING: Duration = Duration::from_secs(5);
const STALLED: Duration = Duration::from_secs(3);

impl ClockedExecution {
    fn elapsed(&self) -> Duration {
        self.start.get_or_init(std::time::Instant::now).elapsed()
    }
}

impl wiremock::Respond for ClockedExecution {
    fn respond(&self, request: &wiremock::Request) -> ResponseTemplate {
        let t = self.elapsed();
        let done = t >= MOVING + STALLED;
        if request.url.path().ends_with("user_tasks") {
            let original = fixture("add_broker_verbose.json");
            let status = if done { "Completed" } else { "InExecution" };
            return json(200, &user_tasks_body(false, status, Some(&original)));
        }
        if done {
            return json(200, &fixture("state_ready.json"));
        }
        // Stalled: the counter stays where it was last shown (no slower last step).
        let mut last = self.moved.lock().unwrap();
        if t < MOVING {
            *last = (MB_PER_S * t.as_secs_f64()).round();
        }
        let moved = *last;
        let mut state: serde_json::Value =
            serde_json::from_str(&fixture("state_executing.json")).unwrap();
        let e = &mut state["ExecutorState"];
        let (total, finished) = if t < NO_TOTAL { (0, 0) } else { (9, 2) };
        e["numTotalPartitionMovements"] = total.into();
        e["numFinishedPartitionMovements"] = finished.into();
        e["numInProgressPartitionMovements"] = 9.into();
        e["numPendingPartitionMovements"] = 0.into();
        e["finishedDataMovement"] = moved.into();
        e["totalDataToMove"] = TOTAL_MB.into();
        json(200, &state.to_string())
    }
}

/// Each distinct progress line drawn on the terminal (escape sequences removed).
fn progress_lines(screen: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut chars = screen.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters final-byte.
            if chars.peek() == Some(&'[') {
                chars.next();
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            plain.push('\n');
        } else {
            plain.push(c);
        }
    }
    let mut lines: Vec<String> = Vec::new();
    for l in plain.split(['\r', '\n']).map(str::trim) {
        if l.contains("moving")
            && l.contains("partition")
            && lines.last().map(String::as_str) != Some(l)
        {
            lines.push(l.to_string());
        }
    }
    lines
}

/// The figures of one progress line: (MB done, MB total, MB/s, seconds left), the last two
/// when shown.
fn progress_figures(line: &str) -> (f64, f64, Option<f64>, Option<f64>) {
    let mb = line
        .split(", ")
        .find_map(|part| part.strip_suffix(" MB"))
        .unwrap_or_else(|| panic!("no MB figures: {line}"));
    let (done, total) = mb
        .rsplit(' ')
        .next()
        .and_then(|f| f.split_once('/'))
        .unwrap_or_else(|| panic!("no done/total: {line}"));
    let rate = line
        .split(", ")
        .find_map(|part| part.strip_suffix(" MB/s"))
        .map(|r| r.parse().unwrap());
    let left = line.split(", ~").nth(1).map(|rest| {
        let d = rest
            .strip_suffix(" left")
            .unwrap_or_else(|| panic!("{line}"));
        humantime::parse_duration(d).unwrap().as_secs_f64()
    });
    (done.parse().unwrap(), total.parse().unwrap(), rate, left)
}

/// Issue #26: following an execution on a terminal shows one ETA per progress line, from a
/// smoothed rate: at a constant 20 MB/s the estimates agree with it and only go down (no
/// 4 s -> 30 s -> 68 s swing), they keep going down while the counter stalls, and while
/// partitions move before Cruise Control counts them the bar shows no `0/0`.
#[tokio::test(flavor = "multi_thread")]
async fn following_an_execution_shows_one_steady_eta_from_the_smoothed_rate() {
    let cc = ready_cc().await;
    mount_dry_run(&cc, "add_broker", &fixture("add_broker_verbose.json")).await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/add_broker"))
        .and(query_param("dryrun", "false"))
        .respond_with(
            json(200, &fixture("add_broker_verbose.json")).insert_header("User-Task-ID", TASK),
        )
        .expect(1)
        .mount(&cc)
        .await;
    let clock = std::sync::Arc::new(ClockedExecution {
        start: std::sync::OnceLock::new(),
        moved: std::sync::Mutex::new(0.0),
    });
    for p in [
        "/kafkacruisecontrol/state",
        "/kafkacruisecontrol/user_tasks",
    ] {
        let mut m = Mock::given(method("GET")).and(path(p));
        if p.ends_with("state") {
            m = m.and(query_param("substates", "executor"));
        }
        m.respond_with(ArcRespond(std::sync::Arc::clone(&clock)))
            .with_priority(1)
            .mount(&cc)
            .await;
    }
    let mut cmd = base_command(&cc.uri());
    cmd.args([
        "rebalance",
        "add",
        "--brokers",
        "4",
        "--execute",
        "--yes",
        "--poll-interval",
        "400ms",
    ])
    .env("TERM", "xterm");
    let (child, master, seen) = spawn_on_terminal(cmd);
    let pid = child.id();
    let mut guard = scopeguard(pid);
    let out = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::task::spawn_blocking(move || child.wait_with_output().unwrap()),
    )
    .await
    .unwrap_or_else(|_| panic!("still following after 60 s: {}", seen.lock().unwrap()))
    .unwrap();
    guard.0 = None; // exited: nothing to kill
    // Everything the child wrote reaches the reader before the end of file.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !seen.lock().unwrap().contains("partitions,") && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(master);
    let screen = seen.lock().unwrap().clone();
    assert_eq!(out.status.code(), Some(0), "{screen}");
    let lines = progress_lines(&screen);
    assert!(
        lines.len() >= 8,
        "a progress line per poll: {lines:#?}\n{screen:?}"
    );

    let mut etas: Vec<(f64, f64)> = Vec::new();
    for line in &lines {
        assert!(
            line.matches(" left").count() + line.matches("eta").count() <= 1,
            "one ETA at most: {line}"
        );
        assert!(
            !line.contains(" 0/0 ") && !line.contains("eta 0s"),
            "no 0/0 while partitions move: {line}"
        );
        if line.contains(" MB") {
            let (done, total, rate, left) = progress_figures(line);
            assert_eq!(total, TOTAL_MB, "{line}");
            if let (Some(rate), Some(left)) = (rate, left) {
                // The smoothed rate is the constant one (the first samples may straddle the
                // start; the stall moves nothing, so no new sample).
                assert!(
                    (rate - MB_PER_S).abs() <= 0.3 * MB_PER_S,
                    "rate {rate} MB/s, moving at {MB_PER_S}: {line}"
                );
                etas.push((done, left));
            }
        }
    }
    assert!(etas.len() >= 5, "an ETA on most lines: {lines:#?}");
    let (first_done, _) = etas[0];
    for w in etas.windows(2) {
        let ((_, before), (done, after)) = (w[0], w[1]);
        assert!(
            after <= before + 1.0,
            "an ETA never swings up at a constant rate or a stall: {before} s then {after} s\n{lines:#?}"
        );
        // At the constant rate the estimate is what is left at that rate (the time since
        // the counter last moved counts as progress, so it may be lower while stalled).
        let linear = (TOTAL_MB - done) / MB_PER_S;
        assert!(
            after <= linear * 1.3 + 1.0 && after >= linear * 0.7 - STALLED.as_secs_f64() - 1.0,
            "ETA {after} s with {done}/{TOTAL_MB} MB left at {MB_PER_S} MB/s (linear {linear} s)\n{lines:#?}"
        );
    }
    assert!(
        etas.last().unwrap().0 > first_done,
        "the lines followed the move: {etas:?}"
    );
}

/// A shared [`wiremock::Respond`] (one clock for the state and the task endpoints).
struct ArcRespond<R>(std::sync::Arc<R>);

impl<R: wiremock::Respond> wiremock::Respond for ArcRespond<R> {
    fn respond(&self, request: &wiremock::Request) -> ResponseTemplate {
        self.0.respond(request)
    }
}
