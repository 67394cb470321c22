//! Throttle hygiene, the use case behind `throttles list|clear` and the throttle part of
//! `health`: read every replication throttle set on the cluster and what is moving, remove
//! them, read them back.
//!
//! Why: throttles outlive the movement that set them (a reassignment stopped half way, a tool
//! that died); a leftover rate slows every later re-replication, including the one after a
//! broker failure. The rules (which configs are throttles, which a movement needs, what
//! `clear` may remove) are pure in [`crate::engine::throttles`]; this reads and writes them
//! through the Admin API (DescribeConfigs, IncrementalAlterConfigs DELETE).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::cruise_control::LogObserver;
use crate::engine::movers::CruiseControlView;
use crate::engine::throttles::{
    self, CcMovement, Movement, Throttle, ThrottleTarget, from_broker_configs, from_topic_configs,
};
use crate::kafka::{ConfigChange, ConfigTarget, KafkaAdmin, KafkaClient};
use crate::settings::CruiseControlSettings;

/// Every throttle set on the cluster: each registered broker's throttle rates (its own and the
/// cluster-wide default) and each topic's throttled-replica lists.
///
/// # Errors
/// The cluster, a broker's or the topics' configs cannot be read.
pub async fn read(kafka: &KafkaClient) -> anyhow::Result<Vec<Throttle>> {
    let cluster = kafka
        .describe_cluster()
        .await
        .context("cannot list the brokers")?;
    let mut out = Vec::new();
    for n in &cluster.nodes {
        let entries = kafka
            .describe_broker_configs(n.id)
            .await
            .with_context(|| format!("cannot read the configs of broker {}", n.id))?;
        out.extend(from_broker_configs(n.id, &entries));
    }
    let topics = kafka
        .list_topics()
        .await
        .context("cannot list the topics")?;
    out.extend(topic_throttles(kafka, &topics).await?);
    Ok(throttles::dedup(out))
}

/// The throttled-replica lists of `topics` (only those two keys are asked: `operate` reads them
/// every loop for its health verdict).
///
/// # Errors
/// The topics' configs cannot be read.
pub async fn topic_throttles(
    kafka: &KafkaClient,
    topics: &[String],
) -> anyhow::Result<Vec<Throttle>> {
    let configs = kafka
        .topic_configs(topics, Some(&throttles::TOPIC_KEYS))
        .await
        .context("cannot read the topics' configs")?;
    Ok(configs
        .iter()
        .flat_map(|(t, entries)| from_topic_configs(t, entries))
        .collect())
}

/// What Cruise Control's executor does (`NotConfigured` without a URL).
pub async fn cruise_control_movement(
    settings: &CruiseControlSettings,
    request_timeout: Duration,
) -> CcMovement {
    if settings.url.is_none() {
        return CcMovement::NotConfigured;
    }
    let view = match super::clients::cruise_control(settings, super::clients::CcOptions::default())
    {
        Ok(cc) => {
            cc.executor_view(Instant::now() + request_timeout, &LogObserver)
                .await
        }
        Err(e) => CruiseControlView::Unreachable(e.to_string()),
    };
    CcMovement::from(&view)
}

/// What is moving: the reassignments in flight and Cruise Control's executor.
///
/// # Errors
/// The reassignments cannot be listed.
pub async fn movement(
    kafka: &KafkaClient,
    cc: &CruiseControlSettings,
    request_timeout: Duration,
) -> anyhow::Result<Movement> {
    let reassignments = kafka
        .list_reassignments()
        .await
        .context("cannot list the partition reassignments in flight")?;
    Ok(Movement {
        reassignments,
        cruise_control: cruise_control_movement(cc, request_timeout).await,
    })
}

/// The Admin API resource a throttle is set on.
fn target(t: &ThrottleTarget) -> ConfigTarget {
    match t {
        ThrottleTarget::Broker(b) => ConfigTarget::Broker(*b),
        ThrottleTarget::BrokerDefault => ConfigTarget::ClusterDefault,
        ThrottleTarget::Topic(name) => ConfigTarget::Topic(name.clone()),
    }
}

/// Removes `chosen` (one IncrementalAlterConfigs DELETE per resource), then reads the configs
/// back until none of them is set (up to `settle`: a broker applies a committed change a moment
/// later). Returns the resources whose change failed, with the error, and the throttles still
/// read back afterwards.
///
/// # Errors
/// The configs cannot be read back.
pub async fn clear(
    kafka: &KafkaClient,
    chosen: &[Throttle],
    settle: Duration,
) -> anyhow::Result<(BTreeMap<String, String>, Vec<Throttle>)> {
    let mut by_target: BTreeMap<&ThrottleTarget, Vec<ConfigChange>> = BTreeMap::new();
    for t in chosen {
        by_target
            .entry(&t.target)
            .or_default()
            .push(ConfigChange::delete(t.key.clone()));
    }
    let mut failed = BTreeMap::new();
    for (t, changes) in by_target {
        if let Err(e) = kafka.incremental_alter_configs(target(t), changes).await {
            failed.insert(t.to_string(), e.to_string());
        }
    }
    let deadline = Instant::now() + settle;
    loop {
        let now = read(kafka).await?;
        let left: Vec<Throttle> = chosen
            .iter()
            .filter(|t| now.iter().any(|n| n.target == t.target && n.key == t.key))
            .cloned()
            .collect();
        if left.is_empty() || Instant::now() >= deadline {
            return Ok((failed, left));
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}
