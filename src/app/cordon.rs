//! The cordon around a broker removal (KIP-1066), the use case `rebalance remove`, `rebalance
//! stop`, `rebalance pace stop` and `rebalance status` share with `broker cordon|uncordon`.
//!
//! Why: while Cruise Control drains brokers that are about to leave, a topic created meanwhile
//! may get replicas on them, and the removal ends with replicas left behind. Kafka 4.3+ lets a
//! broker refuse new partitions (`cordoned.log.dirs=*`, a dynamic broker config changed with
//! IncrementalAlterConfigs). kafkaops cordons the leaving brokers before anything moves and
//! uncordons them when the removal does not happen (stopped, failed, declined). Older clusters
//! do not know the key: kafkaops says so and the removal goes on as before. The decisions are
//! in [`crate::engine::cordon`]; what people should know goes through a [`Reporter`].

use std::time::Duration;

use anyhow::Context;
use serde::Serialize;

use super::Reporter;
use crate::engine::cc_flow::Outcome;
use crate::engine::cordon::{CORDON_ALL, CORDON_KEY, CordonState, cordon_state, uncordon_after};
use crate::kafka::{ConfigChange, ConfigTarget, KafkaAdmin, KafkaClient};
use crate::settings::KafkaSettings;

/// How Kafka is reached: the resolved settings and the Admin API request timeout.
#[derive(Debug, Clone, Copy)]
pub struct KafkaAccess<'a> {
    pub settings: &'a KafkaSettings,
    pub request_timeout: Duration,
}

/// Connects to Kafka to read or change cordons.
///
/// # Errors
/// No bootstrap servers are configured, or the connection fails.
pub async fn kafka(k: KafkaAccess<'_>) -> anyhow::Result<KafkaClient> {
    super::clients::kafka(
        k.settings,
        k.request_timeout,
        Some("cannot connect to the Kafka cluster"),
    )
    .await
}

/// The brokers of `states` whose Kafka cannot cordon (older than the cordoning feature).
#[must_use]
pub fn unsupported_brokers(states: &[(i32, CordonState)]) -> Vec<i32> {
    states
        .iter()
        .filter(|(_, s)| *s == CordonState::Unsupported)
        .map(|(b, _)| *b)
        .collect()
}

/// The cordon state of each broker.
///
/// # Errors
/// A broker's configs cannot be read.
pub async fn states(
    kafka: &KafkaClient,
    brokers: &[i32],
) -> anyhow::Result<Vec<(i32, CordonState)>> {
    let mut out = Vec::new();
    for &b in brokers {
        let entries = kafka
            .describe_broker_configs(b)
            .await
            .with_context(|| format!("cannot read the configs of broker {b}"))?;
        out.push((b, cordon_state(&entries)));
    }
    Ok(out)
}

/// Cordons (`cordon`) or uncordons `broker`, and waits (up to 30 s) until the broker shows it.
///
/// # Errors
/// The change or the read-back fails.
pub async fn set(kafka: &KafkaClient, broker: i32, cordon: bool) -> anyhow::Result<()> {
    let change = if cordon {
        ConfigChange::set(CORDON_KEY, CORDON_ALL)
    } else {
        ConfigChange::delete(CORDON_KEY)
    };
    kafka
        .incremental_alter_configs(ConfigTarget::Broker(broker), vec![change])
        .await
        .with_context(|| {
            format!(
                "cannot {} broker {broker}",
                if cordon { "cordon" } else { "uncordon" }
            )
        })?;
    // The controller commits the change at once; the broker applies it (and reports it to the
    // controller's placement) a moment later. Read it back so the caller acts on a cordon that
    // is in effect.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let entries = kafka
            .describe_broker_configs(broker)
            .await
            .with_context(|| format!("cannot read the configs of broker {broker}"))?;
        if matches!(cordon_state(&entries), CordonState::Cordoned(_)) == cordon {
            return Ok(());
        }
        if std::time::Instant::now() > deadline {
            tracing::warn!("broker {broker} does not show the change of {CORDON_KEY} yet");
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// What is said of brokers that do not know the cordon key.
#[must_use]
pub fn unsupported(brokers: &[i32]) -> String {
    format!(
        "broker(s) {} do not support cordoning (`{CORDON_KEY}`, KIP-1066, Kafka 4.3+)",
        join(brokers)
    )
}

/// Broker ids joined with commas.
#[must_use]
pub fn join(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

/// Brokers kafkaops cordoned for a removal that runs on without a kafkaops process following
/// it (`--no-wait`, Ctrl-C leaving it running, a timeout): `rebalance stop` uncordons them when
/// it stops that task.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
struct CordonRecords {
    /// Task id -> brokers kafkaops cordoned for it.
    removals: std::collections::BTreeMap<String, Vec<i32>>,
}

fn records_path(k: KafkaAccess<'_>) -> Option<std::path::PathBuf> {
    let servers = k.settings.bootstrap_servers.as_ref()?;
    let dir = std::env::var_os("KAFKAOPS_STATE_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(crate::state::default_state_dir, std::path::PathBuf::from);
    Some(dir.join(crate::state::file_name("cordons", &servers.value)))
}

/// After `rebalance stop` stopped `task_id`: uncordons the brokers kafkaops cordoned for it.
pub async fn after_stop(k: KafkaAccess<'_>, reporter: &dyn Reporter, task_id: &str) {
    let Some(path) = records_path(k) else {
        return;
    };
    let mut records: CordonRecords = match crate::state::load(&path) {
        Ok(Some(r)) => r,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!("{e:#}");
            return;
        }
    };
    let Some(brokers) = records.removals.remove(task_id) else {
        return;
    };
    let Ok(kafka) = kafka(k).await else {
        reporter.note(&format!(
            "Warning: cannot reach Kafka to uncordon broker(s) {}: `kafkaops broker uncordon --brokers {}`",
            join(&brokers),
            join(&brokers)
        ));
        return;
    };
    let cordon = RemovalCordon {
        kafka,
        ours: brokers,
    };
    cordon
        .after(
            reporter,
            &Outcome::Failed {
                task_id: Some(task_id.to_string()),
            },
        )
        .await;
    if let Err(e) = crate::state::save(&path, &records) {
        tracing::warn!("{e:#}");
    }
}

/// The cordon kafkaops put on the leaving brokers of a `rebalance remove`.
pub struct RemovalCordon {
    kafka: KafkaClient,
    /// The brokers kafkaops cordoned (not those that were cordoned already).
    ours: Vec<i32>,
}

/// Before `rebalance remove --execute`: cordons the leaving brokers that are not cordoned yet.
/// `None` (with a warning) without Kafka bootstrap servers or on a cluster without KIP-1066.
///
/// # Errors
/// Kafka cannot be reached, or a broker's configs cannot be read or changed.
pub async fn before_removal(
    k: KafkaAccess<'_>,
    reporter: &dyn Reporter,
    brokers: &[i32],
) -> anyhow::Result<Option<RemovalCordon>> {
    if k.settings.bootstrap_servers.is_none() {
        reporter.note(
            "Warning: no Kafka bootstrap servers given: the leaving brokers are not cordoned, so \
             topics created during the removal may still get replicas on them",
        );
        return Ok(None);
    }
    let kafka = kafka(k).await?;
    let before = states(&kafka, brokers).await?;
    let missing = unsupported_brokers(&before);
    if !missing.is_empty() {
        reporter.note(&format!(
            "Warning: {}: topics created during the removal may still get replicas on the leaving brokers",
            unsupported(&missing)
        ));
        return Ok(None);
    }
    let ours: Vec<i32> = before
        .iter()
        .filter(|(_, s)| *s == CordonState::NotCordoned)
        .map(|(b, _)| *b)
        .collect();
    for &b in &ours {
        set(&kafka, b, true).await?;
    }
    if !ours.is_empty() {
        reporter.note(&format!(
            "Cordoned broker(s) {} so that no new partition lands on them during the removal",
            join(&ours)
        ));
    }
    Ok(Some(RemovalCordon { kafka, ours }))
}

impl RemovalCordon {
    /// After the removal's flow: uncordons what kafkaops cordoned when the removal did not
    /// happen; otherwise the brokers stay cordoned (they are leaving).
    pub async fn after(self, reporter: &dyn Reporter, outcome: &Outcome) {
        self.after_with(None, reporter, outcome).await;
    }

    /// [`Self::after`], recording the cordon for `rebalance stop` when the removal runs on
    /// without this process.
    pub async fn after_run(self, k: KafkaAccess<'_>, reporter: &dyn Reporter, outcome: &Outcome) {
        self.after_with(Some(k), reporter, outcome).await;
    }

    async fn after_with(
        self,
        k: Option<KafkaAccess<'_>>,
        reporter: &dyn Reporter,
        outcome: &Outcome,
    ) {
        if self.ours.is_empty() {
            return;
        }
        if !uncordon_after(outcome) {
            let running_on = match outcome {
                Outcome::Started { task_id }
                | Outcome::TimedOut { task_id }
                | Outcome::Interrupted { task_id, .. } => task_id.clone(),
                _ => None,
            };
            if let (Some(k), Some(task)) = (k, running_on)
                && let Some(path) = records_path(k)
            {
                let mut records: CordonRecords =
                    crate::state::load(&path).ok().flatten().unwrap_or_default();
                records.removals.insert(task, self.ours.clone());
                if let Err(e) = crate::state::save(&path, &records) {
                    tracing::warn!("{e:#}");
                }
            }
            reporter.note(&format!(
                "Broker(s) {} stay cordoned (`kafkaops broker uncordon --brokers {}` if they stay)",
                join(&self.ours),
                join(&self.ours)
            ));
            return;
        }
        let mut failed = Vec::new();
        for &b in &self.ours {
            if let Err(e) = set(&self.kafka, b, false).await {
                tracing::warn!("{e:#}");
                failed.push(b);
            }
        }
        if failed.is_empty() {
            reporter.note(&format!(
                "Uncordoned broker(s) {}: the removal did not complete",
                join(&self.ours)
            ));
        } else {
            reporter.note(&format!(
                "Warning: broker(s) {} are still cordoned: `kafkaops broker uncordon --brokers {}`",
                join(&failed),
                join(&failed)
            ));
        }
    }
}

/// The cordoned brokers among `brokers`, for `rebalance status` (`None`: unknown, e.g. no Kafka
/// bootstrap servers or a cluster without KIP-1066).
pub async fn cordoned_brokers(k: KafkaAccess<'_>) -> Option<Vec<i32>> {
    k.settings.bootstrap_servers.as_ref()?;
    let kafka = kafka(k).await.ok()?;
    let brokers: Vec<i32> = kafka
        .describe_cluster()
        .await
        .ok()?
        .nodes
        .iter()
        .map(|b| b.id)
        .collect();
    let states = states(&kafka, &brokers).await.ok()?;
    if states.iter().all(|(_, s)| *s == CordonState::Unsupported) {
        return None;
    }
    Some(
        states
            .into_iter()
            .filter(|(_, s)| matches!(s, CordonState::Cordoned(_)))
            .map(|(b, _)| b)
            .collect(),
    )
}
