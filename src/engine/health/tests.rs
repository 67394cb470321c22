//! Unit tests of the health rules on hand-made facts.

use super::*;
use crate::engine::model::NodeId;
use crate::engine::throttles::Throttle;
use crate::engine::view::Reassignment;

fn healthy() -> HealthFacts {
    HealthFacts {
        brokers: (1..=3)
            .map(|id| BrokerFacts {
                id,
                status: BrokerStatus::Serving,
                cordoned: None,
            })
            .collect(),
        partitions: (0..2)
            .map(|p| PartitionFacts {
                topic: "t".into(),
                partition: p,
                replicas: vec![1, 2, 3],
                isr: vec![1, 2, 3],
                leader: Some(1),
                adding: vec![],
                min_isr: Some(2),
            })
            .collect(),
        quorum: QuorumFacts {
            leader: Some(1),
            voters: (1..=3)
                .map(|id| VoterFacts {
                    id,
                    last_caught_up_ms: Some(1000),
                })
                .collect(),
            fetch_timeout_ms: 2000,
        },
        unknown_replica_ids: vec![],
        reassignments: vec![],
        throttles: vec![],
        cruise_control: CruiseControlFacts::NotConfigured,
        holds: vec![],
        stalled: vec![],
    }
}

#[test]
fn a_held_node_is_a_degraded_condition_with_its_reason_and_expiry() {
    let mut f = healthy();
    f.holds = vec![crate::engine::holds::Hold {
        node: NodeId(2),
        reason: "disk swap".into(),
        created_ms: 0,
        expires_ms: 1_800_000_000_000,
    }];
    let r = evaluate(&f, &[]);
    assert_eq!(r.verdict, Verdict::Degraded);
    assert_eq!(r.reasons.len(), 1, "{:?}", r.reasons);
    let h = &r.reasons[0];
    assert_eq!(
        (h.kind.as_str(), h.subject.as_deref()),
        ("held", Some("node 2"))
    );
    assert!(
        h.message
            .contains("node 2 is held until 2027-01-15T08:00:00Z (disk swap)"),
        "{}",
        h.message
    );
    for rule in ["held", "held:2", "held:node 2"] {
        let r = evaluate(&f, &[IgnoreRule::parse(rule).unwrap()]);
        assert_eq!(r.verdict, Verdict::Healthy, "{rule}");
    }
    let r = evaluate(&f, &[IgnoreRule::parse("held:3").unwrap()]);
    assert_eq!(r.verdict, Verdict::Degraded);
}

#[test]
fn a_healthy_cluster_has_no_reason() {
    let r = evaluate(&healthy(), &[]);
    assert_eq!(r.verdict, Verdict::Healthy);
    assert!(r.reasons.is_empty(), "{:?}", r.reasons);
}

#[test]
fn a_stopped_broker_names_under_min_isr_partitions() {
    let mut f = healthy();
    f.brokers[2].status = BrokerStatus::Fenced;
    f.partitions[0].isr = vec![1, 2];
    f.partitions[1].isr = vec![1];
    let r = evaluate(&f, &[]);
    assert_eq!(r.verdict, Verdict::Unavailable);
    let min = r
        .reasons
        .iter()
        .find(|r| r.kind == "under-min-isr")
        .unwrap();
    assert_eq!(min.partitions, vec!["t-1".to_string()]);
    assert!(r.reasons.iter().any(|r| r.kind == "under-replicated"));
    assert!(r.reasons.iter().any(|r| r.kind == "broker-fenced"));
    // Ignored, the verdict is what is left.
    let ignore = [IgnoreRule::parse("under-min-isr:t").unwrap()];
    assert_eq!(evaluate(&f, &ignore).verdict, Verdict::Degraded);
    let ignore = [IgnoreRule::parse("broker-fenced:3").unwrap()];
    let r = evaluate(&f, &ignore);
    assert!(
        r.reasons
            .iter()
            .any(|r| r.kind == "broker-fenced" && r.ignored)
    );
    assert!(IgnoreRule::parse("no-such").is_err());
}

#[test]
fn quorum_majority_and_laggards() {
    let mut f = healthy();
    f.quorum.voters[2].last_caught_up_ms = Some(-5000);
    let r = evaluate(&f, &[]);
    assert_eq!(r.verdict, Verdict::Degraded);
    assert_eq!(r.reasons[0].kind, "quorum-lagging-voters");
    f.quorum.voters[1].last_caught_up_ms = None;
    assert_eq!(evaluate(&f, &[]).reasons[0].kind, "quorum-no-majority");
    f.quorum.leader = None;
    assert_eq!(evaluate(&f, &[]).reasons[0].kind, "quorum-no-leader");
}

#[test]
fn adding_replicas_are_not_under_replicated_and_throttles_follow_movement() {
    use crate::engine::throttles::{LEADER_RATE, ThrottleTarget};
    let mut f = healthy();
    f.partitions[0].replicas = vec![1, 2, 3, 4];
    f.partitions[0].adding = vec![4];
    f.reassignments = vec![Reassignment {
        topic: "t".into(),
        partition: 0,
        replicas: vec![1, 2, 3, 4],
        adding: vec![4],
        removing: vec![1],
    }];
    f.throttles = vec![Throttle {
        target: ThrottleTarget::Broker(1),
        key: LEADER_RATE.into(),
        value: "100".into(),
    }];
    let r = evaluate(&f, &[]);
    assert_eq!(r.verdict, Verdict::Healthy, "{:?}", r.reasons);
    f.reassignments.clear();
    f.partitions[0].adding.clear();
    f.partitions[0].replicas = vec![1, 2, 3];
    let r = evaluate(&f, &[]);
    assert_eq!(r.verdict, Verdict::Degraded);
    assert_eq!(r.reasons[0].kind, "leftover-throttle");
}
