//! Property tests of the approved-plan comparison (`kafkaops::engine::drift`): the same plan is
//! never drift, the comparison is symmetric, a larger tolerance never refuses what a smaller one
//! allowed, dropping k of n movements is a k/n drift, and a movement onto a broker the approved
//! plan never touched is always refused, whatever the tolerance.
//!
//! Default: 256 cases per property; `PROPTEST_CASES=5000` for a heavier run.

use kafkaops::engine::drift::{Movement, Plan, Tolerance, compare};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// Movements over brokers 1..=6 (distinct partitions, distinct replicas per partition).
fn any_plan() -> impl Strategy<Value = Plan> {
    (
        proptest::collection::btree_map(
            (0u8..3, 0i32..20),
            (
                proptest::sample::subsequence(vec![1, 2, 3, 4, 5, 6], 2),
                proptest::sample::subsequence(vec![1, 2, 3, 4, 5, 6], 2),
                any::<bool>(),
            ),
            0..15,
        ),
        0u64..20,
        0u32..10_000,
    )
        .prop_map(|(moves, leaders, data)| {
            let movements: Vec<Movement> = moves
                .into_iter()
                .map(|((t, p), (old, mut new, flip))| {
                    if flip {
                        new.reverse();
                    }
                    Movement {
                        topic: format!("t{t}"),
                        partition: p,
                        old_replicas: old,
                        new_replicas: new,
                    }
                })
                .collect();
            Plan {
                replica_movements: movements.len() as u64,
                leader_movements: leaders,
                data_to_move_mb: f64::from(data),
                movements,
            }
        })
}

fn any_tolerance() -> impl Strategy<Value = Tolerance> {
    (0u32..200, proptest::option::of(0u64..5_000)).prop_map(|(max_drift_pct, max_data_mb)| {
        Tolerance {
            max_drift_pct,
            max_data_mb,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn the_same_plan_is_never_drift(p in any_plan()) {
        let r = compare(&p, &p, &Tolerance { max_drift_pct: 0, max_data_mb: Some(0) });
        prop_assert!(r.within_tolerance, "{:?}", r);
        prop_assert_eq!(r.changed_movements, 0);
        prop_assert!(r.added_brokers.is_empty() && r.dropped_brokers.is_empty());
    }

    #[test]
    fn the_comparison_is_symmetric(a in any_plan(), b in any_plan(), tol in any_tolerance()) {
        let ab = compare(&a, &b, &tol);
        let ba = compare(&b, &a, &tol);
        prop_assert_eq!(ab.changed_movements, ba.changed_movements);
        prop_assert!((ab.replica_drift_pct - ba.replica_drift_pct).abs() < 1e-9);
        prop_assert!((ab.leader_drift_pct - ba.leader_drift_pct).abs() < 1e-9);
        prop_assert!((ab.data_drift_pct - ba.data_drift_pct).abs() < 1e-9);
        prop_assert_eq!(&ab.added_brokers, &ba.dropped_brokers);
        prop_assert_eq!(&ab.dropped_brokers, &ba.added_brokers);
        for pct in [ab.replica_drift_pct, ab.leader_drift_pct, ab.data_drift_pct] {
            prop_assert!((0.0..=100.0).contains(&pct), "{}", pct);
        }
    }

    #[test]
    fn a_larger_tolerance_never_refuses_what_a_smaller_one_allowed(
        a in any_plan(), b in any_plan(), tol in any_tolerance(), more in 0u32..100, more_mb in 0u64..1000,
    ) {
        if compare(&a, &b, &tol).within_tolerance {
            let larger = Tolerance {
                max_drift_pct: tol.max_drift_pct + more,
                max_data_mb: tol.max_data_mb.map(|m| m + more_mb),
            };
            prop_assert!(compare(&a, &b, &larger).within_tolerance);
        }
    }

    #[test]
    fn dropping_k_of_n_movements_is_a_k_in_n_drift(p in any_plan(), k in 0usize..15) {
        prop_assume!(!p.movements.is_empty());
        let k = k.min(p.movements.len());
        let mut fewer = p.clone();
        fewer.movements.truncate(p.movements.len() - k);
        fewer.replica_movements = fewer.movements.len() as u64;
        let r = compare(&p, &fewer, &Tolerance::default());
        prop_assert_eq!(r.changed_movements, k as u64);
        let want = k as f64 / p.movements.len() as f64 * 100.0;
        prop_assert!((r.replica_drift_pct - want).abs() < 1e-9);
        // Only brokers can disappear, never appear, when movements are dropped.
        prop_assert!(r.added_brokers.is_empty(), "{:?}", r);
    }

    #[test]
    fn a_broker_the_approved_plan_never_touched_is_always_refused(
        p in any_plan(), pick in any::<prop::sample::Index>(), tol in any_tolerance(),
    ) {
        prop_assume!(!p.movements.is_empty());
        let mut other = p.clone();
        let i = pick.index(other.movements.len());
        // Broker 99 appears nowhere in generated plans.
        other.movements[i].new_replicas[0] = 99;
        let r = compare(&p, &other, &Tolerance { max_drift_pct: tol.max_drift_pct.max(100), ..tol });
        prop_assert!(!r.within_tolerance);
        prop_assert!(r.added_brokers.contains(&99), "{:?}", r);
    }
}
