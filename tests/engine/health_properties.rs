//! Property tests of the health verdict (`kafkaops::engine::health`), judged by an oracle
//! written from the rules as an SRE states them, not from the engine's code:
//!
//! - unavailable exactly when a partition has no leader, a partition's ISR is smaller than its
//!   known `min.insync.replicas`, the quorum has no leader, or at most half the voters are
//!   caught up (the leader, and voters whose last caught-up time is less than the fetch timeout
//!   behind the leader's, when no voter claims a time ahead of the leader's);
//! - otherwise degraded exactly when a broker is not serving, a replica (not one being added) is
//!   out of its ISR, a voter lags, the leader's clock stepped back, replicas sit on an unknown
//!   broker, a throttle is set that nothing moving needs, or Cruise Control cannot be asked or
//!   is not ready, a node is held, or a reassignment made no progress for the stall threshold;
//! - every stalled reassignment is named in a `reassignment-stalled` reason, and only those;
//! - every partition under its min ISR is named in an `under-min-isr` reason, and only those;
//! - ignoring a reason never makes the verdict worse, ignoring every reason makes it healthy,
//!   and the verdict is the worst severity of what is not ignored.
//!
//! Default: 256 cases per property; `PROPTEST_CASES=5000` for a heavier run.

use std::collections::BTreeSet;

use kafkaops::engine::health::{
    BrokerFacts, BrokerStatus, CruiseControlFacts, HealthFacts, IgnoreRule, PartitionFacts,
    QuorumFacts, Severity, Stalled, Verdict, VoterFacts, evaluate,
};
use kafkaops::engine::holds::Hold;
use kafkaops::engine::model::NodeId;
use kafkaops::engine::throttles::{
    FOLLOWER_RATE, LEADER_REPLICAS, LOG_DIRS_RATE, Throttle, ThrottleTarget,
};
use kafkaops::engine::view::Reassignment;
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

const LEADER_TS: i64 = 100_000;
const TIMEOUT: i64 = 2_000;
const TOPICS: [&str; 3] = ["a", "b", "c"];

fn status() -> impl Strategy<Value = BrokerStatus> {
    prop_oneof![
        6 => Just(BrokerStatus::Serving),
        1 => Just(BrokerStatus::Fenced),
        1 => proptest::option::of(0i64..50).prop_map(BrokerStatus::Recovering),
        1 => Just(BrokerStatus::NotServing("Starting".into())),
        1 => Just(BrokerStatus::Unreachable("timed out".into())),
    ]
}

fn partition() -> impl Strategy<Value = PartitionFacts> {
    (
        0usize..3,
        0i32..4,
        proptest::sample::subsequence(vec![1, 2, 3, 4], 1..=3),
        proptest::collection::vec(any::<bool>(), 3),
        any::<bool>(),
        proptest::option::weighted(0.9, 1u32..=3),
        any::<bool>(),
    )
        .prop_map(|(t, p, replicas, in_isr, has_leader, min_isr, adds)| {
            let isr: Vec<i32> = replicas
                .iter()
                .zip(&in_isr)
                .filter(|(_, i)| **i)
                .map(|(r, _)| *r)
                .collect();
            let leader = if has_leader {
                isr.first().copied()
            } else {
                None
            };
            // The last replica is being added when `adds` (and there are at least two).
            let adding = if adds && replicas.len() > 1 {
                vec![*replicas.last().unwrap()]
            } else {
                vec![]
            };
            PartitionFacts {
                topic: TOPICS[t].to_string(),
                partition: p,
                replicas,
                isr,
                leader,
                adding,
                min_isr,
            }
        })
}

/// A voter's last caught-up time: caught up, lagging, unknown, or (rarely) ahead of the leader.
fn voter_ts() -> impl Strategy<Value = Option<i64>> {
    prop_oneof![
        6 => (0..TIMEOUT).prop_map(|b| Some(LEADER_TS - b)),
        2 => (TIMEOUT..10 * TIMEOUT).prop_map(|b| Some(LEADER_TS - b)),
        1 => Just(None),
        1 => (1i64..100).prop_map(|a| Some(LEADER_TS + a)),
    ]
}

fn quorum() -> impl Strategy<Value = QuorumFacts> {
    (
        proptest::collection::vec(voter_ts(), 1..=5),
        proptest::option::weighted(0.9, 0usize..5),
    )
        .prop_map(|(ts, leader)| {
            let leader = leader.map(|l| i32::try_from(l % ts.len()).unwrap() + 1);
            QuorumFacts {
                leader,
                voters: ts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let id = i32::try_from(i).unwrap() + 1;
                        VoterFacts {
                            id,
                            last_caught_up_ms: if Some(id) == leader {
                                Some(LEADER_TS)
                            } else {
                                *t
                            },
                        }
                    })
                    .collect(),
                fetch_timeout_ms: TIMEOUT,
            }
        })
}

fn throttle() -> impl Strategy<Value = Throttle> {
    prop_oneof![
        (0usize..3).prop_map(|t| Throttle {
            target: ThrottleTarget::Topic(TOPICS[t].into()),
            key: LEADER_REPLICAS.into(),
            value: "*".into(),
        }),
        (1i32..=4).prop_map(|b| Throttle {
            target: ThrottleTarget::Broker(b),
            key: FOLLOWER_RATE.into(),
            value: "1024".into(),
        }),
        Just(Throttle {
            target: ThrottleTarget::BrokerDefault,
            key: LOG_DIRS_RATE.into(),
            value: "1024".into(),
        }),
    ]
}

fn cruise_control() -> impl Strategy<Value = CruiseControlFacts> {
    prop_oneof![
        3 => Just(CruiseControlFacts::NotConfigured),
        1 => Just(CruiseControlFacts::Unreachable { error: "refused".into() }),
        3 => (any::<bool>(), any::<bool>()).prop_map(|(ready, executing)| CruiseControlFacts::Seen {
            monitor_not_ready: (!ready).then(|| "load monitor is LOADING".to_string()),
            executing: executing.then(|| "task 1".to_string()),
            anomalies: vec![],
        }),
    ]
}

fn noisy_facts() -> impl Strategy<Value = HealthFacts> {
    (
        proptest::collection::vec(status(), 4),
        proptest::collection::vec(proptest::option::weighted(0.1, Just("*".to_string())), 4),
        proptest::collection::vec(partition(), 0..8),
        quorum(),
        proptest::collection::vec(5i32..7, 0..2),
        proptest::collection::vec((0usize..3, 0i32..4), 0..3),
        proptest::collection::vec(throttle(), 0..4),
        cruise_control(),
        proptest::collection::btree_set(1i32..6, 0..2),
        proptest::collection::vec((0usize..3, 0i32..4, 0i64..10_000_000), 0..2),
    )
        .prop_map(
            |(
                statuses,
                cordons,
                mut partitions,
                quorum,
                unknown,
                moving,
                throttles,
                cc,
                held,
                stalled,
            )| {
                // One entry per partition id.
                let mut seen = BTreeSet::new();
                partitions.retain(|p| seen.insert((p.topic.clone(), p.partition)));
                HealthFacts {
                    brokers: statuses
                        .into_iter()
                        .zip(cordons)
                        .enumerate()
                        .map(|(i, (status, cordoned))| BrokerFacts {
                            id: i32::try_from(i).unwrap() + 1,
                            status,
                            cordoned,
                        })
                        .collect(),
                    partitions,
                    quorum,
                    unknown_replica_ids: unknown,
                    reassignments: moving
                        .into_iter()
                        .map(|(t, p)| Reassignment {
                            topic: TOPICS[t].into(),
                            partition: p,
                            replicas: vec![1, 2],
                            adding: vec![2],
                            removing: vec![],
                        })
                        .collect(),
                    throttles,
                    cruise_control: cc,
                    holds: held
                        .into_iter()
                        .map(|n| Hold {
                            node: NodeId(n),
                            reason: "disk swap".into(),
                            created_ms: 0,
                            expires_ms: u64::MAX,
                        })
                        .collect(),
                    stalled: stalled
                        .into_iter()
                        .map(|(t, p, for_ms)| Stalled {
                            topic: TOPICS[t].into(),
                            partition: p,
                            adding: vec![2],
                            for_ms,
                        })
                        .collect(),
                }
            },
        )
}

/// Half the cases are calm apart from their partitions (every broker serving, every voter
/// caught up, no throttle, no Cruise Control), so that the partition rules decide the verdict
/// often enough to be judged on their own.
fn facts() -> impl Strategy<Value = HealthFacts> {
    (noisy_facts(), any::<bool>()).prop_map(|(mut f, calm)| {
        if calm {
            for b in &mut f.brokers {
                b.status = BrokerStatus::Serving;
            }
            if f.quorum.leader.is_none() {
                f.quorum.leader = Some(1);
            }
            for v in &mut f.quorum.voters {
                v.last_caught_up_ms = Some(LEADER_TS);
            }
            f.unknown_replica_ids.clear();
            f.throttles.clear();
            f.cruise_control = CruiseControlFacts::NotConfigured;
            f.holds.clear();
            f.stalled.clear();
        }
        f
    })
}

fn under_min_isr(p: &PartitionFacts) -> bool {
    p.leader.is_some() && p.min_isr.is_some_and(|m| (p.isr.len() as u32) < m)
}

/// The oracle: the verdict as the rules in the module docs state it.
fn oracle(f: &HealthFacts) -> Verdict {
    let q = &f.quorum;
    let ahead = q
        .voters
        .iter()
        .any(|v| v.last_caught_up_ms.is_some_and(|t| t > LEADER_TS));
    let caught_up = |v: &VoterFacts| {
        Some(v.id) == q.leader
            || (!ahead
                && v.last_caught_up_ms
                    .is_some_and(|t| t <= LEADER_TS && LEADER_TS - t < q.fetch_timeout_ms))
    };
    let up = q.voters.iter().filter(|v| caught_up(v)).count();
    let quorum_lost = q.leader.is_none() || (!ahead && 2 * up <= q.voters.len());
    let unavailable = quorum_lost
        || f.partitions
            .iter()
            .any(|p| p.leader.is_none() || under_min_isr(p));
    if unavailable {
        return Verdict::Unavailable;
    }
    let lagging = ahead || up < q.voters.len();
    let broker_down = f.brokers.iter().any(|b| b.status != BrokerStatus::Serving);
    let urp = f.partitions.iter().any(|p| {
        p.replicas
            .iter()
            .any(|r| !p.adding.contains(r) && !p.isr.contains(r))
    });
    let cc_moves = match &f.cruise_control {
        CruiseControlFacts::NotConfigured => false,
        CruiseControlFacts::Unreachable { .. } => true,
        CruiseControlFacts::Seen { executing, .. } => executing.is_some(),
    };
    let leftover = f.throttles.iter().any(|t| {
        !cc_moves
            && match &t.target {
                ThrottleTarget::Topic(name) => !f.reassignments.iter().any(|r| &r.topic == name),
                _ if t.key == LOG_DIRS_RATE => true,
                _ => f.reassignments.is_empty(),
            }
    });
    let cc_trouble = match &f.cruise_control {
        CruiseControlFacts::NotConfigured => false,
        CruiseControlFacts::Unreachable { .. } => true,
        CruiseControlFacts::Seen {
            monitor_not_ready, ..
        } => monitor_not_ready.is_some(),
    };
    // A held node (`kafkaops hold`) needs an on-call's attention until it ends.
    let held = !f.holds.is_empty();
    // A reassignment that stopped progressing blocks every later movement.
    let stalled = !f.stalled.is_empty();
    if lagging
        || stalled
        || broker_down
        || urp
        || !f.unknown_replica_ids.is_empty()
        || leftover
        || cc_trouble
        || held
    {
        Verdict::Degraded
    } else {
        Verdict::Healthy
    }
}

fn every_rule(f: &HealthFacts) -> Vec<IgnoreRule> {
    evaluate(f, &[])
        .reasons
        .iter()
        .map(|r| IgnoreRule {
            kind: r.kind.clone(),
            subject: r.subject.clone(),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn the_verdict_is_the_oracles(f in facts()) {
        let r = evaluate(&f, &[]);
        prop_assert_eq!(r.verdict, oracle(&f), "reasons: {:#?}\nfacts: {:#?}", r.reasons, f);
    }

    #[test]
    fn every_partition_under_min_isr_is_named_and_only_those(f in facts()) {
        let r = evaluate(&f, &[]);
        let named: BTreeSet<String> = r
            .reasons
            .iter()
            .filter(|x| x.kind == "under-min-isr")
            .flat_map(|x| x.partitions.clone())
            .collect();
        let expected: BTreeSet<String> = f
            .partitions
            .iter()
            .filter(|p| under_min_isr(p))
            .map(|p| format!("{}-{}", p.topic, p.partition))
            .collect();
        prop_assert_eq!(named, expected);
    }

    #[test]
    fn every_stalled_reassignment_is_named_and_only_those(f in facts()) {
        let r = evaluate(&f, &[]);
        let named: BTreeSet<String> = r
            .reasons
            .iter()
            .filter(|x| x.kind == "reassignment-stalled")
            .flat_map(|x| x.partitions.clone())
            .collect();
        let expected: BTreeSet<String> = f
            .stalled
            .iter()
            .map(|s| format!("{}-{}", s.topic, s.partition))
            .collect();
        prop_assert_eq!(named, expected);
    }

    #[test]
    fn ignoring_never_worsens_and_the_verdict_is_the_worst_counted_reason(
        f in facts(),
        pick in proptest::collection::vec(any::<bool>(), 40),
    ) {
        let all = every_rule(&f);
        let chosen: Vec<IgnoreRule> = all
            .iter()
            .zip(pick.iter().cycle())
            .filter(|(_, p)| **p)
            .map(|(r, _)| r.clone())
            .collect();
        let plain = evaluate(&f, &[]);
        let some = evaluate(&f, &chosen);
        prop_assert!(some.verdict <= plain.verdict);
        prop_assert_eq!(some.reasons.len(), plain.reasons.len(), "ignored reasons are still shown");
        let worst = some
            .reasons
            .iter()
            .filter(|r| !r.ignored)
            .map(|r| match r.severity {
                Severity::Info => Verdict::Healthy,
                Severity::Degraded => Verdict::Degraded,
                Severity::Unavailable => Verdict::Unavailable,
            })
            .max()
            .unwrap_or(Verdict::Healthy);
        prop_assert_eq!(some.verdict, worst);
        prop_assert_eq!(evaluate(&f, &all).verdict, Verdict::Healthy);
    }
}
