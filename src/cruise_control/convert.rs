//! From Cruise Control's wire shapes ([`super::model`]) to the engine's views of them.
//!
//! The engine decides on its own plain data (`crate::engine::view`, the anomaly records, the
//! drift plan); this is the one place that reads the wire's shapes for it: numbers the server
//! sent as strings or `NaN` are already parsed by the model, the rest is picked and renamed
//! here (the monitored windows become the oldest window's start, the anomaly lists become
//! content-keyed records). Pure and unit-tested on recorded answers.

use std::collections::BTreeMap;

use super::model;
use crate::engine::anomalies::{AnomalyRecord, AnomalyType};
use crate::engine::drift::{Movement, Plan};
use crate::engine::view::{ExecutorState, MonitorState, TaskStatus, UserTask};

impl From<&model::ExecutorState> for ExecutorState {
    fn from(e: &model::ExecutorState) -> Self {
        ExecutorState {
            state: e.state.clone(),
            triggered_user_task_id: e.triggered_user_task_id.clone(),
            triggered_self_healing_task_id: e.triggered_self_healing_task_id.clone(),
            triggered_task_reason: e.triggered_task_reason.clone(),
            num_total_partition_movements: e.num_total_partition_movements,
            num_pending_partition_movements: e.num_pending_partition_movements,
            num_in_progress_partition_movements: e.num_in_progress_partition_movements,
            num_finished_partition_movements: e.num_finished_partition_movements,
            num_total_leadership_movements: e.num_total_leadership_movements,
            num_pending_leadership_movements: e.num_pending_leadership_movements,
            num_finished_leadership_movements: e.num_finished_leadership_movements,
            finished_data_movement: e.finished_data_movement,
            total_data_to_move: e.total_data_to_move,
        }
    }
}

impl From<&model::MonitorState> for MonitorState {
    fn from(m: &model::MonitorState) -> Self {
        MonitorState {
            state: m.state.clone(),
            training_pct: m.training_pct,
            bootstrap_progress_pct: m.bootstrap_progress_pct,
            loading_progress_pct: m.loading_progress_pct,
            num_monitored_windows: m.num_monitored_windows,
            num_valid_partitions: m.num_valid_partitions,
            num_total_partitions: m.num_total_partitions,
            monitoring_coverage_pct: m.monitoring_coverage_pct,
            // The oldest window start in `monitoredWindows` (verbose state), if any.
            sampling_since_ms: m
                .monitored_windows
                .as_ref()
                .and_then(|w| w.keys().filter_map(|k| k.parse::<i64>().ok()).min()),
        }
    }
}

impl From<&model::TaskStatus> for TaskStatus {
    fn from(s: &model::TaskStatus) -> Self {
        match s {
            model::TaskStatus::Active => TaskStatus::Active,
            model::TaskStatus::InExecution => TaskStatus::InExecution,
            model::TaskStatus::Completed => TaskStatus::Completed,
            model::TaskStatus::CompletedWithError => TaskStatus::CompletedWithError,
            model::TaskStatus::Other(o) => TaskStatus::Other(o.clone()),
        }
    }
}

impl From<&model::UserTask> for UserTask {
    fn from(t: &model::UserTask) -> Self {
        UserTask {
            user_task_id: t.user_task_id.clone(),
            request_url: t.request_url.clone(),
            client_identity: t.client_identity.clone(),
            start_ms: t.start_ms,
            status: TaskStatus::from(&t.status),
            original_response: t.original_response.clone(),
        }
    }
}

impl From<&model::OptimizationResult> for Plan {
    /// What a proposal would do, as the drift comparison counts it.
    fn from(r: &model::OptimizationResult) -> Plan {
        let mb = |v: Option<f64>| v.filter(|d| d.is_finite()).unwrap_or(0.0);
        Plan {
            // Intra-broker (between disks) movements count too: `remove-disks` and
            // `--rebalance-disk` move only those.
            replica_movements: r.summary.num_replica_movements
                + r.summary.num_intra_broker_replica_movements,
            leader_movements: r.summary.num_leader_movements,
            data_to_move_mb: mb(r.summary.data_to_move_mb)
                + mb(r.summary.intra_broker_data_to_move_mb),
            movements: r
                .proposals
                .iter()
                .map(|p| Movement {
                    topic: p.topic_partition.topic.clone(),
                    partition: p.topic_partition.partition,
                    old_replicas: p.old_replicas.clone(),
                    new_replicas: p.new_replicas.clone(),
                })
                .collect(),
        }
    }
}

impl model::CruiseControlState {
    /// The executor as the engine sees it (a state without it is an unknown executor, never
    /// an idle one).
    #[must_use]
    pub fn executor_view(&self) -> ExecutorState {
        self.executor
            .as_ref()
            .map(ExecutorState::from)
            .unwrap_or_default()
    }

    /// The load monitor as the engine sees it, when the answer had it.
    #[must_use]
    pub fn monitor_view(&self) -> Option<MonitorState> {
        self.monitor.as_ref().map(MonitorState::from)
    }
}

impl model::ExecutorState {
    /// Whether nothing executes (the engine's rule, [`ExecutorState::is_idle`]).
    #[must_use]
    pub fn is_idle(&self) -> bool {
        ExecutorState::from(self).is_idle()
    }

    /// The task that started the running execution ([`ExecutorState::running_task`]).
    #[must_use]
    pub fn running_task(&self) -> Option<&str> {
        crate::engine::view::running_task_of(
            self.triggered_user_task_id.as_deref(),
            self.triggered_self_healing_task_id.as_deref(),
        )
    }

    /// The progress of the running execution ([`ExecutorState::progress`]).
    #[must_use]
    pub fn progress(&self) -> crate::engine::view::ExecutionProgress {
        ExecutorState::from(self).progress()
    }
}

/// One anomaly entry of Cruise Control, of type `kind`, as a record.
#[must_use]
pub fn anomaly_record(kind: AnomalyType, a: &model::Anomaly) -> AnomalyRecord {
    let mut failed_brokers = BTreeMap::new();
    for (b, t) in &a.failed_brokers_by_time_ms {
        if let Ok(b) = b.parse::<i32>() {
            failed_brokers.insert(b, t.as_i64().unwrap_or(0));
        }
    }
    let mut failed_disks = BTreeMap::new();
    for (b, dirs) in &a.failed_disks_by_time_ms {
        if let Some(dirs) = dirs.as_object() {
            for (dir, t) in dirs {
                failed_disks.insert(format!("{b}:{dir}"), t.as_i64().unwrap_or(0));
            }
        }
    }
    let mut fixable_goals = a.fixable_violated_goals.clone();
    let mut unfixable_goals = a.unfixable_violated_goals.clone();
    fixable_goals.sort();
    fixable_goals.dedup();
    unfixable_goals.sort();
    unfixable_goals.dedup();
    AnomalyRecord {
        kind,
        anomaly_id: a.anomaly_id.clone(),
        status: a.status.clone(),
        detected_at_ms: a.detection_ms,
        status_updated_at_ms: a.status_update_ms,
        fixable_goals,
        unfixable_goals,
        failed_brokers,
        failed_disks,
        description: a.description.clone().filter(|d| !d.is_empty()),
    }
}

/// Every anomaly entry of an anomaly detector state, of all types.
#[must_use]
pub fn anomaly_records(state: &model::AnomalyDetectorState) -> Vec<AnomalyRecord> {
    let lists: [(AnomalyType, &Vec<model::Anomaly>); 6] = [
        (AnomalyType::GoalViolation, &state.recent_goal_violations),
        (AnomalyType::BrokerFailure, &state.recent_broker_failures),
        (AnomalyType::DiskFailure, &state.recent_disk_failures),
        (AnomalyType::MetricAnomaly, &state.recent_metric_anomalies),
        (AnomalyType::TopicAnomaly, &state.recent_topic_anomalies),
        (
            AnomalyType::MaintenanceEvent,
            &state.recent_maintenance_events,
        ),
    ];
    lists
        .iter()
        .flat_map(|(kind, list)| list.iter().map(|a| anomaly_record(*kind, a)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cruise_control::lenient::from_str;
    use crate::engine::view::Readiness;

    #[test]
    fn monitor_readiness() {
        let m: model::MonitorState = from_str(
            r#"{"state":"RUNNING","numMonitoredWindows":0,"numValidPartitions":0,
                "monitoredWindows":{"1700000060000":0.5,"1700000000000":1.0}}"#,
        )
        .unwrap();
        match MonitorState::from(&m).readiness() {
            Readiness::NotReady {
                sampling_since_ms, ..
            } => assert_eq!(sampling_since_ms, Some(1_700_000_000_000)),
            Readiness::Ready => panic!("not ready expected"),
        }
        let m: model::MonitorState =
            from_str(r#"{"state":"LOADING","loadingProgressPct":40.0}"#).unwrap();
        assert!(
            matches!(MonitorState::from(&m).readiness(), Readiness::NotReady { reason, .. } if reason.contains("LOADING (40%)"))
        );
        let m: model::MonitorState =
            from_str(r#"{"state":"RUNNING","numMonitoredWindows":3,"numValidPartitions":12}"#)
                .unwrap();
        assert_eq!(MonitorState::from(&m).readiness(), Readiness::Ready);
    }

    #[test]
    fn user_tasks_with_string_start_and_unknown_status() {
        let t: model::UserTasks = from_str(
            r#"{"userTasks":[{"UserTaskId":"u1","RequestURL":"POST /x","ClientIdentity":"1","StartMs":"15","Status":"InExecution","originalResponse":"{}"},
                            {"UserTaskId":"u2","StartMs":16,"Status":"Weird"}],"version":1}"#,
        )
        .unwrap();
        let t: Vec<UserTask> = t.user_tasks.iter().map(UserTask::from).collect();
        assert_eq!(t[0].start_ms, Some(15));
        assert_eq!(t[0].status, TaskStatus::InExecution);
        assert_eq!(t[1].status, TaskStatus::Other("Weird".into()));
        assert!(!t[1].status.is_past_computation());
    }

    #[test]
    fn an_executor_state_without_its_state_is_not_idle() {
        for body in [r"{}", r#"{"state":""}"#, r#"{"state":"  "}"#] {
            let e: model::ExecutorState = from_str(body).unwrap();
            let e = ExecutorState::from(&e);
            assert!(!e.is_idle(), "{body}");
            assert!(e.is_unknown(), "{body}");
            assert!(e.describe().contains("unknown"), "{body}");
        }
        // A /state answer without the executor at all, as the callers default it.
        let s: model::CruiseControlState =
            from_str(r#"{"MonitorState":{"state":"RUNNING"}}"#).unwrap();
        assert!(!s.executor_view().is_idle());
        // A null state is no answer at all (an error, never idle).
        assert!(from_str::<model::ExecutorState>(r#"{"state":null}"#).is_err());
        let idle: model::ExecutorState = from_str(r#"{"state":"NO_TASK_IN_PROGRESS"}"#).unwrap();
        let idle = ExecutorState::from(&idle);
        assert!(idle.is_idle() && !idle.is_unknown());
    }

    #[test]
    fn executor_progress() {
        let e: model::ExecutorState = from_str(
            r#"{"state":"INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS","triggeredUserTaskId":"",
                "triggeredSelfHealingTaskId":"sh","numTotalPartitionMovements":10,"numFinishedPartitionMovements":4,
                "finishedDataMovement":40,"totalDataToMove":100}"#,
        )
        .unwrap();
        let e = ExecutorState::from(&e);
        assert_eq!(e.running_task(), Some("sh"));
        let p = e.progress();
        let (rate, eta) = p.rate_and_eta(20.0, 10.0);
        assert!((rate - 2.0).abs() < 1e-9);
        assert!((eta.unwrap() - 30.0).abs() < 1e-9);
        assert_eq!(p.rate_and_eta(0.0, 10.0), (0.0, None));
    }

    #[test]
    fn records_of_every_type_and_their_keys() {
        let s: model::AnomalyDetectorState = from_str(
            r#"{"recentGoalViolations":[{"anomalyId":"g","status":"IGNORED","detectionMs":1,
                 "fixableViolatedGoals":["B","A"],"unfixableViolatedGoals":[]}],
                "recentBrokerFailures":[{"anomalyId":"b","status":"CHECK_WITH_DELAY",
                 "failedBrokersByTimeMs":{"3":100,"1":90}}],
                "recentDiskFailures":[{"anomalyId":"d","status":"DETECTED",
                 "failedDisksByTimeMs":{"2":{"/data/1":5}}}],
                "recentMetricAnomalies":[{"anomalyId":"m","status":"DETECTED","description":"flush time"}],
                "recentTopicAnomalies":[{"anomalyId":"t","status":"COMPLETENESS_NOT_READY","description":"rf"}],
                "recentMaintenanceEvents":[{"anomalyId":"e","status":"DETECTED","description":"rebalance"}]}"#,
        )
        .unwrap();
        let r = anomaly_records(&s);
        assert_eq!(r.len(), 6);
        let keys: Vec<String> = r.iter().map(|r| r.key().to_string()).collect();
        assert_eq!(
            keys,
            [
                "goal-violation [A,B|]",
                "broker-failure [1,3]",
                "disk-failure [2:/data/1]",
                "metric-anomaly [flush time]",
                "topic-anomaly [rf]",
                "maintenance-event [rebalance]"
            ]
        );
        assert_eq!(r[1].failed_brokers.get(&3), Some(&100));
    }
}
