//! Unit tests of the availability and quorum rules, apart from `safety.rs` so the rules read on their own.

use super::*;
use crate::engine::model::{
    ConfigEntry, NodeRoles, NodeSnapshot, ObservedState, PartitionSnapshot, QuorumSnapshot,
    TopicPartition, TopicSettings, VoterState,
};

/// Brokers 1..=4, all serving, and one partition of topic `t`.
fn with_partition(replicas: &[i32], isr: &[i32], min: u32) -> ClusterSnapshot {
    ClusterSnapshot {
        nodes: (1..=4)
            .map(|id| NodeSnapshot {
                roles: NodeRoles::BROKER,
                ..controller(id)
            })
            .collect(),
        partitions: vec![PartitionSnapshot {
            tp: TopicPartition {
                topic: "t".into(),
                partition: 0,
            },
            replicas: replicas.iter().map(|r| NodeId(*r)).collect(),
            isr: isr.iter().map(|r| NodeId(*r)).collect(),
            leader: None,
            adding: vec![],
            removing: vec![],
        }],
        topics: [(
            "t".to_string(),
            TopicSettings {
                min_insync_replicas: Some(min),
            },
        )]
        .into(),
        ..ClusterSnapshot::default()
    }
}

fn can(s: &ClusterSnapshot, node: i32, strict: Strictness) -> bool {
    check_availability(s, &PartitionIndex::build(s), NodeId(node), strict).is_ok()
}

#[test]
fn strimzi_can_roll_rules() {
    use Strictness::{Healthy, Unhealthy};
    // ISR above min: fine.
    assert!(can(&with_partition(&[1, 2, 3], &[1, 2, 3], 2), 1, Healthy));
    // ISR at min and node in it: blocked.
    assert!(!can(&with_partition(&[1, 2, 3], &[1, 2], 2), 1, Healthy));
    // Node out of sync, ISR at min: fine.
    assert!(can(&with_partition(&[1, 2, 3], &[1, 2], 2), 3, Healthy));
    // Already under min and node holds a replica: blocked when healthy,
    // allowed for an unhealthy out-of-sync node (it can only help).
    assert!(!can(&with_partition(&[1, 2, 3], &[1], 2), 3, Healthy));
    assert!(can(&with_partition(&[1, 2, 3], &[1], 2), 3, Unhealthy));
    // RF <= min ISR is skipped (note <=).
    assert!(can(&with_partition(&[1, 2], &[1, 2], 2), 1, Healthy));
    assert!(can(&with_partition(&[1], &[1], 1), 1, Healthy));
}

#[test]
fn isr_must_hold_now_and_after_reassignments_and_unknown_min_isr_refuses() {
    use Strictness::Healthy;
    // The example: replicas [1,4,2], adding [4] (not in sync),
    // removing [2], ISR [1,2], min 2. Node 2 still holds an ISR place.
    let mut s = with_partition(&[1, 4, 2], &[1, 2], 2);
    s.partitions[0].adding = vec![NodeId(4)];
    s.partitions[0].removing = vec![NodeId(2)];
    assert!(matches!(
        check_availability(&s, &PartitionIndex::build(&s), NodeId(2), Healthy),
        Err(RollError::WouldBreakMinIsr { isr: 2, .. })
    ));
    // Node 1 stays the only target in-sync replica: refused too.
    assert!(!can(&s, 1, Healthy));
    // Unknown topic settings refuse, naming the partition.
    s.topics.clear();
    assert_eq!(
        check_availability(&s, &PartitionIndex::build(&s), NodeId(4), Healthy),
        Err(RollError::MinIsrUnknown {
            node: NodeId(4),
            topic: "t".into(),
            partition: 0
        })
    );
}

fn controller(id: i32) -> NodeSnapshot {
    NodeSnapshot {
        id: NodeId(id),
        roles: NodeRoles::CONTROLLER,
        state: ObservedState::Serving,
        reachable: true,
        rack: None,
        config: Default::default(),
        incarnation: None,
    }
}

fn quorum_snapshot(n: i32, ts: &[(i32, i64)]) -> ClusterSnapshot {
    ClusterSnapshot {
        nodes: (0..n).map(controller).collect(),
        quorum: Some(QuorumSnapshot {
            leader: Some(NodeId(0)),
            voters: ts
                .iter()
                .map(|(id, t)| VoterState {
                    id: NodeId(*id),
                    last_caught_up_ms: Some(*t),
                    last_fetch_ms: None,
                })
                .collect(),
            observers: vec![],
        }),
        ..ClusterSnapshot::default()
    }
}

#[test]
fn observer_controllers_count_but_never_replace_a_voter_majority() {
    // Voters 0,1,2 and observer controller 3, all caught up: restarting 1 is fine (it
    // blocked every voter restart when observers were never counted as caught up).
    let mut s = quorum_snapshot(4, &[(0, 10_000), (1, 10_000), (2, 10_000)]);
    s.quorum.as_mut().unwrap().observers = vec![VoterState {
        id: NodeId(3),
        last_caught_up_ms: Some(10_000),
        last_fetch_ms: None,
    }];
    assert!(check_quorum(&s, &[NodeId(1)]).is_ok());
    // Voters 0,1,2 (2 lagging), observer controllers 3,4 caught up: by roles 3 of 5 would
    // remain, but only voter 0 of 3 would: refused.
    let mut s = quorum_snapshot(5, &[(0, 10_000), (1, 10_000), (2, 1_000)]);
    s.quorum.as_mut().unwrap().observers = [3, 4]
        .into_iter()
        .map(|id| VoterState {
            id: NodeId(id),
            last_caught_up_ms: Some(10_000),
            last_fetch_ms: None,
        })
        .collect();
    assert!(matches!(
        check_quorum(&s, &[NodeId(1)]),
        Err(RollError::QuorumAtRisk { controllers: 3, .. })
    ));
}

#[test]
fn strimzi_quorum_rule() {
    let s = quorum_snapshot(3, &[(0, 10_000), (1, 10_000), (2, 9_000)]);
    assert!(check_quorum(&s, &[NodeId(1)]).is_ok());
    let s = quorum_snapshot(3, &[(0, 10_000), (1, 10_000), (2, 7_000)]);
    assert!(check_quorum(&s, &[NodeId(1)]).is_err());
    assert!(check_quorum(&s, &[NodeId(2)]).is_ok());
    // N = 5 needs three others.
    let s = quorum_snapshot(5, &[(0, 10_000), (1, 10_000), (2, 10_000), (3, 0), (4, 0)]);
    assert!(check_quorum(&s, &[NodeId(1)]).is_err());
    assert!(check_quorum(&s, &[NodeId(3)]).is_ok());
    // N = 2: the other must be caught up; N = 1: always.
    let s = quorum_snapshot(2, &[(0, 10_000), (1, 10_000)]);
    assert!(check_quorum(&s, &[NodeId(1)]).is_ok());
    assert!(check_quorum(&s, &[NodeId(0), NodeId(1)]).is_err());
    assert!(check_quorum(&quorum_snapshot(1, &[(0, 1)]), &[NodeId(0)]).is_ok());
    // No leader: unknown.
    let mut s = quorum_snapshot(3, &[(0, 1), (1, 1), (2, 1)]);
    s.quorum.as_mut().unwrap().leader = None;
    assert!(matches!(
        check_quorum(&s, &[NodeId(1)]),
        Err(RollError::QuorumUnknown { .. })
    ));
    // The leader's fetch timeout is used.
    let mut s = quorum_snapshot(3, &[(0, 10_000), (1, 10_000), (2, 7_000)]);
    s.nodes[0].config.insert(
        FETCH_TIMEOUT_KEY.into(),
        ConfigEntry {
            value: Some("5000".into()),
            read_only: true,
            sensitive: false,
        },
    );
    assert!(check_quorum(&s, &[NodeId(1)]).is_ok());
}

#[test]
fn caught_up_means_at_most_the_timeout_behind_and_never_ahead() {
    assert!(is_caught_up(10_000, 10_000, 2_000));
    assert!(is_caught_up(10_000, 8_001, 2_000));
    assert!(!is_caught_up(10_000, 8_000, 2_000));
    // Ahead of the leader's clock (Kafka keeps the highest value after a clock step back).
    assert!(!is_caught_up(10_000, 10_001, 2_000));
    assert!(!is_caught_up(10_000, 50_000, 2_000));
    assert!(!is_caught_up(i64::MIN, i64::MAX, 2_000));
}

/// Issue 23, point 1, at the rule: ISR [1,2,3], min ISR 2; node 3 is listed but not
/// serving (shutting down, or crashed and not yet fenced: unreachable). Restarting 1 would
/// leave [2].
#[test]
fn replicas_not_serving_are_discounted_from_the_isr() {
    use Strictness::Healthy;
    let mut s = with_partition(&[1, 2, 3], &[1, 2, 3], 2);
    assert!(can(&s, 1, Healthy));
    s.nodes[2].state = ObservedState::NotReady;
    assert!(matches!(
        check_availability(&s, &PartitionIndex::build(&s), NodeId(1), Healthy),
        Err(RollError::WouldBreakMinIsr { isr: 2, .. })
    ));
    s.nodes[2].state = ObservedState::Serving;
    s.nodes[2].reachable = false;
    assert!(!can(&s, 1, Healthy));
    // The node judged is counted as listed (its own state is judged elsewhere): restarting
    // 3 itself leaves [1, 2].
    assert!(can(&s, 3, Healthy));
    s.nodes[2].reachable = true;
    s.nodes[0].reachable = false;
    assert!(!can(&s, 2, Healthy));
    // A replica id the snapshot does not show as a node at all is not serving either.
    s.nodes[0].reachable = true;
    s.nodes.retain(|n| n.id != NodeId(3));
    assert!(!can(&s, 1, Healthy));
}

/// Issue 23, points 2-4, at the rule.
#[test]
fn quorum_counts_running_voters_of_the_real_voter_set_and_no_future_timestamps() {
    // Point 2: voter 2 not running, fresh timestamp: restarting 1 leaves leader 0 alone.
    let mut s = quorum_snapshot(3, &[(0, 10_000), (1, 10_000), (2, 10_000)]);
    assert!(check_quorum(&s, &[NodeId(1)]).is_ok());
    s.nodes[2].state = ObservedState::NotRunning;
    s.nodes[2].reachable = false;
    assert!(matches!(
        check_quorum(&s, &[NodeId(1)]),
        Err(RollError::QuorumAtRisk { caught_up: 1, .. })
    ));
    // Point 3: voters 0..5, 3 and 4 listed with broker-only roles: a majority of 5 is 3.
    let mut s = quorum_snapshot(
        5,
        &[
            (0, 10_000),
            (1, 10_000),
            (2, 10_000),
            (3, 10_000),
            (4, 10_000),
        ],
    );
    for n in &mut s.nodes[3..] {
        n.roles = NodeRoles::BROKER;
    }
    assert!(matches!(
        check_quorum(&s, &[NodeId(1)]),
        Err(RollError::QuorumAtRisk {
            caught_up: 2,
            controllers: 5,
            needed: 3,
            ..
        })
    ));
    // Point 4: voter 2's timestamp is ahead of the leader's clock.
    let s = quorum_snapshot(3, &[(0, 10_000), (1, 10_000), (2, 50_000)]);
    assert!(check_quorum(&s, &[NodeId(1)]).is_err());
}
