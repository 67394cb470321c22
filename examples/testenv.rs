//! Starts a real Kafka KRaft test cluster (the integration-test harness in `tests/support/`) for
//! manual runs and demos, e.g. next to the Cruise Control test double:
//!
//! ```text
//! cargo run --example testenv -- --controllers 3 --brokers 4 --topic demo
//! cargo run --example testenv -- --combined 3 --racks a,b,c --until-signal
//! cargo run --example testenv -- --combined 3 --dynamic-quorum --previous-version
//! cargo run --example testenv -- --combined 3 --topic demo --control   # + a restart command
//! ```
//!
//! Prints one JSON line on stdout once every broker is unfenced (bootstrap servers, controller
//! bootstrap, nodes), then runs until Ctrl-C/SIGTERM or, unless `--until-signal`, until stdin
//! closes; then it stops every node. The JVMs also die with this process (PDEATHSIG).

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Duration;

use anyhow::{Context, Result};
use clap::Parser;
use support::control::{ControlServer, connection_args};
use support::kafka::{ClusterSpec, KafkaCluster, KafkaVersion, create_topic};

#[derive(Parser, Debug)]
#[command(about = "Run a real Kafka KRaft cluster on 127.0.0.1 for kafkaops tests and demos")]
struct Args {
    /// Combined broker+controller nodes (ids 1..=N). Excludes --controllers.
    #[arg(long, default_value_t = 0, conflicts_with = "controllers")]
    combined: usize,
    /// Controller-only nodes (ids 101..).
    #[arg(long, default_value_t = 0)]
    controllers: usize,
    /// Broker-only nodes (ids after the combined ones).
    #[arg(long, default_value_t = 0)]
    brokers: usize,
    /// broker.rack per broker-role node, comma-separated, in id order.
    #[arg(long, value_delimiter = ',')]
    racks: Vec<String>,
    /// Extra broker property KEY=VALUE (repeatable).
    #[arg(long = "broker-prop", value_parser = parse_kv)]
    broker_props: Vec<(String, String)>,
    /// Create this topic once the cluster is up.
    #[arg(long)]
    topic: Option<String>,
    /// Partitions of --topic (replicas assigned round-robin over the brokers).
    #[arg(long, default_value_t = 6)]
    partitions: usize,
    /// Replication factor of --topic (default: min(3, brokers)).
    #[arg(long)]
    replication_factor: Option<usize>,
    /// A dynamic (KIP-853) controller quorum instead of static voters.
    #[arg(long)]
    dynamic_quorum: bool,
    /// Run the older Kafka release upgrade tests start from (pom.xml `kafka.previous.version`).
    #[arg(long)]
    previous_version: bool,
    /// Seconds to wait for the cluster to be ready.
    #[arg(long, default_value_t = 300)]
    start_timeout: u64,
    /// Ignore stdin; run until SIGINT/SIGTERM only.
    #[arg(long)]
    until_signal: bool,
    /// Also serve the harness's control server and print `restart_command` (for `kafkaops roll
    /// --restart-command`) and `kafkaops_args` (the connection flags) in the JSON line.
    #[arg(long)]
    control: bool,
}

fn parse_kv(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("expected KEY=VALUE, got {s}"))
}

fn main() -> Result<()> {
    let args = Args::parse();
    let mut spec = if args.combined > 0 {
        ClusterSpec::combined(args.combined)
    } else {
        ClusterSpec::split(args.controllers.max(1), args.brokers.max(1))
    };
    if args.combined > 0 {
        spec.brokers = args.brokers;
    }
    spec = spec
        .with_racks(args.racks.clone())
        .with_start_timeout(Duration::from_secs(args.start_timeout));
    for (k, v) in &args.broker_props {
        spec = spec.with_broker_prop(k, v);
    }
    if args.dynamic_quorum {
        spec = spec.with_dynamic_quorum();
    }
    if args.previous_version {
        spec = spec.with_version(KafkaVersion::Previous);
    }
    let cluster = KafkaCluster::start(spec)?;
    eprintln!(
        "testenv: cluster ready in {:.1?}, work dir {}",
        cluster.start_duration(),
        cluster.work_dir().display()
    );
    if let Some(topic) = &args.topic {
        let brokers = cluster.broker_ids();
        let rf = args.replication_factor.unwrap_or(brokers.len().min(3));
        let assignment: Vec<Vec<i32>> = (0..args.partitions)
            .map(|p| (0..rf).map(|r| brokers[(p + r) % brokers.len()]).collect())
            .collect();
        create_topic(&cluster.bootstrap_servers(), topic, &assignment, &[])
            .with_context(|| format!("failed to create topic {topic}"))?;
    }
    let mut line = serde_json::json!({
        "bootstrap_servers": cluster.bootstrap_servers(),
        "controller_bootstrap": cluster.controller_bootstrap(),
        "cluster_id": cluster.cluster_id(),
        "broker_ids": cluster.broker_ids(),
        "controller_ids": cluster.controller_ids(),
        "nodes": cluster.nodes().iter().map(|n| serde_json::json!({
            "id": n.id,
            "role": n.role,
            "broker": n.broker_address(),
            "controller": n.controller_address(),
            "rack": n.rack,
            "version": n.version,
            "broker_state_url": n.role.is_broker().then(|| n.broker_state_url()),
            "work_dir": n.work_dir,
        })).collect::<Vec<_>>(),
        "topic": args.topic,
    });
    let cluster = std::sync::Arc::new(std::sync::Mutex::new(cluster));
    let server = args.control.then(|| {
        let server = ControlServer::start(std::sync::Arc::clone(&cluster));
        line["restart_command"] = server.restart_command().into();
        line["kafkaops_args"] = connection_args(&cluster.lock().unwrap()).into();
        server
    });
    println!("{line}");

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let reason = runtime.block_on(wait_for_end(!args.until_signal))?;
    // A stdin read may still block a runtime thread: do not wait for it.
    runtime.shutdown_background();
    eprintln!("testenv: {reason}; stopping the cluster");
    drop(server);
    drop(cluster);
    Ok(())
}

async fn wait_for_end(watch_stdin: bool) -> Result<&'static str> {
    use tokio::io::AsyncReadExt;
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    let stdin_closed = async {
        if !watch_stdin {
            return std::future::pending().await;
        }
        let mut stdin = tokio::io::stdin();
        let mut buf = [0u8; 256];
        while stdin.read(&mut buf).await.unwrap_or(0) > 0 {}
    };
    Ok(tokio::select! {
        _ = tokio::signal::ctrl_c() => "interrupted",
        _ = term.recv() => "terminated",
        () = stdin_closed => "stdin closed",
    })
}
