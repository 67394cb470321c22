//! Maps the typed errors of the adapters and the engine to exit codes.
//!
//! Kept in one place so each module's error type stays free of CLI concerns
//! and a new error type needs exactly one line here.

use crate::error::ExitCode;

/// The exit code a known error type stands for, if `cause` is one.
pub fn code_of(cause: &(dyn std::error::Error + 'static)) -> Option<ExitCode> {
    if let Some(e) = cause.downcast_ref::<crate::settings::SettingsError>() {
        let _ = e;
        return Some(ExitCode::Usage);
    }
    if let Some(e) = cause.downcast_ref::<crate::cruise_control::CcError>() {
        return Some(e.exit_code());
    }
    if let Some(e) = cause.downcast_ref::<crate::output::PromptError>() {
        return Some(e.exit_code());
    }
    if let Some(e) = cause.downcast_ref::<crate::kafka::KafkaError>() {
        return Some(e.exit_code());
    }
    if let Some(e) = cause.downcast_ref::<crate::platform::PlatformError>() {
        return Some(e.exit_code());
    }
    None
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
        Outcome::Aborted(_) | Outcome::SaveFailed(_) => ExitCode::Failed,
        Outcome::Interrupted => ExitCode::Interrupted,
        Outcome::RestartFailed { error, .. } | Outcome::ObserveFailed(error) => {
            error.chain().find_map(code_of).unwrap_or(ExitCode::Failed)
        }
    }
}
