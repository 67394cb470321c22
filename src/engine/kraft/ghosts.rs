//! Ghost brokers: registrations of brokers that are gone.
//!
//! A broker that is stopped for good stays registered, fenced (KIP-1073). Kafka keeps counting
//! it: its supported features still bound every feature upgrade, and a partition whose replica
//! list names it stays under-replicated. `UnregisterBroker` removes the registration, and Kafka
//! does it for any id, so the checks are here: the broker is fenced, its process does not run
//! (a running broker would register again), it is not a quorum voter, and no partition
//! replica (current, being added or being removed) points at it.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::failure::FailureKind;
use crate::engine::model::NodeId;

/// A registered broker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registration {
    pub id: NodeId,
    pub fenced: bool,
    pub rack: Option<String>,
    /// Whether its process runs (platform status or a TCP probe of its listener); `None` when
    /// that could not be told.
    pub running: Option<bool>,
}

/// A partition's replica lists (an ongoing reassignment's adding and removing replicas are in
/// `replicas` too, as Kafka lists them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionReplicas {
    pub topic: String,
    pub partition: i32,
    pub replicas: Vec<NodeId>,
    pub adding: Vec<NodeId>,
    pub removing: Vec<NodeId>,
}

/// What the rules decide on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct GhostView {
    pub registrations: Vec<Registration>,
    /// Every partition of every topic.
    pub partitions: Vec<PartitionReplicas>,
    /// The quorum's voters.
    pub voters: BTreeSet<NodeId>,
}

/// One line of `broker list`.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokerListing {
    pub id: NodeId,
    pub fenced: bool,
    pub rack: Option<String>,
    pub running: Option<bool>,
    /// Partitions with a replica (current, adding or removing) on it.
    pub holds: Vec<(String, i32)>,
}

fn holds(view: &GhostView, id: NodeId) -> Vec<(String, i32)> {
    view.partitions
        .iter()
        .filter(|p| {
            p.replicas
                .iter()
                .chain(&p.adding)
                .chain(&p.removing)
                .any(|r| *r == id)
        })
        .map(|p| (p.topic.clone(), p.partition))
        .collect()
}

/// Every registered broker with what points at it.
#[must_use]
pub fn list(view: &GhostView) -> Vec<BrokerListing> {
    let mut out: Vec<BrokerListing> = view
        .registrations
        .iter()
        .map(|r| BrokerListing {
            id: r.id,
            fenced: r.fenced,
            rack: r.rack.clone(),
            running: r.running,
            holds: holds(view, r.id),
        })
        .collect();
    out.sort_by_key(|b| b.id);
    out
}

/// Why a registration may not be removed.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UnregisterRefusal {
    #[error("broker {node} is not registered")]
    NotRegistered { node: NodeId },
    #[error("broker {node} is not fenced: it is serving; stop it for good first")]
    NotFenced { node: NodeId },
    #[error("broker {node}'s process still runs: it would register again; stop it first")]
    Running { node: NodeId },
    #[error(
        "whether broker {node}'s process runs cannot be told: kafkaops only unregisters a broker \
         it knows is stopped"
    )]
    RunningUnknown { node: NodeId },
    #[error("node {node} is a quorum voter: remove it from the quorum first")]
    Voter { node: NodeId },
    #[error(
        "broker {node} still holds replicas of {}: move them away first",
        partitions.iter().map(|(t, p)| format!("{t}-{p}")).collect::<Vec<_>>().join(", ")
    )]
    HoldsReplicas {
        node: NodeId,
        partitions: Vec<(String, i32)>,
    },
}

impl UnregisterRefusal {
    /// Its failure class: an id that is not registered is invalid input, the rest refusals.
    #[must_use]
    pub fn failure_kind(&self) -> FailureKind {
        match self {
            UnregisterRefusal::NotRegistered { .. } => FailureKind::Invalid,
            _ => FailureKind::Failed,
        }
    }
}

/// Whether broker `node`'s registration may be removed.
///
/// # Errors
/// The first [`UnregisterRefusal`] that applies, in the order of the variants.
pub fn check_unregister(view: &GhostView, node: NodeId) -> Result<(), UnregisterRefusal> {
    let r = view
        .registrations
        .iter()
        .find(|r| r.id == node)
        .ok_or(UnregisterRefusal::NotRegistered { node })?;
    if !r.fenced {
        return Err(UnregisterRefusal::NotFenced { node });
    }
    match r.running {
        Some(true) => return Err(UnregisterRefusal::Running { node }),
        None => return Err(UnregisterRefusal::RunningUnknown { node }),
        Some(false) => {}
    }
    if view.voters.contains(&node) {
        return Err(UnregisterRefusal::Voter { node });
    }
    let partitions = holds(view, node);
    if !partitions.is_empty() {
        return Err(UnregisterRefusal::HoldsReplicas { node, partitions });
    }
    Ok(())
}
