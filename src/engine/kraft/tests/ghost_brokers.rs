//! Examples of the ghost-registration rule: which fenced brokers may be unregistered.

use super::*;

// ---- ghosts --------------------------------------------------------------------------------

fn ghost_view() -> GhostView {
    GhostView {
        registrations: vec![
            Registration {
                id: NodeId(1),
                fenced: false,
                rack: None,
                running: Some(true),
            },
            Registration {
                id: NodeId(4),
                fenced: true,
                rack: Some("a".into()),
                running: Some(false),
            },
        ],
        partitions: vec![PartitionReplicas {
            topic: "t".into(),
            partition: 0,
            replicas: vec![NodeId(1), NodeId(2)],
            adding: vec![],
            removing: vec![],
        }],
        voters: BTreeSet::from([NodeId(1)]),
    }
}

#[test]
fn a_fenced_stopped_broker_without_replicas_may_be_unregistered() {
    let v = ghost_view();
    assert_eq!(ghosts::check_unregister(&v, NodeId(4)), Ok(()));
    let l = ghosts::list(&v);
    assert_eq!(l[1].id, NodeId(4));
    assert!(l[1].fenced && l[1].holds.is_empty());
    assert_eq!(l[0].holds, vec![("t".to_string(), 0)]);
}

#[test]
fn unregister_refuses_a_broker_something_still_points_at() {
    let mut v = ghost_view();
    v.partitions[0].adding.push(NodeId(4));
    let err = ghosts::check_unregister(&v, NodeId(4)).unwrap_err();
    assert_eq!(
        err,
        UnregisterRefusal::HoldsReplicas {
            node: NodeId(4),
            partitions: vec![("t".into(), 0)]
        }
    );
    assert!(err.to_string().contains("t-0"), "{err}");
    let mut v = ghost_view();
    v.registrations[1].running = None;
    assert_eq!(
        ghosts::check_unregister(&v, NodeId(4)),
        Err(UnregisterRefusal::RunningUnknown { node: NodeId(4) })
    );
    assert_eq!(
        ghosts::check_unregister(&ghost_view(), NodeId(1)),
        Err(UnregisterRefusal::NotFenced { node: NodeId(1) })
    );
    assert_eq!(
        ghosts::check_unregister(&ghost_view(), NodeId(9)),
        Err(UnregisterRefusal::NotRegistered { node: NodeId(9) })
    );
}
