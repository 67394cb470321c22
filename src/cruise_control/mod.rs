//! Typed Cruise Control REST client.
//!
//! Cruise Control is where kafkaops gets proposals and executions; its API has
//! sharp edges (unknown parameters are a 400, `dryrun` defaults to true, slow
//! requests answer 202 and must be followed through `user_tasks`, errors carry no
//! codes, numbers can be `NaN`). This module absorbs them once:
//!
//! - [`params`]: per-endpoint query builders that can only send accepted names;
//! - [`model`]: lenient response shapes (the wire), [`convert`]: from them to the engine's
//!   views (executor, monitor, user tasks, anomalies, plans);
//! - [`error`]: one classification of failures (retryable / permanent / no-op) and
//!   the failure class of each;
//! - [`api`]: the trait the drivers use, which the client implements;
//! - [`retry`]: the pure backoff decision;
//! - [`client`]: the reqwest adapter doing HTTP, auth, TLS and the async protocol.
//!
//! See `/work/shared/reference/cruise-control.md` for the facts this relies on.

pub mod api;
pub mod client;
pub mod convert;
pub mod error;
pub mod lenient;
pub mod model;
pub mod params;
pub mod retry;
pub mod review;

pub use api::CruiseControlApi;
pub use client::{Answer, ClientConfig, CruiseControlClient, LogObserver, Observer};
pub use error::{CcError, ErrorClass, Permanent, Transient, classify};
