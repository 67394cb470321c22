//! Examples of the upgrade rules: finalizing feature levels, and which nodes a roll onto a
//! release must restart.

use super::*;

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
