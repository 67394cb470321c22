//! KRaft lifecycle requests: the controller quorum in full, adding and removing voters
//! (KIP-853), feature levels per node and their finalization, and broker registrations
//! (KIP-1073). librdkafka has none of them; they go over kafkaops' own protocol path
//! ([`super::wire`]) with the `kafka-protocol` codec, from the same connection settings.
//!
//! Each request is a function on an open [`Connection`] (decoding is pure and unit-tested) and
//! a [`KafkaClient`](crate::kafka::KafkaClient) method that routes it; [`quorum_view`], [`upgrade_view`] and
//! [`ghost_registrations`] turn the answers into the engine's views
//! ([`crate::engine::kraft`]), which decide whether a change is safe.
//!
//! # The RPCs (verified against Kafka 4.3.1 and 4.4.0, `tests/cluster/kraft_lifecycle.rs`, `tests/cluster/kraft_cli.rs`)
//!
//! | RPC (key) | Version sent | Sent to | Notes |
//! |---|---|---|---|
//! | ApiVersions (18) | v4, else the highest the server lists (it answers UNSUPPORTED_VERSION with a v0 body) | every connection, at connect | v4 is the first that lists supported features whose minimum is 0 (`kraft.version`; KAFKA-17011, Kafka 3.9). `SupportedFeatures` = this node's software; `FinalizedFeatures` + epoch = the levels this node has loaded (they lag the controller's for a moment after an update). The *request* carries kafkaops' software name/version; no response field carries the server's: a node's software version is not in the protocol (Kafka 4.4 has ApiVersions v5, which adds `ClusterId`/`NodeId` to the request only). The top of a node's supported `metadata.version` range is its release's latest level. |
//! | DescribeQuorum (55) | v2 (v1 minimum) | the active controller with `bootstrap.controllers` (other controllers answer NOT_LEADER_OR_FOLLOWER), else any broker (forwards) | v2 (Kafka 3.9): `ReplicaDirectoryId` per member, `Nodes` = the **voters'** listeners only (observers' are not known to the leader). The leader's own `LastFetchTimestamp`/`LastCaughtUpTimestamp` are its current time. |
//! | AddRaftVoter (80) | v0 (Kafka 4.4 also has v1, `AckWhenCommitted`; kafka-protocol 0.18 speaks v0) | same routing (listeners: controller, broker) | `VoterId`, `VoterDirectoryId`, `Listeners` (name, host, port: the new controller's advertised controller listeners, named as in its `controller.listener.names`; they must include the listener the leader uses). v0 answers once the new voter set is committed. Errors: UNSUPPORTED_VERSION (kraft.version 0), DUPLICATE_VOTER, INVALID_REQUEST (listeners), REQUEST_TIMED_OUT (another change pending, or the node lags). |
//! | RemoveRaftVoter (81) | v0 | same routing | `VoterId`, `VoterDirectoryId` (must match). Kafka checks only that it is a voter: not majority, not the leader (a removed leader resigns after the commit). Errors: VOTER_NOT_FOUND, UNSUPPORTED_VERSION, REQUEST_TIMED_OUT. |
//! | UpdateFeatures (57) | v2 (v1 minimum for `ValidateOnly`) | same routing (listeners: broker, controller) | `UpgradeType` 1 = upgrade. The controller checks every registered broker (fenced ones too) and controller supports the level; v2 answers with a top-level error only. `kraft.version` goes to the raft layer (0 -> 1 since Kafka 4.1). |
//! | UnregisterBroker (64) | v0 | same routing (listeners: broker, controller) | Kafka checks nothing but that the id is registered (BROKER_ID_NOT_REGISTERED). |
//! | DescribeCluster (60) | v2 with `IncludeFencedBrokers` (brokers); v1 `EndpointType` 2 (controllers) | a broker; a controller | v2 (Kafka 4.0, KIP-1073) lists fenced brokers with `IsFenced`; on a controller listener `EndpointType` 2 lists every **registered** controller (voters and observers) with its endpoint for the listener asked on. No incarnation id or log dirs (only the metadata log has those). |
//! | DescribeConfigs (32) | highest | the controller itself | `listeners`, `advertised.listeners`, `controller.listener.names` of a controller to add: the endpoints for AddRaftVoter, built as `kafka-metadata-quorum add-controller` builds them from the node's config file. |
//!
//! `upgrade --to RELEASE` (the roll onto new software) reads every registered node's ApiVersions
//! (v4, as above) before each decision of the roll ([`software_reports`]): a restarted node counts
//! as back only once the top of its supported `metadata.version` range is the release's latest
//! (4.3 ends at level 30, 4.4 at 33).

use std::collections::BTreeMap;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use kafka_protocol::messages::add_raft_voter_request::Listener as AddListener;
use kafka_protocol::messages::update_features_request::FeatureUpdateKey;
use kafka_protocol::messages::{
    AddRaftVoterRequest, ApiVersionsResponse, BrokerId, DescribeClusterRequest,
    RemoveRaftVoterRequest, UnregisterBrokerRequest, UpdateFeaturesRequest,
};
use kafka_protocol::protocol::StrBytes;
use serde::{Deserialize, Serialize};

use super::error::{KafkaError, Result, error_name};
use super::observation::RaftEndpoint;
use super::wire::Connection;
use crate::engine::kraft::LevelRange;

mod routed;
mod views;

pub use routed::listener_accepts;
pub use views::{
    finalized_kraft_version, ghost_registrations, quorum_view, software_reports, upgrade_view,
};

/// The feature levels one node reported in ApiVersions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct NodeFeatures {
    /// The ApiVersions version of the answer: below 4, features whose minimum level is 0
    /// (such as `kraft.version`) may be missing from `supported` (KAFKA-17011).
    pub api_versions_version: i16,
    /// What this node's software supports, by feature name.
    pub supported: BTreeMap<String, LevelRange>,
    /// The finalized levels this node has loaded, by feature name (max level; a level of 0
    /// may be left out by Kafka).
    pub finalized: BTreeMap<String, i16>,
    /// The epoch of `finalized`; `None` when the node does not know it (-1).
    pub finalized_epoch: Option<i64>,
}

impl NodeFeatures {
    /// The features of an ApiVersions answer decoded at `version`.
    #[must_use]
    pub fn from_api_versions(response: &ApiVersionsResponse, version: i16) -> Self {
        Self {
            api_versions_version: version,
            supported: response
                .supported_features
                .iter()
                .map(|f| {
                    (
                        f.name.as_str().to_string(),
                        LevelRange {
                            min: f.min_version,
                            max: f.max_version,
                        },
                    )
                })
                .collect(),
            finalized: response
                .finalized_features
                .iter()
                .map(|f| (f.name.as_str().to_string(), f.max_version_level))
                .collect(),
            finalized_epoch: (response.finalized_features_epoch >= 0)
                .then_some(response.finalized_features_epoch),
        }
    }
}

/// A Kafka `Uuid` (a directory id) in Kafka's text form: URL-safe base64 without padding,
/// as `meta.properties` and the Kafka tools print it. The zero id (Kafka's "none") is `None`.
#[must_use]
pub fn directory_id_text(id: &uuid::Uuid) -> Option<String> {
    (!id.is_nil()).then(|| URL_SAFE_NO_PAD.encode(id.as_bytes()))
}

/// Parses a directory id in Kafka's text form.
///
/// # Errors
/// [`KafkaError::InvalidSetting`] when it is not 16 bytes of URL-safe base64.
pub fn parse_directory_id(text: &str) -> Result<uuid::Uuid> {
    let invalid = |message: String| KafkaError::InvalidSetting {
        key: "directory id".into(),
        message,
    };
    let bytes = URL_SAFE_NO_PAD.decode(text.trim()).map_err(|e| {
        invalid(format!(
            "{text:?} is not Kafka's base64 form of a Uuid: {e}"
        ))
    })?;
    let bytes: [u8; 16] = bytes
        .try_into()
        .map_err(|_| invalid(format!("{text:?} is not 16 bytes")))?;
    Ok(uuid::Uuid::from_bytes(bytes))
}

/// One feature level change for UpdateFeatures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureUpdate {
    pub feature: String,
    pub level: i16,
    pub kind: UpgradeKind,
}

/// UpdateFeatures `UpgradeType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UpgradeKind {
    /// 1: raise the level.
    Upgrade,
    /// 2: lower it where that loses no metadata.
    SafeDowngrade,
    /// 3: lower it even if metadata is lost.
    UnsafeDowngrade,
}

impl UpgradeKind {
    fn code(self) -> i8 {
        match self {
            UpgradeKind::Upgrade => 1,
            UpgradeKind::SafeDowngrade => 2,
            UpgradeKind::UnsafeDowngrade => 3,
        }
    }
}

/// A registered broker (DescribeCluster v2 with fenced brokers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisteredBroker {
    pub id: i32,
    pub host: String,
    pub port: u16,
    pub rack: Option<String>,
    pub fenced: bool,
}

fn api_err(what: &str, address: &str, code: i16, message: Option<&StrBytes>) -> KafkaError {
    KafkaError::Api {
        what: format!("{what} via {address}"),
        node: None,
        code,
        name: error_name(code),
        message: message.map(|m| m.as_str().to_string()),
    }
}

/// AddRaftVoter: makes the observer `voter_id` (directory `directory_id`, reachable at
/// `endpoints`) a voter. Returns once Kafka committed the new voter set.
pub async fn add_raft_voter(
    conn: &mut Connection,
    voter_id: i32,
    directory_id: &str,
    endpoints: &[RaftEndpoint],
    timeout_ms: i32,
) -> Result<()> {
    let request = AddRaftVoterRequest::default()
        .with_cluster_id(None)
        .with_timeout_ms(timeout_ms)
        .with_voter_id(voter_id)
        .with_voter_directory_id(parse_directory_id(directory_id)?)
        .with_listeners(
            endpoints
                .iter()
                .map(|e| {
                    AddListener::default()
                        .with_name(StrBytes::from_string(e.name.clone()))
                        .with_host(StrBytes::from_string(e.host.clone()))
                        .with_port(e.port)
                })
                .collect(),
        );
    let (_, response) = conn
        .send(&request, "adding a controller to the quorum")
        .await?;
    if response.error_code != 0 {
        return Err(api_err(
            &format!("AddRaftVoter of node {voter_id}"),
            conn.address(),
            response.error_code,
            response.error_message.as_ref(),
        ));
    }
    Ok(())
}

/// RemoveRaftVoter: removes voter `voter_id` (directory `directory_id`) from the quorum.
pub async fn remove_raft_voter(
    conn: &mut Connection,
    voter_id: i32,
    directory_id: &str,
) -> Result<()> {
    let request = RemoveRaftVoterRequest::default()
        .with_cluster_id(None)
        .with_voter_id(voter_id)
        .with_voter_directory_id(parse_directory_id(directory_id)?);
    let (_, response) = conn
        .send(&request, "removing a controller from the quorum")
        .await?;
    if response.error_code != 0 {
        return Err(api_err(
            &format!("RemoveRaftVoter of node {voter_id}"),
            conn.address(),
            response.error_code,
            response.error_message.as_ref(),
        ));
    }
    Ok(())
}

/// The UpdateFeatures request for `updates`.
#[must_use]
pub fn update_features_request(
    updates: &[FeatureUpdate],
    validate_only: bool,
    timeout_ms: i32,
) -> UpdateFeaturesRequest {
    UpdateFeaturesRequest::default()
        .with_timeout_ms(timeout_ms)
        .with_validate_only(validate_only)
        .with_feature_updates(
            updates
                .iter()
                .map(|u| {
                    FeatureUpdateKey::default()
                        .with_feature(StrBytes::from_string(u.feature.clone()))
                        .with_max_version_level(u.level)
                        .with_allow_downgrade(u.kind != UpgradeKind::Upgrade)
                        .with_upgrade_type(u.kind.code())
                })
                .collect(),
        )
}

/// UpdateFeatures: changes finalized feature levels, or with `validate_only` only asks the
/// controller whether it would (every check runs, nothing changes).
pub async fn update_features(
    conn: &mut Connection,
    updates: &[FeatureUpdate],
    validate_only: bool,
    timeout_ms: i32,
) -> Result<()> {
    let v = conn.version::<UpdateFeaturesRequest>("changing feature levels")?;
    if validate_only && v < 1 {
        return Err(KafkaError::UnsupportedApi {
            address: conn.address().into(),
            api: "UpdateFeatures v1 (ValidateOnly)".into(),
            needed_for: "validating a feature level change".into(),
        });
    }
    let request = update_features_request(updates, validate_only, timeout_ms);
    let response = conn.send_at(&request, v).await?;
    let what = if validate_only {
        "UpdateFeatures (validate only)"
    } else {
        "UpdateFeatures"
    };
    if response.error_code != 0 {
        return Err(api_err(
            what,
            conn.address(),
            response.error_code,
            response.error_message.as_ref(),
        ));
    }
    // v0-v1 answer per feature too.
    for r in &response.results {
        if r.error_code != 0 {
            return Err(api_err(
                &format!("{what} of {}", r.feature.as_str()),
                conn.address(),
                r.error_code,
                r.error_message.as_ref(),
            ));
        }
    }
    Ok(())
}

/// UnregisterBroker: removes broker `id`'s registration.
pub async fn unregister_broker(conn: &mut Connection, id: i32) -> Result<()> {
    let request = UnregisterBrokerRequest::default().with_broker_id(BrokerId(id));
    let (_, response) = conn.send(&request, "unregistering a broker").await?;
    if response.error_code != 0 {
        return Err(KafkaError::Api {
            what: format!("UnregisterBroker via {}", conn.address()),
            node: Some(id),
            code: response.error_code,
            name: error_name(response.error_code),
            message: response
                .error_message
                .as_ref()
                .map(|m| m.as_str().to_string()),
        });
    }
    Ok(())
}

/// Every registered broker with its fencing state, from a broker (DescribeCluster v2,
/// Kafka >= 4.0). `None` when the broker speaks only older versions.
pub async fn describe_registered_brokers(
    conn: &mut Connection,
) -> Result<Option<Vec<RegisteredBroker>>> {
    let v = conn.version::<DescribeClusterRequest>("listing registered brokers")?;
    if v < 2 {
        return Ok(None);
    }
    let request = DescribeClusterRequest::default()
        .with_endpoint_type(1)
        .with_include_fenced_brokers(true);
    let response = conn.send_at(&request, v).await?;
    if response.error_code != 0 {
        return Err(api_err(
            "DescribeCluster",
            conn.address(),
            response.error_code,
            response.error_message.as_ref(),
        ));
    }
    let mut brokers: Vec<RegisteredBroker> = response
        .brokers
        .iter()
        .map(|b| RegisteredBroker {
            id: b.broker_id.0,
            host: b.host.as_str().to_string(),
            port: u16::try_from(b.port).unwrap_or(0),
            rack: b.rack.as_ref().map(|r| r.as_str().to_string()),
            fenced: b.is_fenced,
        })
        .collect();
    brokers.sort_by_key(|b| b.id);
    Ok(Some(brokers))
}

/// A controller's advertised controller endpoints from its own configs, as
/// `kafka-metadata-quorum add-controller` builds them from the node's config file: for each
/// name of `controller.listener.names`, the `advertised.listeners` entry of that name, else the
/// `listeners` one (an empty host becomes `localhost`).
///
/// # Errors
/// When a controller listener name has no entry in either list.
pub fn controller_endpoints(
    listeners: Option<&str>,
    advertised_listeners: Option<&str>,
    controller_listener_names: &str,
) -> std::result::Result<Vec<RaftEndpoint>, String> {
    let parse = |list: Option<&str>| -> BTreeMap<String, (String, u16)> {
        list.unwrap_or("")
            .split(',')
            .filter_map(|entry| {
                let (name, rest) = entry.trim().split_once("://")?;
                let (host, port) = rest.rsplit_once(':')?;
                let host = host.trim_start_matches('[').trim_end_matches(']');
                Some((
                    name.trim().to_ascii_uppercase(),
                    (host.to_string(), port.trim().parse().ok()?),
                ))
            })
            .collect()
    };
    let mut known = parse(listeners);
    known.extend(parse(advertised_listeners));
    let mut out = Vec::new();
    for name in controller_listener_names
        .split(',')
        .map(|n| n.trim().to_ascii_uppercase())
        .filter(|n| !n.is_empty())
    {
        let (host, port) = known.get(&name).ok_or_else(|| {
            format!("controller listener {name} is in neither listeners nor advertised.listeners")
        })?;
        out.push(RaftEndpoint {
            name,
            host: if host.is_empty() {
                "localhost".into()
            } else {
                host.clone()
            },
            port: *port,
        });
    }
    if out.is_empty() {
        return Err("controller.listener.names is empty".into());
    }
    Ok(out)
}

/// One node's ApiVersions features, or why it could not be asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeFeatureAnswer {
    /// The listener asked (the broker listener of broker-role nodes, else the controller one).
    pub address: String,
    pub features: std::result::Result<NodeFeatures, String>,
}

#[cfg(test)]
mod tests;
