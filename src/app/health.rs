//! The use case behind `kafkaops health`: read what kafkaops observes of the cluster (the same
//! Kafka observation the roll decides on, the topics' throttles, Cruise Control's state) into
//! the engine's [`HealthFacts`], whose verdict [`crate::engine::health::evaluate`] decides.
//!
//! The holds that count (`kafkaops hold`) are read with the rest and shown as `held` reasons.
//! Reassignments that made no progress need samples over time: [`facts_tracking`] takes one
//! into the caller's [`ProgressTracker`] (kept in memory by `--watch`, in a file of the state
//! directory by the one-shot `health`).
//!
//! Why here: the CLI (`health`, `--watch`, `--exit-when-healthy`) and `operate` (its
//! `/metrics`) ask the same question; the translation from the observation is pure
//! ([`from_observation`]) so it is unit-tested without a cluster.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::cruise_control::LogObserver;
use crate::cruise_control::convert::anomaly_records;
use crate::cruise_control::params::Substate;
use crate::engine::cordon::{CordonState, cordon_state};
use crate::engine::health::{
    BrokerFacts, BrokerStatus, CruiseControlFacts, HealthFacts, PartitionFacts, ProgressTracker,
    QuorumFacts, ReassignmentProgress, VoterFacts,
};
use crate::engine::model::MIN_ISR_KEY;
use crate::engine::throttles::{self, Throttle, from_broker_configs};
use crate::engine::view::{Readiness, Reassignment};
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
    cluster: (&KafkaClient, &super::hold::Holds),
    cc: &CruiseControlSettings,
    request_timeout: Duration,
) -> anyhow::Result<HealthFacts> {
    facts_tracking(cluster, cc, request_timeout, None).await
}

/// How long a reassignment may make no progress before it is `reassignment-stalled`, unless
/// `--stall-after` says otherwise (`health` and `operate` alike).
pub const DEFAULT_STALL_AFTER: Duration = Duration::from_secs(600);

/// The samples of reassignments kept between observations and how long one may make no
/// progress before it counts as stalled ([`crate::engine::health::progress`]).
pub type Progress<'a> = (&'a mut ProgressTracker, Duration);

/// [`facts`], and with `progress` the reassignments in flight sampled (their adding replicas'
/// log sizes on the destinations and ISR membership) into the tracker at the wall-clock time,
/// and those that made no progress for the threshold set as [`HealthFacts::stalled`].
///
/// # Errors
/// As [`facts`].
pub async fn facts_tracking(
    (kafka, holds): (&KafkaClient, &super::hold::Holds),
    cc: &CruiseControlSettings,
    request_timeout: Duration,
    progress: Option<Progress<'_>>,
) -> anyhow::Result<HealthFacts> {
    let (observed, cc) = tokio::join!(kafka.observe(), cruise_control(cc, request_timeout));
    let o = observed.context("cannot observe the Kafka cluster")?;
    let names: Vec<String> = o.topics.iter().map(|t| t.name.clone()).collect();
    let topic_throttles = super::throttles::topic_throttles(kafka, &names).await?;
    let mut f = from_observation(&o, topic_throttles, cc);
    add_holds(holds, kafka, &mut f).await;
    if let Some((tracker, after)) = progress {
        let sample = sample_progress(kafka, &o).await;
        let now = epoch_ms();
        tracker.observe(&sample, now);
        f.stalled = tracker.stalled(now, i64::try_from(after.as_millis()).unwrap_or(i64::MAX));
    }
    Ok(f)
}

/// Now in ms since the Unix epoch: samples kept in a file are judged across runs.
fn epoch_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// One sample of every reassignment in flight: which adding replicas are in the ISR, and each
/// one's log size on its destination (DescribeLogDirs to each destination broker, at once; a
/// destination that does not answer leaves its sizes unknown, logged).
pub async fn sample_progress(
    kafka: &KafkaClient,
    o: &KafkaObservation,
) -> Vec<ReassignmentProgress> {
    // destination -> topic -> partitions
    let mut wanted: BTreeMap<i32, BTreeMap<String, Vec<i32>>> = BTreeMap::new();
    for r in &o.reassignments {
        for a in &r.adding {
            wanted
                .entry(*a)
                .or_default()
                .entry(r.topic.clone())
                .or_default()
                .push(r.partition);
        }
    }
    let asks = wanted.iter().filter_map(|(id, parts)| {
        let n = o.node(*id)?;
        let address = format!("{}:{}", n.host.as_deref()?, n.port?);
        Some(async move {
            let sizes = async {
                let mut conn = kafka
                    .wire_connection_to(&address, "the progress of reassignments")
                    .await?;
                crate::kafka::wire_admin::replica_sizes(&mut conn, parts).await
            }
            .await;
            (*id, sizes)
        })
    });
    let mut sizes: BTreeMap<(i32, String, i32), i64> = BTreeMap::new();
    for (id, answer) in futures::future::join_all(asks).await {
        match answer {
            Ok(m) => sizes.extend(m.into_iter().map(|((t, p), b)| ((id, t, p), b))),
            Err(e) => tracing::debug!("reassignment progress on broker {id} unknown: {e}"),
        }
    }
    o.reassignments
        .iter()
        .map(|r| {
            let isr = o
                .topic(&r.topic)
                .and_then(|t| t.partitions.iter().find(|p| p.partition == r.partition))
                .map(|p| p.isr.clone())
                .unwrap_or_default();
            ReassignmentProgress {
                topic: r.topic.clone(),
                partition: r.partition,
                adding: r.adding.clone(),
                in_isr: r
                    .adding
                    .iter()
                    .copied()
                    .filter(|a| isr.contains(a))
                    .collect(),
                sizes: r
                    .adding
                    .iter()
                    .filter_map(|a| {
                        sizes
                            .get(&(*a, r.topic.clone(), r.partition))
                            .map(|b| (*a, *b))
                    })
                    .collect(),
            }
        })
        .collect()
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

/// Each partition with its effective `min.insync.replicas` (see [`from_observation`]).
fn partition_facts(o: &KafkaObservation) -> Vec<PartitionFacts> {
    // Each node's broker-level value (`None`: not reported); a node that did not answer
    // counts with the highest value any broker reported.
    let broker_min: BTreeMap<i32, Option<u32>> = o
        .nodes
        .iter()
        .map(|n| {
            let value = o.broker_configs.get(&n.id).and_then(|c| {
                c.iter()
                    .find(|e| e.name == MIN_ISR_KEY)
                    .and_then(|e| e.value.as_deref())
                    .and_then(|v| v.trim().parse::<u32>().ok())
            });
            (n.id, value)
        })
        .collect();
    let cluster_max = broker_min.values().flatten().max().copied();
    let moving: HashMap<(&str, i32), &Reassignment> = o
        .reassignments
        .iter()
        .map(|r| ((r.topic.as_str(), r.partition), r))
        .collect();
    let mut out = Vec::with_capacity(o.topics.iter().map(|t| t.partitions.len()).sum());
    for t in &o.topics {
        // `None`: the topic's min ISR is unknown (configs unread, or a negative override);
        // `Some(None)`: no override, the brokers' values apply.
        let topic_min: Option<Option<u32>> = if t.configs_read {
            match t.min_insync_replicas {
                None => Some(None),
                Some(v) => u32::try_from(v).ok().map(Some),
            }
        } else {
            None
        };
        for p in &t.partitions {
            let adding: Vec<i32> = moving
                .get(&(t.name.as_str(), p.partition))
                .map(|r| r.adding.clone())
                .unwrap_or_default();
            let min_isr = match topic_min {
                None => None,
                Some(Some(m)) => Some(m),
                Some(None) => highest_broker_min_isr(
                    p.replicas
                        .iter()
                        .chain(adding.iter().filter(|a| !p.replicas.contains(a))),
                    |id| broker_min.get(&id).map(|m| m.or(cluster_max)),
                ),
            };
            out.push(PartitionFacts {
                topic: t.name.clone(),
                partition: p.partition,
                replicas: p.replicas.clone(),
                isr: p.isr.clone(),
                leader: p.leader,
                adding,
                min_isr,
            });
        }
    }
    out
}

/// The highest broker-level `min.insync.replicas` among `replicas` (`lookup`: `None` for an
/// id that is not a node, which cannot lead; `Some(None)` for a node whose value is unknown,
/// which makes the partition's unknown), as [`crate::engine::model::effective_min_isr_with`] decides it.
fn highest_broker_min_isr<'a>(
    replicas: impl Iterator<Item = &'a i32>,
    lookup: impl Fn(i32) -> Option<Option<u32>>,
) -> Option<u32> {
    let mut highest: Option<u32> = None;
    for r in replicas {
        match lookup(*r) {
            None => {}
            Some(None) => return None,
            Some(Some(m)) => highest = Some(highest.map_or(m, |h| h.max(m))),
        }
    }
    highest
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
/// value among the partition's replicas (the rule of [`crate::engine::model::effective_min_isr_with`]); a replica
/// whose broker did not answer (stopped) counts with the highest value any broker reported, so
/// a stopped broker does not hide the under-min-ISR partitions it causes. It is computed from
/// the observation directly, not through the roll's snapshot (`operate` builds these facts
/// every loop: at 100,000 partitions the snapshot was a second copy of every partition and of
/// every broker's configs).
#[must_use]
pub fn from_observation(
    o: &KafkaObservation,
    topic_throttles: Vec<Throttle>,
    cruise_control: CruiseControlFacts,
) -> HealthFacts {
    let partitions = partition_facts(o);
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
        stalled: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::view::{ConfigEntry, ConfigSource};
    use crate::kafka::observation::{
        BrokerStateSource, FencingSource, FetchTimeoutSource, NodeObservation,
        PartitionObservation, QuorumObservation, Roles, RolesSource, TopicObservation,
    };

    fn broker(id: i32) -> NodeObservation {
        NodeObservation {
            id,
            host: Some("h".into()),
            port: Some(9092),
            rack: None,
            roles: Roles {
                controller: false,
                broker: true,
            },
            roles_source: RolesSource::ProcessRoles,
            fenced: Some(false),
            in_sync: Some(true),
            broker_state: Some(BrokerState::Running),
            recovery: None,
            broker_state_error: None,
            process_running: None,
            process_status_error: None,
        }
    }

    fn min_isr(v: &str) -> Vec<ConfigEntry> {
        vec![ConfigEntry {
            name: MIN_ISR_KEY.into(),
            value: Some(v.into()),
            read_only: false,
            source: ConfigSource::StaticBroker,
            sensitive: false,
        }]
    }

    fn topic(
        name: &str,
        read: bool,
        min: Option<i32>,
        parts: &[(&[i32], &[i32])],
    ) -> TopicObservation {
        TopicObservation {
            name: name.into(),
            internal: false,
            min_insync_replicas: min,
            configs_read: read,
            partitions: parts
                .iter()
                .enumerate()
                .map(|(i, (replicas, isr))| PartitionObservation {
                    partition: i32::try_from(i).unwrap(),
                    leader: replicas.first().copied(),
                    replicas: replicas.to_vec(),
                    isr: isr.to_vec(),
                    offline_replicas: Vec::new(),
                })
                .collect(),
        }
    }

    /// Brokers 1-3 (3 did not answer: no configs), replica 9 on no node; topics with an
    /// override, without one, unread, with a negative override; a reassignment adding 3.
    fn observation() -> KafkaObservation {
        KafkaObservation {
            cluster_id: None,
            nodes: vec![broker(1), broker(2), broker(3)],
            topics: vec![
                topic("a", true, Some(2), &[(&[1, 2], &[1])]),
                topic(
                    "b",
                    true,
                    None,
                    &[
                        (&[1, 2], &[1, 2]),
                        (&[1, 3], &[1]),
                        (&[1, 9], &[1]),
                        (&[1], &[1]),
                    ],
                ),
                topic("c", false, None, &[(&[1, 2], &[1, 2])]),
                topic("d", true, Some(-1), &[(&[2], &[2])]),
            ],
            broker_configs: BTreeMap::from([(1, min_isr("1")), (2, min_isr(" 2 "))]),
            unreachable_brokers: BTreeMap::from([(3, "refused".to_string())]),
            vouched_alive: std::collections::BTreeSet::new(),
            quorum: QuorumObservation {
                leader_id: None,
                leader_epoch: 0,
                high_watermark: 0,
                voters: Vec::new(),
                observers: Vec::new(),
                fetch_timeout_ms: 2000,
                fetch_timeout_source: FetchTimeoutSource::Broker(1),
                answered_by: "x".into(),
            },
            reassignments: vec![Reassignment {
                topic: "b".into(),
                partition: 3,
                replicas: vec![1, 3],
                adding: vec![3],
                removing: vec![],
            }],
            broker_state_source: BrokerStateSource::InferredFromFencing,
            fencing_source: FencingSource::Reported,
            metadata_from: vec![1],
            unknown_replica_ids: vec![9],
        }
    }

    /// The partition facts as they were built before issue #27 (through the roll's snapshot),
    /// as the oracle of the direct computation.
    fn through_the_snapshot(o: &KafkaObservation) -> Vec<PartitionFacts> {
        use crate::engine::model::{NodeSnapshot, effective_min_isr_with};
        let snapshot = crate::kafka::convert::to_snapshot(o);
        let cluster_max = snapshot
            .nodes
            .iter()
            .filter_map(NodeSnapshot::broker_min_isr)
            .max();
        let by_id: BTreeMap<i32, &NodeSnapshot> =
            snapshot.nodes.iter().map(|n| (n.id.0, n)).collect();
        snapshot
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
            .collect()
    }

    #[test]
    fn partition_facts_are_those_the_snapshot_gave() {
        let o = observation();
        let facts = partition_facts(&o);
        assert_eq!(facts, through_the_snapshot(&o));
        let min: Vec<(String, Option<u32>)> = facts
            .iter()
            .map(|p| (format!("{}-{}", p.topic, p.partition), p.min_isr))
            .collect();
        assert_eq!(
            min,
            vec![
                ("a-0".to_string(), Some(2)),
                // The highest broker value; 3 did not answer: the highest any broker reported.
                ("b-0".to_string(), Some(2)),
                ("b-1".to_string(), Some(2)),
                // 9 is no node (it cannot lead): 1's value.
                ("b-2".to_string(), Some(1)),
                // Adding 3 counts.
                ("b-3".to_string(), Some(2)),
                ("c-0".to_string(), None),
                ("d-0".to_string(), None),
            ]
        );
        assert_eq!(facts[4].adding, vec![3]);
    }
}
