//! Node holds (issue 29), the use case `kafkaops hold` and every reader share: place, list and
//! remove holds in the one store chosen from the settings ([`Holds`]: the cluster's own holds
//! topic, [`crate::kafka::holds`], or on Kubernetes a ConfigMap,
//! [`crate::platform::kube::holds`]), and the holds that count now (the roll, `operate`'s roll,
//! rebalance destinations, `topic set-rf` and `health` read these).

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;

use crate::engine::holds::{Hold, active};
use crate::engine::model::{Millis, NodeId};
use crate::kafka::{ClusterObserver, KafkaClient};
use crate::platform::kube::KubeTarget;
use crate::platform::kube::holds::ConfigMapHolds;

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

/// The one place the holds are stored, chosen once from the settings ([`Holds::open`]) and
/// handed to every reader and writer (`hold`, the roll plan, `operate`, `rebalance`, `topic
/// set-rf`, `health`). Cheap to clone.
#[derive(Debug, Clone)]
pub enum Holds {
    /// The compacted topic in the Kafka cluster itself ([`crate::kafka::holds`]), read and
    /// written with the Kafka client the caller has.
    Topic,
    /// A ConfigMap next to the Strimzi cluster's resources ([`ConfigMapHolds`]).
    ConfigMap(Box<ConfigMapHolds>),
}

impl Holds {
    /// Where the holds live: with `--strimzi CLUSTER` (the cluster runs on Kubernetes) in its
    /// ConfigMap ([`crate::platform::kube::holds::configmap_name`]) in the namespace, else in
    /// the Kafka cluster's holds topic.
    ///
    /// # Errors
    /// The Kubernetes API cannot be reached (its configuration cannot be read).
    pub async fn open(kube: &KubeTarget, strimzi: Option<&str>) -> anyhow::Result<Holds> {
        let Some(cluster) = strimzi else {
            return Ok(Holds::Topic);
        };
        let conn = kube
            .connect()
            .await
            .context("cannot connect to Kubernetes to read the node holds")?;
        Ok(Holds::ConfigMap(Box::new(ConfigMapHolds::new(
            &conn,
            &crate::platform::kube::holds::configmap_name(cluster),
        ))))
    }

    /// Where the holds are, for messages.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Holds::Topic => format!("topic {}", crate::kafka::holds::HOLDS_TOPIC),
            Holds::ConfigMap(c) => c.describe(),
        }
    }

    /// The store itself, with the Kafka client the topic store uses.
    fn with<'a>(&'a self, kafka: &'a KafkaClient) -> Store<'a> {
        match self {
            Holds::Topic => Store::Topic(kafka),
            Holds::ConfigMap(c) => Store::ConfigMap(c),
        }
    }
}

/// How holds are read and written, whatever stores them.
pub trait HoldStore {
    /// Every stored hold, expired ones included.
    fn read(&self) -> impl Future<Output = anyhow::Result<Vec<Hold>>> + Send;
    /// Writes `holds` (one per node, replacing that node's hold).
    fn put(&self, holds: &[Hold]) -> impl Future<Output = anyhow::Result<()>> + Send;
    /// Removes the holds of `nodes`.
    fn remove(&self, nodes: &[i32]) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// The holds topic, through a Kafka client.
impl HoldStore for KafkaClient {
    async fn read(&self) -> anyhow::Result<Vec<Hold>> {
        Ok(self.read_holds().await?)
    }

    async fn put(&self, holds: &[Hold]) -> anyhow::Result<()> {
        self.ensure_holds_topic().await?;
        for h in holds {
            self.write_hold(h.node, Some(h)).await?;
        }
        Ok(())
    }

    async fn remove(&self, nodes: &[i32]) -> anyhow::Result<()> {
        for n in nodes {
            self.write_hold(NodeId(*n), None).await?;
        }
        Ok(())
    }
}

impl HoldStore for ConfigMapHolds {
    async fn read(&self) -> anyhow::Result<Vec<Hold>> {
        Ok(ConfigMapHolds::read(self).await?)
    }

    async fn put(&self, holds: &[Hold]) -> anyhow::Result<()> {
        Ok(self.change(holds, &[]).await?)
    }

    async fn remove(&self, nodes: &[i32]) -> anyhow::Result<()> {
        Ok(self.change(&[], nodes).await?)
    }
}

/// [`Holds`] opened with a Kafka client.
enum Store<'a> {
    Topic(&'a KafkaClient),
    ConfigMap(&'a ConfigMapHolds),
}

impl HoldStore for Store<'_> {
    async fn read(&self) -> anyhow::Result<Vec<Hold>> {
        match self {
            Store::Topic(k) => HoldStore::read(*k).await,
            Store::ConfigMap(c) => HoldStore::read(*c).await,
        }
    }

    async fn put(&self, holds: &[Hold]) -> anyhow::Result<()> {
        match self {
            Store::Topic(k) => k.put(holds).await,
            Store::ConfigMap(c) => c.put(holds).await,
        }
    }

    async fn remove(&self, nodes: &[i32]) -> anyhow::Result<()> {
        match self {
            Store::Topic(k) => HoldStore::remove(*k, nodes).await,
            Store::ConfigMap(c) => HoldStore::remove(*c, nodes).await,
        }
    }
}

/// Writes `holds` where `at` keeps them (the holds topic is created on first use).
///
/// # Errors
/// The store could not be written.
pub async fn add(at: &Holds, kafka: &KafkaClient, holds: &[Hold]) -> anyhow::Result<()> {
    at.with(kafka)
        .put(holds)
        .await
        .with_context(|| format!("cannot write the node holds in {}", at.describe()))
}

/// Removes the holds of `nodes`.
///
/// # Errors
/// The store could not be written.
pub async fn remove(at: &Holds, kafka: &KafkaClient, nodes: &[i32]) -> anyhow::Result<()> {
    at.with(kafka)
        .remove(nodes)
        .await
        .with_context(|| format!("cannot remove the node holds in {}", at.describe()))
}

/// Every stored hold, expired ones included.
///
/// # Errors
/// The store could not be read.
pub async fn read(at: &Holds, kafka: &KafkaClient) -> anyhow::Result<Vec<Hold>> {
    at.with(kafka)
        .read()
        .await
        .with_context(|| format!("cannot read the node holds in {}", at.describe()))
}

/// The holds that count now, by node, with their reason.
///
/// # Errors
/// The store could not be read.
pub async fn active_now(
    at: &Holds,
    kafka: &KafkaClient,
) -> anyhow::Result<BTreeMap<NodeId, String>> {
    Ok(active(&read(at, kafka).await?, now()))
}
