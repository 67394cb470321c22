//! What a pod says about its Kafka node, judged from the pod alone: which node it is (name
//! suffix or label), which pods a selector covers, whether it is stuck or on an old revision.
//! Pure functions of the Kubernetes objects, so they are unit-tested without an apiserver; the
//! parent module does the API calls.

use super::*;

/// How a pod's node id is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeIdRule {
    /// The number after the last `-` of the pod name (Strimzi `<cluster>-<pool>-<id>`,
    /// StatefulSet ordinals).
    NameSuffix,
    /// The value of this pod label.
    Label(String),
}

/// Which pods are the cluster's nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodSelector {
    /// A label selector (for Strimzi `strimzi.io/cluster=X,strimzi.io/kind=Kafka,
    /// strimzi.io/component-type=kafka`: Cruise Control's, the entity operator's and the
    /// exporter's pods carry the first two labels too).
    pub labels: String,
    pub id_rule: NodeIdRule,
    /// The Strimzi cluster name, when the pods are Strimzi's (StrimziPodSet revisions, the
    /// Kafka resource as the lease name and event subject).
    pub strimzi_cluster: Option<String>,
}

impl PodSelector {
    #[must_use]
    pub fn strimzi(cluster: &str) -> Self {
        PodSelector {
            labels: format!(
                "strimzi.io/cluster={cluster},strimzi.io/kind=Kafka,strimzi.io/component-type=kafka"
            ),
            id_rule: NodeIdRule::NameSuffix,
            strimzi_cluster: Some(cluster.to_string()),
        }
    }

    /// The pods of a cluster: a Strimzi cluster's (`strimzi`), else those `labels` select, their
    /// node id read from `node_id_label` (else the suffix of their name); `None` without either.
    /// `kafkaops roll` and `operate` take the same flags (`--strimzi`, `--pod-selector`,
    /// `--node-id-label`).
    #[must_use]
    pub fn of(
        strimzi: Option<&str>,
        labels: Option<&String>,
        node_id_label: Option<&String>,
    ) -> Option<Self> {
        if let Some(c) = strimzi {
            return Some(PodSelector::strimzi(c));
        }
        labels.map(|labels| PodSelector {
            labels: labels.clone(),
            id_rule: node_id_label
                .cloned()
                .map_or(NodeIdRule::NameSuffix, NodeIdRule::Label),
            strimzi_cluster: None,
        })
    }

    /// The lease's name: per Strimzi cluster, else per selector.
    #[must_use]
    pub fn lease_name(&self) -> String {
        match &self.strimzi_cluster {
            Some(c) => format!("kafkaops-roll-{c}"),
            None => {
                let clean: String = self
                    .labels
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() {
                            c.to_ascii_lowercase()
                        } else {
                            '-'
                        }
                    })
                    .collect();
                let mut name = format!("kafkaops-roll-{}", clean.trim_matches('-'));
                name.truncate(63);
                name.trim_end_matches('-').to_string()
            }
        }
    }
}

/// What kafkaops reads of one pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodView {
    pub id: i32,
    pub name: String,
    pub uid: String,
    pub ready: bool,
    /// Why the pod is stuck (`CrashLoopBackOff`, `Pending/Unschedulable`, ...).
    pub stuck: Option<String>,
    pub manual_rolling_update: bool,
    /// The StrimziPodSet annotated `strimzi.io/manual-rolling-update=true` this pod belongs to.
    pub annotated_set: Option<String>,
    /// `(pod's revision, controller's current revision)` when they differ.
    pub old_revision: Option<(String, String)>,
}

impl PodView {
    /// The pod's restart reasons, with the Event reason word for each.
    #[must_use]
    pub fn restart_reasons(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if let Some(why) = &self.stuck {
            out.push(("PodStuck", format!("pod {} is stuck ({why})", self.name)));
        }
        if self.manual_rolling_update {
            out.push((
                "ManualRollingUpdate",
                format!(
                    "pod {} is annotated {MANUAL_ROLLING_UPDATE}=true",
                    self.name
                ),
            ));
        }
        if let Some(set) = &self.annotated_set {
            out.push((
                "ManualRollingUpdate",
                format!("StrimziPodSet {set} is annotated {MANUAL_ROLLING_UPDATE}=true"),
            ));
        }
        if let Some((has, current)) = &self.old_revision {
            out.push((
                "PodHasOldRevision",
                format!(
                    "pod {} has revision {has}, its controller's is {current}",
                    self.name
                ),
            ));
        }
        out
    }
}

/// Why a pod is stuck, from its status (None: not stuck).
#[must_use]
pub fn stuck_reason(pod: &Pod) -> Option<String> {
    let status = pod.status.as_ref()?;
    for cs in status
        .init_container_statuses
        .iter()
        .flatten()
        .chain(status.container_statuses.iter().flatten())
    {
        if let Some(reason) = cs
            .state
            .as_ref()
            .and_then(|s| s.waiting.as_ref())
            .and_then(|w| w.reason.as_deref())
            && matches!(
                reason,
                "CrashLoopBackOff"
                    | "ImagePullBackOff"
                    | "ErrImagePull"
                    | "ContainerCreating"
                    | "CreateContainerConfigError"
                    | "CreateContainerError"
            )
        {
            return Some(reason.to_string());
        }
    }
    if status.phase.as_deref() == Some("Pending") {
        let unschedulable = status.conditions.iter().flatten().any(|c| {
            c.type_ == "PodScheduled"
                && c.status == "False"
                && c.reason.as_deref() == Some("Unschedulable")
        });
        return Some(if unschedulable {
            "Pending/Unschedulable".into()
        } else {
            "Pending".into()
        });
    }
    None
}

pub(super) fn pod_ready(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_none()
        && pod.status.as_ref().is_some_and(|s| {
            s.phase.as_deref() == Some("Running")
                && s.conditions
                    .iter()
                    .flatten()
                    .any(|c| c.type_ == "Ready" && c.status == "True")
        })
}

/// The node id of a pod by the rule (None: the pod has none).
#[must_use]
pub fn node_id(
    pod_name: &str,
    labels: &BTreeMap<String, String>,
    rule: &NodeIdRule,
) -> Option<i32> {
    match rule {
        NodeIdRule::NameSuffix => pod_name.rsplit_once('-')?.1.parse().ok(),
        NodeIdRule::Label(l) => labels.get(l)?.trim().parse().ok(),
    }
}
