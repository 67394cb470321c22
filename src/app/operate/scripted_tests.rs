//! The real [`Operator`] over scripted ports (a scripted Cruise Control, Kafka, store,
//! leadership and roll): a broker that joins empty is filled by one `add_broker` execution,
//! followed to its end, and the loop is Idle again. The seams the loop is generic over are the
//! ones a test double can drive.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::ports::{
    ClusterFacts, CruiseControlPort, KafkaPort, LogRecorder, RollPort, RollStep, WishSeen,
};
use super::{Ended, OperateSpec, Operator};
use crate::app::operate::policy;
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::{RebalanceKind, RebalanceRequest, TopicConfigurationRequest};
use crate::cruise_control::retry::RetryPolicy;
use crate::cruise_control::{Answer, CcError, CruiseControlApi, Observer};
use crate::engine::operate::{CcView, KafkaView, OperateState};
use crate::engine::rebalance::State;
use crate::engine::roll::run::RollRun;
use crate::engine::view::{ExecutorState, MonitorState, TaskStatus};
use crate::platform::kube::LeaseGuard;
use crate::state::{Leadership, Store, StoreError};

/// Brokers 1-3 hold 6 replicas each; broker 4 joined empty. One execution at a time.
#[derive(Default)]
struct World {
    /// Execution requests: (endpoint, brokers).
    executions: Vec<(String, Vec<i32>)>,
    /// The running execution's id and the looks left until it completes.
    running: Option<(String, u32)>,
    done: BTreeSet<String>,
    filled: bool,
}

#[derive(Clone, Default)]
struct Scripted(Arc<Mutex<World>>);

impl Scripted {
    fn world(&self) -> std::sync::MutexGuard<'_, World> {
        self.0.lock().unwrap()
    }

    /// The executor; a look moves the running execution on (it completes after 2 looks).
    fn executor(&self) -> ExecutorState {
        let mut w = self.world();
        let Some((id, left)) = w.running.clone() else {
            return ExecutorState {
                state: "NO_TASK_IN_PROGRESS".into(),
                ..ExecutorState::default()
            };
        };
        if left == 0 {
            w.running = None;
            w.done.insert(id);
            w.filled = true;
            return ExecutorState {
                state: "NO_TASK_IN_PROGRESS".into(),
                ..ExecutorState::default()
            };
        }
        w.running = Some((id.clone(), left - 1));
        ExecutorState {
            state: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into(),
            triggered_user_task_id: Some(id),
            num_total_partition_movements: 6,
            ..ExecutorState::default()
        }
    }
}

impl CruiseControlApi for Scripted {
    fn policy(&self, deadline: Instant) -> RetryPolicy {
        RetryPolicy::until(deadline)
    }

    async fn readiness(
        &self,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<(MonitorState, ExecutorState), CcError> {
        Ok((MonitorState::default(), self.executor()))
    }

    async fn executor(
        &self,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<ExecutorState, CcError> {
        Ok(Scripted::executor(self))
    }

    async fn task_status(
        &self,
        task_id: &str,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<TaskStatus, CcError> {
        let w = self.world();
        if w.done.contains(task_id) {
            Ok(TaskStatus::Completed)
        } else if w.running.as_ref().is_some_and(|(id, _)| id == task_id) {
            Ok(TaskStatus::InExecution)
        } else {
            Err(CcError::TaskLost {
                task_id: task_id.into(),
            })
        }
    }

    async fn stop_execution(
        &self,
        _reason: &str,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<(), CcError> {
        Ok(())
    }

    async fn rebalance(
        &self,
        req: &RebalanceRequest,
        _policy: &RetryPolicy,
        _obs: &dyn Observer,
    ) -> Result<Answer<OptimizationResult>, CcError> {
        let mut w = self.world();
        let mut value = OptimizationResult::default();
        if !w.filled {
            value.summary.num_replica_movements = 6;
        }
        if req.execution.dryrun {
            return Ok(Answer {
                value,
                task_id: Some("dry-run".into()),
            });
        }
        let brokers = match &req.kind {
            RebalanceKind::AddBrokers(b) => b.clone(),
            other => panic!("only add_broker is expected here, not {other:?}"),
        };
        let id = format!("task-{}", w.executions.len() + 1);
        w.executions.push(("add_broker".into(), brokers));
        w.running = Some((id.clone(), 2));
        Ok(Answer {
            value,
            task_id: Some(id),
        })
    }

    async fn topic_configuration(
        &self,
        _req: &TopicConfigurationRequest,
        _policy: &RetryPolicy,
        _obs: &dyn Observer,
    ) -> Result<Answer<OptimizationResult>, CcError> {
        panic!("no replication factor changes here")
    }
}

impl CruiseControlPort for Scripted {
    async fn observe(&self, user_tasks: bool, _timeout: Duration) -> Result<CcView, String> {
        Ok(CcView {
            executor: Scripted::executor(self),
            anomalies: Vec::new(),
            user_tasks: user_tasks.then(Vec::new),
        })
    }
}

impl KafkaPort for Scripted {
    async fn observe(&self) -> Result<KafkaView, String> {
        let four = if self.world().filled { 4 } else { 0 };
        Ok(KafkaView {
            brokers: [(1, 6), (2, 6), (3, 6), (4, four)].into_iter().collect(),
            reassignments: Vec::new(),
            topics: BTreeMap::new(),
            racks: BTreeSet::new(),
            held: BTreeMap::new(),
        })
    }

    async fn cluster_facts(&self) -> Result<ClusterFacts, String> {
        Ok(ClusterFacts {
            brokers: (1..=4).collect(),
            topics: BTreeSet::new(),
        })
    }
}

/// No node needs a roll.
struct NoRoll;

impl RollPort for NoRoll {
    type Session = ();

    async fn wish(&self, _rolled: &BTreeMap<i32, String>) -> Result<WishSeen, String> {
        Ok(WishSeen::default())
    }

    fn can_restart(&self) -> bool {
        false
    }

    fn follow_policy(&mut self, _desired: &BTreeMap<String, String>, _max_batch_size: usize) {}

    fn config_hash(&self) -> String {
        String::new()
    }

    async fn lease_holder(&self) -> Option<Result<Option<String>, String>> {
        None
    }

    async fn take_lease(&self) -> Option<Result<LeaseGuard, String>> {
        None
    }

    async fn start(
        &self,
        _saved: Option<&RollRun>,
        _rolled: &BTreeMap<i32, String>,
    ) -> Result<((), BTreeSet<i32>), String> {
        panic!("no roll here")
    }

    async fn step<T: Store<RollRun> + Send>(&self, _session: &mut (), _store: &mut T) -> RollStep {
        panic!("no roll here")
    }

    fn end(&self, _session: ()) {}
}

/// The saved document, in memory.
#[derive(Clone, Default)]
struct Memory(Arc<Mutex<Option<String>>>);

impl Store<str> for Memory {
    async fn load(&self) -> Result<Option<String>, StoreError> {
        Ok(self.0.lock().unwrap().clone())
    }

    async fn save(&self, doc: &str) -> Result<(), StoreError> {
        *self.0.lock().unwrap() = Some(doc.to_string());
        Ok(())
    }
}

struct Leader;

impl Leadership for Leader {
    async fn acquire(&self) -> Result<(), StoreError> {
        Ok(())
    }
    fn is_leader(&self) -> bool {
        true
    }
    async fn release(&self) {}
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broker_that_joined_empty_is_filled_once_through_scripted_ports() {
    let dir = tempfile::tempdir().unwrap();
    let policy_path = dir.path().join("policy.yaml");
    std::fs::write(
        &policy_path,
        "autoRebalance:\n  - mode: add-brokers\n    template: { name: add }\nscaleUpGracePeriod: 0s\ntemplates:\n  add: {}\n",
    )
    .unwrap();
    let scripted = Scripted::default();
    let store = Memory::default();
    let facts = KafkaPort::cluster_facts(&scripted).await.unwrap();
    let spec = OperateSpec {
        policy: policy_path.clone(),
        resync: Duration::from_millis(50),
        dry_run: false,
        once: false,
        listen: "127.0.0.1:0".parse().unwrap(),
        action_timeout: Duration::from_secs(5),
    };
    let op = Operator::new(
        scripted.clone(),
        scripted.clone(),
        (store.clone(), Leader, LogRecorder),
        policy::PolicySource::load(&policy_path, Duration::ZERO, Some(&facts))
            .await
            .unwrap(),
        spec,
        NoRoll,
    );
    // Stops once the filled broker was seen and the saved state is Idle with nothing running.
    let idle_again = {
        let (scripted, store) = (scripted.clone(), store.clone());
        async move {
            loop {
                tokio::time::sleep(Duration::from_millis(20)).await;
                let saved = store.0.lock().unwrap().clone();
                let state: Option<OperateState> = saved.map(|d| serde_json::from_str(&d).unwrap());
                if scripted.world().filled
                    && state
                        .is_some_and(|s| s.rebalancer.state() == State::Idle && s.mover.is_none())
                {
                    return;
                }
            }
        }
    };
    let ended = tokio::time::timeout(Duration::from_secs(60), op.run(idle_again))
        .await
        .expect("the loop fills the broker and is idle again")
        .expect("the loop does not fail");
    assert_eq!(ended, Ended::Stopped);
    assert_eq!(
        scripted.world().executions,
        [("add_broker".to_string(), vec![4])],
        "one add_broker execution for broker 4"
    );
}

/// `operate --once --dry-run`: one loop that binds no metrics port (the one asked for is taken
/// here, as by a controller already running), sends nothing, saves nothing, and keeps the plan
/// of every action for the caller to print (issue #26).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_shot_dry_run_binds_no_port_and_keeps_its_plan() {
    let dir = tempfile::tempdir().unwrap();
    let policy_path = dir.path().join("policy.yaml");
    std::fs::write(
        &policy_path,
        "autoRebalance:\n  - mode: add-brokers\n    template: { name: add }\nscaleUpGracePeriod: 0s\ntemplates:\n  add: {}\n",
    )
    .unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let scripted = Scripted::default();
    let store = Memory::default();
    let facts = KafkaPort::cluster_facts(&scripted).await.unwrap();
    let spec = OperateSpec {
        policy: policy_path.clone(),
        resync: Duration::from_millis(50),
        dry_run: true,
        once: true,
        listen: taken.local_addr().unwrap(),
        action_timeout: Duration::from_secs(5),
    };
    let op = Operator::new(
        scripted.clone(),
        scripted.clone(),
        (store.clone(), Leader, LogRecorder),
        policy::PolicySource::load(&policy_path, Duration::ZERO, Some(&facts))
            .await
            .unwrap(),
        spec,
        NoRoll,
    );
    let report = op.dry_run_report.clone();
    let ended = tokio::time::timeout(Duration::from_secs(60), op.run(std::future::pending()))
        .await
        .expect("one loop ends")
        .expect("a one-shot run does not bind the metrics port");
    assert_eq!(ended, Ended::Stopped);
    assert!(
        scripted.world().executions.is_empty(),
        "a dry run sends nothing"
    );
    assert!(store.0.lock().unwrap().is_none(), "a dry run saves nothing");
    let report = report.lock().unwrap().clone().expect("the plan is kept");
    let actions: Vec<(&str, &str)> = report
        .actions
        .iter()
        .map(|a| (a.kind.as_str(), a.target.as_str()))
        .collect();
    assert_eq!(actions, [("rebalance-add-brokers", "brokers 4")]);
}

/// Kafka with one reassignment in flight (orders-0 adding broker 4), sampled each read: the new
/// replica's log grows by 1 KiB a read when `grows`, else stays at 1 KiB and never joins the
/// ISR; `done` ends the reassignment.
#[derive(Clone, Default)]
struct Moving {
    grows: bool,
    reads: Arc<Mutex<i64>>,
    done: Arc<std::sync::atomic::AtomicBool>,
}

impl KafkaPort for Moving {
    async fn observe(&self) -> Result<KafkaView, String> {
        let moving = !self.done.load(std::sync::atomic::Ordering::SeqCst);
        Ok(KafkaView {
            brokers: [(1, 6), (2, 6), (3, 6), (4, 1)].into_iter().collect(),
            reassignments: moving
                .then(|| crate::engine::view::Reassignment {
                    topic: "orders".into(),
                    partition: 0,
                    replicas: vec![1, 2, 4],
                    adding: vec![4],
                    removing: vec![3],
                })
                .into_iter()
                .collect(),
            topics: BTreeMap::new(),
            racks: BTreeSet::new(),
            held: BTreeMap::new(),
        })
    }

    async fn cluster_facts(&self) -> Result<ClusterFacts, String> {
        Ok(ClusterFacts {
            brokers: (1..=4).collect(),
            topics: ["orders".to_string()].into_iter().collect(),
        })
    }

    async fn read(&self) -> super::ports::KafkaRead {
        use crate::engine::health::{
            CruiseControlFacts, HealthFacts, QuorumFacts, ReassignmentProgress,
        };
        let view = KafkaPort::observe(self).await;
        let reassignments = view.as_ref().unwrap().reassignments.clone();
        let reads = {
            let mut n = self.reads.lock().unwrap();
            *n += 1;
            *n
        };
        let size = if self.grows { 1024 * reads } else { 1024 };
        let progress = reassignments
            .iter()
            .map(|r| ReassignmentProgress {
                topic: r.topic.clone(),
                partition: r.partition,
                adding: r.adding.clone(),
                in_isr: Vec::new(),
                sizes: [(4, size)].into_iter().collect(),
            })
            .collect();
        let health = HealthFacts {
            brokers: Vec::new(),
            partitions: Vec::new(),
            quorum: QuorumFacts {
                leader: Some(1),
                voters: Vec::new(),
                fetch_timeout_ms: 2000,
            },
            unknown_replica_ids: Vec::new(),
            reassignments,
            throttles: Vec::new(),
            cruise_control: CruiseControlFacts::NotConfigured,
            holds: Vec::new(),
            stalled: Vec::new(),
        };
        super::ports::KafkaRead {
            view,
            health: Some(health),
            progress,
        }
    }
}

/// Issue 29: `operate`'s health verdict on `/metrics` names a reassignment whose new replica
/// made no progress (no log growth, not in the ISR) over the loops once `stall_after` passed,
/// not before, and no longer once it ended; one whose new replica's log grows is never named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loop_exports_a_reassignment_without_progress_as_stalled_after_the_threshold() {
    const STALLED: &str = "kind=\"reassignment-stalled\",severity=\"degraded\"} 1";
    for grows in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let policy_path = dir.path().join("policy.yaml");
        std::fs::write(&policy_path, "{}\n").unwrap();
        let kafka = Moving {
            grows,
            ..Moving::default()
        };
        let facts = KafkaPort::cluster_facts(&kafka).await.unwrap();
        let spec = OperateSpec {
            policy: policy_path.clone(),
            resync: Duration::from_millis(50),
            dry_run: false,
            once: false,
            listen: "127.0.0.1:0".parse().unwrap(),
            action_timeout: Duration::from_secs(5),
        };
        let mut op = Operator::new(
            Scripted::default(),
            kafka.clone(),
            (Memory::default(), Leader, LogRecorder),
            policy::PolicySource::load(&policy_path, Duration::ZERO, Some(&facts))
                .await
                .unwrap(),
            spec,
            NoRoll,
        );
        let now = Arc::new(std::sync::atomic::AtomicU64::new(1_000_000));
        op.clock = {
            let now = now.clone();
            Arc::new(move || {
                crate::engine::model::Millis(now.load(std::sync::atomic::Ordering::SeqCst))
            })
        };
        op.stall_after = Duration::from_secs(60);
        let mut state = op.resume().await.unwrap();
        // Loops 30 s apart: at 0 and 30 s the reassignment is young; at 60 s it made no
        // progress for the threshold (unless its log grows).
        for (at, stalled) in [(0, false), (30, false), (60, !grows), (90, !grows)] {
            now.store(1_000_000 + at * 1000, std::sync::atomic::Ordering::SeqCst);
            op.step(&mut state).await.unwrap();
            let metrics = op.telemetry.encode();
            assert_eq!(
                metrics.contains(STALLED),
                stalled,
                "grows {grows}, at {at}s:\n{metrics}"
            );
        }
        // The reassignment ended: nothing is in flight, nothing is stalled.
        kafka.done.store(true, std::sync::atomic::Ordering::SeqCst);
        now.store(1_120_000, std::sync::atomic::Ordering::SeqCst);
        op.step(&mut state).await.unwrap();
        let metrics = op.telemetry.encode();
        assert!(!metrics.contains("reassignment-stalled"), "{metrics}");
        assert_eq!(op.progress.len(), 0);
    }
}
