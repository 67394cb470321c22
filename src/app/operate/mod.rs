//! The `operate` loop: the other subcommands' logic as a long-running controller, generic over
//! its ports, so the CLI edge (`commands::operate`) only resolves its arguments into an
//! [`OperateSpec`], builds the real ports and maps how the loop ended to an exit code.
//!
//! Each loop (a resync interval, woken early by changes) observes Kafka, Cruise Control and,
//! in Kubernetes, the pods ([`observe`]); decides with the pure engines
//! (`crate::engine::operate` over the auto-rebalance machine, the replication-factor engine
//! and the roll engine); acts through the same adapters and drivers as the CLI ([`steps`]).
//! What differs between a plain host and Kubernetes sits behind [`ports`]. [`telemetry`]
//! keeps the metrics and health and serves them; [`wake`] says when the loop looks again.
//!
//! A controller outlives outages: without `--once`, Kafka or Cruise Control not answering is
//! waited for with backoff and logged once per change ([`wake`]), and the loop acts again when
//! they answer. A leader that is deposed (its save answered a conflict, or it lost the Lease)
//! stops acting, waits to lead again and then goes on from the state the other leader left.
//!
//! The loop ([`Operator`]) persists the state after every transition (and before an execution
//! request is sent, so a successor attaches to the task instead of sending it again), only the
//! leader acts, and a stop signal persists, releases and ends the run, leaving a running Cruise
//! Control execution to finish on its own.

pub mod act;
mod held;
mod live_roll;
pub mod observe;
mod operator;
mod persist;
pub mod policy;
pub mod ports;
pub mod roll;
mod spec;
mod steps;
pub mod telemetry;
mod tick;
pub mod wake;

#[cfg(test)]
mod leadership_tests;
#[cfg(test)]
mod scripted_tests;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::engine::model::Millis;

pub use live_roll::LiveRoll;
pub use operator::{Clock, Operator};
pub use spec::{DryRunReport, Ended, OperateError, OperateSpec, PlannedAction};

/// One log line of the loop (stderr, through `tracing`: text, or JSON with `--log-format json`;
/// `operate` logs at info by default, see `main.rs`).
pub fn log(msg: impl std::fmt::Display) {
    tracing::info!("{msg}");
}

/// A log line about something wrong that the loop rides out.
pub fn warn(msg: impl std::fmt::Display) {
    tracing::warn!("{msg}");
}

fn now_ms() -> Millis {
    Millis(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
    )
}

fn now_secs() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// `d` in whole milliseconds (saturating).
#[must_use]
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
