//! `kafkaops anomalies watch` against a scripted Cruise Control (a tiny HTTP server that answers
//! `GET /state` from a script and can go away and come back on the same port): the faults a real
//! server will not produce on demand. Checked: a re-detection under a new id is not printed again,
//! an outage is reported as a disconnection and survived, a restarted Cruise Control (empty lists,
//! then the same violation under a new id) does not repeat old anomalies, a status change is
//! printed once, `--exit-on` ends with code 10, `--once`, the filters, and refused credentials
//! end the watch at once (exit 6) instead of being retried forever.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use assert_cmd::Command;

use crate::support;
use serde_json::{Value, json};

#[derive(Clone)]
enum Step {
    /// Answer one `/state` request with this AnomalyDetectorState.
    State(Value),
    /// Stop listening for this long (connection refused), then listen again on the same port.
    Down(Duration),
    /// Answer one request with this HTTP status and body.
    Status(u16, String),
}

struct Scripted {
    port: u16,
}

impl Scripted {
    fn start(script: Vec<Step>) -> Scripted {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let script = Arc::new(Mutex::new(VecDeque::from(script)));
        thread::spawn(move || serve(listener, port, &script));
        Scripted { port }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

fn serve(mut listener: TcpListener, port: u16, script: &Mutex<VecDeque<Step>>) {
    let mut last = Step::State(state(&[], &[]));
    loop {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        // Peek the next step: an outage takes effect before answering.
        let step = {
            let mut s = script.lock().unwrap();
            match s.pop_front() {
                Some(step) => step,
                None => last.clone(),
            }
        };
        match step {
            Step::Down(d) => {
                drop(stream);
                drop(listener);
                thread::sleep(d);
                listener = loop {
                    if let Ok(l) = TcpListener::bind(("127.0.0.1", port)) {
                        break l;
                    }
                    thread::sleep(Duration::from_millis(50));
                };
            }
            Step::State(body) => {
                answer(
                    stream,
                    200,
                    &json!({"AnomalyDetectorState": body, "version": 1}).to_string(),
                );
                last = Step::State(body);
            }
            Step::Status(code, body) => answer(stream, code, &body),
        }
    }
}

fn answer(mut stream: TcpStream, status: u16, body: &str) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    let mut content_length = 0usize;
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            content_length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body_in = vec![0u8; content_length];
    let _ = reader.read_exact(&mut body_in);
    let reply = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nUser-Task-ID: 6f2b1f7e-0000-0000-0000-000000000000\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(reply.as_bytes());
}

fn gv(id: &str, detected: i64, status: &str) -> Value {
    json!({"anomalyId": id, "status": status, "detectionMs": detected, "statusUpdateMs": detected,
           "fixableViolatedGoals": ["ReplicaDistributionGoal"], "unfixableViolatedGoals": []})
}

fn broker_failure(id: &str) -> Value {
    json!({"anomalyId": id, "status": "CHECK_WITH_DELAY", "detectionMs": 9000, "statusUpdateMs": 9000,
           "failedBrokersByTimeMs": {"3": 8500}})
}

fn state(goal_violations: &[Value], broker_failures: &[Value]) -> Value {
    json!({"selfHealingEnabled": [], "selfHealingDisabled": ["GOAL_VIOLATION"],
           "recentGoalViolations": goal_violations, "recentBrokerFailures": broker_failures,
           "recentMetricAnomalies": [], "recentDiskFailures": [], "recentTopicAnomalies": [],
           "recentMaintenanceEvents": [], "balancednessScore": 90.0})
}

fn kafkaops(url: &str) -> Command {
    let mut cmd = Command::from_std(support::bin::kafkaops());
    cmd.env("KAFKAOPS_CRUISE_CONTROL_URL", url)
        .timeout(Duration::from_secs(60));
    cmd
}

/// The events of an `anomalies watch -o jsonl` run, each checked against
/// `schemas/anomalies-watch.json`.
fn lines(stdout: &[u8]) -> Vec<Value> {
    crate::schema::jsonl_of(&["anomalies", "watch"], &String::from_utf8_lossy(stdout))
}

#[test]
fn restart_outage_and_duplicates_are_not_repeated_as_new() {
    let script = vec![
        Step::State(state(&[gv("a", 1000, "IGNORED")], &[])),
        // The same violation re-detected under a new id, listed in another order.
        Step::State(state(&[gv("b", 2000, "IGNORED"), gv("a", 1000, "IGNORED")], &[])),
        Step::Down(Duration::from_millis(1500)),
        // Cruise Control restarted: it remembers nothing, then detects the same violation again.
        Step::State(state(&[], &[])),
        Step::Status(
            500,
            r#"{"errorMessage":"There are already 5 active user tasks, which has reached the servlet capacity.","version":1}"#
                .into(),
        ),
        Step::State(state(&[gv("c", 5000, "IGNORED")], &[])),
        // The latest detection of the same content changes status: printed once.
        Step::State(state(&[gv("c", 5000, "IGNORED"), gv("d", 6000, "FIX_STARTED")], &[])),
        Step::State(state(&[gv("d", 6000, "FIX_STARTED"), gv("e", 7000, "FIX_STARTED")], &[])),
        Step::State(state(&[gv("e", 7000, "FIX_STARTED")], &[broker_failure("f")])),
    ];
    let cc = Scripted::start(script);
    let out = kafkaops(&cc.url())
        .args([
            "anomalies",
            "watch",
            "--interval",
            "100ms",
            "--max-backoff",
            "500ms",
            "--exit-on",
            "broker-failure",
            "-o",
            "jsonl",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(10), "{stderr}");
    let events = lines(&out.stdout);
    let summary: Vec<(String, String, String)> = events
        .iter()
        .map(|e| {
            (
                e["event"].as_str().unwrap().to_string(),
                e["type"].as_str().unwrap().to_string(),
                e["anomaly_id"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("new".into(), "goal-violation".into(), "a".into()),
            ("status-changed".into(), "goal-violation".into(), "d".into()),
            ("new".into(), "broker-failure".into(), "f".into()),
        ],
        "{stderr}"
    );
    assert_eq!(events[0]["fixable"], true);
    assert_eq!(events[1]["previous_status"], "IGNORED");
    assert_eq!(events[2]["failed_brokers"]["3"], 8500);
    assert!(
        stderr.contains("DISCONNECTED from Cruise Control"),
        "{stderr}"
    );
    assert!(stderr.contains("Reconnected to Cruise Control"), "{stderr}");
    assert!(stderr.contains("exiting with code 10"), "{stderr}");
}

/// `--once` with nothing detected says so on stderr in table mode, piped too (#25 point 8);
/// stdout stays empty; `-o jsonl` prints nothing for nothing, `-o json` (one document) `[]`.
#[test]
fn once_with_nothing_detected_says_so() {
    let cc = Scripted::start(vec![
        Step::State(state(&[], &[])),
        Step::State(state(&[], &[])),
    ]);
    let out = kafkaops(&cc.url())
        .args(["anomalies", "watch", "--once"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("No anomalies reported."), "{stderr}");
    assert!(out.stdout.is_empty());
    let out = kafkaops(&cc.url())
        .args(["anomalies", "watch", "--once", "-o", "jsonl"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("No anomalies reported."), "{stderr}");
    assert!(out.stdout.is_empty());
    let cc = Scripted::start(vec![Step::State(state(&[], &[]))]);
    let out = kafkaops(&cc.url())
        .args(["anomalies", "watch", "--once", "-o", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[]\n");
}

/// Piped, the table is text lines: the format never switches to JSON on its own (#26), and
/// `-o json` is one document: an endless watch refuses it (exit 2) and names `-o jsonl`.
#[test]
fn piped_watch_keeps_its_format_and_json_is_one_document() {
    let st = state(&[gv("a", 1000, "IGNORED")], &[broker_failure("f")]);
    let cc = Scripted::start(vec![Step::State(st.clone())]);
    let out = kafkaops(&cc.url())
        .args(["anomalies", "watch", "--once"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.lines()
            .all(|l| serde_json::from_str::<Value>(l).is_err()),
        "piped table output stays text: {text}"
    );
    let cc = Scripted::start(vec![Step::State(st)]);
    let out = kafkaops(&cc.url())
        .args(["anomalies", "watch", "--once", "-o", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc = crate::schema::json_of(
        &["anomalies", "watch", "--once"],
        &String::from_utf8_lossy(&out.stdout),
    );
    assert_eq!(doc.as_array().map(Vec::len), Some(2), "{doc}");
    let out = kafkaops(&cc.url())
        .args(["anomalies", "watch", "--interval", "100ms", "-o", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("-o jsonl"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn once_prints_each_content_once_and_filters_apply() {
    let st = state(
        &[gv("a", 1000, "IGNORED"), gv("b", 2000, "IGNORED")],
        &[broker_failure("f")],
    );
    let cc = Scripted::start(vec![Step::State(st)]);
    let out = kafkaops(&cc.url())
        .args(["anomalies", "watch", "--once", "-o", "jsonl"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let events = lines(&out.stdout);
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(
        events[0]["anomaly_id"], "b",
        "the latest detection: {events:?}"
    );
    // The JSON line is an API.
    insta::assert_json_snapshot!("watch_event_goal_violation", events[0]);
    insta::assert_json_snapshot!("watch_event_broker_failure", events[1]);
    let out = kafkaops(&cc.url())
        .args([
            "anomalies",
            "watch",
            "--once",
            "--type",
            "broker-failure",
            "-o",
            "yaml",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("---\n") && text.contains("type: broker-failure"),
        "{text}"
    );
    assert!(!text.contains("goal-violation"), "{text}");
    let out = kafkaops(&cc.url())
        .args(["anomalies", "watch", "--once", "--status", "fix_started"])
        .output()
        .unwrap();
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // --exit-on also applies to --once.
    kafkaops(&cc.url())
        .args([
            "anomalies",
            "watch",
            "--once",
            "--exit-on",
            "goal-violation",
        ])
        .assert()
        .code(10);
}

#[test]
fn refused_credentials_end_the_watch_instead_of_retrying() {
    let cc = Scripted::start(vec![Step::Status(401, "<html>401</html>".into())]);
    kafkaops(&cc.url())
        .args(["anomalies", "watch", "--interval", "100ms"])
        .assert()
        .code(6)
        .stderr(predicates::str::contains(
            "asks for credentials (HTTP 401) and none were given",
        ));
    // --once against nothing listening: unreachable, exit 6, no waiting.
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", l.local_addr().unwrap());
    drop(l);
    kafkaops(&url)
        .args(["anomalies", "watch", "--once"])
        .assert()
        .code(6);
}
