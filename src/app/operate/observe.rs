//! One observation of the world for the engine: Kafka's registered brokers with the replicas
//! each holds and the reassignments in flight, Cruise Control's executor and anomaly detector
//! (and `user_tasks` only when a saved execution request must be resolved: every request holds
//! one of Cruise Control's few user-task slots). A side that cannot be read is an `Err` with the
//! reason; the engine then waits rather than guesses.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::app::hold::Holds;
use crate::cruise_control::CruiseControlClient;
use crate::cruise_control::convert::anomaly_records as records;
use crate::cruise_control::params::Substate;
use crate::engine::model::Millis;
use crate::engine::operate::{CcView, KafkaView, Observation};
use crate::engine::replicas::TopicFacts;
use crate::engine::view::UserTask;
use crate::kafka::{KafkaAdmin, KafkaClient};

use super::ports::{ClusterFacts, CruiseControlPort, KafkaPort};

/// The loop's Kafka side: the client, and where the node holds live (chosen once,
/// [`crate::app::hold::Holds::open`]).
#[derive(Clone)]
pub struct LiveKafka {
    pub client: KafkaClient,
    pub holds: Holds,
}

/// Reads Kafka: registered brokers, replicas per broker, reassignments in flight, and the holds
/// (`holds`: where they live).
pub async fn kafka(kafka: &KafkaClient, holds: &Holds) -> Result<KafkaView, String> {
    let cluster = kafka
        .describe_cluster()
        .await
        .map_err(|e| format!("{e:#}"))?;
    let mut brokers: BTreeMap<i32, u64> = cluster.nodes.iter().map(|n| (n.id, 0)).collect();
    let racks = cluster
        .nodes
        .iter()
        .filter_map(|n| n.rack.clone())
        .collect();
    let mut facts = BTreeMap::new();
    // One Metadata answer (at 100,000 partitions: 4 MiB a loop, not twice that through
    // librdkafka's listing, DescribeTopics and its metadata cache).
    let described = kafka
        .describe_all_topics()
        .await
        .map_err(|e| format!("{e:#}"))?;
    if !described.is_empty() {
        for t in &described {
            for p in &t.partitions {
                for r in &p.replicas {
                    *brokers.entry(*r).or_insert(0) += 1;
                }
            }
            let counts = t.partitions.iter().map(|p| p.replicas.len());
            let to_u16 = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
            facts.insert(
                t.name.clone(),
                TopicFacts {
                    partitions: u32::try_from(t.partitions.len()).unwrap_or(u32::MAX),
                    min_rf: to_u16(counts.clone().min().unwrap_or(0)),
                    max_rf: to_u16(counts.max().unwrap_or(0)),
                    min_isr: None,
                },
            );
        }
        // Replicas on brokers that are not registered (stopped) do not make them brokers.
        let registered: Vec<i32> = cluster.nodes.iter().map(|n| n.id).collect();
        brokers.retain(|b, _| registered.contains(b));
    }
    let reassignments = kafka
        .list_reassignments()
        .await
        .map_err(|e| format!("{e:#}"))?;
    // The holds live in the cluster too (issue 29); one that cannot be read cannot be honoured,
    // so the Kafka side is then unknown and the engine waits.
    let held = crate::app::hold::active_now(holds, kafka)
        .await
        .map_err(|e| format!("{e:#}"))?
        .into_iter()
        .map(|(n, why)| (n.0, why))
        .collect();
    Ok(KafkaView {
        brokers,
        reassignments,
        topics: facts,
        racks,
        held,
    })
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

/// Both sides at once.
pub async fn observe<K: KafkaPort, C: CruiseControlPort>(
    kafka_client: &K,
    cc: &C,
    user_tasks: bool,
    timeout: Duration,
    now: Millis,
) -> Observation {
    let (k, c) = tokio::join!(kafka_client.observe(), cc.observe(user_tasks, timeout));
    Observation {
        now,
        kafka: k,
        cc: c,
        operator: None,
        platform_error: None,
        other_roll: None,
        roll: None,
    }
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

    async fn health(&self) -> Option<crate::engine::health::HealthFacts> {
        use crate::engine::health::CruiseControlFacts;
        use crate::kafka::ClusterObserver;
        let o = match ClusterObserver::observe(&self.client).await {
            Ok(o) => o,
            Err(e) => {
                tracing::debug!("health: cannot observe Kafka: {e}");
                return None;
            }
        };
        let names: Vec<String> = o.topics.iter().map(|t| t.name.clone()).collect();
        let topic_throttles = crate::app::throttles::topic_throttles(&self.client, &names)
            .await
            .inspect_err(|e| tracing::debug!("health: {e:#}"))
            .ok()?;
        let mut f = crate::app::health::from_observation(
            &o,
            topic_throttles,
            CruiseControlFacts::NotConfigured,
        );
        crate::app::health::add_holds(&self.holds, &self.client, &mut f).await;
        Some(f)
    }
}

impl CruiseControlPort for CruiseControlClient {
    async fn observe(&self, user_tasks: bool, timeout: Duration) -> Result<CcView, String> {
        cruise_control(self, user_tasks, timeout).await
    }
}
