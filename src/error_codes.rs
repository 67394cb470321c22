//! Maps the typed errors of the adapters and the engine to exit codes.
//!
//! Only the binary's edge knows about exit codes: adapters (Kafka, Cruise Control, platforms)
//! and the prompt return typed errors and never a code, so no adapter depends on the CLI's
//! error module. Each mapping is one function here, next to the others, where the README's
//! exit-code table can be checked against all of them at once.

use rdkafka::error::RDKafkaErrorCode as C;

use crate::cruise_control::{CcError, ErrorClass, Permanent, Transient};
use crate::error::ExitCode;
use crate::kafka::KafkaError;
use crate::output::PromptError;
use crate::platform::PlatformError;
use crate::platform::kube::KubeFailure;

/// The exit code a known error type stands for, if `cause` is one.
pub fn code_of(cause: &(dyn std::error::Error + 'static)) -> Option<ExitCode> {
    if cause
        .downcast_ref::<crate::settings::SettingsError>()
        .is_some()
    {
        return Some(ExitCode::Usage);
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
        .downcast_ref::<crate::engine::operator_guard::OperatorActive>()
        .is_some()
    {
        // The Strimzi operator (or its KafkaRebalance) is acting on the cluster: busy.
        return Some(ExitCode::Busy);
    }
    if cause
        .downcast_ref::<crate::commands::operate::policy::LoadError>()
        .is_some()
    {
        // `operate` with a policy file it cannot read or use: a configuration error.
        return Some(ExitCode::Usage);
    }
    None
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
        KafkaError::Client { source, .. } => match source.rdkafka_error_code() {
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
    if let CcError::Config(_) = e {
        return ExitCode::Usage;
    }
    if let CcError::ReviewPending { .. } = e {
        return ExitCode::ReviewPending;
    }
    match e.class() {
        ErrorClass::NoOp => ExitCode::Ok,
        ErrorClass::Retryable(t) => match t {
            Transient::NotEnoughValidWindows | Transient::PleaseRetry => ExitCode::NotReady,
            Transient::ActiveTaskLimit | Transient::OngoingExecution => ExitCode::Busy,
            Transient::Unreachable => ExitCode::Unreachable,
            Transient::Timeout => ExitCode::Timeout,
        },
        ErrorClass::Permanent(p) => match p {
            Permanent::BadRequest | Permanent::UnknownBroker | Permanent::MissingHardGoals => {
                ExitCode::Usage
            }
            Permanent::Unauthorized | Permanent::Tls | Permanent::NotFound => ExitCode::Unreachable,
            Permanent::OptimizationFailure => ExitCode::GoalsUnsatisfiable,
            Permanent::Other => ExitCode::Failed,
        },
    }
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
