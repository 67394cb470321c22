//! The pure assembly of an observation from the raw answers: partitions (offline replicas,
//! `min.insync.replicas` overrides), nodes ([`super::nodes`]), the quorum and its fetch
//! timeout, and where each fact came from.

use std::collections::BTreeSet;

use super::merge::{listing_covers_leaders, merge_views};
use super::nodes::node_observations;
use super::{
    BrokerStateSource, FencingSource, FetchTimeoutSource, KafkaObservation, PartitionObservation,
    QuorumObservation, RawObservation, TopicObservation,
};
use crate::engine::view::ConfigEntry;
use crate::kafka::ffi::TopicDescription;

/// Why an observation could not be assembled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AssembleError {
    #[error(
        "cannot read controller.quorum.fetch.timeout.ms: the active controller {leader:?} is not \
         reachable and no broker config was readable; configure bootstrap.controllers"
    )]
    NoFetchTimeout { leader: Option<i32> },
    /// The broker listing and the partition metadata disagree: a broker leads partitions in
    /// one answer but is not registered in the other. Kafka never lists a leader that is not
    /// registered (a fenced broker loses its leaderships), so one of the answers is out of
    /// date; deciding on it would count a serving broker as gone. Observing again resolves it.
    #[error(
        "the cluster's answers disagree: broker {broker} leads {partitions} partition(s) in the \
         metadata of broker {view_from}, but the broker listing does not include it; observing again"
    )]
    ListingOutOfDate {
        broker: i32,
        partitions: usize,
        view_from: i32,
    },
}

fn config_i64(entries: &[ConfigEntry], name: &str) -> Option<i64> {
    entries
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| e.value.as_deref())
        .and_then(|v| v.trim().parse().ok())
}

/// Puts the raw answers together (pure).
pub fn assemble(mut raw: RawObservation) -> Result<KafkaObservation, AssembleError> {
    let unfenced: BTreeSet<i32> = raw.cluster.nodes.iter().map(|n| n.id).collect();
    listing_covers_leaders(&raw, &unfenced)?;
    let metadata_from: Vec<i32> = raw.topic_views.iter().map(|(id, _)| *id).collect();
    let merged = merge_views(std::mem::take(&mut raw.topic_views));

    // Partitions: offline = replicas not on a registered, unfenced broker.
    let topics = topic_observations(merged, &raw, &unfenced);
    let (nodes, unknown_replica_ids) = node_observations(&raw, &unfenced, &topics);

    let leader = raw.quorum.leader_id;
    let (fetch_timeout_ms, fetch_timeout_source) = fetch_timeout(&raw)?;

    Ok(KafkaObservation {
        cluster_id: raw.cluster.cluster_id,
        nodes,
        topics,
        broker_configs: raw.broker_configs,
        unreachable_brokers: raw.unreachable_brokers,
        vouched_alive: raw.vouched_alive,
        quorum: QuorumObservation {
            leader_id: leader,
            leader_epoch: raw.quorum.leader_epoch,
            high_watermark: raw.quorum.high_watermark,
            voters: raw.quorum.voters,
            observers: raw.quorum.observers,
            fetch_timeout_ms,
            fetch_timeout_source,
            answered_by: raw.quorum.answered_by,
        },
        reassignments: raw.reassignments,
        fencing_source: if raw.fenced_brokers.is_some() {
            FencingSource::Reported
        } else {
            FencingSource::InferredFromAbsence
        },
        broker_state_source: match raw.endpoint_states {
            None => BrokerStateSource::InferredFromFencing,
            Some((url_template, _)) => BrokerStateSource::Endpoint { url_template },
        },
        metadata_from,
        unknown_replica_ids,
    })
}

/// Each topic with its partitions as observed; a replica is offline when it is not on a
/// registered, unfenced broker.
fn topic_observations(
    merged: Vec<TopicDescription>,
    raw: &RawObservation,
    unfenced: &BTreeSet<i32>,
) -> Vec<TopicObservation> {
    merged
        .into_iter()
        .map(|t| TopicObservation {
            min_insync_replicas: raw.topic_min_isr.get(&t.name).copied().flatten(),
            configs_read: raw.topic_min_isr.contains_key(&t.name),
            internal: t.internal,
            partitions: t
                .partitions
                .into_iter()
                .map(|p| PartitionObservation {
                    partition: p.partition,
                    leader: p.leader,
                    offline_replicas: p
                        .replicas
                        .iter()
                        .copied()
                        .filter(|r| !unfenced.contains(r))
                        .collect(),
                    replicas: p.replicas,
                    isr: p.isr,
                })
                .collect(),
            name: t.name,
        })
        .collect()
}

/// The quorum's fetch timeout: the active controller's, else a broker's (said so), else an
/// error (the quorum check cannot judge without it).
fn fetch_timeout(raw: &RawObservation) -> Result<(i64, FetchTimeoutSource), AssembleError> {
    let leader = raw.quorum.leader_id;
    match (raw.leader_fetch_timeout_ms, leader) {
        (Some(v), Some(l)) => Ok((v, FetchTimeoutSource::ActiveController(l))),
        _ => {
            let from_leader_broker = leader
                .and_then(|l| raw.broker_configs.get(&l).map(|c| (l, c)))
                .and_then(|(l, c)| {
                    config_i64(c, "controller.quorum.fetch.timeout.ms")
                        .map(|v| (v, FetchTimeoutSource::ActiveController(l)))
                });
            let from_any_broker = || {
                raw.broker_configs.iter().find_map(|(id, c)| {
                    config_i64(c, "controller.quorum.fetch.timeout.ms")
                        .map(|v| (v, FetchTimeoutSource::Broker(*id)))
                })
            };
            from_leader_broker
                .or_else(from_any_broker)
                .ok_or(AssembleError::NoFetchTimeout { leader })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{cfg, node, raw, topic};
    use super::super::{BrokerState, FetchTimeoutSource};
    use super::*;

    #[test]
    fn roles_fencing_offline_replicas_and_inferred_state() {
        let o = assemble(raw()).unwrap();
        let ids: Vec<i32> = o.nodes.iter().map(|n| n.id).collect();
        assert_eq!(ids, vec![1, 2, 3, 4, 5, 6]);
        let n2 = o.node(2).unwrap();
        assert!(n2.roles.controller && !n2.roles.broker);
        assert_eq!((n2.fenced, n2.broker_state), (None, None));
        assert_eq!(n2.port, Some(19092));
        let n6 = o.node(6).unwrap();
        assert!(n6.roles.broker && !n6.roles.controller);
        assert_eq!(n6.fenced, Some(true));
        assert_eq!(n6.in_sync, Some(false));
        assert_eq!(n6.broker_state, Some(BrokerState::NotRunning));
        let n4 = o.node(4).unwrap();
        assert_eq!(
            (n4.fenced, n4.in_sync, n4.broker_state),
            (Some(false), Some(true), Some(BrokerState::Running))
        );
        let t = o.topic("t").unwrap();
        assert_eq!(t.min_insync_replicas, Some(2));
        assert_eq!(t.partitions[0].offline_replicas, vec![6]);
        assert!(t.partitions[1].offline_replicas.is_empty());
        assert_eq!(
            o.broker_state_source,
            BrokerStateSource::InferredFromFencing
        );
    }

    #[test]
    fn topic_min_isr_is_an_override_or_unknown() {
        let mut r = raw();
        r.topic_views[0]
            .1
            .push(topic("no-override", &[(0, Some(4), &[4, 5], &[4, 5])]));
        r.topic_views[0]
            .1
            .push(topic("unreadable", &[(0, Some(4), &[4, 5], &[4, 5])]));
        r.topic_min_isr.insert("no-override".into(), None);
        let o = assemble(r).unwrap();
        let t = o.topic("t").unwrap();
        assert_eq!((t.min_insync_replicas, t.configs_read), (Some(2), true));
        let t = o.topic("no-override").unwrap();
        assert_eq!((t.min_insync_replicas, t.configs_read), (None, true));
        let t = o.topic("unreadable").unwrap();
        assert_eq!((t.min_insync_replicas, t.configs_read), (None, false));
    }

    #[test]
    fn replica_ids_nothing_else_knows_are_not_nodes() {
        let mut r = raw();
        r.extra_broker_ids.clear();
        let o = assemble(r).unwrap();
        assert!(o.node(6).is_none());
        assert_eq!(o.unknown_replica_ids, vec![6]);
        // Still an offline replica of t-0.
        assert_eq!(
            o.topic("t").unwrap().partitions[0].offline_replicas,
            vec![6]
        );
    }

    #[test]
    fn reported_fencing_adds_brokers_nothing_else_mentions() {
        let mut r = raw();
        let mut seven = node(7);
        seven.host = "k7".into();
        r.fenced_brokers = Some(vec![seven]);
        let o = assemble(r).unwrap();
        assert_eq!(o.fencing_source, FencingSource::Reported);
        let n7 = o.node(7).unwrap();
        assert_eq!((n7.fenced, n7.host.as_deref()), (Some(true), Some("k7")));
        assert!(n7.roles.broker);
        assert_eq!(
            assemble(raw()).unwrap().fencing_source,
            FencingSource::InferredFromAbsence
        );
    }

    #[test]
    fn fetch_timeout_prefers_the_active_controller_and_says_when_it_did_not() {
        let o = assemble(raw()).unwrap();
        assert_eq!(o.quorum.fetch_timeout_ms, 3000);
        assert_eq!(o.quorum.fetch_timeout_source, FetchTimeoutSource::Broker(5));
        let mut r = raw();
        r.leader_fetch_timeout_ms = Some(2500);
        let o = assemble(r).unwrap();
        assert_eq!(
            (o.quorum.fetch_timeout_ms, o.quorum.fetch_timeout_source),
            (2500, FetchTimeoutSource::ActiveController(2))
        );
        let mut r = raw();
        r.broker_configs.clear();
        assert_eq!(
            assemble(r).unwrap_err(),
            AssembleError::NoFetchTimeout { leader: Some(2) }
        );
    }

    #[test]
    fn combined_leader_reads_its_own_broker_config() {
        let mut r = raw();
        r.broker_configs
            .insert(2, vec![cfg("controller.quorum.fetch.timeout.ms", "4000")]);
        let o = assemble(r).unwrap();
        assert_eq!(
            (o.quorum.fetch_timeout_ms, o.quorum.fetch_timeout_source),
            (4000, FetchTimeoutSource::ActiveController(2))
        );
    }
}
