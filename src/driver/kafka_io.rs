//! The roll's IO over the Kafka adapter and any [`Platform`].
//!
//! Generic over the platform: the nodes, their hosts and listener addresses come from
//! [`Platform::list_nodes`], restarts from [`Platform::restart_node`], and whether a node's
//! process runs from [`Platform::is_running`]. The process platform (commands,
//! bare metal) is one implementation; a Kubernetes pod platform is another, and nothing in
//! `kafkaops roll` changes with it.
//!
//! What the IO adds to the Kafka observation:
//! - the platform's view of the nodes Kafka cannot vouch for ([`process_status`]): a stopped
//!   controller-only node reads `NotRunning` and is no caught-up voter, whatever its
//!   `LastCaughtUpTimestamp`; a fenced broker that is alive reads `Unknown` (maybe in log
//!   recovery), a stopped one `NotRunning`; an unfenced broker that did not answer and whose
//!   process is gone (crashed, not fenced yet) `NotReady`. A status that cannot be told is
//!   unknown, never running;
//! - each node's `incarnation` from the [`RestartWitness`], which watches a connection to
//!   each node from just before its restart command runs: the engine counts a restart only
//!   once the old process is seen to end, even when the command returns early
//!   (`kill -TERM`). Witness generations are numbered afresh by every process, so they do not
//!   survive a restore ([`RollIo::incarnations_survive_restore`] is `false`).
//!
//! With [`KafkaRollIo::with_cruise_control`] it asks Cruise Control's executor before each
//! decision (the engine holds new actions while an execution runs); with
//! [`KafkaRollIo::with_software_check`] (`upgrade --to`) it reads each node's supported
//! `metadata.version` (ApiVersions) before each decision.
//!
//! Its clock is the host's wall clock unless a [`Clock`] is given ([`KafkaRollIo::with_clock`]):
//! a test resumes a saved roll on a clock moved back without touching the host's. Every time
//! the IO reports (the witness's process ends included) is on that clock.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use futures::StreamExt as _;

use super::RollIo;
use crate::cruise_control::{CruiseControlClient, LogObserver};
use crate::engine::model::{ClusterSnapshot, Millis, NodeId, TopicPartition};
use crate::engine::movers::CruiseControlView;
use crate::engine::roll::ConfigChange;
use crate::kafka::client::{ClusterObserver, KafkaAdmin, KafkaClient};
use crate::kafka::convert::to_snapshot;
use crate::kafka::observation::{apply_process_status, process_status_wanted};
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
    /// A roll onto new software: each node's supported `metadata.version` is read before each
    /// decision ([`KafkaRollIo::with_software_check`]).
    software: bool,
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
            software: false,
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

    /// The same IO reading what each node's software supports before each decision (ApiVersions
    /// to every registered node, as `upgrade`'s dry run does): a roll onto new software.
    #[must_use]
    pub fn with_software_check(mut self) -> Self {
        self.software = true;
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

/// How many status asks ([`Platform::is_running`]: a command, a TCP probe, a pod read) run at
/// once; the rest wait their turn.
pub const STATUS_CONCURRENCY: usize = 4;

/// Asks the platform whether the process of each node in [`process_status_wanted`] runs
/// (controller-only nodes, fenced brokers, unfenced brokers that did not answer), at most
/// [`STATUS_CONCURRENCY`] at a time. An error is kept as the answer (unknown, never running).
pub async fn process_status<P: Platform>(
    platform: &P,
    observation: &KafkaObservation,
) -> BTreeMap<i32, Result<bool, String>> {
    futures::stream::iter(process_status_wanted(observation))
        .map(|id| async move { (id, platform.is_running(id).await.map_err(|e| e.to_string())) })
        .buffer_unordered(STATUS_CONCURRENCY)
        .collect()
        .await
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
            // A restarted broker may run other configs: the next observation reads them.
            self.client.forget_broker(n.0);
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
        for n in nodes {
            self.client.forget_broker(n.0);
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

    async fn software(&self) -> Option<BTreeMap<NodeId, crate::engine::roll::SoftwareReport>> {
        if !self.software {
            return None;
        }
        match self.client.node_features().await {
            Ok(nodes) => Some(crate::kafka::kraft::software_reports(&nodes)),
            Err(e) => {
                // Nothing read: every restarted node waits (unread), none counts as back.
                tracing::debug!("cannot read the nodes' software: {e}");
                Some(BTreeMap::new())
            }
        }
    }

    async fn sleep_until(&self, until: Millis) {
        let ms = until.since(self.now());
        if ms > 0 {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::engine::model::ObservedState;
    use crate::engine::roll::RollError;
    use crate::engine::roll::safety::{caught_up_controllers, check_quorum};
    use crate::engine::view::{ConfigEntry, ConfigSource};
    use crate::kafka::ffi::{ClusterDescription, NodeAddress};
    use crate::kafka::observation::{RawObservation, RawQuorum, ReplicaObservation, assemble};

    /// A platform whose processes run unless listed as stopped; asks about `failing` nodes fail.
    /// Records every node asked about and the most asks in flight at once.
    #[derive(Clone, Default)]
    struct Told {
        stopped: BTreeSet<i32>,
        failing: BTreeSet<i32>,
        asked: Arc<Mutex<Vec<i32>>>,
        in_flight: Arc<AtomicUsize>,
        most_in_flight: Arc<AtomicUsize>,
    }

    impl Platform for Told {
        async fn list_nodes(&self) -> Result<Vec<PlatformNode>, PlatformError> {
            Ok(Vec::new())
        }

        async fn restart_node(&self, id: i32) -> Result<(), PlatformError> {
            Err(PlatformError::NoStatusProbe {
                node: id,
                message: "this test platform restarts nothing".into(),
            })
        }

        async fn is_running(&self, id: i32) -> Result<bool, PlatformError> {
            self.asked.lock().unwrap().push(id);
            let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            self.most_in_flight.fetch_max(now, Ordering::SeqCst);
            // Let the other asks run meanwhile, as a status command or a probe would.
            for _ in 0..3 {
                tokio::task::yield_now().await;
            }
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            if self.failing.contains(&id) {
                return Err(PlatformError::NoStatusProbe {
                    node: id,
                    message: "the status command timed out".into(),
                });
            }
            Ok(!self.stopped.contains(&id))
        }
    }

    fn address(id: i32) -> NodeAddress {
        NodeAddress {
            id,
            host: "127.0.0.1".into(),
            port: u16::try_from(9000 + id).unwrap(),
            rack: None,
        }
    }

    fn member(id: i32, caught_up: i64) -> ReplicaObservation {
        ReplicaObservation {
            id,
            log_end_offset: 10,
            last_fetch_timestamp: Some(caught_up),
            last_caught_up_timestamp: Some(caught_up),
            directory_id: None,
        }
    }

    /// Kafka's answers for controller-only voters 5001 (leader), 5002, 5003, every one caught up
    /// by its timestamp, and brokers `1..=brokers`: `fenced` ones are registered fenced, `silent`
    /// ones listed unfenced but did not answer DescribeConfigs; the others answered.
    fn observation(brokers: i32, fenced: &[i32], silent: &[i32]) -> KafkaObservation {
        let ids: Vec<i32> = (1..=brokers).collect();
        let roles = |v: &str| ConfigEntry {
            name: "process.roles".into(),
            value: Some(v.into()),
            read_only: true,
            source: ConfigSource::StaticBroker,
            sensitive: false,
        };
        assemble(RawObservation {
            cluster: ClusterDescription {
                cluster_id: Some("c".into()),
                controller: Some(1),
                nodes: ids
                    .iter()
                    .filter(|b| !fenced.contains(b))
                    .map(|b| address(*b))
                    .collect(),
            },
            fenced_brokers: Some(fenced.iter().map(|b| address(*b)).collect()),
            topic_views: Vec::new(),
            topic_min_isr: BTreeMap::new(),
            controller_roles: (5001..=5003)
                .map(|c| (c, Ok("controller".into())))
                .collect(),
            broker_configs: ids
                .iter()
                .filter(|b| !fenced.contains(b) && !silent.contains(b))
                .map(|b| (*b, vec![roles("broker")]))
                .collect(),
            unreachable_brokers: silent
                .iter()
                .map(|b| (*b, "timed out".to_string()))
                .collect(),
            vouched_alive: std::collections::BTreeSet::new(),
            controllers_listed: false,
            quorum: RawQuorum {
                leader_id: Some(5001),
                leader_epoch: 4,
                high_watermark: 100,
                voters: vec![
                    member(5001, 50_000),
                    member(5002, 49_800),
                    member(5003, 49_900),
                ],
                observers: ids.iter().map(|b| member(*b, 49_900)).collect(),
                answered_by: "127.0.0.1:15001".into(),
                voter_endpoints: BTreeMap::new(),
                version: 1,
            },
            controller_addresses: (5001..=5003)
                .map(|c| {
                    (
                        c,
                        ("127.0.0.1".to_string(), u16::try_from(10_000 + c).unwrap()),
                    )
                })
                .collect(),
            leader_fetch_timeout_ms: Some(2000),
            reassignments: Vec::new(),
            extra_broker_ids: Vec::new(),
            endpoint_states: None,
        })
        .unwrap()
    }

    /// The snapshot the engine sees after the driver asked the platform.
    async fn observed(platform: &Told, o: &mut KafkaObservation) -> ClusterSnapshot {
        let status = process_status(platform, o).await;
        apply_process_status(o, &status);
        to_snapshot(o)
    }

    /// Issue 23 point 2 through the real driver's observation: a controller-only voter that
    /// was SIGKILLed still has a `LastCaughtUpTimestamp` inside the fetch timeout, and Kafka
    /// does not fence controllers. The platform says it is stopped: in the snapshot the engine
    /// sees it is no caught-up voter, so restarting another controller (which would leave 1
    /// of 3 running) is refused.
    #[tokio::test]
    async fn stopped_controller_only_voter_is_no_caught_up_voter() {
        let platform = Told {
            stopped: BTreeSet::from([5002]),
            ..Told::default()
        };
        let mut o = observation(3, &[], &[]);
        let s = observed(&platform, &mut o).await;
        assert_eq!(
            s.node(NodeId(5002)).unwrap().state,
            ObservedState::NotRunning
        );
        assert_eq!(
            caught_up_controllers(&s).unwrap(),
            vec![NodeId(5001), NodeId(5003)]
        );
        assert!(
            matches!(
                check_quorum(&s, &[NodeId(5003)]),
                Err(RollError::QuorumAtRisk { caught_up: 1, .. })
            ),
            "{:?}",
            check_quorum(&s, &[NodeId(5003)])
        );
        // Every controller running: all three count, and 5003 may restart.
        let mut o = observation(3, &[], &[]);
        let s = observed(&Told::default(), &mut o).await;
        assert_eq!(caught_up_controllers(&s).unwrap().len(), 3);
        assert_eq!(check_quorum(&s, &[NodeId(5003)]), Ok(()));
    }

    /// A controller whose status cannot be told is unknown, never running: it is no caught-up
    /// voter either (the error is kept for the plan to show).
    #[tokio::test]
    async fn controller_status_error_is_unknown_not_running() {
        let platform = Told {
            failing: BTreeSet::from([5002]),
            ..Told::default()
        };
        let mut o = observation(3, &[], &[]);
        let s = observed(&platform, &mut o).await;
        let n = o.node(5002).unwrap();
        assert_eq!(n.process_running, None);
        assert!(n.process_status_error.is_some());
        assert_eq!(s.node(NodeId(5002)).unwrap().state, ObservedState::Unknown);
        assert!(!caught_up_controllers(&s).unwrap().contains(&NodeId(5002)));
        assert!(check_quorum(&s, &[NodeId(5003)]).is_err());
    }

    /// Only the nodes Kafka cannot vouch for are asked (controllers, fenced brokers, brokers
    /// that did not answer), a few at a time: 1,000 answering brokers cost no status command.
    /// A crashed broker still listed unfenced reads not serving.
    #[tokio::test]
    async fn only_nodes_kafka_cannot_vouch_for_are_asked_a_few_at_a_time() {
        let platform = Told {
            stopped: BTreeSet::from([7, 9]),
            ..Told::default()
        };
        let mut o = observation(1000, &[7, 8], &[9, 10]);
        let s = observed(&platform, &mut o).await;
        let asked: BTreeSet<i32> = platform.asked.lock().unwrap().iter().copied().collect();
        assert_eq!(asked, BTreeSet::from([7, 8, 9, 10, 5001, 5002, 5003]));
        assert_eq!(platform.asked.lock().unwrap().len(), 7, "each asked once");
        assert_eq!(
            platform.most_in_flight.load(Ordering::SeqCst),
            STATUS_CONCURRENCY
        );
        let state = |id| s.node(NodeId(id)).unwrap().state;
        assert_eq!(state(7), ObservedState::NotRunning, "fenced, stopped");
        assert_eq!(state(8), ObservedState::Unknown, "fenced, alive");
        assert_eq!(state(9), ObservedState::NotReady, "unfenced, crashed");
        assert!(
            !s.node(NodeId(10)).unwrap().is_serving(),
            "unfenced, silent"
        );
        assert!(s.node(NodeId(11)).unwrap().is_serving());
        assert_eq!(caught_up_controllers(&s).unwrap().len(), 3);
    }
}
