//! A roll onto new software (`upgrade --to`) over the simulator: it stops at the first node
//! that comes back on the old software.

use super::*;

/// A roll onto new software over the simulator (`upgrade --to`), seeds 0-7: every node ends on
/// the new software, each restarted once; with one node whose software was not changed, the
/// roll stops right after that node's restart (its batch is the last restart), naming it, and
/// no node after it was restarted. No node restarts twice, and the simulator's own safety checks see
/// no violation.
#[test]
fn a_roll_onto_new_software_stops_at_the_first_node_back_on_the_old_one() {
    for seed in 0..8 {
        for stuck_index in [None, Some(0), Some(3), Some(6)] {
            let mut sim = SimCluster::generate(&spec(), seed);
            let mut roller = {
                let ids: Vec<NodeId> = sim.nodes.keys().copied().collect();
                for id in ids {
                    sim.restart_reasons
                        .insert(id, vec!["software version: runs 4.3".into()]);
                }
                let config = RollConfig {
                    poll_interval_ms: 1_000,
                    ..RollConfig::default()
                };
                sim.start_roll(config.clone());
                let mut requests = sim.requests();
                for r in requests.values_mut() {
                    r.expected_software = Some(33);
                }
                Roller::new(config, requests)
            };
            let ids: Vec<NodeId> = sim.nodes.keys().copied().collect();
            let mut io = SimIo::new(sim);
            // The stuck node: the `stuck_index`-th node the roll restarts (found by a first run).
            let stuck = stuck_index.map(|i| {
                let mut probe = roller.clone();
                let mut free = SimIo::new(io.sim.borrow().clone());
                free.software = Some(SimSoftware {
                    old: 30,
                    new: 33,
                    stuck: None,
                    restarted: RefCell::new(BTreeSet::new()),
                });
                let order = run_to_end(&mut probe, &free).restarted();
                order[i]
            });
            io.software = Some(SimSoftware {
                old: 30,
                new: 33,
                stuck,
                restarted: RefCell::new(BTreeSet::new()),
            });
            let report = run_to_end(&mut roller, &io);
            let restarts: Vec<Vec<NodeId>> = report
                .actions
                .iter()
                .filter_map(|a| match a {
                    ActionRecord::Restart { nodes, .. } => Some(nodes.clone()),
                    _ => None,
                })
                .collect();
            let flat: Vec<NodeId> = restarts.iter().flatten().copied().collect();
            let once: BTreeSet<NodeId> = flat.iter().copied().collect();
            assert_eq!(
                once.len(),
                flat.len(),
                "seed {seed}: a node restarted twice: {flat:?}"
            );
            match stuck {
                None => {
                    assert!(
                        matches!(report.outcome, Outcome::Done(_)),
                        "seed {seed}: {report:?}"
                    );
                    assert_eq!(once, ids.iter().copied().collect(), "seed {seed}");
                }
                Some(stuck) => {
                    assert_eq!(
                        restarts.last().map(|b| b.contains(&stuck)),
                        Some(true),
                        "seed {seed}: the roll went on after node {stuck}: {restarts:?}"
                    );
                    match &report.outcome {
                        Outcome::Aborted(RollError::WrongSoftware {
                            node,
                            reported,
                            expected,
                        }) => assert_eq!(
                            (*node, *reported, *expected),
                            (stuck, Some(30), 33),
                            "seed {seed}"
                        ),
                        other => panic!("seed {seed}: {other:?}"),
                    }
                    // One node per batch (the default): exactly the nodes up to the stuck one.
                    assert_eq!(
                        Some(flat.len()),
                        stuck_index.map(|i| i + 1),
                        "seed {seed}: {flat:?}"
                    );
                }
            }
            let sim = io.sim.borrow();
            assert!(
                sim.violations.is_empty(),
                "seed {seed}: {:?}",
                sim.violations
            );
        }
    }
}
