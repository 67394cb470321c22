//! What the loop is told (a resolved, clap-free spec the CLI builds from its arguments) and how
//! it ends (a typed outcome and typed errors; the CLI edge maps them to exit codes).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::engine::operate::STATE_VERSION;
use crate::state::StoreError;

/// How the loop runs: `kafkaops operate`'s arguments, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperateSpec {
    /// The policy file (what to keep true), re-read on change.
    pub policy: PathBuf,
    /// The pause between loops when nothing wakes the loop earlier.
    pub resync: Duration,
    /// Decide and report, take nothing.
    pub dry_run: bool,
    /// One loop, then end.
    pub once: bool,
    /// Where `/metrics`, `/healthz` and `/readyz` are served.
    pub listen: SocketAddr,
    /// How long one action (a Cruise Control execution, a restart) may take.
    pub action_timeout: Duration,
}

impl OperateSpec {
    /// How often a running Cruise Control flow looks again: the resync, within 200 ms..5 s.
    #[must_use]
    pub fn poll_interval(&self) -> Duration {
        self.resync
            .clamp(Duration::from_millis(200), Duration::from_secs(5))
    }
}

/// What `operate --dry-run` would do, for `--once --dry-run -o json` (one document) and the
/// plan printed for people: every action in the order the loop would take it, each assumed to
/// succeed ([`crate::engine::operate::plan_ahead`]), and what waits or is worth a note now.
#[derive(schemars::JsonSchema, Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct DryRunReport {
    pub actions: Vec<PlannedAction>,
    /// What waits now, and for what (one sentence each).
    pub waits: Vec<String>,
    pub notes: Vec<String>,
}

/// One action a dry run would take.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PlannedAction {
    /// `rebalance-add-brokers`, `rebalance-remove-brokers`, `rebalance-imbalance`, `roll`,
    /// `set-rf`.
    pub kind: String,
    /// `brokers 4,5`, `nodes 1,2`, `topics orders` or `cluster`.
    pub target: String,
    pub reason: String,
}

/// How a run of the loop ended (the CLI maps each to its exit code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Stopped (a signal, or one loop with `--once` that reached everything).
    Stopped,
    /// `--once`: Kafka, Cruise Control or the platform could not be reached.
    Unreachable,
    /// `--once`: deposed (another instance wrote the state or took the leadership).
    Deposed,
}

/// Why the loop could not run.
#[derive(Debug, thiserror::Error)]
pub enum OperateError {
    /// The metrics and health endpoints cannot be served.
    #[error("cannot serve /metrics, /healthz and /readyz on {addr} (--listen): {source}")]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
    /// The leadership could not be acquired.
    #[error(transparent)]
    Leadership(StoreError),
    /// The saved state could not be loaded.
    #[error(transparent)]
    Load(StoreError),
    /// The saved state is not a state this build reads.
    #[error("the saved operate state is not readable ({0}); move it away to start afresh")]
    Unreadable(String),
    /// The saved state has another version.
    #[error("the saved operate state has version {0}, this kafkaops reads version {STATE_VERSION}")]
    Version(u32),
}

impl OperateError {
    /// A setting or a saved document a person must fix (the rest is an operation failing).
    #[must_use]
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            OperateError::Listen { .. } | OperateError::Unreadable(_) | OperateError::Version(_)
        )
    }
}
