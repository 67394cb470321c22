//! Cruise Control answers for the wiremock-based tests (`cc_client_wire.rs`, `rebalance_cli.rs`):
//! the recorded fixtures under `tests/fixtures/cruise_control/` and the response shapes the
//! reference documents. Included with `#[path]`, so each test binary compiles only this file.

#![allow(dead_code)]

use wiremock::matchers::{method, path};
use wiremock::{Mock, MockBuilder, ResponseTemplate};

/// The user-task id every double answer carries.
pub const TASK: &str = "5a4b2c1d-0000-4000-8000-00000000e0e0";

/// A recorded Cruise Control response body.
pub fn fixture(name: &str) -> String {
    let p = format!(
        "{}/tests/fixtures/cruise_control/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// A JSON answer as Cruise Control sends it.
pub fn json(status: u16, body: &str) -> ResponseTemplate {
    ResponseTemplate::new(status)
        .insert_header("Content-Type", "application/json")
        .insert_header("Cruise-Control-Version", "2.5.146")
        .set_body_string(body)
}

/// A `user_tasks` answer listing task [`TASK`] (an add_broker request) in `status`, with its
/// `originalResponse` when given.
pub fn user_tasks_body(dryrun: bool, status: &str, original: Option<&str>) -> String {
    let mut task = serde_json::json!({
        "UserTaskId": TASK,
        "RequestURL": format!("POST /kafkacruisecontrol/add_broker?brokerid=4&dryrun={dryrun}&json=true"),
        "ClientIdentity": "127.0.0.1",
        "StartMs": "1579874383374",
        "Status": status,
    });
    if let Some(o) = original {
        task["originalResponse"] = serde_json::Value::String(o.to_string());
    }
    serde_json::json!({"userTasks": [task], "version": 1}).to_string()
}

/// A mock of Cruise Control's `http_method /kafkacruisecontrol/endpoint` (more matchers and the
/// answer are added by the caller).
pub fn cc_request(http_method: &str, endpoint: &str) -> MockBuilder {
    Mock::given(method(http_method)).and(path(format!("/kafkacruisecontrol/{endpoint}")))
}

/// The 202 Cruise Control answers while it computes a request, with task [`TASK`].
pub fn accepted_202() -> ResponseTemplate {
    json(202, &fixture("progress_202.json")).insert_header("User-Task-ID", TASK)
}

/// The recorded verbose `add_broker` proposal, answered at once (200).
pub fn proposal_200() -> ResponseTemplate {
    json(200, &fixture("add_broker_verbose.json"))
}
