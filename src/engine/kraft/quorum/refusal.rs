//! Why a quorum change is refused: one variant per blocker, each naming it, with whether
//! waiting may clear it and its failure class (exit codes are mapped at the edge).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::failure::FailureKind;
use crate::engine::model::NodeId;

/// Why a quorum change is refused. Each names what blocks it; [`QuorumRefusal::retryable`]
/// says which may pass by waiting.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QuorumRefusal {
    #[error("the controller quorum has no active controller; retry once one is elected")]
    NoLeader,
    #[error(
        "node {node}'s LastCaughtUpTimestamp {ts} is ahead of the active controller's clock \
         ({leader_ts}): its clock stepped back, no timestamp can be trusted until it passes them"
    )]
    ClockSteppedBack {
        node: NodeId,
        #[serde(rename = "last_caught_up_at_ms", alias = "ts")]
        ts: i64,
        #[serde(rename = "leader_time_at_ms", alias = "leader_ts")]
        leader_ts: i64,
    },
    #[error(
        "the quorum is static (kraft.version 0): its membership cannot change; `quorum migrate` \
         turns it dynamic first"
    )]
    StaticQuorum,
    #[error("kraft.version is unknown: cannot tell whether the quorum is static or dynamic")]
    KraftVersionUnknown,
    #[error("node {node} is already a voter")]
    AlreadyVoter { node: NodeId },
    #[error(
        "node {node} is not a known controller (no controller registration or controller role): \
         only controllers can become voters"
    )]
    NotAController { node: NodeId },
    #[error(
        "node {node} does not fetch from the quorum as an observer: start it as a controller \
         formatted with --no-initial-controllers first"
    )]
    NotAnObserver { node: NodeId },
    #[error("node {node} is not running")]
    NotRunning { node: NodeId },
    #[error(
        "node {node} has no known metadata directory id (DescribeQuorum v2, Kafka >= 3.9, is \
         needed)"
    )]
    NoDirectoryId { node: NodeId },
    #[error(
        "node {node} has not caught up: {lag} records behind the leader (at most {max_lag}), \
         last fetch {fetch_age} ago (at most {max_fetch_age_ms} ms), caught up: {caught_up}",
        lag = opt(*lag_records),
        fetch_age = opt_ms(*fetch_age_ms)
    )]
    NotCaughtUp {
        node: NodeId,
        lag_records: Option<i64>,
        fetch_age_ms: Option<i64>,
        caught_up: bool,
        max_lag: i64,
        max_fetch_age_ms: i64,
    },
    #[error("node {node} is not a voter")]
    NotAVoter { node: NodeId },
    #[error("node {node} is the last voter: a quorum needs at least one")]
    LastVoter { node: NodeId },
    #[error(
        "node {node} is the active controller: move leadership away first (restart it \
         gracefully: it resigns and another voter takes over), then remove it"
    )]
    ActiveController { node: NodeId },
    #[error(
        "{change} would leave {caught_up:?} caught up and running of {voters} voter(s), {needed} \
         needed for a majority"
    )]
    WouldLoseMajority {
        change: String,
        caught_up: Vec<NodeId>,
        voters: usize,
        needed: usize,
    },
    #[error("the quorum is already dynamic (kraft.version {kraft_version}): nothing to migrate")]
    AlreadyDynamic { kraft_version: i16 },
    #[error("node {node}'s supported features are unknown ({reason}): every node must be asked")]
    NodeUnknown { node: NodeId, reason: String },
    #[error(
        "node {node} cannot take part in the migration: {reason}; upgrade its software to Kafka \
         4.1 or later first"
    )]
    NodeCannotMigrate { node: NodeId, reason: String },
    #[error("voter(s) {lagging:?} are not running and caught up: every voter must be")]
    VotersNotCaughtUp { lagging: Vec<NodeId> },
    #[error(
        "another quorum change is in progress: {reason}; nothing was changed, retry once it has \
         completed"
    )]
    ChangeInProgress { reason: String },
}

fn opt(v: Option<i64>) -> String {
    v.map_or_else(|| "unknown".into(), |v| v.to_string())
}

fn opt_ms(v: Option<i64>) -> String {
    v.map_or_else(|| "unknown".into(), |v| format!("{v} ms"))
}

impl QuorumRefusal {
    /// Whether waiting may clear it (an election, a catching-up observer, a clock passing its
    /// old timestamps); the others need the cluster or the request to change.
    #[must_use]
    pub fn retryable(&self) -> bool {
        matches!(
            self,
            QuorumRefusal::NoLeader
                | QuorumRefusal::ClockSteppedBack { .. }
                | QuorumRefusal::NotCaughtUp { .. }
                | QuorumRefusal::VotersNotCaughtUp { .. }
        )
    }

    /// Its failure class: waiting may clear it (not ready), nothing to do (already a voter,
    /// already dynamic), the request names a node that cannot be one (invalid), else a refusal.
    #[must_use]
    pub fn failure_kind(&self) -> FailureKind {
        match self {
            _ if self.retryable() => FailureKind::NotReady,
            QuorumRefusal::AlreadyVoter { .. } | QuorumRefusal::AlreadyDynamic { .. } => {
                FailureKind::NoOp
            }
            QuorumRefusal::NotAController { .. } | QuorumRefusal::NotAVoter { .. } => {
                FailureKind::Invalid
            }
            QuorumRefusal::ChangeInProgress { .. } => FailureKind::Busy,
            _ => FailureKind::Failed,
        }
    }
}
