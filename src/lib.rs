//! kafkaops: operate Apache Kafka clusters safely from the command line.
//!
//! # Architecture
//!
//! The crate is a pure decision core under an imperative shell, in layers that import only
//! downward (`tests/cli/architecture.rs` fails the build's tests when one does not):
//!
//! ```text
//! main -> commands -> app -> driver -> adapters (cruise_control, kafka, platform, state) -> engine
//! ```
//!
//! - [`engine`]: the decisions (roll plans and safety rules, the Cruise Control flow, the
//!   auto-rebalance state machine, `operate`'s policy, the KRaft rules). Pure: no IO, no clocks,
//!   its own types; it reports failure classes ([`engine::failure`]), never exit codes.
//! - Adapters: [`cruise_control`] (the REST API), [`kafka`] (librdkafka and kafkaops' own wire
//!   path), [`platform`] (restarting nodes: commands, Kubernetes, Strimzi), [`state`] (one
//!   persistence trait, a file store). They convert their wire types to the engine's.
//! - [`driver`]: step functions that run an engine state machine against the adapters' traits
//!   (the roll, a Cruise Control flow), so a scripted double can drive them.
//! - [`app`]: the use cases the CLI and `operate` share (building clients, the guards, rebalance
//!   requests and templates, replication-factor rounds, the roll session, anomalies, the
//!   `operate` loop over its ports). No clap, no printing (it reports through
//!   [`app::Reporter`]), no exit codes.
//! - [`commands`]: one module per subcommand: clap arguments ([`cli`]) to a resolved spec, a call
//!   into [`app`], rendering ([`output`]); what several subcommands show alike (the Cruise
//!   Control observer, the flow's rendering) is in one module that is not a subcommand,
//!   [`commands::shared`], and no subcommand imports another. The exit-code
//!   table ([`error_codes`]) and the one classifier ([`error`]) live at this edge.
//! - `main.rs` parses arguments, sets up logging and maps errors to exit codes.
//! - Leaves every layer but the engine may use: [`settings`], [`secret`], [`output`].
//!
//! A new subcommand: its clap types in `cli/`, its module in `commands/` (args -> spec ->
//! `app` -> render), the logic `operate` could ever need in `app/`, decisions in `engine/`.
// Internal documentation links to private modules on purpose: the crate is documented for the
// engineers who change it (`cargo doc --document-private-items` renders them).
#![allow(rustdoc::private_intra_doc_links)]
// Only src/kafka/ffi/ (librdkafka's C admin calls) may use unsafe, each block with a SAFETY comment.
#![deny(unsafe_code)]

pub mod app;
pub mod cli;
pub mod commands;
pub mod cruise_control;
pub mod driver;
pub mod engine;
pub mod error;
pub mod error_codes;
pub mod kafka;
pub mod output;
pub mod platform;
pub mod secret;
pub mod settings;
pub mod state;
