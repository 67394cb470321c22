//! Whether a partition reassignment is still progressing, judged over time (issue 29).
//!
//! Why: a reassignment in flight is normal; one whose new replicas stopped catching up (a
//! throttle of a few bytes a second, a full disk, a destination that fetches nothing) holds its
//! throttles, blocks Cruise Control and every later movement, and looks exactly like a healthy
//! one in any single observation. An experienced operator compares two looks: the progress of a
//! partition's reassignment is an adding replica catching up, that is its log on the
//! destination growing (DescribeLogDirs' size of the replica) or it joining the ISR.
//!
//! The rule: [`ProgressTracker::observe`] takes one sample of every reassignment in flight at
//! a time given by the caller (no clock here). A partition's clock of "no progress since"
//! starts when it is first seen (or its adding replicas change: a new reassignment) and
//! restarts whenever one of its adding replicas joined the ISR or its log size on the
//! destination grew beyond the largest size seen. [`ProgressTracker::stalled`] names the
//! partitions whose clock is at least the threshold old. A size not read (the destination did
//! not answer) neither proves nor disproves progress. Partitions no longer in flight are
//! forgotten. The tracker is plain serializable data: `health --watch` and `operate` keep it in
//! memory between loops, the one-shot `health` in a small file of the state directory.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{Reason, list, reason};

/// One reassignment in flight as sampled now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReassignmentProgress {
    pub topic: String,
    pub partition: i32,
    /// The replicas being added.
    pub adding: Vec<i32>,
    /// The adding replicas that are in the ISR now.
    pub in_isr: Vec<i32>,
    /// Each adding replica's log size on its destination in bytes, when it was read.
    pub sizes: BTreeMap<i32, i64>,
}

/// What the tracker remembers of one partition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Track {
    topic: String,
    partition: i32,
    adding: BTreeSet<i32>,
    in_isr: BTreeSet<i32>,
    /// The largest size seen of each adding replica.
    sizes: BTreeMap<i32, i64>,
    /// Since when (caller's epoch ms) nothing progressed.
    since_ms: i64,
}

/// The samples of reassignments over time, for the `reassignment-stalled` rule.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgressTracker {
    /// `topic-partition` -> what was seen.
    partitions: BTreeMap<String, Track>,
}

/// A reassignment that made no progress for at least the threshold.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stalled {
    pub topic: String,
    pub partition: i32,
    /// The replicas being added.
    pub adding: Vec<i32>,
    /// How long it made no progress, in ms.
    pub for_ms: i64,
}

fn key(topic: &str, partition: i32) -> String {
    format!("{topic}-{partition}")
}

impl ProgressTracker {
    /// Takes the sample of every reassignment in flight at `now_ms`.
    pub fn observe(&mut self, sample: &[ReassignmentProgress], now_ms: i64) {
        let mut next = BTreeMap::new();
        for s in sample {
            let adding: BTreeSet<i32> = s.adding.iter().copied().collect();
            let in_isr: BTreeSet<i32> = s
                .in_isr
                .iter()
                .copied()
                .filter(|r| adding.contains(r))
                .collect();
            let sizes: BTreeMap<i32, i64> = s
                .sizes
                .iter()
                .filter(|(r, _)| adding.contains(r))
                .map(|(r, b)| (*r, *b))
                .collect();
            let k = key(&s.topic, s.partition);
            let track = match self.partitions.remove(&k) {
                Some(old) if old.adding == adding => {
                    let joined = in_isr.iter().any(|r| !old.in_isr.contains(r));
                    let grew = sizes
                        .iter()
                        .any(|(r, b)| old.sizes.get(r).is_some_and(|was| b > was));
                    let mut seen = old.sizes.clone();
                    for (r, b) in &sizes {
                        let e = seen.entry(*r).or_insert(*b);
                        *e = (*e).max(*b);
                    }
                    // A clock that stepped back restarts the count rather than making it negative.
                    let since_ms = if joined || grew || now_ms < old.since_ms {
                        now_ms
                    } else {
                        old.since_ms
                    };
                    Track {
                        topic: s.topic.clone(),
                        partition: s.partition,
                        adding,
                        in_isr: old.in_isr.union(&in_isr).copied().collect(),
                        sizes: seen,
                        since_ms,
                    }
                }
                _ => Track {
                    topic: s.topic.clone(),
                    partition: s.partition,
                    adding,
                    in_isr,
                    sizes,
                    since_ms: now_ms,
                },
            };
            next.insert(k, track);
        }
        self.partitions = next;
    }

    /// The reassignments that made no progress for at least `after_ms` at `now_ms`, in
    /// topic-partition order.
    #[must_use]
    pub fn stalled(&self, now_ms: i64, after_ms: i64) -> Vec<Stalled> {
        let mut out: Vec<Stalled> = self
            .partitions
            .values()
            .filter(|t| now_ms.saturating_sub(t.since_ms) >= after_ms)
            .map(|t| Stalled {
                topic: t.topic.clone(),
                partition: t.partition,
                adding: t.adding.iter().copied().collect(),
                for_ms: now_ms.saturating_sub(t.since_ms),
            })
            .collect();
        out.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
        out
    }

    /// How many reassignments are tracked.
    #[must_use]
    pub fn len(&self) -> usize {
        self.partitions.len()
    }

    /// Whether nothing is tracked.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.partitions.is_empty()
    }
}

fn duration(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{}s", s / 60, s % 60),
        _ => format!("{}h{}m", s / 3600, (s % 3600) / 60),
    }
}

/// One `reassignment-stalled` reason per topic.
pub(super) fn stalled_reasons(stalled: &[Stalled], out: &mut Vec<Reason>) {
    let mut by: BTreeMap<&str, Vec<&Stalled>> = BTreeMap::new();
    for s in stalled {
        by.entry(&s.topic).or_default().push(s);
    }
    for (topic, parts) in by {
        let details: Vec<String> = parts
            .iter()
            .map(|s| {
                format!(
                    "{}-{} (adding {}, no progress for {})",
                    s.topic,
                    s.partition,
                    super::ids(&s.adding),
                    duration(s.for_ms)
                )
            })
            .collect();
        let mut r = reason(
            "reassignment-stalled",
            Some(topic.to_string()),
            format!(
                "{} partition reassignment(s) of topic {topic} made no progress (no log growth on \
                 the new replicas, none joined the ISR): {}",
                parts.len(),
                list(&details)
            ),
        );
        r.partitions = parts
            .iter()
            .map(|s| format!("{}-{}", s.topic, s.partition))
            .collect();
        out.push(r);
    }
}
