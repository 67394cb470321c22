//! Shared test support for kafkaops' integration tests.
//!
//! Each integration test binary includes this directory with `mod support;` (and
//! `examples/testenv.rs` with a `#[path]` attribute), so it is compiled once per binary and every
//! binary uses only part of it. Everything here is synchronous on purpose: it works from plain
//! `#[test]` functions and from `#[tokio::test]` alike (call it from `spawn_blocking` if a
//! multi-threaded runtime must not block).
//!
//! - [`bin`]: the kafkaops binary under test (a private copy) and the result of a run.
//! - [`admin`]: replication throttles and partition reassignments (kafkaops' own client).
//! - [`control`]: the HTTP control server `kafkaops roll --restart-command` restarts nodes through.
//! - [`tls`]: a generated CA and server certificates (PEM) for the SASL_SSL listeners.
//! - [`operate`]: `kafkaops operate` as a child process, policy files, the double's user tasks.
//! - [`kafka`]: a real Apache Kafka 4.x KRaft cluster on 127.0.0.1 (jars from Maven Central, see
//!   `tests/env/README.md`), node control and fault injection, topic/placement/producer helpers.
//! - [`schema`]: real `-o json` outputs validated against the committed JSON Schemas.
//! - [`slots`]: the machine-wide cluster slots and the order waiting tests get them.
//! - [`timing`]: an optional log of the harness's slow steps (`KAFKAOPS_TEST_TIMINGS`).
//!
//! Not modules of this one (each is included with `#[path]` by the binaries that use it):
//! `world.rs` (the roll property tests' independent world model) and `synthetic_kafka/` (a
//! wire-level synthetic cluster of up to thousands of brokers for `tests/wire/synthetic_kafka.rs` and
//! the observation bench; self-contained, it uses nothing else from here).

use std::time::Duration;

/// The deadline of the tests' waits for a condition (a cluster state, a Cruise Control task, a
/// Lease, a log line). A wait returns as soon as its condition holds, so only a failing test
/// waits this long; it is the longest any of them needed on a loaded 2-core host.
#[allow(dead_code)] // Not used by the examples that include this module.
pub const WAIT: Duration = Duration::from_secs(300);

pub mod admin;
pub mod bin;
pub mod cc_double;
pub mod control;
pub mod kafka;
pub mod kube;
pub mod operate;
pub mod schema;
pub mod slots;
pub mod timing;
pub mod tls;
