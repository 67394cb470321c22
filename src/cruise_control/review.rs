//! Two-step verification (reference §3.10): Cruise Control's review purgatory.
//!
//! With `two.step.verification.enabled=true` every POST except `review` is held, not run:
//! Cruise Control answers 200 `{"RequestInfo":[{Id, SubmitterAddress, SubmissionTimeMs, Status,
//! EndpointWithParams, Reason}],"version":1}`. That body has none of an OptimizationResult's
//! keys, so a lenient parse would read it as an empty proposal ("nothing to move", exit 0),
//! which is false: nothing was even computed. The client therefore checks every POST answer
//! with [`held_for_review`] first and turns a held request into
//! [`super::CcError::ReviewPending`] (exit 8, with the review id).
//!
//! The reviewed request is run later with `POST /<endpoint>?review_id=N` as the only parameter;
//! it then runs exactly as it was submitted (a dry run stays a dry run).

use serde::{Deserialize, Serialize};

use super::lenient;

/// One request in the purgatory.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct RequestInfo {
    #[serde(rename = "Id")]
    pub id: i64,
    #[serde(rename = "SubmitterAddress", default)]
    pub submitter_address: String,
    #[serde(
        rename = "SubmissionTimeMs",
        default,
        deserialize_with = "lenient::opt_i64"
    )]
    pub submission_time_ms: Option<i64>,
    /// `PENDING_REVIEW`, `APPROVED`, `SUBMITTED` or `DISCARDED`.
    #[serde(rename = "Status", default)]
    pub status: String,
    /// e.g. `POST /kafkacruisecontrol/add_broker?brokerid=4&dryrun=false&json=true`.
    #[serde(rename = "EndpointWithParams", default)]
    pub endpoint_with_params: String,
    #[serde(rename = "Reason", default)]
    pub reason: String,
}

impl RequestInfo {
    /// The endpoint name (`add_broker`), from `EndpointWithParams`: a path
    /// (`POST /kafkacruisecontrol/add_broker?...`, the documented form) or the endpoint's enum
    /// name (`ADD_BROKER?...`, what a real server sends, reference section 14).
    #[must_use]
    pub fn endpoint(&self) -> String {
        let path = self
            .endpoint_with_params
            .split_whitespace()
            .last()
            .unwrap_or("");
        let path = path.split('?').next().unwrap_or("");
        path.trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase()
    }

    /// Whether the held request is an execution (`dryrun=false`; Cruise Control's default is a
    /// dry run).
    #[must_use]
    pub fn is_execution(&self) -> bool {
        let query = self.endpoint_with_params.split('?').nth(1).unwrap_or("");
        query
            .split('&')
            .any(|kv| kv.eq_ignore_ascii_case("dryrun=false"))
    }
}

/// `review_board` and `review` answers, and a held POST.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct ReviewBoard {
    #[serde(
        rename = "RequestInfo",
        default,
        deserialize_with = "lenient::vec_or_null"
    )]
    pub requests: Vec<RequestInfo>,
}

/// The requests Cruise Control holds for review, when `body` is a purgatory answer (`None`
/// for anything else).
#[must_use]
pub fn held_for_review(body: &str) -> Option<Vec<RequestInfo>> {
    let v: serde_json::Value = lenient::from_str(body).ok()?;
    let info = v.get("RequestInfo")?;
    // The yaml says object, the code sends an array: accept both.
    let list = match info {
        serde_json::Value::Array(_) => info.clone(),
        other => serde_json::Value::Array(vec![other.clone()]),
    };
    serde_json::from_value(list).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_post_is_recognised_and_an_optimization_result_is_not() {
        let held = r#"{"RequestInfo":[{"Id":3,"SubmitterAddress":"127.0.0.1","SubmissionTimeMs":1700000000000,
            "Status":"PENDING_REVIEW","EndpointWithParams":"POST /kafkacruisecontrol/add_broker?brokerid=4&dryrun=false&json=true",
            "Reason":"kafkaops"}],"version":1}"#;
        let r = held_for_review(held).unwrap();
        assert_eq!(r[0].id, 3);
        assert_eq!(r[0].endpoint(), "add_broker");
        assert!(r[0].is_execution());
        let object = r#"{"RequestInfo":{"Id":1,"Status":"PENDING_REVIEW","EndpointWithParams":"POST /kafkacruisecontrol/rebalance?json=true"},"version":1}"#;
        let r = held_for_review(object).unwrap();
        assert_eq!(r[0].endpoint(), "rebalance");
        assert!(!r[0].is_execution(), "dryrun defaults to true");
        // What a real server sends (reference section 14): the enum name, no method or path.
        let real = r#"{"RequestInfo":[{"Id":0,"Status":"PENDING_REVIEW","EndpointWithParams":"REMOVE_BROKER?brokerid=4&dryrun=false&json=true","Reason":"Awaiting review."}],"version":1}"#;
        let r = held_for_review(real).unwrap();
        assert_eq!(r[0].endpoint(), "remove_broker");
        assert!(r[0].is_execution());
        assert!(held_for_review(r#"{"summary":{},"version":1}"#).is_none());
    }
}
