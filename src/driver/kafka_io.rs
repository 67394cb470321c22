//! The roll's IO over the Kafka adapter and any [`Platform`].
//!
//! Generic over the platform: the nodes, their hosts and listener addresses come from
//! [`Platform::list_nodes`], restarts from [`Platform::restart_node`], and whether a fenced
//! broker's process runs from [`Platform::is_running`]. The process platform (commands,
//! bare metal) is one implementation; a Kubernetes pod platform is another, and nothing in
//! `kafkaops roll` changes with it.
//!
//! What the IO adds to the Kafka observation:
//! - the platform's view of fenced brokers: a fenced broker that is alive reads `Unknown`
//!   (maybe in log recovery), a stopped one `NotRunning`;
//! - each node's `incarnation` from the [`RestartWitness`], which watches a connection to
//!   each node from just before its restart command runs: the engine counts a restart only
//!   once the old process is seen to end, even when the command returns early
//!   (`kill -TERM`). Witness generations are numbered afresh by every process, so they do not
//!   survive a restore ([`RollIo::incarnations_survive_restore`] is `false`).
//!
//! With [`KafkaRollIo::with_cruise_control`] it asks Cruise Control's executor before each
//! decision (the engine holds new actions while an execution runs).
//!
//! Its clock is the host's wall clock unless a [`Clock`] is given ([`KafkaRollIo::with_clock`]):
//! a test resumes a saved roll on a clock moved back without touching the host's. Every time
//! the IO reports (the witness's process ends included) is on that clock.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context as _;

use super::RollIo;
use crate::cruise_control::{CruiseControlClient, LogObserver};
use crate::engine::model::{ClusterSnapshot, Millis, NodeId, TopicPartition};
use crate::engine::movers::CruiseControlView;
use crate::engine::roll::ConfigChange;
use crate::kafka::client::{ClusterObserver, KafkaAdmin, KafkaClient};
use crate::kafka::convert::to_snapshot;
use crate::kafka::observation::apply_process_status;
use crate::kafka::{ConfigTarget, KafkaObservation};
use crate::platform::witness::RestartWitness;
use crate::platform::{Platform, PlatformError, PlatformNode};

/// Where the roll's IO reads the time: wall-clock milliseconds since the epoch.
pub type Clock = Arc<dyn Fn() -> Millis + Send + Sync>;

/// The host's wall clock, in milliseconds since the epoch.
#[must_use]
pub fn system_clock() -> Millis {
    Millis(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
    )
}

/// The roll's IO over the Kafka adapter and a platform.
pub struct KafkaRollIo<P> {
    client: KafkaClient,
    platform: P,
    /// The platform's nodes, by id (from [`Platform::list_nodes`]).
    nodes: Vec<PlatformNode>,
    /// Logs left to recover per node, from the broker-state endpoint (for progress).
    recovery: Arc<Mutex<BTreeMap<i32, i64>>>,
    /// Sees each restarted node's old process end (its generation is the incarnation).
    witness: RestartWitness,
    /// The time ([`system_clock`] unless replaced).
    clock: Clock,
    /// Cruise Control, asked before each decision whether it executes.
    cruise_control: Option<CruiseControlWatch>,
}

/// Cruise Control as the roll asks it, with its last answer: every request holds one of Cruise
/// Control's few user-task slots for about 5 s (reference section 13), so one answer serves
/// every decision within [`CruiseControlWatch::fresh_for`].
struct CruiseControlWatch {
    client: CruiseControlClient,
    request_timeout: Duration,
    fresh_for: Duration,
    last: tokio::sync::Mutex<Option<(std::time::Instant, CruiseControlView)>>,
}

impl<P: Platform + Clone + 'static> KafkaRollIo<P> {
    /// The IO of a roll; lists the platform's nodes once.
    ///
    /// # Errors
    /// The platform cannot list its nodes.
    pub async fn new(
        client: KafkaClient,
        platform: P,
        witness: RestartWitness,
    ) -> Result<Self, PlatformError> {
        let nodes = platform.list_nodes().await?;
        Ok(KafkaRollIo {
            client,
            platform,
            nodes,
            recovery: Arc::new(Mutex::new(BTreeMap::new())),
            witness,
            clock: Arc::new(system_clock),
            cruise_control: None,
        })
    }

    /// The same IO asking `client` before each decision whether Cruise Control executes (one
    /// request per 5 s at most; each bounded by `request_timeout`).
    #[must_use]
    pub fn with_cruise_control(
        mut self,
        client: CruiseControlClient,
        request_timeout: Duration,
    ) -> Self {
        self.cruise_control = Some(CruiseControlWatch {
            client,
            request_timeout,
            fresh_for: Duration::from_secs(5),
            last: tokio::sync::Mutex::new(None),
        });
        self
    }

    /// The same IO reading the time from `clock` instead of the host's wall clock.
    #[must_use]
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// Logs left to recover per node, as last observed (for progress displays).
    #[must_use]
    pub fn recovery(&self) -> Arc<Mutex<BTreeMap<i32, i64>>> {
        Arc::clone(&self.recovery)
    }

    fn address(&self, id: i32) -> Option<String> {
        self.nodes
            .iter()
            .find(|n| n.id == id)
            .and_then(|n| n.address.clone())
    }

    /// The witness's evidence since the last call: nodes whose old process ended, with the
    /// time (observations carry the same evidence as a changed `incarnation`).
    fn witness_evidence(&self) -> Vec<(NodeId, Millis)> {
        let ended = self.witness.take_ended();
        if ended.is_empty() {
            return Vec::new();
        }
        // The witness stamps with the host's clock: moved onto this IO's.
        let (host, ours) = (system_clock().0, (self.clock)().0);
        ended
            .into_iter()
            .map(|e| {
                let at = if ours >= host {
                    e.at_ms.saturating_add(ours - host)
                } else {
                    e.at_ms.saturating_sub(host - ours)
                };
                (NodeId(e.node), Millis(at))
            })
            .collect()
    }

    fn note_recovery(&self, o: &KafkaObservation) {
        let mut r = self.recovery.lock().unwrap_or_else(|e| e.into_inner());
        r.clear();
        for n in &o.nodes {
            if let Some(p) = &n.recovery {
                r.insert(n.id, p.remaining_logs);
            }
        }
    }
}

/// Asks the platform whether each fenced broker's process runs (a fenced broker may be
/// starting or in log recovery: alive, not to be restarted first).
pub async fn process_status<P: Platform + Clone + 'static>(
    platform: &P,
    observation: &KafkaObservation,
) -> BTreeMap<i32, Result<bool, String>> {
    let mut asks = tokio::task::JoinSet::new();
    for n in observation
        .nodes
        .iter()
        .filter(|n| n.roles.broker && n.fenced == Some(true))
    {
        let (platform, id) = (platform.clone(), n.id);
        asks.spawn(async move { (id, platform.is_running(id).await.map_err(|e| e.to_string())) });
    }
    let mut out = BTreeMap::new();
    while let Some(joined) = asks.join_next().await {
        if let Ok((id, r)) = joined {
            out.insert(id, r);
        }
    }
    out
}

/// How long a witness connection may stay silent before a close stops being evidence:
/// 90% of the lowest `connections.max.idle.ms` the brokers report (Kafka's default, 10
/// minutes, when none does): the broker closes idle connections itself after that long.
#[must_use]
pub fn witness_idle_limit(observation: &KafkaObservation) -> Duration {
    let lowest = observation
        .broker_configs
        .values()
        .filter_map(|c| {
            c.iter()
                .find(|e| e.name == "connections.max.idle.ms")
                .and_then(|e| e.value.as_deref())
                .and_then(|v| v.trim().parse::<u64>().ok())
        })
        .min()
        .unwrap_or(600_000);
    Duration::from_millis(lowest / 10 * 9)
}

/// Each node's witness generation as its incarnation (nodes with a known listener).
pub fn set_incarnations(
    snapshot: &mut ClusterSnapshot,
    nodes: &[PlatformNode],
    witness: &RestartWitness,
) {
    for n in &mut snapshot.nodes {
        if nodes.iter().any(|p| p.id == n.id.0 && p.address.is_some()) {
            n.incarnation = Some(witness.incarnation(n.id.0));
        }
    }
}

impl<P: Platform + Clone + 'static> RollIo for KafkaRollIo<P> {
    async fn observe(&self) -> anyhow::Result<ClusterSnapshot> {
        let mut o = self.client.observe().await?;
        let status = process_status(&self.platform, &o).await;
        apply_process_status(&mut o, &status);
        self.note_recovery(&o);
        let mut s = to_snapshot(&o);
        set_incarnations(&mut s, &self.nodes, &self.witness);
        Ok(s)
    }

    async fn restart(&self, nodes: &[NodeId]) -> Vec<(NodeId, anyhow::Result<()>)> {
        let mut tasks = tokio::task::JoinSet::new();
        for (i, n) in nodes.iter().enumerate() {
            let platform = self.platform.clone();
            let witness = self.witness.clone();
            let address = self.address(n.0);
            let id = n.0;
            tasks.spawn(async move {
                // Watch the running process just before the command that replaces it.
                if let Some(address) = address {
                    witness.watch(id, &address).await;
                }
                (i, platform.restart_node(id).await)
            });
        }
        let mut results: Vec<Option<anyhow::Result<()>>> = nodes.iter().map(|_| None).collect();
        while let Some(joined) = tasks.join_next().await {
            match joined {
                Ok((i, r)) => {
                    if let Some(slot) = results.get_mut(i) {
                        *slot = Some(r.map_err(anyhow::Error::from));
                    }
                }
                Err(e) => tracing::error!("restart task failed: {e}"),
            }
        }
        nodes
            .iter()
            .zip(results)
            .map(|(n, r)| {
                (
                    *n,
                    r.unwrap_or_else(|| {
                        Err(anyhow::anyhow!("the restart task of node {n} failed"))
                    }),
                )
            })
            .collect()
    }

    async fn reconfigure(&self, node: NodeId, changes: &[ConfigChange]) -> anyhow::Result<()> {
        let changes = changes
            .iter()
            .map(|c| crate::kafka::ConfigChange::set(c.key.clone(), c.to.clone()))
            .collect();
        self.client
            .incremental_alter_configs(ConfigTarget::Broker(node.0), changes)
            .await
            .with_context(|| format!("IncrementalAlterConfigs on node {node}"))
    }

    async fn elect_preferred_leaders(&self, partitions: &[TopicPartition]) -> anyhow::Result<()> {
        let list = partitions
            .iter()
            .map(|p| (p.topic.clone(), p.partition))
            .collect();
        let outcomes = self.client.elect_preferred_leaders(Some(list)).await?;
        let failed: Vec<String> = outcomes
            .iter()
            .filter_map(|o| {
                o.error
                    .as_ref()
                    .map(|(code, msg)| format!("{}-{}: {msg} ({code})", o.topic, o.partition))
            })
            .collect();
        if failed.is_empty() {
            Ok(())
        } else {
            anyhow::bail!("preferred leader election failed for {}", failed.join(", "))
        }
    }

    fn process_ended(&self) -> Vec<(NodeId, Millis)> {
        self.witness_evidence()
    }

    /// The witness numbers processes from zero in every run.
    fn incarnations_survive_restore(&self) -> bool {
        false
    }

    fn now(&self) -> Millis {
        (self.clock)()
    }

    async fn cruise_control(&self) -> Option<CruiseControlView> {
        let watch = self.cruise_control.as_ref()?;
        let mut last = watch.last.lock().await;
        if let Some((at, view)) = last.as_ref()
            && at.elapsed() < watch.fresh_for
        {
            return Some(view.clone());
        }
        let deadline = std::time::Instant::now() + watch.request_timeout;
        let view = watch.client.executor_view(deadline, &LogObserver).await;
        *last = Some((std::time::Instant::now(), view.clone()));
        Some(view)
    }

    async fn sleep_until(&self, until: Millis) {
        let ms = until.since(self.now());
        if ms > 0 {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
    }
}
