//! `events.k8s.io/v1` Events: what kafkaops did and why, where `kubectl describe` and
//! `kubectl events` show it. Used by `roll` (an Event on every pod it restarts) and by
//! `operate` (an Event for every action).

use k8s_openapi::api::events::v1::Event;
use kube::api::{Api, PostParams};
use serde_json::json;

use super::{KubeConn, kube_error, lease::now_micros};
use crate::platform::PlatformError;

/// The object an Event is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regarding {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub uid: Option<String>,
}

impl Regarding {
    /// A pod (`uid`: when known; the Event's own reference works without it).
    #[must_use]
    pub fn pod(name: &str, uid: Option<String>) -> Regarding {
        Regarding {
            api_version: "v1".into(),
            kind: "Pod".into(),
            name: name.to_string(),
            uid,
        }
    }
}

/// One Event to publish.
#[derive(Debug, Clone)]
pub struct EventSpec<'a> {
    pub regarding: &'a Regarding,
    /// e.g. `kafkaops.io/roll`.
    pub controller: &'a str,
    /// Who reports it (pod name, host, pid).
    pub instance: &'a str,
    /// What was done (`RestartPod`, `RebalanceAddBrokers`).
    pub action: &'a str,
    /// Why, one CamelCase word.
    pub reason: &'a str,
    /// For people; truncated to the 1 kB Kubernetes allows.
    pub note: &'a str,
    /// `Normal` or `Warning`.
    pub warning: bool,
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Publishes an Event in the connection's namespace.
///
/// # Errors
/// The Event cannot be built or created.
pub async fn publish(conn: &KubeConn, e: &EventSpec<'_>) -> Result<(), PlatformError> {
    let ns = &conn.namespace;
    let api: Api<Event> = Api::namespaced(conn.client.clone(), ns);
    let prefix = truncate(&e.regarding.name.to_ascii_lowercase(), 200);
    let event: Event = serde_json::from_value(json!({
        "metadata": { "generateName": format!("{prefix}.kafkaops-"), "namespace": ns },
        "eventTime": now_micros(),
        "reportingController": e.controller,
        "reportingInstance": truncate(e.instance, 128),
        "action": truncate(e.action, 128),
        "reason": truncate(e.reason, 128),
        "note": truncate(e.note, 1000),
        "type": if e.warning { "Warning" } else { "Normal" },
        "regarding": {
            "apiVersion": e.regarding.api_version, "kind": e.regarding.kind,
            "name": e.regarding.name, "namespace": ns, "uid": e.regarding.uid,
        },
    }))
    .map_err(|err| PlatformError::KubeConfig {
        message: format!("cannot build an Event: {err}"),
    })?;
    api.create(&PostParams::default(), &event)
        .await
        .map_err(|err| kube_error("create", "events.events.k8s.io", None, ns, &err))?;
    Ok(())
}
