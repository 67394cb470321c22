//! What Cruise Control's anomaly detector reports, as content-keyed records, and which of them are
//! new to someone watching.
//!
//! A real Cruise Control (reference §13) gives the *same* violation a new `anomalyId` every
//! detection interval, keeps at most 10 entries per type in no order, and forgets everything when
//! it restarts. So "have I seen this anomaly?" cannot be answered by id: an [`AnomalyKey`] is the
//! anomaly's content (its type and violated goals, failed brokers or disks, or description), and
//! [`WatchTracker`] remembers keys, not ids. It reports an anomaly once when its content first
//! appears and again only when the status of its latest detection changes, never because the
//! server re-detected it under a new id or came back from a restart. Memory is bounded
//! ([`WatchTracker::MAX_KEYS`]).
//!
//! Pure: observations in, events out (STYLE.md §1). The Cruise Control adapter turns its
//! anomaly lists into [`AnomalyRecord`]s; `anomalies watch` prints the events;
//! [`crate::engine::rebalance`] keeps its own fixed / not-fixed ledger with the same keys.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// The anomaly types Cruise Control reports (its `AnomalyType`), in the order of its lists.
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
pub enum AnomalyType {
    GoalViolation,
    BrokerFailure,
    DiskFailure,
    MetricAnomaly,
    TopicAnomaly,
    MaintenanceEvent,
}

impl AnomalyType {
    pub const ALL: [AnomalyType; 6] = [
        AnomalyType::GoalViolation,
        AnomalyType::BrokerFailure,
        AnomalyType::DiskFailure,
        AnomalyType::MetricAnomaly,
        AnomalyType::TopicAnomaly,
        AnomalyType::MaintenanceEvent,
    ];

    /// The kebab-case name used on the command line and in JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            AnomalyType::GoalViolation => "goal-violation",
            AnomalyType::BrokerFailure => "broker-failure",
            AnomalyType::DiskFailure => "disk-failure",
            AnomalyType::MetricAnomaly => "metric-anomaly",
            AnomalyType::TopicAnomaly => "topic-anomaly",
            AnomalyType::MaintenanceEvent => "maintenance-event",
        }
    }
}

/// What identifies an anomaly across re-detections and restarts: its content, never its id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct AnomalyKey {
    #[serde(rename = "type")]
    pub kind: AnomalyType,
    /// Goal violations: the fixable goals, then `|`, then the unfixable goals (each sorted);
    /// broker failures: the failed broker ids; disk failures: `broker:logdir` pairs; the other
    /// types: the description.
    pub content: String,
}

impl std::fmt::Display for AnomalyKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} [{}]", self.kind.name(), self.content)
    }
}

/// Serde for maps keyed by [`AnomalyKey`]: a JSON object needs string keys, so the map is a
/// list of `{"key": .., "value": ..}` entries.
pub(crate) mod key_map {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::AnomalyKey;

    #[derive(Serialize, Deserialize)]
    struct Entry<V> {
        key: AnomalyKey,
        value: V,
    }

    pub fn serialize<S: Serializer, V: Serialize + Clone>(
        map: &BTreeMap<AnomalyKey, V>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let v: Vec<Entry<V>> = map
            .iter()
            .map(|(k, v)| Entry {
                key: k.clone(),
                value: v.clone(),
            })
            .collect();
        v.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, V: Deserialize<'de>>(
        d: D,
    ) -> Result<BTreeMap<AnomalyKey, V>, D::Error> {
        let v: Vec<Entry<V>> = Vec::deserialize(d)?;
        Ok(v.into_iter().map(|e| (e.key, e.value)).collect())
    }
}

/// One anomaly entry as kafkaops reports it (a stable JSON shape).
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnomalyRecord {
    #[serde(rename = "type")]
    pub kind: AnomalyType,
    pub anomaly_id: String,
    pub status: String,
    /// Epoch ms (Cruise Control's clock).
    pub detected_at_ms: Option<i64>,
    pub status_updated_at_ms: Option<i64>,
    /// Goal violations only.
    pub fixable_goals: Vec<String>,
    pub unfixable_goals: Vec<String>,
    /// Broker failures: broker id to the time it failed (epoch ms).
    pub failed_brokers: BTreeMap<i32, i64>,
    /// Disk failures: `broker:logdir` to the time it failed (epoch ms).
    pub failed_disks: BTreeMap<String, i64>,
    pub description: Option<String>,
}

impl AnomalyRecord {
    /// The content key (see [`AnomalyKey`]).
    #[must_use]
    pub fn key(&self) -> AnomalyKey {
        let content = match self.kind {
            AnomalyType::GoalViolation => format!(
                "{}|{}",
                self.fixable_goals.join(","),
                self.unfixable_goals.join(",")
            ),
            AnomalyType::BrokerFailure => self
                .failed_brokers
                .keys()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(","),
            AnomalyType::DiskFailure => self
                .failed_disks
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(","),
            _ => self.description.clone().unwrap_or_default(),
        };
        AnomalyKey {
            kind: self.kind,
            content,
        }
    }

    /// A goal violation Cruise Control could fix: fixable goals and no unfixable one (Cruise
    /// Control's own rule: one unfixable goal makes the whole violation unfixable).
    #[must_use]
    pub fn is_fixable_goal_violation(&self) -> bool {
        self.kind == AnomalyType::GoalViolation
            && !self.fixable_goals.is_empty()
            && self.unfixable_goals.is_empty()
    }

    /// Whether this entry was detected after `other` (later detection, then later status update).
    fn newer_than(&self, other: &AnomalyRecord) -> bool {
        (
            self.detected_at_ms,
            self.status_updated_at_ms,
            &self.anomaly_id,
        ) > (
            other.detected_at_ms,
            other.status_updated_at_ms,
            &other.anomaly_id,
        )
    }
}

/// The latest detection of each distinct content among `records` (Cruise Control's lists hold
/// several detections of one violation), in key order.
#[must_use]
pub fn latest_by_content(records: &[AnomalyRecord]) -> BTreeMap<AnomalyKey, AnomalyRecord> {
    let mut out: BTreeMap<AnomalyKey, AnomalyRecord> = BTreeMap::new();
    for r in records {
        let key = r.key();
        match out.get(&key) {
            Some(prev) if !r.newer_than(prev) => {}
            _ => {
                out.insert(key, r.clone());
            }
        }
    }
    out
}

/// Why an anomaly is reported.
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WatchEventKind {
    /// Its content appeared for the first time.
    New,
    /// The status of its latest detection changed.
    StatusChanged,
}

/// One line of `anomalies watch`.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchEvent {
    pub event: WatchEventKind,
    pub previous_status: Option<String>,
    #[serde(flatten)]
    pub anomaly: AnomalyRecord,
    /// Goal violations: whether Cruise Control could fix it.
    pub fixable: Option<bool>,
}

/// What was shown of one content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Shown {
    status: String,
    /// The poll (counter) in which this content was last in Cruise Control's lists.
    last_seen_poll: u64,
}

/// Remembers which anomaly contents were shown, with which status (serializable, bounded).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchTracker {
    #[serde(with = "key_map")]
    shown: BTreeMap<AnomalyKey, Shown>,
    polls: u64,
}

impl WatchTracker {
    /// At most this many contents are remembered; the least recently seen are forgotten first.
    pub const MAX_KEYS: usize = 1024;

    #[must_use]
    pub fn new() -> WatchTracker {
        WatchTracker::default()
    }

    /// How many contents are remembered.
    #[must_use]
    pub fn len(&self) -> usize {
        self.shown.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.shown.is_empty()
    }

    /// One successful poll: the events to print, in key order. An empty answer (a restarted
    /// Cruise Control) forgets nothing, so old anomalies re-detected later are not new.
    pub fn observe(&mut self, records: &[AnomalyRecord]) -> Vec<WatchEvent> {
        self.polls += 1;
        let mut events = Vec::new();
        for (key, latest) in latest_by_content(records) {
            let fixable = (latest.kind == AnomalyType::GoalViolation)
                .then(|| latest.is_fixable_goal_violation());
            match self.shown.get_mut(&key) {
                None => {
                    self.shown.insert(
                        key,
                        Shown {
                            status: latest.status.clone(),
                            last_seen_poll: self.polls,
                        },
                    );
                    events.push(WatchEvent {
                        event: WatchEventKind::New,
                        previous_status: None,
                        anomaly: latest,
                        fixable,
                    });
                }
                Some(shown) => {
                    shown.last_seen_poll = self.polls;
                    if shown.status != latest.status {
                        let previous = std::mem::replace(&mut shown.status, latest.status.clone());
                        events.push(WatchEvent {
                            event: WatchEventKind::StatusChanged,
                            previous_status: Some(previous),
                            anomaly: latest,
                            fixable,
                        });
                    }
                }
            }
        }
        self.evict();
        events
    }

    fn evict(&mut self) {
        while self.shown.len() > Self::MAX_KEYS {
            let oldest = self
                .shown
                .iter()
                .min_by_key(|(k, s)| (s.last_seen_poll, (*k).clone()))
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => {
                    self.shown.remove(&k);
                }
                None => break,
            }
        }
    }
}

/// Which events `anomalies watch` prints.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchFilter {
    /// Empty: every type.
    pub types: BTreeSet<AnomalyType>,
    /// Upper-case statuses; empty: every status.
    pub statuses: BTreeSet<String>,
}

impl WatchFilter {
    #[must_use]
    pub fn accepts(&self, r: &AnomalyRecord) -> bool {
        (self.types.is_empty() || self.types.contains(&r.kind))
            && (self.statuses.is_empty() || self.statuses.contains(&r.status.to_uppercase()))
    }
}

/// The pause before the next poll after `failures` failed polls in a row (pure): the interval
/// while connected; while disconnected, doubling from one second up to `max_ms`, so a restarted
/// Cruise Control is found again quickly and a long outage is not hammered.
#[must_use]
pub fn poll_delay_ms(interval_ms: u64, failures: u32, max_ms: u64) -> u64 {
    if failures == 0 {
        return interval_ms;
    }
    let exp = 1_000u64.saturating_mul(1u64 << (failures - 1).min(16));
    exp.min(max_ms).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gv(id: &str, det: i64, status: &str, fixable: &[&str], unfixable: &[&str]) -> AnomalyRecord {
        AnomalyRecord {
            kind: AnomalyType::GoalViolation,
            anomaly_id: id.into(),
            status: status.into(),
            detected_at_ms: Some(det),
            status_updated_at_ms: Some(det),
            fixable_goals: fixable.iter().map(|s| (*s).to_string()).collect(),
            unfixable_goals: unfixable.iter().map(|s| (*s).to_string()).collect(),
            failed_brokers: BTreeMap::new(),
            failed_disks: BTreeMap::new(),
            description: None,
        }
    }

    #[test]
    fn a_redetection_under_a_new_id_is_not_new() {
        let mut t = WatchTracker::new();
        let a = gv("a", 1, "IGNORED", &["ReplicaDistributionGoal"], &[]);
        let e = t.observe(std::slice::from_ref(&a));
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].event, WatchEventKind::New);
        assert_eq!(e[0].fixable, Some(true));
        let b = gv("b", 2, "IGNORED", &["ReplicaDistributionGoal"], &[]);
        assert!(t.observe(&[b.clone(), a.clone()]).is_empty());
        // A restart: empty lists, then the same violation again.
        assert!(t.observe(&[]).is_empty());
        assert!(
            t.observe(&[gv("c", 9, "IGNORED", &["ReplicaDistributionGoal"], &[])])
                .is_empty()
        );
        // Other content is new; a status change of the latest detection is reported.
        let other = gv(
            "d",
            10,
            "IGNORED",
            &["RackAwareGoal"],
            &["ReplicaCapacityGoal"],
        );
        let e = t.observe(&[other]);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].fixable, Some(false));
        let e = t.observe(&[
            b,
            gv("e", 11, "FIX_STARTED", &["ReplicaDistributionGoal"], &[]),
        ]);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].event, WatchEventKind::StatusChanged);
        assert_eq!(e[0].previous_status.as_deref(), Some("IGNORED"));
        // The tracker survives a JSON round trip (a watcher may keep it across restarts).
        let back: WatchTracker = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn the_latest_detection_wins_whatever_the_order() {
        let old = gv("a", 1, "FIX_STARTED", &["G"], &[]);
        let new = gv("b", 5, "IGNORED", &["G"], &[]);
        for list in [
            vec![old.clone(), new.clone()],
            vec![new.clone(), old.clone()],
        ] {
            let m = latest_by_content(&list);
            assert_eq!(m.len(), 1);
            assert_eq!(m.values().next().unwrap().anomaly_id, "b");
        }
    }

    #[test]
    fn memory_is_bounded() {
        let mut t = WatchTracker::new();
        for i in 0..(WatchTracker::MAX_KEYS + 50) {
            t.observe(&[gv(&i.to_string(), 1, "IGNORED", &[&format!("G{i}")], &[])]);
        }
        assert_eq!(t.len(), WatchTracker::MAX_KEYS);
    }

    #[test]
    fn filters_and_backoff() {
        let f = WatchFilter {
            types: [AnomalyType::BrokerFailure].into(),
            statuses: BTreeSet::new(),
        };
        assert!(!f.accepts(&gv("a", 1, "IGNORED", &["G"], &[])));
        let f = WatchFilter {
            types: BTreeSet::new(),
            statuses: ["IGNORED".to_string()].into(),
        };
        assert!(f.accepts(&gv("a", 1, "ignored", &["G"], &[])));
        assert_eq!(poll_delay_ms(10_000, 0, 60_000), 10_000);
        assert_eq!(poll_delay_ms(10_000, 1, 60_000), 1_000);
        assert_eq!(poll_delay_ms(10_000, 3, 60_000), 4_000);
        assert_eq!(poll_delay_ms(10_000, 30, 60_000), 60_000);
    }
}
