//! The merge of several brokers' partition metadata into one view, and the check that the
//! broker listing covers the leaders that view names.
//!
//! A safety rule lives here: per partition the ISR is the *intersection* of the views read
//! (each from a broker caught up with the metadata quorum), so a replica one broker still
//! lists in sync after it left the ISR is never counted in sync.

use std::collections::{BTreeMap, BTreeSet};

use super::{AssembleError, RawObservation};
use crate::kafka::ffi::TopicDescription;

/// Refuses an observation whose broker listing misses a broker that leads partitions in the
/// first topic view (the one whose leaders the merge keeps): see
/// [`AssembleError::ListingOutOfDate`].
pub(super) fn listing_covers_leaders(
    raw: &RawObservation,
    unfenced: &BTreeSet<i32>,
) -> Result<(), AssembleError> {
    let Some((view_from, view)) = raw.topic_views.first() else {
        return Ok(());
    };
    let registered =
        |id: i32| unfenced.contains(&id) || raw.fenced_brokers.iter().flatten().any(|n| n.id == id);
    let mut missing: BTreeMap<i32, usize> = BTreeMap::new();
    for leader in view
        .iter()
        .flat_map(|t| &t.partitions)
        .filter_map(|p| p.leader)
        .filter(|l| *l >= 0 && !registered(*l))
    {
        *missing.entry(leader).or_default() += 1;
    }
    match missing.into_iter().next() {
        Some((broker, partitions)) => Err(AssembleError::ListingOutOfDate {
            broker,
            partitions,
            view_from: *view_from,
        }),
        None => Ok(()),
    }
}

/// Merges the partition metadata of several brokers: per partition the ISR is the
/// intersection of the views, replicas the first view's (plus any another view adds), the
/// leader the first view's. Disagreements are logged at debug level. The first view is moved,
/// not copied (one view, as `operate`'s loop reads, is the merge).
pub(super) fn merge_views(views: Vec<(i32, Vec<TopicDescription>)>) -> Vec<TopicDescription> {
    let mut views = views.into_iter();
    let Some((_, mut merged)) = views.next() else {
        return Vec::new();
    };
    let mut rest = views.peekable();
    if rest.peek().is_some() {
        // Indexes into `merged`: topic name -> position, (topic position, partition) -> position.
        let mut topic_at: std::collections::HashMap<String, usize> =
            std::collections::HashMap::new();
        let mut partition_at: std::collections::HashMap<(usize, i32), usize> =
            std::collections::HashMap::new();
        for (ti, t) in merged.iter().enumerate() {
            topic_at.entry(t.name.clone()).or_insert(ti);
            for (pi, p) in t.partitions.iter().enumerate() {
                partition_at.entry((ti, p.partition)).or_insert(pi);
            }
        }
        for (broker, view) in rest {
            for t in view {
                merge_topic(&mut merged, &mut topic_at, &mut partition_at, broker, t);
            }
        }
    }
    for t in &mut merged {
        t.partitions.sort_by_key(|p| p.partition);
    }
    merged
}

/// Merges one broker's view of topic `t` into `merged` (see [`merge_views`]).
fn merge_topic(
    merged: &mut Vec<TopicDescription>,
    topic_at: &mut std::collections::HashMap<String, usize>,
    partition_at: &mut std::collections::HashMap<(usize, i32), usize>,
    broker: i32,
    t: TopicDescription,
) {
    let Some(&ti) = topic_at.get(&t.name) else {
        let ti = merged.len();
        topic_at.insert(t.name.clone(), ti);
        for (pi, p) in t.partitions.iter().enumerate() {
            partition_at.entry((ti, p.partition)).or_insert(pi);
        }
        merged.push(t);
        return;
    };
    let into = &mut merged[ti];
    for p in t.partitions {
        let Some(&pi) = partition_at.get(&(ti, p.partition)) else {
            partition_at.insert((ti, p.partition), into.partitions.len());
            into.partitions.push(p);
            continue;
        };
        let q = &mut into.partitions[pi];
        if q.isr.iter().collect::<BTreeSet<_>>() != p.isr.iter().collect::<BTreeSet<_>>()
            || q.leader != p.leader
            || q.replicas != p.replicas
        {
            tracing::debug!(
                "{}-{}: broker {broker} reports leader {:?}, replicas {:?}, ISR {:?}; \
                 merged so far: leader {:?}, replicas {:?}, ISR {:?} (keeping the \
                 intersection of the ISRs)",
                t.name,
                p.partition,
                p.leader,
                p.replicas,
                p.isr,
                q.leader,
                q.replicas,
                q.isr
            );
        }
        q.isr.retain(|r| p.isr.contains(r));
        for r in &p.replicas {
            if !q.replicas.contains(r) {
                q.replicas.push(*r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::assemble;
    use super::super::fixtures::{node, raw, topic};

    /// CI saw a roll abort with "node 2 went from healthy to NotRunning" while broker 2 served
    /// and led partitions: the broker listing of one poll lacked it, so it looked like a fenced
    /// observer (no address, no state: NotRunning). A leader missing from the listing makes the
    /// observation fail (the roll observes again) instead of reaching the engine.
    #[test]
    fn a_leader_missing_from_the_broker_listing_fails_the_observation() {
        let mut r = raw();
        r.cluster.nodes.retain(|n| n.id != 5);
        match assemble(r) {
            Err(super::super::AssembleError::ListingOutOfDate {
                broker: 5,
                partitions: 1,
                view_from: 4,
            }) => {}
            other => panic!("{other:?}"),
        }
        // Listed as fenced (Kafka >= 4 lists fenced brokers): registered, a consistent answer.
        let mut r = raw();
        r.cluster.nodes.retain(|n| n.id != 5);
        r.fenced_brokers = Some(vec![node(5)]);
        let o = assemble(r).unwrap();
        assert_eq!(o.node(5).unwrap().fenced, Some(true));
        // A partition without a leader names nobody.
        let mut r = raw();
        r.topic_views[0].1[0].partitions[1].leader = None;
        r.cluster.nodes.retain(|n| n.id != 5);
        assert!(assemble(r).is_ok());
    }

    #[test]
    fn isr_is_the_intersection_of_every_brokers_view() {
        let mut r = raw();
        // Broker 5's metadata is stale for t-1 (still lists 4 in the ISR, 4 says it left)
        // and misses 5 in t-0's ISR; it also knows a topic broker 4 has not seen yet.
        r.topic_views = vec![
            (
                4,
                vec![topic(
                    "t",
                    &[
                        (0, Some(4), &[4, 5, 6], &[4, 5]),
                        (1, Some(5), &[5, 4], &[5]),
                    ],
                )],
            ),
            (
                5,
                vec![
                    topic(
                        "t",
                        &[
                            (0, Some(4), &[4, 5, 6], &[4]),
                            (1, Some(5), &[5, 4], &[5, 4]),
                        ],
                    ),
                    topic("new", &[(0, Some(5), &[5], &[5])]),
                ],
            ),
        ];
        let o = assemble(r).unwrap();
        let t = o.topic("t").unwrap();
        assert_eq!(t.partitions[0].isr, vec![4]);
        assert_eq!(t.partitions[1].isr, vec![5]);
        assert_eq!(t.partitions[0].replicas, vec![4, 5, 6]);
        assert_eq!(o.topic("new").unwrap().partitions[0].isr, vec![5]);
        assert_eq!(o.metadata_from, vec![4, 5]);
        assert_eq!(o.node(4).unwrap().in_sync, Some(false), "out of t-1's ISR");
    }
}
