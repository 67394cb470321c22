//! From the adapter's [`KafkaObservation`] to the engine's [`ClusterSnapshot`].
//!
//! The observation keeps the adapter's detail (where a value came from, endpoint errors,
//! offline replicas); the engine wants only what it decides on. This translation is pure
//! and is where the adapter's evidence turns into the engine's node states, so the rules
//! are spelled out here and unit-tested:
//!
//! - Broker-role node: a measured broker state maps with
//!   [`ObservedState::from_broker_state`] (PENDING_CONTROLLED_SHUTDOWN and SHUTTING_DOWN are
//!   not serving). Inferred from fencing (no endpoint): unfenced is `Serving`; fenced is
//!   `NotRunning` only when the platform says the process does not run, else `Unknown`
//!   (alive but fenced: starting or in log recovery; never restarted first). When the
//!   endpoint could not be read, a fenced broker is `NotRunning` unless the platform says
//!   its process runs, and an unfenced one `Unknown`.
//! - Controller-only node (by `process.roles`, voter or observer): `NotRunning` when the
//!   platform says its process does not run, `Unknown` when the platform was asked and could
//!   not tell (an error is never "running"); else `Serving` when it leads the quorum or is
//!   caught up by the engine's rule ([`is_caught_up`]: its `LastCaughtUpTimestamp` at most
//!   the fetch timeout behind the leader's, never ahead of it; and none while any member's
//!   timestamp is ahead of the leader's clock, [`clock_stepped_back`]), else `NotReady` (the
//!   quorum cannot tell a stopped controller from a lagging one; the platform can).
//! - A broker-role node that Kafka still lists unfenced while the platform says its process
//!   does not run (crashed, not fenced yet) is `NotReady`: not serving, but not assumed out
//!   of its ISRs either.
//! - Config map: everything DescribeConfigs BROKER reported for the node, including its
//!   effective broker-level `min.insync.replicas` (where the engine reads it). The active
//!   controller's `controller.quorum.fetch.timeout.ms` is put into the leader's config map
//!   unless the leader reported its own value.
//! - Topics: a topic appears in `topics` only when its configs were read; its
//!   `min_insync_replicas` is the topic-level override or `None`. A topic missing there is
//!   unknown, and the engine refuses to restart its replicas.
//! - Quorum: voters with `last_caught_up_ms` and `last_fetch_ms`, and the observers.
//! - `incarnation` is left `None`: the caller that knows the processes (the restart
//!   witness) fills it in.

use std::collections::BTreeMap;

use crate::engine::model::{
    ClusterSnapshot, ConfigEntry as EngineConfigEntry, NodeId, NodeRoles, NodeSnapshot,
    ObservedState, PartitionSnapshot, QuorumSnapshot, TopicPartition, TopicSettings, VoterState,
};

use crate::engine::roll::safety::{clock_stepped_back, is_caught_up};

use super::observation::{
    BrokerState, BrokerStateSource, KafkaObservation, NodeObservation, PartitionObservation,
    QuorumObservation, TopicObservation,
};

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
            .chain(&quorum.observers)
            .find(|v| v.id == id)
            .and_then(|v| v.last_caught_up_timestamp)
            .filter(|t| *t >= 0)
    };
    let Some(leader) = quorum.leader_id.and_then(ts) else {
        return false;
    };
    let all = quorum
        .voters
        .iter()
        .chain(&quorum.observers)
        .filter_map(|v| Some((NodeId(v.id), v.last_caught_up_timestamp?)));
    if clock_stepped_back(leader, all).is_some() {
        // The leader's clock stepped back: no timestamp can be trusted.
        return false;
    }
    ts(id).is_some_and(|mine| is_caught_up(leader, mine, quorum.fetch_timeout_ms))
}

fn node_state(node: &NodeObservation, quorum: &QuorumObservation, inferred: bool) -> ObservedState {
    if node.roles.broker {
        let fenced = node.fenced == Some(true);
        // The platform was not asked (None, no error) or said "not running".
        let not_known_alive = node.process_running == Some(false)
            || (node.process_running.is_none() && node.process_status_error.is_none());
        let state = match node.broker_state {
            Some(BrokerState::Unknown) if node.broker_state_error.is_some() => {
                if fenced && not_known_alive {
                    ObservedState::NotRunning
                } else {
                    ObservedState::Unknown
                }
            }
            // Inferred from fencing and the platform: alive (or cannot tell) but fenced.
            Some(BrokerState::Unknown) if inferred => ObservedState::Unknown,
            Some(s) => ObservedState::from_broker_state(s.code()),
            None => ObservedState::Unknown,
        };
        // Still registered unfenced, but the platform says the process is gone.
        if !fenced && node.process_running == Some(false) && state == ObservedState::Serving {
            ObservedState::NotReady
        } else {
            state
        }
    } else if node.process_running == Some(false) {
        ObservedState::NotRunning
    } else if node.process_status_error.is_some() {
        // Asked, and the platform could not tell: unknown, not running (a stopped voter's
        // timestamp still looks caught up for the whole fetch timeout).
        ObservedState::Unknown
    } else if controller_caught_up(quorum, node.id) {
        ObservedState::Serving
    } else {
        ObservedState::NotReady
    }
}

/// Translates an observation into the engine's snapshot.
#[must_use]
pub fn to_snapshot(o: &KafkaObservation) -> ClusterSnapshot {
    let inferred = o.broker_state_source == BrokerStateSource::InferredFromFencing;
    let nodes = o
        .nodes
        .iter()
        .map(|n| node_snapshot(o, n, inferred))
        .collect();
    let partitions = o
        .topics
        .iter()
        .flat_map(|t| t.partitions.iter().map(|p| partition_snapshot(o, t, p)))
        .collect();
    let topics = o
        .topics
        .iter()
        .filter(|t| t.configs_read)
        .filter_map(|t| {
            // A negative override is unreadable: leave the topic unknown.
            let min = match t.min_insync_replicas {
                None => None,
                Some(v) => Some(u32::try_from(v).ok()?),
            };
            Some((
                t.name.clone(),
                TopicSettings {
                    min_insync_replicas: min,
                },
            ))
        })
        .collect();
    let member = |v: &super::observation::ReplicaObservation| VoterState {
        id: NodeId(v.id),
        last_caught_up_ms: v.last_caught_up_timestamp,
        last_fetch_ms: v.last_fetch_timestamp,
    };
    let quorum = Some(QuorumSnapshot {
        leader: o.quorum.leader_id.map(NodeId),
        voters: o.quorum.voters.iter().map(member).collect(),
        observers: o.quorum.observers.iter().map(member).collect(),
    });
    ClusterSnapshot {
        nodes,
        partitions,
        topics,
        quorum,
    }
}

/// One node as the engine sees it: roles, state (see the module docs), whether it answered,
/// and its config map.
fn node_snapshot(o: &KafkaObservation, n: &NodeObservation, inferred: bool) -> NodeSnapshot {
    let state = node_state(n, &o.quorum, inferred);
    NodeSnapshot {
        id: NodeId(n.id),
        roles: NodeRoles {
            controller: n.roles.controller,
            broker: n.roles.broker,
        },
        state,
        reachable: if n.roles.broker {
            o.answers(n.id)
        } else {
            state == ObservedState::Serving
        },
        rack: n.rack.clone(),
        config: node_config(o, n.id),
        incarnation: None,
    }
}

/// Everything DescribeConfigs BROKER reported for node `id`, plus the quorum's fetch timeout
/// on the quorum leader (read-only, from DescribeQuorum) when the node did not report it.
fn node_config(o: &KafkaObservation, id: i32) -> BTreeMap<String, EngineConfigEntry> {
    let mut config: BTreeMap<String, EngineConfigEntry> = o
        .broker_configs
        .get(&id)
        .map(|entries| {
            entries
                .iter()
                .map(|e| {
                    (
                        e.name.clone(),
                        EngineConfigEntry {
                            value: e.value.clone(),
                            read_only: e.read_only,
                            sensitive: e.sensitive,
                        },
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    if o.quorum.leader_id == Some(id) {
        config
            .entry(FETCH_TIMEOUT_KEY.to_string())
            .or_insert_with(|| EngineConfigEntry {
                value: Some(o.quorum.fetch_timeout_ms.to_string()),
                read_only: true,
                sensitive: false,
            });
    }
    config
}

/// One partition with its replicas, ISR, leader and the reassignment moving it, if any.
fn partition_snapshot(
    o: &KafkaObservation,
    t: &TopicObservation,
    p: &PartitionObservation,
) -> PartitionSnapshot {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::view::{ConfigEntry, ConfigSource, Reassignment};
    use crate::kafka::observation::{
        BrokerStateSource, FencingSource, FetchTimeoutSource, PartitionObservation,
        ReplicaObservation, Roles, RolesSource, TopicObservation,
    };

    fn node(id: i32, controller: bool, broker: bool) -> NodeObservation {
        NodeObservation {
            id,
            host: Some("h".into()),
            port: Some(1),
            rack: None,
            roles: Roles { controller, broker },
            roles_source: RolesSource::ProcessRoles,
            fenced: broker.then_some(false),
            in_sync: broker.then_some(true),
            broker_state: broker.then_some(BrokerState::Running),
            recovery: None,
            broker_state_error: None,
            process_running: None,
            process_status_error: None,
        }
    }

    fn voter(id: i32, ts: Option<i64>) -> ReplicaObservation {
        ReplicaObservation {
            id,
            log_end_offset: 1,
            last_fetch_timestamp: ts,
            last_caught_up_timestamp: ts,
            directory_id: None,
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
                configs_read: true,
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
            vouched_alive: std::collections::BTreeSet::new(),
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
            metadata_from: vec![4],
            unknown_replica_ids: vec![],
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
        assert_eq!(s.topics["t"].min_insync_replicas, Some(2));
        let q = s.quorum.unwrap();
        assert_eq!(q.leader, Some(NodeId(1)));
        assert_eq!(q.voters[2].last_caught_up_ms, Some(5_000));
        let cfg = &s.nodes.iter().find(|n| n.id == NodeId(4)).unwrap().config;
        assert!(!cfg["log.cleaner.threads"].read_only);
    }

    fn broker_cfg(name: &str, value: &str) -> ConfigEntry {
        ConfigEntry {
            name: name.into(),
            value: Some(value.into()),
            read_only: false,
            source: ConfigSource::StaticBroker,
            sensitive: false,
        }
    }

    #[test]
    fn broker_level_min_isr_lands_in_each_brokers_config() {
        let mut o = observation();
        o.broker_configs
            .insert(4, vec![broker_cfg("min.insync.replicas", "2")]);
        o.broker_configs
            .insert(5, vec![broker_cfg("min.insync.replicas", "3")]);
        let s = to_snapshot(&o);
        let value = |id| {
            s.node(NodeId(id)).unwrap().config["min.insync.replicas"]
                .value
                .clone()
        };
        assert_eq!(value(4).as_deref(), Some("2"));
        assert_eq!(value(5).as_deref(), Some("3"));
    }

    #[test]
    fn topics_are_overrides_and_unreadable_topics_are_left_out() {
        let mut o = observation();
        let mut plain = o.topics[0].clone();
        plain.name = "plain".into();
        plain.min_insync_replicas = None;
        let mut unreadable = plain.clone();
        unreadable.name = "unreadable".into();
        unreadable.configs_read = false;
        let mut negative = plain.clone();
        negative.name = "negative".into();
        negative.min_insync_replicas = Some(-1);
        o.topics.extend([plain, unreadable, negative]);
        let s = to_snapshot(&o);
        assert_eq!(s.topics["t"].min_insync_replicas, Some(2));
        assert_eq!(s.topics["plain"].min_insync_replicas, None);
        assert!(!s.topics.contains_key("unreadable"));
        assert!(!s.topics.contains_key("negative"));
        // Their partitions are still there for the safety checks.
        assert_eq!(s.partitions.len(), 4);
    }

    #[test]
    fn shutting_down_brokers_are_not_serving() {
        for state in [
            BrokerState::PendingControlledShutdown,
            BrokerState::ShuttingDown,
        ] {
            let mut o = observation();
            o.nodes[3].broker_state = Some(state);
            let s = to_snapshot(&o);
            assert_eq!(
                s.node(NodeId(4)).unwrap().state,
                ObservedState::NotReady,
                "{state:?}"
            );
        }
    }

    #[test]
    fn fenced_brokers_without_an_endpoint_are_unknown_unless_known_stopped() {
        let mut o = observation();
        o.broker_state_source = BrokerStateSource::InferredFromFencing;
        // 6: fenced, the platform says it runs (log recovery, say).
        o.nodes[5].broker_state = Some(BrokerState::Unknown);
        o.nodes[5].process_running = Some(true);
        // 5: fenced, the platform says it does not run.
        o.nodes[4].fenced = Some(true);
        o.nodes[4].broker_state = Some(BrokerState::NotRunning);
        o.nodes[4].broker_state_error = None;
        o.nodes[4].process_running = Some(false);
        let s = to_snapshot(&o);
        assert_eq!(s.node(NodeId(6)).unwrap().state, ObservedState::Unknown);
        assert_eq!(s.node(NodeId(5)).unwrap().state, ObservedState::NotRunning);
        // With an endpoint that failed: fenced and running is unknown too.
        let mut o = observation();
        o.nodes[4].fenced = Some(true);
        o.nodes[4].process_running = Some(true);
        let s = to_snapshot(&o);
        assert_eq!(s.node(NodeId(5)).unwrap().state, ObservedState::Unknown);
        o.nodes[4].process_running = Some(false);
        let s = to_snapshot(&o);
        assert_eq!(s.node(NodeId(5)).unwrap().state, ObservedState::NotRunning);
    }

    /// Issue 23, point 4: the adapter's "caught up" is the engine's rule (one rule, not two
    /// copies): a timestamp ahead of the leader's clock is not caught up.
    #[test]
    fn controller_timestamp_ahead_of_the_leader_is_not_serving() {
        let mut o = observation();
        o.quorum.voters[1].last_caught_up_timestamp = Some(60_000);
        let s = to_snapshot(&o);
        assert_eq!(s.node(NodeId(2)).unwrap().state, ObservedState::NotReady);
        // Any timestamp ahead of the leader's: its clock stepped back, none is trusted (3 at
        // 9_500 would otherwise look caught up).
        let mut o = observation();
        o.quorum.voters[2].last_caught_up_timestamp = Some(9_500);
        assert_eq!(
            to_snapshot(&o).node(NodeId(3)).unwrap().state,
            ObservedState::Serving
        );
        o.quorum.voters[1].last_caught_up_timestamp = Some(60_000);
        let s = to_snapshot(&o);
        assert_eq!(s.node(NodeId(3)).unwrap().state, ObservedState::NotReady);
        assert_eq!(s.node(NodeId(1)).unwrap().state, ObservedState::Serving);
    }

    /// Issue 23, points 1 and 2: what the platform says about a process reaches the snapshot. A
    /// controller whose process does not run is NOT_RUNNING whatever its timestamp says; a broker
    /// Kafka still lists unfenced whose process is gone (crashed, not fenced yet) is not serving.
    #[test]
    fn processes_the_platform_says_stopped_are_not_serving() {
        let mut o = observation();
        o.nodes[1].process_running = Some(false);
        o.nodes[3].process_running = Some(false);
        let s = to_snapshot(&o);
        assert_eq!(s.node(NodeId(2)).unwrap().state, ObservedState::NotRunning);
        assert_eq!(s.node(NodeId(4)).unwrap().state, ObservedState::NotReady);
        assert!(!s.node(NodeId(4)).unwrap().is_serving());
        // Running (or not asked): unchanged.
        let mut o = observation();
        o.nodes[1].process_running = Some(true);
        let s = to_snapshot(&o);
        assert_eq!(s.node(NodeId(2)).unwrap().state, ObservedState::Serving);
        assert_eq!(s.node(NodeId(4)).unwrap().state, ObservedState::Serving);
    }

    /// A controller-only node whose status the platform was asked for and could not tell is
    /// `UNKNOWN`, not caught up by its timestamp: an error is never "running".
    #[test]
    fn a_controller_whose_status_cannot_be_told_is_unknown() {
        let mut o = observation();
        o.nodes[1].process_status_error = Some("status command timed out".into());
        let s = to_snapshot(&o);
        let n2 = s.node(NodeId(2)).unwrap();
        assert_eq!(n2.state, ObservedState::Unknown);
        assert!(!n2.is_serving());
        assert!(
            !crate::engine::roll::safety::caught_up_controllers(&s)
                .unwrap()
                .contains(&NodeId(2))
        );
    }

    /// Issue 23, point 6: a sensitive entry and an unset one both come without a value; only
    /// the flag tells them apart, so it must reach the engine.
    #[test]
    fn sensitive_flags_reach_the_engine() {
        let mut o = observation();
        o.broker_configs.insert(
            4,
            vec![
                ConfigEntry {
                    name: "ssl.keystore.password".into(),
                    value: None,
                    read_only: false,
                    source: ConfigSource::DynamicBroker,
                    sensitive: true,
                },
                ConfigEntry {
                    name: "create.topic.policy.class.name".into(),
                    value: None,
                    read_only: true,
                    source: ConfigSource::Default,
                    sensitive: false,
                },
            ],
        );
        let s = to_snapshot(&o);
        let cfg = &s.node(NodeId(4)).unwrap().config;
        assert!(cfg["ssl.keystore.password"].sensitive);
        assert!(!cfg["create.topic.policy.class.name"].sensitive);
        assert_eq!(cfg["create.topic.policy.class.name"].value, None);
    }

    #[test]
    fn observer_controllers_and_fetch_times_reach_the_quorum_snapshot() {
        let mut o = observation();
        let mut c7 = node(7, true, false);
        c7.roles_source = RolesSource::ProcessRoles;
        o.nodes.push(c7);
        o.quorum.observers = vec![ReplicaObservation {
            id: 7,
            log_end_offset: 1,
            last_fetch_timestamp: Some(9_900),
            last_caught_up_timestamp: Some(9_800),
            directory_id: None,
        }];
        o.quorum.voters[1].last_fetch_timestamp = Some(9_500);
        let s = to_snapshot(&o);
        let n7 = s.node(NodeId(7)).unwrap();
        assert_eq!(n7.roles, NodeRoles::CONTROLLER);
        assert_eq!(n7.state, ObservedState::Serving, "caught up as an observer");
        let q = s.quorum.unwrap();
        assert_eq!(q.observers.len(), 1);
        assert_eq!(
            (q.observers[0].id, q.observers[0].last_fetch_ms),
            (NodeId(7), Some(9_900))
        );
        assert_eq!(q.voters[1].last_fetch_ms, Some(9_500));
        assert!(s.nodes.iter().all(|n| n.incarnation.is_none()));
    }
}
