//! kafkaops: operate Apache Kafka clusters safely from the command line.
//!
//! The crate is split as a functional core and an imperative shell:
//! [`engine`] decides (pure, no IO), adapters ([`cruise_control`], [`kafka`],
//! [`platform`]) do IO behind small traits, [`commands`] wire them together and
//! [`output`] renders results. The binary in `main.rs` only parses arguments,
//! sets up logging and maps errors to exit codes.

pub mod engine;
