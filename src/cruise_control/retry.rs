//! When to try again: a pure backoff decision.
//!
//! The client retries retryable failures (reference §5) with exponential backoff
//! until a deadline; the decision takes `now` as an argument so it is tested
//! without clocks or sleeps, and the imperative loop in the client only sleeps.

use std::time::{Duration, Instant};

use super::error::{CcError, ErrorClass, Transient};

/// How hard to retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// First pause.
    pub initial: Duration,
    /// Longest pause.
    pub max: Duration,
    /// Give up when the next attempt would start after this.
    pub deadline: Instant,
    /// Which transient causes are worth waiting for (e.g. a CLI may refuse to wait
    /// for an ongoing execution and report it at once instead).
    pub wait_for_not_ready: bool,
    /// Stop waiting for "not ready yet" (still sampling) at this instant, if earlier than
    /// `deadline`; the other waits (202 polling, task limit) keep the whole `deadline`.
    pub not_ready_deadline: Option<Instant>,
    pub wait_for_busy: bool,
    /// Whether the request may be repeated after a timeout: a timed-out non-dry-run
    /// POST may already have started an execution, so it must not be re-sent.
    pub idempotent: bool,
    /// Connection failures are retried at most this many times: an unreachable
    /// Cruise Control is reported quickly rather than waited for until the deadline.
    pub max_unreachable_attempts: u32,
    /// Shortest pause after "already N active user tasks": a slot frees only when
    /// the server's task scanner runs (every 5 s).
    pub task_limit_pause: Duration,
}

impl RetryPolicy {
    /// Retry transient connection problems and the task limit until `deadline`.
    #[must_use]
    pub fn until(deadline: Instant) -> Self {
        Self {
            initial: Duration::from_secs(1),
            max: Duration::from_secs(30),
            deadline,
            wait_for_not_ready: false,
            not_ready_deadline: None,
            wait_for_busy: false,
            idempotent: true,
            max_unreachable_attempts: 4,
            task_limit_pause: Duration::from_secs(5),
        }
    }

    /// Never retry.
    #[must_use]
    pub fn never(now: Instant) -> Self {
        Self::until(now)
    }
}

/// The pauses of a retry loop (tests shorten them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    pub initial: Duration,
    pub max: Duration,
    pub task_limit_pause: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Self {
            initial: Duration::from_secs(1),
            max: Duration::from_secs(30),
            task_limit_pause: Duration::from_secs(5),
        }
    }
}

impl RetryPolicy {
    /// [`RetryPolicy::until`] with other pauses.
    #[must_use]
    pub fn with_backoff(deadline: Instant, b: Backoff) -> Self {
        Self {
            initial: b.initial,
            max: b.max,
            task_limit_pause: b.task_limit_pause,
            ..Self::until(deadline)
        }
    }
}

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryDecision {
    /// Sleep this long, then try again.
    RetryAfter(Duration),
    /// Stop and report the error.
    GiveUp,
}

/// Decides whether attempt number `attempt` (1-based, just failed with `error`) is retried (pure).
#[must_use]
pub fn decide(policy: &RetryPolicy, attempt: u32, now: Instant, error: &CcError) -> RetryDecision {
    let ErrorClass::Retryable(t) = error.class() else {
        return RetryDecision::GiveUp;
    };
    let wanted = match t {
        Transient::NotEnoughValidWindows | Transient::PleaseRetry => policy.wait_for_not_ready,
        Transient::OngoingExecution => policy.wait_for_busy,
        Transient::Timeout => policy.idempotent,
        // A request that may have reached the server is re-sent only if repeating it is harmless.
        Transient::Unreachable => {
            attempt < policy.max_unreachable_attempts
                && (policy.idempotent
                    || matches!(error, CcError::Unreachable { connect: true, .. }))
        }
        Transient::ActiveTaskLimit => true,
    };
    if !wanted {
        return RetryDecision::GiveUp;
    }
    let exp = attempt.saturating_sub(1).min(16);
    let pause = policy.initial.saturating_mul(1u32 << exp).min(policy.max);
    let pause = if t == Transient::ActiveTaskLimit {
        pause.max(policy.task_limit_pause)
    } else {
        pause
    };
    let deadline = match t {
        Transient::NotEnoughValidWindows | Transient::PleaseRetry => policy
            .not_ready_deadline
            .map_or(policy.deadline, |d| d.min(policy.deadline)),
        _ => policy.deadline,
    };
    match now.checked_add(pause) {
        Some(next) if next <= deadline => RetryDecision::RetryAfter(pause),
        _ => RetryDecision::GiveUp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cruise_control::error::classify;

    fn api(msg: &str) -> CcError {
        CcError::Api {
            endpoint: "x".into(),
            status: 500,
            message: msg.into(),
            class: classify(500, msg),
        }
    }

    #[test]
    fn backoff_grows_is_capped_and_stops_at_the_deadline() {
        let now = Instant::now();
        let p = RetryPolicy {
            deadline: now + Duration::from_secs(60),
            ..RetryPolicy::until(now)
        };
        let e = CcError::Unreachable {
            url: "u".into(),
            detail: "refused".into(),
            connect: true,
        };
        assert_eq!(
            decide(&p, 1, now, &e),
            RetryDecision::RetryAfter(Duration::from_secs(1))
        );
        assert_eq!(
            decide(&p, 3, now, &e),
            RetryDecision::RetryAfter(Duration::from_secs(4))
        );
        assert_eq!(decide(&p, 4, now, &e), RetryDecision::GiveUp);
        let patient = RetryPolicy {
            max_unreachable_attempts: 100,
            ..p
        };
        assert_eq!(
            decide(&patient, 10, now, &e),
            RetryDecision::RetryAfter(Duration::from_secs(30))
        );
        assert_eq!(
            decide(&p, 1, now + Duration::from_secs(60), &e),
            RetryDecision::GiveUp
        );
    }

    #[test]
    fn a_possibly_sent_mutation_is_not_resent_but_a_refused_connection_is() {
        let now = Instant::now();
        let p = RetryPolicy {
            deadline: now + Duration::from_secs(60),
            idempotent: false,
            ..RetryPolicy::until(now)
        };
        let reset = CcError::Unreachable {
            url: "u".into(),
            detail: "connection reset".into(),
            connect: false,
        };
        let refused = CcError::Unreachable {
            url: "u".into(),
            detail: "refused".into(),
            connect: true,
        };
        assert_eq!(decide(&p, 1, now, &reset), RetryDecision::GiveUp);
        assert!(matches!(
            decide(&p, 1, now, &refused),
            RetryDecision::RetryAfter(_)
        ));
        let reads = RetryPolicy {
            idempotent: true,
            ..p
        };
        assert!(matches!(
            decide(&reads, 1, now, &reset),
            RetryDecision::RetryAfter(_)
        ));
    }

    #[test]
    fn waiting_for_readiness_has_its_own_deadline() {
        let now = Instant::now();
        let p = RetryPolicy {
            deadline: now + Duration::from_secs(1800),
            wait_for_not_ready: true,
            not_ready_deadline: Some(now + Duration::from_secs(60)),
            ..RetryPolicy::until(now)
        };
        let windows = api("NotEnoughValidWindowsException");
        let limit =
            api("There are already 5 active user tasks, which has reached the servlet capacity.");
        let later = now + Duration::from_secs(120);
        assert_eq!(decide(&p, 1, later, &windows), RetryDecision::GiveUp);
        assert!(matches!(
            decide(&p, 1, later, &limit),
            RetryDecision::RetryAfter(_)
        ));
        assert!(matches!(
            decide(&p, 1, now, &windows),
            RetryDecision::RetryAfter(_)
        ));
    }

    #[test]
    fn only_wanted_causes_are_retried() {
        let now = Instant::now();
        let mut p = RetryPolicy {
            deadline: now + Duration::from_secs(600),
            ..RetryPolicy::until(now)
        };
        let windows = api("NotEnoughValidWindowsException");
        let busy = api("OngoingExecutionException");
        assert_eq!(decide(&p, 1, now, &windows), RetryDecision::GiveUp);
        assert_eq!(decide(&p, 1, now, &busy), RetryDecision::GiveUp);
        assert_eq!(
            decide(&p, 1, now, &api("Broker [1] does not exist")),
            RetryDecision::GiveUp
        );
        p.wait_for_not_ready = true;
        p.wait_for_busy = true;
        assert!(matches!(
            decide(&p, 1, now, &windows),
            RetryDecision::RetryAfter(_)
        ));
        assert!(matches!(
            decide(&p, 1, now, &busy),
            RetryDecision::RetryAfter(_)
        ));
        // The task limit waits for the 5 s scanner.
        assert_eq!(
            decide(
                &p,
                1,
                now,
                &api(
                    "There are already 5 active user tasks, which has reached the servlet capacity."
                )
            ),
            RetryDecision::RetryAfter(Duration::from_secs(5))
        );
        let timeout = CcError::Timeout {
            url: "u".into(),
            timeout: Duration::from_secs(1),
        };
        assert!(matches!(
            decide(&p, 1, now, &timeout),
            RetryDecision::RetryAfter(_)
        ));
        p.idempotent = false;
        assert_eq!(decide(&p, 1, now, &timeout), RetryDecision::GiveUp);
    }
}
