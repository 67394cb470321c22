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
//! Between steps the state ([`StateFile`](crate::app::topic::set_rf::StateFile): the engine's per-topic changes plus the flow's
//! state machine) is written atomically to `topic-set-rf.json` in the state directory, so
//! re-running the same command after an interruption (or `--no-wait`) follows the task it
//! started instead of starting over, and `kafkaops topic status` reports it (refreshed from Kafka and
//! Cruise Control's `user_tasks` when they are configured). A run for other topics leaves the
//! unfinished changes it did not name in the file untouched.
//!
//! # JSON output (`--output json`), a stable API
//!
//! [`SetRfView`]: `{"dry_run":bool,"execute":bool,"task_ids":[str],"proposal":{"replica_movements",
//! "leader_movements","data_to_move_mb","topics":[{"topic","named","replica_movements",
//! "leader_movements"}],"onto_held":[{"node","reason","partitions":[str]}]}|null,"topics":[{"topic",
//! "before","target","after","before_mix","after_mix","state":"pending"|"ongoing"|"done"|"failed",
//! "task_id","message"}]}`; `proposal.topics` is every topic Cruise Control's proposal touches, the
//! named ones first (a real server also moves other topics' leaders, reference section 14);
//! `proposal.onto_held` the held nodes (`kafkaops hold`) it places new replicas on (such a proposal
//! is never executed: exit 1); factors are `null` when a topic's partitions disagree, and
//! `before_mix`/`after_mix` are then `[smallest, largest]` (the table shows `2-3 (mixed)`).
//! `topic status` prints the same shape from the state file.
//!
//! Exit codes: 0 when every topic has its target (or for a dry run), 2 for bad input (nothing
//! changed), 5 when Cruise Control stayed busy until `--timeout` ... as in the README, and 7
//! (incomplete) when a change ran but a topic's factor did not change or the task ended
//! `CompletedWithError`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::Ctx;
use super::shared::observe::CliObserver;
use crate::app::clients::CcOptions;
use crate::app::topic::RoundOptions;
use crate::app::topic::set_rf::{self, ProposalSummary, SetRfSpec, summary};
use crate::cli::topic::{SetRfArgs, TopicCommand};
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::{Answer, CcError, CruiseControlClient, Observer};
use crate::driver::cc_flow::FlowHooks;
use crate::engine::cc_flow::InterruptChoice;
use crate::engine::operator_guard::Action;
use crate::engine::replicas::{ChangeState, InputErrors, ReplicasState, merge_requests};
use crate::engine::view::ExecutorState;
use crate::error::{CliError, CodedError, ExitCode};
use crate::output::{Printer, confirm, progress_bar};

/// The state file's name inside the state directory.
pub use crate::app::topic::set_rf::STATE_FILE;

/// Runs a `topic` subcommand.
pub async fn run(ctx: &Ctx, cmd: TopicCommand) -> Result<ExitCode, CliError> {
    match cmd {
        TopicCommand::SetRf(args) => set_rf(ctx, args).await,
        TopicCommand::Status(args) => {
            let path = state_dir(args.state_dir.as_deref())?.join(STATE_FILE);
            status(ctx, &ctx.printer.clone(), &path).await
        }
    }
}

// ---------------------------------------------------------------------------
// State file.
// ---------------------------------------------------------------------------

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
// Views.
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Serialize)]
pub struct TopicView {
    pub topic: String,
    pub before: Option<u16>,
    pub target: u16,
    pub after: Option<u16>,
    /// `[smallest, largest]` replica count when the partitions disagreed before (`before` is
    /// `null` then).
    pub before_mix: Option<(u16, u16)>,
    /// `[smallest, largest]` replica count when the partitions disagree now (`after` is `null`).
    pub after_mix: Option<(u16, u16)>,
    pub state: ChangeState,
    pub task_id: Option<String>,
    pub message: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SetRfView {
    pub dry_run: bool,
    pub execute: bool,
    pub task_ids: Vec<String>,
    pub proposal: Option<ProposalSummary>,
    pub topics: Vec<TopicView>,
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
                before_mix: c.before_mix,
                after_mix: c.after_mix,
                state: c.state,
                task_id: c.task_id.clone(),
                message: c.message.clone(),
            })
            .collect(),
    }
}

/// A factor cell: the factor, the mix when the partitions disagree (`2-3 (mixed)`), else `-`.
fn rf(v: Option<u16>, mix: Option<(u16, u16)>) -> String {
    match (v, mix) {
        (Some(v), _) => v.to_string(),
        (None, Some((lo, hi))) => format!("{lo}-{hi} (mixed)"),
        (None, None) => "-".into(),
    }
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
pub fn render(v: &SetRfView, style: crate::output::Style) -> String {
    let mut out = String::new();
    if let Some(p) = &v.proposal {
        out.push_str(&format!(
            "Cruise Control's proposal: {} replica movements, {} leader movements, {} to move\n",
            p.replica_movements,
            p.leader_movements,
            p.data_to_move_mb
                .map_or_else(|| "-".into(), crate::output::human_mb)
        ));
        if let Some(line) = other_topics_line(p) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    let mut t = crate::output::Grid::new(
        style,
        [
            "topic", "before", "target", "after", "state", "task", "message",
        ],
    )
    .ids(&[5])
    .low_value(&[5, 1]);
    for r in &v.topics {
        t.row([
            r.topic.clone(),
            rf(r.before, r.before_mix),
            r.target.to_string(),
            rf(r.after, r.after_mix),
            state_name(r.state).to_string(),
            r.task_id.clone().unwrap_or_else(|| "-".into()),
            r.message.clone().unwrap_or_default(),
        ]);
    }
    out.push_str(&format!("{}\n", t.render()));
    if v.dry_run {
        out.push_str("Dry run: nothing was changed. Re-run with --execute to apply it.\n");
    }
    out
}

// ---------------------------------------------------------------------------
// The command.
// ---------------------------------------------------------------------------

async fn set_rf(ctx: &Ctx, args: SetRfArgs) -> Result<ExitCode, CliError> {
    let path = state_dir(args.state_dir.as_deref())?.join(STATE_FILE);
    let printer = ctx.printer.clone();
    if args.status {
        return status(ctx, &printer, &path).await;
    }
    if args.topics.is_empty() && args.from_file.is_none() {
        return Err(CliError::usage(
            "name the topics: --topics a,b --replication-factor N, or --from-file FILE (`kafkaops topic status` shows recorded changes)",
        ));
    }
    let spec = SetRfSpec {
        wanted: wanted_of(&args)?,
        execute: args.execute,
        no_wait: args.no_wait,
        assume_yes: ctx.global.yes,
        allow_below_min_isr: args.allow_below_min_isr,
        timeout: args.timeout,
        poll_interval: args.poll_interval,
        wait_for_ready: args.wait_for_ready,
        options: round_options(&args),
        state_file: path,
    };
    let kafka = crate::app::clients::kafka(
        &ctx.settings.kafka,
        ctx.request_timeout(),
        Some("cannot connect to the Kafka cluster"),
    )
    .await?;
    let prepared = set_rf::prepare(&kafka, &spec).await?;
    let cc = crate::app::clients::cruise_control(
        &ctx.settings.cruise_control,
        CcOptions::polling(args.poll_interval),
    )?;
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let hooks = TopicHooks {
        printer: &printer,
        named: &prepared.names.clone(),
        execute: args.execute,
        url: cc.url().to_string(),
        follow: Mutex::new(None),
    };
    // A Strimzi operator that is not paused, or its KafkaRebalance executing, would race this.
    let action = if args.execute {
        Action::Execute("replication-factor change")
    } else {
        Action::DryRun
    };
    crate::app::guards::operator(&ctx.kube(), ctx.strimzi(), action, args.force, &printer).await?;
    if !args.execute {
        let held = prepared.held.clone();
        let run = set_rf::dry_run(&cc, prepared, &spec, &hooks, &obs).await?;
        // Held nodes (issue 29): topic_configuration takes no destination, so the preview says
        // whether this proposal keeps new replicas off them, and that --execute checks it again.
        if let Some(p) = &run.proposal
            && !held.is_empty()
        {
            if p.onto_held.is_empty() {
                printer.note(format!(
                    "Held node(s) {}: this proposal places no new replica on them; Cruise Control's topic_configuration cannot be told to avoid a broker, so --execute checks its proposal again and refuses one that would",
                    held.iter()
                        .map(|(n, why)| format!("{n} ({why})"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            } else {
                printer.note(format!(
                    "Warning: {}",
                    crate::app::topic::onto_held_message(&p.onto_held)
                ));
            }
        }
        let v = view(&run.state, true, false, run.proposal);
        printer.emit(&v, |v| render(v, printer.style()))?;
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
    let run = set_rf::execute(&kafka, &cc, prepared, &spec, &hooks, &obs, &printer).await?;
    if let Some(task_id) = &run.submitted {
        printer.note(format!(
            "Change submitted (task {}); re-run the same command to follow it, or see it with `kafkaops topic status`",
            task_id.as_deref().unwrap_or("-")
        ));
    }
    let failed = run.failed();
    let v = view(&run.state, false, true, run.proposal);
    printer.emit(&v, |v| render(v, printer.style()))?;
    if let Some(e) = run.error {
        return Err(e);
    }
    if !failed.is_empty() {
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

/// What every round is sent with besides its topics, from the arguments.
fn round_options(args: &SetRfArgs) -> RoundOptions {
    RoundOptions {
        replication_throttle: args.replication_throttle,
        concurrent_partition_movements_per_broker: args.concurrent_partition_movements_per_broker,
        concurrent_leader_movements: args.concurrent_leader_movements,
        reason: args.reason.clone(),
    }
}

/// `topic status` (and the old `set-rf --status`): the state file, refreshed where possible (see [`set_rf::refresh`]). Nothing is
/// sent.
async fn status(ctx: &Ctx, printer: &Printer, path: &Path) -> Result<ExitCode, CliError> {
    let Some(mut file) = set_rf::load_state(path)? else {
        printer.note(format!(
            "No replication-factor change recorded ({} does not exist)",
            path.display()
        ));
        let v = view(&ReplicasState::default(), false, false, None);
        printer.emit(&v, |v| render(v, printer.style()))?;
        return Ok(ExitCode::Ok);
    };
    if file.replicas.unfinished() {
        let timeout = ctx
            .global
            .connection
            .request_timeout
            .unwrap_or(Duration::from_secs(30));
        let obs = CliObserver {
            printer: printer.clone(),
        };
        set_rf::refresh(&ctx.settings, timeout, printer, &obs, &mut file.replicas).await;
        if let Err(e) = set_rf::save_state(path, &file) {
            tracing::warn!("cannot save the state file: {e:#}");
        }
    }
    let v = view(&file.replicas, false, false, None);
    printer.emit(&v, |v| render(v, printer.style()))?;
    Ok(ExitCode::Ok)
}

// ---------------------------------------------------------------------------
// Hooks.
// ---------------------------------------------------------------------------

/// What `set-rf` says when it follows a change (pure): one it just started, or (`again`) one an
/// earlier run started, said only once Cruise Control shows it still knows the task.
fn following_note(task_id: Option<&str>, again: bool) -> String {
    let task = task_id.map(|t| format!(" (task {t})")).unwrap_or_default();
    if again {
        format!(
            "Following the change started earlier{task} (Ctrl-C to stop it or leave it running)"
        )
    } else {
        format!("Change started{task}; following it (Ctrl-C to stop it or leave it running)")
    }
}

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

    fn waiting_for_previous_stop(&self) {
        self.printer
            .note(crate::driver::cc_flow::PREVIOUS_STOP_NOTE);
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
        self.printer.note(following_note(task_id, false));
        let mut f = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        *f = Some(progress_bar(self.printer, 0, "changing"));
    }

    fn following_again(&self, task_id: Option<&str>) {
        self.printer.note(following_note(task_id, true));
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
    use crate::app::topic::TouchedTopic;
    use crate::engine::replicas::whole_names_regex;

    #[test]
    fn a_resumed_change_is_followed_again_not_started() {
        let n = following_note(Some("t1"), true);
        assert!(
            n.starts_with("Following the change started earlier (task t1)"),
            "{n}"
        );
        assert!(!n.contains("Change started"), "{n}");
        let n = following_note(Some("t2"), false);
        assert!(
            n.starts_with("Change started (task t2); following it"),
            "{n}"
        );
    }

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
                (
                    // Partitions at mixed factors (#25 point 7): the mix, not `-`.
                    "m".to_string(),
                    TopicFacts {
                        partitions: 2,
                        min_rf: 2,
                        max_rf: 3,
                        min_isr: None,
                    },
                ),
            ]
            .into(),
        };
        let wanted = [
            ("a".to_string(), 2),
            ("b".to_string(), 2),
            ("m".to_string(), 3),
        ]
        .into();
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
                onto_held: vec![crate::app::topic::OntoHeld {
                    node: 3,
                    reason: "disk swap".into(),
                    partitions: vec!["a-0".into()],
                }],
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
                    ],
                    "onto_held": [{"node": 3, "reason": "disk swap", "partitions": ["a-0"]}]},
                "topics": [
                    {"topic": "a", "before": 3, "target": 2, "after": 3, "before_mix": null,
                     "after_mix": null, "state": "ongoing", "task_id": "t1", "message": null},
                    {"topic": "b", "before": 2, "target": 2, "after": 2, "before_mix": null,
                     "after_mix": null, "state": "done", "task_id": null,
                     "message": "already at the target replication factor: skipped"},
                    {"topic": "m", "before": null, "target": 3, "after": null,
                     "before_mix": [2, 3], "after_mix": [2, 3], "state": "ongoing",
                     "task_id": "t1", "message": null}
                ]
            })
        );
        let table = render(&v, crate::output::Style::PLAIN);
        assert!(
            table.contains("ongoing") && table.contains("skipped"),
            "{table}"
        );
        assert!(table.contains("2-3 (mixed)"), "{table}");
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
        let base_request = |args: &SetRfArgs, racks: &BTreeSet<String>| {
            crate::app::topic::base_request(&round_options(args), !racks.is_empty())
        };
        let mut racks = BTreeSet::new();
        let mut r = base_request(&args, &racks);
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
        racks.insert("a".to_string());
        assert!(!base_request(&args, &racks).skip_rack_awareness_check);
    }
}
