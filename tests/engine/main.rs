//! The pure core, tested without any IO: the engine's property tests on simulated clusters and
//! worlds, hand-built examples, and the parsers of external data fed mutated input.
//!
//! One test binary (each links the whole crate; see `tests/env/README.md`, "Test binaries").
//! Failing inputs proptest keeps are in `tests/proptest-regressions/<module>.txt`, where proptest
//! looks for them for a module beside a `main.rs`; they are replayed first on every run.
//!
//! Run with `cargo test --test engine` (one module: `cargo test --test engine roll_safety::`).

mod anomaly_watch_properties;
mod auto_rebalance_properties;
mod cc_flow_properties;
mod drift_properties;
mod health_properties;
mod observation_lag;
mod operate_properties;
mod parsers_fuzz;
mod reassignment_progress;
mod roll_batches;
mod roll_examples;
mod roll_properties;
mod roll_safety;

/// The independent ground-truth world that judges rolls (`roll_safety`, `roll_properties`).
#[path = "../support/world.rs"]
mod world;
