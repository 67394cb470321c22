//! Which brokers an observation trusts, by the metadata quorum's word: the ones caught up with
//! its high watermark supply partition metadata ([`metadata_candidates`]), and the ones also
//! fetching now run ([`vouched_alive`]), so their kept configs need not be asked again.

use std::collections::BTreeSet;

use crate::kafka::ffi::NodeAddress;
use crate::kafka::observation::RawQuorum;

/// How many caught-up brokers' partition metadata one observation reads and intersects.
pub const METADATA_SOURCES: usize = 3;

/// How recently, on the quorum leader's clock, a broker must have fetched the metadata log for
/// the quorum to vouch that it runs (see [`vouched_alive`]). A running broker fetches all the
/// time (each fetch waits at most 500 ms for new records, and the active controller appends a
/// record every 500 ms by default); one that crashed stops at once.
pub const FETCH_LIVENESS_MS: i64 = 1_000;

/// The nodes whose metadata log has reached the quorum's high watermark (DescribeQuorum: each
/// voter's and observer's log end offset as the leader last saw it). A broker's metadata
/// image holds what it has fetched, so a broker at the high watermark knows every committed
/// ISR change the answer was given after; one behind may not.
#[must_use]
pub fn metadata_caught_up(quorum: &RawQuorum) -> BTreeSet<i32> {
    quorum
        .voters
        .iter()
        .chain(&quorum.observers)
        .filter(|r| r.log_end_offset >= quorum.high_watermark && quorum.high_watermark >= 0)
        .map(|r| r.id)
        .collect()
}

/// The nodes the quorum vouches run now, as evidence of liveness in place of a request to each
/// broker: caught up with the high watermark ([`metadata_caught_up`]) and a last fetch at most
/// [`FETCH_LIVENESS_MS`] before the leader's now (the leader reports itself caught up now).
/// Empty when the answer has no timestamps (DescribeQuorum before v1), names no leader, or has
/// a timestamp ahead of the leader's now (its clock stepped back: no age can be told): every
/// broker is then asked.
#[must_use]
pub fn vouched_alive(quorum: &RawQuorum) -> BTreeSet<i32> {
    let all = || quorum.voters.iter().chain(&quorum.observers);
    let Some(now) = quorum.leader_id.and_then(|leader| {
        all()
            .find(|r| r.id == leader)
            .and_then(|r| r.last_caught_up_timestamp)
    }) else {
        return BTreeSet::new();
    };
    let ahead = |t: Option<i64>| t.is_some_and(|t| t > now);
    if all().any(|r| ahead(r.last_fetch_timestamp) || ahead(r.last_caught_up_timestamp)) {
        return BTreeSet::new();
    }
    let caught_up = metadata_caught_up(quorum);
    all()
        .filter(|r| caught_up.contains(&r.id))
        .filter(|r| {
            r.last_fetch_timestamp
                .is_some_and(|t| now - t <= FETCH_LIVENESS_MS)
        })
        .map(|r| r.id)
        .collect()
}

/// The brokers whose partition metadata one observation reads: up to
/// [`METADATA_SOURCES`] unfenced brokers whose metadata is caught up, starting at a place
/// that moves with each observation (the load spreads), followed by the other caught-up
/// ones as spares for a source that does not answer. `None` when no listed broker is caught
/// up.
#[must_use]
pub fn metadata_candidates(
    listed: &[NodeAddress],
    caught_up: &BTreeSet<i32>,
    observation: u64,
) -> Option<Vec<NodeAddress>> {
    let mut ready: Vec<NodeAddress> = listed
        .iter()
        .filter(|n| caught_up.contains(&n.id))
        .cloned()
        .collect();
    if ready.is_empty() {
        return None;
    }
    ready.sort_by_key(|n| n.id);
    let start = usize::try_from(observation).unwrap_or(0) % ready.len();
    ready.rotate_left(start);
    Some(ready)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::client::fixtures::addr;
    use crate::kafka::observation::ReplicaObservation;

    fn replica(id: i32, leo: i64) -> ReplicaObservation {
        ReplicaObservation {
            id,
            log_end_offset: leo,
            last_fetch_timestamp: Some(1),
            last_caught_up_timestamp: Some(1),
            directory_id: None,
        }
    }

    #[test]
    fn only_brokers_at_the_high_watermark_supply_partition_metadata() {
        let quorum = RawQuorum {
            leader_id: Some(100),
            leader_epoch: 1,
            high_watermark: 50,
            voters: vec![replica(100, 50)],
            observers: vec![
                replica(1, 50),
                replica(2, 49),
                replica(3, 51),
                replica(4, 50),
            ],
            answered_by: "c".into(),
            voter_endpoints: Default::default(),
            version: 2,
        };
        let caught_up = metadata_caught_up(&quorum);
        assert_eq!(caught_up, BTreeSet::from([1, 3, 4, 100]));
        let listed: Vec<NodeAddress> = (1..=5).map(addr).collect();
        let ids = |o: u64| -> Vec<i32> {
            metadata_candidates(&listed, &caught_up, o)
                .unwrap()
                .iter()
                .map(|n| n.id)
                .collect()
        };
        // 2 is behind, 5 is not in the quorum's answer: neither is ever a source.
        assert_eq!(ids(0), vec![1, 3, 4]);
        assert_eq!(ids(1), vec![3, 4, 1]);
        assert_eq!(ids(3), vec![1, 3, 4]);
        assert_eq!(
            metadata_candidates(&listed, &BTreeSet::from([100]), 0),
            None
        );
    }

    #[test]
    fn the_quorum_vouches_only_for_brokers_caught_up_that_fetched_within_the_window() {
        let now = 1_000_000;
        let at = |id: i32, leo: i64, fetch: Option<i64>| ReplicaObservation {
            id,
            log_end_offset: leo,
            last_fetch_timestamp: fetch,
            last_caught_up_timestamp: fetch,
            directory_id: None,
        };
        let mut leader = at(100, 50, None);
        leader.last_caught_up_timestamp = Some(now);
        let quorum = RawQuorum {
            leader_id: Some(100),
            leader_epoch: 1,
            high_watermark: 50,
            voters: vec![leader.clone()],
            observers: vec![
                at(1, 50, Some(now - 60)),
                // Crashed right after its last fetch: still at the high watermark.
                at(2, 50, Some(now - FETCH_LIVENESS_MS - 1)),
                at(3, 50, Some(now - FETCH_LIVENESS_MS)),
                // Fetched just now but behind.
                at(4, 49, Some(now - 10)),
                // No timestamp (DescribeQuorum v0).
                at(5, 50, None),
            ],
            answered_by: "c".into(),
            voter_endpoints: Default::default(),
            version: 2,
        };
        assert_eq!(vouched_alive(&quorum), BTreeSet::from([1, 3]));
        // No leader timestamp: nobody is vouched for.
        let mut no_now = quorum.clone();
        no_now.voters[0].last_caught_up_timestamp = None;
        assert!(vouched_alive(&no_now).is_empty());
        // A timestamp ahead of the leader's now (its clock stepped back): nobody.
        let mut stepped = quorum.clone();
        stepped.observers.push(at(6, 50, Some(now + 5_000)));
        assert!(vouched_alive(&stepped).is_empty());
    }
}
