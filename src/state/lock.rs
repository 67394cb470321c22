//! Leadership on a plain host: an exclusive lock on a lock file next to the state file, so one
//! instance writes a state file at a time (a second one waits until the first exits or
//! releases).
//!
//! The lock is the kernel's `flock` (through `std::fs::File::try_lock`), so it is released when
//! the process dies however it dies (SIGKILL included): a restarted or second instance takes it
//! over at once, and no stale lock file has to be cleaned up.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{Leadership, StoreError};

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

    fn try_take(&self) -> Result<bool, StoreError> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| StoreError::Io(format!("cannot create {}: {e}", dir.display())))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.path)
            .map_err(|e| StoreError::Io(format!("cannot open {}: {e}", self.path.display())))?;
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
            Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Io(format!(
                "cannot lock {}: {e}",
                self.path.display()
            ))),
        }
    }
}

impl Leadership for LockLeadership {
    async fn acquire(&self) -> Result<(), StoreError> {
        let mut told = false;
        loop {
            if self.try_take()? {
                return Ok(());
            }
            if !told {
                tracing::info!(
                    "another kafkaops operate holds {}; waiting for it to exit",
                    self.path.display()
                );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_second_instance_waits_for_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let a = LockLeadership::new(dir.path().join("s.lock"));
        let b = LockLeadership::new(dir.path().join("s.lock"));
        a.acquire().await.unwrap();
        assert!(a.is_leader());
        assert!(!b.try_take().unwrap());
        a.release().await;
        assert!(!a.is_leader());
        assert!(b.try_take().unwrap());
    }
}
