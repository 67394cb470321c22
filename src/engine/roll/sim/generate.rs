//! Building a simulated cluster from a [`ClusterSpec`] and a seed: nodes with roles and racks,
//! topics with replicas placed at random (rack-aware when asked), all healthy. The draws keep the
//! order seeds were recorded with, so a failing seed reproduces the same cluster.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    ClusterSpec, NodeBehaviour, Phase, Placement, SimCluster, SimNode, SimPartition, SplitMix64,
};
use crate::engine::model::{
    ConfigEntry, Millis, NodeId, NodeRoles, PartitionSnapshot, TopicPartition, TopicSettings,
};
use crate::engine::roll::RollConfig;
use crate::engine::roll::safety::{DEFAULT_FETCH_TIMEOUT_MS, FETCH_TIMEOUT_KEY};

impl SimCluster {
    /// Generates a healthy cluster from `spec`; every node serving and in
    /// sync, quorum led by the lowest controller id.
    #[must_use]
    pub fn generate(spec: &ClusterSpec, seed: u64) -> SimCluster {
        let mut rng = SplitMix64::new(seed);
        let nodes = generate_nodes(spec);
        let brokers: Vec<NodeId> = nodes
            .values()
            .filter(|n| n.roles.broker)
            .map(|n| n.id)
            .collect();
        let (topics, partitions) = generate_partitions(spec, &brokers, &mut rng);
        let controllers: Vec<NodeId> = nodes
            .values()
            .filter(|n| n.roles.controller)
            .map(|n| n.id)
            .collect();
        let caught_up_at = controllers.iter().map(|c| (*c, 0)).collect();
        SimCluster {
            now: Millis(0),
            quorum_leader: controllers.first().copied(),
            nodes,
            partitions,
            topics,
            caught_up_at,
            fetch_timeout_ms: DEFAULT_FETCH_TIMEOUT_MS,
            scheduled: Vec::new(),
            undo: Vec::new(),
            violations: Vec::new(),
            initial_non_serving: 0,
            batches: Vec::new(),
            restart_reasons: BTreeMap::new(),
            rules: RollConfig::default(),
            process_ended: Vec::new(),
            held: BTreeSet::new(),
        }
    }
}

/// The nodes of `spec`: combined nodes first, then brokers, then controllers, racks assigned
/// round-robin, all serving with the default configuration.
fn generate_nodes(spec: &ClusterSpec) -> BTreeMap<NodeId, SimNode> {
    let racks = spec.racks.max(1);
    let mut nodes = BTreeMap::new();
    let broker_count = spec.broker_role_nodes();
    for i in 0..(broker_count + spec.controllers) {
        let roles = if i < spec.combined {
            NodeRoles::COMBINED
        } else if i < broker_count {
            NodeRoles::BROKER
        } else {
            NodeRoles::CONTROLLER
        };
        let node = NodeId(i32::try_from(i).expect("fewer than 2^31 nodes"));
        nodes.insert(
            node,
            SimNode {
                id: node,
                roles,
                rack: Some(format!("rack-{}", i % racks)),
                phase: Phase::Serving,
                reachable: true,
                lagging: false,
                config: default_config(),
                desired: BTreeMap::new(),
                behaviour: NodeBehaviour::default(),
                restarts_by_roll: 0,
                reconfigs_by_roll: 0,
                crashed_by_fault: false,
                incarnation: 0,
            },
        );
    }
    nodes
}

/// Every topic's settings and partitions: replicas drawn from `rng` (rack-aware when asked and
/// possible), all in sync, the first replica leading. The draws are in the order seeds were
/// recorded with, so a seed reproduces its cluster.
fn generate_partitions(
    spec: &ClusterSpec,
    brokers: &[NodeId],
    rng: &mut SplitMix64,
) -> (BTreeMap<String, TopicSettings>, Vec<SimPartition>) {
    let racks = spec.racks.max(1);
    let mut by_rack: BTreeMap<usize, Vec<NodeId>> = BTreeMap::new();
    for (i, b) in brokers.iter().enumerate() {
        by_rack.entry(i % racks).or_default().push(*b);
    }
    let rf = spec.replication_factor.clamp(1, brokers.len().max(1));
    let mut partitions = Vec::with_capacity(spec.topics * spec.partitions_per_topic);
    let mut topics = BTreeMap::new();
    for t in 0..spec.topics {
        let topic = format!("topic-{t}");
        let min_isr = if spec.min_isr_choices.is_empty() {
            1
        } else {
            spec.min_isr_choices[rng.below(spec.min_isr_choices.len())]
        };
        topics.insert(
            topic.clone(),
            TopicSettings {
                min_insync_replicas: Some(min_isr),
            },
        );
        if brokers.is_empty() {
            continue;
        }
        for pi in 0..spec.partitions_per_topic {
            let replicas = match spec.placement {
                Placement::RackAware if by_rack.len() >= rf => {
                    let rack_ids: Vec<usize> = by_rack.keys().copied().collect();
                    let chosen = pick_distinct(rng, rack_ids.len(), rf);
                    chosen
                        .into_iter()
                        .map(|r| {
                            let members = &by_rack[&rack_ids[r]];
                            members[rng.below(members.len())]
                        })
                        .collect::<Vec<_>>()
                }
                _ => pick_distinct(rng, brokers.len(), rf)
                    .into_iter()
                    .map(|i| brokers[i])
                    .collect(),
            };
            partitions.push(SimPartition {
                p: PartitionSnapshot {
                    tp: TopicPartition {
                        topic: topic.clone(),
                        partition: i32::try_from(pi).expect("small partition count"),
                    },
                    isr: replicas.clone(),
                    leader: replicas.first().copied(),
                    replicas,
                    adding: Vec::new(),
                    removing: Vec::new(),
                },
                reassignment_done_at: None,
                rejoin_at: BTreeMap::new(),
            });
        }
    }
    (topics, partitions)
}

/// Settings every generated node starts with: two dynamic, two read-only.
#[must_use]
pub fn default_config() -> BTreeMap<String, ConfigEntry> {
    let entry = |v: &str, ro: bool| ConfigEntry {
        value: Some(v.to_string()),
        read_only: ro,
        sensitive: false,
    };
    BTreeMap::from([
        ("log.retention.ms".to_string(), entry("604800000", false)),
        ("num.io.threads".to_string(), entry("8", false)),
        ("log.dirs".to_string(), entry("/var/lib/kafka", true)),
        (FETCH_TIMEOUT_KEY.to_string(), entry("2000", true)),
    ])
}

/// `k` distinct indices below `n`.
fn pick_distinct(rng: &mut SplitMix64, n: usize, k: usize) -> Vec<usize> {
    let k = k.min(n);
    let mut chosen = Vec::with_capacity(k);
    while chosen.len() < k {
        let x = rng.below(n);
        if !chosen.contains(&x) {
            chosen.push(x);
        }
    }
    chosen
}
