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
