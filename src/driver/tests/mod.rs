//! The roll driver's loop on the engine's simulator, by theme (in-process faults, resuming saved
//! runs, rolls onto new software), with the setup they share: faults a real cluster will not
//! produce on demand (failed observations and commands, Ctrl-C mid-batch, a crash between any two
//! saves).

use std::collections::BTreeMap;

use std::cell::RefCell;
use std::collections::BTreeSet;

use super::sim_io::{SimIo, SimSoftware};
use super::*;
use crate::engine::roll::RollConfig;
use crate::engine::roll::sim::{ClusterSpec, Placement, SimCluster};

fn spec() -> ClusterSpec {
    ClusterSpec {
        brokers: 4,
        combined: 0,
        controllers: 3,
        topics: 3,
        partitions_per_topic: 4,
        replication_factor: 3,
        min_isr_choices: vec![2],
        racks: 3,
        placement: Placement::RackAware,
    }
}

fn roll_all(sim: &mut SimCluster) -> Roller {
    let ids: Vec<NodeId> = sim.nodes.keys().copied().collect();
    for id in ids {
        sim.restart_reasons.insert(id, vec!["--all".into()]);
    }
    let config = RollConfig {
        poll_interval_ms: 1_000,
        ..RollConfig::default()
    };
    sim.start_roll(config.clone());
    Roller::new(config, sim.requests())
}

fn block_on<F: Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

/// Runs the roll with no stop request and default options.
fn run_to_end(roller: &mut Roller, io: &SimIo) -> RunReport {
    let stop = AtomicBool::new(false);
    block_on(run(
        roller,
        io,
        &mut NoProgress,
        &stop,
        &DriverOptions::default(),
    ))
}

mod faults;
mod resume;
mod upgrade;
