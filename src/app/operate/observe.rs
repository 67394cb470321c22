//! One observation of the world for the engine: Kafka's registered brokers with the replicas
//! each holds and the reassignments in flight, Cruise Control's executor and anomaly detector
//! (and `user_tasks` only when a saved execution request must be resolved: every request holds
//! one of Cruise Control's few user-task slots). A side that cannot be read is an `Err` with the
//! reason; the engine then waits rather than guesses.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::cruise_control::CruiseControlClient;
use crate::cruise_control::convert::anomaly_records as records;
use crate::cruise_control::params::Substate;
use crate::engine::health::{CruiseControlFacts, HealthFacts, ReassignmentProgress};
use crate::engine::holds::Hold;
use crate::engine::model::Millis;
use crate::engine::operate::{CcView, KafkaView, Observation};
use crate::engine::replicas::TopicFacts;
use crate::engine::view::UserTask;
use crate::kafka::{KafkaAdmin, KafkaClient, KafkaObservation};

use super::ports::{ClusterFacts, CruiseControlPort, KafkaPort, KafkaRead};
use crate::app::hold::Holds;

/// The loop's Kafka side: the client, and where the node holds live (chosen once,
/// [`crate::app::hold::Holds::open`]).
#[derive(Clone)]
pub struct LiveKafka {
    pub client: KafkaClient,
    pub holds: Holds,
}

/// How many caught-up brokers' partition metadata the loop reads: one. The loop acts on
/// replica counts and its health verdict is for `/metrics`; the roll's own observation reads
/// [`crate::kafka::client::METADATA_SOURCES`] and intersects their ISRs (issue #27: each view
/// is a whole Metadata answer to decode, 4 MiB at 100,000 partitions).
pub const LOOP_METADATA_SOURCES: usize = 1;

/// Reads Kafka: registered brokers, replicas per broker, reassignments in flight, and the holds
/// (`holds`: where they live).
pub async fn kafka(kafka: &KafkaClient, holds: &Holds) -> Result<KafkaView, String> {
    kafka_and_health(kafka, holds, false).await.0
}

/// One loop's read of Kafka (issue #27): one observation ([`LOOP_METADATA_SOURCES`] caught-up
/// broker's partition metadata, the brokers, the quorum, the reassignments) for both the
/// loop's [`KafkaView`] and, with `health`, the Kafka side of the health verdict (`None`: not
/// asked, or Kafka could not be read). The holds are read only when their topic exists (the
/// observation lists it), so an idle loop sends one Metadata request.
pub async fn kafka_and_health(
    kafka: &KafkaClient,
    at: &Holds,
    health: bool,
) -> (Result<KafkaView, String>, Option<HealthFacts>) {
    let r = read(kafka, at, health, false).await;
    (r.view, r.health)
}

/// [`kafka_and_health`], and with `progress` (and the health side read) one sample of the
/// reassignments in flight ([`crate::app::health::sample_progress`]: DescribeLogDirs to their
/// destinations), only while some are in flight: an idle loop sends no DescribeLogDirs.
pub async fn read(kafka: &KafkaClient, at: &Holds, health: bool, progress: bool) -> KafkaRead {
    let o = match kafka.observe_from(LOOP_METADATA_SOURCES).await {
        Ok(o) => o,
        Err(e) => {
            return KafkaRead {
                view: Err(format!("{e:#}")),
                health: None,
                progress: Vec::new(),
            };
        }
    };
    let (view, holds) = view_and_holds(kafka, at, &o).await;
    let health = if health {
        health_facts(kafka, &o, holds).await
    } else {
        None
    };
    let progress = if progress && health.is_some() && !o.reassignments.is_empty() {
        crate::app::health::sample_progress(kafka, &o).await
    } else {
        Vec::new()
    };
    KafkaRead {
        view,
        health,
        progress,
    }
}

/// The loop's view of `o` and the holds read with it.
async fn view_and_holds(
    kafka: &KafkaClient,
    at: &Holds,
    o: &KafkaObservation,
) -> (Result<KafkaView, String>, Result<Vec<Hold>, String>) {
    // The holds live in the cluster too (issue 29); one that cannot be read cannot be
    // honoured, so the Kafka side is then unknown and the engine waits.
    // In the topic store, no topic means no holds; a Kubernetes store is always read.
    let topic_store_empty =
        matches!(at, Holds::Topic) && o.topic(crate::kafka::holds::HOLDS_TOPIC).is_none();
    let holds = if !topic_store_empty {
        crate::app::hold::read(at, kafka)
            .await
            .map_err(|e| format!("{e:#}"))
    } else {
        Ok(Vec::new())
    };
    let now = crate::app::hold::now();
    let view = holds.as_ref().map_err(Clone::clone).map(|h| {
        let held = crate::engine::holds::active(h, now)
            .into_iter()
            .map(|(n, why)| (n.0, why))
            .collect();
        view_of(o, held)
    });
    (view, holds)
}

/// The Kafka side of the health verdict from `o` (`None`: the topics' throttles could not be
/// read).
async fn health_facts(
    kafka: &KafkaClient,
    o: &KafkaObservation,
    holds: Result<Vec<Hold>, String>,
) -> Option<HealthFacts> {
    let names: Vec<String> = o.topics.iter().map(|t| t.name.clone()).collect();
    let topic_throttles = match crate::app::throttles::topic_throttles(kafka, &names).await {
        Ok(t) => t,
        Err(e) => {
            tracing::debug!("health: {e:#}");
            return None;
        }
    };
    let mut f =
        crate::app::health::from_observation(o, topic_throttles, CruiseControlFacts::NotConfigured);
    let now = crate::app::hold::now();
    match holds {
        Ok(h) => f.holds = h.into_iter().filter(|h| h.is_active(now)).collect(),
        Err(e) => tracing::warn!("node holds not shown: {e}"),
    }
    Some(f)
}

/// The loop's view of one observation (pure): the registered (unfenced) brokers with the
/// replicas each holds, every topic's partition count and replication factors, the racks, the
/// reassignments in flight, the holds that count.
#[must_use]
pub fn view_of(o: &KafkaObservation, held: BTreeMap<i32, String>) -> KafkaView {
    let registered = o
        .nodes
        .iter()
        .filter(|n| n.roles.broker && n.fenced == Some(false));
    let mut brokers: BTreeMap<i32, u64> = registered.clone().map(|n| (n.id, 0)).collect();
    let racks = registered.filter_map(|n| n.rack.clone()).collect();
    let to_u16 = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
    let mut topics = BTreeMap::new();
    for t in &o.topics {
        let (mut min_rf, mut max_rf) = (usize::MAX, 0);
        for p in &t.partitions {
            min_rf = min_rf.min(p.replicas.len());
            max_rf = max_rf.max(p.replicas.len());
            // Replicas on brokers that are not registered (stopped) do not make them brokers.
            for r in &p.replicas {
                if let Some(n) = brokers.get_mut(r) {
                    *n += 1;
                }
            }
        }
        if t.partitions.is_empty() {
            min_rf = 0;
        }
        topics.insert(
            t.name.clone(),
            TopicFacts {
                partitions: u32::try_from(t.partitions.len()).unwrap_or(u32::MAX),
                min_rf: to_u16(min_rf),
                max_rf: to_u16(max_rf),
                min_isr: None,
            },
        );
    }
    KafkaView {
        brokers,
        reassignments: o.reassignments.clone(),
        topics,
        racks,
        held,
    }
}

/// Reads Cruise Control: executor, anomaly detector and, when asked, the user tasks.
pub async fn cruise_control(
    cc: &CruiseControlClient,
    user_tasks: bool,
    timeout: Duration,
) -> Result<CcView, String> {
    let deadline = Instant::now() + timeout;
    let state = cc
        .state(
            &[Substate::Executor, Substate::AnomalyDetector],
            false,
            deadline,
            &super::wake::QuietRetries,
        )
        .await
        .map_err(|e| e.to_string())?;
    let tasks = if user_tasks {
        Some(
            cc.user_tasks(&[], false, deadline, &super::wake::QuietRetries)
                .await
                .map_err(|e| e.to_string())?
                .user_tasks
                .iter()
                .map(UserTask::from)
                .collect(),
        )
    } else {
        None
    };
    Ok(CcView {
        executor: state.executor_view(),
        anomalies: records(&state.anomaly_detector.unwrap_or_default()),
        user_tasks: tasks,
    })
}

/// Both sides at once, and the Kafka side of the health verdict from the same read of Kafka
/// (`None`: Kafka could not be read for it) with the progress of the reassignments in flight.
pub async fn observe<K: KafkaPort, C: CruiseControlPort>(
    kafka_client: &K,
    cc: &C,
    user_tasks: bool,
    timeout: Duration,
    now: Millis,
) -> (Observation, Option<HealthFacts>, Vec<ReassignmentProgress>) {
    let (k, c) = tokio::join!(kafka_client.read(), cc.observe(user_tasks, timeout));
    let o = Observation {
        now,
        kafka: k.view,
        cc: c,
        operator: None,
        platform_error: None,
        other_roll: None,
        roll: None,
    };
    (o, k.health, k.progress)
}

/// What the policy is checked against (read only when the policy file changed): the brokers
/// Kafka lists and the topics that exist.
pub async fn cluster_facts(kafka: &KafkaClient) -> Result<ClusterFacts, String> {
    let cluster = kafka
        .describe_cluster()
        .await
        .map_err(|e| format!("{e:#}"))?;
    // The wire path, like the loop's view: librdkafka's listing would leave every partition
    // of the cluster in its metadata cache.
    let topics = kafka
        .describe_all_topics()
        .await
        .map_err(|e| format!("{e:#}"))?;
    Ok(ClusterFacts {
        brokers: cluster.nodes.iter().map(|n| n.id).collect(),
        topics: topics.into_iter().map(|t| t.name).collect(),
    })
}

impl KafkaPort for LiveKafka {
    async fn observe(&self) -> Result<KafkaView, String> {
        kafka(&self.client, &self.holds).await
    }

    async fn cluster_facts(&self) -> Result<ClusterFacts, String> {
        cluster_facts(&self.client).await
    }

    async fn health(&self) -> Option<HealthFacts> {
        kafka_and_health(&self.client, &self.holds, true).await.1
    }

    async fn observe_with_health(&self) -> (Result<KafkaView, String>, Option<HealthFacts>) {
        kafka_and_health(&self.client, &self.holds, true).await
    }

    async fn read(&self) -> KafkaRead {
        read(&self.client, &self.holds, true, true).await
    }
}

impl CruiseControlPort for CruiseControlClient {
    async fn observe(&self, user_tasks: bool, timeout: Duration) -> Result<CcView, String> {
        cruise_control(self, user_tasks, timeout).await
    }
}
