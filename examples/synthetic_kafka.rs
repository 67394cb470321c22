//! Serves a synthetic Kafka cluster (`tests/support/synthetic_kafka/`) on loopback ports, for
//! benches and manual runs of kafkaops against clusters too large to run for real:
//!
//! ```text
//! cargo run --release --example synthetic_kafka -- --brokers 1000 --partitions 100000
//! cargo run --example synthetic_kafka -- --brokers 5 --partitions 50 --lagging 2,4 --out-of-sync 3
//! ```
//!
//! Prints one JSON line on stdout once every port accepts connections (`bootstrap_servers`,
//! `bootstrap_controllers`, `stats_url`, ...), then serves until Ctrl-C/SIGTERM or, unless
//! `--until-signal`, until stdin closes; then prints the request counters as one more JSON
//! line. `GET <stats_url>` reports them meanwhile (`?reset=1` zeroes them, `?nodes=0` leaves out
//! the per-node table).

#[path = "../tests/support/synthetic_kafka/mod.rs"]
mod synthetic_kafka;

use std::collections::BTreeSet;

use anyhow::Result;
use clap::Parser;
use synthetic_kafka::{Placement, Spec, SyntheticKafka};

#[derive(Parser, Debug)]
#[command(
    about = "Serve a synthetic Kafka cluster (wire protocol) on 127.0.0.1 for kafkaops benches"
)]
struct Args {
    /// Brokers (ids 1..=N), one loopback port each
    #[arg(long, default_value_t = 5)]
    brokers: usize,
    /// Controller-only nodes (ids after the brokers); the first leads the quorum
    #[arg(long, default_value_t = 3)]
    controllers: usize,
    /// Partitions in all
    #[arg(long, default_value_t = 50)]
    partitions: usize,
    /// Partitions per topic (the last topic may have fewer)
    #[arg(long, default_value_t = 100)]
    partitions_per_topic: usize,
    #[arg(long, default_value_t = 3)]
    replication_factor: usize,
    /// Racks a, b, c, ... assigned round-robin by broker id (0: no broker.rack)
    #[arg(long, default_value_t = 3)]
    racks: usize,
    /// random or rack-aware
    #[arg(long, default_value = "rack-aware")]
    placement: Placement,
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Topic-level min.insync.replicas override on every topic (0: none)
    #[arg(long, default_value_t = 2)]
    min_insync_replicas: i32,
    /// Brokers whose metadata lags (comma-separated ids)
    #[arg(long, value_delimiter = ',')]
    lagging: Vec<i32>,
    /// Partitions whose ISR lacks one replica (lagging brokers still report it in sync)
    #[arg(long, default_value_t = 0)]
    out_of_sync: usize,
    /// Records a lagging broker is behind in the metadata log
    #[arg(long, default_value_t = 5_000)]
    quorum_lag: i64,
    /// The address every node listens on and advertises [default: each node its own loopback
    /// address, 127.100.100.100 and up: librdkafka cannot describe more than 32 brokers in
    /// racks that all advertise 127.0.0.1]
    #[arg(long)]
    host: Option<String>,
    /// Ignore stdin; serve until SIGINT/SIGTERM only
    #[arg(long)]
    until_signal: bool,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let mut spec = Spec::new(args.brokers, args.partitions);
    spec.controllers = args.controllers;
    spec.partitions_per_topic = args.partitions_per_topic;
    spec.replication_factor = args.replication_factor;
    spec.racks = args.racks;
    spec.placement = args.placement;
    spec.seed = args.seed;
    spec.min_insync_replicas = (args.min_insync_replicas > 0).then_some(args.min_insync_replicas);
    spec.lagging = args.lagging.iter().copied().collect::<BTreeSet<i32>>();
    spec.out_of_sync = args.out_of_sync;
    spec.quorum_lag = args.quorum_lag;
    spec.host = args.host.clone();
    let started = std::time::Instant::now();
    let cluster = SyntheticKafka::start(&spec)?;
    eprintln!(
        "synthetic_kafka: {} brokers, {} controllers, {} partitions serving after {:.1?}",
        spec.brokers,
        spec.controllers,
        cluster.cluster().partition_count(),
        started.elapsed()
    );
    println!("{}", cluster.info());

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let reason = runtime.block_on(wait_for_end(!args.until_signal))?;
    runtime.shutdown_background();
    eprintln!("synthetic_kafka: {reason}; stopping");
    println!("{}", serde_json::to_string(&cluster.stats())?);
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
