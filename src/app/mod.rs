//! The application layer: the use cases the CLI and `operate` share.
//!
//! `main -> commands -> app -> driver -> adapters (cruise_control, kafka, platform, state) ->
//! engine`. A subcommand (`commands`) turns its clap arguments into a resolved spec, calls a use
//! case here and renders the result; `operate` calls the same use cases from its loop. What
//! belongs here (issue #24, as cargo's `ops` or uv's shared operations): building the clients
//! from the resolved settings (once: [`clients`]), the guards (operator guard, other movers,
//! cordon), rebalance requests and templates, replication-factor rounds, the roll session (the
//! CLI loops it, `operate` steps it), anomalies, and the `operate` loop generic over its ports.
//!
//! Rules of the layer: no clap (the specs are plain data), no printing (a use case tells people
//! what it does through a [`Reporter`], which the CLI renders and `operate` logs), no exit codes
//! (errors are typed or [`crate::engine::failure::Classified`]; the edge maps them). It imports
//! the drivers, the adapters, the engine and the leaves (`settings`, `secret`, `output`'s
//! types), never `commands`, `cli` or `main`.
//!
//! It holds the clients, the reporting trait, the guards ([`guards`]), the Cruise Control use
//! cases ([`rebalance`], [`topic`], [`cordon`], [`placement`], [`anomalies`]), the KRaft lifecycle
//! ([`kraft`]: the quorum, ghost brokers, feature finalization), the roll session
//! ([`roll`]) and the `operate` loop ([`operate`]).

pub mod anomalies;
pub mod clients;
pub mod cordon;
pub mod guards;
pub mod health;
pub mod hold;
pub mod journal;
pub mod kraft;
pub mod operate;
pub mod placement;
pub mod rebalance;
pub mod report;
pub mod roll;
pub mod throttles;
pub mod topic;

pub use report::{LogReporter, Reporter};
