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

/// The parameter names an endpoint accepts (reference §3), besides `json` and `reason`.
#[must_use]
pub fn accepted(endpoint: Endpoint) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = COMMON.to_vec();
    match endpoint {
        Endpoint::State => v.extend(["substates", "verbose", "super_verbose"]),
        Endpoint::Proposals => {
            v.extend(PROPOSAL_COMMON);
            v.extend([
                "kafka_assigner",
                "rebalance_disk",
                "destination_broker_ids",
                "ignore_proposal_cache",
            ]);
        }
        Endpoint::Rebalance => {
            v.extend(PROPOSAL_COMMON);
            v.extend(EXECUTION);
            v.extend([
                "kafka_assigner",
                "rebalance_disk",
                "destination_broker_ids",
                "ignore_proposal_cache",
                "concurrent_intra_broker_partition_movements",
            ]);
        }
        Endpoint::AddBroker | Endpoint::RemoveBroker => {
            v.extend(PROPOSAL_COMMON);
            v.extend(EXECUTION);
            v.extend(["brokerid", "kafka_assigner"]);
            if endpoint == Endpoint::AddBroker {
                v.push("throttle_added_broker");
            } else {
                v.extend(["throttle_removed_broker", "destination_broker_ids"]);
            }
        }
        Endpoint::TopicConfiguration => {
            v.extend(PROPOSAL_COMMON);
            v.extend(EXECUTION);
            v.extend([
                "topic",
                "replication_factor",
                "skip_rack_awareness_check",
                "concurrent_intra_broker_partition_movements",
            ]);
        }
        Endpoint::UserTasks => v.extend([
            "user_task_ids",
            "client_ids",
            "endpoints",
            "types",
            "entries",
            "fetch_completed_task",
        ]),
        Endpoint::StopProposalExecution => {
            v.extend(["force_stop", "stop_external_agent", "review_id"]);
        }
        Endpoint::KafkaClusterState => v.extend(["topic", "verbose"]),
        Endpoint::Admin => v.extend([
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
        ]),
        Endpoint::ReviewBoard => v.push("review_ids"),
        Endpoint::Review => v.extend(["approve", "discard"]),
        // Reference §3.5.
        Endpoint::DemoteBroker => v.extend([
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
        ]),
        // Reference §3.9.
        Endpoint::RemoveDisks => {
            v.extend(["brokerid_and_logdirs", "dryrun", "stop_ongoing_execution"])
        }
        Endpoint::Load => v.extend([
            "start",
            "end",
            "time",
            "allow_capacity_estimation",
            "populate_disk_info",
            "capacity_only",
        ]),
    }
    v
}
