//! End-to-end checks of the binary's surface: exit codes, usage errors,
//! `config view`, secret masking, the README's exit-code table.

use assert_cmd::Command;
use predicates::prelude::*;

use crate::support;

fn kafkaops() -> Command {
    // Isolated from the developer's environment and config file.
    Command::from_std(support::bin::kafkaops())
}

#[test]
fn help_and_version_exit_zero() {
    kafkaops()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("rebalance"));
    kafkaops().arg("--version").assert().success();
}

#[test]
fn usage_errors_exit_two() {
    kafkaops().arg("--no-such-flag").assert().code(2);
    kafkaops()
        .args(["rebalance", "add"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--brokers"));
    kafkaops()
        .args(["rebalance", "add", "--brokers", "x"])
        .assert()
        .code(2);
    kafkaops()
        .args(["--output", "xml", "config", "view"])
        .assert()
        .code(2);
}

/// `upgrade --to` of a release kafkaops does not know, or with `--finalize`: usage errors before
/// any connection (nothing listens on port 1).
#[test]
fn an_upgrade_to_an_unknown_release_is_a_usage_error() {
    kafkaops()
        .args([
            "--bootstrap-servers",
            "127.0.0.1:1",
            "upgrade",
            "--to",
            "9.9",
            "--restart-command",
            "true",
        ])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("not a Kafka release known here")
                .and(predicate::str::contains("4.4")),
        );
    kafkaops()
        .args(["upgrade", "--to", "4.4", "--finalize"])
        .assert()
        .code(2);
    // A roll needs a way to restart nodes.
    kafkaops()
        .args([
            "--bootstrap-servers",
            "127.0.0.1:1",
            "upgrade",
            "--to",
            "4.4",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--restart-command"));
}

#[test]
fn operate_needs_a_policy_file() {
    kafkaops()
        .arg("operate")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--policy"));
}

/// `operate` refuses a bad policy with exit 2 naming the field, and `--once` exits 6 when Kafka
/// cannot be reached (nothing listens on port 1).
#[test]
fn operate_refuses_a_bad_policy_and_says_when_it_cannot_reach_the_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let run = |policy: &str| {
        let p = dir.path().join("policy.yaml");
        std::fs::write(&p, policy).unwrap();
        let mut cmd = kafkaops();
        cmd.args([
            "--bootstrap-servers",
            "127.0.0.1:1",
            "--cruise-control-url",
            "http://127.0.0.1:1/kafkacruisecontrol",
            "--request-timeout",
            "2s",
            "operate",
            "--once",
            "--action-timeout",
            "2s",
            "--state-dir",
        ])
        .arg(dir.path())
        .arg("--policy")
        .arg(&p);
        cmd
    };
    run("autoRebalance:\n  - mode: add-brokers\n    templat: { name: t }\n")
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("autoRebalance[0]")
                .and(predicate::str::contains("unknown field `templat`")),
        );
    run("autoRebalance:\n  - mode: add-brokers\n    template: { name: nope }\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown template \"nope\""));
    run("autoRebalance:\n  - mode: add-brokers\n    template: { name: t }\ntemplates:\n  t: {}\n")
        .assert()
        .code(6)
        .stderr(predicate::str::contains("cannot reach Kafka"));
}

/// A bad policy stops `operate` at start with exit 2, naming the field, before anything is
/// contacted; with `--log-format json` the error is a JSON log line like every other.
#[test]
fn operate_reports_a_bad_policy_at_its_field_and_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("policy.yaml");
    std::fs::write(
        &policy,
        "autoRebalance:\n  - mode: imbalance\n    template: { name: ful }\ntemplates:\n  full: {}\n",
    )
    .unwrap();
    let out = kafkaops()
        .args(["--bootstrap-servers", "127.0.0.1:1", "--cruise-control-url"])
        .args(["http://127.0.0.1:1", "operate", "--policy"])
        .arg(&policy)
        .args(["--log-format", "json", "--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<serde_json::Value> = stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let last = lines.last().expect("a log line");
    assert_eq!(last["level"], "ERROR", "{last}");
    assert_eq!(last["exit_code"], 2, "{last}");
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .contains("autoRebalance[0].template.name: unknown template \"ful\" (templates: full)"),
        "{last}"
    );
    // Text format: the same message on one `error:` line.
    kafkaops()
        .args(["operate", "--policy"])
        .arg(&policy)
        .assert()
        .code(2)
        .stderr(
            predicate::str::starts_with("error: bad policy").and(predicate::str::contains(
                "autoRebalance[0].template.name: unknown template",
            )),
        );
}

/// `topic set-rf` input errors that need no cluster: exit 2, nothing contacted.
#[test]
fn set_rf_usage_errors_exit_two_and_status_reads_the_state_dir() {
    let dir = tempfile::tempdir().unwrap();
    kafkaops()
        .args(["topic", "set-rf", "--state-dir"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--from-file"));
    kafkaops()
        .args(["topic", "set-rf", "--topics", "a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--replication-factor"));
    let twice = dir.path().join("twice.yaml");
    std::fs::write(
        &twice,
        "- topic: a\n  replication_factor: 2\n- topic: a\n  replication_factor: 3\n",
    )
    .unwrap();
    kafkaops()
        .args(["topic", "set-rf", "--from-file"])
        .arg(&twice)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("different replication factors"));
    let status = kafkaops()
        .args(["-o", "json", "topic", "set-rf", "--status"])
        .env("KAFKAOPS_STATE_DIR", dir.path())
        .assert()
        .success();
    let v = crate::schema::json_of(
        &["-o", "json", "topic", "set-rf", "--status"],
        &String::from_utf8_lossy(&status.get_output().stdout),
    );
    assert_eq!(v["topics"], serde_json::json!([]));
    // `topic status` is the subcommand (as `rebalance status`); `set-rf --status` its old,
    // hidden spelling with the same output.
    let sub = kafkaops()
        .args(["-o", "json", "topic", "status"])
        .env("KAFKAOPS_STATE_DIR", dir.path())
        .assert()
        .success();
    assert_eq!(sub.get_output().stdout, status.get_output().stdout);
    kafkaops()
        .args(["topic", "set-rf", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--status").not());
}

/// What a new user hit: `--help` advertised replication-factor changes as a feature, planned
/// subcommands' help did not say they are planned, global options were mixed in with a
/// subcommand's own (then listed in full, 45 lines, in every subcommand's help), and `operate --interval` said "Seconds" while taking a duration.
#[test]
fn help_says_what_is_planned_and_keeps_global_options_apart() {
    let top = kafkaops().arg("--help").assert().success();
    let top = String::from_utf8(top.get_output().stdout.clone()).unwrap();
    let about =
        top.lines().next().unwrap_or_default().to_string() + top.lines().nth(1).unwrap_or_default();
    assert!(
        about.contains("unattended (`operate`)") && !about.contains("planned"),
        "the description names the controller, which exists: {top}"
    );
    kafkaops()
        .args(["operate", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(planned:").not());
    let roll = kafkaops().args(["roll", "--help"]).assert().success();
    let roll = String::from_utf8(roll.get_output().stdout.clone()).unwrap();
    // The command's own options first, described; the global ones after, named only (their
    // descriptions are in `kafkaops --help`), so `roll --help` is not mostly global flags.
    let global = roll
        .find("Global options (described in `kafkaops --help`):")
        .expect("a Global options summary");
    let own = roll.find("--max-batch-size").expect("roll's own flag");
    let output = roll.find("-o/--output").expect("the global --output flag");
    assert!(own < global && global < output, "{roll}");
    assert!(
        !roll.contains("Kafka bootstrap servers") && roll.lines().count() < 100,
        "global flags described in a subcommand's help: {roll}"
    );
    assert!(
        top.contains("Kafka bootstrap servers"),
        "the top-level help describes the global flags: {top}"
    );
    kafkaops()
        .args(["operate", "--help"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("Time between reconcile loops")
                .and(predicate::str::contains("Seconds between").not()),
        );
}

/// What a new user hit: "invalid Kafka setting bootstrap servers: none configured".
#[test]
fn missing_bootstrap_servers_says_which_flag_variable_or_context_key_sets_them() {
    kafkaops()
        .args(["roll", "--all", "--dry-run"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("--bootstrap-servers")
                .and(predicate::str::contains("KAFKAOPS_BOOTSTRAP_SERVERS"))
                .and(predicate::str::contains("bootstrap-servers:"))
                .and(predicate::str::contains("invalid Kafka setting").not()),
        );
}

#[test]
fn roll_usage_errors_touch_nothing_and_exit_two() {
    // Nothing selected.
    kafkaops()
        .args(["roll", "--bootstrap-servers", "127.0.0.1:1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nothing selected"));
    // No restart command (checked before any connection).
    kafkaops()
        .args(["roll", "--all", "--bootstrap-servers", "127.0.0.1:1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--restart-command"));
    // --nodes and --role together.
    kafkaops()
        .args(["roll", "--nodes", "1", "--role", "broker", "--dry-run"])
        .assert()
        .code(2);
    // A desired-config file that does not parse.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.properties");
    std::fs::write(&bad, "log.cleaner.threads=2\nbad.escape=\\uZZZZ\n").unwrap();
    kafkaops()
        .args(["roll", "--dry-run", "--desired-config"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 2"));
}

#[test]
fn roll_against_an_unreachable_bootstrap_exits_six() {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    drop(l);
    kafkaops()
        .args([
            "roll",
            "--all",
            "--restart-command",
            "false",
            "--bootstrap-servers",
        ])
        .arg(&addr)
        .assert()
        .code(6)
        .stderr(predicate::str::contains(addr.as_str()));
}

#[test]
fn config_view_shows_sources_and_masks_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let pw = dir.path().join("pw");
    std::fs::write(&pw, "very-secret-pw\n").unwrap();
    let cfg = dir.path().join("c.yaml");
    std::fs::write(
        &cfg,
        format!(
            "current-context: lab\ncontexts:\n- name: lab\n  bootstrap-servers: k1:9092\n  kafka-properties:\n    sasl.password: kafka-secret-pw\n  cruise-control:\n    url: http://cc:9090\n    username: admin\n    password-file: {}\n",
            pw.display()
        ),
    )
    .unwrap();
    let out = kafkaops()
        .args([
            "--config",
            cfg.to_str().unwrap(),
            "-o",
            "json",
            "config",
            "view",
        ])
        .env("KAFKAOPS_BOOTSTRAP_SERVERS", "env:9092")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        !text.contains("very-secret-pw") && !text.contains("kafka-secret-pw"),
        "{text}"
    );
    let rows = crate::schema::json_of(&["config", "view"], &text);
    let find = |name: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["setting"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} missing in {text}"))
    };
    assert_eq!(find("bootstrap-servers")["value"], "env:9092");
    assert_eq!(find("bootstrap-servers")["source"], "environment");
    assert_eq!(find("cruise-control.url")["source"], "config-file");
    assert_eq!(find("config-file")["source"], "flag");
    assert_eq!(find("cruise-control.password")["value"], "********");
}

#[test]
fn unknown_context_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.yaml");
    std::fs::write(&cfg, "contexts:\n- name: prod\n").unwrap();
    kafkaops()
        .args([
            "--config",
            cfg.to_str().unwrap(),
            "--context",
            "nope",
            "config",
            "view",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nope").and(predicate::str::contains("prod")));
}

/// `anomalies watch --exit-on` has its own documented exit code (10), named in the help and the
/// README; a type that does not exist is a usage error.
#[test]
fn anomalies_exit_on_code_is_documented() {
    assert_eq!(kafkaops::error::ExitCode::AnomalyFound.code(), 10);
    kafkaops()
        .args(["anomalies", "watch", "--help"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("code 10").and(predicate::str::contains("(planned:").not()),
        );
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains("| 10 | `anomalies watch --exit-on TYPE`"),
        "README exit-code row"
    );
    kafkaops()
        .args(["anomalies", "watch", "--exit-on", "no-such-type"])
        .assert()
        .code(2);
}

#[test]
fn readme_documents_every_exit_code() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for code in kafkaops::error::ExitCode::ALL {
        let row = format!("| {} |", code.code());
        assert!(
            readme.contains(&row),
            "README lacks an exit-code row starting {row}"
        );
    }
}

#[test]
fn environment_twins_of_verbose_and_kafka_properties() {
    let out = kafkaops()
        .args(["-o", "json", "config", "view"])
        .env(
            "KAFKAOPS_KAFKA_PROPERTIES",
            "security.protocol=PLAINTEXT;client.id=ops",
        )
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let rows = crate::schema::json_of(&["config", "view"], &String::from_utf8_lossy(&out));
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["setting"] == "kafka.client.id")
        .cloned()
        .expect("kafka.client.id from KAFKAOPS_KAFKA_PROPERTIES");
    assert_eq!(row["value"], "ops");
    assert_eq!(row["source"], "environment");

    // KAFKAOPS_VERBOSE=2 is -vv: debug logs on stderr (a refused connection is exit 6).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let url = format!("http://127.0.0.1:{port}");
    kafkaops()
        .args(["rebalance", "status", "--timeout", "2s"])
        .env("KAFKAOPS_CRUISE_CONTROL_URL", &url)
        .env("KAFKAOPS_VERBOSE", "2")
        .assert()
        .code(6)
        .stderr(predicate::str::contains("DEBUG"));
    kafkaops()
        .args(["rebalance", "status", "--timeout", "2s"])
        .env("KAFKAOPS_CRUISE_CONTROL_URL", &url)
        .assert()
        .code(6)
        .stderr(predicate::str::contains("DEBUG").not());
}

#[test]
fn passwords_in_a_mistyped_url_are_never_echoed() {
    for url in [
        "ftp://admin:hunter2@cc:9090",
        "http://admin:hunter2@cc:99999999",
    ] {
        kafkaops()
            .args(["--cruise-control-url", url, "rebalance", "status"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("hunter2").not());
    }
}

#[test]
fn roll_restart_methods_are_one_command_or_a_stop_start_pair() {
    kafkaops()
        .args(["roll", "--all", "--stop-command", "x {id}"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--start-command"));
    kafkaops()
        .args([
            "roll",
            "--all",
            "--restart-command",
            "r",
            "--stop-command",
            "s",
            "--start-command",
            "t",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

/// What a new user hit: `examples/local-demo.sh` was silent for minutes during the cold build
/// (`cargo build --quiet`) and printed install paths and raw escape codes on stdout. The demo's
/// stdout is for its result: the install step prints nothing there, and the build shows progress.
#[test]
fn the_demo_keeps_stdout_for_its_result_and_shows_build_progress() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let demo = std::fs::read_to_string(root.join("examples/local-demo.sh")).unwrap();
    let build = demo
        .lines()
        .find(|l| l.trim_start().starts_with("cargo build"))
        .expect("the demo builds kafkaops");
    assert!(
        !build.contains("--quiet") && !build.contains(" -q"),
        "{build}"
    );
    // Warm (the suite ran it first), so this only checks the caches.
    let out = std::process::Command::new("bash")
        .arg(root.join("tests/env/install.sh"))
        .output()
        .expect("run install.sh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout.is_empty(),
        "install.sh wrote to stdout: {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The demo installs only what it uses: no kube-apiserver/etcd, Helm or image root filesystem
    // (375 s of a 772 s cold demo went to kube-apiserver and etcd it never starts).
    assert!(
        demo.lines()
            .any(|l| l.trim() == "tests/env/install.sh --demo"),
        "{demo}"
    );
    let traced = std::process::Command::new("bash")
        .arg("-x")
        .arg(root.join("tests/env/install.sh"))
        .arg("--demo")
        .output()
        .expect("run install.sh --demo");
    let trace = String::from_utf8_lossy(&traced.stderr);
    assert!(traced.status.success(), "{trace}");
    assert!(trace.contains("cc-double/build.sh"), "{trace}");
    for unused in ["kube/build.sh", "ship/build.sh", "image/base.sh"] {
        assert!(
            !trace.contains(unused),
            "the demo's install ran {unused}:\n{trace}"
        );
    }
}

/// A running Strimzi operator refuses with exit 5 (busy, #17): the mapping, the README row and
/// `--force` on every command it guards.
#[test]
fn strimzi_operator_refusal_is_busy_and_documented() {
    use kafkaops::engine::operator_guard::{Action, Decision, KafkaResource, OperatorView, decide};
    let view = OperatorView {
        cluster: "c".into(),
        namespace: "ns".into(),
        kafka: Some(KafkaResource {
            pause_annotation: None,
        }),
        rebalances: vec![],
    };
    let Decision::Refuse(e) = decide(&view, Action::Roll, false) else {
        panic!("an unpaused operator refuses a roll")
    };
    let err = kafkaops::error::CliError::from(anyhow::Error::from(e));
    assert_eq!(err.code, kafkaops::error::ExitCode::Busy);
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let row = readme
        .lines()
        .find(|l| l.starts_with("| 5 |"))
        .expect("exit-code row 5");
    assert!(
        row.contains("KafkaRebalance") && row.contains("--force"),
        "{row}"
    );
    for cmd in [
        &["roll", "--help"][..],
        &["rebalance", "full", "--help"],
        &["rebalance", "add", "--help"],
        &["rebalance", "remove", "--help"],
        &["rebalance", "imbalance", "--help"],
        &["topic", "set-rf", "--help"],
    ] {
        kafkaops()
            .args(cmd)
            .assert()
            .success()
            .stdout(predicate::str::contains("--force").and(predicate::str::contains("Strimzi")));
    }
}

/// Without `--once`, `operate` does not exit when Kafka cannot be reached at start: it says so
/// once and keeps trying with backoff until stopped (SIGTERM: exit 0). With `--once` it exits 6
/// (above).
#[cfg(unix)]
#[test]
fn operate_without_once_waits_for_an_unreachable_kafka() {
    use std::io::Read as _;
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("policy.yaml");
    std::fs::write(
        &p,
        "autoRebalance:\n  - mode: add-brokers\n    template: { name: t }\ntemplates:\n  t: {}\n",
    )
    .unwrap();
    let log = dir.path().join("stderr.log");
    let mut child = support::bin::kafkaops()
        .args([
            "--bootstrap-servers",
            "127.0.0.1:1",
            "--cruise-control-url",
            "http://127.0.0.1:1/kafkacruisecontrol",
            "--request-timeout",
            "2s",
            "operate",
            "--resync",
            "1s",
            "--listen",
            "127.0.0.1:0",
            "--state-dir",
        ])
        .arg(dir.path())
        .arg("--policy")
        .arg(&p)
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let read = || {
        let mut s = String::new();
        let _ = std::fs::File::open(&log).map(|mut f| f.read_to_string(&mut s));
        s
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !read().contains("Kafka cannot be read (looking again with backoff)") {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("operate exited ({status}) instead of waiting:\n{}", read());
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no outage line:\n{}",
            read()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(child.try_wait().unwrap().is_none(), "{}", read());
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let out = read();
    assert_eq!(status.code(), Some(0), "{out}");
    assert_eq!(
        out.matches("Kafka cannot be read (looking again").count(),
        1,
        "the outage is said once: {out}"
    );
}

/// `kafkaops anomalies watch 2>&1 | head` used to panic (exit 101) once `head` had gone: a
/// closed stdout or stderr now ends a watch quietly. The watch here only writes to stderr
/// (Cruise Control is unreachable, so every poll says DISCONNECTED); both ends are closed
/// after the first line, as `2>&1 | head -1` does.
#[test]
fn a_closed_pipe_ends_a_watch_quietly() {
    use std::io::BufRead;
    use std::process::Stdio;
    let mut child = support::bin::kafkaops()
        .args([
            "anomalies",
            "watch",
            "--cruise-control-url",
            "http://127.0.0.1:1",
            "--interval",
            "200ms",
            "--max-backoff",
            "200ms",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("DISCONNECTED"), "{first}");
    drop(child.stdout.take());
    // Both readers are gone now; the next line written ends the watch.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the watch went on writing to a closed pipe for 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0), "{status:?} (101 is a panic)");
}

/// Inputs that need no cluster are judged before connecting: a factor of 0 is a usage error
/// (exit 2) naming the factor, not "cannot connect" (exit 6), whether given by flag or file.
#[test]
fn a_bad_replication_factor_is_named_before_connecting() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rf.yaml");
    std::fs::write(&file, "- {topic: a, replication_factor: 0}\n").unwrap();
    for args in [
        vec!["topic", "set-rf", "--topics", "a", "-r", "0"],
        vec!["topic", "set-rf", "--from-file", file.to_str().unwrap()],
    ] {
        kafkaops()
            .args([
                "-b",
                "127.0.0.1:1",
                "--cruise-control-url",
                "http://127.0.0.1:1",
            ])
            .args(&args)
            .args(["--state-dir", dir.path().to_str().unwrap()])
            .assert()
            .code(2)
            .stderr(
                predicate::str::contains("replication factor must be at least 1")
                    .and(predicate::str::contains("connect").not()),
            );
    }
}

/// A missing config file's OS error is said once; a context asked for without any config file
/// says that there is none and where it was looked for, instead of "(known: )".
#[test]
fn config_file_errors_say_it_once_and_plainly() {
    let o = kafkaops()
        .args(["--config", "/nonexistent/kafkaops.yaml", "config", "view"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&o.get_output().stderr).to_string();
    assert!(stderr.contains("/nonexistent/kafkaops.yaml"), "{stderr}");
    assert_eq!(stderr.matches("No such file").count(), 1, "{stderr}");
    kafkaops()
        .args(["--context", "nosuch", "config", "view"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("no config file")
                .and(predicate::str::contains(
                    "/nonexistent-kafkaops-test/kafkaops/config.yaml",
                ))
                .and(predicate::str::contains("known: )").not()),
        );
}

/// The part of a shell line before an unquoted `#`, `|` or `>` (a comment, a pipe, a redirect).
fn command_part(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' | '|' | '>' if !single && !double => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Every `kafkaops ...` (or `kubectl kafkaops ...`) line in the README's and `examples/docs/`'s
/// shell blocks parses with the real CLI: a newcomer copying one never meets "unexpected
/// argument" (the README once used `-b`, which the CLI rejected).
#[test]
fn every_documented_example_command_parses() {
    use clap::{CommandFactory, FromArgMatches};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("examples/docs")).unwrap() {
        files.push(entry.unwrap().path());
    }
    let mut parsed = 0;
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut in_shell = false;
        let mut logical = String::new();
        for line in text.lines() {
            if line.starts_with("```") {
                in_shell = line == "```sh";
                continue;
            }
            if !in_shell {
                continue;
            }
            if let Some(head) = line.strip_suffix('\\') {
                logical.push_str(head);
                continue;
            }
            logical.push_str(line);
            let whole = std::mem::take(&mut logical);
            let cmd = command_part(&whole).trim();
            let Some(rest) = cmd
                .strip_prefix("kafkaops ")
                .or_else(|| cmd.strip_prefix("kubectl kafkaops "))
            else {
                continue;
            };
            let words = shlex::split(rest).unwrap_or_else(|| panic!("cannot split {whole:?}"));
            let argv = std::iter::once("kafkaops".to_string()).chain(words);
            let ok = kafkaops::cli::Cli::command()
                .try_get_matches_from(argv)
                .map_err(|e| e.to_string())
                .and_then(|m| kafkaops::cli::Cli::from_arg_matches(&m).map_err(|e| e.to_string()));
            match ok {
                Ok(_) => parsed += 1,
                Err(e) => failures.push(format!("{}: {whole}\n  {e}", file.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The README's tour alone has a dozen; the docs many more.
    assert!(parsed >= 40, "only {parsed} example commands found");
}

/// `health --ignore` with a condition kafkaops does not know is a usage error (exit 2) that
/// lists the known ones, before anything is asked of a cluster; `health` and `throttles` without
/// bootstrap servers are usage errors too.
#[test]
fn health_and_throttles_refuse_bad_input_before_connecting() {
    kafkaops()
        .args(["health", "--ignore", "leftover-throttle,no-such-thing"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("no-such-thing")
                .and(predicate::str::contains("under-min-isr")),
        );
    kafkaops().args(["health"]).assert().code(2);
    kafkaops().args(["throttles", "list"]).assert().code(2);
    kafkaops()
        .args(["throttles", "clear", "--execute", "--yes"])
        .assert()
        .code(2);
    kafkaops()
        .args(["health", "--timeout", "1m"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--exit-when-healthy"));
}

/// Issue #26: a context whose password variable is unset still shows every setting, with the
/// missing one marked (and no secret); commands that connect refuse it (exit 2).
#[test]
fn config_view_marks_a_password_variable_that_is_unset() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.yaml");
    std::fs::write(
        &cfg,
        "current-context: prod\ncontexts:\n- name: prod\n  bootstrap-servers: kafka-1:9092\n  kafka-properties:\n    sasl.username: ops\n  kafka-password-env: KAFKAOPS_TEST_UNSET_KAFKA_PW\n  cruise-control:\n    url: http://cc.example:9090\n    username: admin\n    password-env: KAFKAOPS_TEST_UNSET_CC_PW\n",
    )
    .unwrap();
    let cfg = cfg.to_str().unwrap();
    let out = kafkaops()
        .args(["--config", cfg, "config", "view"])
        .env_remove("KAFKAOPS_TEST_UNSET_KAFKA_PW")
        .env_remove("KAFKAOPS_TEST_UNSET_CC_PW")
        .assert()
        .success();
    let out = out.get_output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for shown in [
        "bootstrap-servers",
        "kafka-1:9092",
        "kafka.sasl.username",
        "http://cc.example:9090",
        "cruise-control.username",
        "<missing: $KAFKAOPS_TEST_UNSET_KAFKA_PW is not set>",
        "<missing: $KAFKAOPS_TEST_UNSET_CC_PW is not set>",
    ] {
        assert!(stdout.contains(shown), "{shown:?} in:\n{stdout}");
    }
    assert!(
        stderr.contains("cruise-control.password is read from $KAFKAOPS_TEST_UNSET_CC_PW"),
        "{stderr}"
    );
    // With the variable set, the value is masked, never shown.
    let out = kafkaops()
        .args(["--config", cfg, "-o", "json", "config", "view"])
        .env("KAFKAOPS_TEST_UNSET_KAFKA_PW", "k-s3cret")
        .env("KAFKAOPS_TEST_UNSET_CC_PW", "c-s3cret")
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        !stdout.contains("s3cret") && !stdout.contains("missing"),
        "{stdout}"
    );
    // A command that connects still refuses the unset variable, before connecting.
    kafkaops()
        .args(["--config", cfg, "rebalance", "status"])
        .env_remove("KAFKAOPS_TEST_UNSET_KAFKA_PW")
        .env_remove("KAFKAOPS_TEST_UNSET_CC_PW")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("KAFKAOPS_TEST_UNSET_KAFKA_PW"));
}

/// Issue #26: `--color always` colours `error:` and `Warning:` on stderr; `NO_COLOR=1` and
/// `--color never` give the same table layout as colour does, without a colour sequence; the
/// table fits `COLUMNS` and `-o wide` does not cut it.
#[test]
fn colour_is_colour_only_and_tables_fit_columns() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.yaml");
    std::fs::write(
        &cfg,
        "current-context: prod\ncontexts:\n- name: prod\n  bootstrap-servers: kafka-1.brokers.kafka.svc.cluster.local:9092,kafka-2.brokers.kafka.svc.cluster.local:9092\n  cruise-control:\n    url: http://cc.example:9090\n    username: admin\n    password-env: KAFKAOPS_TEST_UNSET_CC_PW\n",
    )
    .unwrap();
    let cfg = cfg.to_str().unwrap();
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut c = kafkaops();
        c.args(["--config", cfg]).args(args);
        c.env_remove("KAFKAOPS_TEST_UNSET_CC_PW")
            .env_remove("NO_COLOR");
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        (
            o.status.code(),
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        )
    };
    let (code, coloured, warn) = run(&["--color", "always", "config", "view"], &[]);
    assert_eq!(code, Some(0), "{warn}");
    assert!(warn.contains("\u{1b}[33mWarning:"), "{warn:?}");
    let (_, no_color, plain_warn) = run(&["config", "view"], &[("NO_COLOR", "1")]);
    let (_, never, _) = run(&["--color", "never", "config", "view"], &[]);
    assert!(!no_color.contains('\u{1b}') && !plain_warn.contains('\u{1b}'));
    assert_eq!(no_color, never);
    // The same layout: only colour sequences differ (config view has no status word).
    let strip = |s: &str| s.replace("\u{1b}[0m", "").replace("\u{1b}[33m", "");
    assert_eq!(strip(&coloured), no_color);
    assert!(no_color.lines().all(|l| l.starts_with('|')), "{no_color}");
    // Errors in red with --color always, plain otherwise.
    let (code, _, err) = run(
        &["--color", "always", "--context", "nosuch", "config", "view"],
        &[],
    );
    assert_eq!(code, Some(2));
    assert!(err.starts_with("\u{1b}[31merror:"), "{err:?}");
    let (_, _, err) = run(
        &["--context", "nosuch", "config", "view"],
        &[("NO_COLOR", "1")],
    );
    assert!(err.starts_with("error:"), "{err:?}");
    // COLUMNS: no line wider; -o wide keeps the long value whole on one line.
    for width in [80usize, 160] {
        let (_, fitted, _) = run(&["config", "view"], &[("COLUMNS", &width.to_string())]);
        assert!(
            fitted.lines().all(|l| l.chars().count() <= width),
            "{width}:\n{fitted}"
        );
    }
    let (_, wide, _) = run(&["-o", "wide", "config", "view"], &[("COLUMNS", "80")]);
    assert!(
        wide.contains("kafka-1.brokers.kafka.svc.cluster.local:9092,kafka-2.brokers.kafka.svc.cluster.local:9092"),
        "{wide}"
    );
}

/// Issue #26: `config get-contexts` lists the file's contexts with the current one marked (no
/// secret); `config use-context NAME` switches it, keeping the rest of the file; an unknown
/// name is a usage error that changes nothing; `config --help` shows the file's format.
#[test]
fn config_contexts_are_listed_and_switched_as_kubectl_does() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.yaml");
    let original = "# ops clusters\ncurrent-context: dev\ncontexts:\n- name: dev\n  bootstrap-servers: dev:9092\n- name: prod\n  bootstrap-servers: prod:9092\n  cruise-control:\n    url: http://cc.prod:9090\n    password-env: KAFKAOPS_TEST_PROD_PW\n";
    std::fs::write(&cfg, original).unwrap();
    let cfg = cfg.to_str().unwrap();
    let list = |args: &[&str]| {
        let o = kafkaops()
            .args(["--config", cfg])
            .args(args)
            .env("KAFKAOPS_TEST_PROD_PW", "s3cret-pw")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    let get_contexts = ["-o", "json", "config", "get-contexts"];
    let json = crate::schema::json_of(&get_contexts, &list(&get_contexts));
    assert_eq!(json[0]["name"], "dev");
    assert_eq!(json[0]["current"], true);
    assert_eq!(json[1]["current"], false);
    assert_eq!(json[1]["cruise_control_url"], "http://cc.prod:9090");
    let table = list(&["config", "get-contexts"]);
    assert!(table.contains("| *       | dev "), "{table}");
    assert!(!table.contains("s3cret"), "{table}");
    // use-context: only the current-context line changes.
    kafkaops()
        .args(["--config", cfg, "config", "use-context", "prod"])
        .assert()
        .success();
    let now = std::fs::read_to_string(cfg).unwrap();
    assert_eq!(
        now,
        original.replace("current-context: dev", "current-context: \"prod\""),
    );
    let json = crate::schema::json_of(&get_contexts, &list(&get_contexts));
    assert_eq!(json[1]["current"], true, "{json}");
    let view = list(&["-o", "json", "config", "view"]);
    assert!(view.contains("prod:9092"), "{view}");
    let _ = crate::schema::json_of(&["config", "view"], &view);
    // An unknown context: exit 2, the file unchanged.
    kafkaops()
        .args(["--config", cfg, "config", "use-context", "nosuch"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("known: dev, prod"));
    assert_eq!(std::fs::read_to_string(cfg).unwrap(), now);
    // The format, in the help.
    kafkaops()
        .args(["config", "--help"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("current-context: local")
                .and(predicate::str::contains("password-env"))
                .and(predicate::str::contains("kafkaops config use-context prod")),
        );
}
