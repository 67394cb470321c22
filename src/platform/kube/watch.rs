//! Watching a cluster's pods and KafkaNodePools for the changes that matter to a controller.
//!
//! Plain `list` + `watch` requests (the resourceVersion from the list; a watch that fails or
//! expires is started again from a new list, with backoff) on the pods of a label selector and,
//! for a Strimzi cluster, its KafkaNodePools. Only what a controller decides on counts as a
//! change (a fingerprint of annotations, labels, readiness, restarts, replicas and node ids),
//! so status heartbeats do not count. `operate` wakes its loop on these changes.

use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DynamicObject};

use super::{KubeConn, strimzi_resource};

/// The server-side timeout of one watch request; the watch is restarted from a fresh list.
const WATCH_TIMEOUT_SECS: u32 = 290;
/// The longest pause between attempts while the apiserver refuses the list or the watch.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Starts one watch per kind: the pods matching `pods` (a label selector) and, with `strimzi`
/// (a cluster name), its KafkaNodePools. Every change that matters is sent on `changes` as
/// `"<kind> <name>"`; the tasks run until aborted.
#[must_use]
pub fn watch_cluster(
    conn: &KubeConn,
    pods: Option<&str>,
    strimzi: Option<&str>,
    changes: &tokio::sync::mpsc::UnboundedSender<String>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    if let Some(sel) = pods {
        let api: Api<Pod> = Api::namespaced(conn.client.clone(), &conn.namespace);
        tasks.push(tokio::spawn(watch_kind(
            api,
            sel.to_string(),
            "pod",
            pod_fingerprint,
            changes.clone(),
        )));
    }
    if let Some(c) = strimzi {
        let api: Api<DynamicObject> = Api::namespaced_with(
            conn.client.clone(),
            &conn.namespace,
            &strimzi_resource("KafkaNodePool"),
        );
        tasks.push(tokio::spawn(watch_kind(
            api,
            format!("strimzi.io/cluster={c}"),
            "KafkaNodePool",
            pool_fingerprint,
            changes.clone(),
        )));
    }
    tasks
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
    use kube::api::{ListParams, WatchParams};
    let mut known: Option<Fingerprints> = None;
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
                say_once(
                    &mut said,
                    format!("cannot list the {what}s to watch them (retrying): {e}"),
                );
                continue;
            }
        };
        let now: Fingerprints = list
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
                say_once(
                    &mut said,
                    format!("cannot watch the {what}s (retrying): {e}"),
                );
                known = Some(known_now);
                continue;
            }
        };
        // An error ends this watch (an expired resourceVersion, 410, or another): list again,
        // after a backoff that grows while watches keep failing before any event.
        failures = failures.saturating_add(1);
        let watched = follow(stream, what, fingerprint, &mut known_now, &changes).await;
        if watched.events > 0 {
            failures = 0;
            said = None;
        }
        if watched.quiet_end {
            // The server's timeout: a quiet watch, not a failure.
            failures = 0;
        }
        known = Some(known_now);
    }
}

/// Each object's name and the fingerprint of what matters in it.
type Fingerprints = std::collections::BTreeMap<String, u64>;

/// How one watch ended.
struct Watched {
    /// Events received (any: a watch that delivered events was healthy).
    events: usize,
    /// Ended by the server's timeout rather than an error.
    quiet_end: bool,
}

/// Logs `line` at info unless it is the line said last (a retry loop says each problem once).
fn say_once(said: &mut Option<String>, line: String) {
    if said.as_deref() != Some(line.as_str()) {
        tracing::info!("{line}");
        *said = Some(line);
    }
}

/// Reads one watch's events into `known`, sending `"<what> <name>"` for each object whose
/// fingerprint changed, until the stream ends or errs.
async fn follow<K, S>(
    stream: S,
    what: &'static str,
    fingerprint: fn(&K) -> u64,
    known: &mut Fingerprints,
    changes: &tokio::sync::mpsc::UnboundedSender<String>,
) -> Watched
where
    K: kube::Resource,
    S: futures::Stream<Item = kube::Result<kube::api::WatchEvent<K>>>,
{
    use futures::StreamExt as _;
    use kube::api::WatchEvent;
    let mut stream = std::pin::pin!(stream);
    let mut events = 0;
    loop {
        let Some(event) = stream.next().await else {
            return Watched {
                events,
                quiet_end: true,
            };
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
        events += 1;
        let name = object.meta().name.clone().unwrap_or_default();
        let changed = if deleted {
            known.remove(&name).is_some()
        } else {
            known.insert(name.clone(), fingerprint(&object)) != Some(fingerprint(&object))
        };
        if changed {
            let _ = changes.send(format!("{what} {name}"));
        }
    }
    Watched {
        events,
        quiet_end: false,
    }
}
