//! What the adapter saw of a cluster, as plain data, and how the raw answers are put together.
//!
//! The roller decides on these values only, so they say where each fact came from when
//! that matters for a safety check (broker state measured or inferred, the quorum fetch
//! timeout read from the active controller or from a broker, roles read from `process.roles`
//! or inferred). Assembling them from the raw answers ([`assemble()`]) is pure so role,
//! fencing, offline-replica, broker-state inference and the merge of several brokers'
//! partition metadata are unit-tested without a cluster.
//!
//! Fail-safe rules kept here:
//! - partition metadata is read from a few brokers whose metadata log had reached the
//!   quorum's high watermark when the quorum was described (a broker behind is not read: it
//!   may still list a replica that left the ISR; with none caught up the observation fails);
//!   per partition the ISR is the intersection of
//!   the views read (the views come from `KafkaClient::observe`, this module merges them);
//! - a topic's `min.insync.replicas` override is only a topic-level value (config source
//!   DYNAMIC_TOPIC_CONFIG); broker-level values stay in each broker's config; a topic whose
//!   configs could not be read is marked unknown and the engine refuses to touch it;
//! - roles come from each node's `process.roles`; when that cannot be read the old inference
//!   (voters are controllers, registered brokers and replica holders are brokers) is used and
//!   the node says so ([`RolesSource::Inferred`]);
//! - replica ids of nodes neither Kafka (registration, quorum) nor the caller knows are not
//!   nodes ([`KafkaObservation::unknown_replica_ids`]): nothing could restart them.
//!
//! Layout: this module holds the observation's types; [`raw`] the raw answers it is made of,
//! [`merge`] the merge of several brokers' partition metadata (the ISR intersection),
//! [`mod@assemble`] the pure assembly, [`nodes`] which ids are nodes and what each is, [`process`]
//! the platform's word on the processes Kafka cannot vouch for.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::engine::view::{ConfigEntry, Reassignment};

pub mod assemble;
#[cfg(test)]
mod fixtures;
pub mod merge;
pub mod nodes;
pub mod process;
pub mod raw;

pub use assemble::{AssembleError, assemble};
pub use process::{apply_process_status, process_status_wanted};
pub use raw::{RaftEndpoint, RawObservation, RawQuorum};

/// Default of `controller.quorum.fetch.timeout.ms` (Kafka 3.x and 4.x).
pub const DEFAULT_QUORUM_FETCH_TIMEOUT_MS: i64 = 2000;

/// A whole-cluster observation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KafkaObservation {
    pub cluster_id: Option<String>,
    /// Every node seen, by id.
    pub nodes: Vec<NodeObservation>,
    pub topics: Vec<TopicObservation>,
    /// Broker configs per broker id, of the unfenced brokers that answered DescribeConfigs in
    /// this observation or whose earlier answer is kept while the quorum vouches that they run
    /// (`kafka::client::vouched_alive`: caught up and fetching now). Fenced brokers and
    /// brokers that did not answer are absent: a broker here is taken as reachable. Reading
    /// only the configs a decision needs (`BrokerConfigReads::Needed`), brokers not asked are
    /// absent too ([`Self::answers`] tells whether a broker is reachable).
    pub broker_configs: BTreeMap<i32, Vec<ConfigEntry>>,
    /// Registered brokers that did not answer DescribeConfigs, with the error.
    pub unreachable_brokers: BTreeMap<i32, String>,
    /// Brokers the quorum vouched run at this observation (caught up and fetching now). When
    /// only the configs a decision needs were read (`BrokerConfigReads::Needed`), a listed
    /// broker that was not asked is reachable on this word ([`Self::answers`]).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub vouched_alive: BTreeSet<i32>,
    pub quorum: QuorumObservation,
    /// Partition reassignments in progress.
    pub reassignments: Vec<Reassignment>,
    /// How `NodeObservation::broker_state` was obtained.
    pub broker_state_source: BrokerStateSource,
    /// How `NodeObservation::fenced` was obtained.
    pub fencing_source: FencingSource,
    /// Brokers whose partition metadata was merged into `topics` (the first one answered
    /// the topic listing).
    #[serde(default)]
    pub metadata_from: Vec<i32>,
    /// Replica ids that no registration, quorum member or known node explains (e.g. a
    /// decommissioned broker still in an assignment): not nodes, never restarted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown_replica_ids: Vec<i32>,
}

/// Where fencing comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FencingSource {
    /// Kafka >= 4.0 lists registered brokers with their fencing state (DescribeCluster v2).
    Reported,
    /// Older Kafka lists only unfenced brokers: a broker known otherwise (replicas, quorum
    /// observers, the platform's node list) but not listed is taken as fenced.
    InferredFromAbsence,
}

impl KafkaObservation {
    /// Whether broker `id` is taken as reachable: it answered DescribeConfigs in this
    /// observation (or its earlier answer is kept while the quorum vouches for it), or it was
    /// not asked and the quorum vouches that it runs. Reading every broker's configs, every
    /// vouched broker either has configs or failed its ask, so this is "has configs".
    #[must_use]
    pub fn answers(&self, id: i32) -> bool {
        self.broker_configs.contains_key(&id)
            || (self.vouched_alive.contains(&id) && !self.unreachable_brokers.contains_key(&id))
    }

    #[must_use]
    pub fn node(&self, id: i32) -> Option<&NodeObservation> {
        self.nodes.iter().find(|n| n.id == id)
    }

    #[must_use]
    pub fn topic(&self, name: &str) -> Option<&TopicObservation> {
        self.topics.iter().find(|t| t.name == name)
    }
}

/// Roles of a node: its `process.roles`, or inferred (see [`RolesSource`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Roles {
    /// `controller` in `process.roles` (inferred: a quorum voter).
    pub controller: bool,
    /// `broker` in `process.roles` (inferred: a registered broker, a replica holder or a
    /// non-voting quorum observer).
    pub broker: bool,
}

impl Roles {
    /// Parses a `process.roles` value (`broker`, `controller`, `broker,controller`).
    #[must_use]
    pub fn parse(process_roles: &str) -> Option<Roles> {
        let mut roles = Roles::default();
        for part in process_roles.split(',').map(str::trim) {
            match part {
                "broker" => roles.broker = true,
                "controller" => roles.controller = true,
                "" => {}
                _ => return None,
            }
        }
        (roles.broker || roles.controller).then_some(roles)
    }
}

/// Where a node's roles come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "reason")]
pub enum RolesSource {
    /// The node's own `process.roles` (DescribeConfigs of the node: brokers via the
    /// brokers, controllers via `bootstrap.controllers`).
    ProcessRoles,
    /// `process.roles` could not be read (the reason says why): voters are taken as
    /// controllers, registered brokers, replica holders and non-voting observers as
    /// brokers. A controller that is a quorum observer (KIP-853) then looks like a broker.
    Inferred(String),
    /// Not asked (only the configs a decision needs were read) and told by the
    /// registrations: a registered broker that no controller registration lists (every
    /// controller is listed with `bootstrap.controllers`, KIP-919, and asked its own
    /// `process.roles`) runs `process.roles=broker`.
    Registrations,
}

impl RolesSource {
    #[must_use]
    pub fn is_inferred(&self) -> bool {
        matches!(self, RolesSource::Inferred(_))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeObservation {
    pub id: i32,
    /// Advertised host, when known (brokers: DescribeCluster; controllers: DescribeQuorum v2).
    pub host: Option<String>,
    pub port: Option<u16>,
    pub rack: Option<String>,
    pub roles: Roles,
    /// Where `roles` comes from.
    pub roles_source: RolesSource,
    /// Brokers: not registered as unfenced. `None` for controller-only nodes.
    pub fenced: Option<bool>,
    /// Brokers: every partition replica on it is in its ISR. `None` for controller-only nodes.
    pub in_sync: Option<bool>,
    /// Brokers: the broker state (see [`KafkaObservation::broker_state_source`]).
    pub broker_state: Option<BrokerState>,
    /// Brokers with an endpoint: log recovery progress while in RECOVERY.
    pub recovery: Option<RecoveryProgress>,
    /// Why the endpoint could not be read, if it could not.
    pub broker_state_error: Option<String>,
    /// Whether the platform (status command or TCP probe) says the node's process runs;
    /// `None` when it was not asked (see [`apply_process_status`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_running: Option<bool>,
    /// Why the platform could not tell, if it could not: the process's state is unknown, never
    /// taken as running (a fenced broker is `UNKNOWN`, not restarted first; a controller-only
    /// node is `UNKNOWN` and no caught-up voter; see `kafka::convert`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_status_error: Option<String>,
}

/// Kafka's `BrokerState` (metadata/BrokerState.java); the numbers are Kafka's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BrokerState {
    NotRunning,
    Starting,
    Recovery,
    Running,
    PendingControlledShutdown,
    ShuttingDown,
    Unknown,
}

impl BrokerState {
    #[must_use]
    pub fn from_code(code: i64) -> Self {
        match code {
            0 => BrokerState::NotRunning,
            1 => BrokerState::Starting,
            2 => BrokerState::Recovery,
            3 => BrokerState::Running,
            6 => BrokerState::PendingControlledShutdown,
            7 => BrokerState::ShuttingDown,
            _ => BrokerState::Unknown,
        }
    }

    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            BrokerState::NotRunning => 0,
            BrokerState::Starting => 1,
            BrokerState::Recovery => 2,
            BrokerState::Running => 3,
            BrokerState::PendingControlledShutdown => 6,
            BrokerState::ShuttingDown => 7,
            BrokerState::Unknown => 127,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryProgress {
    pub remaining_logs: i64,
    pub remaining_segments: i64,
}

/// Where broker states come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum BrokerStateSource {
    /// Read from each broker's broker-state endpoint (e.g. Strimzi's KafkaAgent).
    Endpoint { url_template: String },
    /// No endpoint configured: an unfenced broker is RUNNING; a fenced one is NOT_RUNNING
    /// when the platform says its process does not run, else UNKNOWN (it may be STARTING
    /// or in log RECOVERY: fencing cannot tell); `in_sync` says whether its replicas are
    /// back in the ISR.
    InferredFromFencing,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicObservation {
    pub name: String,
    pub internal: bool,
    /// Topic-level `min.insync.replicas` override (config source DYNAMIC_TOPIC_CONFIG);
    /// `None` = no override (each broker's own value applies) or configs unknown.
    pub min_insync_replicas: Option<i32>,
    /// `false` when the topic's configs could not be read: its min ISR is unknown.
    pub configs_read: bool,
    pub partitions: Vec<PartitionObservation>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionObservation {
    pub partition: i32,
    pub leader: Option<i32>,
    /// In preference order: `replicas[0]` is the preferred leader.
    pub replicas: Vec<i32>,
    pub isr: Vec<i32>,
    /// Replicas on brokers that are not registered and unfenced.
    pub offline_replicas: Vec<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuorumObservation {
    /// The active controller; `None` while there is no leader.
    pub leader_id: Option<i32>,
    pub leader_epoch: i32,
    pub high_watermark: i64,
    pub voters: Vec<ReplicaObservation>,
    pub observers: Vec<ReplicaObservation>,
    /// `controller.quorum.fetch.timeout.ms`, for the "caught up" rule.
    pub fetch_timeout_ms: i64,
    pub fetch_timeout_source: FetchTimeoutSource,
    /// Which address answered DescribeQuorum.
    pub answered_by: String,
}

/// Where the quorum fetch timeout was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "node")]
pub enum FetchTimeoutSource {
    /// From the active controller's own config (the value that governs the quorum).
    ActiveController(i32),
    /// From a broker's config: the active controller was not reachable for DescribeConfigs
    /// (split mode without `bootstrap.controllers`).
    Broker(i32),
}

/// One quorum member as the leader sees it (DescribeQuorum v1+ timestamps, leader clock).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicaObservation {
    pub id: i32,
    /// `-1` when the leader does not know it.
    pub log_end_offset: i64,
    /// `None` when unknown (-1). For the leader itself Kafka reports its current time.
    #[serde(rename = "last_fetch_at_ms", alias = "last_fetch_timestamp")]
    pub last_fetch_timestamp: Option<i64>,
    #[serde(rename = "last_caught_up_at_ms", alias = "last_caught_up_timestamp")]
    pub last_caught_up_timestamp: Option<i64>,
    /// The member's metadata log directory id (KIP-853, DescribeQuorum v2), in Kafka's text
    /// form (URL-safe base64 without padding, as `meta.properties` and
    /// `kafka-metadata-quorum` show it); `None` before v2 or when Kafka reports the zero id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directory_id: Option<String>,
}

/// A broker-state endpoint answer for one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointState {
    pub state: BrokerState,
    pub recovery: Option<RecoveryProgress>,
}

/// Each broker's endpoint answer, or why there is none.
pub type EndpointStates = BTreeMap<i32, Result<EndpointState, String>>;

/// Controller id -> (host, port) of its listener.
pub type ControllerAddresses = BTreeMap<i32, (String, u16)>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn process_roles_values() {
        assert_eq!(
            Roles::parse("broker,controller"),
            Some(Roles {
                controller: true,
                broker: true
            })
        );
        assert_eq!(
            Roles::parse(" controller "),
            Some(Roles {
                controller: true,
                broker: false
            })
        );
        assert_eq!(Roles::parse(""), None);
        assert_eq!(Roles::parse("zookeeper"), None);
    }

    #[test]
    fn broker_state_codes_round_trip() {
        for code in [0, 1, 2, 3, 6, 7, 127] {
            assert_eq!(i64::from(BrokerState::from_code(code).code()), code);
        }
        assert_eq!(BrokerState::from_code(42), BrokerState::Unknown);
    }
}
