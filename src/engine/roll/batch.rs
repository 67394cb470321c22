//! Which brokers may restart together.
//!
//! Two brokers conflict when they hold a replica of the same partition
//! (including replicas being added or removed). A batch is a set of
//! pairwise non-conflicting brokers, i.e. an independent set of the conflict
//! graph; since no partition loses more than one replica to a batch, each
//! member's own availability check is enough for the whole batch.
//!
//! Finding the largest independent set is NP-hard; we use the classic greedy
//! (fewest conflicts first), which finds the racks of a rack-aware placement.
//! The graph is stored as one bitset row per broker: at 1,000 brokers that is
//! 125 KB, built in one pass over the partitions (O(partitions x RF^2)).

use std::collections::HashMap;

use crate::engine::model::{ClusterSnapshot, NodeId};

/// A fixed-size bitset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    #[must_use]
    pub fn new(len: usize) -> BitSet {
        BitSet {
            words: vec![0; len.div_ceil(64)],
        }
    }

    pub fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    #[must_use]
    pub fn contains(&self, i: usize) -> bool {
        self.words[i / 64] & (1 << (i % 64)) != 0
    }

    pub fn union_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= *b;
        }
    }

    #[must_use]
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// Conflict graph over a set of nodes.
#[derive(Debug, Clone)]
pub struct ConflictGraph {
    nodes: Vec<NodeId>,
    slot: HashMap<NodeId, usize>,
    adjacency: Vec<BitSet>,
}

impl ConflictGraph {
    /// Builds the graph over `nodes` (usually every broker): an edge joins two
    /// of them when they share a partition.
    #[must_use]
    pub fn build(snapshot: &ClusterSnapshot, nodes: &[NodeId]) -> ConflictGraph {
        let mut nodes = nodes.to_vec();
        nodes.sort_unstable();
        nodes.dedup();
        let slot: HashMap<NodeId, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let mut adjacency = vec![BitSet::new(nodes.len()); nodes.len()];
        let mut members: Vec<usize> = Vec::with_capacity(8);
        for p in &snapshot.partitions {
            members.clear();
            members.extend(p.all_replicas().filter_map(|r| slot.get(&r).copied()));
            for (i, &a) in members.iter().enumerate() {
                for &b in &members[i + 1..] {
                    if a != b {
                        adjacency[a].insert(b);
                        adjacency[b].insert(a);
                    }
                }
            }
        }
        ConflictGraph {
            nodes,
            slot,
            adjacency,
        }
    }

    /// Do `a` and `b` share a partition?
    #[must_use]
    pub fn conflicts(&self, a: NodeId, b: NodeId) -> bool {
        match (self.slot.get(&a), self.slot.get(&b)) {
            (Some(&x), Some(&y)) => self.adjacency[x].contains(y),
            _ => false,
        }
    }

    /// Number of nodes `n` conflicts with.
    #[must_use]
    pub fn degree(&self, n: NodeId) -> usize {
        self.slot.get(&n).map_or(0, |&i| self.adjacency[i].count())
    }

    /// Greedy independent set among `candidates`, fewest conflicts first (ties
    /// by id), at most `max` members; `accept(chosen, next)` may veto a member
    /// (the quorum check for combined nodes). Candidates not in the graph
    /// conflict with nothing.
    pub fn greedy_batch(
        &self,
        candidates: &[NodeId],
        max: usize,
        mut accept: impl FnMut(&[NodeId], NodeId) -> bool,
    ) -> Vec<NodeId> {
        let mut order: Vec<(usize, NodeId)> =
            candidates.iter().map(|&c| (self.degree(c), c)).collect();
        order.sort_unstable();
        let mut blocked = BitSet::new(self.nodes.len());
        let mut chosen: Vec<NodeId> = Vec::new();
        for (_, c) in order {
            if chosen.len() >= max {
                break;
            }
            let slot = self.slot.get(&c).copied();
            if slot.is_some_and(|s| blocked.contains(s)) || chosen.contains(&c) {
                continue;
            }
            if !accept(&chosen, c) {
                continue;
            }
            chosen.push(c);
            if let Some(s) = slot {
                blocked.union_with(&self.adjacency[s]);
            }
        }
        chosen.sort_unstable();
        chosen
    }
}

#[cfg(test)]
mod tests {
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
}
