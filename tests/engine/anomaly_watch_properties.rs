//! Property tests of what `anomalies watch` prints (`kafkaops::engine::anomalies::WatchTracker`).
//!
//! Random polls of a Cruise Control that re-detects the same few violations under new ids, lists
//! at most 10 entries per type in random order, restarts (empty lists) and changes statuses:
//! each content is reported as new exactly once, a status-change event is reported exactly when
//! the status of a content's latest detection differs from what was last shown, nothing is
//! reported for a poll that only re-detects, and the tracker's memory is bounded by the number of
//! contents, not of detections.

use std::collections::BTreeMap;

use kafkaops::engine::anomalies::{
    AnomalyKey, AnomalyRecord, AnomalyType, WatchEventKind, WatchTracker, latest_by_content,
};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

const STATUSES: [&str; 3] = ["DETECTED", "IGNORED", "FIX_STARTED"];

fn record(content: u8, id: u32, detected: i64, status: u8) -> AnomalyRecord {
    let mut r = AnomalyRecord {
        kind: if content < 3 {
            AnomalyType::GoalViolation
        } else {
            AnomalyType::BrokerFailure
        },
        anomaly_id: format!("id-{id}"),
        status: STATUSES[usize::from(status) % 3].into(),
        detected_at_ms: Some(detected),
        status_updated_at_ms: Some(detected),
        fixable_goals: vec![format!("Goal{content}")],
        unfixable_goals: vec![],
        failed_brokers: BTreeMap::new(),
        failed_disks: BTreeMap::new(),
        description: None,
    };
    if content >= 3 {
        r.fixable_goals.clear();
        r.failed_brokers.insert(i32::from(content), 1);
    }
    r
}

#[derive(Debug, Clone)]
enum Poll {
    /// Detections: (content, status); each gets a new id and a later detection time.
    Detections(Vec<(u8, u8)>, u64),
    /// Cruise Control restarted: nothing listed.
    Restart,
}

fn poll() -> impl Strategy<Value = Poll> {
    prop_oneof![
        5 => (proptest::collection::vec((0u8..5, 0u8..3), 0..12), any::<u64>())
            .prop_map(|(d, seed)| Poll::Detections(d, seed)),
        1 => Just(Poll::Restart),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn each_content_is_new_once_and_status_changes_are_reported_once(
        polls in proptest::collection::vec(poll(), 1..40),
    ) {
        let mut t = WatchTracker::new();
        let mut id = 0u32;
        let mut time = 1_000i64;
        // What Cruise Control currently lists per content (at most 10 per type), oldest first.
        let mut listed: Vec<AnomalyRecord> = Vec::new();
        let mut shown: BTreeMap<AnomalyKey, String> = BTreeMap::new();
        for p in polls {
            match p {
                Poll::Restart => listed.clear(),
                Poll::Detections(d, seed) => {
                    for (c, s) in d {
                        id += 1;
                        time += 10;
                        listed.push(record(c, id, time, s));
                    }
                    for kind in [AnomalyType::GoalViolation, AnomalyType::BrokerFailure] {
                        while listed.iter().filter(|r| r.kind == kind).count() > 10 {
                            let i = listed.iter().position(|r| r.kind == kind).unwrap();
                            listed.remove(i);
                        }
                    }
                    // In no order.
                    let n = listed.len();
                    if n > 1 {
                        listed.rotate_left(usize::try_from(seed % n as u64).unwrap());
                    }
                }
            }
            let events = t.observe(&listed);
            let latest = latest_by_content(&listed);
            let mut expected = 0;
            for (k, r) in &latest {
                match shown.get(k) {
                    None => expected += 1,
                    Some(s) if *s != r.status => expected += 1,
                    Some(_) => {}
                }
            }
            prop_assert_eq!(events.len(), expected, "{:?}", events);
            for e in &events {
                let k = e.anomaly.key();
                match e.event {
                    WatchEventKind::New => {
                        prop_assert!(!shown.contains_key(&k), "{} new twice", k);
                    }
                    WatchEventKind::StatusChanged => {
                        prop_assert_eq!(shown.get(&k), e.previous_status.as_ref());
                        prop_assert_ne!(Some(&e.anomaly.status), shown.get(&k));
                    }
                }
                prop_assert_eq!(&latest[&k], &e.anomaly, "the latest detection is reported");
                shown.insert(k, e.anomaly.status.clone());
            }
            // Bounded by contents (5 here), whatever the number of detections.
            prop_assert!(t.len() <= 5);
            // A poll right after that changes nothing is silent.
            let mut again = listed.clone();
            again.reverse();
            prop_assert!(t.observe(&again).is_empty());
        }
    }
}
