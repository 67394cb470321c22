//! Connecting to the Kubernetes API (a kubeconfig or the in-cluster service account), naming
//! who we are there, and how a failed call is reported: every failure names the verb, the
//! resource and the object, so a missing RBAC rule can be added from the message alone.

use kube::core::{ApiResource, GroupVersionKind};
use kube::{Client, Config};

use crate::platform::PlatformError;

/// Where the Kubernetes API is and who we are there.
#[derive(Debug, Clone, Default)]
pub struct KubeTarget {
    /// kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else in-cluster].
    pub kubeconfig: Option<std::path::PathBuf>,
    /// kubeconfig context [default: the file's current context].
    pub context: Option<String>,
    /// Namespace [default: the kubeconfig context's, in a pod (in-cluster) the service
    /// account's, else `default`].
    pub namespace: Option<String>,
}

/// A connected client and the namespace everything lives in.
#[derive(Clone)]
pub struct KubeConn {
    pub client: Client,
    pub namespace: String,
}

impl KubeTarget {
    /// Connects (reads the kubeconfig or the in-cluster service account).
    ///
    /// # Errors
    /// No usable configuration.
    pub async fn connect(&self) -> Result<KubeConn, PlatformError> {
        let config_err = |message: String| PlatformError::KubeConfig { message };
        let options = kube::config::KubeConfigOptions {
            context: self.context.clone(),
            ..Default::default()
        };
        let config = match &self.kubeconfig {
            Some(path) => {
                let file = kube::config::Kubeconfig::read_from(path)
                    .map_err(|e| config_err(format!("{}: {e}", path.display())))?;
                Config::from_custom_kubeconfig(file, &options)
                    .await
                    .map_err(|e| config_err(format!("{}: {e}", path.display())))?
            }
            None if self.context.is_some() => Config::from_kubeconfig(&options)
                .await
                .map_err(|e| config_err(e.to_string()))?,
            None => Config::infer()
                .await
                .map_err(|e| config_err(e.to_string()))?,
        };
        let namespace = self
            .namespace
            .clone()
            .unwrap_or_else(|| config.default_namespace.clone());
        let client = Client::try_from(config).map_err(|e| config_err(e.to_string()))?;
        Ok(KubeConn { client, namespace })
    }
}

/// A Kubernetes call that failed, with the verb and object for the message.
pub(crate) fn kube_error(
    verb: &str,
    resource: &str,
    name: Option<&str>,
    namespace: &str,
    e: &kube::Error,
) -> PlatformError {
    let (reason, message) = match e {
        kube::Error::Api(s) if s.is_forbidden() => (KubeFailure::Forbidden, s.message.clone()),
        kube::Error::Api(s) if s.is_not_found() => (KubeFailure::NotFound, s.message.clone()),
        kube::Error::Api(s) if s.is_conflict() => (KubeFailure::Conflict, s.message.clone()),
        kube::Error::Api(s) => (KubeFailure::Other, format!("{} ({})", s.message, s.code)),
        other => (KubeFailure::Unreachable, other.to_string()),
    };
    PlatformError::Kube {
        verb: verb.to_string(),
        object: match name {
            Some(n) => format!("{resource} {n}"),
            None => resource.to_string(),
        },
        namespace: namespace.to_string(),
        reason,
        message,
    }
}

/// How a Kubernetes call failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KubeFailure {
    Forbidden,
    NotFound,
    Conflict,
    Unreachable,
    Other,
}

impl std::fmt::Display for KubeFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            KubeFailure::Forbidden => "forbidden (RBAC: see examples/kafkaops-rbac.yaml)",
            KubeFailure::NotFound => "not found",
            KubeFailure::Conflict => "conflict",
            KubeFailure::Unreachable => "the API server is unreachable",
            KubeFailure::Other => "failed",
        })
    }
}

/// The Strimzi `kafka.strimzi.io/v1` kinds kafkaops reads.
#[must_use]
pub fn strimzi_resource(kind: &str) -> ApiResource {
    let plural = format!("{}s", kind.to_ascii_lowercase());
    ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk("kafka.strimzi.io", "v1", kind),
        &plural,
    )
}

/// Who this roll is, for the lease and the events: `kafkaops@HOST/PID`.
#[must_use]
pub fn identity() -> String {
    format!("kafkaops@{}/{}", hostname(), std::process::id())
}

/// The host name (in a pod: the pod's name).
#[must_use]
pub fn hostname() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| {
            std::fs::read_to_string("/etc/hostname")
                .ok()
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown-host".into())
}
