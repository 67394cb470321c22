use super::*;

fn facts(rf: u16, min_isr: Option<u32>) -> TopicFacts {
    TopicFacts {
        partitions: 3,
        min_rf: rf,
        max_rf: rf,
        min_isr,
    }
}

fn cluster(topics: &[(&str, u16, Option<u32>)]) -> ClusterFacts {
    ClusterFacts {
        brokers: 4,
        racks: BTreeSet::new(),
        topics: topics
            .iter()
            .map(|(t, rf, m)| ((*t).to_string(), facts(*rf, *m)))
            .collect(),
    }
}

fn wanted(pairs: &[(&str, u16)]) -> BTreeMap<String, u16> {
    // Straight into the map: `validate` is judged on its own, 0 included (merge_requests
    // refuses 0 earlier, see below).
    pairs.iter().map(|(t, r)| ((*t).to_string(), *r)).collect()
}

#[test]
fn a_factor_of_zero_is_refused_before_any_cluster_is_asked() {
    let e = merge_requests([("a".to_string(), 0), ("b".to_string(), 2)]).unwrap_err();
    assert_eq!(
        e.0,
        vec![InputError::BelowOne {
            topic: "a".into(),
            target: 0
        }]
    );
}

#[test]
fn a_topic_listed_twice_with_different_factors_is_refused() {
    let e =
        merge_requests([("a".to_string(), 2), ("a".to_string(), 3), ("b".into(), 2)]).unwrap_err();
    assert_eq!(
        e.0,
        vec![InputError::Conflicting {
            topic: "a".into(),
            factors: vec![2, 3]
        }]
    );
    // Twice with the same factor is fine.
    assert_eq!(
        merge_requests([("a".to_string(), 2), ("a".to_string(), 2)])
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        merge_requests(Vec::<(String, u16)>::new()).unwrap_err().0,
        vec![InputError::Nothing]
    );
}

#[test]
fn every_bad_input_is_reported_and_at_target_topics_pass() {
    let c = cluster(&[
        ("a", 3, Some(2)),
        ("b", 2, Some(1)),
        ("c", 5, Some(4)),
        ("z", 2, None),
    ]);
    let e = validate(
        &wanted(&[("a", 1), ("b", 5), ("x", 2), ("z", 0), ("c", 5)]),
        &c,
        false,
    )
    .unwrap_err();
    assert!(
        e.0.contains(&InputError::UnknownTopics(vec!["x".into()])),
        "{e}"
    );
    assert!(e.0.contains(&InputError::BelowOne {
        topic: "z".into(),
        target: 0
    }));
    assert!(e.0.contains(&InputError::AboveBrokers {
        topic: "b".into(),
        target: 5,
        brokers: 4
    }));
    assert!(e.0.contains(&InputError::BelowMinIsr {
        topic: "a".into(),
        target: 1,
        min_isr: 2
    }));
    // c has 5 replicas on 4 brokers already: at its target, skipped, not an error.
    assert_eq!(e.0.len(), 4, "{e}");
    assert!(e.to_string().ends_with("nothing was changed"));
    validate(&wanted(&[("a", 1)]), &c, true).unwrap();
}

#[test]
fn plan_skips_topics_at_target_and_groups_the_rest_by_factor() {
    let c = cluster(&[
        ("a", 3, None),
        ("b", 3, None),
        ("c", 2, None),
        ("d", 2, None),
    ]);
    let s = ReplicasState::plan(
        Some("id".into()),
        &wanted(&[("a", 2), ("b", 2), ("c", 3), ("d", 2)]),
        &c,
    );
    assert_eq!(s.changes["d"].state, ChangeState::Done);
    assert!(
        s.changes["d"]
            .message
            .as_deref()
            .unwrap()
            .contains("skipped")
    );
    let send = s.to_send();
    assert_eq!(send[&2], vec!["a".to_string(), "b".to_string()]);
    assert_eq!(send[&3], vec!["c".to_string()]);
    // Everything at target: nothing to send, nothing unfinished (a no-op run).
    let noop = ReplicasState::plan(None, &wanted(&[("d", 2)]), &c);
    assert!(noop.to_send().is_empty() && !noop.unfinished());
}

#[test]
fn a_lost_task_makes_unfinished_changes_pending_again_and_done_ones_stay() {
    let mut c = cluster(&[("a", 3, None), ("b", 3, None)]);
    let mut s = ReplicasState::plan(None, &wanted(&[("a", 2), ("b", 2)]), &c);
    s.handle_sent(Some("t1".into()));
    assert_eq!(s.ongoing_tasks().len(), 1);
    assert!(s.to_send().is_empty());
    c.topics.get_mut("a").unwrap().min_rf = 2;
    c.topics.get_mut("a").unwrap().max_rf = 2;
    s.handle_round(&RoundEnd::Lost, &c);
    assert_eq!(s.changes["a"].state, ChangeState::Done);
    assert_eq!(s.changes["b"].state, ChangeState::Pending);
    assert_eq!(s.to_send()[&2], vec!["b".to_string()]);
}

#[test]
fn completed_without_the_factor_changing_is_a_failure() {
    let c = cluster(&[("a", 3, None)]);
    let mut s = ReplicasState::plan(None, &wanted(&[("a", 2)]), &c);
    s.handle_sent(Some("t".into()));
    s.handle_round(&RoundEnd::Completed, &c);
    assert_eq!(s.changes["a"].state, ChangeState::Failed);
    assert!(s.any_failed());
    let mut s = ReplicasState::plan(None, &wanted(&[("a", 2)]), &c);
    s.handle_sent(Some("t".into()));
    s.handle_round(&RoundEnd::CompletedWithError, &c);
    assert!(
        s.changes["a"]
            .message
            .as_deref()
            .unwrap()
            .contains("CompletedWithError")
    );
}

#[test]
fn busy_keeps_changes_pending_and_rerunning_resumes_ongoing_ones() {
    let c = cluster(&[("a", 3, None), ("b", 3, None)]);
    let mut s = ReplicasState::plan(None, &wanted(&[("a", 2)]), &c);
    s.handle_round(&RoundEnd::Busy("another execution".into()), &c);
    assert_eq!(s.changes["a"].state, ChangeState::Pending);
    s.handle_sent(Some("t".into()));
    // The same command again: the ongoing change is kept (followed, not re-sent).
    let json = serde_json::to_string(&s).unwrap();
    let mut restored: ReplicasState = serde_json::from_str(&json).unwrap();
    restored.adopt(&wanted(&[("a", 2), ("b", 2)]), &c);
    assert_eq!(restored.changes["a"].state, ChangeState::Ongoing);
    assert_eq!(restored.changes["a"].task_id.as_deref(), Some("t"));
    assert_eq!(restored.to_send()[&2], vec!["b".to_string()]);
    // A different target starts over.
    restored.adopt(&wanted(&[("a", 1)]), &c);
    assert_eq!(restored.changes["a"].state, ChangeState::Pending);
}

#[test]
fn the_regex_matches_only_the_named_topics() {
    assert_eq!(
        whole_names_regex(&["orders.v1".into(), "a-b_c".into()]),
        r"orders\.v1|a\-b_c"
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Event {
        /// Kafka now reports topic `i % n` at this factor.
        Kafka(usize, u16),
        Sent,
        Round(u8),
    }

    fn event() -> impl Strategy<Value = Event> {
        prop_oneof![
            (0usize..8, 1u16..5).prop_map(|(i, rf)| Event::Kafka(i, rf)),
            Just(Event::Sent),
            (0u8..6).prop_map(Event::Round),
        ]
    }

    fn round(k: u8) -> RoundEnd {
        match k {
            0 => RoundEnd::Completed,
            1 => RoundEnd::CompletedWithError,
            2 => RoundEnd::Lost,
            3 => RoundEnd::NothingToDo,
            4 => RoundEnd::Busy("busy".into()),
            _ => RoundEnd::Refused("no".into()),
        }
    }

    proptest! {
        /// Whatever Cruise Control and Kafka do: targets never change, finished changes stay
        /// finished, only pending topics are ever sent, a topic at its target after a round is
        /// done, and every round but a busy one leaves nothing ongoing under a lost task.
        #[test]
        fn the_seeds_invariants_hold_after_every_step(
            start in proptest::collection::vec((1u16..5, 1u16..5), 1..8),
            events in proptest::collection::vec(event(), 0..40),
        ) {
            let n = start.len();
            let name = |i: usize| format!("t{}", i % n);
            let mut c = ClusterFacts { brokers: 4, ..ClusterFacts::default() };
            let mut wanted = BTreeMap::new();
            for (i, (now, target)) in start.iter().enumerate() {
                c.topics.insert(name(i), facts(*now, None));
                wanted.insert(name(i), *target);
            }
            let mut s = ReplicasState::plan(None, &wanted, &c);
            let mut tasks = 0;
            for e in events {
                let before = s.clone();
                match e {
                    Event::Kafka(i, rf) => {
                        let f = c.topics.get_mut(&name(i)).unwrap();
                        f.min_rf = rf;
                        f.max_rf = rf;
                        s.observe(&c);
                    }
                    Event::Sent => {
                        let sent: BTreeSet<String> =
                            s.to_send().into_values().flatten().collect();
                        tasks += 1;
                        s.handle_sent(Some(format!("task{tasks}")));
                        for (t, ch) in &s.changes {
                            if sent.contains(t) {
                                prop_assert_eq!(ch.state, ChangeState::Ongoing);
                                prop_assert_eq!(ch.task_id.clone(), Some(format!("task{tasks}")));
                            }
                        }
                    }
                    Event::Round(k) => {
                        let end = round(k);
                        s.handle_round(&end, &c);
                        for (t, ch) in &s.changes {
                            if c.topics[t].is_at(ch.target) && !before.changes[t].state.is_final() {
                                prop_assert_eq!(ch.state, ChangeState::Done);
                            }
                        }
                        match end {
                            RoundEnd::Busy(_) => {}
                            RoundEnd::Lost => prop_assert!(s.ongoing_tasks().is_empty()),
                            _ => prop_assert!(!s.unfinished()),
                        }
                    }
                }
                for (t, ch) in &s.changes {
                    let old = &before.changes[t];
                    prop_assert_eq!(ch.target, old.target);
                    if old.state.is_final() {
                        prop_assert_eq!(ch.state, old.state);
                    }
                }
                for topics in s.to_send().values() {
                    for t in topics {
                        prop_assert_eq!(s.changes[t].state, ChangeState::Pending);
                    }
                }
            }
        }
    }
}
