//! The movement rules of the health verdict: reassignments in flight, throttles (in use or
//! left over), holds, and what Cruise Control says (readiness, executor, open anomalies).

use std::collections::BTreeMap;

use super::{CruiseControlFacts, HealthFacts, Reason, list, node, reason};
use crate::engine::anomalies::{AnomalyRecord, AnomalyType};
use crate::engine::throttles::{Need, need};

pub(super) fn movement_reasons(f: &HealthFacts, out: &mut Vec<Reason>) {
    if !f.reassignments.is_empty() {
        let mut topics: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for r in &f.reassignments {
            topics
                .entry(&r.topic)
                .or_default()
                .push(format!("{}-{}", r.topic, r.partition));
        }
        for (topic, parts) in topics {
            let mut r = reason(
                "reassignments-in-flight",
                Some(topic.to_string()),
                format!(
                    "{} partition reassignment(s) of topic {topic} in flight: {}",
                    parts.len(),
                    list(&parts)
                ),
            );
            r.partitions = parts;
            out.push(r);
        }
    }
    let m = f.movement();
    for t in crate::engine::throttles::dedup(f.throttles.clone()) {
        let subject = Some(t.target.to_string());
        match need(&t, &m) {
            Need::Unused => out.push(reason(
                "leftover-throttle",
                subject,
                format!(
                    "{} {}={} is set but nothing moving needs it (`kafkaops throttles clear`)",
                    t.target, t.key, t.value
                ),
            )),
            Need::InUse(why) | Need::Unknown(why) => out.push(reason(
                "throttle-in-use",
                subject,
                format!("{} {}={} ({why})", t.target, t.key, t.value),
            )),
        }
    }
}

/// The statuses of an anomaly Cruise Control has not dealt with.
const OPEN: &[&str] = &[
    "DETECTED",
    "CHECK_WITH_DELAY",
    "FIX_FAILED_TO_START",
    "LOAD_MONITOR_NOT_READY",
    "COMPLETENESS_NOT_READY",
];

pub(super) fn cruise_control_reasons(cc: &CruiseControlFacts, out: &mut Vec<Reason>) {
    match cc {
        CruiseControlFacts::NotConfigured => {}
        CruiseControlFacts::Unreachable { error } => out.push(reason(
            "cruise-control-unreachable",
            None,
            format!("Cruise Control cannot be asked: {error}"),
        )),
        CruiseControlFacts::Seen {
            monitor_not_ready,
            executing,
            anomalies,
        } => {
            if let Some(why) = monitor_not_ready {
                out.push(reason(
                    "cruise-control-not-ready",
                    None,
                    format!("Cruise Control cannot compute proposals yet: {why}"),
                ));
            }
            if let Some(what) = executing {
                out.push(reason(
                    "cruise-control-executing",
                    None,
                    format!("Cruise Control is executing: {what}"),
                ));
            }
            // The latest detection of each type: older entries of the list are history.
            let mut latest: BTreeMap<AnomalyType, &AnomalyRecord> = BTreeMap::new();
            for a in anomalies {
                let newer = latest.get(&a.kind).is_none_or(|l| {
                    (a.detected_at_ms, &a.anomaly_id) > (l.detected_at_ms, &l.anomaly_id)
                });
                if newer {
                    latest.insert(a.kind, a);
                }
            }
            for (kind, a) in latest {
                if !OPEN.contains(&a.status.as_str()) {
                    continue;
                }
                if kind == AnomalyType::GoalViolation {
                    if a.is_fixable_goal_violation() {
                        out.push(reason(
                            "fixable-goal-violation",
                            None,
                            format!(
                                "Cruise Control found fixable goal violations ({}; anomaly {}, {})",
                                a.fixable_goals.join(", "),
                                a.anomaly_id,
                                a.status
                            ),
                        ));
                    }
                } else if matches!(kind, AnomalyType::BrokerFailure | AnomalyType::DiskFailure) {
                    out.push(reason(
                        "cruise-control-anomaly",
                        Some(kind.name().to_string()),
                        format!(
                            "Cruise Control reports a {} (anomaly {}, {}){}",
                            kind.name(),
                            a.anomaly_id,
                            a.status,
                            a.description
                                .as_deref()
                                .map(|d| format!(": {d}"))
                                .unwrap_or_default()
                        ),
                    ));
                }
            }
        }
    }
}

/// One reason per held node: an operator's word that automation leaves it alone, which an
/// on-call should see (degraded) until it expires or is removed; `--ignore held` once known.
pub(super) fn hold_reasons(holds: &[crate::engine::holds::Hold], out: &mut Vec<Reason>) {
    let mut holds: Vec<&crate::engine::holds::Hold> = holds.iter().collect();
    holds.sort_by_key(|h| h.node);
    for h in holds {
        let until = crate::engine::holds::when(h.expires_ms);
        out.push(reason(
            "held",
            Some(node(h.node.0)),
            format!(
                "node {} is held until {until} ({}): no roll restarts it and no rebalance or replication-factor change kafkaops asks for puts replicas on it (`kafkaops hold list`)",
                h.node, h.reason
            ),
        ));
    }
}
