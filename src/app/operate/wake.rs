//! When the loop looks again: outages of what it reads, and an early wake-up on a policy change.
//!
//! A controller does not exit because Kafka or Cruise Control is down: an outage is logged once
//! when it starts (and again only when its error changes), once when it ends, and while it lasts
//! the loop looks again with the anomaly watcher's backoff
//! ([`crate::engine::anomalies::poll_delay_ms`]: one second, doubling, never longer than
//! `--resync`), so a restarted Cruise Control is found again quickly and a long outage is not
//! hammered.
//!
//! The loop sleeps `--resync` between loops; a small task hashes the policy file every
//! [`POLICY_CHECK`] and wakes the loop when the content changes, so an edited policy applies
//! within seconds, not at the next resync. The content is hashed (not the mtime): a Kubernetes
//! ConfigMap volume swaps a symlink, and an edit may keep the mtime. What the policy says is still
//! read and checked by the loop itself; this task only wakes it. A running Cruise Control flow
//! that wants its next look sooner than the resync already shortens the pause (`step_flow`
//! returns the flow's own wake-up time). In Kubernetes a watch of the cluster's pods (and, with
//! `--strimzi`, its KafkaNodePools) wakes the loop too ([`ClusterChanges`]): a pod annotated
//! for a roll, going not-Ready or stuck, or a pool's scale-down intent is acted on within about
//! a second, not at the next resync. Like the policy task, the watch only wakes the loop; what
//! changed is read by the loop itself.

use std::collections::BTreeMap;
use std::hash::{Hash as _, Hasher as _};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::cruise_control::CcError;
use crate::cruise_control::client::{LogObserver, Observer};
use crate::cruise_control::model::ProgressStep;
use crate::engine::anomalies::poll_delay_ms;

/// How often the policy file is hashed for the early wake-up.
pub const POLICY_CHECK: Duration = Duration::from_secs(2);

/// The outages of the sources the loop reads ("Kafka", "Cruise Control", ...).
#[derive(Debug, Default)]
pub struct Outages {
    /// Source -> the error it answered with, while it is down.
    down: BTreeMap<&'static str, String>,
    /// Loops in a row in which something was down.
    failures: u32,
}

impl Outages {
    /// Notes what `source` answered this loop; returns the line to log (`None`: nothing changed).
    pub fn note(&mut self, source: &'static str, result: Result<(), &str>) -> Option<String> {
        match result {
            Ok(()) => self
                .down
                .remove(source)
                .map(|_| format!("{source} answers again")),
            Err(e) => {
                if self.down.get(source).map(String::as_str) == Some(e) {
                    return None;
                }
                let line = if self.down.contains_key(source) {
                    format!("{source} still cannot be read, now: {e}")
                } else {
                    format!("{source} cannot be read (looking again with backoff): {e}")
                };
                self.down.insert(source, e.to_string());
                Some(line)
            }
        }
    }

    /// Ends a loop; returns the pause before the next one: `resync` while everything answers,
    /// else the backoff (one second, doubling, at most `resync`).
    pub fn pause(&mut self, resync: Duration) -> Duration {
        if self.down.is_empty() {
            self.failures = 0;
        } else {
            self.failures = self.failures.saturating_add(1);
        }
        let resync_ms = super::millis(resync);
        Duration::from_millis(poll_delay_ms(resync_ms, self.failures, resync_ms))
    }
}

/// The observation's Cruise Control observer: a retry within one read is a debug line (the loop
/// logs an outage once, through [`Outages`]), the rest as [`LogObserver`] says it.
pub struct QuietRetries;

impl Observer for QuietRetries {
    fn retrying(&self, waiting_for: &str, attempt: u32, retry_in: Duration, error: &CcError) {
        tracing::debug!(
            "waiting for {waiting_for} (attempt {attempt}, next in {}): {error}",
            humantime::format_duration(retry_in)
        );
    }
    fn computing(&self, task_id: &str, step: Option<&ProgressStep>) {
        LogObserver.computing(task_id, step);
    }
}

/// Hashes the file's content (`None`: it cannot be read now).
fn content_hash(path: &std::path::Path) -> Option<u64> {
    let bytes = std::fs::read(path).ok()?;
    let mut h = std::hash::DefaultHasher::new();
    bytes.hash(&mut h);
    Some(h.finish())
}

/// Watches the policy file: `notified()` on the returned handle resolves after its content
/// changed. The task ends when the handle is dropped.
pub struct PolicyWatch {
    changed: Arc<tokio::sync::Notify>,
    task: tokio::task::JoinHandle<()>,
}

impl PolicyWatch {
    /// Starts hashing `path` every `every`.
    #[must_use]
    pub fn start(path: PathBuf, every: Duration) -> PolicyWatch {
        let changed = Arc::new(tokio::sync::Notify::new());
        let notify = changed.clone();
        let task = tokio::spawn(async move {
            let mut last = content_hash(&path);
            loop {
                tokio::time::sleep(every).await;
                let now = content_hash(&path);
                if now.is_some() && now != last {
                    notify.notify_one();
                }
                last = now;
            }
        });
        PolicyWatch { changed, task }
    }

    /// Resolves once the content changed since the last wake-up (a change while the loop was
    /// busy is kept for its next sleep).
    pub async fn changed(&self) {
        self.changed.notified().await;
    }
}

impl Drop for PolicyWatch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The cluster changed (in Kubernetes: a pod or a node pool, see
/// `commands::operate::kube_ports::ClusterWatch`): `changed()` resolves with what changed, at most once
/// per `commands::operate::kube_ports::DEBOUNCE` (a burst of changes wakes the loop once, after it
/// settled). The watches and the debounce end when the handle is dropped.
pub struct ClusterChanges {
    changed: Arc<tokio::sync::Notify>,
    what: Arc<std::sync::Mutex<Vec<String>>>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl ClusterChanges {
    /// Debounces what the `watches` send on `rx` (each a short description of a change).
    #[must_use]
    pub fn start(
        mut rx: tokio::sync::mpsc::UnboundedReceiver<String>,
        debounce: Duration,
        mut watches: Vec<tokio::task::JoinHandle<()>>,
    ) -> ClusterChanges {
        let changed = Arc::new(tokio::sync::Notify::new());
        let what = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (notify, seen) = (changed.clone(), what.clone());
        watches.push(tokio::spawn(async move {
            while let Some(first) = rx.recv().await {
                let mut batch = std::collections::BTreeSet::from([first]);
                let settle = tokio::time::sleep(debounce);
                tokio::pin!(settle);
                loop {
                    tokio::select! {
                        () = &mut settle => break,
                        more = rx.recv() => match more {
                            Some(m) => { batch.insert(m); }
                            None => break,
                        },
                    }
                }
                let mut w = seen
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                for b in batch {
                    if !w.contains(&b) {
                        w.push(b);
                    }
                }
                drop(w);
                notify.notify_one();
            }
        }));
        ClusterChanges {
            changed,
            what,
            tasks: watches,
        }
    }

    /// Resolves once something changed since the last wake-up, with what changed (a change
    /// while the loop was busy is kept for its next sleep).
    pub async fn changed(&self) -> String {
        self.changed.notified().await;
        let mut w = self
            .what
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        std::mem::take(&mut *w).join(", ")
    }
}

impl Drop for ClusterChanges {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outage_is_logged_once_per_change_and_its_end_once() {
        let mut o = Outages::default();
        assert_eq!(o.note("Kafka", Ok(())), None);
        let first = o.note("Cruise Control", Err("connection refused"));
        assert!(first.is_some_and(|l| l.contains("connection refused")));
        assert_eq!(o.note("Cruise Control", Err("connection refused")), None);
        assert_eq!(o.note("Cruise Control", Err("connection refused")), None);
        let changed = o.note("Cruise Control", Err("503 Service Unavailable"));
        assert!(changed.is_some_and(|l| l.contains("503")));
        assert_eq!(
            o.note("Cruise Control", Ok(())).as_deref(),
            Some("Cruise Control answers again")
        );
        assert_eq!(o.note("Cruise Control", Ok(())), None);
    }

    #[test]
    fn the_pause_backs_off_while_something_is_down_and_is_the_resync_otherwise() {
        let resync = Duration::from_secs(30);
        let mut o = Outages::default();
        assert_eq!(o.pause(resync), resync);
        o.note("Kafka", Err("refused"));
        let pauses: Vec<u64> = (0..7).map(|_| o.pause(resync).as_secs()).collect();
        assert_eq!(pauses, vec![1, 2, 4, 8, 16, 30, 30]);
        o.note("Kafka", Ok(()));
        assert_eq!(o.pause(resync), resync);
        // A resync shorter than the first backoff step is never exceeded.
        o.note("Kafka", Err("refused"));
        assert_eq!(
            o.pause(Duration::from_millis(300)),
            Duration::from_millis(300)
        );
    }

    #[tokio::test]
    async fn a_burst_of_cluster_changes_wakes_the_loop_once_after_it_settled() {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let changes = ClusterChanges::start(rx, Duration::from_millis(200), Vec::new());
        let quiet = tokio::time::timeout(Duration::from_millis(300), changes.changed()).await;
        assert!(quiet.is_err(), "woken without a change");
        for m in ["pod a", "pod b", "pod a"] {
            tx.send(m.to_string()).unwrap();
        }
        let what = tokio::time::timeout(Duration::from_secs(30), changes.changed())
            .await
            .expect("a change wakes the loop");
        assert_eq!(what, "pod a, pod b");
        let again = tokio::time::timeout(Duration::from_millis(500), changes.changed()).await;
        assert!(again.is_err(), "one burst woke the loop twice");
    }

    #[tokio::test]
    async fn a_changed_policy_wakes_the_loop_and_an_unchanged_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("policy.yaml");
        std::fs::write(&path, "autoRebalance: []\n").unwrap();
        let watch = PolicyWatch::start(path.clone(), Duration::from_millis(20));
        // Unchanged (rewritten with the same content): no wake-up.
        std::fs::write(&path, "autoRebalance: []\n").unwrap();
        let quiet = tokio::time::timeout(Duration::from_millis(300), watch.changed()).await;
        assert!(quiet.is_err(), "woken without a change");
        std::fs::write(&path, "autoRebalance: []\ndrain: [3]\n").unwrap();
        tokio::time::timeout(Duration::from_secs(30), watch.changed())
            .await
            .expect("a changed policy wakes the loop");
    }
}
