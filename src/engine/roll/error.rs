//! Why a roll refuses to go on.
//!
//! Each variant is something a test can match and an operator can act on:
//! which node, which partition, which rule. The same values explain a wait
//! ("blocked: restarting 3 would take foo-0 below min.insync.replicas") and,
//! once the wait has lasted too long, the abort.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::model::{NodeId, ObservedState};

/// A reason the roll cannot (or can no longer) proceed.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RollError {
    #[error(
        "restarting node {node} would take {topic}-{partition} below min.insync.replicas \
         (in-sync replicas now or once reassignments complete: {isr}, min.insync.replicas: {min_isr})"
    )]
    WouldBreakMinIsr {
        node: NodeId,
        topic: String,
        partition: i32,
        isr: usize,
        min_isr: u32,
    },
    #[error(
        "{topic}-{partition} is already below min.insync.replicas ({isr} < {min_isr}) and node \
         {node} holds one of its replicas; restarting it could delay recovery"
    )]
    AlreadyUnderMinIsr {
        node: NodeId,
        topic: String,
        partition: i32,
        isr: usize,
        min_isr: u32,
    },
    #[error(
        "restarting controller(s) {nodes:?} would leave {caught_up} caught-up controller(s) of \
         {controllers}, {needed} needed for a healthy quorum"
    )]
    QuorumAtRisk {
        nodes: Vec<NodeId>,
        caught_up: usize,
        controllers: usize,
        needed: usize,
    },
    #[error("the KRaft quorum state is unusable: {detail}")]
    QuorumUnknown { detail: String },
    #[error("node {node} is in log recovery; no restart until it has finished")]
    NodeInLogRecovery { node: NodeId },
    #[error("node {node} was already restarted {restarts} time(s), the maximum is {max}")]
    MaxRestartsExceeded {
        node: NodeId,
        restarts: u32,
        max: u32,
    },
    #[error(
        "node {node} did not become SERVING within {waited_ms} ms (last seen {state:?}){}",
        detail_suffix(detail)
    )]
    NotServingInTime {
        node: NodeId,
        state: ObservedState,
        waited_ms: u64,
        /// Why it does not count as back (e.g. no evidence that it restarted).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        detail: String,
    },
    #[error(
        "min.insync.replicas of {topic}-{partition} is unknown (the topic's configs could not \
         be read, or it has no topic override and a replica's broker-level value cannot be read, \
         e.g. a stopped broker's), so restarting node {node} cannot be judged safe"
    )]
    MinIsrUnknown {
        node: NodeId,
        topic: String,
        partition: i32,
    },
    #[error(
        "node {node} came back on the wrong software: it supports metadata.version up to {}, \
         the target release's latest is {} (was the software it starts with changed?); the roll \
         stopped and nothing was finalized",
        reported.map_or_else(|| "none (it does not report the feature)".to_string(), crate::engine::kraft::upgrade::metadata_version_name),
        crate::engine::kraft::upgrade::metadata_version_name(*expected)
    )]
    WrongSoftware {
        node: NodeId,
        /// The top of its supported `metadata.version` range (`None`: not reported).
        reported: Option<i16>,
        /// The target release's latest `metadata.version`.
        expected: i16,
    },
    #[error("the restart command of node {node} failed: {error}")]
    RestartFailed { node: NodeId, error: String },
    #[error(
        "broker {node} is in an unknown state (it may be in log recovery); no restart until its \
         state is known"
    )]
    NodeStateUnknown { node: NodeId },
    #[error("the roll's saved state is inconsistent: {detail}")]
    StateInconsistent { detail: String },
    #[error("node {node} went from healthy to {state:?} while the roll was in progress")]
    NodeBecameUnhealthy { node: NodeId, state: ObservedState },
    #[error("node {node} is unreachable but was healthy before")]
    NodeBecameUnreachable { node: NodeId },
    #[error(
        "Cruise Control is executing: {execution}; no node is restarted or reconfigured while \
         an execution moves replicas (a restarted broker it moves replicas to or from kills its \
         tasks), and the block clears when the execution ends{}",
        also_suffix(also)
    )]
    CruiseControlExecuting {
        /// The user task (or self-healing task) that started it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task: Option<String>,
        /// State, task and reason, in one line.
        execution: String,
        /// What else blocks the roll meanwhile (e.g. a partition the execution is moving).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        also: Option<String>,
    },
    #[error(
        "Cruise Control cannot be asked whether it is executing ({error}); no node is restarted \
         or reconfigured while that is unknown, and the block clears once it answers idle"
    )]
    CruiseControlUnknown { error: String },
}

fn also_suffix(also: &Option<String>) -> String {
    also.as_ref()
        .map(|a| format!(" (meanwhile also: {a})"))
        .unwrap_or_default()
}

fn detail_suffix(detail: &str) -> String {
    if detail.is_empty() {
        String::new()
    } else {
        format!(": {detail}")
    }
}
