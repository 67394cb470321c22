//! The pure decision core. Nothing under this module performs IO, reads a
//! clock or sleeps: observations and `now` come in, commands go out. This is
//! what makes the roll and rebalance logic provable with property tests.

pub mod anomalies;
pub mod cc_flow;
pub mod cordon;
pub mod drift;
pub mod kraft;
pub mod model;
pub mod movers;
pub mod operate;
pub mod operator_guard;
pub mod rebalance;
pub mod replicas;
pub mod risk;
pub mod roll;
