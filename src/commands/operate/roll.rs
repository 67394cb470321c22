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
//! Plain host: the nodes restart with `--restart-command` (or `--stop-command` and
//! `--start-command`); without one, a needed roll waits and says so. Kubernetes plugs its
//! platform in [`RollSettings::platform`].

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

/// The roll requests: the desired broker configuration on every broker, plus the pods'
/// own restart reasons in Kubernetes (as `kafkaops roll --strimzi` takes them).
async fn roll_requests(
    s: &RollSettings,
    snapshot: &ClusterSnapshot,
) -> Result<BTreeMap<NodeId, NodeRequest>, String> {
    let base = if s.desired.is_empty() {
        BTreeMap::new()
    } else {
        requests(snapshot, None, &s.desired).unwrap_or_default()
    };
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
    Ok(with_platform_reasons(base, snapshot, &reasons))
}

/// The nodes that need a roll: their broker configuration differs from the policy's (as the
/// roll engine plans it: reconfigured where Kafka allows, else restarted), or Kubernetes gives
/// a reason. `Ok(None)`: nothing to do.
pub async fn wish(client: &KafkaClient, s: &RollSettings) -> Result<Option<RollWish>, String> {
    if s.desired.is_empty() && s.kube.is_none() {
        return Ok(None);
    }
    let observation = client.observe().await.map_err(|e| format!("{e:#}"))?;
    let snapshot = to_snapshot(&observation);
    let requests = roll_requests(s, &snapshot).await?;
    if requests
        .values()
        .all(|r| r.restart_reasons.is_empty() && r.desired_config.is_empty())
    {
        return Ok(None);
    }
    let plan = Roller::new(s.config.clone(), requests.clone()).plan(&snapshot);
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
    if nodes.is_empty() {
        return Ok(None);
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
    Ok(Some(RollWish {
        nodes,
        reason: why.join("; "),
    }))
}

/// A roll in progress in this process.
pub struct RollSession {
    pub(crate) io: KafkaRollIo<AnyPlatform>,
    pub(crate) witness: RestartWitness,
    pub(crate) run: RollRun,
    pub(crate) progress: RecordingProgress,
    pub(crate) options: DriverOptions,
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
    let status = process_status(&platform, &observation).await;
    apply_process_status(&mut observation, &status);
    let witness = RestartWitness::new(Duration::from_secs(5), witness_idle_limit(&observation));
    let mut snapshot = to_snapshot(&observation);
    set_incarnations(
        &mut snapshot,
        &platform.list_nodes().await.map_err(|e| e.to_string())?,
        &witness,
    );
    let io = KafkaRollIo::new(client, platform, witness.clone())
        .await
        .map_err(|e| e.to_string())?;
    let run = match saved {
        Some(v) => serde_json::from_value::<RollRun>(v.clone())
            .map_err(|e| format!("the saved roll cannot be read: {e}"))?,
        None => {
            // As the wish: the desired configuration and the pods' own reasons (with no desired
            // configuration, `requests` alone would select every node).
            let requests = roll_requests(s, &snapshot).await?;
            RollRun::new(
                Roller::new(s.config.clone(), requests),
                crate::driver::RollIo::now(&io),
            )
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
