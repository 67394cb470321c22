//! An independent ground-truth world for judging a roll (test-only).
//!
//! `src/engine/roll/sim/` checks a roll on a cluster whose snapshot is its
//! truth (what the roll sees is what happens) and restarts nodes almost
//! instantly, so it cannot catch a roll that is wrong about the cluster. This world knows what really happens and when, in
//! simulated milliseconds:
//!
//! - every node runs a process with a lifecycle: a restart command (which may
//!   return early, `kill -TERM`-style) starts a controlled shutdown that takes
//!   time (broker state 6, still alive and still in its ISRs), then the process
//!   is down, starting, optionally in log recovery, serving, and back in its
//!   ISRs / caught up with the quorum only after a catch-up delay;
//! - the true ISR of a partition is derived from ground truth (a replica is in
//!   it only while its process is alive and caught up, an adding replica only
//!   once it has synced, a removing replica until the reassignment completes);
//! - the ISR an observer SEES can lag (a crashed replica stays listed for a
//!   while) and can come from a broker whose view is older (stale metadata);
//!   [`MetadataLog`] models that lag at the protocol level (the committed ISR
//!   per metadata offset, how far each broker applied it, how far the quorum
//!   saw it fetch) to judge which brokers' metadata the adapter may read;
//! - controllers are voters or KIP-853 observers; `LastCaughtUpTimestamp`s are
//!   in the leader's clock and stop advancing when a controller stops, so a
//!   stopped controller keeps looking caught up for the fetch timeout; a quorum
//!   leader is elected only by a real majority of running voters;
//! - `min.insync.replicas` is enforced by the partition leader's broker-level
//!   value unless the topic overrides it; the observer may fail to read a
//!   broker's value;
//! - a crashed broker stays registered unfenced for a while (`fence_lag_ms`,
//!   Kafka's session timeout) and listed in its ISRs (`crash_isr_lag_ms`);
//!   someone else may stop a node for maintenance (a controlled shutdown the
//!   roll did not ask for);
//! - the quorum leader's clock may step back; Kafka keeps the highest
//!   `LastCaughtUpTimestamp` it recorded, so timestamps can lie in the leader's
//!   "future"; the leader's voter set may still hold voters whose controller
//!   role was removed (scale-down before `RemoveRaftVoter`): they vote no more,
//!   but a majority is still counted over them;
//! - each node runs a configuration (value, read-only, sensitive per key) and
//!   has a configuration file: a process start runs with the file, a
//!   reconfiguration changes dynamic keys only.
//!
//! The CHECKER (see [`World::violations`]) judges ground truth at every
//! simulated instant, never the engine's rules:
//! - (a) no partition that was available (leader alive, true ISR >= the
//!   enforced min ISR) drops below its min ISR because of processes the roll
//!   stopped; and the roll never stops a process in a true ISR unless the
//!   partition keeps its min ISR without it and without every other process
//!   the roll stopped that is not back yet, now and once its reassignment
//!   completes;
//! - (b) the quorum never loses its majority of running, caught-up voters
//!   because of the roll, and the roll never stops a running voter unless the
//!   other caught-up voters (minus those it stopped that are not back) are a
//!   majority;
//! - (c) no node outside the selection restarts unless `include_unhealthy`;
//!   ids that are not nodes never restart;
//! - (d) no node restarts twice in one roll unless it failed in between;
//! - (e) no node in log recovery restarts;
//! - (f) a node without restart reasons restarts only if it is truly unhealthy
//!   (not running, not ready, or not answering) or runs a desired setting that
//!   only a restart can apply;
//! - (g) a roll that ends `Done` leaves every selected node running its
//!   desired settings, except sensitive ones, which the summary must name;
//! - (h) one restart at a time across rolls: no roll orders a restart while a node an earlier
//!   batch restarted (of this roll or of a roll before it, as `operate` starts one after
//!   another) has not served since.
//!
//! What the checker excuses is only what no observation could show: a voter
//! hit by a fault less than the fetch timeout ago still looks caught up, unless
//! the observation shows its process down or going down (a broker side fenced,
//! unreachable or shutting down; a controller the platform reports stopped).
//!
//! Only public model types and `Roller`/`Decision` are used; the engine's
//! safety rules are deliberately not imported. The engine's API touch points
//! (snapshot construction, config, feed-back) are in [`adapter`]; [`io`] is the
//! world as the roll driver's IO, with a clock a test can move back.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use kafkaops::engine::model::{
    ClusterSnapshot, ConfigEntry, Millis, NodeId, NodeRoles, NodeSnapshot, ObservedState,
    PartitionSnapshot, QuorumSnapshot, TopicPartition, TopicSettings, VoterState,
};
use kafkaops::engine::roll::{Decision, NodeRequest, RollConfig, Roller};

pub type Ms = u64;

/// How long an early-returning restart command takes.
pub const EARLY_RETURN_MS: Ms = 50;

/// A process's phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proc {
    /// Broker state RUNNING (3); a pure controller answers.
    Serving,
    /// Controlled shutdown (broker state 6): alive, still in its ISRs.
    ShuttingDown { exit_at: Ms },
    /// No process; `start_at: None` = stays down.
    Down { start_at: Option<Ms> },
    /// Broker state STARTING (1).
    Starting { ready_at: Ms },
    /// Broker state RECOVERY (2), fenced.
    Recovering { done_at: Ms },
}

impl Proc {
    #[must_use]
    pub fn alive(self) -> bool {
        !matches!(self, Proc::Down { .. })
    }

    fn code(self) -> Option<u8> {
        match self {
            Proc::Serving => Some(3),
            Proc::ShuttingDown { .. } => Some(6),
            Proc::Down { .. } => None,
            Proc::Starting { .. } => Some(1),
            Proc::Recovering { .. } => Some(2),
        }
    }
}

/// Timing and behaviour of a node's restarts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timing {
    pub shutdown_ms: Ms,
    pub down_ms: Ms,
    pub start_ms: Ms,
    pub recovery_ms: Ms,
    /// Serving until back in its ISRs.
    pub catchup_ms: Ms,
    /// Controller side running until caught up with the quorum leader.
    pub ctrl_catchup_ms: Ms,
    /// The restart command returns before the old process has exited.
    pub early_return: bool,
    pub never_returns: bool,
    pub cmd_fails: bool,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            shutdown_ms: 3_000,
            down_ms: 1_000,
            start_ms: 2_000,
            recovery_ms: 0,
            catchup_ms: 2_000,
            ctrl_catchup_ms: 500,
            early_return: false,
            never_returns: false,
            cmd_fails: false,
        }
    }
}

#[derive(Debug, Clone)]
pub struct WNode {
    pub id: NodeId,
    /// Assigned roles (`process.roles`).
    pub roles: NodeRoles,
    pub voter: bool,
    pub proc: Proc,
    pub timing: Timing,
    /// Broker side back in its ISRs from this time (while serving).
    pub isr_sync_at: Ms,
    /// Controller side caught up from this time (while running).
    pub ctrl_sync_at: Ms,
    /// Controller not fetching until this time (alive, lagging).
    pub lag_until: Ms,
    /// `LastCaughtUpTimestamp` in the leader's clock.
    pub last_caught_up: i64,
    /// `LastFetchTimestamp` in the leader's clock.
    pub last_fetch: i64,
    /// Broker-level `min.insync.replicas`.
    pub broker_min_isr: u32,
    /// Process exits so far (the restart witness generation).
    pub exits: u32,
    /// A broker-state endpoint exists for this node.
    pub has_endpoint: bool,
    /// The observer cannot read this broker's `min.insync.replicas` (the entry
    /// is missing from its configuration; the node still answers).
    pub min_isr_hidden: bool,
    /// After a crash, Kafka keeps the broker registered unfenced until this
    /// time (its session timeout).
    pub unfenced_until: Ms,
    /// The configuration the process runs with, by key.
    pub config: BTreeMap<String, Setting>,
    /// The configuration file: what a (re)started process runs with.
    pub file: BTreeMap<String, String>,
    /// A restart command will start the process when it exits.
    restart_pending: bool,
    /// When an injected fault (crash, lag) last hit this node.
    fault_at: Option<Ms>,
    /// `exits` when the roll stopped this process (it is back once it has
    /// exited since and is in sync again).
    roll_stop_exits: Option<u32>,
    restarts_by_roll: u32,
    failed_since_restart: bool,
}

impl WNode {
    fn broker_in_sync(&self, now: Ms) -> bool {
        self.roles.broker
            && matches!(self.proc, Proc::Serving | Proc::ShuttingDown { .. })
            && now >= self.isr_sync_at
    }

    /// A controller process runs (a voter whose controller role was removed
    /// runs none).
    fn ctrl_running(&self) -> bool {
        self.roles.controller
            && matches!(
                self.proc,
                Proc::Serving | Proc::ShuttingDown { .. } | Proc::Recovering { .. }
            )
    }

    fn ctrl_in_sync(&self, now: Ms) -> bool {
        self.roles.controller
            && self.ctrl_running()
            && now >= self.ctrl_sync_at
            && now >= self.lag_until
    }

    /// Registered and unfenced as a broker.
    fn unfenced(&self) -> bool {
        self.roles.broker && matches!(self.proc, Proc::Serving | Proc::ShuttingDown { .. })
    }

    /// Listed unfenced by Kafka: unfenced, or crashed less than the session
    /// timeout ago.
    fn listed_unfenced(&self, now: Ms) -> bool {
        self.unfenced() || (self.roles.broker && !self.proc.alive() && now < self.unfenced_until)
    }
}

/// One setting as a process runs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// `None`: unset.
    pub value: Option<String>,
    /// Only a restart changes it.
    pub read_only: bool,
    /// Kafka never returns its value.
    pub sensitive: bool,
}

#[derive(Debug, Clone)]
pub struct WPartition {
    pub topic: String,
    pub index: i32,
    /// Assigned replicas, including adding and removing ones.
    pub replicas: Vec<NodeId>,
    pub adding: Vec<NodeId>,
    pub removing: Vec<NodeId>,
    /// Adding replicas have synced from this time.
    pub adding_sync_at: Ms,
    /// The reassignment completes at the first instant from this time when
    /// every adding replica is in the ISR.
    pub reassign_done_after: Ms,
    /// Replica out of sync on this partition until the time.
    pub lagging: BTreeMap<NodeId, Ms>,
    pub leader: Option<NodeId>,
    last_leader: Option<NodeId>,
    /// True ISR.
    pub isr: BTreeSet<NodeId>,
    /// Crashed replicas still listed in the ISR until the time.
    crash_listed: BTreeMap<NodeId, Ms>,
    /// (time, ISR, leader) as the controller saw it.
    history: Vec<(Ms, BTreeSet<NodeId>, Option<NodeId>)>,
    /// The broker an old-style observer reads this partition from is this
    /// much behind.
    pub stale_ms: Ms,
    /// Replicas in the true ISR the roll stopped, not back yet.
    roll_took: BTreeSet<NodeId>,
    avail_when_taken: bool,
    excused: bool,
}

#[derive(Debug, Clone, Default)]
pub struct WTopic {
    /// Topic-level override.
    pub min_override: Option<u32>,
    /// The observer cannot read this topic's settings.
    pub settings_unknown: bool,
}

/// Faults injected at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The process dies without a controlled shutdown.
    Crash { node: NodeId, down_ms: Option<Ms> },
    /// A replica falls out of a partition's ISR for a while.
    ReplicaLag {
        partition: usize,
        node: NodeId,
        for_ms: Ms,
    },
    /// A controller stops fetching for a while.
    ControllerLag { node: NodeId, for_ms: Ms },
    /// Someone else stops the node for maintenance (a controlled shutdown
    /// of `shutdown_ms`, broker state 6); it stays down.
    Stop { node: NodeId, shutdown_ms: Ms },
    /// The quorum leader's clock steps back (NTP, a restored VM).
    ClockStep { back_ms: i64 },
    /// A reassignment starts: `add` syncs after `sync_ms`, `remove` leaves
    /// once it has and `done_ms` have passed.
    Reassign {
        partition: usize,
        add: NodeId,
        remove: NodeId,
        sync_ms: Ms,
        done_ms: Ms,
    },
}

/// What the platform tells the driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Feedback {
    RestartDone {
        node: NodeId,
        at: Ms,
    },
    RestartFailed {
        node: NodeId,
        at: Ms,
        error: String,
    },
    /// The restart witness saw the old process end.
    ProcessEnded {
        node: NodeId,
        at: Ms,
    },
}

impl Feedback {
    fn at(&self) -> Ms {
        match self {
            Feedback::RestartDone { at, .. }
            | Feedback::RestartFailed { at, .. }
            | Feedback::ProcessEnded { at, .. } => *at,
        }
    }
}

/// Where broker states come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateSource {
    /// No broker-state endpoint: fencing only.
    None,
    /// `ID=URL` endpoints for nodes with `has_endpoint`.
    Endpoints,
}

/// Which adapter rules turn the world into a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// Today's adapter (`src/kafka/convert.rs`, `observation.rs`): roles from
    /// the voters list, fenced = not running, ISR from one broker, min ISR
    /// from one broker's topic config (unknown = 1).
    Old,
    /// The adapter of the design note: assigned roles, fenced and alive =
    /// unknown, most conservative ISR over all brokers, broker-level min ISR
    /// per broker, a missing endpoint is a usage error.
    New,
}

#[derive(Debug, Clone)]
pub struct World {
    pub now: Ms,
    pub nodes: BTreeMap<NodeId, WNode>,
    pub partitions: Vec<WPartition>,
    pub topics: BTreeMap<String, WTopic>,
    pub qleader: Option<NodeId>,
    pub fetch_timeout_ms: i64,
    pub state_source: StateSource,
    /// How long a crashed replica stays listed in the ISR.
    pub crash_isr_lag_ms: Ms,
    /// How long a crashed broker stays registered unfenced (its session
    /// timeout); it also bounds how long it stays listed in the ISRs.
    pub fence_lag_ms: Ms,
    /// The platform reports whether controller-only processes run (the
    /// adapter then shows a stopped one NOT_RUNNING).
    pub controller_status: bool,
    /// Voters listed with broker-only roles keep fetching the metadata log
    /// under their id while their broker runs: fresh timestamps, no vote.
    pub stale_voters_fetch: bool,
    /// How far the quorum leader's clock is behind real time.
    pub clock_back_ms: i64,
    /// The broker whose topic config the old adapter reads.
    pub config_broker: Option<NodeId>,
    /// A restart witness reports process ends and incarnations (`false`:
    /// neither, the engine must find other evidence).
    pub witness: bool,
    pub faults: Vec<(Ms, Fault)>,
    pending_feedback: Vec<Feedback>,
    /// Scheduled command completions.
    cmd_done: Vec<Feedback>,
    // Checker state.
    rolling: bool,
    selection: BTreeSet<NodeId>,
    requested: BTreeSet<NodeId>,
    include_unhealthy: bool,
    voters_took: BTreeSet<NodeId>,
    quorum_ok_when_taken: bool,
    quorum_excused: bool,
    /// Desired settings of the selected nodes (rule g).
    desired: BTreeMap<NodeId, BTreeMap<String, String>>,
    /// Per node, whether the last observation handed to the roll showed it
    /// serving (`None`: no observation, e.g. a restart ordered by a test).
    shown_serving: Option<BTreeMap<NodeId, bool>>,
    pub violations: Vec<String>,
    /// (time, batch) of every restart the roll ordered.
    pub restarts: Vec<(Ms, Vec<NodeId>)>,
    /// Nodes a roll restarted that have not served since (rule h).
    coming_back: BTreeSet<NodeId>,
    /// How long [`drive`] lets the world run on after a roll ends (in-flight shutdowns are
    /// judged too); 0 starts the next roll at once, as `operate` does.
    pub settle_ms: Ms,
    pub trace: Vec<String>,
}

/// The quorum leader's clock at simulated time 0 (timestamps stay positive
/// when it steps back).
pub const CLOCK_BASE: i64 = 1_000_000_000;

fn majority(n: usize) -> usize {
    n / 2 + 1
}

/// Caught-up voters a quorum of `n` must keep through a restart. One or two
/// voters cannot keep a majority through any restart; the roll's documented
/// policy (Strimzi's) restarts them anyway, the other one caught up, so the
/// checker asks only that much of them.
fn needed(n: usize) -> usize {
    if n <= 2 {
        n.saturating_sub(1)
    } else {
        majority(n)
    }
}

impl World {
    #[must_use]
    pub fn new() -> World {
        World {
            now: 0,
            nodes: BTreeMap::new(),
            partitions: Vec::new(),
            topics: BTreeMap::new(),
            qleader: None,
            fetch_timeout_ms: 2_000,
            state_source: StateSource::Endpoints,
            crash_isr_lag_ms: 10_000,
            fence_lag_ms: 10_000,
            controller_status: false,
            stale_voters_fetch: false,
            clock_back_ms: 0,
            config_broker: None,
            witness: true,
            faults: Vec::new(),
            pending_feedback: Vec::new(),
            cmd_done: Vec::new(),
            rolling: false,
            selection: BTreeSet::new(),
            requested: BTreeSet::new(),
            include_unhealthy: false,
            voters_took: BTreeSet::new(),
            quorum_ok_when_taken: true,
            quorum_excused: false,
            desired: BTreeMap::new(),
            shown_serving: None,
            violations: Vec::new(),
            restarts: Vec::new(),
            coming_back: BTreeSet::new(),
            settle_ms: 120_000,
            trace: Vec::new(),
        }
    }

    /// Adds a serving, caught-up node.
    pub fn add_node(&mut self, id: i32, roles: NodeRoles, voter: bool, timing: Timing) {
        self.nodes.insert(
            NodeId(id),
            WNode {
                id: NodeId(id),
                roles,
                voter,
                proc: Proc::Serving,
                timing,
                isr_sync_at: 0,
                ctrl_sync_at: 0,
                lag_until: 0,
                last_caught_up: 0,
                last_fetch: 0,
                broker_min_isr: 1,
                exits: 0,
                has_endpoint: roles.broker,
                min_isr_hidden: false,
                unfenced_until: 0,
                config: BTreeMap::new(),
                file: BTreeMap::new(),
                restart_pending: false,
                fault_at: None,
                roll_stop_exits: None,
                restarts_by_roll: 0,
                failed_since_restart: false,
            },
        );
    }

    pub fn node_mut(&mut self, id: i32) -> &mut WNode {
        self.nodes.get_mut(&NodeId(id)).expect("known node")
    }

    /// Adds a partition whose ISR is every (existing, serving) replica.
    pub fn add_partition(&mut self, topic: &str, replicas: &[i32]) -> usize {
        self.topics.entry(topic.to_string()).or_default();
        let index = i32::try_from(self.partitions.iter().filter(|p| p.topic == topic).count())
            .expect("few partitions");
        self.partitions.push(WPartition {
            topic: topic.to_string(),
            index,
            replicas: replicas.iter().map(|r| NodeId(*r)).collect(),
            adding: Vec::new(),
            removing: Vec::new(),
            adding_sync_at: 0,
            reassign_done_after: 0,
            lagging: BTreeMap::new(),
            leader: None,
            last_leader: None,
            isr: BTreeSet::new(),
            crash_listed: BTreeMap::new(),
            history: Vec::new(),
            stale_ms: 0,
            roll_took: BTreeSet::new(),
            avail_when_taken: true,
            excused: false,
        });
        self.partitions.len() - 1
    }

    /// Call after building: computes ISRs, leaders and the quorum leader.
    pub fn init(&mut self) {
        self.settle();
        // Preferred leaders at the start.
        for p in &mut self.partitions {
            if let Some(&first) = p.replicas.first()
                && p.isr.contains(&first)
            {
                p.leader = Some(first);
            }
        }
        self.settle();
        for p in &mut self.partitions {
            p.history.clear();
            p.history.push((0, p.isr.clone(), p.leader));
        }
    }

    // ---------------------------------------------------------------- truth

    fn exists(&self, id: NodeId) -> bool {
        self.nodes.contains_key(&id)
    }

    /// The roll stopped `id` and its new process is not in sync yet (`isr`:
    /// judged as a replica, else as a voter).
    fn roll_pending(&self, id: NodeId, back_in: bool) -> bool {
        let Some(n) = self.nodes.get(&id) else {
            return false;
        };
        match n.roll_stop_exits {
            None => false,
            Some(e) => !(n.exits > e && back_in),
        }
    }

    fn broker_in_sync(&self, id: NodeId) -> bool {
        self.nodes
            .get(&id)
            .is_some_and(|n| n.broker_in_sync(self.now))
    }

    fn true_isr(&self, p: &WPartition) -> BTreeSet<NodeId> {
        p.replicas
            .iter()
            .copied()
            .filter(|r| self.broker_in_sync(*r))
            .filter(|r| p.lagging.get(r).is_none_or(|u| self.now >= *u))
            .filter(|r| !p.adding.contains(r) || self.now >= p.adding_sync_at)
            .collect()
    }

    /// `min.insync.replicas` enforced with `leader` leading.
    fn enforced_min(&self, p: &WPartition, leader: Option<NodeId>) -> u32 {
        if let Some(m) = self.topics.get(&p.topic).and_then(|t| t.min_override) {
            return m;
        }
        leader
            .or(p.last_leader)
            .and_then(|l| self.nodes.get(&l))
            .map_or(1, |n| n.broker_min_isr)
    }

    /// acks=all can succeed: a live leader and enough in-sync replicas
    /// (`extra` counted as in sync).
    fn available_with(&self, p: &WPartition, extra: &BTreeSet<NodeId>) -> bool {
        let isr: BTreeSet<NodeId> = p
            .isr
            .iter()
            .chain(extra.iter().filter(|e| p.replicas.contains(e)))
            .copied()
            .collect();
        let leader = p
            .leader
            .or_else(|| p.replicas.iter().copied().find(|r| isr.contains(r)));
        leader.is_some() && isr.len() >= self.enforced_min(p, leader) as usize
    }

    /// Partitions with no more replicas than their min ISR cannot restart a
    /// replica without dropping below it; the roll's documented policy
    /// (Strimzi's) is to restart them anyway, so the checker excuses them.
    fn rf_at_most_min(&self, p: &WPartition) -> bool {
        let strictest = p
            .replicas
            .iter()
            .map(|r| self.enforced_min(p, Some(*r)))
            .max()
            .unwrap_or(1);
        p.replicas.len() <= strictest as usize
    }

    fn available(&self, p: &WPartition) -> bool {
        self.available_with(p, &BTreeSet::new())
    }

    fn voters(&self) -> Vec<NodeId> {
        self.nodes
            .values()
            .filter(|n| n.voter)
            .map(|n| n.id)
            .collect()
    }

    fn in_sync_voters(&self) -> BTreeSet<NodeId> {
        self.nodes
            .values()
            .filter(|n| n.voter && n.ctrl_in_sync(self.now))
            .map(|n| n.id)
            .collect()
    }

    fn quorum_ok_with(&self, extra: &BTreeSet<NodeId>) -> bool {
        let v = self.voters();
        if v.is_empty() {
            return true;
        }
        let n = self.in_sync_voters().union(extra).count();
        n >= needed(v.len())
    }

    /// Truly unhealthy: not running, not ready, in recovery, or (for a
    /// controller) not caught up.
    fn truly_unhealthy(&self, id: NodeId) -> bool {
        let Some(n) = self.nodes.get(&id) else {
            return true;
        };
        match n.proc {
            Proc::Serving => n.roles.controller && !n.roles.broker && !n.ctrl_in_sync(self.now),
            _ => true,
        }
    }

    /// A desired setting of `id` that the running process does not have and
    /// that no reconfiguration can set (read-only, or unknown to the process).
    fn needs_restart_for_config(&self, id: NodeId) -> bool {
        let (Some(n), Some(desired)) = (self.nodes.get(&id), self.desired.get(&id)) else {
            return false;
        };
        desired.iter().any(|(k, v)| match n.config.get(k) {
            None => true,
            Some(e) => e.read_only && e.value.as_deref() != Some(v.as_str()),
        })
    }

    /// Records what the observation handed to the roll showed: per node,
    /// SERVING and answering. The checker excuses a recent fault only when
    /// the observation could not show it.
    pub fn observed(&mut self, snapshot: &ClusterSnapshot) {
        self.shown_serving = Some(
            snapshot
                .nodes
                .iter()
                .map(|n| (n.id, n.state == ObservedState::Serving && n.reachable))
                .collect(),
        );
    }

    /// The last observation showed `id` serving (or there was none).
    fn shown_serving(&self, id: NodeId) -> bool {
        self.shown_serving
            .as_ref()
            .is_none_or(|m| m.get(&id).copied().unwrap_or(false))
    }

    // ------------------------------------------------------------- dynamics

    fn next_event(&self) -> Option<Ms> {
        let now = self.now;
        let mut t: Vec<Ms> = Vec::new();
        for n in self.nodes.values() {
            match n.proc {
                Proc::ShuttingDown { exit_at } => t.push(exit_at),
                Proc::Down { start_at: Some(s) } => t.push(s),
                Proc::Starting { ready_at } => t.push(ready_at),
                Proc::Recovering { done_at } => t.push(done_at),
                _ => {}
            }
            t.extend([n.isr_sync_at, n.ctrl_sync_at, n.lag_until]);
        }
        for p in &self.partitions {
            t.extend(p.lagging.values().copied());
            t.extend(p.crash_listed.values().copied());
            if !p.adding.is_empty() || !p.removing.is_empty() {
                t.extend([p.adding_sync_at, p.reassign_done_after]);
            }
        }
        t.extend(self.faults.iter().map(|(at, _)| *at));
        t.extend(self.cmd_done.iter().map(Feedback::at));
        t.into_iter().filter(|x| *x > now).min()
    }

    /// Runs the world to `to`, judging every instant.
    pub fn advance_to(&mut self, to: Ms) {
        while let Some(t) = self.next_event().filter(|t| *t <= to) {
            self.step_to(t);
        }
        if to > self.now {
            self.step_to(to);
        }
    }

    fn step_to(&mut self, t: Ms) {
        self.now = t;
        self.touch_timestamps();
        // Process transitions (a zero-length phase passes at once).
        for _ in 0..6 {
            let ids: Vec<NodeId> = self.nodes.keys().copied().collect();
            let mut changed = false;
            for id in ids {
                changed |= self.transition(id);
            }
            if !changed {
                break;
            }
        }
        let due: Vec<Fault> = self
            .faults
            .iter()
            .filter(|(at, _)| *at <= t)
            .map(|(_, f)| f.clone())
            .collect();
        self.faults.retain(|(at, _)| *at > t);
        for f in due {
            self.inject(&f);
        }
        let done: Vec<Feedback> = self
            .cmd_done
            .iter()
            .filter(|f| f.at() <= t)
            .cloned()
            .collect();
        self.cmd_done.retain(|f| f.at() > t);
        self.pending_feedback.extend(done);
        self.settle();
        self.check();
    }

    /// The quorum leader's wall clock now (real time minus its step back).
    #[must_use]
    pub fn leader_clock(&self) -> i64 {
        CLOCK_BASE + i64::try_from(self.now).expect("small times") - self.clock_back_ms
    }

    /// Kafka keeps the highest timestamp it recorded per replica.
    fn touch_timestamps(&mut self) {
        if self.qleader.is_none() {
            return;
        }
        let now = self.leader_clock();
        let t = self.now;
        let stale_fetch = self.stale_voters_fetch;
        for n in self.nodes.values_mut() {
            let stale_voter_fetches = stale_fetch && n.voter && !n.roles.controller && n.unfenced();
            if n.ctrl_in_sync(t) || stale_voter_fetches {
                n.last_caught_up = n.last_caught_up.max(now);
            }
            if n.ctrl_running() || n.unfenced() {
                n.last_fetch = n.last_fetch.max(now);
            }
        }
    }

    fn transition(&mut self, id: NodeId) -> bool {
        let now = self.now;
        let mut ended = false;
        let n = self.nodes.get_mut(&id).expect("node");
        let next = match n.proc {
            Proc::ShuttingDown { exit_at } if exit_at <= now => {
                ended = true;
                n.exits += 1;
                let start = if n.restart_pending && !n.timing.never_returns {
                    Some(now + n.timing.down_ms)
                } else {
                    None
                };
                n.restart_pending = false;
                Proc::Down { start_at: start }
            }
            Proc::Down { start_at: Some(s) } if s <= now => {
                n.unfenced_until = 0;
                // A new process runs with the configuration file.
                for (k, v) in &n.file {
                    let e = n.config.entry(k.clone()).or_insert(Setting {
                        value: None,
                        read_only: true,
                        sensitive: false,
                    });
                    e.value = Some(v.clone());
                }
                Proc::Starting {
                    ready_at: now + n.timing.start_ms,
                }
            }
            Proc::Starting { ready_at } if ready_at <= now => {
                n.ctrl_sync_at = now + n.timing.ctrl_catchup_ms;
                if n.roles.broker && n.timing.recovery_ms > 0 {
                    Proc::Recovering {
                        done_at: now + n.timing.recovery_ms,
                    }
                } else {
                    n.isr_sync_at = now + n.timing.catchup_ms;
                    Proc::Serving
                }
            }
            Proc::Recovering { done_at } if done_at <= now => {
                n.isr_sync_at = now + n.timing.catchup_ms;
                Proc::Serving
            }
            other => other,
        };
        let changed = next != n.proc;
        if changed {
            self.trace
                .push(format!("{now}: node {id} {:?} -> {next:?}", n.proc));
            if next == Proc::Serving {
                self.coming_back.remove(&id);
            }
            n.proc = next;
        }
        if ended && self.witness {
            self.pending_feedback
                .push(Feedback::ProcessEnded { node: id, at: now });
        }
        changed
    }

    fn inject(&mut self, f: &Fault) {
        let now = self.now;
        self.trace.push(format!("{now}: fault {f:?}"));
        let touched: Vec<usize> = match f {
            Fault::Crash { node, down_ms } => {
                let Some(n) = self.nodes.get_mut(node) else {
                    return;
                };
                if n.proc.alive() {
                    n.exits += 1;
                    if n.unfenced() {
                        n.unfenced_until = now + self.fence_lag_ms;
                    }
                }
                n.failed_since_restart = true;
                n.restart_pending = false;
                n.fault_at = Some(now);
                n.proc = Proc::Down {
                    start_at: down_ms.map(|d| now + d),
                };
                // Listed until the leader shrinks the ISR or the controller fences the broker
                // (KRaft removes a fenced broker from every ISR), whichever comes first.
                let lag = self.crash_isr_lag_ms.min(self.fence_lag_ms);
                let mut touched = Vec::new();
                for (i, p) in self.partitions.iter_mut().enumerate() {
                    if p.isr.contains(node) {
                        p.crash_listed.insert(*node, now + lag);
                        touched.push(i);
                    }
                }
                if self.nodes[node].voter && !self.voters_took.is_empty() {
                    self.quorum_excused = true;
                }
                touched
            }
            Fault::ReplicaLag {
                partition,
                node,
                for_ms,
            } => {
                let Some(p) = self.partitions.get_mut(*partition) else {
                    return;
                };
                p.lagging.insert(*node, now + for_ms);
                vec![*partition]
            }
            Fault::Stop { node, shutdown_ms } => {
                let Some(n) = self.nodes.get_mut(node) else {
                    return;
                };
                if !matches!(
                    n.proc,
                    Proc::Serving | Proc::Recovering { .. } | Proc::Starting { .. }
                ) {
                    return;
                }
                n.failed_since_restart = true;
                n.restart_pending = false;
                n.fault_at = Some(now);
                n.proc = Proc::ShuttingDown {
                    exit_at: now + shutdown_ms,
                };
                if self.nodes[node].voter && !self.voters_took.is_empty() {
                    self.quorum_excused = true;
                }
                self.partitions
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.isr.contains(node))
                    .map(|(i, _)| i)
                    .collect()
            }
            Fault::ClockStep { back_ms } => {
                self.clock_back_ms += back_ms;
                vec![]
            }
            Fault::ControllerLag { node, for_ms } => {
                if let Some(n) = self.nodes.get_mut(node) {
                    n.lag_until = n.lag_until.max(now + for_ms);
                    n.fault_at = Some(now);
                    if n.voter && !self.voters_took.is_empty() {
                        self.quorum_excused = true;
                    }
                }
                vec![]
            }
            Fault::Reassign {
                partition,
                add,
                remove,
                sync_ms,
                done_ms,
            } => {
                let Some(p) = self.partitions.get_mut(*partition) else {
                    return;
                };
                if !p.adding.is_empty()
                    || !p.removing.is_empty()
                    || p.replicas.contains(add)
                    || !p.replicas.contains(remove)
                {
                    return;
                }
                p.replicas.push(*add);
                p.adding = vec![*add];
                p.removing = vec![*remove];
                p.adding_sync_at = now + sync_ms;
                p.reassign_done_after = now + done_ms;
                vec![*partition]
            }
        };
        for i in touched {
            let p = &mut self.partitions[i];
            if !p.roll_took.is_empty() {
                p.excused = true;
            }
        }
    }

    /// Derives ISRs, leaders, reassignment completion and the quorum leader
    /// from the processes.
    fn settle(&mut self) {
        let now = self.now;
        for i in 0..self.partitions.len() {
            let mut p = self.partitions[i].clone();
            p.isr = self.true_isr(&p);
            if (!p.adding.is_empty() || !p.removing.is_empty())
                && now >= p.reassign_done_after
                && p.adding.iter().all(|a| p.isr.contains(a))
            {
                let removing = p.removing.clone();
                p.replicas.retain(|r| !removing.contains(r));
                p.adding.clear();
                p.removing.clear();
                p.isr = self.true_isr(&p);
                self.trace
                    .push(format!("{now}: {}-{} reassignment done", p.topic, p.index));
            }
            let serving = |r: &NodeId| self.nodes.get(r).is_some_and(|n| n.proc == Proc::Serving);
            let keep = p
                .leader
                .is_some_and(|l| p.isr.contains(&l) && (serving(&l) || !p.isr.iter().any(serving)));
            if !keep {
                p.leader = p
                    .replicas
                    .iter()
                    .copied()
                    .find(|r| p.isr.contains(r) && serving(r))
                    .or_else(|| p.replicas.iter().copied().find(|r| p.isr.contains(r)));
            }
            if p.leader.is_some() {
                p.last_leader = p.leader;
            }
            // A new process registers anew: the old registration is fenced, out of the ISR.
            let down = |r: &NodeId| {
                self.nodes
                    .get(r)
                    .is_some_and(|n| matches!(n.proc, Proc::Down { .. }))
            };
            p.crash_listed
                .retain(|r, until| *until > now && !p.isr.contains(r) && down(r));
            let last = p.history.last();
            if last.is_none_or(|(_, isr, l)| *isr != p.isr || *l != p.leader) {
                p.history.push((now, p.isr.clone(), p.leader));
            }
            let took: Vec<NodeId> = p.roll_took.iter().copied().collect();
            for r in took {
                if !p.replicas.contains(&r) || !self.roll_pending(r, p.isr.contains(&r)) {
                    p.roll_took.remove(&r);
                }
            }
            if p.roll_took.is_empty() {
                p.excused = false;
            }
            self.partitions[i] = p;
        }
        // Quorum leader.
        let voters = self.voters();
        if let Some(l) = self.qleader {
            let n = &self.nodes[&l];
            // A leader that stops (or is cut off and stops being fetched
            // from: a lag fault) loses leadership.
            if !matches!(n.proc, Proc::Serving | Proc::Recovering { .. }) || now < n.lag_until {
                self.trace.push(format!("{now}: quorum leader {l} resigns"));
                self.qleader = None;
            }
        }
        if self.qleader.is_none() && !voters.is_empty() {
            let running = voters
                .iter()
                .filter(|v| self.nodes[v].ctrl_running())
                .count();
            if running >= majority(voters.len()) {
                self.qleader = voters.iter().copied().find(|v| {
                    let n = &self.nodes[v];
                    n.roles.controller
                        && matches!(n.proc, Proc::Serving | Proc::Recovering { .. })
                        && now >= n.lag_until
                        && now >= n.ctrl_sync_at
                });
                if let Some(l) = self.qleader {
                    self.trace.push(format!("{now}: quorum leader {l} elected"));
                }
            }
        }
        let in_sync = self.in_sync_voters();
        let took: Vec<NodeId> = self.voters_took.iter().copied().collect();
        for v in took {
            if !self.roll_pending(v, in_sync.contains(&v)) {
                self.voters_took.remove(&v);
            }
        }
        if self.voters_took.is_empty() {
            self.quorum_excused = false;
        }
        self.touch_timestamps();
    }

    // -------------------------------------------------------------- checker

    fn violation(&mut self, rule: &str, what: String) {
        let msg = format!("t={} ({rule}) {what}", self.now);
        if !self.violations.contains(&msg) {
            self.violations.push(msg);
        }
    }

    /// Rules (a) and (b) at this instant.
    fn check(&mut self) {
        if !self.rolling && self.restarts.is_empty() {
            return;
        }
        for i in 0..self.partitions.len() {
            let p = &self.partitions[i];
            if p.roll_took.is_empty() || p.excused || !p.avail_when_taken || self.rf_at_most_min(p)
            {
                continue;
            }
            if !self.available(p) && self.available_with(p, &p.roll_took) {
                let what = format!(
                    "{}-{} fell below min.insync.replicas {} (true ISR {:?}, leader {:?}) \
                     because the roll stopped {:?}",
                    p.topic,
                    p.index,
                    self.enforced_min(p, p.leader),
                    ids(&p.isr),
                    p.leader.map(|l| l.0),
                    ids(&p.roll_took)
                );
                self.violation("a", what);
            }
        }
        if !self.voters_took.is_empty()
            && !self.quorum_excused
            && self.quorum_ok_when_taken
            && !self.quorum_ok_with(&BTreeSet::new())
            && self.quorum_ok_with(&self.voters_took)
        {
            let what = format!(
                "the quorum lost its majority of caught-up voters (in sync {:?} of {:?}) because \
                 the roll stopped {:?}",
                ids(&self.in_sync_voters()),
                ids(&self.voters().into_iter().collect()),
                ids(&self.voters_took)
            );
            self.violation("b", what);
        }
    }

    /// Starts judging a roll of `selection` (the nodes handed to the roller;
    /// `requested`: those with restart reasons).
    pub fn begin_roll(
        &mut self,
        selection: &BTreeSet<NodeId>,
        requested: &BTreeSet<NodeId>,
        include_unhealthy: bool,
    ) {
        self.rolling = true;
        self.selection = selection.clone();
        self.requested = requested.clone();
        self.include_unhealthy = include_unhealthy;
    }

    /// Executes a restart the roll ordered (decision-time rules first).
    pub fn roll_restart(&mut self, batch: &[NodeId]) {
        let now = self.now;
        self.restarts.push((now, batch.to_vec()));
        self.trace
            .push(format!("{now}: ROLL RESTARTS {:?}", ids_v(batch)));
        let batch_set: BTreeSet<NodeId> = batch.iter().copied().collect();
        let earlier: Vec<NodeId> = self
            .coming_back
            .iter()
            .filter(|n| !batch_set.contains(n))
            .copied()
            .collect();
        if !earlier.is_empty() {
            let what = format!(
                "restarted {:?} while {:?}, restarted by an earlier batch, had not served since",
                ids_v(batch),
                ids_v(&earlier)
            );
            self.violation("h", what);
        }
        for &id in batch {
            if self.nodes.get(&id).is_some_and(|n| !n.timing.cmd_fails) {
                self.coming_back.insert(id);
            }
        }
        for &id in batch {
            if !self.exists(id) {
                self.violation("c", format!("restarted {id}, which is not a node"));
                self.cmd_done.push(Feedback::RestartFailed {
                    node: id,
                    at: now + 10,
                    error: format!("no such node {id}"),
                });
                continue;
            }
            if !self.selection.contains(&id) && !self.include_unhealthy {
                self.violation(
                    "c",
                    format!("restarted {id}, which is outside the selection"),
                );
            }
            let n = &self.nodes[&id];
            let (again, proc) = (n.restarts_by_roll > 0 && !n.failed_since_restart, n.proc);
            if again {
                let what = format!("restarted {id} a second time although it did not fail");
                self.violation("d", what);
            }
            if matches!(proc, Proc::Recovering { .. }) {
                self.violation("e", format!("restarted {id} while it is in log recovery"));
            }
            if !self.requested.contains(&id)
                && !self.truly_unhealthy(id)
                && !self.needs_restart_for_config(id)
            {
                let what = format!(
                    "restarted {id} as unhealthy although it is healthy ({:?}) and has no \
                     restart reason",
                    proc
                );
                self.violation("f", what);
            }
        }
        // (a) decision time: partitions this batch takes replicas from.
        let stopping: BTreeSet<NodeId> = batch
            .iter()
            .copied()
            .filter(|b| self.nodes.get(b).is_some_and(|n| !n.timing.cmd_fails))
            .collect();
        for i in 0..self.partitions.len() {
            let p = &self.partitions[i];
            let gone = &p.roll_took;
            let takes: Vec<NodeId> = batch
                .iter()
                .copied()
                .filter(|b| p.isr.contains(b))
                .collect();
            if takes.is_empty() || self.rf_at_most_min(p) {
                continue;
            }
            let before: BTreeSet<NodeId> = p
                .isr
                .iter()
                .copied()
                .filter(|r| !gone.contains(r))
                .collect();
            let after: BTreeSet<NodeId> = before
                .iter()
                .copied()
                .filter(|r| !batch_set.contains(r))
                .collect();
            let leader_after = p
                .leader
                .filter(|l| after.contains(l))
                .or_else(|| p.replicas.iter().copied().find(|r| after.contains(r)));
            // Any replica left may lead; the strictest value counts.
            let min_after = if leader_after == p.leader {
                self.enforced_min(p, p.leader)
            } else {
                after
                    .iter()
                    .map(|r| self.enforced_min(p, Some(*r)))
                    .max()
                    .unwrap_or_else(|| self.enforced_min(p, p.leader))
            };
            let min_now = self.enforced_min(p, p.leader);
            let target =
                |s: &BTreeSet<NodeId>| s.iter().filter(|r| !p.removing.contains(r)).count();
            let now_ok = before.len() >= min_now as usize && p.leader.is_some();
            let breaks_now = now_ok && after.len() < min_after as usize;
            let breaks_target = !p.removing.is_empty()
                && target(&before) >= min_now as usize
                && target(&after) < min_after as usize;
            if breaks_now || breaks_target {
                let what = format!(
                    "restarting {:?} leaves {}-{} with ISR {:?}{} (min.insync.replicas {}); true \
                     ISR {:?}, not back yet {:?}, removing {:?}",
                    ids_v(&takes),
                    p.topic,
                    p.index,
                    ids(&after),
                    if breaks_now {
                        ""
                    } else {
                        " once its reassignment completes"
                    },
                    min_after,
                    ids(&p.isr),
                    ids(gone),
                    ids_v(&p.removing)
                );
                self.violation("a", what);
            }
        }
        // (b) decision time. A voter a fault hit less than the fetch timeout
        // ago still looks caught up to anybody: given the benefit of the
        // doubt (a race no roll can see), unless the roll stopped it or the
        // observation the roll decided on showed it not serving (down,
        // shutting down, fenced, unreachable, reported stopped).
        let voters = self.voters();
        let in_sync = self.in_sync_voters();
        let timeout = u64::try_from(self.fetch_timeout_ms).unwrap_or(0);
        let doubt: BTreeSet<NodeId> = self
            .nodes
            .values()
            .filter(|n| n.voter && n.fault_at.is_some_and(|f| now < f + timeout))
            .filter(|n| self.shown_serving(n.id))
            .map(|n| n.id)
            .collect();
        for &id in batch {
            let Some(n) = self.nodes.get(&id) else {
                continue;
            };
            // A voter whose controller role was removed runs no controller: its
            // restart takes no vote away.
            if !n.voter || !n.roles.controller || !n.proc.alive() {
                continue;
            }
            let others = in_sync
                .union(&doubt)
                .filter(|v| !batch_set.contains(v) && !self.voters_took.contains(v))
                .count();
            if others < needed(voters.len()) {
                let what = format!(
                    "restarted running voter {id} leaving {others} caught-up voter(s) of {}",
                    voters.len()
                );
                self.violation("b", what);
            }
        }
        // Bookkeeping for the instant rules. Someone else's controlled shutdown that the
        // observation showed as serving (no broker-state source: a broker in controlled
        // shutdown is still registered unfenced) is a race no roll can see: excused.
        let hidden_shutdown: BTreeSet<NodeId> = self
            .nodes
            .values()
            .filter(|n| {
                matches!(n.proc, Proc::ShuttingDown { .. })
                    && !n.restart_pending
                    && !batch_set.contains(&n.id)
                    && self.shown_serving(n.id)
            })
            .map(|n| n.id)
            .collect();
        let avail: Vec<bool> = self.partitions.iter().map(|p| self.available(p)).collect();
        for (i, p) in self.partitions.iter_mut().enumerate() {
            let takes: Vec<NodeId> = stopping
                .iter()
                .copied()
                .filter(|b| p.isr.contains(b))
                .collect();
            if takes.is_empty() {
                continue;
            }
            if p.roll_took.is_empty() {
                p.avail_when_taken = avail[i];
            }
            if p.isr.iter().any(|r| hidden_shutdown.contains(r)) {
                p.excused = true;
            }
            p.roll_took.extend(takes);
        }
        let took: Vec<NodeId> = stopping
            .iter()
            .copied()
            .filter(|b| in_sync.contains(b))
            .collect();
        if !took.is_empty() {
            if self.voters_took.is_empty() {
                self.quorum_ok_when_taken = self.quorum_ok_with(&BTreeSet::new());
            }
            if !doubt.is_empty() || voters.iter().any(|v| hidden_shutdown.contains(v)) {
                self.quorum_excused = true;
            }
            self.voters_took.extend(took);
        }
        // The command.
        for &id in batch {
            let Some(n) = self.nodes.get_mut(&id) else {
                continue;
            };
            n.restarts_by_roll += 1;
            n.failed_since_restart = false;
            if !n.timing.cmd_fails && n.proc.alive() {
                n.roll_stop_exits = Some(n.exits);
            }
            if n.timing.cmd_fails {
                n.failed_since_restart = true;
                self.cmd_done.push(Feedback::RestartFailed {
                    node: id,
                    at: now + 100,
                    error: "restart command exited with 1".into(),
                });
                continue;
            }
            let done_at = match n.proc {
                Proc::Down { .. } => {
                    let start = now + 100;
                    if !n.timing.never_returns {
                        n.proc = Proc::Down {
                            start_at: Some(start),
                        };
                    }
                    start
                }
                Proc::ShuttingDown { exit_at } => {
                    n.restart_pending = true;
                    exit_at + n.timing.down_ms
                }
                _ => {
                    let exit_at = now + n.timing.shutdown_ms;
                    n.proc = Proc::ShuttingDown { exit_at };
                    n.restart_pending = true;
                    exit_at + n.timing.down_ms
                }
            };
            let at = if n.timing.early_return {
                now + EARLY_RETURN_MS
            } else {
                done_at
            };
            self.cmd_done.push(Feedback::RestartDone { node: id, at });
        }
        self.settle();
        self.check();
    }

    /// A reconfiguration the roll ordered: IncrementalAlterConfigs SET on
    /// `node`. Kafka refuses the whole request if a key is read-only or
    /// unknown; nothing then changes.
    pub fn reconfigure(&mut self, node: NodeId, changes: &[(String, String)]) {
        let now = self.now;
        let Some(n) = self.nodes.get_mut(&node) else {
            return;
        };
        let refused = !n.unfenced()
            || changes
                .iter()
                .any(|(k, _)| n.config.get(k).is_none_or(|e| e.read_only));
        self.trace.push(format!(
            "{now}: ROLL RECONFIGURES {node} {changes:?}{}",
            if refused { " (refused)" } else { "" }
        ));
        if refused {
            return;
        }
        for (k, v) in changes {
            if let Some(e) = n.config.get_mut(k) {
                e.value = Some(v.clone());
            }
        }
    }

    /// Rule (g), when a roll ends `Done` with these summary notes: every
    /// selected node runs its desired settings; a sensitive one that differs
    /// must be named in the notes (the roll cannot compare it).
    pub fn check_done(&mut self, notes: &[String]) {
        let mut found = Vec::new();
        for (id, desired) in &self.desired {
            let Some(n) = self.nodes.get(id) else {
                continue;
            };
            for (k, v) in desired {
                let running = n.config.get(k);
                if running.is_some_and(|e| e.value.as_deref() == Some(v.as_str())) {
                    continue;
                }
                if running.is_some_and(|e| e.sensitive) {
                    if !notes.iter().any(|note| note.contains(k.as_str())) {
                        found.push(format!(
                            "node {id}: sensitive setting {k} differs and the summary does not \
                             say it was not compared"
                        ));
                    }
                    continue;
                }
                found.push(format!(
                    "node {id}: runs {k}={:?}, desired {v:?}, but the roll said done",
                    running.and_then(|e| e.value.clone())
                ));
            }
        }
        for f in found {
            self.violation("g", f);
        }
    }

    /// Preferred-leader election for the partitions (only live, serving,
    /// in-sync preferred replicas take over).
    pub fn elect_preferred(&mut self, partitions: &[TopicPartition]) {
        for i in 0..self.partitions.len() {
            let p = &self.partitions[i];
            if !partitions
                .iter()
                .any(|tp| tp.topic == p.topic && tp.partition == p.index)
            {
                continue;
            }
            if let Some(&first) = p.replicas.first()
                && p.isr.contains(&first)
                && self
                    .nodes
                    .get(&first)
                    .is_some_and(|n| n.proc == Proc::Serving)
            {
                self.partitions[i].leader = Some(first);
            }
        }
        self.settle();
    }

    /// Feedback due by now, oldest first.
    pub fn take_feedback(&mut self) -> Vec<Feedback> {
        let mut due: Vec<Feedback> = std::mem::take(&mut self.pending_feedback);
        due.sort_by_key(Feedback::at);
        due
    }

    /// Time of the last scheduled command completion.
    #[must_use]
    pub fn last_command_done(&self) -> Option<Ms> {
        self.cmd_done.iter().map(Feedback::at).max()
    }

    /// Ends judging new restarts; the world keeps running (in-flight
    /// shutdowns still count against the roll).
    pub fn end_roll(&mut self) {
        self.rolling = false;
    }

    // ----------------------------------------------------------- observation

    /// The ISR and leader of partition `i` as a broker whose view is `behind`
    /// ms old sees them.
    fn view(&self, p: &WPartition, behind: Ms) -> (BTreeSet<NodeId>, Option<NodeId>) {
        let at = self.now.saturating_sub(behind);
        let (_, isr, leader) = p
            .history
            .iter()
            .rev()
            .find(|(t, _, _)| *t <= at)
            .or(p.history.first())
            .cloned()
            .unwrap_or_default();
        let mut isr = isr;
        // Crashed replicas stay listed for a while.
        if behind == 0 {
            isr.extend(p.crash_listed.keys().copied());
        }
        (isr, leader)
    }
}

impl Default for World {
    fn default() -> Self {
        World::new()
    }
}

fn ids(s: &BTreeSet<NodeId>) -> Vec<i32> {
    s.iter().map(|n| n.0).collect()
}

fn ids_v(s: &[NodeId]) -> Vec<i32> {
    s.iter().map(|n| n.0).collect()
}

/// The engine's API touch points: how the world becomes a snapshot, the
/// roll's settings, and how feed-back reaches the engine. Only this module
/// changes when the engine's API does.
pub mod adapter {
    use super::{
        BTreeMap, BTreeSet, ClusterSnapshot, ConfigEntry, Feedback, Millis, NodeId, NodeRoles,
        NodeSnapshot, ObservedState, PartitionSnapshot, Proc, QuorumSnapshot, RollConfig, Roller,
        Rules, StateSource, TopicPartition, TopicSettings, VoterState, World,
    };

    /// `true`: the engine's feed-back API (`handle_restart_done`,
    /// `handle_restart_failed`, `handle_process_ended`, `incarnation`) and
    /// the design note's adapter rules ([`Rules::New`]). Today's engine
    /// (commit 295945a: decide only, a restart counts at once) was driven by
    /// the `false` version of this module, in this file's history at commit
    /// 29b6482.
    pub const NEW_API: bool = true;

    /// The roll settings of a test.
    #[must_use]
    pub fn roll_config(include_unhealthy: bool, restore_preferred_leaders: bool) -> RollConfig {
        RollConfig {
            include_unhealthy,
            max_batch_size: 2,
            poll_interval_ms: 1_000,
            blocked_timeout_ms: 120_000,
            restore_preferred_leaders,
            ..RollConfig::default()
        }
    }

    /// Hands one platform event to the engine.
    pub fn feed_back(roller: &mut Roller, fb: &Feedback) {
        match fb {
            Feedback::RestartDone { node, at } => roller.handle_restart_done(*node, Millis(*at)),
            Feedback::RestartFailed { node, at, error } => {
                roller.handle_restart_failed(*node, Millis(*at), error.clone());
            }
            Feedback::ProcessEnded { node, at } => roller.handle_process_ended(*node, Millis(*at)),
        }
    }

    fn entry(v: String) -> ConfigEntry {
        ConfigEntry {
            value: Some(v),
            read_only: true,
            sensitive: false,
        }
    }

    /// Observes the world as the adapter would.
    ///
    /// # Errors
    /// A usage error the new adapter reports before anything happens.
    pub fn observe(w: &World, rules: Rules) -> Result<ClusterSnapshot, String> {
        let now = w.leader_clock();
        let voters: BTreeSet<NodeId> = w.nodes.values().filter(|n| n.voter).map(|n| n.id).collect();
        let leader_ts = |id: NodeId| -> Option<i64> {
            if w.qleader == Some(id) {
                Some(now)
            } else {
                w.nodes.get(&id).map(|n| n.last_caught_up)
            }
        };
        // The adapter's rule (`src/kafka/convert.rs`): at most the fetch timeout behind the
        // leader's clock, never ahead of it.
        let caught_up = |id: NodeId| {
            w.qleader == Some(id)
                || (w.qleader.is_some()
                    && leader_ts(id).is_some_and(|t| (0..w.fetch_timeout_ms).contains(&(now - t))))
        };
        if rules == Rules::New
            && w.state_source == StateSource::Endpoints
            && let Some(n) = w.nodes.values().find(|n| n.roles.broker && !n.has_endpoint)
        {
            return Err(format!(
                "the broker-state endpoint list has no entry for broker {}",
                n.id
            ));
        }
        // Node ids and roles.
        let mut ids: BTreeMap<NodeId, NodeRoles> = BTreeMap::new();
        match rules {
            Rules::Old => {
                // Brokers: registered, replica holders, non-voting observers.
                let mut brokers: BTreeSet<NodeId> = w
                    .nodes
                    .values()
                    .filter(|n| n.roles.broker)
                    .map(|n| n.id)
                    .collect();
                for p in &w.partitions {
                    brokers.extend(p.replicas.iter().copied());
                }
                brokers.extend(
                    w.nodes
                        .values()
                        .filter(|n| n.roles.controller && !n.voter && n.proc.alive())
                        .map(|n| n.id),
                );
                for id in brokers.union(&voters) {
                    ids.insert(
                        *id,
                        NodeRoles {
                            controller: voters.contains(id),
                            broker: brokers.contains(id),
                        },
                    );
                }
            }
            Rules::New => {
                for n in w.nodes.values() {
                    ids.insert(n.id, n.roles);
                }
            }
        }
        let mut nodes = Vec::new();
        for (&id, &roles) in &ids {
            let n = w.nodes.get(&id);
            let proc = n.map_or(Proc::Down { start_at: None }, |n| n.proc);
            // Kafka still lists a crashed broker unfenced until its session times out.
            let unfenced = n.is_some_and(|n| n.listed_unfenced(w.now));
            let (state, reachable) = if roles.broker {
                let reachable = matches!(proc, Proc::Serving | Proc::ShuttingDown { .. });
                let read: Option<Result<u8, ()>> = match w.state_source {
                    StateSource::None => None,
                    StateSource::Endpoints => Some(match (n, proc.code()) {
                        (Some(n), Some(code)) if n.has_endpoint => Ok(code),
                        _ => Err(()),
                    }),
                };
                let state = match (rules, read) {
                    (_, Some(Ok(code))) => ObservedState::from_broker_state(code),
                    (Rules::Old, None) => {
                        if unfenced {
                            ObservedState::from_broker_state(3)
                        } else {
                            ObservedState::NotRunning
                        }
                    }
                    (Rules::Old, Some(Err(()))) => {
                        if unfenced {
                            ObservedState::Unknown
                        } else {
                            ObservedState::NotRunning
                        }
                    }
                    (Rules::New, None | Some(Err(()))) => {
                        if unfenced {
                            ObservedState::from_broker_state(3)
                        } else if proc.alive() {
                            ObservedState::Unknown
                        } else {
                            ObservedState::NotRunning
                        }
                    }
                };
                (state, reachable)
            } else {
                // Both adapters (`src/kafka/convert.rs`): a controller-only
                // node is SERVING (and reachable) while its quorum
                // timestamp is within the fetch timeout of the leader's
                // (the new one also reads observers' timestamps), else
                // NOT_READY; its process end shows through the witness. The
                // new one: NOT_RUNNING when the platform reports its process
                // stopped.
                let state = if rules == Rules::New && w.controller_status && !proc.alive() {
                    ObservedState::NotRunning
                } else if caught_up(id) {
                    ObservedState::Serving
                } else {
                    ObservedState::NotReady
                };
                (state, state == ObservedState::Serving)
            };
            let mut config = BTreeMap::new();
            if let Some(n) = n {
                for (k, e) in &n.config {
                    config.insert(
                        k.clone(),
                        ConfigEntry {
                            value: if e.sensitive { None } else { e.value.clone() },
                            read_only: e.read_only,
                            sensitive: e.sensitive,
                        },
                    );
                }
                if n.roles.broker && !n.min_isr_hidden {
                    config.insert(
                        "min.insync.replicas".to_string(),
                        entry(n.broker_min_isr.to_string()),
                    );
                }
                if w.qleader == Some(id) {
                    config.insert(
                        "controller.quorum.fetch.timeout.ms".to_string(),
                        entry(w.fetch_timeout_ms.to_string()),
                    );
                }
            }
            nodes.push(NodeSnapshot {
                id,
                roles,
                state,
                reachable,
                rack: None,
                config,
                incarnation: match rules {
                    Rules::New if w.witness => n.map(|n| format!("witness-{}", n.exits)),
                    _ => None,
                },
            });
        }
        let partitions = w
            .partitions
            .iter()
            .map(|p| {
                let (isr, leader) = match rules {
                    Rules::Old => w.view(p, p.stale_ms),
                    Rules::New => {
                        let (fresh, leader) = w.view(p, 0);
                        let (stale, _) = w.view(p, p.stale_ms);
                        (fresh.intersection(&stale).copied().collect(), leader)
                    }
                };
                PartitionSnapshot {
                    tp: TopicPartition {
                        topic: p.topic.clone(),
                        partition: p.index,
                    },
                    replicas: p.replicas.clone(),
                    isr: p
                        .replicas
                        .iter()
                        .copied()
                        .filter(|r| isr.contains(r))
                        .collect(),
                    leader,
                    adding: p.adding.clone(),
                    removing: p.removing.clone(),
                }
            })
            .collect();
        let topics = w
            .topics
            .iter()
            .filter(|(_, t)| !t.settings_unknown)
            .filter_map(|(name, t)| {
                let min = match rules {
                    // DescribeConfigs TOPIC on one broker: the override, else
                    // that broker's own default.
                    Rules::Old => Some(t.min_override.or_else(|| {
                        w.config_broker
                            .or_else(|| w.nodes.values().find(|n| n.roles.broker).map(|n| n.id))
                            .and_then(|b| w.nodes.get(&b))
                            .map(|n| n.broker_min_isr)
                    })?),
                    // The override only; broker-level values are per node.
                    Rules::New => t.min_override,
                };
                Some((
                    name.clone(),
                    TopicSettings {
                        min_insync_replicas: min,
                    },
                ))
            })
            .collect();
        // Never-recorded timestamps are -1 on the wire, `None` here.
        let known = |t: i64| (t > 0).then_some(t);
        let member = |id: NodeId| VoterState {
            id,
            last_caught_up_ms: if w.qleader.is_some() {
                leader_ts(id).and_then(known)
            } else {
                None
            },
            last_fetch_ms: if w.qleader.is_some() {
                w.nodes
                    .get(&id)
                    .map(|n| {
                        if w.qleader == Some(id) {
                            now
                        } else {
                            n.last_fetch
                        }
                    })
                    .and_then(known)
            } else {
                None
            },
        };
        let quorum = Some(QuorumSnapshot {
            leader: w.qleader,
            voters: voters.iter().map(|v| member(*v)).collect(),
            observers: match rules {
                Rules::Old => Vec::new(),
                Rules::New => w
                    .nodes
                    .values()
                    .filter(|n| !n.voter && n.proc.alive())
                    .map(|n| member(n.id))
                    .collect(),
            },
        });
        Ok(ClusterSnapshot {
            nodes,
            partitions,
            topics,
            quorum,
        })
    }
}

/// How a driven roll ended.
#[derive(Debug, Clone)]
pub struct Run {
    pub decisions: Vec<String>,
    pub end: Option<Decision>,
    pub refused_up_front: Option<String>,
}

/// Drives `roller` against the world: observe -> decide -> act -> feed back,
/// then lets the world run on until `settle_ms` after the roll ended so that
/// in-flight shutdowns are judged too.
pub fn drive(
    w: &mut World,
    rules: Rules,
    requests: &BTreeMap<NodeId, NodeRequest>,
    config: RollConfig,
    include_unhealthy: bool,
    max_ms: Ms,
) -> Run {
    let selection: BTreeSet<NodeId> = requests.keys().copied().collect();
    let requested: BTreeSet<NodeId> = requests
        .iter()
        .filter(|(_, r)| !r.restart_reasons.is_empty())
        .map(|(id, _)| *id)
        .collect();
    let mut roller = Roller::new(config, requests.clone());
    w.begin_roll(&selection, &requested, include_unhealthy);
    // The desired settings are in each node's configuration file: a restart applies them.
    for (id, r) in requests {
        if r.desired_config.is_empty() {
            continue;
        }
        if let Some(n) = w.nodes.get_mut(id) {
            n.file.extend(r.desired_config.clone());
        }
        w.desired.insert(*id, r.desired_config.clone());
    }
    let mut run = Run {
        decisions: Vec::new(),
        end: None,
        refused_up_front: None,
    };
    let limit = w.now + max_ms;
    let mut steps = 0;
    while w.now < limit && steps < 2_000 {
        steps += 1;
        for fb in w.take_feedback() {
            adapter::feed_back(&mut roller, &fb);
        }
        let snapshot = match adapter::observe(w, rules) {
            Ok(s) => s,
            Err(e) => {
                run.refused_up_front = Some(e);
                break;
            }
        };
        w.observed(&snapshot);
        let d = roller.decide(&snapshot, Millis(w.now));
        let line = match &d {
            Decision::Restart { nodes, .. } => format!(
                "{}: restart {:?}",
                w.now,
                nodes.iter().map(|n| n.node.0).collect::<Vec<_>>()
            ),
            Decision::Wait { until, for_what } => format!("{}: wait {until}: {for_what}", w.now),
            other => format!("{}: {other:?}", w.now),
        };
        w.trace.push(format!("DECIDE {line}"));
        if run
            .decisions
            .last()
            .is_none_or(|l| l.split_once(": ").map(|x| x.1) != line.split_once(": ").map(|x| x.1))
        {
            run.decisions.push(line);
        }
        match &d {
            Decision::Restart { .. } => {
                w.roll_restart(&d.restarted_nodes());
                // The driver runs the commands and waits for them to return.
                let done = w.last_command_done().unwrap_or(w.now + 1);
                w.advance_to(done.max(w.now + 1));
            }
            Decision::ElectPreferredLeaders { partitions, .. } => {
                w.elect_preferred(partitions);
                w.advance_to(w.now + 100);
            }
            Decision::Reconfigure { node, changes, .. } => {
                let changes: Vec<(String, String)> = changes
                    .iter()
                    .map(|c| (c.key.clone(), c.to.clone()))
                    .collect();
                w.reconfigure(*node, &changes);
                w.advance_to(w.now + 100);
            }
            Decision::Wait { until, .. } => w.advance_to(until.0.max(w.now + 1)),
            Decision::Done { summary } => {
                w.check_done(&summary.notes);
                run.end = Some(d.clone());
                break;
            }
            Decision::Abort { .. } => {
                run.end = Some(d.clone());
                break;
            }
        }
    }
    w.end_roll();
    let end = w.now + w.settle_ms;
    w.advance_to(end);
    run
}

/// The world as the roll driver's IO ([`kafkaops::driver::RollIo`]): the real driver loop
/// (`kafkaops::driver::step`, with its save, crash and resume rules) observes, restarts and
/// waits, instead of [`drive`]'s loop over the engine. The IO's clock is the world's plus a
/// fixed epoch, minus `behind_ms`: a test moves it back (a clock step, another host's clock)
/// without the world's time, which the checker judges by, moving at all.
pub mod io {
    use std::cell::{Cell, RefCell};

    use kafkaops::driver::RollIo;

    use super::{
        BTreeMap, ClusterSnapshot, Feedback, Millis, Ms, NodeId, Rules, TopicPartition, World,
        adapter,
    };

    /// The IO clock's reading at world time 0 (room to move it back).
    pub const EPOCH_MS: u64 = 10_000_000_000;

    pub struct WorldIo {
        pub world: RefCell<World>,
        pub rules: Rules,
        /// How far the IO's clock is behind the world's.
        pub behind_ms: Cell<u64>,
        ended: RefCell<Vec<(NodeId, Millis)>>,
    }

    impl WorldIo {
        #[must_use]
        pub fn new(world: World, rules: Rules) -> WorldIo {
            WorldIo {
                world: RefCell::new(world),
                rules,
                behind_ms: Cell::new(0),
                ended: RefCell::new(Vec::new()),
            }
        }

        /// World time `at` on the IO's clock.
        fn clock(&self, at: Ms) -> Millis {
            Millis((EPOCH_MS + at).saturating_sub(self.behind_ms.get()))
        }

        /// The world's feed-back due now: process ends are kept for
        /// [`RollIo::process_ended`], the rest is returned.
        fn feedback(&self) -> Vec<Feedback> {
            let due = self.world.borrow_mut().take_feedback();
            let mut rest = Vec::new();
            for f in due {
                match f {
                    Feedback::ProcessEnded { node, at } => {
                        self.ended.borrow_mut().push((node, self.clock(at)));
                    }
                    other => rest.push(other),
                }
            }
            rest
        }
    }

    impl RollIo for WorldIo {
        async fn observe(&self) -> anyhow::Result<ClusterSnapshot> {
            let snapshot =
                adapter::observe(&self.world.borrow(), self.rules).map_err(anyhow::Error::msg)?;
            // What the roll was shown: the checker excuses only what it could not show.
            self.world.borrow_mut().observed(&snapshot);
            Ok(snapshot)
        }

        /// Runs the commands until each has returned (as the platform does).
        async fn restart(&self, nodes: &[NodeId]) -> Vec<(NodeId, anyhow::Result<()>)> {
            {
                let mut w = self.world.borrow_mut();
                w.roll_restart(nodes);
                let done = w.last_command_done().unwrap_or(w.now + 1).max(w.now + 1);
                w.advance_to(done);
            }
            let mut results: BTreeMap<NodeId, anyhow::Result<()>> = BTreeMap::new();
            for f in self.feedback() {
                match f {
                    Feedback::RestartDone { node, .. } => {
                        results.insert(node, Ok(()));
                    }
                    Feedback::RestartFailed { node, error, .. } => {
                        results.insert(node, Err(anyhow::anyhow!(error)));
                    }
                    Feedback::ProcessEnded { .. } => {}
                }
            }
            nodes
                .iter()
                .map(|n| {
                    let r = results
                        .remove(n)
                        .unwrap_or_else(|| Err(anyhow::anyhow!("no result for node {n}")));
                    (*n, r)
                })
                .collect()
        }

        async fn reconfigure(
            &self,
            node: NodeId,
            changes: &[kafkaops::engine::roll::ConfigChange],
        ) -> anyhow::Result<()> {
            let mut w = self.world.borrow_mut();
            let changes: Vec<(String, String)> = changes
                .iter()
                .map(|c| (c.key.clone(), c.to.clone()))
                .collect();
            w.reconfigure(node, &changes);
            let to = w.now + 100;
            w.advance_to(to);
            Ok(())
        }

        async fn elect_preferred_leaders(
            &self,
            partitions: &[TopicPartition],
        ) -> anyhow::Result<()> {
            let mut w = self.world.borrow_mut();
            w.elect_preferred(partitions);
            let to = w.now + 100;
            w.advance_to(to);
            Ok(())
        }

        fn now(&self) -> Millis {
            self.clock(self.world.borrow().now)
        }

        async fn sleep_until(&self, until: Millis) {
            let target = (until.0 + self.behind_ms.get()).saturating_sub(EPOCH_MS);
            let mut w = self.world.borrow_mut();
            let to = target.max(w.now);
            w.advance_to(to);
        }

        fn process_ended(&self) -> Vec<(NodeId, Millis)> {
            let _ = self.feedback();
            std::mem::take(&mut *self.ended.borrow_mut())
        }

        /// The world's incarnations (process exits) are its own, not a process's.
        fn incarnations_survive_restore(&self) -> bool {
            true
        }
    }
}

// ----------------------------------------------------------- metadata lag (#27)

/// The KRaft metadata log as ground truth, for judging which brokers' partition metadata an
/// observation may trust (issue #27). Independent of the adapter's rules: it only knows, per
/// partition, the ISR each committed record set, at which offset, and how far each broker has
/// really applied the log.
///
/// - `history[p]`: `(offset, ISR)` in offset order; the ISR at offset `o` is the last entry at
///   or before `o`. The committed truth is the ISR at the high watermark.
/// - each broker has applied the log up to `applied` (what its Metadata answer shows); the
///   quorum leader last saw it at `reported` <= `applied` (DescribeQuorum lags the broker,
///   never leads it); it may not answer at all.
#[derive(Debug, Clone)]
pub struct MetadataLog {
    pub high_watermark: i64,
    pub history: Vec<Vec<(i64, BTreeSet<i32>)>>,
    pub brokers: BTreeMap<i32, LoggedBroker>,
}

/// One broker's place in the metadata log.
#[derive(Debug, Clone, Copy)]
pub struct LoggedBroker {
    pub applied: i64,
    pub reported: i64,
    pub answers: bool,
}

impl MetadataLog {
    fn isr_at(&self, p: usize, offset: i64) -> BTreeSet<i32> {
        self.history[p]
            .iter()
            .rev()
            .find(|(o, _)| *o <= offset)
            .map(|(_, isr)| isr.clone())
            .unwrap_or_default()
    }

    /// The ISR the quorum has committed for partition `p`.
    #[must_use]
    pub fn committed_isr(&self, p: usize) -> BTreeSet<i32> {
        self.isr_at(p, self.high_watermark)
    }

    /// Partition `p`'s ISR as broker `id` reports it (from what it has applied).
    #[must_use]
    pub fn reported_isr(&self, id: i32, p: usize) -> BTreeSet<i32> {
        self.isr_at(p, self.brokers[&id].applied)
    }

    /// The brokers whose metadata is behind the committed log.
    #[must_use]
    pub fn lagging(&self) -> BTreeSet<i32> {
        self.brokers
            .iter()
            .filter(|(_, b)| b.applied < self.high_watermark)
            .map(|(id, _)| *id)
            .collect()
    }
}
