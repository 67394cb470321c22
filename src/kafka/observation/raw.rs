//! The raw answers an observation is assembled from: what the client's fan-out read, before
//! any rule is applied (see [`super::assemble()`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{ControllerAddresses, EndpointStates, ReplicaObservation};
use crate::engine::view::{ConfigEntry, Reassignment};
use crate::kafka::ffi::{ClusterDescription, TopicDescription};

/// The raw answers [`assemble`](super::assemble()) combines.
#[derive(Debug, Clone)]
pub struct RawObservation {
    pub cluster: ClusterDescription,
    /// Registered but fenced brokers (DescribeCluster v2); `None` before Kafka 4.0.
    pub fenced_brokers: Option<Vec<crate::kafka::ffi::NodeAddress>>,
    /// Each answering broker's partition metadata, by broker id; the first is the broker
    /// that answered the topic listing.
    pub topic_views: Vec<(i32, Vec<TopicDescription>)>,
    /// Per topic whose configs were read: its topic-level `min.insync.replicas` override
    /// (`None`: no override). A topic missing here could not be read.
    pub topic_min_isr: BTreeMap<String, Option<i32>>,
    /// Controllers' `process.roles` as read via `bootstrap.controllers` (or why not).
    pub controller_roles: BTreeMap<i32, Result<String, String>>,
    pub broker_configs: BTreeMap<i32, Vec<ConfigEntry>>,
    pub unreachable_brokers: BTreeMap<i32, String>,
    /// The brokers the quorum vouches run now (`kafka::client::vouched_alive`): a listed one
    /// that was not asked its configs (`BrokerConfigReads::Needed`) and did not fail an ask
    /// is taken as reachable on this word.
    pub vouched_alive: BTreeSet<i32>,
    /// Every controller is listed in `controller_addresses` (`bootstrap.controllers`:
    /// DescribeCluster on a controller lists each registered controller, KIP-919), so a
    /// registered broker that is not among them runs `process.roles=broker`.
    pub controllers_listed: bool,
    /// Quorum without the fetch timeout (filled by `assemble`).
    pub quorum: RawQuorum,
    /// Controller listeners (DescribeQuorum v2 nodes or DescribeCluster on controllers).
    pub controller_addresses: ControllerAddresses,
    /// The active controller's `controller.quorum.fetch.timeout.ms`, if it could be read.
    pub leader_fetch_timeout_ms: Option<i64>,
    pub reassignments: Vec<Reassignment>,
    /// Node ids known from elsewhere (e.g. the platform's node list).
    pub extra_broker_ids: Vec<i32>,
    /// `None`: no endpoint configured; else the template and each broker's answer.
    pub endpoint_states: Option<(String, EndpointStates)>,
}

/// DescribeQuorum's answer, whole (see [`crate::kafka::kraft`] for the RPC notes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawQuorum {
    pub leader_id: Option<i32>,
    pub leader_epoch: i32,
    /// `-1` while the leader has not established it in its epoch.
    pub high_watermark: i64,
    pub voters: Vec<ReplicaObservation>,
    /// Brokers, and controllers that are not voters (KIP-853).
    pub observers: Vec<ReplicaObservation>,
    pub answered_by: String,
    /// Each voter's listeners (DescribeQuorum v2 `Nodes`; observers are not listed there).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub voter_endpoints: BTreeMap<i32, Vec<RaftEndpoint>>,
    /// The DescribeQuorum version the answer came in (v2 has directory ids and endpoints).
    #[serde(default)]
    pub version: i16,
}

/// One listener of a controller: what AddRaftVoter carries and DescribeQuorum v2 reports.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RaftEndpoint {
    /// The listener name (`CONTROLLER`).
    pub name: String,
    pub host: String,
    pub port: u16,
}
