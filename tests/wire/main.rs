//! kafkaops against wire-level doubles, no cluster: wiremock as Cruise Control for the request
//! sequences and the error paths a real server will not produce on demand, a scripted anomaly
//! endpoint, and the synthetic Kafka (`tests/support/synthetic_kafka/`) for clusters of any size.
//!
//! One test binary (each links the whole crate; see `tests/env/README.md`, "Test binaries").
//! Snapshots (insta) are in `tests/wire/snapshots/`.
//!
//! Run with `cargo test --test wire` (one module: `cargo test --test wire rebalance_cli::`).

mod anomalies_watch;
mod cc_client_wire;
mod cc_wire;
mod pace_throttle;
mod rebalance_cli;
mod rebalance_follow;
mod roll_text;
mod synthetic_kafka;
mod topic_set_rf_requests;

/// The parts of `tests/support` these tests use (the rest starts real processes), at the paths
/// the other binaries use.
mod support {
    pub(crate) use super::bin;
    pub(crate) use super::synthetic_kafka_support as synthetic_kafka;
}
#[path = "../support/bin.rs"]
mod bin;
#[path = "../support/schema.rs"]
mod schema;
#[path = "../support/synthetic_kafka/mod.rs"]
mod synthetic_kafka_support;
