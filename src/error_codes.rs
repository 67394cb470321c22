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
    None
}
