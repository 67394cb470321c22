//! How a roll is set up: its limits (the CLI's from its flags, `operate`'s from its policy and
//! defaults), the platform its nodes restart on, the first look at the nodes, and the driver's
//! options. One place for both, so a node is rolled by `operate` exactly as by `kafkaops roll`.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::driver::DriverOptions;
use crate::driver::kafka_io::{process_status, set_incarnations, witness_idle_limit};
use crate::engine::model::ClusterSnapshot;
use crate::engine::roll::RollConfig;
use crate::kafka::KafkaClient;
use crate::kafka::KafkaObservation;
use crate::kafka::convert::to_snapshot;
use crate::kafka::observation::apply_process_status;
use crate::platform::kube::KubePlatform;
use crate::platform::process::{ProcessPlatform, RestartMethod};
use crate::platform::witness::RestartWitness;
use crate::platform::{AnyPlatform, Platform, PlatformError, PlatformNode};

/// A roll's limits, in the units people give them; [`RollLimits::config`] makes the engine's
/// [`RollConfig`] (with the floors both callers get: at least one restart attempt, one node per
/// batch, a poll interval of 100 ms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollLimits {
    pub max_restart_attempts: u32,
    pub max_reconfig_attempts: u32,
    pub post_restart_timeout: Duration,
    pub post_reconfigure_timeout: Duration,
    pub max_batch_size: usize,
    pub poll_interval: Duration,
    pub blocked_timeout: Duration,
    pub restore_preferred_leaders: bool,
    pub include_unhealthy: bool,
}

impl RollLimits {
    /// `operate`'s limits: its policy gives the batch size, the rest are fixed.
    #[must_use]
    pub fn operate(max_batch_size: usize) -> RollLimits {
        RollLimits {
            max_restart_attempts: 3,
            max_reconfig_attempts: 3,
            post_restart_timeout: Duration::from_secs(600),
            post_reconfigure_timeout: Duration::from_secs(120),
            max_batch_size,
            poll_interval: Duration::from_secs(2),
            blocked_timeout: Duration::from_secs(300),
            restore_preferred_leaders: true,
            include_unhealthy: false,
        }
    }

    /// The engine's configuration.
    #[must_use]
    pub fn config(&self) -> RollConfig {
        RollConfig {
            max_restart_attempts: self.max_restart_attempts.max(1),
            max_reconfig_attempts: self.max_reconfig_attempts,
            post_restart_timeout_ms: millis(self.post_restart_timeout),
            post_reconfigure_timeout_ms: millis(self.post_reconfigure_timeout),
            max_batch_size: self.max_batch_size.max(1),
            poll_interval_ms: millis(self.poll_interval).max(100),
            blocked_timeout_ms: millis(self.blocked_timeout),
            restore_preferred_leaders: self.restore_preferred_leaders,
            include_unhealthy: self.include_unhealthy,
        }
    }
}

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
    /// Where the node holds live (held nodes are not rolled).
    pub holds: crate::app::hold::Holds,
}

impl RollSettings {
    /// `operate`'s settings ([`RollLimits::operate`]), without Kubernetes (holds in the Kafka
    /// cluster's holds topic).
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
            config: RollLimits::operate(max_batch_size).config(),
            command_timeout,
            holds: crate::app::hold::Holds::Topic,
        }
    }

    /// Whether nodes can be restarted at all.
    #[must_use]
    pub fn can_restart(&self) -> bool {
        self.kube.is_some() || self.method.is_some()
    }

    /// The platform nodes restart on (`None`: no way to restart them).
    #[must_use]
    pub fn platform(&self, observation: &KafkaObservation) -> Option<AnyPlatform> {
        platform(
            self.kube.as_ref(),
            self.method.as_ref(),
            observation,
            self.command_timeout,
        )
    }

    /// The driver's options for these settings.
    #[must_use]
    pub fn driver_options(&self) -> DriverOptions {
        driver_options(&self.config, self.command_timeout)
    }
}

/// A restart command given empty (a usage error at the edge).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{flag} is empty")]
pub struct EmptyCommand {
    /// The flag that gave it (`--restart-command`, `--stop-command`, `--start-command`).
    pub flag: &'static str,
}

/// How nodes restart on plain hosts: one command (`restart`), or a stop/start pair; `None`
/// with neither. `kafkaops roll` and `operate` take the same flags.
///
/// # Errors
/// A command given is empty.
pub fn restart_method(
    restart: Option<&String>,
    stop: Option<&String>,
    start: Option<&String>,
) -> Result<Option<RestartMethod>, EmptyCommand> {
    let nonempty = |flag: &'static str, c: &String| {
        if c.trim().is_empty() {
            Err(EmptyCommand { flag })
        } else {
            Ok(c.clone())
        }
    };
    match (restart, stop, start) {
        (Some(c), _, _) => Ok(Some(RestartMethod::Restart(nonempty(
            "--restart-command",
            c,
        )?))),
        (None, Some(stop), Some(start)) => Ok(Some(RestartMethod::StopStart {
            stop: nonempty("--stop-command", stop)?,
            start: nonempty("--start-command", start)?,
        })),
        _ => Ok(None),
    }
}

/// The platform nodes restart on: the pods (`kube`, with the nodes' addresses from the
/// observation), else processes restarted with `method`; `None` without either.
#[must_use]
pub fn platform(
    kube: Option<&KubePlatform>,
    method: Option<&RestartMethod>,
    observation: &KafkaObservation,
    command_timeout: Duration,
) -> Option<AnyPlatform> {
    if let Some(k) = kube {
        return Some(AnyPlatform::Kube(
            k.clone().with_addresses(
                platform_nodes(observation)
                    .into_iter()
                    .filter_map(|n| n.address.map(|a| (n.id, a)))
                    .collect(),
            ),
        ));
    }
    method.map(|m| {
        AnyPlatform::Process(ProcessPlatform::new(
            platform_nodes(observation),
            m.clone(),
            command_timeout,
        ))
    })
}

/// The nodes as the process platform knows them (from the observation: advertised host and
/// listener).
#[must_use]
pub fn platform_nodes(observation: &KafkaObservation) -> Vec<PlatformNode> {
    observation
        .nodes
        .iter()
        .map(|n| PlatformNode {
            id: n.id,
            host: n.host.clone().unwrap_or_default(),
            address: n.host.as_ref().zip(n.port).map(|(h, p)| format!("{h}:{p}")),
        })
        .collect()
}

/// The client a roll observes with: the brokers seen now stay in later observations while
/// they are stopped.
#[must_use]
pub fn with_known_brokers(client: &KafkaClient, observation: &KafkaObservation) -> KafkaClient {
    client.clone().with_known_brokers(
        observation
            .nodes
            .iter()
            .filter(|n| n.roles.broker)
            .map(|n| n.id)
            .collect(),
    )
}

/// The first look at the nodes before a roll: the platform's nodes (listed first: a pod
/// platform learns its pods' names by listing them, and the status asks need them), each
/// node's process status into the observation, the restart witness, and the snapshot with the
/// nodes' incarnations.
///
/// # Errors
/// The platform cannot list its nodes.
pub async fn observe_nodes(
    platform: &AnyPlatform,
    observation: &mut KafkaObservation,
) -> Result<(ClusterSnapshot, RestartWitness), PlatformError> {
    let listed = platform.list_nodes().await?;
    let status = process_status(platform, observation).await;
    apply_process_status(observation, &status);
    let witness = RestartWitness::new(Duration::from_secs(5), witness_idle_limit(observation));
    let mut snapshot = to_snapshot(observation);
    set_incarnations(&mut snapshot, &listed, &witness);
    Ok((snapshot, witness))
}

/// The driver's options for a roll with `config` and restart commands that may take
/// `command_timeout`.
#[must_use]
pub fn driver_options(config: &RollConfig, command_timeout: Duration) -> DriverOptions {
    DriverOptions {
        observe_retry_ms: config.post_restart_timeout_ms.max(60_000),
        settle_after_restart_ms: config.poll_interval_ms.max(3_000),
        unconfirmed_restart_grace_ms: millis(command_timeout).max(60_000),
    }
}

/// `d` in milliseconds (saturating).
#[must_use]
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
