//! A port-forward kafkaops opens itself: a local TCP listener whose every connection is carried
//! to a pod's port through the Kubernetes API (`pods/portforward`), as `kubectl port-forward`
//! does. Used by Strimzi discovery to reach Cruise Control from outside the cluster, where its
//! Service has no address a laptop can reach.
//!
//! The pod is a Ready pod behind the Service (its selector), chosen once; the Service's target
//! port is resolved against that pod (a named `targetPort` through the container ports). The
//! listener is `127.0.0.1:0`; each accepted connection opens its own port-forward (kube-rs
//! speaks the websocket channel protocol, `v4.channel.k8s.io` with a kubelet, which the
//! apiserver proxies to the pod's kubelet as is) and copies bytes both ways until either side closes. One forward is opened and
//! dropped before the listener is handed out, so a missing permission or an unreachable kubelet
//! fails discovery with the verb and object named, rather than the first Cruise Control call
//! with a connection reset.
//!
//! RBAC: kube-rs upgrades with a websocket `GET`, which the apiserver authorizes as `get` on
//! `pods/portforward`, and since Kubernetes 1.35 (`AuthorizePodWebsocketUpgradeCreatePermission`)
//! also as `create`; `examples/kafkaops-rbac.yaml` grants both.

use std::net::SocketAddr;

use k8s_openapi::api::core::v1::{Pod, Service};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{Api, ListParams};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use super::{KubeConn, kube_error};
use crate::platform::PlatformError;

/// A running port-forward; dropping it closes the listener and every forwarded connection.
#[derive(Debug)]
pub struct PortForward {
    /// Where to connect: `127.0.0.1:<ephemeral port>`.
    pub local: SocketAddr,
    /// The pod the connections go to.
    pub pod: String,
    /// The pod's port they go to.
    pub port: u16,
    task: JoinHandle<()>,
}

impl Drop for PortForward {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The resource name RBAC knows the port-forward subresource by.
const SUBRESOURCE: &str = "pods/portforward";

/// Opens a port-forward to `service_port` (a port of `service`, by its `port` number) of a
/// Ready pod behind `service`.
///
/// # Errors
/// The Service has no selector, no Ready pod matches it, the target port cannot be resolved, or
/// listing pods or opening the forward fails (the error names the verb and object).
pub async fn forward_to_service(
    conn: &KubeConn,
    service: &Service,
    service_port: i32,
) -> Result<PortForward, PlatformError> {
    let ns = conn.namespace.as_str();
    let svc_name = service.metadata.name.clone().unwrap_or_default();
    let spec = service.spec.clone().unwrap_or_default();
    let selector = spec.selector.clone().unwrap_or_default();
    let pods: Api<Pod> = Api::namespaced(conn.client.clone(), ns);
    let pod = ready_backend(&pods, &svc_name, ns, &selector).await?;
    let pod_name = pod.metadata.name.clone().unwrap_or_default();
    let target = spec
        .ports
        .unwrap_or_default()
        .into_iter()
        .find(|p| p.port == service_port)
        .and_then(|p| p.target_port);
    let port = target_port(&pod, target.as_ref(), service_port).ok_or_else(|| {
        PlatformError::KubeConfig {
            message: format!(
                "cannot resolve the target port of service {svc_name} port {service_port} on pod \
                 {pod_name} in namespace {ns}"
            ),
        }
    })?;
    // One forward up front: permission and reachability are checked now, by name.
    open(&pods, &pod_name, port, ns).await?.abort();
    let listener =
        TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| PlatformError::KubeConfig {
                message: format!("cannot listen on 127.0.0.1 for the port-forward: {e}"),
            })?;
    let local = listener
        .local_addr()
        .map_err(|e| PlatformError::KubeConfig {
            message: format!("port-forward listener: {e}"),
        })?;
    tracing::info!(
        "port-forward 127.0.0.1:{} -> pod {pod_name} port {port} (service {svc_name}, namespace {ns})",
        local.port()
    );
    let task = tokio::spawn(serve(
        listener,
        pods,
        pod_name.clone(),
        port,
        ns.to_string(),
    ));
    Ok(PortForward {
        local,
        pod: pod_name,
        port,
        task,
    })
}

/// The pod a port-forward to service `svc_name` goes to: the first by name of the Ready pods
/// its selector picks.
async fn ready_backend(
    pods: &Api<Pod>,
    svc_name: &str,
    ns: &str,
    selector: &std::collections::BTreeMap<String, String>,
) -> Result<Pod, PlatformError> {
    if selector.is_empty() {
        return Err(PlatformError::KubeConfig {
            message: format!(
                "service {svc_name} in namespace {ns} has no selector: no pod to port-forward to"
            ),
        });
    }
    let labels = selector
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",");
    let list = pods
        .list(&ListParams::default().labels(&labels))
        .await
        .map_err(|e| kube_error("list", "pods", None, ns, &e))?;
    list.items
        .into_iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none() && is_ready(p))
        .min_by_key(|p| p.metadata.name.clone())
        .ok_or_else(|| PlatformError::KubeConfig {
            message: format!(
                "no Ready pod behind service {svc_name} in namespace {ns} (selector {labels}) to \
                 port-forward to"
            ),
        })
}

async fn open(
    pods: &Api<Pod>,
    pod: &str,
    port: u16,
    ns: &str,
) -> Result<kube::api::Portforwarder, PlatformError> {
    pods.portforward(pod, &[port]).await.map_err(|e| {
        // The apiserver checks `get` (the websocket request's verb), then `create`.
        let verb = match &e {
            kube::Error::Api(s) if s.message.contains("cannot get resource") => "get",
            _ => "create",
        };
        kube_error(verb, SUBRESOURCE, Some(pod), ns, &e)
    })
}

async fn serve(listener: TcpListener, pods: Api<Pod>, pod: String, port: u16, ns: String) {
    loop {
        let (mut socket, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                tracing::warn!("port-forward listener: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let pods = pods.clone();
        let pod = pod.clone();
        let ns = ns.clone();
        tokio::spawn(async move {
            let mut forwarder = match open(&pods, &pod, port, &ns).await {
                Ok(f) => f,
                Err(e) => {
                    tracing::warn!("port-forward for {peer}: {e}");
                    return;
                }
            };
            let Some(mut upstream) = forwarder.take_stream(port) else {
                return;
            };
            if let Err(e) = tokio::io::copy_bidirectional(&mut socket, &mut upstream).await {
                tracing::debug!("port-forward connection from {peer} ended: {e}");
            }
            drop(upstream);
            if let Err(e) = forwarder.join().await {
                tracing::debug!("port-forward to pod {pod} port {port}: {e}");
            }
        });
    }
}

fn is_ready(pod: &Pod) -> bool {
    pod.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

/// The pod port a Service port targets: a number as is, a name through the pod's container
/// ports, none given = the Service port itself.
fn target_port(pod: &Pod, target: Option<&IntOrString>, service_port: i32) -> Option<u16> {
    let n = match target {
        None => service_port,
        Some(IntOrString::Int(n)) => *n,
        Some(IntOrString::String(name)) => match name.parse::<i32>() {
            Ok(n) => n,
            Err(_) => {
                pod.spec
                    .as_ref()?
                    .containers
                    .iter()
                    .flat_map(|c| c.ports.iter().flatten())
                    .find(|p| p.name.as_deref() == Some(name.as_str()))?
                    .container_port
            }
        },
    };
    u16::try_from(n).ok().filter(|p| *p > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod_with_port(name: &str, port: i32) -> Pod {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c", "ports": [{"name": name, "containerPort": port}]}]},
        }))
        .unwrap()
    }

    #[test]
    fn target_port_by_number_name_or_the_service_port() {
        let pod = pod_with_port("rest-api", 9091);
        assert_eq!(target_port(&pod, None, 9090), Some(9090));
        assert_eq!(
            target_port(&pod, Some(&IntOrString::Int(8080)), 9090),
            Some(8080)
        );
        let named = IntOrString::String("rest-api".into());
        assert_eq!(target_port(&pod, Some(&named), 9090), Some(9091));
        let numeric = IntOrString::String("7070".into());
        assert_eq!(target_port(&pod, Some(&numeric), 9090), Some(7070));
        let unknown = IntOrString::String("metrics".into());
        assert_eq!(target_port(&pod, Some(&unknown), 9090), None);
        assert_eq!(target_port(&pod, Some(&IntOrString::Int(0)), 9090), None);
    }
}
