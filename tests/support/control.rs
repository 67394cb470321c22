//! A control HTTP server through which `kafkaops roll --restart-command` restarts the test
//! cluster's nodes: `curl -sf http://127.0.0.1:PORT/restart/{id}` makes the harness stop node
//! `{id}` gracefully and start it again, and the answer comes once the new process is spawned,
//! as `systemctl restart` would. Every restart is recorded with the quorum leader at that moment,
//! so tests can check the order. Plus the kafkaops connection flags for a harness cluster.
//!
//! The harness needs `&mut KafkaCluster` to stop and start a node, so restarts are serialised by
//! a mutex: in a batch of N nodes the stop/spawn parts run one after the other (the waits for the
//! nodes to come back, done by kafkaops, still overlap).

#![allow(dead_code)] // Shared by several test binaries and an example; each uses a subset.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::kafka::KafkaCluster;

/// One restart the control server performed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restart {
    pub node: i32,
    /// The quorum leader just before the restart.
    pub leader_before: Option<i32>,
}

/// The control HTTP server: `GET /restart/{id}` restarts a node through the harness.
pub struct ControlServer {
    pub port: u16,
    log: Arc<Mutex<Vec<Restart>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ControlServer {
    pub fn start(cluster: Arc<Mutex<KafkaCluster>>) -> ControlServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the control server");
        let port = listener.local_addr().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (log, stop) = (Arc::clone(&log), Arc::clone(&stop));
            std::thread::spawn(move || {
                for conn in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(conn) = conn else { continue };
                    handle(conn, &cluster, &log);
                }
            })
        };
        ControlServer {
            port,
            log,
            stop,
            thread: Some(thread),
        }
    }

    pub fn restart_command(&self) -> String {
        format!("curl -sf http://127.0.0.1:{}/restart/{{id}}", self.port)
    }

    /// The `--stop-command` / `--start-command` pair.
    pub fn stop_start_commands(&self) -> (String, String) {
        (
            format!("curl -sf http://127.0.0.1:{}/stop/{{id}}", self.port),
            format!("curl -sf http://127.0.0.1:{}/start/{{id}}", self.port),
        )
    }

    pub fn restarts(&self) -> Vec<Restart> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for ControlServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn handle(mut conn: TcpStream, cluster: &Mutex<KafkaCluster>, log: &Mutex<Vec<Restart>>) {
    let mut line = String::new();
    if BufReader::new(&conn).read_line(&mut line).is_err() {
        return;
    }
    // `/restart/{id}`, or the pair `/stop/{id}` + `/start/{id}` (a stop counts as the restart).
    let request = line.split_whitespace().nth(1).and_then(|path| {
        ["restart", "stop", "start"].into_iter().find_map(|op| {
            path.strip_prefix(&format!("/{op}/"))
                .and_then(|id| id.parse::<i32>().ok())
                .map(|id| (op, id))
        })
    });
    let (status, body) = match request {
        None => ("400 Bad Request", format!("bad request {line:?}")),
        Some((op, id)) => {
            let mut c = cluster.lock().unwrap_or_else(|e| e.into_inner());
            if op != "start" {
                let leader_before = c.quorum_leader().ok().flatten();
                log.lock().unwrap().push(Restart {
                    node: id,
                    leader_before,
                });
                eprintln!("control: {op} node {id} (quorum leader {leader_before:?})");
            }
            let result = match op {
                "restart" => c.restart_node(id),
                "stop" => c.stop_node(id),
                _ => c.start_node(id),
            };
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
