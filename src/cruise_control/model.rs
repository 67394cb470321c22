//! Typed shapes of Cruise Control's JSON responses (reference §3, §4, §6).
//!
//! Only the fields kafkaops reads are typed; everything is optional or defaulted
//! where versions differ, and numbers go through [`super::lenient`] because the
//! server writes `NaN`. These are the wire's shapes: what the engine decides on is its own
//! view of them (`crate::engine::view`), converted in [`super::convert`]. Helpers that only
//! read a shape (is a proposal a no-op, which brokers a cluster state lists) live here.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::lenient::{self, TopicPartition};

/// `GET /state`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct CruiseControlState {
    #[serde(rename = "MonitorState", default)]
    pub monitor: Option<MonitorState>,
    #[serde(rename = "ExecutorState", default)]
    pub executor: Option<ExecutorState>,
    #[serde(rename = "AnalyzerState", default)]
    pub analyzer: Option<AnalyzerState>,
    #[serde(rename = "AnomalyDetectorState", default)]
    pub anomaly_detector: Option<AnomalyDetectorState>,
}

/// `MonitorState`: is the load model built yet?
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MonitorState {
    #[serde(default)]
    pub state: String,
    #[serde(default)]
    pub trained: Option<bool>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub training_pct: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub num_monitored_windows: Option<i64>,
    /// Verbose only: window start (epoch ms, as a string key) to a coverage value.
    #[serde(default)]
    pub monitored_windows: Option<BTreeMap<String, serde_json::Value>>,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub num_valid_partitions: Option<i64>,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub num_total_partitions: Option<i64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub monitoring_coverage_pct: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub num_flawed_partitions: Option<i64>,
    #[serde(default)]
    pub reason_of_latest_pause_or_resume: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub bootstrap_progress_pct: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub loading_progress_pct: Option<f64>,
    #[serde(default)]
    pub error: Option<String>,
}

/// `ExecutorState`: what the executor is doing.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecutorState {
    #[serde(default)]
    pub state: String,
    #[serde(default)]
    pub triggered_user_task_id: Option<String>,
    #[serde(default)]
    pub triggered_self_healing_task_id: Option<String>,
    #[serde(default)]
    pub triggered_task_reason: Option<String>,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_total_partition_movements: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_pending_partition_movements: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_in_progress_partition_movements: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_finished_partition_movements: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub aborting_partitions: u64,
    /// MB moved so far.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub finished_data_movement: Option<f64>,
    /// MB to move in total.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub total_data_to_move: Option<f64>,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_total_leadership_movements: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_pending_leadership_movements: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_finished_leadership_movements: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_total_intra_broker_partition_movements: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_finished_intra_broker_partition_movements: u64,
    /// Concurrency caps Cruise Control reports while executing (reference §3.1).
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub maximum_concurrent_partition_movements_per_broker: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub minimum_concurrent_partition_movements_per_broker: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub average_concurrent_partition_movements_per_broker: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub maximum_broker_leader_movement_concurrency: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub cluster_leader_movement_concurrency: Option<f64>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub recently_removed_brokers: Vec<i32>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub recently_demoted_brokers: Vec<i32>,
}

/// `AnalyzerState`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalyzerState {
    #[serde(default)]
    pub is_proposal_ready: bool,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub ready_goals: Vec<String>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub goal_readiness: Vec<serde_json::Value>,
}

/// `AnomalyDetectorState` (reference §3.1). Lists are unordered sets on the server.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnomalyDetectorState {
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub self_healing_enabled: Vec<String>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub self_healing_disabled: Vec<String>,
    #[serde(default)]
    pub self_healing_enabled_ratio: BTreeMap<String, serde_json::Value>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub recent_goal_violations: Vec<Anomaly>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub recent_broker_failures: Vec<Anomaly>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub recent_metric_anomalies: Vec<Anomaly>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub recent_disk_failures: Vec<Anomaly>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub recent_topic_anomalies: Vec<Anomaly>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub recent_maintenance_events: Vec<Anomaly>,
    #[serde(default)]
    pub metrics: Option<serde_json::Value>,
    #[serde(default)]
    pub ongoing_self_healing_anomaly: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub balancedness_score: Option<f64>,
}

/// One anomaly entry (JSON mode).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Anomaly {
    #[serde(default)]
    pub anomaly_id: String,
    #[serde(default)]
    pub status: String,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub detection_ms: Option<i64>,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub status_update_ms: Option<i64>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub fixable_violated_goals: Vec<String>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub unfixable_violated_goals: Vec<String>,
    #[serde(default)]
    pub failed_brokers_by_time_ms: BTreeMap<String, serde_json::Value>,
    /// Disk failures: broker id to `{logdir: failure time (ms)}`.
    #[serde(default)]
    pub failed_disks_by_time_ms: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub description: Option<String>,
}

/// `OptimizationResult` (proposals, rebalance, add/remove_broker, topic_configuration).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OptimizationResult {
    #[serde(default)]
    pub summary: Summary,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub goal_summary: Vec<GoalSummary>,
    #[serde(default)]
    pub load_before_optimization: Option<BrokerLoad>,
    #[serde(default)]
    pub load_after_optimization: Option<BrokerLoad>,
    /// Verbose only.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub proposals: Vec<Proposal>,
}

impl OptimizationResult {
    /// Nothing would move: no inter-broker, intra-broker or leader movement.
    #[must_use]
    pub fn is_noop(&self) -> bool {
        let s = &self.summary;
        s.num_replica_movements == 0
            && s.num_intra_broker_replica_movements == 0
            && s.num_leader_movements == 0
            && self.proposals.is_empty()
    }
}

/// `summary` of an OptimizationResult.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_replica_movements: u64,
    #[serde(
        rename = "dataToMoveMB",
        default,
        deserialize_with = "lenient::opt_f64"
    )]
    pub data_to_move_mb: Option<f64>,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_intra_broker_replica_movements: u64,
    #[serde(
        rename = "intraBrokerDataToMoveMB",
        default,
        deserialize_with = "lenient::opt_f64"
    )]
    pub intra_broker_data_to_move_mb: Option<f64>,
    #[serde(default, deserialize_with = "lenient::count")]
    pub num_leader_movements: u64,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub recent_windows: Option<i64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub monitored_partitions_percentage: Option<f64>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub excluded_topics: Vec<String>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub excluded_brokers_for_leadership: Vec<i32>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub excluded_brokers_for_replica_move: Vec<i32>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub on_demand_balancedness_score_before: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub on_demand_balancedness_score_after: Option<f64>,
    /// Absent in older Cruise Control versions.
    #[serde(default)]
    pub provision_status: Option<String>,
    #[serde(default)]
    pub provision_recommendation: Option<String>,
}

/// One entry of `goalSummary`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GoalSummary {
    pub goal: String,
    /// `VIOLATED`, `FIXED` or `NO-ACTION`.
    #[serde(default)]
    pub status: String,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub optimization_time_ms: Option<i64>,
}

/// One replica movement (verbose).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Proposal {
    pub topic_partition: TopicPartition,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub old_leader: Option<i64>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub old_replicas: Vec<i32>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub new_replicas: Vec<i32>,
}

/// `loadBefore/AfterOptimization` and `GET /load`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct BrokerLoad {
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub brokers: Vec<BrokerStats>,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub hosts: Vec<serde_json::Value>,
}

/// One broker's load.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct BrokerStats {
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub broker: Option<i64>,
    #[serde(default)]
    pub host: Option<String>,
    #[serde(default)]
    pub broker_state: Option<String>,
    #[serde(default)]
    pub rack: Option<String>,
    #[serde(rename = "DiskMB", default, deserialize_with = "lenient::opt_f64")]
    pub disk_mb: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub disk_pct: Option<f64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub cpu_pct: Option<f64>,
    #[serde(default, deserialize_with = "lenient::count")]
    pub replicas: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub leaders: u64,
}

/// `ProgressResult` (a 202 body).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct ProgressResult {
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub progress: Vec<OperationProgress>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OperationProgress {
    #[serde(default)]
    pub operation: String,
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub operation_progress: Vec<ProgressStep>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressStep {
    #[serde(default)]
    pub step: String,
    #[serde(default)]
    pub description: String,
    #[serde(rename = "time-in-ms", default, deserialize_with = "lenient::opt_i64")]
    pub time_in_ms: Option<i64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub completion_percentage: Option<f64>,
}

impl ProgressResult {
    /// The current (last) step, e.g. "WAITING_FOR_CLUSTER_MODEL".
    #[must_use]
    pub fn current_step(&self) -> Option<&ProgressStep> {
        self.progress.last()?.operation_progress.last()
    }
}

/// `GET /user_tasks`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct UserTasks {
    #[serde(
        rename = "userTasks",
        default,
        deserialize_with = "lenient::vec_or_null"
    )]
    pub user_tasks: Vec<UserTask>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct UserTask {
    #[serde(rename = "UserTaskId")]
    pub user_task_id: String,
    #[serde(rename = "RequestURL", default)]
    pub request_url: String,
    #[serde(rename = "ClientIdentity", default)]
    pub client_identity: String,
    /// A string on the wire.
    #[serde(rename = "StartMs", default, deserialize_with = "lenient::opt_i64")]
    pub start_ms: Option<i64>,
    #[serde(rename = "Status")]
    pub status: TaskStatus,
    /// The original response as a string (JSON text), with `fetch_completed_task=true`.
    #[serde(rename = "originalResponse", default)]
    pub original_response: Option<String>,
}

/// User task states (reference §6).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub enum TaskStatus {
    Active,
    InExecution,
    Completed,
    CompletedWithError,
    #[serde(untagged)]
    Other(String),
}

/// `GET /kafka_cluster_state`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct KafkaClusterState {
    #[serde(rename = "KafkaBrokerState", default)]
    pub broker_state: KafkaBrokerState,
    #[serde(rename = "KafkaPartitionState", default)]
    pub partition_state: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct KafkaBrokerState {
    #[serde(default)]
    pub replica_count_by_broker_id: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub leader_count_by_broker_id: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub out_of_sync_count_by_broker_id: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub offline_replica_count_by_broker_id: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub online_log_dirs_by_broker_id: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub is_controller: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub summary: Option<serde_json::Value>,
}

impl KafkaClusterState {
    /// Every broker id Cruise Control knows (KRaft controller-only nodes are not among them).
    #[must_use]
    pub fn broker_ids(&self) -> Vec<i32> {
        let b = &self.broker_state;
        let mut ids: Vec<i32> = [
            &b.replica_count_by_broker_id,
            &b.leader_count_by_broker_id,
            &b.online_log_dirs_by_broker_id,
            &b.is_controller,
        ]
        .into_iter()
        .flat_map(|m| m.keys())
        .filter_map(|k| k.parse().ok())
        .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Replicas per broker.
    #[must_use]
    pub fn replica_count(&self, broker: i32) -> u64 {
        self.broker_state
            .replica_count_by_broker_id
            .get(&broker.to_string())
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0)
    }
}

/// `POST /stop_proposal_execution`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct StopResult {
    #[serde(default)]
    pub message: String,
}

/// `POST /admin` answer (`AdminResult`); only what kafkaops reads.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AdminResult {
    /// What changed, as CC's sentences ("Inter-broker partition movement concurrency is set to 3").
    #[serde(default)]
    pub ongoing_concurrency_change_request: Option<String>,
}

/// A Cruise Control error body.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorResponse {
    #[serde(default)]
    pub error_message: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cruise_control::lenient::from_str;

    #[test]
    fn optimization_result_with_nan_missing_fields_and_object_partitions() {
        let body = r#"{"summary":{"numReplicaMovements":2,"dataToMoveMB":10,"numIntraBrokerReplicaMovements":0,
          "intraBrokerDataToMoveMB":0,"numLeaderMovements":0,"recentWindows":1,"monitoredPartitionsPercentage":100.0,
          "excludedTopics":[],"excludedBrokersForLeadership":[],"excludedBrokersForReplicaMove":[],
          "onDemandBalancednessScoreBefore":NaN,"onDemandBalancednessScoreAfter":90.5},
          "goalSummary":[{"goal":"RackAwareGoal","status":"NO-ACTION","optimizationTimeMs":3}],
          "proposals":[{"topicPartition":{"hash":1,"partition":0,"topic":"t"},"oldLeader":1,"oldReplicas":[1,2],"newReplicas":[1,4]}],
          "loadAfterOptimization":{"brokers":[{"Broker":4,"Replicas":1,"Leaders":0,"DiskMB":NaN}],"hosts":[]},"version":1}"#;
        let r: OptimizationResult = from_str(body).unwrap();
        assert_eq!(r.summary.num_replica_movements, 2);
        assert_eq!(r.summary.on_demand_balancedness_score_before, None);
        assert_eq!(r.summary.provision_status, None);
        assert_eq!(r.proposals[0].topic_partition.to_string(), "t-0");
        assert!(!r.is_noop());
        assert!(OptimizationResult::default().is_noop());
    }

    #[test]
    fn user_tasks_with_string_start_and_unknown_status() {
        let t: UserTasks = from_str(
            r#"{"userTasks":[{"UserTaskId":"u1","RequestURL":"POST /x","ClientIdentity":"1","StartMs":"15","Status":"InExecution","originalResponse":"{}"},
                            {"UserTaskId":"u2","StartMs":16,"Status":"Weird"}],"version":1}"#,
        )
        .unwrap();
        assert_eq!(t.user_tasks[0].start_ms, Some(15));
        assert_eq!(t.user_tasks[0].status, TaskStatus::InExecution);
        assert_eq!(t.user_tasks[1].status, TaskStatus::Other("Weird".into()));
    }

    #[test]
    fn cluster_state_broker_ids() {
        let s: KafkaClusterState = from_str(
            r#"{"KafkaBrokerState":{"ReplicaCountByBrokerId":{"1":3,"2":3},"LeaderCountByBrokerId":{"4":0},"IsController":{"1":false}}}"#,
        )
        .unwrap();
        assert_eq!(s.broker_ids(), vec![1, 2, 4]);
        assert_eq!(s.replica_count(1), 3);
    }
}
