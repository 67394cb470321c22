//! The decision core of `kafkaops roll`.
//!
//! A [`Roller`] holds one [`NodeContext`] per node and the roll's settings.
//! The driver calls [`Roller::decide`] with a fresh [`ClusterSnapshot`] and the
//! current time; it answers with one [`Decision`] (restart a batch,
//! reconfigure a node, elect preferred leaders, wait, done, abort), which the
//! driver executes before observing again. What happened to a restart is fed
//! back, never assumed: [`Roller::handle_restart_done`],
//! [`Roller::handle_restart_failed`] and [`Roller::handle_process_ended`].
//! Nothing here performs IO or reads a clock, so the whole algorithm runs
//! unchanged against the simulator in [`sim`] under property tests.
//!
//! The selection is the keys of the requests given to [`Roller::new`]; only
//! selected nodes are acted on. Unhealthy nodes outside it are reported and
//! still count in every safety check, but are restarted only with
//! [`RollConfig::include_unhealthy`] (a broker stopped for maintenance is not
//! the roll's business).
//!
//! The algorithm is Strimzi's "KafkaRoller 2.0" proposal:
//! 1. `RESTART_FIRST`: nodes that are not running, not ready or unreachable,
//!    one at a time (pure controllers, combined, brokers), each passing the
//!    availability check and, for controllers, the quorum rule (a lagging
//!    controller may still be a needed vote); only when every controller is
//!    a combined node, none is running and the quorum has no leader do they
//!    restart together so a quorum can form;
//! 2. `RESTART`: nodes with restart reasons or non-dynamic config changes, in
//!    the order non-active pure controllers, the active pure controller,
//!    brokers and non-active combined nodes (batched: no two share a
//!    partition, each passes the availability check), the active combined
//!    controller last. The brokers' batches are planned for the whole roll
//!    at once (a colouring of their conflict graph, see [`batch`]), so far
//!    fewer restart cycles are needed than picking one greedy batch at a
//!    time; each decision takes the next planned batch, filtered by the live
//!    checks;
//! 3. `MAYBE_RECONFIGURE`: nodes whose changed settings are all dynamic are
//!    reconfigured one at a time; after `max_reconfig_attempts` failed
//!    attempts they are restarted instead.
//!
//! After a restart the roller waits until the restart really happened: the
//! command reported success, there is evidence that the old process ended
//! (reported by the executor, a changed incarnation, or the node seen down),
//! a later observation shows it SERVING, and a restarted controller has
//! fetched from the quorum leader since (a stopped controller looks caught up
//! for `controller.quorum.fetch.timeout.ms`). A restart command that returns
//! before the process exits must not let the next batch be judged against a
//! cluster that still contains the dying node. Then it asks for a
//! preferred-leader election once the nodes are back in their ISRs, and waits
//! for them to lead their preferred partitions. It aborts (and never acts
//! again) when a node does not come back in time, a restart command fails, a
//! healthy node turns unhealthy, a node would exceed `max_restart_attempts`,
//! or a safety check has blocked progress for longer than
//! `blocked_timeout_ms`.
//!
//! Beyond the proposal: availability is judged on the ISR both now and as it
//! will be once ongoing reassignments complete, against each partition's
//! effective `min.insync.replicas` (unknown refuses); nothing restarts while
//! any other node is in log recovery or is a broker in an unknown state (it
//! may be in log recovery); and state restored from JSON that does not match
//! the cluster aborts the roll rather than panicking.

pub mod batch;
pub mod config_diff;
pub mod error;
pub mod safety;
/// The simulated cluster is a test and benchmark aid: it is compiled into the library only for
/// unit tests and with the `sim` feature (which the crate's own tests, examples and benchmarks
/// enable through a dev-dependency on itself), never into the shipped binary.
#[cfg(any(test, feature = "sim"))]
pub mod sim;
#[cfg(test)]
mod tests;

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
    /// Also restart unhealthy nodes outside the selection (the keys of the
    /// requests). Off by default: such nodes are reported and count in every
    /// safety check, but are never restarted (a broker stopped for
    /// maintenance is not the roll's business).
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
    /// Part of the selection (listed in the roll's requests).
    #[serde(default)]
    pub selected: bool,
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

    /// The proposal's `RESTART_FIRST`: not running, not ready, or
    /// unreachable. `Unknown` is not unhealthy: a broker whose state cannot be
    /// read may be in log recovery, and restarting it would start that over.
    fn is_unhealthy(&self) -> bool {
        !self.reachable || matches!(self.state, NodeState::NotRunning | NodeState::NotReady)
    }

    /// Restarted only when selected, or when unhealthy nodes outside the
    /// selection may be restarted too.
    fn eligible_when_unhealthy(&self, config: &RollConfig) -> bool {
        self.selected || config.include_unhealthy
    }

    fn describe_state(&self) -> String {
        if self.reachable {
            format!("{:?}", self.state)
        } else {
            format!("{:?}, unreachable", self.state)
        }
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
    Wait { until: Millis, for_what: WaitReason },
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

/// What the roll waits for (the text is its `Display`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "wait", rename_all = "snake_case")]
pub enum WaitReason {
    /// A safety check (min ISR, quorum, log recovery, ...) holds the next
    /// action back; the roll aborts with `error` if it lasts
    /// `blocked_timeout_ms`.
    Blocked { error: RollError },
    /// Nodes of the current action are not serving (again) yet.
    NotServing {
        action: ActionKind,
        nodes: Vec<WaitingNode>,
        deadline: Millis,
    },
    /// The action's nodes serve but do not lead all their preferred
    /// partitions yet.
    Leadership {
        nodes: Vec<NodeId>,
        deadline: Millis,
    },
}

/// A node waited for, with what is seen of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingNode {
    pub node: NodeId,
    /// What is seen and still missing, in words.
    pub detail: String,
}

impl WaitReason {
    /// `true` for [`WaitReason::Blocked`].
    #[must_use]
    pub fn is_blocked(&self) -> bool {
        matches!(self, WaitReason::Blocked { .. })
    }
}

impl std::fmt::Display for WaitReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WaitReason::Blocked { error } => write!(f, "blocked: {error}"),
            WaitReason::NotServing {
                action,
                nodes,
                deadline,
            } => {
                let states: Vec<String> = nodes
                    .iter()
                    .map(|n| format!("{} ({})", n.node, n.detail))
                    .collect();
                let verb = match action {
                    ActionKind::Restart => "restart",
                    ActionKind::Reconfigure => "reconfiguration",
                };
                write!(
                    f,
                    "node(s) {} to become SERVING after {verb} (deadline {deadline})",
                    states.join(", ")
                )
            }
            WaitReason::Leadership { nodes, deadline } => write!(
                f,
                "node(s) {} to rejoin their ISRs and lead their preferred partitions \
                 (deadline {deadline})",
                join_ids(nodes)
            ),
        }
    }
}

/// The kind of action the roller is waiting on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
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
    /// Per restarted node: what is known about its restart.
    #[serde(default)]
    restarts: BTreeMap<NodeId, RestartProgress>,
}

/// What the roller knows about one node's restart, from the decision on.
///
/// A restart counts only once (1) the executor fed back that the command
/// finished, (2) there is evidence that the process running at decision time
/// has ended, (3) a later observation shows the node SERVING and reachable,
/// and (4) for a controller in the quorum, its `LastCaughtUpTimestamp` has
/// advanced since the evidence (a stopped controller keeps looking caught up
/// for `controller.quorum.fetch.timeout.ms`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct RestartProgress {
    requested_at: Millis,
    /// The node's incarnation when the restart was decided.
    #[serde(default)]
    incarnation_before: Option<String>,
    /// SERVING and reachable when the restart was decided.
    serving_before: bool,
    /// A member of the quorum (voter or observer) when the restart was
    /// decided, and a controller: it must fetch again before it counts.
    must_fetch: bool,
    /// When the restart command reported success.
    #[serde(default)]
    done_at: Option<Millis>,
    /// When evidence that the old process ended arrived, and which.
    #[serde(default)]
    ended: Option<(Millis, String)>,
    /// A decision has seen the evidence: observations fed to later decisions
    /// were made after it.
    #[serde(default)]
    evidence_seen: bool,
    /// `LastCaughtUpTimestamp` at the first observation, after the evidence,
    /// that shows the node SERVING and reachable again. Only then is the old
    /// process certainly gone (a combined node shutting down after an
    /// early-returning command still fetches while it reports state 6/7), so
    /// only a later, greater value proves a fetch by the new process.
    #[serde(default)]
    caught_up_baseline: Option<i64>,
    /// `caught_up_baseline` has been taken.
    #[serde(default)]
    baseline_taken: bool,
    /// When it counted as back.
    #[serde(default)]
    back_at: Option<Millis>,
}

impl RestartProgress {
    fn new(
        now: Millis,
        ctx: &NodeContext,
        snapshot: &ClusterSnapshot,
        node: Option<&NodeSnapshot>,
    ) -> Self {
        let state = node.map_or(ObservedState::NotRunning, |n| n.state);
        let mut p = RestartProgress {
            requested_at: now,
            incarnation_before: node.and_then(|n| n.incarnation.clone()),
            serving_before: state == ObservedState::Serving && node.is_some_and(|n| n.reachable),
            must_fetch: ctx.roles.controller && quorum_member(snapshot, ctx.id).is_some(),
            done_at: None,
            ended: None,
            evidence_seen: false,
            caught_up_baseline: None,
            baseline_taken: false,
            back_at: None,
        };
        if state == ObservedState::NotRunning {
            p.ended = Some((
                now,
                "it was not running when the restart was decided".into(),
            ));
            p.evidence_seen = true;
        }
        p
    }

    /// Why the node does not count as back yet (for waits and aborts).
    fn pending(&self) -> &'static str {
        if self.done_at.is_none() {
            "the restart command has not reported completion"
        } else if self.ended.is_none() {
            "there is no evidence yet that the node restarted (never seen going down, same \
             incarnation, no process end reported): its old process may still be running"
        } else if !self.evidence_seen {
            "waiting for an observation made after the old process ended"
        } else {
            "not yet SERVING and reachable again (a controller must also have fetched from the \
             quorum leader since its restart)"
        }
    }
}

/// The quorum entry (voter or observer) of `id`.
fn quorum_member(
    snapshot: &ClusterSnapshot,
    id: NodeId,
) -> Option<&crate::engine::model::VoterState> {
    snapshot.quorum.as_ref().and_then(|q| q.member(id))
}

/// `LastCaughtUpTimestamp` of `id` (`None`: unknown, -1 or not a member).
fn caught_up_ts(snapshot: &ClusterSnapshot, id: NodeId) -> Option<i64> {
    quorum_member(snapshot, id)
        .and_then(|v| v.last_caught_up_ms)
        .filter(|t| *t >= 0)
}

/// What is known about one node's restart (see [`Roller::restart_status`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestartStatus {
    /// The restart command reported success.
    pub done: bool,
    /// There is evidence that the process running at decision time ended.
    pub process_ended: bool,
    /// It counts as back (serving again after the evidence).
    pub back: bool,
}

/// The reason given for restarting the only controller.
const SINGLE_CONTROLLER: &str = "the only controller: the metadata quorum is unavailable while it \
     restarts (allowed, as Strimzi does; no metadata changes until it is back)";

/// The quorum has exactly one voter.
fn single_voter(snapshot: &ClusterSnapshot) -> bool {
    snapshot
        .quorum
        .as_ref()
        .is_some_and(|q| q.voters.len() == 1)
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
    /// Unhealthy nodes outside the selection: left alone (unless
    /// `include_unhealthy`), still counted by every safety check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unselected_unhealthy: Vec<NodeReason>,
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
    /// The planned batches and the brokers they were planned for.
    batches: Option<(Vec<NodeId>, Vec<Vec<NodeId>>)>,
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
    /// A roll of the nodes in the snapshots it will be given. The keys of
    /// `requests` are the selection: only they are restarted or reconfigured
    /// (a selected node with an empty request is restarted only if
    /// unhealthy); unhealthy nodes outside it are reported and left alone
    /// unless [`RollConfig::include_unhealthy`].
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

    /// Feed-back: the platform reports that the restart command of `node`
    /// finished successfully at `at`. For `kill -TERM`-style commands this
    /// can be before the old process exited, so it does not make the node
    /// count as back by itself. Ignored for a node the roller is not
    /// restarting.
    pub fn handle_restart_done(&mut self, node: NodeId, at: Millis) {
        let Some(progress) = self.restart_progress(node) else {
            return;
        };
        if progress.done_at.is_some() {
            return;
        }
        progress.done_at = Some(at);
        if let Some(ctx) = self.nodes.get_mut(&node) {
            ctx.num_restarts = ctx.num_restarts.saturating_add(1);
            ctx.last_transition = at;
        }
    }

    /// Feed-back: the restart command of `node` failed. The roll aborts with
    /// [`RollError::RestartFailed`]; nothing else is restarted.
    pub fn handle_restart_failed(&mut self, node: NodeId, at: Millis, error: String) {
        if self.finished.is_some() {
            return;
        }
        if let Some(ctx) = self.nodes.get_mut(&node) {
            ctx.last_transition = at;
        }
        self.finish(Decision::Abort {
            reason: RollError::RestartFailed { node, error },
        });
    }

    /// Feed-back: evidence that the process `node` ran when its restart was
    /// decided has ended (e.g. the restart witness saw its connection
    /// close). Ignored for a node the roller is not restarting and for
    /// evidence older than the decision.
    pub fn handle_process_ended(&mut self, node: NodeId, at: Millis) {
        let Some(progress) = self.restart_progress(node) else {
            return;
        };
        if progress.ended.is_none() && at >= progress.requested_at {
            progress.ended = Some((at, "its process ended (reported at restart)".into()));
        }
    }

    /// Feed-back: the restart of `nodes` that the last decision asked for
    /// was never issued (a run restored after a crash between "decided" and
    /// "issued" found the decision stale). The roller forgets it: the nodes
    /// are not counted as restarted and the next decision starts from a
    /// fresh observation (and fresh safety checks). Ignored unless the
    /// current action is a restart of exactly these nodes whose command has
    /// not reported completion.
    pub fn handle_restart_not_issued(&mut self, nodes: &[NodeId]) {
        let matches = self.awaiting.as_ref().is_some_and(|a| {
            a.kind == ActionKind::Restart
                && a.nodes == nodes
                && a.restarts.values().all(|p| p.done_at.is_none())
        });
        if matches {
            self.awaiting = None;
        }
    }

    /// A restored roller whose executor's incarnations do not survive the
    /// executor (the restart witness numbers processes from zero in every
    /// run): incarnations recorded before the restore cannot be compared with
    /// new ones, so they are forgotten (a changed incarnation would otherwise
    /// be false evidence of a restart).
    pub fn forget_incarnations(&mut self) {
        if let Some(a) = self.awaiting.as_mut() {
            for p in a.restarts.values_mut() {
                p.incarnation_before = None;
            }
        }
    }

    /// What is known about the restart of `node` in the current action
    /// (`None` when the roller is not restarting it).
    #[must_use]
    pub fn restart_status(&self, node: NodeId) -> Option<RestartStatus> {
        let a = self
            .awaiting
            .as_ref()
            .filter(|a| a.kind == ActionKind::Restart)?;
        let p = a.restarts.get(&node)?;
        Some(RestartStatus {
            done: p.done_at.is_some(),
            process_ended: p.ended.is_some(),
            back: p.back_at.is_some(),
        })
    }

    /// Nodes of the current action (restart or reconfiguration), if any.
    #[must_use]
    pub fn acting_on(&self) -> Vec<NodeId> {
        self.awaiting
            .as_ref()
            .map(|a| a.nodes.clone())
            .unwrap_or_default()
    }

    fn restart_progress(&mut self, node: NodeId) -> Option<&mut RestartProgress> {
        self.awaiting
            .as_mut()
            .filter(|a| a.kind == ActionKind::Restart)
            .and_then(|a| a.restarts.get_mut(&node))
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
        if self.awaiting.is_some() {
            match self.await_step(snapshot, now, &mut cache) {
                Ok(Some(d)) => return d,
                Ok(None) => {}
                Err(e) => return self.finish(Decision::Abort { reason: e }),
            }
        }
        let selection = select(&self.config, &self.nodes, snapshot, &mut cache);
        match selection {
            Selection::Restart(nodes, reason) => {
                let mut restarts = BTreeMap::new();
                for n in &nodes {
                    let observed = cache.node(snapshot, n.node);
                    let Some(ctx) = self.nodes.get_mut(&n.node) else {
                        return self.finish(Decision::Abort {
                            reason: RollError::StateInconsistent {
                                detail: format!("node {} selected without a context", n.node),
                            },
                        });
                    };
                    ctx.state = NodeState::Restarted;
                    ctx.last_transition = now;
                    restarts.insert(n.node, RestartProgress::new(now, ctx, snapshot, observed));
                }
                self.start_await(
                    ActionKind::Restart,
                    nodes.iter().map(|n| n.node).collect(),
                    now,
                    restarts,
                );
                Decision::Restart { nodes, reason }
            }
            Selection::Reconfigure(node, changes, reason) => {
                let Some(ctx) = self.nodes.get_mut(&node) else {
                    return self.finish(Decision::Abort {
                        reason: RollError::StateInconsistent {
                            detail: format!("node {node} selected without a context"),
                        },
                    });
                };
                ctx.num_reconfigs += 1;
                ctx.state = NodeState::Reconfigured;
                ctx.last_transition = now;
                self.start_await(ActionKind::Reconfigure, vec![node], now, BTreeMap::new());
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
                    for_what: WaitReason::Blocked { error: err },
                }
            }
            Selection::Abort(err) => self.finish(Decision::Abort { reason: err }),
            Selection::Done => {
                let mut notes = self.notes.clone();
                let left = unselected_unhealthy(&self.config, &self.nodes);
                if !left.is_empty() {
                    notes.push(format!(
                        "unhealthy node(s) outside the selection were left alone: {}",
                        describe_reasons(&left)
                    ));
                }
                let summary = RollSummary {
                    restarted: self.filter_ids(|c| c.num_restarts > 0),
                    reconfigured: self.filter_ids(|c| c.num_reconfigs > 0 && c.num_restarts == 0),
                    untouched: self.filter_ids(|c| c.num_reconfigs == 0 && c.num_restarts == 0),
                    notes,
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
        let mut plan = Plan {
            unselected_unhealthy: unselected_unhealthy(&self.config, &nodes),
            ..Plan::default()
        };
        // Each step changes one context; a bound keeps a bug from looping.
        for _ in 0..=4 * nodes.len() * (self.config.max_reconfig_attempts as usize + 2) {
            match select(&self.config, &nodes, snapshot, &mut cache) {
                Selection::Restart(batch, reason) => {
                    for n in &batch {
                        if let Some(ctx) = nodes.get_mut(&n.node) {
                            ctx.num_restarts += 1;
                            ctx.state = NodeState::Serving;
                            ctx.reachable = true;
                            ctx.was_healthy = true;
                        }
                    }
                    plan.steps.push(PlanStep::Restart {
                        nodes: batch,
                        reason,
                    });
                }
                Selection::Reconfigure(node, changes, reason) => {
                    if let Some(ctx) = nodes.get_mut(&node) {
                        // Assume the change sticks: the node needs nothing more.
                        ctx.desired_config.clear();
                        ctx.num_reconfigs += 1;
                    }
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

    fn start_await(
        &mut self,
        kind: ActionKind,
        nodes: Vec<NodeId>,
        now: Millis,
        restarts: BTreeMap<NodeId, RestartProgress>,
    ) {
        self.blocked_since = None;
        self.awaiting = Some(Awaiting {
            kind,
            nodes,
            started: now,
            serving_since: BTreeMap::new(),
            elected: BTreeSet::new(),
            restarts,
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

    /// Folds one observation into the restart progress of every node of the
    /// batch and marks the nodes that count as back.
    fn track_restarts(
        &mut self,
        snapshot: &ClusterSnapshot,
        now: Millis,
        cache: &mut Cache,
    ) -> Result<(), RollError> {
        let Some(aw) = self.awaiting.as_mut() else {
            return Ok(());
        };
        for &id in &aw.nodes {
            let progress = aw.restarts.entry(id).or_insert_with(|| RestartProgress {
                // Saved by a version without feed-back: the decision then
                // implied the command's completion.
                requested_at: aw.started,
                incarnation_before: None,
                serving_before: true,
                must_fetch: false,
                done_at: Some(aw.started),
                ended: None,
                evidence_seen: false,
                caught_up_baseline: None,
                baseline_taken: false,
                back_at: None,
            });
            if progress.back_at.is_some() {
                continue;
            }
            let observed = cache.node(snapshot, id);
            if progress.ended.is_none() {
                let evidence = match observed {
                    None => Some("it vanished from the observation".to_string()),
                    Some(n) if n.state == ObservedState::NotRunning => {
                        Some("it was observed NOT_RUNNING after the restart was requested".into())
                    }
                    Some(n)
                        if n.incarnation.is_some()
                            && progress.incarnation_before.is_some()
                            && n.incarnation != progress.incarnation_before =>
                    {
                        Some("its incarnation changed".into())
                    }
                    Some(n)
                        if progress.serving_before
                            && (n.state != ObservedState::Serving || !n.reachable) =>
                    {
                        Some(format!(
                            "it was observed {:?}{} after the restart was requested",
                            n.state,
                            if n.reachable { "" } else { " and unreachable" }
                        ))
                    }
                    Some(_) => None,
                };
                if let Some(e) = evidence {
                    progress.ended = Some((now, e));
                }
            }
            if progress.ended.is_none() {
                continue;
            }
            if !progress.evidence_seen {
                // The observation of this decision may predate the
                // evidence: only later ones show the new process.
                progress.evidence_seen = true;
                continue;
            }
            if progress.done_at.is_none() {
                continue;
            }
            let serving =
                observed.is_some_and(|n| n.state == ObservedState::Serving && n.reachable);
            if !serving {
                continue;
            }
            // Without a quorum leader nothing can fetch: requiring it would
            // keep a leaderless quorum from ever being restarted back into
            // shape, and every restart that could weaken the quorum is
            // refused anyway until a leader is known (`check_quorum`).
            let leaderless = snapshot.quorum.as_ref().is_some_and(|q| q.leader.is_none());
            let fetched = if !progress.must_fetch || leaderless {
                true
            } else if !progress.baseline_taken {
                progress.baseline_taken = true;
                progress.caught_up_baseline = caught_up_ts(snapshot, id);
                false
            } else {
                caught_up_ts(snapshot, id)
                    .is_some_and(|t| progress.caught_up_baseline.is_none_or(|b| t > b))
            };
            if serving && fetched {
                progress.back_at = Some(now);
                let index = cache.index(snapshot);
                let state = if observed.is_some_and(|n| n.roles.broker)
                    && !leads_all_preferred(snapshot, index, id)
                {
                    NodeState::Serving
                } else {
                    NodeState::LeadingAllPreferred
                };
                let ctx = self
                    .nodes
                    .get_mut(&id)
                    .ok_or_else(|| RollError::StateInconsistent {
                        detail: format!("restarting node {id} has no context"),
                    })?;
                ctx.state = state;
                ctx.last_transition = now;
            }
        }
        Ok(())
    }

    /// The wait after an action; `None` when the nodes are done and the next
    /// action may be selected.
    fn await_step(
        &mut self,
        snapshot: &ClusterSnapshot,
        now: Millis,
        cache: &mut Cache,
    ) -> Result<Option<Decision>, RollError> {
        let kind = match &self.awaiting {
            Some(aw) => aw.kind,
            None => return Ok(None),
        };
        if kind == ActionKind::Restart {
            self.track_restarts(snapshot, now, cache)?;
        }
        let Some(aw) = self.awaiting.as_mut() else {
            return Ok(None);
        };
        let timeout = match aw.kind {
            ActionKind::Restart => self.config.post_restart_timeout_ms,
            ActionKind::Reconfigure => self.config.post_reconfigure_timeout_ms,
        };
        let verb = match aw.kind {
            ActionKind::Restart => "restart",
            ActionKind::Reconfigure => "reconfiguration",
        };
        let missing = |id: &NodeId| RollError::StateInconsistent {
            detail: format!("node {id} of the current action has no context"),
        };
        match aw.kind {
            ActionKind::Restart => {
                for (id, p) in &aw.restarts {
                    if let Some(t) = p.back_at {
                        aw.serving_since.entry(*id).or_insert(t);
                    }
                }
            }
            ActionKind::Reconfigure => {
                for n in &aw.nodes {
                    let ctx = self.nodes.get(n).ok_or_else(|| missing(n))?;
                    if ctx.is_serving() && ctx.reachable {
                        aw.serving_since.entry(*n).or_insert(now);
                    }
                }
            }
        }
        let not_serving: Vec<NodeId> = aw
            .nodes
            .iter()
            .filter(|n| !aw.serving_since.contains_key(n))
            .copied()
            .collect();
        if !not_serving.is_empty() {
            // Per node: deadline counted from the command's completion (or
            // the decision when it never reported).
            let since = |n: &NodeId| {
                aw.restarts
                    .get(n)
                    .map_or(aw.started, |p| p.done_at.unwrap_or(p.requested_at))
            };
            let mut deadline: Option<Millis> = None;
            let mut states: Vec<WaitingNode> = Vec::new();
            for n in &not_serving {
                let ctx = self.nodes.get(n).ok_or_else(|| missing(n))?;
                let d = since(n).plus(timeout);
                if now >= d {
                    let detail = aw
                        .restarts
                        .get(n)
                        .map(|p| p.pending().to_string())
                        .unwrap_or_default();
                    let reason = RollError::NotServingInTime {
                        node: *n,
                        state: ctx.observed,
                        waited_ms: now.since(since(n)),
                        detail,
                    };
                    return Ok(Some(self.finish(Decision::Abort { reason })));
                }
                deadline = Some(deadline.map_or(d, |x| x.min(d)));
                states.push(WaitingNode {
                    node: *n,
                    detail: match aw.restarts.get(n) {
                        Some(p) => format!(
                            "seen {:?}{}; {}",
                            ctx.observed,
                            if ctx.reachable { "" } else { ", unreachable" },
                            p.pending()
                        ),
                        None => ctx.describe_state(),
                    },
                });
            }
            let deadline = deadline.unwrap_or(now);
            return Ok(Some(Decision::Wait {
                until: now.plus(self.config.poll_interval_ms).min(deadline),
                for_what: WaitReason::NotServing {
                    action: aw.kind,
                    nodes: states,
                    deadline,
                },
            }));
        }
        // All serving: wait for preferred leadership.
        let mut not_leading: Vec<NodeId> = Vec::new();
        for n in &aw.nodes {
            let ctx = self.nodes.get(n).ok_or_else(|| missing(n))?;
            if self.config.restore_preferred_leaders && ctx.state != NodeState::LeadingAllPreferred
            {
                not_leading.push(*n);
            }
        }
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
                        let Some(p) = snapshot.partitions.get(pi as usize) else {
                            continue;
                        };
                        if p.replicas.first() == Some(n) && p.leader != Some(*n) {
                            partitions.push(p.tp.clone());
                        }
                    }
                }
                partitions.sort();
                partitions.dedup();
                return Ok(Some(Decision::ElectPreferredLeaders {
                    reason: format!(
                        "node(s) {} are back in every ISR they belong to but lead only part of \
                         their preferred partitions",
                        join_ids(&to_elect)
                    ),
                    nodes: to_elect,
                    partitions,
                }));
            }
            let last_serving = aw.serving_since.values().max().copied().unwrap_or(now);
            let deadline = last_serving.plus(timeout);
            if now < deadline {
                return Ok(Some(Decision::Wait {
                    until: now.plus(self.config.poll_interval_ms).min(deadline),
                    for_what: WaitReason::Leadership {
                        nodes: not_leading,
                        deadline,
                    },
                }));
            }
            self.notes.push(format!(
                "node(s) {} did not lead all their preferred partitions within {timeout} ms after \
                 {verb}; continuing (leadership is restored by the next election)",
                join_ids(&not_leading)
            ));
        }
        for n in &aw.nodes {
            let ctx = self.nodes.get_mut(n).ok_or_else(|| missing(n))?;
            ctx.was_healthy = ctx.is_serving() && ctx.reachable;
        }
        self.awaiting = None;
        Ok(None)
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
                selected: false,
                was_healthy: false,
            }
        });
        ctx.roles = n.roles;
        ctx.reachable = n.reachable;
        ctx.observed = n.state;
        ctx.selected = requests.contains_key(&n.id);
        let acting = awaiting.filter(|a| a.nodes.contains(&n.id));
        // A node being restarted stays RESTARTED until the restart counts
        // (see `RestartProgress`), whatever it looks like meanwhile.
        let restarting = acting.is_some_and(|a| {
            a.kind == ActionKind::Restart
                && a.restarts.get(&n.id).is_none_or(|p| p.back_at.is_none())
        });
        let state = match n.state {
            _ if restarting => NodeState::Restarted,
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
                    // Matched above; kept total rather than panicking.
                    ObservedState::Serving => NodeState::Serving,
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
        ctx.selected = requests.contains_key(&ctx.id);
        if !snapshot.nodes.iter().any(|n| n.id == ctx.id) && ctx.state != NodeState::NotRunning {
            ctx.state = NodeState::NotRunning;
            ctx.observed = ObservedState::NotRunning;
            ctx.last_transition = now;
        }
    }
}

/// Unhealthy nodes outside the selection that the roll leaves alone, with
/// their state.
fn unselected_unhealthy(
    config: &RollConfig,
    nodes: &BTreeMap<NodeId, NodeContext>,
) -> Vec<NodeReason> {
    nodes
        .values()
        .filter(|c| c.is_unhealthy() && !c.eligible_when_unhealthy(config))
        .map(|c| NodeReason {
            node: c.id,
            reason: format!(
                "{} node is {}; not selected, left alone (include unhealthy nodes to restart it)",
                c.roles,
                c.describe_state()
            ),
        })
        .collect()
}

fn describe_reasons(nodes: &[NodeReason]) -> String {
    nodes
        .iter()
        .map(|n| format!("{} ({})", n.node, n.reason))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What holds every restart back: a node in log recovery, or a broker whose
/// state is unknown (it may be in log recovery).
fn restart_blocker(nodes: &BTreeMap<NodeId, NodeContext>) -> Option<RollError> {
    if let Some(c) = nodes.values().find(|c| c.state == NodeState::Recovering) {
        return Some(RollError::NodeInLogRecovery { node: c.id });
    }
    nodes
        .values()
        .find(|c| c.roles.broker && c.state == NodeState::Unknown)
        .map(|c| RollError::NodeStateUnknown { node: c.id })
}

/// The next action for the given contexts (the heart of the algorithm), with
/// the unhealthy nodes left alone named in a restart's reason.
fn select(
    config: &RollConfig,
    nodes: &BTreeMap<NodeId, NodeContext>,
    snapshot: &ClusterSnapshot,
    cache: &mut Cache,
) -> Selection {
    match select_inner(config, nodes, snapshot, cache) {
        Selection::Restart(batch, mut reason) => {
            let left = unselected_unhealthy(config, nodes);
            if !left.is_empty() {
                let _ = write!(
                    reason,
                    "; left alone (unhealthy, outside the selection): {}",
                    describe_reasons(&left)
                );
            }
            Selection::Restart(batch, reason)
        }
        other => other,
    }
}

fn select_inner(
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
    let blocker = restart_blocker(nodes);
    let leader = snapshot.quorum.as_ref().and_then(|q| q.leader);

    // 1. RESTART_FIRST: not running, not ready, unreachable; only selected
    // nodes unless unhealthy ones outside the selection are included.
    let mut first: Vec<&NodeContext> = nodes
        .values()
        .filter(|c| c.is_unhealthy() && c.eligible_when_unhealthy(config))
        .collect();
    if !first.is_empty() {
        if let Some(err) = blocker {
            return Selection::Blocked(ids(&first), err);
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
        // The rescue of strimzi#9426: every controller is a combined node and
        // none runs, so no quorum can form until a majority starts together.
        // Only when the quorum really has no leader: with a leader, a
        // controller that looks not running is not what it seems (e.g. a
        // fenced broker side in log recovery).
        let controllers: Vec<&NodeContext> =
            nodes.values().filter(|c| c.roles.controller).collect();
        if leader.is_none()
            && !controllers.is_empty()
            && controllers.iter().all(|c| {
                c.roles.is_combined()
                    && c.state == NodeState::NotRunning
                    && c.eligible_when_unhealthy(config)
            })
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
                    "all {} controllers are combined nodes, none is running and the quorum has no \
                     leader: restarting them together so that a quorum can form",
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
                // Unhealthy controllers pass the quorum rule too, caught up
                // or not (as Strimzi does): a lagging controller may still
                // be the vote that keeps the majority. Only a controller
                // that is not running and not counted by the leader holds
                // no vote its restart could take away.
                let holds_no_vote = c.state == NodeState::NotRunning && !caught_up.contains(&c.id);
                if c.roles.controller && !holds_no_vote {
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
                    let selection = if c.selected {
                        ""
                    } else {
                        " (outside the selection; unhealthy nodes included)"
                    };
                    return Selection::Restart(
                        vec![NodeReason {
                            node: c.id,
                            reason: format!("{why}{selection}{}", reasons_suffix(c)),
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
        return blocked_or_inconsistent(ids(&first), first_err);
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
        if let Some(err) = blocker {
            return Selection::Blocked(restart_ids, err);
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
        return select_restart_batch(config, nodes, &restart, leader, snapshot, cache);
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

/// `Blocked` by the first error of a non-empty group (a group without one
/// is a bug: abort rather than panic).
fn blocked_or_inconsistent(nodes: Vec<NodeId>, err: Option<RollError>) -> Selection {
    match err {
        Some(e) => Selection::Blocked(nodes, e),
        None => Selection::Abort(RollError::StateInconsistent {
            detail: format!("no node of {nodes:?} could restart and none was refused"),
        }),
    }
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
    nodes: &BTreeMap<NodeId, NodeContext>,
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
        return blocked_or_inconsistent(ids(&non_active_pure), first_err);
    }
    if let Some(c) = active_pure.first() {
        return match safety::check_quorum(snapshot, &[c.id]) {
            Ok(()) => Selection::Restart(
                vec![NodeReason {
                    node: c.id,
                    reason: reason_of(c.id),
                }],
                if single_voter(snapshot) {
                    SINGLE_CONTROLLER.to_string()
                } else {
                    "the active pure controller restarts after the other controllers; the quorum \
                     keeps a majority without it"
                        .to_string()
                },
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
            return blocked_or_inconsistent(ids(&brokers), first_err);
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
        let accept = |chosen: &[NodeId], next: NodeId| {
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
        };
        // The batches are planned for every broker of this phase, those
        // already restarted included, so the plan stays the same while the
        // roll works through it (and `plan()` shows what the roll does).
        let planned_for: Vec<NodeId> = nodes
            .values()
            .filter(|c| {
                c.roles.broker
                    && Some(c.id) != leader
                    && (c.num_restarts > 0 || brokers.iter().any(|b| b.id == c.id))
            })
            .map(|c| c.id)
            .collect();
        if cache
            .batches
            .as_ref()
            .is_none_or(|(f, _)| *f != planned_for)
        {
            let classes = graph.plan_batches(
                &planned_for,
                config.max_batch_size,
                accept,
                |n| !controllers.contains(&n),
                batch::DEFAULT_SEARCH_BUDGET,
            );
            cache.batches = Some((planned_for, classes));
        }
        let classes = cache
            .batches
            .as_ref()
            .map_or(&[][..], |(_, c)| c.as_slice());
        // The first planned batch with a member that may restart now; the
        // live checks filter it, whatever they hold back waits for a later one.
        let mut batch: Vec<NodeId> = Vec::new();
        let mut planned = (0, classes.len());
        for (i, class) in classes.iter().enumerate() {
            for &n in class {
                if batch.len() < config.max_batch_size.max(1)
                    && safe.contains(&n)
                    && accept(&batch, n)
                {
                    batch.push(n);
                }
            }
            if !batch.is_empty() {
                planned.0 = i + 1;
                break;
            }
        }
        if batch.is_empty() {
            // Unreachable while every safe broker is planned; kept as a net.
            batch = graph.greedy_batch(&safe, config.max_batch_size.max(1), accept);
        }
        let mut reason = format!(
            "{} of {} broker(s) waiting to restart share no partition and each keeps every \
             partition at or above min.insync.replicas (ISR judged after ongoing \
             reassignments); planned batch {} of {}",
            batch.len(),
            brokers.len(),
            planned.0,
            planned.1
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
                if single_voter(snapshot) {
                    format!(
                        "{SINGLE_CONTROLLER}; every partition stays at or above \
                         min.insync.replicas without it"
                    )
                } else {
                    "the active combined controller restarts last; the quorum keeps a majority \
                     and every partition stays at or above min.insync.replicas without it"
                        .to_string()
                },
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
