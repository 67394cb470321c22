//! `kafkaops rebalance add|remove|full|status|stop`: Cruise Control rebalances.
//!
//! Every run follows observe -> decide -> act. Observe: Cruise Control's state
//! (monitor readiness, executor) and its broker list. Decide (pure functions below,
//! unit-tested): is the input valid for this cluster, is Cruise Control ready, is
//! the proposal a no-op, has the followed execution finished. Act: ask for the
//! proposal (always a dry run first), and only with `--execute` plus confirmation
//! start it and follow it with a progress bar until it ends.
//!
//! Bad input changes nothing: ids are checked against Cruise Control's broker list
//! (KRaft controller-only nodes are not in it) before any mutating call.
//!
//! # JSON output (`--output json`), a stable API
//!
//! Dry run: one [`ProposalView`]:
//! `{"operation":"add_broker"|"remove_broker"|"rebalance","brokers":[..],"destination_brokers":[..],
//!   "dry_run":true,"noop":bool,"summary":{"replica_movements","leader_movements","data_to_move_mb",
//!   "intra_broker_replica_movements","intra_broker_data_to_move_mb","balancedness_before",
//!   "balancedness_after","monitored_partitions_pct","recent_windows","excluded_topics",
//!   "provision_status","provision_recommendation"},"goals":[{"goal","status"}],
//!   "broker_load":[{"broker","replicas_before","replicas_after","leaders_before","leaders_after",
//!   "disk_mb_before","disk_mb_after"}],"movements":[{"topic","partition","old_replicas",
//!   "new_replicas","old_leader","new_leader"}]}`; numbers Cruise Control sent as `NaN` are `null`.
//!
//! With `--execute`: one [`ExecutionView`] `{"proposal":<ProposalView>,"execution":{"status":
//! "completed"|"started"|"failed"|"nothing-to-do","task_id":str|null,"progress":{"state",
//! "partitions_total","partitions_finished","partitions_in_progress","partitions_pending",
//! "leaders_total","leaders_finished","data_total_mb","data_finished_mb"}|null}}`.
//!
//! `status`: [`StatusView`] `{"executing":bool,"executor_state":str,"task_id":str|null,"reason":
//! str|null,"progress":<progress>|null,"monitor_state":str|null,"ready":bool,"not_ready_reason":
//! str|null,"proposal_ready":bool|null}`; `stop`: [`StopView`] `{"stop_requested":bool,"task_id":
//! str|null,"executor_state":str,"message":str}`.
//!
//! The execution is started with a second, non-dry-run request (as Strimzi does), so Cruise
//! Control recomputes the proposal; the `proposal` of an execution is that second answer. After a
//! completed execution the executor reports no counters any more, so the final `progress` is the
//! last observation with every movement counted as finished.

use std::collections::BTreeMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use super::Ctx;
use crate::cli::rebalance::{
    AddArgs, FullArgs, ProposalArgs, RebalanceCommand, RemoveArgs, StatusArgs, StopArgs,
};
use crate::cruise_control::model::{
    CruiseControlState, ExecutionProgress, ExecutorState, MonitorState, OptimizationResult,
    ProgressStep, Readiness, TaskStatus,
};
use crate::cruise_control::params::{
    ExecutionOptions, GoalOptions, RebalanceKind, RebalanceRequest, Substate,
};
use crate::cruise_control::{
    CcError, ClientConfig, CruiseControlClient, ErrorClass, Observer, Transient,
};
use crate::error::{CliError, CodedError, ExitCode};
use crate::output::{Printer, confirm, progress_bar};

/// Runs a `rebalance` subcommand.
pub async fn run(ctx: &Ctx, cmd: RebalanceCommand) -> Result<ExitCode, CliError> {
    match cmd {
        RebalanceCommand::Add(AddArgs { brokers, proposal }) => {
            propose(ctx, RebalanceKind::AddBrokers(brokers.0), proposal).await
        }
        RebalanceCommand::Remove(RemoveArgs {
            brokers,
            destination_brokers,
            proposal,
        }) => {
            let kind = RebalanceKind::RemoveBrokers {
                brokers: brokers.0,
                destinations: destination_brokers.map(|d| d.0).unwrap_or_default(),
            };
            propose(ctx, kind, proposal).await
        }
        RebalanceCommand::Full(FullArgs { proposal }) => {
            propose(ctx, RebalanceKind::Full, proposal).await
        }
        RebalanceCommand::Imbalance(_) => Err(CliError::usage(
            "`kafkaops rebalance imbalance` is not implemented yet; nothing was changed",
        )),
        RebalanceCommand::Status(a) => status(ctx, &a).await,
        RebalanceCommand::Stop(a) => stop(ctx, &a).await,
    }
}

// ---------------------------------------------------------------------------
// Decide: pure functions.
// ---------------------------------------------------------------------------

/// Input that cannot work, found before any call that changes something.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error(
        "broker(s) {} are both removed and given as destinations; nothing was changed",
        ids(.0)
    )]
    DestinationIsRemoved(Vec<i32>),
    #[error(
        "broker(s) {} are not brokers Cruise Control knows (known brokers: {}); unknown ids and KRaft controller-only nodes cannot be used; nothing was changed",
        ids(.unknown),
        ids(.known)
    )]
    UnknownBrokers { unknown: Vec<i32>, known: Vec<i32> },
    #[error("removing broker(s) {} would leave no broker for their replicas; nothing was changed", ids(.0))]
    RemovesEveryBroker(Vec<i32>),
}

fn ids(v: &[i32]) -> String {
    if v.is_empty() {
        return "(none)".into();
    }
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

/// Checks that need no cluster: a broker both removed and a destination.
pub fn validate_args(kind: &RebalanceKind) -> Result<(), InputError> {
    if let RebalanceKind::RemoveBrokers {
        brokers,
        destinations,
    } = kind
    {
        let both: Vec<i32> = brokers
            .iter()
            .copied()
            .filter(|b| destinations.contains(b))
            .collect();
        if !both.is_empty() {
            return Err(InputError::DestinationIsRemoved(both));
        }
    }
    Ok(())
}

/// Checks the ids against the brokers Cruise Control knows.
pub fn validate_against_cluster(kind: &RebalanceKind, known: &[i32]) -> Result<(), InputError> {
    let given: Vec<i32> = match kind {
        RebalanceKind::AddBrokers(b) => b.clone(),
        RebalanceKind::RemoveBrokers {
            brokers,
            destinations,
        } => brokers.iter().chain(destinations).copied().collect(),
        RebalanceKind::Full => Vec::new(),
    };
    let mut unknown: Vec<i32> = given.into_iter().filter(|b| !known.contains(b)).collect();
    unknown.sort_unstable();
    unknown.dedup();
    if !unknown.is_empty() {
        return Err(InputError::UnknownBrokers {
            unknown,
            known: known.to_vec(),
        });
    }
    if let RebalanceKind::RemoveBrokers { brokers, .. } = kind
        && known.iter().all(|k| brokers.contains(k))
    {
        return Err(InputError::RemovesEveryBroker(brokers.clone()));
    }
    Ok(())
}

/// The message for "Cruise Control is still sampling", with how long it has been.
#[must_use]
pub fn not_ready_message(monitor: &MonitorState, reason: &str, now_ms: i64) -> String {
    let mut msg = format!("Cruise Control is not ready yet: {reason}");
    if let Some(since) = monitor.sampling_since_ms() {
        let secs = u64::try_from((now_ms - since).max(0) / 1000).unwrap_or(0);
        msg.push_str(&format!(
            "; it has been sampling for {}",
            humantime::format_duration(Duration::from_secs(secs))
        ));
    } else if let Some(w) = monitor.num_monitored_windows {
        msg.push_str(&format!("; {w} metric window(s) collected so far"));
    }
    if let Some(pct) = monitor.monitoring_coverage_pct {
        msg.push_str(&format!(", {pct:.0}% of partitions covered"));
    }
    msg.push_str(
        ". Nothing was changed; retry later or pass --wait-for-ready (e.g. --wait-for-ready 10m)",
    );
    msg
}

/// What the follow loop sees of the started user task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskView {
    /// No task id was returned: follow the executor only.
    NoId,
    /// Cruise Control no longer lists the task (restart or expiry).
    Lost,
    Status(TaskStatus),
}

/// The follow loop's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowStep {
    Continue,
    Completed,
    Failed,
    /// The outcome cannot be known (task forgotten).
    Unknown,
}

/// Has the followed execution finished? (pure)
#[must_use]
pub fn follow_step(
    task: &TaskView,
    executor: &ExecutorState,
    our_task: Option<&str>,
) -> FollowStep {
    match task {
        TaskView::Status(TaskStatus::Completed) => FollowStep::Completed,
        TaskView::Status(TaskStatus::CompletedWithError) => FollowStep::Failed,
        TaskView::Status(_) => FollowStep::Continue,
        TaskView::NoId => {
            if executor.is_idle() {
                FollowStep::Completed
            } else {
                FollowStep::Continue
            }
        }
        TaskView::Lost => {
            if !executor.is_idle() && our_task.is_some() && executor.running_task() == our_task {
                FollowStep::Continue
            } else {
                FollowStep::Unknown
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Views: the stable output shapes.
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Serialize)]
pub struct SummaryView {
    pub replica_movements: u64,
    pub leader_movements: u64,
    pub data_to_move_mb: Option<f64>,
    pub intra_broker_replica_movements: u64,
    pub intra_broker_data_to_move_mb: Option<f64>,
    pub balancedness_before: Option<f64>,
    pub balancedness_after: Option<f64>,
    pub monitored_partitions_pct: Option<f64>,
    pub recent_windows: Option<i64>,
    pub excluded_topics: Vec<String>,
    pub provision_status: Option<String>,
    pub provision_recommendation: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GoalView {
    pub goal: String,
    pub status: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct BrokerLoadView {
    pub broker: i64,
    pub replicas_before: Option<u64>,
    pub replicas_after: Option<u64>,
    pub leaders_before: Option<u64>,
    pub leaders_after: Option<u64>,
    pub disk_mb_before: Option<f64>,
    pub disk_mb_after: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MovementView {
    pub topic: String,
    pub partition: i32,
    pub old_replicas: Vec<i32>,
    pub new_replicas: Vec<i32>,
    pub old_leader: Option<i64>,
    pub new_leader: Option<i32>,
}

/// A proposal as kafkaops shows it.
#[derive(Debug, Clone, Serialize)]
pub struct ProposalView {
    pub operation: &'static str,
    pub brokers: Vec<i32>,
    pub destination_brokers: Vec<i32>,
    pub dry_run: bool,
    pub noop: bool,
    pub summary: SummaryView,
    pub goals: Vec<GoalView>,
    pub broker_load: Vec<BrokerLoadView>,
    pub movements: Vec<MovementView>,
}

impl ProposalView {
    #[must_use]
    pub fn new(kind: &RebalanceKind, r: &OptimizationResult, dry_run: bool) -> Self {
        let (brokers, destination_brokers) = match kind {
            RebalanceKind::AddBrokers(b) => (b.clone(), Vec::new()),
            RebalanceKind::RemoveBrokers {
                brokers,
                destinations,
            } => (brokers.clone(), destinations.clone()),
            RebalanceKind::Full => (Vec::new(), Vec::new()),
        };
        let s = &r.summary;
        let mut loads: BTreeMap<i64, BrokerLoadView> = BTreeMap::new();
        let blank = |broker| BrokerLoadView {
            broker,
            replicas_before: None,
            replicas_after: None,
            leaders_before: None,
            leaders_after: None,
            disk_mb_before: None,
            disk_mb_after: None,
        };
        if let Some(before) = &r.load_before_optimization {
            for b in &before.brokers {
                let Some(id) = b.broker else { continue };
                let e = loads.entry(id).or_insert_with(|| blank(id));
                e.replicas_before = Some(b.replicas);
                e.leaders_before = Some(b.leaders);
                e.disk_mb_before = b.disk_mb;
            }
        }
        if let Some(after) = &r.load_after_optimization {
            for b in &after.brokers {
                let Some(id) = b.broker else { continue };
                let e = loads.entry(id).or_insert_with(|| blank(id));
                e.replicas_after = Some(b.replicas);
                e.leaders_after = Some(b.leaders);
                e.disk_mb_after = b.disk_mb;
            }
        }
        let mut movements: Vec<MovementView> = r
            .proposals
            .iter()
            .map(|p| MovementView {
                topic: p.topic_partition.topic.clone(),
                partition: p.topic_partition.partition,
                old_replicas: p.old_replicas.clone(),
                new_replicas: p.new_replicas.clone(),
                old_leader: p.old_leader,
                new_leader: p.new_replicas.first().copied(),
            })
            .collect();
        movements.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
        ProposalView {
            operation: kind.endpoint().path(),
            brokers,
            destination_brokers,
            dry_run,
            noop: r.is_noop(),
            summary: SummaryView {
                replica_movements: s.num_replica_movements,
                leader_movements: s.num_leader_movements,
                data_to_move_mb: s.data_to_move_mb,
                intra_broker_replica_movements: s.num_intra_broker_replica_movements,
                intra_broker_data_to_move_mb: s.intra_broker_data_to_move_mb,
                balancedness_before: s.on_demand_balancedness_score_before,
                balancedness_after: s.on_demand_balancedness_score_after,
                monitored_partitions_pct: s.monitored_partitions_percentage,
                recent_windows: s.recent_windows,
                excluded_topics: s.excluded_topics.clone(),
                provision_status: s.provision_status.clone(),
                provision_recommendation: s
                    .provision_recommendation
                    .clone()
                    .filter(|r| !r.is_empty()),
            },
            goals: r
                .goal_summary
                .iter()
                .map(|g| GoalView {
                    goal: g.goal.clone(),
                    status: g.status.clone(),
                })
                .collect(),
            broker_load: loads.into_values().collect(),
            movements,
        }
    }
}

/// An execution's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct ExecutionOutcome {
    pub status: &'static str,
    pub task_id: Option<String>,
    pub progress: Option<ExecutionProgress>,
}

/// `--execute` output: the proposal and what became of it.
#[derive(Debug, Clone, Serialize)]
pub struct ExecutionView {
    pub proposal: ProposalView,
    pub execution: ExecutionOutcome,
}

/// `rebalance status` output.
#[derive(Debug, Clone, Serialize)]
pub struct StatusView {
    pub executing: bool,
    pub executor_state: String,
    pub task_id: Option<String>,
    pub reason: Option<String>,
    pub progress: Option<ExecutionProgress>,
    pub monitor_state: Option<String>,
    pub ready: bool,
    pub not_ready_reason: Option<String>,
    pub proposal_ready: Option<bool>,
}

/// `rebalance stop` output.
#[derive(Debug, Clone, Serialize)]
pub struct StopView {
    /// Whether an execution was running and a stop was requested.
    pub stop_requested: bool,
    pub task_id: Option<String>,
    pub executor_state: String,
    pub message: String,
}

fn num(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.digits$}"))
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "-".into(), |v| v.to_string())
}

fn list(v: &[i32]) -> String {
    format!(
        "[{}]",
        v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
    )
}

/// How many movements a table shows before summarising the rest.
const MAX_MOVEMENT_ROWS: usize = 25;

/// The proposal as text tables; `executing` drops the "re-run with --execute" hint.
#[must_use]
pub fn render_proposal(p: &ProposalView, color: bool, executing: bool) -> String {
    use crate::output::new_table;
    let s = &p.summary;
    let mut out = String::new();
    let title = match p.operation {
        "add_broker" => format!("Proposal: add brokers {}", ids(&p.brokers)),
        "remove_broker" if p.destination_brokers.is_empty() => {
            format!("Proposal: remove brokers {}", ids(&p.brokers))
        }
        "remove_broker" => format!(
            "Proposal: remove brokers {} (destinations {})",
            ids(&p.brokers),
            ids(&p.destination_brokers)
        ),
        _ => "Proposal: full rebalance".to_string(),
    };
    // With --execute the proposal is shown once, as what is about to run (not as a dry run).
    if executing {
        out.push_str(&title.replacen("Proposal:", "Proposal to execute:", 1));
        out.push('\n');
    } else {
        out.push_str(&title);
        out.push_str(if p.dry_run { " (dry run)\n" } else { "\n" });
    }
    let mut t = new_table(color);
    t.set_header(vec!["", "value"]);
    t.add_row(vec![
        "replica movements".into(),
        s.replica_movements.to_string(),
    ]);
    t.add_row(vec![
        "leader movements".into(),
        s.leader_movements.to_string(),
    ]);
    t.add_row(vec!["data to move (MB)".into(), num(s.data_to_move_mb, 0)]);
    if s.intra_broker_replica_movements > 0 {
        t.add_row(vec![
            "intra-broker movements".into(),
            format!(
                "{} ({} MB)",
                s.intra_broker_replica_movements,
                num(s.intra_broker_data_to_move_mb, 0)
            ),
        ]);
    }
    t.add_row(vec![
        "balancedness before -> after".into(),
        format!(
            "{} -> {}",
            num(s.balancedness_before, 1),
            num(s.balancedness_after, 1)
        ),
    ]);
    t.add_row(vec![
        "monitored partitions".into(),
        s.monitored_partitions_pct
            .map_or_else(|| "-".into(), |v| format!("{v:.1}%")),
    ]);
    if !s.excluded_topics.is_empty() {
        t.add_row(vec!["excluded topics".into(), s.excluded_topics.join(",")]);
    }
    let provisioning = match (&s.provision_status, &s.provision_recommendation) {
        (Some(st), Some(r)) => format!("{st}: {r}"),
        (Some(st), None) => st.clone(),
        (None, _) => "(not reported by this Cruise Control)".into(),
    };
    t.add_row(vec!["provisioning".into(), provisioning]);
    out.push_str(&t.to_string());
    out.push('\n');

    if !p.goals.is_empty() {
        out.push_str("\nGoals\n");
        let mut g = new_table(color);
        g.set_header(vec!["goal", "status"]);
        for goal in &p.goals {
            g.add_row(vec![goal.goal.clone(), goal.status.clone()]);
        }
        out.push_str(&g.to_string());
        out.push('\n');
    }

    if !p.broker_load.is_empty() {
        out.push_str("\nBrokers (before -> after)\n");
        let mut b = new_table(color);
        b.set_header(vec!["broker", "replicas", "leaders", "disk MB"]);
        for l in &p.broker_load {
            b.add_row(vec![
                l.broker.to_string(),
                format!("{} -> {}", opt(l.replicas_before), opt(l.replicas_after)),
                format!("{} -> {}", opt(l.leaders_before), opt(l.leaders_after)),
                format!(
                    "{} -> {}",
                    num(l.disk_mb_before, 1),
                    num(l.disk_mb_after, 1)
                ),
            ]);
        }
        out.push_str(&b.to_string());
        out.push('\n');
    }

    if !p.movements.is_empty() {
        out.push_str("\nMovements\n");
        let mut m = new_table(color);
        m.set_header(vec!["partition", "replicas", "leader"]);
        for mv in p.movements.iter().take(MAX_MOVEMENT_ROWS) {
            m.add_row(vec![
                format!("{}-{}", mv.topic, mv.partition),
                format!("{} -> {}", list(&mv.old_replicas), list(&mv.new_replicas)),
                format!("{} -> {}", opt(mv.old_leader), opt(mv.new_leader)),
            ]);
        }
        out.push_str(&m.to_string());
        out.push('\n');
        if p.movements.len() > MAX_MOVEMENT_ROWS {
            out.push_str(&format!(
                "... and {} more (use --output json for all)\n",
                p.movements.len() - MAX_MOVEMENT_ROWS
            ));
        }
    }
    if p.noop {
        out.push_str("\nNothing to move: the cluster already satisfies the goals.\n");
    } else if p.dry_run && !executing {
        out.push_str("\nDry run: nothing was changed. Re-run with --execute to apply it.\n");
    }
    out
}

fn render_progress(p: &ExecutionProgress, color: bool) -> String {
    let mut t = crate::output::new_table(color);
    t.set_header(vec!["", "value"]);
    t.add_row(vec!["executor state".into(), p.state.clone()]);
    t.add_row(vec![
        "partitions moved".into(),
        format!(
            "{}/{} ({} in progress, {} pending)",
            p.partitions_finished,
            p.partitions_total,
            p.partitions_in_progress,
            p.partitions_pending
        ),
    ]);
    t.add_row(vec![
        "leaders moved".into(),
        format!("{}/{}", p.leaders_finished, p.leaders_total),
    ]);
    t.add_row(vec![
        "data moved (MB)".into(),
        format!("{:.0}/{:.0}", p.data_finished_mb, p.data_total_mb),
    ]);
    format!("{t}\n")
}

fn render_execution(v: &ExecutionView, color: bool) -> String {
    let mut out = String::new();
    let e = &v.execution;
    let task = e.task_id.as_deref().unwrap_or("-");
    out.push_str(&match e.status {
        "completed" => format!("Execution completed (task {task}).\n"),
        "started" => format!(
            "Execution started (task {task}); follow it with `kafkaops rebalance status`.\n"
        ),
        "nothing-to-do" => "Nothing to execute.\n".to_string(),
        _ => format!("Execution ended with an error or was stopped (task {task}).\n"),
    });
    if let Some(p) = &e.progress {
        out.push_str(&render_progress(p, color));
    }
    out
}

fn render_status(s: &StatusView, color: bool) -> String {
    let mut out = String::new();
    if s.executing {
        out.push_str(&format!(
            "Cruise Control is executing: {}{}\n",
            s.executor_state,
            s.task_id
                .as_deref()
                .map(|t| format!(" (task {t})"))
                .unwrap_or_default()
        ));
        if let Some(r) = &s.reason {
            out.push_str(&format!("Reason: {r}\n"));
        }
        if let Some(p) = &s.progress {
            out.push_str(&render_progress(p, color));
        }
    } else {
        out.push_str("Cruise Control is not executing anything.\n");
    }
    let mut t = crate::output::new_table(color);
    t.set_header(vec!["", "value"]);
    t.add_row(vec!["load monitor".into(), opt(s.monitor_state.clone())]);
    t.add_row(vec![
        "ready for proposals".into(),
        match (&s.ready, &s.not_ready_reason) {
            (true, _) => "yes".into(),
            (false, Some(r)) => format!("no: {r}"),
            (false, None) => "no".into(),
        },
    ]);
    t.add_row(vec![
        "cached proposal ready".into(),
        opt(s.proposal_ready.map(|b| if b { "yes" } else { "no" })),
    ]);
    out.push_str(&format!("{t}\n"));
    out
}

// ---------------------------------------------------------------------------
// Act: the imperative shell.
// ---------------------------------------------------------------------------

/// Tells the user what a wait is for (stderr; the progress bar is separate).
struct CliObserver {
    printer: Printer,
}

impl Observer for CliObserver {
    fn retrying(&self, waiting_for: &str, attempt: u32, retry_in: Duration, error: &CcError) {
        self.printer.note(format!(
            "Waiting for {waiting_for} (attempt {attempt}, retrying in {}): {error}",
            humantime::format_duration(retry_in)
        ));
    }
    fn computing(&self, task_id: &str, step: Option<&ProgressStep>) {
        match step {
            Some(s) => self.printer.note(format!(
                "Cruise Control is computing (task {task_id}): {}",
                s.step
            )),
            None => tracing::info!("Cruise Control task {task_id} is still computing"),
        }
    }
}

fn client(ctx: &Ctx, poll_interval: Duration) -> Result<CruiseControlClient, CliError> {
    let mut cfg = ClientConfig::from_settings(&ctx.settings.cruise_control)?;
    cfg.poll_interval = poll_interval;
    Ok(CruiseControlClient::new(cfg)?)
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn usage(e: InputError) -> CliError {
    CliError::new(ExitCode::Usage, e)
}

fn not_ready(monitor: &MonitorState, reason: &str) -> CliError {
    CliError::new(
        ExitCode::NotReady,
        CodedError::new(
            ExitCode::NotReady,
            not_ready_message(monitor, reason, now_ms()),
        ),
    )
}

/// Observes Cruise Control until it is ready (or `wait_until`), returning its state.
async fn observe_ready(
    cc: &CruiseControlClient,
    obs: &CliObserver,
    deadline: Instant,
    wait_until: Instant,
    poll: Duration,
) -> Result<CruiseControlState, CliError> {
    loop {
        let state = cc
            .state(
                &[Substate::Monitor, Substate::Executor, Substate::Analyzer],
                true,
                deadline,
                obs,
            )
            .await?;
        let monitor = state.monitor.clone().unwrap_or_default();
        match monitor.readiness() {
            Readiness::Ready => return Ok(state),
            Readiness::NotReady { reason, .. } => {
                if Instant::now() + poll > wait_until {
                    return Err(not_ready(&monitor, &reason));
                }
                obs.printer
                    .note(format!("Waiting for Cruise Control's load model: {reason}"));
                tokio::time::sleep(poll).await;
            }
        }
    }
}

async fn propose(ctx: &Ctx, kind: RebalanceKind, a: ProposalArgs) -> Result<ExitCode, CliError> {
    validate_args(&kind).map_err(usage)?;
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, a.poll_interval)?;
    let started = Instant::now();
    let deadline = started + a.timeout;
    let wait_until = started + a.wait_for_ready.min(a.timeout);

    // Observe.
    let state = observe_ready(&cc, &obs, deadline, wait_until, a.poll_interval).await?;
    let executor = state.executor.clone().unwrap_or_default();
    let monitor = state.monitor.clone().unwrap_or_default();
    if a.execute && !executor.is_idle() {
        return Err(CliError::new(
            ExitCode::Busy,
            CodedError::new(
                ExitCode::Busy,
                format!(
                    "another execution is already running on Cruise Control: {}; nothing was changed. Wait for it (`kafkaops rebalance status`) or stop it (`kafkaops rebalance stop`)",
                    executor.describe()
                ),
            ),
        ));
    }
    if !matches!(kind, RebalanceKind::Full) {
        let cluster = cc.kafka_cluster_state(deadline, &obs).await?;
        validate_against_cluster(&kind, &cluster.broker_ids()).map_err(usage)?;
    }

    // The proposal (always a dry run first).
    let request = |dryrun: bool| RebalanceRequest {
        kind: kind.clone(),
        goals: GoalOptions {
            goals: a.goals.clone(),
            excluded_topics: a.excluded_topics.clone(),
            skip_hard_goal_check: a.skip_hard_goal_check,
        },
        execution: ExecutionOptions {
            dryrun,
            replication_throttle: a.replication_throttle,
            concurrent_partition_movements_per_broker: a.concurrent_partition_movements_per_broker,
            concurrent_leader_movements: a.concurrent_leader_movements,
        },
        reason: a.reason.clone(),
        verbose: true,
    };
    let mut policy = cc.policy(deadline);
    if a.wait_for_ready > Duration::ZERO {
        policy.wait_for_not_ready = true;
        policy.not_ready_deadline = Some(wait_until.max(Instant::now()));
    }
    let dry = cc
        .rebalance(&request(true), &policy, &obs)
        .await
        .map_err(|e| explain_not_ready(e, &monitor))?;
    let view = ProposalView::new(&kind, &dry.value, true);

    if !a.execute {
        printer.emit(&view, |v| render_proposal(v, printer.color, false))?;
        return Ok(ExitCode::Ok);
    }
    if printer.format == crate::output::OutputFormat::Table {
        crate::output::write_stdout(&render_proposal(&view, printer.color, true))?;
    }
    if view.noop {
        let out = ExecutionView {
            proposal: view,
            execution: ExecutionOutcome {
                status: "nothing-to-do",
                task_id: None,
                progress: None,
            },
        };
        emit_execution(&printer, &out)?;
        return Ok(ExitCode::Ok);
    }
    let action = format!(
        "Execute this proposal on Cruise Control at {} ({} replica and {} leader movements, {} MB)",
        cc.url(),
        view.summary.replica_movements,
        view.summary.leader_movements,
        num(view.summary.data_to_move_mb, 0)
    );
    confirm(&action, ctx.global.yes, printer.interactive)?;

    // Act: start the execution (never retried after a timeout: it may have started).
    let mut exec_policy = cc.policy(deadline);
    exec_policy.idempotent = false;
    // Ctrl-C from here on never kills the process silently: while the request is in flight the
    // execution may or may not have started, and the operator is told so (or may stop it).
    let exec_request = request(false);
    let send = cc.rebalance(&exec_request, &exec_policy, &obs);
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(send);
    tokio::pin!(ctrl_c);
    let started_exec = tokio::select! {
        r = &mut send => r.map_err(|e| explain_not_ready(e, &monitor))?,
        _ = &mut ctrl_c => return Err(interrupted(&cc, &obs, None).await),
    };
    let task_id = started_exec.task_id.clone();
    let mut proposal = ProposalView::new(&kind, &started_exec.value, false);
    proposal.dry_run = false;
    if a.no_wait {
        let out = ExecutionView {
            proposal,
            execution: ExecutionOutcome {
                status: "started",
                task_id,
                progress: None,
            },
        };
        emit_execution(&printer, &out)?;
        return Ok(ExitCode::Ok);
    }
    printer.note(format!(
        "Execution started{}; following it (Ctrl-C to stop it or leave it running)",
        task_id
            .as_deref()
            .map(|t| format!(" (task {t})"))
            .unwrap_or_default()
    ));
    let (step, progress) = follow(&cc, &obs, task_id.as_deref(), deadline, a.poll_interval).await?;
    let status = match step {
        FollowStep::Completed => "completed",
        _ => "failed",
    };
    let out = ExecutionView {
        proposal,
        execution: ExecutionOutcome {
            status,
            task_id: task_id.clone(),
            progress,
        },
    };
    emit_execution(&printer, &out)?;
    match step {
        FollowStep::Completed => Ok(ExitCode::Ok),
        FollowStep::Unknown => Err(CcError::TaskLost {
            task_id: task_id.unwrap_or_default(),
        }
        .into()),
        _ => Err(CliError::new(
            ExitCode::Failed,
            CodedError::new(
                ExitCode::Failed,
                format!(
                    "the execution (task {}) ended with an error or was stopped; some replicas may have moved, see `kafkaops rebalance status` and Cruise Control's log",
                    task_id.as_deref().unwrap_or("-")
                ),
            ),
        )),
    }
}

fn emit_execution(printer: &Printer, out: &ExecutionView) -> Result<(), CliError> {
    if printer.format == crate::output::OutputFormat::Table {
        crate::output::write_stdout(&render_execution(out, printer.color))?;
    } else {
        printer.emit(out, |v| render_execution(v, printer.color))?;
    }
    Ok(())
}

/// Adds how long Cruise Control has been sampling to a not-enough-windows error.
fn explain_not_ready(e: CcError, monitor: &MonitorState) -> CliError {
    if matches!(
        e.class(),
        ErrorClass::Retryable(Transient::NotEnoughValidWindows)
    ) {
        tracing::debug!("{e}");
        return not_ready(
            monitor,
            "its load model does not have enough valid metric windows yet (NotEnoughValidWindowsException)",
        );
    }
    e.into()
}

/// Follows an execution to its end with a progress bar; Ctrl-C offers to stop it.
async fn follow(
    cc: &CruiseControlClient,
    obs: &CliObserver,
    task_id: Option<&str>,
    deadline: Instant,
    poll: Duration,
) -> Result<(FollowStep, Option<ExecutionProgress>), CliError> {
    let printer = &obs.printer;
    let pb = progress_bar(printer, 0, "moving");
    let started = Instant::now();
    let mut first_mb: Option<f64> = None;
    let mut last: Option<ExecutionProgress> = None;
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        if Instant::now() + poll > deadline {
            pb.finish_and_clear();
            return Err(CcError::DeadlineExceeded {
                waiting_for: format!(
                    "the execution{} to finish (it keeps running on Cruise Control; see `kafkaops rebalance status`)",
                    task_id.map(|t| format!(" (task {t})")).unwrap_or_default()
                ),
                after: started.elapsed(),
            }
            .into());
        }
        tokio::select! {
            () = tokio::time::sleep(poll) => {}
            _ = &mut ctrl_c => {
                pb.finish_and_clear();
                return Err(interrupted(cc, obs, task_id).await);
            }
        }
        let state = cc
            .state(&[Substate::Executor], false, deadline, obs)
            .await?;
        let executor = state.executor.unwrap_or_default();
        if !executor.is_idle() {
            let p = executor.progress();
            let base = *first_mb.get_or_insert(p.data_finished_mb);
            let (rate, eta) =
                p.rate_and_eta(p.data_finished_mb - base, started.elapsed().as_secs_f64());
            pb.set_length(p.partitions_total.max(1));
            pb.set_position(p.partitions_finished);
            pb.set_message(format!(
                "partitions, {:.0}/{:.0} MB, {:.1} MB/s{}",
                p.data_finished_mb,
                p.data_total_mb,
                rate,
                eta.map(|s| format!(
                    ", ~{} left",
                    humantime::format_duration(Duration::from_secs(s.round() as u64))
                ))
                .unwrap_or_default()
            ));
            tracing::info!(
                "{}: {}/{} partitions, {:.0}/{:.0} MB",
                p.state,
                p.partitions_finished,
                p.partitions_total,
                p.data_finished_mb,
                p.data_total_mb
            );
            last = Some(p);
        }
        let task = match task_id {
            None => TaskView::NoId,
            Some(id) => match cc.user_task(id, deadline, obs).await {
                Ok(t) => TaskView::Status(t.status),
                Err(CcError::TaskLost { .. }) => TaskView::Lost,
                Err(e) => {
                    pb.finish_and_clear();
                    return Err(e.into());
                }
            },
        };
        match follow_step(&task, &executor, task_id) {
            FollowStep::Continue => {}
            step => {
                pb.finish_and_clear();
                if let (FollowStep::Completed, Some(p)) = (step, last.as_mut()) {
                    // The executor no longer reports counters once idle: the last
                    // observation is the truth up to the end, which is "everything".
                    p.partitions_finished = p.partitions_total;
                    p.partitions_in_progress = 0;
                    p.partitions_pending = 0;
                    p.leaders_finished = p.leaders_total;
                    p.data_finished_mb = p.data_total_mb;
                    p.state = executor.state.clone();
                }
                return Ok((step, last));
            }
        }
    }
}

/// Ctrl-C while following: ask whether to stop the execution or leave it running.
async fn interrupted(
    cc: &CruiseControlClient,
    obs: &CliObserver,
    task_id: Option<&str>,
) -> CliError {
    let printer = &obs.printer;
    let task = task_id.map(|t| format!(" (task {t})")).unwrap_or_default();
    let stop_it = if printer.interactive {
        tokio::task::spawn_blocking(|| {
            dialoguer::Select::new()
                .with_prompt("Interrupted. What about the running execution?")
                .items(["Leave it running", "Stop it"])
                .default(0)
                .interact()
                .map(|i| i == 1)
                .unwrap_or(false)
        })
        .await
        .unwrap_or(false)
    } else {
        false
    };
    if stop_it {
        let deadline = Instant::now() + Duration::from_secs(60);
        return match cc
            .stop_proposal_execution("kafkaops: interrupted by the user", deadline, obs)
            .await
        {
            Ok(_) => CliError::new(
                ExitCode::Interrupted,
                CodedError::new(
                    ExitCode::Interrupted,
                    format!(
                        "interrupted: asked Cruise Control to stop the execution{task}; replicas already moved stay where they are"
                    ),
                ),
            ),
            Err(e) => CliError::new(
                ExitCode::Interrupted,
                CodedError::new(
                    ExitCode::Interrupted,
                    format!(
                        "interrupted, and stopping the execution{task} failed: {e}; run `kafkaops rebalance stop`"
                    ),
                ),
            ),
        };
    }
    let what = if task_id.is_some() {
        format!("the execution{task} keeps running on Cruise Control")
    } else {
        "the execution was being started and may be running on Cruise Control".to_string()
    };
    CliError::new(
        ExitCode::Interrupted,
        CodedError::new(
            ExitCode::Interrupted,
            format!(
                "interrupted: {what}; follow it with `kafkaops rebalance status`, stop it with `kafkaops rebalance stop`"
            ),
        ),
    )
}

async fn status(ctx: &Ctx, a: &StatusArgs) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, Duration::from_secs(5))?;
    let deadline = Instant::now() + a.timeout;
    let state = cc
        .state(
            &[Substate::Executor, Substate::Monitor, Substate::Analyzer],
            false,
            deadline,
            &obs,
        )
        .await?;
    let view = status_view(&state);
    printer.emit(&view, |v| render_status(v, printer.color))?;
    Ok(ExitCode::Ok)
}

/// The status shown for a Cruise Control state (pure).
#[must_use]
pub fn status_view(state: &CruiseControlState) -> StatusView {
    let executor = state.executor.clone().unwrap_or_default();
    let monitor = state.monitor.clone();
    let readiness = monitor.as_ref().map(MonitorState::readiness);
    StatusView {
        executing: !executor.is_idle(),
        executor_state: if executor.state.is_empty() {
            "UNKNOWN".into()
        } else {
            executor.state.clone()
        },
        task_id: executor.running_task().map(str::to_string),
        reason: executor
            .triggered_task_reason
            .clone()
            .filter(|r| !r.is_empty()),
        progress: (!executor.is_idle()).then(|| executor.progress()),
        monitor_state: monitor.as_ref().map(|m| m.state.clone()),
        ready: matches!(readiness, Some(Readiness::Ready)),
        not_ready_reason: match readiness {
            Some(Readiness::NotReady { reason, .. }) => Some(reason),
            _ => None,
        },
        proposal_ready: state.analyzer.as_ref().map(|a| a.is_proposal_ready),
    }
}

async fn stop(ctx: &Ctx, a: &StopArgs) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, a.poll_interval)?;
    let started = Instant::now();
    let deadline = started + a.timeout;
    let before = cc
        .state(&[Substate::Executor], false, deadline, &obs)
        .await?
        .executor
        .unwrap_or_default();
    if before.is_idle() {
        let view = StopView {
            stop_requested: false,
            task_id: None,
            executor_state: before.state.clone(),
            message: "Nothing is executing; nothing was changed.".into(),
        };
        printer.emit(&view, |v| format!("{}\n", v.message))?;
        return Ok(ExitCode::Ok);
    }
    let task_id = before.running_task().map(str::to_string);
    printer.note(format!("Stopping: {}", before.describe()));
    cc.stop_proposal_execution(&a.reason, deadline, &obs)
        .await?;
    // Cruise Control stops after the in-flight batch; wait until the executor is idle.
    loop {
        let now = cc
            .state(&[Substate::Executor], false, deadline, &obs)
            .await?
            .executor
            .unwrap_or_default();
        if now.is_idle() {
            let view = StopView {
                stop_requested: true,
                task_id,
                executor_state: now.state,
                message: "The execution was stopped; replicas already moved stay where they are."
                    .into(),
            };
            printer.emit(&view, |v| format!("{}\n", v.message))?;
            return Ok(ExitCode::Ok);
        }
        if Instant::now() + a.poll_interval > deadline {
            return Err(CcError::DeadlineExceeded {
                waiting_for: format!("the execution to stop (executor: {})", now.describe()),
                after: started.elapsed(),
            }
            .into());
        }
        printer.note(format!("Waiting for the execution to stop: {}", now.state));
        tokio::time::sleep(a.poll_interval).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cruise_control::lenient::from_str;

    #[test]
    fn destination_that_is_removed_is_a_usage_error() {
        let k = RebalanceKind::RemoveBrokers {
            brokers: vec![3, 4],
            destinations: vec![1, 4],
        };
        assert_eq!(
            validate_args(&k),
            Err(InputError::DestinationIsRemoved(vec![4]))
        );
        assert!(validate_args(&RebalanceKind::AddBrokers(vec![4])).is_ok());
    }

    #[test]
    fn unknown_and_controller_only_ids_are_rejected() {
        let known = [1, 2, 3, 4];
        assert!(validate_against_cluster(&RebalanceKind::AddBrokers(vec![4]), &known).is_ok());
        let e = validate_against_cluster(&RebalanceKind::AddBrokers(vec![0, 4, 9]), &known)
            .unwrap_err();
        assert_eq!(
            e,
            InputError::UnknownBrokers {
                unknown: vec![0, 9],
                known: known.to_vec()
            }
        );
        assert!(e.to_string().contains("controller-only"));
        let dest = RebalanceKind::RemoveBrokers {
            brokers: vec![4],
            destinations: vec![7],
        };
        assert!(matches!(
            validate_against_cluster(&dest, &known),
            Err(InputError::UnknownBrokers { .. })
        ));
        let all = RebalanceKind::RemoveBrokers {
            brokers: vec![1, 2, 3, 4],
            destinations: vec![],
        };
        assert!(matches!(
            validate_against_cluster(&all, &known),
            Err(InputError::RemovesEveryBroker(_))
        ));
        assert!(validate_against_cluster(&RebalanceKind::Full, &[]).is_ok());
    }

    #[test]
    fn not_ready_message_says_for_how_long() {
        let m: MonitorState = from_str(
            r#"{"state":"RUNNING","numMonitoredWindows":0,"monitoringCoveragePct":12.5,
                "monitoredWindows":{"1700000000000":0.1}}"#,
        )
        .unwrap();
        let msg = not_ready_message(&m, "no windows", 1_700_000_192_000);
        assert!(msg.contains("sampling for 3m 12s"), "{msg}");
        assert!(
            msg.contains("12% of partitions") || msg.contains("13% of partitions"),
            "{msg}"
        );
        assert!(msg.contains("--wait-for-ready"), "{msg}");
    }

    #[test]
    fn follow_decisions() {
        let idle = ExecutorState {
            state: "NO_TASK_IN_PROGRESS".into(),
            ..ExecutorState::default()
        };
        let busy = ExecutorState {
            state: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into(),
            triggered_user_task_id: Some("t1".into()),
            ..ExecutorState::default()
        };
        let st = |s| TaskView::Status(s);
        assert_eq!(
            follow_step(&st(TaskStatus::InExecution), &busy, Some("t1")),
            FollowStep::Continue
        );
        assert_eq!(
            follow_step(&st(TaskStatus::Completed), &idle, Some("t1")),
            FollowStep::Completed
        );
        assert_eq!(
            follow_step(&st(TaskStatus::CompletedWithError), &idle, Some("t1")),
            FollowStep::Failed
        );
        assert_eq!(
            follow_step(&TaskView::NoId, &busy, None),
            FollowStep::Continue
        );
        assert_eq!(
            follow_step(&TaskView::NoId, &idle, None),
            FollowStep::Completed
        );
        // Task forgotten (restart) while our execution still runs: keep following.
        assert_eq!(
            follow_step(&TaskView::Lost, &busy, Some("t1")),
            FollowStep::Continue
        );
        assert_eq!(
            follow_step(&TaskView::Lost, &idle, Some("t1")),
            FollowStep::Unknown
        );
        assert_eq!(
            follow_step(&TaskView::Lost, &busy, Some("other")),
            FollowStep::Unknown
        );
    }

    #[test]
    fn status_of_an_idle_ready_and_a_busy_cruise_control() {
        let idle: CruiseControlState = from_str(
            r#"{"MonitorState":{"state":"RUNNING","numMonitoredWindows":2,"numValidPartitions":4},
                "ExecutorState":{"state":"NO_TASK_IN_PROGRESS"},"AnalyzerState":{"isProposalReady":false}}"#,
        )
        .unwrap();
        let v = status_view(&idle);
        assert!(!v.executing && v.ready && v.progress.is_none());
        assert_eq!(v.proposal_ready, Some(false));
        let busy: CruiseControlState = from_str(
            r#"{"ExecutorState":{"state":"LEADER_MOVEMENT_TASK_IN_PROGRESS","triggeredUserTaskId":"t",
                "triggeredTaskReason":"","numTotalLeadershipMovements":3}}"#,
        )
        .unwrap();
        let v = status_view(&busy);
        assert!(v.executing && !v.ready);
        assert_eq!(v.task_id.as_deref(), Some("t"));
        assert_eq!(v.reason, None);
        assert_eq!(v.progress.unwrap().leaders_total, 3);
        assert_eq!(v.monitor_state, None);
    }

    #[test]
    fn proposal_view_orders_movements_and_merges_loads() {
        let r: OptimizationResult = from_str(
            r#"{"summary":{"numReplicaMovements":2,"numLeaderMovements":1,"dataToMoveMB":5,
                "onDemandBalancednessScoreBefore":NaN,"onDemandBalancednessScoreAfter":99.0},
               "goalSummary":[{"goal":"ReplicaDistributionGoal","status":"FIXED"}],
               "proposals":[{"topicPartition":{"topic":"b","partition":1},"oldLeader":1,"oldReplicas":[1,2],"newReplicas":[4,2]},
                            {"topicPartition":"a-0","oldLeader":2,"oldReplicas":[2,3],"newReplicas":[2,4]}],
               "loadBeforeOptimization":{"brokers":[{"Broker":4,"Replicas":0,"Leaders":0}]},
               "loadAfterOptimization":{"brokers":[{"Broker":4,"Replicas":2,"Leaders":1}]}}"#,
        )
        .unwrap();
        let v = ProposalView::new(&RebalanceKind::AddBrokers(vec![4]), &r, true);
        assert_eq!(v.movements[0].topic, "a");
        assert_eq!(v.movements[1].new_leader, Some(4));
        assert_eq!(v.broker_load[0].replicas_before, Some(0));
        assert_eq!(v.broker_load[0].replicas_after, Some(2));
        assert!(!v.noop);
        let text = render_proposal(&v, false, false);
        assert!(text.contains("- -> 99.0"), "{text}");
        assert!(text.contains("not reported"), "{text}");
    }
}
