//! Tests of the KRaft rules by theme (quorum changes, upgrades, ghost brokers, properties),
//! with the quorum builders they share: examples of each rule, and property tests judged by
//! oracles written independently of the rules (their own caught-up and majority arithmetic,
//! straight from the definitions).

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use super::ghosts::{self, GhostView, PartitionReplicas, Registration, UnregisterRefusal};
use super::quorum::{
    self, Limits, MIGRATE_MIN_METADATA_VERSION, Member, QuorumMode, QuorumRefusal, QuorumView,
    Verdict,
};
use super::upgrade::{self, Blocker, FinalizeRefusal, UpgradeView};
use super::{KRAFT_VERSION, LevelRange, METADATA_VERSION};
use crate::engine::model::NodeId;

const NOW: i64 = 1_000_000;

fn member(id: i32, behind_ms: Option<i64>) -> Member {
    Member {
        id: NodeId(id),
        directory_id: Some(format!("dir-{id}")),
        log_end_offset: Some(500),
        last_fetch_ms: behind_ms.map(|b| NOW - b),
        last_caught_up_ms: behind_ms.map(|b| NOW - b),
        running: Some(true),
    }
}

/// A dynamic quorum led by 1, voters 1..=n all caught up, brokers 10, 11 observing.
fn quorum(n: i32) -> QuorumView {
    QuorumView {
        leader: Some(NodeId(1)),
        epoch: 3,
        high_watermark: Some(500),
        voters: (1..=n)
            .map(|id| member(id, Some(if id == 1 { 0 } else { 100 })))
            .collect(),
        observers: vec![member(10, Some(50)), member(11, Some(50))],
        kraft_version: Some(1),
        controllers: (1..=n).map(NodeId).collect(),
    }
}

fn with_observer_controller(mut q: QuorumView, id: i32) -> QuorumView {
    q.observers.push(member(id, Some(200)));
    q.controllers.insert(NodeId(id));
    q
}

fn limits() -> Limits {
    Limits::default()
}

fn features(kraft_max: i16, mv_max: i16) -> BTreeMap<String, LevelRange> {
    BTreeMap::from([
        (
            KRAFT_VERSION.to_string(),
            LevelRange {
                min: 0,
                max: kraft_max,
            },
        ),
        (
            METADATA_VERSION.to_string(),
            LevelRange {
                min: 7,
                max: mv_max,
            },
        ),
    ])
}
fn target(mv: i16) -> BTreeMap<String, i16> {
    BTreeMap::from([(METADATA_VERSION.to_string(), mv)])
}

mod ghost_brokers;
mod properties;
mod quorum_changes;
mod upgrades;
