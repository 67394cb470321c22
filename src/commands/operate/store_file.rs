//! The plain-host ports: the state as a JSON file in the state directory (replaced
//! atomically by [`crate::state`]'s write-then-rename), leadership as an exclusive lock on a
//! lock file next to it (a second instance waits until the first exits or releases), and no
//! recorder besides the loop's own log lines.
//!
//! The lock is the kernel's `flock` (through `std::fs::File::try_lock`), so it is released when
//! the process dies however it dies (SIGKILL included): a restarted or second instance takes it
//! over at once, and no stale lock file has to be cleaned up.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::ports::{ActionRecord, Leadership, PortError, Recorder, StateStore};

/// The state document in a file.
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
}

impl StateStore for FileStore {
    async fn load(&self) -> Result<Option<String>, PortError> {
        match std::fs::read_to_string(&self.path) {
            Ok(t) => Ok(Some(t)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(PortError::Io(format!(
                "cannot read {}: {e}",
                self.path.display()
            ))),
        }
    }

    async fn save(&self, doc: &str) -> Result<(), PortError> {
        let value: serde_json::Value =
            serde_json::from_str(doc).map_err(|e| PortError::Io(e.to_string()))?;
        crate::state::save(&self.path, &value).map_err(|e| PortError::Io(format!("{e:#}")))
    }
}

/// One instance per state file: an exclusive `flock` on `<state>.lock`.
pub struct LockLeadership {
    path: PathBuf,
    file: Mutex<Option<File>>,
    leading: AtomicBool,
    poll: Duration,
}

impl LockLeadership {
    #[must_use]
    pub fn new(path: PathBuf) -> LockLeadership {
        LockLeadership {
            path,
            file: Mutex::new(None),
            leading: AtomicBool::new(false),
            poll: Duration::from_millis(500),
        }
    }

    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn try_take(&self) -> Result<bool, PortError> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| PortError::Io(format!("cannot create {}: {e}", dir.display())))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.path)
            .map_err(|e| PortError::Io(format!("cannot open {}: {e}", self.path.display())))?;
        match file.try_lock() {
            Ok(()) => {
                *self
                    .file
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(file);
                self.leading.store(true, Ordering::SeqCst);
                Ok(true)
            }
            Err(std::fs::TryLockError::WouldBlock) => Ok(false),
            Err(std::fs::TryLockError::Error(e)) => Err(PortError::Io(format!(
                "cannot lock {}: {e}",
                self.path.display()
            ))),
        }
    }
}

impl Leadership for LockLeadership {
    async fn acquire(&self) -> Result<(), PortError> {
        let mut told = false;
        loop {
            if self.try_take()? {
                return Ok(());
            }
            if !told {
                super::log(format!(
                    "another kafkaops operate holds {}; waiting for it to exit",
                    self.path.display()
                ));
                told = true;
            }
            tokio::time::sleep(self.poll).await;
        }
    }

    fn is_leader(&self) -> bool {
        self.leading.load(Ordering::SeqCst)
    }

    async fn release(&self) {
        self.leading.store(false, Ordering::SeqCst);
        if let Some(f) = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
        {
            let _ = f.unlock();
        }
    }
}

/// Plain host: the loop's log line is the record.
pub struct LogRecorder;

impl Recorder for LogRecorder {
    async fn record(&self, _action: &ActionRecord) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_second_instance_waits_for_the_lock_and_the_state_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let a = LockLeadership::new(dir.path().join("s.lock"));
        let b = LockLeadership::new(dir.path().join("s.lock"));
        a.acquire().await.unwrap();
        assert!(a.is_leader());
        assert!(!b.try_take().unwrap());
        a.release().await;
        assert!(!a.is_leader());
        assert!(b.try_take().unwrap());
        let store = FileStore::new(dir.path().join("s.json"));
        assert_eq!(store.load().await.unwrap(), None);
        store.save("{\"a\":1}").await.unwrap();
        let back: serde_json::Value =
            serde_json::from_str(&store.load().await.unwrap().unwrap()).unwrap();
        assert_eq!(back["a"], 1);
    }
}
