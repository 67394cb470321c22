//! The KRaft lifecycle use cases (issue #28): the controller quorum's status and membership
//! changes (KIP-853), the static-to-dynamic migration, ghost broker registrations (KIP-1073)
//! and the finalization of a software upgrade's feature levels.
//!
//! Why here: `quorum`, `broker list|unregister` and `upgrade` on the command line and, later,
//! `operate` make the same changes with the same checks. Each change is two calls: a
//! pre-flight that reads the cluster and returns what the engine decided (the command shows it
//! and asks), then the change, which reads the cluster again, re-checks, acts and waits until
//! Kafka shows the result. The decisions are [`crate::engine::kraft`]'s; the requests are the
//! Kafka adapter's ([`crate::kafka::kraft`], whose module docs record the RPCs and versions).
//!
//! Whether a node's process runs is told by one TCP connect to its registered listener
//! ([`crate::kafka::kraft::listener_accepts`]): refused means gone, no answer means unknown.
//!
//! Refusals travel as [`Classified`] errors with the engine's failure class, so the edge maps
//! them to the README's exit codes.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde::Serialize;

use super::Reporter;
use crate::engine::failure::{Classified, FailureKind};
use crate::engine::kraft::ghosts::{self, BrokerListing, GhostView, UnregisterRefusal};
use crate::engine::kraft::quorum::{
    self, AddVoter, Limits, NodeSupport, QuorumRefusal, QuorumStatus, QuorumView, RemoveVoter,
    Verdict,
};
use crate::engine::kraft::upgrade::{self, FeatureSummary, LevelChange, NodeSoftware};
use crate::engine::kraft::{KRAFT_VERSION, METADATA_VERSION};
use crate::engine::model::NodeId;
use crate::kafka::client::ClusterObserver;
use crate::kafka::kraft::{
    FeatureUpdate, NodeFeatureAnswer, UpgradeKind, finalized_kraft_version, listener_accepts,
};
use crate::kafka::observation::RawQuorum;
use crate::kafka::{KafkaClient, KafkaError};

/// How long one TCP probe of a node's listener may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// How often a wait reads the cluster again.
const POLL: Duration = Duration::from_millis(500);

/// The quorum as read now: Kafka's answer, the engine's view of it and its verdict.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct QuorumSnapshot {
    #[serde(skip)]
    pub raw: RawQuorum,
    #[serde(skip)]
    pub view: QuorumView,
    #[serde(flatten)]
    pub status: QuorumStatus,
}

/// Which of `addresses` (node id -> `host:port`) accept connections.
async fn running(addresses: &BTreeMap<i32, String>) -> BTreeMap<i32, bool> {
    let mut out = BTreeMap::new();
    for (id, address) in addresses {
        if let Some(up) = listener_accepts(address, PROBE_TIMEOUT).await {
            out.insert(*id, up);
        }
    }
    out
}

/// The known controllers and their controller listeners: the registered controllers (with
/// `bootstrap.controllers`), else the voters DescribeQuorum lists.
async fn controllers(
    kafka: &KafkaClient,
    raw: &RawQuorum,
) -> anyhow::Result<BTreeMap<i32, String>> {
    if kafka.config().controller_addresses().is_empty() {
        return Ok(raw
            .voter_endpoints
            .iter()
            .filter_map(|(id, e)| e.first().map(|e| (*id, format!("{}:{}", e.host, e.port))))
            .collect());
    }
    Ok(kafka
        .registered_controllers()
        .await?
        .into_iter()
        .map(|(id, (host, port))| (id, format!("{host}:{port}")))
        .collect())
}

/// Reads the quorum: DescribeQuorum, the finalized `kraft.version`, the controllers, and
/// whether each controller's process runs.
///
/// # Errors
/// Kafka cannot be asked.
pub async fn quorum(kafka: &KafkaClient, limits: &Limits) -> anyhow::Result<QuorumSnapshot> {
    let raw = kafka.describe_quorum().await?;
    let features = kafka.finalized_features().await?;
    let controllers = controllers(kafka, &raw).await?;
    let up = running(&controllers).await;
    let ids: BTreeSet<i32> = controllers.keys().copied().collect();
    let view =
        crate::kafka::kraft::quorum_view(&raw, finalized_kraft_version(&features), &ids, &up);
    let status = quorum::status(&view, limits);
    Ok(QuorumSnapshot { raw, view, status })
}

/// The failure class of a `quorum status` verdict: healthy is success, a lagging voter or an
/// unknown state (no leader yet) may pass by waiting, no caught-up majority is a failure.
#[must_use]
pub fn verdict_kind(verdict: &Verdict) -> FailureKind {
    match verdict {
        Verdict::Healthy => FailureKind::NoOp,
        Verdict::VoterLagging { .. } | Verdict::Unknown { .. } => FailureKind::NotReady,
        Verdict::NoCaughtUpMajority { .. } => FailureKind::Failed,
    }
}

fn refused(e: QuorumRefusal) -> anyhow::Error {
    let kind = e.failure_kind();
    Classified::wrap(kind, e).into()
}

/// Kafka's answer to an AddRaftVoter/RemoveRaftVoter sent while its previous voter change is
/// not committed yet (REQUEST_TIMED_OUT, "... previous voter change ..." / "... latest voter
/// change ..."): the change the pre-flight could not see (DescribeQuorum does not show an
/// AddRaftVoter the leader is still checking), refused as busy, nothing changed.
fn voter_change_answer(e: KafkaError) -> anyhow::Error {
    match &e {
        KafkaError::Api { name, message, .. }
            if name == "REQUEST_TIMED_OUT"
                && message
                    .as_deref()
                    .is_some_and(|m| m.contains("voter change")) =>
        {
            refused(QuorumRefusal::ChangeInProgress {
                reason: format!("Kafka: {}", message.as_deref().unwrap_or_default()),
            })
        }
        _ => e.into(),
    }
}

/// Waits until `check` passes on a fresh snapshot, as long as its refusal may pass by waiting
/// and `wait` allows; returns the snapshot and the check's answer.
async fn wait_until<T>(
    kafka: &KafkaClient,
    limits: &Limits,
    wait: Duration,
    what: &str,
    reporter: &dyn Reporter,
    check: impl Fn(&QuorumView) -> Result<T, QuorumRefusal>,
) -> anyhow::Result<(QuorumSnapshot, T)> {
    let deadline = tokio::time::Instant::now() + wait;
    let mut said = false;
    loop {
        let snap = quorum(kafka, limits).await?;
        match check(&snap.view) {
            Ok(t) => return Ok((snap, t)),
            Err(e) if !e.retryable() => return Err(refused(e)),
            Err(e) => {
                if tokio::time::Instant::now() >= deadline {
                    return Err(Classified::new(
                        FailureKind::TimedOut,
                        format!("{what}: still refused after {wait:?}: {e}; nothing was changed"),
                    )
                    .into());
                }
                if !said {
                    reporter.note(&format!("{what}: waiting (up to {wait:?}): {e}"));
                    said = true;
                }
                tokio::time::sleep(POLL).await;
            }
        }
    }
}

/// Waits until `done` holds on a fresh snapshot, else a timeout naming `what`.
async fn wait_for_state(
    kafka: &KafkaClient,
    limits: &Limits,
    wait: Duration,
    what: &str,
    done: impl Fn(&QuorumSnapshot) -> bool,
) -> anyhow::Result<QuorumSnapshot> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let snap = quorum(kafka, limits).await;
        match snap {
            Ok(s) if done(&s) => return Ok(s),
            Ok(_) | Err(_) if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(POLL).await;
            }
            Ok(s) => {
                return Err(Classified::new(
                    FailureKind::TimedOut,
                    format!(
                        "{what}: not seen within {wait:?}; the quorum now: leader {:?}, voters {:?}",
                        s.status.leader,
                        s.status.voters.iter().map(|v| v.id).collect::<Vec<_>>()
                    ),
                )
                .into());
            }
            Err(e) => return Err(e.context(format!("{what}: cannot read the quorum"))),
        }
    }
}

/// The add pre-flight: the quorum now and the engine's answer (a retryable refusal means the
/// change waits for it to pass).
///
/// # Errors
/// Kafka cannot be asked.
pub async fn add_preflight(
    kafka: &KafkaClient,
    node: NodeId,
    limits: &Limits,
) -> anyhow::Result<(QuorumSnapshot, Result<AddVoter, QuorumRefusal>)> {
    let snap = quorum(kafka, limits).await?;
    let answer = quorum::check_add(&snap.view, node, limits);
    Ok((snap, answer))
}

/// Adds controller `node` to the voters: waits (up to `wait`) until the engine allows it (the
/// observer has caught up), sends AddRaftVoter with the node's own advertised controller
/// listeners, then waits until it is a voter and the quorum is healthy.
///
/// # Errors
/// A refusal (classified), a timeout, or a Kafka error.
pub async fn add(
    kafka: &KafkaClient,
    node: NodeId,
    limits: &Limits,
    wait: Duration,
    reporter: &dyn Reporter,
) -> anyhow::Result<QuorumSnapshot> {
    let (_, add) = wait_until(
        kafka,
        limits,
        wait,
        &format!("adding controller {node}"),
        reporter,
        |v| quorum::check_add(v, node, limits),
    )
    .await?;
    let endpoints = kafka.controller_endpoints(node.0).await?;
    reporter.note(&format!(
        "AddRaftVoter {node} (directory {}, {})",
        add.directory_id,
        endpoints
            .iter()
            .map(|e| format!("{}://{}:{}", e.name, e.host, e.port))
            .collect::<Vec<_>>()
            .join(",")
    ));
    kafka
        .add_raft_voter(node.0, &add.directory_id, &endpoints)
        .await
        .map_err(voter_change_answer)?;
    wait_for_state(
        kafka,
        limits,
        wait,
        &format!("controller {node} a caught-up voter"),
        |s| {
            s.status.voters.iter().any(|v| v.id == node && v.caught_up)
                && s.status.verdict == Verdict::Healthy
        },
    )
    .await
}

/// The remove pre-flight.
///
/// # Errors
/// Kafka cannot be asked.
pub async fn remove_preflight(
    kafka: &KafkaClient,
    node: NodeId,
    limits: &Limits,
) -> anyhow::Result<(QuorumSnapshot, Result<RemoveVoter, QuorumRefusal>)> {
    let snap = quorum(kafka, limits).await?;
    let answer = quorum::check_remove(&snap.view, node, limits);
    Ok((snap, answer))
}

/// Removes voter `node`: checks again on a fresh read (a refusal changes nothing), sends
/// RemoveRaftVoter, then waits until it is no longer a voter and the others are healthy.
///
/// # Errors
/// A refusal (classified), a timeout, or a Kafka error.
pub async fn remove(
    kafka: &KafkaClient,
    node: NodeId,
    limits: &Limits,
    wait: Duration,
    reporter: &dyn Reporter,
) -> anyhow::Result<QuorumSnapshot> {
    let snap = quorum(kafka, limits).await?;
    let remove = quorum::check_remove(&snap.view, node, limits).map_err(refused)?;
    reporter.note(&format!(
        "RemoveRaftVoter {node} (directory {})",
        remove.directory_id
    ));
    kafka
        .remove_raft_voter(node.0, &remove.directory_id)
        .await
        .map_err(voter_change_answer)?;
    wait_for_state(
        kafka,
        limits,
        wait,
        &format!("controller {node} no longer a voter"),
        |s| !s.status.voters.iter().any(|v| v.id == node) && s.status.verdict == Verdict::Healthy,
    )
    .await
}

/// Every node's supported features in the engine's form (an unreachable node with the reason).
fn support(nodes: &BTreeMap<i32, NodeFeatureAnswer>) -> NodeSupport {
    crate::kafka::kraft::upgrade_view(&Default::default(), nodes).nodes
}

/// The migrate pre-flight: the quorum, every node's features, the engine's answer.
///
/// # Errors
/// Kafka cannot be asked.
pub async fn migrate_preflight(
    kafka: &KafkaClient,
    limits: &Limits,
) -> anyhow::Result<(QuorumSnapshot, Result<i16, QuorumRefusal>)> {
    let snap = quorum(kafka, limits).await?;
    let nodes = kafka.node_features().await?;
    let answer = quorum::check_migrate(&snap.view, &support(&nodes), limits);
    Ok((snap, answer))
}

/// Turns a static quorum dynamic: checks again, upgrades `kraft.version` to 1
/// (UpdateFeatures), then waits until every node reports it finalized.
///
/// # Errors
/// A refusal (classified), a timeout, or a Kafka error.
pub async fn migrate(
    kafka: &KafkaClient,
    limits: &Limits,
    wait: Duration,
    reporter: &dyn Reporter,
) -> anyhow::Result<QuorumSnapshot> {
    let (_, answer) = migrate_preflight(kafka, limits).await?;
    let level = answer.map_err(refused)?;
    reporter.note(&format!("UpdateFeatures {KRAFT_VERSION}={level}"));
    let update = [FeatureUpdate {
        feature: KRAFT_VERSION.into(),
        level,
        kind: UpgradeKind::Upgrade,
    }];
    // The leader upgrades only once every voter has told it (UpdateRaftVoter, sent by each
    // voter from time to time, also under kraft.version 0 since Kafka 4.1) which kraft.version
    // its software supports; until then Kafka refuses with INVALID_UPDATE_VERSION "not all of
    // the voters support it". That passes by waiting, so it is retried within `wait`.
    let deadline = tokio::time::Instant::now() + wait;
    let mut said = false;
    loop {
        match kafka.update_features(&update, false).await {
            Ok(()) => break,
            Err(KafkaError::Api { name, message, .. })
                if name == "INVALID_UPDATE_VERSION"
                    && message.as_deref().is_some_and(|m| m.contains("voters"))
                    && tokio::time::Instant::now() < deadline =>
            {
                if !said {
                    reporter.note(&format!(
                        "Kafka: {}; waiting (up to {wait:?}) for every voter to report its \
                         supported kraft.version to the leader",
                        message.unwrap_or_default()
                    ));
                    said = true;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
    wait_finalized(kafka, KRAFT_VERSION, level, wait).await?;
    quorum(kafka, limits).await
}

/// Waits until every node reports `feature` finalized at `level` (ApiVersions).
async fn wait_finalized(
    kafka: &KafkaClient,
    feature: &str,
    level: i16,
    wait: Duration,
) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let nodes = kafka.node_features().await?;
        let behind: Vec<i32> = nodes
            .iter()
            .filter(|(_, a)| {
                a.features.as_ref().map_or(true, |f| {
                    let got = if feature == KRAFT_VERSION {
                        finalized_kraft_version(f)
                    } else {
                        f.finalized.get(feature).copied()
                    };
                    got != Some(level)
                })
            })
            .map(|(id, _)| *id)
            .collect();
        if behind.is_empty() {
            return Ok(());
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(Classified::new(
                FailureKind::TimedOut,
                format!(
                    "{feature} {level} was accepted but node(s) {behind:?} do not report it \
                     finalized after {wait:?}"
                ),
            )
            .into());
        }
        tokio::time::sleep(POLL).await;
    }
}

/// The registered brokers and what points at them.
///
/// # Errors
/// Kafka cannot be asked.
pub async fn ghost_view(kafka: &KafkaClient) -> anyhow::Result<GhostView> {
    let brokers = kafka.registered_brokers().await?;
    let addresses: BTreeMap<i32, String> = brokers
        .iter()
        .map(|b| (b.id, format!("{}:{}", b.host, b.port)))
        .collect();
    let up = running(&addresses).await;
    let observation = kafka.observe().await?;
    let moving = kafka.list_reassignments().await?;
    let voters = kafka
        .describe_quorum()
        .await?
        .voters
        .iter()
        .map(|v| NodeId(v.id))
        .collect();
    let (registrations, partitions) =
        crate::kafka::kraft::ghost_registrations(&brokers, &up, &observation.topics, &moving);
    Ok(GhostView {
        registrations,
        partitions,
        voters,
    })
}

/// `broker list`: every registered broker, fenced ones included.
///
/// # Errors
/// Kafka cannot be asked.
pub async fn brokers(kafka: &KafkaClient) -> anyhow::Result<Vec<BrokerListing>> {
    Ok(ghosts::list(&ghost_view(kafka).await?))
}

/// The unregister pre-flight: each broker's answer.
///
/// # Errors
/// Kafka cannot be asked.
pub async fn unregister_preflight(
    kafka: &KafkaClient,
    brokers: &[NodeId],
) -> anyhow::Result<Vec<(NodeId, Result<(), UnregisterRefusal>)>> {
    let view = ghost_view(kafka).await?;
    Ok(brokers
        .iter()
        .map(|b| (*b, ghosts::check_unregister(&view, *b)))
        .collect())
}

/// The first refusal of a pre-flight, as a classified error.
#[must_use]
pub fn first_unregister_refusal(
    answers: &[(NodeId, Result<(), UnregisterRefusal>)],
) -> Option<anyhow::Error> {
    answers.iter().find_map(|(_, a)| {
        a.as_ref()
            .err()
            .map(|e| anyhow::Error::from(Classified::wrap(e.failure_kind(), e.clone())))
    })
}

/// Unregisters `brokers` (UnregisterBroker): checks all of them again first (one refusal:
/// nothing is changed), then waits until none is registered.
///
/// # Errors
/// A refusal (classified), a timeout, or a Kafka error.
pub async fn unregister(
    kafka: &KafkaClient,
    brokers: &[NodeId],
    wait: Duration,
    reporter: &dyn Reporter,
) -> anyhow::Result<()> {
    let answers = unregister_preflight(kafka, brokers).await?;
    if let Some(e) = first_unregister_refusal(&answers) {
        return Err(e.context("nothing was changed"));
    }
    for b in brokers {
        reporter.note(&format!("UnregisterBroker {b}"));
        kafka.unregister_broker(b.0).await?;
    }
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let left: Vec<i32> = kafka
            .registered_brokers()
            .await?
            .iter()
            .filter(|r| brokers.contains(&NodeId(r.id)))
            .map(|r| r.id)
            .collect();
        if left.is_empty() {
            return Ok(());
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(Classified::new(
                FailureKind::TimedOut,
                format!("broker(s) {left:?} still registered after {wait:?}"),
            )
            .into());
        }
        tokio::time::sleep(POLL).await;
    }
}

/// The upgrade dry run: each node's software (from its supported `metadata.version`), each
/// feature's finalized level and the highest every node supports.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct UpgradePlan {
    pub nodes: Vec<NodeSoftware>,
    pub features: Vec<FeatureSummary>,
    /// What `--finalize` would change, or why it cannot now.
    #[serde(skip)]
    pub finalize: Result<Vec<LevelChange>, upgrade::FinalizeRefusal>,
    /// `finalize` for scripts: the changes, or `None` when refused.
    pub would_finalize: Option<Vec<LevelChange>>,
    pub refused: Option<String>,
}

/// Reads the upgrade view and checks `targets` (default: `metadata.version` at the highest
/// level every node supports).
///
/// # Errors
/// Kafka cannot be asked.
pub async fn upgrade_plan(
    kafka: &KafkaClient,
    targets: &BTreeMap<String, i16>,
) -> anyhow::Result<UpgradePlan> {
    let finalized = kafka.finalized_features().await?;
    let nodes = kafka.node_features().await?;
    let view = crate::kafka::kraft::upgrade_view(&finalized, &nodes);
    let (software, features) = upgrade::summary(&view);
    let mut targets = targets.clone();
    if targets.is_empty()
        && let Some(level) = upgrade::highest_common(&view, METADATA_VERSION)
    {
        targets.insert(METADATA_VERSION.into(), level);
    }
    let finalize = upgrade::check_finalize(&view, &targets);
    Ok(UpgradePlan {
        nodes: software,
        features,
        would_finalize: finalize.as_ref().ok().cloned(),
        refused: finalize.as_ref().err().map(ToString::to_string),
        finalize,
    })
}

/// Finalizes `targets`: checks again, validates with Kafka (validate-only), upgrades, then
/// waits until every node reports the new levels. Returns the changes made (none: already so).
///
/// # Errors
/// A refusal (classified), a timeout, or a Kafka error.
pub async fn finalize(
    kafka: &KafkaClient,
    targets: &BTreeMap<String, i16>,
    wait: Duration,
    reporter: &dyn Reporter,
) -> anyhow::Result<Vec<LevelChange>> {
    let plan = upgrade_plan(kafka, targets).await?;
    let changes = plan
        .finalize
        .map_err(|e| anyhow::Error::from(Classified::wrap(e.failure_kind(), e)))?;
    if changes.is_empty() {
        return Ok(changes);
    }
    // Not in the middle of a voter change: the controllers must all take the new levels.
    let snap = quorum(kafka, &Limits::default()).await?;
    quorum::change_in_progress(&snap.view).map_err(refused)?;
    let updates: Vec<FeatureUpdate> = changes
        .iter()
        .map(|c| FeatureUpdate {
            feature: c.feature.clone(),
            level: c.to,
            kind: UpgradeKind::Upgrade,
        })
        .collect();
    kafka.update_features(&updates, true).await?;
    for c in &changes {
        reporter.note(&format!("UpdateFeatures {}={}", c.feature, c.to));
    }
    kafka.update_features(&updates, false).await?;
    for c in &changes {
        wait_finalized(kafka, &c.feature, c.to, wait).await?;
    }
    Ok(changes)
}
