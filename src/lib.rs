//! kafkaops: operate Apache Kafka clusters safely from the command line.
//!
//! The crate is split as a functional core and an imperative shell:
//! [`engine`] decides (pure, no IO), adapters (Cruise Control, Kafka, platforms)
//! do IO behind small traits, [`commands`] wire them together and [`output`]
//! renders results. The binary in `main.rs` only parses arguments, sets up
//! logging and maps errors to exit codes (see [`error::ExitCode`]).

// Only src/kafka/ffi.rs (librdkafka's C admin calls) may use unsafe, each block with a SAFETY comment.
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
