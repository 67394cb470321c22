//! `kafkaops topic set-rf`: replication-factor changes through Cruise Control, safe for CI.
//!
//! The shell around [`crate::engine::replicas`]: it reads the topics and brokers from Kafka
//! (the Kafka adapter), has the engine check the input and decide what to send, and runs the
//! shared Cruise Control flow ([`crate::driver::cc_flow`]) once per round with every
//! pending topic in one `topic_configuration` request (the JSON body groups topics by target
//! factor; names are escaped so the whole-name regex matches only them). A round that finds
//! Cruise Control busy leaves the changes pending and retries after the poll interval until
//! `--timeout`; a task Cruise Control forgot (restart) is sent again for the topics that have
//! not reached their target. After every round the real factors are read back from Kafka.
//!
//! Between steps the state ([`StateFile`]: the engine's per-topic changes plus the flow's
//! state machine) is written atomically to `topic-set-rf.json` in the state directory, so
//! re-running the same command after an interruption (or `--no-wait`) follows the task it
//! started instead of starting over, and `--status` reports it (refreshed from Kafka and
//! Cruise Control's `user_tasks` when they are configured). A run for other topics leaves the
//! unfinished changes it did not name in the file untouched.
//!
//! # JSON output (`--output json`), a stable API
//!
//! [`SetRfView`]: `{"dry_run":bool,"execute":bool,"task_ids":[str],"proposal":{"replica_movements",
//! "leader_movements","data_to_move_mb","topics":[{"topic","named","replica_movements",
//! "leader_movements"}]}|null,"topics":[{"topic","before","target","after","state":
//! "pending"|"ongoing"|"done"|"failed","task_id","message"}]}`; `proposal.topics` is every topic
//! Cruise Control's proposal touches, the named ones first (a real server also moves other
//! topics' leaders, reference section 14); factors are `null` when a topic's
//! partitions disagree. `--status` prints the same shape from the state file.
//!
//! Exit codes: 0 when every topic has its target (or for a dry run), 2 for bad input (nothing
//! changed), 5 when Cruise Control stayed busy until `--timeout` ... as in the README, and 7
//! (incomplete) when a change ran but a topic's factor did not change or the task ended
//! `CompletedWithError`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::Ctx;
use super::observe::CliObserver;
use crate::app::clients::CcOptions;
use crate::app::topic::{RoundOptions, TouchedTopic, groups, touched_topics};
use crate::cli::topic::{SetRfArgs, TopicCommand};
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::TopicConfigurationRequest;
use crate::cruise_control::{Answer, CcError, CruiseControlClient, Observer};
use crate::driver::cc_flow::{self as flow, FlowDriver, FlowHooks};
use crate::engine::cc_flow::{CcFlow, FlowConfig, InterruptChoice, Outcome, Stage};
use crate::engine::operator_guard::Action;
use crate::engine::replicas::{
    ChangeState, ClusterFacts, InputErrors, ReplicasState, RoundEnd, TopicChange, TopicFacts,
    merge_requests, round_end, validate,
};
use crate::engine::view::ExecutorState;
use crate::error::{CliError, CodedError, ExitCode};
use crate::kafka::{KafkaAdmin, KafkaClient};
use crate::output::{Printer, confirm, progress_bar};

/// The state file's name inside the state directory.
pub const STATE_FILE: &str = "topic-set-rf.json";

/// Runs a `topic` subcommand.
pub async fn run(ctx: &Ctx, cmd: TopicCommand) -> Result<ExitCode, CliError> {
    match cmd {
        TopicCommand::SetRf(args) => set_rf(ctx, args).await,
    }
}

// ---------------------------------------------------------------------------
// State file.
// ---------------------------------------------------------------------------

/// What `topic-set-rf.json` holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct StateFile {
    pub version: u32,
    pub replicas: ReplicasState,
    /// The flow of the ongoing round (followed again when the command is re-run).
    pub flow: Option<CcFlow>,
}

fn state_dir(arg: Option<&Path>) -> Result<PathBuf, CliError> {
    if let Some(d) = arg {
        return Ok(d.to_path_buf());
    }
    if let Some(d) = std::env::var_os("XDG_STATE_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d).join("kafkaops"));
    }
    match std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        Some(h) => Ok(PathBuf::from(h).join(".local/state/kafkaops")),
        None => Err(CliError::usage(
            "no state directory: pass --state-dir or set KAFKAOPS_STATE_DIR",
        )),
    }
}

fn load_state(path: &Path) -> Result<Option<StateFile>, CliError> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .with_context(|| {
                format!(
                    "the state file {} is not readable; move it away to start over",
                    path.display()
                )
            })
            .map_err(|e| CliError::new(ExitCode::Usage, e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(CliError::new(
            ExitCode::Usage,
            anyhow::anyhow!("cannot read the state file {}: {e}", path.display()),
        )),
    }
}

/// Writes the state file atomically (temporary file, then rename).
fn save_state(path: &Path, state: &StateFile) -> anyhow::Result<()> {
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

// ---------------------------------------------------------------------------
// Input.
// ---------------------------------------------------------------------------

/// One entry of `--from-file`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileEntry {
    #[serde(alias = "name")]
    topic: String,
    #[serde(alias = "replicas")]
    replication_factor: u16,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum DesiredFile {
    List(Vec<FileEntry>),
    Wrapped { topics: Vec<FileEntry> },
}

/// Parses a `--from-file` document (YAML; JSON is YAML too).
pub fn parse_desired(text: &str) -> Result<Vec<(String, u16)>, String> {
    let doc: DesiredFile = serde_yaml::from_str(text)
        .map_err(|e| format!("expected a list of {{topic, replication_factor}} entries: {e}"))?;
    let entries = match doc {
        DesiredFile::List(v) | DesiredFile::Wrapped { topics: v } => v,
    };
    Ok(entries
        .into_iter()
        .map(|e| (e.topic, e.replication_factor))
        .collect())
}

fn input_error(e: InputErrors) -> CliError {
    CliError::new(ExitCode::Usage, e)
}

fn wanted_of(args: &SetRfArgs) -> Result<BTreeMap<String, u16>, CliError> {
    let mut pairs: Vec<(String, u16)> = Vec::new();
    if let Some(rf) = args.replication_factor {
        pairs.extend(
            args.topics
                .iter()
                .filter(|t| !t.is_empty())
                .map(|t| (t.clone(), rf)),
        );
    }
    if let Some(f) = &args.from_file {
        let text = std::fs::read_to_string(f).map_err(|e| {
            CliError::usage(format!("cannot read --from-file {}: {e}", f.display()))
        })?;
        pairs.extend(
            parse_desired(&text)
                .map_err(|e| CliError::usage(format!("--from-file {}: {e}", f.display())))?,
        );
    }
    merge_requests(pairs).map_err(input_error)
}

// ---------------------------------------------------------------------------
// Observe: Kafka facts.
// ---------------------------------------------------------------------------

async fn observe(
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

// ---------------------------------------------------------------------------
// Views.
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Serialize)]
pub struct TopicView {
    pub topic: String,
    pub before: Option<u16>,
    pub target: u16,
    pub after: Option<u16>,
    pub state: ChangeState,
    pub task_id: Option<String>,
    pub message: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProposalSummary {
    pub replica_movements: u64,
    pub leader_movements: u64,
    pub data_to_move_mb: Option<f64>,
    /// Every topic the proposal touches, the named ones first (`named: false`: Cruise Control
    /// moves it too, e.g. other topics' leaders); empty when Cruise Control listed no movements.
    pub topics: Vec<TouchedTopic>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SetRfView {
    pub dry_run: bool,
    pub execute: bool,
    pub task_ids: Vec<String>,
    pub proposal: Option<ProposalSummary>,
    pub topics: Vec<TopicView>,
}

fn summary(r: &OptimizationResult, named: &BTreeSet<String>) -> ProposalSummary {
    ProposalSummary {
        replica_movements: r.summary.num_replica_movements,
        leader_movements: r.summary.num_leader_movements,
        data_to_move_mb: r.summary.data_to_move_mb,
        topics: touched_topics(&r.proposals, named),
    }
}

/// The topics the proposal touches besides the named ones, for people (pure): `None` when
/// there are none.
fn other_topics_line(p: &ProposalSummary) -> Option<String> {
    let others: Vec<String> = p
        .topics
        .iter()
        .filter(|t| !t.named)
        .map(|t| {
            let mut what = Vec::new();
            if t.replica_movements > 0 {
                what.push(format!("{} replica", t.replica_movements));
            }
            if t.leader_movements > 0 {
                what.push(format!("{} leader", t.leader_movements));
            }
            format!("{} ({})", t.topic, what.join(", "))
        })
        .collect();
    (!others.is_empty()).then(|| {
        format!(
            "It also moves {} other topic(s): {}",
            others.len(),
            others.join(", ")
        )
    })
}

fn view(
    state: &ReplicasState,
    dry_run: bool,
    execute: bool,
    proposal: Option<ProposalSummary>,
) -> SetRfView {
    let task_ids: BTreeSet<String> = state
        .changes
        .values()
        .filter_map(|c| c.task_id.clone())
        .collect();
    SetRfView {
        dry_run,
        execute,
        task_ids: task_ids.into_iter().collect(),
        proposal,
        topics: state
            .changes
            .iter()
            .map(|(t, c)| TopicView {
                topic: t.clone(),
                before: c.before,
                target: c.target,
                after: c.after,
                state: c.state,
                task_id: c.task_id.clone(),
                message: c.message.clone(),
            })
            .collect(),
    }
}

fn rf(v: Option<u16>) -> String {
    v.map_or_else(|| "-".into(), |v| v.to_string())
}

fn state_name(s: ChangeState) -> &'static str {
    match s {
        ChangeState::Pending => "pending",
        ChangeState::Ongoing => "ongoing",
        ChangeState::Done => "done",
        ChangeState::Failed => "failed",
    }
}

#[must_use]
pub fn render(v: &SetRfView, color: bool) -> String {
    let mut out = String::new();
    if let Some(p) = &v.proposal {
        out.push_str(&format!(
            "Cruise Control's proposal: {} replica movements, {} leader movements, {} MB to move\n",
            p.replica_movements,
            p.leader_movements,
            p.data_to_move_mb
                .map_or_else(|| "-".into(), |d| format!("{d:.0}"))
        ));
        if let Some(line) = other_topics_line(p) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    let mut t = crate::output::new_table(color);
    t.set_header(vec![
        "topic", "before", "target", "after", "state", "task", "message",
    ]);
    for r in &v.topics {
        t.add_row(vec![
            r.topic.clone(),
            rf(r.before),
            r.target.to_string(),
            rf(r.after),
            state_name(r.state).to_string(),
            r.task_id.clone().unwrap_or_else(|| "-".into()),
            r.message.clone().unwrap_or_default(),
        ]);
    }
    out.push_str(&format!("{t}\n"));
    if v.dry_run {
        out.push_str("Dry run: nothing was changed. Re-run with --execute to apply it.\n");
    }
    out
}

// ---------------------------------------------------------------------------
// The command.
// ---------------------------------------------------------------------------

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

async fn set_rf(ctx: &Ctx, args: SetRfArgs) -> Result<ExitCode, CliError> {
    let path = state_dir(args.state_dir.as_deref())?.join(STATE_FILE);
    let printer = ctx.printer.clone();
    if args.status {
        return status(ctx, &printer, &path).await;
    }
    if args.topics.is_empty() && args.from_file.is_none() {
        return Err(CliError::usage(
            "name the topics: --topics a,b --replication-factor N, or --from-file FILE (or --status)",
        ));
    }
    let wanted = wanted_of(&args)?;
    let names: BTreeSet<String> = wanted.keys().cloned().collect();

    let kafka = crate::app::clients::kafka(
        &ctx.settings.kafka,
        ctx.request_timeout(),
        Some("cannot connect to the Kafka cluster"),
    )
    .await?;
    let (cluster_id, facts) = observe(&kafka, &names).await?;
    validate(&wanted, &facts, args.allow_below_min_isr).map_err(input_error)?;

    // Resume what an earlier run of the same change left unfinished. Unfinished changes of
    // other topics stay in the file untouched (this run changes exactly the named topics).
    let saved = load_state(&path)?;
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
    let (mut state, mut saved_flow) = match saved {
        Some(s)
            if s.replicas.unfinished()
                && s.replicas.cluster_id.is_some()
                && cluster_id.is_some()
                && s.replicas.cluster_id != cluster_id =>
        {
            return Err(CliError::usage(format!(
                "the state file {} holds unfinished changes of another cluster ({}); finish them there or move the file away",
                path.display(),
                s.replicas.cluster_id.unwrap_or_default()
            )));
        }
        // A dry run reads the file too (ongoing topics are not proposed again) but never writes it.
        Some(mut s) => {
            s.replicas.cluster_id.clone_from(&cluster_id);
            s.replicas.adopt(&wanted, &facts);
            (s.replicas, s.flow)
        }
        _ => (ReplicasState::plan(cluster_id, &wanted, &facts), None),
    };

    let cc = crate::app::clients::cruise_control(
        &ctx.settings.cruise_control,
        CcOptions::polling(args.poll_interval),
    )?;
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let base_request = base_request(&args, &facts);
    let hooks = TopicHooks {
        printer: &printer,
        named: &names,
        execute: args.execute,
        url: cc.url().to_string(),
        follow: Mutex::new(None),
    };
    let started = Instant::now();
    let deadline = started + args.timeout;
    let mut confirmed = ctx.global.yes;
    let mut proposal: Option<ProposalSummary> = None;

    // A Strimzi operator that is not paused, or its KafkaRebalance executing, would race this.
    let action = if args.execute {
        Action::Execute("replication-factor change")
    } else {
        Action::DryRun
    };
    crate::app::guards::operator(&ctx.kube(), ctx.strimzi(), action, args.force, &printer).await?;
    if !args.execute {
        // Dry run: Cruise Control's proposal for what is not at its target yet.
        let mut request = base_request.clone();
        request.by_factor = groups(&state);
        if !request.by_factor.is_empty() {
            let config = flow_config(&args, confirmed, args.timeout);
            let report =
                flow::run(&cc, &request, config, &hooks, &obs, std::future::pending()).await;
            if let Some(p) = &report.proposal {
                proposal = Some(summary(&p.value, &names));
            }
            if report.outcome != Outcome::Proposed && report.outcome != Outcome::NothingToDo {
                return Err(report.error.unwrap_or_else(|| {
                    CliError::new(ExitCode::Failed, anyhow::anyhow!("{:?}", report.outcome))
                }));
            }
        }
        let v = view(&state, true, false, proposal);
        printer.emit(&v, |v| render(v, printer.color))?;
        return Ok(ExitCode::Ok);
    }

    crate::app::guards::external_reassignments(
        &ctx.settings,
        ctx.request_timeout(),
        args.wait_for_reassignments,
        args.poll_interval,
        &printer,
    )
    .await?;

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
        if let Err(e) = save_state(&path, &file) {
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
    let mut final_error: Option<CliError> = None;

    while state.unfinished() {
        let remaining = deadline.saturating_duration_since(Instant::now());
        let mut request = base_request.clone();
        request.by_factor = if resume.is_some() {
            BTreeMap::new()
        } else {
            groups(&state)
        };
        if resume.is_none() && request.by_factor.is_empty() {
            break;
        }
        let config = flow_config(&args, confirmed, remaining);
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
                printer.note(format!(
                    "Following the change started earlier (task {})",
                    f.task_id().unwrap_or("-")
                ));
                let driver = FlowDriver::resume(&cc, &request, f, &hooks, &obs);
                flow::run_driver(driver, interrupt, after_step).await
            }
            None => {
                let driver = FlowDriver::new(&cc, &request, config, &hooks, &obs);
                flow::run_driver(driver, interrupt, after_step).await
            }
        };
        if report.flow.confirmed() {
            confirmed = true;
        }
        // The dry run lists the movements (the execution's answer is not verbose): its topics
        // stay in the summary.
        if let Some(p) = report.proposal.as_ref() {
            proposal = Some(summary(&p.value, &names));
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
                printer.note(format!(
                    "Change submitted (task {}); re-run the same command to follow it, or see it with --status",
                    task_id.as_deref().unwrap_or("-")
                ));
                let v = view(&state, false, true, proposal);
                printer.emit(&v, |v| render(v, printer.color))?;
                return Ok(ExitCode::Ok);
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
        let (_, after) = observe_settled(&kafka, &names, &state, &end).await?;
        state.handle_round(&end, &after);
        save(&state, None);
        if let RoundEnd::Busy(why) = &end {
            if Instant::now() + args.poll_interval >= deadline {
                final_error = Some(CliError::new(
                    ExitCode::Busy,
                    anyhow::anyhow!(
                        "gave up after {} waiting in line: {why}; the change stays pending (re-run to retry)",
                        humantime::format_duration(Duration::from_secs(
                            started.elapsed().as_secs()
                        ))
                    ),
                ));
                break;
            }
            printer.note(format!(
                "The change waits in line (pending): {why}; retrying in {}",
                humantime::format_duration(args.poll_interval)
            ));
            tokio::time::sleep(args.poll_interval).await;
        } else if end == RoundEnd::Lost {
            printer.note(
                "Cruise Control forgot the task (restarted?): sending what is not done yet again",
            );
        }
    }

    let v = view(&state, false, true, proposal);
    printer.emit(&v, |v| render(v, printer.color))?;
    if let Some(e) = final_error {
        return Err(e);
    }
    if state.any_failed() {
        let failed: Vec<String> = state
            .changes
            .iter()
            .filter(|(_, c)| c.state == ChangeState::Failed)
            .map(|(t, c)| format!("{t}: {}", c.message.clone().unwrap_or_default()))
            .collect();
        return Err(CliError::new(
            ExitCode::Incomplete,
            CodedError::new(
                ExitCode::Incomplete,
                format!(
                    "{} topic(s) did not reach their target replication factor: {}",
                    failed.len(),
                    failed.join("; ")
                ),
            ),
        ));
    }
    Ok(ExitCode::Ok)
}

/// A flow that stopped while its execution may still run, made resumable: the next run
/// follows the same task ([`CcFlow::follow_again`]).
fn reopen(mut flow: CcFlow) -> CcFlow {
    flow.follow_again();
    flow
}

/// The request every round sends (its `by_factor` filled per round): see
/// [`crate::app::topic::base_request`].
fn base_request(args: &SetRfArgs, facts: &ClusterFacts) -> TopicConfigurationRequest {
    crate::app::topic::base_request(
        &RoundOptions {
            replication_throttle: args.replication_throttle,
            concurrent_partition_movements_per_broker: args
                .concurrent_partition_movements_per_broker,
            concurrent_leader_movements: args.concurrent_leader_movements,
            reason: args.reason.clone(),
        },
        !facts.racks.is_empty(),
    )
}

fn flow_config(args: &SetRfArgs, confirmed: bool, timeout: Duration) -> FlowConfig {
    FlowConfig {
        execute: args.execute,
        assume_yes: confirmed,
        no_wait: args.no_wait,
        timeout_ms: millis(timeout),
        wait_for_ready_ms: millis(args.wait_for_ready),
        poll_interval_ms: millis(args.poll_interval),
        recheck: false,
        follow_timeout_ms: None,
    }
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

/// `--status`: the state file, refreshed where possible: unfinished topics are re-read from
/// Kafka (done when at their target) and ongoing tasks looked up in Cruise Control's
/// `user_tasks`, when those are configured. Nothing is sent.
async fn status(ctx: &Ctx, printer: &Printer, path: &Path) -> Result<ExitCode, CliError> {
    let Some(mut file) = load_state(path)? else {
        printer.note(format!(
            "No replication-factor change recorded ({} does not exist)",
            path.display()
        ));
        let v = view(&ReplicasState::default(), false, false, None);
        printer.emit(&v, |v| render(v, printer.color))?;
        return Ok(ExitCode::Ok);
    };
    if file.replicas.unfinished() {
        refresh(ctx, printer, &mut file.replicas).await;
        if let Err(e) = save_state(path, &file) {
            tracing::warn!("cannot save the state file: {e:#}");
        }
    }
    let v = view(&file.replicas, false, false, None);
    printer.emit(&v, |v| render(v, printer.color))?;
    Ok(ExitCode::Ok)
}

async fn refresh(ctx: &Ctx, printer: &Printer, state: &mut ReplicasState) {
    let timeout = ctx
        .global
        .connection
        .request_timeout
        .unwrap_or(Duration::from_secs(30));
    if ctx.settings.kafka.bootstrap_servers.is_some() {
        let names: BTreeSet<String> = state.changes.keys().cloned().collect();
        let read = async {
            let kafka = crate::app::clients::kafka(&ctx.settings.kafka, timeout, None).await?;
            observe(&kafka, &names).await
        };
        match read.await {
            Ok((_, facts)) => state.observe(&facts),
            Err(e) => printer.note(format!("Not refreshed from Kafka: {e:#}")),
        }
    }
    let ongoing = state.ongoing_tasks();
    if ongoing.is_empty() || ctx.settings.cruise_control.url.is_none() {
        return;
    }
    let cc = match crate::app::clients::cruise_control(
        &ctx.settings.cruise_control,
        CcOptions::default(),
    ) {
        Ok(cc) => cc,
        Err(e) => {
            printer.note(format!("Not refreshed from Cruise Control: {e}"));
            return;
        }
    };
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let deadline = Instant::now() + timeout;
    for task in ongoing {
        let message = match cc.user_task(&task, deadline, &obs).await {
            Ok(t) => format!("Cruise Control task status: {:?}", t.status),
            Err(CcError::TaskLost { .. }) => {
                "Cruise Control no longer knows the task (restarted?); re-run the command to send the change again".to_string()
            }
            Err(e) => {
                printer.note(format!("Not refreshed from Cruise Control: {e}"));
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

// ---------------------------------------------------------------------------
// Hooks.
// ---------------------------------------------------------------------------

struct TopicHooks<'a> {
    printer: &'a Printer,
    /// The topics the command names (the proposal may touch others).
    named: &'a BTreeSet<String>,
    execute: bool,
    url: String,
    follow: Mutex<Option<indicatif::ProgressBar>>,
}

impl FlowHooks for TopicHooks<'_> {
    type Error = CliError;

    async fn check_input(
        &self,
        _cc: &CruiseControlClient,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<Result<(), CliError>, CcError> {
        // Checked against Kafka before the flow started (engine::replicas::validate).
        Ok(Ok(()))
    }

    fn waiting_for_ready(&self, reason: &str) {
        self.printer
            .note(format!("Waiting for Cruise Control's load model: {reason}"));
    }

    fn proposal(&self, dry_run: &Answer<OptimizationResult>) {
        if self.execute {
            let s = summary(&dry_run.value, self.named);
            self.printer.note(format!(
                "Cruise Control's proposal: {} replica movements, {} leader movements",
                s.replica_movements, s.leader_movements
            ));
            if let Some(line) = other_topics_line(&s) {
                self.printer.note(line);
            }
        }
    }

    fn confirm(&self, dry_run: &Answer<OptimizationResult>) -> Result<(), CliError> {
        let s = summary(&dry_run.value, self.named);
        let others = s.topics.iter().filter(|t| !t.named).count();
        let action = format!(
            "Change replication factors through Cruise Control at {} ({} replica and {} leader movements{})",
            self.url,
            s.replica_movements,
            s.leader_movements,
            if others > 0 {
                format!(", touching {others} other topic(s) too")
            } else {
                String::new()
            }
        );
        confirm(&action, false, self.printer.interactive)?;
        Ok(())
    }

    fn following(&self, task_id: Option<&str>) {
        self.printer.note(format!(
            "Change started{}; following it (Ctrl-C to stop it or leave it running)",
            task_id.map(|t| format!(" (task {t})")).unwrap_or_default()
        ));
        let mut f = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        *f = Some(progress_bar(self.printer, 0, "changing"));
    }

    fn progress(&self, executor: &ExecutorState) {
        let p = executor.progress();
        if let Some(pb) = self
            .follow
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
        {
            pb.set_length(p.partitions_total.max(1));
            pb.set_position(p.partitions_finished);
            pb.set_message(format!("partitions ({})", p.state));
        }
        tracing::info!(
            "{}: {}/{} partitions, {}/{} leaders",
            p.state,
            p.partitions_finished,
            p.partitions_total,
            p.leaders_finished,
            p.leaders_total
        );
    }

    fn follow_ended(&self) {
        if let Some(pb) = self
            .follow
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            pb.finish_and_clear();
        }
    }

    async fn choose_after_interrupt(&self, task_id: Option<&str>) -> InterruptChoice {
        if !self.printer.interactive {
            return InterruptChoice::LeaveRunning;
        }
        let prompt = format!(
            "Interrupted. Stop the change{} on Cruise Control (replicas already moved stay)?",
            task_id.map(|t| format!(" (task {t})")).unwrap_or_default()
        );
        let answer = tokio::task::spawn_blocking(move || {
            dialoguer::Confirm::new()
                .with_prompt(prompt)
                .default(false)
                .interact()
                .unwrap_or(false)
        })
        .await
        .unwrap_or(false);
        if answer {
            InterruptChoice::Stop
        } else {
            InterruptChoice::LeaveRunning
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::replicas::whole_names_regex;

    #[test]
    fn desired_file_takes_a_list_or_a_topics_key() {
        let a = parse_desired("- topic: a\n  replication_factor: 2\n- name: b\n  replicas: 3\n")
            .unwrap();
        assert_eq!(a, vec![("a".into(), 2), ("b".into(), 3)]);
        let b = parse_desired(r#"{"topics":[{"topic":"a","replication_factor":1}]}"#).unwrap();
        assert_eq!(b, vec![("a".into(), 1)]);
        assert!(parse_desired("- topic: a\n").is_err());
    }

    /// The JSON shape is an API (module docs).
    #[test]
    fn per_topic_json_shape() {
        use crate::engine::replicas::{ClusterFacts, TopicFacts};
        let facts = ClusterFacts {
            brokers: 3,
            racks: BTreeSet::new(),
            topics: [
                (
                    "a".to_string(),
                    TopicFacts {
                        partitions: 1,
                        min_rf: 3,
                        max_rf: 3,
                        min_isr: Some(1),
                    },
                ),
                (
                    "b".to_string(),
                    TopicFacts {
                        partitions: 1,
                        min_rf: 2,
                        max_rf: 2,
                        min_isr: None,
                    },
                ),
            ]
            .into(),
        };
        let wanted = [("a".to_string(), 2), ("b".to_string(), 2)].into();
        let mut state = ReplicasState::plan(Some("c".into()), &wanted, &facts);
        state.handle_sent(Some("t1".into()));
        let v = view(
            &state,
            false,
            true,
            Some(ProposalSummary {
                replica_movements: 1,
                leader_movements: 0,
                data_to_move_mb: Some(0.0),
                topics: vec![
                    TouchedTopic {
                        topic: "a".into(),
                        named: true,
                        replica_movements: 1,
                        leader_movements: 0,
                    },
                    TouchedTopic {
                        topic: "other".into(),
                        named: false,
                        replica_movements: 0,
                        leader_movements: 2,
                    },
                ],
            }),
        );
        assert_eq!(
            serde_json::to_value(&v).unwrap(),
            serde_json::json!({
                "dry_run": false, "execute": true, "task_ids": ["t1"],
                "proposal": {"replica_movements": 1, "leader_movements": 0, "data_to_move_mb": 0.0,
                    "topics": [
                        {"topic": "a", "named": true, "replica_movements": 1, "leader_movements": 0},
                        {"topic": "other", "named": false, "replica_movements": 0, "leader_movements": 2}
                    ]},
                "topics": [
                    {"topic": "a", "before": 3, "target": 2, "after": 3, "state": "ongoing",
                     "task_id": "t1", "message": null},
                    {"topic": "b", "before": 2, "target": 2, "after": 2, "state": "done",
                     "task_id": null,
                     "message": "already at the target replication factor: skipped"}
                ]
            })
        );
        let table = render(&v, false);
        assert!(
            table.contains("ongoing") && table.contains("skipped"),
            "{table}"
        );
    }

    #[test]
    fn rack_check_skipped_only_without_racks_and_options_pass_through() {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from([
            "kafkaops",
            "topic",
            "set-rf",
            "--topics",
            "a.b",
            "-r",
            "2",
            "--replication-throttle",
            "1000",
            "--concurrent-partition-movements-per-broker",
            "3",
            "--concurrent-leader-movements",
            "7",
        ])
        .unwrap();
        let crate::cli::Command::Topic(TopicCommand::SetRf(args)) = cli.command else {
            panic!("not set-rf");
        };
        let mut facts = ClusterFacts::default();
        let mut r = base_request(&args, &facts);
        assert!(r.skip_rack_awareness_check);
        r.by_factor = [(2, whole_names_regex(&["a.b".to_string()]))].into();
        let q = r.query();
        for (k, v) in [
            ("skip_rack_awareness_check", "true"),
            ("replication_throttle", "1000"),
            ("concurrent_partition_movements_per_broker", "3"),
            ("concurrent_leader_movements", "7"),
        ] {
            assert!(q.iter().any(|(n, x)| *n == k && x == v), "{k} in {q:?}");
        }
        assert!(
            r.body().unwrap().contains(r#""2":"a\\.b""#),
            "{:?}",
            r.body()
        );
        facts.racks.insert("a".into());
        assert!(!base_request(&args, &facts).skip_rack_awareness_check);
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
