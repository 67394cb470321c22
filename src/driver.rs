//! The observe -> decide -> act loop of a roll.
//!
//! The engine ([`Roller`]) decides from plain snapshots and never touches the
//! world; this loop is the only place that does, and it does so through the
//! small [`RollIo`] trait (observe, restart, reconfigure, elect, clock). That
//! keeps the loop itself testable with a fake IO built on the engine's
//! simulator: the tests below inject exactly the faults a real cluster will not
//! produce on demand (an observation that fails, a restart command that
//! fails, Ctrl-C in the middle of a batch). `kafkaops roll` runs the loop to
//! completion; `operate` is meant to run the same loop one step per reconcile.
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
//! - a stop request (Ctrl-C) is honoured only between batches: a batch that
//!   has been restarted is waited for until it serves again (or the engine
//!   aborts), then the loop returns [`Outcome::Interrupted`].

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::engine::model::{ClusterSnapshot, Millis, NodeId, TopicPartition};
use crate::engine::roll::{ConfigChange, Decision, RollError, RollSummary, Roller};

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
}

impl Default for DriverOptions {
    fn default() -> Self {
        DriverOptions {
            observe_retry_ms: 120_000,
            settle_after_restart_ms: 3_000,
        }
    }
}

/// One thing the loop did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ActionRecord {
    Restart {
        nodes: Vec<NodeId>,
        /// Milliseconds since the roll started.
        at_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    Reconfigure {
        node: NodeId,
        changes: Vec<ConfigChange>,
        at_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    ElectPreferredLeaders {
        partitions: usize,
        at_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
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
}

/// Everything a caller needs to render the result.
#[derive(Debug)]
pub struct RunReport {
    pub outcome: Outcome,
    pub actions: Vec<ActionRecord>,
    pub elapsed_ms: u64,
}

impl RunReport {
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

/// Runs the roll until the engine is done or aborts, a restart fails, the
/// cluster cannot be observed, or `stop` is set (honoured between batches).
pub async fn run<I: RollIo, P: Progress>(
    roller: &mut Roller,
    io: &I,
    progress: &mut P,
    stop: &AtomicBool,
    options: &DriverOptions,
) -> RunReport {
    let started = io.now();
    let mut actions: Vec<ActionRecord> = Vec::new();
    let mut last_ok: Option<Millis> = None;
    let mut stop_seen = false;
    let poll = roller.config().poll_interval_ms.max(1);
    let outcome = loop {
        let snapshot = match io.observe().await {
            Ok(s) => {
                last_ok = Some(io.now());
                s
            }
            Err(error) => {
                let now = io.now();
                match last_ok {
                    Some(t) if now.since(t) < options.observe_retry_ms => {
                        let retry_until = t.plus(options.observe_retry_ms);
                        progress.event(&Event::ObserveRetry {
                            error: &error,
                            retry_until,
                        });
                        io.sleep_until(now.plus(poll).min(retry_until)).await;
                        continue;
                    }
                    _ => break Outcome::ObserveFailed(error),
                }
            }
        };
        for (node, at) in io.process_ended() {
            roller.handle_process_ended(node, at);
        }
        let now = io.now();
        let decision = roller.decide(&snapshot, now);
        progress.event(&Event::Observed {
            snapshot: &snapshot,
            roller,
            at: now,
        });
        progress.event(&Event::Decided(&decision));
        let stopping = stop.load(Ordering::SeqCst);
        if stopping && !stop_seen {
            stop_seen = true;
            progress.event(&Event::StopRequested);
        }
        let at_ms = now.since(started);
        match decision {
            Decision::Restart { nodes, .. } => {
                if stopping {
                    break Outcome::Interrupted;
                }
                let ids: Vec<NodeId> = nodes.iter().map(|n| n.node).collect();
                let results = io.restart(&ids).await;
                let done_at = io.now();
                let mut failed = None;
                for (n, r) in results {
                    match r {
                        Ok(()) => roller.handle_restart_done(n, done_at),
                        Err(e) => {
                            roller.handle_restart_failed(n, done_at, format!("{e:#}"));
                            failed.get_or_insert((n, e));
                        }
                    }
                }
                actions.push(ActionRecord::Restart {
                    nodes: ids,
                    at_ms,
                    error: failed.as_ref().map(|(_, e)| format!("{e:#}")),
                });
                if let Some((node, error)) = failed {
                    break Outcome::RestartFailed { node, error };
                }
                let settle = io.now().plus(options.settle_after_restart_ms);
                io.sleep_until(settle).await;
            }
            Decision::Reconfigure { node, changes, .. } => {
                if stopping {
                    break Outcome::Interrupted;
                }
                let result = io.reconfigure(node, &changes).await;
                if let Err(error) = &result {
                    progress.event(&Event::ActionFailed {
                        what: format!("reconfiguring node {node}"),
                        error,
                    });
                }
                actions.push(ActionRecord::Reconfigure {
                    node,
                    changes,
                    at_ms,
                    error: result.err().map(|e| format!("{e:#}")),
                });
            }
            Decision::ElectPreferredLeaders { partitions, .. } => {
                let result = io.elect_preferred_leaders(&partitions).await;
                if let Err(error) = &result {
                    progress.event(&Event::ActionFailed {
                        what: format!(
                            "electing preferred leaders for {} partition(s)",
                            partitions.len()
                        ),
                        error,
                    });
                }
                actions.push(ActionRecord::ElectPreferredLeaders {
                    partitions: partitions.len(),
                    at_ms,
                    error: result.err().map(|e| format!("{e:#}")),
                });
            }
            Decision::Wait { until, .. } => {
                if stopping && !roller.is_acting() {
                    break Outcome::Interrupted;
                }
                io.sleep_until(until.max(now.plus(1))).await;
            }
            Decision::Done { summary } => break Outcome::Done(summary),
            Decision::Abort { reason } => break Outcome::Aborted(reason),
        }
    };
    RunReport {
        outcome,
        actions,
        elapsed_ms: io.now().since(started),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};

    use super::*;
    use crate::engine::roll::sim::{ClusterSpec, Placement, SimCluster};
    use crate::engine::roll::{NodeReason, RollConfig};

    /// The simulator as IO, with injectable faults.
    struct SimIo {
        sim: RefCell<SimCluster>,
        /// Observations (by index) that fail.
        failing_observations: RefCell<Vec<usize>>,
        observations: Cell<usize>,
        /// A node whose restart command fails.
        failing_restart: Option<NodeId>,
        /// Set `stop` after this many restart batches.
        stop_after_batches: Option<(usize, &'static AtomicBool)>,
    }

    impl SimIo {
        fn new(sim: SimCluster) -> SimIo {
            SimIo {
                sim: RefCell::new(sim),
                failing_observations: RefCell::new(Vec::new()),
                observations: Cell::new(0),
                failing_restart: None,
                stop_after_batches: None,
            }
        }
    }

    impl RollIo for SimIo {
        async fn observe(&self) -> anyhow::Result<ClusterSnapshot> {
            let i = self.observations.get();
            self.observations.set(i + 1);
            if self.failing_observations.borrow().contains(&i) {
                anyhow::bail!("observation {i} failed (injected)");
            }
            Ok(self.sim.borrow().snapshot())
        }

        async fn restart(&self, nodes: &[NodeId]) -> Vec<(NodeId, anyhow::Result<()>)> {
            if let Some(bad) = self.failing_restart
                && nodes.contains(&bad)
            {
                return nodes
                    .iter()
                    .map(|n| {
                        let r = if *n == bad {
                            Err(anyhow::anyhow!("restart command failed (injected)"))
                        } else {
                            Ok(())
                        };
                        (*n, r)
                    })
                    .collect();
            }
            let decision = Decision::Restart {
                nodes: nodes
                    .iter()
                    .map(|n| NodeReason {
                        node: *n,
                        reason: String::new(),
                    })
                    .collect(),
                reason: String::new(),
            };
            let mut sim = self.sim.borrow_mut();
            sim.apply(&decision);
            if let Some((after, stop)) = self.stop_after_batches
                && sim.batches.len() >= after
            {
                stop.store(true, Ordering::SeqCst);
            }
            nodes.iter().map(|n| (*n, Ok(()))).collect()
        }

        async fn reconfigure(&self, node: NodeId, changes: &[ConfigChange]) -> anyhow::Result<()> {
            self.sim.borrow_mut().apply(&Decision::Reconfigure {
                node,
                changes: changes.to_vec(),
                reason: String::new(),
            });
            Ok(())
        }

        async fn elect_preferred_leaders(
            &self,
            partitions: &[TopicPartition],
        ) -> anyhow::Result<()> {
            self.sim
                .borrow_mut()
                .apply(&Decision::ElectPreferredLeaders {
                    nodes: Vec::new(),
                    partitions: partitions.to_vec(),
                    reason: String::new(),
                });
            Ok(())
        }

        fn now(&self) -> Millis {
            self.sim.borrow().now
        }

        fn process_ended(&self) -> Vec<(NodeId, Millis)> {
            std::mem::take(&mut self.sim.borrow_mut().process_ended)
        }

        async fn sleep_until(&self, until: Millis) {
            let mut sim = self.sim.borrow_mut();
            let to = until.max(sim.now);
            sim.advance_to(to);
        }
    }

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

    #[test]
    fn rolls_every_node_once_and_finishes() {
        let mut sim = SimCluster::generate(&spec(), 7);
        let mut roller = roll_all(&mut sim);
        let io = SimIo::new(sim);
        let stop = AtomicBool::new(false);
        let report = block_on(run(
            &mut roller,
            &io,
            &mut NoProgress,
            &stop,
            &DriverOptions::default(),
        ));
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
        let stop = AtomicBool::new(false);
        let report = block_on(run(
            &mut roller,
            &io,
            &mut NoProgress,
            &stop,
            &DriverOptions::default(),
        ));
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
        let report = block_on(run(
            &mut roller,
            &io,
            &mut NoProgress,
            &stop,
            &DriverOptions::default(),
        ));
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
        let stop = AtomicBool::new(false);
        let report = block_on(run(
            &mut roller,
            &io,
            &mut NoProgress,
            &stop,
            &DriverOptions::default(),
        ));
        assert!(matches!(report.outcome, Outcome::Done(_)), "{report:?}");
    }

    #[test]
    fn a_failing_first_observation_touches_nothing() {
        let mut sim = SimCluster::generate(&spec(), 3);
        let mut roller = roll_all(&mut sim);
        let io = SimIo::new(sim);
        io.failing_observations.replace(vec![0]);
        let stop = AtomicBool::new(false);
        let report = block_on(run(
            &mut roller,
            &io,
            &mut NoProgress,
            &stop,
            &DriverOptions::default(),
        ));
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
        let stop = AtomicBool::new(false);
        let report = block_on(run(
            &mut roller,
            &io,
            &mut NoProgress,
            &stop,
            &DriverOptions::default(),
        ));
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
        let report = block_on(run(
            &mut roller,
            &io,
            &mut NoProgress,
            &STOP,
            &DriverOptions::default(),
        ));
        assert!(matches!(report.outcome, Outcome::Interrupted), "{report:?}");
        let sim = io.sim.borrow();
        assert_eq!(sim.batches.len(), 2);
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
        let stop = AtomicBool::new(false);
        let report = block_on(run(
            &mut roller,
            &io,
            &mut NoProgress,
            &stop,
            &DriverOptions::default(),
        ));
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
}
