//! The facts the health verdict is decided on: what `app::health` reads of Kafka, Cruise
//! Control and the holds, as plain data the rules in the sibling modules judge.

use serde::{Deserialize, Serialize};

use super::progress::Stalled;
use crate::engine::anomalies::AnomalyRecord;
use crate::engine::throttles::{Movement, Throttle};
use crate::engine::view::Reassignment;

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
    pub holds: Vec<crate::engine::holds::Hold>,
    /// The reassignments that made no progress for the stall threshold ([`super::progress`]):
    /// known only from samples over time (`health --watch`, `operate`, the one-shot `health`'s
    /// sample file); empty when no earlier sample exists.
    #[serde(default)]
    pub stalled: Vec<Stalled>,
}

impl HealthFacts {
    /// What moves, for the throttle rules.
    #[must_use]
    pub fn movement(&self) -> Movement {
        use crate::engine::throttles::CcMovement;
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
