//! Which Cruise Control user task is ours: after a restart or a lost answer the engine has only
//! what it asked for and Cruise Control's `user_tasks` with each task's `RequestURL` and start
//! time. Kept apart from the decisions so the matching rule reads on its own.
//!
//! The rule compares the whole parameter set of the execution request (saved before it was
//! sent, with a tag in its `reason` that no other request carries), never start times: the
//! clocks of the operate host and Cruise Control may differ by any amount, and "a non-dry-run
//! request to the same endpoint started after ours" is also someone else's request. Cruise
//! Control lists the parameters with their values decoded (its servlet's parameter map); the
//! test double lists them as sent (encoded): both read the same here.

use std::collections::BTreeSet;

use crate::engine::model::Millis;
use crate::engine::view::UserTask;

/// For states saved before the request's parameters were kept: a Cruise Control user task
/// started up to this long before `requested_at` still counts as ours. Tasks of requests whose
/// parameters were kept are matched on those, whatever the clocks say ([`find_our_task`]).
pub const CLOCK_SKEW_MS: u64 = 5_000;

/// The query parameters of an execution request as sent (name, value; `json` aside).
pub type RequestParams = Vec<(String, String)>;

/// What a user task's `RequestURL` says
/// (`POST /kafkacruisecontrol/add_broker?brokerid=4,5&dryrun=false`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestView {
    pub endpoint: String,
    /// Cruise Control's default is a dry run: only an explicit `dryrun=false` executes.
    pub dryrun: bool,
    /// The `brokerid` parameter.
    pub brokers: BTreeSet<i32>,
    /// Every parameter, names lower-cased, values as listed (maybe percent-encoded).
    pub params: Vec<(String, String)>,
}

/// Percent-decodes `s` (`+` as a space when `plus` is set); `None` when it is not valid
/// percent-encoded UTF-8.
fn decode(s: &str, plus: bool) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' if plus => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Whether a value listed by Cruise Control (decoded, or encoded as sent) is `sent`.
fn same_value(listed: &str, sent: &str) -> bool {
    listed == sent
        || decode(listed, false).as_deref() == Some(sent)
        || decode(listed, true).as_deref() == Some(sent)
}

/// Reads a user task's `RequestURL`.
#[must_use]
pub fn request_of(url: &str) -> RequestView {
    let url = url.trim();
    // `METHOD /path?query`: the method ends at the first space (a decoded value may hold more).
    let path_and_query = match url.split_once(' ') {
        Some((method, rest)) if !method.contains('/') => rest.trim_start(),
        _ => url,
    };
    let (path, query) = path_and_query
        .split_once('?')
        .unwrap_or((path_and_query, ""));
    let mut view = RequestView {
        endpoint: path
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase(),
        dryrun: true,
        brokers: BTreeSet::new(),
        params: Vec::new(),
    };
    for kv in query.split('&').filter(|kv| !kv.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        let k = k.to_ascii_lowercase();
        if k == "dryrun" {
            view.dryrun = !v.eq_ignore_ascii_case("false");
        } else if k == "brokerid" {
            view.brokers = decode(v, false)
                .unwrap_or_default()
                .split(',')
                .filter_map(|b| b.trim().parse().ok())
                .collect();
        }
        view.params.push((k, v.to_string()));
    }
    view
}

/// Whether `listed` (a task's parameters) is exactly the parameter set `sent` (`json` aside:
/// the client adds it to every request).
fn same_params(listed: &[(String, String)], sent: &[(String, String)]) -> bool {
    let keep = |k: &str| !k.eq_ignore_ascii_case("json");
    let mut listed: Vec<(String, &str)> = listed
        .iter()
        .filter(|(k, _)| keep(k))
        .map(|(k, v)| (k.to_ascii_lowercase(), v.as_str()))
        .collect();
    let mut sent: Vec<(String, &str)> = sent
        .iter()
        .filter(|(k, _)| keep(k))
        .map(|(k, v)| (k.to_ascii_lowercase(), v.as_str()))
        .collect();
    if listed.len() != sent.len() {
        return false;
    }
    listed.sort_unstable();
    sent.sort_unstable();
    listed
        .iter()
        .zip(&sent)
        .all(|((lk, lv), (sk, sv))| lk == sk && same_value(lv, sv))
}

/// Our execution among `tasks`: a non-dry-run request to `endpoint` whose parameters are
/// exactly `sent`, the parameters of the execution request as saved before it was sent
/// (whatever the clocks say). A state saved before the parameters were kept (`sent` is `None`)
/// falls back to the old rule: a request for `brokers` (when there are any) started at or
/// after `since` less [`CLOCK_SKEW_MS`]. The latest match.
#[must_use]
pub fn find_our_task<'a>(
    tasks: &'a [UserTask],
    endpoint: &str,
    sent: Option<&RequestParams>,
    brokers: &BTreeSet<i32>,
    since: Millis,
) -> Option<&'a UserTask> {
    let from = i64::try_from(since.0.saturating_sub(CLOCK_SKEW_MS)).unwrap_or(i64::MAX);
    tasks
        .iter()
        .filter(|t| {
            let r = request_of(&t.request_url);
            if r.endpoint != endpoint || r.dryrun {
                return false;
            }
            match sent {
                Some(sent) => same_params(&r.params, sent),
                None => {
                    (brokers.is_empty() || r.brokers == *brokers)
                        && t.start_ms.is_some_and(|s| s >= from)
                }
            }
        })
        .max_by_key(|t| t.start_ms)
}
