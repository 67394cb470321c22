//! Examples of the quorum rules: status verdicts, adding and removing voters, a change under
//! way, and the migration to a dynamic quorum.

use super::*;

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
