//! `rebalance pace --throttle RATE` (issues #17, #26), the stop/resume path: without Kafka
//! bootstrap servers (or for an execution started without a throttle) kafkaops cannot change the
//! brokers' rates directly, so it stops the execution and re-submits the same request with the
//! new throttle under the drift guard. The live path (the brokers' rates changed while the
//! execution runs) is tested on a real cluster.
//!
//! - On the wire (wiremock as Cruise Control, for the request sequence and the refusal path,
//!   which the double cannot be made to produce on demand): the running task's request is read
//!   from `user_tasks`, nothing is sent without confirmation, the stop comes before the
//!   re-submission, the re-submission is the same endpoint and parameters with
//!   `replication_throttle=RATE` as a dry run first, and it is executed only when its proposal
//!   matches; a drifted proposal leaves the execution stopped with exit 1 and no execution
//!   request.
//! - On a real 3-node KRaft cluster with the Cruise Control double: `tests/cluster/pace_throttle.rs`.
//!
//! Run with `cargo test --test wire pace_throttle:: -- --nocapture` to see the steps.

use crate::support;

use support::bin::{Out, run_async};

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const TASK: &str = "5a4b2c1d-0000-4000-8000-00000000e0e0";
const NEW_TASK: &str = "7f7f7f7f-0000-4000-8000-000000000001";
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cruise_control");

fn fixture(name: &str) -> String {
    std::fs::read_to_string(Path::new(FIXTURES).join(name)).unwrap()
}

async fn kafkaops(cc_url: &str, args: &[&str]) -> Out {
    let state_dir = tempfile::tempdir().unwrap();
    let mut cmd = support::bin::kafkaops();
    cmd.env("KAFKAOPS_CRUISE_CONTROL_URL", cc_url)
        .env("KAFKAOPS_STATE_DIR", state_dir.path())
        .args(args);
    run_async(cmd).await
}

/// `GET /state`: executing until a stop request arrived, idle after.
struct StateResponder(Arc<AtomicBool>);

impl Respond for StateResponder {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        if self.0.load(Ordering::SeqCst) {
            ResponseTemplate::new(200).set_body_string(fixture("state_ready.json"))
        } else {
            ResponseTemplate::new(200).set_body_string(fixture("state_executing.json"))
        }
    }
}

struct StopResponder(Arc<AtomicBool>);

impl Respond for StopResponder {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        self.0.store(true, Ordering::SeqCst);
        ResponseTemplate::new(200).set_body_string(fixture("stop.json"))
    }
}

/// The running task's request: `add_broker` of broker 4 under a 1 KB/s throttle.
const REQUEST_URL: &str = "POST /kafkacruisecontrol/add_broker?brokerid=4&dryrun=false&json=true&verbose=true&replication_throttle=1024&concurrent_partition_movements_per_broker=2&reason=kafkaops";

/// A Cruise Control double on wiremock; `resubmitted` is the proposal of the re-submitted dry
/// run (and execution).
async fn cruise_control(resubmitted: String) -> MockServer {
    let server = MockServer::start().await;
    let stopped = Arc::new(AtomicBool::new(false));
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(StateResponder(stopped.clone()))
        .mount(&server)
        .await;
    let task = serde_json::json!({"userTasks": [{
        "UserTaskId": TASK, "RequestURL": REQUEST_URL, "ClientIdentity": "127.0.0.1",
        "StartMs": "1763800000000", "Status": "InExecution",
        "originalResponse": fixture("add_broker_verbose.json"),
    }], "version": 1});
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/user_tasks"))
        .respond_with(ResponseTemplate::new(200).set_body_json(task))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/stop_proposal_execution"))
        .respond_with(StopResponder(stopped))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/add_broker"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("User-Task-ID", NEW_TASK)
                .set_body_string(resubmitted),
        )
        .mount(&server)
        .await;
    server
}

/// The requests the server received: `METHOD endpoint` plus the query, in order.
async fn sequence(server: &MockServer) -> Vec<(String, Vec<(String, String)>)> {
    server
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .map(|r| {
            let endpoint = r.url.path().rsplit('/').next().unwrap().to_string();
            let q = r
                .url
                .query_pairs()
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect();
            (format!("{} {endpoint}", r.method), q)
        })
        .collect()
}

fn param<'a>(q: &'a [(String, String)], k: &str) -> Option<&'a str> {
    q.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str())
}

#[tokio::test]
async fn nothing_is_stopped_without_confirmation() {
    let server = cruise_control(fixture("add_broker_verbose.json")).await;
    let o = kafkaops(
        &server.uri(),
        &["rebalance", "pace", "--throttle", "5000000"],
    )
    .await;
    assert_eq!(o.code, 2, "no terminal and no --yes: {}", o.stderr);
    assert!(
        o.stderr.contains("stop task"),
        "says what would happen: {}",
        o.stderr
    );
    let seq = sequence(&server).await;
    assert!(
        seq.iter().all(|(m, _)| m.starts_with("GET ")),
        "only reads: {seq:?}"
    );
}

#[tokio::test]
async fn the_same_request_is_resubmitted_with_the_new_throttle_after_the_stop() {
    // Cruise Control proposes again exactly the plan of the stopped execution (nothing was
    // done yet, or no Kafka to tell: compared with the whole original proposal).
    let server = cruise_control(fixture("add_broker_verbose.json")).await;
    let o = kafkaops(
        &server.uri(),
        &[
            "rebalance",
            "pace",
            "--throttle",
            "5000000",
            "--yes",
            "-o",
            "json",
        ],
    )
    .await;
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = o.json();
    assert_eq!(v["status"], "resumed", "{v}");
    assert_eq!(v["task_id"], NEW_TASK, "{v}");
    assert_eq!(v["stopped_task_id"], TASK, "{v}");
    assert_eq!(v["approved"], "original", "{v}");

    let seq = sequence(&server).await;
    let names: Vec<&str> = seq.iter().map(|(m, _)| m.as_str()).collect();
    let stop = names
        .iter()
        .position(|m| *m == "POST stop_proposal_execution")
        .unwrap_or_else(|| panic!("no stop: {names:?}"));
    assert!(
        names[..stop].contains(&"GET user_tasks"),
        "the request is read before the stop: {names:?}"
    );
    let posts: Vec<&(String, Vec<(String, String)>)> =
        seq.iter().filter(|(m, _)| m == "POST add_broker").collect();
    assert_eq!(posts.len(), 2, "a dry run, then the execution: {names:?}");
    let first = names.iter().position(|m| *m == "POST add_broker").unwrap();
    assert!(first > stop, "re-submitted only after the stop: {names:?}");
    assert!(
        names[stop..first].contains(&"GET state"),
        "waits for the idle executor: {names:?}"
    );
    for (i, (_, q)) in posts.iter().enumerate() {
        assert_eq!(
            param(q, "dryrun"),
            Some(if i == 0 { "true" } else { "false" })
        );
        assert_eq!(param(q, "replication_throttle"), Some("5000000"), "{q:?}");
        assert_eq!(param(q, "brokerid"), Some("4"), "{q:?}");
        assert_eq!(
            param(q, "concurrent_partition_movements_per_broker"),
            Some("2"),
            "{q:?}"
        );
        assert_eq!(
            q.iter()
                .filter(|(k, _)| k == "replication_throttle")
                .count(),
            1,
            "{q:?}"
        );
    }
}

#[tokio::test]
async fn a_drifted_proposal_leaves_the_execution_stopped() {
    // The re-submitted proposal moves onto broker 5 instead of 4.
    let drifted = fixture("add_broker_verbose.json")
        .replace("\"newReplicas\":[4,1,2]", "\"newReplicas\":[5,1,2]");
    assert_ne!(drifted, fixture("add_broker_verbose.json"));
    let server = cruise_control(drifted).await;
    let o = kafkaops(
        &server.uri(),
        &[
            "rebalance",
            "pace",
            "--throttle",
            "5000000",
            "--yes",
            "-o",
            "json",
        ],
    )
    .await;
    assert_eq!(o.code, 1, "refused by a safety check: {}", o.stderr);
    let v: Value = o.json();
    assert_eq!(v["status"], "drifted", "{v}");
    assert_eq!(v["task_id"], Value::Null, "{v}");
    assert!(o.stderr.contains("stays stopped"), "{}", o.stderr);
    let seq = sequence(&server).await;
    assert!(
        seq.iter().any(|(m, _)| m == "POST stop_proposal_execution"),
        "{seq:?}"
    );
    let posts: Vec<_> = seq.iter().filter(|(m, _)| m == "POST add_broker").collect();
    assert_eq!(posts.len(), 1, "the dry run only: {posts:?}");
    assert_eq!(param(&posts[0].1, "dryrun"), Some("true"));
}

#[tokio::test]
async fn nothing_executing_changes_nothing() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(ResponseTemplate::new(200).set_body_string(fixture("state_ready.json")))
        .mount(&server)
        .await;
    let o = kafkaops(
        &server.uri(),
        &["rebalance", "pace", "--throttle", "1000", "--yes"],
    )
    .await;
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("not executing anything"), "{}", o.stderr);
    let seq = sequence(&server).await;
    assert!(seq.iter().all(|(m, _)| m == "GET state"), "{seq:?}");
}
