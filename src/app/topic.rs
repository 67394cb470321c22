//! Replication-factor rounds: the use case `topic set-rf` and `operate` share.
//!
//! Every round sends one `topic_configuration` request with every pending topic, grouped by
//! target factor (the JSON body; names are escaped so the whole-name regex matches only them).
//! The engine ([`crate::engine::replicas`]) decides what is pending; here is how a round's
//! request is built, once for both callers.

use std::collections::BTreeMap;

use crate::cruise_control::params::{ExecutionOptions, GoalOptions, TopicConfigurationRequest};
use crate::engine::replicas::{ReplicasState, whole_names_regex};

/// What a round is sent with besides its topics: the execution's throttle and concurrency, and
/// the request's reason. `Default`: Cruise Control's own settings and no reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundOptions {
    pub replication_throttle: Option<u64>,
    pub concurrent_partition_movements_per_broker: Option<u32>,
    pub concurrent_leader_movements: Option<u32>,
    pub reason: String,
}

/// The request every round sends (its `by_factor` filled per round, see [`groups`]): the
/// rack-awareness check is skipped only when no broker has a rack (`racks` false); throttle and
/// concurrency pass through.
#[must_use]
pub fn base_request(options: &RoundOptions, racks: bool) -> TopicConfigurationRequest {
    TopicConfigurationRequest {
        topic: String::new(),
        replication_factor: 0,
        by_factor: BTreeMap::new(),
        skip_rack_awareness_check: !racks,
        execution: ExecutionOptions {
            dryrun: true,
            replication_throttle: options.replication_throttle,
            concurrent_partition_movements_per_broker: options
                .concurrent_partition_movements_per_broker,
            concurrent_leader_movements: options.concurrent_leader_movements,
            ..ExecutionOptions::default()
        },
        goals: GoalOptions::default(),
        reason: options.reason.clone(),
    }
}

/// What a round sends: every pending topic, grouped by target factor, as whole-name regexes.
#[must_use]
pub fn groups(state: &ReplicasState) -> BTreeMap<u16, String> {
    state
        .to_send()
        .into_iter()
        .map(|(rf, topics)| (rf, whole_names_regex(&topics)))
        .collect()
}

/// The request of the round for `state`'s pending changes.
#[must_use]
pub fn round_request(
    state: &ReplicasState,
    options: &RoundOptions,
    racks: bool,
) -> TopicConfigurationRequest {
    let mut request = base_request(options, racks);
    request.by_factor = groups(state);
    request
}
