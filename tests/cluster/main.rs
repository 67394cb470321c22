//! kafkaops against real Apache Kafka (KRaft) clusters started by the tests, with the Cruise
//! Control double where a test needs one: observation, rolls and their refusals, rebalances,
//! replication-factor changes, `operate` on a plain host, SASL_SSL, and the harness itself.
//!
//! One test binary (each links the whole crate; see `tests/env/README.md`, "Test binaries").
//! The harness runs a few clusters at a time on the whole machine (`support::kafka`, cluster
//! slots shared with the `kube` binary), so tests that need their own cluster take turns.
//!
//! Run with `cargo test --test cluster` (one module: `cargo test --test cluster roll_refusals::`).

mod anomalies_cluster;
mod cc_connection;
mod cc_double;
mod cc_second_round;
mod cli_checks;
mod cluster_env;
mod health_throttles;
mod holds;
mod kafka_adapter;
mod kraft_cli;
mod kraft_lifecycle;
mod movers;
mod operate_host;
mod operate_idle;
mod operate_movers;
mod operate_outage;
mod pace_throttle;
mod rebalance_flow;
mod rebalance_trust;
mod roll_cluster;
mod roll_refusals;
mod secure_cluster;
mod topic_set_rf;
mod upgrade_roll;

#[path = "../support/mod.rs"]
mod support;
