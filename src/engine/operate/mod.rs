//! The `operate` controller's decisions, pure: one observation of the cluster, the policy and
//! the saved state in; what to do (and what waits, and why) out.
//!
//! `operate` runs the other subcommands' logic unattended, so the hard part is not any single
//! action but the coordination between them (issue #13, design `OPERATE_DESIGN.md`):
//!
//! - **Never two movers.** At most one thing moves data at a time: our Cruise Control execution,
//!   anyone's execution (the executor is not idle), reassignments someone else started. While one
//!   runs, every other wish waits and says what it waits for.
//! - **Order.** Scale-down before scale-up before imbalance: the requests are fed to the seed's
//!   state machine ([`AutoRebalancer`]) in precedence order each loop, and it keeps the queue.
//!   A scale-down requested while a scale-up runs stops the scale-up (the seed's preemption).
//! - **Scale-up with grace.** A registered broker outside the drain set that holds no replica
//!   for the policy's grace period is a scale-up. A drained broker (0 replicas, in the drain
//!   set) is never a scale-up.
//! - **Modes absent from the policy never start.**
//! - **Restart and failover.** The state is saved by the shell before the execution request is
//!   sent (`requested_at`, no task id yet) and again once Cruise Control answered. A state read
//!   back with the request in flight ([`Phase::Starting`]) is resolved from Cruise Control's
//!   `user_tasks`: the non-dry-run task of the same endpoint listed with exactly the parameters
//!   saved with the request (its `reason` carries a tag of its own; clocks are not compared) is
//!   attached to ([`CcFlow::attach`]), so a new leader never sends a second execution request.
//! - **Safe to stop.** A drained broker is said safe to stop ([`Decision::safe_to_stop`]) only
//!   when nothing may put a replica on it: no reassignment in flight involves it, and nothing
//!   that runs may target it (requests sent while brokers are on the drain list name the other
//!   brokers as their only destinations; a replication-factor round cannot, so none may run;
//!   nor anyone else's execution). A drain set that would leave too few brokers is refused.
//!
//! Requests are re-derived from the observation every loop (a broker that still holds
//! replicas is still to be drained), so a rebalance that failed or was refused is retried on a
//! later loop, and the state stays small: the machine, the running mover, and when each broker
//! was first seen empty. Nothing here does IO or reads a clock; `now` is part of the
//! [`Observation`] (epoch ms).

mod plan;
mod tasks;
#[cfg(test)]
mod tests;

pub use plan::plan_ahead;
pub use tasks::{RequestParams, RequestView, find_our_task, request_of};

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::engine::anomalies::AnomalyRecord;
use crate::engine::cc_flow::{CcFlow, FlowConfig, Outcome, Phase, Stage};
use crate::engine::model::Millis;
use crate::engine::movers::{self, CruiseControlView};
use crate::engine::operator_guard::{self, OperatorView};
use crate::engine::rebalance::{
    Action as FsmAction, AutoRebalancer, Event, Mode, Rebalance, State,
};
use crate::engine::replicas::{ChangeState, ClusterFacts, ReplicasState, TopicFacts, round_end};
use crate::engine::roll::run::RollRun;
use crate::engine::view::{ExecutorState, Reassignment, TaskStatus, UserTask};

/// The version of the saved [`OperateState`] document.
pub const STATE_VERSION: u32 = 1;

/// For states saved before the request's parameters were kept: a Cruise Control user task
/// started up to this long before `requested_at` still counts as ours. Tasks of requests whose
/// parameters were kept are matched on those, whatever the clocks say ([`find_our_task`]).
pub const CLOCK_SKEW_MS: u64 = 5_000;

/// What the policy asks for, as the engine needs it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OperatePolicy {
    /// The auto-rebalance modes that may start (absent ones never do).
    pub modes: BTreeSet<Mode>,
    /// Brokers to empty before they are stopped.
    pub drain: BTreeSet<i32>,
    /// How long a new broker must hold no replica before it is a scale-up.
    pub scale_up_grace_ms: u64,
    /// Desired replication factors (topic: factor).
    pub replication_factors: BTreeMap<String, u16>,
}

/// What Kafka showed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KafkaView {
    /// The registered brokers and how many replicas each holds.
    pub brokers: BTreeMap<i32, u64>,
    /// Partition reassignments in flight (anyone's).
    pub reassignments: Vec<Reassignment>,
    /// Every topic's partitions and replica counts (for replication factors).
    pub topics: BTreeMap<String, TopicFacts>,
    /// Distinct `broker.rack` values (empty: no broker has one).
    pub racks: BTreeSet<String>,
    /// Held nodes (`kafkaops hold`, issue 29) with their reason: never a destination of a
    /// rebalance sent now, never added by a scale-up.
    pub held: BTreeMap<i32, String>,
}

impl KafkaView {
    /// The facts the replication-factor engine reads.
    #[must_use]
    pub fn facts(&self) -> ClusterFacts {
        ClusterFacts {
            brokers: self.brokers.len(),
            racks: self.racks.clone(),
            topics: self.topics.clone(),
        }
    }
}

/// What Cruise Control showed.
#[derive(Debug, Clone, Default)]
pub struct CcView {
    pub executor: ExecutorState,
    /// The anomaly detector's records (all types; only goal violations count).
    pub anomalies: Vec<AnomalyRecord>,
    /// `user_tasks`, when asked for ([`OperateState::needs_user_tasks`]).
    pub user_tasks: Option<Vec<UserTask>>,
}

/// One observation of the world (`Err`: that side could not be read, with why).
#[derive(Debug, Clone)]
pub struct Observation {
    /// Epoch milliseconds.
    pub now: Millis,
    pub kafka: Result<KafkaView, String>,
    pub cc: Result<CcView, String>,
    /// The Strimzi operator's side, where there is one (Kubernetes).
    pub operator: Option<OperatorView>,
    /// The platform's side (Kubernetes) could not be read: nothing starts (the operator guard
    /// cannot be checked).
    pub platform_error: Option<String>,
    /// Someone else's roll holds the cluster's roll Lease (Kubernetes: the Lease `kafkaops roll`
    /// takes for the same pods), described with its holder; `None`: free, ours, or not looked at
    /// (plain hosts take no roll lock). Nothing of ours starts while it is held (no rebalance,
    /// replication-factor change or roll while another restarts brokers); an execution of ours
    /// already sent goes on (whoever started the roll meanwhile answers for it).
    pub other_roll: Option<String>,
    /// Nodes the shell found in need of a roll (desired broker configuration, Kubernetes
    /// reasons), as the roll engine plans it; `None`: none (or not looked at).
    pub roll: Option<RollWish>,
}

/// A roll the shell found needed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollWish {
    pub nodes: BTreeSet<i32>,
    /// Why, in one sentence.
    pub reason: String,
}

/// The roll being run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunningRoll {
    pub nodes: BTreeSet<i32>,
    pub reason: String,
    pub started_at: Millis,
    /// The roll's run (the roll engine and the driver's write-ahead record), saved by the shell
    /// after every step and before every command; `None` until the shell started it. The roll
    /// engine decides inside it; this engine only keeps it.
    #[serde(default, deserialize_with = "run_via_value")]
    pub run: Option<RollRun>,
}

/// Reads the roll run inside the internally tagged [`Mover`] through a JSON value: serde buffers
/// a tagged enum's content, and that buffer does not turn the string keys of the run's node maps
/// (`"5"`) back into node ids, which a JSON value does (states saved before the run was typed
/// kept it as such a value, so they read the same way).
fn run_via_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<RollRun>, D::Error> {
    Option::<serde_json::Value>::deserialize(d)?
        .map(|v| serde_json::from_value(v).map_err(serde::de::Error::custom))
        .transpose()
}

/// The rebalance being run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunningRebalance {
    pub rebalance: Rebalance,
    /// The Cruise Control conversation (stepped by the shell, saved after every step).
    pub flow: CcFlow,
    /// When the execution request was about to be sent (saved before sending it).
    pub requested_at: Option<Millis>,
    /// A stop was asked of Cruise Control (preempted by a scale-down).
    #[serde(default)]
    pub stop_requested: bool,
    /// When it was started (epoch ms).
    pub started_at: Millis,
    /// The only brokers replicas may move to (`destination_broker_ids`), set while the request
    /// is not sent when brokers on the drain list (other than those it removes) would otherwise
    /// be destinations; `None`: wherever the endpoint puts them. Frozen once the request is sent,
    /// so it says what the running execution may fill.
    #[serde(default)]
    pub destinations: Option<BTreeSet<i32>>,
    /// Goes into the request's `reason`, so that its task is told from any other in
    /// `user_tasks` (empty in states saved before it existed).
    #[serde(default)]
    pub tag: String,
    /// The execution request's parameters, saved with `requested_at` before it is sent: its
    /// task is the one listed with exactly these ([`find_our_task`]).
    #[serde(default)]
    pub request: Option<RequestParams>,
}

impl RunningRebalance {
    /// The next step of the flow sends the execution request: save the state with
    /// [`RunningRebalance::mark_requested`] first.
    #[must_use]
    pub fn about_to_execute(&self) -> bool {
        *self.flow.phase() == Phase::Starting && !self.flow.execution_started()
    }

    /// Records that the execution request with these parameters is about to be sent (at
    /// `now`, epoch ms).
    pub fn mark_requested(&mut self, now: Millis, request: Option<RequestParams>) {
        if self.requested_at.is_none() {
            self.requested_at = Some(now);
            self.request = request;
        }
    }

    /// Whether Cruise Control may move a replica onto broker `b` for this rebalance (its
    /// request, sent or to be sent, does not rule `b` out as a destination).
    #[must_use]
    pub fn may_fill(&self, b: i32) -> bool {
        match self.rebalance.mode {
            // add_broker moves replicas onto the added brokers only.
            Mode::AddBrokers => self.rebalance.brokers.contains(&b),
            Mode::RemoveBrokers => {
                !self.rebalance.brokers.contains(&b)
                    && self.destinations.as_ref().is_none_or(|d| d.contains(&b))
            }
            Mode::Imbalance => self.destinations.as_ref().is_none_or(|d| d.contains(&b)),
        }
    }
}

/// The one thing that moves data on our behalf.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[allow(clippy::large_enum_variant)] // One per state, persisted as JSON: no boxing needed.
pub enum Mover {
    Rebalance(RunningRebalance),
    Roll(RunningRoll),
    ReplicationFactors(RunningReplicationFactors),
}

/// A replication-factor round being run (`topic_configuration`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunningReplicationFactors {
    /// The changes, as `topic set-rf` keeps them.
    pub replicas: ReplicasState,
    pub flow: CcFlow,
    /// When the execution request was about to be sent (saved before sending it).
    pub requested_at: Option<Millis>,
    pub started_at: Millis,
    /// As [`RunningRebalance::tag`].
    #[serde(default)]
    pub tag: String,
    /// As [`RunningRebalance::request`].
    #[serde(default)]
    pub request: Option<RequestParams>,
}

/// What `operate` keeps between loops (serde; versioned).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperateState {
    pub version: u32,
    pub rebalancer: AutoRebalancer,
    pub mover: Option<Mover>,
    /// When each broker was first seen holding no replica (scale-up grace), epoch ms.
    pub empty_since: BTreeMap<i32, Millis>,
    /// Replication-factor changes that failed for good (topic: target): not tried again until
    /// the policy asks for another factor.
    #[serde(default)]
    pub rf_failed: BTreeMap<String, u16>,
    /// Per node, the hash of the desired broker configuration (`roll.brokerConfig`) a roll
    /// already went over it for: that configuration does not roll the node again (a setting a
    /// restart does not apply would otherwise roll every loop). Kept by the shell.
    #[serde(default)]
    pub rolled_config: BTreeMap<i32, String>,
    /// Movers started so far (part of each request's tag).
    #[serde(default)]
    pub started: u64,
}

impl Default for OperateState {
    fn default() -> Self {
        OperateState::new()
    }
}

/// What the shell must do after a decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// Drive the running rebalance's Cruise Control flow until it waits or ends.
    StepRebalance,
    /// Ask Cruise Control to stop the running execution (a scale-down preempts a scale-up).
    StopRebalance { task_id: Option<String> },
    /// Drive the running roll (start it if it has no run yet) one step.
    StepRoll,
    /// Drive the running replication-factor round's Cruise Control flow until it waits or ends.
    StepReplicationFactors,
}

/// An action started or ended, for logs, Events and metrics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// `rebalance-add-brokers`, `rebalance-remove-brokers`, `rebalance-imbalance`,
    /// `stop-rebalance`, `roll`, `set-rf`.
    pub kind: String,
    /// `brokers 4,5` or `cluster`.
    pub target: String,
    pub reason: String,
    pub result: RecordResult,
}

/// How an action went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordResult {
    Started,
    Succeeded,
    Failed,
}

/// The decision of one loop.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decision {
    pub acts: Vec<Act>,
    /// What waits, and for what (one sentence each).
    pub waits: Vec<String>,
    /// Other things worth a log line (a drained broker, an attach).
    pub notes: Vec<String>,
    pub records: Vec<Record>,
    /// Transitions of the auto-rebalance machine.
    pub transitions: Vec<(State, State)>,
    /// Brokers on the drain list that may be stopped now: registered, holding no replica, no
    /// reassignment in flight involves them, and nothing that runs (ours or anyone's) may move
    /// a replica onto them. Said after this decision's own starts.
    pub safe_to_stop: BTreeSet<i32>,
}

/// The kind name of a rebalance mode (metrics, Events).
#[must_use]
pub fn kind_of(mode: Mode) -> &'static str {
    match mode {
        Mode::AddBrokers => "rebalance-add-brokers",
        Mode::RemoveBrokers => "rebalance-remove-brokers",
        Mode::Imbalance => "rebalance-imbalance",
    }
}

/// The Cruise Control endpoint a mode runs.
#[must_use]
pub fn endpoint_of(mode: Mode) -> &'static str {
    match mode {
        Mode::AddBrokers => "add_broker",
        Mode::RemoveBrokers => "remove_broker",
        Mode::Imbalance => "rebalance",
    }
}

fn ids(set: &BTreeSet<i32>) -> String {
    set.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

/// `brokers 4,5` or `cluster`.
#[must_use]
pub fn target_of(r: &Rebalance) -> String {
    if r.brokers.is_empty() {
        "cluster".into()
    } else {
        format!("brokers {}", ids(&r.brokers))
    }
}

impl OperateState {
    #[must_use]
    pub fn new() -> OperateState {
        OperateState {
            version: STATE_VERSION,
            rebalancer: AutoRebalancer::new(),
            mover: None,
            empty_since: BTreeMap::new(),
            rf_failed: BTreeMap::new(),
            rolled_config: BTreeMap::new(),
            started: 0,
        }
    }

    /// A tag no other request of this state carries (`<epoch ms>-<n>`), for a new mover.
    fn next_tag(&mut self, now: Millis) -> String {
        self.started += 1;
        format!("{}-{}", now.0, self.started)
    }

    /// The running rebalance, if any.
    #[must_use]
    pub fn rebalance(&self) -> Option<&RunningRebalance> {
        match &self.mover {
            Some(Mover::Rebalance(r)) => Some(r),
            _ => None,
        }
    }

    pub fn rebalance_mut(&mut self) -> Option<&mut RunningRebalance> {
        match &mut self.mover {
            Some(Mover::Rebalance(r)) => Some(r),
            _ => None,
        }
    }

    /// The running roll, if any.
    #[must_use]
    pub fn roll(&self) -> Option<&RunningRoll> {
        match &self.mover {
            Some(Mover::Roll(r)) => Some(r),
            _ => None,
        }
    }

    pub fn roll_mut(&mut self) -> Option<&mut RunningRoll> {
        match &mut self.mover {
            Some(Mover::Roll(r)) => Some(r),
            _ => None,
        }
    }

    /// The running roll ended (`succeeded` or not, `why`): nothing moves any more.
    pub fn finish_roll(&mut self, succeeded: bool, why: &str) -> Option<Record> {
        let Some(Mover::Roll(r)) = self.mover.take() else {
            return None;
        };
        Some(Record {
            kind: "roll".into(),
            target: format!("nodes {}", ids(&r.nodes)),
            reason: why.to_string(),
            result: if succeeded {
                RecordResult::Succeeded
            } else {
                RecordResult::Failed
            },
        })
    }

    /// The next observation must include `user_tasks`: a saved execution request is in flight
    /// and its task is to be found.
    #[must_use]
    pub fn needs_user_tasks(&self) -> bool {
        self.flow().is_some_and(request_unanswered)
    }

    /// The Cruise Control flow of the running mover (rebalance or replication factors).
    #[must_use]
    pub fn flow(&self) -> Option<&CcFlow> {
        match &self.mover {
            Some(Mover::Rebalance(r)) => Some(&r.flow),
            Some(Mover::ReplicationFactors(r)) => Some(&r.flow),
            _ => None,
        }
    }

    /// Replaces the running mover's flow (after a step of the shell).
    pub fn set_flow(&mut self, flow: CcFlow) {
        match &mut self.mover {
            Some(Mover::Rebalance(r)) => r.flow = flow,
            Some(Mover::ReplicationFactors(r)) => r.flow = flow,
            _ => {}
        }
    }

    /// The next step of the running flow sends the execution request: save the state with
    /// [`OperateState::mark_requested`] first.
    #[must_use]
    pub fn about_to_execute(&self) -> bool {
        self.flow()
            .is_some_and(|f| *f.phase() == Phase::Starting && !f.execution_started())
            && self.requested_at().is_none()
    }

    /// When the running flow's execution request was about to be sent.
    #[must_use]
    pub fn requested_at(&self) -> Option<Millis> {
        match &self.mover {
            Some(Mover::Rebalance(r)) => r.requested_at,
            Some(Mover::ReplicationFactors(r)) => r.requested_at,
            _ => None,
        }
    }

    /// Records that the execution request with these parameters (the query as sent, `None`
    /// when the operation cannot say) is about to be sent (at `now`, epoch ms).
    pub fn mark_requested(&mut self, now: Millis, request: Option<RequestParams>) {
        match &mut self.mover {
            Some(Mover::Rebalance(r)) => r.mark_requested(now, request),
            Some(Mover::ReplicationFactors(r)) if r.requested_at.is_none() => {
                r.requested_at = Some(now);
                r.request = request;
            }
            _ => {}
        }
    }

    /// The running mover's tag (for the request's `reason`; empty when none or saved without).
    #[must_use]
    pub fn request_tag(&self) -> &str {
        match &self.mover {
            Some(Mover::Rebalance(r)) => &r.tag,
            Some(Mover::ReplicationFactors(r)) => &r.tag,
            _ => "",
        }
    }

    /// The running replication-factor round, if any.
    #[must_use]
    pub fn replication_factors(&self) -> Option<&RunningReplicationFactors> {
        match &self.mover {
            Some(Mover::ReplicationFactors(r)) => Some(r),
            _ => None,
        }
    }

    /// What moves, for metrics (`rebalance`, `none`).
    #[must_use]
    pub fn mover_name(&self) -> &'static str {
        match &self.mover {
            Some(Mover::Rebalance(_)) => "rebalance",
            Some(Mover::Roll(_)) => "roll",
            Some(Mover::ReplicationFactors(_)) => "set-rf",
            None => "none",
        }
    }

    /// Feeds the machine one event, noting its transition.
    fn handle(&mut self, e: Event, now: Millis, d: &mut Decision) -> FsmAction {
        let before = self.rebalancer.state();
        let a = self.rebalancer.handle(e, now);
        let after = self.rebalancer.state();
        if before != after {
            d.transitions.push((before, after));
        }
        a
    }

    /// Ends the running rebalance (`succeeded` or not) and starts what the machine starts next.
    fn finish(
        &mut self,
        succeeded: bool,
        why: &str,
        now: Millis,
        policy: &OperatePolicy,
        flow: &FlowConfig,
        d: &mut Decision,
    ) {
        let Some(Mover::Rebalance(r)) = self.mover.take() else {
            return;
        };
        if r.rebalance.mode == Mode::AddBrokers {
            // Not re-requested before another grace period (e.g. a proposal that moved nothing).
            for b in &r.rebalance.brokers {
                self.empty_since.insert(*b, now);
            }
        }
        d.records.push(Record {
            kind: kind_of(r.rebalance.mode).into(),
            target: target_of(&r.rebalance),
            reason: why.to_string(),
            result: if succeeded {
                RecordResult::Succeeded
            } else {
                RecordResult::Failed
            },
        });
        let a = self.handle(Event::RebalanceFinished { succeeded }, now, d);
        self.apply(a, now, policy, flow, d, "");
    }

    /// Applies what the machine asked for.
    fn apply(
        &mut self,
        a: FsmAction,
        now: Millis,
        policy: &OperatePolicy,
        flow: &FlowConfig,
        d: &mut Decision,
        reason: &str,
    ) {
        match a {
            FsmAction::Nothing => {}
            FsmAction::Start(r) if !policy.modes.contains(&r.mode) => {
                // Queued under an older policy: a mode absent from the policy never starts.
                d.notes.push(format!(
                    "not starting the {} rebalance of {}: {} is not in the policy's autoRebalance",
                    r.mode.name(),
                    target_of(&r),
                    r.mode.name()
                ));
                let a = self.handle(Event::RebalanceFinished { succeeded: false }, now, d);
                self.apply(a, now, policy, flow, d, reason);
            }
            FsmAction::Start(r) => {
                let why = if reason.is_empty() {
                    match r.mode {
                        Mode::RemoveBrokers => {
                            format!("brokers {} are to be drained", ids(&r.brokers))
                        }
                        Mode::AddBrokers => format!("brokers {} hold no replica", ids(&r.brokers)),
                        Mode::Imbalance => format!(
                            "Cruise Control reports {} fixable goal violation(s)",
                            r.anomalies.len()
                        ),
                    }
                } else {
                    reason.to_string()
                };
                d.records.push(Record {
                    kind: kind_of(r.mode).into(),
                    target: target_of(&r),
                    reason: why,
                    result: RecordResult::Started,
                });
                let tag = self.next_tag(now);
                self.mover = Some(Mover::Rebalance(RunningRebalance {
                    rebalance: r,
                    flow: CcFlow::new(flow.clone()),
                    requested_at: None,
                    stop_requested: false,
                    started_at: now,
                    destinations: None,
                    tag,
                    request: None,
                }));
                d.acts.push(Act::StepRebalance);
            }
            FsmAction::StopRunning => {
                let Some(Mover::Rebalance(r)) = &mut self.mover else {
                    return;
                };
                if r.flow.execution_requested() {
                    r.stop_requested = true;
                    d.records.push(Record {
                        kind: "stop-rebalance".into(),
                        target: target_of(&r.rebalance),
                        reason: "a scale-down preempts the running scale-up".into(),
                        result: RecordResult::Started,
                    });
                    d.acts.push(Act::StopRebalance {
                        task_id: r.flow.task_id().map(str::to_string),
                    });
                } else {
                    // Nothing was executed yet: drop the flow, the machine queues it again.
                    self.finish(
                        false,
                        "preempted by a scale-down before anything was executed",
                        now,
                        policy,
                        flow,
                        d,
                    );
                }
            }
        }
    }
}

/// Decides one loop: updates `state` and says what the shell must do.
pub fn decide(
    state: &mut OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    flow: &FlowConfig,
) -> Decision {
    let mut d = Decision::default();
    let now = obs.now;

    // Broker facts: what is to be drained, what is new and empty. A drain set that would leave
    // too few brokers (the policy's, or Strimzi's scale-down added to it) drains nothing.
    let mut to_drain = BTreeSet::new();
    let mut scale_up = BTreeSet::new();
    let refused = obs
        .kafka
        .as_ref()
        .ok()
        .and_then(|k| drain_refused(policy, k));
    if let Some(why) = &refused {
        d.waits.push(why.clone());
    }
    match &obs.kafka {
        Ok(k) => {
            state
                .empty_since
                .retain(|b, _| k.brokers.get(b) == Some(&0) && !policy.drain.contains(b));
            for (&b, &n) in &k.brokers {
                if policy.drain.contains(&b) {
                    if n > 0 && refused.is_none() {
                        to_drain.insert(b);
                    }
                } else if n == 0 {
                    let since = *state.empty_since.entry(b).or_insert(now);
                    if now.since(since) >= policy.scale_up_grace_ms {
                        if let Some(why) = k.held.get(&b) {
                            d.waits
                                .push(format!("scale-up of broker {b} waits: it is held ({why})"));
                        } else {
                            scale_up.insert(b);
                        }
                    }
                }
            }
        }
        Err(e) => d.waits.push(format!(
            "scale-up and scale-down detection waits: Kafka metadata cannot be read ({e})"
        )),
    }
    let anomalies = obs.cc.as_ref().ok().map(|c| c.anomalies.clone());

    // 1. The running rebalance, if any: resolve, follow, or finish it.
    if state.mover.is_some() {
        running(state, obs, policy, flow, &mut d);
    }
    // Brokers the running rebalance (maybe just started) covers are not requested again.
    if let Some(r) = state.rebalance() {
        for b in &r.rebalance.brokers {
            if r.rebalance.mode == Mode::RemoveBrokers {
                to_drain.remove(b);
            }
            if r.rebalance.mode == Mode::AddBrokers {
                scale_up.remove(b);
            }
        }
    }

    // 2. While a rebalance of ours runs: a scale-down preempts a scale-up; the rest queues.
    if state.rebalance().is_some() {
        let wait_on = state
            .rebalance()
            .map(|r| {
                format!(
                    "the {} rebalance of {} runs",
                    r.rebalance.mode.name(),
                    target_of(&r.rebalance)
                )
            })
            .unwrap_or_default();
        feed(
            state, &to_drain, &scale_up, anomalies, policy, flow, now, &mut d,
        );
        if state.mover.is_some() {
            let mut wishes = queued_wishes(state);
            if let Some(w) = &obs.roll {
                wishes.push(format!("roll of nodes {}", ids(&w.nodes)));
            }
            for w in wishes {
                d.waits.push(format!("{w} waits: {wait_on}"));
            }
        }
    } else if state.roll().is_some() || state.replication_factors().is_some() {
        // 2'. A roll or a replication-factor round runs: nothing else starts until it ends.
        let wait_on = match (state.roll(), state.replication_factors()) {
            (Some(r), _) => format!("the roll of nodes {} runs", ids(&r.nodes)),
            (_, Some(r)) => format!(
                "the replication-factor round of {} runs",
                topics_of(&r.replicas)
            ),
            _ => String::new(),
        };
        let mut wishes = queued_wishes(state);
        if !to_drain.is_empty() {
            wishes.push(format!("scale-down of brokers {}", ids(&to_drain)));
        }
        if !scale_up.is_empty() {
            wishes.push(format!("scale-up of brokers {}", ids(&scale_up)));
        }
        for w in wishes {
            d.waits.push(format!("{w} waits: {wait_on}"));
        }
        if let Some(r) = state.roll() {
            // Someone else's execution or reassignments started meanwhile: no node restarts
            // while they move data; the roll resumes from its saved run once they are over.
            let why = blockers(obs);
            if why.is_empty() {
                d.acts.push(Act::StepRoll);
            } else {
                d.waits.push(format!(
                    "the roll of nodes {} waits: {}",
                    ids(&r.nodes),
                    why.join("; ")
                ));
            }
        }
    } else {
        // 3. Nothing of ours moves: may anything start?
        let blockers = blockers(obs);
        let rf = rf_wanted(state, obs, policy);
        let held = obs
            .kafka
            .as_ref()
            .ok()
            .filter(|k| !k.held.is_empty())
            .map(|k| {
                k.held
                    .iter()
                    .map(|(n, why)| format!("{n} ({why})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
        let scale_wish = (!to_drain.is_empty() && policy.modes.contains(&Mode::RemoveBrokers))
            || (!scale_up.is_empty() && policy.modes.contains(&Mode::AddBrokers))
            || state
                .rebalancer
                .queued()
                .keys()
                .any(|m| *m != Mode::Imbalance);
        if blockers.is_empty() {
            match &obs.roll {
                // (4) Planned rolls come after scale-down and scale-up, before imbalance.
                Some(w) if !scale_wish => {
                    d.records.push(Record {
                        kind: "roll".into(),
                        target: format!("nodes {}", ids(&w.nodes)),
                        reason: w.reason.clone(),
                        result: RecordResult::Started,
                    });
                    state.mover = Some(Mover::Roll(RunningRoll {
                        nodes: w.nodes.clone(),
                        reason: w.reason.clone(),
                        started_at: now,
                        run: None,
                    }));
                    d.acts.push(Act::StepRoll);
                }
                // (5) Replication factors, before imbalance.
                // A replication-factor change cannot be told to keep new replicas off a held
                // node (topic_configuration takes no destination): none starts while one is.
                None if !scale_wish && !rf.is_empty() && held.is_none() => {
                    if let Ok(k) = &obs.kafka {
                        let replicas = ReplicasState::plan(None, &rf, &k.facts());
                        d.records.push(Record {
                            kind: "set-rf".into(),
                            target: topics_of(&replicas),
                            reason: format!(
                                "the policy asks for {}",
                                rf.iter()
                                    .map(|(t, f)| format!("{t}: {f}"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                            result: RecordResult::Started,
                        });
                        let tag = state.next_tag(now);
                        state.mover = Some(Mover::ReplicationFactors(RunningReplicationFactors {
                            replicas,
                            flow: CcFlow::new(flow.clone()),
                            requested_at: None,
                            started_at: now,
                            tag,
                            request: None,
                        }));
                        d.acts.push(Act::StepReplicationFactors);
                    }
                }
                _ => {
                    feed(
                        state, &to_drain, &scale_up, anomalies, policy, flow, now, &mut d,
                    );
                    if let (false, Some(h)) = (rf.is_empty(), &held) {
                        d.waits.push(format!(
                            "replication factors of topics {} wait: node(s) {h} are held, and a replication-factor change cannot keep new replicas off them",
                            rf.keys().cloned().collect::<Vec<_>>().join(",")
                        ));
                    } else if !rf.is_empty() {
                        d.waits.push(format!(
                            "replication factors of topics {} wait: scale-down, scale-up and rolls go first",
                            rf.keys().cloned().collect::<Vec<_>>().join(",")
                        ));
                    }
                    if let Some(w) = &obs.roll {
                        d.waits.push(format!(
                            "roll of nodes {} waits: scale-down and scale-up go first",
                            ids(&w.nodes)
                        ));
                    }
                }
            }
        } else {
            let why = blockers.join("; ");
            let mut wishes: Vec<String> = Vec::new();
            if !to_drain.is_empty() {
                wishes.push(format!("scale-down of brokers {}", ids(&to_drain)));
            }
            if !scale_up.is_empty() {
                wishes.push(format!("scale-up of brokers {}", ids(&scale_up)));
            }
            wishes.extend(queued_wishes(state));
            if let Some(w) = &obs.roll {
                wishes.push(format!("roll of nodes {}", ids(&w.nodes)));
            }
            if !rf.is_empty() {
                wishes.push(format!(
                    "replication factors of topics {}",
                    rf.keys().cloned().collect::<Vec<_>>().join(",")
                ));
            }
            if wishes.is_empty() {
                d.notes.push(format!("nothing to do; {why}"));
            }
            for w in wishes {
                d.waits.push(format!("{w} waits: {why}"));
            }
        }
    }
    hold_unsent(state, obs, policy, refused.is_none(), flow, &mut d);
    if refused.is_none() {
        safe_to_stop(state, obs, policy, &mut d);
    }
    d
}

/// Why draining the brokers on the drain list is refused (`None`: it may go on): it would leave
/// no broker, or fewer brokers than a topic's replication factor (or a factor the policy asks
/// for). Checked on every loop against the merged drain set, so a drain Kubernetes adds
/// (Strimzi's scale-down of a node pool) gets the checks the policy file gets.
fn drain_refused(policy: &OperatePolicy, k: &KafkaView) -> Option<String> {
    let drained: BTreeSet<i32> = k
        .brokers
        .keys()
        .copied()
        .filter(|b| policy.drain.contains(b))
        .collect();
    if drained.is_empty() {
        return None;
    }
    let left = k.brokers.len() - drained.len();
    let refuse = |why: String| {
        Some(format!(
            "draining brokers {} is refused: {why}; nothing on the drain list is drained or said safe to stop until the drain list changes",
            ids(&drained)
        ))
    };
    if left == 0 {
        return refuse("it would leave no broker for their replicas".into());
    }
    let widest = k
        .topics
        .iter()
        .map(|(t, f)| (usize::from(f.max_rf), t.as_str(), "has"))
        .chain(
            policy
                .replication_factors
                .iter()
                .map(|(t, f)| (usize::from(*f), t.as_str(), "is to get")),
        )
        .max_by_key(|(rf, _, _)| *rf);
    if let Some((rf, topic, verb)) = widest
        && rf > left
    {
        return refuse(format!(
            "it would leave {left} broker(s), fewer than the {rf} replicas each partition of topic {topic} {verb}"
        ));
    }
    None
}

/// Says which drained brokers may be stopped (after this decision's own starts): registered,
/// holding no replica, and nothing may put one there now.
fn safe_to_stop(state: &OperateState, obs: &Observation, policy: &OperatePolicy, d: &mut Decision) {
    let Ok(k) = &obs.kafka else { return };
    for (&b, &n) in &k.brokers {
        if !policy.drain.contains(&b) || n > 0 {
            continue;
        }
        match may_fill(state, obs, k, b) {
            Some(why) => d.notes.push(format!(
                "broker {b} holds no replica, but {why}: not safe to stop yet"
            )),
            None => {
                d.notes.push(format!(
                    "broker {b} is drained (holds no replica): safe to stop"
                ));
                d.safe_to_stop.insert(b);
            }
        }
    }
}

/// Why a replica may be on its way to broker `b`, or be put there by what runs (`None`:
/// nothing may): a reassignment in flight involves it (the replica counts and the reassignments
/// are separate reads, so a count of 0 does not rule out a replica being added); a rebalance of
/// ours (queued or running) whose request does not rule it out as a destination; a
/// replication-factor round of ours (`topic_configuration` cannot be told to avoid a broker);
/// an execution that is not ours; or Cruise Control cannot be read.
fn may_fill(state: &OperateState, obs: &Observation, k: &KafkaView, b: i32) -> Option<String> {
    if let Some(r) = k
        .reassignments
        .iter()
        .find(|r| r.adding.contains(&b) || r.replicas.contains(&b) || r.removing.contains(&b))
    {
        let what = if r.adding.contains(&b) {
            "adds a replica to it"
        } else {
            "involves it"
        };
        return Some(format!(
            "a partition reassignment in flight ({}-{}) {what}",
            r.topic, r.partition
        ));
    }
    if adding(state, b) {
        return Some("an add-brokers rebalance for it is queued or runs".into());
    }
    let ours = state.flow().and_then(CcFlow::task_id);
    match &state.mover {
        Some(Mover::Rebalance(r)) if r.may_fill(b) => {
            return Some(format!(
                "the {} rebalance of {} runs and its request does not keep replicas off it",
                r.rebalance.mode.name(),
                target_of(&r.rebalance)
            ));
        }
        Some(Mover::ReplicationFactors(r)) => {
            return Some(format!(
                "the replication-factor round of {} runs (Cruise Control's topic_configuration cannot be told to keep new replicas off a broker)",
                topics_of(&r.replicas)
            ));
        }
        _ => {}
    }
    match &obs.cc {
        Err(e) => Some(format!(
            "Cruise Control cannot be read ({e}): an execution may be moving replicas onto it"
        )),
        Ok(cc)
            if !cc.executor.is_idle() && (ours.is_none() || cc.executor.running_task() != ours) =>
        {
            Some(format!(
                "Cruise Control is executing ({}), which may move replicas onto it",
                cc.executor.describe()
            ))
        }
        Ok(_) => None,
    }
}

/// A rebalance or replication-factor round whose execution request is not sent yet (just
/// started by the machine after another ended, or queued before): it starts only when nothing
/// blocks it (anyone's execution, reassignments others started, the Strimzi operator guard, an
/// unreadable platform), else it waits; and a rebalance runs only for brokers still wanted
/// (still on the drain list and holding replicas; registered and off the drain list for a
/// scale-up), so a broker taken off the drain list is not drained and a broker put on it is not
/// filled. Requests queued in the machine are re-checked here when they start.
fn hold_unsent(
    state: &mut OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    drain_ok: bool,
    flow: &FlowConfig,
    d: &mut Decision,
) {
    // Each pass may end a rebalance no longer wanted, and the machine may start the next.
    for _ in 0..4 {
        let step = match &state.mover {
            Some(Mover::Rebalance(_)) => Act::StepRebalance,
            Some(Mover::ReplicationFactors(_)) => Act::StepReplicationFactors,
            _ => return,
        };
        let Some(f) = state.flow() else { return };
        if f.execution_requested() || f.outcome().is_some() || !d.acts.contains(&step) {
            return;
        }
        let why = blockers(obs);
        if !why.is_empty() {
            d.acts.retain(|a| *a != step);
            let what = match (state.rebalance(), state.replication_factors()) {
                (Some(r), _) => format!(
                    "the {} rebalance of {}",
                    r.rebalance.mode.name(),
                    target_of(&r.rebalance)
                ),
                (_, Some(r)) => {
                    format!("the replication-factor round of {}", topics_of(&r.replicas))
                }
                _ => return,
            };
            d.waits.push(format!("{what} waits: {}", why.join("; ")));
            return;
        }
        let (Some(r), Ok(k)) = (state.rebalance_mut(), &obs.kafka) else {
            return;
        };
        let mode = r.rebalance.mode;
        let wanted: BTreeSet<i32> = r
            .rebalance
            .brokers
            .iter()
            .copied()
            .filter(|b| match mode {
                Mode::RemoveBrokers => {
                    drain_ok && policy.drain.contains(b) && k.brokers.get(b).is_some_and(|n| *n > 0)
                }
                Mode::AddBrokers => {
                    k.brokers.contains_key(b)
                        && !policy.drain.contains(b)
                        && !k.held.contains_key(b)
                }
                Mode::Imbalance => true,
            })
            .collect();
        if wanted == r.rebalance.brokers {
            // Brokers on the drain list are never destinations of a request sent now.
            match destinations(&r.rebalance, policy, k) {
                Some(to) if to.is_empty() => {
                    d.acts.retain(|a| *a != step);
                    state.finish(
                        false,
                        "not run: every broker is on the drain list or held, none may receive replicas",
                        obs.now,
                        policy,
                        flow,
                        d,
                    );
                    continue;
                }
                to => {
                    if to != r.destinations {
                        // The proposal is computed again with the destinations it is sent with.
                        r.destinations = to;
                        r.flow = CcFlow::new(flow.clone());
                        r.requested_at = None;
                        r.request = None;
                    }
                }
            }
            return;
        }
        let dropped: BTreeSet<i32> = r.rebalance.brokers.difference(&wanted).copied().collect();
        let why = match mode {
            Mode::RemoveBrokers => format!(
                "brokers {} are no longer to be drained (off the drain list or empty)",
                ids(&dropped)
            ),
            _ => format!(
                "brokers {} are no longer to be filled (on the drain list, held or gone)",
                ids(&dropped)
            ),
        };
        if !wanted.is_empty() {
            d.notes.push(format!(
                "the {} rebalance runs for brokers {} only: {why}",
                mode.name(),
                ids(&wanted)
            ));
            r.rebalance.brokers = wanted;
            r.flow = CcFlow::new(flow.clone());
            r.requested_at = None;
            r.request = None;
            // Checked again (destinations) on the next pass.
            continue;
        }
        d.acts.retain(|a| *a != step);
        state.finish(false, &format!("not run: {why}"), obs.now, policy, flow, d);
    }
}

/// The only brokers a rebalance request sent now may move replicas to: every registered broker
/// but those on the drain list, the held ones and those it removes, when the drain list names a
/// broker it does not remove or a node is held (`None`: no restriction needed; add_broker fills
/// only the brokers it adds, and a held broker is never added). A broker on the drain list (or
/// held) counts whether or not the observation lists it: one missing now (stopped, killed,
/// fenced) may be back by the time Cruise Control computes the proposal, and an unrestricted
/// request would then let it fill that broker.
fn destinations(r: &Rebalance, policy: &OperatePolicy, k: &KafkaView) -> Option<BTreeSet<i32>> {
    if r.mode == Mode::AddBrokers
        || (policy.drain.iter().all(|b| r.brokers.contains(b)) && k.held.is_empty())
    {
        return None;
    }
    Some(
        k.brokers
            .keys()
            .copied()
            .filter(|b| {
                !policy.drain.contains(b) && !r.brokers.contains(b) && !k.held.contains_key(b)
            })
            .collect(),
    )
}

/// Whether an add-brokers rebalance for broker `b` is queued or runs (it may fill `b`).
fn adding(state: &OperateState, b: i32) -> bool {
    state
        .rebalancer
        .queued()
        .get(&Mode::AddBrokers)
        .is_some_and(|q| q.contains(&b))
        || state.rebalance().is_some_and(|r| {
            r.rebalance.mode == Mode::AddBrokers && r.rebalance.brokers.contains(&b)
        })
}

/// The machine's queued modes, as wishes.
fn queued_wishes(state: &OperateState) -> Vec<String> {
    state
        .rebalancer
        .queued()
        .into_iter()
        .map(|(mode, brokers)| {
            if brokers.is_empty() {
                format!("queued {} rebalance", mode.name())
            } else {
                format!(
                    "queued {} rebalance of brokers {}",
                    mode.name(),
                    ids(&brokers)
                )
            }
        })
        .collect()
}

/// Why nothing may start now (empty: it may).
fn blockers(obs: &Observation) -> Vec<String> {
    // Cruise Control's execution and the reassignments nobody's execution owns: the rule every
    // mover of ours shares (`kafkaops roll` asks the same, see `engine::movers`).
    let cc = CruiseControlView::of(obs.cc.as_ref().map(|c| &c.executor).map_err(String::as_str));
    let mut out = match &obs.kafka {
        Err(e) => {
            let mut out = movers::other_movers(cc, &[], &BTreeMap::new()).blockers();
            out.push(format!("Kafka cannot be read ({e})"));
            out
        }
        Ok(k) => movers::other_movers(cc, &k.reassignments, &BTreeMap::new()).blockers(),
    };
    if let Some(e) = &obs.platform_error {
        out.push(format!("the platform cannot be read ({e})"));
    }
    if let Some(r) = &obs.other_roll {
        out.push(format!("another roll is in progress ({r})"));
    }
    if let Some(view) = &obs.operator
        && let operator_guard::Decision::Refuse(e) =
            operator_guard::decide(view, operator_guard::Action::Execute("rebalance"), false)
    {
        out.push(e.reasons.join("; "));
    }
    out
}

/// Feeds the machine its events in precedence order (only modes the policy has).
#[allow(clippy::too_many_arguments)]
fn feed(
    state: &mut OperateState,
    to_drain: &BTreeSet<i32>,
    scale_up: &BTreeSet<i32>,
    anomalies: Option<Vec<AnomalyRecord>>,
    policy: &OperatePolicy,
    flow: &FlowConfig,
    now: Millis,
    d: &mut Decision,
) {
    let mut events = Vec::new();
    if !to_drain.is_empty() {
        if policy.modes.contains(&Mode::RemoveBrokers) {
            events.push(Event::ScaleDownRequested(to_drain.clone()));
        } else {
            d.waits.push(format!(
                "brokers {} still hold replicas: remove-brokers is not in the policy's autoRebalance",
                ids(to_drain)
            ));
        }
    }
    if !scale_up.is_empty() {
        if policy.modes.contains(&Mode::AddBrokers) {
            events.push(Event::ScaleUpRequested(scale_up.clone()));
        } else {
            d.notes.push(format!(
                "brokers {} hold no replica: add-brokers is not in the policy's autoRebalance",
                ids(scale_up)
            ));
        }
    }
    if let Some(a) = anomalies
        && policy.modes.contains(&Mode::Imbalance)
    {
        events.push(Event::AnomaliesObserved(a));
    }
    events.push(Event::Tick);
    for e in events {
        let a = state.handle(e, now, d);
        state.apply(a, now, policy, flow, d, "");
    }
}

/// What became of the running mover's Cruise Control flow.
enum FlowState {
    /// Drive it (new, resumed, attached or followed again).
    Step,
    /// It cannot go on now (why).
    Wait(String),
    /// It ended.
    Ended(Outcome),
    /// A saved execution request never reached Cruise Control.
    NeverSent,
}

/// The execution request of `flow` may have reached Cruise Control without its answer reaching
/// us: the flow was restored with the request in flight, or the request failed or timed out
/// (it is never retried; Cruise Control may have started the execution). Either way its task is
/// looked for in `user_tasks` before anything else may start.
fn request_unanswered(flow: &CcFlow) -> bool {
    (*flow.phase() == Phase::Starting && flow.task_id().is_none())
        || matches!(
            flow.outcome(),
            Some(Outcome::Error {
                stage: Stage::Start,
                task_id: None,
                ..
            })
        )
}

/// The running flow after a restart, an outage or its end; attaches a flow whose execution
/// request got no answer (restored in flight, failed or timed out) to the task Cruise Control
/// lists for it.
#[allow(clippy::too_many_arguments)]
fn resolve_flow(
    flow: &mut CcFlow,
    requested_at: Option<Millis>,
    started_at: Millis,
    endpoint: &str,
    sent: Option<&RequestParams>,
    brokers: &BTreeSet<i32>,
    obs: &Observation,
    config: &FlowConfig,
    d: &mut Decision,
) -> FlowState {
    let unanswered = request_unanswered(flow);
    if !unanswered && let Some(outcome) = flow.outcome().cloned() {
        let keeps_running = matches!(
            outcome,
            Outcome::TimedOut { .. }
                | Outcome::Error {
                    stage: Stage::Follow,
                    ..
                }
        );
        if keeps_running && flow.follow_again() {
            // Following failed (Cruise Control did not answer) while it executes: follow again.
            d.notes.push(format!(
                "following task {} again",
                flow.task_id().unwrap_or("-")
            ));
            return FlowState::Step;
        }
        return FlowState::Ended(outcome);
    }
    let cc = match &obs.cc {
        Ok(cc) => cc,
        Err(e) => return FlowState::Wait(format!("Cruise Control cannot be reached ({e})")),
    };
    if unanswered {
        // The execution request may have reached Cruise Control (restored in flight, or it
        // failed or timed out): find its task, never send it again.
        let Some(tasks) = &cc.user_tasks else {
            return FlowState::Wait("Cruise Control's user tasks were not read".into());
        };
        let since = requested_at.unwrap_or(started_at);
        if let Some(t) = find_our_task(tasks, endpoint, sent, brokers, since) {
            d.notes.push(format!(
                "attaching to Cruise Control task {} ({endpoint}, {:?}) whose execution request got no answer",
                t.user_task_id, t.status
            ));
            *flow = CcFlow::attach(config.clone(), t.user_task_id.clone(), obs.now);
            return FlowState::Step;
        }
        if !cc.executor.is_idle() {
            return FlowState::Wait(format!(
                "Cruise Control is executing ({}), and no task of ours is listed",
                cc.executor.describe()
            ));
        }
        return FlowState::NeverSent;
    }
    FlowState::Step
}

/// The running rebalance or replication-factor round: attach after a restart, follow, or
/// finish.
fn running(
    state: &mut OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    flow: &FlowConfig,
    d: &mut Decision,
) {
    let now = obs.now;
    match &mut state.mover {
        Some(Mover::Rebalance(r)) => {
            let mode = r.rebalance.mode;
            let brokers = r.rebalance.brokers.clone();
            match resolve_flow(
                &mut r.flow,
                r.requested_at,
                r.started_at,
                endpoint_of(mode),
                r.request.as_ref(),
                &brokers,
                obs,
                flow,
                d,
            ) {
                FlowState::Step => d.acts.push(Act::StepRebalance),
                FlowState::Wait(why) => d.waits.push(format!(
                    "the {} rebalance of {} waits: {why}",
                    mode.name(),
                    target_of(&r.rebalance)
                )),
                FlowState::Ended(outcome) => {
                    let succeeded =
                        matches!(outcome, Outcome::Completed { .. } | Outcome::NothingToDo);
                    state.finish(succeeded, &describe_outcome(&outcome), now, policy, flow, d);
                }
                FlowState::NeverSent => state.finish(
                    false,
                    "the execution request never reached Cruise Control (no task of ours is listed)",
                    now,
                    policy,
                    flow,
                    d,
                ),
            }
        }
        Some(Mover::ReplicationFactors(r)) => {
            let topics = topics_of(&r.replicas);
            let st = resolve_flow(
                &mut r.flow,
                r.requested_at,
                r.started_at,
                "topic_configuration",
                r.request.as_ref(),
                &BTreeSet::new(),
                obs,
                flow,
                d,
            );
            let end = match st {
                FlowState::Step => {
                    d.acts.push(Act::StepReplicationFactors);
                    return;
                }
                FlowState::Wait(why) => {
                    d.waits
                        .push(format!("the replication factors of {topics} wait: {why}"));
                    return;
                }
                FlowState::Ended(o) => (round_end(&o), describe_outcome(&o)),
                FlowState::NeverSent => (
                    None,
                    "the execution request never reached Cruise Control (no task of ours is listed)"
                        .to_string(),
                ),
            };
            let Ok(k) = &obs.kafka else {
                d.waits.push(format!(
                    "the end of the replication-factor round of {topics} waits: Kafka cannot be read"
                ));
                return;
            };
            if let (Some(e), _) = &end {
                r.replicas.handle_round(e, &k.facts());
            } else {
                r.replicas.observe(&k.facts());
            }
            let mut failed = Vec::new();
            for (t, c) in &r.replicas.changes {
                if c.state == ChangeState::Failed {
                    state_failed(&mut failed, t, c.target);
                }
            }
            let succeeded = !r.replicas.unfinished() && !r.replicas.any_failed();
            d.records.push(Record {
                kind: "set-rf".into(),
                target: topics,
                reason: end.1,
                result: if succeeded {
                    RecordResult::Succeeded
                } else {
                    RecordResult::Failed
                },
            });
            state.mover = None;
            state.rf_failed.extend(failed);
        }
        _ => {}
    }
}

fn state_failed(out: &mut Vec<(String, u16)>, topic: &str, target: u16) {
    out.push((topic.to_string(), target));
}

/// `topics a, b`.
fn topics_of(r: &ReplicasState) -> String {
    format!(
        "topics {}",
        r.changes.keys().cloned().collect::<Vec<_>>().join(",")
    )
}

/// The policy's factors not in force (topics that exist, not at their target, not failed at
/// that target before).
fn rf_wanted(
    state: &OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
) -> BTreeMap<String, u16> {
    let Ok(k) = &obs.kafka else {
        return BTreeMap::new();
    };
    policy
        .replication_factors
        .iter()
        .filter(|(t, target)| {
            k.topics.get(*t).is_some_and(|f| !f.is_at(**target))
                && state.rf_failed.get(*t) != Some(*target)
        })
        .map(|(t, f)| (t.clone(), *f))
        .collect()
}

/// One sentence about how a flow ended.
#[must_use]
pub fn describe_outcome(o: &Outcome) -> String {
    let task = |t: &Option<String>| {
        t.as_deref()
            .map(|t| format!(" (task {t})"))
            .unwrap_or_default()
    };
    match o {
        Outcome::Completed { task_id } => format!("the execution completed{}", task(task_id)),
        Outcome::NothingToDo => "Cruise Control's proposal moves nothing".into(),
        Outcome::Failed { task_id } => {
            format!(
                "the execution ended with an error or was stopped{}",
                task(task_id)
            )
        }
        Outcome::TaskLost { task_id } => format!("Cruise Control forgot task {task_id}"),
        Outcome::Busy { running } => format!("another execution runs: {running}"),
        Outcome::NotReady { reason } => format!("Cruise Control is not ready: {reason}"),
        Outcome::Rejected { reason } => format!("refused: {reason}"),
        Outcome::Error { stage, failure, .. } => format!("{stage:?} failed: {}", failure.message),
        other => format!("{other:?}"),
    }
}

/// The task status a [`UserTask`] reports, for messages.
#[must_use]
pub fn status_name(s: &TaskStatus) -> String {
    format!("{s:?}")
}
