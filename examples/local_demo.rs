//! The README's "run the main job" demo: a real local KRaft cluster (1 controller, 4 brokers)
//! whose topics live only on brokers 1-3, the Cruise Control test double over it, and a real
//! `kafkaops rebalance add --brokers 4` (proposal, then execution) that moves replicas onto the
//! new broker. Prints the placement before and after and fails if nothing moved.
//!
//! Run it through `examples/local-demo.sh`, which installs what is needed and builds the binary.
//! Every process it starts stops when it ends (and dies with it if it is killed).

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement};

const TOPICS: [(&str, usize, usize); 2] = [("orders", 12, 3), ("payments", 6, 2)];

fn replicas_per_broker(bootstrap: &str) -> Result<BTreeMap<i32, usize>> {
    let mut counts = BTreeMap::new();
    for (topic, _, _) in TOPICS {
        for p in placement(bootstrap, topic)? {
            for r in p.replicas {
                *counts.entry(r).or_insert(0) += 1;
            }
        }
    }
    Ok(counts)
}

fn kafkaops_bin() -> PathBuf {
    if let Some(p) = std::env::var_os("KAFKAOPS_BIN") {
        return PathBuf::from(p);
    }
    // Examples live in target/<profile>/examples/; the binary one level up.
    let me = std::env::current_exe().expect("current exe");
    me.parent()
        .and_then(|p| p.parent())
        .map(|p| p.join("kafkaops"))
        .expect("target dir")
}

/// Runs `kafkaops -b BOOTSTRAP ARGS` with Cruise Control's URL in the environment: with the
/// bootstrap servers it shows the full check (reassignments in flight, cordons, what Kafka shows
/// moved), not a warning that it cannot look.
fn kafkaops(bin: &PathBuf, cc_url: &str, bootstrap: &str, args: &[&str]) -> Result<i32> {
    eprintln!("\n$ kafkaops -b {bootstrap} {}", args.join(" "));
    let status = Command::new(bin)
        .args(["-b", bootstrap])
        .args(args)
        .env("KAFKAOPS_CRUISE_CONTROL_URL", cc_url)
        .status()
        .with_context(|| format!("running {}", bin.display()))?;
    Ok(status.code().unwrap_or(-1))
}

fn main() -> Result<()> {
    let bin = kafkaops_bin();
    if !bin.exists() {
        bail!(
            "{} not found: build it first (cargo build --bin kafkaops)",
            bin.display()
        );
    }
    eprintln!("starting a KRaft cluster: 1 controller + 4 brokers on 127.0.0.1 ...");
    let cluster = KafkaCluster::start(ClusterSpec::split(1, 4))?;
    let bootstrap = cluster.bootstrap_servers();
    eprintln!(
        "cluster up in {:.1?}: bootstrap {bootstrap}",
        cluster.start_duration()
    );

    for (topic, partitions, rf) in TOPICS {
        let assignment: Vec<Vec<i32>> = (0..partitions)
            .map(|p| (0..rf).map(|r| ((p + r) % 3) as i32 + 1).collect())
            .collect();
        create_topic(
            &bootstrap,
            topic,
            &assignment,
            &[("min.insync.replicas", "1")],
        )?;
    }
    let before = replicas_per_broker(&bootstrap)?;
    eprintln!("replicas per broker before: {before:?} (broker 4 is new and empty)");

    eprintln!("starting the Cruise Control test double ...");
    let cc = CcDouble::start(&bootstrap, CcDoubleOptions::default())?;
    let url = cc.url();

    let dry = kafkaops(
        &bin,
        &url,
        &bootstrap,
        &["rebalance", "add", "--brokers", "4"],
    )?;
    if dry != 0 {
        bail!("the dry run exited {dry}");
    }
    let exec = kafkaops(
        &bin,
        &url,
        &bootstrap,
        &["rebalance", "add", "--brokers", "4", "--execute", "--yes"],
    )?;
    if exec != 0 {
        bail!("the execution exited {exec}");
    }
    let after = replicas_per_broker(&bootstrap)?;
    eprintln!("\nreplicas per broker after:  {after:?}");
    let on_new = after.get(&4).copied().unwrap_or(0);
    if on_new == 0 {
        bail!("no replica moved onto broker 4");
    }
    println!(
        "{}",
        serde_json::json!({ "before": before, "after": after, "moved_onto_broker_4": on_new })
    );
    eprintln!("done: {on_new} replicas now on broker 4; stopping the cluster");
    drop(cc);
    drop(cluster);
    Ok(())
}
