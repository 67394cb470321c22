//! Where the suite's time goes: an optional log of the harness's slow steps.
//!
//! With `KAFKAOPS_TEST_TIMINGS=<file>` set, the harness appends one tab-separated line per cluster
//! start and stop, apiserver start, Cruise Control double start, wait for the cluster lock and
//! [`super::kafka::wait_for`] that took a second or more: `unix ms, test binary, test (the thread's
//! name), kind, milliseconds, detail`. `tests/env/timings.sh` sums it per binary. Unset, nothing is
//! written and nothing is measured that a test could observe.
#![allow(dead_code)] // Shared by several test binaries and examples; each uses a subset.

use std::fs::OpenOptions;
use std::io::Write;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Appends a line for `kind` (one word) that took `took`; `detail` is free text.
pub fn record(kind: &str, took: Duration, detail: &str) {
    let Some(path) = std::env::var_os("KAFKAOPS_TEST_TIMINGS") else {
        return;
    };
    let binary = binary_name();
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("?");
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis();
    let line = format!(
        "{now}\t{binary}\t{test}\t{kind}\t{}\t{}\n",
        took.as_millis(),
        detail.replace(['\t', '\n'], " ")
    );
    // One `write` of a line opened with O_APPEND: lines of concurrent tests do not interleave.
    if let Ok(mut f) = OpenOptions::new().create(true).append(true).open(path) {
        let _ = f.write_all(line.as_bytes());
    }
}

/// The name of the running test binary (`cluster`, `kube`, ...): cargo names them
/// `<target>-<16 hex digits>`.
pub fn binary_name() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .map(|n| match n.rsplit_once('-') {
            Some((name, hash)) if hash.len() == 16 => name.to_string(),
            _ => n,
        })
        .unwrap_or_default()
}
