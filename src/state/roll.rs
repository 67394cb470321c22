//! The saved state of `kafkaops roll`: one JSON file per cluster in the state directory.
//!
//! `kafkaops roll` saves its [`RollRun`] after every step (and, through the driver's store,
//! [`RollStore`], before and after every command) in `<state dir>/roll-<cluster>.json`:
//!
//! ```json
//! {
//!   "format": "kafkaops.roll-state.v1",
//!   "cluster": "<cluster id, or the bootstrap servers when the cluster id is unknown>",
//!   "request": { "selection": ..., "desired_config": ..., "config": ..., "restart": ... },
//!   "saved_at_ms": 1763862000000,
//!   "run": { "roller": ..., "pending": { "decision": ..., "status": "issued", ... }, ... }
//! }
//! ```
//!
//! The file is written by the one file store ([`super::file::write_atomic`]: a temporary file
//! in the same directory, synced, then renamed over the old one), so a crash leaves either the
//! previous step's state or the new one.
//! `request` is what the user asked for: a run of the same request resumes the saved run, a
//! different one is refused until the saved run is finished or discarded.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::file::write_atomic;
use super::{Store, StoreError};
use crate::engine::roll::run::RollRun;

/// The `format` of a roll state file.
pub const ROLL_STATE_FORMAT: &str = "kafkaops.roll-state.v1";

/// The default state directory: `$XDG_STATE_HOME/kafkaops`, else
/// `$HOME/.local/state/kafkaops`, else `.kafkaops-state` in the working directory.
#[must_use]
pub fn default_state_dir() -> PathBuf {
    super::default_dir(&|k| std::env::var(k).ok())
}

/// The state file of a roll of `cluster` in `dir`.
#[must_use]
pub fn roll_state_path(dir: &Path, cluster: &str) -> PathBuf {
    let name: String = cluster
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    dir.join(format!("roll-{name}.json"))
}

/// A saved roll.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SavedRoll {
    pub format: String,
    pub cluster: String,
    pub request: serde_json::Value,
    pub saved_at_ms: u64,
    pub run: RollRun,
}

/// Reads the saved roll at `path` (`None`: there is none).
///
/// # Errors
/// The file exists but cannot be read or is not a roll state of this format.
pub fn load_roll(path: &Path) -> anyhow::Result<Option<SavedRoll>> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let saved: SavedRoll = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a readable roll state", path.display()))?;
    if saved.format != ROLL_STATE_FORMAT {
        anyhow::bail!(
            "{} has format {:?}, this kafkaops reads {ROLL_STATE_FORMAT:?}",
            path.display(),
            saved.format
        );
    }
    Ok(Some(saved))
}

/// Deletes the saved roll at `path` (no error when there is none).
///
/// # Errors
/// The file exists and cannot be removed.
pub fn remove_roll(path: &Path) -> anyhow::Result<()> {
    match fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
    }
}

/// Saves a roll to its file (atomically, through [`write_atomic`]).
#[derive(Debug, Clone)]
pub struct RollStore {
    pub path: PathBuf,
    pub cluster: String,
    pub request: serde_json::Value,
    /// Set while the saved run has a restart command issued and not yet done (the CLI's
    /// Ctrl-C handling waits for it).
    pub restart_in_flight: Arc<AtomicBool>,
}

impl RollStore {
    #[must_use]
    pub fn new(path: PathBuf, cluster: String, request: serde_json::Value) -> RollStore {
        RollStore {
            path,
            cluster,
            request,
            restart_in_flight: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Saves `run` at once.
    ///
    /// # Errors
    /// The state cannot be serialised or written.
    pub fn write(&self, run: &RollRun) -> anyhow::Result<()> {
        self.restart_in_flight
            .store(!run.restart_in_flight().is_empty(), Ordering::SeqCst);
        let saved = SavedRoll {
            format: ROLL_STATE_FORMAT.to_string(),
            cluster: self.cluster.clone(),
            request: self.request.clone(),
            saved_at_ms: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            run: run.clone(),
        };
        let json = serde_json::to_vec_pretty(&saved).context("cannot serialise the roll state")?;
        write_atomic(&self.path, &json)
    }
}

impl Store<RollRun> for RollStore {
    async fn load(&self) -> Result<Option<RollRun>, StoreError> {
        Ok(load_roll(&self.path)
            .map_err(|e| StoreError::Io(format!("{e:#}")))?
            .map(|s| s.run))
    }

    async fn save(&self, run: &RollRun) -> Result<(), StoreError> {
        self.write(run)
            .map_err(|e| StoreError::Io(format!("{e:#}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_paths_are_one_file_per_cluster() {
        let p = roll_state_path(Path::new("/s"), "abc-DEF_1/x:9092");
        assert_eq!(p, PathBuf::from("/s/roll-abc-DEF_1_x_9092.json"));
    }
}
