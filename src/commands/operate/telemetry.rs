//! What `operate` tells the outside world besides logs: Prometheus metrics and health.
//!
//! The loop calls these methods; [`Telemetry`] keeps the numbers (a `prometheus-client`
//! registry) and the HTTP server serves `/metrics`, `/healthz` (the process and its loop live:
//! a loop finished within a few resync intervals) and `/readyz` (it can reach Kafka and Cruise
//! Control and has a good policy; a standby is ready too, so a rolling update of the Deployment
//! proceeds).
//!
//! SKELETON: method signatures are the contract between the loop and the server; bodies are
//! filled in with the registry.

/// Where an error came from (the `source` label of the error counter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorSource {
    CruiseControl,
    Kafka,
    Kubernetes,
    Policy,
    State,
}

/// The operate metrics and health flags (cheap to clone; shared with the HTTP server).
#[derive(Debug, Clone, Default)]
pub struct Telemetry {}

impl Telemetry {
    #[must_use]
    pub fn new() -> Telemetry {
        Telemetry {}
    }
    /// The auto-rebalance state (`Idle`, `RebalanceOnScaleDown`, ...) and what else moves
    /// (`roll`, `set-rf`, `none`): exactly one label set is 1.
    pub fn state(&self, _rebalance_state: &str, _mover: &str) {}
    /// One transition of the auto-rebalance state machine.
    pub fn transition(&self, _from: &str, _to: &str) {}
    /// One action (kinds and results as in [`super::ports::ActionRecord`]).
    pub fn action(&self, _kind: &str, _result: &str) {}
    /// One failed call to a dependency.
    pub fn error(&self, _source: ErrorSource) {}
    /// A reconcile loop completed (seconds since the epoch).
    pub fn loop_succeeded(&self, _epoch_seconds: f64) {}
    /// Whether this instance leads.
    pub fn leader(&self, _leading: bool) {}
    /// Whether the dependencies answer and the policy is good (`/readyz`).
    pub fn ready(&self, _ready: bool) {}
}
