//! Examples of each rule, and property tests judged by oracles written independently of the
//! rules (their own caught-up and majority arithmetic, straight from the definitions).

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use super::ghosts::{self, GhostView, PartitionReplicas, Registration, UnregisterRefusal};
use super::quorum::{
    self, Limits, MIGRATE_MIN_METADATA_VERSION, Member, QuorumMode, QuorumRefusal, QuorumView,
    Verdict,
};
use super::upgrade::{self, Blocker, FinalizeRefusal, UpgradeView};
use super::{KRAFT_VERSION, LevelRange, METADATA_VERSION};
use crate::engine::model::NodeId;

const NOW: i64 = 1_000_000;

fn member(id: i32, behind_ms: Option<i64>) -> Member {
    Member {
        id: NodeId(id),
        directory_id: Some(format!("dir-{id}")),
        log_end_offset: Some(500),
        last_fetch_ms: behind_ms.map(|b| NOW - b),
        last_caught_up_ms: behind_ms.map(|b| NOW - b),
        running: Some(true),
    }
}

/// A dynamic quorum led by 1, voters 1..=n all caught up, brokers 10, 11 observing.
fn quorum(n: i32) -> QuorumView {
    QuorumView {
        leader: Some(NodeId(1)),
        epoch: 3,
        high_watermark: Some(500),
        voters: (1..=n)
            .map(|id| member(id, Some(if id == 1 { 0 } else { 100 })))
            .collect(),
        observers: vec![member(10, Some(50)), member(11, Some(50))],
        kraft_version: Some(1),
        controllers: (1..=n).map(NodeId).collect(),
    }
}

fn with_observer_controller(mut q: QuorumView, id: i32) -> QuorumView {
    q.observers.push(member(id, Some(200)));
    q.controllers.insert(NodeId(id));
    q
}

fn limits() -> Limits {
    Limits::default()
}

// ---- status --------------------------------------------------------------------------------

#[test]
fn status_reports_lag_fetch_age_and_a_healthy_verdict() {
    let mut q = quorum(3);
    q.voters[2].log_end_offset = Some(490);
    let s = quorum::status(&q, &limits());
    assert_eq!(s.mode, QuorumMode::Dynamic);
    assert_eq!(s.verdict, Verdict::Healthy);
    let v3 = &s.voters[2];
    assert_eq!(
        (v3.lag_records, v3.fetch_age_ms, v3.caught_up),
        (Some(10), Some(100), true)
    );
    assert!(s.voters[0].leader && s.voters[0].caught_up);
    assert_eq!(s.observers.len(), 2);
}

#[test]
fn status_names_a_lagging_voter_and_a_lost_majority() {
    let mut q = quorum(3);
    q.voters[2].last_caught_up_ms = Some(NOW - 5000);
    assert_eq!(
        quorum::status(&q, &limits()).verdict,
        Verdict::VoterLagging {
            lagging: vec![NodeId(3)]
        }
    );
    q.voters[1].running = Some(false);
    assert_eq!(
        quorum::status(&q, &limits()).verdict,
        Verdict::NoCaughtUpMajority {
            caught_up: vec![NodeId(1)],
            voters: 3,
            needed: 2
        }
    );
    q.leader = None;
    assert!(matches!(
        quorum::status(&q, &limits()).verdict,
        Verdict::Unknown { .. }
    ));
}

#[test]
fn status_tells_static_from_dynamic() {
    let mut q = quorum(3);
    q.kraft_version = Some(0);
    assert_eq!(quorum::status(&q, &limits()).mode, QuorumMode::Static);
    q.kraft_version = None;
    assert_eq!(quorum::status(&q, &limits()).mode, QuorumMode::Unknown);
}

// ---- add -----------------------------------------------------------------------------------

#[test]
fn a_caught_up_observer_controller_may_be_added() {
    let q = with_observer_controller(quorum(3), 104);
    let add = quorum::check_add(&q, NodeId(104), &limits()).unwrap();
    assert_eq!(add.directory_id, "dir-104");
}

#[test]
fn adding_refuses_what_cannot_or_should_not_become_a_voter() {
    let q = with_observer_controller(quorum(3), 104);
    let l = limits();
    assert_eq!(
        quorum::check_add(&q, NodeId(2), &l),
        Err(QuorumRefusal::AlreadyVoter { node: NodeId(2) })
    );
    // A broker observes the quorum too, but is no controller.
    assert_eq!(
        quorum::check_add(&q, NodeId(10), &l),
        Err(QuorumRefusal::NotAController { node: NodeId(10) })
    );
    let mut not_fetching = q.clone();
    not_fetching.observers.retain(|m| m.id != NodeId(104));
    assert_eq!(
        quorum::check_add(&not_fetching, NodeId(104), &l),
        Err(QuorumRefusal::NotAnObserver { node: NodeId(104) })
    );
    let mut behind = q.clone();
    behind.observers[2].log_end_offset = Some(100);
    behind.voters[0].log_end_offset = Some(1500);
    let err = quorum::check_add(&behind, NodeId(104), &l).unwrap_err();
    assert!(
        matches!(
            err,
            QuorumRefusal::NotCaughtUp {
                lag_records: Some(1400),
                ..
            }
        ),
        "{err}"
    );
    assert!(err.retryable());
    let mut stale_fetch = q.clone();
    stale_fetch.observers[2].last_fetch_ms = Some(NOW - 5000);
    assert!(matches!(
        quorum::check_add(&stale_fetch, NodeId(104), &l),
        Err(QuorumRefusal::NotCaughtUp {
            fetch_age_ms: Some(5000),
            ..
        })
    ));
    let mut no_dir = q.clone();
    no_dir.observers[2].directory_id = None;
    assert_eq!(
        quorum::check_add(&no_dir, NodeId(104), &l),
        Err(QuorumRefusal::NoDirectoryId { node: NodeId(104) })
    );
    let mut stat = q.clone();
    stat.kraft_version = Some(0);
    assert_eq!(
        quorum::check_add(&stat, NodeId(104), &l),
        Err(QuorumRefusal::StaticQuorum)
    );
}

#[test]
fn adding_to_a_quorum_that_would_then_lack_a_caught_up_majority_is_refused() {
    // 3 voters, 2 stopped: with the new one 2 of 4 are caught up, 3 needed.
    let mut q = with_observer_controller(quorum(3), 104);
    q.voters[1].running = Some(false);
    q.voters[2].running = Some(false);
    assert!(matches!(
        quorum::check_add(&q, NodeId(104), &limits()),
        Err(QuorumRefusal::WouldLoseMajority {
            voters: 4,
            needed: 3,
            ..
        })
    ));
}

// ---- remove --------------------------------------------------------------------------------

#[test]
fn a_follower_voter_may_be_removed_when_the_rest_keep_a_majority() {
    let q = quorum(4);
    let r = quorum::check_remove(&q, NodeId(4), &limits()).unwrap();
    assert_eq!(r.directory_id, "dir-4");
}

#[test]
fn removing_a_voter_that_would_leave_no_caught_up_majority_is_refused() {
    // 3 voters, 3 stopped: removing 2 leaves {1, 3}, only 1 caught up, 2 needed.
    let mut q = quorum(3);
    q.voters[2].running = Some(false);
    assert_eq!(
        quorum::check_remove(&q, NodeId(2), &limits()),
        Err(QuorumRefusal::WouldLoseMajority {
            change: "removing node 2".into(),
            caught_up: vec![NodeId(1)],
            voters: 2,
            needed: 2
        })
    );
    // Removing the stopped one instead is fine: {1, 2} both caught up.
    assert!(quorum::check_remove(&q, NodeId(3), &limits()).is_ok());
}

#[test]
fn the_active_controller_and_the_last_voter_are_not_removed() {
    let q = quorum(3);
    let err = quorum::check_remove(&q, NodeId(1), &limits()).unwrap_err();
    assert_eq!(err, QuorumRefusal::ActiveController { node: NodeId(1) });
    assert!(err.to_string().contains("restart it"), "{err}");
    assert_eq!(
        quorum::check_remove(&quorum(1), NodeId(1), &limits()),
        Err(QuorumRefusal::LastVoter { node: NodeId(1) })
    );
    assert_eq!(
        quorum::check_remove(&q, NodeId(10), &limits()),
        Err(QuorumRefusal::NotAVoter { node: NodeId(10) })
    );
}

#[test]
fn a_timestamp_ahead_of_the_leaders_clock_stops_every_change() {
    let mut q = quorum(4);
    q.voters[3].last_caught_up_ms = Some(NOW + 10);
    assert!(matches!(
        quorum::check_remove(&q, NodeId(2), &limits()),
        Err(QuorumRefusal::ClockSteppedBack {
            node: NodeId(4),
            ..
        })
    ));
}

// ---- migrate -------------------------------------------------------------------------------

// ---- a change in progress -----------------------------------------------------------------

/// Voter 4 just added (AddRaftVoter's record appended): listed, not heard from yet.
fn with_joining_voter(mut q: QuorumView) -> QuorumView {
    q.voters.push(Member {
        log_end_offset: None,
        last_fetch_ms: None,
        last_caught_up_ms: None,
        ..member(4, None)
    });
    q.controllers.insert(NodeId(4));
    q
}

#[test]
fn every_quorum_change_is_refused_while_a_voter_change_is_under_way() {
    let q = with_observer_controller(with_joining_voter(quorum(3)), 5);
    let busy = |r: Result<(), QuorumRefusal>| match r {
        Err(e @ QuorumRefusal::ChangeInProgress { .. }) => {
            assert_eq!(e.failure_kind(), crate::engine::failure::FailureKind::Busy);
            assert!(!e.retryable());
            assert!(
                e.to_string().contains("[NodeId(4)]") || e.to_string().contains('4'),
                "{e}"
            );
        }
        other => panic!("expected a change in progress, got {other:?}"),
    };
    busy(quorum::change_in_progress(&q));
    busy(quorum::check_add(&q, NodeId(5), &limits()).map(|_| ()));
    busy(quorum::check_remove(&q, NodeId(3), &limits()).map(|_| ()));
    let mut st = q.clone();
    st.kraft_version = Some(0);
    busy(
        quorum::check_migrate(&st, &support(&[1, 2, 3, 4, 5, 10, 11], 1, 30), &limits())
            .map(|_| ()),
    );
    // Once it fetched, the same changes go ahead.
    let mut joined = q.clone();
    joined.voters[3] = member(4, Some(100));
    assert_eq!(quorum::change_in_progress(&joined), Ok(()));
    assert!(quorum::check_add(&joined, NodeId(5), &limits()).is_ok());
    assert!(quorum::check_remove(&joined, NodeId(3), &limits()).is_ok());
}

#[test]
fn a_leader_that_has_not_committed_refuses_changes_but_a_dead_voter_is_no_change() {
    let mut q = quorum(3);
    q.high_watermark = None;
    assert!(matches!(
        quorum::check_remove(&q, NodeId(3), &limits()),
        Err(QuorumRefusal::ChangeInProgress { .. })
    ));
    // A stopped voter that never fetched from this leader is a dead voter: removing it is
    // the point, and it does not block adding another.
    let mut dead = quorum(4);
    dead.voters[3] = Member {
        log_end_offset: None,
        last_fetch_ms: None,
        last_caught_up_ms: None,
        running: Some(false),
        ..member(4, None)
    };
    assert_eq!(quorum::change_in_progress(&dead), Ok(()));
    assert!(quorum::check_remove(&dead, NodeId(4), &limits()).is_ok());
    // The voter to remove itself is not counted even when nobody could tell it runs.
    dead.voters[3].running = None;
    assert!(quorum::check_remove(&dead, NodeId(4), &limits()).is_ok());
    assert!(matches!(
        quorum::check_remove(&dead, NodeId(3), &limits()),
        Err(QuorumRefusal::ChangeInProgress { .. })
    ));
}

fn features(kraft_max: i16, mv_max: i16) -> BTreeMap<String, LevelRange> {
    BTreeMap::from([
        (
            KRAFT_VERSION.to_string(),
            LevelRange {
                min: 0,
                max: kraft_max,
            },
        ),
        (
            METADATA_VERSION.to_string(),
            LevelRange {
                min: 7,
                max: mv_max,
            },
        ),
    ])
}

fn support(ids: &[i32], kraft_max: i16, mv_max: i16) -> quorum::NodeSupport {
    ids.iter()
        .map(|i| (NodeId(*i), Ok(features(kraft_max, mv_max))))
        .collect()
}

#[test]
fn migrate_needs_every_node_on_4_1_and_every_voter_caught_up() {
    let mut q = quorum(3);
    q.kraft_version = Some(0);
    let all = [1, 2, 3, 10, 11];
    assert_eq!(
        quorum::check_migrate(&q, &support(&all, 1, 33), &limits()),
        Ok(1)
    );
    // A 4.0 node supports kraft.version 1 but cannot upgrade it (KAFKA-16538 is in 4.1).
    let mut old = support(&all, 1, 33);
    old.insert(NodeId(11), Ok(features(1, 25)));
    let err = quorum::check_migrate(&q, &old, &limits()).unwrap_err();
    assert!(
        matches!(
            err,
            QuorumRefusal::NodeCannotMigrate {
                node: NodeId(11),
                ..
            }
        ) && err.to_string().contains("4.0-IV3"),
        "{err}"
    );
    let mut down = support(&all, 1, 33);
    down.insert(NodeId(10), Err("connection refused".into()));
    assert!(matches!(
        quorum::check_migrate(&q, &down, &limits()),
        Err(QuorumRefusal::NodeUnknown {
            node: NodeId(10),
            ..
        })
    ));
    let mut lagging = q.clone();
    lagging.voters[2].last_caught_up_ms = Some(NOW - 9000);
    assert_eq!(
        quorum::check_migrate(&lagging, &support(&all, 1, 33), &limits()),
        Err(QuorumRefusal::VotersNotCaughtUp {
            lagging: vec![NodeId(3)]
        })
    );
    assert_eq!(
        quorum::check_migrate(&quorum(3), &support(&all, 1, 33), &limits()),
        Err(QuorumRefusal::AlreadyDynamic { kraft_version: 1 })
    );
    assert_eq!(MIGRATE_MIN_METADATA_VERSION, 26);
}

// ---- upgrade -------------------------------------------------------------------------------

fn upgrade_view(maxes: &[(i32, i16)], finalized_mv: i16) -> UpgradeView {
    UpgradeView {
        finalized: BTreeMap::from([
            (METADATA_VERSION.to_string(), finalized_mv),
            (KRAFT_VERSION.to_string(), 1),
        ]),
        nodes: maxes
            .iter()
            .map(|(id, mv)| (NodeId(*id), Ok(features(1, *mv))))
            .collect(),
    }
}

fn target(mv: i16) -> BTreeMap<String, i16> {
    BTreeMap::from([(METADATA_VERSION.to_string(), mv)])
}

#[test]
fn finalize_while_a_node_still_runs_the_old_release_is_refused_naming_it() {
    let v = upgrade_view(&[(1, 33), (2, 30), (3, 33)], 30);
    let err = upgrade::check_finalize(&v, &target(33)).unwrap_err();
    assert_eq!(
        err,
        FinalizeRefusal::NodesNotReady {
            feature: METADATA_VERSION.into(),
            level: 33,
            blockers: vec![(
                NodeId(2),
                Blocker::Unsupported {
                    supported: Some(LevelRange { min: 7, max: 30 })
                }
            )]
        }
    );
    assert!(err.to_string().contains("node 2"), "{err}");
    assert_eq!(upgrade::highest_common(&v, METADATA_VERSION), Some(30));
}

#[test]
fn finalize_once_every_node_runs_the_new_release() {
    let v = upgrade_view(&[(1, 33), (2, 33), (3, 33)], 30);
    let changes = upgrade::check_finalize(&v, &target(33)).unwrap();
    assert_eq!(
        (changes[0].from, changes[0].to),
        (Some(30), 33),
        "{changes:?}"
    );
    assert!(
        upgrade::check_finalize(&upgrade_view(&[(1, 33)], 33), &target(33))
            .unwrap()
            .is_empty()
    );
    let (nodes, feats) = upgrade::summary(&v);
    assert_eq!(nodes[0].release.as_deref(), Some("4.4"));
    assert_eq!(nodes[0].metadata_version_max.as_deref(), Some("4.4-IV2"));
    let mv = feats.iter().find(|f| f.name == METADATA_VERSION).unwrap();
    assert_eq!((mv.finalized, mv.highest_common), (Some(30), Some(33)));
}

#[test]
fn kraft_version_downgrades_and_unknown_nodes_are_refused() {
    let v = upgrade_view(&[(1, 33), (2, 33)], 33);
    assert_eq!(
        upgrade::check_finalize(&v, &BTreeMap::from([(KRAFT_VERSION.to_string(), 1)])),
        Err(FinalizeRefusal::KraftVersion)
    );
    assert!(matches!(
        upgrade::check_finalize(&v, &target(30)),
        Err(FinalizeRefusal::Downgrade {
            from: 33,
            to: 30,
            ..
        })
    ));
    let mut down = upgrade_view(&[(1, 33), (2, 33)], 30);
    down.nodes
        .insert(NodeId(4), Err("connection refused".into()));
    assert!(matches!(
        upgrade::check_finalize(&down, &target(33)),
        Err(FinalizeRefusal::NodesNotReady { ref blockers, .. })
            if blockers == &vec![(NodeId(4), Blocker::Unknown { reason: "connection refused".into() })]
    ));
}

#[test]
fn a_node_back_on_the_wrong_software_is_named() {
    assert!(upgrade::check_software(NodeId(2), &features(1, 33), 33).is_ok());
    let err = upgrade::check_software(NodeId(2), &features(1, 30), 33).unwrap_err();
    assert!(err.to_string().contains("4.3-IV0"), "{err}");
}

#[test]
fn a_release_names_its_latest_metadata_version() {
    assert_eq!(upgrade::release_level("4.4"), Some(33));
    assert_eq!(upgrade::release_level("4.3.1"), Some(30));
    assert_eq!(upgrade::release_level(" 4.0.0 "), Some(25));
    assert_eq!(upgrade::release_level("4.9"), None);
    assert_eq!(upgrade::release_level("4"), None);
    assert_eq!(upgrade::release_level(""), None);
    assert!(upgrade::known_releases().contains(&"4.4"));
}

#[test]
fn a_roll_onto_new_software_restarts_every_node_not_on_it() {
    let mut v = upgrade_view(&[(1, 33), (2, 30), (3, 30)], 30);
    v.nodes.insert(NodeId(4), Err("connection refused".into()));
    let reasons = upgrade::software_reasons(&v, "4.4", 33).unwrap();
    assert_eq!(
        reasons.keys().copied().collect::<Vec<_>>(),
        vec![NodeId(2), NodeId(3), NodeId(4)],
        "node 1 already runs 4.4: {reasons:?}"
    );
    assert_eq!(
        reasons[&NodeId(2)],
        "software version: runs 4.3 (metadata.version up to 4.3-IV0), target 4.4 \
         (metadata.version up to 4.4-IV2)"
    );
    assert!(reasons[&NodeId(4)].contains("could not be asked (connection refused)"));
    // Every node on it: nothing to restart.
    let on = upgrade_view(&[(1, 33), (2, 33)], 30);
    assert!(
        upgrade::software_reasons(&on, "4.4", 33)
            .unwrap()
            .is_empty()
    );
    // Back to software below the finalized level: refused.
    let finalized = upgrade_view(&[(1, 33), (2, 33)], 33);
    let err = upgrade::software_reasons(&finalized, "4.3", 30).unwrap_err();
    assert!(
        err.to_string().contains("below the finalized 4.4-IV2"),
        "{err}"
    );
    // Another software than a release's (a node reporting a level that ends no release).
    let odd = upgrade_view(&[(1, 31)], 30);
    assert!(
        upgrade::software_reasons(&odd, "4.4", 33).unwrap()[&NodeId(1)]
            .contains("an unknown release")
    );
}

// ---- ghosts --------------------------------------------------------------------------------

fn ghost_view() -> GhostView {
    GhostView {
        registrations: vec![
            Registration {
                id: NodeId(1),
                fenced: false,
                rack: None,
                running: Some(true),
            },
            Registration {
                id: NodeId(4),
                fenced: true,
                rack: Some("a".into()),
                running: Some(false),
            },
        ],
        partitions: vec![PartitionReplicas {
            topic: "t".into(),
            partition: 0,
            replicas: vec![NodeId(1), NodeId(2)],
            adding: vec![],
            removing: vec![],
        }],
        voters: BTreeSet::from([NodeId(1)]),
    }
}

#[test]
fn a_fenced_stopped_broker_without_replicas_may_be_unregistered() {
    let v = ghost_view();
    assert_eq!(ghosts::check_unregister(&v, NodeId(4)), Ok(()));
    let l = ghosts::list(&v);
    assert_eq!(l[1].id, NodeId(4));
    assert!(l[1].fenced && l[1].holds.is_empty());
    assert_eq!(l[0].holds, vec![("t".to_string(), 0)]);
}

#[test]
fn unregister_refuses_a_broker_something_still_points_at() {
    let mut v = ghost_view();
    v.partitions[0].adding.push(NodeId(4));
    let err = ghosts::check_unregister(&v, NodeId(4)).unwrap_err();
    assert_eq!(
        err,
        UnregisterRefusal::HoldsReplicas {
            node: NodeId(4),
            partitions: vec![("t".into(), 0)]
        }
    );
    assert!(err.to_string().contains("t-0"), "{err}");
    let mut v = ghost_view();
    v.registrations[1].running = None;
    assert_eq!(
        ghosts::check_unregister(&v, NodeId(4)),
        Err(UnregisterRefusal::RunningUnknown { node: NodeId(4) })
    );
    assert_eq!(
        ghosts::check_unregister(&ghost_view(), NodeId(1)),
        Err(UnregisterRefusal::NotFenced { node: NodeId(1) })
    );
    assert_eq!(
        ghosts::check_unregister(&ghost_view(), NodeId(9)),
        Err(UnregisterRefusal::NotRegistered { node: NodeId(9) })
    );
}

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
