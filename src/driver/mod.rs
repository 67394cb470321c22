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

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::engine::roll::run::{ActionRecord, ActionStatus, PendingAction, RollRun};

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

/// Saves `run` through `store`; a failure as the error the loop reports.
async fn save<S: Store<RollRun>>(store: &S, run: &RollRun) -> anyhow::Result<()> {
    store.save(run).await.map_err(anyhow::Error::new)
}

/// What a [`step`] leaves to its caller.
#[derive(Debug)]
pub enum StepResult {
    /// Call [`step`] again at (or after) this time.
    Wake(Millis),
    /// The run is over.
    Finished(Outcome),
}

/// One observe -> decide -> act -> feed back step of a roll. The caller saves
/// `run` afterwards (the step saves it itself, through `store`, before and
/// after running a command) and calls again at the returned wake-up time.
/// `stop` (Ctrl-C) is honoured between batches.
pub async fn step<I: RollIo, P: Progress, S: Store<RollRun>>(
    run: &mut RollRun,
    io: &I,
    progress: &mut P,
    store: &mut S,
    stop: bool,
    options: &DriverOptions,
) -> StepResult {
    run.steps += 1;
    if run.mark_live() {
        run.resumes += 1;
        resume(run, io, progress);
    }
    if stop && run.note_stop() {
        progress.event(&Event::StopRequested);
    }
    let poll = run.roller.config().poll_interval_ms.max(1);
    let snapshot = match io.observe().await {
        Ok(s) => {
            run.last_ok = Some(io.now());
            s
        }
        Err(error) => {
            let now = io.now();
            return match run.last_ok {
                Some(t) if now.since(t) < options.observe_retry_ms => {
                    let retry_until = t.plus(options.observe_retry_ms);
                    progress.event(&Event::ObserveRetry {
                        error: &error,
                        retry_until,
                    });
                    StepResult::Wake(now.plus(poll).min(retry_until))
                }
                _ => StepResult::Finished(Outcome::ObserveFailed(error)),
            };
        }
    };
    for (node, at) in io.process_ended() {
        run.roller.handle_process_ended(node, at);
    }
    if let Some(view) = io.cruise_control().await {
        run.roller.handle_cruise_control(&view);
    }
    if let Some(software) = io.software().await {
        run.roller.handle_software(software);
    }
    let now = io.now();
    let decision = run.roller.decide(&snapshot, now);
    progress.event(&Event::Observed {
        snapshot: &snapshot,
        roller: &run.roller,
        at: now,
    });
    // A restart or reconfiguration that a stop request holds back is never announced as
    // happening ("==> restarting node(s) N" after Ctrl-C, when nothing is restarted).
    let held_by_stop = stop
        && matches!(
            decision,
            Decision::Restart { .. } | Decision::Reconfigure { .. }
        );
    if !held_by_stop {
        progress.event(&Event::Decided(&decision));
    }
    if let Some(wake) = judge_unconfirmed(run, progress, &decision, now, options) {
        save_or_report(run, store, progress).await;
        return wake;
    }
    match decision {
        Decision::Wait { until, .. } => {
            if stop && !run.roller.is_acting() {
                return StepResult::Finished(Outcome::Interrupted);
            }
            StepResult::Wake(until.max(now.plus(1)))
        }
        Decision::Done { summary } => StepResult::Finished(Outcome::Done(summary)),
        Decision::Abort { reason } => StepResult::Finished(Outcome::Aborted(reason)),
        Decision::Restart { .. } | Decision::Reconfigure { .. } if stop => {
            // Not issued: the engine forgets it; a resumed run decides again.
            run.roller.handle_not_issued(&decision);
            StepResult::Finished(Outcome::Interrupted)
        }
        decision => {
            run.pending = Some(PendingAction {
                decision,
                status: ActionStatus::Decided,
                decided_at: now,
                unconfirmed_since: None,
            });
            if let Err(e) = save(store, run).await {
                return not_issued(run, e);
            }
            act(run, io, progress, store, options).await
        }
    }
}

/// Applies the resume rules to the pending action of a restored run.
fn resume<I: RollIo, P: Progress>(run: &mut RollRun, io: &I, progress: &mut P) {
    if !io.incarnations_survive_restore() {
        run.roller.forget_incarnations();
    }
    let now = io.now();
    let clock_behind_ms = run.latest_time().since(now);
    let mut not_issued = None;
    if let Some(p) = run.pending.as_mut() {
        match (p.status, &p.decision) {
            // Never acted on: observed and decided again, whatever the clock says.
            (ActionStatus::Decided, _) => {
                run.roller.handle_not_issued(&p.decision);
                not_issued = run.pending.take().map(|p| p.decision);
            }
            (ActionStatus::Issued, Decision::Restart { .. }) => {
                p.unconfirmed_since.get_or_insert(now);
            }
            (ActionStatus::Issued, _) => p.status = ActionStatus::Done,
            (ActionStatus::Done, _) => {}
        }
    }
    progress.event(&Event::Resumed {
        pending: run.pending.as_ref(),
        not_issued: not_issued.as_ref(),
        clock_behind_ms,
    });
}

/// A restart restored as `Issued` and never confirmed: judged from the
/// evidence the last decision recorded. `Some` = the step ends here.
fn judge_unconfirmed<P: Progress>(
    run: &mut RollRun,
    progress: &mut P,
    decision: &Decision,
    now: Millis,
    options: &DriverOptions,
) -> Option<StepResult> {
    let p = run.pending.as_mut()?;
    if p.status != ActionStatus::Issued {
        return None;
    }
    let since = p.unconfirmed_since?;
    let nodes = p.decision.restarted_nodes();
    if matches!(decision, Decision::Abort { .. }) || run.roller.is_finished() {
        p.status = ActionStatus::Done;
        return None;
    }
    let mut confirmed = Vec::new();
    let mut unconfirmed = Vec::new();
    for n in &nodes {
        match run.roller.restart_status(*n) {
            Some(s) if s.done => confirmed.push(*n),
            Some(s) if s.process_ended => {
                run.roller.handle_restart_done(*n, now);
                confirmed.push(*n);
            }
            Some(_) => unconfirmed.push(*n),
            None => {}
        }
    }
    let poll = run.roller.config().poll_interval_ms.max(1);
    if unconfirmed.is_empty() {
        p.status = ActionStatus::Done;
        p.unconfirmed_since = None;
        progress.event(&Event::UnconfirmedRestartJudged {
            nodes: &nodes,
            happened: true,
        });
        return Some(StepResult::Wake(now.plus(poll)));
    }
    if now.since(since) < options.unconfirmed_restart_grace_ms {
        return Some(StepResult::Wake(now.plus(poll)));
    }
    if confirmed.is_empty() {
        run.roller.handle_restart_not_issued(&nodes);
        run.pending = None;
        progress.event(&Event::UnconfirmedRestartJudged {
            nodes: &nodes,
            happened: false,
        });
    } else {
        for n in &unconfirmed {
            run.roller.handle_restart_done(*n, now);
        }
        p.status = ActionStatus::Done;
        p.unconfirmed_since = None;
    }
    Some(StepResult::Wake(now.plus(1)))
}

async fn save_or_report<S: Store<RollRun>, P: Progress>(
    run: &RollRun,
    store: &mut S,
    progress: &mut P,
) {
    if let Err(error) = save(store, run).await {
        progress.event(&Event::SaveFailed { error: &error });
    }
}

/// The state could not be saved before a command: it is not issued.
fn not_issued(run: &mut RollRun, error: anyhow::Error) -> StepResult {
    if let Some(p) = run.pending.take() {
        run.roller.handle_not_issued(&p.decision);
    }
    StepResult::Finished(Outcome::SaveFailed(error))
}

/// Issues the pending `Decided` action (saved as `Issued` first), feeds its
/// result back and saves it as `Done`.
async fn act<I: RollIo, P: Progress, S: Store<RollRun>>(
    run: &mut RollRun,
    io: &I,
    progress: &mut P,
    store: &mut S,
    options: &DriverOptions,
) -> StepResult {
    let Some(p) = run.pending.as_mut() else {
        return StepResult::Wake(io.now());
    };
    p.status = ActionStatus::Issued;
    let decision = p.decision.clone();
    let at_ms = p.decided_at.since(run.started);
    if let Err(e) = save(store, run).await {
        return not_issued(run, e);
    }
    let mut result = StepResult::Wake(io.now().plus(1));
    match decision {
        Decision::Restart { nodes, .. } => {
            let ids: Vec<NodeId> = nodes.iter().map(|n| n.node).collect();
            let results = io.restart(&ids).await;
            let done_at = io.now();
            let mut failed = None;
            let mut failed_nodes = Vec::new();
            for (n, r) in results {
                match r {
                    Ok(()) => run.roller.handle_restart_done(n, done_at),
                    Err(e) => {
                        run.roller
                            .handle_restart_failed(n, done_at, format!("{e:#}"));
                        failed_nodes.push(n);
                        failed.get_or_insert((n, e));
                    }
                }
            }
            run.actions.push(ActionRecord::Restart {
                nodes: ids,
                at_ms,
                error: failed.as_ref().map(|(_, e)| format!("{e:#}")),
                failed: failed_nodes,
            });
            result = match failed {
                Some((node, error)) => StepResult::Finished(Outcome::RestartFailed { node, error }),
                None => StepResult::Wake(io.now().plus(options.settle_after_restart_ms)),
            };
        }
        Decision::Reconfigure { node, changes, .. } => {
            let r = io.reconfigure(node, &changes).await;
            if let Err(error) = &r {
                progress.event(&Event::ActionFailed {
                    what: format!("reconfiguring node {node}"),
                    error,
                });
            }
            run.actions.push(ActionRecord::Reconfigure {
                node,
                changes,
                at_ms,
                error: r.err().map(|e| format!("{e:#}")),
            });
        }
        Decision::ElectPreferredLeaders { partitions, .. } => {
            let r = io.elect_preferred_leaders(&partitions).await;
            if let Err(error) = &r {
                progress.event(&Event::ActionFailed {
                    what: format!(
                        "electing preferred leaders for {} partition(s)",
                        partitions.len()
                    ),
                    error,
                });
            }
            run.actions.push(ActionRecord::ElectPreferredLeaders {
                partitions: partitions.len(),
                at_ms,
                error: r.err().map(|e| format!("{e:#}")),
            });
        }
        Decision::Wait { .. } | Decision::Done { .. } | Decision::Abort { .. } => {}
    }
    if let Some(p) = run.pending.as_mut() {
        p.status = ActionStatus::Done;
    }
    save_or_report(run, store, progress).await;
    result
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
