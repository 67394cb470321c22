//! Benchmark: a soak of `kafkaops operate` under faults (issue #23), judged from outside.
//!
//! Property tests prove the engine's rules on a simulated world; this runs the real binary for
//! a long time on a real cluster while things break, and records what happened from independent
//! observation only: the cluster's real state (metadata ISR, the BrokerState and
//! ReassigningPartitions gauges over Jolokia), the Cruise Control double's request log (its
//! stderr, which survives its restarts), the producers' delivery reports, a reader of every
//! partition, and the restart log of the control server kafkaops restarts nodes through. Nothing
//! is taken from kafkaops' own logs, metrics or state, except to say whether a second `operate`
//! waited for the lock (its own words, reported as such).
//!
//! Setup: 3 controllers (101-103) + 5 brokers (1-5), topics `soak` (12 partitions, RF 3,
//! `min.insync.replicas` 2) and `soak-rf` (6 partitions, RF 2 <-> 3, `min.insync.replicas` 1),
//! an idempotent `acks=all` producer on each (librdkafka's default 300 s message timeout), the
//! Cruise Control double (anomaly goal ReplicaDistributionGoal), and `kafkaops operate` with
//! every auto-rebalance mode, `--resync 2s` and `--restart-command` through the harness's
//! control server. For `--seconds` (default 20 minutes) four injector threads run:
//!
//! - brokers: SIGKILL and start later, graceful restart, SIGSTOP for a while (its metadata and
//!   Jolokia stall), one broker at a time;
//! - controllers: SIGKILL and start later, SIGSTOP for a while, the quorum leader half the time;
//! - Cruise Control and `operate`: restart the double (it forgets its tasks and its execution),
//!   SIGSTOP/SIGCONT `operate`, start a second `operate` on the same state directory (it must
//!   wait for the lock; half the time the first is paused meanwhile), SIGKILL or SIGTERM
//!   `operate` and start it again;
//! - the policy: a new value of a read-only broker setting (a roll of every broker), drains,
//!   undrains (add-brokers refills), replication-factor changes of `soak-rf`.
//!
//! Then the faults stop, everything is started again and the soak waits until nothing moves,
//! stops the producers, reads every partition and counts (each must be 0):
//!
//! 1. sends failed (delivery reports) and acknowledged records lost (not at their offset; one
//!    acknowledged without an offset, as librdkafka reports a send whose retry was answered
//!    `DUPLICATE_SEQUENCE_NUMBER`, not in its partition);
//! 2. executions requested twice for one intent: an execution request (`dryrun=false`) for an
//!    intent (endpoint + brokers, or the replication-factor body) that arrived while an earlier
//!    one for the same intent was still alive in the double, or when the intent had been met for
//!    5 s by the cluster's metadata after an earlier execution for it;
//! 3. moments with two movers: a kafkaops restart (request to the broker RUNNING again) that
//!    overlaps a Cruise Control execution (task InExecution to its end, or the double's death),
//!    reassignments in flight, or another kafkaops restart; an execution that overlaps
//!    reassignments a killed execution left behind; a POST or a restart that arrived while the
//!    leading `operate` was paused; a restart made by the second `operate`;
//! 4. restarts kafkaops made that took a partition below min ISR: at the moment the restart
//!    request reached the control server (the cluster locked, so no fault lands meanwhile), the
//!    node was in the partition's true ISR (metadata ISR minus the brokers that are not RUNNING,
//!    killed or paused) and that ISR was at or below the topic's `min.insync.replicas`.
//!
//! Faults the soak injects that take partitions below min ISR are counted apart (same check,
//! made before the fault). Everything is written to `--out` (events, samples, the double's and
//! operate's logs, `report.md`, `summary.json`); the report goes to stdout and the exit code is
//! 1 when a counter is not 0. Run it through `benches/soak.sh`, under the cluster flock.

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail, ensure};
use clap::Parser;
use rdkafka::ClientConfig;
use rdkafka::admin::{AdminClient, AdminOptions, ResourceSpecifier};
use rdkafka::client::DefaultClientContext;
use rdkafka::producer::{BaseProducer, Producer};
use serde::Serialize;
use serde_json::json;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::control::{ControlOptions, ControlServer, connection_args};
use support::kafka::{
    BackgroundProducer, ClusterSpec, KafkaCluster, create_topic, http_get, read_partitions,
    wait_for,
};
use support::operate::{Operate, OperateOptions, saved_state};

#[derive(Parser, Debug)]
#[command(about = "Soak kafkaops operate on a real cluster under injected faults")]
struct Args {
    /// How long faults are injected, in seconds.
    #[arg(long, default_value_t = 1200)]
    seconds: u64,
    /// How long to wait afterwards for everything to settle, in seconds.
    #[arg(long, default_value_t = 600)]
    settle_seconds: u64,
    /// Seed of the fault schedule [default: the clock].
    #[arg(long)]
    seed: Option<u64>,
    /// Directory for the report and the logs [default: a new directory under /tmp].
    #[arg(long)]
    out: Option<PathBuf>,
}

const BROKERS: [i32; 5] = [1, 2, 3, 4, 5];
const CONTROLLERS: [i32; 3] = [101, 102, 103];
const TOPIC: &str = "soak";
const RF_TOPIC: &str = "soak-rf";
/// A read-only broker setting: a new value rolls every broker (a restart does not apply it,
/// so `operate` rolls once per value and says so).
const READ_ONLY_KEY: &str = "group.initial.rebalance.delay.ms";
const WAIT: Duration = Duration::from_secs(180);

fn now_ms() -> u64 {
    u64::try_from(support::operate::epoch_ms()).unwrap_or(0)
}

// ---------------------------------------------------------------------------------------------
// Small tools: a seeded random source, sleeps that end early on stop, signals.
// ---------------------------------------------------------------------------------------------

/// xorshift64*: a reproducible fault schedule from one seed, no crate needed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Seconds in `lo..=hi`.
    fn secs(&mut self, lo: u64, hi: u64) -> Duration {
        Duration::from_secs(lo + self.next() % (hi - lo + 1))
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> Option<T> {
        (!xs.is_empty()).then(|| xs[usize::try_from(self.next() % xs.len() as u64).unwrap_or(0)])
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Sleeps `d`, in small steps; `false` when `stop` was set meanwhile.
fn nap(stop: &AtomicBool, d: Duration) -> bool {
    let until = Instant::now() + d;
    while Instant::now() < until {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        thread::sleep(Duration::from_millis(200).min(until - Instant::now()));
    }
    !stop.load(Ordering::SeqCst)
}

fn signal(pid: u32, sig: libc::c_int) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) with a pid this process started; no memory is involved.
        unsafe {
            libc::kill(pid, sig);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

// ---------------------------------------------------------------------------------------------
// What the soak itself did to the cluster (the recorder discounts it).
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct Truth {
    /// Nodes the soak killed or stopped and has not started again.
    down: BTreeSet<i32>,
    /// Nodes whose JVM the soak SIGSTOPped, with the pid.
    paused: BTreeMap<i32, u32>,
    /// The leading `operate` is SIGSTOPped (since when, epoch ms).
    operate_paused_since: Option<u64>,
}

// ---------------------------------------------------------------------------------------------
// The recorder: events and samples, epoch ms.
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Serialize)]
struct Event {
    at: u64,
    kind: String,
    node: Option<i32>,
    detail: serde_json::Value,
}

#[derive(Debug, Clone, Serialize)]
struct Part {
    topic: String,
    partition: i32,
    replicas: Vec<i32>,
    isr: Vec<i32>,
}

#[derive(Debug, Clone, Serialize)]
struct Sample {
    at: u64,
    /// The double's ExecutorState.state (`down`: not answering).
    executor: String,
    /// Sum of ReassigningPartitions over the RUNNING brokers.
    reassigning: i64,
    /// BrokerState per broker (-1: not running; absent: paused by the soak).
    brokers: BTreeMap<i32, i64>,
    /// Raft state per controller (`down`: not answering; absent: paused by the soak).
    controllers: BTreeMap<i32, String>,
    /// Metadata (`None`: could not be read).
    partitions: Option<Vec<Part>>,
}

struct Recorder {
    start: u64,
    events: Mutex<Vec<Event>>,
    samples: Mutex<Vec<Sample>>,
}

impl Recorder {
    fn event(&self, kind: &str, node: Option<i32>, detail: serde_json::Value) {
        let at = now_ms();
        eprintln!(
            "soak [{:>5}s] {kind}{} {detail}",
            (at.saturating_sub(self.start)) / 1000,
            node.map(|n| format!(" node {n}")).unwrap_or_default()
        );
        lock(&self.events).push(Event {
            at,
            kind: kind.into(),
            node,
            detail,
        });
    }
}

/// Independent reads of the cluster and the double (never through kafkaops).
struct Observer {
    meta: BaseProducer,
    admin: AdminClient<DefaultClientContext>,
    min_isr: Mutex<BTreeMap<String, i32>>,
    cc_port: u16,
    /// Jolokia port per node.
    agents: BTreeMap<i32, u16>,
}

fn jolokia(port: u16, path: &str) -> Result<serde_json::Value> {
    let body = http_get(port, &format!("/jolokia/read/{path}"))?;
    let v: serde_json::Value = serde_json::from_str(&body)?;
    ensure!(v["status"] == 200, "jolokia {path}: {body}");
    Ok(v["value"].clone())
}

impl Observer {
    /// Every partition of every topic, from a broker's metadata (retried: a paused broker
    /// answers nothing).
    fn partitions(&self) -> Result<Vec<Part>> {
        let mut last = None;
        for _ in 0..3 {
            match self
                .meta
                .client()
                .fetch_metadata(None, Duration::from_secs(5))
            {
                Ok(md) => {
                    let mut out = Vec::new();
                    for t in md.topics() {
                        for p in t.partitions() {
                            out.push(Part {
                                topic: t.name().to_string(),
                                partition: p.id(),
                                replicas: p.replicas().to_vec(),
                                isr: p.isr().to_vec(),
                            });
                        }
                    }
                    return Ok(out);
                }
                Err(e) => last = Some(e),
            }
        }
        Err(anyhow!("metadata: {last:?}"))
    }

    /// The topic's effective `min.insync.replicas` (DescribeConfigs, cached).
    fn min_isr(&self, topic: &str) -> Option<i32> {
        if let Some(v) = lock(&self.min_isr).get(topic) {
            return Some(*v);
        }
        let opts = AdminOptions::new().request_timeout(Some(Duration::from_secs(10)));
        let r = futures::executor::block_on(
            self.admin
                .describe_configs([&ResourceSpecifier::Topic(topic)], &opts),
        )
        .ok()?;
        let v: i32 = r
            .into_iter()
            .next()?
            .ok()?
            .get("min.insync.replicas")?
            .value
            .as_deref()?
            .parse()
            .ok()?;
        lock(&self.min_isr).insert(topic.to_string(), v);
        Some(v)
    }

    /// BrokerState (-1: not running).
    fn broker_state(&self, id: i32) -> i64 {
        match jolokia(
            self.agents[&id],
            "kafka.server:type=KafkaServer,name=BrokerState/Value",
        ) {
            Ok(v) => v.as_f64().map_or(-2, |f| f as i64),
            Err(_) => -1,
        }
    }

    /// The controller's raft state (`leader`, `follower`, ...; `down`: not answering).
    fn raft(&self, id: i32) -> String {
        jolokia(self.agents[&id], "kafka.server:type=raft-metrics")
            .ok()
            .and_then(|v| v["current-state"].as_str().map(str::to_string))
            .unwrap_or_else(|| "down".into())
    }

    /// A broker RUNNING, a controller leading or following.
    fn is_back(&self, id: i32) -> bool {
        if CONTROLLERS.contains(&id) {
            matches!(self.raft(id).as_str(), "leader" | "follower")
        } else {
            self.broker_state(id) == 3
        }
    }

    /// Voters that run and follow a leader now (not down or paused by the soak).
    fn voting(&self, truth: &Truth) -> BTreeSet<i32> {
        CONTROLLERS
            .iter()
            .copied()
            .filter(|c| !truth.down.contains(c) && !truth.paused.contains_key(c))
            .filter(|c| matches!(self.raft(*c).as_str(), "leader" | "follower"))
            .collect()
    }

    fn reassigning(&self, id: i32) -> i64 {
        jolokia(
            self.agents[&id],
            "kafka.server:type=ReplicaManager,name=ReassigningPartitions/Value",
        )
        .ok()
        .and_then(|v| v.as_f64())
        .map_or(0, |f| f as i64)
    }

    /// The double's executor state, `down` when it does not answer.
    fn executor(&self) -> String {
        match http_get(
            self.cc_port,
            "/kafkacruisecontrol/state?substates=executor&json=true",
        ) {
            Ok(body) => serde_json::from_str::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v["ExecutorState"]["state"].as_str().map(str::to_string))
                .unwrap_or_else(|| "unreadable".into()),
            Err(_) => "down".into(),
        }
    }

    /// Brokers serving now: RUNNING, not down or paused by the soak. Skips the paused ones
    /// (their Jolokia would hang).
    fn serving(&self, truth: &Truth) -> BTreeSet<i32> {
        BROKERS
            .iter()
            .copied()
            .filter(|b| !truth.down.contains(b) && !truth.paused.contains_key(b))
            .filter(|b| self.broker_state(*b) == 3)
            .collect()
    }

    /// The partitions that restarting `node` takes below their min ISR: `node` is in the true
    /// ISR (metadata ISR of serving brokers) and that ISR is at or below min ISR.
    fn at_min_isr(&self, parts: &[Part], serving: &BTreeSet<i32>, node: i32) -> Vec<String> {
        let mut out = Vec::new();
        for p in parts.iter().filter(|p| p.replicas.contains(&node)) {
            let live: Vec<i32> = p
                .isr
                .iter()
                .copied()
                .filter(|b| serving.contains(b))
                .collect();
            if !live.contains(&node) {
                continue;
            }
            let min = self.min_isr(&p.topic);
            if min.is_none_or(|m| i32::try_from(live.len()).unwrap_or(0) <= m) {
                out.push(format!(
                    "{}-{} isr {:?} serving {:?} min.insync.replicas {}",
                    p.topic,
                    p.partition,
                    p.isr,
                    live,
                    min.map_or("unknown".into(), |m| m.to_string())
                ));
            }
        }
        out
    }

    /// What a restart or fault of `node` meets now: the partitions it takes below min ISR
    /// (a controller: whether the running voters keep a majority without it), the executor,
    /// reassignments in flight.
    fn check(&self, truth: &Truth, node: i32) -> serde_json::Value {
        if CONTROLLERS.contains(&node) {
            let voting = self.voting(truth);
            let majority = CONTROLLERS.len() / 2 + 1;
            let left = voting.iter().filter(|c| **c != node).count();
            let breaks = voting.contains(&node) && left < majority;
            return json!({
                "breaks_quorum": breaks,
                "voting": voting,
                "below_min_isr": [],
                "executor": self.executor(),
                "reassigning": 0,
                "soak_down": truth.down,
                "soak_paused": truth.paused.keys().collect::<Vec<_>>(),
            });
        }
        let serving = self.serving(truth);
        let parts = self.partitions();
        let below = match &parts {
            Ok(p) => self.at_min_isr(p, &serving, node),
            Err(e) => vec![format!("metadata unreadable: {e:#}")],
        };
        let reassigning: i64 = serving.iter().map(|b| self.reassigning(*b)).sum();
        json!({
            "below_min_isr": below,
            "metadata_read": parts.is_ok(),
            "serving": serving,
            "executor": self.executor(),
            "reassigning": reassigning,
            "soak_down": truth.down,
            "soak_paused": truth.paused.keys().collect::<Vec<_>>(),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The soak.
// ---------------------------------------------------------------------------------------------

struct Soak {
    cluster: Arc<Mutex<KafkaCluster>>,
    cc: Mutex<CcDouble>,
    truth: Arc<Mutex<Truth>>,
    rec: Arc<Recorder>,
    obs: Arc<Observer>,
    stop: AtomicBool,
    out: PathBuf,
    operate: Mutex<Option<Operate>>,
    opts: OperateOptions,
    second_opts: OperateOptions,
    operate_logs: Mutex<u32>,
    policy: PathBuf,
}

/// One policy step: the knobs the policy thread turns.
#[derive(Clone, Debug)]
struct Knobs {
    drain: Vec<i32>,
    rf: u16,
    roll_value: Option<u32>,
    cleaner_threads: Option<u32>,
}

fn policy_yaml(k: &Knobs) -> String {
    let mut config = Vec::new();
    if let Some(v) = k.roll_value {
        config.push(format!("{READ_ONLY_KEY}: \"{v}\""));
    }
    if let Some(v) = k.cleaner_threads {
        config.push(format!("log.cleaner.threads: \"{v}\""));
    }
    format!(
        "autoRebalance:\n  - mode: add-brokers\n    template: {{ name: add }}\n  - mode: remove-brokers\n    \
         template: {{ name: remove }}\n  - mode: imbalance\n    template: {{ name: full }}\n\
         scaleUpGracePeriod: 30s\ndrain: [{}]\ntemplates:\n  add: {{}}\n  remove: {{ replicationThrottle: 10000000 }}\n  \
         full: {{}}\nreplicationFactors: {{ {RF_TOPIC}: {} }}\nroll:\n  brokerConfig: {{ {} }}\n  maxBatchSize: 1\n",
        k.drain
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        k.rf,
        config.join(", ")
    )
}

/// The policy steps, in order (then again with new values of the read-only key).
fn policy_steps(round: u32) -> Vec<(&'static str, Knobs)> {
    let v = |n: u32| Some(10 + round * 10 + n);
    vec![
        (
            "roll (read-only key)",
            Knobs {
                drain: vec![],
                rf: 2,
                roll_value: v(1),
                cleaner_threads: None,
            },
        ),
        (
            "drain 5",
            Knobs {
                drain: vec![5],
                rf: 2,
                roll_value: v(1),
                cleaner_threads: None,
            },
        ),
        (
            "RF 3",
            Knobs {
                drain: vec![5],
                rf: 3,
                roll_value: v(1),
                cleaner_threads: None,
            },
        ),
        (
            "undrain",
            Knobs {
                drain: vec![],
                rf: 3,
                roll_value: v(1),
                cleaner_threads: None,
            },
        ),
        (
            "roll + dynamic key",
            Knobs {
                drain: vec![],
                rf: 3,
                roll_value: v(2),
                cleaner_threads: Some(2),
            },
        ),
        (
            "drain 2 + RF 2",
            Knobs {
                drain: vec![2],
                rf: 2,
                roll_value: v(2),
                cleaner_threads: Some(2),
            },
        ),
        (
            "undrain",
            Knobs {
                drain: vec![],
                rf: 2,
                roll_value: v(2),
                cleaner_threads: Some(2),
            },
        ),
        (
            "roll + dynamic key back",
            Knobs {
                drain: vec![],
                rf: 2,
                roll_value: v(3),
                cleaner_threads: Some(1),
            },
        ),
        (
            "drain 4 + RF 3",
            Knobs {
                drain: vec![4],
                rf: 3,
                roll_value: v(3),
                cleaner_threads: Some(1),
            },
        ),
        (
            "undrain",
            Knobs {
                drain: vec![],
                rf: 3,
                roll_value: v(3),
                cleaner_threads: Some(1),
            },
        ),
    ]
}

fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

impl Soak {
    fn cluster(&self) -> MutexGuard<'_, KafkaCluster> {
        lock(&self.cluster)
    }

    /// Keeps an `operate` log in the output directory.
    fn keep_log(&self, name: &str, log: &str) {
        let mut n = lock(&self.operate_logs);
        *n += 1;
        let _ = std::fs::write(self.out.join(format!("{name}-{:02}.log", *n)), log);
    }

    fn operate_pid(&self) -> Option<u32> {
        lock(&self.operate).as_ref().and_then(Operate::pid)
    }

    // ---- brokers ----------------------------------------------------------------------------

    fn broker_faults(&self, mut rng: Rng) {
        while nap(&self.stop, rng.secs(15, 45)) {
            let candidates: Vec<i32> = {
                let t = lock(&self.truth);
                BROKERS
                    .iter()
                    .copied()
                    .filter(|b| !t.down.contains(b) && !t.paused.contains_key(b))
                    .collect()
            };
            let Some(b) = rng.pick(&candidates) else {
                continue;
            };
            match rng.next() % 100 {
                0..40 => self.kill_for(b, rng.secs(5, 40), "broker-kill"),
                40..65 => self.graceful_restart(b),
                _ => self.pause_for(b, rng.secs(8, 30), "broker-pause"),
            }
            self.wait_back(b);
        }
    }

    /// SIGKILL `node`, start it again after `hold`.
    fn kill_for(&self, node: i32, hold: Duration, kind: &str) {
        {
            let mut c = self.cluster();
            if !c.is_running(node) {
                return;
            }
            let check = {
                let t = lock(&self.truth);
                self.fault_check(&t, node)
            };
            if let Err(e) = c.kill_node(node) {
                eprintln!("soak: kill {node}: {e:#}");
                return;
            }
            lock(&self.truth).down.insert(node);
            self.rec.event(
                &format!("fault:{kind}"),
                Some(node),
                json!({ "hold_s": hold.as_secs(), "check": check }),
            );
        }
        thread::sleep(hold);
        self.start_again(node);
    }

    /// The at-min-ISR check before a soak fault of a broker (controllers: nothing to check).
    fn fault_check(&self, t: &Truth, node: i32) -> serde_json::Value {
        self.obs.check(t, node)
    }

    fn start_again(&self, node: i32) {
        let mut c = self.cluster();
        lock(&self.truth).down.remove(&node);
        if c.is_running(node) {
            self.rec
                .event("restore:already-running", Some(node), json!({}));
            return;
        }
        match c.start_node(node) {
            Ok(()) => self.rec.event("restore:start", Some(node), json!({})),
            Err(e) => self.rec.event(
                "restore:start-failed",
                Some(node),
                json!({ "error": format!("{e:#}") }),
            ),
        }
    }

    /// SIGTERM (controlled shutdown), wait for the exit without holding the cluster, start.
    fn graceful_restart(&self, node: i32) {
        {
            let mut c = self.cluster();
            if !c.is_running(node) {
                return;
            }
            let check = {
                let t = lock(&self.truth);
                self.fault_check(&t, node)
            };
            if c.signal_stop(node).is_err() {
                return;
            }
            lock(&self.truth).down.insert(node);
            self.rec.event(
                "fault:broker-restart",
                Some(node),
                json!({ "check": check }),
            );
        }
        let deadline = Instant::now() + Duration::from_secs(120);
        while self.cluster().is_running(node) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(200));
        }
        if self.cluster().is_running(node) {
            let _ = self.cluster().kill_node(node);
        }
        self.start_again(node);
    }

    /// SIGSTOP `node`'s JVM for `hold`, then SIGCONT.
    fn pause_for(&self, node: i32, hold: Duration, kind: &str) {
        let pid = {
            let mut c = self.cluster();
            if !c.is_running(node) {
                return;
            }
            let Some(pid) = c.pid(node) else { return };
            let check = {
                let t = lock(&self.truth);
                self.fault_check(&t, node)
            };
            signal(pid, libc::SIGSTOP);
            lock(&self.truth).paused.insert(node, pid);
            self.rec.event(
                &format!("fault:{kind}"),
                Some(node),
                json!({ "hold_s": hold.as_secs(), "check": check }),
            );
            pid
        };
        thread::sleep(hold);
        // Without the cluster lock: a restart of this node may hold it, waiting for the exit.
        signal(pid, libc::SIGCONT);
        lock(&self.truth).paused.remove(&node);
        self.rec.event("restore:cont", Some(node), json!({}));
    }

    /// Waits (bounded) until a broker is RUNNING again or a controller runs.
    fn wait_back(&self, node: i32) {
        let deadline = Instant::now() + Duration::from_secs(180);
        while Instant::now() < deadline {
            if BROKERS.contains(&node) {
                if self.obs.broker_state(node) == 3 {
                    return;
                }
            } else if self.cluster().is_running(node) {
                return;
            }
            thread::sleep(Duration::from_millis(500));
        }
        self.rec.event("warn:not-back", Some(node), json!({}));
    }

    // ---- controllers ------------------------------------------------------------------------

    fn controller_faults(&self, mut rng: Rng) {
        while nap(&self.stop, rng.secs(40, 100)) {
            let leader = self.cluster().quorum_leader().ok().flatten();
            let node = if rng.chance(50) {
                leader.or_else(|| rng.pick(&CONTROLLERS))
            } else {
                rng.pick(&CONTROLLERS)
            };
            let Some(node) = node else { continue };
            if rng.chance(50) {
                self.kill_for(node, rng.secs(5, 25), "controller-kill");
            } else {
                self.pause_for(node, rng.secs(5, 20), "controller-pause");
            }
            self.wait_back(node);
        }
    }

    // ---- Cruise Control and operate ---------------------------------------------------------

    fn ops_faults(&self, mut rng: Rng) {
        while nap(&self.stop, rng.secs(30, 80)) {
            match rng.next() % 100 {
                0..25 => self.restart_cc(),
                25..50 => self.pause_operate(rng.secs(10, 60)),
                50..75 => self.second_operate(rng.secs(20, 60), rng.chance(50)),
                75..88 => self.restart_operate("KILL"),
                _ => self.restart_operate("TERM"),
            }
        }
    }

    fn restart_cc(&self) {
        let mut cc = lock(&self.cc);
        self.rec.event("fault:cc-restart", None, json!({}));
        if let Err(e) = cc.restart() {
            self.rec.event(
                "warn:cc-restart-failed",
                None,
                json!({ "error": format!("{e:#}") }),
            );
        }
    }

    fn pause_operate(&self, hold: Duration) {
        let Some(pid) = self.operate_pid() else {
            return;
        };
        signal(pid, libc::SIGSTOP);
        lock(&self.truth).operate_paused_since = Some(now_ms());
        self.rec.event(
            "fault:operate-pause",
            None,
            json!({ "hold_s": hold.as_secs() }),
        );
        thread::sleep(hold);
        self.rec.event("restore:operate-cont", None, json!({}));
        lock(&self.truth).operate_paused_since = None;
        signal(pid, libc::SIGCONT);
    }

    /// A second `operate` on the same state directory for `hold` (the first paused for part
    /// of it when `pause_first`): it must wait for the lock.
    fn second_operate(&self, hold: Duration, pause_first: bool) {
        let mut second = match Operate::start(&self.second_opts) {
            Ok(o) => o,
            Err(e) => {
                self.rec.event(
                    "warn:second-operate-failed",
                    None,
                    json!({ "error": format!("{e:#}") }),
                );
                return;
            }
        };
        self.rec.event(
            "fault:operate-second",
            None,
            json!({ "hold_s": hold.as_secs(), "first_paused": pause_first }),
        );
        if pause_first {
            self.pause_operate(hold / 2);
            thread::sleep(hold / 2);
        } else {
            thread::sleep(hold);
        }
        let code = second.terminate().ok().flatten();
        let log = second.log();
        let waited = log.contains("another kafkaops operate holds");
        let led = log.contains(" leading; state ");
        self.rec.event(
            "restore:operate-second-stopped",
            None,
            json!({ "exit": code, "said_it_waited": waited, "said_it_led": led }),
        );
        self.keep_log("second-operate", &log);
    }

    fn restart_operate(&self, sig: &str) {
        let mut slot = lock(&self.operate);
        if let Some(mut op) = slot.take() {
            self.rec.event(
                &format!("fault:operate-{}", sig.to_lowercase()),
                None,
                json!({}),
            );
            let _ = op.signal(sig, Duration::from_secs(60));
            self.keep_log("operate", &op.log());
        }
        match Operate::start(&self.opts) {
            Ok(op) => *slot = Some(op),
            Err(e) => self.rec.event(
                "warn:operate-start-failed",
                None,
                json!({ "error": format!("{e:#}") }),
            ),
        }
    }

    // ---- the policy -------------------------------------------------------------------------

    fn policy_changes(&self, mut rng: Rng) {
        let mut round = 0;
        loop {
            for (name, knobs) in policy_steps(round) {
                if !nap(&self.stop, rng.secs(90, 140)) {
                    return;
                }
                if let Err(e) = write_atomically(&self.policy, &policy_yaml(&knobs)) {
                    eprintln!("soak: policy: {e:#}");
                }
                self.rec.event(
                    "policy",
                    None,
                    json!({ "step": name, "drain": knobs.drain, "rf": knobs.rf,
                            "roll_value": knobs.roll_value, "cleaner_threads": knobs.cleaner_threads }),
                );
            }
            round += 1;
        }
    }

    // ---- the monitor ------------------------------------------------------------------------

    fn monitor(&self, stop: &AtomicBool) {
        while !stop.load(Ordering::SeqCst) {
            let at = now_ms();
            let paused: BTreeSet<i32> = lock(&self.truth).paused.keys().copied().collect();
            let brokers: BTreeMap<i32, i64> = BROKERS
                .iter()
                .filter(|b| !paused.contains(b))
                .map(|b| (*b, self.obs.broker_state(*b)))
                .collect();
            let reassigning = brokers
                .iter()
                .filter(|(_, s)| **s == 3)
                .map(|(b, _)| self.obs.reassigning(*b))
                .sum();
            let controllers: BTreeMap<i32, String> = CONTROLLERS
                .iter()
                .filter(|c| !paused.contains(c))
                .map(|c| (*c, self.obs.raft(*c)))
                .collect();
            let sample = Sample {
                at,
                executor: self.obs.executor(),
                reassigning,
                brokers,
                controllers,
                partitions: self.obs.partitions().ok(),
            };
            lock(&self.rec.samples).push(sample);
            let spent = Duration::from_millis(now_ms().saturating_sub(at));
            thread::sleep(Duration::from_secs(1).saturating_sub(spent));
        }
    }

    // ---- settle -----------------------------------------------------------------------------

    /// Everything running again, nothing paused; then waits until nothing moves.
    fn settle(&self, deadline: Duration) -> Result<()> {
        {
            let mut c = self.cluster();
            let ids: Vec<i32> = BROKERS.iter().chain(CONTROLLERS.iter()).copied().collect();
            let t = lock(&self.truth);
            for pid in t.paused.values() {
                signal(*pid, libc::SIGCONT);
            }
            drop(t);
            for id in ids {
                if !c.is_running(id) {
                    c.start_node(id)?;
                    self.rec.event("settle:start", Some(id), json!({}));
                }
            }
        }
        if let Some(pid) = self.operate_pid() {
            signal(pid, libc::SIGCONT);
        }
        let state_dir = self.opts.state_dir.clone();
        let mut quiet = 0;
        wait_for("nothing to move any more", deadline, || {
            let brokers_ok = BROKERS.iter().all(|b| self.obs.broker_state(*b) == 3);
            let parts = self.obs.partitions()?;
            let full = parts.iter().all(|p| p.isr.len() == p.replicas.len());
            let executor = self.obs.executor();
            let reassigning: i64 = BROKERS.iter().map(|b| self.obs.reassigning(*b)).sum();
            // kafkaops' own state only says when to stop waiting; no counter reads it.
            let idle = saved_state(&state_dir).is_some_and(|s| s["mover"].is_null());
            let still =
                brokers_ok && full && executor == "NO_TASK_IN_PROGRESS" && reassigning == 0 && idle;
            quiet = if still { quiet + 1 } else { 0 };
            Ok((quiet >= 10).then_some(()))
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The double's request log.
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Serialize)]
struct Execution {
    task: String,
    incarnation: usize,
    requested_at: u64,
    endpoint: String,
    intent: String,
    url: String,
    started_at: Option<u64>,
    ended_at: Option<u64>,
    /// Completed, CompletedWithError, NotStarted, killed (the double restarted), running (at the
    /// end of the soak), none (no execution: an empty proposal or an error).
    end: String,
}

fn query_param(url: &str, key: &str) -> Option<String> {
    let q = url.split_once('?')?.1;
    let q = q.split_whitespace().next().unwrap_or(q);
    q.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        k.eq_ignore_ascii_case(key).then(|| v.to_string())
    })
}

/// Executions from the double's logs (one per start). `deaths[i]`: when start `i` was killed
/// (`None`: the last one, alive at the end).
fn executions(logs: &[String], deaths: &[Option<u64>]) -> Vec<Execution> {
    let mut out: Vec<Execution> = Vec::new();
    for (i, log) in logs.iter().enumerate() {
        let mut by_task: BTreeMap<String, usize> = BTreeMap::new();
        for line in log.lines() {
            let Some(rest) = line.strip_prefix("cc-double: ") else {
                continue;
            };
            let f: Vec<&str> = rest.splitn(5, ' ').collect();
            match f.as_slice() {
                ["request", at, task, "POST", url] => {
                    let dry = query_param(url, "dryrun").is_none_or(|v| v != "false");
                    let path = url.split('?').next().unwrap_or("");
                    let endpoint = path.rsplit('/').next().unwrap_or("").to_string();
                    if dry || endpoint == "stop_proposal_execution" {
                        continue;
                    }
                    let intent = match endpoint.as_str() {
                        "add_broker" | "remove_broker" => format!(
                            "{endpoint} {}",
                            query_param(url, "brokerid").unwrap_or_default()
                        ),
                        "topic_configuration" => format!(
                            "{endpoint} {}",
                            url.split_once(" body=").map_or_else(
                                || query_param(url, "topic").unwrap_or_default()
                                    + "="
                                    + &query_param(url, "replication_factor").unwrap_or_default(),
                                |(_, b)| b.to_string()
                            )
                        ),
                        _ => endpoint.clone(),
                    };
                    by_task.insert((*task).to_string(), out.len());
                    out.push(Execution {
                        task: (*task).to_string(),
                        incarnation: i,
                        requested_at: at.parse().unwrap_or(0),
                        endpoint,
                        intent,
                        url: (*url).to_string(),
                        started_at: None,
                        ended_at: None,
                        end: "none".into(),
                    });
                }
                ["task", at, task, status, ..] => {
                    let Some(&k) = by_task.get(*task) else {
                        continue;
                    };
                    let at: u64 = at.parse().unwrap_or(0);
                    match *status {
                        "InExecution" => {
                            out[k].started_at = Some(at);
                            out[k].end = "running".into();
                        }
                        s => {
                            out[k].ended_at = Some(at);
                            s.clone_into(&mut out[k].end);
                        }
                    }
                }
                _ => {}
            }
        }
        for e in out.iter_mut().filter(|e| e.incarnation == i) {
            if e.started_at.is_some()
                && e.ended_at.is_none()
                && let Some(d) = deaths.get(i).copied().flatten()
            {
                e.ended_at = Some(d);
                e.end = "killed".into();
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Analysis.
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Default, Serialize)]
struct Counters {
    sends_failed: u64,
    acknowledged_lost: u64,
    duplicate_executions: u64,
    two_mover_moments: u64,
    restarts_below_min_isr: u64,
    restarts_breaking_quorum: u64,
}

impl Counters {
    fn all_zero(&self) -> bool {
        self.sends_failed == 0
            && self.acknowledged_lost == 0
            && self.duplicate_executions == 0
            && self.two_mover_moments == 0
            && self.restarts_below_min_isr == 0
            && self.restarts_breaking_quorum == 0
    }
}

/// Whether `intent` was met by the metadata of sample `s`.
fn intent_met(intent: &str, s: &Sample) -> Option<bool> {
    let parts = s.partitions.as_ref()?;
    let (endpoint, arg) = intent.split_once(' ').unwrap_or((intent, ""));
    let held = |b: i32| parts.iter().filter(|p| p.replicas.contains(&b)).count();
    match endpoint {
        "remove_broker" => Some(
            arg.split(',')
                .filter_map(|b| b.parse().ok())
                .all(|b| held(b) == 0),
        ),
        "add_broker" => Some(
            arg.split(',')
                .filter_map(|b| b.parse().ok())
                .all(|b| held(b) > 0),
        ),
        "topic_configuration" => {
            let v: serde_json::Value = serde_json::from_str(arg).ok()?;
            let obj = v
                .get("replication_factor")?
                .get("topic_by_replication_factor")?;
            let mut all = true;
            for (rf, pattern) in obj.as_object()? {
                let rf: usize = rf.parse().ok()?;
                // A regex of literal names: `a|b`, maybe with escaped characters.
                let topics: Vec<String> = pattern
                    .as_str()?
                    .split('|')
                    .map(|t| t.replace('\\', ""))
                    .collect();
                all &= parts
                    .iter()
                    .filter(|p| topics.contains(&p.topic))
                    .all(|p| p.replicas.len() == rf);
            }
            Some(all)
        }
        _ => None,
    }
}

struct Findings {
    counters: Counters,
    lines: Vec<String>,
}

#[allow(clippy::too_many_lines)]
fn analyse(
    events: &[Event],
    samples: &[Sample],
    execs: &[Execution],
    failed: u64,
    lost: u64,
    end: u64,
) -> Findings {
    let mut c = Counters {
        sends_failed: failed,
        acknowledged_lost: lost,
        ..Counters::default()
    };
    let mut lines = Vec::new();

    // 4. Restarts kafkaops made at min ISR (the check made in the control server's hook).
    let restarts: Vec<&Event> = events
        .iter()
        .filter(|e| e.kind == "kafkaops-restart")
        .collect();
    let faults: Vec<&Event> = events
        .iter()
        .filter(|e| e.kind.starts_with("fault:"))
        .collect();
    for r in restarts
        .iter()
        .filter(|r| r.detail["check"]["breaks_quorum"] == true)
    {
        c.restarts_breaking_quorum += 1;
        lines.push(format!(
            "restart of controller {:?} at {} left the running voters {} without a majority",
            r.node, r.at, r.detail["check"]["voting"]
        ));
    }
    for r in &restarts {
        let below = r.detail["check"]["below_min_isr"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if !below.is_empty() {
            c.restarts_below_min_isr += 1;
            let last_fault = faults
                .iter()
                .rev()
                .find(|f| f.at <= r.at)
                .map(|f| format!("{} {:?} {} ms before", f.kind, f.node, r.at - f.at));
            lines.push(format!(
                "restart of node {:?} at {} took partitions below min ISR: {below:?} (last soak fault: {})",
                r.node,
                r.at,
                last_fault.unwrap_or_else(|| "none".into())
            ));
        }
    }

    // 3. Two movers. A kafkaops restart lasts from its request to the broker's first RUNNING
    // sample after the new process was spawned.
    let mut intervals: Vec<(u64, u64, i32)> = Vec::new();
    for r in &restarts {
        let node = r.node.unwrap_or(-1);
        let spawned = events
            .iter()
            .find(|e| e.kind == "kafkaops-restart-spawned" && e.node == r.node && e.at >= r.at)
            .map_or(r.at, |e| e.at);
        // The earliest moment it may have been back: the sample before the first that shows
        // it back (samples are about a second apart; overlaps shorter than that are judged
        // exactly at each restart, from `kafkaops_restarted_not_back` and the executor).
        let first_back = samples.iter().position(|s| {
            s.at > spawned
                && (s.brokers.get(&node) == Some(&3)
                    || s.controllers
                        .get(&node)
                        .is_some_and(|r| r == "leader" || r == "follower"))
        });
        let back = first_back.map_or(end, |i| samples[i.saturating_sub(1)].at.max(spawned));
        // A fault the soak makes on the node meanwhile is the soak's from then on.
        let faulted = faults
            .iter()
            .find(|f| f.node == r.node && f.at > r.at)
            .map_or(end, |f| f.at);
        intervals.push((r.at, back.min(faulted), node));
        let executor = r.detail["check"]["executor"].as_str().unwrap_or("");
        let reassigning = r.detail["check"]["reassigning"].as_i64().unwrap_or(0);
        // `down`: no executor to run anything; `unreadable`: left to the intervals below.
        let busy = !matches!(executor, "NO_TASK_IN_PROGRESS" | "down" | "unreadable" | "");
        if busy || reassigning > 0 {
            c.two_mover_moments += 1;
            lines.push(format!(
                "restart of node {node} at {} while the executor was {executor} and {reassigning} partitions were reassigning",
                r.at
            ));
        }
        let not_back: Vec<i64> = r.detail["kafkaops_restarted_not_back"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(serde_json::Value::as_i64)
            .collect();
        let others: Vec<i64> = not_back
            .iter()
            .copied()
            .filter(|n| *n != i64::from(node))
            .collect();
        if !others.is_empty() {
            c.two_mover_moments += 1;
            lines.push(format!(
                "restart of node {node} at {} while nodes {others:?} kafkaops restarted were not back",
                r.at
            ));
        }
        if not_back.contains(&i64::from(node)) {
            lines.push(format!(
                "note: node {node} restarted again at {} before it was back from kafkaops' previous restart",
                r.at
            ));
        }
    }
    for &(a0, a1, n) in &intervals {
        for e in execs.iter().filter(|e| e.started_at.is_some()) {
            let (e0, e1) = (e.started_at.unwrap_or(0), e.ended_at.unwrap_or(end));
            if e0 < a1 && a0 < e1 {
                c.two_mover_moments += 1;
                lines.push(format!(
                    "restart of node {n} ({a0}..{a1}) overlaps execution {} {} ({e0}..{e1})",
                    e.task, e.intent
                ));
            }
        }
        let during: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.at > a0 && s.at < a1 && s.reassigning > 0)
            .collect();
        if let Some(s) = during.first() {
            c.two_mover_moments += 1;
            lines.push(format!(
                "restart of node {n} ({a0}..{a1}): {} partitions reassigning at {} ({} samples)",
                s.reassigning,
                s.at,
                during.len()
            ));
        }
    }
    // An execution started while reassignments no execution owned were in flight (left by
    // one the double's restart killed): the last sample before it shows them, and no other
    // execution was alive then.
    for e in execs {
        let Some(start) = e.started_at else { continue };
        let owned = |t: u64| {
            execs
                .iter()
                .any(|o| o.started_at.is_some_and(|s| s <= t) && o.ended_at.is_none_or(|x| x >= t))
        };
        if let Some(s) = samples.iter().rev().find(|s| s.at < e.requested_at)
            && s.reassigning > 0
            && !owned(s.at)
            && e.requested_at - s.at < 3_000
        {
            c.two_mover_moments += 1;
            lines.push(format!(
                "execution {} {} requested at {} (started {start}) while {} orphaned partitions were reassigning",
                e.task, e.intent, e.requested_at, s.reassigning
            ));
        }
    }
    // Anything that reached the double or the control server while the leading operate was
    // paused (after a second of grace for requests already on their way), or a restart by the
    // second operate.
    let mut paused: Vec<(u64, u64)> = Vec::new();
    for e in events.iter().filter(|e| e.kind == "fault:operate-pause") {
        let until = events
            .iter()
            .find(|x| x.kind == "restore:operate-cont" && x.at >= e.at)
            .map_or(end, |x| x.at);
        paused.push((e.at + 1_000, until));
    }
    for e in execs {
        if paused
            .iter()
            .any(|(a, b)| e.requested_at > *a && e.requested_at < *b)
        {
            c.two_mover_moments += 1;
            lines.push(format!(
                "execution {} {} requested at {} while the leading operate was paused",
                e.task, e.intent, e.requested_at
            ));
        }
    }
    for r in &restarts {
        if paused.iter().any(|(a, b)| r.at > *a && r.at < *b) {
            c.two_mover_moments += 1;
            lines.push(format!(
                "restart of node {:?} at {} while the leading operate was paused",
                r.node, r.at
            ));
        }
    }
    for e in events.iter().filter(|e| e.kind == "second-operate-restart") {
        c.two_mover_moments += 1;
        lines.push(format!(
            "the second operate restarted node {:?} at {}",
            e.node, e.at
        ));
    }

    // 2. Executions requested twice for one intent.
    for (i, e) in execs.iter().enumerate() {
        for o in &execs[..i] {
            if o.intent != e.intent {
                continue;
            }
            let alive = o.incarnation == e.incarnation
                && o.requested_at <= e.requested_at
                && o.ended_at.map_or(
                    // Never started: alive only while its request was answered (no end line).
                    o.started_at.is_some() || o.end == "running",
                    |x| x > e.requested_at,
                );
            if alive {
                c.duplicate_executions += 1;
                lines.push(format!(
                    "execution {} {} requested at {} while {} for the same intent was alive",
                    e.task, e.intent, e.requested_at, o.task
                ));
                break;
            }
        }
        let earlier = execs[..i]
            .iter()
            .any(|o| o.intent == e.intent && o.started_at.is_some());
        if !earlier {
            continue;
        }
        let window: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.at + 5_000 >= e.requested_at && s.at < e.requested_at)
            .collect();
        if !window.is_empty()
            && window
                .iter()
                .all(|s| intent_met(&e.intent, s) == Some(true) && s.reassigning == 0)
        {
            c.duplicate_executions += 1;
            lines.push(format!(
                "execution {} {} requested at {} for an intent met for 5 s after an earlier execution",
                e.task, e.intent, e.requested_at
            ));
        }
    }
    Findings { counters: c, lines }
}

// ---------------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------------

#[allow(clippy::too_many_lines)]
fn main() -> Result<()> {
    let args = Args::parse();
    ensure!(
        std::env::var_os("KAFKAOPS_TEST_BIN").is_some(),
        "set KAFKAOPS_TEST_BIN to the kafkaops binary (benches/soak.sh does)"
    );
    let seed = args.seed.unwrap_or_else(now_ms);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("kafkaops-soak-{}", now_ms() / 1000)));
    std::fs::create_dir_all(&out)?;
    eprintln!(
        "soak: seed {seed}, {} s of faults, output in {}",
        args.seconds,
        out.display()
    );
    let bin = support::bin::kafkaops_bin();
    eprintln!("soak: binary {}", bin.display());

    let cluster = KafkaCluster::start(ClusterSpec::split(3, BROKERS.len()))?;
    eprintln!("soak: cluster started in {:?}", cluster.start_duration());
    let bootstrap = cluster.bootstrap_servers();
    let agents: BTreeMap<i32, u16> = cluster
        .nodes()
        .iter()
        .map(|n| (n.id, n.agent_port))
        .collect();
    let conn = connection_args(&cluster);
    let cluster = Arc::new(Mutex::new(cluster));
    let on = |p: usize, rf: usize| -> Vec<i32> { (0..rf).map(|r| BROKERS[(p + r) % 5]).collect() };
    create_topic(
        &bootstrap,
        TOPIC,
        &(0..12).map(|p| on(p, 3)).collect::<Vec<_>>(),
        &[("min.insync.replicas", "2")],
    )?;
    create_topic(
        &bootstrap,
        RF_TOPIC,
        &(0..6).map(|p| on(p + 2, 2)).collect::<Vec<_>>(),
        &[("min.insync.replicas", "1")],
    )?;
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            anomaly_detection_goals: Some(vec!["ReplicaDistributionGoal".into()]),
            ..Default::default()
        },
    )?;
    let cc_url = cc.url();
    let client = |_| -> Result<ClientConfig> {
        let mut c = ClientConfig::new();
        c.set("bootstrap.servers", &bootstrap)
            .set("socket.timeout.ms", "10000")
            .set("log_level", "3");
        Ok(c)
    };
    let obs = Arc::new(Observer {
        meta: client(())?.create()?,
        admin: client(())?.create()?,
        min_isr: Mutex::new(BTreeMap::new()),
        cc_port: cc.port(),
        agents,
    });
    let start = now_ms();
    let rec = Arc::new(Recorder {
        start,
        events: Mutex::new(Vec::new()),
        samples: Mutex::new(Vec::new()),
    });
    let truth = Arc::new(Mutex::new(Truth::default()));

    // The restarts kafkaops makes, judged at the moment they arrive.
    let before = {
        let (rec, truth, obs) = (Arc::clone(&rec), Arc::clone(&truth), Arc::clone(&obs));
        // Every node kafkaops restarted so far: one that is not back when the next restart
        // arrives (and that the soak has not taken down since) means two restarts at once.
        let mut restarted: BTreeSet<i32> = BTreeSet::new();
        move |_: &mut KafkaCluster, id: i32| {
            let mut t = lock(&truth);
            let check = obs.check(&t, id);
            let not_back: Vec<i32> = restarted
                .iter()
                .copied()
                .filter(|n| !t.down.contains(n) && !t.paused.contains_key(n))
                .filter(|n| !obs.is_back(*n))
                .collect();
            // A node the soak had down or paused is kafkaops' to restart from now on.
            let took_over = t.down.remove(&id);
            drop(t);
            restarted.insert(id);
            rec.event(
                "kafkaops-restart",
                Some(id),
                json!({ "check": check, "was_down_by_soak": took_over,
                        "kafkaops_restarted_not_back": not_back }),
            );
        }
    };
    let spawned = {
        let rec = Arc::clone(&rec);
        move |_: &mut KafkaCluster, id: i32| {
            rec.event("kafkaops-restart-spawned", Some(id), json!({}))
        }
    };
    let server = ControlServer::start_with(
        Arc::clone(&cluster),
        ControlOptions {
            before_restart: Some(Box::new(before)),
            after_restart: Some(Box::new(spawned)),
            ..ControlOptions::default()
        },
    );
    let second_server = {
        let rec = Arc::clone(&rec);
        ControlServer::start_with(
            Arc::clone(&cluster),
            ControlOptions {
                before_restart: Some(Box::new(move |_: &mut KafkaCluster, id: i32| {
                    rec.event("second-operate-restart", Some(id), json!({}));
                })),
                ..ControlOptions::default()
            },
        )
    };

    let producer_config = [("message.timeout.ms", "300000")];
    let producer = BackgroundProducer::start_recording(&bootstrap, TOPIC, &producer_config)?;
    let rf_producer = BackgroundProducer::start_recording(&bootstrap, RF_TOPIC, &producer_config)?;

    let policy = out.join("policy.yaml");
    write_atomically(
        &policy,
        &policy_yaml(&Knobs {
            drain: vec![],
            rf: 2,
            roll_value: None,
            cleaner_threads: None,
        }),
    )?;
    let state_dir = out.join("state");
    let mut opts = OperateOptions::new(&cc_url, &bootstrap, &policy, &state_dir);
    opts.resync = "2s".into();
    opts.connection = Some(conn);
    let mut second_opts = opts.clone();
    opts.extra_args = vec!["--restart-command".into(), server.restart_command()];
    second_opts.extra_args = vec!["--restart-command".into(), second_server.restart_command()];
    let operate = Operate::start(&opts)?;
    wait_for("operate to lead", WAIT, || {
        Ok(operate.log().contains(" leading; state ").then_some(()))
    })
    .map_err(|e| anyhow!("{e:#}\n{}", operate.log()))?;
    wait_for("the producers to get going", WAIT, || {
        Ok((producer.stats().sent > 100 && rf_producer.stats().sent > 100).then_some(()))
    })?;
    // The reader's consumer group makes Kafka create `__consumer_offsets`: now, not at the
    // end (new replicas on a drained broker would be a new drain).
    read_partitions(&bootstrap, TOPIC, WAIT)?;
    wait_for("__consumer_offsets to have leaders", WAIT, || {
        Ok(obs
            .partitions()?
            .iter()
            .any(|p| p.topic == "__consumer_offsets")
            .then_some(()))
    })?;

    let soak = Arc::new(Soak {
        cluster: Arc::clone(&cluster),
        cc: Mutex::new(cc),
        truth: Arc::clone(&truth),
        rec: Arc::clone(&rec),
        obs: Arc::clone(&obs),
        stop: AtomicBool::new(false),
        out: out.clone(),
        operate: Mutex::new(Some(operate)),
        opts,
        second_opts,
        operate_logs: Mutex::new(0),
        policy,
    });
    let monitor_stop = Arc::new(AtomicBool::new(false));
    let monitor = {
        let (soak, stop) = (Arc::clone(&soak), Arc::clone(&monitor_stop));
        thread::spawn(move || soak.monitor(&stop))
    };
    rec.event("soak:faults-start", None, json!({ "seed": seed }));
    let mut threads: Vec<JoinHandle<()>> = Vec::new();
    for (i, f) in [
        Soak::broker_faults as fn(&Soak, Rng),
        Soak::controller_faults,
        Soak::ops_faults,
        Soak::policy_changes,
    ]
    .into_iter()
    .enumerate()
    {
        let soak = Arc::clone(&soak);
        let rng = Rng::new(seed.wrapping_mul(31).wrapping_add(i as u64 * 7919));
        threads.push(thread::spawn(move || f(&soak, rng)));
    }
    thread::sleep(Duration::from_secs(args.seconds));
    soak.stop.store(true, Ordering::SeqCst);
    for t in threads {
        let _ = t.join();
    }
    rec.event("soak:faults-end", None, json!({}));
    let settled = soak.settle(Duration::from_secs(args.settle_seconds));
    rec.event(
        "soak:settled",
        None,
        json!({ "ok": settled.is_ok(), "error": settled.as_ref().err().map(|e| format!("{e:#}")) }),
    );

    // Stop producing, then read everything back.
    let mut failed = 0u64;
    let mut lost = 0u64;
    let mut produced = Vec::new();
    let mut send_lines = Vec::new();
    for (topic, p) in [(TOPIC, producer), (RF_TOPIC, rf_producer)] {
        let (stats, d) = p.stop_recording();
        failed += stats.failed();
        let read = match read_partitions(&bootstrap, topic, Duration::from_secs(300)) {
            Ok(r) => r,
            Err(e) => {
                // Nothing verified: every acknowledged record counts as not found.
                send_lines.push(format!("{topic}: the reader failed: {e:#}"));
                lost += d.acked.len() as u64;
                continue;
            }
        };
        let (mut missing, mut moved, mut unknown_offset) = (0u64, 0u64, 0u64);
        // Acknowledged with no offset (see `Acked::offset`): looked up by key in its partition.
        let by_key: BTreeSet<(i32, &String)> =
            read.keys.iter().map(|((p, _), k)| (*p, k)).collect();
        for a in &d.acked {
            let found = if a.offset < 0 {
                unknown_offset += 1;
                by_key.contains(&(a.partition, &a.key))
            } else {
                match read.keys.get(&(a.partition, a.offset)) {
                    Some(k) if *k == a.key => true,
                    Some(_) => {
                        moved += 1;
                        false
                    }
                    None => {
                        missing += 1;
                        false
                    }
                }
            };
            if a.offset < 0 && !found {
                missing += 1;
            }
            if !found && missing + moved <= 20 {
                send_lines.push(format!(
                    "{topic}: acknowledged key {} at {}-{} not found there",
                    a.key, a.partition, a.offset
                ));
            }
        }
        let mut copies: BTreeMap<&String, u32> = BTreeMap::new();
        for k in read.keys.values() {
            *copies.entry(k).or_default() += 1;
        }
        let duplicated = copies.values().filter(|n| **n > 1).count();
        lost += missing + moved;
        for f in d.failed.iter().take(20) {
            send_lines.push(format!(
                "{topic}: send of key {} failed at {}: {}",
                f.key, f.at_ms, f.code
            ));
        }
        produced.push(json!({
            "topic": topic, "attempted": stats.attempted, "acknowledged": stats.sent,
            "acknowledged_reports": d.acked.len(), "failed_by_code": stats.failed_by_code,
            "records_read": read.keys.len(), "acknowledged_missing": missing,
            "acknowledged_without_offset": unknown_offset,
            "acknowledged_other_record_at_offset": moved, "keys_read_twice": duplicated,
        }));
    }
    monitor_stop.store(true, Ordering::SeqCst);
    let _ = monitor.join();
    if let Some(mut op) = lock(&soak.operate).take() {
        let code = op.terminate().ok().flatten();
        rec.event("soak:operate-stopped", None, json!({ "exit": code }));
        soak.keep_log("operate", &op.log());
    }
    let end = now_ms();
    let logs = lock(&soak.cc).logs();
    for (i, l) in logs.iter().enumerate() {
        std::fs::write(out.join(format!("cc-double-{}.log", i + 1)), l)?;
    }
    let events = lock(&rec.events).clone();
    let samples = lock(&rec.samples).clone();
    let mut deaths: Vec<Option<u64>> = events
        .iter()
        .filter(|e| e.kind == "fault:cc-restart")
        .map(|e| Some(e.at))
        .collect();
    deaths.push(None);
    let execs = executions(&logs, &deaths);
    let findings = analyse(&events, &samples, &execs, failed, lost, end);
    std::fs::write(
        out.join("events.json"),
        serde_json::to_string_pretty(&events)?,
    )?;
    std::fs::write(out.join("samples.json"), serde_json::to_string(&samples)?)?;
    std::fs::write(
        out.join("executions.json"),
        serde_json::to_string_pretty(&execs)?,
    )?;
    let report = report(&ReportInput {
        seed,
        seconds: args.seconds,
        start,
        end,
        bin: &std::env::var("KAFKAOPS_TEST_BIN").unwrap_or_default(),
        settled: settled.as_ref().err().map(|e| format!("{e:#}")),
        events: &events,
        samples: &samples,
        execs: &execs,
        produced: &produced,
        send_lines: &send_lines,
        findings: &findings,
    });
    std::fs::write(out.join("report.md"), &report)?;
    std::fs::write(
        out.join("summary.json"),
        serde_json::to_string_pretty(&json!({
            "seed": seed, "counters": findings.counters, "findings": findings.lines,
            "produced": produced,
        }))?,
    )?;
    println!("{report}");
    drop(server);
    drop(second_server);
    if !findings.counters.all_zero() {
        bail!("a counter is not 0: {:?}", findings.counters);
    }
    Ok(())
}

struct ReportInput<'a> {
    seed: u64,
    seconds: u64,
    start: u64,
    end: u64,
    bin: &'a str,
    settled: Option<String>,
    events: &'a [Event],
    samples: &'a [Sample],
    execs: &'a [Execution],
    produced: &'a [serde_json::Value],
    send_lines: &'a [String],
    findings: &'a Findings,
}

/// The Markdown report (what `benches/README.md` records).
fn report(r: &ReportInput<'_>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "## Soak: seed {}, {} s of faults, {} s in all\n",
        r.seed,
        r.seconds,
        (r.end - r.start) / 1000
    );
    let _ = writeln!(s, "binary: `{}`\n", r.bin);
    let mut kinds: BTreeMap<&str, u32> = BTreeMap::new();
    for e in r.events.iter().filter(|e| e.kind.starts_with("fault:")) {
        *kinds.entry(&e.kind["fault:".len()..]).or_default() += 1;
    }
    let policies = r.events.iter().filter(|e| e.kind == "policy").count();
    let soak_below: Vec<&Event> = r
        .events
        .iter()
        .filter(|e| {
            e.kind.starts_with("fault:broker")
                && e.detail["check"]["below_min_isr"]
                    .as_array()
                    .is_some_and(|a| !a.is_empty())
        })
        .collect();
    let _ = writeln!(s, "| fault injected | count |\n| --- | --- |");
    for (k, n) in &kinds {
        let _ = writeln!(s, "| {k} | {n} |");
    }
    let _ = writeln!(s, "| policy change | {policies} |");
    let _ = writeln!(
        s,
        "\nBroker faults of the soak that took partitions below min ISR (not kafkaops'): {}\n",
        soak_below.len()
    );
    let c = &r.findings.counters;
    let _ = writeln!(s, "| counter | value |\n| --- | --- |");
    let _ = writeln!(s, "| sends failed | {} |", c.sends_failed);
    let _ = writeln!(s, "| acknowledged records lost | {} |", c.acknowledged_lost);
    let _ = writeln!(
        s,
        "| executions requested twice for one intent | {} |",
        c.duplicate_executions
    );
    let _ = writeln!(s, "| moments with two movers | {} |", c.two_mover_moments);
    let _ = writeln!(
        s,
        "| restarts by kafkaops below min ISR | {} |",
        c.restarts_below_min_isr
    );
    let _ = writeln!(
        s,
        "| controller restarts by kafkaops leaving no running majority | {} |",
        c.restarts_breaking_quorum
    );
    let restarts: Vec<i32> = r
        .events
        .iter()
        .filter(|e| e.kind == "kafkaops-restart")
        .filter_map(|e| e.node)
        .collect();
    let mut by_end: BTreeMap<String, u32> = BTreeMap::new();
    for e in r.execs {
        *by_end
            .entry(format!("{} {}", e.endpoint, e.end))
            .or_default() += 1;
    }
    let _ = writeln!(
        s,
        "\nWhat kafkaops did (seen by the control server and the double): {} restarts (nodes {:?}); executions {:?}",
        restarts.len(),
        restarts,
        by_end
    );
    let seconds_waited: Vec<String> = r
        .events
        .iter()
        .filter(|e| e.kind == "restore:operate-second-stopped")
        .map(|e| {
            format!(
                "waited={} led={}",
                e.detail["said_it_waited"], e.detail["said_it_led"]
            )
        })
        .collect();
    let _ = writeln!(
        s,
        "\nSecond operate (its own log): {seconds_waited:?}\n\nProducers: {}",
        serde_json::to_string(r.produced).unwrap_or_default()
    );
    let _ = writeln!(
        s,
        "\nMonitor samples: {}; settle: {}",
        r.samples.len(),
        r.settled.as_deref().unwrap_or("everything quiet")
    );
    if !r.findings.lines.is_empty() || !r.send_lines.is_empty() {
        let _ = writeln!(s, "\nFindings:");
        for l in r.findings.lines.iter().chain(r.send_lines) {
            let _ = writeln!(s, "- {l}");
        }
    }
    s
}
