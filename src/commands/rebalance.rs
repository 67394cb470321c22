//! `kafkaops rebalance add|remove|full|status|stop`: Cruise Control rebalances.
//!
//! `add`, `remove` and `full` run the shared Cruise Control execution flow: the pure
//! state machine [`crate::engine::cc_flow`] (ready? busy? input valid? no-op? confirmed?
//! finished?) driven by [`crate::driver::cc_flow::run`], which asks for the proposal
//! (always a dry run first) and only with `--execute` plus confirmation starts it once and
//! follows it until it ends, with Ctrl-C offering to stop it or leave it running. This
//! module only plugs in what is particular to rebalances: the request
//! ([`RebalanceRequest`]), the broker-id checks (pure functions below, unit-tested), the
//! views, the confirmation text and the progress bar.
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
//! With `--execute`: one [`ExecutionView`] `{"proposal":<ProposalView>,"approved_proposal":
//! <ProposalView>|null,"drift":<DriftReport>|null,"execution_drift":<DriftReport>|null,
//! "execution":{"status":
//! "completed"|"started"|"failed"|"nothing-to-do"|"drifted","task_id":str|null,"progress":{"state",
//! "partitions_total","partitions_finished","partitions_in_progress","partitions_pending",
//! "leaders_total","leaders_finished","data_total_mb","data_finished_mb"}|null}}`.
//!
//! `status`: [`StatusView`] `{"executing":bool,"executor_state":str,"task_id":str|null,"reason":
//! str|null,"progress":<progress>|null,"monitor_state":str|null,"ready":bool,"not_ready_reason":
//! str|null,"proposal_ready":bool|null,"details":{"task_kind":"user"|"self-healing"|null,
//! "started_ms","elapsed_seconds","eta_seconds","intra_broker_movements_total",
//! "intra_broker_movements_finished","aborting_partitions","concurrency":{name:number}}|null,
//! "throttles":[{"broker","leader_rate","follower_rate"}]|null}`; `status --task`:
//! `{"task_id","status":"running"|"completed"|"failed"|"stopped","cruise_control_status","request",
//! "started_ms","progress"}`; `stop`: [`StopView`] `{"stop_requested":bool,"task_id":
//! str|null,"executor_state":str,"message":str}`; `review list|approve|discard`: `[{"id","status",
//! "endpoint","execution","request","submitter","submitted_ms","reason"}]`. An execution ended by
//! a stop request is `"status":"stopped"` (exit 9), distinct from `"failed"` (exit 1).
//!
//! The execution is started with a second, non-dry-run request (as Strimzi does), so Cruise
//! Control recomputes the proposal; the `proposal` of an execution is that second answer. Before
//! it is sent, the proposal is asked for once more as a dry run and compared with the approved one
//! (`approved_proposal`: the dry run shown, or `--approved-plan`); past `--max-drift` /
//! `--max-data-mb` nothing runs (`drifted`, exit 1 under `--yes`; a person is asked again). See
//! [`crate::engine::drift`] for why the check happens before, not after, the execution request. After a
//! completed execution the executor reports no counters any more, so the final `progress` is the
//! last observation with every movement counted as finished.

mod drift;
mod leaving;
mod options;
mod render;
mod review;
mod status_extra;
pub(crate) mod task;

pub use render::*;

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::Ctx;
use crate::cli::rebalance::{
    AddArgs, DemoteArgs, FullArgs, ProposalArgs, RebalanceCommand, RemoveArgs, RemoveDisksArgs,
    StatusArgs, StopArgs,
};
use crate::cruise_control::model::{CruiseControlState, OptimizationResult, ProgressStep};
use crate::cruise_control::params::{
    ExecutionOptions, GoalOptions, RebalanceKind, RebalanceRequest, Substate,
};
use crate::cruise_control::{Answer, CcError, CruiseControlClient, Observer};
use crate::driver::cc_flow::{self as flow, FlowHooks};
use crate::engine::cc_flow::{FlowConfig, InterruptChoice, Outcome};
use crate::engine::drift::{DriftReport, Plan, Tolerance};
use crate::engine::operator_guard::Action;
use crate::engine::view::{ExecutionProgress, ExecutorState, MonitorState, Readiness};
use crate::error::{CliError, ExitCode};
use crate::error_codes::OutcomeExitCode;
use crate::output::{Printer, confirm, progress_bar};

/// Runs a `rebalance` subcommand.
pub async fn run(ctx: &Ctx, cmd: RebalanceCommand) -> Result<ExitCode, CliError> {
    match cmd {
        RebalanceCommand::Add(AddArgs { brokers, proposal }) => {
            propose(ctx, RebalanceKind::AddBrokers(brokers.0), proposal, None).await
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
            propose(ctx, kind, proposal, None).await
        }
        RebalanceCommand::Full(FullArgs {
            destination_brokers,
            rebalance_disk,
            concurrent_intra_broker_partition_movements,
            proposal,
        }) => {
            let full = options::FullOptions {
                destination_brokers: destination_brokers.map(|d| d.0).unwrap_or_default(),
                rebalance_disk,
                concurrent_intra_broker_partition_movements,
            };
            propose(ctx, RebalanceKind::Full, proposal, Some(full)).await
        }
        RebalanceCommand::Demote(DemoteArgs { brokers, proposal }) => {
            propose(ctx, RebalanceKind::Demote(brokers.0), proposal, None).await
        }
        RebalanceCommand::RemoveDisks(RemoveDisksArgs {
            brokers_and_logdirs,
            proposal,
        }) => {
            let kind = RebalanceKind::RemoveDisks(brokers_and_logdirs);
            propose(ctx, kind, proposal, None).await
        }
        RebalanceCommand::Imbalance(a) => super::imbalance::run(ctx, a).await,
        RebalanceCommand::Status(a) => status(ctx, &a).await,
        RebalanceCommand::Stop(a) => stop(ctx, &a).await,
        RebalanceCommand::Pace(a) => super::pace::run(ctx, &a).await,
        RebalanceCommand::Review(c) => review::run(ctx, c).await,
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
        other => other.named_brokers(),
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

// ---------------------------------------------------------------------------
// Act: the imperative shell.
// ---------------------------------------------------------------------------

/// Tells the user what a wait is for (stderr; the progress bar is separate).
pub(crate) struct CliObserver {
    pub(crate) printer: Printer,
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

pub(crate) fn client(ctx: &Ctx, poll_interval: Duration) -> Result<CruiseControlClient, CliError> {
    Ok(crate::app::clients::cruise_control(
        &ctx.settings.cruise_control,
        crate::app::clients::CcOptions::polling(poll_interval),
    )?)
}

fn usage(e: InputError) -> CliError {
    CliError::new(ExitCode::Usage, e)
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

async fn propose(
    ctx: &Ctx,
    kind: RebalanceKind,
    a: ProposalArgs,
    full: Option<options::FullOptions>,
) -> Result<ExitCode, CliError> {
    validate_args(&kind).map_err(usage)?;
    let request = checked_request(&kind, &a, full.as_ref())?;
    // Leaving brokers are cordoned before anything moves (KIP-1066; see commands::cordon).
    let cordon = match &kind {
        RebalanceKind::RemoveBrokers { brokers, .. } if a.execute => {
            super::cordon::before_removal(ctx, &ctx.printer, brokers).await?
        }
        _ => None,
    };
    let run = run_flow(ctx, &kind, &request, &a).await;
    if let Some(c) = cordon {
        match &run {
            Ok(r) => c.after_run(ctx, &ctx.printer, &r.report.outcome).await,
            Err(_) => c.after(&ctx.printer, &Outcome::Declined).await,
        }
    }
    let run = run?;
    if let Some(out) = &run.output {
        emit_flow_output(&ctx.printer, out)?;
    }
    if let (RebalanceKind::RemoveBrokers { brokers, .. }, Outcome::Completed { .. }) =
        (&kind, &run.report.outcome)
    {
        let leaving = ids(brokers);
        let now = if leaving::verify_empty(ctx, brokers).await? {
            "hold no replicas now (Kafka metadata)"
        } else {
            "were not checked: no Kafka connection is configured (--bootstrap-servers); check them before shutting them down"
        };
        ctx.printer.note(format!(
            "Broker(s) {leaving} {now}. Topics created from now on may still be placed on them (Kafka uses any live broker): shut them down soon, or run `kafkaops rebalance remove` again if new replicas appear"
        ));
    }
    run.finish()
}

/// The request of `add`, `remove`, `full` (and `imbalance`, with its template merged in).
/// The request for `kind` with every option, refused (exit 2, nothing sent) when an option does
/// not reach the endpoint (see [`options`]).
pub(crate) fn checked_request(
    kind: &RebalanceKind,
    a: &ProposalArgs,
    full: Option<&options::FullOptions>,
) -> Result<RebalanceRequest, CliError> {
    let bad = options::unsupported(kind, a);
    if !bad.is_empty() {
        return Err(CliError::new(
            ExitCode::Usage,
            anyhow::anyhow!(
                "{} cannot be used with Cruise Control's {} endpoint; nothing was changed",
                bad.join(", "),
                kind.endpoint()
            ),
        ));
    }
    let mut request = proposal_request(kind, a);
    if let Some(full) = full {
        options::apply_full(&mut request, full);
    }
    request.extra = options::cc_params(&request, &a.cc_params)
        .map_err(|e| CliError::new(ExitCode::Usage, anyhow::anyhow!("{e}; nothing was changed")))?;
    Ok(request)
}

pub(crate) fn proposal_request(kind: &RebalanceKind, a: &ProposalArgs) -> RebalanceRequest {
    RebalanceRequest {
        kind: kind.clone(),
        goals: GoalOptions {
            goals: a.goals.clone(),
            excluded_topics: a.excluded_topics.clone(),
            skip_hard_goal_check: a.skip_hard_goal_check,
            exclude_recently_demoted_brokers: a.exclude_recently_demoted_brokers,
            ..GoalOptions::default()
        },
        execution: ExecutionOptions {
            dryrun: true,
            replication_throttle: a.replication_throttle,
            concurrent_partition_movements_per_broker: a.concurrent_partition_movements_per_broker,
            concurrent_leader_movements: a.concurrent_leader_movements,
            max_partition_movements_in_cluster: a.max_partition_movements_in_cluster,
            replica_movement_strategies: a.replica_movement_strategies.clone(),
            concurrent_intra_broker_partition_movements: None,
        },
        reason: a.reason.clone(),
        verbose: true,
        review_id: None,
        extra: Vec::new(),
    }
}

/// What a rebalance flow printed as its result: the dry-run proposal or the execution.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum FlowOutput {
    Proposal(ProposalView),
    Execution(ExecutionView),
}

/// One run of the shared flow, for the rebalance modes.
pub(crate) struct FlowRun {
    pub report: flow::FlowReport<CliError>,
    pub output: Option<FlowOutput>,
}

impl FlowRun {
    /// The exit code, or the error that explains a failing outcome.
    pub fn finish(self) -> Result<ExitCode, CliError> {
        match self.report.error {
            Some(e) => Err(e),
            None => Ok(self.report.outcome.exit_code()),
        }
    }
}

/// Prints a flow's result as `rebalance add|remove|full` do.
pub(crate) fn emit_flow_output(printer: &Printer, out: &FlowOutput) -> Result<(), CliError> {
    match out {
        FlowOutput::Proposal(view) => {
            printer.emit(view, |v| render_proposal(v, printer.color, false))?;
        }
        FlowOutput::Execution(view) => emit_execution(printer, view)?,
    }
    Ok(())
}

/// The text of a flow's result (for streams of results, `rebalance imbalance --watch`).
pub(crate) fn render_flow_output(out: &FlowOutput, color: bool) -> String {
    match out {
        FlowOutput::Proposal(view) => render_proposal(view, color, false),
        FlowOutput::Execution(view) => render_execution(view, color),
    }
}

/// Runs the shared Cruise Control flow for `request` (preview, confirm, execute, follow) and
/// builds its result without printing it.
pub(crate) async fn run_flow(
    ctx: &Ctx,
    kind: &RebalanceKind,
    request: &RebalanceRequest,
    a: &ProposalArgs,
) -> Result<FlowRun, CliError> {
    let printer = ctx.printer.clone();
    // A Strimzi operator that is not paused, or its KafkaRebalance executing, would race this.
    let action = if a.execute {
        Action::Execute(match kind {
            RebalanceKind::AddBrokers(_) => "rebalance add execution",
            RebalanceKind::RemoveBrokers { .. } => "rebalance remove execution",
            RebalanceKind::Full => "rebalance execution",
            RebalanceKind::Demote(_) => "rebalance demote execution",
            RebalanceKind::RemoveDisks(_) => "rebalance remove-disks execution",
        })
    } else {
        Action::DryRun
    };
    crate::app::guards::operator(&ctx.kube(), ctx.strimzi(), action, a.force, &printer).await?;
    if a.execute {
        crate::app::guards::external_reassignments(
            &ctx.settings,
            ctx.request_timeout(),
            a.wait_for_reassignments,
            a.poll_interval,
            &printer,
        )
        .await?;
    }
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, a.poll_interval)?;
    let mut config = FlowConfig {
        execute: a.execute,
        assume_yes: ctx.global.yes,
        no_wait: a.no_wait,
        timeout_ms: millis(a.timeout),
        wait_for_ready_ms: millis(a.wait_for_ready),
        poll_interval_ms: millis(a.poll_interval),
        // The approved plan is the executed plan: re-checked as a dry run before it runs when
        // someone approved it (a person at the prompt, or --approved-plan). Under --yes alone the
        // dry run was computed a moment ago and approved by nobody: a second one would only cost
        // a user-task slot; the execution's own answer is still compared (execution_drift).
        recheck: a.execute && (!ctx.global.yes || a.approved_plan.is_some()),
        // The proposal has --timeout; a running execution is followed as long as it runs
        // (or --follow-timeout), so a long one that progresses never ends in "timed out".
        follow_timeout_ms: Some(a.follow_timeout.map_or(u64::MAX, millis)),
    };
    let approved_plan = match &a.approved_plan {
        Some(path) => Some(drift::load_approved_plan(path, kind)?),
        None => None,
    };
    let hooks = RebalanceHooks {
        kind,
        printer: &printer,
        execute: a.execute,
        show_internal: a.show_internal,
        url: cc.url().to_string(),
        follow: Mutex::new(None),
        approved_plan,
        tolerance: Tolerance {
            max_drift_pct: a.max_drift,
            max_data_mb: a.max_data_mb,
        },
    };
    let placement_before = if a.execute && !a.no_wait {
        super::placement::read(ctx).await
    } else {
        None
    };
    let interrupt = interrupt_signal();
    let report = match a.review_id {
        Some(id) => {
            let op = review::Reviewed::prepare(
                &cc,
                request,
                id,
                a.execute,
                Instant::now() + a.timeout,
                &obs,
            )
            .await?;
            // Cruise Control's reviewer approved this request: no second dry run (it would be
            // held too), and an approved execution needs no second confirmation.
            config.recheck = false;
            config.assume_yes |= op.execution;
            flow::run(&cc, &op, config, &hooks, &obs, interrupt).await
        }
        None => flow::run(&cc, request, config, &hooks, &obs, interrupt).await,
    };
    let placement_in_kafka = match (&placement_before, report.flow.execution_started()) {
        (Some(before), true) => super::placement::read(ctx)
            .await
            .map(|after| super::placement::changes(before, &after)),
        _ => None,
    };
    let mut report = report;
    if let Some(e) = terminated_error(&report.outcome) {
        report.error = Some(e);
    }
    // A stop and a failure both end CompletedWithError: tell them apart (see `task`).
    let mut stopped = false;
    if let Outcome::Failed { task_id: Some(t) } = &report.outcome {
        let deadline = Instant::now() + Duration::from_secs(60);
        if let Ok((_, task::Verdict::Stopped)) = task::look(&cc, t, deadline, &obs).await {
            stopped = true;
            report.error = Some(CliError::new(
                ExitCode::Stopped,
                anyhow::anyhow!(
                    "the execution (task {t}) was stopped by a stop request (stop_proposal_execution); replicas already moved stay where they are"
                ),
            ));
        }
    }

    let proposal_of = |answer: &Option<Answer<OptimizationResult>>, dry_run: bool| {
        answer.as_ref().map(|answer| ProposalView {
            show_internal: a.show_internal,
            ..ProposalView::new(kind, &answer.value, dry_run)
        })
    };
    let mut output = None;
    let status = match &report.outcome {
        Outcome::Proposed => {
            output = proposal_of(&report.proposal, true).map(FlowOutput::Proposal);
            None
        }
        Outcome::NothingToDo => Some(("nothing-to-do", proposal_of(&report.proposal, true))),
        Outcome::Started { .. } => Some(("started", proposal_of(&report.execution, false))),
        Outcome::Completed { .. } => Some(("completed", proposal_of(&report.execution, false))),
        Outcome::Failed { .. } if stopped => {
            Some(("stopped", proposal_of(&report.execution, false)))
        }
        Outcome::Failed { .. } | Outcome::TaskLost { .. } => {
            Some(("failed", proposal_of(&report.execution, false)))
        }
        Outcome::Drifted { .. } => Some(("drifted", proposal_of(&report.recheck, true))),
        _ => None,
    };
    if let Some((status, Some(proposal))) = status {
        let approved_proposal = match status {
            "nothing-to-do" => None,
            _ => proposal_of(&report.proposal, true).map(Box::new),
        };
        let progress = match status {
            "started" => None,
            "completed" => completed_progress(report.flow.progress().cloned(), &proposal.summary),
            _ => report.flow.progress().cloned(),
        };
        output = Some(FlowOutput::Execution(ExecutionView {
            proposal,
            approved_proposal,
            drift: report.drift.clone().map(Box::new),
            execution_drift: report.execution_drift.clone().map(Box::new),
            execution: ExecutionOutcome {
                status,
                task_id: report.outcome.task_id().map(str::to_string),
                progress,
                placement_in_kafka,
            },
        }));
    }
    Ok(FlowRun { report, output })
}

/// The rebalance command's side of the Cruise Control flow.
struct RebalanceHooks<'a> {
    kind: &'a RebalanceKind,
    printer: &'a Printer,
    execute: bool,
    show_internal: bool,
    url: String,
    follow: Mutex<Option<FollowDisplay>>,
    /// `--approved-plan`: what a `--yes` execution must match.
    approved_plan: Option<Plan>,
    tolerance: Tolerance,
}

/// The progress bar while following, and what its rate is computed from.
struct FollowDisplay {
    pb: indicatif::ProgressBar,
    started: Instant,
    first_mb: Option<f64>,
    /// The highest counters seen so far ([`ExecutionProgress::observe`]): a real Cruise Control
    /// drops them in the leader phase and moves them in jumps.
    seen: Option<ExecutionProgress>,
}

impl FlowHooks for RebalanceHooks<'_> {
    type Error = CliError;

    async fn check_input(
        &self,
        cc: &CruiseControlClient,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<Result<(), CliError>, CcError> {
        // A dry run changes nothing and Cruise Control checks the ids itself ("Broker [9] does
        // not exist.", exit 2): asking kafka_cluster_state first would only take one more of its
        // few user-task slots (reference section 13). An execution is checked first.
        if matches!(self.kind, RebalanceKind::Full) || !self.execute {
            return Ok(Ok(()));
        }
        let cluster = cc.kafka_cluster_state(deadline, obs).await?;
        Ok(validate_against_cluster(self.kind, &cluster.broker_ids()).map_err(usage))
    }

    fn waiting_for_ready(&self, reason: &str) {
        self.printer
            .note(format!("Waiting for Cruise Control's load model: {reason}"));
    }

    fn proposal(&self, dry_run: &Answer<OptimizationResult>) {
        let view = ProposalView::new(self.kind, &dry_run.value, true);
        if let RebalanceKind::RemoveBrokers { brokers, .. } = self.kind {
            let left = leaving::left_in_proposal(&view, brokers);
            if !left.is_empty() {
                self.printer.note(format!(
                    "Warning: this proposal leaves replicas on leaving broker(s): {}; they would not be empty after it",
                    left.iter()
                        .map(|(b, n)| format!("broker {b}: {n} replica(s)"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        // With --execute the proposal is shown once, as what is about to run; a dry run is
        // printed with the outcome.
        if !self.execute {
            return;
        }
        let view = ProposalView {
            show_internal: self.show_internal,
            ..view
        };
        let text = render_proposal(&view, self.printer.color, true);
        if self.printer.format == crate::output::OutputFormat::Table {
            if let Err(e) = crate::output::write_stdout(&text) {
                tracing::warn!("cannot print the proposal: {e:#}");
            }
        } else if self.printer.interactive {
            // JSON or YAML on a terminal: stdout carries the document at the end, but the
            // person about to be asked must see what they approve first (on stderr).
            crate::output::write_stderr(&text);
        }
    }

    fn execution_drifted(&self, report: &DriftReport, task_id: Option<&str>) {
        self.printer.note(format!(
            "Warning: Cruise Control recomputed the proposal for the execution{} and it differs from the approved one ({}); it is running. Stop it with `kafkaops rebalance stop` if that is not acceptable",
            task_id.map(|t| format!(" (task {t})")).unwrap_or_default(),
            report.reasons.join("; ")
        ));
    }

    fn approved_plan(&self) -> Option<Plan> {
        self.approved_plan.clone()
    }

    fn tolerance(&self) -> Tolerance {
        self.tolerance
    }

    fn drifted(&self, report: &DriftReport, new: &Answer<OptimizationResult>) {
        self.printer
            .note(drift::render_drift(report).trim_end().to_string());
        if self.printer.interactive {
            let view = ProposalView::new(self.kind, &new.value, true);
            let text = render_proposal(&view, self.printer.color, true).replacen(
                "Proposal to execute:",
                "New proposal:",
                1,
            );
            if self.printer.format == crate::output::OutputFormat::Table {
                let _ = crate::output::write_stdout(&text);
            } else {
                crate::output::write_stderr(&text);
            }
        }
    }

    fn confirm(&self, dry_run: &Answer<OptimizationResult>) -> Result<(), CliError> {
        let view = ProposalView::new(self.kind, &dry_run.value, true);
        let action = format!(
            "Execute this proposal on Cruise Control at {} ({} replica and {} leader movements, {} MB)",
            self.url,
            view.summary.replica_movements,
            view.summary.leader_movements,
            num(view.summary.data_to_move_mb, 0)
        );
        // --yes never reaches this hook: the flow skips the question.
        confirm(&action, false, self.printer.interactive)?;
        Ok(())
    }

    fn following(&self, task_id: Option<&str>) {
        self.printer.note(format!(
            "Execution started{}; following it (Ctrl-C to stop it or leave it running)",
            task_id.map(|t| format!(" (task {t})")).unwrap_or_default()
        ));
        let mut follow = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        *follow = Some(FollowDisplay {
            pb: progress_bar(self.printer, 0, "moving"),
            started: Instant::now(),
            first_mb: None,
            seen: None,
        });
    }

    fn progress(&self, executor: &ExecutorState) {
        let mut p = executor.progress();
        let mut follow = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(f) = follow.as_mut() {
            match f.seen.as_mut() {
                Some(seen) => seen.observe(&p),
                None => f.seen = Some(p.clone()),
            }
            if let Some(seen) = &f.seen {
                p = seen.clone();
            }
            let base = *f.first_mb.get_or_insert(p.data_finished_mb);
            f.pb.set_length(p.partitions_total.max(1));
            f.pb.set_position(p.partitions_finished);
            f.pb.set_message(follow_message(
                &p,
                p.data_finished_mb - base,
                f.started.elapsed().as_secs_f64(),
            ));
        }
        tracing::info!(
            "{}: {}/{} partitions, {:.0}/{:.0} MB",
            p.state,
            p.partitions_finished,
            p.partitions_total,
            p.data_finished_mb,
            p.data_total_mb
        );
    }

    fn follow_ended(&self) {
        let mut follow = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(f) = follow.take() {
            f.pb.finish_and_clear();
        }
    }

    async fn choose_after_interrupt(&self, _task_id: Option<&str>) -> InterruptChoice {
        // SIGTERM is a CI job or a pod being cancelled, not a person: like Ctrl-C without a
        // terminal, the execution is left running.
        if !self.printer.interactive || terminated() {
            return InterruptChoice::LeaveRunning;
        }
        let stop = tokio::task::spawn_blocking(|| {
            dialoguer::Select::new()
                .with_prompt("Interrupted. What about the running execution?")
                .items(["Leave it running", "Stop it"])
                .default(0)
                .interact()
                .map(|i| i == 1)
                .unwrap_or(false)
        })
        .await
        .unwrap_or(false);
        if stop {
            InterruptChoice::Stop
        } else {
            InterruptChoice::LeaveRunning
        }
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

/// Set when SIGTERM (not Ctrl-C) interrupted the flow.
static TERMINATED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether SIGTERM interrupted the flow.
pub(crate) fn terminated() -> bool {
    TERMINATED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Resolves on Ctrl-C or SIGTERM (an error registering the handler counts as an interrupt, as
/// it always did). SIGTERM (a cancelled CI job, a pod being deleted) is handled like Ctrl-C
/// without a terminal: a started execution keeps running, kafkaops says so with the task id
/// and exits 143 ([`terminated_error`]). The handlers are installed when the flow first listens
/// (once the execution request is being sent); before that nothing has changed and the
/// default signal handling stays.
pub(crate) async fn interrupt_signal() {
    #[cfg(unix)]
    if let Ok(mut term) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
    {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => TERMINATED.store(true, std::sync::atomic::Ordering::SeqCst),
        }
        return;
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// The error for a flow that SIGTERM interrupted (exit 143), or `None` if it was not SIGTERM.
pub(crate) fn terminated_error(outcome: &Outcome) -> Option<CliError> {
    if !terminated() {
        return None;
    }
    let Outcome::Interrupted { task_id, after } = outcome else {
        return None;
    };
    let msg = match (task_id, after) {
        (_, crate::engine::cc_flow::AfterInterrupt::NothingStarted) => {
            "terminated (SIGTERM) before anything was executed; nothing was changed".to_string()
        }
        (Some(t), _) => format!(
            "terminated (SIGTERM): the execution (task {t}) keeps running on Cruise Control; follow it with `kafkaops rebalance status --task {t} --follow`, stop it with `kafkaops rebalance stop`"
        ),
        (None, _) => "terminated (SIGTERM) while the execution was being started: it may be running on Cruise Control; see `kafkaops rebalance status`".to_string(),
    };
    Some(CliError::new(ExitCode::Terminated, anyhow::anyhow!(msg)))
}

async fn status(ctx: &Ctx, a: &StatusArgs) -> Result<ExitCode, CliError> {
    if let Some(task_id) = &a.task {
        return task::status_task(ctx, a, task_id).await;
    }
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
    let mut view = status_view(&state);
    if view.executing {
        let executor = state.executor.clone().unwrap_or_default();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        view.details = Some(status_extra::details(&executor, now));
    }
    view.throttles = status_extra::throttles(ctx).await;
    // Cordoned brokers (KIP-1066) come from Kafka, when it is configured and supports them.
    #[derive(Serialize)]
    struct WithCordons<'a> {
        #[serde(flatten)]
        view: &'a StatusView,
        #[serde(skip_serializing_if = "Option::is_none")]
        cordoned_brokers: Option<Vec<i32>>,
    }
    let out = WithCordons {
        view: &view,
        cordoned_brokers: super::cordon::cordoned_brokers(ctx).await,
    };
    printer.emit(&out, |o| {
        let mut s = render_status(o.view, printer.color);
        if let Some(c) = &o.cordoned_brokers {
            s.push_str(&format!(
                "Cordoned brokers: {}\n",
                if c.is_empty() { "none".into() } else { ids(c) }
            ));
        }
        s
    })?;
    Ok(ExitCode::Ok)
}

/// The status shown for a Cruise Control state (pure).
#[must_use]
pub fn status_view(state: &CruiseControlState) -> StatusView {
    let executor = state.executor_view();
    let monitor = state.monitor_view();
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
        details: None,
        throttles: None,
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
        .executor_view();
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
    let now = wait_until_idle(&cc, a.poll_interval, started, deadline, &printer, &obs).await?;
    let view = StopView {
        stop_requested: true,
        task_id,
        executor_state: now.state,
        message: "The execution was stopped; replicas already moved stay where they are.".into(),
    };
    printer.emit(&view, |v| format!("{}\n", v.message))?;
    if let Some(t) = &view.task_id {
        super::cordon::after_stop(ctx, &printer, t).await;
    }
    Ok(ExitCode::Ok)
}

/// After a stop request: polls the executor until it is idle (Cruise Control stops after the
/// batch in flight), or fails with a timeout at `deadline`.
pub(crate) async fn wait_until_idle(
    cc: &CruiseControlClient,
    poll_interval: Duration,
    started: Instant,
    deadline: Instant,
    printer: &Printer,
    obs: &dyn Observer,
) -> Result<ExecutorState, CliError> {
    loop {
        let now = cc
            .state(&[Substate::Executor], false, deadline, obs)
            .await?
            .executor_view();
        if now.is_idle() {
            return Ok(now);
        }
        if Instant::now() + poll_interval > deadline {
            return Err(CcError::DeadlineExceeded {
                waiting_for: format!("the execution to stop (executor: {})", now.describe()),
                after: started.elapsed(),
            }
            .into());
        }
        printer.note(format!("Waiting for the execution to stop: {}", now.state));
        tokio::time::sleep(poll_interval).await;
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
    fn internal_topics_are_folded_into_one_line_unless_asked() {
        let r: OptimizationResult = from_str(
            r#"{"summary":{"numReplicaMovements":3,"numLeaderMovements":0,"dataToMoveMB":0},
               "proposals":[{"topicPartition":"orders-0","oldLeader":1,"oldReplicas":[1,2],"newReplicas":[4,2]},
                            {"topicPartition":"__KafkaCruiseControlPartitionMetricSamples-0","oldLeader":1,"oldReplicas":[1,2],"newReplicas":[4,2]},
                            {"topicPartition":"__KafkaCruiseControlModelTrainingSamples-3","oldLeader":2,"oldReplicas":[2,3],"newReplicas":[2,4]}]}"#,
        )
        .unwrap();
        let v = ProposalView::new(&RebalanceKind::AddBrokers(vec![4]), &r, true);
        let text = render_proposal(&v, false, false);
        assert!(text.contains("orders-0"), "{text}");
        assert!(
            !text.contains("__KafkaCruiseControlPartitionMetricSamples-0"),
            "{text}"
        );
        assert!(
            text.contains("2 internal partition(s) of 2 topic(s)"),
            "{text}"
        );
        let v = ProposalView {
            show_internal: true,
            ..v
        };
        let text = render_proposal(&v, false, false);
        assert!(
            text.contains("__KafkaCruiseControlPartitionMetricSamples-0"),
            "{text}"
        );
        assert!(!text.contains("internal partition(s)"), "{text}");
        assert_eq!(
            v.movements.len(),
            3,
            "the view (and JSON) keeps every movement"
        );
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
