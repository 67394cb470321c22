//! Who else is moving data: Cruise Control's running execution, and partition reassignments
//! that Cruise Control did not start.
//!
//! Cruise Control refuses to execute (or, with `auto.stop.external.agent=true`, silently
//! cancels) while reassignments started by someone else are in flight, and either way the
//! operator loses track of what moves. kafkaops therefore looks first: these pure functions
//! turn the Admin API's list of ongoing reassignments plus what Cruise Control's executor
//! says it is doing into a listing with an owner and a progress figure, decide whether an
//! execution may start, and pick what `reassignments cancel` cancels.
//!
//! [`other_movers`] is the one place that says what else moves data, for every mover of ours:
//! `operate` waits on its [`OtherMovers::blockers`] before anything starts, and a roll
//! (`engine::roll`) restarts no node while Cruise Control executes (a restarted broker that an
//! execution moves replicas to or from kills the execution's tasks and leaves its throttles and
//! reassignments behind).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::engine::view::{ExecutorState, Reassignment};

/// Who started a reassignment, as far as kafkaops can tell.
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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

/// What Cruise Control said about its executor, for the rules about other movers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CruiseControlView {
    /// Not asked: no Cruise Control is configured or found (or `--force`).
    NotAsked,
    /// Asked, and it could not be read (why).
    Unreachable(String),
    /// It answered without saying what the executor does (a missing or empty `state`, which
    /// Cruise Control itself never sends): it may be executing.
    StateUnknown(String),
    /// `NO_TASK_IN_PROGRESS`.
    Idle,
    /// An execution runs (its replica or leader phase, or it is stopping).
    Executing(Execution),
}

/// A running Cruise Control execution, as people are told about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Execution {
    /// The executor's state, e.g. `INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS`.
    pub state: String,
    /// The user task (or self-healing task) that started it.
    pub task: Option<String>,
    /// One line: state, task and reason ([`ExecutorState::describe`]).
    pub description: String,
}

impl CruiseControlView {
    /// The view of an executor state as read (`Err`: why it could not be read).
    #[must_use]
    pub fn of(executor: Result<&ExecutorState, &str>) -> CruiseControlView {
        match executor {
            Err(e) => CruiseControlView::Unreachable(e.to_string()),
            Ok(x) if x.is_unknown() => CruiseControlView::StateUnknown(x.describe()),
            Ok(x) if x.is_idle() => CruiseControlView::Idle,
            Ok(x) => CruiseControlView::Executing(Execution {
                state: x.state.clone(),
                task: x.running_task().map(str::to_string),
                description: x.describe(),
            }),
        }
    }

    /// The executor as reassignment attribution sees it.
    #[must_use]
    pub fn executor(&self) -> ExecutorView {
        match self {
            CruiseControlView::NotAsked
            | CruiseControlView::Unreachable(_)
            | CruiseControlView::StateUnknown(_) => ExecutorView::Unknown,
            CruiseControlView::Idle => ExecutorView::Idle,
            CruiseControlView::Executing(_) => ExecutorView::Executing,
        }
    }
}

/// What moves data besides the caller: Cruise Control's side, and the reassignments in flight
/// that no Cruise Control execution owns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherMovers {
    pub cruise_control: CruiseControlView,
    /// In flight and not owned by a running execution (empty while Cruise Control executes:
    /// they are taken to be its own).
    pub external: Vec<ReassignmentView>,
}

/// Others moving data, from Cruise Control's view and the reassignments in flight (`isr`: the
/// ISR per partition, for progress; may be empty).
#[must_use]
pub fn other_movers(
    cruise_control: CruiseControlView,
    reassignments: &[Reassignment],
    isr: &BTreeMap<(String, i32), Vec<i32>>,
) -> OtherMovers {
    let executor = cruise_control.executor();
    let external = if executor == ExecutorView::Executing {
        Vec::new()
    } else {
        blocking(&classify(reassignments, isr, executor))
    };
    OtherMovers {
        cruise_control,
        external,
    }
}

impl OtherMovers {
    /// Why a mover of ours may not start now (empty: nothing else moves), in `operate`'s words:
    /// Cruise Control unreachable, executing (naming its task), reassignments it did not start.
    #[must_use]
    pub fn blockers(&self) -> Vec<String> {
        let mut out = Vec::new();
        match &self.cruise_control {
            CruiseControlView::Unreachable(e) => {
                out.push(format!("Cruise Control cannot be reached ({e})"));
            }
            CruiseControlView::StateUnknown(d) => {
                out.push(format!("Cruise Control may be executing: {d}"));
            }
            CruiseControlView::Executing(x) => {
                out.push(format!("Cruise Control is executing: {}", x.description));
            }
            CruiseControlView::NotAsked | CruiseControlView::Idle => {}
        }
        if !self.external.is_empty() {
            out.push(format!(
                "{} partition reassignment(s) not started by Cruise Control are in flight: {}",
                self.external.len(),
                describe(&self.external)
            ));
        }
        out
    }
}

/// One reassignment in flight, for people and scripts.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize)]
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

    fn executor(state: &str, task: &str) -> ExecutorState {
        ExecutorState {
            state: state.into(),
            triggered_user_task_id: Some(task.into()),
            triggered_self_healing_task_id: Some(String::new()),
            triggered_task_reason: Some("remove brokers 4 (Client: 127.0.0.1)".into()),
            ..ExecutorState::default()
        }
    }

    #[test]
    fn other_movers_name_the_running_execution_or_the_reassignments_nobody_owns() {
        let rs = [r("orders", 0, &[4], &[1])];
        // Cruise Control executes: its task is named; the reassignments are its own.
        let x = executor("INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS", "task-7");
        let m = other_movers(CruiseControlView::of(Ok(&x)), &rs, &BTreeMap::new());
        assert!(m.external.is_empty());
        let CruiseControlView::Executing(e) = &m.cruise_control else {
            panic!("{m:?}")
        };
        assert_eq!(e.task.as_deref(), Some("task-7"));
        assert_eq!(
            m.blockers(),
            vec![
                "Cruise Control is executing: INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS \
                 (task task-7), reason: remove brokers 4 (Client: 127.0.0.1)"
                    .to_string()
            ]
        );
        // Idle: the reassignments are someone else's.
        let idle = executor("NO_TASK_IN_PROGRESS", "");
        let m = other_movers(CruiseControlView::of(Ok(&idle)), &rs, &BTreeMap::new());
        assert_eq!(m.cruise_control, CruiseControlView::Idle);
        assert_eq!(m.external.len(), 1);
        assert_eq!(m.external[0].owner, Owner::External);
        assert_eq!(
            m.blockers(),
            vec![
                "1 partition reassignment(s) not started by Cruise Control are in flight: \
                 orders-0 (adding 4, removing 1, 0/1 new replicas in sync)"
                    .to_string()
            ]
        );
        // Unreachable or not asked: nobody is known to own them.
        let m = other_movers(
            CruiseControlView::of(Err("timed out")),
            &rs,
            &BTreeMap::new(),
        );
        assert_eq!(m.external[0].owner, Owner::Unknown);
        assert_eq!(
            m.blockers()[0],
            "Cruise Control cannot be reached (timed out)"
        );
        let m = other_movers(CruiseControlView::NotAsked, &rs, &BTreeMap::new());
        assert_eq!(m.blockers().len(), 1);
        // An answer without a state is not idle: it may be executing.
        let blank = ExecutorState::default();
        let m = other_movers(CruiseControlView::of(Ok(&blank)), &rs, &BTreeMap::new());
        assert!(matches!(
            m.cruise_control,
            CruiseControlView::StateUnknown(_)
        ));
        assert!(m.blockers()[0].starts_with("Cruise Control may be executing: "));
        assert_eq!(m.external[0].owner, Owner::Unknown);
        assert!(
            other_movers(CruiseControlView::NotAsked, &[], &BTreeMap::new())
                .blockers()
                .is_empty()
        );
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
