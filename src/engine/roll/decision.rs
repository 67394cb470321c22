//! The engine's answers: what a decision asks the driver to do ([`Decision`]), what a wait is
//! for, and how the roll ended. Plain serialisable data the driver renders and saves; split
//! out of the roller core (`mod.rs`), which decides them.

use serde::{Deserialize, Serialize};

use crate::engine::model::{Millis, NodeId, TopicPartition};

use super::{ConfigChange, RollError};

/// A node and why it is part of an action.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeReason {
    pub node: NodeId,
    pub reason: String,
}

/// How the roll ended normally.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct RollSummary {
    pub restarted: Vec<NodeId>,
    pub reconfigured: Vec<NodeId>,
    pub untouched: Vec<NodeId>,
    /// Held nodes the roll left alone, with the hold's reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<NodeReason>,
    /// Things worth telling the operator (e.g. leadership not restored).
    pub notes: Vec<String>,
}

/// The engine's answer to one observation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// Restart these nodes together.
    Restart {
        nodes: Vec<NodeReason>,
        reason: String,
    },
    /// Apply these dynamic changes to one node.
    Reconfigure {
        node: NodeId,
        changes: Vec<ConfigChange>,
        reason: String,
    },
    /// Elect preferred leaders for these partitions (led elsewhere although
    /// their preferred replica, one of `nodes`, is back in the ISR).
    ElectPreferredLeaders {
        nodes: Vec<NodeId>,
        partitions: Vec<TopicPartition>,
        reason: String,
    },
    /// Observe again at `until` (or earlier).
    Wait { until: Millis, for_what: WaitReason },
    /// Finished normally.
    Done { summary: RollSummary },
    /// Finished abnormally; nothing more will be done.
    Abort { reason: RollError },
}

impl Decision {
    /// Ids of the nodes a `Restart` acts on (empty otherwise).
    #[must_use]
    pub fn restarted_nodes(&self) -> Vec<NodeId> {
        match self {
            Decision::Restart { nodes, .. } => nodes.iter().map(|n| n.node).collect(),
            _ => Vec::new(),
        }
    }
}

/// What the roll waits for (the text is its `Display`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "wait", rename_all = "snake_case")]
pub enum WaitReason {
    /// A safety check (min ISR, quorum, log recovery, ...) holds the next
    /// action back; the roll aborts with `error` if it lasts
    /// `blocked_timeout_ms`.
    Blocked { error: RollError },
    /// Nodes of the current action are not serving (again) yet.
    NotServing {
        action: ActionKind,
        nodes: Vec<WaitingNode>,
        deadline: Millis,
    },
    /// The action's nodes serve but do not lead all their preferred
    /// partitions yet.
    Leadership {
        nodes: Vec<NodeId>,
        deadline: Millis,
    },
}

/// A node waited for, with what is seen of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingNode {
    pub node: NodeId,
    /// What is seen and still missing, in words.
    pub detail: String,
}

impl WaitReason {
    /// `true` for [`WaitReason::Blocked`].
    #[must_use]
    pub fn is_blocked(&self) -> bool {
        matches!(self, WaitReason::Blocked { .. })
    }
}

impl std::fmt::Display for WaitReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WaitReason::Blocked { error } => write!(f, "blocked: {error}"),
            WaitReason::NotServing {
                action,
                nodes,
                deadline,
            } => {
                let states: Vec<String> = nodes
                    .iter()
                    .map(|n| format!("{} ({})", n.node, n.detail))
                    .collect();
                let verb = match action {
                    ActionKind::Restart => "restart",
                    ActionKind::Reconfigure => "reconfiguration",
                };
                write!(
                    f,
                    "node(s) {} to become SERVING after {verb} (deadline {deadline})",
                    states.join(", ")
                )
            }
            WaitReason::Leadership { nodes, deadline } => write!(
                f,
                "node(s) {} to rejoin their ISRs and lead their preferred partitions \
                 (deadline {deadline})",
                join_ids(nodes)
            ),
        }
    }
}

/// The kind of action the roller is waiting on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    Restart,
    Reconfigure,
}

/// What is known about one node's restart (see [`super::Roller::restart_status`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestartStatus {
    /// The restart command reported success.
    pub done: bool,
    /// There is evidence that the process running at decision time ended.
    pub process_ended: bool,
    /// It counts as back (serving again after the evidence).
    pub back: bool,
}

pub(super) fn join_ids(ids: &[NodeId]) -> String {
    ids.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
