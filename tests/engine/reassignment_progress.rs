//! Property tests of the `reassignment-stalled` rule (`kafkaops::engine::health::progress`),
//! judged by an oracle that reads the whole history of samples, as an operator comparing
//! looks would, instead of the tracker's running state:
//!
//! - a partition's run starts at the first sample of the latest unbroken series of samples in
//!   which it was in flight with the same adding replicas (absent from a sample, or other
//!   adding replicas: a new run);
//! - within the run, a sample shows progress when an adding replica is in the ISR that was in
//!   no earlier sample of the run, or an adding replica's size is larger than every size of it
//!   seen earlier in the run (a size not read shows nothing);
//! - the partition is stalled at `now` exactly when `now` minus the later of the run's start
//!   and its last progress is at least the threshold, and then `for_ms` is that difference.
//!
//! Default: 256 cases per property; `PROPTEST_CASES=5000` for a heavier run.

use std::collections::{BTreeMap, BTreeSet};

use kafkaops::engine::health::{ProgressTracker, ReassignmentProgress, Stalled};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// One partition's state in one sample: absent, or in flight with these adding replicas,
/// those in the ISR, and the sizes read.
type Look = Option<(Vec<i32>, Vec<i32>, BTreeMap<i32, i64>)>;

fn look() -> impl Strategy<Value = Look> {
    prop_oneof![
        1 => Just(None),
        6 => (
            prop_oneof![Just(vec![4]), Just(vec![4, 5])],
            proptest::collection::vec(4i32..6, 0..2),
            proptest::collection::btree_map(4i32..6, 0i64..4, 0..3),
        )
            .prop_map(Some),
    ]
}

/// Samples of partitions 0 and 1 of topic `t` at increasing times.
fn history() -> impl Strategy<Value = Vec<(i64, [Look; 2])>> {
    proptest::collection::vec((1i64..5_000, look(), look()), 1..12).prop_map(|v| {
        let mut t = 0;
        v.into_iter()
            .map(|(dt, a, b)| {
                t += dt;
                (t, [a, b])
            })
            .collect()
    })
}

fn oracle(h: &[(i64, [Look; 2])], now: i64, after: i64) -> Vec<Stalled> {
    let mut out = Vec::new();
    for p in 0..2 {
        let Some((_, last)) = h.last() else { continue };
        let Some((adding, _, _)) = &last[p] else {
            continue;
        };
        // The run: the trailing samples with the same adding replicas.
        let mut start = h.len() - 1;
        while start > 0
            && matches!(&h[start - 1].1[p], Some((a, _, _)) if
                a.iter().collect::<BTreeSet<_>>() == adding.iter().collect::<BTreeSet<_>>())
        {
            start -= 1;
        }
        let run = &h[start..];
        let mut since = run[0].0;
        for i in 1..run.len() {
            let Some((a, isr, sizes)) = &run[i].1[p] else {
                unreachable!()
            };
            let earlier = &run[..i];
            let joined = isr.iter().filter(|r| a.contains(r)).any(|r| {
                !earlier
                    .iter()
                    .any(|(_, l)| l[p].as_ref().is_some_and(|(_, e, _)| e.contains(r)))
            });
            let grew = sizes.iter().filter(|(r, _)| a.contains(r)).any(|(r, b)| {
                let before: Vec<i64> = earlier
                    .iter()
                    .filter_map(|(_, l)| l[p].as_ref().and_then(|(_, _, s)| s.get(r).copied()))
                    .collect();
                !before.is_empty() && before.iter().all(|was| b > was)
            });
            if joined || grew {
                since = run[i].0;
            }
        }
        if now - since >= after {
            out.push(Stalled {
                topic: "t".into(),
                partition: i32::try_from(p).unwrap(),
                adding: adding
                    .iter()
                    .copied()
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect(),
                for_ms: now - since,
            });
        }
    }
    out
}

fn sample(looks: &[Look; 2]) -> Vec<ReassignmentProgress> {
    looks
        .iter()
        .enumerate()
        .filter_map(|(p, l)| {
            let (adding, in_isr, sizes) = l.as_ref()?;
            Some(ReassignmentProgress {
                topic: "t".into(),
                partition: i32::try_from(p).unwrap(),
                adding: adding.clone(),
                in_isr: in_isr.clone(),
                sizes: sizes.clone(),
            })
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn stalled_is_what_the_history_shows(
        h in history(),
        wait in 0i64..10_000,
        after in 0i64..15_000,
    ) {
        let mut tracker = ProgressTracker::default();
        for (at, looks) in &h {
            tracker.observe(&sample(looks), *at);
        }
        let now = h.last().unwrap().0 + wait;
        prop_assert_eq!(tracker.stalled(now, after), oracle(&h, now, after), "history: {:?}", h);
    }

    #[test]
    fn the_tracker_survives_a_round_trip_through_its_file(h in history()) {
        let mut tracker = ProgressTracker::default();
        for (at, looks) in &h {
            tracker.observe(&sample(looks), *at);
        }
        let back: ProgressTracker =
            serde_json::from_str(&serde_json::to_string(&tracker).unwrap()).unwrap();
        prop_assert_eq!(back, tracker);
    }
}

/// A reassignment that cannot progress is stalled once the threshold passed, one that grows is
/// not, and one that completed is forgotten.
#[test]
fn examples() {
    let p = |size: i64, isr: Vec<i32>| ReassignmentProgress {
        topic: "orders".into(),
        partition: 3,
        adding: vec![4],
        in_isr: isr,
        sizes: BTreeMap::from([(4, size)]),
    };
    let mut t = ProgressTracker::default();
    t.observe(&[p(100, vec![])], 1_000);
    assert!(t.stalled(1_000, 0).len() == 1 && t.stalled(5_999, 5_000).is_empty());
    t.observe(&[p(100, vec![])], 7_000);
    let s = t.stalled(7_000, 5_000);
    assert_eq!((s.len(), s[0].for_ms), (1, 6_000));
    // It grows: progress, the clock restarts.
    t.observe(&[p(200, vec![])], 8_000);
    assert!(t.stalled(12_000, 5_000).is_empty());
    // A smaller size (a segment deleted) is no progress; joining the ISR is.
    t.observe(&[p(150, vec![])], 14_000);
    assert_eq!(t.stalled(14_000, 5_000)[0].for_ms, 6_000);
    t.observe(&[p(150, vec![4])], 15_000);
    assert!(t.stalled(15_000, 5_000).is_empty());
    // The clock stepped back: the count restarts, never negative.
    t.observe(&[p(150, vec![4])], 2_000);
    assert_eq!(t.stalled(2_000, 0)[0].for_ms, 0);
    // Completed: forgotten.
    t.observe(&[], 30_000);
    assert!(t.is_empty() && t.stalled(30_000, 0).is_empty());
}
