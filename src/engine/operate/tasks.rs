//! Which Cruise Control user task is ours: after a restart or a lost answer the engine has only
//! what it asked for (endpoint, brokers) and when, and Cruise Control's `user_tasks` with each
//! task's `RequestURL` and start time. Kept apart from the decisions so the matching rule reads
//! on its own.

use std::collections::BTreeSet;

use super::CLOCK_SKEW_MS;
use crate::cruise_control::model::UserTask;
use crate::engine::model::Millis;

/// What a user task's `RequestURL` says
/// (`POST /kafkacruisecontrol/add_broker?brokerid=4,5&dryrun=false`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestView {
    pub endpoint: String,
    /// Cruise Control's default is a dry run: only an explicit `dryrun=false` executes.
    pub dryrun: bool,
    /// The `brokerid` parameter.
    pub brokers: BTreeSet<i32>,
}

/// Reads a user task's `RequestURL`.
#[must_use]
pub fn request_of(url: &str) -> RequestView {
    let path_and_query = url.split_whitespace().last().unwrap_or("");
    let (path, query) = path_and_query
        .split_once('?')
        .unwrap_or((path_and_query, ""));
    let mut view = RequestView {
        endpoint: path.rsplit('/').next().unwrap_or("").to_ascii_lowercase(),
        dryrun: true,
        brokers: BTreeSet::new(),
    };
    for kv in query.split('&') {
        let Some((k, v)) = kv.split_once('=') else {
            continue;
        };
        if k.eq_ignore_ascii_case("dryrun") {
            view.dryrun = !v.eq_ignore_ascii_case("false");
        } else if k.eq_ignore_ascii_case("brokerid") {
            view.brokers = v
                .replace("%2C", ",")
                .replace("%2c", ",")
                .split(',')
                .filter_map(|b| b.trim().parse().ok())
                .collect();
        }
    }
    view
}

/// Our execution among `tasks`: a non-dry-run request to `endpoint` for `brokers` (when there
/// are any) that Cruise Control started at or after `since` (less the clock skew); the latest.
#[must_use]
pub fn find_our_task<'a>(
    tasks: &'a [UserTask],
    endpoint: &str,
    brokers: &BTreeSet<i32>,
    since: Millis,
) -> Option<&'a UserTask> {
    let from = i64::try_from(since.0.saturating_sub(CLOCK_SKEW_MS)).unwrap_or(i64::MAX);
    tasks
        .iter()
        .filter(|t| {
            let r = request_of(&t.request_url);
            r.endpoint == endpoint
                && !r.dryrun
                && (brokers.is_empty() || r.brokers == *brokers)
                && t.start_ms.is_some_and(|s| s >= from)
        })
        .max_by_key(|t| t.start_ms)
}
