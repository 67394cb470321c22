//! Resuming a saved run: crashes between any two saves, a clock moved back since the saved
//! decision, and restored states that do not match the cluster. Every node is restarted once,
//! nothing is issued from a stale decision, and nothing panics.

use super::*;

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
        StepResult::Finished(Outcome::Aborted(RollError::NodeBecameUnhealthy { node, .. })) => {
            assert_eq!(node, b1)
        }
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
