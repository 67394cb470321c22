//! From the KRaft answers to the engine's views ([`crate::engine::kraft`]): the quorum with its
//! members' directory ids and running state, the feature levels for an upgrade, each node's
//! software as the roll onto a release sees it, and the broker registrations nothing backs.
//! Pure conversions, kept apart from the requests that fetch the answers.

use std::collections::{BTreeMap, BTreeSet};

use super::{NodeFeatureAnswer, NodeFeatures, RegisteredBroker};
use crate::engine::kraft::METADATA_VERSION;
use crate::engine::kraft::ghosts::{PartitionReplicas, Registration};
use crate::engine::kraft::quorum::{Member, QuorumView};
use crate::engine::kraft::upgrade::UpgradeView;
use crate::engine::model::NodeId;
use crate::kafka::observation::RawQuorum;

/// The engine's quorum view. `kraft_version` from the finalized features; `controllers` =
/// nodes known to have the controller role; `running` = the platform's answer per node (a
/// node missing there was not asked).
#[must_use]
pub fn quorum_view(
    quorum: &RawQuorum,
    kraft_version: Option<i16>,
    controllers: &BTreeSet<i32>,
    running: &BTreeMap<i32, bool>,
) -> QuorumView {
    let member = |r: &crate::kafka::observation::ReplicaObservation| Member {
        id: NodeId(r.id),
        directory_id: r.directory_id.clone(),
        log_end_offset: (r.log_end_offset >= 0).then_some(r.log_end_offset),
        last_fetch_ms: r.last_fetch_timestamp,
        last_caught_up_ms: r.last_caught_up_timestamp,
        running: running.get(&r.id).copied(),
    };
    QuorumView {
        leader: quorum.leader_id.map(NodeId),
        epoch: quorum.leader_epoch,
        high_watermark: (quorum.high_watermark >= 0).then_some(quorum.high_watermark),
        voters: quorum.voters.iter().map(member).collect(),
        observers: quorum.observers.iter().map(member).collect(),
        kraft_version,
        controllers: controllers.iter().copied().map(NodeId).collect(),
    }
}

/// The finalized `kraft.version` as Kafka reports it: Kafka leaves a level of 0 out of the
/// finalized features, so a known epoch without the feature means 0 (static).
#[must_use]
pub fn finalized_kraft_version(features: &NodeFeatures) -> Option<i16> {
    features
        .finalized
        .get(crate::engine::kraft::KRAFT_VERSION)
        .copied()
        .or_else(|| features.finalized_epoch.map(|_| 0))
}

/// The engine's upgrade view: the finalized levels from `finalized` (the active controller's
/// answer), each node's supported ranges from `nodes`.
#[must_use]
pub fn upgrade_view(
    finalized: &NodeFeatures,
    nodes: &BTreeMap<i32, NodeFeatureAnswer>,
) -> UpgradeView {
    UpgradeView {
        finalized: finalized.finalized.clone(),
        nodes: nodes
            .iter()
            .map(|(id, a)| {
                (
                    NodeId(*id),
                    a.features
                        .as_ref()
                        .map(|f| f.supported.clone())
                        .map_err(|e| format!("{}: {e}", a.address)),
                )
            })
            .collect(),
    }
}

/// What each node's software supports, as a roll onto new software checks it
/// ([`crate::engine::roll::Roller::handle_software`]): the top of its supported
/// `metadata.version` range (ApiVersions `SupportedFeatures`), or why it could not be asked.
#[must_use]
pub fn software_reports(
    nodes: &BTreeMap<i32, NodeFeatureAnswer>,
) -> BTreeMap<NodeId, crate::engine::roll::SoftwareReport> {
    nodes
        .iter()
        .map(|(id, a)| {
            (
                NodeId(*id),
                a.features
                    .as_ref()
                    .map(|f| f.supported.get(METADATA_VERSION).map(|r| r.max))
                    .map_err(|e| format!("{}: {e}", a.address)),
            )
        })
        .collect()
}

/// The engine's registrations and replica lists for the ghost-broker rules.
#[must_use]
pub fn ghost_registrations(
    brokers: &[RegisteredBroker],
    running: &BTreeMap<i32, bool>,
    topics: &[crate::kafka::observation::TopicObservation],
    reassignments: &[crate::engine::view::Reassignment],
) -> (Vec<Registration>, Vec<PartitionReplicas>) {
    let registrations = brokers
        .iter()
        .map(|b| Registration {
            id: NodeId(b.id),
            fenced: b.fenced,
            rack: b.rack.clone(),
            running: running.get(&b.id).copied(),
        })
        .collect();
    let ids = |v: &[i32]| v.iter().copied().map(NodeId).collect::<Vec<_>>();
    let partitions = topics
        .iter()
        .flat_map(|t| {
            t.partitions.iter().map(move |p| {
                let moving = reassignments
                    .iter()
                    .find(|r| r.topic == t.name && r.partition == p.partition);
                PartitionReplicas {
                    topic: t.name.clone(),
                    partition: p.partition,
                    replicas: ids(&p.replicas),
                    adding: moving.map(|r| ids(&r.adding)).unwrap_or_default(),
                    removing: moving.map(|r| ids(&r.removing)).unwrap_or_default(),
                }
            })
        })
        .collect();
    (registrations, partitions)
}
