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
    ///
    /// A broker going down (6, 7) is not serving: a restart command that
    /// returns while the old process is still shutting down must not make the
    /// node look back already.
    #[must_use]
    pub fn from_broker_state(code: u8) -> ObservedState {
        match code {
            0 => ObservedState::NotRunning,
            2 => ObservedState::Recovering,
            3..=5 | 8..=126 => ObservedState::Serving,
            _ => ObservedState::NotReady,
        }
    }
}

/// One configuration entry as the node reports it (DescribeConfigs BROKER).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigEntry {
    /// Current value; `None` for a sensitive or an unset value (tell them
    /// apart with [`ConfigEntry::sensitive`]).
    pub value: Option<String>,
    /// `true` when the setting cannot be changed without a restart
    /// (DescribeConfigs `is_read_only`).
    pub read_only: bool,
    /// DescribeConfigs `is_sensitive`: Kafka never returns the value (passwords,
    /// keys), so it cannot be compared. A `None` value that is not sensitive
    /// means the setting is unset.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sensitive: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_false(b: &bool) -> bool {
    !*b
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
    /// Current configuration with read-only flags (empty when unknown). The
    /// broker-level `min.insync.replicas` is read from here (key
    /// [`MIN_ISR_KEY`]).
    #[serde(default)]
    pub config: BTreeMap<String, ConfigEntry>,
    /// Identity of the running process that changes at every restart (pod
    /// UID, or the restart witness's generation); `None` = unknown. A change
    /// is evidence that the node really restarted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incarnation: Option<String>,
}

/// Config key of `min.insync.replicas` (topic and broker level).
pub const MIN_ISR_KEY: &str = "min.insync.replicas";

impl NodeSnapshot {
    /// Serving as far as this observation shows: SERVING and answering the
    /// Admin API. A node that is not (shutting down, crashed but not yet
    /// fenced, starting, in an unknown state) holds no ISR place and no quorum
    /// vote that a restart of another node may count on, whatever the ISR and
    /// the quorum timestamps still list.
    #[must_use]
    pub fn is_serving(&self) -> bool {
        self.state == ObservedState::Serving && self.reachable
    }

    /// The broker-level `min.insync.replicas` this node reports, if any.
    #[must_use]
    pub fn broker_min_isr(&self) -> Option<u32> {
        self.config
            .get(MIN_ISR_KEY)
            .and_then(|e| e.value.as_deref())
            .and_then(|v| v.trim().parse::<u32>().ok())
    }
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
    /// `DYNAMIC_TOPIC_CONFIG`); `None` = no override, the broker-level values
    /// apply (see [`ClusterSnapshot::effective_min_isr`]).
    pub min_insync_replicas: Option<u32>,
}

/// One voter (or observer) in DescribeQuorum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoterState {
    pub id: NodeId,
    /// `LastCaughtUpTimestamp` in the leader's wall clock (ms), `None` when
    /// unknown (-1 on the wire).
    pub last_caught_up_ms: Option<i64>,
    /// `LastFetchTimestamp` in the leader's wall clock (ms), `None` when
    /// unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_fetch_ms: Option<i64>,
}

/// KRaft quorum state from DescribeQuorum (v1+), asked of the controllers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuorumSnapshot {
    /// The active controller, `None` when there is no leader.
    pub leader: Option<NodeId>,
    pub voters: Vec<VoterState>,
    /// Nodes that fetch the metadata log without voting (brokers, and
    /// controllers that are not voters, KIP-853).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observers: Vec<VoterState>,
}

impl QuorumSnapshot {
    /// The voter or observer entry of `id`.
    #[must_use]
    pub fn member(&self, id: NodeId) -> Option<&VoterState> {
        self.voters
            .iter()
            .chain(&self.observers)
            .find(|v| v.id == id)
    }
}

/// Everything the roll engine decides on, observed at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ClusterSnapshot {
    pub nodes: Vec<NodeSnapshot>,
    pub partitions: Vec<PartitionSnapshot>,
    /// Per-topic settings; a topic missing here has unknown settings (the
    /// roll refuses to restart a replica of it).
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

    /// The topic-level `min.insync.replicas` override of `topic`; `None` when
    /// the topic has none or is unknown.
    #[must_use]
    pub fn topic_min_isr(&self, topic: &str) -> Option<u32> {
        self.topics.get(topic).and_then(|t| t.min_insync_replicas)
    }

    /// Effective `min.insync.replicas` of a partition: the topic override if
    /// any, otherwise the highest broker-level value among its replicas
    /// (leadership can move to any of them during a roll, and the leader's
    /// value is the one enforced). `None` when the topic is unknown, or when
    /// any replica that is a node does not report its value (that replica may
    /// lead, or come to lead, with a higher one): the caller must fail safe.
    /// Replica ids that are not nodes of the snapshot (decommissioned brokers
    /// nothing knows) cannot lead and are not asked.
    #[must_use]
    pub fn effective_min_isr(&self, p: &PartitionSnapshot) -> Option<u32> {
        effective_min_isr_with(&self.topics, p, |id| {
            self.node(id).map(NodeSnapshot::broker_min_isr)
        })
    }
}

/// [`ClusterSnapshot::effective_min_isr`] with the broker-level values looked
/// up by `broker_min_isr` (lets a caller index the nodes once): `None` for an
/// id that is not a node, `Some(None)` for a node whose value is unknown.
pub fn effective_min_isr_with(
    topics: &BTreeMap<String, TopicSettings>,
    p: &PartitionSnapshot,
    broker_min_isr: impl Fn(NodeId) -> Option<Option<u32>>,
) -> Option<u32> {
    let settings = topics.get(&p.tp.topic)?;
    if let Some(m) = settings.min_insync_replicas {
        return Some(m);
    }
    let mut highest: Option<u32> = None;
    for r in p.all_replicas() {
        match broker_min_isr(r) {
            // Not a node: cannot lead.
            None => {}
            // A replica whose value is unknown: so is the partition's.
            Some(None) => return None,
            Some(Some(m)) => highest = Some(highest.map_or(m, |h| h.max(m))),
        }
    }
    highest
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
        assert_eq!(ObservedState::from_broker_state(4), ObservedState::Serving);
        assert_eq!(
            ObservedState::from_broker_state(127),
            ObservedState::NotReady
        );
    }

    #[test]
    fn shutting_down_broker_states_are_not_serving() {
        // PENDING_CONTROLLED_SHUTDOWN and SHUTTING_DOWN: the process is going
        // away, the restart has not happened yet.
        assert_eq!(ObservedState::from_broker_state(6), ObservedState::NotReady);
        assert_eq!(ObservedState::from_broker_state(7), ObservedState::NotReady);
    }

    fn with_min_isr(id: i32, value: Option<&str>) -> NodeSnapshot {
        NodeSnapshot {
            id: NodeId(id),
            roles: NodeRoles::BROKER,
            state: ObservedState::Serving,
            reachable: true,
            rack: None,
            config: value
                .map(|v| {
                    (
                        MIN_ISR_KEY.to_string(),
                        ConfigEntry {
                            value: Some(v.to_string()),
                            read_only: false,
                            sensitive: false,
                        },
                    )
                })
                .into_iter()
                .collect(),
            incarnation: None,
        }
    }

    #[test]
    fn effective_min_isr_is_the_override_else_the_highest_replica_value() {
        let p = PartitionSnapshot {
            tp: TopicPartition {
                topic: "t".into(),
                partition: 0,
            },
            replicas: vec![NodeId(1), NodeId(2), NodeId(3)],
            isr: vec![NodeId(1), NodeId(2), NodeId(3)],
            leader: Some(NodeId(1)),
            adding: vec![],
            removing: vec![],
        };
        let mut s = ClusterSnapshot {
            nodes: vec![
                with_min_isr(1, Some("1")),
                with_min_isr(2, Some("2")),
                with_min_isr(3, Some("1")),
            ],
            partitions: vec![p.clone()],
            ..ClusterSnapshot::default()
        };
        // Unknown topic: unknown.
        assert_eq!(s.effective_min_isr(&p), None);
        s.topics.insert(
            "t".into(),
            TopicSettings {
                min_insync_replicas: None,
            },
        );
        assert_eq!(s.effective_min_isr(&p), Some(2));
        // A replica id that is not a node (nothing knows a broker 9) cannot lead: not asked.
        let mut ghost = p.clone();
        ghost.replicas.push(NodeId(9));
        assert_eq!(s.effective_min_isr(&ghost), Some(2));
        s.topics.get_mut("t").unwrap().min_insync_replicas = Some(1);
        assert_eq!(s.effective_min_isr(&p), Some(1));
        // No override and no replica reports a value: unknown.
        s.topics.get_mut("t").unwrap().min_insync_replicas = None;
        for n in &mut s.nodes {
            n.config.clear();
        }
        assert_eq!(s.effective_min_isr(&p), None);
    }

    /// Issue 23, point 5: no topic override, the leader's value cannot be read
    /// (it is 3), the others say 2. The highest known value (2) let a roll take
    /// the ISR to 2; while any replica's value is unknown, so is the
    /// partition's effective min ISR.
    #[test]
    fn unknown_broker_min_isr_of_any_replica_makes_the_partition_min_isr_unknown() {
        let p = PartitionSnapshot {
            tp: TopicPartition {
                topic: "t".into(),
                partition: 0,
            },
            replicas: vec![NodeId(1), NodeId(2), NodeId(3)],
            isr: vec![NodeId(1), NodeId(2), NodeId(3)],
            leader: Some(NodeId(1)),
            adding: vec![],
            removing: vec![],
        };
        let mut s = ClusterSnapshot {
            nodes: vec![
                with_min_isr(1, None),
                with_min_isr(2, Some("2")),
                with_min_isr(3, Some("2")),
            ],
            partitions: vec![p.clone()],
            topics: [(
                "t".to_string(),
                TopicSettings {
                    min_insync_replicas: None,
                },
            )]
            .into(),
            quorum: None,
        };
        assert_eq!(s.effective_min_isr(&p), None);
        // An adding replica counts too: it may lead once in sync.
        s.nodes[0] = with_min_isr(1, Some("2"));
        assert_eq!(s.effective_min_isr(&p), Some(2));
        let mut moving = p.clone();
        moving.adding = vec![NodeId(4)];
        s.nodes.push(with_min_isr(4, None));
        assert_eq!(s.effective_min_isr(&moving), None);
        // A topic override does not depend on the brokers.
        s.topics.get_mut("t").unwrap().min_insync_replicas = Some(2);
        assert_eq!(s.effective_min_isr(&moving), Some(2));
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
                incarnation: Some("uid-1".into()),
            }],
            partitions: vec![],
            topics: BTreeMap::new(),
            quorum: Some(QuorumSnapshot {
                leader: Some(NodeId(0)),
                voters: vec![VoterState {
                    id: NodeId(0),
                    last_caught_up_ms: Some(5),
                    last_fetch_ms: Some(6),
                }],
                observers: vec![VoterState {
                    id: NodeId(3),
                    last_caught_up_ms: None,
                    last_fetch_ms: None,
                }],
            }),
        };
        let json = serde_json::to_string(&s).unwrap();
        let back: ClusterSnapshot = serde_json::from_str(&json).unwrap();
        assert_eq!(s, back);
    }
}
