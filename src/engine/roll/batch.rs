//! Which brokers may restart together, and in which order.
//!
//! Two brokers conflict when they hold a replica of the same partition
//! (including replicas being added or removed). A batch is a set of
//! pairwise non-conflicting brokers, i.e. an independent set of the conflict
//! graph; since no partition loses more than one replica to a batch, each
//! member's own availability check is enough for the whole batch.
//!
//! Each batch is a restart cycle of minutes, so the roll wants as few
//! batches as possible: a colouring of the conflict graph with few colours,
//! every colour class capped at `max_batch_size`. Picking one greedy
//! independent set after another (the first version) finds the racks of a
//! rack-aware placement, but on a random placement it needs about twice the
//! optimum, and on large rack-aware clusters whose racks do not conflict
//! completely it mixes racks. So the whole roll is planned at once
//! ([`ConflictGraph::plan_batches`]):
//!
//! 1. recursive largest first (RLF, Leighton 1979): build one class at a
//!    time, each next member being the candidate that blocks the most
//!    already-blocked vertices (so the class costs the rest of the graph
//!    the least), capped and subject to the caller's veto (the quorum rule
//!    for combined controllers);
//! 2. a bounded local search (PartialCol, Blöchliger and Zufferey 2008):
//!    dissolve the smallest class and move its members into the others,
//!    evicting conflicting neighbours, with a tabu list, until every vertex
//!    has a class again (one batch saved) or an iteration budget runs out.
//!    It stops early at a lower bound (a clique found greedily, or
//!    `ceil(n / max)`), so rack-aware placements cost no search at all.
//!
//! Everything is deterministic (a fixed-seed generator breaks ties), so
//! the dry run and the roll compute the same plan from the same snapshot.
//! The graph is stored as one bitset row per broker: at 2,000 brokers that
//! is 500 KB, built in one pass over the partitions (O(partitions x RF^2)).

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

    pub fn remove(&mut self, i: usize) {
        self.words[i / 64] &= !(1 << (i % 64));
    }

    /// `|self & other|`.
    #[must_use]
    pub fn count_and(&self, other: &BitSet) -> usize {
        self.words
            .iter()
            .zip(&other.words)
            .map(|(a, b)| (a & b).count_ones() as usize)
            .sum()
    }

    /// `self &= !other`.
    pub fn difference_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= !*b;
        }
    }

    /// `self |= a & b`.
    pub fn union_with_and(&mut self, a: &BitSet, b: &BitSet) {
        for ((x, y), z) in self.words.iter_mut().zip(&a.words).zip(&b.words) {
            *x |= *y & *z;
        }
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    None
                } else {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Some(w * 64 + b)
                }
            })
        })
    }
}

/// Conflict graph over a set of nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// Default local-search budget of [`ConflictGraph::plan_batches`], in work
/// units (one per move evaluated and one per neighbour count updated): about
/// 0.3-0.5 s on one core when the search cannot save another batch. Small graphs get at most `500 n^2` of it, so a
/// search that cannot succeed (a class too few) stays cheap there.
pub const DEFAULT_SEARCH_BUDGET: usize = 300_000_000;

/// A small deterministic generator (xorshift64*) for tie-breaking.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The candidates' induced subgraph, in local indices.
struct Local {
    ids: Vec<NodeId>,
    rows: Vec<BitSet>,
    lists: Vec<Vec<u32>>,
}

impl ConflictGraph {
    fn local(&self, candidates: &[NodeId]) -> Local {
        let mut ids = candidates.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let m = ids.len();
        let global: Vec<Option<usize>> = ids.iter().map(|c| self.slot.get(c).copied()).collect();
        let mut rows = vec![BitSet::new(m); m];
        let mut lists = vec![Vec::new(); m];
        for (i, gi) in global.iter().enumerate() {
            let Some(gi) = *gi else { continue };
            for (j, gj) in global.iter().enumerate() {
                if let Some(gj) = *gj
                    && self.adjacency[gi].contains(gj)
                {
                    rows[i].insert(j);
                    lists[i].push(u32::try_from(j).unwrap_or(u32::MAX));
                }
            }
        }
        Local { ids, rows, lists }
    }

    /// Plans every batch of a roll at once: a colouring of the conflict graph
    /// induced by `candidates`, each class at most `max` members, in restart
    /// order. `accept(class, next)` may veto a member of a class (the quorum
    /// check for combined nodes); vertices for which `movable` is false keep
    /// the class the first phase gave them (their veto is not re-checked by
    /// the local search). `budget` bounds the local search's moves.
    /// Deterministic: the same inputs give the same classes.
    pub fn plan_batches(
        &self,
        candidates: &[NodeId],
        max: usize,
        mut accept: impl FnMut(&[NodeId], NodeId) -> bool,
        movable: impl Fn(NodeId) -> bool,
        budget: usize,
    ) -> Vec<Vec<NodeId>> {
        let max = max.max(1);
        let local = self.local(candidates);
        let mut classes = rlf(&local, max, &mut accept);
        let frozen: Vec<bool> = local.ids.iter().map(|&id| !movable(id)).collect();
        let bound = lower_bound(&local, max);
        let budget = budget.min(500 * local.ids.len() * local.ids.len());
        if classes.len() > bound && budget > 0 {
            classes = partial_col(&local, classes, max, &frozen, bound, budget);
        }
        classes
            .into_iter()
            .map(|c| {
                let mut ids: Vec<NodeId> = c.into_iter().map(|v| local.ids[v]).collect();
                ids.sort_unstable();
                ids
            })
            .collect()
    }
}

/// Recursive largest first, capped at `max` per class, honouring `accept`.
fn rlf(
    g: &Local,
    max: usize,
    accept: &mut impl FnMut(&[NodeId], NodeId) -> bool,
) -> Vec<Vec<usize>> {
    let m = g.ids.len();
    let mut uncolored = BitSet::new(m);
    for v in 0..m {
        uncolored.insert(v);
    }
    let mut left = m;
    let mut classes: Vec<Vec<usize>> = Vec::new();
    while left > 0 {
        let mut class: Vec<usize> = Vec::new();
        let mut class_ids: Vec<NodeId> = Vec::new();
        let mut open = uncolored.clone();
        let mut blocked = BitSet::new(m);
        while class.len() < max {
            // First member: most conflicts among the uncoloured; then the
            // one with most neighbours already blocked, fewest still open.
            let mut best: Option<(usize, usize, usize)> = None;
            for v in open.iter() {
                let key = if class.is_empty() {
                    (g.rows[v].count_and(&uncolored), usize::MAX, v)
                } else {
                    (
                        g.rows[v].count_and(&blocked),
                        usize::MAX - g.rows[v].count_and(&open),
                        v,
                    )
                };
                if best.is_none_or(|b| (key.0, key.1) > (b.0, b.1)) {
                    best = Some(key);
                }
            }
            let Some((_, _, v)) = best else { break };
            open.remove(v);
            if !accept(&class_ids, g.ids[v]) {
                continue;
            }
            class.push(v);
            class_ids.push(g.ids[v]);
            open.difference_with(&g.rows[v]);
            blocked.union_with_and(&g.rows[v], &uncolored);
        }
        if class.is_empty() {
            // Every remaining vertex was vetoed even alone: give each its own
            // batch rather than loop (the live checks hold them back).
            for v in uncolored.iter() {
                classes.push(vec![v]);
            }
            break;
        }
        for &v in &class {
            uncolored.remove(v);
        }
        left -= class.len();
        classes.push(class);
    }
    classes
}

/// A lower bound on the number of classes: a greedily grown clique, and
/// the cap.
fn lower_bound(g: &Local, max: usize) -> usize {
    let m = g.ids.len();
    if m == 0 {
        return 0;
    }
    let mut best_clique = 1;
    // Seeds: the few highest-degree vertices.
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by_key(|&v| (std::cmp::Reverse(g.lists[v].len()), v));
    for &seed in order.iter().take(8) {
        let mut common = g.rows[seed].clone();
        let mut size = 1;
        loop {
            let next = common
                .iter()
                .max_by_key(|&u| (g.rows[u].count_and(&common), std::cmp::Reverse(u)));
            let Some(u) = next else { break };
            size += 1;
            let row = &g.rows[u];
            for (a, b) in common.words.iter_mut().zip(&row.words) {
                *a &= *b;
            }
        }
        best_clique = best_clique.max(size);
    }
    best_clique.max(m.div_ceil(max))
}

/// Removes classes while a tabu search (PartialCol) can re-home their
/// members within `budget` work units in total; returns the best legal
/// colouring.
fn partial_col(
    g: &Local,
    mut classes: Vec<Vec<usize>>,
    max: usize,
    frozen: &[bool],
    bound: usize,
    budget: usize,
) -> Vec<Vec<usize>> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut spent = 0usize;
    while classes.len() > bound && spent < budget {
        // Dissolve the smallest class without frozen members (the last such
        // on ties: RLF builds its weakest classes last).
        let Some(r) = (0..classes.len())
            .filter(|&c| classes[c].iter().all(|&v| !frozen[v]))
            .min_by_key(|&c| (classes[c].len(), std::cmp::Reverse(c)))
        else {
            break;
        };
        let mut search = Search::new(g, &classes, r, frozen);
        if !search.run(g, max, &mut rng, &mut spent, budget) {
            break;
        }
        classes = search.classes();
    }
    classes.retain(|c| !c.is_empty());
    classes
}

/// No class (a vertex of the dissolved class not re-homed yet).
const NONE: usize = usize::MAX;

/// One PartialCol search: the colouring without the dissolved class, whose members (and those
/// they evict) wait in `uncolored` for a class.
struct Search {
    /// Classes left.
    k: usize,
    color: Vec<usize>,
    size: Vec<usize>,
    uncolored: Vec<usize>,
    /// `gamma[v * k + c]`: neighbours of `v` in class `c`; `fgamma`: the frozen ones among them.
    gamma: Vec<u32>,
    fgamma: Vec<u32>,
    /// `tabu[v * k + c]`: the iteration until which `v` may not go back into `c`.
    tabu: Vec<usize>,
}

impl Search {
    /// The colouring `classes` without class `r`.
    fn new(g: &Local, classes: &[Vec<usize>], r: usize, frozen: &[bool]) -> Search {
        let m = g.ids.len();
        let k = classes.len() - 1;
        let mut color = vec![NONE; m];
        let mut size = vec![0usize; k];
        for (c, members) in classes.iter().enumerate() {
            if c == r {
                continue;
            }
            let nc = if c > r { c - 1 } else { c };
            for &v in members {
                color[v] = nc;
            }
            size[nc] = members.len();
        }
        let mut gamma = vec![0u32; m * k];
        let mut fgamma = vec![0u32; m * k];
        for v in 0..m {
            if color[v] == NONE {
                continue;
            }
            for &w in &g.lists[v] {
                gamma[w as usize * k + color[v]] += 1;
                if frozen[v] {
                    fgamma[w as usize * k + color[v]] += 1;
                }
            }
        }
        Search {
            k,
            color,
            size,
            uncolored: classes[r].clone(),
            gamma,
            fgamma,
            tabu: vec![0usize; m * k],
        }
    }

    /// Moves vertices until every one has a class (`true`) or `spent` reaches `budget`.
    fn run(
        &mut self,
        g: &Local,
        max: usize,
        rng: &mut Rng,
        spent: &mut usize,
        budget: usize,
    ) -> bool {
        let mut best_left = self.uncolored.len();
        let mut iter = 0usize;
        while !self.uncolored.is_empty() && *spent < budget {
            iter += 1;
            *spent += self.uncolored.len() * self.k;
            let Some((ui, c)) = self.best_move(max, iter, best_left, rng) else {
                continue;
            };
            *spent += self.apply_move(g, ui, c, iter, rng);
            best_left = best_left.min(self.uncolored.len());
        }
        self.uncolored.is_empty()
    }

    /// The best move: put `uncolored[ui]` into class `c`, evicting its neighbours there (fewest
    /// evictions, ties at random; a tabu move only when it reaches a new best).
    fn best_move(
        &self,
        max: usize,
        iter: usize,
        best_left: usize,
        rng: &mut Rng,
    ) -> Option<(usize, usize)> {
        let k = self.k;
        let mut best: Option<(i64, usize, usize)> = None;
        let mut ties = 0usize;
        for (ui, &u) in self.uncolored.iter().enumerate() {
            for c in 0..k {
                let gu = self.gamma[u * k + c] as usize;
                if self.fgamma[u * k + c] > 0 || self.size[c] + 1 - gu > max {
                    continue;
                }
                let delta = gu as i64 - 1;
                let aspire = (self.uncolored.len() as i64 + delta) < best_left as i64;
                if self.tabu[u * k + c] > iter && !aspire {
                    continue;
                }
                match best {
                    Some((d, _, _)) if delta > d => {}
                    Some((d, _, _)) if delta == d => {
                        ties += 1;
                        if rng.below(ties) == 0 {
                            best = Some((delta, ui, c));
                        }
                    }
                    _ => {
                        ties = 1;
                        best = Some((delta, ui, c));
                    }
                }
            }
        }
        best.map(|(_, ui, c)| (ui, c))
    }

    /// Makes the move `(ui, c)`; returns its work units.
    fn apply_move(&mut self, g: &Local, ui: usize, c: usize, iter: usize, rng: &mut Rng) -> usize {
        let k = self.k;
        let u = self.uncolored.swap_remove(ui);
        let tenure = (self.uncolored.len() * 6) / 10 + rng.below(10);
        let before = self.uncolored.len();
        for &w in &g.lists[u] {
            let w = w as usize;
            if self.color[w] == c {
                self.color[w] = NONE;
                self.size[c] -= 1;
                self.uncolored.push(w);
                self.tabu[w * k + c] = iter + tenure;
                for &x in &g.lists[w] {
                    self.gamma[x as usize * k + c] -= 1;
                }
            }
        }
        let work = g.lists[u].len() * (1 + self.uncolored.len() - before);
        self.color[u] = c;
        self.size[c] += 1;
        for &x in &g.lists[u] {
            self.gamma[x as usize * k + c] += 1;
        }
        work
    }

    /// The colouring found (every vertex has a class).
    fn classes(&self) -> Vec<Vec<usize>> {
        let mut next = vec![Vec::new(); self.k];
        for (v, &c) in self.color.iter().enumerate() {
            next[c].push(v);
        }
        next
    }
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
