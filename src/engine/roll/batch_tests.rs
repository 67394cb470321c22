//! Unit tests of the batch planner (conflict graph, colouring, caps), apart from `batch.rs` so the rules read on their own.

use super::*;
use crate::engine::model::{PartitionSnapshot, TopicPartition};

fn snapshot(parts: &[&[i32]]) -> ClusterSnapshot {
    ClusterSnapshot {
        partitions: parts
            .iter()
            .enumerate()
            .map(|(i, r)| PartitionSnapshot {
                tp: TopicPartition {
                    topic: "t".into(),
                    partition: i32::try_from(i).unwrap(),
                },
                replicas: r.iter().map(|x| NodeId(*x)).collect(),
                isr: r.iter().map(|x| NodeId(*x)).collect(),
                leader: None,
                adding: vec![],
                removing: vec![],
            })
            .collect(),
        ..ClusterSnapshot::default()
    }
}

#[test]
fn greedy_finds_a_rack_of_a_rack_aware_placement() {
    // Racks {0,3}, {1,4}, {2,5}; every partition spans the three racks.
    let s = snapshot(&[
        &[0, 1, 2],
        &[3, 4, 5],
        &[0, 4, 2],
        &[3, 1, 5],
        &[0, 4, 5],
        &[3, 1, 2],
    ]);
    let nodes: Vec<NodeId> = (0..6).map(NodeId).collect();
    let g = ConflictGraph::build(&s, &nodes);
    assert!(g.conflicts(NodeId(0), NodeId(1)));
    assert!(!g.conflicts(NodeId(0), NodeId(3)));
    let batch = g.greedy_batch(&nodes, 10, |_, _| true);
    assert_eq!(batch.len(), 2);
    assert!(!g.conflicts(batch[0], batch[1]));
    assert_eq!(g.greedy_batch(&nodes, 1, |_, _| true).len(), 1);
}

#[test]
fn adding_replicas_conflict_too_and_veto_is_respected() {
    let mut s = snapshot(&[&[0, 1]]);
    s.partitions[0].adding = vec![NodeId(2)];
    let nodes: Vec<NodeId> = (0..3).map(NodeId).collect();
    let g = ConflictGraph::build(&s, &nodes);
    assert!(g.conflicts(NodeId(0), NodeId(2)));
    let batch = g.greedy_batch(&nodes, 10, |_, n| n != NodeId(0));
    assert_eq!(batch.len(), 1);
    assert_ne!(batch[0], NodeId(0));
}

/// A snapshot whose conflict graph has exactly `edges` (one RF-2
/// partition per edge) over nodes `0..n`.
fn graph(n: i32, edges: &[(i32, i32)]) -> (ConflictGraph, Vec<NodeId>) {
    let parts: Vec<[i32; 2]> = edges.iter().map(|&(a, b)| [a, b]).collect();
    let refs: Vec<&[i32]> = parts.iter().map(|p| &p[..]).collect();
    let nodes: Vec<NodeId> = (0..n).map(NodeId).collect();
    (ConflictGraph::build(&snapshot(&refs), &nodes), nodes)
}

fn plan(g: &ConflictGraph, nodes: &[NodeId], max: usize) -> Vec<Vec<NodeId>> {
    let classes = g.plan_batches(nodes, max, |_, _| true, |_| true, DEFAULT_SEARCH_BUDGET);
    assert_valid(g, nodes, &classes, max);
    classes
}

fn assert_valid(g: &ConflictGraph, nodes: &[NodeId], classes: &[Vec<NodeId>], max: usize) {
    let mut all: Vec<NodeId> = classes.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(all, nodes, "every node planned exactly once");
    for c in classes {
        assert!(!c.is_empty() && c.len() <= max, "{c:?}");
        for (i, a) in c.iter().enumerate() {
            for b in &c[i + 1..] {
                assert!(!g.conflicts(*a, *b), "{a:?} and {b:?} in {c:?}");
            }
        }
    }
}

#[test]
fn an_odd_cycle_needs_three_batches() {
    let (g, nodes) = graph(7, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 0)]);
    assert_eq!(plan(&g, &nodes, 10).len(), 3);
}

#[test]
fn a_bipartite_graph_needs_two_batches() {
    // An even cycle, and a crown graph (K_{4,4} minus a perfect matching),
    // where a poor order needs 4 colours.
    let (g, nodes) = graph(6, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)]);
    assert_eq!(plan(&g, &nodes, 10).len(), 2);
    let mut crown = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            if a != b {
                crown.push((a, 4 + b));
            }
        }
    }
    let (g, nodes) = graph(8, &crown);
    assert_eq!(plan(&g, &nodes, 10).len(), 2);
}

#[test]
fn a_clique_needs_one_batch_per_node() {
    let mut edges = Vec::new();
    for a in 0..6 {
        for b in a + 1..6 {
            edges.push((a, b));
        }
    }
    let (g, nodes) = graph(6, &edges);
    assert_eq!(plan(&g, &nodes, 10).len(), 6);
}

#[test]
fn no_conflicts_fill_batches_up_to_the_cap() {
    let (g, nodes) = graph(10, &[]);
    assert_eq!(plan(&g, &nodes, 100).len(), 1);
    let classes = plan(&g, &nodes, 3);
    assert_eq!(classes.len(), 4);
    assert_eq!(plan(&g, &nodes, 1).len(), 10);
}

#[test]
fn racks_are_found_as_batches() {
    // Racks {0,3,6}, {1,4,7}, {2,5,8}; each partition spans the racks but
    // not every pair of brokers on different racks shares one.
    let s = snapshot(&[&[0, 1, 2], &[3, 4, 5], &[6, 7, 8], &[0, 4, 8], &[3, 7, 2]]);
    let nodes: Vec<NodeId> = (0..9).map(NodeId).collect();
    let g = ConflictGraph::build(&s, &nodes);
    let classes = plan(&g, &nodes, 100);
    assert_eq!(classes.len(), 3);
}

#[test]
fn a_veto_keeps_nodes_apart_and_the_plan_is_deterministic() {
    let (g, nodes) = graph(6, &[(0, 1)]);
    // Nodes 2 and 3 (say combined controllers) may not share a batch.
    let veto = |chosen: &[NodeId], next: NodeId| {
        !(next.0 == 2 || next.0 == 3) || chosen.iter().all(|c| c.0 != 2 && c.0 != 3)
    };
    let fixed = |n: NodeId| n.0 != 2 && n.0 != 3;
    let a = g.plan_batches(&nodes, 10, veto, fixed, DEFAULT_SEARCH_BUDGET);
    assert_valid(&g, &nodes, &a, 10);
    assert_eq!(a.len(), 2);
    for c in &a {
        assert!(!(c.contains(&NodeId(2)) && c.contains(&NodeId(3))), "{a:?}");
    }
    let b = g.plan_batches(&nodes, 10, veto, fixed, DEFAULT_SEARCH_BUDGET);
    assert_eq!(a, b);
}

#[test]
fn the_local_search_saves_batches_on_a_random_graph() {
    // 60 nodes, 600 random RF-3 partitions: the search ends with fewer
    // classes than RLF alone, and both plans are valid.
    let mut rng = Rng(7);
    let mut parts: Vec<[i32; 3]> = Vec::new();
    while parts.len() < 600 {
        let p = [0, 0, 0].map(|_| i32::try_from(rng.below(60)).unwrap());
        if p[0] != p[1] && p[1] != p[2] && p[0] != p[2] {
            parts.push(p);
        }
    }
    let refs: Vec<&[i32]> = parts.iter().map(|p| &p[..]).collect();
    let nodes: Vec<NodeId> = (0..60).map(NodeId).collect();
    let g = ConflictGraph::build(&snapshot(&refs), &nodes);
    let rlf_only = g.plan_batches(&nodes, 100, |_, _| true, |_| true, 0);
    assert_valid(&g, &nodes, &rlf_only, 100);
    let searched = plan(&g, &nodes, 100);
    assert!(
        searched.len() < rlf_only.len(),
        "{} vs {}",
        searched.len(),
        rlf_only.len()
    );
}
