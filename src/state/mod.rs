//! Where state outlives a process: one persistence trait, one file store, lock-file leadership.
//!
//! The engines keep their state as plain serde data (STYLE.md §1) so it can outlive a process:
//! `kafkaops roll` resumes a roll killed mid-batch, `operate` resumes its mover on a restart or
//! a new leader, `rebalance imbalance` remembers which goal violations a rebalance already
//! handled. Every one of them saves through the same trait, [`Store`], generic over what is
//! stored: a document (`Store<str>`: the [`FileStore`] on a plain host, the Kubernetes
//! ConfigMap store in a cluster) or a typed value on top of one (the roll's run, saved in its
//! state file by [`RollStore`] or inside `operate`'s state). Who may write is decided by a
//! [`Leadership`]: an exclusive lock on a lock file next to the state file ([`LockLeadership`])
//! or a Kubernetes Lease.
//!
//! Files are replaced atomically (written to a temporary file in the same directory, synced,
//! then renamed), so a crash leaves the previous state or the new one, never half a file. The
//! directory is configurable (`--state-dir`, `KAFKAOPS_STATE_DIR`) and defaults to
//! `$XDG_STATE_HOME/kafkaops` (`~/.local/state/kafkaops`).

pub mod file;
pub mod journal;
pub mod lock;
pub mod roll;
#[cfg(test)]
mod saved_before_tests;

pub use file::{FileStore, load, save};
pub use lock::LockLeadership;
pub use roll::{RollStore, SavedRoll, default_state_dir, load_roll, remove_roll, roll_state_path};

use std::future::Future;
use std::path::PathBuf;

/// Why state could not be read or saved. `Conflict` is not an outage: someone else wrote the
/// state (a new leader); the writer must stop acting and re-check its leadership.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "the operate state was changed by another instance ({0}); this instance is not the leader any more"
    )]
    Conflict(String),
    #[error("{0}")]
    Io(String),
    /// The backend's own error (a Kubernetes API failure), kept as the source so the edge can
    /// classify it.
    #[error("{0}")]
    Backend(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::Io(e.to_string())
    }
}

/// Where a piece of state is kept: what was saved last, and replacing it.
///
/// `T` is what is stored: `str` for a document store (a file, a ConfigMap), or a typed value
/// that a store puts into a document of its own (the roll's run).
pub trait Store<T: ?Sized + ToOwned>: Send + Sync {
    /// What was saved last (`None`: nothing yet).
    fn load(&self) -> impl Future<Output = Result<Option<T::Owned>, StoreError>> + Send;
    /// Replaces what is saved, atomically: after a crash the old or the new value is there. A
    /// store that detects a concurrent writer answers [`StoreError::Conflict`].
    fn save(&self, value: &T) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// Who may act on (and write) the state: only the leader; the others wait.
pub trait Leadership: Send + Sync {
    /// Waits until this instance leads (at once on a plain host once the lock is taken).
    fn acquire(&self) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Whether it still leads (kept up to date in the background); checked before every
    /// action, so a deposed leader takes no further action.
    fn is_leader(&self) -> bool;
    /// Gives leadership up (SIGTERM), so a standby takes over at once.
    fn release(&self) -> impl Future<Output = ()> + Send;
}

/// The default state directory.
#[must_use]
pub fn default_dir(env: &dyn Fn(&str) -> Option<String>) -> PathBuf {
    if let Some(x) = env("XDG_STATE_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(x).join("kafkaops");
    }
    match env("HOME").filter(|v| !v.is_empty()) {
        Some(h) => PathBuf::from(h).join(".local/state/kafkaops"),
        None => PathBuf::from(".kafkaops-state"),
    }
}

/// A file name for state about `target` (e.g. a Cruise Control URL): readable and safe.
#[must_use]
pub fn file_name(prefix: &str, target: &str) -> String {
    let mut s: String = target
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    while s.contains("--") {
        s = s.replace("--", "-");
    }
    format!("{prefix}-{}.json", s.trim_matches('-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_dir_and_file_names() {
        let env = |k: &str| (k == "HOME").then(|| "/home/ops".to_string());
        assert_eq!(
            default_dir(&env),
            PathBuf::from("/home/ops/.local/state/kafkaops")
        );
        let env = |k: &str| (k == "XDG_STATE_HOME").then(|| "/x".to_string());
        assert_eq!(default_dir(&env), PathBuf::from("/x/kafkaops"));
        assert_eq!(
            file_name("imbalance", "http://cc:9090/kafkacruisecontrol"),
            "imbalance-http-cc-9090-kafkacruisecontrol.json"
        );
    }
}
