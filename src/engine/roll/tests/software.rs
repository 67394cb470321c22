//! Rolls onto a new release: a node counts as back only once it runs the target software.

use super::*;

/// A roll onto new software (`upgrade --to`): brokers 1 and 2 must come back reporting
/// `metadata.version` 33.
fn software_roll() -> Roller {
    let requests = [1, 2]
        .into_iter()
        .map(|id| {
            (
                n(id),
                NodeRequest {
                    restart_reasons: vec!["software version: runs 4.3, target 4.4".into()],
                    desired_config: BTreeMap::new(),
                    expected_software: Some(33),
                },
            )
        })
        .collect();
    Roller::new(RollConfig::default(), requests)
}

/// Restarts node 1 and shows it serving again after evidence of its restart (a new
/// incarnation): from the next decision on it would count as back.
fn restart_node_1(roller: &mut Roller, snapshot: &mut ClusterSnapshot) {
    assert_eq!(
        roller.decide(snapshot, Millis(0)).restarted_nodes(),
        vec![n(1)]
    );
    roller.handle_restart_done(n(1), Millis(10));
    snapshot.nodes[1].incarnation = Some("uid-1-1".into());
    assert!(matches!(
        roller.decide(snapshot, Millis(1_000)),
        Decision::Wait { .. }
    ));
}

#[test]
fn a_node_back_on_the_wrong_software_stops_the_roll_and_nothing_else_restarts() {
    let mut roller = software_roll();
    let mut snapshot = brokers_cluster();
    roller.handle_software(BTreeMap::from([(n(1), Ok(Some(30))), (n(2), Ok(Some(30)))]));
    restart_node_1(&mut roller, &mut snapshot);
    // Back and serving, but on the old software: the roll stops, node 2 is not restarted.
    let d = roller.decide(&snapshot, Millis(2_000));
    assert_eq!(
        d,
        Decision::Abort {
            reason: RollError::WrongSoftware {
                node: n(1),
                reported: Some(30),
                expected: 33,
            }
        }
    );
    let text = match &d {
        Decision::Abort { reason } => reason.to_string(),
        _ => unreachable!(),
    };
    assert!(
        text.contains("4.3-IV0")
            && text.contains("4.4-IV2")
            && text.contains("nothing was finalized"),
        "{text}"
    );
    assert!(roller.is_finished());
    assert_eq!(roller.decide(&snapshot, Millis(3_000)), d);
    // A node that does not report the feature at all is no better.
    let mut roller = software_roll();
    let mut snapshot = brokers_cluster();
    roller.handle_software(BTreeMap::from([(n(1), Ok(None))]));
    restart_node_1(&mut roller, &mut snapshot);
    assert!(matches!(
        roller.decide(&snapshot, Millis(2_000)),
        Decision::Abort {
            reason: RollError::WrongSoftware { reported: None, .. }
        }
    ));
}

#[test]
fn a_node_counts_as_back_only_once_its_target_software_is_read() {
    let mut roller = software_roll();
    let mut snapshot = brokers_cluster();
    restart_node_1(&mut roller, &mut snapshot);
    // Its software cannot be read yet: not back, node 2 waits, the wait says why.
    roller.handle_software(BTreeMap::from([(n(1), Err("connection refused".into()))]));
    let d = roller.decide(&snapshot, Millis(2_000));
    let why = blocked_reason(&d);
    assert!(
        why.contains("software") && why.contains("connection refused"),
        "{why}"
    );
    // Never read: the post-restart timeout ends the roll like a node that never served.
    let mut late = roller.clone();
    assert!(matches!(
        late.decide(&snapshot, Millis(60_010)),
        Decision::Abort {
            reason: RollError::NotServingInTime { .. }
        }
    ));
    // Read on the target software: back, node 2 is next. The saved state (JSON) keeps what
    // each node must run, so a resumed roll checks it too.
    roller.handle_software(BTreeMap::from([(n(1), Ok(Some(33))), (n(2), Ok(Some(30)))]));
    let d = roller.decide(&snapshot, Millis(3_000));
    assert_eq!(d.restarted_nodes(), vec![n(2)], "{d:?}");
    let mut resumed: Roller =
        serde_json::from_str(&serde_json::to_string(&roller).unwrap()).unwrap();
    assert_eq!(resumed.contexts()[&n(2)].expected_software, Some(33));
    resumed.handle_restart_done(n(2), Millis(3_010));
    snapshot.nodes[2].incarnation = Some("uid-2-1".into());
    resumed.decide(&snapshot, Millis(4_000));
    // The restored roller was given no report yet: not back.
    assert!(blocked_reason(&resumed.decide(&snapshot, Millis(5_000))).contains("software"));
    resumed.handle_software(BTreeMap::from([(n(1), Ok(Some(33))), (n(2), Ok(Some(30)))]));
    assert!(matches!(
        resumed.decide(&snapshot, Millis(6_000)),
        Decision::Abort {
            reason: RollError::WrongSoftware { node, .. }
        } if node == n(2)
    ));
}
