//! The roll session the CLI and `operate` share: what a roll is asked to do (the engine's
//! per-node requests and the platform's restart reasons, [`requests`](mod@requests)), how it is set up (its
//! limits, the platform, the first look at the nodes, the driver's options, [`setup`]), its
//! progress in words ([`progress`]) and the session over [`crate::driver`]'s step function
//! ([`session`]: the saved request, resuming, the loop the CLI runs; `operate` steps the same
//! run once per loop).
//!
//! `kafkaops roll` turns its flags into these pieces and renders what they report on stderr
//! and stdout; `operate` builds them from its policy and logs. Nothing here prints or knows a
//! flag's parser (the words of a restart reason, "selected with --all", name the flags the
//! request came from).

pub mod prepare;
pub mod progress;
pub mod requests;
pub mod session;
pub mod setup;

use std::time::Duration;

pub use progress::ProgressLines;
pub use requests::{RequestError, Role, Selection, pod_reasons, requests, with_platform_reasons};
pub use setup::{
    EmptyCommand, RollLimits, RollSettings, driver_options, millis, observe_nodes, platform,
    platform_nodes, restart_method, with_known_brokers,
};

/// How long a roll's Kubernetes lease lives without renewal (renewed every third of it):
/// `kafkaops roll` and `operate` take the same per-cluster Lease.
pub const LEASE_DURATION: Duration = Duration::from_secs(30);
