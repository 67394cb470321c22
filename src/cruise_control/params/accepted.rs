//! The parameter names each endpoint accepts (reference §1): Cruise Control answers 400 to any
//! other, so every builder is checked against this table in a unit test. Kept as data, apart from
//! the builders, so a Cruise Control upgrade changes one place.

use super::Endpoint;

const COMMON: &[&str] = &["json", "reason"];
const PROPOSAL_COMMON: &[&str] = &[
    "goals",
    "excluded_topics",
    "data_from",
    "use_ready_default_goals",
    "exclude_recently_removed_brokers",
    "exclude_recently_demoted_brokers",
    "allow_capacity_estimation",
    "verbose",
    "fast_mode",
];
const EXECUTION: &[&str] = &[
    "dryrun",
    "concurrent_partition_movements_per_broker",
    "max_partition_movements_in_cluster",
    "concurrent_leader_movements",
    "broker_concurrent_leader_movements",
    "execution_progress_check_interval_ms",
    "skip_hard_goal_check",
    "replica_movement_strategies",
    "replication_throttle",
    "review_id",
    "stop_ongoing_execution",
];

const PROPOSALS_OWN: &[&str] = &[
    "kafka_assigner",
    "rebalance_disk",
    "destination_broker_ids",
    "ignore_proposal_cache",
];
const REBALANCE_OWN: &[&str] = &[
    "kafka_assigner",
    "rebalance_disk",
    "destination_broker_ids",
    "ignore_proposal_cache",
    "concurrent_intra_broker_partition_movements",
];
const ADD_BROKER_OWN: &[&str] = &["brokerid", "kafka_assigner", "throttle_added_broker"];
const REMOVE_BROKER_OWN: &[&str] = &[
    "brokerid",
    "kafka_assigner",
    "throttle_removed_broker",
    "destination_broker_ids",
];
const TOPIC_CONFIGURATION_OWN: &[&str] = &[
    "topic",
    "replication_factor",
    "skip_rack_awareness_check",
    "concurrent_intra_broker_partition_movements",
];
const USER_TASKS_OWN: &[&str] = &[
    "user_task_ids",
    "client_ids",
    "endpoints",
    "types",
    "entries",
    "fetch_completed_task",
];
const ADMIN_OWN: &[&str] = &[
    "concurrent_partition_movements_per_broker",
    "max_partition_movements_in_cluster",
    "concurrent_intra_broker_partition_movements",
    "concurrent_leader_movements",
    "broker_concurrent_leader_movements",
    "execution_progress_check_interval_ms",
    "enable_self_healing_for",
    "disable_self_healing_for",
    "drop_recently_removed_brokers",
    "drop_recently_demoted_brokers",
    "enable_concurrency_adjuster_for",
    "disable_concurrency_adjuster_for",
    "min_isr_based_concurrency_adjustment",
    "review_id",
];
/// Reference §3.5.
const DEMOTE_BROKER_OWN: &[&str] = &[
    "brokerid",
    "brokerid_and_logdirs",
    "dryrun",
    "concurrent_leader_movements",
    "broker_concurrent_leader_movements",
    "execution_progress_check_interval_ms",
    "skip_urp_demotion",
    "exclude_follower_demotion",
    "replica_movement_strategies",
    "replication_throttle",
    "review_id",
    "stop_ongoing_execution",
    "allow_capacity_estimation",
    "verbose",
    "exclude_recently_demoted_brokers",
];
/// Reference §3.9.
const REMOVE_DISKS_OWN: &[&str] = &["brokerid_and_logdirs", "dryrun", "stop_ongoing_execution"];
const LOAD_OWN: &[&str] = &[
    "start",
    "end",
    "time",
    "allow_capacity_estimation",
    "populate_disk_info",
    "capacity_only",
];

/// The parameter names an endpoint accepts (reference §3), besides `json` and `reason`.
#[must_use]
pub fn accepted(endpoint: Endpoint) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = COMMON.to_vec();
    for group in shared_groups(endpoint) {
        v.extend_from_slice(group);
    }
    v.extend_from_slice(own_names(endpoint));
    v
}

/// The groups of names an endpoint shares with others: every goal-based endpoint takes the
/// proposal options, and those that can execute take the execution options too.
fn shared_groups(endpoint: Endpoint) -> &'static [&'static [&'static str]] {
    match endpoint {
        Endpoint::Proposals => &[PROPOSAL_COMMON],
        Endpoint::Rebalance
        | Endpoint::AddBroker
        | Endpoint::RemoveBroker
        | Endpoint::TopicConfiguration => &[PROPOSAL_COMMON, EXECUTION],
        _ => &[],
    }
}

/// The names only this endpoint (or a few like it) takes.
fn own_names(endpoint: Endpoint) -> &'static [&'static str] {
    match endpoint {
        Endpoint::State => &["substates", "verbose", "super_verbose"],
        Endpoint::Proposals => PROPOSALS_OWN,
        Endpoint::Rebalance => REBALANCE_OWN,
        Endpoint::AddBroker => ADD_BROKER_OWN,
        Endpoint::RemoveBroker => REMOVE_BROKER_OWN,
        Endpoint::TopicConfiguration => TOPIC_CONFIGURATION_OWN,
        Endpoint::UserTasks => USER_TASKS_OWN,
        Endpoint::StopProposalExecution => &["force_stop", "stop_external_agent", "review_id"],
        Endpoint::KafkaClusterState => &["topic", "verbose"],
        Endpoint::Admin => ADMIN_OWN,
        Endpoint::ReviewBoard => &["review_ids"],
        Endpoint::Review => &["approve", "discard"],
        Endpoint::DemoteBroker => DEMOTE_BROKER_OWN,
        Endpoint::RemoveDisks => REMOVE_DISKS_OWN,
        Endpoint::Load => LOAD_OWN,
    }
}
