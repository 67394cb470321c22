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
//! The test plays the shell: it observes the world, calls `decide`, drives the
//! `CcFlow` of the running rebalance command by command against the world, saves the state
//! (serialized) after every step and before an execution request, and restarts the "leader" at
//! random points by reloading that saved form (including between the save before an execution
//! request and the request, and between the request and the save of its task id).
//!
//! The oracles read only the world's history (execution requests, stops):
//! - never an execution request while an execution of ours is unfinished in the world (also one
//!   whose answer was lost), nor while the last executor state the world showed the engine was
//!   busy, nor while anyone's execution or reassignment runs (so never two movers);
//! - scale-down before scale-up: when a drain and an add are requested at the same tick, no
//!   add_broker execution for the added broker is requested before the first remove_broker
//!   execution for the drained one;
//! - a broker on the drain list is never in an add_broker request, and a broker off it never in
//!   a remove_broker request; a rebalance or remove_broker request sent while running brokers
//!   were on the drain list allows replicas only onto other brokers;
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

use kafkaops::cruise_control::model::{ExecutorState, MonitorState, TaskStatus, UserTask};
use kafkaops::engine::anomalies::{AnomalyRecord, AnomalyType};
use kafkaops::engine::cc_flow::{Command, Failure, FailureClass, FlowConfig, TaskView};
use kafkaops::engine::model::Millis;
use kafkaops::engine::operate::{
    Act, CcView, KafkaView, Observation, OperatePolicy, OperateState, RollWish, decide,
};
use kafkaops::engine::rebalance::{Mode, State};
use kafkaops::engine::replicas::TopicFacts;
use kafkaops::error::ExitCode;
use kafkaops::kafka::observation::Reassignment;
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
    /// The registered (running) brokers when it came.
    registered_at_time: BTreeSet<i32>,
    /// The brokers the request allowed replicas to move to (`None`: any).
    destinations: Option<BTreeSet<i32>>,
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
        self.brokers
            .keys()
            .copied()
            .filter(|b| !self.stopped.contains(b))
            .collect()
    }

    /// Where an execution of `endpoint` for `brokers` puts replicas, within `allowed` (the
    /// request's destinations; `None`: any running broker): an add fills the added brokers, a
    /// removal spreads over the others, a rebalance fills those below the mean, a new
    /// replication factor adds 4 replicas to the least loaded brokers.
    fn plan(
        &self,
        endpoint: &str,
        brokers: &BTreeSet<i32>,
        allowed: Option<&BTreeSet<i32>>,
    ) -> BTreeSet<i32> {
        let running = self.registered();
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

    fn observe(&mut self, user_tasks: bool) -> Observation {
        let kafka = if self.kafka_down {
            Err("kafka down".to_string())
        } else {
            // Replica counts and reassignments are separate reads: the counts do not show the
            // replica a reassignment in flight adds.
            Ok(KafkaView {
                brokers: self
                    .brokers
                    .iter()
                    .filter(|(b, _)| !self.stopped.contains(b))
                    .map(|(b, n)| (*b, *n))
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
            })
        };
        let cc = if self.cc_down {
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
        };
        Observation {
            now: Millis(self.now),
            kafka,
            cc,
            operator: None,
            platform_error: None,
            other_roll: (self.manual_roll_left > 0)
                .then(|| "Lease kafkaops-roll-c held by alice".to_string()),
            roll: (self.roll_wanted && !self.kafka_down).then(|| RollWish {
                nodes: [1, 2, 3].into_iter().collect(),
                reason: "broker configuration differs".into(),
            }),
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
            registered_at_time: self.registered(),
            destinations: destinations.cloned(),
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

fn flow_config() -> FlowConfig {
    FlowConfig {
        execute: true,
        assume_yes: true,
        no_wait: false,
        timeout_ms: 600_000,
        wait_for_ready_ms: 0,
        poll_interval_ms: TICK_MS,
        recheck: false,
        follow_timeout_ms: Some(u64::MAX),
    }
}

fn down() -> Failure {
    Failure {
        class: FailureClass::Retryable,
        exit: ExitCode::Unreachable,
        message: "cruise control down".into(),
    }
}

fn ids(set: &BTreeSet<i32>) -> String {
    set.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

fn endpoint(mode: Mode) -> &'static str {
    match mode {
        Mode::AddBrokers => "add_broker",
        Mode::RemoveBrokers => "remove_broker",
        Mode::Imbalance => "rebalance",
    }
}

/// The shell: saved documents and restarts.
struct Shell {
    state: OperateState,
    saved: String,
    restarts: u32,
}

impl Shell {
    fn save(&mut self) {
        self.saved = serde_json::to_string(&self.state).unwrap();
    }
    fn restart(&mut self) {
        self.state = serde_json::from_str(&self.saved).unwrap();
        self.restarts += 1;
    }
}

/// Drives the running rebalance's flow against the world until it waits or ends. Returns
/// false when the leader "crashed" in the middle (the caller restarts it).
fn step_flow(sh: &mut Shell, w: &mut World, crash_at: u8, lose_answer: Option<u32>) -> bool {
    let Some(mut flow) = sh.state.flow().cloned() else {
        return true;
    };
    let (ep, brokers, destinations) = match (sh.state.rebalance(), sh.state.replication_factors()) {
        (Some(r), _) => (
            endpoint(r.rebalance.mode),
            r.rebalance.brokers.clone(),
            r.destinations.clone(),
        ),
        (_, Some(_)) => ("topic_configuration", BTreeSet::new(), None),
        _ => return true,
    };
    // The execution request as the shell sends it (`commands/operate/act.rs`): the endpoint's
    // parameters, the destinations the engine allows, the reason with the mover's tag.
    let mut params: Vec<(String, String)> = Vec::new();
    if !brokers.is_empty() {
        params.push(("brokerid".into(), ids(&brokers)));
    }
    if let Some(d) = &destinations {
        params.push(("destination_broker_ids".into(), ids(d)));
    }
    params.push(("dryrun".into(), "false".into()));
    params.push((
        "reason".into(),
        format!("kafkaops operate: {ep} [{}]", sh.state.request_tag()),
    ));
    let now = Millis(w.now);
    let mut cmd = flow.resume(now);
    for _ in 0..50 {
        let next = match cmd.clone() {
            Command::ObserveReadiness => {
                if w.cc_down {
                    flow.handle_error(down())
                } else {
                    let ex = w.executor();
                    flow.handle_readiness(&MonitorState::default(), &ex, now)
                }
            }
            Command::CheckInput => flow.handle_input_checked(Ok(())),
            Command::RequestProposal => {
                if w.cc_down {
                    flow.handle_error(down())
                } else {
                    let noop = w.propose(ep, &brokers);
                    flow.handle_proposal(noop)
                }
            }
            Command::StartExecution => {
                // Saved before the request is sent.
                sh.state.set_flow(flow.clone());
                sh.state.mark_requested(now, Some(params.clone()));
                sh.save();
                if crash_at == 2 {
                    return false;
                }
                if w.cc_down {
                    flow.handle_error(down())
                } else {
                    match w.execute(
                        ep,
                        &brokers,
                        destinations.as_ref(),
                        params.clone(),
                        lose_answer,
                    ) {
                        Ok(_) if lose_answer.is_some() => flow.handle_error(Failure {
                            class: FailureClass::Retryable,
                            exit: ExitCode::Unreachable,
                            message: "the execution request timed out".into(),
                        }),
                        Ok(id) => {
                            if crash_at == 3 {
                                return false;
                            }
                            flow.handle_execution_started(Some(id), now)
                        }
                        Err(()) => flow.handle_error(Failure {
                            class: FailureClass::Retryable,
                            exit: ExitCode::Busy,
                            message: "an execution is in progress".into(),
                        }),
                    }
                }
            }
            Command::ObserveProgress => {
                if w.cc_down {
                    flow.handle_error(down())
                } else {
                    let ex = w.executor();
                    let task = match flow.task_id() {
                        None => TaskView::NoId,
                        Some(id) => match w.execs.iter().find(|e| e.id == id) {
                            None => TaskView::Lost,
                            Some(e) => TaskView::Status(match e.status {
                                Status::Pending => TaskStatus::Active,
                                Status::Running => TaskStatus::InExecution,
                                Status::Completed => TaskStatus::Completed,
                                Status::Failed => TaskStatus::CompletedWithError,
                            }),
                        },
                    };
                    flow.handle_progress(&ex, &task, now)
                }
            }
            Command::Wait { .. } | Command::Finish(_) | Command::Nothing => {
                cmd = Command::Nothing;
                Command::Nothing
            }
            other => panic!("operate's flow never asks for {other:?}"),
        };
        sh.state.set_flow(flow.clone());
        sh.save();
        if matches!(cmd, Command::Nothing) {
            break;
        }
        cmd = next;
    }
    true
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
    let mut w = World::new();
    w.cc_skew_ms = s.cc_skew_ms;
    w.encoded_urls = s.encoded_urls;
    let mut sh = Shell {
        state: OperateState::new(),
        saved: String::new(),
        restarts: 0,
    };
    sh.save();
    let quiet = 40;
    for t in 0..s.ticks.len() + quiet {
        let plan = s.ticks.get(t).cloned().unwrap_or_default();
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
        // The roll lease: free, or expired, when neither roll holds it.
        if let Some(n) = plan.manual_roll
            && !w.roll_active
            && w.manual_roll_left == 0
        {
            w.manual_roll_left = n;
        }
        if plan.restart == 1 {
            sh.restart();
        }
        let policy = OperatePolicy {
            modes: s.modes.clone(),
            drain: w.drain.clone(),
            scale_up_grace_ms: s.grace_ms,
            replication_factors: if s.rf_at.is_some_and(|at| t >= at) {
                [("orders".to_string(), 3)].into_iter().collect()
            } else {
                BTreeMap::new()
            },
        };
        let obs = w.observe(sh.state.needs_user_tasks());
        let d = decide(&mut sh.state, &obs, &policy, &flow_config());
        sh.save();
        let safe = d.safe_to_stop.clone();
        for act in d.acts {
            match act {
                Act::StepRebalance => {
                    if !step_flow(&mut sh, &mut w, plan.restart, plan.lose_answer) {
                        sh.restart();
                    }
                }
                Act::StopRebalance { .. } => {
                    if !w.cc_down {
                        w.stop();
                    }
                }
                Act::StepReplicationFactors => {
                    if !step_flow(&mut sh, &mut w, plan.restart, plan.lose_answer) {
                        sh.restart();
                    }
                }
                Act::StepRoll => {
                    if w.roll_step() {
                        sh.state.finish_roll(true, "done");
                    } else if let Some(r) = sh.state.roll_mut() {
                        r.run = Some(serde_json::json!({ "left": w.roll_left }));
                    }
                    sh.save();
                }
            }
        }
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
    (w, sh)
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
        // running brokers were on the drain list allows replicas only onto other brokers.
        for r in &w.requests {
            if r.endpoint == "add_broker" {
                prop_assert!(r.brokers.is_disjoint(&r.drain_at_time), "{r:?}");
            }
            if r.endpoint == "remove_broker" {
                prop_assert!(r.brokers.is_subset(&r.drain_at_time), "{r:?}");
            }
            if matches!(r.endpoint, "rebalance" | "remove_broker") {
                for b in r.drain_at_time.intersection(&r.registered_at_time) {
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
        // Requested together: the removal first.
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
            if let Some(add) = first_add {
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
