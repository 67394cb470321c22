//! Property tests of the `operate` engine (`kafkaops::engine::operate`) on a small simulated
//! cluster with injected faults.
//!
//! The world here is independent of the engine's rules: it holds brokers with replica counts, a
//! Cruise Control with ONE executor (an execution request while it runs is refused, as a real
//! one refuses it), user tasks (dry runs and executions, with start times), executions that take
//! a few ticks and then move replicas (or fail), executions and partition reassignments started
//! by someone else (an execution request is refused while either runs), execution requests that
//! reach Cruise Control but whose answer is lost (the execution starts, maybe a few ticks later
//! while Cruise Control still computes, and the engine sees a timeout), outages of Cruise
//! Control and Kafka, and scenario events (a broker joins empty, a broker, the joining one too,
//! is put on the drain list and maybe taken off it again, Cruise Control reports a goal
//! violation). Cruise Control's clock may be 10 minutes off ours, and its `user_tasks` lists each
//! request with the parameters it carried (decoded, or encoded as the double does). Every
//! execution puts replicas on the brokers its proposal picks, within the destinations the
//! request allowed (a full rebalance fills brokers below the mean, an empty one first; a new
//! replication factor the least loaded ones; others' reassignments add a replica to a broker,
//! preferably an empty one on the drain list). An operator stops the brokers the engine calls
//! safe to stop (they leave Kafka's metadata; one taken off the drain list is started again).
//! A broker on the drain list may also crash for a few ticks: it is missing from Kafka's
//! metadata meanwhile, but Cruise Control still counts it, so a proposal may put replicas on it
//! (they land once it is back).
//! The test drives the real loop (`kafkaops::app::operate::Operator`, one `step` per tick)
//! through scripted ports over the world: Cruise Control (the flow driver's API and the
//! loop's observation), Kafka, the platform (the drain list, as a node pool's scale-down says
//! it), the roll (the world restarts one node per step), an in-memory store and a leadership.
//! The loop saves the state after every step and before an execution request; the test
//! restarts the "leader" at random points by starting a new `Operator` from what was saved
//! (including between the save before an execution request and the request, and between the
//! request and the save of its task id: the crash makes the store refuse every later save).
//!
//! The oracles read only the world's history (execution requests, stops):
//! - every execution request reaches Cruise Control after the store holds a state saying a
//!   request is in flight (the store's document at that instant, as a successor would read it);
//! - never an execution request while an execution of ours is unfinished in the world (also one
//!   whose answer was lost), nor while the last executor state the world showed the engine was
//!   busy, nor while anyone's execution or reassignment runs (so never two movers);
//! - scale-down before scale-up: when a drain and an add are requested at the same tick, no
//!   add_broker execution for the added broker is requested before the first remove_broker
//!   execution for the drained one;
//! - a broker on the drain list is never in an add_broker request, and a broker off it never in
//!   a remove_broker request; a rebalance or remove_broker request sent while brokers of the
//!   cluster (running, or crashed and coming back) were on the drain list allows replicas only
//!   onto other brokers;
//! - a broker stopped because the engine called it safe to stop held no replica, and no
//!   reassignment in flight nor execution (ours or anyone's) was putting one on it;
//! - a roll never restarts a node while any execution (ours or anyone's), others'
//!   reassignments or someone else's roll (holding the roll lease) run, and nothing is
//!   requested while it runs or while someone else's roll holds the roll lease; a wanted replication factor is reached (or its change failed in the world);
//! - once the faults stop, everything requested is done: drained brokers hold no replica, added
//!   brokers hold some, and the machine is Idle with nothing running.
//!
//! Default: 128 cases per property; `PROPTEST_CASES=2000` for a heavier run.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kafkaops::app::operate::policy::PolicySource;
use kafkaops::app::operate::ports::{
    ClusterFacts, CruiseControlPort, KafkaPort, LogRecorder, PlatformObserver, PlatformView,
    RollPort, RollStep, RollStepEnd, WishSeen,
};
use kafkaops::app::operate::{OperateSpec, Operator};
use kafkaops::cruise_control::model::OptimizationResult;
use kafkaops::cruise_control::params::{
    RebalanceKind, RebalanceRequest, TopicConfigurationRequest,
};
use kafkaops::cruise_control::retry::RetryPolicy;
use kafkaops::cruise_control::{
    Answer, CcError, CruiseControlApi, ErrorClass, Observer, Transient,
};
use kafkaops::engine::anomalies::{AnomalyRecord, AnomalyType};
use kafkaops::engine::model::Millis;
use kafkaops::engine::operate::{CcView, KafkaView, OperateState, RollWish};
use kafkaops::engine::rebalance::{Mode, State};
use kafkaops::engine::replicas::TopicFacts;
use kafkaops::engine::roll::run::RollRun;
use kafkaops::engine::roll::{RollConfig, Roller};
use kafkaops::engine::view::{ExecutorState, MonitorState, Reassignment, TaskStatus, UserTask};
use kafkaops::platform::PlatformError;
use kafkaops::platform::kube::LeaseGuard;
use kafkaops::state::{Leadership, Store, StoreError};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(128)
}

const TICK_MS: u64 = 1_000;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Status {
    /// The request reached Cruise Control, which still computes the proposal: listed in
    /// `user_tasks` (Active), the executor idle; it starts executing after `delay` ticks.
    Pending,
    Running,
    Completed,
    Failed,
}

#[derive(Debug, Clone)]
struct Exec {
    id: String,
    endpoint: &'static str,
    brokers: BTreeSet<i32>,
    ours: bool,
    start_ms: u64,
    remaining: u32,
    fail: bool,
    status: Status,
    /// Ticks until a pending execution starts.
    delay: u32,
    /// The query parameters as the request carried them (`user_tasks` lists them).
    params: Vec<(String, String)>,
    /// The brokers this execution puts replicas on (its proposal, computed when it was asked
    /// for, within the destinations the request allowed).
    targets: BTreeSet<i32>,
}

/// One execution request the world received from the engine.
#[derive(Debug, Clone)]
struct Request {
    tick: usize,
    endpoint: &'static str,
    brokers: BTreeSet<i32>,
    /// Executions of ours unfinished in the world when it came.
    ours_running: Vec<String>,
    /// The last executor state the world showed the engine said busy.
    shown_busy: bool,
    /// An execution (anyone's) ran in the world when it came.
    busy: bool,
    /// Our roll was in progress when it came.
    rolling: bool,
    /// Someone else's roll held the roll lease when it came.
    manual_rolling: bool,
    drain_at_time: BTreeSet<i32>,
    /// The brokers of the cluster when it came: registered (running) or crashed (coming back);
    /// not those an operator stopped.
    cluster_at_time: BTreeSet<i32>,
    /// The brokers the request allowed replicas to move to (`None`: any).
    destinations: Option<BTreeSet<i32>>,
    /// The state in the store when the request reached Cruise Control said a request was in
    /// flight (what a successor reads if this leader dies now).
    saved_in_flight: bool,
}

/// An operator (Strimzi, a person) stopped a broker the engine called safe to stop, with what
/// the world knew at that instant.
#[derive(Debug, Clone)]
struct StopEvent {
    tick: usize,
    broker: i32,
    /// Replicas it held.
    held: u64,
    /// What was about to put a replica on it (a reassignment in flight, an execution).
    receiving: Vec<String>,
}

/// Faults and events at one tick.
#[derive(Debug, Clone, Default)]
struct TickPlan {
    cc_down: bool,
    kafka_down: bool,
    /// Someone else starts an execution of this many ticks (when the executor is idle).
    foreign: Option<u32>,
    /// The next execution of ours fails.
    fail_next: bool,
    /// The leader restarts at this point of the tick (0 none, 1 before observing, 2 between
    /// the save before an execution request and the request, 3 after the request before its
    /// answer is saved).
    restart: u8,
    /// The next execution request reaches Cruise Control but its answer is lost (a timeout):
    /// the execution starts after this many ticks while the engine sees an error.
    lose_answer: Option<u32>,
    /// Someone else starts a partition reassignment lasting this many ticks, adding a replica
    /// to a broker: an empty broker on the drain list if there is one (the worst case), else
    /// broker 1 + the given index.
    reassign: Option<(u32, i32)>,
    /// An operator stops the brokers the engine calls safe to stop at this tick.
    stop: bool,
    /// Someone else (`kafkaops roll`) takes the roll lease for this many ticks, unless our
    /// roll holds it (then that roll is refused, as the lease refuses it).
    manual_roll: Option<u32>,
    /// A broker on the drain list that runs (the lowest) crashes for this many ticks.
    crash_drained: Option<u32>,
}

struct World {
    now: u64,
    tick: usize,
    brokers: BTreeMap<i32, u64>,
    drain: BTreeSet<i32>,
    execs: Vec<Exec>,
    dry_runs: Vec<UserTask>,
    next_id: u32,
    cc_down: bool,
    kafka_down: bool,
    fail_next: bool,
    shown_busy: bool,
    requests: Vec<Request>,
    /// The desired broker configuration is not in force: a roll is wanted.
    roll_wanted: bool,
    roll_active: bool,
    roll_left: u32,
    /// Each node restart of our roll: whether any execution (ours or anyone's) or
    /// reassignments someone else started ran meanwhile.
    roll_steps: Vec<(usize, bool)>,
    /// Ticks left of the reassignments someone else started.
    reassign_left: u32,
    /// Ticks left of someone else's roll (it holds the roll lease meanwhile).
    manual_roll_left: u32,
    rolls_done: u32,
    /// Topic `orders`: its replication factor.
    orders_rf: u16,
    /// The broker the running foreign reassignment adds a replica to.
    reassign_to: i32,
    /// Brokers stopped by an operator (not registered while stopped).
    stopped: BTreeSet<i32>,
    /// Crashed brokers and the ticks until they are back: not registered meanwhile, but
    /// Cruise Control's model still holds them (a proposal may pick them).
    crashed: BTreeMap<i32, u32>,
    /// Every (tick, broker) a broker was crashed at.
    crash_log: Vec<(usize, i32)>,
    stops: Vec<StopEvent>,
    /// Cruise Control's clock minus ours (ms).
    cc_skew_ms: i64,
    /// `user_tasks` lists parameter values as sent (percent-encoded), not decoded.
    encoded_urls: bool,
    /// Cruise Control's anomaly detector reports a goal violation (until a rebalance ends).
    imbalanced: bool,
}

impl World {
    fn new() -> World {
        World {
            now: 1_700_000_000_000,
            tick: 0,
            brokers: (1..=4).map(|b| (b, 6)).collect(),
            drain: BTreeSet::new(),
            execs: Vec::new(),
            dry_runs: Vec::new(),
            next_id: 0,
            cc_down: false,
            kafka_down: false,
            fail_next: false,
            shown_busy: false,
            requests: Vec::new(),
            roll_wanted: false,
            roll_active: false,
            roll_left: 0,
            roll_steps: Vec::new(),
            reassign_left: 0,
            manual_roll_left: 0,
            rolls_done: 0,
            orders_rf: 2,
            reassign_to: 0,
            stopped: BTreeSet::new(),
            crashed: BTreeMap::new(),
            crash_log: Vec::new(),
            stops: Vec::new(),
            cc_skew_ms: 0,
            encoded_urls: false,
            imbalanced: false,
        }
    }

    /// Cruise Control's clock.
    fn cc_now(&self) -> i64 {
        i64::try_from(self.now).unwrap() + self.cc_skew_ms
    }

    /// The brokers that run (registered in Kafka's metadata).
    fn registered(&self) -> BTreeSet<i32> {
        self.cluster()
            .into_iter()
            .filter(|b| !self.crashed.contains_key(b))
            .collect()
    }

    /// The brokers Cruise Control's model holds: those that run and those crashed (it has not
    /// dropped them; they come back), not those an operator stopped.
    fn cluster(&self) -> BTreeSet<i32> {
        self.brokers
            .keys()
            .copied()
            .filter(|b| !self.stopped.contains(b))
            .collect()
    }

    /// Where an execution of `endpoint` for `brokers` puts replicas, within `allowed` (the
    /// request's destinations; `None`: any broker of Cruise Control's model, a crashed one
    /// too): an add fills the added brokers, a removal spreads over the others, a rebalance
    /// fills those below the mean, a new replication factor adds 4 replicas to the least loaded
    /// brokers.
    fn plan(
        &self,
        endpoint: &str,
        brokers: &BTreeSet<i32>,
        allowed: Option<&BTreeSet<i32>>,
    ) -> BTreeSet<i32> {
        let running = self.cluster();
        let ok: Vec<i32> = running
            .iter()
            .copied()
            .filter(|b| allowed.is_none_or(|a| a.contains(b)) && !brokers.contains(b))
            .collect();
        match endpoint {
            "add_broker" => brokers.intersection(&running).copied().collect(),
            "remove_broker" => ok.into_iter().collect(),
            "rebalance" => {
                let total: u64 = running.iter().map(|b| self.brokers[b]).sum();
                let n = u64::try_from(running.len().max(1)).unwrap();
                ok.into_iter()
                    .filter(|b| self.brokers[b] * n < total)
                    .collect()
            }
            "topic_configuration" => {
                let mut by_load = ok;
                by_load.sort_by_key(|b| (self.brokers[b], *b));
                by_load.into_iter().take(4).collect()
            }
            _ => BTreeSet::new(),
        }
    }

    /// An operator stops broker `b` (the engine said it is safe to stop): what the world knows
    /// is recorded, and it leaves Kafka's metadata.
    fn stop_broker(&mut self, b: i32) {
        let mut receiving = Vec::new();
        if self.reassign_left > 0 && self.reassign_to == b {
            receiving.push("a partition reassignment in flight adds a replica to it".to_string());
        }
        for e in &self.execs {
            if matches!(e.status, Status::Pending | Status::Running) && e.targets.contains(&b) {
                receiving.push(format!(
                    "execution {} ({}, ours: {}) puts replicas on it",
                    e.id, e.endpoint, e.ours
                ));
            }
        }
        self.stops.push(StopEvent {
            tick: self.tick,
            broker: b,
            held: self.brokers[&b],
            receiving,
        });
        self.stopped.insert(b);
    }

    /// The `RequestURL` Cruise Control lists for a request with `params`.
    fn request_url(&self, endpoint: &str, params: &[(String, String)]) -> String {
        let mut q: Vec<String> = params
            .iter()
            .map(|(k, v)| {
                let v = if self.encoded_urls {
                    v.bytes()
                        .map(|c| match c {
                            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                                (c as char).to_string()
                            }
                            b' ' => "+".to_string(),
                            c => format!("%{c:02X}"),
                        })
                        .collect()
                } else {
                    v.clone()
                };
                format!("{k}={v}")
            })
            .collect();
        q.push("json=true".into());
        // Cruise Control lists them from a hash map: any order.
        q.reverse();
        format!("POST /kafkacruisecontrol/{endpoint}?{}", q.join("&"))
    }

    fn running(&self) -> Option<&Exec> {
        self.execs.iter().find(|e| e.status == Status::Running)
    }

    fn executor(&mut self) -> ExecutorState {
        let s = match self.running() {
            None => ExecutorState {
                state: "NO_TASK_IN_PROGRESS".into(),
                ..ExecutorState::default()
            },
            Some(e) => ExecutorState {
                state: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into(),
                triggered_user_task_id: Some(e.id.clone()),
                num_total_partition_movements: 4,
                ..ExecutorState::default()
            },
        };
        self.shown_busy = self.running().is_some();
        s
    }

    fn user_tasks(&self) -> Vec<UserTask> {
        let mut out = self.dry_runs.clone();
        for e in &self.execs {
            out.push(UserTask {
                user_task_id: e.id.clone(),
                request_url: self.request_url(e.endpoint, &e.params),
                client_identity: String::new(),
                start_ms: Some(e.start_ms as i64),
                status: match e.status {
                    Status::Pending => TaskStatus::Active,
                    Status::Running => TaskStatus::InExecution,
                    Status::Completed => TaskStatus::Completed,
                    Status::Failed => TaskStatus::CompletedWithError,
                },
                original_response: None,
            });
        }
        out
    }

    /// What Kafka answers: registered brokers with their replica counts, reassignments in
    /// flight, the topic `orders`.
    fn kafka_view(&self) -> Result<KafkaView, String> {
        if self.kafka_down {
            Err("kafka down".to_string())
        } else {
            // Replica counts and reassignments are separate reads: the counts do not show the
            // replica a reassignment in flight adds.
            Ok(KafkaView {
                brokers: self
                    .registered()
                    .into_iter()
                    .map(|b| (b, self.brokers[&b]))
                    .collect(),
                reassignments: if self.reassign_left > 0 {
                    let mut replicas: Vec<i32> = self
                        .registered()
                        .into_iter()
                        .filter(|b| *b != self.reassign_to)
                        .take(2)
                        .collect();
                    replicas.push(self.reassign_to);
                    vec![Reassignment {
                        topic: "orders".into(),
                        partition: 0,
                        replicas,
                        adding: vec![self.reassign_to],
                        removing: vec![],
                    }]
                } else {
                    Vec::new()
                },
                topics: [(
                    "orders".to_string(),
                    TopicFacts {
                        partitions: 4,
                        min_rf: self.orders_rf,
                        max_rf: self.orders_rf,
                        min_isr: None,
                    },
                )]
                .into_iter()
                .collect(),
                racks: BTreeSet::new(),
                held: BTreeMap::new(),
            })
        }
    }

    /// What Cruise Control answers: the executor, the anomaly detector and, when asked, the
    /// user tasks.
    fn cc_view(&mut self, user_tasks: bool) -> Result<CcView, String> {
        if self.cc_down {
            Err("cruise control down".to_string())
        } else {
            Ok(CcView {
                executor: self.executor(),
                anomalies: if self.imbalanced {
                    // Detected again under a new id at every look, as Cruise Control does.
                    vec![AnomalyRecord {
                        kind: AnomalyType::GoalViolation,
                        anomaly_id: format!("gv-{}", self.tick),
                        status: "IGNORED".into(),
                        detected_at_ms: Some(self.cc_now()),
                        status_updated_at_ms: Some(self.cc_now()),
                        fixable_goals: vec!["ReplicaDistributionGoal".into()],
                        unfixable_goals: Vec::new(),
                        failed_brokers: BTreeMap::new(),
                        failed_disks: BTreeMap::new(),
                        description: None,
                    }]
                } else {
                    Vec::new()
                },
                user_tasks: user_tasks.then(|| self.user_tasks()),
            })
        }
    }

    fn id(&mut self) -> String {
        self.next_id += 1;
        format!("task-{}", self.next_id)
    }

    /// A dry-run proposal: whether it moves nothing.
    fn propose(&mut self, endpoint: &'static str, brokers: &BTreeSet<i32>) -> bool {
        let id = self.id();
        self.dry_runs.push(UserTask {
            user_task_id: id,
            request_url: format!("POST /kafkacruisecontrol/{endpoint}?dryrun=true"),
            client_identity: String::new(),
            start_ms: Some(self.cc_now()),
            status: TaskStatus::Completed,
            original_response: None,
        });
        match endpoint {
            "add_broker" => brokers
                .iter()
                .all(|b| self.brokers.get(b).copied().unwrap_or(0) > 0),
            "remove_broker" => brokers
                .iter()
                .all(|b| self.brokers.get(b).copied().unwrap_or(0) == 0),
            "topic_configuration" => self.orders_rf == 3,
            "rebalance" => !self.imbalanced,
            _ => true,
        }
    }

    /// An execution request: `Err` when refused (the executor runs something, or others'
    /// reassignments are in flight). `lost`: the answer never reaches the engine, and the
    /// execution starts after that many ticks.
    fn execute(
        &mut self,
        endpoint: &'static str,
        brokers: &BTreeSet<i32>,
        destinations: Option<&BTreeSet<i32>>,
        params: Vec<(String, String)>,
        lost: Option<u32>,
    ) -> Result<String, ()> {
        let ours_running = self
            .execs
            .iter()
            .filter(|e| e.ours && matches!(e.status, Status::Running | Status::Pending))
            .map(|e| e.id.clone())
            .collect();
        self.requests.push(Request {
            tick: self.tick,
            endpoint,
            brokers: brokers.clone(),
            ours_running,
            shown_busy: self.shown_busy,
            busy: self.running().is_some() || self.reassign_left > 0,
            rolling: self.roll_active,
            manual_rolling: self.manual_roll_left > 0,
            drain_at_time: self.drain.clone(),
            cluster_at_time: self.cluster(),
            destinations: destinations.cloned(),
            saved_in_flight: false,
        });
        if self.running().is_some() || self.reassign_left > 0 {
            return Err(());
        }
        let id = self.id();
        let fail = std::mem::take(&mut self.fail_next);
        let delay = lost.unwrap_or(0);
        let targets = self.plan(endpoint, brokers, destinations);
        self.execs.push(Exec {
            id: id.clone(),
            endpoint,
            brokers: brokers.clone(),
            ours: true,
            start_ms: u64::try_from(self.cc_now()).unwrap(),
            remaining: 2,
            fail,
            status: if delay > 0 {
                Status::Pending
            } else {
                Status::Running
            },
            delay,
            params,
            targets,
        });
        Ok(id)
    }

    /// One step of our roll (a node restart); `true` when the roll is over.
    fn roll_step(&mut self) -> bool {
        if !self.roll_active {
            self.roll_active = true;
            self.roll_left = 3;
        }
        let moving =
            self.running().is_some() || self.reassign_left > 0 || self.manual_roll_left > 0;
        self.roll_steps.push((self.tick, moving));
        self.roll_left -= 1;
        if self.roll_left == 0 {
            self.roll_active = false;
            self.roll_wanted = false;
            self.rolls_done += 1;
            return true;
        }
        false
    }

    fn stop(&mut self) {
        for e in &mut self.execs {
            if matches!(e.status, Status::Running | Status::Pending) {
                e.status = Status::Failed;
            }
        }
    }

    fn foreign(&mut self, ticks: u32) {
        if self.running().is_none() {
            let id = self.id();
            let targets = self.plan("rebalance", &BTreeSet::new(), None);
            self.execs.push(Exec {
                id,
                endpoint: "rebalance",
                brokers: BTreeSet::new(),
                ours: false,
                start_ms: u64::try_from(self.cc_now()).unwrap(),
                remaining: ticks,
                fail: false,
                status: Status::Running,
                delay: 0,
                params: vec![
                    ("dryrun".into(), "false".into()),
                    ("reason".into(), "someone's rebalance".into()),
                ],
                targets,
            });
        }
    }

    /// Time passes: the running execution progresses and, at its end, moves replicas.
    fn advance(&mut self) {
        self.now += TICK_MS;
        self.tick += 1;
        if self.reassign_left == 1 && !self.stopped.contains(&self.reassign_to) {
            // The reassignment completes: its replica is on the broker.
            *self.brokers.entry(self.reassign_to).or_insert(0) += 1;
        }
        self.reassign_left = self.reassign_left.saturating_sub(1);
        self.manual_roll_left = self.manual_roll_left.saturating_sub(1);
        self.crashed.retain(|_, left| {
            *left -= 1;
            *left > 0
        });
        self.progress();
        // Pending executions start once their proposal is computed (or fail: another runs).
        for i in 0..self.execs.len() {
            if self.execs[i].status != Status::Pending {
                continue;
            }
            self.execs[i].delay = self.execs[i].delay.saturating_sub(1);
            if self.execs[i].delay == 0 {
                self.execs[i].status = if self.running().is_some() || self.reassign_left > 0 {
                    Status::Failed
                } else {
                    Status::Running
                };
            }
        }
    }

    /// The running execution progresses and, at its end, moves replicas.
    fn progress(&mut self) {
        let Some(i) = self.execs.iter().position(|e| e.status == Status::Running) else {
            return;
        };
        let e = &mut self.execs[i];
        e.remaining = e.remaining.saturating_sub(1);
        if e.remaining > 0 {
            return;
        }
        if e.fail {
            e.status = Status::Failed;
            return;
        }
        e.status = Status::Completed;
        let (endpoint, brokers) = (e.endpoint, e.brokers.clone());
        // Replicas land only on brokers that still run (a stopped one is dead to it).
        let targets: BTreeSet<i32> = e
            .targets
            .iter()
            .copied()
            .filter(|b| !self.stopped.contains(b))
            .collect();
        match endpoint {
            "add_broker" => {
                for b in &targets {
                    let donors: Vec<i32> = self
                        .brokers
                        .iter()
                        .filter(|(o, n)| !brokers.contains(o) && **n > 1)
                        .map(|(o, _)| *o)
                        .collect();
                    for o in donors {
                        *self.brokers.get_mut(&o).unwrap() -= 1;
                        *self.brokers.entry(*b).or_insert(0) += 1;
                    }
                }
            }
            "topic_configuration" => {
                self.orders_rf = 3;
                for b in &targets {
                    *self.brokers.get_mut(b).unwrap() += 1;
                }
            }
            "rebalance" => {
                self.imbalanced = false;
                for b in &targets {
                    let donor = self
                        .brokers
                        .iter()
                        .filter(|(o, n)| !targets.contains(o) && **n > 1)
                        .max_by_key(|(o, n)| (**n, -**o))
                        .map(|(o, _)| *o);
                    if let Some(o) = donor {
                        *self.brokers.get_mut(&o).unwrap() -= 1;
                        *self.brokers.get_mut(b).unwrap() += 1;
                    }
                }
            }
            "remove_broker" => {
                let takers: Vec<i32> = targets.into_iter().collect();
                if takers.is_empty() {
                    self.execs[i].status = Status::Failed;
                    return;
                }
                let mut k = 0;
                for b in &brokers {
                    let n = self.brokers.insert(*b, 0).unwrap_or(0);
                    for _ in 0..n {
                        *self.brokers.get_mut(&takers[k % takers.len()]).unwrap() += 1;
                        k += 1;
                    }
                }
            }
            _ => {}
        }
    }
}

/// The `user_tasks` parameters of a request as the client sends it (without `json=true`).
fn owned(q: Vec<(&'static str, String)>) -> Vec<(String, String)> {
    q.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

fn ids_of(v: Option<&String>) -> BTreeSet<i32> {
    v.map(|s| s.split(',').filter_map(|b| b.parse().ok()).collect())
        .unwrap_or_default()
}

/// The world as the real `Operator`'s ports see it: Cruise Control, Kafka, the platform (the
/// drain list, as a node pool's scale-down says it), the roll, the store and the leadership.
/// A crash (armed per tick) makes the store refuse every save and the leadership lost, so the
/// loop stops where a crashed leader would; the test then starts a new `Operator` from what
/// was saved.
struct Harness {
    w: World,
    /// The leader crashed: nothing it does is saved any more.
    crashed: bool,
    /// This tick's crash point (2: the execution request never reaches Cruise Control; 3: it
    /// does, and the answer is never saved).
    crash_at: u8,
    lose_answer: Option<u32>,
    /// The saved document.
    saved: Option<String>,
}

#[derive(Clone)]
struct Sim(Arc<Mutex<Harness>>);

impl Sim {
    fn h(&self) -> std::sync::MutexGuard<'_, Harness> {
        self.0.lock().unwrap()
    }

    fn unreachable() -> CcError {
        CcError::Unreachable {
            url: "http://cruise-control".into(),
            detail: "cruise control down".into(),
            connect: true,
        }
    }

    /// An execution request (`dryrun=false`) or a dry run, as Cruise Control answers it.
    fn request(
        &self,
        endpoint: &'static str,
        dryrun: bool,
        params: Vec<(String, String)>,
    ) -> Result<Answer<OptimizationResult>, CcError> {
        let mut h = self.h();
        let param = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v);
        let brokers = ids_of(param("brokerid"));
        let destinations = param("destination_broker_ids").map(|d| ids_of(Some(d)));
        if !dryrun && h.crash_at == 2 {
            // Crashed after the save before the request, before sending it.
            h.crash_at = 0;
            h.crashed = true;
            return Err(Sim::unreachable());
        }
        if h.w.cc_down {
            return Err(Sim::unreachable());
        }
        // What a successor would read if this leader died as the request arrives.
        let saved_in_flight = h
            .saved
            .as_deref()
            .and_then(|d| serde_json::from_str::<OperateState>(d).ok())
            .is_some_and(|s| s.requested_at().is_some());
        let mut value = OptimizationResult::default();
        if dryrun {
            if !h.w.propose(endpoint, &brokers) {
                value.summary.num_replica_movements = 4;
            }
            return Ok(Answer {
                value,
                task_id: None,
            });
        }
        value.summary.num_replica_movements = 4;
        let lost = h.lose_answer;
        let answer =
            h.w.execute(endpoint, &brokers, destinations.as_ref(), params, lost);
        if let Some(r) = h.w.requests.last_mut() {
            r.saved_in_flight = saved_in_flight;
        }
        match answer {
            Ok(_) if lost.is_some() => {
                if h.crash_at == 3 {
                    // Crashed after the request reached Cruise Control (which still computes
                    // it), before anything more was saved.
                    h.crash_at = 0;
                    h.crashed = true;
                }
                Err(CcError::Timeout {
                    url: "http://cruise-control".into(),
                    timeout: Duration::from_secs(30),
                })
            }
            Ok(id) => {
                if h.crash_at == 3 {
                    // Crashed after the request, before its answer was saved.
                    h.crash_at = 0;
                    h.crashed = true;
                }
                Ok(Answer {
                    value,
                    task_id: Some(id),
                })
            }
            Err(()) => Err(CcError::Api {
                endpoint: endpoint.into(),
                status: 500,
                message: "an execution is in progress".into(),
                class: ErrorClass::Retryable(Transient::OngoingExecution),
            }),
        }
    }
}

impl CruiseControlApi for Sim {
    fn policy(&self, deadline: Instant) -> RetryPolicy {
        RetryPolicy::until(deadline)
    }

    async fn readiness(
        &self,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<(MonitorState, ExecutorState), CcError> {
        let mut h = self.h();
        if h.w.cc_down {
            return Err(Sim::unreachable());
        }
        Ok((MonitorState::default(), h.w.executor()))
    }

    async fn executor(
        &self,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<ExecutorState, CcError> {
        let mut h = self.h();
        if h.w.cc_down {
            return Err(Sim::unreachable());
        }
        Ok(h.w.executor())
    }

    async fn task_status(
        &self,
        task_id: &str,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<TaskStatus, CcError> {
        let h = self.h();
        if h.w.cc_down {
            return Err(Sim::unreachable());
        }
        match h.w.execs.iter().find(|e| e.id == task_id) {
            None => Err(CcError::TaskLost {
                task_id: task_id.into(),
            }),
            Some(e) => Ok(match e.status {
                Status::Pending => TaskStatus::Active,
                Status::Running => TaskStatus::InExecution,
                Status::Completed => TaskStatus::Completed,
                Status::Failed => TaskStatus::CompletedWithError,
            }),
        }
    }

    async fn stop_execution(
        &self,
        _reason: &str,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<(), CcError> {
        let mut h = self.h();
        if h.w.cc_down {
            return Err(Sim::unreachable());
        }
        h.w.stop();
        Ok(())
    }

    async fn rebalance(
        &self,
        req: &RebalanceRequest,
        _policy: &RetryPolicy,
        _obs: &dyn Observer,
    ) -> Result<Answer<OptimizationResult>, CcError> {
        let endpoint = match &req.kind {
            RebalanceKind::AddBrokers(_) => "add_broker",
            RebalanceKind::RemoveBrokers { .. } => "remove_broker",
            RebalanceKind::Full => "rebalance",
            other => panic!("operate never asks for {other:?}"),
        };
        self.request(endpoint, req.execution.dryrun, owned(req.query()))
    }

    async fn topic_configuration(
        &self,
        req: &TopicConfigurationRequest,
        _policy: &RetryPolicy,
        _obs: &dyn Observer,
    ) -> Result<Answer<OptimizationResult>, CcError> {
        self.request(
            "topic_configuration",
            req.execution.dryrun,
            owned(req.query()),
        )
    }
}

impl CruiseControlPort for Sim {
    async fn observe(&self, user_tasks: bool, _timeout: Duration) -> Result<CcView, String> {
        self.h().w.cc_view(user_tasks)
    }
}

impl KafkaPort for Sim {
    async fn observe(&self) -> Result<KafkaView, String> {
        self.h().w.kafka_view()
    }

    async fn cluster_facts(&self) -> Result<ClusterFacts, String> {
        let h = self.h();
        if h.w.kafka_down {
            return Err("kafka down".into());
        }
        Ok(ClusterFacts {
            brokers: h.w.registered(),
            topics: ["orders".to_string()].into_iter().collect(),
        })
    }
}

impl PlatformObserver for Sim {
    fn observe(
        &self,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<PlatformView, PlatformError>> + Send + '_>,
    > {
        let drain = self.h().w.drain.clone();
        Box::pin(async move {
            Ok(PlatformView {
                operator: None,
                drain,
            })
        })
    }
}

impl RollPort for Sim {
    type Session = ();

    async fn wish(&self, _rolled: &BTreeMap<i32, String>) -> Result<WishSeen, String> {
        let h = self.h();
        Ok(WishSeen {
            wish: (h.w.roll_wanted && !h.w.kafka_down).then(|| RollWish {
                nodes: [1, 2, 3].into_iter().collect(),
                reason: "broker configuration differs".into(),
            }),
            ..WishSeen::default()
        })
    }

    fn can_restart(&self) -> bool {
        true
    }

    fn follow_policy(&mut self, _desired: &BTreeMap<String, String>, _max_batch_size: usize) {}

    fn config_hash(&self) -> String {
        "desired".into()
    }

    async fn lease_holder(&self) -> Option<Result<Option<String>, String>> {
        let h = self.h();
        Some(Ok(
            (h.w.manual_roll_left > 0).then(|| "Lease kafkaops-roll-c held by alice".to_string())
        ))
    }

    async fn take_lease(&self) -> Option<Result<LeaseGuard, String>> {
        // The world refuses someone else's roll while ours runs (it holds the lease).
        None
    }

    async fn start(
        &self,
        _saved: Option<&RollRun>,
        _rolled: &BTreeMap<i32, String>,
    ) -> Result<((), BTreeSet<i32>), String> {
        Ok(((), BTreeSet::new()))
    }

    async fn step<T: Store<RollRun> + Send>(&self, _session: &mut (), _store: &mut T) -> RollStep {
        let mut h = self.h();
        let done = h.w.roll_step();
        // The run, saved with the state (its steps: the world's count).
        let mut run = RollRun::new(
            Roller::new(RollConfig::default(), BTreeMap::new()),
            Millis(0),
        );
        run.steps = u64::from(h.w.roll_left);
        RollStep {
            decided: Vec::new(),
            run,
            end: if done {
                RollStepEnd::Finished {
                    ok: true,
                    why: "done".into(),
                }
            } else {
                RollStepEnd::Wake(0)
            },
        }
    }

    fn end(&self, _session: ()) {}
}

impl Store<str> for Sim {
    async fn load(&self) -> Result<Option<String>, StoreError> {
        Ok(self.h().saved.clone())
    }

    async fn save(&self, doc: &str) -> Result<(), StoreError> {
        let mut h = self.h();
        if h.crashed {
            return Err(StoreError::Conflict("the leader crashed".into()));
        }
        h.saved = Some(doc.to_string());
        Ok(())
    }
}

impl Leadership for Sim {
    async fn acquire(&self) -> Result<(), StoreError> {
        Ok(())
    }

    fn is_leader(&self) -> bool {
        !self.h().crashed
    }

    async fn release(&self) {}
}

/// The policy file as the scenario says it at `tick`.
fn policy_yaml(s: &Scenario, tick: usize) -> String {
    let mut modes = String::new();
    let mut templates = String::new();
    for m in &s.modes {
        let (mode, template) = match m {
            Mode::AddBrokers => ("add-brokers", "add"),
            Mode::RemoveBrokers => ("remove-brokers", "remove"),
            Mode::Imbalance => ("imbalance", "full"),
        };
        modes.push_str(&format!(
            "  - mode: {mode}\n    template: {{ name: {template} }}\n"
        ));
        templates.push_str(&format!("  {template}: {{}}\n"));
    }
    let mut y = if modes.is_empty() {
        "autoRebalance: []\n".to_string()
    } else {
        format!("autoRebalance:\n{modes}templates:\n{templates}")
    };
    y.push_str(&format!("scaleUpGracePeriod: {}ms\n", s.grace_ms));
    if s.rf_at.is_some_and(|at| tick >= at) {
        y.push_str("replicationFactors:\n  orders: 3\n");
    }
    y
}

/// The shell: the real loop, its restarts and the state it holds.
struct Shell {
    state: OperateState,
    restarts: u32,
}

type Loop = Operator<Sim, Sim, Sim, Sim, LogRecorder, Sim>;

/// A leader starting (again): a new `Operator` over the world, from what was saved.
async fn start(sim: &Sim, policy: &std::path::Path) -> (Loop, OperateState) {
    let facts = KafkaPort::cluster_facts(sim).await.ok();
    let policy = PolicySource::load(policy, Duration::ZERO, facts.as_ref())
        .await
        .unwrap();
    let spec = OperateSpec {
        policy: policy.path().to_path_buf(),
        resync: Duration::from_millis(TICK_MS),
        dry_run: false,
        once: false,
        listen: "127.0.0.1:0".parse().unwrap(),
        action_timeout: Duration::from_secs(600),
    };
    let mut op = Operator::new(
        sim.clone(),
        sim.clone(),
        (sim.clone(), sim.clone(), LogRecorder),
        policy,
        spec,
        sim.clone(),
    );
    op.platform = Some(Box::new(sim.clone()));
    let clock = sim.clone();
    op.clock = Arc::new(move || Millis(clock.h().w.now));
    let state = op.resume().await.unwrap();
    (op, state)
}

/// One scenario: per tick faults, plus scenario events.
#[derive(Debug, Clone)]
struct Scenario {
    ticks: Vec<TickPlan>,
    /// At this tick broker 5 joins empty.
    join_at: usize,
    /// At this tick this broker (1-5; 5 is the joining one) is put on the drain list.
    drain: Option<(usize, i32)>,
    /// This many ticks later it is taken off the drain list again.
    undrain: Option<usize>,
    /// At this tick the desired broker configuration changes (a roll is wanted).
    roll_at: Option<usize>,
    /// From this tick the policy wants `orders` at replication factor 3.
    rf_at: Option<usize>,
    /// From this tick Cruise Control reports a goal violation (until a rebalance ends).
    imbalance_at: Option<usize>,
    /// Cruise Control's clock minus ours (ms).
    cc_skew_ms: i64,
    /// `user_tasks` lists parameter values percent-encoded (as the double does) rather than
    /// decoded (as Cruise Control does).
    encoded_urls: bool,
    grace_ms: u64,
    modes: BTreeSet<Mode>,
}

fn tick_plan() -> impl Strategy<Value = TickPlan> {
    (
        prop::bool::weighted(0.1),
        prop::bool::weighted(0.05),
        prop::option::weighted(0.07, 1u32..5),
        prop::bool::weighted(0.1),
        prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
        prop::option::weighted(0.07, 0u32..3),
        prop::option::weighted(0.08, (1u32..4, 0i32..5)),
        prop::option::weighted(0.05, 1u32..4),
        prop::bool::weighted(0.5),
        prop::option::weighted(0.08, 1u32..5),
    )
        .prop_map(
            |(
                cc_down,
                kafka_down,
                foreign,
                fail_next,
                restart,
                lose_answer,
                reassign,
                manual_roll,
                stop,
                crash_drained,
            )| {
                TickPlan {
                    cc_down,
                    kafka_down,
                    foreign,
                    fail_next,
                    restart,
                    lose_answer,
                    reassign,
                    stop,
                    manual_roll,
                    crash_drained,
                }
            },
        )
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        prop::collection::vec(tick_plan(), 10..40),
        0usize..8,
        prop::option::of((0usize..8, prop_oneof![1 => 1i32..=4, 1 => Just(5)])),
        prop::option::weighted(0.3, 1usize..10),
        prop_oneof![Just(0u64), Just(2_000u64)],
        prop::bool::weighted(0.9),
        prop::bool::weighted(0.9),
        prop::option::of(0usize..10),
        prop::option::of(0usize..10),
        (
            prop::option::of((0usize..8, prop::bool::ANY)),
            prop_oneof![2 => Just(0i64), 1 => Just(-600_000i64), 1 => Just(600_000i64)],
            prop::bool::ANY,
        ),
    )
        .prop_map(
            |(
                ticks,
                join_at,
                drain,
                undrain,
                grace_ms,
                add,
                remove,
                roll_at,
                rf_at,
                (imbalance, cc_skew_ms, encoded_urls),
            )| {
                let mut modes = BTreeSet::new();
                if add {
                    modes.insert(Mode::AddBrokers);
                }
                if remove {
                    modes.insert(Mode::RemoveBrokers);
                }
                if imbalance.is_some_and(|(_, on)| on) {
                    modes.insert(Mode::Imbalance);
                }
                Scenario {
                    ticks,
                    join_at,
                    drain,
                    undrain,
                    roll_at,
                    rf_at,
                    imbalance_at: imbalance.map(|(at, _)| at),
                    cc_skew_ms,
                    encoded_urls,
                    grace_ms,
                    modes,
                }
            },
        )
}

/// Runs a scenario, then quiet ticks without faults; returns the world and the shell.
fn run(s: &Scenario) -> (World, Shell) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run_loop(s))
}

async fn run_loop(s: &Scenario) -> (World, Shell) {
    let mut w = World::new();
    w.cc_skew_ms = s.cc_skew_ms;
    w.encoded_urls = s.encoded_urls;
    let sim = Sim(Arc::new(Mutex::new(Harness {
        w,
        crashed: false,
        crash_at: 0,
        lose_answer: None,
        saved: None,
    })));
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("policy.yaml");
    let mut yaml = policy_yaml(s, 0);
    std::fs::write(&policy, &yaml).unwrap();
    let (mut op, mut state) = start(&sim, &policy).await;
    let mut restarts = 0;
    let quiet = 40;
    for t in 0..s.ticks.len() + quiet {
        let plan = s.ticks.get(t).cloned().unwrap_or_default();
        {
            let mut h = sim.h();
            let w = &mut h.w;
            if t == s.join_at {
                w.brokers.insert(5, 0);
            }
            if let Some((at, b)) = s.drain {
                if t == at {
                    w.drain.insert(b);
                }
                if s.undrain.is_some_and(|k| t == at + k) {
                    w.drain.remove(&b);
                    // No longer to be removed: started again if it was stopped.
                    w.stopped.remove(&b);
                }
            }
            if s.imbalance_at == Some(t) {
                w.imbalanced = true;
            }
            if s.roll_at == Some(t) {
                w.roll_wanted = true;
            }
            w.cc_down = plan.cc_down;
            w.kafka_down = plan.kafka_down;
            if plan.fail_next {
                w.fail_next = true;
            }
            if let Some(n) = plan.foreign {
                w.foreign(n);
            }
            if let Some((n, i)) = plan.reassign
                && w.reassign_left == 0
            {
                // The worst target: an empty broker on the drain list; else any running one.
                let running = w.registered();
                let target = running
                    .iter()
                    .copied()
                    .find(|b| w.drain.contains(b) && w.brokers[b] == 0)
                    .unwrap_or(1 + i);
                if running.contains(&target) {
                    w.reassign_left = n;
                    w.reassign_to = target;
                }
            }
            if let Some(n) = plan.crash_drained
                && let Some(b) = w.registered().into_iter().find(|b| w.drain.contains(b))
            {
                w.crashed.insert(b, n);
            }
            let crashed: Vec<i32> = w.crashed.keys().copied().collect();
            w.crash_log.extend(crashed.into_iter().map(|b| (t, b)));
            // The roll lease: free, or expired, when neither roll holds it.
            if let Some(n) = plan.manual_roll
                && !w.roll_active
                && w.manual_roll_left == 0
            {
                w.manual_roll_left = n;
            }
            h.crash_at = plan.restart;
            h.lose_answer = plan.lose_answer;
        }
        let now = policy_yaml(s, t);
        if now != yaml {
            std::fs::write(&policy, &now).unwrap();
            yaml = now;
        }
        if plan.restart == 1 {
            (op, state) = start(&sim, &policy).await;
            restarts += 1;
        }
        let safe = match op.step(&mut state).await {
            Ok(_) => op.safe_to_stop.clone(),
            Err(_) => {
                // The leader crashed (or was deposed): a new one starts from what was saved.
                let safe = op.safe_to_stop.clone();
                {
                    let mut h = sim.h();
                    h.crashed = false;
                    h.crash_at = 0;
                }
                (op, state) = start(&sim, &policy).await;
                restarts += 1;
                safe
            }
        };
        let mut h = sim.h();
        h.crash_at = 0;
        let w = &mut h.w;
        // An operator stops what the engine called safe to stop (after this tick's acts).
        if plan.stop {
            for b in safe {
                if w.drain.contains(&b) && !w.stopped.contains(&b) {
                    w.stop_broker(b);
                }
            }
        }
        w.advance();
    }
    drop(op);
    let h = Arc::try_unwrap(sim.0).ok().unwrap().into_inner().unwrap();
    (h.w, Shell { state, restarts })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn never_two_movers_order_and_drains_hold_under_faults(s in scenario()) {
        let (w, sh) = run(&s);
        // Never a second execution while one of ours runs or the executor was shown busy.
        for r in &w.requests {
            prop_assert!(
                r.ours_running.is_empty(),
                "execution request {:?} while our {:?} ran (restarts {})", r, r.ours_running, sh.restarts
            );
            prop_assert!(!r.shown_busy, "execution request {r:?} after the executor was shown busy");
        }
        // Every execution request reached Cruise Control after the state saying it is in
        // flight was saved: a successor never takes a sent request for one not sent.
        for r in &w.requests {
            prop_assert!(r.saved_in_flight, "execution request {r:?} before the state saying so was saved");
        }
        // Never a request while anything (ours or anyone's) executes: one mover at a time.
        for r in &w.requests {
            prop_assert!(!r.busy, "execution request {r:?} while an execution ran");
        }
        // A roll never restarts a node while any execution (ours or anyone's) or reassignments
        // someone else started run, and no execution is requested while the roll is in
        // progress: one mover at a time.
        for (tick, moving) in &w.roll_steps {
            prop_assert!(!moving, "a node restarted at tick {tick} while data moved");
        }
        for r in &w.requests {
            prop_assert!(!r.rolling, "execution request {r:?} during the roll");
            prop_assert!(!r.manual_rolling, "execution request {r:?} while another's roll held the lease");
        }
        if s.roll_at.is_some() {
            prop_assert_eq!(w.rolls_done, 1, "the roll finished once");
        }
        // The factor is in force, or its change failed in the world (not retried for good).
        if s.rf_at.is_some() {
            let failed = w
                .execs
                .iter()
                .any(|e| e.endpoint == "topic_configuration" && e.status == Status::Failed);
            prop_assert!(w.orders_rf == 3 || failed, "orders never reached 3: {:?}", w.requests);
        } else {
            prop_assert!(w.requests.iter().all(|r| r.endpoint != "topic_configuration"));
        }
        // A drained broker is never in an add_broker request; only brokers on the drain list
        // are in a remove_broker request; a rebalance or remove_broker request sent while
        // brokers of the cluster (running, or crashed and coming back) were on the drain list
        // allows replicas only onto other brokers.
        for r in &w.requests {
            if r.endpoint == "add_broker" {
                prop_assert!(r.brokers.is_disjoint(&r.drain_at_time), "{r:?}");
            }
            if r.endpoint == "remove_broker" {
                prop_assert!(r.brokers.is_subset(&r.drain_at_time), "{r:?}");
            }
            if matches!(r.endpoint, "rebalance" | "remove_broker") {
                for b in r.drain_at_time.intersection(&r.cluster_at_time) {
                    prop_assert!(
                        r.brokers.contains(b) || r.destinations.as_ref().is_some_and(|d| !d.contains(b)),
                        "request {r:?} may move replicas onto broker {b}, on the drain list"
                    );
                }
            }
        }
        // A broker stopped as "safe to stop" held no replica and nothing was putting one there.
        for e in &w.stops {
            prop_assert!(
                e.held == 0 && e.receiving.is_empty(),
                "broker {} stopped at tick {} as safe to stop, holding {} replica(s), while: {:?}",
                e.broker, e.tick, e.held, e.receiving
            );
        }
        // Requested together: the removal first (unless the drained broker was crashed, so
        // missing from Kafka's metadata and not drainable, before the add was requested).
        if let Some((at, b)) = s.drain
            && at == s.join_at
            && s.undrain.is_none()
            && s.grace_ms == 0
            && s.modes.contains(&Mode::RemoveBrokers)
        {
            let first_remove = w.requests.iter().position(|r| {
                r.tick >= at && r.endpoint == "remove_broker" && r.brokers.contains(&b)
            });
            let first_add = w.requests.iter().position(|r| {
                r.tick >= at && r.endpoint == "add_broker" && r.brokers.contains(&5)
            });
            if let Some(add) = first_add
                && !w
                    .crash_log
                    .iter()
                    .any(|(t, c)| *c == b && *t >= at && *t <= w.requests[add].tick)
            {
                prop_assert!(
                    first_remove.is_some_and(|rm| rm < add),
                    "add of 5 at request {add} before the removal of {b} ({:?})", w.requests
                );
            }
        }
        // Once quiet, everything requested is done.
        prop_assert_eq!(sh.state.rebalancer.state(), State::Idle, "{:?}", sh.state);
        prop_assert!(sh.state.mover.is_none(), "{:?}", sh.state);
        if let Some((_, b)) = s.drain
            && s.modes.contains(&Mode::RemoveBrokers)
            && w.drain.contains(&b)
        {
            prop_assert_eq!(w.brokers[&b], 0, "drained broker {} still holds replicas: {:?}", b, w.brokers);
        }
        if s.modes.contains(&Mode::AddBrokers) && !w.drain.contains(&5) {
            prop_assert!(w.brokers[&5] > 0, "broker 5 never filled: {:?}", w.brokers);
        }
        if !s.modes.contains(&Mode::AddBrokers) {
            prop_assert!(w.requests.iter().all(|r| r.endpoint != "add_broker"));
        }
        if !s.modes.contains(&Mode::RemoveBrokers) {
            prop_assert!(w.requests.iter().all(|r| r.endpoint != "remove_broker"));
        }
    }
}

fn crash_scenario(restart: u8) -> Scenario {
    let mut ticks = vec![TickPlan::default(); 10];
    ticks[0].restart = restart;
    Scenario {
        ticks,
        join_at: 0,
        drain: None,
        undrain: None,
        roll_at: None,
        rf_at: None,
        imbalance_at: None,
        cc_skew_ms: 0,
        encoded_urls: false,
        grace_ms: 0,
        modes: [Mode::AddBrokers].into_iter().collect(),
    }
}

/// Crashed right after the execution request, before its answer was saved: the restarted
/// leader finds the task in `user_tasks` and follows it; one request in all.
#[test]
fn a_leader_restarted_after_the_request_attaches_to_its_task() {
    let (w, sh) = run(&crash_scenario(3));
    assert_eq!(sh.restarts, 1);
    assert_eq!(w.requests.len(), 1, "{:?}", w.requests);
    assert_eq!(w.execs.len(), 1);
    assert_eq!(w.execs[0].status, Status::Completed);
    assert!(w.brokers[&5] > 0, "{:?}", w.brokers);
    assert_eq!(sh.state.rebalancer.state(), State::Idle);
}

/// Crashed after saving but before sending: nothing reached Cruise Control, so the restarted
/// leader counts it as not run and sends it (once).
#[test]
fn a_leader_restarted_before_the_request_sends_it_once() {
    let (w, sh) = run(&crash_scenario(2));
    assert_eq!(sh.restarts, 1);
    assert_eq!(w.requests.len(), 1, "{:?}", w.requests);
    assert!(w.brokers[&5] > 0, "{:?}", w.brokers);
    assert_eq!(sh.state.rebalancer.state(), State::Idle);
}

/// Crashed right after an execution request whose answer was lost while Cruise Control still
/// computes the proposal (listed in `user_tasks`, the executor idle for a few ticks): the
/// restarted leader knows the request was sent only from the state saved before it, finds the
/// task by its parameters and follows it; it never sends a second request for the same move.
#[test]
fn a_leader_restarted_while_its_request_is_still_computed_sends_no_second() {
    for delay in 1..=4 {
        let mut s = crash_scenario(3);
        s.ticks[0].lose_answer = Some(delay);
        let (w, sh) = run(&s);
        assert_eq!(sh.restarts, 1);
        assert_eq!(w.requests.len(), 1, "delay {delay}: {:?}", w.requests);
        assert_eq!(w.execs.len(), 1, "delay {delay}");
        assert_eq!(w.execs[0].status, Status::Completed, "delay {delay}");
        assert!(w.brokers[&5] > 0, "{:?}", w.brokers);
        assert_eq!(sh.state.rebalancer.state(), State::Idle);
    }
}
