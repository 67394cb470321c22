//! What one loop of `operate` is given: the policy as the engine needs it and one observation
//! of the world (Kafka, Cruise Control, the platform, a roll the shell found needed). Plain
//! data the shell fills in; nothing here decides.

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::anomalies::AnomalyRecord;
use crate::engine::model::Millis;
use crate::engine::operator_guard::OperatorView;
use crate::engine::rebalance::Mode;
use crate::engine::replicas::{ClusterFacts, TopicFacts};
use crate::engine::view::{ExecutorState, Reassignment, UserTask};

/// What the policy asks for, as the engine needs it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OperatePolicy {
    /// The auto-rebalance modes that may start (absent ones never do).
    pub modes: BTreeSet<Mode>,
    /// Brokers to empty before they are stopped.
    pub drain: BTreeSet<i32>,
    /// How long a new broker must hold no replica before it is a scale-up.
    pub scale_up_grace_ms: u64,
    /// Desired replication factors (topic: factor).
    pub replication_factors: BTreeMap<String, u16>,
}

/// What Kafka showed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KafkaView {
    /// The registered brokers and how many replicas each holds.
    pub brokers: BTreeMap<i32, u64>,
    /// Partition reassignments in flight (anyone's).
    pub reassignments: Vec<Reassignment>,
    /// Every topic's partitions and replica counts (for replication factors).
    pub topics: BTreeMap<String, TopicFacts>,
    /// Distinct `broker.rack` values (empty: no broker has one).
    pub racks: BTreeSet<String>,
    /// Held nodes (`kafkaops hold`, issue 29) with their reason: never a destination of a
    /// rebalance sent now, never added by a scale-up.
    pub held: BTreeMap<i32, String>,
}

impl KafkaView {
    /// The facts the replication-factor engine reads.
    #[must_use]
    pub fn facts(&self) -> ClusterFacts {
        ClusterFacts {
            brokers: self.brokers.len(),
            racks: self.racks.clone(),
            topics: self.topics.clone(),
        }
    }
}

/// What Cruise Control showed.
#[derive(Debug, Clone, Default)]
pub struct CcView {
    pub executor: ExecutorState,
    /// The anomaly detector's records (all types; only goal violations count).
    pub anomalies: Vec<AnomalyRecord>,
    /// `user_tasks`, when asked for ([`OperateState::needs_user_tasks`](super::OperateState::needs_user_tasks)).
    pub user_tasks: Option<Vec<UserTask>>,
}

/// One observation of the world (`Err`: that side could not be read, with why).
#[derive(Debug, Clone)]
pub struct Observation {
    /// Epoch milliseconds.
    pub now: Millis,
    pub kafka: Result<KafkaView, String>,
    pub cc: Result<CcView, String>,
    /// The Strimzi operator's side, where there is one (Kubernetes).
    pub operator: Option<OperatorView>,
    /// The platform's side (Kubernetes) could not be read: nothing starts (the operator guard
    /// cannot be checked).
    pub platform_error: Option<String>,
    /// Someone else's roll holds the cluster's roll Lease (Kubernetes: the Lease `kafkaops roll`
    /// takes for the same pods), described with its holder; `None`: free, ours, or not looked at
    /// (plain hosts take no roll lock). Nothing of ours starts while it is held (no rebalance,
    /// replication-factor change or roll while another restarts brokers); an execution of ours
    /// already sent goes on (whoever started the roll meanwhile answers for it).
    pub other_roll: Option<String>,
    /// Nodes the shell found in need of a roll (desired broker configuration, Kubernetes
    /// reasons), as the roll engine plans it; `None`: none (or not looked at).
    pub roll: Option<RollWish>,
}

/// A roll the shell found needed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollWish {
    pub nodes: BTreeSet<i32>,
    /// Why, in one sentence.
    pub reason: String,
}
