//! Kafka Admin adapter: reads a cluster into plain observations and makes the two changes
//! a roller needs (incremental config changes, preferred leader elections).
//!
//! Why two paths: rdkafka (librdkafka) is the main client because it brings TLS and every
//! SASL mechanism, but it lacks DescribeQuorum, reassignment listing and connections to
//! KRaft controllers. Those go over our own protocol connection ([`wire`]) built from the
//! *same* settings ([`config`]); when a setting cannot be honoured there, the adapter says
//! so ([`KafkaError::UnsupportedSetting`]) instead of skipping the check that needed it.
//! The librdkafka calls rust-rdkafka does not wrap live in [`ffi`], the crate's only
//! `unsafe` code.
//!
//! Layout: [`client`] (the [`KafkaClient`] and its traits), [`observation`] (plain data
//! and the pure assembly), [`wire_admin`] (DescribeQuorum, reassignments, controller
//! configs), [`kraft`] (quorum membership, feature levels, broker registrations), [`convert`] (to the engine's snapshot), [`scram`] (SASL SCRAM for the wire path), [`error`].

pub mod client;
pub mod config;
pub mod convert;
pub mod error;
pub mod ffi;
pub mod holds;
pub mod kraft;
pub mod observation;
pub mod scram;
pub mod wire;
pub mod wire_admin;

pub use client::{ClusterObserver, KafkaAdmin, KafkaClient};
pub use config::ConnectionConfig;
pub use error::{KafkaError, Result};
pub use ffi::{AlterOp, ConfigChange, ConfigTarget, ElectionOutcome};
pub use observation::KafkaObservation;
