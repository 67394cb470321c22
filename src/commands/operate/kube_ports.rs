//! `operate`'s ports in Kubernetes: the state in a ConfigMap and leadership on a Lease (both in
//! [`crate::platform::kube`]: [`ConfigMapStore`], [`LeaseLeadership`]), actions as Events
//! ([`EventRecorder`]), the Strimzi side of each observation ([`StrimziSide`]) and the watch
//! that wakes the loop ([`ClusterWatch`]). What is generic Kubernetes code lives in
//! `platform::kube`; this is the thin layer that fits it to `operate`'s ports and arguments.

use std::time::Duration;

use super::ports::{ActionRecord, ActionResult, Recorder};
use crate::platform::PlatformError;
use crate::platform::kube::KubeConn;
use crate::platform::kube::configmap::ConfigMapStore;
use crate::platform::kube::events::{self, EventSpec, Regarding};
use crate::platform::kube::leader::LeaseLeadership;

/// The Event reporter.
pub const CONTROLLER: &str = "kafkaops.io/operate";

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
        let regarding = crate::platform::kube::strimzi::kafka_regarding(conn, cluster).await?;
        Ok(Self::new(conn, regarding, instance))
    }

    /// Events regarding the pod operate runs in (`pod`: its name, the hostname in a pod).
    #[must_use]
    pub fn for_pod(conn: &KubeConn, pod: &str, instance: &str) -> Self {
        Self::new(conn, Regarding::pod(pod, None), instance)
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
/// or `--strimzi CLUSTER`: `cluster`), reached at `kube`; `None` on a plain host. One name serves both the Lease and the ConfigMap
/// when only one is given (`kafkaops-operate-<cluster>` with `--strimzi`).
///
/// # Errors
/// No Kubernetes configuration, or (with `--strimzi`) the Kafka resource cannot be read.
pub async fn from_args(
    kube: &crate::platform::kube::KubeTarget,
    cluster: Option<&str>,
    args: &crate::cli::operate::OperateArgs,
) -> Result<Option<KubeSetup>, PlatformError> {
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
    let conn = kube.connect().await?;
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
    crate::platform::kube::PodSelector::of(
        cluster,
        args.pod_selector.as_ref(),
        args.node_id_label.as_ref(),
    )
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
            dyn std::future::Future<Output = Result<super::ports::PlatformView, PlatformError>>
                + Send
                + '_,
        >,
    > {
        Box::pin(async move {
            let operator =
                crate::platform::kube::strimzi::observe_operator(&self.conn, &self.cluster).await?;
            let drain =
                crate::platform::kube::strimzi::scale_down_intent(&self.conn, &self.cluster)
                    .await?;
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

/// What the watch follows: the cluster's pods (their label selector) and, with `--strimzi`,
/// its KafkaNodePools ([`crate::platform::kube::watch`]).
pub struct ClusterWatch {
    conn: KubeConn,
    pods: Option<String>,
    strimzi: Option<String>,
}

impl ClusterWatch {
    /// Starts the watches; the returned handle wakes the loop.
    #[must_use]
    pub fn start(&self) -> super::wake::ClusterChanges {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let tasks = crate::platform::kube::watch::watch_cluster(
            &self.conn,
            self.pods.as_deref(),
            self.strimzi.as_deref(),
            &tx,
        );
        super::wake::ClusterChanges::start(rx, DEBOUNCE, tasks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
