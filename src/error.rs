//! Exit codes and the error type the binary maps to them.
//!
//! Scripts branch on our exit codes, so they are an API: one table, documented
//! in the README and checked by `tests/cli/cli.rs`. Core modules keep their own
//! typed errors (`thiserror`); at the edge every failure becomes a
//! [`CliError`] carrying the code that fits it.

use std::fmt;

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
            ExitCode::Terminated => 143,
            ExitCode::Interrupted => 130,
        }
    }

    /// Every code, in table order (used by the README test).
    pub const ALL: [ExitCode; 15] = [
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
        ExitCode::Interrupted,
        ExitCode::Terminated,
    ];
}

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
