//! Regression tests of the roll engine, one per safety bug of the roll-safety
//! audit, each named after what broke. Every test builds its snapshot by hand
//! so the input that used to trigger the bug can be read off the test, and
//! drives the roller through the same feed-back calls an executor makes.
//!
//! By topic: [`refusals`] (what the roll refuses or waits for), [`restart_evidence`] (when a
//! restart counts), [`second_audit`] (issue 23's unsafe inputs and later cases of the kind),
//! [`software`] (rolls onto a new release). The snapshot builders are here.

use std::collections::BTreeMap;

use super::sim::default_config;
use super::*;
use crate::engine::model::{
    ConfigEntry, MIN_ISR_KEY, PartitionSnapshot, QuorumSnapshot, TopicSettings, VoterState,
};

mod refusals;
mod restart_evidence;
mod second_audit;
mod software;

fn n(id: i32) -> NodeId {
    NodeId(id)
}

fn node(id: i32, roles: NodeRoles, state: ObservedState) -> NodeSnapshot {
    NodeSnapshot {
        id: n(id),
        roles,
        state,
        reachable: state != ObservedState::NotRunning,
        rack: None,
        config: default_config(),
        incarnation: Some(format!("uid-{id}-0")),
    }
}

fn partition(topic: &str, replicas: &[i32], isr: &[i32]) -> PartitionSnapshot {
    PartitionSnapshot {
        tp: TopicPartition {
            topic: topic.into(),
            partition: 0,
        },
        replicas: replicas.iter().map(|r| n(*r)).collect(),
        isr: isr.iter().map(|r| n(*r)).collect(),
        leader: replicas.first().map(|r| n(*r)),
        adding: Vec::new(),
        removing: Vec::new(),
    }
}

fn quorum(leader: Option<i32>, voters: &[(i32, i64)]) -> Option<QuorumSnapshot> {
    Some(QuorumSnapshot {
        leader: leader.map(n),
        voters: voters
            .iter()
            .map(|(id, ts)| VoterState {
                id: n(*id),
                last_caught_up_ms: Some(*ts),
                last_fetch_ms: Some(*ts),
            })
            .collect(),
        observers: Vec::new(),
    })
}

fn topic(name: &str, min: Option<u32>) -> BTreeMap<String, TopicSettings> {
    BTreeMap::from([(
        name.to_string(),
        TopicSettings {
            min_insync_replicas: min,
        },
    )])
}

fn restart(ids: &[i32]) -> BTreeMap<NodeId, NodeRequest> {
    ids.iter()
        .map(|id| {
            (
                n(*id),
                NodeRequest {
                    restart_reasons: vec!["manual rolling update".into()],
                    desired_config: BTreeMap::new(),
                    expected_software: None,
                },
            )
        })
        .collect()
}

fn select_only(ids: &[i32]) -> BTreeMap<NodeId, NodeRequest> {
    ids.iter()
        .map(|id| (n(*id), NodeRequest::default()))
        .collect()
}

fn blocked_reason(d: &Decision) -> String {
    match d {
        Decision::Wait { for_what, .. } => for_what.to_string(),
        other => panic!("expected a wait, got {other:?}"),
    }
}

/// Controller 0 (leading the quorum) and brokers 1, 2, 3 sharing one
/// partition with min ISR 2, so the brokers restart one at a time.
fn brokers_cluster() -> ClusterSnapshot {
    ClusterSnapshot {
        nodes: vec![
            node(0, NodeRoles::CONTROLLER, ObservedState::Serving),
            node(1, NodeRoles::BROKER, ObservedState::Serving),
            node(2, NodeRoles::BROKER, ObservedState::Serving),
            node(3, NodeRoles::BROKER, ObservedState::Serving),
        ],
        partitions: vec![partition("t", &[1, 2, 3], &[1, 2, 3])],
        topics: topic("t", Some(2)),
        quorum: quorum(Some(0), &[(0, 0)]),
    }
}
