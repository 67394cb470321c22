//! Property tests of the roll engine against the simulated cluster.
//!
//! Random clusters (roles, racks, placements, min ISR, unhealthy nodes, log
//! recovery, config changes) and random fault sequences (crashes, ISR
//! shrink/expansion, leader moves, quorum leader changes, lagging
//! controllers, reassignments racing the roll, unreachable nodes). The
//! simulator checks the safety invariants on its true state at every action
//! (see `SimCluster::violations`); these tests add termination, liveness and
//! reason checks.
//!
//! The `resume` section drives the real driver loop (`kafkaops::driver::step`, with its save,
//! kill and resume rules) against the independent world of `support/world.rs` instead, whose
//! checker judges true ISRs: a roll killed between deciding and issuing a restart and resumed
//! later (issue 23, point 7). Its failures are kept in `tests/proptest-regressions/roll_properties.txt`.
//!
//! Default: 256 cases per property; `PROPTEST_CASES=5000` for a heavier run.

use std::collections::{BTreeMap, BTreeSet};

use kafkaops::engine::model::{Millis, NodeId, ObservedState};
use kafkaops::engine::roll::sim::{
    ClusterSpec, Fault, NodeBehaviour, Outcome, Phase, Placement, SimCluster, run_roll,
};
use kafkaops::engine::roll::{Decision, RollConfig, Roller};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

#[derive(Debug, Clone)]
enum Need {
    Nothing,
    RestartReason,
    DynamicChange,
    StaticChange,
    Both,
}

#[derive(Debug, Clone)]
struct NodeSetup {
    need: Need,
    initial: u8, // 0..=5 serving, 6 down, 7 starting, 8 recovering
    slow_ms: u64,
    recovery_ms: u64,
    never_returns: bool,
    reconfig_fails: bool,
}

#[derive(Debug, Clone)]
struct Scenario {
    spec: ClusterSpec,
    seed: u64,
    nodes: Vec<NodeSetup>,
    faults: Vec<(u64, u8, usize, usize, u64)>,
    config: RollConfig,
    /// Cruise-Control-like storm: many partitions get a lagging replica and
    /// a reassignment removing another in-sync replica, both in flight
    /// while the roll runs (the race the proposal leaves open).
    storm: bool,
}

fn node_setup(allow_trouble: bool) -> impl Strategy<Value = NodeSetup> {
    (
        prop_oneof![
            3 => Just(Need::Nothing),
            3 => Just(Need::RestartReason),
            2 => Just(Need::DynamicChange),
            2 => Just(Need::StaticChange),
            1 => Just(Need::Both),
        ],
        0u8..9,
        0u64..20_000,
        prop_oneof![3 => Just(0u64), 1 => 1u64..30_000],
        prop::bool::weighted(0.03),
        prop::bool::weighted(0.2),
    )
        .prop_map(
            move |(need, initial, slow_ms, recovery_ms, never, fails)| NodeSetup {
                need,
                initial,
                slow_ms,
                recovery_ms,
                never_returns: never && allow_trouble,
                reconfig_fails: fails,
            },
        )
}

fn spec() -> impl Strategy<Value = ClusterSpec> {
    (
        0usize..7,
        0usize..4,
        0usize..4,
        1usize..4,
        1usize..6,
        1usize..5,
        prop::collection::vec(1u32..4, 1..3),
        1usize..4,
        prop::bool::ANY,
    )
        .prop_map(
            |(brokers, combined, controllers, topics, ppt, rf, mins, racks, rack_aware)| {
                let (brokers, controllers) = match (brokers + combined, combined + controllers) {
                    (0, _) => (1, controllers.max(1)),
                    (_, 0) => (brokers, 1),
                    _ => (brokers, controllers),
                };
                ClusterSpec {
                    brokers,
                    combined,
                    controllers,
                    topics,
                    partitions_per_topic: ppt,
                    replication_factor: rf,
                    min_isr_choices: mins,
                    racks,
                    placement: if rack_aware {
                        Placement::RackAware
                    } else {
                        Placement::Random
                    },
                }
            },
        )
}

fn scenario(with_faults: bool) -> impl Strategy<Value = Scenario> {
    let faults = if with_faults {
        prop::collection::vec(
            (
                0u64..240_000,
                0u8..7,
                0usize..64,
                0usize..64,
                1_000u64..60_000,
            ),
            0..6,
        )
        .boxed()
    } else {
        Just(Vec::new()).boxed()
    };
    (
        spec(),
        any::<u64>(),
        prop::collection::vec(node_setup(with_faults), 16),
        faults,
        1usize..5,
        1u32..4,
        1u32..4,
    )
        .prop_map(
            |(spec, seed, nodes, faults, batch, restarts, reconfigs)| Scenario {
                spec,
                seed,
                nodes,
                faults,
                config: RollConfig {
                    max_batch_size: batch,
                    max_restart_attempts: restarts,
                    max_reconfig_attempts: reconfigs,
                    ..RollConfig::default()
                },
                storm: false,
            },
        )
}

fn storm_scenario() -> impl Strategy<Value = Scenario> {
    (scenario(false), 4usize..8, 2usize..6).prop_map(|(mut s, brokers, ppt)| {
        s.spec.brokers = brokers;
        s.spec.replication_factor = 3;
        s.spec.min_isr_choices = vec![2];
        s.spec.partitions_per_topic = ppt;
        s.storm = true;
        s
    })
}

fn build(s: &Scenario) -> SimCluster {
    let mut sim = SimCluster::generate(&s.spec, s.seed);
    let ids: Vec<NodeId> = sim.nodes.keys().copied().collect();
    for (i, id) in ids.iter().enumerate() {
        let setup = &s.nodes[i % s.nodes.len()];
        {
            let n = sim.nodes.get_mut(id).unwrap();
            n.behaviour = NodeBehaviour {
                down_ms: 1_000 + setup.slow_ms,
                recovery_ms: setup.recovery_ms,
                never_returns: setup.never_returns,
                reconfig_fails: setup.reconfig_fails,
                ..NodeBehaviour::default()
            };
            match setup.need {
                Need::Nothing => {}
                Need::RestartReason => {}
                Need::DynamicChange => {
                    n.desired
                        .insert("log.retention.ms".into(), "3600000".into());
                }
                Need::StaticChange => {
                    n.desired.insert("log.dirs".into(), "/data/kafka".into());
                }
                Need::Both => {
                    n.desired.insert("num.io.threads".into(), "16".into());
                    n.desired.insert("log.dirs".into(), "/data/kafka".into());
                }
            }
        }
        if matches!(setup.need, Need::RestartReason) {
            sim.restart_reasons
                .insert(*id, vec!["pod spec changed".into()]);
        }
    }
    // Initial trouble: crash some nodes at t=0 (they return on their own
    // unless restarted), some are still starting, some in log recovery.
    for (i, id) in ids.iter().enumerate() {
        let setup = &s.nodes[i % s.nodes.len()];
        match setup.initial {
            6 => sim.take_down(*id, Some(Millis(200_000))),
            7 => {
                sim.take_down(*id, None);
                sim.nodes.get_mut(id).unwrap().phase = Phase::Starting {
                    until: Millis(50_000),
                };
            }
            8 => {
                sim.take_down(*id, None);
                sim.nodes.get_mut(id).unwrap().phase = Phase::Recovering {
                    until: Millis(80_000),
                };
            }
            _ => {}
        }
    }
    sim.advance_to(Millis(0));
    if s.storm {
        let mut rng = kafkaops::engine::roll::sim::SplitMix64::new(s.seed ^ 0x5EED);
        let brokers: Vec<NodeId> = sim
            .nodes
            .values()
            .filter(|n| n.roles.broker)
            .map(|n| n.id)
            .collect();
        for i in 0..sim.partitions.len() {
            let p = &sim.partitions[i].p;
            if p.replicas.len() < 3 || rng.below(3) == 0 {
                continue;
            }
            let (lagging, leaving) = (p.replicas[1], p.replicas[2]);
            let Some(&add) = brokers.iter().find(|b| !p.replicas.contains(b)) else {
                continue;
            };
            let shrink_ms = 30_000 + rng.below(120_000) as u64;
            let done_ms = 30_000 + rng.below(120_000) as u64;
            sim.inject(&Fault::IsrShrink {
                partition: i,
                node: lagging,
                for_ms: shrink_ms,
            });
            sim.inject(&Fault::Reassign {
                partition: i,
                add,
                remove: leaving,
                done_after_ms: done_ms,
            });
        }
    }
    for &(at, kind, a, b, dur) in &s.faults {
        let node = ids[a % ids.len()];
        let other = ids[b % ids.len()];
        let fault = match kind {
            0 => Fault::Crash {
                node,
                down_ms: if dur > 55_000 { None } else { Some(dur) },
            },
            1 => Fault::IsrShrink {
                partition: a * 7 + b,
                node,
                for_ms: dur,
            },
            2 => Fault::LeaderMove {
                partition: a * 5 + b,
            },
            3 => Fault::QuorumLeaderChange,
            4 => Fault::ControllerLag { node, for_ms: dur },
            5 => Fault::Reassign {
                partition: a * 3 + b,
                add: other,
                remove: node,
                done_after_ms: dur,
            },
            _ => Fault::Unreachable { node, for_ms: dur },
        };
        sim.scheduled.push((Millis(at), fault));
    }
    sim
}

/// Runs a scenario, checking per-step properties; returns the outcome.
fn run(s: &Scenario) -> Result<(Outcome, SimCluster, Roller), TestCaseError> {
    run_held(s, &BTreeSet::new())
}

/// [`run`] with some nodes held (`kafkaops hold`): the roller is told, and the simulator flags
/// any action on them as a violation.
fn run_held(
    s: &Scenario,
    held: &BTreeSet<NodeId>,
) -> Result<(Outcome, SimCluster, Roller), TestCaseError> {
    let mut sim = build(s);
    sim.held = held.clone();
    let mut roller = Roller::new(s.config.clone(), sim.requests());
    roller.handle_holds(
        held.iter()
            .map(|id| (*id, "disk swap".to_string()))
            .collect(),
    );
    let mut bad_reason = None;
    let mut log: Vec<String> = Vec::new();
    let (outcome, _steps) = run_roll(&mut sim, &mut roller, 20_000, |sim, d| {
        if !matches!(d, Decision::Wait { .. }) {
            log.push(format!("t={} {d:?}", sim.now.0));
        }
        let ok = match d {
            Decision::Restart { nodes, reason } => {
                !reason.is_empty()
                    && !nodes.is_empty()
                    && nodes.iter().all(|n| !n.reason.is_empty())
            }
            Decision::Reconfigure {
                reason, changes, ..
            } => !reason.is_empty() && !changes.is_empty(),
            Decision::ElectPreferredLeaders { reason, .. } => !reason.is_empty(),
            Decision::Wait { for_what, .. } => !for_what.to_string().is_empty(),
            Decision::Done { .. } | Decision::Abort { .. } => true,
        };
        if !ok && bad_reason.is_none() {
            bad_reason = Some(format!("{d:?}"));
        }
    });
    prop_assert!(
        bad_reason.is_none(),
        "decision without a reason: {:?}",
        bad_reason
    );
    prop_assert!(
        sim.violations.is_empty(),
        "invariants broken: {:#?}\nbatches: {:?}\noutcome: {:?}\ndecisions:\n{}",
        sim.violations,
        sim.batches,
        outcome,
        log.join("\n")
    );
    prop_assert_ne!(&outcome, &Outcome::Stuck, "the roll did not terminate");
    for n in sim.nodes.values() {
        prop_assert!(
            n.restarts_by_roll <= s.config.max_restart_attempts,
            "node {} restarted {} times",
            n.id,
            n.restarts_by_roll
        );
    }
    Ok((outcome, sim, roller))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        // Failing inputs are printed in full; no regression files are kept.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Safety under faults: no invariant is ever broken, the roll always
    /// terminates, and a normal end meets the post-conditions (checked by the
    /// simulator on `Done`).
    #[test]
    fn roll_is_safe_under_random_faults(s in scenario(true)) {
        run(&s)?;
    }

    /// Safety while reassignments race the roll: restarts are judged on the
    /// ISR once the reassignments complete.
    #[test]
    fn roll_is_safe_with_reassignments_racing(s in storm_scenario()) {
        run(&s)?;
    }

    /// Liveness without faults: the roll finishes normally, and every node
    /// was restarted, reconfigured or needed neither.
    #[test]
    fn roll_completes_without_faults(s in scenario(false)) {
        let (outcome, sim, roller) = run(&s)?;
        prop_assert_eq!(&outcome, &Outcome::Done, "batches {:?}", sim.batches);
        let summary = match roller.contexts().values().next() {
            Some(_) => roller.contexts().clone(),
            None => BTreeMap::new(),
        };
        for (id, ctx) in summary {
            let n = &sim.nodes[&id];
            let needs_restart = sim.restart_reasons.contains_key(&id);
            if needs_restart {
                prop_assert!(ctx.num_restarts > 0, "node {} not restarted", id);
            }
            let config_applied = n
                .desired
                .iter()
                .all(|(k, v)| n.config.get(k).and_then(|e| e.value.as_deref()) == Some(v.as_str()));
            prop_assert!(config_applied, "node {} config not applied", id);
            prop_assert!(n.is_serving(), "node {} not serving at the end", id);
        }
    }

    /// Holds: a held node is never restarted nor reconfigured, under faults too (the simulator
    /// counts the roll's restarts and reconfigurations per node on its own, and flags any on a
    /// held node), every other invariant still holds, and the plan names each held node with its
    /// reason and plans nothing for it.
    #[test]
    fn held_nodes_are_never_acted_on(s in scenario(true), mask in any::<u16>()) {
        let sim = build(&s);
        let held: BTreeSet<NodeId> = sim
            .nodes
            .keys()
            .enumerate()
            .filter(|(i, _)| mask & (1 << (i % 16)) != 0)
            .map(|(_, id)| *id)
            .collect();
        let mut planner = Roller::new(s.config.clone(), sim.requests());
        planner.handle_holds(held.iter().map(|id| (*id, "disk swap".to_string())).collect());
        let plan = planner.plan(&sim.snapshot());
        let planned_held: BTreeSet<NodeId> = plan.held.iter().map(|r| r.node).collect();
        prop_assert_eq!(&planned_held, &held);
        prop_assert!(plan.held.iter().all(|r| r.reason.contains("disk swap")));
        for step in &plan.steps {
            match step {
                kafkaops::engine::roll::PlanStep::Restart { nodes, .. } => {
                    prop_assert!(nodes.iter().all(|n| !held.contains(&n.node)), "plan restarts a held node: {:?}", step);
                }
                kafkaops::engine::roll::PlanStep::Reconfigure { node, .. } => {
                    prop_assert!(!held.contains(node), "plan reconfigures a held node: {:?}", step);
                }
                kafkaops::engine::roll::PlanStep::Blocked { .. } => {}
            }
        }
        let (_, sim, _) = run_held(&s, &held)?;
        for id in &held {
            let n = &sim.nodes[id];
            prop_assert_eq!(n.restarts_by_roll + n.reconfigs_by_roll, 0, "held node {} acted on", id);
        }
    }

    /// The dry-run plan restarts every node that needs a restart exactly once
    /// (or says what blocks it), with batches that never share a partition.
    #[test]
    fn plan_covers_every_node_once(s in scenario(false)) {
        let sim = build(&s);
        let roller = Roller::new(s.config.clone(), sim.requests());
        let snapshot = sim.snapshot();
        let plan = roller.plan(&snapshot);
        let mut seen = std::collections::BTreeSet::new();
        for step in &plan.steps {
            if let kafkaops::engine::roll::PlanStep::Restart { nodes, reason } = step {
                prop_assert!(!reason.is_empty());
                for n in nodes {
                    prop_assert!(seen.insert(n.node), "node {} planned twice", n.node);
                }
                for p in &snapshot.partitions {
                    let shared = nodes.iter().filter(|n| p.all_replicas().any(|r| r == n.node)).count();
                    let quorum_rescue = nodes.iter().all(|n| {
                        snapshot.node(n.node).is_some_and(|x| {
                            x.roles.is_combined() && x.state == ObservedState::NotRunning
                        })
                    });
                    prop_assert!(shared <= 1 || quorum_rescue, "plan batch shares {}", p.tp);
                }
            }
        }
        for id in sim.restart_reasons.keys() {
            let blocked = plan.steps.iter().any(|s| matches!(s, kafkaops::engine::roll::PlanStep::Blocked { .. }));
            prop_assert!(seen.contains(id) || blocked, "node {} missing from the plan", id);
        }
    }
}

/// Guards against vacuous properties: the fault scenarios must actually
/// exercise the roll (most restart something, many finish normally, and the
/// aborts are of the expected kinds), and blocked waits must occur.
#[test]
fn fault_scenarios_exercise_the_roll() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strategy = scenario(true);
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let (mut with_restart, mut multi_batches, mut blocked, mut total) = (0, 0, 0, 0);
    for _ in 0..300 {
        let s = strategy.new_tree(&mut runner).unwrap().current();
        let mut sim = build(&s);
        let mut roller = Roller::new(s.config.clone(), sim.requests());
        let mut saw_blocked = false;
        let (outcome, _) = run_roll(&mut sim, &mut roller, 20_000, |_, d| {
            if let Decision::Wait { for_what, .. } = d {
                saw_blocked |= for_what.is_blocked();
            }
        });
        assert!(sim.violations.is_empty(), "{:?}", sim.violations);
        total += 1;
        with_restart += usize::from(!sim.batches.is_empty());
        multi_batches += usize::from(sim.batches.iter().any(|b| b.len() > 1));
        blocked += usize::from(saw_blocked);
        let key = match outcome {
            Outcome::Done => "done".to_string(),
            Outcome::Aborted(e) => format!("{e:?}")
                .split([' ', '{'])
                .next()
                .unwrap()
                .to_string(),
            Outcome::Stuck => "stuck".to_string(),
        };
        *outcomes.entry(key).or_default() += 1;
    }
    eprintln!(
        "outcomes {outcomes:?}; with restarts {with_restart}/{total}; multi-node batches {multi_batches}; \
         blocked waits {blocked}"
    );
    assert!(
        outcomes.get("done").copied().unwrap_or(0) * 4 >= total,
        "{outcomes:?}"
    );
    assert!(with_restart * 2 >= total);
    assert!(multi_batches > 0 && blocked > 0);
    assert!(!outcomes.contains_key("stuck"));
}

// ------------------------------------------------------------------------------------------
// Resume (issue 23, point 7), judged by the independent world of `support/world.rs`.

use crate::world;

mod resume {
    use std::collections::{BTreeMap, BTreeSet};

    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use kafkaops::driver::{self, ActionStatus, DriverOptions, NoProgress, RollRun, StepResult};
    use kafkaops::engine::model::{NodeId, NodeRoles};
    use kafkaops::engine::roll::{NodeRequest, Roller};
    use kafkaops::state::{Store, StoreError};
    use proptest::prelude::*;
    use proptest::test_runner::FileFailurePersistence;

    use super::world::io::WorldIo;
    use super::world::{Fault, Rules, Timing, World, adapter};

    /// The world's scenario: brokers 1..=n (every partition RF 3 over consecutive brokers,
    /// topic min ISR 2), three pure voters 100..=102, a roll of `selected` brokers. The roll is
    /// killed while its `crash_at`-th restart is decided and not yet issued (the last saved
    /// copy has it `Decided`); while it is down broker `victim` crashes (for `victim_down_ms`,
    /// `None`: for good) and `gap_ms` pass; it is resumed on a clock `back_ms` behind the
    /// decision.
    #[derive(Debug, Clone)]
    pub struct Resume {
        brokers: i32,
        timing: Timing,
        selected: Vec<i32>,
        crash_at: usize,
        victim: i32,
        victim_down_ms: Option<u64>,
        gap_ms: u64,
        back_ms: u64,
    }

    fn scenario() -> impl Strategy<Value = Resume> {
        (3i32..=5).prop_flat_map(|brokers| {
            (
                Just(brokers),
                (
                    0u64..6_000,
                    0u64..3_000,
                    0u64..3_000,
                    0u64..4_000,
                    any::<bool>(),
                ),
                prop::sample::subsequence((1..=brokers).collect::<Vec<_>>(), 1..=brokers as usize),
                0usize..3,
                1..=brokers,
                prop::option::weighted(0.7, 60_000u64..1_200_000),
                prop_oneof![1 => 0u64..1_000, 4 => 15_000u64..900_000],
                prop_oneof![1 => Just(0u64), 4 => 1u64..3_600_000],
            )
                .prop_map(
                    |(
                        brokers,
                        (shutdown_ms, down_ms, start_ms, catchup_ms, early_return),
                        selected,
                        crash_at,
                        victim,
                        victim_down_ms,
                        gap_ms,
                        back_ms,
                    )| Resume {
                        brokers,
                        timing: Timing {
                            shutdown_ms,
                            down_ms,
                            start_ms,
                            catchup_ms,
                            early_return,
                            ..Timing::default()
                        },
                        selected,
                        crash_at,
                        victim,
                        victim_down_ms,
                        gap_ms,
                        back_ms,
                    },
                )
        })
    }

    fn build(s: &Resume) -> World {
        let mut w = World::new();
        for id in 100..=102 {
            w.add_node(id, NodeRoles::CONTROLLER, true, Timing::default());
        }
        for id in 1..=s.brokers {
            w.add_node(id, NodeRoles::BROKER, false, s.timing.clone());
            w.node_mut(id).broker_min_isr = 2;
        }
        for i in 0..s.brokers {
            let r: Vec<i32> = (0..3).map(|k| (i + k) % s.brokers + 1).collect();
            w.add_partition("t", &r);
        }
        w.topics.get_mut("t").expect("topic").min_override = Some(2);
        w.init();
        w.advance_to(2_000);
        w
    }

    /// Saves every run (the JSON a file store would hold) and fails, as a process killed
    /// at that moment, at the save of the `crash_at`-th restart as `Issued`: the copy left is
    /// the run with that restart `Decided`, never issued.
    struct KillBeforeIssue {
        crash_at: usize,
        issued: AtomicUsize,
        last: Mutex<String>,
        killed: AtomicBool,
    }

    impl KillBeforeIssue {
        fn killed(&self) -> bool {
            self.killed.load(Ordering::SeqCst)
        }

        fn last(&self) -> String {
            self.last.lock().unwrap().clone()
        }

        fn save(&self, run: &RollRun) -> anyhow::Result<()> {
            let restart_issued = run.pending.as_ref().is_some_and(|p| {
                p.status == ActionStatus::Issued && !p.decision.restarted_nodes().is_empty()
            });
            if restart_issued && !self.killed() {
                if self.issued.load(Ordering::SeqCst) == self.crash_at {
                    self.killed.store(true, Ordering::SeqCst);
                    anyhow::bail!("killed (injected)");
                }
                self.issued.fetch_add(1, Ordering::SeqCst);
            }
            *self.last.lock().unwrap() = serde_json::to_string(run)?;
            Ok(())
        }
    }

    impl Store<RollRun> for KillBeforeIssue {
        async fn load(&self) -> Result<Option<RollRun>, StoreError> {
            Ok(serde_json::from_str(&self.last()).ok())
        }

        async fn save(&self, run: &RollRun) -> Result<(), StoreError> {
            KillBeforeIssue::save(self, run).map_err(|e| StoreError::Io(format!("{e:#}")))
        }
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime")
            .block_on(f)
    }

    /// Runs the scenario through the real driver; `Err` with the world's violations.
    pub fn run(s: &Resume) -> Result<(World, Option<String>, bool), TestCaseError> {
        let selected: BTreeSet<NodeId> = s.selected.iter().map(|id| NodeId(*id)).collect();
        let requests: BTreeMap<NodeId, NodeRequest> = selected
            .iter()
            .map(|id| {
                (
                    *id,
                    NodeRequest {
                        restart_reasons: vec!["test".into()],
                        desired_config: BTreeMap::new(),
                        expected_software: None,
                    },
                )
            })
            .collect();
        let mut w = build(s);
        w.begin_roll(&selected, &selected, false);
        let io = WorldIo::new(w, Rules::New);
        let config = adapter::roll_config(false, true);
        let mut run = RollRun::new(
            Roller::new(config, requests),
            kafkaops::driver::RollIo::now(&io),
        );
        let mut store = KillBeforeIssue {
            crash_at: s.crash_at,
            issued: AtomicUsize::new(0),
            last: Mutex::new(serde_json::to_string(&run).expect("json")),
            killed: AtomicBool::new(false),
        };
        let options = DriverOptions {
            unconfirmed_restart_grace_ms: 30_000,
            ..DriverOptions::default()
        };
        let mut resumed = false;
        let mut outcome = None;
        for _ in 0..20_000 {
            let r = block_on(driver::step(
                &mut run,
                &io,
                &mut NoProgress,
                &mut store,
                false,
                &options,
            ));
            if store.killed() && !resumed {
                resumed = true;
                // The process died; what it saved is all that is left.
                run = serde_json::from_str(&store.last()).expect("the saved run reads back");
                let decided_at = run.pending.as_ref().map(|p| p.decided_at);
                let mut w = io.world.borrow_mut();
                let now = w.now;
                w.faults.push((
                    now + 1,
                    Fault::Crash {
                        node: NodeId(s.victim),
                        down_ms: s.victim_down_ms,
                    },
                ));
                w.advance_to(now + s.gap_ms.max(2));
                drop(w);
                // Resumed on a clock `back_ms` behind the decision (or the last save).
                let saved_at = decided_at.unwrap_or(run.started);
                let behind = kafkaops::driver::RollIo::now(&io)
                    .since(saved_at)
                    .saturating_add(s.back_ms);
                io.behind_ms.set(io.behind_ms.get() + behind);
                continue;
            }
            match r {
                StepResult::Wake(at) => {
                    let _ = store.save(&run);
                    block_on(kafkaops::driver::RollIo::sleep_until(&io, at));
                }
                StepResult::Finished(o) => {
                    outcome = Some(format!("{o:?}"));
                    break;
                }
            }
        }
        let mut w = io.world.into_inner();
        w.end_roll();
        let end = w.now + 120_000;
        w.advance_to(end);
        if !w.violations.is_empty() {
            let tail: Vec<&String> = w.trace.iter().rev().take(40).collect();
            return Err(TestCaseError::fail(format!(
                "violations: {:#?}\noutcome: {outcome:?}\ntrace (last 40, newest first): {tail:#?}",
                w.violations
            )));
        }
        Ok((w, outcome, resumed))
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: super::cases(),
            failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel(
                "proptest-regressions",
            ))),
            ..ProptestConfig::default()
        })]

        /// Issue 23, point 7: a roll killed between deciding a restart and issuing it, resumed
        /// after a broker went down meanwhile, on a clock that may have moved back (or with so
        /// little time gone that the saved decision looks fresh): the resumed run observes and
        /// decides again, so the world's checker (true ISRs, never the engine's rules) finds
        /// no partition taken below its min ISR by the roll.
        #[test]
        fn a_resumed_roll_never_acts_on_its_saved_decision(s in scenario()) {
            run(&s)?;
        }
    }

    /// The scenario is not vacuous: the saved decision is found `Decided` at the kill in most
    /// cases, and a resume with nothing changed but the clock finishes the roll.
    #[test]
    fn resume_scenarios_exercise_the_resume() {
        let s = Resume {
            brokers: 3,
            timing: Timing::default(),
            selected: vec![1, 2, 3],
            crash_at: 1,
            victim: 1,
            victim_down_ms: Some(1),
            gap_ms: 30_000,
            back_ms: 600_000,
        };
        let (w, outcome, resumed) = run(&s).expect("no violation");
        assert!(resumed);
        assert!(
            outcome.as_deref().is_some_and(|o| o.starts_with("Done")),
            "{outcome:?}\n{:#?}",
            w.trace
        );
        let restarted: BTreeSet<i32> = w
            .restarts
            .iter()
            .flat_map(|(_, b)| b.iter().map(|n| n.0))
            .collect();
        assert_eq!(restarted, BTreeSet::from([1, 2, 3]));
        // Most generated scenarios are killed with a restart decided and resumed.
        use proptest::strategy::ValueTree;
        use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::deterministic_rng(RngAlgorithm::ChaCha),
        );
        let strategy = scenario();
        let mut resumes = 0;
        for _ in 0..200 {
            let s = strategy.new_tree(&mut runner).expect("scenario").current();
            let (_, _, resumed) = run(&s).expect("no violation");
            resumes += usize::from(resumed);
        }
        eprintln!("{resumes}/200 scenarios resumed a decided restart");
        assert!(resumes >= 100, "{resumes}/200");
    }
}

/// Found by `roll_is_safe_under_random_faults` in a CI run (2026-11-28; it failed on main 447584c
/// too): node 2, restarted by the roll, crashes 28 s later (down 54 s); when the wait for its
/// preferred leadership timed out, the roll went on with node 2 still counted as "restarted" and
/// reconfigured healthy node 3 at t=165 s while the snapshot showed node 2 not ready. The roller
/// now re-reads a node's state from the snapshot once the action it awaited is over.
#[test]
fn a_restarted_node_that_crashes_again_orders_the_rest_of_the_roll() {
    let node = |need, initial, slow_ms| NodeSetup {
        need,
        initial,
        slow_ms,
        recovery_ms: 0,
        never_returns: false,
        reconfig_fails: false,
    };
    // The case as proptest shrank it: node 1 recovering at the start, 2 and 4 to restart (4
    // slow), 3 to reconfigure; the setups past the cluster's six nodes are unused.
    let mut nodes = vec![
        node(Need::Nothing, 0, 0),
        node(Need::Nothing, 8, 0),
        node(Need::RestartReason, 0, 0),
        node(Need::DynamicChange, 0, 0),
        node(Need::RestartReason, 0, 19_101),
    ];
    nodes.resize(16, node(Need::Nothing, 0, 0));
    let s = Scenario {
        spec: ClusterSpec {
            brokers: 5,
            combined: 0,
            controllers: 1,
            topics: 1,
            partitions_per_topic: 3,
            replication_factor: 2,
            min_isr_choices: vec![2],
            racks: 1,
            placement: Placement::Random,
        },
        seed: 9690529278114533192,
        nodes,
        faults: vec![(108242, 0, 32, 0, 53859)],
        config: RollConfig {
            max_restart_attempts: 1,
            max_reconfig_attempts: 1,
            post_restart_timeout_ms: 60000,
            post_reconfigure_timeout_ms: 60000,
            max_batch_size: 2,
            poll_interval_ms: 5000,
            blocked_timeout_ms: 300000,
            restore_preferred_leaders: true,
            include_unhealthy: false,
        },
        storm: false,
    };
    run(&s).unwrap();
}
