//! What the Cruise Control flow tells people when it does not end well: not ready (and for how
//! long Cruise Control has been sampling), busy, goals that cannot be met (with Cruise Control's
//! hint), interrupted (and what became of the execution), timed out. Each message carries its
//! failure class ([`Classified`]); the binary's edge turns the class into the exit code.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::cruise_control::CcError;
use crate::cruise_control::error::{ErrorClass, Permanent, Transient};
use crate::engine::cc_flow::{AfterInterrupt, Outcome};
use crate::engine::failure::{Classified, FailureKind};
use crate::engine::view::MonitorState;

/// The reason sent with the stop request after an interrupt.
pub const INTERRUPT_STOP_REASON: &str = "kafkaops: interrupted by the user";

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The message for "Cruise Control is still sampling", with how long it has been.
#[must_use]
pub fn not_ready_message(monitor: &MonitorState, reason: &str, now_ms: i64) -> String {
    let mut msg = format!("Cruise Control is not ready yet: {reason}");
    if let Some(since) = monitor.sampling_since_ms {
        let secs = u64::try_from((now_ms - since).max(0) / 1000).unwrap_or(0);
        msg.push_str(&format!(
            "; its oldest metric window started {} ago",
            humantime::format_duration(Duration::from_secs(secs))
        ));
    } else if let Some(w) = monitor.num_monitored_windows {
        msg.push_str(&format!("; {w} metric window(s) collected so far"));
    }
    if let Some(pct) = monitor.monitoring_coverage_pct {
        msg.push_str(&format!(", {pct:.0}% of partitions covered"));
    }
    msg.push_str(
        ". Nothing was changed; retry later or pass --wait-for-ready (e.g. --wait-for-ready 10m)",
    );
    msg
}

fn not_ready<E: From<Classified>>(monitor: Option<&MonitorState>, reason: &str) -> E {
    let blank = MonitorState::default();
    Classified::new(
        FailureKind::NotReady,
        not_ready_message(monitor.unwrap_or(&blank), reason, now_ms()),
    )
    .into()
}

/// Adds how long Cruise Control has been sampling to a not-enough-windows error.
pub(super) fn explain_not_ready<E: From<CcError> + From<Classified>>(
    e: CcError,
    monitor: Option<&MonitorState>,
) -> E {
    if matches!(
        e.class(),
        ErrorClass::Retryable(Transient::NotEnoughValidWindows)
    ) {
        tracing::debug!("{e}");
        return not_ready(
            monitor,
            "its load model does not have enough valid metric windows yet (NotEnoughValidWindowsException)",
        );
    }
    if e.to_string()
        .to_ascii_lowercase()
        .contains("load monitor is in loading state")
    {
        tracing::debug!("{e}");
        return not_ready(
            monitor,
            "its load monitor is still LOADING its stored metric samples",
        );
    }
    explain_goals(e)
}

/// Says which goal Cruise Control could not satisfy and its hint, for an
/// `OptimizationFailureException` (exit 12): it proposed nothing, so nothing was changed.
pub(super) fn explain_goals<E: From<CcError> + From<Classified>>(e: CcError) -> E {
    if !matches!(
        e.class(),
        ErrorClass::Permanent(Permanent::OptimizationFailure)
    ) {
        return e.into();
    }
    tracing::debug!("{e}");
    // The server's own text (the exception class names the goal parse starts from).
    let text = match &e {
        CcError::Api { message, .. } => message.clone(),
        other => other.to_string(),
    };
    Classified::new(e.failure_kind(), goals_unsatisfiable_message(&text)).into()
}

/// `"Cruise Control could not satisfy the goals: <goal> ..."` from the exception text, e.g.
/// `OptimizationFailureException: [RackAwareGoal] Cannot move Replica[...] ... Add at least 1
/// broker to a rack other than [a].` (pure).
#[must_use]
pub fn goals_unsatisfiable_message(text: &str) -> String {
    let after = text
        .split_once("OptimizationFailureException:")
        .map_or(text, |(_, rest)| rest)
        .trim();
    let goal = after
        .strip_prefix('[')
        .and_then(|r| r.split_once(']'))
        .map(|(g, _)| g.to_string());
    let detail = after
        .split_once(']')
        .filter(|_| goal.is_some())
        .map_or(after, |(_, rest)| rest)
        .trim()
        .trim_end_matches(['\'', '.'])
        .trim_end_matches('\'')
        .to_string();
    let hint = detail
        .find("Add at least")
        .map(|i| detail[i..].trim_end_matches('.').to_string());
    let mut msg = format!(
        "Cruise Control could not satisfy the goals: {} cannot be met",
        goal.as_deref().unwrap_or("a goal")
    );
    match hint {
        Some(h) => {
            let cause = detail[..detail.find("Add at least").unwrap_or(0)].trim();
            if !cause.is_empty() {
                msg.push_str(&format!(" ({})", cause.trim_end_matches('.')));
            }
            msg.push_str(&format!(". Cruise Control's hint: {h}"));
        }
        None if !detail.is_empty() => msg.push_str(&format!(" ({detail})")),
        None => {}
    }
    msg.push_str(". It proposed nothing and nothing was changed");
    msg
}

fn task_suffix(task_id: Option<&str>) -> String {
    task_id.map(|t| format!(" (task {t})")).unwrap_or_default()
}

/// The error that tells people about a failing outcome that no request error explains.
pub fn outcome_error<E: From<CcError> + From<Classified>>(
    outcome: &Outcome,
    monitor: Option<&MonitorState>,
    following_for: Option<Duration>,
    stop_error: Option<&CcError>,
) -> E {
    let coded = |kind, msg: String| E::from(Classified::new(kind, msg));
    match outcome {
        Outcome::NotReady { reason } => not_ready(monitor, reason),
        Outcome::Busy { running } => coded(
            FailureKind::Busy,
            format!(
                "another execution is already running on Cruise Control: {running}; nothing was changed. Wait for it (`kafkaops rebalance status`) or stop it (`kafkaops rebalance stop`)"
            ),
        ),
        Outcome::Failed { task_id } => coded(
            FailureKind::Failed,
            format!(
                "the execution (task {}) ended with an error or was stopped; some replicas may have moved, see `kafkaops rebalance status` and Cruise Control's log",
                task_id.as_deref().unwrap_or("-")
            ),
        ),
        Outcome::TaskLost { task_id } => CcError::TaskLost {
            task_id: task_id.clone(),
        }
        .into(),
        Outcome::TimedOut { task_id } => CcError::DeadlineExceeded {
            waiting_for: format!(
                "the execution{} to finish (it keeps running on Cruise Control; see `kafkaops rebalance status`)",
                task_suffix(task_id.as_deref())
            ),
            after: following_for.unwrap_or_default(),
        }
        .into(),
        Outcome::Interrupted { task_id, after } => coded(
            FailureKind::Interrupted,
            interrupted_message(task_id.as_deref(), *after, stop_error),
        ),
        Outcome::Error { failure, .. } => coded(failure.kind, failure.message.clone()),
        Outcome::Rejected { reason } => coded(FailureKind::Invalid, reason.clone()),
        Outcome::Drifted { reasons } => coded(
            FailureKind::Failed,
            format!(
                "the proposal changed since it was approved ({}); nothing was executed. Look at the new proposal (dry run) and run again, or allow more with --max-drift / --max-data-mb",
                reasons.join("; ")
            ),
        ),
        Outcome::Declined => coded(
            FailureKind::Failed,
            "the execution was not confirmed; nothing was changed".into(),
        ),
        Outcome::Proposed
        | Outcome::NothingToDo
        | Outcome::Started { .. }
        | Outcome::Completed { .. } => coded(FailureKind::NoOp, String::new()),
    }
}

/// What an interrupted flow left behind, by what became of the execution after Ctrl-C.
fn interrupted_message(
    task_id: Option<&str>,
    after: AfterInterrupt,
    stop_error: Option<&CcError>,
) -> String {
    let task = task_suffix(task_id);
    match after {
        AfterInterrupt::NothingStarted => {
            "interrupted before anything was executed; nothing was changed".to_string()
        }
        AfterInterrupt::StopRequested => format!(
            "interrupted: asked Cruise Control to stop the execution{task}; replicas already moved stay where they are"
        ),
        AfterInterrupt::StopFailed => format!(
            "interrupted, and stopping the execution{task} failed: {}; run `kafkaops rebalance stop`",
            stop_error.map_or_else(|| "no answer".to_string(), ToString::to_string)
        ),
        AfterInterrupt::LeftRunning => {
            let what = if task_id.is_some() {
                format!("the execution{task} keeps running on Cruise Control")
            } else {
                "the execution was being started and may be running on Cruise Control".to_string()
            };
            let follow = task_id.map_or_else(
                || "`kafkaops rebalance status`".to_string(),
                |t| format!("`kafkaops rebalance status --task {t} --follow`"),
            );
            format!(
                "interrupted: {what}; follow it with {follow}, stop it with `kafkaops rebalance stop`"
            )
        }
    }
}

/// What a flow that waits for a previous execution's stop says (once).
pub const PREVIOUS_STOP_NOTE: &str = "A previous execution is still stopping (Cruise Control's executor is in STOPPING_EXECUTION, about 45 s after a stop); waiting for it to finish before anything is asked";

#[cfg(test)]
mod tests {
    #[test]
    fn an_unsatisfiable_goal_is_named_with_its_hint() {
        // The text recorded from a real Cruise Control (reference section 13), as the client sees it.
        let text = "Cruise Control at http://cc answered 500: Error processing POST request '/remove_broker' due to: 'com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: com.linkedin.kafka.cruisecontrol.exception.OptimizationFailureException: [RackAwareGoal] Cannot move Replica[isLeader=false,rack=b,broker=2,TopicPartition=orders-0,origPos=1,newPos=1] to a broker in a rack other than [a, c]. Add at least 1 broker to a rack other than [a, c].'.";
        let msg = super::goals_unsatisfiable_message(text);
        assert!(
            msg.starts_with(
                "Cruise Control could not satisfy the goals: RackAwareGoal cannot be met"
            ),
            "{msg}"
        );
        assert!(
            msg.contains(
                "Cruise Control's hint: Add at least 1 broker to a rack other than [a, c]"
            ),
            "{msg}"
        );
        assert!(msg.ends_with("nothing was changed"), "{msg}");
        let bare =
            super::goals_unsatisfiable_message("OptimizationFailureException: something odd");
        assert!(
            bare.contains("a goal cannot be met (something odd)"),
            "{bare}"
        );
    }

    use super::*;
    use crate::cruise_control::lenient::from_str;
    use crate::cruise_control::model;

    #[test]
    fn not_ready_message_says_for_how_long() {
        let m: model::MonitorState = from_str(
            r#"{"state":"RUNNING","numMonitoredWindows":0,"monitoringCoveragePct":12.5,
                "monitoredWindows":{"1700000000000":0.1}}"#,
        )
        .unwrap();
        let m = MonitorState::from(&m);
        let msg = not_ready_message(&m, "no windows", 1_700_000_192_000);
        assert!(
            msg.contains("oldest metric window started 3m 12s ago"),
            "{msg}"
        );
        assert!(
            msg.contains("12% of partitions") || msg.contains("13% of partitions"),
            "{msg}"
        );
        assert!(msg.contains("--wait-for-ready"), "{msg}");
    }
}
