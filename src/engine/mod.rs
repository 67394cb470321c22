//! The pure decision core. Nothing under this module performs IO, reads a
//! clock or sleeps: observations and `now` come in, commands go out. This is
//! what makes the roll and rebalance logic provable with property tests.
//!
//! The engine owns the types it decides on ([`model`] for the cluster snapshot, [`view`] for
//! what it reads of Cruise Control and Kafka) and reports failures as classes
//! ([`failure::FailureKind`]), never as exit codes: it imports nothing of the crate outside
//! itself, and the adapters convert their wire answers into its types.

pub mod anomalies;
pub mod cc_flow;
pub mod cordon;
pub mod drift;
pub mod eta;
pub mod failure;
pub mod health;
pub mod holds;
pub mod kraft;
pub mod model;
pub mod movers;
pub mod operate;
pub mod operator_guard;
pub mod pace;
pub mod rebalance;
pub mod replicas;
pub mod risk;
pub mod roll;
pub mod throttles;
pub mod view;
