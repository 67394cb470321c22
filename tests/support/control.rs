//! A control HTTP server through which `kafkaops roll --restart-command` restarts the test
//! cluster's nodes: `curl -sf http://127.0.0.1:PORT/restart/{id}` makes the harness stop node
//! `{id}` gracefully and start it again, and the answer comes once the new process is spawned,
//! as `systemctl restart` would. Every restart is recorded with the quorum leader at that moment,
//! so tests can check the order. Plus the kafkaops connection flags for a harness cluster.
//!
//! The harness needs `&mut KafkaCluster` to stop and start a node, so restarts are serialised by
//! a mutex: in a batch of N nodes the stop/spawn parts run one after the other (the waits for the
//! nodes to come back, done by kafkaops, still overlap).
//!
//! `GET /restart-async/{id}` is a restart command that returns before the process has exited
//! (`kubectl delete pod --wait=false` with a preStop hook, `kill -TERM` of a unit with a slow
//! stop): it answers at once; a background thread waits [`ControlOptions::async_stop_delay`]
//! (the node keeps serving meanwhile), sends SIGTERM, waits for the exit and starts the node
//! again. Every request records which earlier restarted nodes were not back yet at that
//! moment ([`Restart::not_back`]), so a test can prove that a roll waited for the real restart.

#![allow(dead_code)] // Shared by several test binaries and an example; each uses a subset.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::kafka::{BrokerState, KafkaCluster};

/// One restart the control server performed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restart {
    pub node: i32,
    /// The quorum leader just before the restart.
    pub leader_before: Option<i32>,
    /// When the request arrived.
    pub at: Instant,
    /// Nodes restarted earlier through this server that were not back when this request
    /// arrived: an asynchronous restart not finished yet, or not RUNNING (brokers) / not
    /// running (controllers) again.
    pub not_back: Vec<i32>,
}

/// Something that happened to a node during an asynchronous restart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// SIGTERM sent (after the configured delay).
    Signalled,
    /// The old process has exited.
    Exited,
    /// The new process was spawned.
    Started,
}

/// One step of an asynchronous restart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlEvent {
    pub node: i32,
    pub step: Step,
    pub at: Instant,
}

/// Called after a synchronous restart (the node's new process is spawned), with the cluster
/// locked, before the answer is sent: the restart command has not returned yet, so the roll
/// cannot go on meanwhile. Tests use it to change the cluster at a precise point of a roll.
pub type RestartHook = Box<dyn FnMut(&mut KafkaCluster, i32) + Send>;

/// How the control server behaves.
#[derive(Default)]
pub struct ControlOptions {
    /// Called when a restart (or stop) request arrives, with the cluster locked, before the node
    /// is touched: the moment the roll decided to restart it, seen by the test (the soak records
    /// the cluster's true state there). Same signature as [`RestartHook`].
    pub before_restart: Option<RestartHook>,
    /// See [`RestartHook`].
    pub after_restart: Option<RestartHook>,
    /// `/restart-async/{id}`: how long the node keeps running after the answer before it
    /// gets SIGTERM.
    pub async_stop_delay: Duration,
}

#[derive(Default)]
struct State {
    log: Vec<Restart>,
    events: Vec<ControlEvent>,
    /// Asynchronous restarts not finished (no new process yet).
    pending: BTreeSet<i32>,
    workers: Vec<JoinHandle<()>>,
}

struct Shared {
    cluster: Arc<Mutex<KafkaCluster>>,
    state: Mutex<State>,
    hook: Mutex<Option<RestartHook>>,
    before: Mutex<Option<RestartHook>>,
    async_stop_delay: Duration,
    stop: AtomicBool,
}

/// The control HTTP server: `GET /restart/{id}` restarts a node through the harness.
pub struct ControlServer {
    pub port: u16,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl ControlServer {
    pub fn start(cluster: Arc<Mutex<KafkaCluster>>) -> ControlServer {
        Self::start_with(cluster, ControlOptions::default())
    }

    pub fn start_with(cluster: Arc<Mutex<KafkaCluster>>, options: ControlOptions) -> ControlServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the control server");
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared {
            cluster,
            state: Mutex::new(State::default()),
            hook: Mutex::new(options.after_restart),
            before: Mutex::new(options.before_restart),
            async_stop_delay: options.async_stop_delay,
            stop: AtomicBool::new(false),
        });
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || {
                for conn in listener.incoming() {
                    if shared.stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(conn) = conn else { continue };
                    handle(conn, &shared);
                }
            })
        };
        ControlServer {
            port,
            shared,
            thread: Some(thread),
        }
    }

    pub fn restart_command(&self) -> String {
        format!("curl -sf http://127.0.0.1:{}/restart/{{id}}", self.port)
    }

    /// A restart command that returns before the node's process has exited.
    pub fn restart_async_command(&self) -> String {
        format!(
            "curl -sf http://127.0.0.1:{}/restart-async/{{id}}",
            self.port
        )
    }

    /// The `--stop-command` / `--start-command` pair.
    pub fn stop_start_commands(&self) -> (String, String) {
        (
            format!("curl -sf http://127.0.0.1:{}/stop/{{id}}", self.port),
            format!("curl -sf http://127.0.0.1:{}/start/{{id}}", self.port),
        )
    }

    pub fn restarts(&self) -> Vec<Restart> {
        self.state().log.clone()
    }

    /// Steps of asynchronous restarts so far.
    pub fn events(&self) -> Vec<ControlEvent> {
        self.state().events.clone()
    }

    /// Whether every asynchronous restart has started its node again.
    pub fn async_restarts_done(&self) -> bool {
        self.state().pending.is_empty()
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.shared.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for ControlServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let workers = std::mem::take(&mut self.state().workers);
        for w in workers {
            let _ = w.join();
        }
    }
}

impl Shared {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn cluster(&self) -> std::sync::MutexGuard<'_, KafkaCluster> {
        self.cluster.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn event(&self, node: i32, step: Step) {
        eprintln!("control: node {node}: {step:?}");
        self.state().events.push(ControlEvent {
            node,
            step,
            at: Instant::now(),
        });
    }

    /// Sleeps `d` in small steps; `false` if the server is being dropped.
    fn pause(&self, d: Duration) -> bool {
        let until = Instant::now() + d;
        while Instant::now() < until {
            if self.stop.load(Ordering::SeqCst) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50).min(until - Instant::now()));
        }
        !self.stop.load(Ordering::SeqCst)
    }
}

/// Nodes restarted earlier that are not back: a pending asynchronous restart, or not
/// RUNNING (brokers) / not running (controller-only nodes).
fn not_back(c: &mut KafkaCluster, state: &State) -> Vec<i32> {
    let earlier: BTreeSet<i32> = state.log.iter().map(|r| r.node).collect();
    earlier
        .into_iter()
        .filter(|id| {
            if state.pending.contains(id) {
                return true;
            }
            let broker = c.node(*id).is_ok_and(|n| n.role.is_broker());
            if broker {
                !matches!(c.broker_state(*id), Ok(BrokerState::Running))
            } else {
                !c.is_running(*id)
            }
        })
        .collect()
}

/// The background part of `/restart-async/{id}`.
fn restart_async(shared: &Shared, id: i32) {
    if !shared.pause(shared.async_stop_delay) {
        return;
    }
    if let Err(e) = shared.cluster().signal_stop(id) {
        eprintln!("control: SIGTERM to node {id} failed: {e:#}");
    }
    shared.event(id, Step::Signalled);
    loop {
        if !shared.cluster().is_running(id) {
            break;
        }
        if !shared.pause(Duration::from_millis(50)) {
            return;
        }
    }
    shared.event(id, Step::Exited);
    if let Err(e) = shared.cluster().start_node(id) {
        eprintln!("control: starting node {id} again failed: {e:#}");
    }
    shared.event(id, Step::Started);
    shared.state().pending.remove(&id);
}

fn handle(mut conn: TcpStream, shared: &Arc<Shared>) {
    let mut line = String::new();
    if BufReader::new(&conn).read_line(&mut line).is_err() {
        return;
    }
    // `/restart/{id}`, `/restart-async/{id}`, or the pair `/stop/{id}` + `/start/{id}` (a stop
    // counts as the restart).
    let request = line.split_whitespace().nth(1).and_then(|path| {
        ["restart", "restart-async", "stop", "start"]
            .into_iter()
            .find_map(|op| {
                path.strip_prefix(&format!("/{op}/"))
                    .and_then(|id| id.parse::<i32>().ok())
                    .map(|id| (op, id))
            })
    });
    let (status, body) = match request {
        None => ("400 Bad Request", format!("bad request {line:?}")),
        Some((op, id)) => {
            let mut c = shared.cluster();
            if op != "start" {
                let leader_before = c.quorum_leader().ok().flatten();
                let mut state = shared.state();
                let not_back = not_back(&mut c, &state);
                state.log.push(Restart {
                    node: id,
                    leader_before,
                    at: Instant::now(),
                    not_back: not_back.clone(),
                });
                eprintln!(
                    "control: {op} node {id} (quorum leader {leader_before:?}, not back yet: \
                     {not_back:?})"
                );
                drop(state);
                if let Some(before) = shared
                    .before
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .as_mut()
                {
                    before(&mut c, id);
                }
            }
            let result = match op {
                "restart" => c.restart_node(id),
                "restart-async" => {
                    if c.node(id).is_err() {
                        Err(anyhow::anyhow!("no node {id}"))
                    } else {
                        let worker = Arc::clone(shared);
                        let mut state = shared.state();
                        state.pending.insert(id);
                        state
                            .workers
                            .push(std::thread::spawn(move || restart_async(&worker, id)));
                        Ok(())
                    }
                }
                "stop" => c.stop_node(id),
                _ => c.start_node(id),
            };
            if op == "restart"
                && result.is_ok()
                && let Some(hook) = shared
                    .hook
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .as_mut()
            {
                hook(&mut c, id);
            }
            match result {
                Ok(()) => ("200 OK", format!("{op} {id}")),
                Err(e) => ("500 Internal Server Error", format!("{e:#}")),
            }
        }
    };
    let _ = write!(
        conn,
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

/// Connection flags for kafkaops: brokers, controllers, Jolokia broker-state URLs.
pub fn connection_args(cluster: &KafkaCluster) -> Vec<String> {
    let urls = cluster
        .nodes()
        .iter()
        .filter(|n| n.role.is_broker())
        .map(|n| format!("{}={}", n.id, n.broker_state_url()))
        .collect::<Vec<_>>()
        .join(",");
    vec![
        "--bootstrap-servers".into(),
        cluster.bootstrap_servers(),
        "-X".into(),
        format!("bootstrap.controllers={}", cluster.controller_bootstrap()),
        "-X".into(),
        format!("kafkaops.broker.state.url={urls}"),
        "--request-timeout".into(),
        "15s".into(),
    ]
}
