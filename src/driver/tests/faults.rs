//! The loop's faults within one process: failed observations and commands, a stop request
//! mid-batch, a node that never comes back, and the leader-election option.

use super::*;

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
