//! The first look at the cluster before `kafkaops roll` decides: the observation, the platform
//! the nodes restart on (pods, restart commands, or none for a dry run), the pods' own restart
//! reasons, the snapshot with the nodes' incarnations, and the engine's requests (for
//! `upgrade --to`: every node whose software is not the target's, [`software_requests`]).

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::Context as _;

use super::requests::{RequestError, Selection, pod_reasons, requests, with_platform_reasons};
use super::setup::{observe_nodes, platform, platform_nodes, with_known_brokers};
use crate::engine::failure::{Classified, FailureKind};
use crate::engine::kraft::upgrade;
use crate::engine::model::{ClusterSnapshot, NodeId};
use crate::engine::roll::NodeRequest;
use crate::kafka::client::{BrokerConfigReads, ClusterObserver, missing_broker_state_ids};
use crate::kafka::{KafkaClient, KafkaObservation};
use crate::platform::AnyPlatform;
use crate::platform::kube::{KubeConn, KubePlatform, PodSelector};
use crate::platform::process::{ProcessPlatform, RestartMethod};
use crate::platform::witness::RestartWitness;

/// Where and how the roll's nodes restart.
pub struct Target<'a> {
    /// Kubernetes: the connection and the pods (restart = delete the pod).
    pub pods: Option<(&'a KubeConn, &'a PodSelector)>,
    /// Plain hosts: the restart commands (`None` with no pods: status only, a dry run).
    pub method: Option<&'a RestartMethod>,
    /// How long one restart command or reconfiguration may take.
    pub command_timeout: Duration,
}

/// What the roll is asked: the selected nodes and the desired broker configuration (both
/// empty with pods: the pods Kubernetes gives a reason for).
pub struct Ask<'a> {
    pub selection: Option<&'a Selection>,
    pub desired: &'a BTreeMap<String, String>,
    /// `upgrade --to`: every node not on this software restarts (a "software version" restart
    /// reason) and must come back on it.
    pub software: Option<&'a SoftwareTarget>,
    /// Only a preview (`--dry-run`): without desired settings, the first look reads only the
    /// broker configs the plan needs ([`BrokerConfigReads::Needed`]); a roll that restarts
    /// reads every broker's (the restart witness's idle limit, the settings it compares).
    pub preview: bool,
}

/// The software a roll moves every node onto (`upgrade --to RELEASE`): the release and the
/// latest `metadata.version` its nodes report, by which a node is told to be on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoftwareTarget {
    pub release: String,
    pub level: i16,
}

impl SoftwareTarget {
    /// The target of `release` (`4.4` or `4.4.0`).
    ///
    /// # Errors
    /// A release whose latest `metadata.version` is not known here (a usage error).
    pub fn of(release: &str) -> Result<SoftwareTarget, String> {
        let level = upgrade::release_level(release).ok_or_else(|| {
            format!(
                "--to {release:?}: not a Kafka release known here (known: {}); nothing was \
                 changed",
                upgrade::known_releases().join(", ")
            )
        })?;
        let mut parts = release.trim().split('.');
        let release = format!(
            "{}.{}",
            parts.next().unwrap_or_default(),
            parts.next().unwrap_or_default()
        );
        Ok(SoftwareTarget { release, level })
    }
}

/// The engine's requests of a roll onto `target`: each node not on it, with its "software
/// version" restart reason and the level it must report after its restart (nodes the snapshot
/// does not have are left out).
///
/// # Errors
/// The nodes cannot be asked (read), or the cluster finalized a level the target's software
/// does not support (a refusal: nothing is changed).
pub async fn software_requests(
    client: &KafkaClient,
    snapshot: &ClusterSnapshot,
    target: &SoftwareTarget,
) -> Result<BTreeMap<NodeId, NodeRequest>, PrepareError> {
    let finalized = client
        .finalized_features()
        .await
        .context("cannot read the finalized feature levels")
        .map_err(PrepareError::Read)?;
    let nodes = client
        .node_features()
        .await
        .context("cannot read the nodes' supported feature levels")
        .map_err(PrepareError::Read)?;
    let view = crate::kafka::kraft::upgrade_view(&finalized, &nodes);
    let reasons = upgrade::software_reasons(&view, &target.release, target.level).map_err(|e| {
        PrepareError::Read(
            anyhow::Error::from(Classified::wrap(FailureKind::Failed, e))
                .context("nothing was changed"),
        )
    })?;
    Ok(reasons
        .into_iter()
        .filter(|(id, _)| snapshot.node(*id).is_some())
        .map(|(id, reason)| {
            (
                id,
                NodeRequest {
                    restart_reasons: vec![reason],
                    desired_config: BTreeMap::new(),
                    expected_software: Some(target.level),
                },
            )
        })
        .collect())
}

/// The cluster as the roll found it.
pub struct Prepared {
    /// The client the roll observes with (the brokers seen now stay in later observations).
    pub client: KafkaClient,
    pub observation: KafkaObservation,
    pub platform: AnyPlatform,
    pub witness: RestartWitness,
    pub snapshot: ClusterSnapshot,
    /// The engine's requests, with the pods' own restart reasons.
    pub requests: BTreeMap<NodeId, NodeRequest>,
}

/// Why the cluster could not be looked at, or the ask fits it not.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// The cluster or its platform cannot be read.
    #[error(transparent)]
    Read(anyhow::Error),
    /// A broker-state list (`ID=URL,...`) without an entry for a broker (a usage error).
    #[error(
        "the broker-state list ({}) has no URL for broker(s) {}; add an entry ID=URL for each \
         broker or use a template with {{host}} or {{id}}; nothing was changed",
        crate::kafka::config::BROKER_STATE_URL,
        .0.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    )]
    BrokerStateList(Vec<i32>),
    /// The selection names nothing the roll could do (a usage error).
    #[error(transparent)]
    Requests(#[from] RequestError),
}

/// Observes the cluster for a roll on `target` asked `ask`.
///
/// # Errors
/// See [`PrepareError`].
pub async fn prepare(
    client: &KafkaClient,
    target: &Target<'_>,
    ask: &Ask<'_>,
) -> Result<Prepared, PrepareError> {
    let needed_only = ask.preview && ask.desired.is_empty() && ask.software.is_none();
    if needed_only {
        client.read_broker_configs(BrokerConfigReads::Needed);
    }
    let observed = client.observe().await;
    // Any later observation with this client reads every broker's configs again.
    client.read_broker_configs(BrokerConfigReads::Every);
    let mut observation = observed
        .context("cannot observe the cluster")
        .map_err(PrepareError::Read)?;
    check_broker_state_list(client.config().broker_state_url.as_deref(), &observation)?;
    // Brokers that stop during the roll must stay in later observations.
    let client = with_known_brokers(client, &observation);
    let pods = target
        .pods
        .map(|(conn, sel)| KubePlatform::new(conn.clone(), sel.clone(), target.command_timeout));
    let platform = platform(
        pods.as_ref(),
        target.method,
        &observation,
        target.command_timeout,
    )
    .unwrap_or_else(|| {
        AnyPlatform::Process(ProcessPlatform::status_only(
            platform_nodes(&observation),
            target.command_timeout,
        ))
    });
    // The pods' own restart reasons (annotated, stuck, old revision), read before the first
    // observation so that stuck pods already read as not running.
    let reasons = match &platform {
        AnyPlatform::Kube(k) => pod_reasons(k).await.map_err(read)?,
        AnyPlatform::Process(_) => BTreeMap::new(),
    };
    let (snapshot, witness) = observe_nodes(&platform, &mut observation)
        .await
        .map_err(read)?;
    let requests = if let Some(target) = ask.software {
        software_requests(&client, &snapshot, target).await?
    } else if ask.selection.is_none() && ask.desired.is_empty() {
        // Kubernetes without a selection: the pods Kubernetes gives a reason for.
        BTreeMap::new()
    } else {
        requests(&snapshot, ask.selection, ask.desired)?
    };
    let requests = with_platform_reasons(requests, &snapshot, &reasons);
    Ok(Prepared {
        client,
        observation,
        platform,
        witness,
        snapshot,
        requests,
    })
}

fn read(e: crate::platform::PlatformError) -> PrepareError {
    PrepareError::Read(e.into())
}

/// A broker-state list (`ID=URL,...`) must cover every broker: a broker without an entry
/// would read UNKNOWN and be restarted, then waited for until the roll times out.
///
/// # Errors
/// [`PrepareError::BrokerStateList`] with the brokers it misses.
pub fn check_broker_state_list(
    setting: Option<&str>,
    observation: &KafkaObservation,
) -> Result<(), PrepareError> {
    let Some(setting) = setting else {
        return Ok(());
    };
    let brokers = observation
        .nodes
        .iter()
        .filter(|n| n.roles.broker)
        .map(|n| n.id);
    let missing = missing_broker_state_ids(setting, brokers);
    if missing.is_empty() {
        return Ok(());
    }
    Err(PrepareError::BrokerStateList(missing))
}
