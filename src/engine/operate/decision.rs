//! What one loop decides and how it is told: the acts the shell must run, the records of
//! actions started or ended (logs, Events, metrics), the waits and notes, and the names and
//! sentences every part of the engine describes movers with.

use std::collections::BTreeSet;

use crate::engine::cc_flow::Outcome;
use crate::engine::rebalance::{Mode, Rebalance, State};
use crate::engine::replicas::ReplicasState;
use crate::engine::view::TaskStatus;

/// What the shell must do after a decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// Drive the running rebalance's Cruise Control flow until it waits or ends.
    StepRebalance,
    /// Ask Cruise Control to stop the running execution (a scale-down preempts a scale-up).
    StopRebalance { task_id: Option<String> },
    /// Drive the running roll (start it if it has no run yet) one step.
    StepRoll,
    /// Drive the running replication-factor round's Cruise Control flow until it waits or ends.
    StepReplicationFactors,
}

/// An action started or ended, for logs, Events and metrics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// `rebalance-add-brokers`, `rebalance-remove-brokers`, `rebalance-imbalance`,
    /// `stop-rebalance`, `roll`, `set-rf`.
    pub kind: String,
    /// `brokers 4,5` or `cluster`.
    pub target: String,
    pub reason: String,
    pub result: RecordResult,
}

/// How an action went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordResult {
    Started,
    Succeeded,
    Failed,
}

/// The decision of one loop.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decision {
    pub acts: Vec<Act>,
    /// What waits, and for what (one sentence each).
    pub waits: Vec<String>,
    /// Other things worth a log line (a drained broker, an attach).
    pub notes: Vec<String>,
    pub records: Vec<Record>,
    /// Transitions of the auto-rebalance machine.
    pub transitions: Vec<(State, State)>,
    /// Brokers on the drain list that may be stopped now: registered, holding no replica, no
    /// reassignment in flight involves them, and nothing that runs (ours or anyone's) may move
    /// a replica onto them. Said after this decision's own starts.
    pub safe_to_stop: BTreeSet<i32>,
}

/// The kind name of a rebalance mode (metrics, Events).
#[must_use]
pub fn kind_of(mode: Mode) -> &'static str {
    match mode {
        Mode::AddBrokers => "rebalance-add-brokers",
        Mode::RemoveBrokers => "rebalance-remove-brokers",
        Mode::Imbalance => "rebalance-imbalance",
    }
}

/// The Cruise Control endpoint a mode runs.
#[must_use]
pub fn endpoint_of(mode: Mode) -> &'static str {
    match mode {
        Mode::AddBrokers => "add_broker",
        Mode::RemoveBrokers => "remove_broker",
        Mode::Imbalance => "rebalance",
    }
}

pub(super) fn ids(set: &BTreeSet<i32>) -> String {
    set.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

/// `brokers 4,5` or `cluster`.
#[must_use]
pub fn target_of(r: &Rebalance) -> String {
    if r.brokers.is_empty() {
        "cluster".into()
    } else {
        format!("brokers {}", ids(&r.brokers))
    }
}

/// `topics a, b`.
pub(super) fn topics_of(r: &ReplicasState) -> String {
    format!(
        "topics {}",
        r.changes.keys().cloned().collect::<Vec<_>>().join(",")
    )
}

/// One sentence about how a flow ended.
#[must_use]
pub fn describe_outcome(o: &Outcome) -> String {
    let task = |t: &Option<String>| {
        t.as_deref()
            .map(|t| format!(" (task {t})"))
            .unwrap_or_default()
    };
    match o {
        Outcome::Completed { task_id } => format!("the execution completed{}", task(task_id)),
        Outcome::NothingToDo => "Cruise Control's proposal moves nothing".into(),
        Outcome::Failed { task_id } => {
            format!(
                "the execution ended with an error or was stopped{}",
                task(task_id)
            )
        }
        Outcome::TaskLost { task_id } => format!("Cruise Control forgot task {task_id}"),
        Outcome::Busy { running } => format!("another execution runs: {running}"),
        Outcome::NotReady { reason } => format!("Cruise Control is not ready: {reason}"),
        Outcome::Rejected { reason } => format!("refused: {reason}"),
        Outcome::Error { stage, failure, .. } => format!("{stage:?} failed: {}", failure.message),
        other => format!("{other:?}"),
    }
}

/// The task status a [`UserTask`](crate::engine::view::UserTask) reports, for messages.
#[must_use]
pub fn status_name(s: &TaskStatus) -> String {
    format!("{s:?}")
}
