//! Node holds (issue 29), the use case `kafkaops hold` and every reader share: place, list and
//! remove holds in the cluster's own holds topic ([`crate::kafka::holds`]), and the holds that
//! count now (the roll, `operate`'s roll, rebalance destinations and `health` read these).

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;

use crate::engine::holds::{Hold, active};
use crate::engine::model::{Millis, NodeId};
use crate::kafka::{ClusterObserver, KafkaClient};

/// Bad input, found before anything is written.
#[derive(Debug, thiserror::Error)]
pub enum HoldError {
    #[error("unknown node id(s) {}: the cluster has nodes {}", list(.unknown), list(.known))]
    UnknownNodes { unknown: Vec<i32>, known: Vec<i32> },
    #[error("a hold needs a reason")]
    NoReason,
    #[error("a hold must expire after a positive duration")]
    NoExpiry,
}

fn list(ids: &[i32]) -> String {
    ids.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Now, in the engine's clock (milliseconds since the epoch).
#[must_use]
pub fn now() -> Millis {
    Millis(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
    )
}

/// The node ids the cluster knows (registered brokers, fenced ones included, and controllers).
///
/// # Errors
/// The cluster could not be observed.
pub async fn known_nodes(kafka: &KafkaClient) -> anyhow::Result<Vec<i32>> {
    let observation = kafka
        .observe()
        .await
        .context("cannot observe the cluster")?;
    let mut ids: Vec<i32> = observation.nodes.iter().map(|n| n.id).collect();
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

/// The holds `add` would write: one per node, checked against the cluster's nodes.
///
/// # Errors
/// [`HoldError`] for an unknown node, an empty reason or a zero duration.
pub fn new_holds(
    nodes: &[i32],
    known: &[i32],
    reason: &str,
    expires_in: Duration,
    now: Millis,
) -> Result<Vec<Hold>, HoldError> {
    let unknown: Vec<i32> = nodes
        .iter()
        .filter(|n| !known.contains(n))
        .copied()
        .collect();
    if !unknown.is_empty() {
        return Err(HoldError::UnknownNodes {
            unknown,
            known: known.to_vec(),
        });
    }
    if reason.trim().is_empty() {
        return Err(HoldError::NoReason);
    }
    if expires_in.is_zero() {
        return Err(HoldError::NoExpiry);
    }
    let ms = u64::try_from(expires_in.as_millis()).unwrap_or(u64::MAX);
    Ok(nodes
        .iter()
        .map(|n| Hold {
            node: NodeId(*n),
            reason: reason.trim().to_string(),
            created_ms: now.0,
            expires_ms: now.0.saturating_add(ms),
        })
        .collect())
}

/// Writes `holds` (creating the holds topic on first use).
///
/// # Errors
/// The topic could not be created or a record was not acknowledged.
pub async fn add(kafka: &KafkaClient, holds: &[Hold]) -> anyhow::Result<()> {
    kafka.ensure_holds_topic().await?;
    for h in holds {
        kafka.write_hold(h.node, Some(h)).await?;
    }
    Ok(())
}

/// Removes the holds of `nodes` (tombstones).
///
/// # Errors
/// A tombstone was not acknowledged.
pub async fn remove(kafka: &KafkaClient, nodes: &[i32]) -> anyhow::Result<()> {
    for n in nodes {
        kafka.write_hold(NodeId(*n), None).await?;
    }
    Ok(())
}

/// Every stored hold, expired ones included.
///
/// # Errors
/// The holds topic could not be read.
pub async fn read(kafka: &KafkaClient) -> anyhow::Result<Vec<Hold>> {
    kafka
        .read_holds()
        .await
        .context("cannot read the node holds")
}

/// The holds that count now, by node, with their reason.
///
/// # Errors
/// The holds topic could not be read.
pub async fn active_now(kafka: &KafkaClient) -> anyhow::Result<BTreeMap<NodeId, String>> {
    Ok(active(&read(kafka).await?, now()))
}
