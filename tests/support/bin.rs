//! The kafkaops binary under test, as the integration tests run it, and what a run gave back.
//!
//! One copy for every test binary: each used to carry its own `kafkaops_bin()` and `Out`.
#![allow(dead_code)] // Shared by several test binaries and an example; each uses a subset.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A private copy of the binary under test, taken the first time it is asked for: the shared
/// cargo target directory's `kafkaops` may be rebuilt from another worktree while the tests run.
/// `KAFKAOPS_TEST_BIN` names another binary to test instead.
///
/// Statics are never dropped, so the copy's directory is removed by an `atexit` handler when the
/// test process exits (each copy is the size of the debug binary, ~180 MB; one leaked per test
/// binary run filled the disk).
pub fn kafkaops_bin() -> &'static Path {
    static BIN: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    extern "C" fn remove_copy() {
        if let Some((dir, _)) = BIN.get() {
            let _ = std::fs::remove_dir_all(dir.path());
        }
    }
    &BIN.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        // SAFETY: registers a plain function with no arguments, run once by libc at exit.
        unsafe { libc::atexit(remove_copy) };
        let path = dir.path().join("kafkaops");
        // `option_env!`: cargo sets it for integration tests, not for the example that also
        // includes this support code (and never calls this).
        let source = std::env::var_os("KAFKAOPS_TEST_BIN")
            .map(PathBuf::from)
            .or_else(|| option_env!("CARGO_BIN_EXE_kafkaops").map(PathBuf::from))
            .expect("no kafkaops binary: set KAFKAOPS_TEST_BIN");
        std::fs::copy(&source, &path).unwrap();
        (dir, path)
    })
    .1
}

/// The exit code and output of one kafkaops run.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    /// Stdout as JSON; panics with both streams when it is not.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", self.stdout, self.stderr))
    }

    /// The nodes a `roll --output json` plan restarts or reconfigures, sorted.
    pub fn planned_roll_nodes(&self) -> Vec<i64> {
        let plan = self.json();
        let mut nodes: Vec<i64> = plan["plan"]["steps"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|s| s["nodes"].as_array().cloned().unwrap_or_default())
            .filter_map(|n| n["node"].as_i64())
            .collect();
        nodes.sort_unstable();
        nodes
    }
}
