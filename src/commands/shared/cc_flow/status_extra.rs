//! What `rebalance status` adds to the executor's counters: which kind of task runs (a user's or
//! self-healing), how long it has run and how long it may still take, the concurrency caps
//! Cruise Control reports, the intra-broker and aborting counters, and the replication throttle
//! actually in force on the brokers (Kafka's `leader.`/`follower.replication.throttled.rate`
//! broker configs, read through the Admin API when a Kafka connection is configured: Cruise
//! Control sets them during an execution and a leftover one slows every later reassignment).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::commands::Ctx;
use crate::cruise_control::model::ExecutorState;
use crate::kafka::KafkaAdmin;

/// The execution details of `rebalance status`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ExecutionDetails {
    /// `user` or `self-healing`.
    pub task_kind: Option<&'static str>,
    /// When Cruise Control started it (epoch ms, from `triggeredTaskReason`).
    pub started_ms: Option<i64>,
    pub elapsed_seconds: Option<u64>,
    /// Seconds left at the rate so far (data moved since the start).
    pub eta_seconds: Option<u64>,
    pub intra_broker_movements_total: u64,
    pub intra_broker_movements_finished: u64,
    pub aborting_partitions: u64,
    /// The concurrency caps Cruise Control reports, by its field name.
    pub concurrency: BTreeMap<&'static str, f64>,
}

/// The start date inside `triggeredTaskReason` ("… (Client: ip, Date: 2026-…Z)") (pure).
#[must_use]
pub fn started_ms(reason: &str) -> Option<i64> {
    let date = reason.rsplit("Date: ").next()?.trim_end_matches(')').trim();
    let t = humantime::parse_rfc3339_weak(date).ok()?;
    let d = t.duration_since(std::time::UNIX_EPOCH).ok()?;
    i64::try_from(d.as_millis()).ok()
}

/// The details of a busy executor at `now_ms` (pure).
#[must_use]
pub fn details(e: &ExecutorState, now_ms: i64) -> ExecutionDetails {
    let task_kind = match (
        e.triggered_user_task_id
            .as_deref()
            .filter(|t| !t.is_empty()),
        e.triggered_self_healing_task_id
            .as_deref()
            .filter(|t| !t.is_empty()),
    ) {
        (Some(_), _) => Some("user"),
        (None, Some(_)) => Some("self-healing"),
        _ => None,
    };
    let started = e.triggered_task_reason.as_deref().and_then(started_ms);
    let elapsed = started.map(|s| u64::try_from((now_ms - s).max(0) / 1000).unwrap_or(0));
    let p = crate::engine::view::ExecutorState::from(e).progress();
    let eta = elapsed.and_then(|secs| {
        #[allow(clippy::cast_precision_loss)]
        let (_, eta) = p.rate_and_eta(p.data_finished_mb, secs as f64);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        eta.map(|s| s.round() as u64)
    });
    let mut concurrency = BTreeMap::new();
    for (name, v) in [
        (
            "maximumConcurrentPartitionMovementsPerBroker",
            e.maximum_concurrent_partition_movements_per_broker,
        ),
        (
            "minimumConcurrentPartitionMovementsPerBroker",
            e.minimum_concurrent_partition_movements_per_broker,
        ),
        (
            "averageConcurrentPartitionMovementsPerBroker",
            e.average_concurrent_partition_movements_per_broker,
        ),
        (
            "maximumBrokerLeaderMovementConcurrency",
            e.maximum_broker_leader_movement_concurrency,
        ),
        (
            "clusterLeaderMovementConcurrency",
            e.cluster_leader_movement_concurrency,
        ),
    ] {
        if let Some(v) = v {
            concurrency.insert(name, v);
        }
    }
    ExecutionDetails {
        task_kind,
        started_ms: started,
        elapsed_seconds: elapsed,
        eta_seconds: eta,
        intra_broker_movements_total: e.num_total_intra_broker_partition_movements,
        intra_broker_movements_finished: e.num_finished_intra_broker_partition_movements,
        aborting_partitions: e.aborting_partitions,
        concurrency,
    }
}

/// A replication throttle in force on a broker (bytes/s).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThrottleView {
    pub broker: i32,
    pub leader_rate: Option<u64>,
    pub follower_rate: Option<u64>,
}

/// The replication throttles set on the brokers; `None` without a Kafka connection.
pub async fn throttles(ctx: &Ctx) -> Option<Vec<ThrottleView>> {
    ctx.settings.kafka.bootstrap_servers.as_ref()?;
    let timeout = ctx.request_timeout();
    let read = async {
        let kafka = crate::app::clients::kafka(&ctx.settings.kafka, timeout, None).await?;
        let mut out = Vec::new();
        for node in kafka.describe_cluster().await?.nodes {
            let configs = kafka.describe_broker_configs(node.id).await?;
            let rate = |key: &str| {
                configs
                    .iter()
                    .find(|c| c.name == key)
                    .and_then(|c| c.value.as_deref())
                    .and_then(|v| v.parse::<u64>().ok())
            };
            let (leader, follower) = (
                rate("leader.replication.throttled.rate"),
                rate("follower.replication.throttled.rate"),
            );
            if leader.is_some() || follower.is_some() {
                out.push(ThrottleView {
                    broker: node.id,
                    leader_rate: leader,
                    follower_rate: follower,
                });
            }
        }
        out.sort_by_key(|t| t.broker);
        Ok::<_, anyhow::Error>(out)
    };
    match read.await {
        Ok(t) => Some(t),
        Err(e) => {
            tracing::warn!("cannot read the brokers' replication throttles: {e:#}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_eta_kind_and_caps_of_a_running_execution() {
        let e = ExecutorState {
            state: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into(),
            triggered_user_task_id: Some(String::new()),
            triggered_self_healing_task_id: Some("sh".into()),
            triggered_task_reason: Some(
                "Self healing for GOAL_VIOLATION (Client: 127.0.0.1, Date: 2026-11-23T04:00:00Z)"
                    .into(),
            ),
            finished_data_movement: Some(100.0),
            total_data_to_move: Some(400.0),
            aborting_partitions: 2,
            maximum_concurrent_partition_movements_per_broker: Some(5.0),
            ..ExecutorState::default()
        };
        let start = started_ms(e.triggered_task_reason.as_deref().unwrap()).unwrap();
        let d = details(&e, start + 60_000);
        assert_eq!(d.task_kind, Some("self-healing"));
        assert_eq!(d.elapsed_seconds, Some(60));
        // 100 MB in 60 s, 300 MB left: 180 s.
        assert_eq!(d.eta_seconds, Some(180));
        assert_eq!(d.aborting_partitions, 2);
        assert_eq!(
            d.concurrency["maximumConcurrentPartitionMovementsPerBroker"],
            5.0
        );
        assert_eq!(started_ms("no date"), None);
    }
}
