//! Nodes that are Kubernetes pods: Strimzi clusters (`--strimzi CLUSTER`) or any pods picked by
//! a label selector.
//!
//! A restart deletes the pod and waits for its controller (a StrimziPodSet or a StatefulSet) to
//! recreate it: the same name with a new UID, Ready. Whether Kafka serves again is judged by the
//! roll engine from Kafka itself, as for any platform. Deleting a pod bypasses Strimzi's own
//! KafkaRoller, which is the point: kafkaops does the ISR and quorum checks instead.
//!
//! Kubernetes also gives restart reasons the roll does not see in Kafka: a pod (or its
//! StrimziPodSet, for all its pods) annotated `strimzi.io/manual-rolling-update=true`, a pod stuck (CrashLoopBackOff, ImagePullBackOff,
//! ContainerCreating, Pending/Unschedulable), a pod not on its controller's current revision
//! (Strimzi's `strimzi.io/revision` against the StrimziPodSet's pod template, a StatefulSet's
//! `controller-revision-hash` against its `updateRevision`). They feed the engine's per-node
//! restart reasons; stuck pods also read as not running, so the engine restarts them first.
//!
//! Every restart publishes an `events.k8s.io/v1` Event on the pod with its reason, so
//! `kubectl describe pod` says why it was restarted. Only one roll per cluster: a
//! `coordination.k8s.io/v1` Lease `kafkaops-roll-<cluster>` is taken before anything is touched,
//! renewed while the roll runs and deleted at the end; a second roll reads its holder and stops
//! (exit 5). Every Kubernetes failure names the verb, the resource and the object, so a missing
//! RBAC rule can be added from the message alone (`examples/kafkaops-rbac.yaml` is the Role).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use k8s_openapi::api::apps::v1::StatefulSet;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, DynamicObject, ListParams};

use super::{Platform, PlatformError, PlatformNode};

pub mod configmap;
mod conn;
pub(crate) use conn::kube_error;
pub use conn::{KubeConn, KubeFailure, KubeTarget, hostname, identity, strimzi_resource};
pub mod events;
pub mod holds;
pub mod leader;
pub mod lease;
mod pods;
pub use pods::*;
pub mod portforward;
mod restart;
pub mod strimzi;
pub mod watch;

use lease::{Attempt, LeaseLock, Renewal};

/// Strimzi's annotation asking for a pod (or all pods of a StrimziPodSet) to be rolled.
pub const MANUAL_ROLLING_UPDATE: &str = "strimzi.io/manual-rolling-update";
const STRIMZI_REVISION: &str = "strimzi.io/revision";
/// The field manager and event reporter name.
pub const MANAGER: &str = "kafkaops";

struct Inner {
    conn: KubeConn,
    selector: PodSelector,
    /// Kafka listener address per node id (for the restart witness).
    addresses: BTreeMap<i32, String>,
    /// How long a deleted pod may take to come back Ready.
    timeout: Duration,
    /// Pod name per node id, as discovered.
    names: Mutex<BTreeMap<i32, String>>,
    /// The restart reason words per node id (for the Events).
    reasons: Mutex<BTreeMap<i32, Vec<(&'static str, String)>>>,
    /// StrimziPodSets annotated for a manual rolling update, with their pods not restarted yet:
    /// the annotation is removed once every one of them has been.
    set_rolls: Mutex<BTreeMap<String, BTreeSet<String>>>,
    /// The lease holder identity (also the Event reporting instance).
    identity: String,
    poll: Duration,
}

/// Pods as nodes. Cheap to clone.
#[derive(Clone)]
pub struct KubePlatform {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for KubePlatform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KubePlatform")
            .field("namespace", &self.inner.conn.namespace)
            .field("selector", &self.inner.selector)
            .finish_non_exhaustive()
    }
}

impl KubePlatform {
    #[must_use]
    pub fn new(conn: KubeConn, selector: PodSelector, timeout: Duration) -> Self {
        KubePlatform {
            inner: Arc::new(Inner {
                conn,
                selector,
                addresses: BTreeMap::new(),
                timeout,
                names: Mutex::new(BTreeMap::new()),
                reasons: Mutex::new(BTreeMap::new()),
                set_rolls: Mutex::new(BTreeMap::new()),
                identity: identity(),
                poll: Duration::from_millis(500),
            }),
        }
    }

    /// The Kafka listener address of each node (host:port), used to see the old process end.
    #[must_use]
    pub fn with_addresses(self, addresses: BTreeMap<i32, String>) -> Self {
        let inner = Arc::try_unwrap(self.inner).unwrap_or_else(|a| Inner {
            conn: a.conn.clone(),
            selector: a.selector.clone(),
            addresses: BTreeMap::new(),
            timeout: a.timeout,
            names: Mutex::new(BTreeMap::new()),
            reasons: Mutex::new(BTreeMap::new()),
            set_rolls: Mutex::new(BTreeMap::new()),
            identity: a.identity.clone(),
            poll: a.poll,
        });
        KubePlatform {
            inner: Arc::new(Inner { addresses, ..inner }),
        }
    }

    #[must_use]
    pub fn namespace(&self) -> &str {
        &self.inner.conn.namespace
    }

    #[must_use]
    pub fn identity(&self) -> &str {
        &self.inner.identity
    }

    fn pods(&self) -> Api<Pod> {
        Api::namespaced(self.inner.conn.client.clone(), &self.inner.conn.namespace)
    }

    fn err(
        &self,
        verb: &str,
        resource: &str,
        name: Option<&str>,
        e: &kube::Error,
    ) -> PlatformError {
        kube_error(verb, resource, name, &self.inner.conn.namespace, e)
    }

    /// Lists the cluster's pods with what kafkaops reads of them (stuck, annotated, revision),
    /// and remembers their names and restart reasons.
    ///
    /// # Errors
    /// A Kubernetes call fails, no pod matches, or a pod has no node id.
    pub async fn discover(&self) -> Result<Vec<PodView>, PlatformError> {
        let sel = &self.inner.selector;
        let list = self
            .pods()
            .list(&ListParams::default().labels(&sel.labels))
            .await
            .map_err(|e| self.err("list", "pods", None, &e))?;
        if list.items.is_empty() {
            return Err(PlatformError::NoPods {
                selector: sel.labels.clone(),
                namespace: self.inner.conn.namespace.clone(),
            });
        }
        let (revisions, annotated_sets) = self.current_revisions(&list.items).await?;
        let mut out = Vec::new();
        for pod in &list.items {
            let name = pod.metadata.name.clone().unwrap_or_default();
            let labels = pod.metadata.labels.clone().unwrap_or_default();
            let annotations = pod.metadata.annotations.clone().unwrap_or_default();
            let id = node_id(&name, &labels, &sel.id_rule).ok_or_else(|| {
                PlatformError::InvalidNodes {
                    value: name.clone(),
                    message: match &sel.id_rule {
                        NodeIdRule::NameSuffix => {
                            "the pod name does not end in -<node id>".to_string()
                        }
                        NodeIdRule::Label(l) => format!("the pod has no numeric label {l}"),
                    },
                }
            })?;
            let has = annotations
                .get(STRIMZI_REVISION)
                .or_else(|| labels.get("controller-revision-hash"))
                .cloned();
            let old_revision = match (has, revisions.get(&name)) {
                (Some(h), Some(c)) if &h != c => Some((h, c.clone())),
                _ => None,
            };
            let annotated_set = annotated_sets
                .iter()
                .find(|(_, pods)| pods.contains(&name))
                .map(|(set, _)| set.clone());
            out.push(PodView {
                id,
                name,
                uid: pod.metadata.uid.clone().unwrap_or_default(),
                ready: pod_ready(pod),
                stuck: stuck_reason(pod),
                manual_rolling_update: annotations
                    .get(MANUAL_ROLLING_UPDATE)
                    .is_some_and(|v| v.eq_ignore_ascii_case("true")),
                annotated_set,
                old_revision,
            });
        }
        out.sort_by_key(|p| p.id);
        if let Some(w) = out.windows(2).find(|w| w[0].id == w[1].id) {
            return Err(PlatformError::InvalidNodes {
                value: format!("{}, {}", w[0].name, w[1].name),
                message: format!("both pods map to node id {}", w[0].id),
            });
        }
        *self.inner.names.lock().unwrap_or_else(|e| e.into_inner()) =
            out.iter().map(|p| (p.id, p.name.clone())).collect();
        *self.inner.reasons.lock().unwrap_or_else(|e| e.into_inner()) = out
            .iter()
            .map(|p| (p.id, p.restart_reasons()))
            .filter(|(_, r)| !r.is_empty())
            .collect();
        *self
            .inner
            .set_rolls
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = annotated_sets;
        Ok(out)
    }

    /// The current revision per pod name: Strimzi's from the StrimziPodSets' pod templates,
    /// otherwise a StatefulSet's `updateRevision` for the pods it owns. Also the StrimziPodSets
    /// annotated for a manual rolling update, with their pod names.
    #[allow(clippy::type_complexity)]
    async fn current_revisions(
        &self,
        pods: &[Pod],
    ) -> Result<(BTreeMap<String, String>, BTreeMap<String, BTreeSet<String>>), PlatformError> {
        let mut out = BTreeMap::new();
        let mut annotated = BTreeMap::new();
        let ns = &self.inner.conn.namespace;
        if let Some(cluster) = &self.inner.selector.strimzi_cluster {
            let api: Api<DynamicObject> = Api::namespaced_with(
                self.inner.conn.client.clone(),
                ns,
                &strimzi_resource("StrimziPodSet"),
            );
            let sets = api
                .list(&ListParams::default().labels(&format!("strimzi.io/cluster={cluster}")))
                .await
                .map_err(|e| self.err("list", "strimzipodsets.kafka.strimzi.io", None, &e))?;
            for set in sets.items {
                let rolls = set
                    .metadata
                    .annotations
                    .as_ref()
                    .and_then(|a| a.get(MANUAL_ROLLING_UPDATE))
                    .is_some_and(|v| v.eq_ignore_ascii_case("true"));
                let mut names = BTreeSet::new();
                for p in set.data["spec"]["pods"].as_array().into_iter().flatten() {
                    let name = p["metadata"]["name"].as_str();
                    let rev = p["metadata"]["annotations"][STRIMZI_REVISION].as_str();
                    if let Some(n) = name {
                        names.insert(n.to_string());
                    }
                    if let (Some(n), Some(r)) = (name, rev) {
                        out.insert(n.to_string(), r.to_string());
                    }
                }
                if rolls && let Some(set_name) = set.metadata.name.clone() {
                    annotated.insert(set_name, names);
                }
            }
            return Ok((out, annotated));
        }
        let sets: Api<StatefulSet> = Api::namespaced(self.inner.conn.client.clone(), ns);
        let mut cache: BTreeMap<String, Option<String>> = BTreeMap::new();
        for pod in pods {
            let Some(owner) = pod
                .metadata
                .owner_references
                .iter()
                .flatten()
                .find(|o| o.kind == "StatefulSet")
            else {
                continue;
            };
            if !cache.contains_key(&owner.name) {
                let sts = sets
                    .get(&owner.name)
                    .await
                    .map_err(|e| self.err("get", "statefulsets.apps", Some(&owner.name), &e))?;
                cache.insert(
                    owner.name.clone(),
                    sts.status.and_then(|s| s.update_revision),
                );
            }
            if let (Some(Some(rev)), Some(name)) = (cache.get(&owner.name), &pod.metadata.name) {
                out.insert(name.clone(), rev.clone());
            }
        }
        Ok((out, annotated))
    }

    fn pod_name(&self, id: i32) -> Result<String, PlatformError> {
        let names = self.inner.names.lock().unwrap_or_else(|e| e.into_inner());
        names
            .get(&id)
            .cloned()
            .ok_or_else(|| PlatformError::UnknownNode {
                id,
                known: names
                    .keys()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The roll lease of these pods as this process sees it.
    fn roll_lock(&self, duration: Duration) -> LeaseLock {
        LeaseLock::new(
            &self.inner.conn,
            &self.inner.selector.lease_name(),
            &self.inner.identity,
            duration,
        )
    }

    /// Who else rolls these pods: the roll lease's live holder other than us, described as
    /// `Lease <name> held by <holder>` (without the renewal time, so the wait that quotes it
    /// reads the same, and is logged once, while the holder renews); `None` when it is free,
    /// expired or ours. Read only (`operate` asks every loop so that it starts nothing while a
    /// `kafkaops roll` restarts brokers).
    ///
    /// # Errors
    /// The Lease cannot be read.
    pub async fn roll_lease_holder(&self) -> Result<Option<String>, PlatformError> {
        let lock = self.roll_lock(Duration::from_secs(1));
        Ok(match lock.other_holder().await? {
            Some(Attempt::Held { holder, .. }) => {
                Some(format!("Lease {} held by {holder}", lock.name()))
            }
            _ => None,
        })
    }

    /// Takes the roll lease for this cluster; fails with [`PlatformError::LeaseHeld`] when a
    /// live holder other than us has it. The returned guard renews it until released.
    ///
    /// # Errors
    /// The lease is held, or a Kubernetes call fails.
    pub async fn take_lease(&self, duration: Duration) -> Result<LeaseGuard, PlatformError> {
        let lock = self.roll_lock(duration);
        if let Attempt::Held { holder, renewed } = lock.try_acquire().await? {
            return Err(PlatformError::LeaseHeld {
                lease: lock.name().to_string(),
                holder,
                renewed,
            });
        }
        let every = (duration / 3).max(Duration::from_secs(1));
        let renew = lease::renew_in_background(lock.clone(), every, |lock, answer, _| {
            match answer {
                Ok(Renewal::Renewed) => {}
                Ok(Renewal::Lost) => {
                    tracing::warn!("the roll lease {} was taken by another", lock.name());
                }
                Err(e) => tracing::warn!("cannot renew the roll lease {}: {e}", lock.name()),
            }
            true
        });
        Ok(LeaseGuard {
            lock,
            renew: Some(renew),
        })
    }
}

/// A held roll lease; [`LeaseGuard::release`] deletes it (dropping only stops renewing).
pub struct LeaseGuard {
    lock: LeaseLock,
    renew: Option<tokio::task::JoinHandle<()>>,
}

impl LeaseGuard {
    #[must_use]
    pub fn name(&self) -> &str {
        self.lock.name()
    }

    /// Stops renewing and deletes the lease if we still hold it.
    pub async fn release(self) {
        self.give_up(true).await;
    }

    /// Stops renewing and gives the lease up if we still hold it: deletes it (`delete`) or
    /// clears its holder (needs only `update` on leases, as `operate`'s Role allows).
    pub async fn give_up(mut self, delete: bool) {
        if let Some(h) = self.renew.take() {
            h.abort();
        }
        self.lock.release(delete).await;
    }
}

impl Drop for LeaseGuard {
    fn drop(&mut self) {
        if let Some(h) = self.renew.take() {
            h.abort();
        }
    }
}

impl Platform for KubePlatform {
    async fn list_nodes(&self) -> Result<Vec<PlatformNode>, PlatformError> {
        let pods = self.discover().await?;
        Ok(pods
            .into_iter()
            .map(|p| PlatformNode {
                id: p.id,
                address: self.inner.addresses.get(&p.id).cloned(),
                host: p.name,
            })
            .collect())
    }

    /// Deletes the pod and waits until its controller has recreated it (new UID) and it is
    /// Ready; publishes an Event with the reason first.
    async fn restart_node(&self, id: i32) -> Result<(), PlatformError> {
        let name = self.pod_name(id)?;
        let pods = self.pods();
        let pod = pods
            .get(&name)
            .await
            .map_err(|e| self.err("get", "pods", Some(&name), &e))?;
        let old_uid = pod.metadata.uid.clone().unwrap_or_default();
        let (reason, note) = self.restart_reason(id, &name);
        self.publish(
            &pod,
            reason,
            &format!("kafkaops rolling pod {name} (node {id}): {note}"),
        )
        .await?;
        let dp = DeleteParams {
            preconditions: Some(kube::api::Preconditions {
                uid: Some(old_uid.clone()),
                resource_version: None,
            }),
            ..DeleteParams::default()
        };
        pods.delete(&name, &dp)
            .await
            .map_err(|e| self.err("delete", "pods", Some(&name), &e))?;
        self.wait_recreated(&pods, &name, &old_uid).await?;
        self.after_restart(id, &name).await
    }

    /// A node runs when its pod exists, is Running and not stuck.
    async fn is_running(&self, id: i32) -> Result<bool, PlatformError> {
        let name = self.pod_name(id)?;
        let pod = self
            .pods()
            .get_opt(&name)
            .await
            .map_err(|e| self.err("get", "pods", Some(&name), &e))?;
        Ok(pod.is_some_and(|p| {
            stuck_reason(&p).is_none()
                && p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running")
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(v: serde_json::Value) -> Pod {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn stuck_pods() {
        let crash = pod(
            json!({"metadata":{"name":"c-k-1"},"status":{"phase":"Running",
            "containerStatuses":[{"name":"kafka","ready":false,"restartCount":4,"image":"x","imageID":"",
              "state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}}),
        );
        assert_eq!(stuck_reason(&crash).as_deref(), Some("CrashLoopBackOff"));
        let pending = pod(
            json!({"metadata":{"name":"c-k-1"},"status":{"phase":"Pending",
            "conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]}}),
        );
        assert_eq!(
            stuck_reason(&pending).as_deref(),
            Some("Pending/Unschedulable")
        );
        let ok = pod(
            json!({"metadata":{"name":"c-k-1"},"status":{"phase":"Running",
            "conditions":[{"type":"Ready","status":"True"}]}}),
        );
        assert_eq!(stuck_reason(&ok), None);
        assert!(pod_ready(&ok));
    }

    #[test]
    fn node_ids_and_lease_names() {
        let none = BTreeMap::new();
        assert_eq!(
            node_id("my-cluster-brokers-12", &none, &NodeIdRule::NameSuffix),
            Some(12)
        );
        assert_eq!(node_id("kafka", &none, &NodeIdRule::NameSuffix), None);
        let labels = BTreeMap::from([("id".to_string(), "7".to_string())]);
        assert_eq!(
            node_id("x", &labels, &NodeIdRule::Label("id".into())),
            Some(7)
        );
        assert_eq!(
            PodSelector::strimzi("my-cluster").lease_name(),
            "kafkaops-roll-my-cluster"
        );
        let s = PodSelector {
            labels: "app=Kafka,tier=data".into(),
            id_rule: NodeIdRule::NameSuffix,
            strimzi_cluster: None,
        };
        assert_eq!(s.lease_name(), "kafkaops-roll-app-kafka-tier-data");
    }
}
