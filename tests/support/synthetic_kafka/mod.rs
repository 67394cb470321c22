//! A wire-level synthetic Kafka cluster: one process answers for B brokers and C controllers on
//! B + C loopback listeners (each node its own loopback address by default, see
//! [`model::node_host`]), with P partitions in a seeded placement, so kafkaops' observation can be
//! measured at sizes no test machine can run for real (1,000 brokers, 100,000 partitions).
//!
//! It speaks the real protocol (the `kafka-protocol` codec, server side) and answers what
//! kafkaops' observation asks, through librdkafka and through its own wire path: ApiVersions,
//! Metadata, DescribeTopicPartitions, DescribeConfigs, DescribeCluster, DescribeQuorum and
//! ListPartitionReassignments. Anything else closes the connection and is counted as
//! "Unsupported" (and logged once), so a gap shows up instead of hanging a client.
//!
//! Some brokers' metadata can lag ([`Spec::lagging`]): they report the stale ISR of the
//! out-of-sync partitions ([`Spec::out_of_sync`]: the replica that left the ISR is still in it)
//! and are behind in DescribeQuorum. Requests and bytes are counted per API and per node
//! ([`SyntheticKafka::stats`]; `GET /stats` on [`SyntheticKafka::stats_url`]).
//!
//! Self-contained on purpose (nothing else from `tests/support`): tests include it with
//! `#[path = "support/synthetic_kafka/mod.rs"] mod synthetic_kafka;`, and
//! `examples/synthetic_kafka.rs` serves it from the command line for the benches.
#![allow(dead_code, unused_imports)] // Shared by a test binary and an example; each uses a subset.

pub mod configs;
pub mod model;
pub mod responses;
pub mod server;

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

pub use model::{Cluster, Node, Partition, Placement, Spec, Topic, View};
pub use server::{ApiCount, Count, NodeCount, Stats};

/// A running synthetic cluster; stops when dropped.
pub struct SyntheticKafka {
    shared: Arc<server::Shared>,
    stats_addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

fn bind(host: &str) -> std::io::Result<std::net::TcpListener> {
    let l = std::net::TcpListener::bind((host, 0))?;
    l.set_nonblocking(true)?;
    Ok(l)
}

fn address(l: &std::net::TcpListener) -> std::io::Result<(String, u16)> {
    let a = l.local_addr()?;
    Ok((a.ip().to_string(), a.port()))
}

impl SyntheticKafka {
    /// Binds every listener and starts serving on a runtime of its own (two worker threads);
    /// returns once every port accepts connections.
    ///
    /// # Errors
    /// An invalid spec, or a port that cannot be bound.
    pub fn start(spec: &Spec) -> std::io::Result<Self> {
        spec.check().map_err(std::io::Error::other)?;
        let host = |i: usize| spec.host.clone().unwrap_or_else(|| model::node_host(i));
        let brokers: Vec<_> = (0..spec.brokers)
            .map(|i| bind(&host(i)))
            .collect::<std::io::Result<_>>()?;
        let controllers: Vec<_> = (0..spec.controllers)
            .map(|i| bind(&host(spec.brokers + i)))
            .collect::<std::io::Result<_>>()?;
        let http = bind(spec.host.as_deref().unwrap_or("127.0.0.1"))?;
        let stats_addr = http.local_addr()?;
        let broker_addresses: Vec<_> = brokers
            .iter()
            .map(address)
            .collect::<std::io::Result<_>>()?;
        let controller_addresses: Vec<_> = controllers
            .iter()
            .map(address)
            .collect::<std::io::Result<_>>()?;
        let cluster = Cluster::generate(spec, &broker_addresses, &controller_addresses);
        let shared = Arc::new(server::Shared::new(cluster));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("synthetic-kafka")
            .enable_all()
            .build()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<std::io::Result<()>>();
        let serving = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("synthetic-kafka".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let listeners: std::io::Result<Vec<_>> = brokers
                        .into_iter()
                        .chain(controllers)
                        .map(tokio::net::TcpListener::from_std)
                        .collect();
                    let http = tokio::net::TcpListener::from_std(http);
                    let (listeners, http) = match (listeners, http) {
                        (Ok(l), Ok(h)) => (l, h),
                        (Err(e), _) | (_, Err(e)) => {
                            let _ = ready_tx.send(Err(e));
                            return;
                        }
                    };
                    for (i, l) in listeners.into_iter().enumerate() {
                        tokio::spawn(server::serve_node(Arc::clone(&serving), i, l));
                    }
                    tokio::spawn(server::serve_http(Arc::clone(&serving), http));
                    let _ = ready_tx.send(Ok(()));
                    let _ = stopped.await;
                });
                runtime.shutdown_background();
            })?;
        ready_rx
            .recv()
            .map_err(|_| std::io::Error::other("the synthetic cluster's thread died"))??;
        Ok(Self {
            shared,
            stats_addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The cluster being served (placement, ISRs, nodes).
    #[must_use]
    pub fn cluster(&self) -> &Cluster {
        &self.shared.cluster
    }

    #[must_use]
    pub fn bootstrap_servers(&self) -> String {
        self.shared.cluster.bootstrap_servers()
    }

    #[must_use]
    pub fn bootstrap_controllers(&self) -> String {
        self.shared.cluster.bootstrap_controllers()
    }

    /// `http://host:port/stats`.
    #[must_use]
    pub fn stats_url(&self) -> String {
        format!("http://{}/stats", self.stats_addr)
    }

    /// Counters since start or the last [`Self::take_stats`].
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.shared.stats(false)
    }

    /// Counters since start or the last call, then zeroed.
    #[must_use]
    pub fn take_stats(&self) -> Stats {
        self.shared.stats(true)
    }

    /// Broker `id` crashed `ago` before now and is not fenced yet (see
    /// [`server::Shared::crash`]).
    pub fn crash(&self, id: i32, ago: std::time::Duration) {
        self.shared.crash(id, ago);
    }

    /// What a client needs to know, as the example prints it.
    #[must_use]
    pub fn info(&self) -> serde_json::Value {
        let c = &self.shared.cluster;
        serde_json::json!({
            "bootstrap_servers": self.bootstrap_servers(),
            "bootstrap_controllers": self.bootstrap_controllers(),
            "stats_url": self.stats_url(),
            "cluster_id": c.cluster_id,
            "brokers": c.brokers.len(),
            "broker_ids": [c.brokers[0].id, c.brokers[c.brokers.len() - 1].id],
            "controller_ids": c.controllers.iter().map(|n| n.id).collect::<Vec<_>>(),
            "quorum_leader": c.quorum_leader,
            "topics": c.topics.len(),
            "partitions": c.partition_count(),
            "lagging": c.lagging,
            "out_of_sync": c
                .topics
                .iter()
                .flat_map(|t| &t.partitions)
                .filter(|p| p.isr != p.stale_isr)
                .count(),
        })
    }
}

impl Drop for SyntheticKafka {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
