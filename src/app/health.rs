//! The use case behind `kafkaops health`: read what kafkaops observes of the cluster (the same
//! Kafka observation the roll decides on, the topics' throttles, Cruise Control's state) into
//! the engine's [`HealthFacts`], whose verdict [`crate::engine::health::evaluate`] decides.
//!
//! The holds that count (`kafkaops hold`) are read with the rest and shown as `held` reasons.
//!
//! Why here: the CLI (`health`, `--watch`, `--exit-when-healthy`) and `operate` (its
//! `/metrics`) ask the same question; the translation from the observation is pure
//! ([`from_observation`]) so it is unit-tested without a cluster.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::cruise_control::LogObserver;
use crate::cruise_control::convert::anomaly_records;
use crate::cruise_control::params::Substate;
use crate::engine::cordon::{CordonState, cordon_state};
use crate::engine::health::{
    BrokerFacts, BrokerStatus, CruiseControlFacts, HealthFacts, PartitionFacts, QuorumFacts,
    VoterFacts,
};
use crate::engine::model::{NodeSnapshot, effective_min_isr_with};
use crate::engine::throttles::{self, Throttle, from_broker_configs};
use crate::engine::view::Readiness;
use crate::kafka::observation::{BrokerState, KafkaObservation};
use crate::kafka::{ClusterObserver, KafkaClient};
use crate::settings::CruiseControlSettings;

/// Observes the cluster (the Kafka client, and where the holds live) and Cruise Control (when
/// configured) for the verdict.
///
/// # Errors
/// Kafka cannot be observed (unreachable, no quorum answer) or its topic configs cannot be
/// read. Cruise Control failures are facts ([`CruiseControlFacts::Unreachable`]), not errors.
pub async fn facts(
    (kafka, holds): (&KafkaClient, &super::hold::Holds),
    cc: &CruiseControlSettings,
    request_timeout: Duration,
) -> anyhow::Result<HealthFacts> {
    let (observed, cc) = tokio::join!(kafka.observe(), cruise_control(cc, request_timeout));
    let o = observed.context("cannot observe the Kafka cluster")?;
    let names: Vec<String> = o.topics.iter().map(|t| t.name.clone()).collect();
    let topic_throttles = super::throttles::topic_throttles(kafka, &names).await?;
    let mut f = from_observation(&o, topic_throttles, cc);
    add_holds(holds, kafka, &mut f).await;
    Ok(f)
}

/// Adds the holds that count now (issue 29) to `f`. Holds that cannot be read are logged, not
/// fatal: the rest of the verdict still answers.
pub async fn add_holds(holds: &super::hold::Holds, kafka: &KafkaClient, f: &mut HealthFacts) {
    match super::hold::read(holds, kafka).await {
        Ok(holds) => {
            let now = super::hold::now();
            f.holds = holds.into_iter().filter(|h| h.is_active(now)).collect();
        }
        Err(e) => tracing::warn!("node holds not shown: {e:#}"),
    }
}

/// What Cruise Control says: its executor, load monitor and anomaly detector.
pub async fn cruise_control(
    settings: &CruiseControlSettings,
    request_timeout: Duration,
) -> CruiseControlFacts {
    if settings.url.is_none() {
        return CruiseControlFacts::NotConfigured;
    }
    let cc = match super::clients::cruise_control(settings, super::clients::CcOptions::default()) {
        Ok(cc) => cc,
        Err(e) => {
            return CruiseControlFacts::Unreachable {
                error: e.to_string(),
            };
        }
    };
    let state = cc
        .state(
            &[
                Substate::Executor,
                Substate::Monitor,
                Substate::AnomalyDetector,
            ],
            false,
            Instant::now() + request_timeout,
            &LogObserver,
        )
        .await;
    match state {
        Err(e) => CruiseControlFacts::Unreachable {
            error: e.to_string(),
        },
        Ok(s) => {
            let executor = s.executor_view();
            CruiseControlFacts::Seen {
                monitor_not_ready: match s.monitor_view().map(|m| m.readiness()) {
                    Some(Readiness::Ready) => None,
                    Some(Readiness::NotReady { reason, .. }) => Some(reason),
                    None => Some("its answer had no load monitor state".into()),
                },
                executing: (!executor.is_idle()).then(|| executor.describe()),
                anomalies: anomaly_records(&s.anomaly_detector.unwrap_or_default()),
            }
        }
    }
}

fn broker_status(o: &KafkaObservation, id: i32) -> BrokerStatus {
    let Some(n) = o.node(id) else {
        return BrokerStatus::Fenced;
    };
    match n.broker_state {
        Some(BrokerState::Recovery) => {
            return BrokerStatus::Recovering(n.recovery.map(|r| r.remaining_logs));
        }
        Some(
            s @ (BrokerState::Starting
            | BrokerState::PendingControlledShutdown
            | BrokerState::ShuttingDown),
        ) if n.fenced != Some(true) => {
            return BrokerStatus::NotServing(format!("{s:?}"));
        }
        _ => {}
    }
    if n.fenced == Some(true) {
        return BrokerStatus::Fenced;
    }
    if let Some(e) = o.unreachable_brokers.get(&id) {
        return BrokerStatus::Unreachable(e.clone());
    }
    if n.broker_state == Some(BrokerState::NotRunning) {
        return BrokerStatus::NotServing("NotRunning".into());
    }
    BrokerStatus::Serving
}

/// The engine's facts from one observation (pure): brokers with their status and cordon,
/// partitions with their effective `min.insync.replicas`, the quorum, the reassignments, every
/// throttle (the brokers' from the observation, the topics' as read), Cruise Control's state.
///
/// The effective `min.insync.replicas` is the topic override, else the highest broker-level
/// value among the partition's replicas ([`effective_min_isr_with`]); a replica whose broker did
/// not answer (stopped) counts with the highest value any broker reported, so a stopped broker
/// does not hide the under-min-ISR partitions it causes.
#[must_use]
pub fn from_observation(
    o: &KafkaObservation,
    topic_throttles: Vec<Throttle>,
    cruise_control: CruiseControlFacts,
) -> HealthFacts {
    let snapshot = crate::kafka::convert::to_snapshot(o);
    let cluster_max = snapshot
        .nodes
        .iter()
        .filter_map(NodeSnapshot::broker_min_isr)
        .max();
    let by_id: BTreeMap<i32, &NodeSnapshot> = snapshot.nodes.iter().map(|n| (n.id.0, n)).collect();
    let partitions = snapshot
        .partitions
        .iter()
        .map(|p| PartitionFacts {
            topic: p.tp.topic.clone(),
            partition: p.tp.partition,
            replicas: p.replicas.iter().map(|r| r.0).collect(),
            isr: p.isr.iter().map(|r| r.0).collect(),
            leader: p.leader.map(|l| l.0),
            adding: p.adding.iter().map(|r| r.0).collect(),
            min_isr: effective_min_isr_with(&snapshot.topics, p, |id| {
                by_id.get(&id.0).map(|n| n.broker_min_isr().or(cluster_max))
            }),
        })
        .collect();
    let brokers = o
        .nodes
        .iter()
        .filter(|n| n.roles.broker)
        .map(|n| BrokerFacts {
            id: n.id,
            status: broker_status(o, n.id),
            cordoned: match o.broker_configs.get(&n.id).map(|c| cordon_state(c)) {
                Some(CordonState::Cordoned(v)) => Some(v),
                _ => None,
            },
        })
        .collect();
    let mut all_throttles = topic_throttles;
    for (id, entries) in &o.broker_configs {
        all_throttles.extend(from_broker_configs(*id, entries));
    }
    HealthFacts {
        brokers,
        partitions,
        quorum: QuorumFacts {
            leader: o.quorum.leader_id,
            voters: o
                .quorum
                .voters
                .iter()
                .map(|v| VoterFacts {
                    id: v.id,
                    last_caught_up_ms: v.last_caught_up_timestamp,
                })
                .collect(),
            fetch_timeout_ms: o.quorum.fetch_timeout_ms,
        },
        unknown_replica_ids: o.unknown_replica_ids.clone(),
        reassignments: o.reassignments.clone(),
        throttles: throttles::dedup(all_throttles),
        cruise_control,
        holds: Vec::new(),
    }
}
