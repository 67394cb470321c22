//! Plain-data types the engine decides on.
//!
//! The adapters (Admin API, Kubernetes, agents) translate what they observe
//! into these types; the engine never sees a client, a socket or a clock.
//! Keeping the snapshot a plain, serialisable value is what lets a test or a
//! simulator build any cluster state by hand, and lets `--dry-run` and bug
//! reports dump exactly what a decision was based on.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A Kafka node id (`node.id`), shared by brokers and controllers.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(transparent)]
pub struct NodeId(pub i32);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A point in time in milliseconds since an epoch the caller picks (the
/// driver uses the Unix epoch; tests and the simulator start at zero).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(transparent)]
pub struct Millis(pub u64);

impl Millis {
    /// `self + ms`, saturating.
    #[must_use]
    pub fn plus(self, ms: u64) -> Millis {
        Millis(self.0.saturating_add(ms))
    }

    /// Milliseconds from `earlier` to `self`, zero if `earlier` is later.
    #[must_use]
    pub fn since(self, earlier: Millis) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}ms", self.0)
    }
}

/// A topic partition.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TopicPartition {
    pub topic: String,
    pub partition: i32,
}

impl fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

/// The process roles a node currently runs with (from the running node or its
/// pod labels, not from the desired spec: a node being moved from controller
/// to combined still counts as a pure controller until it has restarted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct NodeRoles {
    pub controller: bool,
    pub broker: bool,
}

impl NodeRoles {
    pub const BROKER: NodeRoles = NodeRoles {
        controller: false,
        broker: true,
    };
    pub const CONTROLLER: NodeRoles = NodeRoles {
        controller: true,
        broker: false,
    };
    pub const COMBINED: NodeRoles = NodeRoles {
        controller: true,
        broker: true,
    };

    #[must_use]
    pub fn is_pure_controller(self) -> bool {
        self.controller && !self.broker
    }

    #[must_use]
    pub fn is_combined(self) -> bool {
        self.controller && self.broker
    }
}

impl fmt::Display for NodeRoles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.controller, self.broker) {
            (true, true) => f.write_str("combined"),
            (true, false) => f.write_str("controller"),
            (false, true) => f.write_str("broker"),
            (false, false) => f.write_str("none"),
        }
    }
}

/// What an observer saw of a node's process. Derived by the adapters from the
/// platform (pod/process running), the broker state (JMX or agent) and
/// readiness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ObservedState {
    /// Nothing is known yet.
    #[default]
    Unknown,
    /// The Kafka process is not running (pod pending, crash-looping, stopped).
    NotRunning,
    /// Running but not ready to serve (broker state < 2, or 127).
    NotReady,
    /// Running and in log recovery (broker state 2).
    Recovering,
    /// Running and serving requests (broker state >= 3 and != 127; for a
    /// controller-only node: its controller listener answers).
    Serving,
}

impl ObservedState {
    /// Maps Kafka's numeric `BrokerState` (`NOT_RUNNING=0, STARTING=1,
    /// RECOVERY=2, RUNNING=3, PENDING_CONTROLLED_SHUTDOWN=6,
    /// SHUTTING_DOWN=7, UNKNOWN=127`) of a running process.
    #[must_use]
    pub fn from_broker_state(code: u8) -> ObservedState {
        match code {
            0 => ObservedState::NotRunning,
            2 => ObservedState::Recovering,
            // PENDING_CONTROLLED_SHUTDOWN and SHUTTING_DOWN: going down, not serving.
            6 | 7 => ObservedState::NotReady,
            3..=126 => ObservedState::Serving,
            _ => ObservedState::NotReady,
        }
    }
}

/// One configuration entry as the node reports it (DescribeConfigs BROKER).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigEntry {
    /// Current value; `None` for a sensitive or unset value.
    pub value: Option<String>,
    /// `true` when the setting cannot be changed without a restart
    /// (DescribeConfigs `is_read_only`).
    pub read_only: bool,
}

/// One node as observed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeSnapshot {
    pub id: NodeId,
    /// Currently assigned roles.
    pub roles: NodeRoles,
    pub state: ObservedState,
    /// `false` when the Admin API connection to this node failed.
    pub reachable: bool,
    /// Rack (`broker.rack`), informational.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack: Option<String>,
    /// Current configuration with read-only flags (empty when unknown).
    #[serde(default)]
    pub config: BTreeMap<String, ConfigEntry>,
    /// An identity of the running process that changes at every restart (pod UID;
    /// on plain hosts the restart witness's generation). `None` = unknown.
    #[serde(default)]
    pub incarnation: Option<String>,
}

/// One partition as observed (Metadata / DescribeTopicPartitions, plus
/// ListPartitionReassignments for the adding/removing sets).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionSnapshot {
    pub tp: TopicPartition,
    /// Assigned replicas; `replicas[0]` is the preferred leader.
    pub replicas: Vec<NodeId>,
    pub isr: Vec<NodeId>,
    pub leader: Option<NodeId>,
    /// Replicas being added by an ongoing reassignment.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adding: Vec<NodeId>,
    /// Replicas being removed by an ongoing reassignment.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removing: Vec<NodeId>,
}

impl PartitionSnapshot {
    /// Replicas once an ongoing reassignment completes.
    pub fn target_replicas(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.replicas
            .iter()
            .copied()
            .filter(|r| !self.removing.contains(r))
    }

    /// The ISR once an ongoing reassignment completes, as far as it can be
    /// known now: replicas being removed leave it, replicas being added count
    /// only once they are in it already.
    pub fn target_isr(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.isr
            .iter()
            .copied()
            .filter(|r| !self.removing.contains(r))
    }

    /// Every node that holds or will hold a replica of this partition.
    pub fn all_replicas(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.replicas
            .iter()
            .chain(self.adding.iter().filter(|a| !self.replicas.contains(a)))
            .copied()
    }
}

/// Topic settings the roll needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicSettings {
    /// Topic-level `min.insync.replicas` override (config source
    /// DYNAMIC_TOPIC_CONFIG); `None` = no override, broker-level values apply.
    pub min_insync_replicas: Option<u32>,
}

/// One voter in DescribeQuorum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoterState {
    pub id: NodeId,
    /// `LastCaughtUpTimestamp` in the leader's wall clock (ms), `None` when
    /// unknown (-1 on the wire).
    pub last_caught_up_ms: Option<i64>,
    /// `LastFetchTimestamp` in the leader's wall clock (ms), `None` when unknown.
    #[serde(default)]
    pub last_fetch_ms: Option<i64>,
}

/// KRaft quorum state from DescribeQuorum (v1+), asked of the controllers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuorumSnapshot {
    /// The active controller, `None` when there is no leader.
    pub leader: Option<NodeId>,
    pub voters: Vec<VoterState>,
    /// Brokers and controllers that are not voters (KIP-853).
    #[serde(default)]
    pub observers: Vec<VoterState>,
}

/// Everything the roll engine decides on, observed at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ClusterSnapshot {
    pub nodes: Vec<NodeSnapshot>,
    pub partitions: Vec<PartitionSnapshot>,
    /// Per-topic settings; a topic missing here is treated as
    /// `min.insync.replicas = 1` (Kafka's default).
    #[serde(default)]
    pub topics: BTreeMap<String, TopicSettings>,
    /// `None` when the quorum could not be described.
    pub quorum: Option<QuorumSnapshot>,
}

impl ClusterSnapshot {
    #[must_use]
    pub fn node(&self, id: NodeId) -> Option<&NodeSnapshot> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// Effective `min.insync.replicas` of a topic (1 when unknown).
    // STUB (adapter branch): ENGINE replaces this with `effective_min_isr`.
    #[must_use]
    pub fn min_isr(&self, topic: &str) -> u32 {
        self.topics
            .get(topic)
            .and_then(|t| t.min_insync_replicas)
            .unwrap_or(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broker_state_codes_map_as_kafka_defines_them() {
        assert_eq!(
            ObservedState::from_broker_state(0),
            ObservedState::NotRunning
        );
        assert_eq!(ObservedState::from_broker_state(1), ObservedState::NotReady);
        assert_eq!(
            ObservedState::from_broker_state(2),
            ObservedState::Recovering
        );
        assert_eq!(ObservedState::from_broker_state(3), ObservedState::Serving);
        assert_eq!(ObservedState::from_broker_state(6), ObservedState::NotReady);
        assert_eq!(ObservedState::from_broker_state(7), ObservedState::NotReady);
        assert_eq!(
            ObservedState::from_broker_state(127),
            ObservedState::NotReady
        );
    }

    #[test]
    fn target_sets_drop_removing_replicas() {
        let p = PartitionSnapshot {
            tp: TopicPartition {
                topic: "foo".into(),
                partition: 0,
            },
            replicas: vec![NodeId(1), NodeId(2), NodeId(4)],
            isr: vec![NodeId(1), NodeId(2), NodeId(4)],
            leader: Some(NodeId(1)),
            adding: vec![NodeId(4)],
            removing: vec![NodeId(2)],
        };
        assert_eq!(
            p.target_isr().collect::<Vec<_>>(),
            vec![NodeId(1), NodeId(4)]
        );
        assert_eq!(
            p.target_replicas().collect::<Vec<_>>(),
            vec![NodeId(1), NodeId(4)]
        );
        assert_eq!(p.all_replicas().count(), 3);
    }

    #[test]
    fn snapshot_round_trips_through_json() {
        let s = ClusterSnapshot {
            nodes: vec![NodeSnapshot {
                id: NodeId(0),
                roles: NodeRoles::COMBINED,
                state: ObservedState::Serving,
                reachable: true,
                rack: None,
                config: BTreeMap::new(),
                incarnation: None,
            }],
            partitions: vec![],
            topics: BTreeMap::new(),
            quorum: Some(QuorumSnapshot {
                leader: Some(NodeId(0)),
                voters: vec![VoterState {
                    id: NodeId(0),
                    last_caught_up_ms: Some(5),
                    last_fetch_ms: None,
                }],
                observers: vec![],
            }),
        };
        let json = serde_json::to_string(&s).unwrap();
        let back: ClusterSnapshot = serde_json::from_str(&json).unwrap();
        assert_eq!(s, back);
    }
}
