//! What a decision keeps from the last one: the partition index and the conflict graph.
//!
//! Both depend only on where the replicas are (and on the `min.insync.replicas` settings and
//! the nodes' roles), not on the ISRs, leaders or node states that change from one poll to the
//! next. At 1,000 brokers / 100,000 partitions rebuilding them was most of a decision (issue
//! #27), so the roller keeps them while an exact copy of those inputs ([`PlacementKey`]) still
//! matches the new snapshot; anything that changes the placement, the membership, a role or a
//! min ISR setting rebuilds them. The copy is compared, not hashed: a collision would hand the
//! safety checks the index of another placement.

use std::collections::BTreeMap;

use crate::engine::model::{ClusterSnapshot, NodeId, NodeRoles, TopicSettings};

use super::batch::ConflictGraph;
use super::safety::PartitionIndex;

/// Everything the partition index and the conflict graph are computed from, copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PlacementKey {
    /// Per partition, where its replicas end in `replicas` (its replicas, then the adding ones
    /// not among them: [`crate::engine::model::PartitionSnapshot::all_replicas`]).
    ends: Vec<u32>,
    replicas: Vec<NodeId>,
    /// Per partition, its topic as an index into `topic_names` (a run of partitions of one topic
    /// shares an entry).
    topic_of: Vec<u32>,
    topic_names: Vec<String>,
    topics: BTreeMap<String, TopicSettings>,
    /// Every node in the snapshot's order, with its roles and broker-level min ISR.
    nodes: Vec<(NodeId, NodeRoles, Option<u32>)>,
}

/// Saturating `usize` to `u32` (more than 2^32 partitions or replicas cannot be observed).
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl PlacementKey {
    /// The key of `snapshot`.
    pub(super) fn of(snapshot: &ClusterSnapshot) -> PlacementKey {
        let mut key = PlacementKey {
            ends: Vec::with_capacity(snapshot.partitions.len()),
            replicas: Vec::with_capacity(snapshot.partitions.len() * 3),
            topic_of: Vec::with_capacity(snapshot.partitions.len()),
            topic_names: Vec::new(),
            topics: snapshot.topics.clone(),
            nodes: node_key(snapshot).collect(),
        };
        for p in &snapshot.partitions {
            key.replicas.extend(p.all_replicas());
            key.ends.push(to_u32(key.replicas.len()));
            if key.topic_names.last() != Some(&p.tp.topic) {
                key.topic_names.push(p.tp.topic.clone());
            }
            key.topic_of.push(to_u32(key.topic_names.len() - 1));
        }
        key
    }

    /// Does `snapshot` have exactly this placement, membership and these settings?
    pub(super) fn matches(&self, snapshot: &ClusterSnapshot) -> bool {
        if snapshot.partitions.len() != self.ends.len()
            || snapshot.nodes.len() != self.nodes.len()
            || snapshot.topics != self.topics
            || !node_key(snapshot).eq(self.nodes.iter().copied())
        {
            return false;
        }
        let mut start = 0usize;
        for (i, p) in snapshot.partitions.iter().enumerate() {
            let end = self.ends[i] as usize;
            let topic = &self.topic_names[self.topic_of[i] as usize];
            if *topic != p.tp.topic
                || !p
                    .all_replicas()
                    .eq(self.replicas[start..end].iter().copied())
            {
                return false;
            }
            start = end;
        }
        true
    }
}

fn node_key(
    snapshot: &ClusterSnapshot,
) -> impl Iterator<Item = (NodeId, NodeRoles, Option<u32>)> + '_ {
    snapshot
        .nodes
        .iter()
        .map(|n| (n.id, n.roles, n.broker_min_isr()))
}

/// The partition index and the conflict graph of one placement, carried by the roller from one
/// decision to the next (derived data: neither saved nor compared).
#[derive(Debug, Clone)]
pub(super) struct KeptPlacement {
    pub(super) key: PlacementKey,
    pub(super) index: Option<PartitionIndex>,
    pub(super) graph: Option<ConflictGraph>,
}

impl KeptPlacement {
    /// The index (with who serves read again) and the graph, when `snapshot` has the placement
    /// they were computed from.
    pub(super) fn reuse(
        self,
        snapshot: &ClusterSnapshot,
    ) -> Option<(PlacementKey, Option<PartitionIndex>, Option<ConflictGraph>)> {
        self.key.matches(snapshot).then(|| {
            let index = self.index.map(|i| i.with_serving_of(snapshot));
            (self.key, index, self.graph)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::{ConfigEntry, MIN_ISR_KEY};
    use crate::engine::roll::sim::{ClusterSpec, Fault, Placement, SimCluster, SplitMix64};
    use crate::engine::roll::{Decision, NodeRequest, RollConfig, Roller};
    use proptest::prelude::*;

    /// The roller as saved and restored: everything derived (the colouring, the index, the
    /// graph) is gone, so its decisions are computed from scratch.
    fn from_scratch(roller: &Roller) -> Roller {
        serde_json::from_value(serde_json::to_value(roller).unwrap()).unwrap()
    }

    fn spec() -> impl Strategy<Value = ClusterSpec> {
        (
            1usize..24,
            0usize..4,
            1usize..4,
            1usize..8,
            1usize..8,
            1usize..4,
            prop::bool::ANY,
        )
            .prop_map(
                |(brokers, combined, controllers, topics, ppt, rf, rack_aware)| ClusterSpec {
                    brokers,
                    combined,
                    controllers: if combined == 0 { controllers } else { 0 },
                    topics,
                    partitions_per_topic: ppt,
                    replication_factor: rf,
                    min_isr_choices: vec![1, 2],
                    racks: 3,
                    placement: if rack_aware {
                        Placement::RackAware
                    } else {
                        Placement::Random
                    },
                },
            )
    }

    /// One change of the cluster between two decisions, drawn from `rng`: in the simulator (a
    /// reassignment, an ISR shrink, a leader move, a crash: the first changes the placement)
    /// or in the observed snapshot only (a replica moved, two partitions swapped, a topic's or
    /// a broker's min ISR changed, a node's role changed or the node missing).
    fn change(sim: &mut SimCluster, snapshot: &mut ClusterSnapshot, rng: &mut SplitMix64) {
        let ids: Vec<NodeId> = snapshot.nodes.iter().map(|n| n.id).collect();
        let parts = snapshot.partitions.len().max(1);
        let node = ids[rng.below(ids.len())];
        match rng.below(10) {
            0 => sim.inject(&Fault::Reassign {
                partition: rng.below(parts),
                add: node,
                remove: ids[rng.below(ids.len())],
                done_after_ms: 1_000 + rng.below(5_000) as u64,
            }),
            1 => sim.inject(&Fault::IsrShrink {
                partition: rng.below(parts),
                node,
                for_ms: 500 + rng.below(3_000) as u64,
            }),
            2 => sim.inject(&Fault::LeaderMove {
                partition: rng.below(parts),
            }),
            3 => sim.inject(&Fault::Crash {
                node,
                down_ms: Some(1_000 + rng.below(5_000) as u64),
            }),
            4 if !snapshot.partitions.is_empty() => {
                let p = &mut snapshot.partitions[rng.below(parts)];
                if let Some(r) = p.replicas.first_mut() {
                    *r = node;
                }
            }
            5 if snapshot.partitions.len() > 1 => {
                let (a, b) = (rng.below(parts), rng.below(parts));
                snapshot.partitions.swap(a, b);
            }
            6 => {
                if let Some(t) = snapshot.topics.values_mut().next() {
                    t.min_insync_replicas =
                        t.min_insync_replicas.map_or(Some(1), |m| Some(m % 2 + 1));
                }
            }
            7 => {
                let n = &mut snapshot.nodes[rng.below(ids.len())];
                let entry = ConfigEntry {
                    value: Some("3".into()),
                    read_only: false,
                    sensitive: false,
                };
                n.config.insert(MIN_ISR_KEY.into(), entry);
            }
            8 => {
                let n = &mut snapshot.nodes[rng.below(ids.len())];
                n.roles.broker = !n.roles.broker;
            }
            _ => {
                let gone = rng.below(ids.len());
                snapshot.nodes.remove(gone);
            }
        }
    }

    /// Rolls every node of a generated cluster, changing the cluster or its snapshot before
    /// every `change_every`-th decision; at each step the plan and the decision of the roller
    /// (with what it kept) must equal those of the same roller restored from its saved state.
    /// Returns how many decisions found a kept placement that matched, and how many one that
    /// did not.
    fn roll_compared(
        spec: &ClusterSpec,
        seed: u64,
        max: usize,
        change_every: usize,
    ) -> Result<(usize, usize), TestCaseError> {
        let mut sim = SimCluster::generate(spec, seed);
        let requests: BTreeMap<NodeId, NodeRequest> = sim
            .nodes
            .keys()
            .map(|id| {
                let request = NodeRequest {
                    restart_reasons: vec!["rolling update".into()],
                    ..NodeRequest::default()
                };
                (*id, request)
            })
            .collect();
        let config = RollConfig {
            max_batch_size: max,
            ..RollConfig::default()
        };
        let mut roller = Roller::new(config.clone(), requests);
        sim.start_roll(config);
        let mut rng = SplitMix64::new(seed ^ 0x5EED);
        let (mut reused, mut rebuilt) = (0usize, 0usize);
        for step in 0..400 {
            sim.report_process_ended(&mut roller);
            let mut snapshot = sim.snapshot();
            if step % change_every == change_every - 1 {
                change(&mut sim, &mut snapshot, &mut rng);
            }
            match roller.placement.as_ref() {
                Some(k) if k.key.matches(&snapshot) => reused += 1,
                Some(_) => rebuilt += 1,
                None => {}
            }
            let mut scratch = from_scratch(&roller);
            prop_assert_eq!(
                roller.plan(&snapshot),
                scratch.plan(&snapshot),
                "step {}",
                step
            );
            let decision = roller.decide(&snapshot, sim.now);
            prop_assert_eq!(
                &decision,
                &scratch.decide(&snapshot, sim.now),
                "step {}",
                step
            );
            prop_assert!(roller == scratch, "step {}", step);
            sim.apply(&decision);
            sim.feed_back(&mut roller, &decision);
            match &decision {
                Decision::Done { .. } | Decision::Abort { .. } => break,
                Decision::Wait { until, .. } => {
                    let to = (*until).max(sim.now.plus(1));
                    sim.advance_to(to);
                }
                _ => sim.advance_to(sim.now.plus(100)),
            }
        }
        Ok((reused, rebuilt))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// A decision (and a plan) made with the index and the graph kept from the last
        /// decision is the one made from scratch, on rolls whose snapshots change between
        /// decisions, the placement included.
        #[test]
        fn a_decision_from_the_kept_placement_equals_one_from_scratch(
            spec in spec(),
            seed in any::<u64>(),
            max in 1usize..6,
            change_every in 1usize..6,
        ) {
            roll_compared(&spec, seed, max, change_every)?;
        }
    }

    /// The same on rolls of 12 brokers that reuse the kept placement and also have to rebuild
    /// it (so the property above does not pass by never reusing anything).
    #[test]
    fn a_roll_both_reuses_and_rebuilds_the_kept_placement() {
        let spec = ClusterSpec {
            brokers: 12,
            combined: 0,
            controllers: 3,
            topics: 4,
            partitions_per_topic: 6,
            replication_factor: 3,
            min_isr_choices: vec![1, 2],
            racks: 3,
            placement: Placement::Random,
        };
        let (reused, rebuilt) = roll_compared(&spec, 11, 3, usize::MAX).unwrap();
        assert!(
            reused > 10 && rebuilt == 0,
            "reused {reused}, rebuilt {rebuilt}"
        );
        // A change can end the roll early (a node missing from a snapshot aborts it): over a
        // few rolls with changes, the kept placement is both reused and rebuilt.
        let (mut reused, mut rebuilt) = (0, 0);
        for seed in 0..8 {
            let (r, b) = roll_compared(&spec, seed, 3, 3).unwrap();
            reused += r;
            rebuilt += b;
        }
        assert!(
            reused > 10 && rebuilt > 2,
            "reused {reused}, rebuilt {rebuilt}"
        );
    }

    /// The kept placement is used while the snapshot's placement is the same, and dropped by a
    /// changed replica set, topic setting or membership.
    #[test]
    fn the_key_matches_only_the_same_placement_and_settings() {
        let spec = ClusterSpec {
            brokers: 6,
            combined: 0,
            controllers: 3,
            topics: 3,
            partitions_per_topic: 4,
            replication_factor: 3,
            min_isr_choices: vec![2],
            racks: 3,
            placement: Placement::Random,
        };
        let mut sim = SimCluster::generate(&spec, 7);
        let snapshot = sim.snapshot();
        let key = PlacementKey::of(&snapshot);
        assert!(key.matches(&snapshot));
        // ISRs, leaders and node states are not part of it.
        sim.inject(&Fault::IsrShrink {
            partition: 0,
            node: snapshot.partitions[0].replicas[1],
            for_ms: 1_000,
        });
        sim.inject(&Fault::LeaderMove { partition: 1 });
        sim.inject(&Fault::Crash {
            node: snapshot.partitions[2].replicas[0],
            down_ms: None,
        });
        let moved = sim.snapshot();
        assert_ne!(moved, snapshot);
        assert!(key.matches(&moved));
        let changed = |f: &dyn Fn(&mut ClusterSnapshot)| {
            let mut s = snapshot.clone();
            f(&mut s);
            !key.matches(&s)
        };
        assert!(changed(&|s| s.partitions[3].replicas[2] = NodeId(999)));
        assert!(changed(&|s| s.partitions[3].adding.push(NodeId(999))));
        assert!(changed(&|s| s.partitions.swap(0, 5)));
        assert!(changed(&|s| s.partitions[0].tp.topic = "other".into()));
        assert!(changed(&|s| {
            s.partitions.pop();
        }));
        assert!(changed(&|s| {
            s.nodes.pop();
        }));
        assert!(changed(
            &|s| s.nodes[0].roles.broker = !s.nodes[0].roles.broker
        ));
        assert!(changed(&|s| {
            s.topics.values_mut().next().unwrap().min_insync_replicas = Some(1);
        }));
        assert!(changed(&|s| {
            let n = s.nodes.iter_mut().find(|n| n.roles.broker).unwrap();
            let entry = ConfigEntry {
                value: Some("3".into()),
                read_only: false,
                sensitive: false,
            };
            n.config.insert(MIN_ISR_KEY.into(), entry);
        }));
    }
}
