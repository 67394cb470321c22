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
//! unchanged against the simulator in `sim` under property tests.
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
//! effective `min.insync.replicas` (unknown refuses, and so does a replica
//! whose broker-level value cannot be read), counting in each ISR only the
//! replicas the snapshot shows serving; the quorum rule counts only running
//! controllers as caught up, keeps a majority of the leader's real voter set,
//! and trusts no timestamp while one is ahead of the leader's clock; an unset
//! desired setting is a change (only sensitive ones are skipped, and named);
//! nothing restarts while any other node is in log recovery or is a broker in
//! an unknown state (it may be in log recovery); and state restored from JSON
//! that does not match the cluster aborts the roll rather than panicking.

pub mod batch;
pub mod config_diff;
pub mod error;
mod placement;
mod restart;
pub mod run;
pub mod safety;
mod select;
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
    ClusterSnapshot, Millis, NodeId, NodeRoles, NodeSnapshot, ObservedState, PartitionSnapshot,
    TopicPartition,
};
use crate::engine::movers::CruiseControlView;

use batch::ConflictGraph;
pub use config_diff::{ConfigChange, ConfigDiff};
pub use error::RollError;
use restart::{Awaiting, RestartProgress};
use safety::{PartitionIndex, Strictness};
use select::{
    Cache, Selection, describe_reasons, held_nodes, select, sensitive_settings,
    unselected_unhealthy,
};

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

/// What a node's software reports ([`Roller::handle_software`]): `Ok(Some(level))` the top of
/// its supported `metadata.version` range, `Ok(None)` it does not report the feature, `Err`
/// why it could not be asked.
pub type SoftwareReport = Result<Option<i16>, String>;

/// What the caller wants for one node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct NodeRequest {
    /// Why the node must restart (empty: only if unhealthy or its config
    /// changes cannot be applied dynamically).
    pub restart_reasons: Vec<String>,
    /// Desired broker settings; only keys listed here are compared.
    pub desired_config: BTreeMap<String, String>,
    /// A roll onto new software (`upgrade --to`): once restarted, the node must report this
    /// `metadata.version` as the top of its supported range (the target release's latest,
    /// [`Roller::handle_software`]), else the roll stops with [`RollError::WrongSoftware`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_software: Option<i16>,
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
    /// Held by an operator (`kafkaops hold`), with the hold's reason: never
    /// restarted nor reconfigured, whatever its request or health, but
    /// counted in every safety check like any other node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held: Option<String>,
    /// See [`NodeRequest::expected_software`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_software: Option<i16>,
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
        self.held.is_none() && (self.selected || config.include_unhealthy)
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
    /// Held nodes the roll left alone, with the hold's reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<NodeReason>,
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
    /// A resumed roll: nodes it already restarted or reconfigured before it stopped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub already_rolled: Vec<NodeId>,
    /// Unhealthy nodes outside the selection: left alone (unless
    /// `include_unhealthy`), still counted by every safety check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unselected_unhealthy: Vec<NodeReason>,
    /// Held nodes (`kafkaops hold`) the roll leaves alone, with the hold's
    /// reason; still counted by every safety check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<NodeReason>,
    /// Desired settings Kafka returns no value for because they are sensitive:
    /// neither compared nor applied dynamically (only a restart applies them,
    /// from the node's own configuration).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sensitive_settings: Vec<NodeSettings>,
}

/// Settings of one node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeSettings {
    pub node: NodeId,
    pub keys: Vec<String>,
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
    /// A node outside the action in flight went from healthy to unhealthy while the nodes of that
    /// action were still coming back: the roll stops, but only once they are back (or their wait
    /// ends), as after Ctrl-C. Stopping at once left a restart of ours unattended, and the next
    /// roll (`operate` starts one at once) restarted the newly unhealthy node while ours still
    /// came up: two restarts at the same time (found by the soak, `benches/soak.sh`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stop_after_action: Option<RollError>,
    /// Held nodes and the hold's reason ([`Roller::handle_holds`]): never acted on. Saved, so
    /// a resumed roll keeps them until it is given the holds again.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    holds: BTreeMap<NodeId, String>,
    /// What each node's software supports ([`Roller::handle_software`]); given again before
    /// every decision, so not saved.
    #[serde(skip)]
    software: BTreeMap<NodeId, SoftwareReport>,
    /// Another mover holds new actions back ([`Roller::handle_cruise_control`]); given again
    /// before every decision, so not saved.
    #[serde(skip)]
    other_mover: Option<RollError>,
    /// The last colouring of the conflict graph, reused by the next decision while its inputs
    /// have not changed (see `select::PlannedBatches`); derived data, so neither saved nor
    /// compared.
    #[serde(skip)]
    planned: Option<select::PlannedBatches>,
    /// The partition index and the conflict graph of the last snapshot, reused by the next
    /// decision while the placement is the same (see `placement`); derived data, so neither
    /// saved nor compared.
    #[serde(skip)]
    placement: Option<placement::KeptPlacement>,
}

impl PartialEq for Roller {
    /// Equal when everything saved is equal (the other mover, given again before every
    /// decision and never saved, is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
            && self.requests == other.requests
            && self.nodes == other.nodes
            && self.awaiting == other.awaiting
            && self.blocked_since == other.blocked_since
            && self.notes == other.notes
            && self.finished == other.finished
            && self.stop_after_action == other.stop_after_action
            && self.holds == other.holds
    }
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
            stop_after_action: None,
            holds: BTreeMap::new(),
            software: BTreeMap::new(),
            other_mover: None,
            planned: None,
            placement: None,
        }
    }

    /// Input: the nodes held by an operator (`kafkaops hold`, expired holds already left out),
    /// with each hold's reason. A held node is never restarted nor reconfigured, even when it is
    /// selected or unhealthy; it still counts in every safety check (its replicas, its vote). A
    /// node already being acted on when its hold arrives is awaited as usual. Give the holds
    /// before each decision (or once, for a roll that does not re-read them).
    pub fn handle_holds(&mut self, holds: BTreeMap<NodeId, String>) {
        self.holds = holds;
    }

    /// Input before a decision, for a roll onto new software (requests with
    /// [`NodeRequest::expected_software`]): the top of each node's supported `metadata.version`
    /// range as it reports it now (ApiVersions), or why it could not be asked. A restarted node
    /// with an expected software counts as back only once its report is read: the expected
    /// level, or the roll stops ([`RollError::WrongSoftware`]); unread, it is waited for like a
    /// node not serving yet (until the post-restart timeout). Not saved: give it before each
    /// decision.
    pub fn handle_software(&mut self, software: BTreeMap<NodeId, SoftwareReport>) {
        self.software = software;
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

    /// Input before a decision (or a plan): what Cruise Control's executor is doing, when the
    /// caller asks it (a roll without Cruise Control, or run with `--force`, never calls this).
    /// While an execution runs, or while Cruise Control cannot be asked, no new restart or
    /// reconfiguration starts: the decision is a blocked wait that names the execution and
    /// says the block clears when it ends (and aborts after `blocked_timeout_ms`, like any
    /// block); an action already under way is still waited for. See [`other_mover_block`].
    pub fn handle_cruise_control(&mut self, view: &CruiseControlView) {
        self.other_mover = other_mover_block(view);
    }

    /// Feed-back: the action the last decision asked for was never issued (a
    /// run restored after a crash between "decided" and "issued", or held
    /// back by a stop request). The roller forgets it as if it had never been
    /// decided, so the next decision starts from a fresh observation with
    /// fresh safety checks: a restart is forgotten as by
    /// [`Roller::handle_restart_not_issued`]; a reconfiguration gives back its
    /// attempt (it does not count towards `max_reconfig_attempts`); a
    /// preferred-leader election is asked for again if the nodes still do not
    /// lead. Ignored when the roller is not waiting on that very action.
    pub fn handle_not_issued(&mut self, decision: &Decision) {
        match decision {
            Decision::Restart { .. } => {
                self.handle_restart_not_issued(&decision.restarted_nodes());
            }
            Decision::Reconfigure { node, .. } => {
                let matches = self
                    .awaiting
                    .as_ref()
                    .is_some_and(|a| a.kind == ActionKind::Reconfigure && a.nodes == [*node]);
                if matches {
                    self.awaiting = None;
                    if let Some(ctx) = self.nodes.get_mut(node) {
                        ctx.num_reconfigs = ctx.num_reconfigs.saturating_sub(1);
                    }
                }
            }
            Decision::ElectPreferredLeaders { nodes, .. } => {
                if let Some(a) = self.awaiting.as_mut() {
                    for n in nodes {
                        a.elected.remove(n);
                    }
                }
            }
            Decision::Wait { .. } | Decision::Done { .. } | Decision::Abort { .. } => {}
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
        let mut cache = Cache::carrying(self.planned.take(), self.placement.take(), snapshot);
        if let Err(e) = self.observe(snapshot, now, &mut cache) {
            if self.awaiting.is_none() {
                return self.finish(Decision::Abort { reason: e });
            }
            // Our own nodes first: see `stop_after_action`.
            self.stop_after_action.get_or_insert(e);
        }
        if self.awaiting.is_some() {
            match self.await_step(snapshot, now, &mut cache) {
                Ok(Some(d)) => {
                    (self.planned, self.placement) = cache.keep(snapshot);
                    return d;
                }
                Ok(None) => {}
                Err(e) => return self.finish(Decision::Abort { reason: e }),
            }
        }
        if let Some(e) = self.stop_after_action.take() {
            return self.finish(Decision::Abort { reason: e });
        }
        let selection = select(&self.config, &self.nodes, snapshot, &mut cache);
        (self.planned, self.placement) = cache.keep(snapshot);
        match hold_for(self.other_mover.as_ref(), selection) {
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
                let sensitive = sensitive_settings(&self.nodes, snapshot);
                if !sensitive.is_empty() {
                    notes.push(format!(
                        "sensitive setting(s) not compared (Kafka returns no value for them), so                          not applied by this roll unless the node was restarted: {}",
                        describe_settings(&sensitive)
                    ));
                }
                let held = held_nodes(&self.nodes);
                if !held.is_empty() {
                    notes.push(format!(
                        "held node(s) left alone: {}",
                        describe_reasons(&held)
                    ));
                }
                let summary = RollSummary {
                    held,
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
        let mut cache = Cache::carrying(self.planned.clone(), self.placement.clone(), snapshot);
        merge_observation(
            &mut nodes,
            &self.requests,
            &self.holds,
            snapshot,
            cache.index(snapshot),
            Millis(0),
            None,
        );
        // The preview's own picture of the cluster: a node it restarts is assumed to come back and
        // rejoin the ISR of its partitions. Without this, a down node restarted first still looked
        // out of sync to every later step, and the preview reported a block the real roll does not
        // meet (it re-observes after each batch).
        let mut assumed = std::borrow::Cow::Borrowed(snapshot);
        let mut plan = Plan {
            unselected_unhealthy: unselected_unhealthy(&self.config, &nodes),
            held: held_nodes(&nodes),
            sensitive_settings: sensitive_settings(&nodes, snapshot),
            ..Plan::default()
        };
        // Each step changes one context; a bound keeps a bug from looping.
        for _ in 0..=4 * nodes.len() * (self.config.max_reconfig_attempts as usize + 2) {
            let selection = select(&self.config, &nodes, &assumed, &mut cache);
            match hold_for(self.other_mover.as_ref(), selection) {
                Selection::Restart(batch, reason) => {
                    for n in &batch {
                        if let Some(ctx) = nodes.get_mut(&n.node) {
                            ctx.num_restarts += 1;
                            ctx.state = NodeState::Serving;
                            ctx.reachable = true;
                            ctx.was_healthy = true;
                        }
                    }
                    let ids: Vec<NodeId> = batch.iter().map(|n| n.node).collect();
                    if assume_back_in_sync(&mut assumed, &ids) {
                        // Only ISRs and states changed, not who holds what: the index, the
                        // graph and a portable colouring still fit.
                        cache = cache.next_step(&assumed);
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
        // A resumed roll: nodes this roll already restarted or reconfigured are not "untouched".
        let rolled = |n: &NodeId| {
            self.nodes
                .get(n)
                .is_some_and(|c| c.num_restarts > 0 || c.num_reconfigs > 0)
        };
        plan.untouched = nodes
            .iter()
            .filter(|(n, c)| !touched.contains(n) && !rolled(n) && c.held.is_none())
            .map(|(n, _)| n)
            .copied()
            .collect();
        plan.already_rolled = nodes
            .keys()
            .filter(|n| !touched.contains(n) && rolled(n))
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
    fn observe(
        &mut self,
        snapshot: &ClusterSnapshot,
        now: Millis,
        cache: &mut Cache,
    ) -> Result<(), RollError> {
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
            &self.holds,
            snapshot,
            cache.index(snapshot),
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
}

/// The roll's rule about other movers: while Cruise Control executes (or cannot be asked), no
/// node is restarted or reconfigured. A broker restarted under an execution that moves replicas
/// to or from it kills the execution's tasks (Cruise Control stops with its throttles and
/// reassignments left behind), and the execution's next batch can take a partition's ISR below
/// what the roll judged (the Strimzi proposal's open race). `None`: nothing holds the roll.
#[must_use]
pub fn other_mover_block(view: &CruiseControlView) -> Option<RollError> {
    match view {
        CruiseControlView::NotAsked | CruiseControlView::Idle => None,
        CruiseControlView::Unreachable(error) | CruiseControlView::StateUnknown(error) => {
            Some(RollError::CruiseControlUnknown {
                error: error.clone(),
            })
        }
        CruiseControlView::Executing(x) => Some(RollError::CruiseControlExecuting {
            task: x.task.clone(),
            execution: x.description.clone(),
            also: None,
        }),
    }
}

/// A selection held back by another mover: a restart or reconfiguration becomes a block that
/// names the mover; a block for another reason keeps that reason beside it.
fn hold_for(mover: Option<&RollError>, selection: Selection) -> Selection {
    let Some(block) = mover else {
        return selection;
    };
    match selection {
        Selection::Restart(nodes, _) => {
            Selection::Blocked(nodes.iter().map(|n| n.node).collect(), block.clone())
        }
        Selection::Reconfigure(node, _, _) => Selection::Blocked(vec![node], block.clone()),
        Selection::Blocked(nodes, other) => {
            let held = match block.clone() {
                RollError::CruiseControlExecuting {
                    task, execution, ..
                } => RollError::CruiseControlExecuting {
                    task,
                    execution,
                    also: Some(other.to_string()),
                },
                b => b,
            };
            Selection::Blocked(nodes, held)
        }
        s @ (Selection::Abort(_) | Selection::Done) => s,
    }
}

/// The preview's assumption after restarting `ids`: each serves again and is back in the ISR of
/// every partition it is an assigned (not an adding) replica of; an offline partition gets it as
/// leader. Returns whether anything changed (then per-snapshot caches are stale).
fn assume_back_in_sync(
    snapshot: &mut std::borrow::Cow<'_, ClusterSnapshot>,
    ids: &[NodeId],
) -> bool {
    // Each node's place in `ids`: a partition is checked against its few replicas, not against
    // the whole batch (a batch of 667 brokers over 300,000 partitions made this the largest
    // part of a whole-roll plan), and rejoins the ISR in the order of `ids` as before.
    let rank: HashMap<NodeId, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let stale_node = |n: &NodeSnapshot| {
        rank.contains_key(&n.id) && (n.state != ObservedState::Serving || !n.reachable)
    };
    let out_of_sync = |p: &PartitionSnapshot| {
        let mut out: Vec<(usize, NodeId)> = p
            .replicas
            .iter()
            .filter(|r| !p.adding.contains(r) && !p.isr.contains(r))
            .filter_map(|r| rank.get(r).map(|i| (*i, *r)))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    let stale_partition = |p: &PartitionSnapshot| {
        p.replicas
            .iter()
            .any(|r| rank.contains_key(r) && !p.adding.contains(r) && !p.isr.contains(r))
    };
    if !snapshot.nodes.iter().any(stale_node) && !snapshot.partitions.iter().any(stale_partition) {
        return false;
    }
    let owned = snapshot.to_mut();
    for n in owned.nodes.iter_mut().filter(|n| rank.contains_key(&n.id)) {
        n.state = ObservedState::Serving;
        n.reachable = true;
    }
    for p in &mut owned.partitions {
        for (_, id) in out_of_sync(p) {
            p.isr.push(id);
            if p.leader.is_none() {
                p.leader = Some(id);
            }
        }
    }
    true
}

/// `node 1: a, b; node 2: c`.
#[must_use]
pub fn describe_settings(settings: &[NodeSettings]) -> String {
    settings
        .iter()
        .map(|s| format!("node {}: {}", s.node, s.keys.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
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
    holds: &BTreeMap<NodeId, String>,
    snapshot: &ClusterSnapshot,
    index: &PartitionIndex,
    now: Millis,
    awaiting: Option<&Awaiting>,
) {
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
                held: None,
                expected_software: req.expected_software,
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
                if n.roles.broker && !leads_all_preferred(snapshot, index, n.id) {
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
        ctx.held = holds.get(&ctx.id).cloned();
        if !snapshot.nodes.iter().any(|n| n.id == ctx.id) && ctx.state != NodeState::NotRunning {
            ctx.state = NodeState::NotRunning;
            ctx.observed = ObservedState::NotRunning;
            ctx.last_transition = now;
        }
    }
}
