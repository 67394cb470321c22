//! Who else is moving data: partition reassignments that Cruise Control did not start.
//!
//! Cruise Control refuses to execute (or, with `auto.stop.external.agent=true`, silently
//! cancels) while reassignments started by someone else are in flight, and either way the
//! operator loses track of what moves. kafkaops therefore looks first: these pure functions
//! turn the Admin API's list of ongoing reassignments plus what Cruise Control's executor
//! says it is doing into a listing with an owner and a progress figure, decide whether an
//! execution may start, and pick what `reassignments cancel` cancels.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::kafka::observation::Reassignment;

/// Who started a reassignment, as far as kafkaops can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Owner {
    /// Cruise Control's executor is moving replicas: the reassignment is taken to be its own.
    CruiseControl,
    /// Cruise Control's executor is idle: someone else started it.
    External,
    /// Cruise Control was not asked (not configured or unreachable).
    Unknown,
}

impl Owner {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Owner::CruiseControl => "cruise-control",
            Owner::External => "external",
            Owner::Unknown => "unknown",
        }
    }
}

/// What Cruise Control's executor said, reduced to what attribution needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecutorView {
    /// Not asked or no answer.
    Unknown,
    /// `NO_TASK_IN_PROGRESS`.
    Idle,
    /// Anything else: an execution (its replica or leader phase, or stopping) is running.
    Executing,
}

/// One reassignment in flight, for people and scripts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReassignmentView {
    pub topic: String,
    pub partition: i32,
    /// The replica set while moving (target plus the replicas still being removed).
    pub replicas: Vec<i32>,
    pub adding: Vec<i32>,
    pub removing: Vec<i32>,
    /// Adding replicas that have already joined the ISR.
    pub adding_in_sync: Vec<i32>,
    pub owner: Owner,
}

impl ReassignmentView {
    /// "1/2 new replicas in sync".
    #[must_use]
    pub fn progress(&self) -> String {
        if self.adding.is_empty() {
            return "removing only".into();
        }
        format!(
            "{}/{} new replicas in sync",
            self.adding_in_sync.len(),
            self.adding.len()
        )
    }
}

/// The listing: each reassignment with its owner and progress. `isr` is the ISR per
/// partition as last described (missing partitions count as "nothing in sync yet").
#[must_use]
pub fn classify(
    reassignments: &[Reassignment],
    isr: &BTreeMap<(String, i32), Vec<i32>>,
    executor: ExecutorView,
) -> Vec<ReassignmentView> {
    let owner = match executor {
        ExecutorView::Unknown => Owner::Unknown,
        ExecutorView::Idle => Owner::External,
        ExecutorView::Executing => Owner::CruiseControl,
    };
    let mut out: Vec<ReassignmentView> = reassignments
        .iter()
        .map(|r| {
            let in_sync = isr
                .get(&(r.topic.clone(), r.partition))
                .cloned()
                .unwrap_or_default();
            ReassignmentView {
                topic: r.topic.clone(),
                partition: r.partition,
                replicas: r.replicas.clone(),
                adding: r.adding.clone(),
                removing: r.removing.clone(),
                adding_in_sync: r
                    .adding
                    .iter()
                    .copied()
                    .filter(|b| in_sync.contains(b))
                    .collect(),
                owner,
            }
        })
        .collect();
    out.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
    out
}

/// May a Cruise Control execution start? Only when no reassignment is in flight that
/// Cruise Control did not start. With the executor busy the in-flight reassignments are its
/// own and Cruise Control itself reports the ongoing execution, so that is not ours to refuse.
#[must_use]
pub fn blocking(views: &[ReassignmentView]) -> Vec<ReassignmentView> {
    views
        .iter()
        .filter(|v| v.owner != Owner::CruiseControl)
        .cloned()
        .collect()
}

/// Reassignments not started by Cruise Control are in flight: an execution must not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} partition reassignment(s) not started by Cruise Control are in flight{}: {}; Cruise Control would refuse to execute (or cancel them); wait with --wait-for-reassignments DURATION or cancel them with `kafkaops reassignments cancel`; nothing was changed",
    .in_flight.len(),
    .waited.as_deref().map(|w| format!(" after waiting {w}")).unwrap_or_default(),
    describe(.in_flight)
)]
pub struct ExternalReassignments {
    pub in_flight: Vec<ReassignmentView>,
    /// How long kafkaops waited before giving up, when it did.
    pub waited: Option<String>,
}

/// `orders-0 (adding 4, removing 1, 0/1 new replicas in sync), ...`.
#[must_use]
pub fn describe(views: &[ReassignmentView]) -> String {
    views
        .iter()
        .map(|v| {
            format!(
                "{}-{} (adding {}, removing {}, {})",
                v.topic,
                v.partition,
                ids(&v.adding),
                ids(&v.removing),
                v.progress()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn ids(v: &[i32]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

/// Input of `reassignments cancel` that cannot work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CancelInputError {
    #[error("name the partitions to cancel (TOPIC-PARTITION ...) or pass --all")]
    NothingNamed,
    #[error("{0:?} is not a partition (expected TOPIC-PARTITION, e.g. orders-3)")]
    NotAPartition(String),
}

/// Parses `orders-3` (the topic may itself contain dashes: the last one separates).
pub fn parse_partition(s: &str) -> Result<(String, i32), CancelInputError> {
    let (topic, p) = s
        .rsplit_once('-')
        .ok_or_else(|| CancelInputError::NotAPartition(s.into()))?;
    let p: i32 = p
        .parse()
        .map_err(|_| CancelInputError::NotAPartition(s.into()))?;
    if topic.is_empty() || p < 0 {
        return Err(CancelInputError::NotAPartition(s.into()));
    }
    Ok((topic.to_string(), p))
}

/// What `reassignments cancel` would cancel: every in-flight reassignment with `all`, else the
/// named ones that are in flight; the named ones that are not come back separately.
#[must_use]
pub fn select_for_cancel(
    views: &[ReassignmentView],
    all: bool,
    named: &[(String, i32)],
) -> (Vec<ReassignmentView>, Vec<(String, i32)>) {
    if all {
        return (views.to_vec(), Vec::new());
    }
    let wanted: BTreeSet<&(String, i32)> = named.iter().collect();
    let chosen: Vec<ReassignmentView> = views
        .iter()
        .filter(|v| wanted.contains(&(v.topic.clone(), v.partition)))
        .cloned()
        .collect();
    let missing = named
        .iter()
        .filter(|n| !chosen.iter().any(|v| v.topic == n.0 && v.partition == n.1))
        .cloned()
        .collect();
    (chosen, missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(topic: &str, p: i32, adding: &[i32], removing: &[i32]) -> Reassignment {
        Reassignment {
            topic: topic.into(),
            partition: p,
            replicas: vec![1, 2, 3],
            adding: adding.to_vec(),
            removing: removing.to_vec(),
        }
    }

    #[test]
    fn owner_follows_the_executor_and_progress_counts_in_sync_additions() {
        let rs = [r("b", 0, &[4, 5], &[1, 2]), r("a", 1, &[], &[3])];
        let isr = BTreeMap::from([(("b".to_string(), 0), vec![1, 2, 3, 5])]);
        let v = classify(&rs, &isr, ExecutorView::Idle);
        assert_eq!(v[0].topic, "a");
        assert_eq!(v[0].progress(), "removing only");
        assert_eq!(v[1].adding_in_sync, vec![5]);
        assert_eq!(v[1].progress(), "1/2 new replicas in sync");
        assert!(v.iter().all(|x| x.owner == Owner::External));
        assert_eq!(blocking(&v).len(), 2);

        let busy = classify(&rs, &isr, ExecutorView::Executing);
        assert!(blocking(&busy).is_empty());
        let unknown = classify(&rs, &isr, ExecutorView::Unknown);
        assert_eq!(blocking(&unknown).len(), 2);
    }

    #[test]
    fn refusal_lists_every_partition() {
        let v = classify(
            &[r("orders", 3, &[4], &[1])],
            &BTreeMap::new(),
            ExecutorView::Idle,
        );
        let e = ExternalReassignments {
            in_flight: v,
            waited: Some("10s".into()),
        };
        let s = e.to_string();
        assert!(
            s.contains("orders-3 (adding 4, removing 1, 0/1 new replicas in sync)"),
            "{s}"
        );
        assert!(s.contains("after waiting 10s"), "{s}");
    }

    #[test]
    fn partitions_parse_at_the_last_dash() {
        assert_eq!(
            parse_partition("my-topic-12").unwrap(),
            ("my-topic".into(), 12)
        );
        assert!(parse_partition("orders").is_err());
        assert!(parse_partition("-3").is_err());
        assert!(parse_partition("orders-x").is_err());
    }

    #[test]
    fn cancel_selection() {
        let v = classify(
            &[r("a", 0, &[4], &[1]), r("b", 1, &[4], &[1])],
            &BTreeMap::new(),
            ExecutorView::Idle,
        );
        let (all, missing) = select_for_cancel(&v, true, &[]);
        assert_eq!((all.len(), missing.len()), (2, 0));
        let (some, missing) = select_for_cancel(&v, false, &[("b".into(), 1), ("c".into(), 0)]);
        assert_eq!(some.len(), 1);
        assert_eq!(some[0].topic, "b");
        assert_eq!(missing, vec![("c".to_string(), 0)]);
    }
}
