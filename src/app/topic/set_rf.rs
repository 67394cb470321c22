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
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::{
    OntoHeld, RoundOptions, TouchedTopic, groups, onto_held, onto_held_message, touched_topics,
};
use crate::app::Reporter;
use crate::app::clients::CcOptions;
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::TopicConfigurationRequest;
use crate::cruise_control::{CcError, CruiseControlClient, Observer};
use crate::driver::cc_flow::{self as flow, FlowDriver, FlowHooks};
use crate::engine::cc_flow::{CcFlow, FlowConfig, Outcome, Stage};
use crate::engine::failure::{Classified, FailureKind};
use crate::engine::model::NodeId;
use crate::engine::replicas::{
    ChangeState, ClusterFacts, ReplicasState, RoundEnd, TopicChange, TopicFacts, round_end,
    validate,
};
use crate::kafka::{KafkaAdmin, KafkaClient};
use crate::settings::Settings;

/// The state file's name inside the state directory.
pub const STATE_FILE: &str = "topic-set-rf.json";

/// What `topic-set-rf.json` holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct StateFile {
    pub version: u32,
    pub replicas: ReplicasState,
    /// The flow of the ongoing round (followed again when the command is re-run).
    pub flow: Option<CcFlow>,
}

/// Reads the state file (`None` when there is none).
///
/// # Errors
/// The file cannot be read or parsed ([`FailureKind::Invalid`]).
pub fn load_state(path: &Path) -> anyhow::Result<Option<StateFile>> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .with_context(|| {
                format!(
                    "the state file {} is not readable; move it away to start over",
                    path.display()
                )
            })
            .map_err(|e| Classified::new(FailureKind::Invalid, format!("{e:#}")).into()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Classified::new(
            FailureKind::Invalid,
            format!("cannot read the state file {}: {e}", path.display()),
        )
        .into()),
    }
}

/// Writes the state file atomically (temporary file, then rename).
pub fn save_state(path: &Path, state: &StateFile) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the state directory {}", dir.display()))?;
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_vec_pretty(state)?)
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

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

/// The change: rounds until every topic is at its target (or a round ends the run), the state
/// file written after every step.
///
/// # Errors
/// Kafka cannot be read back after a round.
#[allow(clippy::too_many_lines)]
pub async fn execute<H: FlowHooks>(
    kafka: &KafkaClient,
    cc: &CruiseControlClient,
    prepared: Prepared,
    spec: &SetRfSpec,
    hooks: &H,
    obs: &dyn Observer,
    reporter: &dyn Reporter,
) -> anyhow::Result<SetRfRun<H::Error>> {
    let Prepared {
        names,
        facts,
        mut state,
        held,
        mut saved_flow,
        others,
    } = prepared;
    let hooks = &HoldGuard {
        inner: hooks,
        held: &held,
        assume_yes: spec.assume_yes,
        confirmed: std::sync::atomic::AtomicBool::new(false),
    };
    let path = &spec.state_file;
    let base = base_request(spec, &facts);
    let started = Instant::now();
    let deadline = started + spec.timeout;
    let mut confirmed = spec.assume_yes;
    let mut proposal: Option<ProposalSummary> = None;

    // The flow of another topics' ongoing change, kept for that command's re-run.
    let ours = |f: &CcFlow| {
        f.task_id().is_some_and(|t| {
            state
                .changes
                .values()
                .any(|c| c.task_id.as_deref() == Some(t))
        })
    };
    let other_flow = saved_flow.clone().filter(|f| {
        f.task_id()
            .is_some_and(|t| others.values().any(|c| c.task_id.as_deref() == Some(t)))
            && !ours(f)
    });
    let save = |state: &ReplicasState, flow: Option<&CcFlow>| {
        let mut replicas = state.clone();
        for (t, c) in &others {
            replicas
                .changes
                .entry(t.clone())
                .or_insert_with(|| c.clone());
        }
        let file = StateFile {
            version: 1,
            replicas,
            flow: flow.or(other_flow.as_ref()).cloned(),
        };
        if let Err(e) = save_state(path, &file) {
            tracing::warn!("cannot save the state file: {e:#}");
        }
    };

    // An ongoing change whose flow was saved while following: follow it again.
    let resumable = saved_flow.take().filter(|f| {
        f.execution_started()
            && f.outcome().is_none()
            && f.task_id()
                .is_some_and(|t| state.ongoing_tasks().contains(t))
    });
    if resumable.is_none() && !state.ongoing_tasks().is_empty() {
        // The task of an ongoing change cannot be followed (saved mid-request): treat it
        // as forgotten; what is not at its target yet is sent again.
        state.handle_round(&RoundEnd::Lost, &facts);
    }
    save(&state, None);
    let mut resume = resumable;
    let mut final_error: Option<H::Error> = None;

    while state.unfinished() {
        let remaining = deadline.saturating_duration_since(Instant::now());
        let mut request = base.clone();
        request.by_factor = if resume.is_some() {
            BTreeMap::new()
        } else {
            groups(&state)
        };
        if resume.is_none() && request.by_factor.is_empty() {
            break;
        }
        // While a node is held every round's proposal is checked before it runs (HoldGuard's
        // confirm), so the confirmation step is never skipped.
        let config = flow_config(spec, confirmed && held.is_empty(), remaining);
        let resumed = resume.is_some();
        let state_cell = Mutex::new(&mut state);
        let after_step = |f: &CcFlow| {
            let mut s = state_cell.lock().unwrap_or_else(PoisonError::into_inner);
            // The moment Cruise Control accepted the execution, every pending topic of this
            // round is ongoing under its task (saved before anything else can happen).
            if f.execution_started() && !resumed && !s.to_send().is_empty() {
                s.handle_sent(f.task_id().map(str::to_string));
            }
            save(&s, f.outcome().is_none().then_some(f));
        };
        let interrupt = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        let report = match resume.take() {
            Some(f) => {
                // The hooks say "following" once Cruise Control shows it still knows the task
                // (a forgotten one is reported as such, not followed first).
                let driver = FlowDriver::resume(cc, &request, f, hooks, obs);
                flow::run_driver(driver, interrupt, after_step).await
            }
            None => {
                let driver = FlowDriver::new(cc, &request, config, hooks, obs);
                flow::run_driver(driver, interrupt, after_step).await
            }
        };
        if report.flow.confirmed() {
            confirmed = true;
        }
        // The dry run lists the movements (the execution's answer is not verbose): its topics
        // stay in the summary.
        if let Some(p) = report.proposal.as_ref() {
            let mut s = summary(&p.value, &names);
            s.onto_held = onto_held(&p.value.proposals, &held);
            proposal = Some(s);
        }
        if let Some(p) = report.execution.as_ref() {
            let topics = proposal.take().map(|p| p.topics).unwrap_or_default();
            let mut s = summary(&p.value, &names);
            if s.topics.is_empty() {
                s.topics = topics;
            }
            proposal = Some(s);
        }
        let end = match (round_end(&report.outcome), &report.outcome) {
            (Some(end), _) => end,
            (None, Outcome::Started { task_id }) => {
                // --no-wait: the change is with Cruise Control.
                state.handle_sent(task_id.clone());
                // Saved as following, so the next run of the same command follows this task.
                save(&state, Some(&reopen(report.flow.clone())));
                return Ok(SetRfRun {
                    state,
                    proposal,
                    submitted: Some(task_id.clone()),
                    error: None,
                });
            }
            (None, _) => {
                // Not ready, declined, interrupted, timed out, a failed request while following:
                // keep the state (a re-run resumes) and report.
                let keep = report.flow.execution_started()
                    && report.flow.outcome().is_some_and(|o| {
                        matches!(
                            o,
                            Outcome::Interrupted { .. }
                                | Outcome::TimedOut { .. }
                                | Outcome::Error {
                                    stage: Stage::Follow,
                                    ..
                                }
                        )
                    });
                if keep {
                    // Follow it again next time (the flow, re-opened as following).
                    save(&state, Some(&reopen(report.flow.clone())));
                } else {
                    save(&state, None);
                }
                final_error = report.error;
                break;
            }
        };
        let (_, after) = observe_settled(kafka, &names, &state, &end).await?;
        state.handle_round(&end, &after);
        save(&state, None);
        if let RoundEnd::Busy(why) = &end {
            if Instant::now() + spec.poll_interval >= deadline {
                final_error = Some(H::Error::from(Classified::new(
                    FailureKind::Busy,
                    format!(
                        "gave up after {} waiting in line: {why}; the change stays pending (re-run to retry)",
                        humantime::format_duration(Duration::from_secs(
                            started.elapsed().as_secs()
                        ))
                    ),
                )));
                break;
            }
            reporter.note(&format!(
                "The change waits in line (pending): {why}; retrying in {}",
                humantime::format_duration(spec.poll_interval)
            ));
            tokio::time::sleep(spec.poll_interval).await;
        } else if end == RoundEnd::Lost {
            reporter.note(
                "Cruise Control forgot the task (restarted?): sending what is not done yet again",
            );
        }
    }

    Ok(SetRfRun {
        state,
        proposal,
        submitted: None,
        error: final_error,
    })
}

/// A flow that stopped while its execution may still run, made resumable: the next run
/// follows the same task ([`CcFlow::follow_again`]).
fn reopen(mut flow: CcFlow) -> CcFlow {
    flow.follow_again();
    flow
}

/// Reads the factors back after a round; after a completion Kafka's metadata may trail
/// Cruise Control by a moment, so unfinished topics are re-read for a few seconds.
async fn observe_settled(
    kafka: &KafkaClient,
    names: &BTreeSet<String>,
    state: &ReplicasState,
    end: &RoundEnd,
) -> anyhow::Result<(Option<String>, ClusterFacts)> {
    let settle_until = Instant::now() + Duration::from_secs(10);
    loop {
        let (id, facts) = observe(kafka, names).await?;
        let settled = state.changes.iter().all(|(t, c)| {
            c.state.is_final() || facts.topics.get(t).is_some_and(|f| f.is_at(c.target))
        });
        if settled
            || !matches!(end, RoundEnd::Completed | RoundEnd::NothingToDo)
            || Instant::now() >= settle_until
        {
            return Ok((id, facts));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
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

/// The command's hooks, with the check that keeps new replicas off held nodes (issue 29):
/// `topic_configuration` takes no destination, so the dry-run proposal is checked before the
/// execution is asked for, and one that places a replica on a held node is refused
/// ([`FailureKind::Failed`], nothing sent). With holds the flow always reaches the confirmation
/// step; the person is asked once (not at all under `--yes`), the check runs every round.
struct HoldGuard<'a, H> {
    inner: &'a H,
    held: &'a BTreeMap<NodeId, String>,
    assume_yes: bool,
    confirmed: std::sync::atomic::AtomicBool,
}

impl<H: FlowHooks> FlowHooks for HoldGuard<'_, H> {
    type Error = H::Error;

    async fn check_input(
        &self,
        cc: &CruiseControlClient,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<Result<(), H::Error>, CcError> {
        self.inner.check_input(cc, deadline, obs).await
    }

    fn waiting_for_ready(&self, reason: &str) {
        self.inner.waiting_for_ready(reason);
    }

    fn proposal(&self, dry_run: &crate::cruise_control::Answer<OptimizationResult>) {
        self.inner.proposal(dry_run);
    }

    fn confirm(
        &self,
        dry_run: &crate::cruise_control::Answer<OptimizationResult>,
    ) -> Result<(), H::Error> {
        use std::sync::atomic::Ordering;
        if self.held.is_empty() {
            return self.inner.confirm(dry_run);
        }
        let hits = onto_held(&dry_run.value.proposals, self.held);
        if !hits.is_empty() {
            return Err(H::Error::from(Classified::new(
                FailureKind::Failed,
                format!("{}; nothing was changed", onto_held_message(&hits)),
            )));
        }
        if self.assume_yes || self.confirmed.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.inner.confirm(dry_run)?;
        self.confirmed.store(true, Ordering::Relaxed);
        Ok(())
    }

    fn waiting_for_previous_stop(&self) {
        self.inner.waiting_for_previous_stop();
    }

    fn following(&self, task_id: Option<&str>) {
        self.inner.following(task_id);
    }

    fn following_again(&self, task_id: Option<&str>) {
        self.inner.following_again(task_id);
    }

    fn progress(&self, executor: &crate::engine::view::ExecutorState) {
        self.inner.progress(executor);
    }

    fn follow_ended(&self) {
        self.inner.follow_ended();
    }

    async fn choose_after_interrupt(
        &self,
        task_id: Option<&str>,
    ) -> crate::engine::cc_flow::InterruptChoice {
        self.inner.choose_after_interrupt(task_id).await
    }

    fn approved_plan(&self) -> Option<crate::engine::drift::Plan> {
        self.inner.approved_plan()
    }

    fn tolerance(&self) -> crate::engine::drift::Tolerance {
        self.inner.tolerance()
    }

    fn drifted(
        &self,
        report: &crate::engine::drift::DriftReport,
        new: &crate::cruise_control::Answer<OptimizationResult>,
    ) {
        self.inner.drifted(report, new);
    }

    fn execution_drifted(&self, report: &crate::engine::drift::DriftReport, task_id: Option<&str>) {
        self.inner.execution_drifted(report, task_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inner hooks that record which of their methods were called.
    #[derive(Default)]
    struct Recorder(Mutex<Vec<&'static str>>);

    impl Recorder {
        fn said(&self, what: &'static str) {
            self.0.lock().unwrap().push(what);
        }
    }

    /// The recorder's error: any failure as its text.
    struct Failed(String);

    impl From<CcError> for Failed {
        fn from(e: CcError) -> Self {
            Failed(e.to_string())
        }
    }

    impl From<Classified> for Failed {
        fn from(e: Classified) -> Self {
            Failed(e.to_string())
        }
    }

    impl std::fmt::Display for Failed {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl FlowHooks for Recorder {
        type Error = Failed;
        async fn check_input(
            &self,
            _cc: &CruiseControlClient,
            _deadline: Instant,
            _obs: &dyn Observer,
        ) -> Result<Result<(), Failed>, CcError> {
            Ok(Ok(()))
        }
        fn waiting_for_ready(&self, _reason: &str) {
            self.said("waiting_for_ready");
        }
        fn waiting_for_previous_stop(&self) {
            self.said("waiting_for_previous_stop");
        }
        fn proposal(&self, _dry_run: &crate::cruise_control::Answer<OptimizationResult>) {}
        fn confirm(
            &self,
            _dry_run: &crate::cruise_control::Answer<OptimizationResult>,
        ) -> Result<(), Failed> {
            Ok(())
        }
        fn following(&self, _task_id: Option<&str>) {
            self.said("following");
        }
        fn following_again(&self, _task_id: Option<&str>) {
            self.said("following_again");
        }
        fn progress(&self, _executor: &crate::engine::view::ExecutorState) {}
        fn follow_ended(&self) {}
        async fn choose_after_interrupt(
            &self,
            _task_id: Option<&str>,
        ) -> crate::engine::cc_flow::InterruptChoice {
            crate::engine::cc_flow::InterruptChoice::LeaveRunning
        }
    }

    /// The hold check wraps the command's hooks: what the command says (a resumed change is
    /// followed "again", a lingering stop is waited for) must reach them, not the defaults.
    #[test]
    fn the_hold_guard_passes_every_note_to_the_commands_hooks() {
        let inner = Recorder::default();
        let held = BTreeMap::new();
        let guard = HoldGuard {
            inner: &inner,
            held: &held,
            assume_yes: true,
            confirmed: std::sync::atomic::AtomicBool::new(false),
        };
        guard.waiting_for_ready("sampling");
        guard.waiting_for_previous_stop();
        guard.following(Some("t"));
        guard.following_again(Some("t"));
        assert_eq!(
            *inner.0.lock().unwrap(),
            [
                "waiting_for_ready",
                "waiting_for_previous_stop",
                "following",
                "following_again"
            ]
        );
    }

    #[test]
    fn a_reopened_flow_follows_again() {
        let f: CcFlow = serde_json::from_value(serde_json::json!({
            "config": {"execute": true, "assume_yes": true, "no_wait": false, "timeout_ms": 1000,
                       "wait_for_ready_ms": 0, "poll_interval_ms": 10},
            "phase": {"phase": "done", "outcome": "timed-out", "task_id": "t"},
            "started_at": 0, "confirmed": true, "execution_requested": true,
            "execution_started": true, "task_id": "t", "last_progress": null
        }))
        .unwrap();
        let r = reopen(f);
        assert!(r.outcome().is_none());
        assert_eq!(r.task_id(), Some("t"));
    }
}
