//! A document store in a ConfigMap, with optimistic concurrency: `operate`'s state in
//! Kubernetes.
//!
//! Two replicas of `operate` run and only the Lease holder acts, but a leader can be deposed
//! without knowing it (paused, partitioned), so leadership alone does not protect the state:
//! the ConfigMap is replaced with the resourceVersion this instance last read or wrote, and a
//! write by anyone else in between makes ours fail with [`StoreError::Conflict`] instead of
//! overwriting the new leader's state.

use std::sync::Mutex;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use serde_json::json;

use super::{KubeConn, MANAGER, kube_error};
use crate::state::{Store, StoreError};

/// The ConfigMap data key holding the state document.
pub const STATE_KEY: &str = "state.json";

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The operate state in ConfigMap `name` (data key [`STATE_KEY`]).
pub struct ConfigMapStore {
    api: Api<ConfigMap>,
    name: String,
    namespace: String,
    /// The resourceVersion last read or written by this instance (`None`: the ConfigMap did
    /// not exist, or was never read).
    version: Mutex<Option<String>>,
}

impl ConfigMapStore {
    #[must_use]
    pub fn new(conn: &KubeConn, name: &str) -> Self {
        ConfigMapStore {
            api: Api::namespaced(conn.client.clone(), &conn.namespace),
            name: name.to_string(),
            namespace: conn.namespace.clone(),
            version: Mutex::new(None),
        }
    }

    fn err(&self, verb: &str, e: &kube::Error) -> StoreError {
        StoreError::from(kube_error(
            verb,
            "configmaps",
            Some(&self.name),
            &self.namespace,
            e,
        ))
    }

    fn conflict(&self) -> StoreError {
        StoreError::Conflict(format!(
            "ConfigMap {} in namespace {} was written by someone else since this instance read it",
            self.name, self.namespace
        ))
    }
}

impl Store<str> for ConfigMapStore {
    async fn load(&self) -> Result<Option<String>, StoreError> {
        let cm = self
            .api
            .get_opt(&self.name)
            .await
            .map_err(|e| self.err("get", &e))?;
        let (version, doc) = match cm {
            Some(cm) => (
                cm.metadata.resource_version.clone(),
                cm.data.and_then(|mut d| d.remove(STATE_KEY)),
            ),
            None => (None, None),
        };
        *lock(&self.version) = version;
        Ok(doc)
    }

    async fn save(&self, doc: &str) -> Result<(), StoreError> {
        let version = lock(&self.version).clone();
        let body: ConfigMap = serde_json::from_value(json!({
            "metadata": { "name": self.name, "resourceVersion": version,
                          "labels": { "app.kubernetes.io/managed-by": MANAGER,
                                      "app.kubernetes.io/component": "operate" } },
            "data": { STATE_KEY: doc },
        }))
        .map_err(|e| StoreError::Io(format!("cannot build the ConfigMap: {e}")))?;
        let written = match &version {
            Some(_) => self
                .api
                .replace(&self.name, &PostParams::default(), &body)
                .await
                .map_err(|e| match &e {
                    kube::Error::Api(s) if s.is_conflict() => self.conflict(),
                    // Deleted since we read it: someone else is managing it.
                    kube::Error::Api(s) if s.is_not_found() => self.conflict(),
                    _ => self.err("update", &e),
                })?,
            None => self
                .api
                .create(&PostParams::default(), &body)
                .await
                .map_err(|e| match &e {
                    kube::Error::Api(s) if s.is_already_exists() => self.conflict(),
                    _ => self.err("create", &e),
                })?,
        };
        *lock(&self.version) = written.metadata.resource_version;
        Ok(())
    }
}
