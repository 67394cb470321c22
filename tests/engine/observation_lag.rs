//! A broker whose metadata lags never makes a replica count as in sync (issue #27).
//!
//! The observation reads partition metadata from a few brokers only, chosen by how far the
//! metadata quorum says each has fetched. Judged by the ground-truth metadata log of the world
//! model ([`MetadataLog`]: the ISR each committed record set, and how far each broker really
//! applied it), never by the adapter's own rules: whatever the brokers' lags, which of them
//! answer and which observation this is, every replica the assembled observation shows in sync
//! is in the ISR the quorum has committed; and when a caught-up broker answers, the observation
//! is made.
//!
//! The adapter's pure parts are exercised as `KafkaClient::observe` chains them:
//! `metadata_caught_up` and `metadata_candidates` pick the sources, the first
//! `METADATA_SOURCES` that answer (in the candidates' order) are read, `assemble` merges them.

use std::collections::{BTreeMap, BTreeSet};

use kafkaops::kafka::client::{METADATA_SOURCES, metadata_candidates, metadata_caught_up};
use kafkaops::kafka::ffi::{
    ClusterDescription, NodeAddress, PartitionDescription, TopicDescription,
};
use kafkaops::kafka::observation::{RawObservation, RawQuorum, ReplicaObservation, assemble};
use proptest::prelude::*;
use proptest::test_runner::Config;

use crate::world::{LoggedBroker, MetadataLog};

const BROKERS: i32 = 6;
const CONTROLLER: i32 = 100;

fn config(cases: u32) -> Config {
    Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases),
        ..Config::default()
    }
}

/// A metadata log of a few partitions whose ISRs shrink and grow over time (RF 3 on brokers
/// 1-6), and brokers anywhere between far behind and caught up.
fn metadata_log() -> impl Strategy<Value = MetadataLog> {
    let partition = (
        proptest::sample::subsequence((1..=BROKERS).collect::<Vec<_>>(), 3),
        proptest::collection::vec(
            (1i64..40, proptest::collection::vec(any::<bool>(), 3)),
            1..6,
        ),
    );
    let broker = (0i64..60, 0i64..20, proptest::bool::weighted(0.8));
    (
        proptest::collection::vec(partition, 1..5),
        proptest::collection::vec(broker, BROKERS as usize),
        0i64..30,
    )
        .prop_map(|(partitions, brokers, hw_slack)| {
            let mut last = 0;
            let history: Vec<Vec<(i64, BTreeSet<i32>)>> = partitions
                .into_iter()
                .map(|(replicas, changes)| {
                    let mut offset = 0;
                    let mut h = vec![(0, replicas.iter().copied().collect())];
                    for (step, keep) in changes {
                        offset += step;
                        let isr: BTreeSet<i32> = replicas
                            .iter()
                            .zip(keep)
                            .filter(|(_, k)| *k)
                            .map(|(r, _)| *r)
                            .collect();
                        h.push((offset, isr));
                    }
                    last = last.max(offset);
                    h
                })
                .collect();
            let high_watermark = last + hw_slack;
            let brokers = (1..=BROKERS)
                .zip(brokers)
                .map(|(id, (behind, seen_earlier, answers))| {
                    let applied = (high_watermark - behind).max(0);
                    // The broker may have applied more than the quorum leader last saw it
                    // fetch, never less.
                    let reported = (applied - seen_earlier).max(0);
                    (
                        id,
                        LoggedBroker {
                            applied,
                            reported,
                            answers,
                        },
                    )
                })
                .collect();
            MetadataLog {
                high_watermark,
                history,
                brokers,
            }
        })
}

fn node(id: i32) -> NodeAddress {
    NodeAddress {
        id,
        host: format!("b{id}"),
        port: 9092,
        rack: None,
    }
}

/// Broker `id`'s Metadata answer: every partition with the ISR it has applied; its replicas
/// are the first ISR's (the assignment does not change here); the leader is the first replica
/// in that ISR.
fn view(log: &MetadataLog, id: i32) -> Vec<TopicDescription> {
    let partitions = (0..log.history.len())
        .map(|p| {
            let isr = log.reported_isr(id, p);
            let replicas: Vec<i32> = log.history[p][0].1.iter().copied().collect();
            PartitionDescription {
                partition: i32::try_from(p).unwrap(),
                leader: replicas.iter().copied().find(|r| isr.contains(r)),
                replicas,
                isr: isr.into_iter().collect(),
            }
        })
        .collect();
    vec![TopicDescription {
        name: "t".into(),
        internal: false,
        partitions,
    }]
}

fn replica(id: i32, leo: i64) -> ReplicaObservation {
    ReplicaObservation {
        id,
        log_end_offset: leo,
        last_fetch_timestamp: Some(1_000),
        last_caught_up_timestamp: Some(1_000),
        directory_id: None,
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn a_lagging_broker_never_makes_a_replica_count_as_in_sync(
        log in metadata_log(),
        observation in 0u64..10,
    ) {
        let quorum = RawQuorum {
            leader_id: Some(CONTROLLER),
            leader_epoch: 1,
            high_watermark: log.high_watermark,
            voters: vec![replica(CONTROLLER, log.high_watermark)],
            observers: log
                .brokers
                .iter()
                .map(|(id, b)| replica(*id, b.reported))
                .collect(),
            answered_by: "c:9093".into(),
            voter_endpoints: Default::default(),
            version: 2,
        };
        let listed: Vec<NodeAddress> = (1..=BROKERS).map(node).collect();
        let caught_up = metadata_caught_up(&quorum);
        let Some(candidates) = metadata_candidates(&listed, &caught_up, observation) else {
            // No source: the observation fails (observed again), nothing to judge.
            return Ok(());
        };
        let views: Vec<(i32, Vec<TopicDescription>)> = candidates
            .iter()
            .filter(|n| log.brokers[&n.id].answers)
            .take(METADATA_SOURCES)
            .map(|n| (n.id, view(&log, n.id)))
            .collect();
        let trustworthy_answers = log
            .brokers
            .iter()
            .any(|(_, b)| b.answers && b.reported >= log.high_watermark);
        prop_assert_eq!(!views.is_empty(), trustworthy_answers);
        if views.is_empty() {
            return Ok(());
        }
        let raw = RawObservation {
            cluster: ClusterDescription {
                cluster_id: Some("c".into()),
                controller: Some(1),
                nodes: listed.clone(),
            },
            fenced_brokers: Some(Vec::new()),
            topic_views: views.clone(),
            topic_min_isr: BTreeMap::from([("t".to_string(), Some(2))]),
            controller_roles: BTreeMap::new(),
            broker_configs: BTreeMap::new(),
            unreachable_brokers: BTreeMap::new(),
            vouched_alive: std::collections::BTreeSet::new(),
            controllers_listed: false,
            quorum,
            controller_addresses: BTreeMap::new(),
            leader_fetch_timeout_ms: Some(2_000),
            reassignments: Vec::new(),
            extra_broker_ids: Vec::new(),
            endpoint_states: None,
        };
        let o = assemble(raw).expect("assembles");
        let lagging = log.lagging();
        for p in &o.topics[0].partitions {
            let truth = log.committed_isr(usize::try_from(p.partition).unwrap());
            let shown: BTreeSet<i32> = p.isr.iter().copied().collect();
            prop_assert!(
                shown.is_subset(&truth),
                "partition {}: shown in sync {:?}, committed ISR {:?}; read from {:?}, \
                 lagging brokers {:?}",
                p.partition,
                shown,
                truth,
                views.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
                lagging
            );
        }
    }
}
