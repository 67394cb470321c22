//! A simulated KRaft cluster for tests and benchmarks (not used at runtime).
//!
//! The roll engine is pure, so the only way to know it is *safe* is to let it
//! drive something that behaves like a cluster and watch what happens. This
//! module models just enough: nodes with roles and a process phase (down,
//! starting, log recovery, serving), partitions with replicas, ISR, leader and
//! in-flight reassignments, per-topic `min.insync.replicas`, and a quorum with
//! `LastCaughtUpTimestamp`s. It applies the engine's [`Decision`]s, feeds
//! the results back as an executor must ([`SimCluster::feed_back`]: restart
//! done, process ended; every process start gets a new incarnation), advances
//! time through its own event timeline, injects [`Fault`]s, and checks the
//! roll's safety invariants on the true state at every restart, recording
//! every breach in [`SimCluster::violations`].
//!
//! It lives in the library (rather than under `tests/`) so that property
//! tests, example tests and the criterion benchmark share one model and one
//! set of generators. It is pure like the rest of the engine: time is a value,
//! randomness comes from a seeded [`SplitMix64`].

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::model::{
    ClusterSnapshot, ConfigEntry, Millis, NodeId, NodeRoles, NodeSnapshot, ObservedState,
    PartitionSnapshot, QuorumSnapshot, TopicPartition, TopicSettings, VoterState,
};

use super::safety::{DEFAULT_FETCH_TIMEOUT_MS, FETCH_TIMEOUT_KEY, quorum_needed};
use super::{Decision, NodeRequest, RollConfig};

/// SplitMix64: a tiny deterministic PRNG, enough for generating clusters.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    #[must_use]
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// How replicas are placed by [`ClusterSpec`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Every replica of a partition on a different rack.
    RackAware,
    /// Replicas on distinct brokers chosen at random.
    Random,
}

/// Shape of a generated cluster.
#[derive(Debug, Clone)]
pub struct ClusterSpec {
    /// Broker-only nodes.
    pub brokers: usize,
    /// Combined (broker + controller) nodes.
    pub combined: usize,
    /// Controller-only nodes.
    pub controllers: usize,
    pub topics: usize,
    pub partitions_per_topic: usize,
    /// Replication factor (capped at the number of broker-role nodes).
    pub replication_factor: usize,
    /// `min.insync.replicas` per topic is drawn from this list.
    pub min_isr_choices: Vec<u32>,
    pub racks: usize,
    pub placement: Placement,
}

impl ClusterSpec {
    /// Number of nodes with the broker role.
    #[must_use]
    pub fn broker_role_nodes(&self) -> usize {
        self.brokers + self.combined
    }
}

/// Process phase of a simulated node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Not running; `until: None` = never comes back.
    Down {
        until: Option<Millis>,
    },
    /// Running, not yet ready.
    Starting {
        until: Millis,
    },
    /// Running, in log recovery.
    Recovering {
        until: Millis,
    },
    Serving,
}

/// Per-node timing and fault knobs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeBehaviour {
    /// Time the process is down during a restart.
    pub down_ms: u64,
    /// Time from process start to ready.
    pub start_ms: u64,
    /// Log recovery after a restart (0 = none).
    pub recovery_ms: u64,
    /// Time after becoming SERVING until the node is back in its ISRs.
    pub isr_rejoin_ms: u64,
    /// Never comes back after a restart.
    pub never_returns: bool,
    /// Dynamic reconfigurations silently do nothing.
    pub reconfig_fails: bool,
}

impl Default for NodeBehaviour {
    fn default() -> Self {
        NodeBehaviour {
            down_ms: 2_000,
            start_ms: 3_000,
            recovery_ms: 0,
            isr_rejoin_ms: 2_000,
            never_returns: false,
            reconfig_fails: false,
        }
    }
}

/// A simulated node.
#[derive(Debug, Clone)]
pub struct SimNode {
    pub id: NodeId,
    pub roles: NodeRoles,
    pub rack: Option<String>,
    pub phase: Phase,
    pub reachable: bool,
    /// Controller not fetching from the leader.
    pub lagging: bool,
    pub config: BTreeMap<String, ConfigEntry>,
    /// What a restart applies (every desired setting).
    pub desired: BTreeMap<String, String>,
    pub behaviour: NodeBehaviour,
    pub restarts_by_roll: u32,
    pub reconfigs_by_roll: u32,
    /// Down because of an injected fault (not the roll).
    pub crashed_by_fault: bool,
    /// Process generation, bumped each time the process starts (reported as
    /// the snapshot's `incarnation`, like a pod UID).
    pub incarnation: u64,
}

impl SimNode {
    #[must_use]
    pub fn is_running(&self) -> bool {
        !matches!(self.phase, Phase::Down { .. })
    }

    #[must_use]
    pub fn is_serving(&self) -> bool {
        self.phase == Phase::Serving
    }

    #[must_use]
    pub fn observed(&self) -> ObservedState {
        match self.phase {
            Phase::Down { .. } => ObservedState::NotRunning,
            Phase::Starting { .. } => ObservedState::NotReady,
            Phase::Recovering { .. } => ObservedState::Recovering,
            Phase::Serving => ObservedState::Serving,
        }
    }
}

/// A simulated partition.
#[derive(Debug, Clone)]
pub struct SimPartition {
    pub p: PartitionSnapshot,
    /// When the in-flight reassignment completes.
    pub reassignment_done_at: Option<Millis>,
    /// Replicas that will rejoin the ISR at the given time.
    pub rejoin_at: BTreeMap<NodeId, Millis>,
}

/// Faults the property tests inject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The node's process dies; it comes back after `down_ms` (`None`: never).
    Crash { node: NodeId, down_ms: Option<u64> },
    /// A replica falls out of an ISR for `for_ms`.
    IsrShrink {
        partition: usize,
        node: NodeId,
        for_ms: u64,
    },
    /// Leadership moves to another ISR member.
    LeaderMove { partition: usize },
    /// The quorum elects another caught-up controller.
    QuorumLeaderChange,
    /// A controller stops fetching for `for_ms`.
    ControllerLag { node: NodeId, for_ms: u64 },
    /// A reassignment starts: `add` joins (in sync at once), `remove` leaves
    /// after `done_after_ms`.
    Reassign {
        partition: usize,
        add: NodeId,
        remove: NodeId,
        done_after_ms: u64,
    },
    /// A node's Admin API stops answering for `for_ms`.
    Unreachable { node: NodeId, for_ms: u64 },
}

/// The simulated cluster.
#[derive(Debug, Clone)]
pub struct SimCluster {
    pub now: Millis,
    pub nodes: BTreeMap<NodeId, SimNode>,
    pub partitions: Vec<SimPartition>,
    pub topics: BTreeMap<String, TopicSettings>,
    pub quorum_leader: Option<NodeId>,
    pub caught_up_at: BTreeMap<NodeId, i64>,
    pub fetch_timeout_ms: i64,
    /// Faults scheduled for a time.
    pub scheduled: Vec<(Millis, Fault)>,
    /// Timed undo actions of faults (lag ends, reachability returns).
    undo: Vec<(Millis, Undo)>,
    /// Every invariant breach seen (empty = all good).
    pub violations: Vec<String>,
    /// Non-serving nodes when the roll started.
    pub initial_non_serving: usize,
    /// Restart batches applied.
    pub batches: Vec<Vec<NodeId>>,
    /// Settings the roll must restart for (node → restart reasons).
    pub restart_reasons: BTreeMap<NodeId, Vec<String>>,
    /// Safety rules the checker enforces.
    pub rules: RollConfig,
    /// Processes taken down by roll restarts, not yet reported to the
    /// roller (see [`SimCluster::feed_back`]).
    pub process_ended: Vec<(NodeId, Millis)>,
    /// Nodes held by an operator (`kafkaops hold`): the roll must never restart
    /// nor reconfigure them, and is not expected to finish their work.
    pub held: BTreeSet<NodeId>,
}

#[derive(Debug, Clone)]
enum Undo {
    Lag(NodeId),
    Reachable(NodeId),
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

    /// What the roll is asked to do, derived from the nodes' restart reasons
    /// and desired settings.
    #[must_use]
    pub fn requests(&self) -> BTreeMap<NodeId, NodeRequest> {
        self.nodes
            .values()
            .map(|n| {
                (
                    n.id,
                    NodeRequest {
                        restart_reasons: self
                            .restart_reasons
                            .get(&n.id)
                            .cloned()
                            .unwrap_or_default(),
                        desired_config: n.desired.clone(),
                    },
                )
            })
            .collect()
    }

    /// Marks the start of the roll (for the "non-serving never grows" check).
    pub fn start_roll(&mut self, rules: RollConfig) {
        self.rules = rules;
        self.initial_non_serving = self.nodes.values().filter(|n| !n.is_serving()).count();
    }

    /// Observes the cluster.
    #[must_use]
    pub fn snapshot(&self) -> ClusterSnapshot {
        let now = i64::try_from(self.now.0).unwrap_or(i64::MAX);
        let voters = self
            .caught_up_at
            .iter()
            .map(|(id, ts)| {
                let ts = if Some(*id) == self.quorum_leader {
                    now
                } else {
                    *ts
                };
                VoterState {
                    id: *id,
                    last_caught_up_ms: Some(ts),
                    last_fetch_ms: Some(ts),
                }
            })
            .collect();
        ClusterSnapshot {
            nodes: self
                .nodes
                .values()
                .map(|n| NodeSnapshot {
                    id: n.id,
                    roles: n.roles,
                    state: n.observed(),
                    reachable: n.reachable && n.is_running(),
                    rack: n.rack.clone(),
                    config: n.config.clone(),
                    incarnation: Some(format!("sim-{}-{}", n.id, n.incarnation)),
                })
                .collect(),
            partitions: self.partitions.iter().map(|p| p.p.clone()).collect(),
            topics: self.topics.clone(),
            quorum: Some(QuorumSnapshot {
                leader: self.quorum_leader,
                voters,
                observers: Vec::new(),
            }),
        }
    }

    /// Controllers by role.
    #[must_use]
    pub fn controllers(&self) -> Vec<NodeId> {
        self.nodes
            .values()
            .filter(|n| n.roles.controller)
            .map(|n| n.id)
            .collect()
    }

    /// Controllers that truly take part in the quorum (running, serving, not
    /// lagging).
    #[must_use]
    pub fn voting_controllers(&self) -> Vec<NodeId> {
        self.nodes
            .values()
            .filter(|n| n.roles.controller && n.is_serving() && !n.lagging)
            .map(|n| n.id)
            .collect()
    }

    /// Takes a node down (restart or crash).
    pub fn take_down(&mut self, node: NodeId, until: Option<Millis>) {
        let n = self.nodes.get_mut(&node).expect("known node");
        n.phase = Phase::Down { until };
        for part in &mut self.partitions {
            part.rejoin_at.remove(&node);
            let p = &mut part.p;
            if p.isr.contains(&node) && p.isr.len() > 1 {
                p.isr.retain(|r| *r != node);
            }
            if p.leader == Some(node) {
                p.leader = p.isr.iter().copied().find(|r| *r != node);
            }
        }
        if self.quorum_leader == Some(node) {
            self.elect_quorum_leader();
        }
    }

    fn elect_quorum_leader(&mut self) {
        let voting = self.voting_controllers();
        let needed = self.controllers().len() / 2 + 1;
        self.quorum_leader = if voting.len() >= needed {
            voting
                .iter()
                .copied()
                .find(|v| Some(*v) != self.quorum_leader)
                .or(voting.first().copied())
        } else {
            None
        };
    }

    /// Applies an engine decision at the current time, checking invariants.
    pub fn apply(&mut self, decision: &Decision) {
        match decision {
            Decision::Restart { nodes, .. } => {
                let batch: Vec<NodeId> = nodes.iter().map(|n| n.node).collect();
                self.check_held(&batch, "restarted");
                self.check_restart(&batch);
                for node in &batch {
                    let n = self.nodes.get_mut(node).expect("known node");
                    n.restarts_by_roll += 1;
                    n.crashed_by_fault = false;
                    for (k, v) in n.desired.clone() {
                        n.config
                            .entry(k)
                            .or_insert(ConfigEntry {
                                value: None,
                                read_only: true,
                                sensitive: false,
                            })
                            .value = Some(v);
                    }
                    let until = if n.behaviour.never_returns {
                        None
                    } else {
                        Some(self.now.plus(n.behaviour.down_ms))
                    };
                    if n.is_running() {
                        self.process_ended.push((*node, self.now));
                    }
                    self.take_down(*node, until);
                }
                self.batches.push(batch);
            }
            Decision::Reconfigure { node, changes, .. } => {
                self.check_held(&[*node], "reconfigured");
                self.check_touch(&[*node], false);
                let n = self.nodes.get_mut(node).expect("known node");
                n.reconfigs_by_roll += 1;
                if !n.behaviour.reconfig_fails {
                    for c in changes {
                        if let Some(e) = n.config.get_mut(&c.key) {
                            if e.read_only {
                                self.violations.push(format!(
                                    "reconfigured read-only setting {} on {node}",
                                    c.key
                                ));
                            } else {
                                e.value = Some(c.to.clone());
                            }
                        }
                    }
                }
            }
            Decision::ElectPreferredLeaders { partitions, .. } => {
                let wanted: BTreeSet<&TopicPartition> = partitions.iter().collect();
                for part in &mut self.partitions {
                    if !wanted.contains(&part.p.tp) {
                        continue;
                    }
                    if let Some(&pref) = part.p.replicas.first() {
                        let alive = self.nodes.get(&pref).is_some_and(SimNode::is_serving);
                        if alive && part.p.isr.contains(&pref) {
                            part.p.leader = Some(pref);
                        }
                    }
                }
            }
            Decision::Wait { .. } | Decision::Abort { .. } => {}
            Decision::Done { .. } => self.check_done(),
        }
    }

    /// Advances time to `to`, running every event on the way in order.
    pub fn advance_to(&mut self, to: Millis) {
        loop {
            let next = self.next_event_time();
            match next {
                Some(t) if t <= to => {
                    self.now = self.now.max(t);
                    self.run_events_at(t);
                }
                _ => break,
            }
        }
        self.now = self.now.max(to);
        self.refresh_quorum();
    }

    fn next_event_time(&self) -> Option<Millis> {
        let mut t: Option<Millis> = None;
        let mut consider = |x: Millis| t = Some(t.map_or(x, |y| y.min(x)));
        for n in self.nodes.values() {
            match n.phase {
                Phase::Down { until: Some(u) }
                | Phase::Starting { until: u }
                | Phase::Recovering { until: u } => {
                    consider(u);
                }
                _ => {}
            }
        }
        for p in &self.partitions {
            if let Some(d) = p.reassignment_done_at {
                consider(d);
            }
            for at in p.rejoin_at.values() {
                consider(*at);
            }
        }
        for (at, _) in &self.scheduled {
            consider(*at);
        }
        for (at, _) in &self.undo {
            consider(*at);
        }
        t
    }

    fn run_events_at(&mut self, t: Millis) {
        self.refresh_quorum();
        let due: Vec<Fault> = {
            let (due, rest): (Vec<_>, Vec<_>) =
                self.scheduled.drain(..).partition(|(at, _)| *at <= t);
            self.scheduled = rest;
            due.into_iter().map(|(_, f)| f).collect()
        };
        for f in due {
            self.inject(&f);
        }
        let undo: Vec<Undo> = {
            let (due, rest): (Vec<_>, Vec<_>) = self.undo.drain(..).partition(|(at, _)| *at <= t);
            self.undo = rest;
            due.into_iter().map(|(_, u)| u).collect()
        };
        for u in undo {
            match u {
                Undo::Lag(n) => {
                    if let Some(x) = self.nodes.get_mut(&n) {
                        x.lagging = false;
                    }
                }
                Undo::Reachable(n) => {
                    if let Some(x) = self.nodes.get_mut(&n) {
                        x.reachable = true;
                    }
                }
            }
        }
        let ids: Vec<NodeId> = self.nodes.keys().copied().collect();
        for id in ids {
            let n = self.nodes.get_mut(&id).expect("listed");
            match n.phase {
                Phase::Down { until: Some(u) } if u <= t => {
                    n.phase = Phase::Starting {
                        until: t.plus(n.behaviour.start_ms),
                    };
                    n.incarnation += 1;
                    n.crashed_by_fault = false;
                }
                Phase::Starting { until } if until <= t => {
                    if n.behaviour.recovery_ms > 0 {
                        n.phase = Phase::Recovering {
                            until: t.plus(n.behaviour.recovery_ms),
                        };
                    } else {
                        self.become_serving(id, t);
                    }
                }
                Phase::Recovering { until } if until <= t => self.become_serving(id, t),
                _ => {}
            }
        }
        for part in &mut self.partitions {
            let due: Vec<NodeId> = part
                .rejoin_at
                .iter()
                .filter(|(_, at)| **at <= t)
                .map(|(n, _)| *n)
                .collect();
            for n in due {
                part.rejoin_at.remove(&n);
                let serving = self.nodes.get(&n).is_some_and(SimNode::is_serving);
                if serving && part.p.replicas.contains(&n) && !part.p.isr.contains(&n) {
                    part.p.isr.push(n);
                    if part.p.leader.is_none_or(|l| !self.nodes[&l].is_serving()) {
                        part.p.leader = Some(n);
                    }
                }
            }
            if part.reassignment_done_at.is_some_and(|d| d <= t) {
                part.reassignment_done_at = None;
                let p = &mut part.p;
                let removing = std::mem::take(&mut p.removing);
                p.adding.clear();
                p.replicas.retain(|r| !removing.contains(r));
                if p.isr.iter().any(|r| !removing.contains(r)) {
                    p.isr.retain(|r| !removing.contains(r));
                }
                if p.leader.is_some_and(|l| removing.contains(&l)) {
                    p.leader = p.isr.first().copied();
                }
            }
        }
        self.refresh_quorum();
    }

    fn become_serving(&mut self, id: NodeId, t: Millis) {
        let n = self.nodes.get_mut(&id).expect("known node");
        n.phase = Phase::Serving;
        let rejoin = t.plus(n.behaviour.isr_rejoin_ms);
        for part in &mut self.partitions {
            if part.p.replicas.contains(&id) && !part.p.isr.contains(&id) {
                part.rejoin_at.insert(id, rejoin);
            }
            if part.p.leader.is_none() && part.p.isr.contains(&id) {
                part.p.leader = Some(id);
            }
        }
    }

    fn refresh_quorum(&mut self) {
        let now = i64::try_from(self.now.0).unwrap_or(i64::MAX);
        if self
            .quorum_leader
            .is_none_or(|l| !self.voting_controllers().contains(&l))
        {
            self.elect_quorum_leader();
        }
        if self.quorum_leader.is_none() {
            return;
        }
        for v in self.voting_controllers() {
            self.caught_up_at.insert(v, now);
        }
    }

    /// Reports what happened to a decision the simulator just applied, as an
    /// executor must: restart commands done, and the processes that ended
    /// (here at once: a simulated restart takes the process down when
    /// applied).
    pub fn feed_back(&mut self, roller: &mut super::Roller, decision: &Decision) {
        if let Decision::Restart { nodes, .. } = decision {
            for n in nodes {
                roller.handle_restart_done(n.node, self.now);
            }
        }
        self.report_process_ended(roller);
    }

    /// Hands the processes that ended since the last call to the roller.
    pub fn report_process_ended(&mut self, roller: &mut super::Roller) {
        for (node, at) in std::mem::take(&mut self.process_ended) {
            roller.handle_process_ended(node, at);
        }
    }

    /// Injects a fault now.
    pub fn inject(&mut self, f: &Fault) {
        let now = self.now;
        match *f {
            Fault::Crash { node, down_ms } => {
                if self.nodes.get(&node).is_some_and(SimNode::is_running) {
                    self.nodes.get_mut(&node).expect("checked").crashed_by_fault = true;
                    self.take_down(node, down_ms.map(|d| now.plus(d)));
                }
            }
            Fault::IsrShrink {
                partition,
                node,
                for_ms,
            } => self.shrink_isr(partition, node, for_ms),
            Fault::LeaderMove { partition } => self.move_leader(partition),
            Fault::QuorumLeaderChange => {
                let voting = self.voting_controllers();
                if let Some(other) = voting
                    .iter()
                    .copied()
                    .find(|v| Some(*v) != self.quorum_leader)
                {
                    self.quorum_leader = Some(other);
                }
            }
            Fault::ControllerLag { node, for_ms } => {
                if let Some(n) = self.nodes.get_mut(&node)
                    && n.roles.controller
                {
                    n.lagging = true;
                    // Far behind at once, so the quorum check sees it.
                    let far = i64::try_from(now.0).unwrap_or(i64::MAX) - 10 * self.fetch_timeout_ms;
                    self.caught_up_at.insert(node, far);
                    self.undo.push((now.plus(for_ms), Undo::Lag(node)));
                    if self.quorum_leader == Some(node) {
                        self.elect_quorum_leader();
                    }
                }
            }
            Fault::Reassign {
                partition,
                add,
                remove,
                done_after_ms,
            } => self.start_reassignment(partition, add, remove, done_after_ms),
            Fault::Unreachable { node, for_ms } => {
                if let Some(n) = self.nodes.get_mut(&node) {
                    n.reachable = false;
                    self.undo.push((now.plus(for_ms), Undo::Reachable(node)));
                }
            }
        }
    }

    /// [`Fault::IsrShrink`]: `node` leaves the ISR of a partition (and its leadership) for
    /// `for_ms`, unless it is the last in-sync replica.
    fn shrink_isr(&mut self, partition: usize, node: NodeId, for_ms: u64) {
        let now = self.now;
        let len = self.partitions.len();
        if len == 0 {
            return;
        }
        let part = &mut self.partitions[partition % len];
        if part.p.isr.len() > 1 && part.p.isr.contains(&node) {
            part.p.isr.retain(|r| *r != node);
            if part.p.leader == Some(node) {
                part.p.leader = part.p.isr.first().copied();
            }
            part.rejoin_at.insert(node, now.plus(for_ms));
        }
    }

    /// [`Fault::LeaderMove`]: another in-sync replica of a partition takes the leadership.
    fn move_leader(&mut self, partition: usize) {
        let len = self.partitions.len();
        if len == 0 {
            return;
        }
        let part = &mut self.partitions[partition % len];
        if let Some(other) = part
            .p
            .isr
            .iter()
            .copied()
            .find(|r| Some(*r) != part.p.leader)
        {
            part.p.leader = Some(other);
        }
    }

    /// [`Fault::Reassign`]: a reassignment adding `add` and removing `remove` that completes
    /// after `done_after_ms`, when `add` serves and the partition is not already moving.
    fn start_reassignment(
        &mut self,
        partition: usize,
        add: NodeId,
        remove: NodeId,
        done_after_ms: u64,
    ) {
        let now = self.now;
        let len = self.partitions.len();
        if len == 0 {
            return;
        }
        let add_ok = self
            .nodes
            .get(&add)
            .is_some_and(|n| n.roles.broker && n.is_serving());
        let part = &mut self.partitions[partition % len];
        if !add_ok
            || part.reassignment_done_at.is_some()
            || part.p.replicas.contains(&add)
            || !part.p.replicas.contains(&remove)
        {
            return;
        }
        part.p.replicas.push(add);
        part.p.isr.push(add);
        part.p.adding = vec![add];
        part.p.removing = vec![remove];
        part.reassignment_done_at = Some(now.plus(done_after_ms));
    }

    fn violation(&mut self, v: String) {
        self.violations.push(format!("t={}: {v}", self.now.0));
    }

    /// Does the node still need what the roll is for?
    fn needs_restart(&self, n: &SimNode) -> bool {
        if n.restarts_by_roll > 0 {
            return false;
        }
        if self
            .restart_reasons
            .get(&n.id)
            .is_some_and(|r| !r.is_empty())
        {
            return true;
        }
        n.desired.iter().any(|(k, v)| {
            n.config
                .get(k)
                .is_none_or(|e| e.read_only && e.value.as_deref() != Some(v.as_str()))
        }) || (n.reconfigs_by_roll >= self.rules.max_reconfig_attempts && self.needs_reconfig(n))
    }

    fn needs_reconfig(&self, n: &SimNode) -> bool {
        n.restarts_by_roll == 0
            && n.desired.iter().any(|(k, v)| {
                n.config
                    .get(k)
                    .is_some_and(|e| !e.read_only && e.value.as_deref() != Some(v.as_str()))
            })
    }

    fn is_unhealthy(n: &SimNode) -> bool {
        !n.reachable || matches!(n.phase, Phase::Down { .. } | Phase::Starting { .. })
    }

    /// Ordering invariants for any action on `batch`.
    fn check_touch(&mut self, batch: &[NodeId], restart: bool) {
        let unhealthy: Vec<NodeId> = self
            .nodes
            .values()
            // A held node is never the roll's to restart: it orders nothing (its replicas and
            // vote still count in `check_restart`, judged on the true state).
            .filter(|n| {
                Self::is_unhealthy(n) && !batch.contains(&n.id) && !self.held.contains(&n.id)
            })
            .map(|n| n.id)
            .collect();
        let pending_restart: Vec<NodeId> = self
            .nodes
            .values()
            .filter(|n| {
                !batch.contains(&n.id)
                    && !self.held.contains(&n.id)
                    && !Self::is_unhealthy(n)
                    && self.needs_restart(n)
            })
            .map(|n| n.id)
            .collect();
        let mut found = Vec::new();
        for id in batch {
            let n = &self.nodes[id];
            let healthy = !Self::is_unhealthy(n) && n.phase == Phase::Serving;
            if healthy && !unhealthy.is_empty() {
                found.push(format!(
                    "touched healthy node {id} while {unhealthy:?} are unhealthy"
                ));
            }
            if !restart && !pending_restart.is_empty() {
                found.push(format!(
                    "reconfigured {id} while {pending_restart:?} still need a restart"
                ));
            }
            if restart && healthy && !self.needs_restart(n) {
                found.push(format!("restarted node {id} which needed no restart"));
            }
            if !restart && !self.needs_reconfig(n) {
                found.push(format!(
                    "reconfigured node {id} which needed no reconfiguration"
                ));
            }
        }
        for v in found {
            self.violation(v);
        }
        let non_serving_by_roll = self
            .nodes
            .values()
            .filter(|n| !n.is_serving() && !n.crashed_by_fault)
            .count();
        if non_serving_by_roll > self.initial_non_serving {
            let v = format!(
                "{non_serving_by_roll} nodes not serving before acting again (roll started with {})",
                self.initial_non_serving
            );
            self.violation(v);
        }
    }

    /// Safety invariants of a restart, judged on the true state.
    fn check_restart(&mut self, batch: &[NodeId]) {
        self.check_touch(batch, true);
        // Each node at most max_restart_attempts times.
        for id in batch {
            if self.nodes[id].restarts_by_roll + 1 > self.rules.max_restart_attempts {
                let v = format!(
                    "node {id} restarted more than {} times",
                    self.rules.max_restart_attempts
                );
                self.violation(v);
            }
            if batch.iter().filter(|b| *b == id).count() > 1 {
                self.violation(format!("node {id} twice in one batch"));
            }
        }
        if batch.len() > self.rules.max_batch_size.max(1) && !self.all_combined_down(batch) {
            let v = format!(
                "batch {batch:?} larger than max batch size {}",
                self.rules.max_batch_size
            );
            self.violation(v);
        }
        // No log recovery elsewhere.
        let recovering: Vec<NodeId> = self
            .nodes
            .values()
            .filter(|n| matches!(n.phase, Phase::Recovering { .. }) && !batch.contains(&n.id))
            .map(|n| n.id)
            .collect();
        if !recovering.is_empty() {
            self.violation(format!(
                "restarted {batch:?} while {recovering:?} in log recovery"
            ));
        }
        let running: BTreeSet<NodeId> = batch
            .iter()
            .copied()
            .filter(|b| self.nodes[b].is_running())
            .collect();
        // The one allowed exception: every controller is combined and none
        // runs, so they restart together for a quorum to form.
        let quorum_rescue = self.all_combined_down(batch);
        let mut found = Vec::new();
        for part in &self.partitions {
            let p = &part.p;
            let members: Vec<NodeId> = p.all_replicas().filter(|r| batch.contains(r)).collect();
            if members.len() > 1 && !quorum_rescue {
                found.push(format!(
                    "batch members {members:?} share partition {}",
                    p.tp
                ));
            }
            // min ISR, judged on the ISR once the reassignment completes.
            let min = self
                .topics
                .get(&p.tp.topic)
                .and_then(|t| t.min_insync_replicas)
                .unwrap_or(1) as usize;
            if p.replicas.len() <= min {
                continue;
            }
            let target_isr: Vec<NodeId> = p
                .isr
                .iter()
                .copied()
                .filter(|r| !p.removing.contains(r) && self.nodes[r].is_running())
                .collect();
            if target_isr.iter().any(|r| running.contains(r)) {
                let after = target_isr.iter().filter(|r| !running.contains(r)).count();
                if after < min {
                    found.push(format!(
                        "restart of {batch:?} leaves {} with {after} in-sync replicas once its \
                         reassignment completes (min.insync.replicas {min})",
                        p.tp
                    ));
                }
            }
        }
        for v in found {
            self.violation(v);
        }
        // Quorum majority.
        let n = self.controllers().len();
        if n >= 3 {
            let voting = self.voting_controllers();
            let needed = quorum_needed(n);
            let after = voting.iter().filter(|v| !batch.contains(v)).count();
            if voting.len() >= needed && after < needed {
                let v = format!(
                    "restart of {batch:?} leaves {after} of {n} controllers voting, {needed} needed"
                );
                self.violation(v);
            }
        }
    }

    fn all_combined_down(&self, batch: &[NodeId]) -> bool {
        let controllers = self.controllers();
        !controllers.is_empty()
            && batch.iter().all(|b| controllers.contains(b))
            && controllers
                .iter()
                .all(|c| self.nodes[c].roles.is_combined() && !self.nodes[c].is_running())
    }

    /// Post-conditions of a normal termination.
    /// A held node is never acted on.
    fn check_held(&mut self, nodes: &[NodeId], what: &str) {
        for id in nodes {
            if self.held.contains(id) {
                self.violation(format!("held node {id} {what}"));
            }
        }
    }

    fn check_done(&mut self) {
        let mut found = Vec::new();
        for n in self.nodes.values().filter(|n| !self.held.contains(&n.id)) {
            let reasons = self
                .restart_reasons
                .get(&n.id)
                .is_some_and(|r| !r.is_empty());
            if reasons && n.restarts_by_roll == 0 {
                found.push(format!(
                    "node {} had restart reasons but was not restarted",
                    n.id
                ));
            }
            let config_ok = n.desired.iter().all(|(k, v)| {
                n.config
                    .get(k)
                    .is_some_and(|e| e.value.as_deref() == Some(v.as_str()))
            });
            if !config_ok && n.restarts_by_roll == 0 {
                found.push(format!(
                    "node {} ends with settings differing from the desired ones",
                    n.id
                ));
            }
        }
        let non_serving = self.nodes.values().filter(|n| !n.is_serving()).count();
        if non_serving > self.initial_non_serving {
            found.push(format!(
                "roll ended with {non_serving} non-serving nodes, started with {}",
                self.initial_non_serving
            ));
        }
        for v in found {
            self.violation(v);
        }
    }
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

/// How a simulated roll ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Done,
    Aborted(super::RollError),
    /// The step limit was hit: the roll did not terminate.
    Stuck,
}

/// Runs a roll against the simulator: observe, decide, apply, feed back
/// (restart done, processes ended), advance time.
/// `on_step` sees every decision. Returns the outcome and the steps taken.
pub fn run_roll(
    sim: &mut SimCluster,
    roller: &mut super::Roller,
    max_steps: usize,
    mut on_step: impl FnMut(&SimCluster, &Decision),
) -> (Outcome, usize) {
    sim.start_roll(roller.config().clone());
    for step in 0..max_steps {
        sim.report_process_ended(roller);
        let snapshot = sim.snapshot();
        let decision = roller.decide(&snapshot, sim.now);
        sim.apply(&decision);
        sim.feed_back(roller, &decision);
        on_step(sim, &decision);
        match &decision {
            Decision::Done { .. } => return (Outcome::Done, step + 1),
            Decision::Abort { reason } => return (Outcome::Aborted(reason.clone()), step + 1),
            Decision::Wait { until, .. } => {
                let to = (*until).max(sim.now.plus(1));
                sim.advance_to(to);
            }
            _ => sim.advance_to(sim.now.plus(100)),
        }
    }
    (Outcome::Stuck, max_steps)
}
