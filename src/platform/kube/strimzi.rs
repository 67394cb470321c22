//! Strimzi discovery: connection settings from a Strimzi cluster's Kubernetes resources (an
//! adapter of the Kubernetes platform, next to the pods, leases and events it uses).
//!
//! With `--strimzi CLUSTER`, a user with a kubeconfig needs no other flag: the Kafka bootstrap
//! address comes from the `Kafka` resource's status, Cruise Control's address from the Service
//! `<cluster>-cruise-control` (port `rest-api`), its credentials from the Secret
//! `<cluster>-cruise-control-api` (user `rebalance-operator`) and its CA from the Secret
//! `<cluster>-cluster-ca-cert` (`ca.crt`). Flags, environment and the config file still win:
//! discovery only fills what none of them gave. `roll` looks for Cruise Control the same way
//! (it asks whether an execution runs); a cluster without its Service has none
//! ([`is_missing_cruise_control`]).
//!
//! Reaching the Service: inside the cluster (a pod, `KUBERNETES_SERVICE_HOST` set) its DNS name;
//! outside, its external address (LoadBalancer ingress or `spec.externalIPs`), else a
//! port-forward kafkaops opens itself to a Ready pod behind the Service
//! ([`super::portforward`]). Through the port-forward the URL still names the
//! Service (`https://<cluster>-cruise-control.<namespace>.svc:<port>`), the client connects to the
//! forward's local address instead ([`crate::settings::CruiseControlSettings::connect_to`]), so TLS
//! verifies Cruise Control's certificate against the Service name Strimzi issues it for, not
//! against 127.0.0.1.
//!
//! [`observe_operator`] reads what the Strimzi operator is doing (reconciliation paused or not,
//! `KafkaRebalance`s executing) so that `roll`, `rebalance` and `topic set-rf` do not race it
//! (the decision is the engine's operator guard).

use std::path::PathBuf;

use k8s_openapi::api::core::v1::{Secret as KubeSecret, Service};
use kube::api::{Api, DynamicObject, ListParams};

use super::events::Regarding;
use super::portforward::{PortForward, forward_to_service};
use super::{KubeConn, KubeFailure, kube_error, strimzi_resource};
use crate::engine::operator_guard::{KafkaResource, OperatorView, RebalanceResource};
use crate::platform::PlatformError;
use crate::secret::Secret;
use crate::settings::{Settings, Source, Sourced};

/// The user Strimzi creates for the operator's Cruise Control calls.
pub const CC_USER: &str = "rebalance-operator";
/// The annotation on the `Kafka` resource that pauses the operator's reconciliation.
pub const PAUSE_RECONCILIATION: &str = "strimzi.io/pause-reconciliation";

/// The Kafka bootstrap address of a Strimzi cluster, from its `Kafka` resource's status
/// (listener `plain` if present, else the first listed).
///
/// # Errors
/// The Kafka resource is missing or unreadable, or its status lists no listener.
pub async fn strimzi_bootstrap(conn: &KubeConn, cluster: &str) -> Result<String, PlatformError> {
    let api: Api<DynamicObject> = Api::namespaced_with(
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
    let listeners = kafka.data["status"]["listeners"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let pick = listeners
        .iter()
        .find(|l| l["name"] == "plain")
        .or_else(|| listeners.first())
        .and_then(|l| l["bootstrapServers"].as_str());
    pick.map(str::to_string)
        .ok_or_else(|| PlatformError::KubeConfig {
            message: format!(
                "kafkas.kafka.strimzi.io {cluster} in namespace {} has no status.listeners with \
             bootstrapServers (is the cluster ready?); pass --bootstrap-servers",
                conn.namespace
            ),
        })
}

/// The Strimzi `Kafka` resource `cluster` as the object of Events (its UID read once;
/// `get kafkas`).
///
/// # Errors
/// The Kafka resource cannot be read.
pub async fn kafka_regarding(conn: &KubeConn, cluster: &str) -> Result<Regarding, PlatformError> {
    let api: Api<DynamicObject> = Api::namespaced_with(
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
    Ok(Regarding {
        api_version: "kafka.strimzi.io/v1".into(),
        kind: "Kafka".into(),
        name: cluster.to_string(),
        uid: kafka.metadata.uid,
    })
}

/// Fills the settings none of the flags, environment or config file gave. `cruise_control`:
/// also Cruise Control's (commands that do not use it need not read its Secrets). Returns the
/// port-forward to Cruise Control when one was opened: keep it as long as Cruise Control is
/// used (dropping it closes the forward).
///
/// # Errors
/// A resource is missing or cannot be read (the error names the verb and the object).
pub async fn discover(
    conn: &KubeConn,
    cluster: &str,
    settings: &mut Settings,
    cruise_control: bool,
) -> Result<Option<PortForward>, PlatformError> {
    let found = |v| Sourced::new(v, Source::Kubernetes);
    if settings.kafka.bootstrap_servers.is_none() {
        settings.kafka.bootstrap_servers = Some(found(strimzi_bootstrap(conn, cluster).await?));
    }
    if !cruise_control {
        return Ok(None);
    }
    let cc = &mut settings.cruise_control;
    let ns = conn.namespace.as_str();
    let mut forward = None;
    if cc.url.is_none() {
        let (url, pf) = cc_url(conn, cluster).await?;
        cc.url = Some(found(url));
        if let Some(pf) = pf {
            cc.connect_to = Some(pf.local);
            forward = Some(pf);
        }
    }
    let https = cc
        .url
        .as_ref()
        .is_some_and(|u| u.value.starts_with("https://"));
    let secrets: Api<KubeSecret> = Api::namespaced(conn.client.clone(), ns);
    if cc.username.is_none() && cc.password.is_none() {
        let name = format!("{cluster}-cruise-control-api");
        let key = format!("{CC_USER}.password");
        let secret = secrets
            .get(&name)
            .await
            .map_err(|e| kube_error("get", "secrets", Some(&name), ns, &e))?;
        let password = secret_value(&secret, &key).ok_or_else(|| PlatformError::KubeConfig {
            message: format!("secret {name} in namespace {ns} has no key {key}"),
        })?;
        cc.username = Some(Sourced::new(CC_USER.to_string(), Source::Kubernetes));
        cc.password = Some(Sourced::new(Secret::new(password), Source::Kubernetes));
    }
    if https && cc.ca_file.is_none() {
        let name = format!("{cluster}-cluster-ca-cert");
        let secret = secrets
            .get(&name)
            .await
            .map_err(|e| kube_error("get", "secrets", Some(&name), ns, &e))?;
        let pem = secret_value(&secret, "ca.crt").ok_or_else(|| PlatformError::KubeConfig {
            message: format!("secret {name} in namespace {ns} has no key ca.crt"),
        })?;
        cc.ca_file = Some(Sourced::new(
            write_ca(ns, cluster, &pem)?,
            Source::Kubernetes,
        ));
    }
    Ok(forward)
}

/// The discovery error of a cluster without Cruise Control: its Service does not exist.
#[must_use]
pub fn is_missing_cruise_control(e: &PlatformError) -> bool {
    matches!(
        e,
        PlatformError::Kube { reason: KubeFailure::NotFound, object, .. }
            if object.starts_with("services ") && object.ends_with("-cruise-control")
    )
}

fn secret_value(secret: &KubeSecret, key: &str) -> Option<String> {
    let bytes = secret.data.as_ref()?.get(key)?;
    String::from_utf8(bytes.0.clone()).ok()
}

/// The cluster CA (public) in a file, for the Cruise Control client: one file per namespace and
/// cluster in the temp directory, replaced atomically (concurrent runs never read half a file,
/// and runs do not leave one file each behind).
fn write_ca(ns: &str, cluster: &str, pem: &str) -> Result<PathBuf, PlatformError> {
    let dir = std::env::temp_dir();
    let path = dir.join(format!("kafkaops-{ns}-{cluster}-cluster-ca.crt"));
    let tmp = dir.join(format!(
        "kafkaops-{ns}-{cluster}-cluster-ca.crt.{}",
        std::process::id()
    ));
    let failed = |e: std::io::Error| PlatformError::KubeConfig {
        message: format!("cannot write the cluster CA to {}: {e}", path.display()),
    };
    std::fs::write(&tmp, pem).map_err(failed)?;
    std::fs::rename(&tmp, &path).map_err(failed)?;
    Ok(path)
}

/// Cruise Control's URL from its Service, and the port-forward that reaches it when kafkaops
/// runs outside the cluster and the Service has no external address.
async fn cc_url(
    conn: &KubeConn,
    cluster: &str,
) -> Result<(String, Option<PortForward>), PlatformError> {
    let ns = conn.namespace.as_str();
    let name = format!("{cluster}-cruise-control");
    let svc: Api<Service> = Api::namespaced(conn.client.clone(), ns);
    let service = svc
        .get(&name)
        .await
        .map_err(|e| kube_error("get", "services", Some(&name), ns, &e))?;
    let spec = service.spec.clone().unwrap_or_default();
    let ports = spec.ports.clone().unwrap_or_default();
    let port = ports
        .iter()
        .find(|p| p.name.as_deref() == Some("rest-api"))
        .or_else(|| ports.first())
        .map_or(9090, |p| p.port);
    let in_cluster = format!("https://{name}.{ns}.svc:{port}");
    if std::env::var_os("KUBERNETES_SERVICE_HOST").is_some() {
        return Ok((in_cluster, None));
    }
    let external = service
        .status
        .as_ref()
        .and_then(|s| s.load_balancer.as_ref())
        .and_then(|lb| lb.ingress.as_ref())
        .and_then(|i| i.first())
        .and_then(|i| i.ip.clone().or_else(|| i.hostname.clone()))
        .or_else(|| spec.external_ips.as_ref().and_then(|e| e.first().cloned()));
    if let Some(h) = external {
        return Ok((format!("https://{h}:{port}"), None));
    }
    let forward = forward_to_service(conn, &service, port).await?;
    Ok((in_cluster, Some(forward)))
}

/// What the Strimzi operator is doing with `cluster`, for [`crate::engine::operator_guard`]:
/// its `Kafka` resource (absent: no operator manages it) with the pause annotation, and the
/// `KafkaRebalance`s labelled `strimzi.io/cluster=CLUSTER` with their states.
///
/// # Errors
/// The resources cannot be read (the error names the verb and object: `get kafkas`, `list
/// kafkarebalances` in `examples/kafkaops-rbac.yaml`).
pub async fn observe_operator(
    conn: &KubeConn,
    cluster: &str,
) -> Result<OperatorView, PlatformError> {
    let ns = conn.namespace.as_str();
    let kafkas: Api<DynamicObject> =
        Api::namespaced_with(conn.client.clone(), ns, &strimzi_resource("Kafka"));
    let kafka = kafkas
        .get_opt(cluster)
        .await
        .map_err(|e| kube_error("get", "kafkas.kafka.strimzi.io", Some(cluster), ns, &e))?
        .map(|k| KafkaResource {
            pause_annotation: k
                .metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get(PAUSE_RECONCILIATION).cloned()),
        });
    let rebalances: Api<DynamicObject> =
        Api::namespaced_with(conn.client.clone(), ns, &strimzi_resource("KafkaRebalance"));
    let list = rebalances
        .list(&ListParams::default().labels(&format!("strimzi.io/cluster={cluster}")))
        .await
        .map_err(|e| kube_error("list", "kafkarebalances.kafka.strimzi.io", None, ns, &e))?;
    let rebalances = list
        .items
        .iter()
        .map(|r| RebalanceResource {
            name: r.metadata.name.clone().unwrap_or_default(),
            states: r.data["status"]["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|c| c["status"].as_str() != Some("False"))
                .filter_map(|c| c["type"].as_str().map(str::to_string))
                .collect(),
        })
        .collect();
    Ok(OperatorView {
        cluster: cluster.to_string(),
        namespace: ns.to_string(),
        kafka,
        rebalances,
    })
}

/// The annotation on a `KafkaNodePool` listing, in order, the node ids to remove first when
/// the pool is scaled down (`[60-50,9,8,7]`).
pub const REMOVE_NODE_IDS: &str = "strimzi.io/remove-node-ids";

/// Strimzi's node id list (`[0,1,10-20,30]`; a range may count down, `60-50`), in order.
/// `None`: malformed (Strimzi then falls back to its default).
#[must_use]
pub fn parse_node_ids(text: &str) -> Option<Vec<i32>> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    if inner.is_empty() {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    for item in inner.split(',') {
        let item = item.trim();
        // A leading '-' is not a range (ids are not negative): malformed.
        match item.split_once('-') {
            Some((a, b)) => {
                let (a, b): (i32, i32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                if a <= b {
                    out.extend(a..=b);
                } else {
                    out.extend((b..=a).rev());
                }
            }
            None => out.push(item.parse().ok()?),
        }
    }
    Some(out)
}

/// The node ids Strimzi removes when a pool holding `node_ids` is scaled to `replicas`: the
/// pool's ids in the order of its `strimzi.io/remove-node-ids` annotation, then the highest
/// ids (Strimzi's default, also for a malformed annotation).
#[must_use]
pub fn nodes_to_remove(node_ids: &[i32], replicas: usize, annotation: Option<&str>) -> Vec<i32> {
    let leaving = node_ids.len().saturating_sub(replicas);
    let mut order: Vec<i32> = annotation
        .and_then(parse_node_ids)
        .unwrap_or_default()
        .into_iter()
        .filter(|id| node_ids.contains(id))
        .collect();
    let mut rest: Vec<i32> = node_ids.to_vec();
    rest.sort_unstable_by(|a, b| b.cmp(a));
    order.extend(rest);
    let mut out = Vec::new();
    for id in order {
        if out.len() == leaving {
            break;
        }
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// Scale-down intent from Strimzi: the nodes the operator is about to remove from the cluster's
/// `KafkaNodePool`s (labelled `strimzi.io/cluster=CLUSTER`). A pool intends to remove nodes
/// when its `spec.replicas` is below the number of its `status.nodeIds`; which ones follows
/// its `strimzi.io/remove-node-ids` annotation (see [`nodes_to_remove`]). The annotation alone,
/// with the replicas unchanged, removes nothing (as in Strimzi), so it is not a drain request.
///
/// # Errors
/// The pools cannot be listed (`list kafkanodepools`).
pub async fn scale_down_intent(
    conn: &KubeConn,
    cluster: &str,
) -> Result<std::collections::BTreeSet<i32>, PlatformError> {
    let ns = conn.namespace.as_str();
    let pools: Api<DynamicObject> =
        Api::namespaced_with(conn.client.clone(), ns, &strimzi_resource("KafkaNodePool"));
    let list = pools
        .list(&ListParams::default().labels(&format!("strimzi.io/cluster={cluster}")))
        .await
        .map_err(|e| kube_error("list", "kafkanodepools.kafka.strimzi.io", None, ns, &e))?;
    let mut out = std::collections::BTreeSet::new();
    for pool in &list.items {
        let node_ids: Vec<i32> = pool.data["status"]["nodeIds"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_i64().and_then(|v| i32::try_from(v).ok()))
            .collect();
        let Some(replicas) = pool.data["spec"]["replicas"]
            .as_u64()
            .and_then(|r| usize::try_from(r).ok())
        else {
            continue;
        };
        let annotation = pool
            .metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get(REMOVE_NODE_IDS))
            .map(String::as_str);
        out.extend(nodes_to_remove(&node_ids, replicas, annotation));
    }
    Ok(out)
}

#[cfg(test)]
mod node_id_tests {
    use super::*;

    #[test]
    fn node_id_lists() {
        assert_eq!(
            parse_node_ids("[60-57, 9,8 ,7]"),
            Some(vec![60, 59, 58, 57, 9, 8, 7])
        );
        assert_eq!(parse_node_ids("[0,1,3-4]"), Some(vec![0, 1, 3, 4]));
        assert_eq!(parse_node_ids("[]"), Some(vec![]));
        assert_eq!(parse_node_ids("3"), None);
        assert_eq!(parse_node_ids("[a]"), None);
        assert_eq!(parse_node_ids("[-3]"), None);
    }

    #[test]
    fn removal_order() {
        let ids = [0, 1, 2, 3, 4];
        // Nothing leaves while replicas match, whatever the annotation says.
        assert!(nodes_to_remove(&ids, 5, Some("[2]")).is_empty());
        // Default: the highest ids.
        assert_eq!(nodes_to_remove(&ids, 3, None), vec![4, 3]);
        // The annotation first (ids not in the pool skipped), then the default.
        assert_eq!(nodes_to_remove(&ids, 3, Some("[9,1]")), vec![1, 4]);
        assert_eq!(nodes_to_remove(&ids, 4, Some("[2-0]")), vec![2]);
        // Malformed: the default.
        assert_eq!(nodes_to_remove(&ids, 4, Some("two")), vec![4]);
    }
}
