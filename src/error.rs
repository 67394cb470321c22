//! Exit codes and the error type the binary maps to them.
//!
//! Scripts branch on our exit codes, so they are an API: one table, documented
//! in the README and checked by `tests/cli/cli.rs`. Core modules keep their own
//! typed errors (`thiserror`) and failure classes; at the edge (`main` and `commands`,
//! the only importers of this module) every failure becomes a [`CliError`] carrying the
//! code that fits it ([`crate::error_codes`] holds the table and the mapping, and imports
//! nothing of this module, so the two make no circle).

use std::fmt;

pub use crate::error_codes::ExitCode;

/// An error on its way out of the binary: the message chain plus the exit code.
#[derive(Debug)]
pub struct CliError {
    pub code: ExitCode,
    pub error: anyhow::Error,
}

impl CliError {
    pub fn new(code: ExitCode, error: impl Into<anyhow::Error>) -> Self {
        Self {
            code,
            error: error.into(),
        }
    }

    pub fn usage(msg: impl fmt::Display) -> Self {
        Self::new(ExitCode::Usage, anyhow::anyhow!("{msg}"))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.error)
    }
}

impl<E: Into<anyhow::Error>> From<E> for CliError {
    fn from(e: E) -> Self {
        let error = e.into();
        let code = classify(&error);
        Self { code, error }
    }
}

/// Known error types anywhere in the chain decide the code; anything else is a failure.
fn classify(error: &anyhow::Error) -> ExitCode {
    for cause in error.chain() {
        if let Some(e) = cause.downcast_ref::<CodedError>() {
            return e.code;
        }
        if let Some(code) = crate::error_codes::code_of(cause) {
            return code;
        }
    }
    ExitCode::Failed
}

/// A plain message with an explicit exit code, for edges that know the code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CodedError {
    pub code: ExitCode,
    pub message: String,
}

impl CodedError {
    pub fn new(code: ExitCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

pub type Result<T, E = CliError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::engine::cc_flow::{AfterInterrupt, Outcome};

    #[test]
    fn interrupted_outcomes_name_the_task_and_what_became_of_it() {
        let e: crate::error::CliError = crate::driver::cc_flow::outcome_error(
            &Outcome::Interrupted {
                task_id: Some("t1".into()),
                after: AfterInterrupt::LeftRunning,
            },
            None,
            None,
            None,
        );
        assert_eq!(e.code, ExitCode::Interrupted);
        assert!(e.to_string().contains("(task t1) keeps running"), "{e}");
        let e: crate::error::CliError = crate::driver::cc_flow::outcome_error(
            &Outcome::Interrupted {
                task_id: None,
                after: AfterInterrupt::LeftRunning,
            },
            None,
            None,
            None,
        );
        assert!(e.to_string().contains("may be running"), "{e}");
        let e: crate::error::CliError = crate::driver::cc_flow::outcome_error(
            &Outcome::TaskLost {
                task_id: "t1".into(),
            },
            None,
            None,
            None,
        );
        assert_eq!(e.code, ExitCode::Failed);
        let e: crate::error::CliError = crate::driver::cc_flow::outcome_error(
            &Outcome::TimedOut { task_id: None },
            None,
            Some(Duration::from_secs(3)),
            None,
        );
        assert_eq!(e.code, ExitCode::Timeout);
    }
}
