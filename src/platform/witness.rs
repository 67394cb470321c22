//! The restart witness: evidence that the process a restart was decided on has ended.
//!
//! A restart command can return before the old process exits (`kill -TERM`, `systemctl
//! restart` of a slow unit, `kubectl delete pod --wait=false`), and a broker that is
//! shutting down may still look serving for a while. Counting such a node as "back" lets the
//! next batch be judged against an ISR that still contains the dying node. On plain hosts
//! nothing in Kafka's answers changes at every restart, so the witness makes something
//! that does: just before a node's restart command runs, it opens a plain TCP connection
//! to the node's Kafka listener and keeps reading it without sending anything. The kernel
//! closes (or resets) that connection when the old process exits; the witness then bumps
//! the node's *generation*, reported as the node's `incarnation` (`witness-<n>`), and
//! records the node as ended (for a `process_ended` feed-back). A refused connection means
//! the node was not running: evidence too.
//!
//! What is not evidence: a connect that times out (a network problem tells nothing about
//! the process), and a close after `max_idle` (the broker closes idle connections after
//! `connections.max.idle.ms`, 10 minutes by default: such a close says nothing either).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Why the witness believes the old process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Evidence {
    /// The process closed or reset the witness connection.
    ConnectionClosed,
    /// The listener refused the connection: no process was listening.
    NotListening(String),
}

/// One node whose old process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    pub node: i32,
    pub evidence: Evidence,
    /// When it was seen, in milliseconds since the Unix epoch.
    pub at_ms: u64,
}

#[derive(Debug, Default)]
struct State {
    generations: BTreeMap<i32, u64>,
    /// Nodes whose process ended since the last [`RestartWitness::take_ended`].
    ended: Vec<Ended>,
    watches: BTreeMap<i32, JoinHandle<()>>,
}

/// Watches nodes' processes across their restarts. Cheap to clone (shared state).
#[derive(Debug, Clone)]
pub struct RestartWitness {
    state: Arc<Mutex<State>>,
    /// Bumped at every piece of evidence (lets callers and tests wait without polling).
    events: Arc<watch::Sender<u64>>,
    connect_timeout: Duration,
    max_idle: Duration,
}

impl Default for RestartWitness {
    fn default() -> Self {
        Self::new(Duration::from_secs(5), Duration::from_secs(9 * 60))
    }
}

impl RestartWitness {
    /// `connect_timeout`: how long opening the witness connection may take; `max_idle`: a
    /// close later than this after opening is not evidence (keep it below the brokers'
    /// `connections.max.idle.ms`).
    #[must_use]
    pub fn new(connect_timeout: Duration, max_idle: Duration) -> Self {
        Self {
            state: Arc::new(Mutex::new(State::default())),
            events: Arc::new(watch::channel(0).0),
            connect_timeout,
            max_idle,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The node's current generation (0 until its first piece of evidence).
    #[must_use]
    pub fn generation(&self, node: i32) -> u64 {
        self.lock().generations.get(&node).copied().unwrap_or(0)
    }

    /// The node's generation as an engine `incarnation`: `witness-<n>`.
    #[must_use]
    pub fn incarnation(&self, node: i32) -> String {
        format!("witness-{}", self.generation(node))
    }

    /// Nodes whose old process ended since the last call, in order, with the evidence.
    pub fn take_ended(&self) -> Vec<Ended> {
        std::mem::take(&mut self.lock().ended)
    }

    /// A receiver that changes at every piece of evidence.
    #[must_use]
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.events.subscribe()
    }

    fn record(&self, node: i32, evidence: Evidence) {
        {
            let mut s = self.lock();
            *s.generations.entry(node).or_insert(0) += 1;
            let at_ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
            s.ended.push(Ended {
                node,
                evidence,
                at_ms,
            });
        }
        self.events.send_modify(|n| *n += 1);
    }

    /// Starts watching node `node`'s process at `address` (`host:port` of a Kafka
    /// listener). Returns once the witness connection is open, refused (evidence at once)
    /// or timed out (no evidence): call it before the restart command runs. A previous
    /// watch of the node is dropped.
    pub async fn watch(&self, node: i32, address: &str) {
        if let Some(old) = self.lock().watches.remove(&node) {
            old.abort();
        }
        let stream =
            match tokio::time::timeout(self.connect_timeout, TcpStream::connect(address)).await {
                Ok(Ok(s)) => s,
                Ok(Err(e)) => {
                    tracing::debug!(
                        "restart witness: {address} refused node {node}'s connection ({e}): \
                         its process is not running"
                    );
                    self.record(node, Evidence::NotListening(format!("{address}: {e}")));
                    return;
                }
                Err(_) => {
                    tracing::warn!(
                        "restart witness: no connection to node {node} at {address} within \
                         {:?}; the end of its process will not be witnessed",
                        self.connect_timeout
                    );
                    return;
                }
            };
        let opened = Instant::now();
        let witness = self.clone();
        let handle = tokio::spawn(async move {
            let mut stream = stream;
            let mut buf = [0u8; 256];
            loop {
                match stream.read(&mut buf).await {
                    // Nothing was asked: any bytes are ignored.
                    Ok(n) if n > 0 => {}
                    closed => {
                        if opened.elapsed() >= witness.max_idle {
                            tracing::debug!(
                                "restart witness: node {node}'s connection closed after \
                                 {:?} (idle timeout?): not evidence",
                                opened.elapsed()
                            );
                        } else {
                            tracing::debug!(
                                "restart witness: node {node}'s connection ended ({closed:?}): \
                                 its old process is gone"
                            );
                            witness.record(node, Evidence::ConnectionClosed);
                        }
                        return;
                    }
                }
            }
        });
        self.lock().watches.insert(node, handle);
    }

    /// Stops every watch (watch tasks hold a clone: call this when the roll ends).
    pub fn stop(&self) {
        for (_, h) in std::mem::take(&mut self.lock().watches) {
            h.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    async fn wait_for_evidence(w: &RestartWitness, rx: &mut watch::Receiver<u64>) -> bool {
        tokio::time::timeout(Duration::from_secs(30), rx.changed())
            .await
            .is_ok()
            && w.generation(1) > 0
    }

    #[tokio::test]
    async fn peer_close_is_evidence() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let w = RestartWitness::default();
        let mut rx = w.subscribe();
        assert_eq!(w.incarnation(1), "witness-0");
        w.watch(1, &addr).await;
        let (peer, _) = listener.accept().await.unwrap();
        assert_eq!(w.generation(1), 0, "alive: no evidence yet");
        // The old process exits: its sockets close.
        drop(peer);
        drop(listener);
        assert!(wait_for_evidence(&w, &mut rx).await);
        assert_eq!(w.incarnation(1), "witness-1");
        let ended = w.take_ended();
        assert_eq!(
            ended
                .iter()
                .map(|e| (e.node, e.evidence.clone()))
                .collect::<Vec<_>>(),
            vec![(1, Evidence::ConnectionClosed)]
        );
        assert!(ended[0].at_ms > 0);
        assert!(w.take_ended().is_empty());
    }

    #[tokio::test]
    async fn connect_refused_is_evidence() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        drop(listener);
        let w = RestartWitness::default();
        w.watch(1, &addr).await;
        assert_eq!(w.generation(1), 1);
        assert!(matches!(
            w.take_ended().as_slice(),
            [Ended {
                node: 1,
                evidence: Evidence::NotListening(_),
                ..
            }]
        ));
    }

    #[tokio::test]
    async fn a_live_process_gives_no_evidence() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let w = RestartWitness::default();
        let mut rx = w.subscribe();
        w.watch(1, &addr).await;
        let (_peer, _) = listener.accept().await.unwrap();
        // Virtual time: a minute passes at once while the peer stays up.
        tokio::time::pause();
        assert!(
            tokio::time::timeout(Duration::from_secs(60), rx.changed())
                .await
                .is_err()
        );
        assert_eq!(w.generation(1), 0);
        assert!(w.take_ended().is_empty());
        w.stop();
    }

    #[tokio::test]
    async fn a_close_after_the_idle_limit_is_not_evidence() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let w = RestartWitness::new(Duration::from_secs(5), Duration::from_secs(600));
        w.watch(1, &addr).await;
        let (peer, _) = listener.accept().await.unwrap();
        tokio::time::pause();
        tokio::time::advance(Duration::from_secs(601)).await;
        tokio::time::resume();
        // The broker's idle timeout closes the connection: says nothing about the process.
        drop(peer);
        let handle = w.lock().watches.remove(&1).unwrap();
        tokio::time::timeout(Duration::from_secs(30), handle)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(w.generation(1), 0);
    }

    #[tokio::test]
    async fn generations_are_per_node_and_count_restarts() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let w = RestartWitness::default();
        let mut rx = w.subscribe();
        for round in 1..=2 {
            w.watch(1, &addr).await;
            let (peer, _) = listener.accept().await.unwrap();
            drop(peer);
            tokio::time::timeout(Duration::from_secs(30), rx.changed())
                .await
                .unwrap()
                .unwrap();
            assert_eq!(w.generation(1), round);
        }
        assert_eq!(w.generation(2), 0);
    }
}
