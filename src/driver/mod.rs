//! The drivers: the step functions that act on what the engine decides. The roll's
//! observe -> decide -> act loop is here; the Cruise Control execution flow's is [`cc_flow`]
//! (generic over the Cruise Control API, so a scripted double can drive it).
//!
//! # The roll driver
//!
//! The engine ([`Roller`]) decides from plain snapshots and never touches the
//! world; this loop is the only place that does, and it does so through the
//! small [`RollIo`] trait (observe, restart, reconfigure, elect, clock). That
//! keeps the loop itself testable with a fake IO built on the engine's
//! simulator: the tests below inject exactly the faults a real cluster will not
//! produce on demand (an observation that fails, a restart command that
//! fails, Ctrl-C in the middle of a batch, a crash between any two saves).
//!
//! The loop is a step function over saved state: [`step`] takes a
//! [`RollRun`] (the engine plus the pending action with its write-ahead
//! status `decided` / `issued` / `done`, the actions record and timings),
//! observes, decides, acts, feeds the result back, and returns
//! [`StepResult::Wake`] (call again at that time) or
//! [`StepResult::Finished`]. It saves the run through a [`Store`] before
//! and after every command; the caller saves it after every step. `kafkaops
//! roll` loops it (saving to a file, see [`crate::state`]); `operate` calls
//! it once per reconcile (saving it inside its own state). A deserialised run
//! resumes by the rules on [`RollRun`] (the engine's data, `crate::engine::roll::run`).
//! [`run`] / [`run_with`] loop it to the end.
//!
//! Rules the loop adds to the engine's:
//! - the first observation must succeed (otherwise nothing was touched and the
//!   caller reports the error); later failures are expected while nodes
//!   restart (a stopped broker times out, the quorum is briefly leaderless), so
//!   they are retried until `observe_retry_ms` has passed since the last
//!   success;
//! - every restart result is fed back to the engine
//!   ([`Roller::handle_restart_done`] / [`Roller::handle_restart_failed`]),
//!   and so is the IO's evidence that old processes ended
//!   ([`Roller::handle_process_ended`], before each decision): the engine
//!   never assumes a restart happened because it asked for one;
//! - a failed restart command ends the roll at once: no other node is touched;
//! - a failed reconfiguration or election is reported and left to the engine,
//!   which sees the unchanged cluster at the next observation (it retries a
//!   reconfiguration and restarts the node after too many attempts);
//! - after a restart the loop waits `settle_after_restart_ms` before observing
//!   again: the first observation is then likely to show the node down,
//!   which is one of the engine's pieces of evidence that it restarted (the
//!   engine does not rely on the pause for safety: without evidence, a node
//!   that still looks SERVING is not counted as back);
//! - Cruise Control's executor, when the IO asks it ([`RollIo::cruise_control`]),
//!   is given to the engine before each decision: no new restart or
//!   reconfiguration starts while an execution runs;
//! - a roll onto new software: what each node's software supports, when the IO reads it
//!   ([`RollIo::software`]), is given to the engine before each decision;
//! - a stop request (Ctrl-C) is honoured only between batches: a batch that
//!   has been restarted is waited for until it serves again (or the engine
//!   aborts), then the loop returns [`Outcome::Interrupted`].

pub mod cc_flow;
pub mod kafka_io;
#[cfg(test)]
pub(crate) mod sim_io;
mod step;

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::engine::roll::run::{ActionRecord, ActionStatus, PendingAction, RollRun};
use step::save_or_report;
pub use step::{StepResult, step};

use crate::engine::model::{ClusterSnapshot, Millis, NodeId, TopicPartition};
use crate::engine::movers::CruiseControlView;
use crate::engine::roll::{ConfigChange, Decision, RollError, RollSummary, Roller, SoftwareReport};
use crate::state::{Store, StoreError};

/// The IO a roll needs. Implemented over the Kafka adapter and a platform by
/// `kafkaops roll`, and over the simulator in tests.
pub trait RollIo {
    /// One observation of the whole cluster.
    fn observe(&self) -> impl Future<Output = anyhow::Result<ClusterSnapshot>>;
    /// Restarts these nodes together; one result per node, in order.
    fn restart(&self, nodes: &[NodeId]) -> impl Future<Output = Vec<(NodeId, anyhow::Result<()>)>>;
    /// Applies dynamic changes to one node (IncrementalAlterConfigs).
    fn reconfigure(
        &self,
        node: NodeId,
        changes: &[ConfigChange],
    ) -> impl Future<Output = anyhow::Result<()>>;
    /// Preferred-leader election for these partitions.
    fn elect_preferred_leaders(
        &self,
        partitions: &[TopicPartition],
    ) -> impl Future<Output = anyhow::Result<()>>;
    /// The current time.
    fn now(&self) -> Millis;
    /// Returns at `until` (at once if it has passed).
    fn sleep_until(&self, until: Millis) -> impl Future<Output = ()>;
    /// Evidence gathered since the last call that the process a node ran
    /// when its restart was decided has ended (e.g. a restart witness saw its
    /// connection close), with the time. The default has none: the engine
    /// then relies on what observations show (incarnation change, the node
    /// seen down).
    fn process_ended(&self) -> Vec<(NodeId, Millis)> {
        Vec::new()
    }
    /// `true` when the incarnations this IO reports can be compared with
    /// those reported before a restore (pod UIDs); `false` when they are
    /// numbered afresh by each process (the restart witness).
    fn incarnations_survive_restore(&self) -> bool {
        true
    }
    /// What Cruise Control's executor is doing, asked before every decision
    /// ([`Roller::handle_cruise_control`]: no new action while an execution
    /// runs). `None` (the default): not asked, no Cruise Control is
    /// configured (or the roll runs with `--force`, or its caller, `operate`,
    /// already waits for other movers before it steps the roll).
    fn cruise_control(&self) -> impl Future<Output = Option<CruiseControlView>> {
        std::future::ready(None)
    }
    /// A roll onto new software (`upgrade --to`): what each node's software supports now, asked
    /// before every decision ([`Roller::handle_software`]: a restarted node counts as back only
    /// on the target software). `None` (the default): not asked (a roll without a software
    /// target).
    fn software(
        &self,
    ) -> impl Future<Output = Option<std::collections::BTreeMap<NodeId, SoftwareReport>>> {
        std::future::ready(None)
    }
}

/// What the loop reports while it runs (progress display, logs).
#[derive(Debug)]
pub enum Event<'a> {
    /// A fresh observation and the roller's contexts after deciding on it.
    Observed {
        snapshot: &'a ClusterSnapshot,
        roller: &'a Roller,
        at: Millis,
    },
    /// The engine's decision, before it is acted on.
    Decided(&'a Decision),
    /// An observation failed and will be retried.
    ObserveRetry {
        error: &'a anyhow::Error,
        retry_until: Millis,
    },
    /// A reconfiguration or election failed; the roll goes on.
    ActionFailed {
        what: String,
        error: &'a anyhow::Error,
    },
    /// A stop was requested; the current batch is finished first.
    StopRequested,
    /// A restored run resumes, with the action it found pending (after the
    /// resume rules of [`RollRun`]).
    Resumed {
        pending: Option<&'a PendingAction>,
        /// A decision saved but never issued: dropped, decided again from a fresh
        /// observation.
        not_issued: Option<&'a Decision>,
        /// How far the clock is behind the latest time the saved run recorded (0: not
        /// behind). Nothing relies on a saved decision's age, so this is only reported.
        clock_behind_ms: u64,
    },
    /// A restart restored as issued but unconfirmed was judged: `happened`
    /// from evidence, or not (forgotten and decided again).
    UnconfirmedRestartJudged { nodes: &'a [NodeId], happened: bool },
    /// The run's state could not be saved after a step (the run goes on).
    SaveFailed { error: &'a anyhow::Error },
}

/// Receives [`Event`]s.
pub trait Progress {
    fn event(&mut self, event: &Event<'_>);
}

/// Ignores every event.
#[derive(Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn event(&mut self, _event: &Event<'_>) {}
}

/// Settings of the loop itself (the engine's are in its `RollConfig`).
#[derive(Debug, Clone)]
pub struct DriverOptions {
    /// How long observations may keep failing after the last success.
    pub observe_retry_ms: u64,
    /// Pause after a restart before the next observation.
    pub settle_after_restart_ms: u64,
    /// How long a restored run looks for evidence of a restart it found
    /// issued but unconfirmed (see [`RollRun`]).
    pub unconfirmed_restart_grace_ms: u64,
}

impl Default for DriverOptions {
    fn default() -> Self {
        DriverOptions {
            observe_retry_ms: 120_000,
            settle_after_restart_ms: 3_000,
            unconfirmed_restart_grace_ms: 120_000,
        }
    }
}

/// How the loop ended.
#[derive(Debug)]
pub enum Outcome {
    /// The engine finished normally.
    Done(RollSummary),
    /// The engine gave up (a node did not come back, a safety check blocked
    /// too long, ...); nothing more was done.
    Aborted(RollError),
    /// Stopped on request between batches.
    Interrupted,
    /// The restart of `node` failed; no other node was touched afterwards.
    RestartFailed { node: NodeId, error: anyhow::Error },
    /// The cluster could not be observed (at the start, or for longer than
    /// `observe_retry_ms` during the roll).
    ObserveFailed(anyhow::Error),
    /// The run's state could not be saved before a command: the command was
    /// not issued.
    SaveFailed(anyhow::Error),
}

/// Everything a caller needs to render the result.
#[derive(Debug)]
pub struct RunReport {
    pub outcome: Outcome,
    pub actions: Vec<ActionRecord>,
    pub elapsed_ms: u64,
}

impl RunReport {
    /// The report of `run` so far, ending with `outcome`.
    #[must_use]
    pub fn of(run: &RollRun, outcome: Outcome, now: Millis) -> RunReport {
        RunReport {
            outcome,
            actions: run.actions.clone(),
            elapsed_ms: now.since(run.started),
        }
    }

    /// Nodes restarted by this run, in order, each once: a node whose restart command failed
    /// was not restarted (unless a later command restarted it).
    #[must_use]
    pub fn restarted(&self) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = Vec::new();
        for a in &self.actions {
            if let ActionRecord::Restart { nodes, failed, .. } = a {
                for n in nodes {
                    if !failed.contains(n) && !out.contains(n) {
                        out.push(*n);
                    }
                }
            }
        }
        out
    }

    /// Nodes whose restart command failed in this run and that no later command restarted.
    #[must_use]
    pub fn restart_failed(&self) -> Vec<NodeId> {
        let restarted = self.restarted();
        let mut out: Vec<NodeId> = Vec::new();
        for a in &self.actions {
            if let ActionRecord::Restart { failed, .. } = a {
                for n in failed {
                    if !restarted.contains(n) && !out.contains(n) {
                        out.push(*n);
                    }
                }
            }
        }
        out
    }

    /// Nodes reconfigured (and not restarted) by this run.
    #[must_use]
    pub fn reconfigured(&self) -> Vec<NodeId> {
        let restarted = self.restarted();
        let mut out: Vec<NodeId> = Vec::new();
        for a in &self.actions {
            if let ActionRecord::Reconfigure {
                node, error: None, ..
            } = a
                && !restarted.contains(node)
                && !out.contains(node)
            {
                out.push(*node);
            }
        }
        out
    }
}

/// Saves nothing.
#[derive(Debug, Default)]
pub struct NoStore;

impl Store<RollRun> for NoStore {
    async fn load(&self) -> Result<Option<RollRun>, StoreError> {
        Ok(None)
    }

    async fn save(&self, _run: &RollRun) -> Result<(), StoreError> {
        Ok(())
    }
}

/// Loops [`step`] until the run finishes, sleeping through the IO between steps and saving
/// through `store` after every step (a failed save is reported and the loop goes on: [`step`]
/// saves before every command itself). When `exit_after_command` is set (a second Ctrl-C), it
/// ends as interrupted right after the step in flight; `stop` (the first) is honoured between
/// batches.
pub async fn run_until<I: RollIo, P: Progress, S: Store<RollRun>>(
    run: &mut RollRun,
    io: &I,
    progress: &mut P,
    store: &mut S,
    stop: &AtomicBool,
    exit_after_command: &AtomicBool,
    options: &DriverOptions,
) -> Outcome {
    loop {
        let result = step(
            run,
            io,
            progress,
            store,
            stop.load(Ordering::SeqCst),
            options,
        )
        .await;
        match result {
            StepResult::Wake(at) => {
                save_or_report(run, store, progress).await;
                if exit_after_command.load(Ordering::SeqCst) {
                    return Outcome::Interrupted;
                }
                io.sleep_until(at).await;
            }
            StepResult::Finished(outcome) => return outcome,
        }
    }
}

/// [`run_until`] to the end, with its report.
pub async fn run_with<I: RollIo, P: Progress, S: Store<RollRun>>(
    run: &mut RollRun,
    io: &I,
    progress: &mut P,
    store: &mut S,
    stop: &AtomicBool,
    options: &DriverOptions,
) -> RunReport {
    let never = AtomicBool::new(false);
    let outcome = run_until(run, io, progress, store, stop, &never, options).await;
    RunReport::of(run, outcome, io.now())
}

/// Runs the roll until the engine is done or aborts, a restart fails, the
/// cluster cannot be observed, or `stop` is set (honoured between batches),
/// without saving anything.
pub async fn run<I: RollIo, P: Progress>(
    roller: &mut Roller,
    io: &I,
    progress: &mut P,
    stop: &AtomicBool,
    options: &DriverOptions,
) -> RunReport {
    let mut state = RollRun::new(roller.clone(), io.now());
    let report = run_with(&mut state, io, progress, &mut NoStore, stop, options).await;
    *roller = state.roller;
    report
}

#[cfg(test)]
mod tests;
