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
mod decision;
pub mod error;
mod feedback;
mod observe;
mod placement;
mod preview;
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
    ClusterSnapshot, Millis, NodeId, NodeRoles, NodeSnapshot, ObservedState, TopicPartition,
};

pub use config_diff::{ConfigChange, ConfigDiff};
use decision::join_ids;
pub use decision::{
    ActionKind, Decision, NodeReason, RestartStatus, RollSummary, WaitReason, WaitingNode,
};
pub use error::RollError;
use feedback::hold_for;
pub use feedback::other_mover_block;
use observe::{back_in_all_isrs, leads_all_preferred, merge_observation};
pub use preview::{NodeSettings, Plan, PlanStep, describe_settings};
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
        if let Err(e) = self.observe(snapshot, now) {
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
                // The awaited action is over (done, or its wait timed out and the roll goes on):
                // what its nodes are now comes from the snapshot, not from the action. A node the
                // roll restarted may be down or starting again, and then it is unhealthy.
                Ok(None) => merge_observation(
                    &mut self.nodes,
                    &self.requests,
                    &self.holds,
                    snapshot,
                    now,
                    self.awaiting.as_ref(),
                ),
                Err(e) => return self.finish(Decision::Abort { reason: e }),
            }
        }
        if let Some(e) = self.stop_after_action.take() {
            return self.finish(Decision::Abort { reason: e });
        }
        let selection = select(&self.config, &self.nodes, snapshot, &mut cache);
        (self.planned, self.placement) = cache.keep(snapshot);
        let selection = hold_for(self.other_mover.as_ref(), selection);
        self.act_on(selection, snapshot, now, &mut cache)
    }

    /// The decision for a selection, with its bookkeeping (the action awaited, the block timed).
    fn act_on(
        &mut self,
        selection: Selection,
        snapshot: &ClusterSnapshot,
        now: Millis,
        cache: &mut Cache,
    ) -> Decision {
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
            Selection::Done => self.done(snapshot),
        }
    }

    /// `Done`, with the summary and what is worth telling the operator.
    fn done(&mut self, snapshot: &ClusterSnapshot) -> Decision {
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
}
