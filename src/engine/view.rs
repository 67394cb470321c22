//! What the engine reads of Cruise Control and of Kafka (config entries, reassignments), as plain
//! data it owns.
//!
//! The adapters speak the wire: `cruise_control::model` holds Cruise Control's JSON shapes
//! (lenient numbers, renamed fields, versions that differ), the Kafka adapter its Admin API
//! answers. The engine decides on these views instead, so a change of a wire shape stops at
//! the adapter's conversion (`cruise_control::convert`, the Kafka adapter's observation) and
//! the engine's decisions, tests and saved state do not move with it. Only what some decision,
//! message or saved state needs is kept; the interpretations (is the executor idle, is the load
//! monitor ready, how far is an execution) live here, next to the data, and are pure.

use serde::{Deserialize, Serialize};

/// The executor state in which nothing runs.
pub const EXECUTOR_IDLE: &str = "NO_TASK_IN_PROGRESS";
/// The executor state after a stop until it is idle: a real Cruise Control stays in it for about
/// 45 s (reference section 14), and refuses a new execution meanwhile.
pub const EXECUTOR_STOPPING: &str = "STOPPING_EXECUTION";

/// What Cruise Control's executor is doing (`ExecutorState` of `GET /state`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExecutorState {
    /// E.g. `NO_TASK_IN_PROGRESS`, `INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS`; empty when
    /// the answer did not say.
    pub state: String,
    pub triggered_user_task_id: Option<String>,
    pub triggered_self_healing_task_id: Option<String>,
    pub triggered_task_reason: Option<String>,
    pub num_total_partition_movements: u64,
    pub num_pending_partition_movements: u64,
    pub num_in_progress_partition_movements: u64,
    pub num_finished_partition_movements: u64,
    pub num_total_leadership_movements: u64,
    pub num_pending_leadership_movements: u64,
    pub num_finished_leadership_movements: u64,
    /// MB moved so far.
    pub finished_data_movement: Option<f64>,
    /// MB to move in total.
    pub total_data_to_move: Option<f64>,
}

impl ExecutorState {
    /// Only Cruise Control's own word says nothing executes. Its `/state` always carries
    /// `ExecutorState.state` when the executor substate is asked for (`ExecutorState#
    /// getJsonStructure` puts the non-null enum first), so an empty or missing state comes from
    /// something else (a proxy, another server, a truncated answer) and is not taken as idle.
    #[must_use]
    pub fn is_idle(&self) -> bool {
        self.state == EXECUTOR_IDLE
    }

    /// A stopped execution is winding down (`STOPPING_EXECUTION`): idle soon, busy until then.
    #[must_use]
    pub fn is_stopping(&self) -> bool {
        self.state == EXECUTOR_STOPPING
    }

    /// The answer did not say what the executor does (missing or empty `state`).
    #[must_use]
    pub fn is_unknown(&self) -> bool {
        self.state.trim().is_empty()
    }

    /// The user task (or self-healing task) that started the running execution.
    #[must_use]
    pub fn running_task(&self) -> Option<&str> {
        running_task_of(
            self.triggered_user_task_id.as_deref(),
            self.triggered_self_healing_task_id.as_deref(),
        )
    }

    /// A one-line description of what is running, for errors and status.
    #[must_use]
    pub fn describe(&self) -> String {
        if self.is_idle() {
            return "nothing is executing".into();
        }
        if self.is_unknown() {
            return "the executor's state is unknown (Cruise Control's answer did not say it)"
                .into();
        }
        let mut s = self.state.clone();
        if let Some(t) = self.running_task() {
            s.push_str(&format!(" (task {t})"));
        }
        if let Some(r) = self
            .triggered_task_reason
            .as_deref()
            .filter(|r| !r.is_empty())
        {
            s.push_str(&format!(", reason: {r}"));
        }
        s
    }

    /// Progress of the running execution, for a bar.
    #[must_use]
    pub fn progress(&self) -> ExecutionProgress {
        ExecutionProgress {
            state: self.state.clone(),
            partitions_total: self.num_total_partition_movements,
            partitions_finished: self.num_finished_partition_movements,
            partitions_in_progress: self.num_in_progress_partition_movements,
            partitions_pending: self.num_pending_partition_movements,
            leaders_total: self.num_total_leadership_movements,
            leaders_finished: self.num_finished_leadership_movements,
            data_total_mb: self.total_data_to_move.unwrap_or(0.0),
            data_finished_mb: self.finished_data_movement.unwrap_or(0.0),
        }
    }
}

/// The task that started an execution: the user task, else the self-healing task (empty ids
/// are none).
#[must_use]
pub fn running_task_of<'a>(
    user: Option<&'a str>,
    self_healing: Option<&'a str>,
) -> Option<&'a str> {
    [user, self_healing]
        .into_iter()
        .flatten()
        .find(|t| !t.is_empty())
}

/// Execution progress as kafkaops reports it (stable JSON shape; saved with a flow).
#[derive(schemars::JsonSchema, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ExecutionProgress {
    pub state: String,
    pub partitions_total: u64,
    pub partitions_finished: u64,
    pub partitions_in_progress: u64,
    pub partitions_pending: u64,
    pub leaders_total: u64,
    pub leaders_finished: u64,
    pub data_total_mb: f64,
    pub data_finished_mb: f64,
}

impl ExecutionProgress {
    /// Folds a newer observation into this one, keeping the highest counters seen (pure).
    ///
    /// A real Cruise Control drops the partition counters once it moves leaders and reports only
    /// `state` when idle, and its counters advance in jumps (reference section 13), so the last
    /// observation alone would say "0/0" after replicas moved. The leader phase starts only after
    /// the replica phase ended, so seeing it means every partition movement finished.
    pub fn observe(&mut self, newer: &ExecutionProgress) {
        let leader_phase = newer.state == "LEADER_MOVEMENT_TASK_IN_PROGRESS";
        if newer.partitions_total > 0 {
            self.partitions_total = self.partitions_total.max(newer.partitions_total);
            self.partitions_finished = self.partitions_finished.max(newer.partitions_finished);
            self.partitions_in_progress = newer.partitions_in_progress;
            self.partitions_pending = newer.partitions_pending;
        } else if leader_phase {
            self.partitions_finished = self.partitions_total;
            self.partitions_in_progress = 0;
            self.partitions_pending = 0;
        }
        if newer.leaders_total > 0 {
            self.leaders_total = self.leaders_total.max(newer.leaders_total);
            self.leaders_finished = self.leaders_finished.max(newer.leaders_finished);
        }
        self.data_total_mb = self.data_total_mb.max(newer.data_total_mb);
        self.data_finished_mb = self.data_finished_mb.max(newer.data_finished_mb);
        self.state.clone_from(&newer.state);
    }

    /// MB/s and the seconds left, from the MB moved over `elapsed_secs` (pure).
    #[must_use]
    pub fn rate_and_eta(&self, moved_since_start_mb: f64, elapsed_secs: f64) -> (f64, Option<f64>) {
        if elapsed_secs <= 0.0 || moved_since_start_mb <= 0.0 {
            return (0.0, None);
        }
        let rate = moved_since_start_mb / elapsed_secs;
        let left = (self.data_total_mb - self.data_finished_mb).max(0.0);
        (rate, Some(left / rate))
    }
}

/// Cruise Control's load monitor (`MonitorState` of `GET /state`): is the load model built yet?
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MonitorState {
    pub state: String,
    pub training_pct: Option<f64>,
    pub bootstrap_progress_pct: Option<f64>,
    pub loading_progress_pct: Option<f64>,
    pub num_monitored_windows: Option<i64>,
    pub num_valid_partitions: Option<i64>,
    pub num_total_partitions: Option<i64>,
    pub monitoring_coverage_pct: Option<f64>,
    /// The oldest monitored window's start (epoch ms), when the server listed the windows
    /// (verbose state only).
    pub sampling_since_ms: Option<i64>,
}

/// Whether goal-based requests can be answered now.
#[derive(Debug, Clone, PartialEq)]
pub enum Readiness {
    Ready,
    NotReady {
        /// What the monitor is doing, for the user.
        reason: String,
        /// Oldest monitored window start (epoch ms), when the server listed them.
        sampling_since_ms: Option<i64>,
    },
}

impl MonitorState {
    /// Pure readiness check: the monitor must be running (or sampling/paused with a
    /// model) and have at least one monitored window and valid partition.
    #[must_use]
    pub fn readiness(&self) -> Readiness {
        let since = self.sampling_since_ms;
        let windows = self.num_monitored_windows.unwrap_or(0);
        let valid = self.num_valid_partitions.unwrap_or(0);
        let busy_state = matches!(
            self.state.as_str(),
            "NOT_STARTED" | "LOADING" | "BOOTSTRAPPING" | "TRAINING"
        );
        if busy_state {
            let pct = match self.state.as_str() {
                "LOADING" => self.loading_progress_pct,
                "BOOTSTRAPPING" => self.bootstrap_progress_pct,
                "TRAINING" => self.training_pct,
                _ => None,
            };
            let pct = pct.map(|p| format!(" ({p:.0}%)")).unwrap_or_default();
            return Readiness::NotReady {
                reason: format!("load monitor is {}{pct}", self.state),
                sampling_since_ms: since,
            };
        }
        if windows == 0 || valid == 0 {
            return Readiness::NotReady {
                reason: format!(
                    "load monitor has {windows} completed window(s) and {valid} valid partition(s)"
                ),
                sampling_since_ms: since,
            };
        }
        Readiness::Ready
    }
}

/// One of Cruise Control's user tasks (`GET /user_tasks`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserTask {
    pub user_task_id: String,
    /// E.g. `POST /kafkacruisecontrol/add_broker?brokerid=4&dryrun=false`.
    pub request_url: String,
    pub client_identity: String,
    /// Epoch ms (Cruise Control's clock).
    pub start_ms: Option<i64>,
    pub status: TaskStatus,
    /// The original response as JSON text, when it was asked for.
    pub original_response: Option<String>,
}

/// User task states (reference §6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TaskStatus {
    Active,
    InExecution,
    Completed,
    CompletedWithError,
    #[serde(untagged)]
    Other(String),
}

impl TaskStatus {
    /// Done computing: the result (or the execution's start) is known.
    #[must_use]
    pub fn is_past_computation(&self) -> bool {
        !matches!(self, TaskStatus::Active | TaskStatus::Other(_))
    }
}

/// Where a config value comes from (DescribeConfigs `ConfigSource`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConfigSource {
    DynamicTopic,
    DynamicBroker,
    DynamicDefaultBroker,
    StaticBroker,
    Default,
    Unknown,
}

/// One config entry of a broker or topic, as DescribeConfigs lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigEntry {
    pub name: String,
    /// `None` for sensitive values and unset keys.
    pub value: Option<String>,
    /// `false` means the broker can change it without a restart (DescribeConfigs BROKER).
    pub read_only: bool,
    pub source: ConfigSource,
    pub sensitive: bool,
}

/// A partition reassignment in flight (ListPartitionReassignments).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reassignment {
    pub topic: String,
    pub partition: i32,
    pub replicas: Vec<i32>,
    pub adding: Vec<i32>,
    pub removing: Vec<i32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monitor_readiness() {
        let m = MonitorState {
            state: "RUNNING".into(),
            num_monitored_windows: Some(0),
            num_valid_partitions: Some(0),
            sampling_since_ms: Some(1_700_000_000_000),
            ..MonitorState::default()
        };
        match m.readiness() {
            Readiness::NotReady {
                sampling_since_ms, ..
            } => assert_eq!(sampling_since_ms, Some(1_700_000_000_000)),
            Readiness::Ready => panic!("not ready expected"),
        }
        let m = MonitorState {
            state: "LOADING".into(),
            loading_progress_pct: Some(40.0),
            ..MonitorState::default()
        };
        assert!(
            matches!(m.readiness(), Readiness::NotReady { reason, .. } if reason.contains("LOADING (40%)"))
        );
        let m = MonitorState {
            state: "RUNNING".into(),
            num_monitored_windows: Some(3),
            num_valid_partitions: Some(12),
            ..MonitorState::default()
        };
        assert_eq!(m.readiness(), Readiness::Ready);
    }

    #[test]
    fn an_executor_state_without_its_state_is_not_idle() {
        for state in ["", "  "] {
            let e = ExecutorState {
                state: state.into(),
                ..ExecutorState::default()
            };
            assert!(!e.is_idle(), "{state:?}");
            assert!(e.is_unknown(), "{state:?}");
            assert!(e.describe().contains("unknown"), "{state:?}");
        }
        assert!(!ExecutorState::default().is_idle());
        let idle = ExecutorState {
            state: EXECUTOR_IDLE.into(),
            ..ExecutorState::default()
        };
        assert!(idle.is_idle() && !idle.is_unknown());
    }

    #[test]
    fn executor_running_task_and_progress() {
        let e = ExecutorState {
            state: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into(),
            triggered_user_task_id: Some(String::new()),
            triggered_self_healing_task_id: Some("sh".into()),
            num_total_partition_movements: 10,
            num_finished_partition_movements: 4,
            finished_data_movement: Some(40.0),
            total_data_to_move: Some(100.0),
            ..ExecutorState::default()
        };
        assert_eq!(e.running_task(), Some("sh"));
        let p = e.progress();
        let (rate, eta) = p.rate_and_eta(20.0, 10.0);
        assert!((rate - 2.0).abs() < 1e-9);
        assert!((eta.unwrap() - 30.0).abs() < 1e-9);
        assert_eq!(p.rate_and_eta(0.0, 10.0), (0.0, None));
    }

    #[test]
    fn task_status_computation() {
        assert!(!TaskStatus::Other("Weird".into()).is_past_computation());
        assert!(TaskStatus::Completed.is_past_computation());
    }
}
