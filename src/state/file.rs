//! The one file store: JSON state files, replaced atomically.
//!
//! Every state file of kafkaops goes through [`write_atomic`]: the bytes are written to a
//! temporary file next to the target (named after the process, so two writers never share
//! one), synced, then renamed over the target, so a crash leaves either the previous content
//! or the new one. [`FileStore`] is the document store on a plain host (`operate`'s state, the
//! roll's state file under [`super::RollStore`]); [`load`] and [`save`] read and write a typed
//! state file at once (`rebalance imbalance`, `topic set-rf`, the cordon records).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Store, StoreError};

/// Replaces `path` with `bytes` atomically (temporary file, sync, rename), creating its
/// directory.
///
/// # Errors
/// The directory cannot be created or the file cannot be written or renamed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the state directory {}", dir.display()))?;
    let tmp = path.with_extension(format!("json.tmp-{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    };
    write().with_context(|| format!("cannot write {}", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("cannot save {}", path.display()))?;
    Ok(())
}

/// Reads a state file; `None` when it does not exist yet.
///
/// # Errors
/// The file exists but cannot be read or is not this kind of state.
pub fn load<T: DeserializeOwned>(path: &Path) -> anyhow::Result<Option<T>> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    serde_json::from_str(&text)
        .map(Some)
        .with_context(|| format!("{} is not a kafkaops state file", path.display()))
}

/// Replaces a state file atomically with `value` as pretty-printed JSON.
///
/// # Errors
/// See [`write_atomic`].
pub fn save<T: Serialize + ?Sized>(path: &Path, value: &T) -> anyhow::Result<()> {
    let text = serde_json::to_vec_pretty(value).context("cannot serialise the state")?;
    write_atomic(path, &text)
}

/// A JSON document in a file (written pretty-printed: people read these files).
#[derive(Debug, Clone)]
pub struct FileStore {
    path: PathBuf,
}

impl FileStore {
    #[must_use]
    pub fn new(path: PathBuf) -> FileStore {
        FileStore { path }
    }

    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The document, read at once (`None`: there is none).
    ///
    /// # Errors
    /// The file exists and cannot be read.
    pub fn read(&self) -> Result<Option<String>, StoreError> {
        match fs::read_to_string(&self.path) {
            Ok(t) => Ok(Some(t)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StoreError::Io(format!(
                "cannot read {}: {e}",
                self.path.display()
            ))),
        }
    }

    /// Replaces the document at once (it must be JSON).
    ///
    /// # Errors
    /// The document is not JSON, or the file cannot be written.
    pub fn write(&self, doc: &str) -> Result<(), StoreError> {
        let value: serde_json::Value = serde_json::from_str(doc)?;
        save(&self.path, &value).map_err(|e| StoreError::Io(format!("{e:#}")))
    }
}

impl Store<str> for FileStore {
    async fn load(&self) -> Result<Option<String>, StoreError> {
        self.read()
    }

    async fn save(&self, doc: &str) -> Result<(), StoreError> {
        self.write(doc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[tokio::test]
    async fn the_document_round_trips_and_no_temporary_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path().join("s.json"));
        assert_eq!(store.load().await.unwrap(), None);
        store.save("{\"a\":1}").await.unwrap();
        let back: serde_json::Value =
            serde_json::from_str(&store.load().await.unwrap().unwrap()).unwrap();
        assert_eq!(back["a"], 1);
        assert!(store.save("not json").await.is_err());
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["s.json"]);
    }
}
