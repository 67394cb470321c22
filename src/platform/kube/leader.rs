//! Leader election on a Lease: `operate`'s leadership in Kubernetes.
//!
//! [`LeaseLeadership::acquire`] waits (polling) until the Lease is free, expired or released;
//! the holder renews it every duration/3 in the background ([`lease::renew_in_background`],
//! as the roll's Lease is renewed) and gives it up at once on SIGTERM (holder cleared, not
//! deleted, so the RBAC needs no `delete`). A holder stops acting well before a standby may
//! take over ([`acting_window`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::KubeConn;
use super::lease::{self, Attempt, LeaseLock, Renewal};
use super::{KubeFailure, PlatformError};
use crate::state::{Leadership, StoreError};

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A line of `operate`'s log.
fn log(msg: impl std::fmt::Display) {
    tracing::info!("{msg}");
}

#[derive(Default)]
struct LeaderState {
    leading: AtomicBool,
    /// Until when our last successful write of the Lease lets us act (local clock, from before
    /// the write was sent; see [`acting_window`]).
    valid_until: Mutex<Option<Instant>>,
}

/// How long after sending its last successful renewal the leader keeps acting: two thirds of
/// the lease. A standby judges expiry from the leader-written `renewTime` plus the whole
/// (rounded-up) `leaseDurationSeconds` against its own clock; the last third absorbs clock
/// skew between the two and the time an action already under way needs to notice. Renewals
/// come every third, so one on time always extends it.
#[must_use]
pub fn acting_window(duration: Duration) -> Duration {
    duration * 2 / 3
}

impl LeaderState {
    fn is_leader(&self) -> bool {
        self.leading.load(Ordering::SeqCst)
            && lock(&self.valid_until).is_some_and(|t| Instant::now() < t)
    }

    fn confirmed(&self, sent: Instant, duration: Duration) {
        *lock(&self.valid_until) = Some(sent + acting_window(duration));
        self.leading.store(true, Ordering::SeqCst);
    }

    fn lost(&self) {
        self.leading.store(false, Ordering::SeqCst);
    }
}

/// Leader election on Lease `name`: [`Leadership::acquire`] waits (polling) until the Lease is
/// free, expired or released; the holder renews it every duration/3 in a background task.
/// [`Leadership::is_leader`] turns false as soon as a renewal fails or finds the Lease taken,
/// and in any case once two thirds of the duration passed since the last successful renewal
/// (a frozen or partitioned leader stops acting well before a standby may take over). After a failed renewal the
/// task keeps trying: a later success while still the holder makes it the leader again; a lost
/// Lease ends the task (call `acquire` again to stand by).
pub struct LeaseLeadership {
    lock: LeaseLock,
    state: Arc<LeaderState>,
    renewer: Mutex<Option<tokio::task::JoinHandle<()>>>,
    poll: Duration,
}

impl LeaseLeadership {
    /// `identity`: the holder identity written to the Lease (in a pod, its name; see
    /// [`crate::platform::kube::identity`]).
    #[must_use]
    pub fn new(conn: &KubeConn, name: &str, identity: &str, duration: Duration) -> Self {
        let poll = (duration / 6).clamp(Duration::from_millis(250), Duration::from_secs(5));
        LeaseLeadership {
            lock: LeaseLock::new(conn, name, identity, duration),
            state: Arc::new(LeaderState::default()),
            renewer: Mutex::new(None),
            poll,
        }
    }

    #[must_use]
    pub fn identity(&self) -> &str {
        self.lock.identity()
    }

    #[must_use]
    pub fn lease_name(&self) -> &str {
        self.lock.name()
    }

    fn stop_renewing(&self) {
        if let Some(h) = lock(&self.renewer).take() {
            h.abort();
        }
    }

    fn start_renewing(&self) {
        let state = Arc::clone(&self.state);
        let duration = self.lock.duration();
        let every = (duration / 3).max(Duration::from_millis(100));
        let task =
            lease::renew_in_background(self.lock.clone(), every, move |lease, answer, sent| {
                match answer {
                    Ok(Renewal::Renewed) => {
                        if !state.leading.load(Ordering::SeqCst) {
                            log(format!("renewed the lease {} again: leading", lease.name()));
                        }
                        state.confirmed(sent, duration);
                        true
                    }
                    Ok(Renewal::Lost) => {
                        state.lost();
                        log(format!(
                            "lost the lease {}: another instance holds it; not acting any more",
                            lease.name()
                        ));
                        false
                    }
                    Err(e) => {
                        if state.leading.swap(false, Ordering::SeqCst) {
                            log(format!(
                                "cannot renew the lease {}: {e}; not acting until it is renewed",
                                lease.name()
                            ));
                        }
                        true
                    }
                }
            });
        *lock(&self.renewer) = Some(task);
    }
}

impl Drop for LeaseLeadership {
    fn drop(&mut self) {
        self.stop_renewing();
    }
}

impl Leadership for LeaseLeadership {
    async fn acquire(&self) -> Result<(), StoreError> {
        if self.is_leader() {
            return Ok(());
        }
        self.stop_renewing();
        let mut waiting_for = None;
        loop {
            let sent = Instant::now();
            match self.lock.try_acquire().await {
                Ok(Attempt::Acquired) => {
                    self.state.confirmed(sent, self.lock.duration());
                    self.start_renewing();
                    log(format!(
                        "holding the lease {} as {}: leading",
                        self.lock.name(),
                        self.lock.identity()
                    ));
                    return Ok(());
                }
                Ok(Attempt::Held { holder, renewed }) => {
                    if waiting_for.as_ref() != Some(&holder) {
                        log(format!(
                            "standing by: the lease {} is held by {holder} (renewed {renewed})",
                            self.lock.name()
                        ));
                        waiting_for = Some(holder);
                    }
                }
                // The apiserver away for a moment: keep standing by.
                Err(PlatformError::Kube {
                    reason: KubeFailure::Unreachable,
                    message,
                    ..
                }) => {
                    log(format!(
                        "cannot read the lease {}: {message}",
                        self.lock.name()
                    ));
                }
                Err(e) => return Err(StoreError::from(e)),
            }
            tokio::time::sleep(self.poll).await;
        }
    }

    fn is_leader(&self) -> bool {
        self.state.is_leader()
    }

    async fn release(&self) {
        self.stop_renewing();
        self.state.lost();
        self.lock.release(false).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leader_stops_acting_at_two_thirds_of_the_lease() {
        let d = Duration::from_secs(15);
        assert_eq!(acting_window(d), Duration::from_secs(10));
        let s = LeaderState::default();
        assert!(!s.is_leader());
        // Renewed (sent) 9 s ago: still acting; 11 s ago: not any more, although the Lease
        // (15 s) is still ours in the eyes of a standby.
        let now = Instant::now();
        s.confirmed(now - Duration::from_secs(9), d);
        assert!(s.is_leader());
        s.confirmed(now - Duration::from_secs(11), d);
        assert!(!s.is_leader());
        s.confirmed(now, d);
        assert!(s.is_leader());
        s.lost();
        assert!(!s.is_leader());
    }
}
