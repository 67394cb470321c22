//! What differs between `operate` on a plain host and in Kubernetes, as small traits the loop
//! is generic over: where the state is kept ([`StateStore`]), who may act ([`Leadership`]) and
//! where actions are recorded for people ([`Recorder`]).
//!
//! Plain host: a state file, a lock file (one instance), log lines. Kubernetes: a ConfigMap
//! written with optimistic concurrency (a deposed leader's write is refused, never applied), a
//! Lease (one leader, standbys take over after one lease period), `events.k8s.io/v1` Events.
//! The state crosses this boundary as a JSON document, so the stores know nothing of the
//! engine's types.

use std::future::Future;

/// A failure of a port. `Conflict` is not an outage: someone else wrote the state (a new
/// leader); the loop must stop acting and re-check its leadership.
#[derive(Debug, thiserror::Error)]
pub enum PortError {
    #[error(
        "the operate state was changed by another instance ({0}); this instance is not the leader any more"
    )]
    Conflict(String),
    #[error("{0}")]
    Io(String),
    #[error("{0}")]
    Kube(#[from] crate::platform::PlatformError),
}

/// Where the operate state lives (state file or ConfigMap).
pub trait StateStore: Send + Sync {
    /// The saved state document (`None`: never saved).
    fn load(&self) -> impl Future<Output = Result<Option<String>, PortError>> + Send;
    /// Replaces the saved document, atomically: after a crash the old or the new one is there.
    /// A store that detects a concurrent writer answers [`PortError::Conflict`].
    fn save(&self, doc: &str) -> impl Future<Output = Result<(), PortError>> + Send;
}

/// Who may act: only the leader takes actions; the others wait.
pub trait Leadership: Send + Sync {
    /// Waits until this instance leads (at once on a plain host once the lock is taken).
    fn acquire(&self) -> impl Future<Output = Result<(), PortError>> + Send;
    /// Whether it still leads (kept up to date in the background); checked before every
    /// action, so a deposed leader takes no further action.
    fn is_leader(&self) -> bool;
    /// Gives leadership up (SIGTERM), so a standby takes over at once.
    fn release(&self) -> impl Future<Output = ()> + Send;
}

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
    ) -> std::pin::Pin<Box<dyn Future<Output = Result<PlatformView, PortError>> + Send + '_>>;
}
