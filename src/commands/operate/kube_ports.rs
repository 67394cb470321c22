//! The [`ports`](super::ports) in Kubernetes: the state in a ConfigMap ([`ConfigMapStore`]),
//! leader election with a Lease ([`LeaseLeadership`]), actions as Events ([`EventRecorder`]).
//!
//! Why these shapes: two replicas of the Deployment run; only the Lease holder acts. A leader
//! can be deposed without knowing it (paused, partitioned), so leadership alone is not enough to
//! protect the state: the ConfigMap is replaced with the resourceVersion this instance last
//! read or wrote, and a write by anyone else in between makes ours fail with
//! [`PortError::Conflict`] instead of overwriting the new leader's state. The Lease code is the
//! roll's (`crate::platform::kube::lease`), used here with a renewal task and a holder that
//! gives up at once on SIGTERM (holder cleared, not deleted, so the RBAC needs no `delete`).
//!
//! [`ClusterWatch`] wakes the loop before the resync: plain `list` + `watch` requests (the
//! resourceVersion from the list; a watch that fails or expires is started again from a new
//! list, with backoff) on the cluster's pods and, with `--strimzi`, its KafkaNodePools. Only
//! what the loop decides on counts as a change (a fingerprint of annotations, labels,
//! readiness, restarts, replicas and node ids), so status heartbeats do not wake it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, DynamicObject, PostParams};
use serde_json::json;

use super::ports::{ActionRecord, ActionResult, Leadership, PortError, Recorder, StateStore};
use crate::platform::PlatformError;
use crate::platform::kube::events::{self, EventSpec, Regarding};
use crate::platform::kube::lease::{Attempt, LeaseLock, Renewal};
use crate::platform::kube::{KubeConn, KubeFailure, MANAGER, kube_error, strimzi_resource};

/// The ConfigMap data key holding the state document.
pub const STATE_KEY: &str = "state.json";
/// The Event reporter.
pub const CONTROLLER: &str = "kafkaops.io/operate";

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

// ---------------------------------------------------------------------------------------------
// State: a ConfigMap with optimistic concurrency
// ---------------------------------------------------------------------------------------------

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

    fn err(&self, verb: &str, e: &kube::Error) -> PortError {
        PortError::Kube(kube_error(
            verb,
            "configmaps",
            Some(&self.name),
            &self.namespace,
            e,
        ))
    }

    fn conflict(&self) -> PortError {
        PortError::Conflict(format!(
            "ConfigMap {} in namespace {} was written by someone else since this instance read it",
            self.name, self.namespace
        ))
    }
}

impl StateStore for ConfigMapStore {
    async fn load(&self) -> Result<Option<String>, PortError> {
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

    async fn save(&self, doc: &str) -> Result<(), PortError> {
        let version = lock(&self.version).clone();
        let body: ConfigMap = serde_json::from_value(json!({
            "metadata": { "name": self.name, "resourceVersion": version,
                          "labels": { "app.kubernetes.io/managed-by": MANAGER,
                                      "app.kubernetes.io/component": "operate" } },
            "data": { STATE_KEY: doc },
        }))
        .map_err(|e| PortError::Io(format!("cannot build the ConfigMap: {e}")))?;
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

// ---------------------------------------------------------------------------------------------
// Leadership: a Lease renewed in the background
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct LeaderState {
    leading: AtomicBool,
    /// Until when our last successful write of the Lease lets us act (local clock, from before
    /// the write was sent; see [`acting_window`]).
    valid_until: Mutex<Option<Instant>>,
}

/// How long after sending its last successful renewal the leader keeps acting: two thirds of
/// the lease. A standby judges expiry from the leader-written `renewTime` plus the whole
/// (rounded-up) `leaseDurationSeconds` against its own clock; the last third absorbs clock
/// skew between the two and the time an action already under way needs to notice. Renewals
/// come every third, so one on time always extends it.
#[must_use]
pub fn acting_window(duration: Duration) -> Duration {
    duration * 2 / 3
}

impl LeaderState {
    fn is_leader(&self) -> bool {
        self.leading.load(Ordering::SeqCst)
            && lock(&self.valid_until).is_some_and(|t| Instant::now() < t)
    }

    fn confirmed(&self, sent: Instant, duration: Duration) {
        *lock(&self.valid_until) = Some(sent + acting_window(duration));
        self.leading.store(true, Ordering::SeqCst);
    }

    fn lost(&self) {
        self.leading.store(false, Ordering::SeqCst);
    }
}

/// Leader election on Lease `name`: [`Leadership::acquire`] waits (polling) until the Lease is
/// free, expired or released; the holder renews it every duration/3 in a background task.
/// [`Leadership::is_leader`] turns false as soon as a renewal fails or finds the Lease taken,
/// and in any case once two thirds of the duration passed since the last successful renewal
/// (a frozen or partitioned leader stops acting well before a standby may take over). After a failed renewal the
/// task keeps trying: a later success while still the holder makes it the leader again; a lost
/// Lease ends the task (call `acquire` again to stand by).
pub struct LeaseLeadership {
    lock: LeaseLock,
    state: Arc<LeaderState>,
    renewer: Mutex<Option<tokio::task::JoinHandle<()>>>,
    poll: Duration,
}

impl LeaseLeadership {
    /// `identity`: the holder identity written to the Lease (in a pod, its name; see
    /// [`crate::platform::kube::identity`]).
    #[must_use]
    pub fn new(conn: &KubeConn, name: &str, identity: &str, duration: Duration) -> Self {
        let poll = (duration / 6).clamp(Duration::from_millis(250), Duration::from_secs(5));
        LeaseLeadership {
            lock: LeaseLock::new(conn, name, identity, duration),
            state: Arc::new(LeaderState::default()),
            renewer: Mutex::new(None),
            poll,
        }
    }

    #[must_use]
    pub fn identity(&self) -> &str {
        self.lock.identity()
    }

    #[must_use]
    pub fn lease_name(&self) -> &str {
        self.lock.name()
    }

    fn stop_renewing(&self) {
        if let Some(h) = lock(&self.renewer).take() {
            h.abort();
        }
    }

    fn start_renewing(&self) {
        let (lease, state) = (self.lock.clone(), Arc::clone(&self.state));
        let duration = lease.duration();
        let every = (duration / 3).max(Duration::from_millis(100));
        let task = tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let sent = Instant::now();
                match lease.renew().await {
                    Ok(Renewal::Renewed) => {
                        if !state.leading.load(Ordering::SeqCst) {
                            super::log(format!(
                                "renewed the lease {} again: leading",
                                lease.name()
                            ));
                        }
                        state.confirmed(sent, duration);
                    }
                    Ok(Renewal::Lost) => {
                        state.lost();
                        super::log(format!(
                            "lost the lease {}: another instance holds it; not acting any more",
                            lease.name()
                        ));
                        return;
                    }
                    Err(e) => {
                        if state.leading.swap(false, Ordering::SeqCst) {
                            super::log(format!(
                                "cannot renew the lease {}: {e}; not acting until it is renewed",
                                lease.name()
                            ));
                        }
                    }
                }
            }
        });
        *lock(&self.renewer) = Some(task);
    }
}

impl Drop for LeaseLeadership {
    fn drop(&mut self) {
        self.stop_renewing();
    }
}

impl Leadership for LeaseLeadership {
    async fn acquire(&self) -> Result<(), PortError> {
        if self.is_leader() {
            return Ok(());
        }
        self.stop_renewing();
        let mut waiting_for = None;
        loop {
            let sent = Instant::now();
            match self.lock.try_acquire().await {
                Ok(Attempt::Acquired) => {
                    self.state.confirmed(sent, self.lock.duration());
                    self.start_renewing();
                    super::log(format!(
                        "holding the lease {} as {}: leading",
                        self.lock.name(),
                        self.lock.identity()
                    ));
                    return Ok(());
                }
                Ok(Attempt::Held { holder, renewed }) => {
                    if waiting_for.as_ref() != Some(&holder) {
                        super::log(format!(
                            "standing by: the lease {} is held by {holder} (renewed {renewed})",
                            self.lock.name()
                        ));
                        waiting_for = Some(holder);
                    }
                }
                // The apiserver away for a moment: keep standing by.
                Err(PlatformError::Kube {
                    reason: KubeFailure::Unreachable,
                    message,
                    ..
                }) => {
                    super::log(format!(
                        "cannot read the lease {}: {message}",
                        self.lock.name()
                    ));
                }
                Err(e) => return Err(PortError::Kube(e)),
            }
            tokio::time::sleep(self.poll).await;
        }
    }

    fn is_leader(&self) -> bool {
        self.state.is_leader()
    }

    async fn release(&self) {
        self.stop_renewing();
        self.state.lost();
        self.lock.release(false).await;
    }
}

// ---------------------------------------------------------------------------------------------
// Recorder: events.k8s.io/v1 Events
// ---------------------------------------------------------------------------------------------

/// Records every action as an Event regarding one object: the `Kafka` resource with
/// `--strimzi`, else the operate pod itself.
pub struct EventRecorder {
    conn: KubeConn,
    regarding: Regarding,
    instance: String,
}

/// `rebalance-add-brokers` → `RebalanceAddBrokers`.
fn camel(kebab: &str) -> String {
    kebab
        .split(['-', '_', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

impl EventRecorder {
    #[must_use]
    pub fn new(conn: &KubeConn, regarding: Regarding, instance: &str) -> Self {
        EventRecorder {
            conn: conn.clone(),
            regarding,
            instance: instance.to_string(),
        }
    }

    /// Events regarding the Strimzi `Kafka` resource `cluster` (its UID read once; `get kafkas`).
    ///
    /// # Errors
    /// The Kafka resource cannot be read.
    pub async fn for_strimzi(
        conn: &KubeConn,
        cluster: &str,
        instance: &str,
    ) -> Result<Self, PlatformError> {
        let api: Api<kube::api::DynamicObject> = Api::namespaced_with(
            conn.client.clone(),
            &conn.namespace,
            &strimzi_resource("Kafka"),
        );
        let kafka = api.get(cluster).await.map_err(|e| {
            kube_error(
                "get",
                "kafkas.kafka.strimzi.io",
                Some(cluster),
                &conn.namespace,
                &e,
            )
        })?;
        Ok(Self::new(
            conn,
            Regarding {
                api_version: "kafka.strimzi.io/v1".into(),
                kind: "Kafka".into(),
                name: cluster.to_string(),
                uid: kafka.metadata.uid,
            },
            instance,
        ))
    }

    /// Events regarding the pod operate runs in (`pod`: its name, the hostname in a pod).
    #[must_use]
    pub fn for_pod(conn: &KubeConn, pod: &str, instance: &str) -> Self {
        Self::new(
            conn,
            Regarding {
                api_version: "v1".into(),
                kind: "Pod".into(),
                name: pod.to_string(),
                uid: None,
            },
            instance,
        )
    }

    /// The Event fields for an action: (action, reason, note, warning).
    #[must_use]
    pub fn fields(action: &ActionRecord) -> (String, String, String, bool) {
        let verb = camel(&action.kind);
        let outcome = match action.result {
            ActionResult::Started => "Started",
            ActionResult::Succeeded => "Succeeded",
            ActionResult::Failed => "Failed",
            ActionResult::DryRun => "DryRun",
        };
        let dry = if action.result == ActionResult::DryRun {
            " (dry run: not taken)"
        } else {
            ""
        };
        (
            verb.clone(),
            format!("{verb}{outcome}"),
            format!(
                "{} {}: {}{dry}",
                action.kind,
                action.target,
                action.reason.trim_end_matches('.')
            ),
            action.result == ActionResult::Failed,
        )
    }
}

impl Recorder for EventRecorder {
    async fn record(&self, action: &ActionRecord) {
        let (verb, reason, note, warning) = Self::fields(action);
        let spec = EventSpec {
            regarding: &self.regarding,
            controller: CONTROLLER,
            instance: &self.instance,
            action: &verb,
            reason: &reason,
            note: &note,
            warning,
        };
        if let Err(e) = events::publish(&self.conn, &spec).await {
            super::log(format!("cannot record the action as an Event: {e}"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Choosing the ports
// ---------------------------------------------------------------------------------------------

/// What operate uses of Kubernetes.
pub struct KubeSetup {
    pub ports: (ConfigMapStore, LeaseLeadership, EventRecorder),
    /// With `--strimzi`.
    pub strimzi: Option<StrimziSide>,
    /// The pods rolls restart (`--strimzi` or `--pod-selector`).
    pub pods: Option<crate::platform::kube::KubePlatform>,
    /// What wakes the loop before the resync (the same pods; the node pools with `--strimzi`).
    pub watch: ClusterWatch,
}

/// The Kubernetes ports, when operate runs against Kubernetes (`--lease`, `--state-configmap`
/// or `--strimzi`); `None` on a plain host. One name serves both the Lease and the ConfigMap
/// when only one is given (`kafkaops-operate-<cluster>` with `--strimzi`).
///
/// # Errors
/// No Kubernetes configuration, or (with `--strimzi`) the Kafka resource cannot be read.
pub async fn from_args(
    ctx: &crate::commands::Ctx,
    args: &crate::cli::operate::OperateArgs,
) -> Result<Option<KubeSetup>, PlatformError> {
    let cluster = ctx.global.kube.strimzi.as_deref();
    let default = cluster.map(|c| format!("kafkaops-operate-{c}"));
    let (Some(lease), Some(configmap)) = (
        args.lease
            .clone()
            .or_else(|| default.clone())
            .or_else(|| args.state_configmap.clone()),
        args.state_configmap
            .clone()
            .or_else(|| default.clone())
            .or_else(|| args.lease.clone()),
    ) else {
        return Ok(None);
    };
    let conn = ctx.global.kube.target().connect().await?;
    let identity = crate::platform::kube::identity();
    let recorder = match cluster {
        Some(c) => EventRecorder::for_strimzi(&conn, c, &identity).await?,
        None => EventRecorder::for_pod(&conn, &crate::platform::kube::hostname(), &identity),
    };
    super::log(format!(
        "Kubernetes: Lease {lease}, state in ConfigMap {configmap}, namespace {}, as {identity}",
        conn.namespace
    ));
    Ok(Some(KubeSetup {
        ports: (
            ConfigMapStore::new(&conn, &configmap),
            LeaseLeadership::new(&conn, &lease, &identity, args.lease_duration),
            recorder,
        ),
        strimzi: cluster.map(|c| StrimziSide {
            conn: conn.clone(),
            cluster: c.to_string(),
        }),
        watch: ClusterWatch {
            conn: conn.clone(),
            pods: pod_selector(cluster, args).map(|sel| sel.labels),
            strimzi: cluster.map(str::to_string),
        },
        pods: pod_selector(cluster, args).map(|sel| {
            crate::platform::kube::KubePlatform::new(conn.clone(), sel, args.action_timeout)
        }),
    }))
}

/// The cluster's pods: Strimzi's (`--strimzi`) or `--pod-selector`'s.
fn pod_selector(
    cluster: Option<&str>,
    args: &crate::cli::operate::OperateArgs,
) -> Option<crate::platform::kube::PodSelector> {
    use crate::platform::kube::{NodeIdRule, PodSelector};
    if let Some(c) = cluster {
        return Some(PodSelector::strimzi(c));
    }
    args.pod_selector.as_ref().map(|labels| PodSelector {
        labels: labels.clone(),
        id_rule: args
            .node_id_label
            .clone()
            .map_or(NodeIdRule::NameSuffix, NodeIdRule::Label),
        strimzi_cluster: None,
    })
}

/// What operate reads of a Strimzi cluster every loop: whether the operator is active or runs
/// its own rebalance (the engine then waits, as `rebalance --execute` refuses), and the nodes
/// its KafkaNodePools are about to remove (scale-down intent, added to the policy's drain set).
pub struct StrimziSide {
    conn: KubeConn,
    cluster: String,
}

impl super::ports::PlatformObserver for StrimziSide {
    /// Resources that cannot be read make the loop wait rather than act without knowing what
    /// the operator does or which brokers are leaving.
    fn observe(
        &self,
    ) -> std::pin::Pin<
        Box<
            dyn std::future::Future<Output = Result<super::ports::PlatformView, PortError>>
                + Send
                + '_,
        >,
    > {
        Box::pin(async move {
            let operator = crate::strimzi::observe_operator(&self.conn, &self.cluster).await?;
            let drain = crate::strimzi::scale_down_intent(&self.conn, &self.cluster).await?;
            Ok(super::ports::PlatformView {
                operator: Some(operator),
                drain,
            })
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Watch: an early wake-up when the cluster's pods or node pools change
// ---------------------------------------------------------------------------------------------

/// How long the watch waits after a change for more before it wakes the loop (a roll or a
/// scale-down changes several objects in a burst; one loop looks at all of them).
pub const DEBOUNCE: Duration = Duration::from_secs(1);
/// The server-side timeout of one watch request; the watch is restarted from a fresh list.
const WATCH_TIMEOUT_SECS: u32 = 290;
/// The longest pause between attempts while the apiserver refuses the list or the watch.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// What the watch follows: the cluster's pods (their label selector) and, with `--strimzi`,
/// its KafkaNodePools.
pub struct ClusterWatch {
    conn: KubeConn,
    pods: Option<String>,
    strimzi: Option<String>,
}

impl ClusterWatch {
    /// Starts one watch per kind (list for the resourceVersion, then `watch`, started again
    /// from a new list on error or expiry, with backoff); the returned handle wakes the loop.
    #[must_use]
    pub fn start(&self) -> super::wake::ClusterChanges {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let mut tasks = Vec::new();
        if let Some(sel) = &self.pods {
            let api: Api<Pod> = Api::namespaced(self.conn.client.clone(), &self.conn.namespace);
            tasks.push(tokio::spawn(watch_kind(
                api,
                sel.clone(),
                "pod",
                pod_fingerprint,
                tx.clone(),
            )));
        }
        if let Some(c) = &self.strimzi {
            let api: Api<DynamicObject> = Api::namespaced_with(
                self.conn.client.clone(),
                &self.conn.namespace,
                &strimzi_resource("KafkaNodePool"),
            );
            tasks.push(tokio::spawn(watch_kind(
                api,
                format!("strimzi.io/cluster={c}"),
                "KafkaNodePool",
                pool_fingerprint,
                tx,
            )));
        }
        super::wake::ClusterChanges::start(rx, DEBOUNCE, tasks)
    }
}

fn hash_of(v: &impl std::hash::Hash) -> u64 {
    use std::hash::Hasher as _;
    let mut h = std::hash::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// What of a pod matters to the loop: its annotations and labels (the manual-rolling-update
/// annotation, the revision), being deleted, its phase and conditions (Ready), its containers'
/// readiness, restarts and waiting reasons (stuck). Not its resourceVersion or timestamps.
#[must_use]
pub fn pod_fingerprint(p: &Pod) -> u64 {
    let status = p.status.as_ref();
    let conditions: Vec<(&str, &str)> = status
        .and_then(|s| s.conditions.as_ref())
        .map(|c| {
            c.iter()
                .map(|c| (c.type_.as_str(), c.status.as_str()))
                .collect()
        })
        .unwrap_or_default();
    let containers: Vec<(&str, bool, i32, Option<&str>)> = status
        .and_then(|s| s.container_statuses.as_ref())
        .map(|cs| {
            cs.iter()
                .map(|c| {
                    (
                        c.name.as_str(),
                        c.ready,
                        c.restart_count,
                        c.state
                            .as_ref()
                            .and_then(|s| s.waiting.as_ref())
                            .and_then(|w| w.reason.as_deref()),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    hash_of(&(
        &p.metadata.annotations,
        &p.metadata.labels,
        p.metadata.deletion_timestamp.is_some(),
        status.and_then(|s| s.phase.as_deref()),
        conditions,
        containers,
    ))
}

/// What of a KafkaNodePool matters: its annotations (`strimzi.io/remove-node-ids`), its
/// replicas and its node ids (scale-down intent).
#[must_use]
pub fn pool_fingerprint(p: &DynamicObject) -> u64 {
    hash_of(&(
        &p.metadata.annotations,
        p.data["spec"]["replicas"].to_string(),
        p.data["status"]["nodeIds"].to_string(),
    ))
}

/// Follows the objects of one kind matching `selector`; sends `"<what> <name>"` for every
/// object whose fingerprint changed (added, modified in what matters, deleted). Runs until
/// aborted.
async fn watch_kind<K>(
    api: Api<K>,
    selector: String,
    what: &'static str,
    fingerprint: fn(&K) -> u64,
    changes: tokio::sync::mpsc::UnboundedSender<String>,
) where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug + Send + 'static,
{
    use futures::StreamExt as _;
    use kube::api::{ListParams, WatchEvent, WatchParams};
    let mut known: Option<std::collections::BTreeMap<String, u64>> = None;
    let mut failures = 0u32;
    let mut said: Option<String> = None;
    loop {
        if failures > 0 {
            let delay = Duration::from_secs(1)
                .saturating_mul(1 << failures.min(6))
                .min(MAX_BACKOFF);
            tokio::time::sleep(delay).await;
        }
        let list = match api.list(&ListParams::default().labels(&selector)).await {
            Ok(l) => l,
            Err(e) => {
                failures = failures.saturating_add(1);
                let line = format!("cannot list the {what}s to watch them (retrying): {e}");
                if said.as_deref() != Some(line.as_str()) {
                    super::log(&line);
                    said = Some(line);
                }
                continue;
            }
        };
        let now: std::collections::BTreeMap<String, u64> = list
            .items
            .iter()
            .map(|o| (o.meta().name.clone().unwrap_or_default(), fingerprint(o)))
            .collect();
        // Changes missed between two watches count too.
        if let Some(before) = &known {
            for name in now.keys().chain(before.keys()) {
                if now.get(name) != before.get(name) {
                    let _ = changes.send(format!("{what} {name}"));
                }
            }
        }
        let mut known_now = now;
        let version = list.metadata.resource_version.unwrap_or_default();
        let params = WatchParams::default()
            .labels(&selector)
            .timeout(WATCH_TIMEOUT_SECS);
        let stream = match api.watch(&params, &version).await {
            Ok(s) => s,
            Err(e) => {
                failures = failures.saturating_add(1);
                let line = format!("cannot watch the {what}s (retrying): {e}");
                if said.as_deref() != Some(line.as_str()) {
                    super::log(&line);
                    said = Some(line);
                }
                known = Some(known_now);
                continue;
            }
        };
        let mut stream = std::pin::pin!(stream);
        // An error ends this watch (an expired resourceVersion, 410, or another): list again,
        // after a backoff that grows while watches keep failing before any event.
        failures = failures.saturating_add(1);
        loop {
            let Some(event) = stream.next().await else {
                // The server's timeout: a quiet watch, not a failure.
                failures = 0;
                break;
            };
            let (object, deleted) = match event {
                Ok(WatchEvent::Added(o) | WatchEvent::Modified(o)) => (o, false),
                Ok(WatchEvent::Deleted(o)) => (o, true),
                Ok(WatchEvent::Bookmark(_)) => continue,
                Ok(WatchEvent::Error(e)) => {
                    tracing::debug!("the {what} watch ended: {e:?}");
                    break;
                }
                Err(e) => {
                    tracing::debug!("the {what} watch ended: {e}");
                    break;
                }
            };
            failures = 0;
            said = None;
            let name = object.meta().name.clone().unwrap_or_default();
            let changed = if deleted {
                known_now.remove(&name).is_some()
            } else {
                known_now.insert(name.clone(), fingerprint(&object)) != Some(fingerprint(&object))
            };
            if changed {
                let _ = changes.send(format!("{what} {name}"));
            }
        }
        known = Some(known_now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leader_stops_acting_at_two_thirds_of_the_lease() {
        let d = Duration::from_secs(15);
        assert_eq!(acting_window(d), Duration::from_secs(10));
        let s = LeaderState::default();
        assert!(!s.is_leader());
        // Renewed (sent) 9 s ago: still acting; 11 s ago: not any more, although the Lease
        // (15 s) is still ours in the eyes of a standby.
        let now = Instant::now();
        s.confirmed(now - Duration::from_secs(9), d);
        assert!(s.is_leader());
        s.confirmed(now - Duration::from_secs(11), d);
        assert!(!s.is_leader());
        s.confirmed(now, d);
        assert!(s.is_leader());
        s.lost();
        assert!(!s.is_leader());
    }

    #[test]
    fn event_fields() {
        let a = ActionRecord {
            kind: "rebalance-add-brokers".into(),
            target: "brokers 4,5".into(),
            reason: "brokers 4,5 joined and hold no replica.".into(),
            result: ActionResult::Started,
        };
        let (verb, reason, note, warning) = EventRecorder::fields(&a);
        assert_eq!(verb, "RebalanceAddBrokers");
        assert_eq!(reason, "RebalanceAddBrokersStarted");
        assert_eq!(
            note,
            "rebalance-add-brokers brokers 4,5: brokers 4,5 joined and hold no replica"
        );
        assert!(!warning);
        let failed = ActionRecord {
            result: ActionResult::Failed,
            ..a
        };
        assert!(EventRecorder::fields(&failed).3);
        assert_eq!(camel("set-rf"), "SetRf");
    }
}
