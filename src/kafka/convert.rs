//! From the adapter's [`KafkaObservation`] to the engine's [`ClusterSnapshot`].
//!
//! The observation keeps the adapter's detail (where a value came from, endpoint errors,
//! offline replicas); the engine wants only what it decides on. This translation is pure
//! and is where the adapter's evidence turns into the engine's node states, so the rules
//! are spelled out here and unit-tested:
//!
//! - Broker-role node: its broker state (measured or inferred, see
//!   [`BrokerStateSource`](super::observation::BrokerStateSource)) maps with
//!   [`ObservedState::from_broker_state`]. When the endpoint could not be read, a fenced
//!   broker is `NotRunning` and an unfenced one `Unknown`.
//! - Controller-only node: `Serving` when it leads the quorum or its
//!   `LastCaughtUpTimestamp` is within the fetch timeout of the leader's, else `NotReady`
//!   (the quorum cannot tell a stopped controller from a lagging one; the platform can).
//! - The active controller's `controller.quorum.fetch.timeout.ms` is put into the leader's
//!   config map, where the engine reads it, unless the leader reported its own value.

use std::collections::BTreeMap;

use crate::engine::model::{
    ClusterSnapshot, ConfigEntry as EngineConfigEntry, NodeId, NodeRoles, NodeSnapshot,
    ObservedState, PartitionSnapshot, QuorumSnapshot, TopicPartition, TopicSettings, VoterState,
};

use super::observation::{BrokerState, KafkaObservation, NodeObservation, QuorumObservation};

/// The config key the engine reads the quorum fetch timeout from.
pub const FETCH_TIMEOUT_KEY: &str = "controller.quorum.fetch.timeout.ms";

fn controller_caught_up(quorum: &QuorumObservation, id: i32) -> bool {
    if quorum.leader_id == Some(id) {
        return true;
    }
    let ts = |id: i32| {
        quorum
            .voters
            .iter()
            .find(|v| v.id == id)
            .and_then(|v| v.last_caught_up_timestamp)
    };
    match (quorum.leader_id.and_then(ts), ts(id)) {
        (Some(leader), Some(mine)) => leader - mine < quorum.fetch_timeout_ms,
        _ => false,
    }
}

fn node_state(node: &NodeObservation, quorum: &QuorumObservation) -> ObservedState {
    if node.roles.broker {
        match node.broker_state {
            Some(BrokerState::Unknown) if node.broker_state_error.is_some() => {
                if node.fenced == Some(true) {
                    ObservedState::NotRunning
                } else {
                    ObservedState::Unknown
                }
            }
            Some(s) => ObservedState::from_broker_state(s.code()),
            None => ObservedState::Unknown,
        }
    } else if controller_caught_up(quorum, node.id) {
        ObservedState::Serving
    } else {
        ObservedState::NotReady
    }
}

/// Translates an observation into the engine's snapshot.
#[must_use]
pub fn to_snapshot(o: &KafkaObservation) -> ClusterSnapshot {
    let nodes = o
        .nodes
        .iter()
        .map(|n| {
            let mut config: BTreeMap<String, EngineConfigEntry> = o
                .broker_configs
                .get(&n.id)
                .map(|entries| {
                    entries
                        .iter()
                        .map(|e| {
                            (
                                e.name.clone(),
                                EngineConfigEntry {
                                    value: e.value.clone(),
                                    read_only: e.read_only,
                                },
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            if o.quorum.leader_id == Some(n.id) {
                config
                    .entry(FETCH_TIMEOUT_KEY.to_string())
                    .or_insert_with(|| EngineConfigEntry {
                        value: Some(o.quorum.fetch_timeout_ms.to_string()),
                        read_only: true,
                    });
            }
            let state = node_state(n, &o.quorum);
            NodeSnapshot {
                id: NodeId(n.id),
                roles: NodeRoles {
                    controller: n.roles.controller,
                    broker: n.roles.broker,
                },
                state,
                reachable: if n.roles.broker {
                    o.broker_configs.contains_key(&n.id)
                } else {
                    state == ObservedState::Serving
                },
                rack: n.rack.clone(),
                config,
                incarnation: None,
            }
        })
        .collect();
    let partitions = o
        .topics
        .iter()
        .flat_map(|t| {
            t.partitions.iter().map(|p| {
                let moving = o
                    .reassignments
                    .iter()
                    .find(|r| r.topic == t.name && r.partition == p.partition);
                let ids = |v: &[i32]| v.iter().copied().map(NodeId).collect::<Vec<_>>();
                PartitionSnapshot {
                    tp: TopicPartition {
                        topic: t.name.clone(),
                        partition: p.partition,
                    },
                    replicas: ids(&p.replicas),
                    isr: ids(&p.isr),
                    leader: p.leader.map(NodeId),
                    adding: moving.map(|r| ids(&r.adding)).unwrap_or_default(),
                    removing: moving.map(|r| ids(&r.removing)).unwrap_or_default(),
                }
            })
        })
        .collect();
    let topics = o
        .topics
        .iter()
        .filter_map(|t| {
            let min = u32::try_from(t.min_insync_replicas?).ok()?;
            Some((
                t.name.clone(),
                TopicSettings {
                    min_insync_replicas: Some(min),
                },
            ))
        })
        .collect();
    let quorum = Some(QuorumSnapshot {
        leader: o.quorum.leader_id.map(NodeId),
        voters: o
            .quorum
            .voters
            .iter()
            .map(|v| VoterState {
                id: NodeId(v.id),
                last_caught_up_ms: v.last_caught_up_timestamp,
                last_fetch_ms: None,
            })
            .collect(),
        observers: Vec::new(),
    });
    ClusterSnapshot {
        nodes,
        partitions,
        topics,
        quorum,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::observation::{
        BrokerStateSource, ConfigEntry, ConfigSource, FencingSource, FetchTimeoutSource,
        PartitionObservation, Reassignment, ReplicaObservation, Roles, TopicObservation,
    };

    fn node(id: i32, controller: bool, broker: bool) -> NodeObservation {
        NodeObservation {
            id,
            host: Some("h".into()),
            port: Some(1),
            rack: None,
            roles: Roles { controller, broker },
            fenced: broker.then_some(false),
            in_sync: broker.then_some(true),
            broker_state: broker.then_some(BrokerState::Running),
            recovery: None,
            broker_state_error: None,
        }
    }

    fn voter(id: i32, ts: Option<i64>) -> ReplicaObservation {
        ReplicaObservation {
            id,
            log_end_offset: 1,
            last_fetch_timestamp: ts,
            last_caught_up_timestamp: ts,
        }
    }

    fn observation() -> KafkaObservation {
        let mut fenced = node(6, false, true);
        fenced.fenced = Some(true);
        fenced.broker_state = Some(BrokerState::NotRunning);
        let mut unreadable = node(5, false, true);
        unreadable.broker_state = Some(BrokerState::Unknown);
        unreadable.broker_state_error = Some("refused".into());
        KafkaObservation {
            cluster_id: None,
            nodes: vec![
                node(1, true, false),
                node(2, true, false),
                node(3, true, false),
                node(4, false, true),
                unreadable,
                fenced,
            ],
            topics: vec![TopicObservation {
                name: "t".into(),
                internal: false,
                min_insync_replicas: Some(2),
                partitions: vec![PartitionObservation {
                    partition: 0,
                    leader: Some(4),
                    replicas: vec![4, 5, 6],
                    isr: vec![4, 5],
                    offline_replicas: vec![6],
                }],
            }],
            broker_configs: BTreeMap::from([(
                4,
                vec![ConfigEntry {
                    name: "log.cleaner.threads".into(),
                    value: Some("1".into()),
                    read_only: false,
                    source: ConfigSource::Default,
                    sensitive: false,
                }],
            )]),
            unreachable_brokers: BTreeMap::from([(5, "timed out".to_string())]),
            quorum: QuorumObservation {
                leader_id: Some(1),
                leader_epoch: 3,
                high_watermark: 10,
                voters: vec![
                    voter(1, Some(10_000)),
                    voter(2, Some(9_000)),
                    voter(3, Some(5_000)),
                ],
                observers: vec![],
                fetch_timeout_ms: 2000,
                fetch_timeout_source: FetchTimeoutSource::ActiveController(1),
                answered_by: "x".into(),
            },
            reassignments: vec![Reassignment {
                topic: "t".into(),
                partition: 0,
                replicas: vec![4, 5, 6],
                adding: vec![],
                removing: vec![6],
            }],
            broker_state_source: BrokerStateSource::Endpoint {
                url_template: "u".into(),
            },
            fencing_source: FencingSource::Reported,
        }
    }

    #[test]
    fn node_states() {
        let s = to_snapshot(&observation());
        let state = |id| s.node(NodeId(id)).unwrap().state;
        assert_eq!(state(1), ObservedState::Serving, "leader");
        assert_eq!(state(2), ObservedState::Serving, "1000ms behind < 2000ms");
        assert_eq!(state(3), ObservedState::NotReady, "5000ms behind");
        assert_eq!(state(4), ObservedState::Serving);
        assert_eq!(
            state(5),
            ObservedState::Unknown,
            "unfenced, endpoint unreadable"
        );
        assert_eq!(state(6), ObservedState::NotRunning);
        assert!(s.node(NodeId(4)).unwrap().reachable);
        assert!(!s.node(NodeId(6)).unwrap().reachable);
        assert_eq!(s.node(NodeId(1)).unwrap().roles, NodeRoles::CONTROLLER);
    }

    #[test]
    fn fetch_timeout_lands_on_the_leader_where_the_engine_reads_it() {
        let mut o = observation();
        o.quorum.fetch_timeout_ms = 7000;
        let s = to_snapshot(&o);
        assert_eq!(crate::engine::roll::safety::fetch_timeout_ms(&s), 7000);
    }

    #[test]
    fn partitions_topics_reassignments_and_quorum() {
        let s = to_snapshot(&observation());
        let p = &s.partitions[0];
        assert_eq!(p.tp.to_string(), "t-0");
        assert_eq!(p.replicas, vec![NodeId(4), NodeId(5), NodeId(6)]);
        assert_eq!(p.removing, vec![NodeId(6)]);
        assert_eq!(s.topic_min_isr("t"), Some(2));
        let q = s.quorum.unwrap();
        assert_eq!(q.leader, Some(NodeId(1)));
        assert_eq!(q.voters[2].last_caught_up_ms, Some(5_000));
        let cfg = &s.nodes.iter().find(|n| n.id == NodeId(4)).unwrap().config;
        assert!(!cfg["log.cleaner.threads"].read_only);
    }
}
