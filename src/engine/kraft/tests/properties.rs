//! Property tests of the quorum, upgrade and ghost rules, judged by oracles that restate the
//! definitions (caught up, majority, a change under way) without the engine's helpers.

use super::*;

// ---- properties ----------------------------------------------------------------------------
//
// The oracles below restate the definitions without the engine's helpers:
// - caught up: running is not reported false, and (leader, or a last caught-up time `t` with
//   `NOW - window < t <= NOW`);
// - majority of `n`: more than half, `2 * up > n`.

const WINDOW: i64 = 2000;

fn oracle_up(m: &Member, leader: Option<NodeId>) -> bool {
    m.running != Some(false)
        && (Some(m.id) == leader
            || m.last_caught_up_ms
                .is_some_and(|t| t <= NOW && t > NOW - WINDOW))
}

fn oracle_majority(up: usize, n: usize) -> bool {
    2 * up > n
}

/// A voter change under way, from its definition: the leader has no high watermark, or a
/// voter other than the leader (and `except`) that is not known stopped has neither a log end
/// offset nor a fetch time.
fn oracle_pending(q: &QuorumView, except: Option<NodeId>) -> bool {
    (q.leader.is_some() && q.high_watermark.is_none())
        || q.voters.iter().any(|m| {
            Some(m.id) != q.leader
                && Some(m.id) != except
                && m.running != Some(false)
                && m.log_end_offset.is_none()
                && m.last_fetch_ms.is_none()
        })
}

fn any_ahead(q: &QuorumView) -> bool {
    q.voters
        .iter()
        .chain(&q.observers)
        .any(|m| m.last_caught_up_ms.is_some_and(|t| t > NOW))
}

fn arb_member(id: i32) -> impl Strategy<Value = Member> {
    (
        prop_oneof![
            1 => Just(None),
            8 => (0i64..4000).prop_map(Some),
            1 => (-50i64..0).prop_map(Some),
        ],
        prop_oneof![Just(None), (0i64..4000).prop_map(Some)],
        prop_oneof![1 => Just(None), 3 => Just(Some(true)), 1 => Just(Some(false))],
        prop_oneof![1 => Just(None), 9 => Just(Some(format!("d{id}")))],
        prop_oneof![1 => Just(None), 5 => (0i64..3000).prop_map(Some)],
    )
        .prop_map(move |(behind, fetch_behind, running, dir, leo)| Member {
            id: NodeId(id),
            directory_id: dir,
            log_end_offset: leo,
            last_fetch_ms: fetch_behind.map(|b| NOW - b),
            last_caught_up_ms: behind.map(|b| NOW - b),
            running,
        })
}

prop_compose! {
    fn arb_quorum()(
        n in 1usize..=5,
        observer_controllers in 0usize..=2,
        brokers in 0usize..=2,
        leader_pick in prop_oneof![1 => Just(None), 9 => (0usize..5).prop_map(Some)],
        kraft in prop_oneof![1 => Just(None), 1 => Just(Some(0i16)), 4 => Just(Some(1i16))],
        high_watermark in prop_oneof![1 => Just(None), 9 => Just(Some(10i64))],
    )(
        voters in (1..=n as i32).map(arb_member).collect::<Vec<_>>(),
        observers in (101..=100 + observer_controllers as i32)
            .chain(10..10 + brokers as i32)
            .map(arb_member)
            .collect::<Vec<_>>(),
        leader_pick in Just(leader_pick),
        kraft in Just(kraft),
        high_watermark in Just(high_watermark),
        n in Just(n),
        observer_controllers in Just(observer_controllers),
    ) -> QuorumView {
        let leader = leader_pick.map(|i| NodeId((i % n) as i32 + 1));
        let mut voters = voters;
        if let Some(l) = leader {
            // Kafka reports the leader's own timestamps as its current time.
            let m = voters.iter_mut().find(|m| m.id == l).unwrap();
            m.last_caught_up_ms = Some(NOW);
            m.last_fetch_ms = Some(NOW);
        }
        QuorumView {
            leader,
            epoch: 1,
            high_watermark,
            voters,
            observers,
            kraft_version: kraft,
            controllers: (1..=n as i32)
                .chain(101..=100 + observer_controllers as i32)
                .map(NodeId)
                .collect(),
        }
    }
}

fn test_limits() -> Limits {
    Limits {
        caught_up_within_ms: WINDOW,
        max_lag_records: 500,
        max_fetch_age_ms: 1500,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A removal never leaves a quorum whose caught-up running voters are not a majority of
    /// the new voter set; and one that would keep such a majority is not refused for it.
    #[test]
    fn removal_keeps_a_caught_up_majority_of_the_new_voter_set(
        q in arb_quorum(), pick in 0usize..8,
    ) {
        let ids: Vec<NodeId> = q.voters.iter().chain(&q.observers).map(|m| m.id).collect();
        let target = ids[pick % ids.len()];
        let result = quorum::check_remove(&q, target, &test_limits());
        let remaining: Vec<&Member> = q.voters.iter().filter(|m| m.id != target).collect();
        let up = remaining.iter().filter(|m| oracle_up(m, q.leader)).count();
        let is_voter = q.voters.iter().any(|m| m.id == target);
        let preconditions = q.kraft_version.is_some_and(|k| k >= 1)
            && q.leader.is_some()
            && !any_ahead(&q)
            && is_voter
            && q.voters.len() > 1
            && q.leader != Some(target)
            && q.voters.iter().any(|m| m.id == target && m.directory_id.is_some())
            && !oracle_pending(&q, Some(target));
        match &result {
            Ok(r) => {
                prop_assert!(preconditions, "accepted without its preconditions: {r:?}");
                prop_assert!(!remaining.is_empty());
                prop_assert!(oracle_majority(up, remaining.len()),
                    "removing {target} leaves {up} caught up of {}", remaining.len());
            }
            Err(e) => {
                prop_assert!(!(preconditions && oracle_majority(up, remaining.len())),
                    "refused a safe removal of {target}: {e}");
            }
        }
    }

    /// An added voter was a running, caught-up observer controller within the limits, and the
    /// grown voter set has a caught-up majority; a candidate meeting all that is accepted.
    #[test]
    fn addition_only_of_caught_up_observer_controllers(
        q in arb_quorum(), pick in 0usize..10,
    ) {
        let l = test_limits();
        let ids: Vec<NodeId> = q.voters.iter().chain(&q.observers).map(|m| m.id).collect();
        let target = ids[pick % ids.len()];
        let result = quorum::check_add(&q, target, &l);
        let candidate = q.observers.iter().find(|m| m.id == target);
        let leader_leo = q.leader
            .and_then(|ld| q.voters.iter().find(|m| m.id == ld))
            .and_then(|m| m.log_end_offset);
        let candidate_ok = candidate.is_some_and(|c| {
            q.controllers.contains(&c.id)
                && c.running != Some(false)
                && c.directory_id.is_some()
                && oracle_up(c, q.leader)
                && c.last_fetch_ms.is_some_and(|f| f <= NOW && NOW - f <= l.max_fetch_age_ms)
                && leader_leo.zip(c.log_end_offset).is_some_and(|(a, b)| a - b <= l.max_lag_records)
        });
        let up = q.voters.iter().filter(|m| oracle_up(m, q.leader)).count() + 1;
        let grown_ok = oracle_majority(up, q.voters.len() + 1);
        let preconditions = q.kraft_version.is_some_and(|k| k >= 1)
            && q.leader.is_some()
            && !any_ahead(&q)
            && !oracle_pending(&q, None);
        match &result {
            Ok(a) => {
                prop_assert!(preconditions && candidate_ok && grown_ok, "accepted {a:?}");
                prop_assert_eq!(Some(&a.directory_id), candidate.and_then(|c| c.directory_id.as_ref()));
            }
            Err(e) => prop_assert!(!(preconditions && candidate_ok && grown_ok),
                "refused a good candidate {target}: {e}"),
        }
    }

    /// The verdict is the definition: every voter caught up, else a majority, else none.
    #[test]
    fn status_verdict_matches_the_definition(q in arb_quorum()) {
        let s = quorum::status(&q, &test_limits());
        if q.leader.is_none() || any_ahead(&q) {
            prop_assert!(matches!(s.verdict, Verdict::Unknown { .. }), "{:?}", s.verdict);
            return Ok(());
        }
        let up: Vec<NodeId> = q.voters.iter().filter(|m| oracle_up(m, q.leader)).map(|m| m.id).collect();
        let expected = if up.len() == q.voters.len() {
            Verdict::Healthy
        } else if oracle_majority(up.len(), q.voters.len()) {
            Verdict::VoterLagging {
                lagging: q.voters.iter().map(|m| m.id).filter(|i| !up.contains(i)).collect(),
            }
        } else {
            Verdict::NoCaughtUpMajority { caught_up: up.clone(), voters: q.voters.len(), needed: q.voters.len() / 2 + 1 }
        };
        prop_assert_eq!(s.verdict, expected);
    }

    /// A migration only goes ahead on a static quorum whose every asked node runs 4.1+ with
    /// kraft.version 1 support and whose every voter is asked, running and caught up.
    #[test]
    fn migration_preflight(
        q in arb_quorum(),
        node_support in proptest::collection::vec(
            prop_oneof![
                1 => Just(Err("down".to_string())),
                6 => (0i16..=1, 20i16..=34).prop_map(|(k, m)| Ok(features(k, m))),
            ],
            0..8,
        ),
    ) {
        let ids: Vec<NodeId> = q.voters.iter().chain(&q.observers).map(|m| m.id).collect();
        let nodes: quorum::NodeSupport = ids.iter().copied().zip(node_support).collect();
        let result = quorum::check_migrate(&q, &nodes, &test_limits());
        let all_nodes_ok = nodes.values().all(|s| s.as_ref().is_ok_and(|f| {
            f[KRAFT_VERSION].max >= 1 && f[METADATA_VERSION].max >= 26
        }));
        let voters_ok = q.voters.iter().all(|m| nodes.contains_key(&m.id) && oracle_up(m, q.leader));
        let ok = q.kraft_version == Some(0) && q.leader.is_some() && !any_ahead(&q)
            && !oracle_pending(&q, None) && all_nodes_ok && voters_ok;
        prop_assert_eq!(result.is_ok(), ok, "{:?}", result);
    }

    /// A finalize never asks a node for a level its software does not support, never touches
    /// kraft.version, never lowers a level; when every node supports the targets it goes ahead.
    #[test]
    fn finalize_only_levels_every_node_supports(
        nodes in proptest::collection::btree_map(
            (1i32..8).prop_map(NodeId),
            prop_oneof![1 => Just(Err("down".to_string())), 6 => (25i16..=34).prop_map(|m| Ok(features(1, m)))],
            0..6,
        ),
        finalized in 25i16..=34,
        wanted in 24i16..=35,
        with_kraft in proptest::bool::weighted(0.1),
    ) {
        let view = UpgradeView {
            finalized: BTreeMap::from([(METADATA_VERSION.to_string(), finalized)]),
            nodes,
        };
        let mut targets = target(wanted);
        if with_kraft {
            targets.insert(KRAFT_VERSION.to_string(), 1);
        }
        let result = upgrade::check_finalize(&view, &targets);
        let every_node = !view.nodes.is_empty() && view.nodes.values().all(|s| {
            s.as_ref().is_ok_and(|f| f[METADATA_VERSION].min <= wanted && wanted <= f[METADATA_VERSION].max)
        });
        match &result {
            Ok(changes) => {
                prop_assert!(!with_kraft && wanted >= finalized);
                for c in changes {
                    prop_assert!(c.feature != KRAFT_VERSION && c.from.is_none_or(|f| c.to > f));
                    prop_assert!(every_node, "finalizes {} without every node supporting it", c.to);
                }
            }
            Err(e) => prop_assert!(with_kraft || wanted < finalized || !every_node,
                "refused a finalize every node supports: {e}"),
        }
    }

    /// Unregistering never removes a broker that serves, may run, votes, or that a replica
    /// list names; it removes every other fenced, stopped one.
    #[test]
    fn unregister_only_unreferenced_stopped_fenced_brokers(
        regs in proptest::collection::vec(
            (proptest::bool::ANY, prop_oneof![Just(None), Just(Some(true)), Just(Some(false))]),
            1..6,
        ),
        parts in proptest::collection::vec(
            (proptest::collection::vec(1i32..8, 1..4), proptest::collection::vec(1i32..8, 0..2)),
            0..5,
        ),
        voters in proptest::collection::btree_set(1i32..8, 0..3),
        pick in 1i32..8,
    ) {
        let view = GhostView {
            registrations: regs.iter().enumerate().map(|(i, (fenced, running))| Registration {
                id: NodeId(i as i32 + 1),
                fenced: *fenced,
                rack: None,
                running: *running,
            }).collect(),
            partitions: parts.iter().enumerate().map(|(i, (r, a))| PartitionReplicas {
                topic: "t".into(),
                partition: i as i32,
                replicas: r.iter().copied().map(NodeId).collect(),
                adding: a.iter().copied().map(NodeId).collect(),
                removing: vec![],
            }).collect(),
            voters: voters.iter().copied().map(NodeId).collect(),
        };
        let node = NodeId(pick);
        let reg = view.registrations.iter().find(|r| r.id == node);
        let referenced = parts.iter().any(|(r, a)| r.contains(&pick) || a.contains(&pick));
        let ok = reg.is_some_and(|r| r.fenced && r.running == Some(false))
            && !voters.contains(&pick)
            && !referenced;
        prop_assert_eq!(ghosts::check_unregister(&view, node).is_ok(), ok);
    }
}
