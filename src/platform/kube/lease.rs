//! A `coordination.k8s.io/v1` Lease as a lock: one holder at a time, renewed by the holder,
//! taken over by another only when its holder stopped renewing for the lease duration or gave
//! it up. Used by `roll` (one roll per cluster) and by `operate` (leader election).
//!
//! Every write is a replace with the resourceVersion just read, so two contenders can never
//! both believe they took it: the loser's write is refused with 409. Renewal checks the holder
//! the same way, so a deposed holder learns it lost the lease instead of stealing it back.
//! Expiry is judged from the Lease's `renewTime` plus `leaseDurationSeconds` against the local
//! clock (the usual Kubernetes assumption of loosely synchronised clocks).

use std::time::{Duration, Instant, SystemTime};

use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, DeleteParams, PostParams};
use serde_json::json;

use super::{KubeConn, MANAGER, kube_error};
use crate::platform::PlatformError;

const RESOURCE: &str = "leases.coordination.k8s.io";

/// One Lease as seen by one contender (`identity`).
#[derive(Clone)]
pub struct LeaseLock {
    api: Api<Lease>,
    name: String,
    namespace: String,
    identity: String,
    duration: Duration,
}

/// The answer to an attempt to take the lease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// We hold it now.
    Acquired,
    /// Someone else holds it and renews it.
    Held { holder: String, renewed: String },
}

/// The answer to a renewal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renewal {
    Renewed,
    /// The lease is gone or someone else holds it now.
    Lost,
}

impl std::fmt::Debug for LeaseLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LeaseLock")
            .field("name", &self.name)
            .field("namespace", &self.namespace)
            .field("identity", &self.identity)
            .finish_non_exhaustive()
    }
}

/// Now as a Kubernetes MicroTime (`2026-11-23T04:00:00.123456Z`).
pub(crate) fn now_micros() -> String {
    humantime::format_rfc3339_micros(SystemTime::now()).to_string()
}

fn renew_time(lease: &Lease) -> Option<String> {
    let spec = lease.spec.as_ref()?;
    serde_json::to_value(&spec.renew_time)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
}

/// `leaseDurationSeconds` for `duration`: rounded up to whole seconds (at least 1), so a
/// standby never judges the Lease expired before its holder stops counting on it (truncating
/// 1.5 s to 1 s would let both act for half a second).
#[must_use]
pub fn lease_seconds(duration: Duration) -> i32 {
    let secs = duration.as_secs() + u64::from(duration.subsec_nanos() > 0);
    i32::try_from(secs.max(1)).unwrap_or(i32::MAX)
}

impl LeaseLock {
    #[must_use]
    pub fn new(conn: &KubeConn, name: &str, identity: &str, duration: Duration) -> Self {
        LeaseLock {
            api: Api::namespaced(conn.client.clone(), &conn.namespace),
            name: name.to_string(),
            namespace: conn.namespace.clone(),
            identity: identity.to_string(),
            duration,
        }
    }

    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    #[must_use]
    pub fn identity(&self) -> &str {
        &self.identity
    }

    #[must_use]
    pub fn duration(&self) -> Duration {
        self.duration
    }

    fn err(&self, verb: &str, e: &kube::Error) -> PlatformError {
        kube_error(verb, RESOURCE, Some(&self.name), &self.namespace, e)
    }

    fn body(
        &self,
        rv: Option<String>,
        holder: &str,
        acquire: Option<String>,
    ) -> Result<Lease, PlatformError> {
        let secs = lease_seconds(self.duration);
        serde_json::from_value(json!({
            "metadata": { "name": self.name, "resourceVersion": rv,
                          "labels": { "app.kubernetes.io/managed-by": MANAGER } },
            "spec": { "holderIdentity": holder, "leaseDurationSeconds": secs,
                      "acquireTime": acquire, "renewTime": now_micros() },
        }))
        .map_err(|e| PlatformError::KubeConfig {
            message: format!("cannot build the Lease: {e}"),
        })
    }

    fn just_taken() -> Attempt {
        Attempt::Held {
            holder: "another contender (it took the lease just now)".into(),
            renewed: "just now".into(),
        }
    }

    /// [`Attempt::Held`] when `lease` has a live holder other than us (renewed within its
    /// duration); `None` when it is free, expired, released or ours.
    fn held_by_other(&self, lease: &Lease) -> Option<Attempt> {
        let spec = lease.spec.clone().unwrap_or_default();
        let holder = spec.holder_identity.clone().unwrap_or_default();
        let renewed = renew_time(lease);
        let live_for = u64::try_from(spec.lease_duration_seconds.unwrap_or(0)).unwrap_or(0);
        let expired = renewed
            .as_deref()
            .and_then(|r| humantime::parse_rfc3339_weak(r.trim_end_matches('Z')).ok())
            .is_none_or(|t| t + Duration::from_secs(live_for) < SystemTime::now());
        (!holder.is_empty() && holder != self.identity && !expired).then(|| Attempt::Held {
            holder,
            renewed: renewed.unwrap_or_else(|| "never".into()),
        })
    }

    /// Reads the lease without writing it: [`Attempt::Held`] when another contender holds it
    /// and renews it, `None` when it is absent, free, expired, released or ours (taking it
    /// would succeed but for a race). `operate` asks this every loop to see a `kafkaops roll`.
    ///
    /// # Errors
    /// The Kubernetes read fails.
    pub async fn other_holder(&self) -> Result<Option<Attempt>, PlatformError> {
        Ok(self
            .api
            .get_opt(&self.name)
            .await
            .map_err(|e| self.err("get", &e))?
            .and_then(|l| self.held_by_other(&l)))
    }

    /// Takes the lease if it is free, expired, released or already ours.
    ///
    /// # Errors
    /// A Kubernetes call fails (other than losing a race, which is [`Attempt::Held`]).
    pub async fn try_acquire(&self) -> Result<Attempt, PlatformError> {
        let Some(current) = self
            .api
            .get_opt(&self.name)
            .await
            .map_err(|e| self.err("get", &e))?
        else {
            return match self
                .api
                .create(
                    &PostParams::default(),
                    &self.body(None, &self.identity, Some(now_micros()))?,
                )
                .await
            {
                Ok(_) => Ok(Attempt::Acquired),
                Err(kube::Error::Api(s)) if s.is_already_exists() => Ok(Self::just_taken()),
                Err(e) => Err(self.err("create", &e)),
            };
        };
        let spec = current.spec.clone().unwrap_or_default();
        let holder = spec.holder_identity.clone().unwrap_or_default();
        if let Some(held) = self.held_by_other(&current) {
            return Ok(held);
        }
        let acquire = if holder == self.identity {
            serde_json::to_value(&spec.acquire_time)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
        } else {
            None
        }
        .or_else(|| Some(now_micros()));
        match self
            .api
            .replace(
                &self.name,
                &PostParams::default(),
                &self.body(
                    current.metadata.resource_version.clone(),
                    &self.identity,
                    acquire,
                )?,
            )
            .await
        {
            Ok(_) => Ok(Attempt::Acquired),
            Err(kube::Error::Api(s)) if s.is_conflict() => Ok(Self::just_taken()),
            Err(e) => Err(self.err("update", &e)),
        }
    }

    /// Renews the lease if we still hold it.
    ///
    /// # Errors
    /// A Kubernetes call fails (the lease's state is then unknown).
    pub async fn renew(&self) -> Result<Renewal, PlatformError> {
        let Some(current) = self
            .api
            .get_opt(&self.name)
            .await
            .map_err(|e| self.err("get", &e))?
        else {
            return Ok(Renewal::Lost);
        };
        let spec = current.spec.clone().unwrap_or_default();
        if spec.holder_identity.as_deref() != Some(self.identity.as_str()) {
            return Ok(Renewal::Lost);
        }
        let mut next = current.clone();
        let mut s = spec;
        s.renew_time = serde_json::from_value(json!(now_micros())).ok();
        next.spec = Some(s);
        match self
            .api
            .replace(&self.name, &PostParams::default(), &next)
            .await
        {
            Ok(_) => Ok(Renewal::Renewed),
            // Someone wrote it since we read it: only a new holder does that.
            Err(kube::Error::Api(s)) if s.is_conflict() => Ok(Renewal::Lost),
            Err(e) => Err(self.err("update", &e)),
        }
    }

    /// Gives the lease up if we hold it: deletes it (`delete`) or clears the holder, so the next
    /// contender takes it at once. Failures are logged: an unreleased lease expires anyway.
    pub async fn release(&self, delete: bool) {
        let current = match self.api.get_opt(&self.name).await {
            Ok(Some(l)) => l,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!("cannot read the lease {}: {e}", self.name);
                return;
            }
        };
        if current
            .spec
            .as_ref()
            .and_then(|s| s.holder_identity.as_deref())
            != Some(self.identity.as_str())
        {
            return;
        }
        let result = if delete {
            let dp = DeleteParams {
                preconditions: Some(kube::api::Preconditions {
                    uid: current.metadata.uid.clone(),
                    resource_version: current.metadata.resource_version.clone(),
                }),
                ..DeleteParams::default()
            };
            self.api.delete(&self.name, &dp).await.map(|_| ())
        } else {
            let mut next = current.clone();
            if let Some(s) = next.spec.as_mut() {
                s.holder_identity = None;
                s.acquire_time = None;
            }
            self.api
                .replace(&self.name, &PostParams::default(), &next)
                .await
                .map(|_| ())
        };
        if let Err(e) = result {
            tracing::warn!("cannot release the lease {}: {e}", self.name);
        }
    }
}

/// Renews `lock` every `every` in a background task, handing each answer (with when the
/// renewal was sent) to `on`, until `on` answers `false` or the task is aborted. The roll's
/// Lease and `operate`'s leadership are kept this one way.
pub fn renew_in_background(
    lock: LeaseLock,
    every: Duration,
    mut on: impl FnMut(&LeaseLock, Result<Renewal, PlatformError>, Instant) -> bool + Send + 'static,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            let sent = Instant::now();
            let answer = lock.renew().await;
            if !on(&lock, answer, sent) {
                return;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lease_seconds_round_up() {
        assert_eq!(lease_seconds(Duration::from_millis(1500)), 2);
        assert_eq!(lease_seconds(Duration::from_secs(15)), 15);
        assert_eq!(lease_seconds(Duration::from_millis(15_001)), 16);
        assert_eq!(lease_seconds(Duration::ZERO), 1);
    }
}
