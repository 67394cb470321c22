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
//! | `leftover-throttle`: a throttle nothing moving needs ([`super::throttles::need`]) | degraded |
//! | `cruise-control-unreachable`, `cruise-control-not-ready`, `fixable-goal-violation`, `cruise-control-anomaly` | degraded |
//!
//! `--ignore KIND` or `--ignore KIND:SUBJECT` ([`IgnoreRule`]) keeps a known condition in the
//! report, marked ignored, without counting it.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::anomalies::{AnomalyRecord, AnomalyType};
use super::model::NodeId;
use super::roll::safety::{clock_stepped_back, is_caught_up};
use super::throttles::{Movement, Need, Throttle, need};
use super::view::Reassignment;

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

/// What a broker-role node is doing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "state", content = "detail")]
pub enum BrokerStatus {
    /// Registered, unfenced, answering.
    Serving,
    /// Registered but fenced (stopped, crashed, starting).
    Fenced,
    /// In log recovery (remaining logs, when the broker-state endpoint says).
    Recovering(Option<i64>),
    /// Running but not serving (starting, shutting down: the state's name).
    NotServing(String),
    /// Registered unfenced but did not answer (the error).
    Unreachable(String),
}

/// One broker as observed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokerFacts {
    pub id: i32,
    pub status: BrokerStatus,
    /// `cordoned.log.dirs` value when cordoned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cordoned: Option<String>,
}

/// One partition as observed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionFacts {
    pub topic: String,
    pub partition: i32,
    pub replicas: Vec<i32>,
    pub isr: Vec<i32>,
    pub leader: Option<i32>,
    /// Replicas being added by a reassignment in flight (not yet expected in the ISR).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adding: Vec<i32>,
    /// Effective `min.insync.replicas`; `None` when it could not be read.
    pub min_isr: Option<u32>,
}

/// One voter as the quorum leader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoterFacts {
    pub id: i32,
    /// `LastCaughtUpTimestamp` in the leader's clock.
    pub last_caught_up_ms: Option<i64>,
}

/// The metadata quorum (DescribeQuorum).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuorumFacts {
    pub leader: Option<i32>,
    pub voters: Vec<VoterFacts>,
    pub fetch_timeout_ms: i64,
}

/// What Cruise Control says, when it is configured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "state")]
pub enum CruiseControlFacts {
    NotConfigured,
    Unreachable {
        error: String,
    },
    Seen {
        /// Why its load monitor cannot answer goal-based requests yet; `None` when ready.
        monitor_not_ready: Option<String>,
        /// What its executor runs; `None` when idle.
        executing: Option<String>,
        anomalies: Vec<AnomalyRecord>,
    },
}

/// Everything the verdict is decided on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealthFacts {
    pub brokers: Vec<BrokerFacts>,
    pub partitions: Vec<PartitionFacts>,
    pub quorum: QuorumFacts,
    /// Replica ids that no registered broker or quorum member explains.
    pub unknown_replica_ids: Vec<i32>,
    pub reassignments: Vec<Reassignment>,
    pub throttles: Vec<Throttle>,
    pub cruise_control: CruiseControlFacts,
    /// The holds that count now (`kafkaops hold`, issue 29).
    #[serde(default)]
    pub holds: Vec<super::holds::Hold>,
}

impl HealthFacts {
    /// What moves, for the throttle rules.
    #[must_use]
    pub fn movement(&self) -> Movement {
        use super::throttles::CcMovement;
        Movement {
            reassignments: self.reassignments.clone(),
            cruise_control: match &self.cruise_control {
                CruiseControlFacts::NotConfigured => CcMovement::NotConfigured,
                CruiseControlFacts::Unreachable { error } => CcMovement::Unknown(error.clone()),
                CruiseControlFacts::Seen {
                    executing: Some(what),
                    ..
                } => CcMovement::Executing(what.clone()),
                CruiseControlFacts::Seen {
                    executing: None, ..
                } => CcMovement::Idle,
            },
        }
    }
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

fn reason(kind: &str, subject: Option<String>, message: String) -> Reason {
    Reason {
        kind: kind.to_string(),
        severity: severity_of(kind),
        subject,
        partitions: Vec::new(),
        message,
        ignored: false,
    }
}

fn node(id: i32) -> String {
    format!("node {id}")
}

fn list(parts: &[String]) -> String {
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

/// The condition of one partition that makes a reason, if any (the worst: offline, then
/// under min ISR, then under-replicated; replicas still being added do not count as missing).
fn partition_kind(p: &PartitionFacts) -> Option<&'static str> {
    if p.leader.is_none() {
        Some("offline-partitions")
    } else if p
        .min_isr
        .is_some_and(|m| u32::try_from(p.isr.len()).unwrap_or(u32::MAX) < m)
    {
        Some("under-min-isr")
    } else if p
        .replicas
        .iter()
        .filter(|r| !p.adding.contains(r))
        .any(|r| !p.isr.contains(r))
    {
        Some("under-replicated")
    } else {
        None
    }
}

/// One partition for a reason: its replicas, ISR and min ISR.
fn partition_detail(p: &PartitionFacts) -> String {
    format!(
        "{}-{} (replicas {}, isr {}{})",
        p.topic,
        p.partition,
        ids(&p.replicas),
        ids(&p.isr),
        p.min_isr
            .map(|m| format!(", min ISR {m}"))
            .unwrap_or_default()
    )
}

/// The message of a partition reason of `kind` for `parts` of `topic`.
fn partition_message(kind: &str, topic: &str, parts: &[&PartitionFacts]) -> String {
    let details: Vec<String> = parts.iter().map(|p| partition_detail(p)).collect();
    match kind {
        "offline-partitions" => format!(
            "{} partition(s) of topic {topic} have no leader: {}",
            parts.len(),
            list(&details)
        ),
        "under-min-isr" => format!(
            "{} partition(s) of topic {topic} have fewer in-sync replicas than \
             min.insync.replicas (acks=all writes fail): {}",
            parts.len(),
            list(&details)
        ),
        "under-replicated" => format!(
            "{} partition(s) of topic {topic} are under-replicated: {}",
            parts.len(),
            list(&details)
        ),
        _ => format!(
            "min.insync.replicas of topic {topic} could not be read: under-min-ISR \
             cannot be judged for {} partition(s)",
            parts.len()
        ),
    }
}

/// Partition reasons, one per (kind, topic).
fn partition_reasons(f: &HealthFacts, out: &mut Vec<Reason>) {
    // kind -> topic -> partitions
    let mut by: BTreeMap<&'static str, BTreeMap<&str, Vec<&PartitionFacts>>> = BTreeMap::new();
    for p in &f.partitions {
        let unknown_min_isr = p.min_isr.is_none().then_some("min-isr-unknown");
        for k in partition_kind(p).into_iter().chain(unknown_min_isr) {
            by.entry(k)
                .or_default()
                .entry(&p.topic)
                .or_default()
                .push(p);
        }
    }
    for (kind, topics) in by {
        for (topic, parts) in topics {
            let mut r = reason(
                kind,
                Some(topic.to_string()),
                partition_message(kind, topic, &parts),
            );
            r.partitions = parts
                .iter()
                .map(|p| format!("{}-{}", p.topic, p.partition))
                .collect();
            out.push(r);
        }
    }
}

fn ids(v: &[i32]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

fn quorum_reasons(q: &QuorumFacts, out: &mut Vec<Reason>) {
    let Some(leader) = q.leader else {
        out.push(reason(
            "quorum-no-leader",
            None,
            "the metadata quorum has no leader: no metadata change (leader elections, topic \
             changes, broker registrations) can be committed"
                .into(),
        ));
        return;
    };
    let ts = |id: i32| {
        q.voters
            .iter()
            .find(|v| v.id == id)
            .and_then(|v| v.last_caught_up_ms)
            .filter(|t| *t >= 0)
    };
    let Some(leader_ts) = ts(leader) else {
        // The leader reports itself with no timestamp on some versions: only the leader is
        // known to be caught up.
        judge_voters(q, leader, |id| id == leader, out);
        return;
    };
    let all = q
        .voters
        .iter()
        .filter_map(|v| Some((NodeId(v.id), v.last_caught_up_ms?)));
    if let Some((id, t)) = clock_stepped_back(leader_ts, all) {
        out.push(reason(
            "quorum-clock",
            None,
            format!(
                "voter {id} reports a last caught-up time {t} ahead of the quorum leader's \
                 ({leader_ts}): the leader's clock stepped back, no voter can be judged caught up"
            ),
        ));
        return;
    }
    judge_voters(
        q,
        leader,
        |id| id == leader || ts(id).is_some_and(|t| is_caught_up(leader_ts, t, q.fetch_timeout_ms)),
        out,
    );
}

fn judge_voters(
    q: &QuorumFacts,
    leader: i32,
    caught_up: impl Fn(i32) -> bool,
    out: &mut Vec<Reason>,
) {
    let (up, lagging): (Vec<i32>, Vec<i32>) =
        q.voters.iter().map(|v| v.id).partition(|&id| caught_up(id));
    let leader_is_voter = q.voters.iter().any(|v| v.id == leader);
    let up_count = up.len() + usize::from(!leader_is_voter && caught_up(leader));
    if up_count * 2 <= q.voters.len() {
        out.push(reason(
            "quorum-no-majority",
            None,
            format!(
                "only {up_count} of {} quorum voters are caught up with leader {leader} (caught up: {}; \
                 lagging: {}): the metadata quorum cannot commit",
                q.voters.len(),
                ids(&up),
                ids(&lagging)
            ),
        ));
        return;
    }
    for id in lagging {
        out.push(reason(
            "quorum-lagging-voters",
            Some(node(id)),
            format!(
                "quorum voter {id} is not caught up with leader {leader} (within {} ms)",
                q.fetch_timeout_ms
            ),
        ));
    }
}

fn broker_reasons(f: &HealthFacts, out: &mut Vec<Reason>) {
    let mut replicas_on: BTreeMap<i32, usize> = BTreeMap::new();
    for p in &f.partitions {
        for r in p.replicas.iter().chain(&p.adding).collect::<BTreeSet<_>>() {
            *replicas_on.entry(*r).or_default() += 1;
        }
    }
    let holds = |id: i32| match replicas_on.get(&id) {
        Some(n) => format!(" and holds replicas of {n} partition(s)"),
        None => String::new(),
    };
    for b in &f.brokers {
        let r = match &b.status {
            BrokerStatus::Serving => None,
            BrokerStatus::Fenced => Some(reason(
                "broker-fenced",
                Some(node(b.id)),
                format!("broker {} is fenced (not serving){}", b.id, holds(b.id)),
            )),
            BrokerStatus::Recovering(logs) => Some(reason(
                "broker-recovering",
                Some(node(b.id)),
                format!(
                    "broker {} is in log recovery{}{}",
                    b.id,
                    logs.map(|l| format!(" ({l} log(s) left)"))
                        .unwrap_or_default(),
                    holds(b.id)
                ),
            )),
            BrokerStatus::NotServing(state) => Some(reason(
                "broker-not-serving",
                Some(node(b.id)),
                format!("broker {} is not serving ({state}){}", b.id, holds(b.id)),
            )),
            BrokerStatus::Unreachable(e) => Some(reason(
                "broker-unreachable",
                Some(node(b.id)),
                format!("broker {} is registered but did not answer: {e}", b.id),
            )),
        };
        out.extend(r);
        if let Some(dirs) = &b.cordoned {
            out.push(reason(
                "cordoned",
                Some(node(b.id)),
                format!(
                    "broker {} is cordoned (cordoned.log.dirs={dirs}): it takes no new partitions",
                    b.id
                ),
            ));
        }
    }
    for &id in &f.unknown_replica_ids {
        out.push(reason(
            "unknown-broker-referenced",
            Some(node(id)),
            format!(
                "replicas of {} partition(s) are assigned to broker {id}, which is not registered",
                replicas_on.get(&id).copied().unwrap_or(0)
            ),
        ));
    }
}

fn movement_reasons(f: &HealthFacts, out: &mut Vec<Reason>) {
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
    for t in super::throttles::dedup(f.throttles.clone()) {
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

fn cruise_control_reasons(cc: &CruiseControlFacts, out: &mut Vec<Reason>) {
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

/// Every reason the facts give, before ignore rules.
#[must_use]
pub fn reasons(f: &HealthFacts) -> Vec<Reason> {
    let mut out = Vec::new();
    partition_reasons(f, &mut out);
    quorum_reasons(&f.quorum, &mut out);
    broker_reasons(f, &mut out);
    movement_reasons(f, &mut out);
    hold_reasons(&f.holds, &mut out);
    cruise_control_reasons(&f.cruise_control, &mut out);
    out
}

/// One reason per held node: an operator's word that automation leaves it alone, which an
/// on-call should see (degraded) until it expires or is removed; `--ignore held` once known.
fn hold_reasons(holds: &[super::holds::Hold], out: &mut Vec<Reason>) {
    let mut holds: Vec<&super::holds::Hold> = holds.iter().collect();
    holds.sort_by_key(|h| h.node);
    for h in holds {
        let until = super::holds::when(h.expires_ms);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn healthy() -> HealthFacts {
        HealthFacts {
            brokers: (1..=3)
                .map(|id| BrokerFacts {
                    id,
                    status: BrokerStatus::Serving,
                    cordoned: None,
                })
                .collect(),
            partitions: (0..2)
                .map(|p| PartitionFacts {
                    topic: "t".into(),
                    partition: p,
                    replicas: vec![1, 2, 3],
                    isr: vec![1, 2, 3],
                    leader: Some(1),
                    adding: vec![],
                    min_isr: Some(2),
                })
                .collect(),
            quorum: QuorumFacts {
                leader: Some(1),
                voters: (1..=3)
                    .map(|id| VoterFacts {
                        id,
                        last_caught_up_ms: Some(1000),
                    })
                    .collect(),
                fetch_timeout_ms: 2000,
            },
            unknown_replica_ids: vec![],
            reassignments: vec![],
            throttles: vec![],
            cruise_control: CruiseControlFacts::NotConfigured,
            holds: vec![],
        }
    }

    #[test]
    fn a_held_node_is_a_degraded_condition_with_its_reason_and_expiry() {
        let mut f = healthy();
        f.holds = vec![super::super::holds::Hold {
            node: NodeId(2),
            reason: "disk swap".into(),
            created_ms: 0,
            expires_ms: 1_800_000_000_000,
        }];
        let r = evaluate(&f, &[]);
        assert_eq!(r.verdict, Verdict::Degraded);
        assert_eq!(r.reasons.len(), 1, "{:?}", r.reasons);
        let h = &r.reasons[0];
        assert_eq!(
            (h.kind.as_str(), h.subject.as_deref()),
            ("held", Some("node 2"))
        );
        assert!(
            h.message
                .contains("node 2 is held until 2027-01-15T08:00:00Z (disk swap)"),
            "{}",
            h.message
        );
        for rule in ["held", "held:2", "held:node 2"] {
            let r = evaluate(&f, &[IgnoreRule::parse(rule).unwrap()]);
            assert_eq!(r.verdict, Verdict::Healthy, "{rule}");
        }
        let r = evaluate(&f, &[IgnoreRule::parse("held:3").unwrap()]);
        assert_eq!(r.verdict, Verdict::Degraded);
    }

    #[test]
    fn a_healthy_cluster_has_no_reason() {
        let r = evaluate(&healthy(), &[]);
        assert_eq!(r.verdict, Verdict::Healthy);
        assert!(r.reasons.is_empty(), "{:?}", r.reasons);
    }

    #[test]
    fn a_stopped_broker_names_under_min_isr_partitions() {
        let mut f = healthy();
        f.brokers[2].status = BrokerStatus::Fenced;
        f.partitions[0].isr = vec![1, 2];
        f.partitions[1].isr = vec![1];
        let r = evaluate(&f, &[]);
        assert_eq!(r.verdict, Verdict::Unavailable);
        let min = r
            .reasons
            .iter()
            .find(|r| r.kind == "under-min-isr")
            .unwrap();
        assert_eq!(min.partitions, vec!["t-1".to_string()]);
        assert!(r.reasons.iter().any(|r| r.kind == "under-replicated"));
        assert!(r.reasons.iter().any(|r| r.kind == "broker-fenced"));
        // Ignored, the verdict is what is left.
        let ignore = [IgnoreRule::parse("under-min-isr:t").unwrap()];
        assert_eq!(evaluate(&f, &ignore).verdict, Verdict::Degraded);
        let ignore = [IgnoreRule::parse("broker-fenced:3").unwrap()];
        let r = evaluate(&f, &ignore);
        assert!(
            r.reasons
                .iter()
                .any(|r| r.kind == "broker-fenced" && r.ignored)
        );
        assert!(IgnoreRule::parse("no-such").is_err());
    }

    #[test]
    fn quorum_majority_and_laggards() {
        let mut f = healthy();
        f.quorum.voters[2].last_caught_up_ms = Some(-5000);
        let r = evaluate(&f, &[]);
        assert_eq!(r.verdict, Verdict::Degraded);
        assert_eq!(r.reasons[0].kind, "quorum-lagging-voters");
        f.quorum.voters[1].last_caught_up_ms = None;
        assert_eq!(evaluate(&f, &[]).reasons[0].kind, "quorum-no-majority");
        f.quorum.leader = None;
        assert_eq!(evaluate(&f, &[]).reasons[0].kind, "quorum-no-leader");
    }

    #[test]
    fn adding_replicas_are_not_under_replicated_and_throttles_follow_movement() {
        use super::super::throttles::{LEADER_RATE, ThrottleTarget};
        let mut f = healthy();
        f.partitions[0].replicas = vec![1, 2, 3, 4];
        f.partitions[0].adding = vec![4];
        f.reassignments = vec![Reassignment {
            topic: "t".into(),
            partition: 0,
            replicas: vec![1, 2, 3, 4],
            adding: vec![4],
            removing: vec![1],
        }];
        f.throttles = vec![Throttle {
            target: ThrottleTarget::Broker(1),
            key: LEADER_RATE.into(),
            value: "100".into(),
        }];
        let r = evaluate(&f, &[]);
        assert_eq!(r.verdict, Verdict::Healthy, "{:?}", r.reasons);
        f.reassignments.clear();
        f.partitions[0].adding.clear();
        f.partitions[0].replicas = vec![1, 2, 3];
        let r = evaluate(&f, &[]);
        assert_eq!(r.verdict, Verdict::Degraded);
        assert_eq!(r.reasons[0].kind, "leftover-throttle");
    }
}
