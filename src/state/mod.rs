//! Where resumable state lives for the CLI: JSON files under a state directory.
//!
//! The engines keep their state as plain serde data (STYLE.md §1) so it can outlive a process:
//! `rebalance imbalance` remembers which goal violations a rebalance already handled, so a second
//! run (or the next `--watch` round after a restart) does not rebalance again for a violation
//! Cruise Control merely re-detected. The directory is configurable (`--state-dir`,
//! `KAFKAOPS_STATE_DIR`) and defaults to `$XDG_STATE_HOME/kafkaops` (`~/.local/state/kafkaops`).
//! Files are replaced atomically (write to a temporary file, then rename), so a crash never
//! leaves half a file. In the cluster, `operate` keeps the same data in a ConfigMap instead.

pub mod roll;

pub use roll::{FileStore, SavedRoll, default_state_dir, load_roll, remove_roll, roll_state_path};

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;
use serde::de::DeserializeOwned;

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

/// Reads a state file; `None` when it does not exist yet.
pub fn load<T: DeserializeOwned>(path: &Path) -> anyhow::Result<Option<T>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    serde_json::from_str(&text)
        .map(Some)
        .with_context(|| format!("{} is not a kafkaops state file", path.display()))
}

/// Replaces a state file atomically, creating its directory.
pub fn save<T: Serialize>(path: &Path, value: &T) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(value)?;
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
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

    #[test]
    fn round_trip_and_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub/s.json");
        assert_eq!(load::<Vec<u32>>(&p).unwrap(), None);
        save(&p, &vec![1u32, 2]).unwrap();
        assert_eq!(load::<Vec<u32>>(&p).unwrap(), Some(vec![1, 2]));
        std::fs::write(&p, "nope").unwrap();
        assert!(load::<Vec<u32>>(&p).is_err());
    }
}
