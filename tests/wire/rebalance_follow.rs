//! Issue #26: following an execution with `-o json|yaml` prints exactly one document however
//! the following ends: `--follow-timeout` passes (exit 3) or the operator leaves the execution
//! running at the Ctrl-C menu (exit 0, on a terminal). The document is the state at that
//! moment with `follow.ended` saying why, and it conforms to the command's published schema
//! (`rebalance status --task --follow` and `rebalance add --execute`), against the wiremock
//! Cruise Control double of `rebalance_cli`.

use std::process::Command as StdCommand;
use std::time::{Duration, Instant};

use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer};

use crate::cc_wire::{TASK, fixture, json, user_tasks_body};
use crate::rebalance_cli::{
    base_command, mount_dry_run, mount_ready, ready_cc, scopeguard, spawn_on_terminal,
};
use crate::support::bin;

/// Cruise Control executing task [`TASK`] (an `add_broker` execution) for as long as the test
/// runs: the executor in progress, the user task `InExecution`.
async fn executing_forever(cc: &MockServer) {
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .and(query_param("substates", "executor"))
        .respond_with(json(200, &fixture("state_executing.json")))
        .mount(cc)
        .await;
    let original = fixture("add_broker_verbose.json");
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/user_tasks"))
        .respond_with(json(
            200,
            &user_tasks_body(false, "InExecution", Some(&original)),
        ))
        .mount(cc)
        .await;
}

/// And it accepts the `add_broker` execution request, answering with task [`TASK`].
async fn accepts_the_execution(cc: &MockServer) {
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
}

fn status_follow(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["rebalance", "status", "--task", TASK, "--follow"];
    args.extend(extra);
    args.extend(["--poll-interval", "20ms"]);
    args.into_iter().map(String::from).collect()
}

async fn run(url: &str, args: &[String]) -> bin::Out {
    let mut cmd = base_command(url);
    cmd.args(args);
    bin::run_async(cmd).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_follow_timeout_prints_the_running_task_once_and_exits_3() {
    let cc = MockServer::start().await;
    executing_forever(&cc).await;
    let args = status_follow(&["--follow-timeout", "300ms", "-o", "json"]);
    let r = run(&cc.uri(), &args).await;
    assert_eq!(r.code, 3, "{}", r.stderr);
    let v = r.json(); // one document, checked against schemas/rebalance-status-task.json
    assert_eq!(v["task_id"], TASK);
    assert_eq!(v["status"], "running", "{v:#}");
    assert_eq!(v["follow"]["ended"], "timeout", "{v:#}");
    assert_eq!(v["follow"]["follow_timeout_ms"], 300, "{v:#}");
    assert!(
        v["progress"]["partitions_total"].as_u64().is_some(),
        "{v:#}"
    );

    // The same as YAML: one document, the same shape.
    let args = status_follow(&["--follow-timeout", "300ms", "-o", "yaml"]);
    let r = run(&cc.uri(), &args).await;
    assert_eq!(r.code, 3, "{}", r.stderr);
    let y = crate::schema::check_yaml(&r.args, &r.stdout);
    assert_eq!(y["follow"]["ended"], "timeout", "{y:#}");

    // `rebalance add --execute` given up by --follow-timeout: its execution document, still
    // running, says so too.
    accepts_the_execution(&cc).await;
    mount_ready(&cc).await;
    let args: Vec<String> = [
        "rebalance",
        "add",
        "--brokers",
        "4",
        "--execute",
        "--yes",
        "--follow-timeout",
        "300ms",
        "--poll-interval",
        "20ms",
        "-o",
        "json",
    ]
    .map(String::from)
    .to_vec();
    let r = run(&cc.uri(), &args).await;
    assert_eq!(r.code, 3, "{}", r.stderr);
    let v = r.json(); // checked against schemas/rebalance.json
    assert_eq!(v["task_id"], TASK);
    assert_eq!(v["execution"]["status"], "running", "{v:#}");
    assert_eq!(v["follow"]["ended"], "timeout", "{v:#}");
}

/// Runs `args` on a terminal (stdin and stderr; stdout piped), waits until it follows the
/// execution, sends Ctrl-C (SIGINT), answers the menu with its default, "Leave it running":
/// the exit code, stdout and what the terminal showed.
async fn leave_it_running(url: &str, args: &[String]) -> (i32, String, String) {
    use std::io::Write;
    let mut cmd = base_command(url);
    cmd.args(args).env("TERM", "dumb");
    let (child, mut master, seen) = spawn_on_terminal(cmd);
    let mut guard = scopeguard(child.id());
    let wait_for = |what: &'static str| {
        let seen = std::sync::Arc::clone(&seen);
        async move {
            let deadline = Instant::now() + Duration::from_secs(30);
            while !seen.lock().unwrap().contains(what) {
                assert!(
                    Instant::now() < deadline,
                    "never showed {what:?}: {}",
                    seen.lock().unwrap()
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
    wait_for("Ctrl-C to stop it or leave it running").await;
    let ok = StdCommand::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    wait_for("What about the running execution").await;
    master.write_all(b"\r").unwrap();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    guard.0 = None;
    // The terminal's last lines (the note on leaving it running) may still be on their way
    // to the reader thread.
    wait_for("running on Cruise Control").await;
    let screen = seen.lock().unwrap().clone();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        screen,
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn leaving_the_execution_running_prints_its_state_once_and_exits_0() {
    let cc = MockServer::start().await;
    executing_forever(&cc).await;
    let args = status_follow(&["-o", "json"]);
    let (code, stdout, screen) = leave_it_running(&cc.uri(), &args).await;
    assert_eq!(code, 0, "{screen}");
    let r = bin::Out {
        code,
        stdout,
        stderr: screen,
        args,
    };
    let v = r.json(); // one document, checked against schemas/rebalance-status-task.json
    assert_eq!(v["status"], "running", "{v:#}");
    assert_eq!(v["follow"]["ended"], "left-running", "{v:#}");
    assert_eq!(v["follow"]["follow_timeout_ms"], serde_json::Value::Null);
    assert!(
        r.stderr
            .contains(&format!("kafkaops rebalance status --task {TASK} --follow")),
        "{}",
        r.stderr
    );

    // `rebalance add --execute`, left running at the menu: its execution document.
    let cc = ready_cc().await;
    accepts_the_execution(&cc).await;
    executing_forever(&cc).await;
    let args: Vec<String> = [
        "rebalance",
        "add",
        "--brokers",
        "4",
        "--execute",
        "--yes",
        "--poll-interval",
        "20ms",
        "-o",
        "json",
    ]
    .map(String::from)
    .to_vec();
    let (code, stdout, screen) = leave_it_running(&cc.uri(), &args).await;
    assert_eq!(code, 0, "{screen}");
    let r = bin::Out {
        code,
        stdout,
        stderr: screen,
        args,
    };
    let v = r.json(); // checked against schemas/rebalance.json
    assert_eq!(v["execution"]["status"], "running", "{v:#}");
    assert_eq!(v["follow"]["ended"], "left-running", "{v:#}");
    assert_eq!(v["task_id"], TASK);
}

/// Runs `args` without a terminal, waits until it follows the execution, sends `signal`: the
/// exit code, stdout and stderr.
async fn signalled(url: &str, args: &[String], signal: &'static str) -> bin::Out {
    use std::io::{BufRead, BufReader, Read};
    let mut cmd = base_command(url);
    cmd.args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let args = args.to_vec();
    tokio::task::spawn_blocking(move || {
        let mut child = cmd.spawn().unwrap();
        let mut guard = scopeguard(child.id());
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut stderr = String::new();
        // Bounded by the stream: the binary says it follows, or ends.
        for line in lines.by_ref() {
            let line = line.unwrap();
            stderr.push_str(&line);
            stderr.push('\n');
            if line.contains("Ctrl-C to stop it or leave it running") {
                break;
            }
        }
        let ok = StdCommand::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
        for line in lines {
            stderr.push_str(&line.unwrap());
            stderr.push('\n');
        }
        let mut stdout = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut stdout)
            .unwrap();
        let code = child.wait().unwrap().code().unwrap_or(-1);
        guard.0 = None;
        bin::Out {
            code,
            stdout,
            stderr,
            args,
        }
    })
    .await
    .unwrap()
}

/// Ctrl-C with nobody to ask (no terminal) and SIGTERM leave the execution running: the
/// document still comes, saying which, with exit 130 and 143.
#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_without_a_terminal_and_sigterm_still_print_the_document() {
    let cc = MockServer::start().await;
    executing_forever(&cc).await;
    let args = status_follow(&["-o", "json"]);
    for (signal, code, ended) in [("-INT", 130, "interrupted"), ("-TERM", 143, "terminated")] {
        let r = signalled(&cc.uri(), &args, signal).await;
        assert_eq!(r.code, code, "{signal}: {}", r.stderr);
        let v = r.json(); // one document, checked against schemas/rebalance-status-task.json
        assert_eq!(v["status"], "running", "{v:#}");
        assert_eq!(v["follow"]["ended"], ended, "{v:#}");
        assert!(
            r.stderr.contains(&format!("--task {TASK} --follow")),
            "{signal}: the way back: {}",
            r.stderr
        );
    }
}
