//! The exit-code table, and the mapping of the typed errors of the adapters and the engine to it.
//!
//! Only the binary's edge (`main` and `commands`) knows about exit codes: the engine reports
//! failure classes ([`FailureKind`]), adapters (Kafka, Cruise Control, platforms) and the prompt
//! return typed errors and never a code, and an error whose class only its origin knows
//! travels as a [`Classified`] error. So nothing below the edge imports this module or
//! [`crate::error`]. Each mapping is one function here, next to the others, where the README's
//! exit-code table can be checked against all of them at once.

use rdkafka::error::RDKafkaErrorCode as C;

use crate::cruise_control::CcError;
use crate::engine::cc_flow::Outcome;
use crate::engine::failure::{Classified, FailureKind};
use crate::kafka::KafkaError;
use crate::output::PromptError;
use crate::platform::PlatformError;
use crate::platform::kube::KubeFailure;

/// The documented exit codes (see README "Exit codes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExitCode {
    /// Success.
    Ok,
    /// The operation failed or a safety check refused it.
    Failed,
    /// Bad usage or configuration: nothing was changed.
    Usage,
    /// A deadline passed while waiting.
    Timeout,
    /// A dependency is not ready yet (Cruise Control still sampling, broker recovering); retry later.
    NotReady,
    /// Another operation is already running (an ongoing Cruise Control execution, active-task limit).
    Busy,
    /// A dependency could not be reached or rejected our credentials.
    Unreachable,
    /// A change ran but did not take effect everywhere (`topic set-rf`: a topic's factor did
    /// not change, or the Cruise Control task ended `CompletedWithError`).
    Incomplete,
    /// Interrupted by the user; a started operation was left running.
    Interrupted,
    /// `anomalies watch --exit-on`: an anomaly of a watched-for type appeared.
    AnomalyFound,
    /// Cruise Control could not satisfy the goals (`OptimizationFailureException`, a hard goal
    /// such as `RackAwareGoal`): it proposed nothing and nothing was changed.
    GoalsUnsatisfiable,
    /// Cruise Control holds the request for review (two-step verification); nothing ran.
    ReviewPending,
    /// The execution was stopped (by a user or a stop request).
    Stopped,
    /// A scale-down left replicas on the leaving brokers.
    ReplicasLeft,
    /// Terminated by SIGTERM; a started execution was left running.
    Terminated,
    /// `health`: the cluster serves, but something needs attention (under-replicated
    /// partitions, a fenced broker, a lagging voter, a leftover throttle, ...).
    Degraded,
    /// `health`: part of the cluster does not serve (offline or under-min-ISR partitions, no
    /// quorum leader or majority).
    Unavailable,
}

impl ExitCode {
    /// The numeric process exit status.
    #[must_use]
    pub fn code(self) -> i32 {
        match self {
            ExitCode::Ok => 0,
            ExitCode::Failed => 1,
            ExitCode::Usage => 2,
            ExitCode::Timeout => 3,
            ExitCode::NotReady => 4,
            ExitCode::Busy => 5,
            ExitCode::Unreachable => 6,
            ExitCode::Incomplete => 7,
            ExitCode::ReviewPending => 8,
            ExitCode::Stopped => 9,
            ExitCode::AnomalyFound => 10,
            ExitCode::ReplicasLeft => 11,
            ExitCode::GoalsUnsatisfiable => 12,
            ExitCode::Degraded => 13,
            ExitCode::Unavailable => 14,
            ExitCode::Terminated => 143,
            ExitCode::Interrupted => 130,
        }
    }

    /// Every code, in table order (used by the README test).
    pub const ALL: [ExitCode; 17] = [
        ExitCode::Ok,
        ExitCode::Failed,
        ExitCode::Usage,
        ExitCode::Timeout,
        ExitCode::NotReady,
        ExitCode::Busy,
        ExitCode::Unreachable,
        ExitCode::Incomplete,
        ExitCode::ReviewPending,
        ExitCode::Stopped,
        ExitCode::AnomalyFound,
        ExitCode::ReplicasLeft,
        ExitCode::GoalsUnsatisfiable,
        ExitCode::Degraded,
        ExitCode::Unavailable,
        ExitCode::Interrupted,
        ExitCode::Terminated,
    ];
}

/// The exit code a known error type stands for, if `cause` is one.
pub fn code_of(cause: &(dyn std::error::Error + 'static)) -> Option<ExitCode> {
    if cause
        .downcast_ref::<crate::settings::SettingsError>()
        .is_some()
    {
        return Some(ExitCode::Usage);
    }
    if let Some(e) = cause.downcast_ref::<Classified>() {
        return Some(failure(e.kind()));
    }
    if let Some(e) = cause.downcast_ref::<CcError>() {
        return Some(cruise_control(e));
    }
    if let Some(e) = cause.downcast_ref::<PromptError>() {
        return Some(prompt(e));
    }
    if let Some(e) = cause.downcast_ref::<KafkaError>() {
        return Some(kafka(e));
    }
    if let Some(e) = cause.downcast_ref::<PlatformError>() {
        return Some(platform(e));
    }
    if cause
        .downcast_ref::<crate::engine::movers::ExternalReassignments>()
        .is_some()
    {
        // Someone else is moving data: busy, like another Cruise Control execution.
        return Some(ExitCode::Busy);
    }
    if cause
        .downcast_ref::<crate::engine::throttles::ThrottlesInUse>()
        .is_some()
    {
        // A movement uses the throttles `throttles clear` was asked to remove: busy.
        return Some(ExitCode::Busy);
    }
    if cause
        .downcast_ref::<crate::engine::health::UnknownKind>()
        .is_some()
    {
        return Some(ExitCode::Usage);
    }
    if cause
        .downcast_ref::<crate::engine::operator_guard::OperatorActive>()
        .is_some()
    {
        // The Strimzi operator (or its KafkaRebalance) is acting on the cluster: busy.
        return Some(ExitCode::Busy);
    }
    None
}

/// The exit code of a failure class.
#[must_use]
pub fn failure(kind: FailureKind) -> ExitCode {
    match kind {
        FailureKind::NoOp => ExitCode::Ok,
        FailureKind::Failed => ExitCode::Failed,
        FailureKind::Invalid => ExitCode::Usage,
        FailureKind::TimedOut => ExitCode::Timeout,
        FailureKind::NotReady => ExitCode::NotReady,
        FailureKind::Busy => ExitCode::Busy,
        FailureKind::Unreachable => ExitCode::Unreachable,
        FailureKind::GoalsUnsatisfiable => ExitCode::GoalsUnsatisfiable,
        FailureKind::ReviewPending => ExitCode::ReviewPending,
        FailureKind::Interrupted => ExitCode::Interrupted,
    }
}

/// The exit code of a finished Cruise Control flow.
pub trait OutcomeExitCode {
    /// The documented exit code of this outcome.
    fn exit_code(&self) -> ExitCode;
}

impl OutcomeExitCode for Outcome {
    fn exit_code(&self) -> ExitCode {
        self.failure_kind().map_or(ExitCode::Ok, failure)
    }
}

/// The exit code of a health verdict (0 healthy, 13 degraded, 14 unavailable).
#[must_use]
pub fn health(verdict: crate::engine::health::Verdict) -> ExitCode {
    use crate::engine::health::Verdict;
    match verdict {
        Verdict::Healthy => ExitCode::Ok,
        Verdict::Degraded => ExitCode::Degraded,
        Verdict::Unavailable => ExitCode::Unavailable,
    }
}

/// A Kafka adapter failure (see README "Exit codes").
#[must_use]
pub fn kafka(e: &KafkaError) -> ExitCode {
    match e {
        KafkaError::Unreachable { .. }
        | KafkaError::Authentication { .. }
        | KafkaError::Tls { .. }
        | KafkaError::BrokerState { .. } => ExitCode::Unreachable,
        KafkaError::Timeout { .. } => ExitCode::Timeout,
        KafkaError::NoActiveController { .. } => ExitCode::NotReady,
        KafkaError::UnsupportedSetting { .. }
        | KafkaError::InvalidSetting { .. }
        | KafkaError::MissingBootstrapServers => ExitCode::Usage,
        KafkaError::Api { code, .. } => match *code {
            // SASL_AUTHENTICATION_FAILED, *_AUTHORIZATION_FAILED
            58 | 29 | 30 | 31 => ExitCode::Unreachable,
            7 => ExitCode::Timeout,
            _ => ExitCode::Failed,
        },
        KafkaError::UnsupportedApi { .. } | KafkaError::Protocol { .. } => ExitCode::Failed,
        KafkaError::Client { cause: source, .. } => match source.rdkafka_error_code() {
            Some(
                C::BrokerTransportFailure
                | C::AllBrokersDown
                | C::Resolve
                | C::Authentication
                | C::SaslAuthenticationFailed
                | C::SSL
                | C::TopicAuthorizationFailed
                | C::ClusterAuthorizationFailed,
            ) => ExitCode::Unreachable,
            Some(C::OperationTimedOut | C::RequestTimedOut | C::MessageTimedOut) => {
                ExitCode::Timeout
            }
            _ => ExitCode::Failed,
        },
    }
}

/// A Cruise Control failure, from its class (classified once, in the client).
#[must_use]
pub fn cruise_control(e: &CcError) -> ExitCode {
    failure(e.failure_kind())
}

/// A platform (restart command, node list) failure.
#[must_use]
pub fn platform(e: &PlatformError) -> ExitCode {
    match e {
        PlatformError::UnknownNode { .. }
        | PlatformError::InvalidNodes { .. }
        | PlatformError::NoStatusProbe { .. } => ExitCode::Usage,
        PlatformError::Spawn { .. } | PlatformError::CommandFailed { .. } => ExitCode::Failed,
        PlatformError::CommandTimeout { .. } | PlatformError::PodTimeout { .. } => {
            ExitCode::Timeout
        }
        PlatformError::KubeConfig { .. } | PlatformError::NoPods { .. } => ExitCode::Usage,
        PlatformError::LeaseHeld { .. } => ExitCode::Busy,
        PlatformError::Kube { reason, .. } => match reason {
            KubeFailure::Forbidden | KubeFailure::Unreachable => ExitCode::Unreachable,
            KubeFailure::NotFound => ExitCode::Usage,
            KubeFailure::Conflict => ExitCode::Busy,
            KubeFailure::Other => ExitCode::Failed,
        },
    }
}

/// A confirmation that did not happen.
#[must_use]
pub fn prompt(e: &PromptError) -> ExitCode {
    match e {
        PromptError::NotInteractive { .. } => ExitCode::Usage,
        PromptError::Declined { .. } | PromptError::Io(_) => ExitCode::Failed,
    }
}

/// The exit code of a finished roll, by its outcome (the roll's row of the exit-code table):
/// 0 done; 1 aborted by the engine, a failed restart command, or the state could not be saved;
/// 3 a node did not serve again in time; 130 stopped by Ctrl-C; an observation failure keeps
/// the code of its cause (6 unreachable) and is 1 otherwise.
#[must_use]
pub fn roll_outcome_code(outcome: &crate::driver::Outcome) -> ExitCode {
    use crate::driver::Outcome;
    use crate::engine::roll::RollError;
    match outcome {
        Outcome::Done(_) => ExitCode::Ok,
        Outcome::Aborted(RollError::NotServingInTime { .. }) => ExitCode::Timeout,
        // Held back by a Cruise Control execution for the whole blocked timeout: busy.
        Outcome::Aborted(RollError::CruiseControlExecuting { .. }) => ExitCode::Busy,
        Outcome::Aborted(RollError::CruiseControlUnknown { .. }) => ExitCode::Unreachable,
        Outcome::Aborted(_) | Outcome::SaveFailed(_) => ExitCode::Failed,
        Outcome::Interrupted => ExitCode::Interrupted,
        Outcome::RestartFailed { error, .. } | Outcome::ObserveFailed(error) => {
            error.chain().find_map(code_of).unwrap_or(ExitCode::Failed)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::cruise_control::classify;

    #[test]
    fn exit_codes_by_class() {
        let api = |status, msg: &str| CcError::Api {
            endpoint: "add_broker".into(),
            status,
            message: msg.into(),
            class: classify(status, msg),
        };
        assert_eq!(
            crate::error_codes::cruise_control(&api(500, "NotEnoughValidWindowsException")),
            ExitCode::NotReady
        );
        assert_eq!(
            crate::error_codes::cruise_control(&api(500, "OngoingExecutionException")),
            ExitCode::Busy
        );
        assert_eq!(
            crate::error_codes::cruise_control(&api(500, "Broker [9] does not exist.")),
            ExitCode::Usage
        );
        assert_eq!(
            crate::error_codes::cruise_control(&api(500, "OptimizationFailureException: x")),
            ExitCode::GoalsUnsatisfiable
        );
        assert_eq!(
            crate::error_codes::cruise_control(&api(
                400,
                "stop_ongoing_execution and dryrun cannot both be set to true."
            )),
            ExitCode::Usage,
            "a bare 400 text naming stop_ongoing_execution is a bad request, not busy"
        );
        assert_eq!(
            crate::error_codes::cruise_control(&api(
                500,
                "Error processing POST request '/add_broker' due to: 'java.lang.IllegalStateException: Unable to generate proposal since load monitor is in LOADING state.'."
            )),
            ExitCode::NotReady
        );
        let auth = CcError::Auth {
            url: "u".into(),
            status: 401,
            what: crate::cruise_control::error::AuthFailure::Refused { user: "u".into() },
        };
        assert_eq!(
            crate::error_codes::cruise_control(&auth),
            ExitCode::Unreachable
        );
        let gave_up = CcError::GaveUp {
            waiting_for: "x",
            attempts: 3,
            last: Box::new(api(500, "NotEnoughValidWindowsException")),
        };
        assert_eq!(
            crate::error_codes::cruise_control(&gave_up),
            ExitCode::NotReady
        );
        assert!(!gave_up.is_retryable());
        let t = CcError::Timeout {
            url: "u".into(),
            timeout: Duration::from_secs(1),
        };
        assert_eq!(crate::error_codes::cruise_control(&t), ExitCode::Timeout);
        assert!(t.is_retryable());
    }

    #[test]
    fn adapter_errors_by_kind() {
        // As the adapters' own tests produce them (a failed or timed-out restart command, an
        // unreachable bootstrap, a wrong SCRAM password, GSSAPI on the wire path, a refused
        // prompt, an API error).
        let failed = PlatformError::CommandFailed {
            node: 1,
            command: "stop".into(),
            status: "exit status: 3".into(),
            output: String::new(),
        };
        assert_eq!(platform(&failed), ExitCode::Failed);
        let timed_out = PlatformError::CommandTimeout {
            node: 1,
            command: "restart".into(),
            after: Duration::from_millis(500),
            output: String::new(),
        };
        assert_eq!(platform(&timed_out), ExitCode::Timeout);
        let auth = KafkaError::Authentication {
            address: "h:9092".into(),
            mechanism: "SCRAM-SHA-256".into(),
            message: "SASL_AUTHENTICATION_FAILED".into(),
        };
        assert_eq!(kafka(&auth), ExitCode::Unreachable);
        let gssapi = crate::kafka::ConnectionConfig::new("a:9092, b:9092")
            .with_property("security.protocol", "SASL_SSL")
            .with_property("sasl.mechanism", "GSSAPI")
            .wire_security("DescribeQuorum (controller quorum check)")
            .unwrap_err();
        assert_eq!(kafka(&gssapi), ExitCode::Usage);
        let api = KafkaError::Api {
            what: "DescribeQuorum".into(),
            node: Some(3),
            code: 41,
            name: crate::kafka::error::error_name(41),
            message: Some("not the controller".into()),
        };
        assert_eq!(kafka(&api), ExitCode::Failed);
        let err = crate::output::confirm("Execute", false, false).unwrap_err();
        assert_eq!(prompt(&err), ExitCode::Usage);
    }

    #[test]
    fn kafka_exit_codes() {
        let unreachable = KafkaError::Unreachable {
            what: "ApiVersions".into(),
            address: "h:9092".into(),
            message: "refused".into(),
        };
        assert_eq!(
            crate::error_codes::kafka(&unreachable),
            ExitCode::Unreachable
        );
        let auth = KafkaError::Api {
            what: "SaslAuthenticate".into(),
            node: None,
            code: 58,
            name: crate::kafka::error::error_name(58),
            message: None,
        };
        assert_eq!(crate::error_codes::kafka(&auth), ExitCode::Unreachable);
        let unsupported = KafkaError::UnsupportedSetting {
            setting: "sasl.mechanism".into(),
            value: "GSSAPI".into(),
            needed_for: "DescribeQuorum".into(),
            reason: "not implemented".into(),
        };
        assert_eq!(crate::error_codes::kafka(&unsupported), ExitCode::Usage);
    }
}
