//! The machine-wide cluster slots: how many Kafka clusters the test processes run at once, and
//! in which order the tests waiting for one get it.
//!
//! A slot is an exclusive `flock` on `slot-<n>.lock` in [`slots_dir`], shared by every test
//! process of the machine (the `cluster` and `kube` binaries side by side, a developer's second
//! `cargo test`), held by a cluster until it is dropped. The kernel releases the lock when the
//! file is closed or the process dies (even by `kill -9`): a crashed test never keeps a slot.
//!
//! # The order of the waiting tests
//! libtest starts tests in the order of their names, so left to itself the suite would start its
//! longest tests (`roll_*`, `topic_set_rf`) last and end on them while the other slots stand
//! idle. A test waiting for a slot therefore leaves a ticket in [`slots_dir`] (`wait-…`, with its
//! rank, its arrival and its process' [`owner_stamp`]) and tries the slots only while no live
//! ticket ranks before its own: the `kube` binary's tests first (each waits holding an etcd and an
//! apiserver, and that binary runs only two at a time, so its tests form a chain of their own
//! that must not stall), then the longest first ([`EXPECTED_SECONDS`]), then the others in the
//! order they came. A ticket
//! of a process that is gone is removed by the first waiter that sees it. The order only decides
//! who waits, never whether a test runs: every waiter gets a slot once those before it have.

#![allow(dead_code)] // Shared by several test binaries and an example; each uses a subset.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread::{self, ThreadId};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};

use super::kafka::owner_stamp;
use super::timing;

/// Clusters the machine's test processes run at once unless `KAFKAOPS_TEST_CLUSTERS` says otherwise.
pub const DEFAULT_CLUSTER_SLOTS: usize = 2;

/// How many clusters run at once on the machine: `KAFKAOPS_TEST_CLUSTERS`, default
/// [`DEFAULT_CLUSTER_SLOTS`]. Most of a cluster test is waiting (for Kafka, for kafkaops, for the
/// Cruise Control double), so two overlap well on 2 cores; every test has its own cluster,
/// ports, work and state directories, so nothing else is shared.
pub fn cluster_slots() -> usize {
    static SLOTS: OnceLock<usize> = OnceLock::new();
    *SLOTS.get_or_init(|| {
        std::env::var("KAFKAOPS_TEST_CLUSTERS")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|n| *n > 0)
            .unwrap_or(DEFAULT_CLUSTER_SLOTS)
    })
}

/// Where the slot files are: `KAFKAOPS_TEST_SLOTS_DIR`, default `kafkaops-test-slots` in the
/// system's temporary directory, so every test process of the machine shares the same slots.
fn slots_dir() -> PathBuf {
    std::env::var_os("KAFKAOPS_TEST_SLOTS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("kafkaops-test-slots"))
}

/// How often a test waiting for a slot tries them again (the other holders may be in another
/// process, so there is nothing to be woken by).
const SLOT_POLL: Duration = Duration::from_millis(100);

/// The tests that hold slots longest, with the seconds they held them in a full run
/// (`tests/env/timings.sh`, 2026-11-28, rounded; tests over 30 s). Only the order matters: a
/// figure that went stale costs time, never a result. A test not listed counts 0.
const EXPECTED_SECONDS: &[(&str, u32)] = &[
    (
        "kube_roll::strimzi_roll_reasons_rbac_lease_and_zero_failed_sends",
        172,
    ),
    (
        "roll_cluster::split_cluster_roll_reconfigure_bad_input_and_abort",
        135,
    ),
    (
        "roll_refusals::reassignment_removing_an_in_sync_replica_keeps_acks_all_producing",
        110,
    ),
    ("topic_set_rf::set_rf_on_a_real_cluster", 105),
    ("rebalance_trust::rebalances_you_can_trust", 78),
    (
        "roll_refusals::restart_command_returning_before_exit_is_waited_for",
        65,
    ),
    (
        "secure_cluster::sasl_ssl_roll_refusals_and_cruise_control",
        59,
    ),
    (
        "pace_throttle::a_new_throttle_reaches_the_brokers_while_the_removal_runs_on",
        55,
    ),
    (
        "kraft_lifecycle::quorum_changes_ghost_unregistration_and_a_finalized_upgrade_on_real_kafka",
        55,
    ),
    (
        "cc_double::api_contract_matches_documented_cruise_control",
        53,
    ),
    (
        "cc_double::fidelity_to_a_real_cruise_control_section_14",
        53,
    ),
    (
        "kraft_cli::quorum_grows_and_shrinks_a_ghost_is_unregistered_and_an_upgrade_is_finalized",
        53,
    ),
    ("roll_cluster::combined_cluster_roll_all", 51),
    (
        "roll_cluster::a_killed_roll_resumes_and_restarts_each_node_once",
        50,
    ),
    (
        "upgrade_roll::an_upgrade_rolls_every_node_onto_the_new_release_then_finalizes",
        45,
    ),
    (
        "operate_movers::a_rebalance_in_execution_holds_a_roll_back",
        44,
    ),
    ("anomalies_cluster::anomalies_on_a_real_cluster", 44),
    (
        "cc_second_round::what_a_user_still_hit_against_a_real_cruise_control",
        42,
    ),
    (
        "operate_host::operate_keeps_a_plain_host_cluster_as_the_policy_says",
        40,
    ),
    ("movers::cordoned_brokers_take_no_new_partitions", 40),
    ("movers::external_reassignments_block_wait_and_cancel", 39),
    (
        "movers::a_roll_during_an_execution_refuses_naming_the_task_and_the_execution_completes",
        39,
    ),
    (
        "health_throttles::health_names_under_min_isr_partitions_of_a_stopped_broker_and_waits_for_its_return",
        36,
    ),
    (
        "roll_refusals::stale_broker_metadata_does_not_let_the_roll_go_below_min_isr",
        36,
    ),
    (
        "cc_double::fidelity_to_a_real_cruise_control_section_13",
        32,
    ),
    ("rebalance_flow::rebalance_flow_on_a_real_cluster", 31),
];

/// The rank of a waiting test: a higher one goes first. The `kube` binary's tests before all
/// others (see the module doc), then the longest first.
fn rank(binary: &str, test: &str) -> u32 {
    let expected = EXPECTED_SECONDS
        .iter()
        .find(|(name, _)| *name == test)
        .map_or(0, |(_, s)| *s);
    let kube = if binary == "kube" { 100_000 } else { 0 };
    kube + expected
}

/// A waiter's ticket: `wait-<rank, inverted>-<arrival ms>-<pid>-<n>`, so that the names sort in
/// the order the waiters go.
struct Ticket {
    path: PathBuf,
    name: String,
}

impl Ticket {
    fn new(dir: &Path, rank: u32) -> Result<Ticket> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let arrival = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis();
        let pid = std::process::id();
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let name = format!("wait-{:010}-{arrival:013}-{pid}-{n}", u32::MAX - rank);
        let path = dir.join(&name);
        fs::write(&path, owner_stamp(pid))
            .with_context(|| format!("failed to write {}", path.display()))?;
        Ok(Ticket { path, name })
    }

    /// Whether a live ticket in `dir` goes before this one (tickets of processes that are gone
    /// are removed on the way).
    fn is_behind(&self, dir: &Path) -> bool {
        let Ok(entries) = fs::read_dir(dir) else {
            return false;
        };
        entries.flatten().any(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.starts_with("wait-") || name >= self.name {
                return false;
            }
            let pid = name.rsplit('-').nth(1).and_then(|p| p.parse::<u32>().ok());
            let live = match (pid, fs::read_to_string(entry.path())) {
                (Some(pid), Ok(stamp)) => stamp.is_empty() || owner_stamp(pid) == stamp,
                // Removed meanwhile: it got its slot.
                (_, Err(_)) => false,
                (None, Ok(_)) => false,
            };
            if !live {
                let _ = fs::remove_file(entry.path());
            }
            live
        })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

thread_local! {
    /// The cluster slot this thread holds while it starts a cluster ([`SerialGuard`]).
    static CURRENT_SLOT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// The slot this thread holds while it starts a cluster (its ports come from the slot's block).
pub fn current_slot() -> Option<usize> {
    CURRENT_SLOT.with(std::cell::Cell::get)
}

/// One of the [`cluster_slots`], held by a cluster until it is dropped (on whatever thread).
pub struct SerialGuard {
    holder: ThreadId,
    _slot: File,
}

/// Threads of this process that hold a slot (one cluster per test thread).
static HOLDERS: Mutex<Vec<ThreadId>> = Mutex::new(Vec::new());

impl SerialGuard {
    /// Waits for a free slot, in the order of the module doc.
    pub fn acquire() -> Result<Self> {
        let rank = rank(
            &timing::binary_name(),
            thread::current().name().unwrap_or(""),
        );
        Self::acquire_in(&slots_dir(), cluster_slots(), rank)
    }

    fn acquire_in(dir: &Path, slots: usize, rank: u32) -> Result<Self> {
        let me = thread::current().id();
        {
            let holders = HOLDERS.lock().unwrap_or_else(|e| e.into_inner());
            if holders.contains(&me) {
                bail!(
                    "this thread already runs a KafkaCluster; the harness runs one cluster per test"
                );
            }
        }
        fs::create_dir_all(dir)
            .with_context(|| format!("failed to create the cluster slot dir {}", dir.display()))?;
        let ticket = Ticket::new(dir, rank)?;
        let slot = loop {
            if !ticket.is_behind(dir)
                && let Some(file) = try_slots(dir, slots)?
            {
                break file;
            }
            thread::sleep(SLOT_POLL);
        };
        drop(ticket);
        HOLDERS.lock().unwrap_or_else(|e| e.into_inner()).push(me);
        Ok(SerialGuard {
            holder: me,
            _slot: slot,
        })
    }
}

/// Locks the first free slot, if any (and sets [`current_slot`] to it).
fn try_slots(dir: &Path, slots: usize) -> Result<Option<File>> {
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    for n in 0..slots {
        let path = dir.join(format!("slot-{n}.lock"));
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o666)
            .open(&path)
            .with_context(|| format!("failed to open {}", path.display()))?;
        // SAFETY: flock on a descriptor this function owns; no memory is shared.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            CURRENT_SLOT.with(|c| c.set(Some(n)));
            return Ok(Some(file));
        }
        let err = io::Error::last_os_error();
        if err.raw_os_error() != Some(libc::EWOULDBLOCK) {
            return Err(err).with_context(|| format!("failed to lock {}", path.display()));
        }
    }
    Ok(None)
}

impl Drop for SerialGuard {
    fn drop(&mut self) {
        if thread::current().id() == self.holder {
            CURRENT_SLOT.with(|c| c.set(None));
        }
        HOLDERS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|t| *t != self.holder);
        // `_slot` is closed after this, which releases the flock.
    }
}

/// Three tests wait for the one slot another holds: they get it highest rank first, whatever
/// order they came in.
#[test]
fn waiting_tests_get_the_slot_highest_rank_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let order = std::sync::Arc::new(Mutex::new(Vec::new()));
    let first = SerialGuard::acquire_in(dir.path(), 1, 0).expect("the free slot");
    let waiters: Vec<_> = [1, 5, 3]
        .into_iter()
        .map(|rank| {
            let (dir, order) = (dir.path().to_path_buf(), std::sync::Arc::clone(&order));
            let waiter = thread::spawn(move || {
                let guard = SerialGuard::acquire_in(&dir, 1, rank).expect("a slot");
                order.lock().unwrap().push(rank);
                thread::sleep(SLOT_POLL * 3);
                drop(guard);
            });
            // Each ticket is written before the next waiter comes.
            thread::sleep(SLOT_POLL * 2);
            waiter
        })
        .collect();
    drop(first);
    for w in waiters {
        w.join().expect("waiter");
    }
    assert_eq!(*order.lock().unwrap(), [5, 3, 1]);
}
