//! Property tests of the planned restart batches on random clusters.
//!
//! The roll plans every batch at once (a colouring of the brokers' conflict
//! graph, `engine::roll::batch`), so a bug there would put two replicas of a
//! partition down together or exceed `--max-batch-size`: these properties
//! check both on clusters from the simulator (random and rack-aware
//! placements, combined nodes, reassignments adding replicas), and that the
//! roll restarts the dry run's batches (a member the live checks hold back
//! restarts in a later batch).
//!
//! Default: 64 cases per property; `PROPTEST_CASES=1000` for a heavier run.

use std::collections::BTreeMap;

use kafkaops::engine::model::{ClusterSnapshot, NodeId};
use kafkaops::engine::roll::batch::ConflictGraph;
use kafkaops::engine::roll::sim::{ClusterSpec, Placement, SimCluster, run_roll};
use kafkaops::engine::roll::{Decision, NodeRequest, PlanStep, RollConfig, Roller};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

fn spec() -> impl Strategy<Value = ClusterSpec> {
    (
        1usize..40,
        0usize..4,
        1usize..4,
        1usize..12,
        1usize..12,
        1usize..5,
        1usize..5,
        prop::bool::ANY,
    )
        .prop_map(
            |(brokers, combined, controllers, topics, ppt, rf, racks, rack_aware)| ClusterSpec {
                brokers,
                combined,
                controllers: if combined == 0 { controllers } else { 0 },
                topics,
                partitions_per_topic: ppt,
                replication_factor: rf,
                min_isr_choices: vec![1, 2],
                racks,
                placement: if rack_aware {
                    Placement::RackAware
                } else {
                    Placement::Random
                },
            },
        )
}

fn broker_ids(snapshot: &ClusterSnapshot) -> Vec<NodeId> {
    snapshot
        .nodes
        .iter()
        .filter(|n| n.roles.broker)
        .map(|n| n.id)
        .collect()
}

fn restart_all(snapshot: &ClusterSnapshot) -> BTreeMap<NodeId, NodeRequest> {
    broker_ids(snapshot)
        .into_iter()
        .map(|id| {
            (
                id,
                NodeRequest {
                    restart_reasons: vec!["rolling update".into()],
                    desired_config: BTreeMap::new(),
                    expected_software: None,
                },
            )
        })
        .collect()
}

/// Does any partition (current or adding replicas) hold two of `batch`?
fn shared_partition(snapshot: &ClusterSnapshot, batch: &[NodeId]) -> Option<String> {
    snapshot.partitions.iter().find_map(|p| {
        let inside: Vec<NodeId> = p.all_replicas().filter(|r| batch.contains(r)).collect();
        (inside.len() > 1).then(|| format!("{:?} holds {inside:?}", p.tp))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// The colouring alone, with adding replicas: every broker in exactly one
    /// class, no class over the cap or holding two replicas of a partition.
    #[test]
    fn planned_classes_never_share_a_partition_nor_exceed_the_cap(
        spec in spec(),
        seed in any::<u64>(),
        max in 1usize..8,
        adding in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 0..6),
    ) {
        let mut snapshot = SimCluster::generate(&spec, seed).snapshot();
        let brokers = broker_ids(&snapshot);
        if !snapshot.partitions.is_empty() {
            for (p, b) in &adding {
                let p = p.index(snapshot.partitions.len());
                let b = brokers[b.index(brokers.len())];
                let part = &mut snapshot.partitions[p];
                if !part.replicas.contains(&b) && !part.adding.contains(&b) {
                    part.adding.push(b);
                }
            }
        }
        let graph = ConflictGraph::build(&snapshot, &brokers);
        let classes = graph.plan_batches(&brokers, max, |_, _| true, |_| true, 2_000_000);
        let mut all: Vec<NodeId> = classes.iter().flatten().copied().collect();
        all.sort_unstable();
        prop_assert_eq!(&all, &brokers);
        for c in &classes {
            prop_assert!(!c.is_empty() && c.len() <= max, "{:?}", c);
            prop_assert_eq!(shared_partition(&snapshot, c), None);
        }
        let again = graph.plan_batches(&brokers, max, |_, _| true, |_| true, 2_000_000);
        prop_assert_eq!(classes, again, "same snapshot, same plan");
    }

    /// The dry run's batches obey the same rules, and a roll on an unchanging
    /// cluster restarts exactly those batches in that order.
    #[test]
    fn the_roll_follows_the_planned_batches(
        spec in spec(),
        seed in any::<u64>(),
        max in 1usize..8,
    ) {
        let mut sim = SimCluster::generate(&spec, seed);
        let snapshot = sim.snapshot();
        let config = RollConfig { max_batch_size: max, ..RollConfig::default() };
        let requests = restart_all(&snapshot);
        let plan = Roller::new(config.clone(), requests.clone()).plan(&snapshot);
        let mut planned: Vec<Vec<NodeId>> = Vec::new();
        for step in &plan.steps {
            if let PlanStep::Restart { nodes, .. } = step {
                let batch: Vec<NodeId> = nodes.iter().map(|n| n.node).collect();
                prop_assert!(batch.len() <= max, "{:?}", batch);
                prop_assert_eq!(shared_partition(&snapshot, &batch), None);
                planned.push(batch);
            }
        }
        let mut roller = Roller::new(config, requests);
        let mut done: Vec<Vec<NodeId>> = Vec::new();
        let _ = run_roll(&mut sim, &mut roller, 20_000, |_, d| {
            if let Decision::Restart { .. } = d {
                done.push(d.restarted_nodes());
            }
        });
        // A restarted replica may not be back in the ISR yet when the next
        // batch is chosen (the simulator's followers catch up at their own
        // pace): the live check then holds a member back to a later batch.
        // So each batch of the roll is part of one planned batch, and every
        // broker restarts once.
        let class_of: BTreeMap<NodeId, usize> = planned
            .iter()
            .enumerate()
            .flat_map(|(i, b)| b.iter().map(move |n| (*n, i)))
            .collect();
        for batch in &done {
            prop_assert!(batch.len() <= max, "{:?}", batch);
            let classes: Vec<Option<&usize>> = batch.iter().map(|n| class_of.get(n)).collect();
            prop_assert!(classes.windows(2).all(|w| w[0] == w[1]), "{:?} vs plan {:?}", batch, planned);
        }
        let mut restarted: Vec<NodeId> = done.iter().flatten().copied().collect();
        restarted.sort_unstable();
        let mut all: Vec<NodeId> = planned.iter().flatten().copied().collect();
        all.sort_unstable();
        prop_assert_eq!(restarted, all);
    }
}
