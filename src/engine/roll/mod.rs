//! The decision core of `kafkaops roll`.
//!
//! A [`Roller`] holds one [`NodeContext`] per node and the roll's settings.
//! The driver calls [`Roller::decide`] with a fresh [`ClusterSnapshot`] and the
//! current time; it answers with one [`Decision`] (restart a batch,
//! reconfigure a node, elect preferred leaders, wait, done, abort), which the
//! driver executes before observing again. Nothing here performs IO or reads a
//! clock, so the whole algorithm runs unchanged against the simulator in
//! [`sim`] under property tests.
//!
//! The algorithm is Strimzi's "KafkaRoller 2.0" proposal:
//! 1. `RESTART_FIRST`: nodes that are not running, not ready or unreachable,
//!    one at a time (pure controllers, combined, brokers), except that when
//!    every controller is a combined node and none is running they restart
//!    together so a quorum can form;
//! 2. `RESTART`: nodes with restart reasons or non-dynamic config changes, in
//!    the order non-active pure controllers, the active pure controller,
//!    brokers and non-active combined nodes (batched: no two share a
//!    partition, each passes the availability check), the active combined
//!    controller last;
//! 3. `MAYBE_RECONFIGURE`: nodes whose changed settings are all dynamic are
//!    reconfigured one at a time; after `max_reconfig_attempts` failed
//!    attempts they are restarted instead.
//!
//! After each action the roller waits for the nodes to become SERVING, asks
//! for a preferred-leader election once they are back in their ISRs, and waits
//! for them to lead their preferred partitions. It aborts (and never acts
//! again) when a node does not come back in time, a healthy node turns
//! unhealthy, a node would exceed `max_restart_attempts`, or a safety check has
//! blocked progress for longer than `blocked_timeout_ms`.
//!
//! Beyond the proposal: availability is judged on the ISR as it will be once
//! ongoing reassignments complete, and nothing restarts while any other node
//! is in log recovery.

pub mod batch;
pub mod config_diff;
pub mod error;
pub mod safety;
pub mod sim;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::engine::model::{
    ClusterSnapshot, Millis, NodeId, NodeRoles, NodeSnapshot, ObservedState, TopicPartition,
};

use batch::ConflictGraph;
pub use config_diff::{ConfigChange, ConfigDiff};
pub use error::RollError;
use safety::{PartitionIndex, Strictness};

/// Settings of a roll (defaults from the proposal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollConfig {
    /// Restarts per node before the roll fails.
    pub max_restart_attempts: u32,
    /// Reconfiguration attempts per node before it is restarted instead.
    pub max_reconfig_attempts: u32,
    /// How long a restarted node may take to become SERVING, and then to lead
    /// its preferred partitions.
    pub post_restart_timeout_ms: u64,
    /// The same after a reconfiguration.
    pub post_reconfigure_timeout_ms: u64,
    /// Largest number of nodes restarted together.
    pub max_batch_size: usize,
    /// How often to observe again while waiting.
    pub poll_interval_ms: u64,
    /// How long a safety check (min ISR, quorum, log recovery elsewhere) may
    /// hold the roll back before it aborts with that check's error.
    pub blocked_timeout_ms: u64,
    /// Ask for preferred-leader elections after each action and wait for the
    /// nodes to lead their preferred partitions (`false`: `SERVING` is enough,
    /// leadership is left to Kafka's own `auto.leader.rebalance.enable`).
    #[serde(default = "default_true")]
    pub restore_preferred_leaders: bool,
    /// Also restart unhealthy nodes outside the selection (the keys of `requests`).
    // STUB (adapter branch): field only; ENGINE implements the rule.
    #[serde(default)]
    pub include_unhealthy: bool,
}

fn default_true() -> bool {
    true
}

impl Default for RollConfig {
    fn default() -> Self {
        RollConfig {
            max_restart_attempts: 3,
            max_reconfig_attempts: 3,
            post_restart_timeout_ms: 60_000,
            post_reconfigure_timeout_ms: 60_000,
            max_batch_size: 1,
            poll_interval_ms: 5_000,
            blocked_timeout_ms: 300_000,
            restore_preferred_leaders: true,
            include_unhealthy: false,
        }
    }
}

/// What the caller wants for one node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct NodeRequest {
    /// Why the node must restart (empty: only if unhealthy or its config
    /// changes cannot be applied dynamically).
    pub restart_reasons: Vec<String>,
    /// Desired broker settings; only keys listed here are compared.
    pub desired_config: BTreeMap<String, String>,
}

/// The engine's view of a node's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum NodeState {
    Unknown,
    NotRunning,
    NotReady,
    Recovering,
    Serving,
    LeadingAllPreferred,
    /// Restarted by this roll, not yet SERVING again.
    Restarted,
    /// Reconfigured by this roll, not yet confirmed SERVING.
    Reconfigured,
}

/// Per-node bookkeeping (the proposal's `ServerContext`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeContext {
    pub id: NodeId,
    pub roles: NodeRoles,
    pub state: NodeState,
    pub reachable: bool,
    pub restart_reasons: Vec<String>,
    pub desired_config: BTreeMap<String, String>,
    pub num_restarts: u32,
    pub num_reconfigs: u32,
    pub last_transition: Millis,
    /// The state as last observed (before the engine's own labels).
    pub observed: ObservedState,
    /// Seen healthy (SERVING and reachable) at the last observation while the
    /// roll was not acting on it.
    was_healthy: bool,
}

impl NodeContext {
    fn is_serving(&self) -> bool {
        matches!(
            self.state,
            NodeState::Serving | NodeState::LeadingAllPreferred
        )
    }

    fn is_unhealthy(&self) -> bool {
        !self.reachable
            || matches!(
                self.state,
                NodeState::Unknown | NodeState::NotRunning | NodeState::NotReady
            )
    }
}

/// A node and why it is part of an action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeReason {
    pub node: NodeId,
    pub reason: String,
}

/// How the roll ended normally.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct RollSummary {
    pub restarted: Vec<NodeId>,
    pub reconfigured: Vec<NodeId>,
    pub untouched: Vec<NodeId>,
    /// Things worth telling the operator (e.g. leadership not restored).
    pub notes: Vec<String>,
}

/// The engine's answer to one observation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// Restart these nodes together.
    Restart {
        nodes: Vec<NodeReason>,
        reason: String,
    },
    /// Apply these dynamic changes to one node.
    Reconfigure {
        node: NodeId,
        changes: Vec<ConfigChange>,
        reason: String,
    },
    /// Elect preferred leaders for these partitions (led elsewhere although
    /// their preferred replica, one of `nodes`, is back in the ISR).
    ElectPreferredLeaders {
        nodes: Vec<NodeId>,
        partitions: Vec<TopicPartition>,
        reason: String,
    },
    /// Observe again at `until` (or earlier).
    Wait { until: Millis, for_what: String },
    /// Finished normally.
    Done { summary: RollSummary },
    /// Finished abnormally; nothing more will be done.
    Abort { reason: RollError },
}

impl Decision {
    /// Ids of the nodes a `Restart` acts on (empty otherwise).
    #[must_use]
    pub fn restarted_nodes(&self) -> Vec<NodeId> {
        match self {
            Decision::Restart { nodes, .. } => nodes.iter().map(|n| n.node).collect(),
            _ => Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum ActionKind {
    Restart,
    Reconfigure,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Awaiting {
    kind: ActionKind,
    nodes: Vec<NodeId>,
    started: Millis,
    serving_since: BTreeMap<NodeId, Millis>,
    elected: BTreeSet<NodeId>,
}

/// One step of a [`Plan`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum PlanStep {
    Restart {
        nodes: Vec<NodeReason>,
        reason: String,
    },
    Reconfigure {
        node: NodeId,
        changes: Vec<ConfigChange>,
        reason: String,
    },
    /// The plan cannot go on from the current snapshot.
    Blocked { nodes: Vec<NodeId>, reason: String },
}

/// Preview of a roll from one snapshot, assuming every action succeeds and
/// the cluster returns to the observed state after each one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Plan {
    pub steps: Vec<PlanStep>,
    /// Nodes that need neither a restart nor a reconfiguration.
    pub untouched: Vec<NodeId>,
}

impl Plan {
    /// Number of restart batches.
    #[must_use]
    pub fn restart_batches(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, PlanStep::Restart { .. }))
            .count()
    }
}

/// What to do next, before bookkeeping.
enum Selection {
    Restart(Vec<NodeReason>, String),
    Reconfigure(NodeId, Vec<ConfigChange>, String),
    Blocked(Vec<NodeId>, RollError),
    Abort(RollError),
    Done,
}

/// Lazily built per-snapshot structures (one decision, or a whole plan: the
/// snapshot does not change while a cache lives).
#[derive(Default)]
struct Cache {
    index: Option<PartitionIndex>,
    graph: Option<ConflictGraph>,
    node_slot: Option<HashMap<NodeId, usize>>,
    healthy_availability: HashMap<NodeId, Result<(), RollError>>,
}

impl Cache {
    fn index(&mut self, snapshot: &ClusterSnapshot) -> &PartitionIndex {
        self.index
            .get_or_insert_with(|| PartitionIndex::build(snapshot))
    }

    fn node<'a>(&mut self, snapshot: &'a ClusterSnapshot, id: NodeId) -> Option<&'a NodeSnapshot> {
        let slots = self.node_slot.get_or_insert_with(|| {
            snapshot
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.id, i))
                .collect()
        });
        slots.get(&id).map(|&i| &snapshot.nodes[i])
    }

    /// [`safety::check_availability`] with [`Strictness::Healthy`], memoised.
    fn healthy_availability(
        &mut self,
        snapshot: &ClusterSnapshot,
        id: NodeId,
    ) -> Result<(), RollError> {
        if let Some(r) = self.healthy_availability.get(&id) {
            return r.clone();
        }
        let r = safety::check_availability(snapshot, self.index(snapshot), id, Strictness::Healthy);
        self.healthy_availability.insert(id, r.clone());
        r
    }
}

/// The roll state machine. Serialisable, so that a controller running one
/// step per reconcile can keep it between steps.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Roller {
    config: RollConfig,
    requests: BTreeMap<NodeId, NodeRequest>,
    nodes: BTreeMap<NodeId, NodeContext>,
    awaiting: Option<Awaiting>,
    blocked_since: Option<Millis>,
    notes: Vec<String>,
    finished: Option<Decision>,
}

impl Roller {
    /// A roll of the nodes in the snapshots it will be given; `requests` says
    /// what each node needs (nodes not listed need nothing).
    #[must_use]
    pub fn new(config: RollConfig, requests: BTreeMap<NodeId, NodeRequest>) -> Roller {
        Roller {
            config,
            requests,
            nodes: BTreeMap::new(),
            awaiting: None,
            blocked_since: None,
            notes: Vec::new(),
            finished: None,
        }
    }

    #[must_use]
    pub fn config(&self) -> &RollConfig {
        &self.config
    }

    /// Per-node contexts, by id.
    #[must_use]
    pub fn contexts(&self) -> &BTreeMap<NodeId, NodeContext> {
        &self.nodes
    }

    /// `true` while the roller waits for the nodes of its last action
    /// (restart or reconfiguration) to serve again: the batch is not over.
    #[must_use]
    pub fn is_acting(&self) -> bool {
        self.awaiting.is_some()
    }

    /// `true` once `Done` or `Abort` has been returned.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.finished.is_some()
    }

    /// Decides the next step from an observation made at `now`.
    pub fn decide(&mut self, snapshot: &ClusterSnapshot, now: Millis) -> Decision {
        if let Some(done) = &self.finished {
            return done.clone();
        }
        if let Err(e) = self.observe(snapshot, now) {
            return self.finish(Decision::Abort { reason: e });
        }
        let mut cache = Cache::default();
        if self.awaiting.is_some()
            && let Some(d) = self.await_step(snapshot, now, &mut cache)
        {
            return d;
        }
        let selection = select(&self.config, &self.nodes, snapshot, &mut cache);
        match selection {
            Selection::Restart(nodes, reason) => {
                for n in &nodes {
                    let ctx = self.nodes.get_mut(&n.node).expect("selected from contexts");
                    ctx.num_restarts += 1;
                    ctx.state = NodeState::Restarted;
                    ctx.last_transition = now;
                }
                self.start_await(
                    ActionKind::Restart,
                    nodes.iter().map(|n| n.node).collect(),
                    now,
                );
                Decision::Restart { nodes, reason }
            }
            Selection::Reconfigure(node, changes, reason) => {
                let ctx = self.nodes.get_mut(&node).expect("selected from contexts");
                ctx.num_reconfigs += 1;
                ctx.state = NodeState::Reconfigured;
                ctx.last_transition = now;
                self.start_await(ActionKind::Reconfigure, vec![node], now);
                Decision::Reconfigure {
                    node,
                    changes,
                    reason,
                }
            }
            Selection::Blocked(_, err) => {
                let since = *self.blocked_since.get_or_insert(now);
                if now.since(since) >= self.config.blocked_timeout_ms {
                    return self.finish(Decision::Abort { reason: err });
                }
                let until = now
                    .plus(self.config.poll_interval_ms)
                    .min(since.plus(self.config.blocked_timeout_ms));
                Decision::Wait {
                    until,
                    for_what: format!("blocked: {err}"),
                }
            }
            Selection::Abort(err) => self.finish(Decision::Abort { reason: err }),
            Selection::Done => {
                let summary = RollSummary {
                    restarted: self.filter_ids(|c| c.num_restarts > 0),
                    reconfigured: self.filter_ids(|c| c.num_reconfigs > 0 && c.num_restarts == 0),
                    untouched: self.filter_ids(|c| c.num_reconfigs == 0 && c.num_restarts == 0),
                    notes: self.notes.clone(),
                };
                self.finish(Decision::Done { summary })
            }
        }
    }

    /// Previews the roll from `snapshot` without changing this roller.
    #[must_use]
    pub fn plan(&self, snapshot: &ClusterSnapshot) -> Plan {
        let mut nodes = self.nodes.clone();
        merge_observation(&mut nodes, &self.requests, snapshot, Millis(0), None);
        let mut cache = Cache::default();
        let mut plan = Plan::default();
        // Each step changes one context; a bound keeps a bug from looping.
        for _ in 0..=4 * nodes.len() * (self.config.max_reconfig_attempts as usize + 2) {
            match select(&self.config, &nodes, snapshot, &mut cache) {
                Selection::Restart(batch, reason) => {
                    for n in &batch {
                        let ctx = nodes.get_mut(&n.node).expect("selected from contexts");
                        ctx.num_restarts += 1;
                        ctx.state = NodeState::Serving;
                        ctx.reachable = true;
                        ctx.was_healthy = true;
                    }
                    plan.steps.push(PlanStep::Restart {
                        nodes: batch,
                        reason,
                    });
                }
                Selection::Reconfigure(node, changes, reason) => {
                    let ctx = nodes.get_mut(&node).expect("selected from contexts");
                    // Assume the change sticks: the node needs nothing more.
                    ctx.desired_config.clear();
                    ctx.num_reconfigs += 1;
                    plan.steps.push(PlanStep::Reconfigure {
                        node,
                        changes,
                        reason,
                    });
                }
                Selection::Blocked(blocked, err) => {
                    plan.steps.push(PlanStep::Blocked {
                        nodes: blocked,
                        reason: err.to_string(),
                    });
                    break;
                }
                Selection::Abort(err) => {
                    plan.steps.push(PlanStep::Blocked {
                        nodes: Vec::new(),
                        reason: err.to_string(),
                    });
                    break;
                }
                Selection::Done => break,
            }
        }
        let touched: BTreeSet<NodeId> = plan
            .steps
            .iter()
            .flat_map(|s| match s {
                PlanStep::Restart { nodes, .. } => nodes.iter().map(|n| n.node).collect(),
                PlanStep::Reconfigure { node, .. } => vec![*node],
                PlanStep::Blocked { nodes, .. } => nodes.clone(),
            })
            .collect();
        plan.untouched = nodes
            .keys()
            .filter(|n| !touched.contains(n))
            .copied()
            .collect();
        plan
    }

    fn filter_ids(&self, f: impl Fn(&NodeContext) -> bool) -> Vec<NodeId> {
        self.nodes.values().filter(|c| f(c)).map(|c| c.id).collect()
    }

    fn finish(&mut self, d: Decision) -> Decision {
        self.awaiting = None;
        self.finished = Some(d.clone());
        d
    }

    fn start_await(&mut self, kind: ActionKind, nodes: Vec<NodeId>, now: Millis) {
        self.blocked_since = None;
        self.awaiting = Some(Awaiting {
            kind,
            nodes,
            started: now,
            serving_since: BTreeMap::new(),
            elected: BTreeSet::new(),
        });
    }

    /// Updates contexts; fails when a node the roll is not acting on went
    /// from healthy to unhealthy.
    fn observe(&mut self, snapshot: &ClusterSnapshot, now: Millis) -> Result<(), RollError> {
        let acting: Vec<NodeId> = self
            .awaiting
            .as_ref()
            .map(|a| a.nodes.clone())
            .unwrap_or_default();
        let before: BTreeMap<NodeId, bool> = self
            .nodes
            .iter()
            .map(|(id, c)| (*id, c.was_healthy))
            .collect();
        merge_observation(
            &mut self.nodes,
            &self.requests,
            snapshot,
            now,
            self.awaiting.as_ref(),
        );
        let mut failure = None;
        for ctx in self.nodes.values_mut() {
            if acting.contains(&ctx.id) {
                continue;
            }
            let healthy_now = ctx.is_serving() && ctx.reachable;
            if before.get(&ctx.id) == Some(&true) && !healthy_now && failure.is_none() {
                failure = Some(if !ctx.is_serving() || ctx.reachable {
                    RollError::NodeBecameUnhealthy {
                        node: ctx.id,
                        state: ctx.observed,
                    }
                } else {
                    RollError::NodeBecameUnreachable { node: ctx.id }
                });
            }
            ctx.was_healthy = healthy_now;
        }
        failure.map_or(Ok(()), Err)
    }

    /// The wait after an action; `None` when the nodes are done and the next
    /// action may be selected.
    fn await_step(
        &mut self,
        snapshot: &ClusterSnapshot,
        now: Millis,
        cache: &mut Cache,
    ) -> Option<Decision> {
        let aw = self.awaiting.as_mut().expect("checked by caller");
        let timeout = match aw.kind {
            ActionKind::Restart => self.config.post_restart_timeout_ms,
            ActionKind::Reconfigure => self.config.post_reconfigure_timeout_ms,
        };
        let verb = match aw.kind {
            ActionKind::Restart => "restart",
            ActionKind::Reconfigure => "reconfiguration",
        };
        for n in &aw.nodes {
            if self.nodes[n].is_serving() && self.nodes[n].reachable {
                aw.serving_since.entry(*n).or_insert(now);
            }
        }
        let not_serving: Vec<NodeId> = aw
            .nodes
            .iter()
            .filter(|n| !aw.serving_since.contains_key(n))
            .copied()
            .collect();
        if let Some(&first) = not_serving.first() {
            let deadline = aw.started.plus(timeout);
            if now >= deadline {
                let state = self.nodes[&first].observed;
                let waited_ms = now.since(aw.started);
                return Some(self.finish(Decision::Abort {
                    reason: RollError::NotServingInTime {
                        node: first,
                        state,
                        waited_ms,
                    },
                }));
            }
            let states: Vec<String> = not_serving
                .iter()
                .map(|n| format!("{n} ({:?})", self.nodes[n].state))
                .collect();
            return Some(Decision::Wait {
                until: now.plus(self.config.poll_interval_ms).min(deadline),
                for_what: format!(
                    "node(s) {} to become SERVING after {verb} (deadline {deadline})",
                    states.join(", ")
                ),
            });
        }
        // All serving: wait for preferred leadership.
        let not_leading: Vec<NodeId> = aw
            .nodes
            .iter()
            .filter(|n| {
                self.config.restore_preferred_leaders
                    && self.nodes[n].state != NodeState::LeadingAllPreferred
            })
            .copied()
            .collect();
        if !not_leading.is_empty() {
            let index = cache.index(snapshot);
            let to_elect: Vec<NodeId> = not_leading
                .iter()
                .filter(|n| !aw.elected.contains(n) && back_in_all_isrs(snapshot, index, **n))
                .copied()
                .collect();
            if !to_elect.is_empty() {
                let mut partitions: Vec<TopicPartition> = Vec::new();
                for n in &to_elect {
                    aw.elected.insert(*n);
                    for &pi in index.of(*n) {
                        let p = &snapshot.partitions[pi as usize];
                        if p.replicas.first() == Some(n) && p.leader != Some(*n) {
                            partitions.push(p.tp.clone());
                        }
                    }
                }
                partitions.sort();
                partitions.dedup();
                return Some(Decision::ElectPreferredLeaders {
                    reason: format!(
                        "node(s) {} are back in every ISR they belong to but lead only part of \
                         their preferred partitions",
                        join_ids(&to_elect)
                    ),
                    nodes: to_elect,
                    partitions,
                });
            }
            let last_serving = aw.serving_since.values().max().copied().unwrap_or(now);
            let deadline = last_serving.plus(timeout);
            if now < deadline {
                return Some(Decision::Wait {
                    until: now.plus(self.config.poll_interval_ms).min(deadline),
                    for_what: format!(
                        "node(s) {} to rejoin their ISRs and lead their preferred partitions \
                         (deadline {deadline})",
                        join_ids(&not_leading)
                    ),
                });
            }
            self.notes.push(format!(
                "node(s) {} did not lead all their preferred partitions within {timeout} ms after \
                 {verb}; continuing (leadership is restored by the next election)",
                join_ids(&not_leading)
            ));
        }
        for n in &aw.nodes {
            let ctx = self.nodes.get_mut(n).expect("awaited nodes have contexts");
            ctx.was_healthy = ctx.is_serving() && ctx.reachable;
        }
        self.awaiting = None;
        None
    }
}

fn join_ids(ids: &[NodeId]) -> String {
    ids.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Is `node` in the ISR of every partition it is a replica of?
fn back_in_all_isrs(snapshot: &ClusterSnapshot, index: &PartitionIndex, node: NodeId) -> bool {
    index.of(node).iter().all(|&pi| {
        let p = &snapshot.partitions[pi as usize];
        !p.replicas.contains(&node) || p.isr.contains(&node)
    })
}

/// Does `node` lead every partition it is the preferred leader of?
fn leads_all_preferred(snapshot: &ClusterSnapshot, index: &PartitionIndex, node: NodeId) -> bool {
    index.of(node).iter().all(|&pi| {
        let p = &snapshot.partitions[pi as usize];
        p.replicas.first() != Some(&node) || p.leader == Some(node)
    })
}

/// Folds a snapshot into the contexts.
fn merge_observation(
    nodes: &mut BTreeMap<NodeId, NodeContext>,
    requests: &BTreeMap<NodeId, NodeRequest>,
    snapshot: &ClusterSnapshot,
    now: Millis,
    awaiting: Option<&Awaiting>,
) {
    let index = PartitionIndex::build(snapshot);
    for n in &snapshot.nodes {
        let ctx = nodes.entry(n.id).or_insert_with(|| {
            let req = requests.get(&n.id).cloned().unwrap_or_default();
            NodeContext {
                id: n.id,
                roles: n.roles,
                state: NodeState::Unknown,
                reachable: n.reachable,
                restart_reasons: req.restart_reasons,
                desired_config: req.desired_config,
                num_restarts: 0,
                num_reconfigs: 0,
                last_transition: now,
                observed: ObservedState::Unknown,
                was_healthy: false,
            }
        });
        ctx.roles = n.roles;
        ctx.reachable = n.reachable;
        ctx.observed = n.state;
        let acting = awaiting.filter(|a| a.nodes.contains(&n.id));
        let state = match n.state {
            ObservedState::Serving => {
                if n.roles.broker && !leads_all_preferred(snapshot, &index, n.id) {
                    NodeState::Serving
                } else {
                    NodeState::LeadingAllPreferred
                }
            }
            other => match acting.map(|a| a.kind) {
                Some(ActionKind::Restart) => NodeState::Restarted,
                Some(ActionKind::Reconfigure) => NodeState::Reconfigured,
                None => match other {
                    ObservedState::Unknown => NodeState::Unknown,
                    ObservedState::NotRunning => NodeState::NotRunning,
                    ObservedState::NotReady => NodeState::NotReady,
                    ObservedState::Recovering => NodeState::Recovering,
                    ObservedState::Serving => unreachable!("matched above"),
                },
            },
        };
        if state != ctx.state {
            ctx.state = state;
            ctx.last_transition = now;
        }
    }
    // A node that vanished from the observation is no longer running.
    for ctx in nodes.values_mut() {
        if !snapshot.nodes.iter().any(|n| n.id == ctx.id) && ctx.state != NodeState::NotRunning {
            ctx.state = NodeState::NotRunning;
            ctx.observed = ObservedState::NotRunning;
            ctx.last_transition = now;
        }
    }
}

/// The next action for the given contexts (the heart of the algorithm).
fn select(
    config: &RollConfig,
    nodes: &BTreeMap<NodeId, NodeContext>,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
) -> Selection {
    let recovering: Vec<NodeId> = nodes
        .values()
        .filter(|c| c.state == NodeState::Recovering)
        .map(|c| c.id)
        .collect();
    let leader = snapshot.quorum.as_ref().and_then(|q| q.leader);

    // 1. RESTART_FIRST: not running, not ready, unreachable.
    let mut first: Vec<&NodeContext> = nodes.values().filter(|c| c.is_unhealthy()).collect();
    if !first.is_empty() {
        if let Some(&r) = recovering.first() {
            return Selection::Blocked(ids(&first), RollError::NodeInLogRecovery { node: r });
        }
        for c in &first {
            if c.num_restarts >= config.max_restart_attempts {
                return Selection::Abort(RollError::MaxRestartsExceeded {
                    node: c.id,
                    restarts: c.num_restarts,
                    max: config.max_restart_attempts,
                });
            }
        }
        let controllers: Vec<&NodeContext> =
            nodes.values().filter(|c| c.roles.controller).collect();
        if !controllers.is_empty()
            && controllers
                .iter()
                .all(|c| c.roles.is_combined() && c.state == NodeState::NotRunning)
        {
            let batch = controllers
                .iter()
                .map(|c| NodeReason {
                    node: c.id,
                    reason: format!("combined node is NOT_RUNNING{}", reasons_suffix(c)),
                })
                .collect();
            return Selection::Restart(
                batch,
                format!(
                    "all {} controllers are combined nodes and none is running: restarting them \
                     together so that a quorum can form",
                    controllers.len()
                ),
            );
        }
        first.sort_by_key(|c| (first_rank(c.roles), c.id));
        let mut first_err = None;
        let caught_up = safety::caught_up_controllers(snapshot).unwrap_or_default();
        for c in &first {
            // A process that is not running holds no ISR place its restart
            // could take away (Kafka keeps a dead sole replica in the ISR of
            // an offline partition; restarting it is the cure).
            let availability = if c.state == NodeState::NotRunning {
                Ok(())
            } else {
                safety::check_availability(
                    snapshot,
                    cache.index(snapshot),
                    c.id,
                    Strictness::Unhealthy,
                )
            };
            let check = availability.and_then(|()| {
                // Restarting a controller that does not count for the
                // quorum cannot weaken it; one that does must pass.
                if c.roles.controller && caught_up.contains(&c.id) {
                    safety::check_quorum(snapshot, &[c.id])
                } else {
                    Ok(())
                }
            });
            match check {
                Ok(()) => {
                    let why = if c.reachable {
                        format!("{} node is {:?}", c.roles, c.state)
                    } else {
                        format!("{} node is unreachable via the Admin API", c.roles)
                    };
                    return Selection::Restart(
                        vec![NodeReason {
                            node: c.id,
                            reason: format!("{why}{}", reasons_suffix(c)),
                        }],
                        format!(
                            "unhealthy nodes restart first, one at a time (pure controllers, \
                             combined, brokers); {} unhealthy node(s) left",
                            first.len()
                        ),
                    );
                }
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        return Selection::Blocked(ids(&first), first_err.expect("non-empty group"));
    }

    // 2. Split the healthy nodes into RESTART and RECONFIGURE.
    let mut restart: Vec<(&NodeContext, String)> = Vec::new();
    let mut reconfigure: Vec<(&NodeContext, Vec<ConfigChange>)> = Vec::new();
    for c in nodes.values() {
        if c.num_restarts > 0 {
            continue;
        }
        if !c.restart_reasons.is_empty() {
            restart.push((c, c.restart_reasons.join("; ")));
            continue;
        }
        let current = cache.node(snapshot, c.id).map(|n| &n.config);
        let diff = ConfigDiff::compute(&c.desired_config, current);
        if !diff.static_keys.is_empty() {
            restart.push((
                c,
                format!(
                    "changed setting(s) {} cannot be updated dynamically",
                    diff.static_keys.join(", ")
                ),
            ));
        } else if !diff.dynamic.is_empty() {
            if c.num_reconfigs >= config.max_reconfig_attempts {
                restart.push((
                    c,
                    format!(
                        "{} reconfiguration attempt(s) did not apply {}",
                        c.num_reconfigs,
                        diff.dynamic
                            .iter()
                            .map(|d| d.key.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            } else {
                reconfigure.push((c, diff.dynamic));
            }
        }
    }

    if !restart.is_empty() {
        let restart_ids: Vec<NodeId> = restart.iter().map(|(c, _)| c.id).collect();
        if let Some(&r) = recovering.first() {
            return Selection::Blocked(restart_ids, RollError::NodeInLogRecovery { node: r });
        }
        for (c, _) in &restart {
            if c.num_restarts >= config.max_restart_attempts {
                return Selection::Abort(RollError::MaxRestartsExceeded {
                    node: c.id,
                    restarts: c.num_restarts,
                    max: config.max_restart_attempts,
                });
            }
        }
        return select_restart_batch(config, &restart, leader, snapshot, cache);
    }

    if !reconfigure.is_empty()
        && reconfigure
            .iter()
            .all(|(c, _)| c.state == NodeState::Recovering)
    {
        let waiting: Vec<NodeId> = reconfigure.iter().map(|(c, _)| c.id).collect();
        return Selection::Blocked(
            waiting.clone(),
            RollError::NodeInLogRecovery { node: waiting[0] },
        );
    }
    if let Some((c, changes)) = reconfigure
        .into_iter()
        .find(|(c, _)| c.state != NodeState::Recovering)
    {
        let keys: Vec<&str> = changes.iter().map(|d| d.key.as_str()).collect();
        let reason = format!(
            "every changed setting is dynamic ({}); attempt {} of {}",
            keys.join(", "),
            c.num_reconfigs + 1,
            config.max_reconfig_attempts
        );
        return Selection::Reconfigure(c.id, changes, reason);
    }

    if let Some(&r) = recovering.first() {
        return Selection::Blocked(recovering.clone(), RollError::NodeInLogRecovery { node: r });
    }
    Selection::Done
}

fn ids(nodes: &[&NodeContext]) -> Vec<NodeId> {
    nodes.iter().map(|c| c.id).collect()
}

fn reasons_suffix(c: &NodeContext) -> String {
    if c.restart_reasons.is_empty() {
        String::new()
    } else {
        format!(" (also: {})", c.restart_reasons.join("; "))
    }
}

/// Order inside `RESTART_FIRST`: pure controllers, combined, brokers.
fn first_rank(roles: NodeRoles) -> u8 {
    if roles.is_pure_controller() {
        0
    } else if roles.is_combined() {
        1
    } else {
        2
    }
}

/// Picks the next batch from the `RESTART` group: non-active pure controllers
/// one at a time, then the active pure controller, then a batch of brokers and
/// non-active combined nodes, the active combined controller last.
fn select_restart_batch(
    config: &RollConfig,
    restart: &[(&NodeContext, String)],
    leader: Option<NodeId>,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
) -> Selection {
    let reason_of = |id: NodeId| {
        restart
            .iter()
            .find(|(c, _)| c.id == id)
            .map(|(_, r)| r.clone())
            .unwrap_or_default()
    };
    let is_active = |c: &NodeContext| Some(c.id) == leader;
    let pure: Vec<&NodeContext> = restart
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| c.roles.is_pure_controller())
        .collect();
    let non_active_pure: Vec<&NodeContext> =
        pure.iter().copied().filter(|c| !is_active(c)).collect();
    let active_pure: Vec<&NodeContext> = pure.iter().copied().filter(|c| is_active(c)).collect();
    let brokers: Vec<&NodeContext> = restart
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| c.roles.broker && !is_active(c))
        .collect();
    let active_combined: Vec<&NodeContext> = restart
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| c.roles.broker && is_active(c))
        .collect();
    let others: Vec<&NodeContext> = restart
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| !c.roles.broker && !c.roles.controller)
        .collect();

    if !non_active_pure.is_empty() {
        let mut first_err = None;
        for c in &non_active_pure {
            match safety::check_quorum(snapshot, &[c.id]) {
                Ok(()) => {
                    return Selection::Restart(
                        vec![NodeReason {
                            node: c.id,
                            reason: reason_of(c.id),
                        }],
                        format!(
                            "pure controllers that are not the active controller restart first, \
                             one at a time; the quorum keeps a majority without node {}",
                            c.id
                        ),
                    );
                }
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        return Selection::Blocked(ids(&non_active_pure), first_err.expect("non-empty group"));
    }
    if let Some(c) = active_pure.first() {
        return match safety::check_quorum(snapshot, &[c.id]) {
            Ok(()) => Selection::Restart(
                vec![NodeReason {
                    node: c.id,
                    reason: reason_of(c.id),
                }],
                "the active pure controller restarts after the other controllers; the quorum \
                 keeps a majority without it"
                    .to_string(),
            ),
            Err(e) => Selection::Blocked(vec![c.id], e),
        };
    }
    if !brokers.is_empty() {
        // Individually safe candidates first.
        let mut safe: Vec<NodeId> = Vec::new();
        let mut first_err = None;
        for c in &brokers {
            let check = cache.healthy_availability(snapshot, c.id).and_then(|()| {
                if c.roles.controller {
                    safety::check_quorum(snapshot, &[c.id])
                } else {
                    Ok(())
                }
            });
            match check {
                Ok(()) => safe.push(c.id),
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        if safe.is_empty() {
            return Selection::Blocked(ids(&brokers), first_err.expect("non-empty group"));
        }
        let graph = cache.graph.get_or_insert_with(|| {
            let all_brokers: Vec<NodeId> = snapshot
                .nodes
                .iter()
                .filter(|n| n.roles.broker)
                .map(|n| n.id)
                .collect();
            ConflictGraph::build(snapshot, &all_brokers)
        });
        let controllers = safety::controllers(snapshot);
        let batch = graph.greedy_batch(&safe, config.max_batch_size.max(1), |chosen, next| {
            if !controllers.contains(&next) {
                return true;
            }
            let mut set: Vec<NodeId> = chosen
                .iter()
                .copied()
                .filter(|n| controllers.contains(n))
                .collect();
            set.push(next);
            safety::check_quorum(snapshot, &set).is_ok()
        });
        let mut reason = format!(
            "{} of {} broker(s) waiting to restart share no partition and each keeps every \
             partition at or above min.insync.replicas (ISR judged after ongoing \
             reassignments)",
            batch.len(),
            brokers.len()
        );
        if batch.len() == config.max_batch_size && safe.len() > batch.len() {
            let _ = write!(
                reason,
                "; capped at max batch size {}",
                config.max_batch_size
            );
        }
        if safe.len() < brokers.len()
            && let Some(e) = &first_err
        {
            let _ = write!(
                reason,
                "; {} held back, e.g. {e}",
                brokers.len() - safe.len()
            );
        }
        if !active_combined.is_empty() {
            reason.push_str("; the active combined controller waits until last");
        }
        let nodes = batch
            .into_iter()
            .map(|id| NodeReason {
                node: id,
                reason: reason_of(id),
            })
            .collect();
        return Selection::Restart(nodes, reason);
    }
    if let Some(c) = active_combined.first() {
        let check = cache
            .healthy_availability(snapshot, c.id)
            .and_then(|()| safety::check_quorum(snapshot, &[c.id]));
        return match check {
            Ok(()) => Selection::Restart(
                vec![NodeReason {
                    node: c.id,
                    reason: reason_of(c.id),
                }],
                "the active combined controller restarts last; the quorum keeps a majority and \
                 every partition stays at or above min.insync.replicas without it"
                    .to_string(),
            ),
            Err(e) => Selection::Blocked(vec![c.id], e),
        };
    }
    if let Some(c) = others.first() {
        return Selection::Restart(
            vec![NodeReason {
                node: c.id,
                reason: reason_of(c.id),
            }],
            "node has neither role; restarting it affects no partition or quorum".to_string(),
        );
    }
    Selection::Done
}
