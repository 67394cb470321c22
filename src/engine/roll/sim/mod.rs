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

use super::{Decision, NodeRequest, RollConfig};

mod faults;
mod generate;
mod invariants;
mod timeline;

pub use generate::default_config;

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

impl SimCluster {
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
                        expected_software: None,
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
