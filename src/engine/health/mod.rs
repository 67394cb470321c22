//! The health verdict: one of healthy, degraded or unavailable, with every reason, from what
//! kafkaops observes of Kafka and Cruise Control.
//!
//! Why: the first thing an SRE runs in an incident is a health check, and a script or a
//! Kubernetes probe needs one answer it can branch on. The rules are pure so that a property
//! test can judge them against an independent model; the shell (`app::health`) reads the facts.
//!
//! The rules (each reason has a stable kind, a severity and usually a subject, a topic or a
//! node; [`Verdict`] is the worst severity among the reasons not ignored):
//!
//! | kind | severity |
//! | --- | --- |
//! | `offline-partitions`: partitions without a leader | unavailable |
//! | `under-min-isr`: ISR smaller than the effective `min.insync.replicas` (`acks=all` writes fail) | unavailable |
//! | `quorum-no-leader`, `quorum-no-majority` (fewer than a majority of voters caught up) | unavailable |
//! | `under-replicated`: a replica (not one being added) out of the ISR | degraded |
//! | `min-isr-unknown`: a partition whose `min.insync.replicas` could not be read | info |
//! | `quorum-lagging-voters`, `quorum-clock` (the leader's clock stepped back: no timestamp can be judged) | degraded |
//! | `broker-fenced`, `broker-recovering`, `broker-not-serving`, `broker-unreachable` | degraded |
//! | `unknown-broker-referenced`: replicas on ids no registration or quorum member explains | degraded |
//! | `held`: a node held by `kafkaops hold` (its reason and expiry): no roll restarts it, nothing moves replicas onto it | degraded |
//! | `reassignments-in-flight`, `throttle-in-use`, `cordoned`, `cruise-control-executing` | info |
//! | `reassignment-stalled`: a reassignment whose adding replicas made no progress (no log growth on the destination, none joined the ISR) for the stall threshold ([`progress`]) | degraded |
//! | `leftover-throttle`: a throttle nothing moving needs ([`super::throttles::need`]) | degraded |
//! | `cruise-control-unreachable`, `cruise-control-not-ready`, `fixable-goal-violation`, `cruise-control-anomaly` | degraded |
//!
//! `--ignore KIND` or `--ignore KIND:SUBJECT` ([`IgnoreRule`]) keeps a known condition in the
//! report, marked ignored, without counting it.
//!
//! The module is split by responsibility: the facts the verdict is decided on ([`facts`]),
//! the partition rules ([`partitions`]), the quorum and broker rules ([`members`]), what moves
//! and Cruise Control ([`movement`]), and the progress of reassignments over time
//! ([`progress`]); this file holds the verdict, the reasons, the ignore rules and [`evaluate`].

use serde::{Deserialize, Serialize};

pub mod facts;
mod members;
mod movement;
mod partitions;
pub mod progress;
#[cfg(test)]
mod tests;

pub use facts::{
    BrokerFacts, BrokerStatus, CruiseControlFacts, HealthFacts, PartitionFacts, QuorumFacts,
    VoterFacts,
};
pub use progress::{ProgressTracker, ReassignmentProgress, Stalled};

/// The verdict, best to worst.
#[derive(
    schemars::JsonSchema,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    Default,
)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    #[default]
    Healthy,
    Degraded,
    Unavailable,
}

impl Verdict {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Healthy => "healthy",
            Verdict::Degraded => "degraded",
            Verdict::Unavailable => "unavailable",
        }
    }
}

/// How much a reason weighs.
#[derive(
    schemars::JsonSchema,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Reported, does not change the verdict.
    Info,
    Degraded,
    Unavailable,
}

impl Severity {
    /// The verdict a reason of this severity makes at least.
    #[must_use]
    pub fn verdict(self) -> Verdict {
        match self {
            Severity::Info => Verdict::Healthy,
            Severity::Degraded => Verdict::Degraded,
            Severity::Unavailable => Verdict::Unavailable,
        }
    }
}

/// The kinds of reasons, with their stable names (used by `--ignore` and `-o json`).
pub const KINDS: &[(&str, Severity)] = &[
    ("offline-partitions", Severity::Unavailable),
    ("under-min-isr", Severity::Unavailable),
    ("under-replicated", Severity::Degraded),
    ("min-isr-unknown", Severity::Info),
    ("quorum-no-leader", Severity::Unavailable),
    ("quorum-no-majority", Severity::Unavailable),
    ("quorum-lagging-voters", Severity::Degraded),
    ("quorum-clock", Severity::Degraded),
    ("broker-fenced", Severity::Degraded),
    ("broker-recovering", Severity::Degraded),
    ("broker-not-serving", Severity::Degraded),
    ("broker-unreachable", Severity::Degraded),
    ("unknown-broker-referenced", Severity::Degraded),
    ("held", Severity::Degraded),
    ("reassignments-in-flight", Severity::Info),
    ("reassignment-stalled", Severity::Degraded),
    ("leftover-throttle", Severity::Degraded),
    ("throttle-in-use", Severity::Info),
    ("cordoned", Severity::Info),
    ("cruise-control-unreachable", Severity::Degraded),
    ("cruise-control-not-ready", Severity::Degraded),
    ("cruise-control-executing", Severity::Info),
    ("fixable-goal-violation", Severity::Degraded),
    ("cruise-control-anomaly", Severity::Degraded),
];

fn severity_of(kind: &str) -> Severity {
    KINDS
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(Severity::Degraded, |(_, s)| *s)
}

/// One reason of the verdict.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reason {
    /// One of [`KINDS`].
    pub kind: String,
    pub severity: Severity,
    /// The topic, node or config target it is about, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// Affected partitions as `topic-partition`, for the partition kinds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partitions: Vec<String>,
    pub message: String,
    /// Matched an `--ignore` rule: shown, not counted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ignored: bool,
}

/// The verdict and its reasons.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealthReport {
    pub verdict: Verdict,
    pub reasons: Vec<Reason>,
}

/// A condition to leave out of the verdict: a kind, optionally for one subject.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IgnoreRule {
    pub kind: String,
    pub subject: Option<String>,
}

/// A bad `--ignore` value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown health condition {kind:?} in --ignore (known: {known})")]
pub struct UnknownKind {
    pub kind: String,
    pub known: String,
}

impl IgnoreRule {
    /// Parses `KIND` or `KIND:SUBJECT` (a topic, `broker 3` or `3` for a node).
    ///
    /// # Errors
    /// [`UnknownKind`] when `KIND` is not one of [`KINDS`].
    pub fn parse(s: &str) -> Result<IgnoreRule, UnknownKind> {
        let (kind, subject) = match s.split_once(':') {
            Some((k, sub)) => (k.trim(), Some(sub.trim().to_string())),
            None => (s.trim(), None),
        };
        if !KINDS.iter().any(|(k, _)| *k == kind) {
            return Err(UnknownKind {
                kind: kind.to_string(),
                known: KINDS.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", "),
            });
        }
        Ok(IgnoreRule {
            kind: kind.to_string(),
            subject: subject.filter(|s| !s.is_empty()),
        })
    }

    /// Whether this rule covers `r`: same kind, and no subject or the same subject (a node may
    /// be named by its bare id).
    #[must_use]
    pub fn covers(&self, r: &Reason) -> bool {
        if self.kind != r.kind {
            return false;
        }
        match (&self.subject, &r.subject) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(want), Some(have)) => {
                want == have
                    || have
                        .rsplit(' ')
                        .next()
                        .is_some_and(|id| id == want && have.starts_with("node "))
            }
        }
    }
}

pub(super) fn reason(kind: &str, subject: Option<String>, message: String) -> Reason {
    Reason {
        kind: kind.to_string(),
        severity: severity_of(kind),
        subject,
        partitions: Vec::new(),
        message,
        ignored: false,
    }
}

pub(super) fn node(id: i32) -> String {
    format!("node {id}")
}

pub(super) fn list(parts: &[String]) -> String {
    const SHOWN: usize = 8;
    let mut s = parts
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if parts.len() > SHOWN {
        s.push_str(&format!(" and {} more", parts.len() - SHOWN));
    }
    s
}

pub(super) fn ids(v: &[i32]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

/// Every reason the facts give, before ignore rules.
#[must_use]
pub fn reasons(f: &HealthFacts) -> Vec<Reason> {
    let mut out = Vec::new();
    partitions::partition_reasons(f, &mut out);
    members::quorum_reasons(&f.quorum, &mut out);
    members::broker_reasons(f, &mut out);
    movement::movement_reasons(f, &mut out);
    progress::stalled_reasons(&f.stalled, &mut out);
    movement::hold_reasons(&f.holds, &mut out);
    movement::cruise_control_reasons(&f.cruise_control, &mut out);
    out
}

/// The verdict of `f`, leaving out what `ignore` covers. Reasons are sorted worst first.
#[must_use]
pub fn evaluate(f: &HealthFacts, ignore: &[IgnoreRule]) -> HealthReport {
    let mut rs = reasons(f);
    for r in &mut rs {
        r.ignored = ignore.iter().any(|i| i.covers(r));
    }
    rs.sort_by_key(|r| std::cmp::Reverse(r.severity));
    let verdict = rs
        .iter()
        .filter(|r| !r.ignored)
        .map(|r| r.severity.verdict())
        .max()
        .unwrap_or_default();
    HealthReport {
        verdict,
        reasons: rs,
    }
}
