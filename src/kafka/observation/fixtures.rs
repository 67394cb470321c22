//! Test fixtures shared by the observation's unit tests: a split cluster's raw answers and
//! small builders.

use std::collections::BTreeMap;

use super::{RawObservation, RawQuorum, ReplicaObservation};
use crate::engine::view::{ConfigEntry, ConfigSource};
use crate::kafka::ffi::{ClusterDescription, NodeAddress, PartitionDescription, TopicDescription};

pub(super) fn node(id: i32) -> NodeAddress {
    NodeAddress {
        id,
        host: "127.0.0.1".into(),
        port: u16::try_from(9090 + id).unwrap(),
        rack: None,
    }
}

pub(super) fn replica(id: i32, caught_up: i64) -> ReplicaObservation {
    ReplicaObservation {
        id,
        log_end_offset: 10,
        last_fetch_timestamp: Some(caught_up),
        last_caught_up_timestamp: Some(caught_up),
        directory_id: None,
    }
}

pub(super) fn cfg(name: &str, value: &str) -> ConfigEntry {
    ConfigEntry {
        name: name.into(),
        value: Some(value.into()),
        read_only: true,
        source: ConfigSource::StaticBroker,
        sensitive: false,
    }
}

/// Split cluster: controllers 1-3, brokers 4-6, broker 6 down (fenced).
pub(super) fn raw() -> RawObservation {
    RawObservation {
        cluster: ClusterDescription {
            cluster_id: Some("c".into()),
            controller: Some(4),
            nodes: vec![node(4), node(5)],
        },
        fenced_brokers: None,
        topic_views: vec![(
            4,
            vec![TopicDescription {
                name: "t".into(),
                internal: false,
                partitions: vec![
                    PartitionDescription {
                        partition: 0,
                        leader: Some(4),
                        replicas: vec![4, 5, 6],
                        isr: vec![4, 5],
                    },
                    PartitionDescription {
                        partition: 1,
                        leader: Some(5),
                        replicas: vec![5, 4],
                        isr: vec![5, 4],
                    },
                ],
            }],
        )],
        topic_min_isr: BTreeMap::from([("t".to_string(), Some(2))]),
        controller_roles: BTreeMap::new(),
        broker_configs: BTreeMap::from([(
            5,
            vec![cfg("controller.quorum.fetch.timeout.ms", "3000")],
        )]),
        unreachable_brokers: BTreeMap::new(),
        vouched_alive: std::collections::BTreeSet::new(),
        controllers_listed: false,
        quorum: RawQuorum {
            leader_id: Some(2),
            leader_epoch: 7,
            high_watermark: 100,
            voters: vec![replica(1, 1000), replica(2, 1000), replica(3, 900)],
            observers: vec![replica(4, 1000), replica(5, 1000)],
            answered_by: "127.0.0.1:9094".into(),
            voter_endpoints: BTreeMap::new(),
            version: 2,
        },
        controller_addresses: BTreeMap::from([(2, ("127.0.0.1".to_string(), 19092))]),
        leader_fetch_timeout_ms: None,
        reassignments: vec![],
        // Broker 6 is down; the platform (or an earlier observation) knows it.
        extra_broker_ids: vec![6],
        endpoint_states: None,
    }
}

/// (partition, leader, replicas, ISR)
pub(super) type Part<'a> = (i32, Option<i32>, &'a [i32], &'a [i32]);

pub(super) fn topic(name: &str, parts: &[Part<'_>]) -> TopicDescription {
    TopicDescription {
        name: name.into(),
        internal: false,
        partitions: parts
            .iter()
            .map(|(p, leader, replicas, isr)| PartitionDescription {
                partition: *p,
                leader: *leader,
                replicas: replicas.to_vec(),
                isr: isr.to_vec(),
            })
            .collect(),
    }
}
