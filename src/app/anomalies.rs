//! Anomalies as the use cases that act on them describe them: `anomalies list|watch` and
//! `rebalance imbalance` (which says why it does not act on a violation) name an anomaly's
//! details the same way.

use std::time::{Duration, UNIX_EPOCH};

use crate::engine::anomalies::{AnomalyRecord, AnomalyType};

/// A time in milliseconds since the epoch as RFC 3339 (seconds), `-` when unknown.
#[must_use]
pub fn time_of(ms: Option<i64>) -> String {
    match ms.and_then(|m| u64::try_from(m).ok()) {
        Some(m) => {
            humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_millis(m)).to_string()
        }
        None => "-".into(),
    }
}

/// The details column / line of an anomaly.
#[must_use]
pub fn details(r: &AnomalyRecord) -> String {
    match r.kind {
        AnomalyType::GoalViolation => {
            let mut s = format!("fixable: {}", list_or_none(&r.fixable_goals));
            if !r.unfixable_goals.is_empty() {
                s.push_str(&format!(
                    "; unfixable: {} (Cruise Control cannot fix it)",
                    r.unfixable_goals.join(",")
                ));
            }
            s
        }
        AnomalyType::BrokerFailure => r
            .failed_brokers
            .iter()
            .map(|(b, t)| format!("broker {b} since {}", time_of(Some(*t))))
            .collect::<Vec<_>>()
            .join(", "),
        AnomalyType::DiskFailure => r
            .failed_disks
            .iter()
            .map(|(d, t)| format!("{d} since {}", time_of(Some(*t))))
            .collect::<Vec<_>>()
            .join(", "),
        _ => r.description.clone().unwrap_or_default(),
    }
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "(none)".into()
    } else {
        v.join(",")
    }
}
