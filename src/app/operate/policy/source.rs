//! Keeping the `operate` policy in force: the policy file re-read every resync, a changed
//! content adopted only when it is stable, parses and passes the checks ([`PolicySource`]), the
//! last good policy kept otherwise (a file truncated mid-write is never acted on).

use std::hash::{Hash as _, Hasher as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::{ClusterFacts, Policy, PolicyError};
use crate::engine::failure::{Classified, FailureKind};

/// Why the policy file could not be used at start (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read the policy file {path}: {message}")]
    Unreadable { path: PathBuf, message: String },
    #[error("bad policy {path}: {error}")]
    Invalid { path: PathBuf, error: PolicyError },
}

impl LoadError {
    /// This error with its failure class: a policy that cannot be read or used is bad
    /// configuration, which the edge reports as such (exit 2) without knowing this type.
    #[must_use]
    pub fn classified(self) -> Classified {
        Classified::wrap(FailureKind::Invalid, self)
    }
}

/// What one [`PolicySource::refresh`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reload {
    /// Same content as the policy in force (or as a version already rejected).
    Unchanged,
    /// A new, good policy is in force.
    Reloaded,
    /// New content that is not a good policy; the last good one stays in force. Reported once
    /// per content (the next refreshes answer `Unchanged` until the file changes again).
    Rejected(PolicyError),
    /// The file could not be read; the last good policy stays in force.
    Unreadable(String),
    /// The content changed between two reads (a writer is at work): nothing adopted, the next
    /// refresh tries again.
    Changing,
    /// New content, but the cluster could not be read to check it: the next refresh tries again.
    Deferred(String),
    /// The policy in force, not checked against the cluster until now, passed the checks.
    Checked,
}

/// The policy file and the policy in force.
///
/// Change detection hashes the content on every refresh: in Kubernetes the ConfigMap volume
/// swaps a `..data` symlink, and an edited file may keep its mtime (or a restored one), so mtimes
/// are never trusted. A changed content is read a second time after a short pause and must be
/// identical, then it must parse and pass the checks; otherwise the last good policy stays in
/// force (a file truncated mid-write does not parse, and one still being written differs between
/// the two reads).
///
/// Nothing may act on a policy the cluster checks did not pass ([`PolicySource::unchecked`]):
/// one loaded while Kafka did not answer is checked again at every refresh until a check
/// passes, and content rejected because of a cluster fact (a topic not created yet, a broker
/// not registered yet) is checked again at every refresh, so it is adopted once the cluster
/// fits without an edit of the file.
#[derive(Debug)]
pub struct PolicySource {
    path: PathBuf,
    settle: Duration,
    policy: Arc<Policy>,
    /// Hash of the content in force.
    hash: u64,
    /// The last content rejected (so it is reported once).
    rejected: Option<Rejected>,
    /// Why the policy in force is not checked against the cluster (`None`: checked).
    unchecked: Option<String>,
}

/// Content that was rejected.
#[derive(Debug)]
struct Rejected {
    hash: u64,
    /// By a check against the cluster (the file itself is good): checked again each refresh.
    by_cluster: bool,
    /// As reported (reported again only when it changes).
    message: String,
}

fn hash_of(bytes: &[u8]) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// How long a changed file must stay the same between the two reads.
pub const SETTLE: Duration = Duration::from_millis(200);

impl PolicySource {
    /// Reads, parses and checks the policy at start; any problem is fatal (exit 2). Without
    /// `facts` (Kafka did not answer at start) only the checks that need no cluster run; the
    /// cluster checks then apply from the next change of the file.
    pub async fn load(
        path: &Path,
        settle: Duration,
        facts: Option<&ClusterFacts>,
    ) -> Result<PolicySource, LoadError> {
        let unreadable = |message: String| LoadError::Unreadable {
            path: path.to_path_buf(),
            message,
        };
        let invalid = |error: PolicyError| LoadError::Invalid {
            path: path.to_path_buf(),
            error,
        };
        let (bytes, hash) = loop {
            let first = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
            tokio::time::sleep(settle).await;
            let second = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
            if first == second {
                let hash = hash_of(&second);
                break (second, hash);
            }
        };
        let policy = parse_checked(&bytes, facts).map_err(invalid)?;
        Ok(PolicySource {
            path: path.to_path_buf(),
            settle,
            policy: Arc::new(policy),
            hash,
            rejected: None,
            unchecked: facts
                .is_none()
                .then(|| "the cluster was not read yet".to_string()),
        })
    }

    /// Checks the policy in force against the cluster (at start, once Kafka answered); passed,
    /// it may be acted on.
    pub fn check(&mut self, facts: &ClusterFacts) -> Result<(), LoadError> {
        self.policy
            .check(facts)
            .map_err(|error| LoadError::Invalid {
                path: self.path.clone(),
                error,
            })?;
        self.unchecked = None;
        Ok(())
    }

    /// Records why the policy in force could not be checked (the cluster did not answer).
    pub fn not_checked(&mut self, why: String) {
        if self.unchecked.is_some() {
            self.unchecked = Some(why);
        }
    }

    /// Why the policy in force is not checked against the cluster yet (`None`: checked; only
    /// a checked policy is acted on).
    #[must_use]
    pub fn unchecked(&self) -> Option<&str> {
        self.unchecked.as_deref()
    }

    /// The policy in force (the last good one).
    #[must_use]
    pub fn policy(&self) -> Arc<Policy> {
        Arc::clone(&self.policy)
    }

    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Re-reads the file (every resync); adopts its content only when it changed, stayed the
    /// same over two reads and is a good policy for the cluster `facts` reads. The cluster is
    /// read only when the content changed, when the policy in force is not checked yet, or when
    /// the content was rejected because of the cluster (checked again each time).
    pub async fn refresh(
        &mut self,
        facts: impl AsyncFnOnce() -> Result<ClusterFacts, String>,
    ) -> Reload {
        let first = match std::fs::read(&self.path) {
            Ok(b) => b,
            Err(e) => return Reload::Unreadable(e.to_string()),
        };
        let hash = hash_of(&first);
        let in_force = hash == self.hash;
        let rejected_by_cluster = self
            .rejected
            .as_ref()
            .filter(|r| r.hash == hash)
            .map(|r| r.by_cluster);
        match (in_force, rejected_by_cluster) {
            (true, _) if self.unchecked.is_none() => return Reload::Unchanged,
            // Content bad in itself: only the policy in force may need a check.
            (false, Some(false)) if self.unchecked.is_none() => return Reload::Unchanged,
            (false, Some(false)) => {
                return match facts().await {
                    Ok(f) => self.check_in_force(&f),
                    Err(e) => {
                        self.not_checked(format!("the cluster cannot be read: {e}"));
                        Reload::Unchanged
                    }
                };
            }
            _ => {}
        }
        if !in_force && rejected_by_cluster.is_none() {
            tokio::time::sleep(self.settle).await;
            match std::fs::read(&self.path) {
                Ok(second) if second == first => {}
                Ok(_) => return Reload::Changing,
                Err(e) => return Reload::Unreadable(e.to_string()),
            }
        }
        // New content that is bad in itself needs no cluster.
        let parsed = if in_force {
            None
        } else {
            match std::str::from_utf8(&first)
                .map_err(|e| PolicyError::one("", format!("the policy file is not UTF-8: {e}")))
                .and_then(Policy::parse)
            {
                Ok(p) => Some(p),
                Err(e) => return self.reject(hash, false, e),
            }
        };
        let facts = match facts().await {
            Ok(f) => f,
            Err(e) => {
                self.not_checked(format!("the cluster cannot be read: {e}"));
                return if in_force || rejected_by_cluster.is_some() {
                    Reload::Unchanged
                } else {
                    Reload::Deferred(e)
                };
            }
        };
        let Some(policy) = parsed else {
            return self.check_in_force(&facts);
        };
        match policy.check(&facts) {
            Ok(()) => {
                self.policy = Arc::new(policy);
                self.hash = hash;
                self.rejected = None;
                self.unchecked = None;
                Reload::Reloaded
            }
            Err(e) => {
                if self.unchecked.is_some() {
                    self.check_in_force(&facts);
                }
                self.reject(hash, true, e)
            }
        }
    }

    /// Content `hash` is rejected with `e` (`by_cluster`: by a check against the cluster);
    /// reported unless it was already, with the same problems.
    fn reject(&mut self, hash: u64, by_cluster: bool, e: PolicyError) -> Reload {
        let message = e.to_string();
        let again = self
            .rejected
            .as_ref()
            .is_some_and(|r| r.hash == hash && r.message == message);
        self.rejected = Some(Rejected {
            hash,
            by_cluster,
            message,
        });
        if again {
            Reload::Unchanged
        } else {
            Reload::Rejected(e)
        }
    }

    /// Checks the policy in force (not checked yet) against `facts`.
    fn check_in_force(&mut self, facts: &ClusterFacts) -> Reload {
        match self.policy.check(facts) {
            Ok(()) => {
                self.unchecked = None;
                Reload::Checked
            }
            Err(e) => {
                self.unchecked = Some(format!("it does not fit the cluster: {e}"));
                Reload::Unchanged
            }
        }
    }
}

fn parse_checked(bytes: &[u8], facts: Option<&ClusterFacts>) -> Result<Policy, PolicyError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| PolicyError::one("", format!("the policy file is not UTF-8: {e}")))?;
    let policy = Policy::parse(text)?;
    if let Some(facts) = facts {
        policy.check(facts)?;
    }
    Ok(policy)
}
