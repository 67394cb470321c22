//! Which brokers' configs an observation must read when the caller asks only for what its
//! decisions need ([`BrokerConfigReads::Needed`], `roll --dry-run`): at 1,000 brokers reading
//! every broker's configs is 2,000 requests (an ApiVersions and a DescribeConfigs each, since
//! Kafka serves a broker's configs only from that broker), most of them telling the roll
//! nothing it does not already know (issue #27).
//!
//! What a broker's configs give an observation, and where else it can come from:
//! - that it runs ("reachable"): the quorum vouches for the brokers caught up and fetching now
//!   ([`super::sources::vouched_alive`]); the others are asked, as always;
//! - its roles (`process.roles`): with `bootstrap.controllers` every controller is listed
//!   (DescribeCluster on a controller, KIP-919) and asked its own `process.roles`, so a
//!   registered broker that is no listed controller runs `process.roles=broker`; without the
//!   listing every broker is asked;
//! - the broker-level `min.insync.replicas`: only a partition of a topic without a topic-level
//!   override (or whose configs could not be read) falls back to it, so only its replicas are
//!   asked;
//! - the quorum's fetch timeout: read from the active controller; when it could not be, every
//!   broker is asked (a broker's value is the fallback).
//!
//! Everything else the roll reads of a broker's configs (the settings a `--config` roll
//! compares, the restart witness's idle limit) belongs to a live roll or a roll with desired
//! settings, which read [`BrokerConfigReads::Every`].

use std::collections::{BTreeMap, BTreeSet};

use crate::kafka::ffi::{NodeAddress, TopicDescription};

/// Which brokers' configs an observation reads (set with
/// [`KafkaClient::read_broker_configs`](super::KafkaClient::read_broker_configs)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BrokerConfigReads {
    /// Every unfenced broker's (kept between observations while nothing says they changed):
    /// what a live roll, `operate` and `health` read.
    #[default]
    Every,
    /// Only those of brokers the quorum does not vouch for and of brokers whose configs a
    /// decision needs ([`brokers_needing_configs`]): what `roll --dry-run` reads.
    Needed,
}

/// The facts of one observation [`brokers_needing_configs`] decides on.
pub struct NeedFacts<'a> {
    /// The unfenced brokers.
    pub listed: &'a [NodeAddress],
    /// The partition metadata read (every view: a replica in any of them counts).
    pub views: &'a [(i32, Vec<TopicDescription>)],
    /// Each topic whose configs were read, with its `min.insync.replicas` override.
    pub topic_min_isr: &'a BTreeMap<String, Option<i32>>,
    /// Every controller is listed (`bootstrap.controllers` set and DescribeCluster answered).
    pub controllers_listed: bool,
    /// The active controller's fetch timeout was read.
    pub fetch_timeout_read: bool,
}

/// The listed brokers whose configs a decision needs (see the module docs): every one when
/// roles or the fetch timeout cannot be told otherwise, else the replicas of partitions
/// whose topic has no `min.insync.replicas` override or unread configs.
#[must_use]
pub fn brokers_needing_configs(facts: &NeedFacts<'_>) -> BTreeSet<i32> {
    let listed: BTreeSet<i32> = facts.listed.iter().map(|n| n.id).collect();
    if !facts.controllers_listed || !facts.fetch_timeout_read {
        return listed;
    }
    let mut needed = BTreeSet::new();
    for (_, view) in facts.views {
        for t in view {
            if matches!(facts.topic_min_isr.get(&t.name), Some(Some(_))) {
                continue;
            }
            for p in &t.partitions {
                needed.extend(p.replicas.iter().filter(|r| listed.contains(r)));
            }
        }
    }
    needed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::client::fixtures::{addr, topic};

    #[test]
    fn only_replicas_of_topics_falling_back_to_the_broker_min_isr_are_needed() {
        let listed: Vec<NodeAddress> = (1..=6).map(addr).collect();
        let views = vec![
            (
                1,
                vec![
                    topic("with-override", &[&[1, 2, 3]]),
                    topic("no-override", &[&[2, 4], &[4, 9]]),
                    topic("unread", &[&[5]]),
                ],
            ),
            // A replica only the second view shows still counts.
            (2, vec![topic("no-override", &[&[2, 4, 6], &[4, 9]])]),
        ];
        let topic_min_isr = BTreeMap::from([
            ("with-override".to_string(), Some(2)),
            ("no-override".to_string(), None),
        ]);
        let facts = NeedFacts {
            listed: &listed,
            views: &views,
            topic_min_isr: &topic_min_isr,
            controllers_listed: true,
            fetch_timeout_read: true,
        };
        // 9 is not listed unfenced: nothing to ask it.
        assert_eq!(
            brokers_needing_configs(&facts),
            BTreeSet::from([2, 4, 5, 6])
        );
        let all: BTreeSet<i32> = (1..=6).collect();
        let no_listing = NeedFacts {
            controllers_listed: false,
            ..facts
        };
        assert_eq!(brokers_needing_configs(&no_listing), all);
        let no_timeout = NeedFacts {
            fetch_timeout_read: false,
            ..no_listing
        };
        assert_eq!(brokers_needing_configs(&no_timeout), all);
    }
}
