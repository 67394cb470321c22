//! What differs between `operate` on a plain host and in Kubernetes, as small traits the loop
//! is generic over: where the state is kept (a [`crate::state::Store`] of documents), who may
//! act (a [`crate::state::Leadership`]), where actions are recorded for people ([`Recorder`]),
//! what the platform adds to each observation ([`PlatformObserver`]) and what wakes the loop
//! when the cluster changes ([`ClusterWatcher`]).
//!
//! Plain host: a state file and a lock file (one instance, [`crate::state`]), log lines.
//! Kubernetes: a ConfigMap written with optimistic concurrency (a deposed leader's write is
//! refused, never applied), a Lease (one leader, standbys take over after one lease period),
//! both in `crate::platform::kube`, and `events.k8s.io/v1` Events. The state crosses the store
//! boundary as a JSON document, so the stores know nothing of the engine's types.

use std::future::Future;

use crate::platform::PlatformError;

/// The outcome of an action, as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionResult {
    /// Started (a Cruise Control execution, a roll) or done at once.
    Started,
    Succeeded,
    Failed,
    /// `--dry-run`: would have been taken.
    DryRun,
}

/// One action with its reason, for people (an Event, a log line) and metrics.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ActionRecord {
    /// `rebalance-add-brokers`, `rebalance-remove-brokers`, `rebalance-imbalance`,
    /// `stop-rebalance`, `set-rf`, `restart`, `reconfigure`.
    pub kind: String,
    /// What it acts on (`brokers 4,5`, `topic orders`, `node 2`).
    pub target: String,
    /// Why, in one sentence.
    pub reason: String,
    pub result: ActionResult,
}

/// Where actions are recorded besides the logs (Kubernetes Events; nothing on a plain host).
pub trait Recorder: Send + Sync {
    /// Records one action; failures are logged, never fatal.
    fn record(&self, action: &ActionRecord) -> impl Future<Output = ()> + Send;
}

/// Plain host: the loop's log line is the record.
pub struct LogRecorder;

impl Recorder for LogRecorder {
    async fn record(&self, _action: &ActionRecord) {}
}

/// What the platform adds to each observation besides Kafka and Cruise Control (Kubernetes:
/// the Strimzi operator's side for the operator guard, and the `KafkaNodePool`
/// `strimzi.io/remove-node-ids` scale-down intent). A plain host has none.
#[derive(Debug, Clone, Default)]
pub struct PlatformView {
    /// The Strimzi operator's side (`None`: no Strimzi, nothing to guard).
    pub operator: Option<crate::engine::operator_guard::OperatorView>,
    /// Brokers to drain besides the policy's `drain` list.
    pub drain: std::collections::BTreeSet<i32>,
}

/// Reads the [`PlatformView`] once per loop (an error is logged; the loop goes on without it).
pub trait PlatformObserver: Send + Sync {
    fn observe(
        &self,
    ) -> std::pin::Pin<Box<dyn Future<Output = Result<PlatformView, PlatformError>> + Send + '_>>;
}

/// Kubernetes: starts the watch whose changes wake the loop before the resync (the cluster's
/// pods and node pools). A plain host has none.
pub trait ClusterWatcher: Send + Sync {
    fn start(&self) -> super::wake::ClusterChanges;
}

/// Cruise Control as the loop uses it: the drivers' API (the flow driver runs against it, the
/// loop stops an execution through it) plus one observation per loop ([`super::observe`]).
pub trait CruiseControlPort: crate::cruise_control::CruiseControlApi + Send + Sync {
    /// The executor, the anomaly detector and, when asked, the user tasks (`Err`: the reason
    /// it cannot be read).
    fn observe(
        &self,
        user_tasks: bool,
        timeout: std::time::Duration,
    ) -> impl Future<Output = Result<crate::engine::operate::CcView, String>> + Send;
}

/// Kafka as the loop reads it (the Admin API behind it).
pub trait KafkaPort: Send + Sync {
    /// Registered brokers, replicas per broker, topics, reassignments in flight.
    fn observe(
        &self,
    ) -> impl Future<Output = Result<crate::engine::operate::KafkaView, String>> + Send;
    /// What the policy is checked against (the brokers Kafka lists, the topics that exist).
    fn cluster_facts(&self) -> impl Future<Output = Result<ClusterFacts, String>> + Send;
    /// The Kafka side of the health verdict (`kafkaops health`), for `/metrics` (`None`: not
    /// observed; Cruise Control's side is added by the loop from its own observation).
    fn health(&self) -> impl Future<Output = Option<crate::engine::health::HealthFacts>> + Send {
        async { None }
    }
    /// [`KafkaPort::observe`] and [`KafkaPort::health`] from one read of Kafka: what the loop
    /// calls (issue #27: the real port reads the partition metadata once for both).
    fn observe_with_health(
        &self,
    ) -> impl Future<
        Output = (
            Result<crate::engine::operate::KafkaView, String>,
            Option<crate::engine::health::HealthFacts>,
        ),
    > + Send {
        async { (self.observe().await, self.health().await) }
    }
    /// [`KafkaPort::observe_with_health`] and, while reassignments are in flight, one sample of
    /// their progress for the `reassignment-stalled` rule: what the loop calls. A port that
    /// cannot sample (the default) gives none, and no reassignment is ever judged stalled.
    fn read(&self) -> impl Future<Output = KafkaRead> + Send {
        async {
            let (view, health) = self.observe_with_health().await;
            KafkaRead {
                view,
                health,
                progress: Vec::new(),
            }
        }
    }
}

/// One loop's read of Kafka ([`KafkaPort::read`]).
#[derive(Debug, Clone)]
pub struct KafkaRead {
    /// What the engine decides on (`Err`: why Kafka could not be read).
    pub view: Result<crate::engine::operate::KafkaView, String>,
    /// The Kafka side of the health verdict (`None`: not read).
    pub health: Option<crate::engine::health::HealthFacts>,
    /// The progress of every reassignment in flight, sampled with this read (the adding
    /// replicas' log sizes on their destinations, whether they joined the ISR); empty when none
    /// is in flight (nothing is then sent) or the health side was not read.
    pub progress: Vec<crate::engine::health::ReassignmentProgress>,
}

pub use crate::app::operate::policy::ClusterFacts;

/// What the loop learns of the roll when none runs.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct WishSeen {
    /// The nodes that need a roll (held ones left out).
    pub wish: Option<crate::engine::operate::RollWish>,
    /// The settings a roll did not apply, in one line.
    pub note: Option<String>,
    /// The held nodes the roll would roll but waits for, each with its line
    /// ([`super::held::waiting`]).
    pub held: std::collections::BTreeMap<i32, String>,
}

/// How the loop rolls nodes: the real one plans with the roll engine and restarts through the
/// roll driver on the platform (`super::live_roll`); a test scripts it.
pub trait RollPort: Send + Sync {
    /// A roll in progress in this process.
    type Session: Send;

    /// The nodes that need a roll, a note to log and the held nodes the roll waits for
    /// (`Err`: it cannot be told).
    fn wish(
        &self,
        rolled: &std::collections::BTreeMap<i32, String>,
    ) -> impl Future<Output = Result<WishSeen, String>> + Send;
    /// Whether nodes can be restarted at all.
    fn can_restart(&self) -> bool;
    /// The policy in force changed: what the roll keeps true follows it.
    fn follow_policy(
        &mut self,
        desired: &std::collections::BTreeMap<String, String>,
        max_batch_size: usize,
    );
    /// The hash under which the nodes a new roll configures are remembered.
    fn config_hash(&self) -> String;
    /// Kubernetes: who else holds the roll Lease (`None`: no roll Lease on this platform).
    fn lease_holder(&self) -> impl Future<Output = Option<Result<Option<String>, String>>> + Send;
    /// Kubernetes: takes the roll Lease (`None`: no roll Lease on this platform).
    fn take_lease(
        &self,
    ) -> impl Future<Output = Option<Result<crate::platform::kube::LeaseGuard, String>>> + Send;
    /// Starts a session (a new run, or the saved one resumed); with the nodes a new run
    /// configures.
    fn start(
        &self,
        saved: Option<&crate::engine::roll::run::RollRun>,
        rolled: &std::collections::BTreeMap<i32, String>,
    ) -> impl Future<Output = Result<(Self::Session, std::collections::BTreeSet<i32>), String>> + Send;
    /// One step of `session`; the run is saved into the operate state through `store`.
    fn step<T: crate::state::Store<crate::engine::roll::run::RollRun> + Send>(
        &self,
        session: &mut Self::Session,
        store: &mut T,
    ) -> impl Future<Output = RollStep> + Send;
    /// Ends a session this process drops (deposed): what it watches stops.
    fn end(&self, session: Self::Session);
}

/// What one roll step did.
#[derive(Debug)]
pub struct RollStep {
    /// The actions it took (kind, target, reason), to record.
    pub decided: Vec<(String, String, String)>,
    /// The run after the step (saved with the state).
    pub run: crate::engine::roll::run::RollRun,
    pub end: RollStepEnd,
}

/// Whether the roll goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RollStepEnd {
    /// Step again in this many milliseconds.
    Wake(u64),
    /// The run is over: completed (`ok`) or not, and why.
    Finished { ok: bool, why: String },
}
