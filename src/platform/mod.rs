//! How a node is listed, restarted and checked, independent of where it runs.
//!
//! The roll engine decides *which* node to restart; a [`Platform`] knows *how*. Bare-metal
//! and VM clusters use [`process::ProcessPlatform`] (shell command templates such as
//! `ssh {host} sudo systemctl restart kafka`); [`kube::KubePlatform`] deletes pods and waits
//! for their controller to recreate them. Kafka-level health after a restart is not the platform's
//! business: the Kafka observer judges that. Whether the *old* process really ended is
//! (a restart command may return before it exits): [`witness::RestartWitness`] watches
//! a connection to each node being restarted and reports its end.

pub mod kube;
pub mod process;
pub mod witness;

use std::future::Future;
use std::time::Duration;

use serde::Serialize;

/// A node as the platform knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlatformNode {
    pub id: i32,
    /// Host name or address used in command templates (`{host}`).
    pub host: String,
    /// `host:port` of a Kafka listener, probed by TCP when no status command is configured.
    pub address: Option<String>,
}

/// Lists, restarts and checks nodes.
pub trait Platform: Send + Sync {
    fn list_nodes(&self) -> impl Future<Output = Result<Vec<PlatformNode>, PlatformError>> + Send;
    /// Restarts node `id` and returns once the platform says the restart was done (the
    /// command exited successfully); Kafka readiness is checked by the caller.
    fn restart_node(&self, id: i32) -> impl Future<Output = Result<(), PlatformError>> + Send;
    /// Whether node `id`'s Kafka process is running.
    fn is_running(&self, id: i32) -> impl Future<Output = Result<bool, PlatformError>> + Send;
}

/// The platform a command runs with: commands or pods.
#[derive(Debug, Clone)]
pub enum AnyPlatform {
    Process(process::ProcessPlatform),
    Kube(kube::KubePlatform),
}

impl Platform for AnyPlatform {
    async fn list_nodes(&self) -> Result<Vec<PlatformNode>, PlatformError> {
        match self {
            AnyPlatform::Process(p) => p.list_nodes().await,
            AnyPlatform::Kube(p) => p.list_nodes().await,
        }
    }

    async fn restart_node(&self, id: i32) -> Result<(), PlatformError> {
        match self {
            AnyPlatform::Process(p) => p.restart_node(id).await,
            AnyPlatform::Kube(p) => p.restart_node(id).await,
        }
    }

    async fn is_running(&self, id: i32) -> Result<bool, PlatformError> {
        match self {
            AnyPlatform::Process(p) => p.is_running(id).await,
            AnyPlatform::Kube(p) => p.is_running(id).await,
        }
    }
}

/// A failure of the platform.
#[derive(Debug, thiserror::Error)]
pub enum PlatformError {
    #[error("node {id} is not configured (known nodes: {known})")]
    UnknownNode { id: i32, known: String },
    #[error("invalid node list {value:?}: {message}")]
    InvalidNodes { value: String, message: String },
    #[error("cannot run `{command}` for node {node}: {message}")]
    Spawn {
        node: i32,
        command: String,
        message: String,
    },
    #[error("`{command}` for node {node} failed ({status}){}", output_block(.output))]
    CommandFailed {
        node: i32,
        command: String,
        status: String,
        output: String,
    },
    #[error("`{command}` for node {node} did not finish within {after:?} and was killed{}", output_block(.output))]
    CommandTimeout {
        node: i32,
        command: String,
        after: Duration,
        output: String,
    },
    #[error("cannot tell whether node {node} runs: {message}")]
    NoStatusProbe { node: i32, message: String },
    #[error("Kubernetes configuration: {message}")]
    KubeConfig { message: String },
    /// A Kubernetes call failed: the verb and object say which RBAC rule is missing.
    #[error("cannot {verb} {object} in namespace {namespace}: {reason}: {message}")]
    Kube {
        verb: String,
        object: String,
        namespace: String,
        reason: kube::KubeFailure,
        message: String,
    },
    #[error("no pod matches the selector {selector:?} in namespace {namespace}")]
    NoPods { selector: String, namespace: String },
    #[error("pod {pod} was not recreated and Ready within {after:?} after its deletion")]
    PodTimeout { pod: String, after: Duration },
    #[error(
        "another roll holds the lease {lease}: holder {holder}, last renewed {renewed}; \
             wait for it to finish (or delete the lease if its holder is gone)"
    )]
    LeaseHeld {
        lease: String,
        holder: String,
        renewed: String,
    },
}

impl From<PlatformError> for crate::state::StoreError {
    /// A Kubernetes store or leadership failure, kept as the source (the edge classifies it).
    fn from(e: PlatformError) -> Self {
        crate::state::StoreError::Backend(Box::new(e))
    }
}

fn output_block(output: &str) -> String {
    if output.trim().is_empty() {
        " with no output".to_string()
    } else {
        format!("; output:\n{}", output.trim_end())
    }
}
