//! Benchmark: how much `--max-batch-size` shortens a real roll of the brokers.
//!
//! Starts one real cluster (3 controllers + N brokers in 3 racks, the integration-test harness)
//! with one rack-aware topic (every partition has one replica per rack, preferred leaders spread
//! over all brokers), so brokers of the same rack share no partition and may restart together.
//! Then runs `kafkaops roll --role broker` twice on that same layout, with `--max-batch-size 1`
//! and with the larger size, timing each run, checks that every multi-node batch really shares
//! no partition, and prints the durations and their ratio (a Markdown row for
//! `benches/README.md`). Run it through `benches/roll_batch.sh`, which builds the binary first.
//!
//! Restarts go through the harness's control server (`tests/support/control.rs`), which
//! serialises the stop/spawn part of each restart; the waits for the nodes to serve again
//! overlap, as they would on real hosts.

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use clap::Parser;
use support::control::{ControlServer, connection_args};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};

#[derive(Parser, Debug)]
#[command(about = "Time kafkaops roll --role broker with batch size 1 and a larger batch")]
struct Args {
    /// Brokers (ids 1..=N), spread over racks a, b, c in turn; a multiple of 3.
    #[arg(long, default_value_t = 6)]
    brokers: usize,
    /// Partitions of the rack-aware topic.
    #[arg(long, default_value_t = 12)]
    partitions: usize,
    /// The larger batch size.
    #[arg(long, default_value_t = 2)]
    batch: usize,
    /// The kafkaops binary [default: next to this example's directory].
    #[arg(long)]
    kafkaops: Option<PathBuf>,
}

const TOPIC: &str = "rack-aware";

fn main() -> Result<()> {
    let args = Args::parse();
    ensure!(
        args.brokers % 3 == 0 && args.brokers >= 3,
        "--brokers must be a multiple of 3"
    );
    let kafkaops = match args.kafkaops.clone() {
        Some(p) => p,
        None => std::env::current_exe()?
            .parent()
            .and_then(|p| p.parent())
            .context("no parent dir")?
            .join("kafkaops"),
    };
    ensure!(
        kafkaops.exists(),
        "{} not found: build it first (benches/roll_batch.sh does)",
        kafkaops.display()
    );
    let racks: Vec<&str> = (0..args.brokers).map(|i| ["a", "b", "c"][i % 3]).collect();
    let cluster = KafkaCluster::start(ClusterSpec::split(3, args.brokers).with_racks(racks))?;
    eprintln!("cluster started in {:?}", cluster.start_duration());
    let bootstrap = cluster.bootstrap_servers();
    // Rack r holds brokers r+1, r+4, ...; partition p takes the (p / 3^r)-th broker of rack r
    // (so the partitions cover many combinations) and rotates which rack leads.
    let per_rack = args.brokers / 3;
    let assignment: Vec<Vec<i32>> = (0..args.partitions)
        .map(|p| {
            let mut replicas: Vec<i32> = (0..3)
                .map(|r| {
                    let k = (p / per_rack.pow(u32::try_from(r).unwrap_or(0)).max(1)) % per_rack;
                    i32::try_from(r + 1 + 3 * k).unwrap_or(1)
                })
                .collect();
            replicas.rotate_left(p % 3);
            replicas
        })
        .collect();
    create_topic(
        &bootstrap,
        TOPIC,
        &assignment,
        &[("min.insync.replicas", "2")],
    )?;
    wait_for("full ISRs", Duration::from_secs(120), || {
        let p = placement(&bootstrap, TOPIC)?;
        Ok(p.iter().all(|p| p.isr.len() == 3).then_some(()))
    })?;
    let conn = connection_args(&cluster);
    let cluster = Arc::new(Mutex::new(cluster));
    let server = ControlServer::start(Arc::clone(&cluster));

    let mut times = Vec::new();
    for batch in [1, args.batch] {
        let start = Instant::now();
        let out = Command::new(&kafkaops)
            .args(&conn)
            .args(["--yes", "--output", "json", "roll", "--role", "broker"])
            .args(["--max-batch-size", &batch.to_string()])
            .args(["--poll-interval", "1s", "--restart-command"])
            .arg(server.restart_command())
            .output()?;
        let took = start.elapsed();
        if !out.status.success() {
            bail!(
                "roll with batch {batch} failed ({}):\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout)?;
        let batches: Vec<Vec<i32>> = doc["result"]["actions"]
            .as_array()
            .context("no actions")?
            .iter()
            .filter(|a| a["action"] == "restart")
            .map(|a| {
                a["nodes"]
                    .as_array()
                    .map(|n| {
                        n.iter()
                            .filter_map(|x| x.as_i64())
                            .filter_map(|x| i32::try_from(x).ok())
                            .collect()
                    })
                    .unwrap_or_default()
            })
            .collect();
        for b in &batches {
            ensure!(b.len() <= batch, "batch {b:?} larger than {batch}");
            for p in &assignment {
                let shared: BTreeSet<&i32> = b.iter().filter(|n| p.contains(n)).collect();
                ensure!(
                    shared.len() <= 1,
                    "batch {b:?} shares partition replicas {p:?}"
                );
            }
        }
        eprintln!(
            "max batch size {batch}: {:.1} s, batches {batches:?}",
            took.as_secs_f64()
        );
        times.push((batch, took, batches.len()));
    }
    drop(server);
    let (b1, t1, n1) = times[0];
    let (bn, tn, nn) = times[1];
    println!(
        "| {} brokers (3 racks), {} partitions RF 3 | {b1}: {:.1} s ({n1} batches) | {bn}: {:.1} s ({nn} batches) | {:.2} |",
        args.brokers,
        args.partitions,
        t1.as_secs_f64(),
        tn.as_secs_f64(),
        tn.as_secs_f64() / t1.as_secs_f64()
    );
    Ok(())
}
