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
use crate::engine::roll::{ConfigChange, Decision, RollError, RollSummary, Roller};
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

    /// Nodes restarted by this run, in order, each once.
    #[must_use]
    pub fn restarted(&self) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = Vec::new();
        for a in &self.actions {
            if let ActionRecord::Restart { nodes, .. } = a {
                for n in nodes {
                    if !out.contains(n) {
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
            for (n, r) in results {
                match r {
                    Ok(()) => run.roller.handle_restart_done(n, done_at),
                    Err(e) => {
                        run.roller
                            .handle_restart_failed(n, done_at, format!("{e:#}"));
                        failed.get_or_insert((n, e));
                    }
                }
            }
            run.actions.push(ActionRecord::Restart {
                nodes: ids,
                at_ms,
                error: failed.as_ref().map(|(_, e)| format!("{e:#}")),
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

/// Loops [`step`] until the run finishes, sleeping through the IO between
/// steps and saving through `store` after every step.
pub async fn run_with<I: RollIo, P: Progress, S: Store<RollRun>>(
    run: &mut RollRun,
    io: &I,
    progress: &mut P,
    store: &mut S,
    stop: &AtomicBool,
    options: &DriverOptions,
) -> RunReport {
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
                io.sleep_until(at).await;
            }
            StepResult::Finished(outcome) => return RunReport::of(run, outcome, io.now()),
        }
    }
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
mod tests {
    use std::collections::BTreeMap;

    use super::sim_io::SimIo;
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

    #[test]
    fn rolls_every_node_once_and_finishes() {
        let mut sim = SimCluster::generate(&spec(), 7);
        let mut roller = roll_all(&mut sim);
        let io = SimIo::new(sim);
        let report = run_to_end(&mut roller, &io);
        assert!(matches!(report.outcome, Outcome::Done(_)), "{report:?}");
        let sim = io.sim.borrow();
        assert!(sim.violations.is_empty(), "{:?}", sim.violations);
        let mut restarted = report.restarted();
        restarted.sort();
        let mut all: Vec<NodeId> = sim.nodes.keys().copied().collect();
        all.sort();
        assert_eq!(restarted, all);
        assert!(sim.nodes.values().all(|n| n.restarts_by_roll == 1));
    }

    #[test]
    fn without_preferred_leader_election_no_election_is_asked_for() {
        let mut sim = SimCluster::generate(&spec(), 7);
        let ids: Vec<NodeId> = sim.nodes.keys().copied().collect();
        for id in ids {
            sim.restart_reasons.insert(id, vec!["--all".into()]);
        }
        let config = RollConfig {
            poll_interval_ms: 1_000,
            restore_preferred_leaders: false,
            ..RollConfig::default()
        };
        sim.start_roll(config.clone());
        let mut roller = Roller::new(config, sim.requests());
        let io = SimIo::new(sim);
        let report = run_to_end(&mut roller, &io);
        assert!(matches!(report.outcome, Outcome::Done(_)), "{report:?}");
        assert!(
            !report
                .actions
                .iter()
                .any(|a| matches!(a, ActionRecord::ElectPreferredLeaders { .. })),
            "{:?}",
            report.actions
        );
        // With elections (the default) the same roll asks for some.
        let mut sim = SimCluster::generate(&spec(), 7);
        let mut roller = roll_all(&mut sim);
        let io = SimIo::new(sim);
        let report = run_to_end(&mut roller, &io);
        assert!(
            report
                .actions
                .iter()
                .any(|a| matches!(a, ActionRecord::ElectPreferredLeaders { .. })),
            "{:?}",
            report.actions
        );
    }

    #[test]
    fn observation_failures_mid_roll_are_retried() {
        let mut sim = SimCluster::generate(&spec(), 3);
        let mut roller = roll_all(&mut sim);
        let io = SimIo::new(sim);
        io.failing_observations.replace(vec![2, 3, 4]);
        let report = run_to_end(&mut roller, &io);
        assert!(matches!(report.outcome, Outcome::Done(_)), "{report:?}");
    }

    #[test]
    fn a_failing_first_observation_touches_nothing() {
        let mut sim = SimCluster::generate(&spec(), 3);
        let mut roller = roll_all(&mut sim);
        let io = SimIo::new(sim);
        io.failing_observations.replace(vec![0]);
        let report = run_to_end(&mut roller, &io);
        assert!(matches!(report.outcome, Outcome::ObserveFailed(_)));
        assert!(report.actions.is_empty());
        assert!(io.sim.borrow().batches.is_empty());
    }

    #[test]
    fn observations_failing_longer_than_the_retry_window_end_the_roll() {
        let mut sim = SimCluster::generate(&spec(), 3);
        let mut roller = roll_all(&mut sim);
        let io = SimIo::new(sim);
        io.failing_observations.replace((1..10_000).collect());
        let stop = AtomicBool::new(false);
        let options = DriverOptions {
            observe_retry_ms: 10_000,
            ..DriverOptions::default()
        };
        let report = block_on(run(&mut roller, &io, &mut NoProgress, &stop, &options));
        assert!(
            matches!(report.outcome, Outcome::ObserveFailed(_)),
            "{report:?}"
        );
        assert_eq!(io.sim.borrow().batches.len(), 1);
    }

    #[test]
    fn a_failed_restart_command_stops_the_roll_and_touches_nothing_else() {
        let mut sim = SimCluster::generate(&spec(), 5);
        let mut roller = roll_all(&mut sim);
        // Controllers restart first; fail the first one the engine picks.
        let first = roller.plan(&sim.snapshot()).steps.first().map(|s| match s {
            crate::engine::roll::PlanStep::Restart { nodes, .. } => nodes[0].node,
            other => panic!("unexpected first step {other:?}"),
        });
        let mut io = SimIo::new(sim);
        io.failing_restart = first;
        let report = run_to_end(&mut roller, &io);
        match report.outcome {
            Outcome::RestartFailed { node, .. } => assert_eq!(Some(node), first),
            other => panic!("{other:?}"),
        }
        assert_eq!(report.actions.len(), 1);
        assert!(io.sim.borrow().batches.is_empty());
        // The failure was fed back: the engine itself has aborted.
        let snapshot = io.sim.borrow().snapshot();
        match roller.decide(&snapshot, io.now()) {
            Decision::Abort {
                reason: RollError::RestartFailed { node, error },
            } => {
                assert_eq!(Some(node), first);
                assert!(error.contains("injected"), "{error}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn stop_finishes_the_current_batch_then_returns() {
        static STOP: AtomicBool = AtomicBool::new(false);
        let mut sim = SimCluster::generate(&spec(), 11);
        let mut roller = roll_all(&mut sim);
        let mut io = SimIo::new(sim);
        // Ctrl-C arrives right after the second batch was restarted.
        io.stop_after_batches = Some((2, &STOP));
        // Every restart the progress display announces.
        struct Announced(Vec<Vec<NodeId>>);
        impl Progress for Announced {
            fn event(&mut self, event: &Event<'_>) {
                if let Event::Decided(d @ Decision::Restart { .. }) = event {
                    self.0.push(d.restarted_nodes());
                }
            }
        }
        let mut announced = Announced(Vec::new());
        let report = block_on(run(
            &mut roller,
            &io,
            &mut announced,
            &STOP,
            &DriverOptions::default(),
        ));
        assert!(matches!(report.outcome, Outcome::Interrupted), "{report:?}");
        let sim = io.sim.borrow();
        assert_eq!(sim.batches.len(), 2);
        // Regression: the restart held back by the stop was announced as if it happened.
        assert_eq!(
            announced.0, sim.batches,
            "announced restarts that never ran"
        );
        // The second batch was waited for: it serves again.
        for n in &sim.batches[1] {
            assert!(sim.nodes[n].is_serving(), "node {n} left down");
        }
        assert!(sim.violations.is_empty(), "{:?}", sim.violations);
    }

    #[test]
    fn a_node_that_never_returns_aborts_without_touching_another() {
        let mut sim = SimCluster::generate(&spec(), 13);
        let mut roller = roll_all(&mut sim);
        let first = sim.controllers()[0];
        sim.nodes.get_mut(&first).unwrap().behaviour.never_returns = true;
        let io = SimIo::new(sim);
        let report = run_to_end(&mut roller, &io);
        let sim = io.sim.borrow();
        match report.outcome {
            Outcome::Aborted(RollError::NotServingInTime { node, .. }) => {
                assert_eq!(node, first);
                // Nothing was restarted after the node that did not return.
                assert_eq!(sim.batches.last(), Some(&vec![first]), "{:?}", sim.batches);
                assert!(
                    sim.nodes
                        .values()
                        .filter(|n| n.id != first)
                        .all(|n| n.is_serving())
                );
            }
            other => panic!("{other:?} after {:?}", sim.batches),
        }
    }

    /// A store that keeps the last saved JSON and "crashes" at chosen saves,
    /// before or right after writing: the save fails and the caller throws
    /// its in-memory run away, restoring the last written copy, as a process
    /// killed at that moment would.
    struct CrashStore {
        saves: usize,
        rng: u64,
        crashes: usize,
        last_good: Option<String>,
        crashed: bool,
        crashes_by_status: BTreeMap<String, usize>,
    }

    /// The store the driver saves to (`&self`): the crash bookkeeping behind a lock.
    struct Crashing(std::sync::Mutex<CrashStore>);

    impl Crashing {
        fn get(&self) -> std::sync::MutexGuard<'_, CrashStore> {
            self.0.lock().unwrap()
        }
    }

    impl Store<RollRun> for Crashing {
        async fn load(&self) -> Result<Option<RollRun>, StoreError> {
            Ok(self.get().last_good.as_deref().map(restore))
        }

        async fn save(&self, run: &RollRun) -> Result<(), StoreError> {
            self.get().save(run)
        }
    }

    impl CrashStore {
        fn save(&mut self, run: &RollRun) -> Result<(), StoreError> {
            self.saves += 1;
            // xorshift: crash points vary; a bounded number keeps the run finite.
            self.rng ^= self.rng << 13;
            self.rng ^= self.rng >> 7;
            self.rng ^= self.rng << 17;
            if self.crashes < 60 && self.rng.is_multiple_of(4) {
                self.crashes += 1;
                // Half the crashes happen right after the write.
                if self.rng.is_multiple_of(8) {
                    self.last_good = Some(serde_json::to_string(run)?);
                }
                self.crashed = true;
                let status = run
                    .pending
                    .as_ref()
                    .map_or("none".to_string(), |p| format!("{:?}", p.status));
                *self.crashes_by_status.entry(status).or_default() += 1;
                return Err(StoreError::Io("crash (injected)".into()));
            }
            self.last_good = Some(serde_json::to_string(run)?);
            Ok(())
        }
    }

    /// Counts how unconfirmed restarts were judged.
    #[derive(Default)]
    struct Judged {
        happened: usize,
        not_happened: usize,
    }

    impl Progress for Judged {
        fn event(&mut self, event: &Event<'_>) {
            if let Event::UnconfirmedRestartJudged { happened, .. } = event {
                if *happened {
                    self.happened += 1;
                } else {
                    self.not_happened += 1;
                }
            }
        }
    }

    fn restore(json: &str) -> RollRun {
        serde_json::from_str(json).expect("the saved run deserialises")
    }

    /// Every step starts from a restored (serde JSON round-tripped) run, and
    /// some saves "crash": between decided and issued, between issued and
    /// done (the command ran, its result was never saved), and after. Every
    /// node is still restarted exactly once and no safety rule breaks.
    #[test]
    fn a_run_restored_after_every_step_and_every_crash_restarts_each_node_once() {
        let mut crashes: BTreeMap<String, usize> = BTreeMap::new();
        let mut judged = Judged::default();
        for seed in [7, 11, 13, 17, 19] {
            let mut sim = SimCluster::generate(&spec(), seed);
            let roller = roll_all(&mut sim);
            let io = SimIo::new(sim);
            let mut store = Crashing(std::sync::Mutex::new(CrashStore {
                saves: 0,
                rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                crashes: 0,
                last_good: None,
                crashed: false,
                crashes_by_status: BTreeMap::new(),
            }));
            let mut run = RollRun::new(roller, io.now());
            // The CLI saves the new run before its first step.
            store.get().last_good = Some(serde_json::to_string(&run).unwrap());
            let options = DriverOptions {
                unconfirmed_restart_grace_ms: 30_000,
                ..DriverOptions::default()
            };
            let mut steps = 0;
            let outcome = loop {
                steps += 1;
                assert!(steps < 200_000, "seed {seed}: no end");
                let result = block_on(step(
                    &mut run,
                    &io,
                    &mut judged,
                    &mut store,
                    false,
                    &options,
                ));
                if store.get().crashed {
                    store.get().crashed = false;
                    run = restore(
                        store
                            .get()
                            .last_good
                            .as_deref()
                            .expect("a save before the crash"),
                    );
                    continue;
                }
                match result {
                    StepResult::Wake(at) => {
                        // Saved after every step, and restored from the copy.
                        let json = serde_json::to_string(&run).unwrap();
                        run = restore(&json);
                        block_on(io.sleep_until(at));
                    }
                    StepResult::Finished(outcome) => break outcome,
                }
            };
            assert!(
                matches!(outcome, Outcome::Done(_)),
                "seed {seed}: {outcome:?}"
            );
            let sim = io.sim.borrow();
            assert!(sim.violations.is_empty(), "{:?}", sim.violations);
            for n in sim.nodes.values() {
                assert_eq!(
                    n.restarts_by_roll, 1,
                    "seed {seed}: node {} restarted {} times ({:?})",
                    n.id, n.restarts_by_roll, sim.batches
                );
            }
            for (status, n) in &store.get().crashes_by_status {
                *crashes.entry(status.clone()).or_default() += n;
            }
            eprintln!(
                "seed {seed}: {steps} steps, {} resumes, {:?} crashes, {} batches",
                run.resumes,
                store.get().crashes_by_status,
                io.sim.borrow().batches.len()
            );
            assert!(run.resumes > 10, "{}", run.resumes);
        }
        // Both kinds of unconfirmed restarts were met: the command had run
        // (judged from evidence, not issued again) or had not (decided again).
        assert!(
            judged.happened > 0 && judged.not_happened > 0,
            "{} {}",
            judged.happened,
            judged.not_happened
        );
        for status in ["Decided", "Issued", "Done"] {
            assert!(
                crashes.contains_key(status),
                "no crash at {status}: {crashes:?}"
            );
        }
    }

    /// Saves every run it is given, and "crashes" (fails, as a process killed at that moment
    /// would) at the first save of an `Issued` action: the last copy written is then the run
    /// with its action `Decided` and never issued.
    #[derive(Default)]
    struct CrashBeforeIssue {
        last: std::sync::Mutex<Option<String>>,
        crashed: std::sync::atomic::AtomicBool,
    }

    impl Store<RollRun> for CrashBeforeIssue {
        async fn load(&self) -> Result<Option<RollRun>, StoreError> {
            Ok(self.last.lock().unwrap().as_deref().map(restore))
        }

        async fn save(&self, run: &RollRun) -> Result<(), StoreError> {
            if !self.crashed.load(Ordering::SeqCst)
                && run
                    .pending
                    .as_ref()
                    .is_some_and(|p| p.status == ActionStatus::Issued)
            {
                self.crashed.store(true, Ordering::SeqCst);
                return Err(StoreError::Io("crash (injected)".into()));
            }
            *self.last.lock().unwrap() = Some(serde_json::to_string(run)?);
            Ok(())
        }
    }

    /// Every event, in words, in order.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl Progress for Log {
        fn event(&mut self, event: &Event<'_>) {
            self.0.push(match event {
                Event::Observed { .. } => "observed".into(),
                Event::Decided(d) => format!("decided {d:?}"),
                Event::Resumed {
                    not_issued,
                    clock_behind_ms,
                    ..
                } => format!("resumed not_issued={not_issued:?} behind={clock_behind_ms}"),
                other => format!("{other:?}"),
            });
        }
    }

    /// Issue 23, point 7: a run saved with "restart node 0" decided (and never issued) is
    /// resumed on a host whose clock is 10 minutes behind the decision, while node 1 went
    /// down meanwhile (ISR [0, 2], min.insync.replicas 2). `now.since(decided_at)` saturates to
    /// 0 there, and the saved decision looked fresh: node 0 was restarted with no observation,
    /// leaving the partitions one replica in sync. A resumed run observes and decides again
    /// before its first action.
    #[test]
    fn a_saved_restart_resumed_with_the_clock_moved_back_observes_and_decides_again() {
        let spec = ClusterSpec {
            brokers: 3,
            combined: 0,
            controllers: 1,
            topics: 1,
            partitions_per_topic: 2,
            replication_factor: 3,
            min_isr_choices: vec![2],
            racks: 3,
            placement: Placement::RackAware,
        };
        let mut sim = SimCluster::generate(&spec, 3);
        sim.advance_to(Millis(3_600_000));
        let (b0, b1) = (NodeId(0), NodeId(1));
        sim.restart_reasons.insert(b0, vec!["--nodes".into()]);
        let config = RollConfig {
            poll_interval_ms: 1_000,
            ..RollConfig::default()
        };
        sim.start_roll(config.clone());
        let requests = BTreeMap::from([(b0, sim.requests()[&b0].clone())]);
        let io = SimIo::new(sim);
        let mut run = RollRun::new(Roller::new(config, requests), io.now());
        // 1. Decided "restart 0", then the process died before issuing it.
        let mut store = CrashBeforeIssue::default();
        let first = block_on(step(
            &mut run,
            &io,
            &mut NoProgress,
            &mut store,
            false,
            &DriverOptions::default(),
        ));
        assert!(
            matches!(first, StepResult::Finished(Outcome::SaveFailed(_))),
            "{first:?}"
        );
        let saved = store
            .last
            .lock()
            .unwrap()
            .clone()
            .expect("the decided run was saved");
        let mut run = restore(&saved);
        let pending = run.pending.clone().expect("saved with its decision");
        assert_eq!(pending.status, ActionStatus::Decided);
        assert_eq!(pending.decision.restarted_nodes(), vec![b0]);
        assert!(io.sim.borrow().batches.is_empty());
        // 2. Meanwhile node 1 goes down (for 5 minutes), and 30 s later the run is resumed on
        //    a clock 10 minutes behind the decision.
        {
            let mut sim = io.sim.borrow_mut();
            sim.inject(&crate::engine::roll::sim::Fault::Crash {
                node: b1,
                down_ms: Some(300_000),
            });
            let t = sim.now.plus(30_000);
            sim.advance_to(t);
        }
        io.clock_back_ms.set(630_000);
        assert!(io.now() < pending.decided_at);
        // 3. The resumed step observes first: node 1, healthy when the restart was decided, is
        //    down; the roll stops there and node 0 is not restarted.
        let mut log = Log::default();
        let result = block_on(step(
            &mut run,
            &io,
            &mut log,
            &mut NoStore,
            false,
            &DriverOptions::default(),
        ));
        assert!(
            io.sim.borrow().batches.is_empty(),
            "node 0 restarted on the saved decision: {:?}\n{:#?}",
            io.sim.borrow().batches,
            log.0
        );
        assert!(
            log.0[0].starts_with("resumed not_issued=Some(Restart")
                && log.0[0].ends_with("behind=600000"),
            "{:#?}",
            log.0
        );
        assert_eq!(log.0[1], "observed", "{:#?}", log.0);
        assert!(log.0[2].starts_with("decided Abort"), "{:#?}", log.0);
        match result {
            StepResult::Finished(Outcome::Aborted(RollError::NodeBecameUnhealthy {
                node, ..
            })) => assert_eq!(node, b1),
            other => panic!("{other:?}"),
        }
        assert!(run.pending.is_none());
        assert!(io.sim.borrow().violations.is_empty());
    }

    /// Nothing changed but the clock (10 minutes back): the resumed run observes, decides
    /// again and rolls every node once.
    #[test]
    fn a_saved_restart_resumed_with_the_clock_moved_back_and_nothing_changed_restarts_once() {
        let mut sim = SimCluster::generate(&spec(), 5);
        let roller = roll_all(&mut sim);
        sim.advance_to(Millis(3_600_000));
        let io = SimIo::new(sim);
        let mut run = RollRun::new(roller, io.now());
        let mut store = CrashBeforeIssue::default();
        let _ = block_on(step(
            &mut run,
            &io,
            &mut NoProgress,
            &mut store,
            false,
            &DriverOptions::default(),
        ));
        let mut run = restore(store.last.lock().unwrap().as_deref().unwrap());
        io.clock_back_ms.set(600_000);
        let mut log = Log::default();
        let report = block_on(run_with(
            &mut run,
            &io,
            &mut log,
            &mut NoStore,
            &AtomicBool::new(false),
            &DriverOptions::default(),
        ));
        assert!(matches!(report.outcome, Outcome::Done(_)), "{report:?}");
        assert_eq!(log.0[1], "observed", "{:#?}", log.0);
        let sim = io.sim.borrow();
        assert!(sim.violations.is_empty(), "{:?}", sim.violations);
        assert!(sim.nodes.values().all(|n| n.restarts_by_roll == 1));
    }

    /// A reconfiguration saved as decided and never issued is decided again too, and gives
    /// back its attempt: it is issued once, from a fresh decision.
    #[test]
    fn a_saved_reconfiguration_is_decided_again_and_keeps_its_attempts() {
        let mut sim = SimCluster::generate(&spec(), 7);
        let node = *sim
            .nodes
            .keys()
            .find(|n| sim.nodes[n].roles.broker)
            .unwrap();
        let key = sim.nodes[&node]
            .config
            .iter()
            .find(|(_, e)| !e.read_only)
            .map(|(k, _)| k.clone())
            .expect("a dynamic key");
        sim.nodes
            .get_mut(&node)
            .unwrap()
            .desired
            .insert(key, "12345".into());
        let config = RollConfig {
            poll_interval_ms: 1_000,
            ..RollConfig::default()
        };
        sim.start_roll(config.clone());
        let requests = BTreeMap::from([(node, sim.requests()[&node].clone())]);
        let io = SimIo::new(sim);
        let mut run = RollRun::new(Roller::new(config, requests), io.now());
        let mut store = CrashBeforeIssue::default();
        let _ = block_on(step(
            &mut run,
            &io,
            &mut NoProgress,
            &mut store,
            false,
            &DriverOptions::default(),
        ));
        let mut run = restore(store.last.lock().unwrap().as_deref().unwrap());
        assert!(matches!(
            run.pending.as_ref().map(|p| (&p.decision, p.status)),
            Some((Decision::Reconfigure { .. }, ActionStatus::Decided))
        ));
        let report = block_on(run_with(
            &mut run,
            &io,
            &mut NoProgress,
            &mut NoStore,
            &AtomicBool::new(false),
            &DriverOptions::default(),
        ));
        assert!(matches!(report.outcome, Outcome::Done(_)), "{report:?}");
        let reconfigures = report
            .actions
            .iter()
            .filter(|a| matches!(a, ActionRecord::Reconfigure { .. }))
            .count();
        assert_eq!(reconfigures, 1, "{:?}", report.actions);
        assert_eq!(io.sim.borrow().nodes[&node].reconfigs_by_roll, 1);
        assert_eq!(
            run.roller.contexts()[&node].num_reconfigs,
            1,
            "the attempt never issued is not counted"
        );
    }

    /// A restored state that does not match the cluster or itself (edited by
    /// hand, written by another version, a node gone) makes the engine
    /// abort or go on, never panic.
    #[test]
    fn an_inconsistent_restored_state_never_panics() {
        let mut sim = SimCluster::generate(&spec(), 23);
        let roller = roll_all(&mut sim);
        let io = SimIo::new(sim);
        let mut run = RollRun::new(roller, io.now());
        // Stop while the first restart is awaited.
        for _ in 0..3 {
            let _ = block_on(step(
                &mut run,
                &io,
                &mut NoProgress,
                &mut NoStore,
                false,
                &DriverOptions::default(),
            ));
        }
        let base = serde_json::to_value(&run).unwrap();
        let mutations: Vec<fn(&mut serde_json::Value)> = vec![
            |v| v["roller"]["nodes"] = serde_json::json!({}),
            |v| v["roller"]["awaiting"]["nodes"] = serde_json::json!([999, 1000]),
            |v| v["roller"]["awaiting"]["restarts"] = serde_json::json!({}),
            |v| v["roller"]["awaiting"]["kind"] = serde_json::json!("Reconfigure"),
            |v| v["roller"]["config"]["max_batch_size"] = serde_json::json!(0),
            |v| v["roller"]["config"]["poll_interval_ms"] = serde_json::json!(0),
            |v| v["roller"]["requests"] = serde_json::json!({}),
            |v| {
                v["pending"] = serde_json::json!({
                    "decision": {"decision": "restart", "nodes": [{"node": 4242, "reason": ""}], "reason": ""},
                    "status": "issued",
                    "decided_at": 0,
                });
            },
            |v| {
                v["pending"] = serde_json::json!({
                    "decision": {"decision": "elect_preferred_leaders", "nodes": [], "partitions": [], "reason": ""},
                    "status": "decided",
                    "decided_at": 0,
                });
            },
        ];
        for (i, mutate) in mutations.iter().enumerate() {
            let mut v = base.clone();
            mutate(&mut v);
            let Ok(mut restored) = serde_json::from_value::<RollRun>(v) else {
                continue; // rejected by serde: also fine
            };
            for _ in 0..200 {
                match block_on(step(
                    &mut restored,
                    &io,
                    &mut NoProgress,
                    &mut NoStore,
                    false,
                    &DriverOptions::default(),
                )) {
                    StepResult::Wake(at) => block_on(io.sleep_until(at)),
                    StepResult::Finished(outcome) => {
                        eprintln!("mutation {i}: {outcome:?}");
                        break;
                    }
                }
            }
        }
    }
}
