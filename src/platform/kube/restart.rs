//! The steps of a pod restart ([`Platform::restart_node`](super::super::Platform)): the reason
//! an Event states, the Event itself, the wait for the controller to recreate the pod, and
//! the clean-up of `strimzi.io/manual-rolling-update` annotations once the pods they asked
//! for have been restarted.

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DynamicObject, Patch, PatchParams};
use serde_json::json;

use super::{KubePlatform, MANUAL_ROLLING_UPDATE, events, pod_ready, strimzi_resource};
use crate::platform::PlatformError;

impl KubePlatform {
    /// The Event's reason word and note for restarting node `id` (pod `name`): the restart
    /// reasons discovery found, else a plain rolling restart.
    pub(super) fn restart_reason(&self, id: i32, name: &str) -> (&'static str, String) {
        let reasons = self
            .inner
            .reasons
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
            .cloned()
            .unwrap_or_default();
        match reasons.first() {
            Some((word, _)) => (
                *word,
                reasons
                    .iter()
                    .map(|(_, n)| n.as_str())
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
            None => (
                "RollingRestart",
                format!("pod {name} selected for the roll"),
            ),
        }
    }

    /// Publishes an `events.k8s.io/v1` Event about the pod.
    pub(super) async fn publish(
        &self,
        pod: &Pod,
        reason: &str,
        note: &str,
    ) -> Result<(), PlatformError> {
        let regarding = events::Regarding::pod(
            pod.metadata.name.as_deref().unwrap_or_default(),
            pod.metadata.uid.clone(),
        );
        events::publish(
            &self.inner.conn,
            &events::EventSpec {
                regarding: &regarding,
                controller: "kafkaops.io/roll",
                instance: &self.inner.identity,
                action: "RestartPod",
                reason,
                note,
                warning: false,
            },
        )
        .await
    }

    /// Removes `strimzi.io/manual-rolling-update` from a pod that still carries it.
    async fn clear_annotation(&self, name: &str) -> Result<(), PlatformError> {
        let patch = json!({ "metadata": { "annotations": { MANUAL_ROLLING_UPDATE: null } } });
        self.pods()
            .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .map_err(|e| self.err("patch", "pods", Some(name), &e))?;
        Ok(())
    }

    /// Waits until pod `name` exists with a UID other than `old_uid` and is Ready, up to the
    /// platform's timeout.
    pub(super) async fn wait_recreated(
        &self,
        pods: &Api<Pod>,
        name: &str,
        old_uid: &str,
    ) -> Result<(), PlatformError> {
        let deadline = tokio::time::Instant::now() + self.inner.timeout;
        loop {
            match pods.get_opt(name).await {
                Ok(Some(p)) if p.metadata.uid.as_deref() != Some(old_uid) => {
                    if pod_ready(&p) {
                        break;
                    }
                }
                Ok(_) => {}
                Err(e) => return Err(self.err("get", "pods", Some(name), &e)),
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(PlatformError::PodTimeout {
                    pod: name.to_string(),
                    after: self.inner.timeout,
                });
            }
            tokio::time::sleep(self.inner.poll).await;
        }
        Ok(())
    }

    /// After node `id`'s pod `name` came back: removes a manual-rolling-update annotation it
    /// still carries, forgets its restart reasons, and removes the annotation of each
    /// StrimziPodSet whose pods have all been restarted.
    pub(super) async fn after_restart(&self, id: i32, name: &str) -> Result<(), PlatformError> {
        // A recreated pod normally comes from the template without the annotation; one that
        // still has it (a controller copying it) would be rolled again by the next run.
        let recreated = self
            .pods()
            .get(name)
            .await
            .map_err(|e| self.err("get", "pods", Some(name), &e))?;
        if recreated
            .metadata
            .annotations
            .as_ref()
            .is_some_and(|a| a.contains_key(MANUAL_ROLLING_UPDATE))
        {
            self.clear_annotation(name).await?;
        }
        self.inner
            .reasons
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        // A StrimziPodSet annotated for a rolling update whose pods have all been restarted.
        let done: Vec<String> = {
            let mut rolls = self
                .inner
                .set_rolls
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            for pods in rolls.values_mut() {
                pods.remove(name);
            }
            let done = rolls
                .iter()
                .filter(|(_, pods)| pods.is_empty())
                .map(|(set, _)| set.clone())
                .collect();
            rolls.retain(|_, pods| !pods.is_empty());
            done
        };
        for set in done {
            let api: Api<DynamicObject> = Api::namespaced_with(
                self.inner.conn.client.clone(),
                &self.inner.conn.namespace,
                &strimzi_resource("StrimziPodSet"),
            );
            let patch = json!({ "metadata": { "annotations": { MANUAL_ROLLING_UPDATE: null } } });
            api.patch(&set, &PatchParams::default(), &Patch::Merge(&patch))
                .await
                .map_err(|e| {
                    self.err("patch", "strimzipodsets.kafka.strimzi.io", Some(&set), &e)
                })?;
        }
        Ok(())
    }
}
