//! What the adapter saw of a cluster, as plain data, and how the raw answers are put together.
//!
//! The roller decides on these values only, so they say where each fact came from when
//! that matters for a safety check (broker state measured or inferred, the quorum fetch
//! timeout read from the active controller or from a broker, roles read from `process.roles`
//! or inferred). Assembling them from the raw answers ([`assemble`]) is pure so role,
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

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::ffi::{ClusterDescription, TopicDescription};
use crate::engine::view::{ConfigEntry, Reassignment};

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
    /// brokers that did not answer are absent: a broker here is taken as reachable.
    pub broker_configs: BTreeMap<i32, Vec<ConfigEntry>>,
    /// Registered brokers that did not answer DescribeConfigs, with the error.
    pub unreachable_brokers: BTreeMap<i32, String>,
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

/// The raw answers [`assemble`] combines.
#[derive(Debug, Clone)]
pub struct RawObservation {
    pub cluster: ClusterDescription,
    /// Registered but fenced brokers (DescribeCluster v2); `None` before Kafka 4.0.
    pub fenced_brokers: Option<Vec<super::ffi::NodeAddress>>,
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

/// DescribeQuorum's answer, whole (see [`super::kraft`] for the RPC notes).
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

/// Why an observation could not be assembled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AssembleError {
    #[error(
        "cannot read controller.quorum.fetch.timeout.ms: the active controller {leader:?} is not \
         reachable and no broker config was readable; configure bootstrap.controllers"
    )]
    NoFetchTimeout { leader: Option<i32> },
    /// The broker listing and the partition metadata disagree: a broker leads partitions in
    /// one answer but is not registered in the other. Kafka never lists a leader that is not
    /// registered (a fenced broker loses its leaderships), so one of the answers is out of
    /// date; deciding on it would count a serving broker as gone. Observing again resolves it.
    #[error(
        "the cluster's answers disagree: broker {broker} leads {partitions} partition(s) in the \
         metadata of broker {view_from}, but the broker listing does not include it; observing again"
    )]
    ListingOutOfDate {
        broker: i32,
        partitions: usize,
        view_from: i32,
    },
}

fn config_i64(entries: &[ConfigEntry], name: &str) -> Option<i64> {
    entries
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| e.value.as_deref())
        .and_then(|v| v.trim().parse().ok())
}

/// Refuses an observation whose broker listing misses a broker that leads partitions in the
/// first topic view (the one whose leaders the merge keeps): see
/// [`AssembleError::ListingOutOfDate`].
fn listing_covers_leaders(
    raw: &RawObservation,
    unfenced: &BTreeSet<i32>,
) -> Result<(), AssembleError> {
    let Some((view_from, view)) = raw.topic_views.first() else {
        return Ok(());
    };
    let registered =
        |id: i32| unfenced.contains(&id) || raw.fenced_brokers.iter().flatten().any(|n| n.id == id);
    let mut missing: BTreeMap<i32, usize> = BTreeMap::new();
    for leader in view
        .iter()
        .flat_map(|t| &t.partitions)
        .filter_map(|p| p.leader)
        .filter(|l| *l >= 0 && !registered(*l))
    {
        *missing.entry(leader).or_default() += 1;
    }
    match missing.into_iter().next() {
        Some((broker, partitions)) => Err(AssembleError::ListingOutOfDate {
            broker,
            partitions,
            view_from: *view_from,
        }),
        None => Ok(()),
    }
}

/// Merges the partition metadata of several brokers: per partition the ISR is the
/// intersection of the views, replicas the first view's (plus any another view adds), the
/// leader the first view's. Disagreements are logged at debug level. The first view is moved,
/// not copied (one view, as `operate`'s loop reads, is the merge).
fn merge_views(views: Vec<(i32, Vec<TopicDescription>)>) -> Vec<TopicDescription> {
    let mut views = views.into_iter();
    let Some((_, mut merged)) = views.next() else {
        return Vec::new();
    };
    let mut rest = views.peekable();
    if rest.peek().is_some() {
        // Indexes into `merged`: topic name -> position, (topic position, partition) -> position.
        let mut topic_at: std::collections::HashMap<String, usize> =
            std::collections::HashMap::new();
        let mut partition_at: std::collections::HashMap<(usize, i32), usize> =
            std::collections::HashMap::new();
        for (ti, t) in merged.iter().enumerate() {
            topic_at.entry(t.name.clone()).or_insert(ti);
            for (pi, p) in t.partitions.iter().enumerate() {
                partition_at.entry((ti, p.partition)).or_insert(pi);
            }
        }
        for (broker, view) in rest {
            for t in view {
                merge_topic(&mut merged, &mut topic_at, &mut partition_at, broker, t);
            }
        }
    }
    for t in &mut merged {
        t.partitions.sort_by_key(|p| p.partition);
    }
    merged
}

/// Merges one broker's view of topic `t` into `merged` (see [`merge_views`]).
fn merge_topic(
    merged: &mut Vec<TopicDescription>,
    topic_at: &mut std::collections::HashMap<String, usize>,
    partition_at: &mut std::collections::HashMap<(usize, i32), usize>,
    broker: i32,
    t: TopicDescription,
) {
    let Some(&ti) = topic_at.get(&t.name) else {
        let ti = merged.len();
        topic_at.insert(t.name.clone(), ti);
        for (pi, p) in t.partitions.iter().enumerate() {
            partition_at.entry((ti, p.partition)).or_insert(pi);
        }
        merged.push(t);
        return;
    };
    let into = &mut merged[ti];
    for p in t.partitions {
        let Some(&pi) = partition_at.get(&(ti, p.partition)) else {
            partition_at.insert((ti, p.partition), into.partitions.len());
            into.partitions.push(p);
            continue;
        };
        let q = &mut into.partitions[pi];
        if q.isr.iter().collect::<BTreeSet<_>>() != p.isr.iter().collect::<BTreeSet<_>>()
            || q.leader != p.leader
            || q.replicas != p.replicas
        {
            tracing::debug!(
                "{}-{}: broker {broker} reports leader {:?}, replicas {:?}, ISR {:?}; \
                 merged so far: leader {:?}, replicas {:?}, ISR {:?} (keeping the \
                 intersection of the ISRs)",
                t.name,
                p.partition,
                p.leader,
                p.replicas,
                p.isr,
                q.leader,
                q.replicas,
                q.isr
            );
        }
        q.isr.retain(|r| p.isr.contains(r));
        for r in &p.replicas {
            if !q.replicas.contains(r) {
                q.replicas.push(*r);
            }
        }
    }
}

/// Puts the raw answers together (pure).
pub fn assemble(mut raw: RawObservation) -> Result<KafkaObservation, AssembleError> {
    let unfenced: BTreeSet<i32> = raw.cluster.nodes.iter().map(|n| n.id).collect();
    let voters: BTreeSet<i32> = raw.quorum.voters.iter().map(|v| v.id).collect();
    listing_covers_leaders(&raw, &unfenced)?;
    let metadata_from: Vec<i32> = raw.topic_views.iter().map(|(id, _)| *id).collect();
    let merged = merge_views(std::mem::take(&mut raw.topic_views));

    // Partitions: offline = replicas not on a registered, unfenced broker.
    let topics = topic_observations(merged, &raw, &unfenced);

    // Nodes: registered brokers (fenced or not), quorum voters and observers, controllers
    // that were found, ids known from elsewhere. Replica ids nothing else explains are not
    // nodes.
    let fenced_registered: Vec<super::ffi::NodeAddress> =
        raw.fenced_brokers.clone().unwrap_or_default();
    let observers: BTreeSet<i32> = raw
        .quorum
        .observers
        .iter()
        .map(|o| o.id)
        .filter(|id| !voters.contains(id))
        .collect();
    let mut known: BTreeSet<i32> = unfenced.clone();
    known.extend(fenced_registered.iter().map(|n| n.id));
    known.extend(voters.iter().copied());
    known.extend(observers.iter().copied());
    known.extend(raw.extra_broker_ids.iter().copied());
    known.extend(raw.controller_addresses.keys().copied());
    known.extend(raw.controller_roles.keys().copied());
    let replica_holders: BTreeSet<i32> = topics
        .iter()
        .flat_map(|t| &t.partitions)
        .flat_map(|p| p.replicas.iter().copied())
        .collect();
    let unknown_replica_ids: Vec<i32> = replica_holders.difference(&known).copied().collect();

    // Inferred broker role (the fallback): registered, replica holder, observer, known.
    let mut brokers: BTreeSet<i32> = unfenced.clone();
    brokers.extend(fenced_registered.iter().map(|n| n.id));
    brokers.extend(replica_holders.iter().copied());
    brokers.extend(observers.iter().copied());
    brokers.extend(raw.extra_broker_ids.iter().copied());

    // Replicas missing from their partition's ISR, in one pass (not one per node: at 1,000
    // brokers and 100,000 partitions that was 10^8 steps).
    let out_of_sync: BTreeSet<i32> = topics
        .iter()
        .flat_map(|t| &t.partitions)
        .flat_map(|p| p.replicas.iter().filter(|r| !p.isr.contains(r)))
        .copied()
        .collect();
    let nodes = known
        .into_iter()
        .map(|id| {
            let (roles, roles_source) = node_roles(&raw, id, &voters, &brokers);
            let registered = raw
                .cluster
                .nodes
                .iter()
                .chain(&fenced_registered)
                .find(|n| n.id == id);
            let (host, port, rack) = match (registered, raw.controller_addresses.get(&id)) {
                (Some(n), _) => (Some(n.host.clone()), Some(n.port), n.rack.clone()),
                (None, Some((h, p))) => (Some(h.clone()), Some(*p), None),
                (None, None) => (None, None, None),
            };
            let mut node = NodeObservation {
                id,
                host,
                port,
                rack,
                roles,
                roles_source,
                fenced: None,
                in_sync: None,
                broker_state: None,
                recovery: None,
                broker_state_error: None,
                process_running: None,
                process_status_error: None,
            };
            if roles.broker {
                broker_facts(&mut node, &raw, !unfenced.contains(&id), &out_of_sync);
            }
            node
        })
        .collect();

    let leader = raw.quorum.leader_id;
    let (fetch_timeout_ms, fetch_timeout_source) = fetch_timeout(&raw)?;

    Ok(KafkaObservation {
        cluster_id: raw.cluster.cluster_id,
        nodes,
        topics,
        broker_configs: raw.broker_configs,
        unreachable_brokers: raw.unreachable_brokers,
        quorum: QuorumObservation {
            leader_id: leader,
            leader_epoch: raw.quorum.leader_epoch,
            high_watermark: raw.quorum.high_watermark,
            voters: raw.quorum.voters,
            observers: raw.quorum.observers,
            fetch_timeout_ms,
            fetch_timeout_source,
            answered_by: raw.quorum.answered_by,
        },
        reassignments: raw.reassignments,
        fencing_source: if raw.fenced_brokers.is_some() {
            FencingSource::Reported
        } else {
            FencingSource::InferredFromAbsence
        },
        broker_state_source: match raw.endpoint_states {
            None => BrokerStateSource::InferredFromFencing,
            Some((url_template, _)) => BrokerStateSource::Endpoint { url_template },
        },
        metadata_from,
        unknown_replica_ids,
    })
}

/// Each topic with its partitions as observed; a replica is offline when it is not on a
/// registered, unfenced broker.
fn topic_observations(
    merged: Vec<TopicDescription>,
    raw: &RawObservation,
    unfenced: &BTreeSet<i32>,
) -> Vec<TopicObservation> {
    merged
        .into_iter()
        .map(|t| TopicObservation {
            min_insync_replicas: raw.topic_min_isr.get(&t.name).copied().flatten(),
            configs_read: raw.topic_min_isr.contains_key(&t.name),
            internal: t.internal,
            partitions: t
                .partitions
                .into_iter()
                .map(|p| PartitionObservation {
                    partition: p.partition,
                    leader: p.leader,
                    offline_replicas: p
                        .replicas
                        .iter()
                        .copied()
                        .filter(|r| !unfenced.contains(r))
                        .collect(),
                    replicas: p.replicas,
                    isr: p.isr,
                })
                .collect(),
            name: t.name,
        })
        .collect()
}

/// A broker's facts on `node`: fenced, in sync everywhere it is a replica, and its state (from
/// the broker-state endpoint when one is configured, else inferred from fencing).
fn broker_facts(
    node: &mut NodeObservation,
    raw: &RawObservation,
    fenced: bool,
    out_of_sync: &BTreeSet<i32>,
) {
    let id = node.id;
    node.fenced = Some(fenced);
    node.in_sync = Some(!out_of_sync.contains(&id));
    match &raw.endpoint_states {
        None => {
            node.broker_state = Some(if fenced {
                BrokerState::NotRunning
            } else {
                BrokerState::Running
            });
        }
        Some((_, states)) => match states.get(&id) {
            Some(Ok(s)) => {
                node.broker_state = Some(s.state);
                node.recovery = s.recovery;
            }
            Some(Err(e)) => {
                node.broker_state = Some(BrokerState::Unknown);
                node.broker_state_error = Some(e.clone());
            }
            None => {
                node.broker_state = Some(BrokerState::Unknown);
                node.broker_state_error = Some("no address known for this broker".into());
            }
        },
    }
}

/// The quorum's fetch timeout: the active controller's, else a broker's (said so), else an
/// error (the quorum check cannot judge without it).
fn fetch_timeout(raw: &RawObservation) -> Result<(i64, FetchTimeoutSource), AssembleError> {
    let leader = raw.quorum.leader_id;
    match (raw.leader_fetch_timeout_ms, leader) {
        (Some(v), Some(l)) => Ok((v, FetchTimeoutSource::ActiveController(l))),
        _ => {
            let from_leader_broker = leader
                .and_then(|l| raw.broker_configs.get(&l).map(|c| (l, c)))
                .and_then(|(l, c)| {
                    config_i64(c, "controller.quorum.fetch.timeout.ms")
                        .map(|v| (v, FetchTimeoutSource::ActiveController(l)))
                });
            let from_any_broker = || {
                raw.broker_configs.iter().find_map(|(id, c)| {
                    config_i64(c, "controller.quorum.fetch.timeout.ms")
                        .map(|v| (v, FetchTimeoutSource::Broker(*id)))
                })
            };
            from_leader_broker
                .or_else(from_any_broker)
                .ok_or(AssembleError::NoFetchTimeout { leader })
        }
    }
}

/// A node's roles: its `process.roles` when readable, else inferred (and why).
fn node_roles(
    raw: &RawObservation,
    id: i32,
    voters: &BTreeSet<i32>,
    brokers: &BTreeSet<i32>,
) -> (Roles, RolesSource) {
    let from_broker = raw.broker_configs.get(&id).and_then(|c| {
        c.iter()
            .find(|e| e.name == "process.roles")
            .and_then(|e| e.value.as_deref())
    });
    let from_controller = match raw.controller_roles.get(&id) {
        Some(Ok(v)) => Some(Ok(v.as_str())),
        Some(Err(e)) => Some(Err(e.as_str())),
        None => None,
    };
    let reason = match (from_broker, from_controller) {
        (Some(v), _) | (None, Some(Ok(v))) => match Roles::parse(v) {
            Some(r) => return (r, RolesSource::ProcessRoles),
            None => format!("process.roles is {v:?}"),
        },
        (None, Some(Err(e))) => format!("process.roles not readable: {e}"),
        (None, None) => {
            if raw.unreachable_brokers.contains_key(&id) {
                "process.roles not readable: the broker did not answer DescribeConfigs".into()
            } else if voters.contains(&id) || !brokers.contains(&id) {
                "process.roles not readable: controllers are asked only via \
                 bootstrap.controllers"
                    .into()
            } else {
                "process.roles not readable: the broker is not registered and unfenced".into()
            }
        }
    };
    (
        Roles {
            controller: voters.contains(&id),
            broker: brokers.contains(&id),
        },
        RolesSource::Inferred(reason),
    )
}

/// The nodes whose process the platform is asked about ([`apply_process_status`]): those the
/// roll's rules need to know alive and that Kafka cannot vouch for, and no others (at 1,000
/// brokers a poll asks a handful, not 1,000).
///
/// - Controller-only nodes, always: Kafka does not fence controllers, and a stopped voter keeps
///   a fresh `LastCaughtUpTimestamp` for the whole fetch timeout (its vote is counted by the
///   quorum rule only while its process runs).
/// - Fenced brokers: stopped, or alive and starting / in log recovery.
/// - Brokers Kafka lists unfenced that did not answer (no DescribeConfigs answer, or their
///   broker-state endpoint failed): crashed and not fenced yet, or alive and unreachable.
///
/// A broker with configs in the observation runs (it answered DescribeConfigs now, or the
/// quorum vouched that it is fetching now); asking about it would tell nothing new.
#[must_use]
pub fn process_status_wanted(o: &KafkaObservation) -> Vec<i32> {
    o.nodes
        .iter()
        .filter(|n| {
            if !n.roles.broker {
                return n.roles.controller;
            }
            n.fenced != Some(false)
                || !o.broker_configs.contains_key(&n.id)
                || o.unreachable_brokers.contains_key(&n.id)
                || n.broker_state_error.is_some()
        })
        .map(|n| n.id)
        .collect()
}

/// Adds the platform's view of each process (status command or TCP probe) to an
/// observation whose broker states were inferred from fencing: a fenced broker whose
/// process runs, or whose status cannot be told, becomes `UNKNOWN` (it may be starting or
/// in log recovery); a fenced broker whose process does not run stays `NOT_RUNNING`.
/// With a broker-state endpoint, only a fenced broker whose endpoint failed is affected.
pub fn apply_process_status(
    o: &mut KafkaObservation,
    running: &BTreeMap<i32, Result<bool, String>>,
) {
    let inferred = o.broker_state_source == BrokerStateSource::InferredFromFencing;
    for n in &mut o.nodes {
        let Some(status) = running.get(&n.id) else {
            continue;
        };
        match status {
            Ok(r) => n.process_running = Some(*r),
            Err(e) => {
                n.process_running = None;
                n.process_status_error = Some(e.clone());
            }
        }
        let alive_or_unknown = !matches!(status, Ok(false));
        let fenced = n.fenced == Some(true);
        if !n.roles.broker || !fenced {
            continue;
        }
        if inferred {
            n.broker_state = Some(if alive_or_unknown {
                BrokerState::Unknown
            } else {
                BrokerState::NotRunning
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::view::ConfigSource;
    use crate::kafka::ffi::{NodeAddress, PartitionDescription};

    fn node(id: i32) -> NodeAddress {
        NodeAddress {
            id,
            host: "127.0.0.1".into(),
            port: u16::try_from(9090 + id).unwrap(),
            rack: None,
        }
    }

    fn replica(id: i32, caught_up: i64) -> ReplicaObservation {
        ReplicaObservation {
            id,
            log_end_offset: 10,
            last_fetch_timestamp: Some(caught_up),
            last_caught_up_timestamp: Some(caught_up),
            directory_id: None,
        }
    }

    fn cfg(name: &str, value: &str) -> ConfigEntry {
        ConfigEntry {
            name: name.into(),
            value: Some(value.into()),
            read_only: true,
            source: ConfigSource::StaticBroker,
            sensitive: false,
        }
    }

    /// Split cluster: controllers 1-3, brokers 4-6, broker 6 down (fenced).
    fn raw() -> RawObservation {
        RawObservation {
            cluster: ClusterDescription {
                cluster_id: Some("c".into()),
                controller: Some(4),
                nodes: vec![node(4), node(5)],
            },
            fenced_brokers: None,
            topic_views: vec![(
                4,
                vec![TopicDescription {
                    name: "t".into(),
                    internal: false,
                    partitions: vec![
                        PartitionDescription {
                            partition: 0,
                            leader: Some(4),
                            replicas: vec![4, 5, 6],
                            isr: vec![4, 5],
                        },
                        PartitionDescription {
                            partition: 1,
                            leader: Some(5),
                            replicas: vec![5, 4],
                            isr: vec![5, 4],
                        },
                    ],
                }],
            )],
            topic_min_isr: BTreeMap::from([("t".to_string(), Some(2))]),
            controller_roles: BTreeMap::new(),
            broker_configs: BTreeMap::from([(
                5,
                vec![cfg("controller.quorum.fetch.timeout.ms", "3000")],
            )]),
            unreachable_brokers: BTreeMap::new(),
            quorum: RawQuorum {
                leader_id: Some(2),
                leader_epoch: 7,
                high_watermark: 100,
                voters: vec![replica(1, 1000), replica(2, 1000), replica(3, 900)],
                observers: vec![replica(4, 1000), replica(5, 1000)],
                answered_by: "127.0.0.1:9094".into(),
                voter_endpoints: BTreeMap::new(),
                version: 2,
            },
            controller_addresses: BTreeMap::from([(2, ("127.0.0.1".to_string(), 19092))]),
            leader_fetch_timeout_ms: None,
            reassignments: vec![],
            // Broker 6 is down; the platform (or an earlier observation) knows it.
            extra_broker_ids: vec![6],
            endpoint_states: None,
        }
    }

    /// CI saw a roll abort with "node 2 went from healthy to NotRunning" while broker 2 served
    /// and led partitions: the broker listing of one poll lacked it, so it looked like a fenced
    /// observer (no address, no state: NotRunning). A leader missing from the listing makes the
    /// observation fail (the roll observes again) instead of reaching the engine.
    #[test]
    fn a_leader_missing_from_the_broker_listing_fails_the_observation() {
        let mut r = raw();
        r.cluster.nodes.retain(|n| n.id != 5);
        match assemble(r) {
            Err(AssembleError::ListingOutOfDate {
                broker: 5,
                partitions: 1,
                view_from: 4,
            }) => {}
            other => panic!("{other:?}"),
        }
        // Listed as fenced (Kafka >= 4 lists fenced brokers): registered, a consistent answer.
        let mut r = raw();
        r.cluster.nodes.retain(|n| n.id != 5);
        r.fenced_brokers = Some(vec![node(5)]);
        let o = assemble(r).unwrap();
        assert_eq!(o.node(5).unwrap().fenced, Some(true));
        // A partition without a leader names nobody.
        let mut r = raw();
        r.topic_views[0].1[0].partitions[1].leader = None;
        r.cluster.nodes.retain(|n| n.id != 5);
        assert!(assemble(r).is_ok());
    }

    #[test]
    fn roles_fencing_offline_replicas_and_inferred_state() {
        let o = assemble(raw()).unwrap();
        let ids: Vec<i32> = o.nodes.iter().map(|n| n.id).collect();
        assert_eq!(ids, vec![1, 2, 3, 4, 5, 6]);
        let n2 = o.node(2).unwrap();
        assert!(n2.roles.controller && !n2.roles.broker);
        assert_eq!((n2.fenced, n2.broker_state), (None, None));
        assert_eq!(n2.port, Some(19092));
        let n6 = o.node(6).unwrap();
        assert!(n6.roles.broker && !n6.roles.controller);
        assert_eq!(n6.fenced, Some(true));
        assert_eq!(n6.in_sync, Some(false));
        assert_eq!(n6.broker_state, Some(BrokerState::NotRunning));
        let n4 = o.node(4).unwrap();
        assert_eq!(
            (n4.fenced, n4.in_sync, n4.broker_state),
            (Some(false), Some(true), Some(BrokerState::Running))
        );
        let t = o.topic("t").unwrap();
        assert_eq!(t.min_insync_replicas, Some(2));
        assert_eq!(t.partitions[0].offline_replicas, vec![6]);
        assert!(t.partitions[1].offline_replicas.is_empty());
        assert_eq!(
            o.broker_state_source,
            BrokerStateSource::InferredFromFencing
        );
    }

    /// (partition, leader, replicas, ISR)
    type Part<'a> = (i32, Option<i32>, &'a [i32], &'a [i32]);

    fn topic(name: &str, parts: &[Part<'_>]) -> TopicDescription {
        TopicDescription {
            name: name.into(),
            internal: false,
            partitions: parts
                .iter()
                .map(|(p, leader, replicas, isr)| PartitionDescription {
                    partition: *p,
                    leader: *leader,
                    replicas: replicas.to_vec(),
                    isr: isr.to_vec(),
                })
                .collect(),
        }
    }

    #[test]
    fn isr_is_the_intersection_of_every_brokers_view() {
        let mut r = raw();
        // Broker 5's metadata is stale for t-1 (still lists 4 in the ISR, 4 says it left)
        // and misses 5 in t-0's ISR; it also knows a topic broker 4 has not seen yet.
        r.topic_views = vec![
            (
                4,
                vec![topic(
                    "t",
                    &[
                        (0, Some(4), &[4, 5, 6], &[4, 5]),
                        (1, Some(5), &[5, 4], &[5]),
                    ],
                )],
            ),
            (
                5,
                vec![
                    topic(
                        "t",
                        &[
                            (0, Some(4), &[4, 5, 6], &[4]),
                            (1, Some(5), &[5, 4], &[5, 4]),
                        ],
                    ),
                    topic("new", &[(0, Some(5), &[5], &[5])]),
                ],
            ),
        ];
        let o = assemble(r).unwrap();
        let t = o.topic("t").unwrap();
        assert_eq!(t.partitions[0].isr, vec![4]);
        assert_eq!(t.partitions[1].isr, vec![5]);
        assert_eq!(t.partitions[0].replicas, vec![4, 5, 6]);
        assert_eq!(o.topic("new").unwrap().partitions[0].isr, vec![5]);
        assert_eq!(o.metadata_from, vec![4, 5]);
        assert_eq!(o.node(4).unwrap().in_sync, Some(false), "out of t-1's ISR");
    }

    #[test]
    fn topic_min_isr_is_an_override_or_unknown() {
        let mut r = raw();
        r.topic_views[0]
            .1
            .push(topic("no-override", &[(0, Some(4), &[4, 5], &[4, 5])]));
        r.topic_views[0]
            .1
            .push(topic("unreadable", &[(0, Some(4), &[4, 5], &[4, 5])]));
        r.topic_min_isr.insert("no-override".into(), None);
        let o = assemble(r).unwrap();
        let t = o.topic("t").unwrap();
        assert_eq!((t.min_insync_replicas, t.configs_read), (Some(2), true));
        let t = o.topic("no-override").unwrap();
        assert_eq!((t.min_insync_replicas, t.configs_read), (None, true));
        let t = o.topic("unreadable").unwrap();
        assert_eq!((t.min_insync_replicas, t.configs_read), (None, false));
    }

    #[test]
    fn replica_ids_nothing_else_knows_are_not_nodes() {
        let mut r = raw();
        r.extra_broker_ids.clear();
        let o = assemble(r).unwrap();
        assert!(o.node(6).is_none());
        assert_eq!(o.unknown_replica_ids, vec![6]);
        // Still an offline replica of t-0.
        assert_eq!(
            o.topic("t").unwrap().partitions[0].offline_replicas,
            vec![6]
        );
    }

    #[test]
    fn roles_come_from_process_roles_and_say_when_inferred() {
        let mut r = raw();
        // Controller 7 is a quorum observer (KIP-853): not a voter, still a controller.
        r.quorum.observers.push(replica(7, 1000));
        r.controller_roles = BTreeMap::from([
            (1, Ok("controller".to_string())),
            (2, Ok("controller".to_string())),
            (3, Err("connection refused".to_string())),
            (7, Ok("controller".to_string())),
        ]);
        r.broker_configs
            .insert(4, vec![cfg("process.roles", "broker")]);
        let o = assemble(r).unwrap();
        let n7 = o.node(7).unwrap();
        assert_eq!(
            (n7.roles, &n7.roles_source),
            (
                Roles {
                    controller: true,
                    broker: false
                },
                &RolesSource::ProcessRoles
            )
        );
        assert_eq!(n7.fenced, None, "not a broker");
        let n3 = o.node(3).unwrap();
        assert!(n3.roles.controller && !n3.roles.broker);
        match &n3.roles_source {
            RolesSource::Inferred(why) => assert!(why.contains("refused"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(o.node(4).unwrap().roles_source, RolesSource::ProcessRoles);
        // Broker 5 has a config but no process.roles entry; 6 did not answer at all.
        assert!(o.node(5).unwrap().roles_source.is_inferred());
        assert!(o.node(6).unwrap().roles.broker);
        // Without process.roles, an observer controller looks like a broker (said so).
        let mut r = raw();
        r.quorum.observers.push(replica(7, 1000));
        let o = assemble(r).unwrap();
        let n7 = o.node(7).unwrap();
        assert!(n7.roles.broker && !n7.roles.controller);
        assert!(n7.roles_source.is_inferred());
    }

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
    fn a_fenced_broker_whose_process_runs_is_unknown_not_stopped() {
        let mut o = assemble(raw()).unwrap();
        assert_eq!(
            o.node(6).unwrap().broker_state,
            Some(BrokerState::NotRunning)
        );
        apply_process_status(&mut o, &BTreeMap::from([(4, Ok(true)), (6, Ok(true))]));
        let n6 = o.node(6).unwrap();
        assert_eq!(
            (n6.broker_state, n6.process_running),
            (Some(BrokerState::Unknown), Some(true))
        );
        assert_eq!(o.node(4).unwrap().broker_state, Some(BrokerState::Running));
        let mut o = assemble(raw()).unwrap();
        apply_process_status(&mut o, &BTreeMap::from([(6, Ok(false))]));
        assert_eq!(
            o.node(6).unwrap().broker_state,
            Some(BrokerState::NotRunning)
        );
        let mut o = assemble(raw()).unwrap();
        apply_process_status(&mut o, &BTreeMap::from([(6, Err("no probe".to_string()))]));
        let n6 = o.node(6).unwrap();
        assert_eq!(n6.broker_state, Some(BrokerState::Unknown));
        assert_eq!(n6.process_status_error.as_deref(), Some("no probe"));
    }

    /// Issue 23 points 1 and 2 on a real cluster need the platform's word on exactly the nodes
    /// Kafka cannot vouch for: controller-only nodes always, fenced brokers, and brokers listed
    /// unfenced that did not answer; a broker that answered is not asked about.
    #[test]
    fn the_platform_is_asked_about_the_nodes_kafka_cannot_vouch_for() {
        // Controllers 1-3; broker 4 listed unfenced without a DescribeConfigs answer; 6 fenced.
        let o = assemble(raw()).unwrap();
        assert_eq!(process_status_wanted(&o), vec![1, 2, 3, 4, 6]);
        // 4 answers: not asked any more.
        let mut r = raw();
        r.broker_configs
            .insert(4, vec![cfg("process.roles", "broker")]);
        let o = assemble(r.clone()).unwrap();
        assert_eq!(process_status_wanted(&o), vec![1, 2, 3, 6]);
        // 5 answered DescribeConfigs but its broker-state endpoint failed: asked.
        r.endpoint_states = Some((
            "http://{host}/state".into(),
            BTreeMap::from([(5, Err("refused".to_string()))]),
        ));
        let o = assemble(r).unwrap();
        assert_eq!(process_status_wanted(&o), vec![1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn reported_fencing_adds_brokers_nothing_else_mentions() {
        let mut r = raw();
        let mut seven = node(7);
        seven.host = "k7".into();
        r.fenced_brokers = Some(vec![seven]);
        let o = assemble(r).unwrap();
        assert_eq!(o.fencing_source, FencingSource::Reported);
        let n7 = o.node(7).unwrap();
        assert_eq!((n7.fenced, n7.host.as_deref()), (Some(true), Some("k7")));
        assert!(n7.roles.broker);
        assert_eq!(
            assemble(raw()).unwrap().fencing_source,
            FencingSource::InferredFromAbsence
        );
    }

    #[test]
    fn fetch_timeout_prefers_the_active_controller_and_says_when_it_did_not() {
        let o = assemble(raw()).unwrap();
        assert_eq!(o.quorum.fetch_timeout_ms, 3000);
        assert_eq!(o.quorum.fetch_timeout_source, FetchTimeoutSource::Broker(5));
        let mut r = raw();
        r.leader_fetch_timeout_ms = Some(2500);
        let o = assemble(r).unwrap();
        assert_eq!(
            (o.quorum.fetch_timeout_ms, o.quorum.fetch_timeout_source),
            (2500, FetchTimeoutSource::ActiveController(2))
        );
        let mut r = raw();
        r.broker_configs.clear();
        assert_eq!(
            assemble(r).unwrap_err(),
            AssembleError::NoFetchTimeout { leader: Some(2) }
        );
    }

    #[test]
    fn combined_leader_reads_its_own_broker_config() {
        let mut r = raw();
        r.broker_configs
            .insert(2, vec![cfg("controller.quorum.fetch.timeout.ms", "4000")]);
        let o = assemble(r).unwrap();
        assert_eq!(
            (o.quorum.fetch_timeout_ms, o.quorum.fetch_timeout_source),
            (4000, FetchTimeoutSource::ActiveController(2))
        );
    }

    #[test]
    fn endpoint_states_are_used_and_failures_kept() {
        let mut r = raw();
        r.endpoint_states = Some((
            "http://{host}:8080/v1/broker-state".into(),
            BTreeMap::from([
                (
                    4,
                    Ok(EndpointState {
                        state: BrokerState::Recovery,
                        recovery: Some(RecoveryProgress {
                            remaining_logs: 3,
                            remaining_segments: 9,
                        }),
                    }),
                ),
                (5, Err("connection refused".to_string())),
            ]),
        ));
        let o = assemble(r).unwrap();
        assert_eq!(o.node(4).unwrap().broker_state, Some(BrokerState::Recovery));
        assert_eq!(o.node(4).unwrap().recovery.unwrap().remaining_segments, 9);
        assert_eq!(o.node(5).unwrap().broker_state, Some(BrokerState::Unknown));
        assert!(
            o.node(5)
                .unwrap()
                .broker_state_error
                .as_deref()
                .unwrap()
                .contains("refused")
        );
        assert!(matches!(
            o.broker_state_source,
            BrokerStateSource::Endpoint { .. }
        ));
    }

    #[test]
    fn broker_state_codes_round_trip() {
        for code in [0, 1, 2, 3, 6, 7, 127] {
            assert_eq!(i64::from(BrokerState::from_code(code).code()), code);
        }
        assert_eq!(BrokerState::from_code(42), BrokerState::Unknown);
    }
}
