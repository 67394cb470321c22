//! Node holds in Kubernetes (issue 29): when the cluster runs there (`--strimzi CLUSTER`), its
//! holds live in a ConfigMap next to its other resources, [`configmap_name`], one data key
//! per held node (`node-3`: the hold as JSON), so `kubectl get configmap -o yaml` shows them
//! and every kafkaops with access to the namespace (a laptop, `operate` in a pod) reads the same.
//!
//! Why a ConfigMap (not a Lease or a custom resource): it needs no CRD installed, `operate`'s
//! RBAC already covers ConfigMaps (its state lives in one), any number of holds fit in its
//! free-form data (a Lease has fixed fields), and its resourceVersion gives the optimistic
//! concurrency two concurrent `hold add`s need: every change is a read, a change of the
//! document and a replace with the version read; a conflict (someone wrote in between) is
//! re-read and retried, so neither change is lost.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use serde_json::json;

use super::{KubeConn, MANAGER, kube_error};
use crate::engine::holds::Hold;
use crate::platform::PlatformError;

/// How many times a change is retried after a resourceVersion conflict.
const ATTEMPTS: usize = 20;

/// The ConfigMap holding the holds of Strimzi cluster `cluster`.
#[must_use]
pub fn configmap_name(cluster: &str) -> String {
    format!("kafkaops-holds-{cluster}")
}

/// The data key of `node`'s hold.
fn key(node: i32) -> String {
    format!("node-{node}")
}

/// The holds in one ConfigMap. Cheap to clone.
#[derive(Clone)]
pub struct ConfigMapHolds {
    api: Api<ConfigMap>,
    name: String,
    namespace: String,
}

impl std::fmt::Debug for ConfigMapHolds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConfigMapHolds")
            .field("name", &self.name)
            .field("namespace", &self.namespace)
            .finish_non_exhaustive()
    }
}

impl ConfigMapHolds {
    #[must_use]
    pub fn new(conn: &KubeConn, name: &str) -> Self {
        ConfigMapHolds {
            api: Api::namespaced(conn.client.clone(), &conn.namespace),
            name: name.to_string(),
            namespace: conn.namespace.clone(),
        }
    }

    /// Where the holds are, for messages (`ConfigMap NAME in namespace NS`).
    #[must_use]
    pub fn describe(&self) -> String {
        format!("ConfigMap {} in namespace {}", self.name, self.namespace)
    }

    fn err(&self, verb: &str, e: &kube::Error) -> PlatformError {
        kube_error(verb, "configmaps", Some(&self.name), &self.namespace, e)
    }

    /// Every stored hold (expired ones included: the caller judges them); none when the
    /// ConfigMap does not exist. A value that does not parse is left out, not fatal.
    ///
    /// # Errors
    /// The ConfigMap could not be read.
    pub async fn read(&self) -> Result<Vec<Hold>, PlatformError> {
        let cm = self
            .api
            .get_opt(&self.name)
            .await
            .map_err(|e| self.err("get", &e))?;
        Ok(parse(cm.and_then(|c| c.data).unwrap_or_default()))
    }

    /// Writes `holds` (one per node, replacing that node's) and removes the holds of `remove`.
    /// A conflict with another writer is re-read and retried: neither change is lost.
    ///
    /// # Errors
    /// The ConfigMap could not be read or written, or the conflicts did not stop.
    pub async fn change(&self, holds: &[Hold], remove: &[i32]) -> Result<(), PlatformError> {
        for _ in 0..ATTEMPTS {
            let current = self
                .api
                .get_opt(&self.name)
                .await
                .map_err(|e| self.err("get", &e))?;
            let version = current
                .as_ref()
                .and_then(|c| c.metadata.resource_version.clone());
            let mut data = current.and_then(|c| c.data).unwrap_or_default();
            for n in remove {
                data.remove(&key(*n));
            }
            for h in holds {
                let doc = serde_json::to_string(h).unwrap_or_default();
                data.insert(key(h.node.0), doc);
            }
            let body: ConfigMap = serde_json::from_value(json!({
                "metadata": { "name": self.name, "resourceVersion": version,
                              "labels": { "app.kubernetes.io/managed-by": MANAGER,
                                          "app.kubernetes.io/component": "holds" } },
                "data": data,
            }))
            .map_err(|e| PlatformError::Kube {
                verb: "build".into(),
                object: format!("configmaps {}", self.name),
                namespace: self.namespace.clone(),
                reason: super::KubeFailure::Other,
                message: e.to_string(),
            })?;
            let written = match version {
                Some(_) => self
                    .api
                    .replace(&self.name, &PostParams::default(), &body)
                    .await
                    .map(|_| ()),
                None => self
                    .api
                    .create(&PostParams::default(), &body)
                    .await
                    .map(|_| ()),
            };
            match written {
                Ok(()) => return Ok(()),
                // Written (or created, or deleted) by someone else since our read: again.
                Err(kube::Error::Api(s))
                    if s.is_conflict() || s.is_already_exists() || s.is_not_found() =>
                {
                    tracing::debug!("{} changed meanwhile, re-reading it", self.describe());
                }
                Err(e) => return Err(self.err("update", &e)),
            }
        }
        Err(PlatformError::Kube {
            verb: "update".into(),
            object: format!("configmaps {}", self.name),
            namespace: self.namespace.clone(),
            reason: super::KubeFailure::Conflict,
            message: format!("still written by others after {ATTEMPTS} attempts"),
        })
    }
}

/// The holds in a ConfigMap's data (values that do not parse are left out).
fn parse(data: BTreeMap<String, String>) -> Vec<Hold> {
    data.iter()
        .filter(|(k, _)| k.starts_with("node-"))
        .filter_map(|(_, v)| serde_json::from_str(v).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::NodeId;

    #[test]
    fn data_keys_parse_back_and_foreign_values_are_left_out() {
        let h = Hold {
            node: NodeId(3),
            reason: "disk swap".into(),
            created_ms: 1,
            expires_ms: 2,
        };
        let mut data = BTreeMap::new();
        data.insert(key(3), serde_json::to_string(&h).unwrap());
        data.insert("node-4".into(), "not json".into());
        data.insert("note".into(), "{}".into());
        assert_eq!(parse(data), vec![h]);
        assert_eq!(configmap_name("my-cluster"), "kafkaops-holds-my-cluster");
    }
}
