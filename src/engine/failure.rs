//! Failure classes: how an operation failed, in words of the failure, never of an exit code.
//!
//! The engine and the adapters know what went wrong (Cruise Control is still sampling, another
//! execution runs, the input is wrong); only the binary's edge knows which exit code a script
//! sees for it (the one table in `error_codes`). So the engine reports a [`FailureKind`], and an
//! error whose class only its origin knows travels as a [`Classified`] error, which the edge's
//! classifier reads without naming the type of the origin.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What kind of failure ended an operation. The serde names are those the exit-code table used
/// when flows were saved with exit codes, so saved flows read back unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// Not a failure after all: the target state already holds (Cruise Control's "nothing to
    /// do" answers).
    #[serde(rename = "ok")]
    NoOp,
    /// The operation failed or a safety check refused it.
    Failed,
    /// Bad input or configuration: nothing was changed.
    #[serde(rename = "usage")]
    Invalid,
    /// A deadline passed while waiting.
    #[serde(rename = "timeout")]
    TimedOut,
    /// A dependency is not ready yet (Cruise Control still sampling); retry later.
    NotReady,
    /// Another operation is already running (an execution, the active-task limit).
    Busy,
    /// A dependency could not be reached or refused the credentials.
    Unreachable,
    /// Cruise Control could not satisfy the goals: it proposed nothing.
    GoalsUnsatisfiable,
    /// Cruise Control holds the request for review (two-step verification); nothing ran.
    ReviewPending,
    /// Interrupted by the operator; a started operation was left running.
    Interrupted,
}

/// An error with the failure class its origin knows: the message (or the wrapped error, shown
/// as it is) plus a [`FailureKind`] the edge maps to an exit code.
#[derive(Debug)]
pub struct Classified {
    kind: FailureKind,
    error: Box<dyn std::error::Error + Send + Sync>,
}

/// A plain message as an error.
#[derive(Debug)]
struct Message(String);

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Message {}

impl Classified {
    /// A message of this kind.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            error: Box::new(Message(message.into())),
        }
    }

    /// `error` (shown as it is, its sources kept) with this kind.
    pub fn wrap(kind: FailureKind, error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self {
            kind,
            error: Box::new(error),
        }
    }

    #[must_use]
    pub fn kind(&self) -> FailureKind {
        self.kind
    }

    /// The wrapped error.
    #[must_use]
    pub fn inner(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self.error.as_ref()
    }
}

impl fmt::Display for Classified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl std::error::Error for Classified {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("outer")]
    struct Outer(#[source] Message);

    #[test]
    fn a_classified_error_reads_as_its_origin() {
        let e = Classified::wrap(FailureKind::Invalid, Outer(Message("inner".into())));
        assert_eq!(e.to_string(), "outer");
        assert_eq!(
            std::error::Error::source(&e).map(ToString::to_string),
            Some("inner".to_string())
        );
        assert_eq!(e.kind(), FailureKind::Invalid);
        let m = Classified::new(FailureKind::Busy, "busy");
        assert_eq!(m.to_string(), "busy");
        assert!(std::error::Error::source(&m).is_none());
    }

    #[test]
    fn kinds_keep_the_names_saved_flows_used() {
        for (k, name) in [
            (FailureKind::NoOp, "ok"),
            (FailureKind::Invalid, "usage"),
            (FailureKind::TimedOut, "timeout"),
            (FailureKind::NotReady, "not-ready"),
            (FailureKind::GoalsUnsatisfiable, "goals-unsatisfiable"),
        ] {
            assert_eq!(serde_json::to_value(k).unwrap(), name);
            assert_eq!(
                serde_json::from_value::<FailureKind>(name.into()).unwrap(),
                k
            );
        }
    }
}
