//! `topic set-rf`'s use case: replication-factor changes through Cruise Control, in rounds,
//! resumable (moved out of `commands::topic`, issue #24's layering: the command resolves its
//! arguments, calls this and renders).
//!
//! [`prepare`] reads the topics and brokers from Kafka, has the engine check the input and
//! adopts what an earlier run left unfinished (the state file, [`StateFile`]); [`dry_run`] asks
//! Cruise Control for the proposal; [`execute`] runs the shared Cruise Control flow
//! ([`crate::driver::cc_flow`]) once per round with every pending topic in one
//! `topic_configuration` request. A round that finds Cruise Control busy leaves the changes
//! pending and retries after the poll interval until the timeout; a task Cruise Control forgot
//! (restart) is sent again for the topics that have not reached their target. After every round
//! the real factors are read back from Kafka. Between steps the state is written atomically, so
//! re-running the same command after an interruption (or `--no-wait`) follows the task it
//! started instead of starting over. The command's side of the flow (prompts, progress) comes in
//! as [`FlowHooks`]; what people should know goes through a [`Reporter`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Serialize;

use super::{OntoHeld, RoundOptions, TouchedTopic, groups, onto_held, touched_topics};
use crate::app::Reporter;
use crate::app::clients::CcOptions;
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::TopicConfigurationRequest;
use crate::cruise_control::{CcError, CruiseControlClient, Observer};
use crate::driver::cc_flow::{self as flow, FlowHooks};
use crate::engine::cc_flow::{CcFlow, FlowConfig, Outcome};
use crate::engine::failure::{Classified, FailureKind};
use crate::engine::model::NodeId;
use crate::engine::replicas::{
    ChangeState, ClusterFacts, ReplicasState, TopicChange, TopicFacts, validate,
};
use crate::kafka::{KafkaAdmin, KafkaClient};
use crate::settings::Settings;

mod hold_guard;
mod rounds;
mod state_file;

pub use rounds::execute;
pub use state_file::{STATE_FILE, StateFile, load_state, save_state};

/// The brokers, racks and the named topics' factors, from Kafka.
///
/// # Errors
/// Kafka cannot be asked.
pub async fn observe(
    kafka: &KafkaClient,
    topics: &BTreeSet<String>,
) -> anyhow::Result<(Option<String>, ClusterFacts)> {
    let cluster = kafka
        .describe_cluster()
        .await
        .context("cannot describe the Kafka cluster")?;
    let existing: BTreeSet<String> = kafka
        .list_topics()
        .await
        .context("cannot list topics")?
        .into_iter()
        .collect();
    let names: Vec<String> = topics.intersection(&existing).cloned().collect();
    let mut facts = ClusterFacts {
        brokers: cluster.nodes.len(),
        racks: cluster
            .nodes
            .iter()
            .filter_map(|n| n.rack.clone())
            .collect(),
        topics: BTreeMap::new(),
    };
    if names.is_empty() {
        return Ok((cluster.cluster_id, facts));
    }
    let described = kafka
        .describe_topics(names.clone())
        .await
        .context("cannot describe topics")?;
    let min_isr = kafka
        .min_insync_replicas(names)
        .await
        .context("cannot read min.insync.replicas")?;
    for t in described {
        let counts: Vec<u16> = t
            .partitions
            .iter()
            .map(|p| u16::try_from(p.replicas.len()).unwrap_or(u16::MAX))
            .collect();
        facts.topics.insert(
            t.name.clone(),
            TopicFacts {
                partitions: u32::try_from(t.partitions.len()).unwrap_or(u32::MAX),
                min_rf: counts.iter().copied().min().unwrap_or(0),
                max_rf: counts.iter().copied().max().unwrap_or(0),
                min_isr: min_isr.get(&t.name).and_then(|v| u32::try_from(*v).ok()),
            },
        );
    }
    Ok((cluster.cluster_id, facts))
}

/// Cruise Control's proposal, as `topic set-rf` reports it.
#[derive(Debug, Clone, Serialize)]
pub struct ProposalSummary {
    pub replica_movements: u64,
    pub leader_movements: u64,
    pub data_to_move_mb: Option<f64>,
    /// Every topic the proposal touches, the named ones first (`named: false`: Cruise Control
    /// moves it too, e.g. other topics' leaders); empty when Cruise Control listed no movements.
    pub topics: Vec<TouchedTopic>,
    /// Held nodes (issue 29) the proposal places new replicas on; such a proposal is never
    /// executed.
    pub onto_held: Vec<OntoHeld>,
}

/// The summary of a proposal, with every topic it touches (pure).
#[must_use]
pub fn summary(r: &OptimizationResult, named: &BTreeSet<String>) -> ProposalSummary {
    ProposalSummary {
        replica_movements: r.summary.num_replica_movements,
        leader_movements: r.summary.num_leader_movements,
        data_to_move_mb: r.summary.data_to_move_mb,
        topics: touched_topics(&r.proposals, named),
        onto_held: Vec::new(),
    }
}

/// What a `topic set-rf` run is asked to do (clap-free: the command resolves it).
#[derive(Debug, Clone)]
#[allow(clippy::struct_excessive_bools)]
pub struct SetRfSpec {
    /// Topic -> target factor.
    pub wanted: BTreeMap<String, u16>,
    pub execute: bool,
    pub no_wait: bool,
    /// Confirmed beforehand (`--yes`).
    pub assume_yes: bool,
    pub allow_below_min_isr: bool,
    pub timeout: Duration,
    pub poll_interval: Duration,
    pub wait_for_ready: Duration,
    pub options: RoundOptions,
    /// The state file (`topic-set-rf.json` in the state directory).
    pub state_file: PathBuf,
}

/// What [`prepare`] found: the cluster's facts and the changes to make, resumed from the state
/// file where an earlier run left them unfinished.
#[derive(Debug)]
pub struct Prepared {
    pub names: BTreeSet<String>,
    pub facts: ClusterFacts,
    pub state: ReplicasState,
    /// The holds that count (issue 29): no new replica may land on these nodes.
    pub held: BTreeMap<NodeId, String>,
    saved_flow: Option<CcFlow>,
    /// Unfinished changes of other topics in the state file, kept as they are.
    others: BTreeMap<String, TopicChange>,
}

/// How a run ended: the changes (for the view), the proposal, whether it was only submitted
/// (`--no-wait`: `Some(task)`), and the error that ended it early.
#[derive(Debug)]
pub struct SetRfRun<E> {
    pub state: ReplicasState,
    pub proposal: Option<ProposalSummary>,
    pub submitted: Option<Option<String>>,
    pub error: Option<E>,
}

impl<E> SetRfRun<E> {
    /// The topics that did not reach their target (`topic: message`), for the exit-7 message.
    #[must_use]
    pub fn failed(&self) -> Vec<String> {
        self.state
            .changes
            .iter()
            .filter(|(_, c)| c.state == ChangeState::Failed)
            .map(|(t, c)| format!("{t}: {}", c.message.clone().unwrap_or_default()))
            .collect()
    }
}

/// Reads the cluster, checks the input and adopts the state file's unfinished changes of the
/// same topics (unfinished changes of other topics stay in the file untouched).
///
/// # Errors
/// Kafka cannot be asked, the input is refused, or the state file holds another cluster's
/// unfinished changes ([`FailureKind::Invalid`]).
pub async fn prepare(kafka: &KafkaClient, spec: &SetRfSpec) -> anyhow::Result<Prepared> {
    let wanted = &spec.wanted;
    let names: BTreeSet<String> = wanted.keys().cloned().collect();
    let (cluster_id, facts) = observe(kafka, &names).await?;
    validate(wanted, &facts, spec.allow_below_min_isr)
        .map_err(|e| Classified::wrap(FailureKind::Invalid, e))?;
    let held = crate::app::hold::active_now(kafka).await?;
    let path = &spec.state_file;
    let saved = load_state(path)?;
    let others: BTreeMap<String, TopicChange> = saved
        .as_ref()
        .filter(|s| s.replicas.cluster_id.is_none() || s.replicas.cluster_id == cluster_id)
        .map(|s| {
            s.replicas
                .changes
                .iter()
                .filter(|(t, c)| !wanted.contains_key(*t) && !c.state.is_final())
                .map(|(t, c)| (t.clone(), c.clone()))
                .collect()
        })
        .unwrap_or_default();
    let (state, saved_flow) = match saved {
        Some(s)
            if s.replicas.unfinished()
                && s.replicas.cluster_id.is_some()
                && cluster_id.is_some()
                && s.replicas.cluster_id != cluster_id =>
        {
            return Err(Classified::new(
                FailureKind::Invalid,
                format!(
                    "the state file {} holds unfinished changes of another cluster ({}); finish them there or move the file away",
                    path.display(),
                    s.replicas.cluster_id.unwrap_or_default()
                ),
            )
            .into());
        }
        // A dry run reads the file too (ongoing topics are not proposed again) but never writes it.
        Some(mut s) => {
            s.replicas.cluster_id.clone_from(&cluster_id);
            s.replicas.adopt(wanted, &facts);
            (s.replicas, s.flow)
        }
        _ => (ReplicasState::plan(cluster_id, wanted, &facts), None),
    };
    Ok(Prepared {
        names,
        facts,
        state,
        held,
        saved_flow,
        others,
    })
}

/// The request every round sends (its `by_factor` filled per round): see
/// [`super::base_request`].
fn base_request(spec: &SetRfSpec, facts: &ClusterFacts) -> TopicConfigurationRequest {
    super::base_request(&spec.options, !facts.racks.is_empty())
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn flow_config(spec: &SetRfSpec, confirmed: bool, timeout: Duration) -> FlowConfig {
    FlowConfig {
        execute: spec.execute,
        assume_yes: confirmed,
        no_wait: spec.no_wait,
        timeout_ms: millis(timeout),
        wait_for_ready_ms: millis(spec.wait_for_ready),
        poll_interval_ms: millis(spec.poll_interval),
        recheck: false,
        follow_timeout_ms: None,
    }
}

/// The dry run: Cruise Control's proposal for what is not at its target yet. Nothing is written.
///
/// # Errors
/// The flow ended other than with a proposal (or nothing to do).
pub async fn dry_run<H: FlowHooks>(
    cc: &CruiseControlClient,
    prepared: Prepared,
    spec: &SetRfSpec,
    hooks: &H,
    obs: &dyn Observer,
) -> Result<SetRfRun<H::Error>, H::Error> {
    let mut request = base_request(spec, &prepared.facts);
    request.by_factor = groups(&prepared.state);
    let mut proposal = None;
    if !request.by_factor.is_empty() {
        let config = flow_config(spec, spec.assume_yes, spec.timeout);
        let report = flow::run(cc, &request, config, hooks, obs, std::future::pending()).await;
        if let Some(p) = &report.proposal {
            let mut s = summary(&p.value, &prepared.names);
            s.onto_held = onto_held(&p.value.proposals, &prepared.held);
            proposal = Some(s);
        }
        if report.outcome != Outcome::Proposed && report.outcome != Outcome::NothingToDo {
            return Err(report.error.unwrap_or_else(|| {
                H::Error::from(Classified::new(
                    FailureKind::Failed,
                    format!("{:?}", report.outcome),
                ))
            }));
        }
    }
    Ok(SetRfRun {
        state: prepared.state,
        proposal,
        submitted: None,
        error: None,
    })
}

/// `topic status`'s refresh: unfinished topics are re-read from Kafka (done when at their target)
/// and ongoing tasks looked up in Cruise Control's `user_tasks`, when those are configured.
/// Nothing is sent; what cannot be refreshed is reported.
pub async fn refresh(
    settings: &Settings,
    timeout: Duration,
    reporter: &dyn Reporter,
    obs: &dyn Observer,
    state: &mut ReplicasState,
) {
    if settings.kafka.bootstrap_servers.is_some() {
        let names: BTreeSet<String> = state.changes.keys().cloned().collect();
        let read = async {
            let kafka = crate::app::clients::kafka(&settings.kafka, timeout, None).await?;
            observe(&kafka, &names).await
        };
        match read.await {
            Ok((_, facts)) => state.observe(&facts),
            Err(e) => reporter.note(&format!("Not refreshed from Kafka: {e:#}")),
        }
    }
    let ongoing = state.ongoing_tasks();
    if ongoing.is_empty() || settings.cruise_control.url.is_none() {
        return;
    }
    let cc =
        match crate::app::clients::cruise_control(&settings.cruise_control, CcOptions::default()) {
            Ok(cc) => cc,
            Err(e) => {
                reporter.note(&format!("Not refreshed from Cruise Control: {e}"));
                return;
            }
        };
    let deadline = Instant::now() + timeout;
    for task in ongoing {
        let message = match cc.user_task(&task, deadline, obs).await {
            Ok(t) => format!("Cruise Control task status: {:?}", t.status),
            Err(CcError::TaskLost { .. }) => {
                "Cruise Control no longer knows the task (restarted?); re-run the command to send the change again".to_string()
            }
            Err(e) => {
                reporter.note(&format!("Not refreshed from Cruise Control: {e}"));
                return;
            }
        };
        for c in state.changes.values_mut() {
            if c.state == ChangeState::Ongoing && c.task_id.as_deref() == Some(task.as_str()) {
                c.message = Some(message.clone());
            }
        }
    }
}
