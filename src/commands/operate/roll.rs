//! Rolls for `operate`: which nodes need one, and a roll session driven one step per loop.
//!
//! Built from the same pieces as `kafkaops roll` (the observation, the platform, the restart
//! witness, the roll engine's requests and plan, the [`crate::driver`] step function and its
//! progress lines), so a node is restarted or reconfigured by `operate` exactly as by the
//! command. What differs: the roll is one mover among others (the engine starts it only when
//! nothing else moves, `crate::engine::operate`), it is stepped once per loop, and its
//! [`RollRun`] is saved inside the operate state (before every restart command, through
//! [`StateRunStore`]), so a restarted `operate` resumes it under the driver's resume rules
//! (a restart found issued is judged from evidence, never repeated blindly).
//!
//! A desired setting that a restart does not apply (a read-only key the broker's config file or
//! the pod spec sets otherwise) would make every loop roll every broker again. So the operate
//! state remembers, per node, the hash of the desired configuration a roll already went over it
//! for ([`OperateState::rolled_config`]); the same desired configuration never rolls that node
//! again, and the loop says once which keys the restart did not apply. A new policy value (a
//! different hash) may roll again; a roll that failed is forgotten (tried again).
//!
//! Plain host: the nodes restart with `--restart-command` (or `--stop-command` and
//! `--start-command`); without one, a needed roll waits and says so. Kubernetes plugs its
//! platform in [`RollSettings::platform`].
//!
//! Never two rollers (issue #13): in Kubernetes `kafkaops roll` holds a per-cluster Lease
//! ([`KubePlatform::take_lease`], named by the pod selector). `operate` reads that Lease every
//! loop ([`KubePlatform::roll_lease_holder`]): held by another, nothing of ours starts (the
//! engine's `other_roll` blocker); and our own roll takes the same Lease before it restarts a
//! node, renews it while it runs, and clears its holder when it ends or `operate` exits or is
//! deposed, so a manual `kafkaops roll` meanwhile exits 5 naming us. On plain hosts
//! `kafkaops roll` takes no lock, so there is nothing to read or take there: hosts are left as
//! they are (one operator at a time is the user's business).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use super::ports::StateStore;
use crate::commands::roll::{StderrProgress, platform_nodes, requests, with_platform_reasons};
use crate::driver::kafka_io::{KafkaRollIo, process_status, set_incarnations, witness_idle_limit};
use crate::driver::{DriverOptions, Event, Progress, RollRun, RunStore};
use crate::engine::model::{ClusterSnapshot, NodeId};
use crate::engine::operate::{OperateState, RollWish};
use crate::engine::roll::{Decision, NodeRequest, PlanStep, RollConfig, Roller};
use crate::kafka::KafkaClient;
use crate::kafka::client::ClusterObserver;
use crate::kafka::convert::to_snapshot;
use crate::kafka::observation::apply_process_status;
use crate::platform::kube::KubePlatform;
use crate::platform::process::{ProcessPlatform, RestartMethod};
use crate::platform::witness::RestartWitness;
use crate::platform::{AnyPlatform, Platform};

/// How `operate` rolls.
#[derive(Clone)]
pub struct RollSettings {
    /// The policy's desired broker configuration (`roll.brokerConfig`).
    pub desired: BTreeMap<String, String>,
    /// Plain host: how a node restarts (`None`: rolls cannot run and wait).
    pub method: Option<RestartMethod>,
    /// Kubernetes: the pods as nodes (restart = delete the pod); their own restart reasons
    /// (manual-rolling-update annotation, stuck, old revision) make a roll too. Wins over
    /// `method`.
    pub kube: Option<KubePlatform>,
    pub config: RollConfig,
    /// How long one restart command or reconfiguration may take.
    pub command_timeout: Duration,
}

impl RollSettings {
    #[must_use]
    pub fn new(
        desired: BTreeMap<String, String>,
        method: Option<RestartMethod>,
        max_batch_size: usize,
        command_timeout: Duration,
    ) -> RollSettings {
        RollSettings {
            desired,
            method,
            kube: None,
            config: RollConfig {
                max_restart_attempts: 3,
                max_reconfig_attempts: 3,
                post_restart_timeout_ms: 600_000,
                post_reconfigure_timeout_ms: 120_000,
                max_batch_size: max_batch_size.max(1),
                poll_interval_ms: 2_000,
                blocked_timeout_ms: 300_000,
                restore_preferred_leaders: true,
                include_unhealthy: false,
            },
            command_timeout,
        }
    }

    /// Whether nodes can be restarted at all.
    #[must_use]
    pub fn can_restart(&self) -> bool {
        self.kube.is_some() || self.method.is_some()
    }

    /// The platform nodes restart on.
    fn platform(&self, observation: &crate::kafka::KafkaObservation) -> Option<AnyPlatform> {
        if let Some(k) = &self.kube {
            return Some(AnyPlatform::Kube(
                k.clone().with_addresses(
                    platform_nodes(observation)
                        .into_iter()
                        .filter_map(|n| n.address.map(|a| (n.id, a)))
                        .collect(),
                ),
            ));
        }
        self.method.as_ref().map(|m| {
            AnyPlatform::Process(ProcessPlatform::new(
                platform_nodes(observation),
                m.clone(),
                self.command_timeout,
            ))
        })
    }
}

/// The hash of a desired broker configuration, as [`OperateState::rolled_config`] keeps it
/// (FNV-1a over the sorted pairs: stable across builds, unlike `std`'s hasher).
#[must_use]
pub fn config_hash(desired: &BTreeMap<String, String>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (k, v) in desired {
        for b in k.bytes().chain([0]).chain(v.bytes()).chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Clears the desired configuration of the nodes a roll already went over for this very
/// configuration (`rolled`: node -> [`config_hash`]). Returns those of them whose configuration
/// still differs, with the keys that differ.
fn drop_rolled(
    requests: &mut BTreeMap<NodeId, NodeRequest>,
    snapshot: &ClusterSnapshot,
    desired: &BTreeMap<String, String>,
    rolled: &BTreeMap<i32, String>,
) -> BTreeMap<i32, Vec<String>> {
    let hash = config_hash(desired);
    let mut unapplied = BTreeMap::new();
    for (id, r) in requests.iter_mut() {
        if r.desired_config.is_empty() || rolled.get(&id.0) != Some(&hash) {
            continue;
        }
        let keys: Vec<String> = snapshot.node(*id).map_or_else(Vec::new, |n| {
            r.desired_config
                .iter()
                .filter(|(k, v)| n.config.get(*k).and_then(|e| e.value.as_ref()) != Some(*v))
                .map(|(k, _)| k.clone())
                .collect()
        });
        if !keys.is_empty() {
            unapplied.insert(id.0, keys);
        }
        r.desired_config.clear();
    }
    unapplied
}

/// The one line about settings a roll did not apply (logged once while it stays true).
fn unapplied_note(unapplied: &BTreeMap<i32, Vec<String>>) -> Option<String> {
    let keys: BTreeSet<&String> = unapplied.values().flatten().collect();
    if keys.is_empty() {
        return None;
    }
    Some(format!(
        "restart did not apply {} on nodes {}, change the broker's config file / pod spec \
         (no new roll for the same roll.brokerConfig)",
        keys.into_iter().cloned().collect::<Vec<_>>().join(", "),
        unapplied
            .keys()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    ))
}

/// The roll requests: the desired broker configuration on every broker (except where a roll
/// already went for it, `rolled`), plus the pods' own restart reasons in Kubernetes (as
/// `kafkaops roll --strimzi` takes them). Also returns the nodes whose desired settings a roll
/// did not apply, with the keys.
async fn roll_requests(
    s: &RollSettings,
    snapshot: &ClusterSnapshot,
    rolled: &BTreeMap<i32, String>,
) -> Result<(BTreeMap<NodeId, NodeRequest>, BTreeMap<i32, Vec<String>>), String> {
    let mut base = if s.desired.is_empty() {
        BTreeMap::new()
    } else {
        requests(snapshot, None, &s.desired).unwrap_or_default()
    };
    let unapplied = drop_rolled(&mut base, snapshot, &s.desired, rolled);
    let reasons: BTreeMap<NodeId, Vec<String>> = match &s.kube {
        Some(k) => k
            .discover()
            .await
            .map_err(|e| e.to_string())?
            .iter()
            .map(|p| {
                (
                    NodeId(p.id),
                    p.restart_reasons().into_iter().map(|(_, r)| r).collect(),
                )
            })
            .filter(|(_, r): &(NodeId, Vec<String>)| !r.is_empty())
            .collect(),
        None => BTreeMap::new(),
    };
    Ok((with_platform_reasons(base, snapshot, &reasons), unapplied))
}

/// The nodes a plan restarts, reconfigures or is blocked on.
fn planned_nodes(plan: &crate::engine::roll::Plan) -> BTreeSet<i32> {
    let mut nodes = BTreeSet::new();
    for step in &plan.steps {
        match step {
            PlanStep::Restart { nodes: n, .. } => nodes.extend(n.iter().map(|r| r.node.0)),
            PlanStep::Reconfigure { node, .. } => {
                nodes.insert(node.0);
            }
            PlanStep::Blocked { nodes: n, .. } => nodes.extend(n.iter().map(|id| id.0)),
        }
    }
    nodes
}

/// The nodes that need a roll: their broker configuration differs from the policy's (as the
/// roll engine plans it: reconfigured where Kafka allows, else restarted), or Kubernetes gives
/// a reason. `None`: nothing to do. Nodes a roll already went over for the same desired
/// configuration (`rolled`) are not rolled for it again; the note (second) says which keys
/// the restart did not apply.
pub async fn wish(
    client: &KafkaClient,
    s: &RollSettings,
    rolled: &BTreeMap<i32, String>,
) -> Result<(Option<RollWish>, Option<String>), String> {
    if s.desired.is_empty() && s.kube.is_none() {
        return Ok((None, None));
    }
    let observation = client.observe().await.map_err(|e| format!("{e:#}"))?;
    let snapshot = to_snapshot(&observation);
    let (requests, unapplied) = roll_requests(s, &snapshot, rolled).await?;
    Ok((wish_of(s, &snapshot, requests), unapplied_note(&unapplied)))
}

/// The wish the requests make on `snapshot` (pure).
fn wish_of(
    s: &RollSettings,
    snapshot: &ClusterSnapshot,
    requests: BTreeMap<NodeId, NodeRequest>,
) -> Option<RollWish> {
    if requests
        .values()
        .all(|r| r.restart_reasons.is_empty() && r.desired_config.is_empty())
    {
        return None;
    }
    let plan = Roller::new(s.config.clone(), requests.clone()).plan(snapshot);
    let nodes = planned_nodes(&plan);
    if nodes.is_empty() {
        return None;
    }
    let mut why: Vec<String> = requests
        .values()
        .flat_map(|r| r.restart_reasons.iter().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !s.desired.is_empty() && requests.values().any(|r| !r.desired_config.is_empty()) {
        why.push(format!(
            "the policy's roll.brokerConfig ({})",
            s.desired.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    Some(RollWish {
        nodes,
        reason: why.join("; "),
    })
}

/// A roll in progress in this process.
pub struct RollSession {
    pub(crate) io: KafkaRollIo<AnyPlatform>,
    pub(crate) witness: RestartWitness,
    pub(crate) run: RollRun,
    pub(crate) progress: RecordingProgress,
    pub(crate) options: DriverOptions,
    /// A new run: the nodes it goes over with a desired configuration (to remember in
    /// [`OperateState::rolled_config`]); empty for a resumed run.
    pub config_nodes: BTreeSet<i32>,
}

/// The roll's progress lines (as `kafkaops roll` prints them, but as log lines: `tracing`, so
/// `--log-format json` stays JSON), plus each restart and
/// reconfiguration as an action to record (an Event in Kubernetes, metrics).
pub struct RecordingProgress {
    lines: StderrProgress,
    /// Actions decided since the last [`RecordingProgress::take`]: (kind, target, reason).
    decided: Vec<(String, String, String)>,
}

impl RecordingProgress {
    /// The actions decided since the last call.
    pub fn take(&mut self) -> Vec<(String, String, String)> {
        std::mem::take(&mut self.decided)
    }
}

impl Progress for RecordingProgress {
    fn event(&mut self, event: &Event<'_>) {
        if let Event::Decided(d) = event {
            match d {
                Decision::Restart { nodes, reason } => {
                    for n in nodes {
                        self.decided.push((
                            "restart".into(),
                            format!("node {}", n.node),
                            format!("{reason}: {}", n.reason),
                        ));
                    }
                }
                Decision::Reconfigure { node, reason, .. } => {
                    self.decided.push((
                        "reconfigure".into(),
                        format!("node {node}"),
                        reason.clone(),
                    ));
                }
                _ => {}
            }
        }
        self.lines.event(event);
    }
}

/// Starts a roll session: a new run, or the saved one (`saved`, resumed by the driver's rules).
pub async fn start(
    client: &KafkaClient,
    s: &RollSettings,
    saved: Option<&serde_json::Value>,
    rolled: &BTreeMap<i32, String>,
) -> Result<RollSession, String> {
    let mut observation = client.observe().await.map_err(|e| format!("{e:#}"))?;
    let client = client.clone().with_known_brokers(
        observation
            .nodes
            .iter()
            .filter(|n| n.roles.broker)
            .map(|n| n.id)
            .collect(),
    );
    let platform = s.platform(&observation).ok_or_else(|| {
        "no --restart-command (or --stop-command and --start-command) to restart nodes with"
            .to_string()
    })?;
    // Listed first: a pod platform learns its pods' names by listing them, and the status
    // asks need them (a node it cannot name would read as unknown).
    let listed = platform.list_nodes().await.map_err(|e| e.to_string())?;
    let status = process_status(&platform, &observation).await;
    apply_process_status(&mut observation, &status);
    let witness = RestartWitness::new(Duration::from_secs(5), witness_idle_limit(&observation));
    let mut snapshot = to_snapshot(&observation);
    set_incarnations(&mut snapshot, &listed, &witness);
    let io = KafkaRollIo::new(client, platform, witness.clone())
        .await
        .map_err(|e| e.to_string())?;
    let mut config_nodes = BTreeSet::new();
    let run = match saved {
        Some(v) => serde_json::from_value::<RollRun>(v.clone())
            .map_err(|e| format!("the saved roll cannot be read: {e}"))?,
        None => {
            // As the wish: the desired configuration and the pods' own reasons (with no desired
            // configuration, `requests` alone would select every node).
            let (requests, _) = roll_requests(s, &snapshot, rolled).await?;
            let roller = Roller::new(s.config.clone(), requests.clone());
            config_nodes = planned_nodes(&roller.plan(&snapshot))
                .into_iter()
                .filter(|n| {
                    requests
                        .get(&NodeId(*n))
                        .is_some_and(|r| !r.desired_config.is_empty())
                })
                .collect();
            RollRun::new(roller, crate::driver::RollIo::now(&io))
        }
    };
    let progress = RecordingProgress {
        lines: StderrProgress::logged(io.recovery()),
        decided: Vec::new(),
    };
    Ok(RollSession {
        io,
        witness,
        run,
        progress,
        config_nodes,
        options: DriverOptions {
            observe_retry_ms: s.config.post_restart_timeout_ms.max(60_000),
            settle_after_restart_ms: s.config.poll_interval_ms.max(3_000),
            unconfirmed_restart_grace_ms: u64::try_from(s.command_timeout.as_millis())
                .unwrap_or(u64::MAX)
                .max(60_000),
        },
    })
}

/// Saves the operate state, with the roll's run in it, before and after every roll command
/// (the driver calls it; a failed save means the command is not issued).
pub struct StateRunStore<'a, S: StateStore> {
    pub store: &'a S,
    pub state: &'a mut OperateState,
    /// The operate loop's last saved document (kept in step).
    pub saved: &'a std::sync::Mutex<Option<String>>,
}

impl<S: StateStore> RunStore for StateRunStore<'_, S> {
    fn save(&mut self, run: &RollRun) -> anyhow::Result<()> {
        if let Some(r) = self.state.roll_mut() {
            r.run = Some(serde_json::to_value(run)?);
        }
        let doc = serde_json::to_string(&*self.state)?;
        let store = self.store;
        // The driver's store is synchronous; the ports are async (a ConfigMap in Kubernetes).
        tokio::task::block_in_place(|| {
            tokio::runtime::Handle::current().block_on(store.save(&doc))
        })
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        *self
            .saved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(doc);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::roll::sim::{ClusterSpec, Placement, SimCluster};

    fn snapshot() -> ClusterSnapshot {
        let spec = ClusterSpec {
            brokers: 3,
            combined: 0,
            controllers: 3,
            topics: 2,
            partitions_per_topic: 2,
            replication_factor: 3,
            min_isr_choices: vec![2],
            racks: 3,
            placement: Placement::RackAware,
        };
        SimCluster::generate(&spec, 5).snapshot()
    }

    fn settings(dirs: &str) -> RollSettings {
        RollSettings::new(
            BTreeMap::from([("log.dirs".to_string(), dirs.to_string())]),
            None,
            1,
            Duration::from_secs(60),
        )
    }

    /// The wish and the note, as the loop gets them from one observation.
    fn wish_and_note(
        s: &RollSettings,
        snapshot: &ClusterSnapshot,
        rolled: &BTreeMap<i32, String>,
    ) -> (Option<RollWish>, Option<String>) {
        let mut requests = requests(snapshot, None, &s.desired).unwrap();
        let unapplied = drop_rolled(&mut requests, snapshot, &s.desired, rolled);
        (wish_of(s, snapshot, requests), unapplied_note(&unapplied))
    }

    #[test]
    fn a_setting_a_restart_does_not_apply_rolls_once_per_desired_value() {
        // `log.dirs` is read-only: only a restart can apply it, and here the restart does not
        // (the brokers come back with the same configuration: the same snapshot).
        let snapshot = snapshot();
        let brokers: BTreeSet<i32> = snapshot
            .nodes
            .iter()
            .filter(|n| n.roles.broker)
            .map(|n| n.id.0)
            .collect();
        assert_eq!(brokers.len(), 3);
        let s = settings("/data");
        let (w, note) = wish_and_note(&s, &snapshot, &BTreeMap::new());
        assert_eq!(w.expect("a first roll").nodes, brokers);
        assert_eq!(note, None);
        // A roll went over every broker for this configuration: no roll again, one note.
        let rolled: BTreeMap<i32, String> = brokers
            .iter()
            .map(|n| (*n, config_hash(&s.desired)))
            .collect();
        let (w, note) = wish_and_note(&s, &snapshot, &rolled);
        assert_eq!(w, None);
        let ids = brokers
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let note = note.expect("a note");
        assert!(
            note.starts_with(&format!(
                "restart did not apply log.dirs on nodes {ids}, change the broker's config file / pod spec"
            )),
            "{note}"
        );
        // A new desired value may roll again.
        let (w, _) = wish_and_note(&settings("/data2"), &snapshot, &rolled);
        assert_eq!(w.expect("a roll for the new value").nodes, brokers);
        // The hash is stable (it is persisted) and tells values apart.
        assert_eq!(
            config_hash(&s.desired),
            config_hash(&settings("/data").desired)
        );
        assert_ne!(
            config_hash(&s.desired),
            config_hash(&settings("/data2").desired)
        );
    }
}
