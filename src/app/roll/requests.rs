//! What a roll is asked to do: the engine's per-node requests, from a selection of nodes, a
//! desired broker configuration and the platform's own restart reasons (Kubernetes: annotated,
//! stuck or old-revision pods). `kafkaops roll` and `operate` build them here, the same way.

use std::collections::BTreeMap;

use crate::engine::model::{ClusterSnapshot, NodeId};
use crate::engine::roll::NodeRequest;
use crate::platform::PlatformError;
use crate::platform::kube::KubePlatform;

/// A node role to select by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Broker,
    Controller,
}

/// The nodes the user picked by id or role (`None` where it is used: none picked that way).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    All,
    Nodes(Vec<i32>),
    Role(Role),
}

impl Selection {
    /// The restart reason of a selected node (named by the flag that selected it).
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Selection::All => "selected with --all".into(),
            Selection::Nodes(_) => "selected with --nodes".into(),
            Selection::Role(Role::Broker) => "selected with --role broker".into(),
            Selection::Role(Role::Controller) => "selected with --role controller".into(),
        }
    }
}

/// A selection that names nothing the roll could do (a usage error at the edge).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RequestError {
    #[error(
        "unknown node id(s) {}; the cluster has nodes {}; nothing was changed",
        .unknown.join(", "),
        .known.join(", ")
    )]
    UnknownNodes {
        unknown: Vec<String>,
        known: Vec<String>,
    },
    #[error(
        "the selection matches no node (desired settings apply to broker-role nodes only); \
         nothing was changed"
    )]
    NoMatch,
}

/// The engine's per-node requests: every selected node is a key (the engine's selection;
/// unhealthy nodes outside it are left alone unless `--include-unhealthy`). With a desired
/// configuration, the selection (if any) only narrows which nodes it applies to; without
/// one, the selected nodes restart. Desired settings apply to broker-role nodes (only their
/// configs can be described); selected controllers get an empty request.
///
/// # Errors
/// Node ids the cluster does not have, or a selection that asks nothing of any node.
pub fn requests(
    snapshot: &ClusterSnapshot,
    selection: Option<&Selection>,
    desired: &BTreeMap<String, String>,
) -> Result<BTreeMap<NodeId, NodeRequest>, RequestError> {
    if let Some(Selection::Nodes(ids)) = selection {
        let unknown: Vec<String> = ids
            .iter()
            .filter(|id| snapshot.node(NodeId(**id)).is_none())
            .map(ToString::to_string)
            .collect();
        if !unknown.is_empty() {
            let known: Vec<String> = snapshot.nodes.iter().map(|n| n.id.to_string()).collect();
            return Err(RequestError::UnknownNodes { unknown, known });
        }
    }
    let selected = |id: NodeId, broker: bool, controller: bool| match selection {
        None | Some(Selection::All) => true,
        Some(Selection::Nodes(ids)) => ids.contains(&id.0),
        Some(Selection::Role(Role::Broker)) => broker,
        Some(Selection::Role(Role::Controller)) => controller,
    };
    let mut out = BTreeMap::new();
    for n in &snapshot.nodes {
        if !selected(n.id, n.roles.broker, n.roles.controller) {
            continue;
        }
        let request = if desired.is_empty() {
            NodeRequest {
                restart_reasons: vec![
                    selection
                        .map(Selection::describe)
                        .unwrap_or_else(|| "selected".into()),
                ],
                desired_config: BTreeMap::new(),
                expected_software: None,
            }
        } else if n.roles.broker {
            NodeRequest {
                restart_reasons: Vec::new(),
                desired_config: desired.clone(),
                expected_software: None,
            }
        } else {
            // Selected, nothing to change: restarted only if unhealthy.
            NodeRequest::default()
        };
        out.insert(n.id, request);
    }
    if out
        .values()
        .all(|r| r.restart_reasons.is_empty() && r.desired_config.is_empty())
    {
        return Err(RequestError::NoMatch);
    }
    Ok(out)
}

/// Adds the platform's restart reasons (Kubernetes: annotated, stuck, old-revision pods) to the
/// requests: a node with a reason restarts whether selected or not.
#[must_use]
pub fn with_platform_reasons(
    mut requests: BTreeMap<NodeId, NodeRequest>,
    snapshot: &ClusterSnapshot,
    reasons: &BTreeMap<NodeId, Vec<String>>,
) -> BTreeMap<NodeId, NodeRequest> {
    for (id, why) in reasons {
        if snapshot.node(*id).is_none() {
            continue;
        }
        let r = requests.entry(*id).or_default();
        for w in why {
            if !r.restart_reasons.contains(w) {
                r.restart_reasons.push(w.clone());
            }
        }
    }
    requests
}

/// The pods' own restart reasons (annotated `strimzi.io/manual-rolling-update=true`, stuck, on
/// an old revision), by node; nodes without one are left out.
///
/// # Errors
/// The pods cannot be listed.
pub async fn pod_reasons(
    pods: &KubePlatform,
) -> Result<BTreeMap<NodeId, Vec<String>>, PlatformError> {
    Ok(pods
        .discover()
        .await?
        .iter()
        .map(|p| {
            (
                NodeId(p.id),
                p.restart_reasons().into_iter().map(|(_, r)| r).collect(),
            )
        })
        .filter(|(_, r): &(NodeId, Vec<String>)| !r.is_empty())
        .collect())
}
