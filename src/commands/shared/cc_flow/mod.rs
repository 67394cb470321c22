//! How the CLI runs and shows a Cruise Control rebalance flow, shared by the subcommands that
//! run one (`rebalance add|remove|full|demote|remove-disks`, `rebalance imbalance`, `rebalance
//! status --task --follow`, `rebalance pace`).
//!
//! The flow itself is the pure state machine [`crate::engine::cc_flow`] driven by
//! [`crate::driver::cc_flow`]; the requests, guards and checks are the application layer's
//! ([`crate::app::rebalance`], [`crate::app::cordon`], [`crate::app::placement`]). What is here
//! is the terminal's side: the hooks that show the proposal, ask for confirmation and draw the
//! progress bar ([`hooks`]), the views ([`render`], the JSON shapes documented in
//! `commands::rebalance`) and their text ([`text`]), following a task ([`task`]) and the signals (Ctrl-C, SIGTERM). It is
//! not a subcommand: subcommands import it, it imports none of them.

mod follow_end;
mod hooks;
pub(crate) mod render;
pub(crate) mod status_extra;
pub(crate) mod task;
pub(crate) mod text;

pub use follow_end::{FollowEnded, FollowView, follow_ended};
pub(crate) use hooks::RebalanceHooks;
pub use render::*;
pub use text::*;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::observe::{CliObserver, cruise_control as client};
use crate::app::rebalance::task::{Verdict, look};
use crate::app::rebalance::{InputError, ProposalSpec, ids};
use crate::commands::Ctx;
use crate::cruise_control::Answer;
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::{RebalanceKind, RebalanceRequest};
use crate::driver::cc_flow as flow;
use crate::engine::cc_flow::{AfterInterrupt, FlowConfig, Outcome};
use crate::engine::drift::{DriftReport, Tolerance};
use crate::engine::operator_guard::Action;
use crate::engine::view::ExecutionProgress;
use crate::error::{CliError, ExitCode};
use crate::error_codes::OutcomeExitCode;
use crate::output::Printer;

pub(crate) fn usage(e: InputError) -> CliError {
    CliError::new(ExitCode::Usage, e)
}

pub(crate) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// What a rebalance flow printed as its result: the dry-run proposal or the execution.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum FlowOutput {
    Proposal(ProposalView),
    Execution(ExecutionView),
}

/// One run of the shared flow, for the rebalance modes.
pub(crate) struct FlowRun {
    pub report: flow::FlowReport<CliError>,
    pub output: Option<FlowOutput>,
    /// The operator chose to leave the execution running at the Ctrl-C menu: a clean exit.
    pub left_running: bool,
}

impl FlowRun {
    /// The exit code, or the error that explains a failing outcome.
    pub fn finish(self) -> Result<ExitCode, CliError> {
        if self.left_running {
            return Ok(ExitCode::Ok);
        }
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
            printer.emit(view, |v| render_proposal(v, printer.style(), false))?;
        }
        FlowOutput::Execution(view) => emit_execution(printer, view)?,
    }
    Ok(())
}

/// The text of a flow's result (for streams of results, `rebalance imbalance --watch`).
pub(crate) fn render_flow_output(out: &FlowOutput, style: crate::output::Style) -> String {
    match out {
        FlowOutput::Proposal(view) => render_proposal(view, style, false),
        FlowOutput::Execution(view) => render_execution(view, style),
    }
}

/// Runs the shared Cruise Control flow for `request` (preview, confirm, execute, follow) and
/// builds its result without printing it.
pub(crate) async fn run_flow(
    ctx: &Ctx,
    kind: &RebalanceKind,
    request: &RebalanceRequest,
    a: &ProposalSpec,
) -> Result<FlowRun, CliError> {
    let printer = ctx.printer.clone();
    guards(ctx, kind, a, &printer).await?;
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, a.poll_interval)?;
    let hooks = RebalanceHooks {
        kind,
        printer: &printer,
        execute: a.execute,
        show_internal: a.show_internal,
        url: cc.url().to_string(),
        follow: Mutex::new(None),
        approved_plan: match &a.approved_plan {
            Some(path) => Some(crate::app::rebalance::drift::load_approved_plan(
                path, kind,
            )?),
            None => None,
        },
        tolerance: Tolerance {
            max_drift_pct: a.max_drift,
            max_data_mb: a.max_data_mb,
        },
        attached: false,
        chose_leave: std::sync::atomic::AtomicBool::new(false),
    };
    let placement_before = if a.execute && !a.no_wait {
        crate::app::placement::read(&ctx.settings.kafka, ctx.request_timeout(), &ctx.printer).await
    } else {
        None
    };
    let config = flow_config(ctx, a);
    let mut report = send(&cc, request, a, config, &hooks, &obs).await?;
    let placement_in_kafka = match (&placement_before, report.flow.execution_started()) {
        (Some(before), true) => {
            crate::app::placement::read(&ctx.settings.kafka, ctx.request_timeout(), &ctx.printer)
                .await
                .map(|after| crate::app::placement::changes(before, &after))
        }
        _ => None,
    };
    if let Some(e) = terminated_error(&report.outcome) {
        report.error = Some(e);
    }
    let follow = follow_ended(
        &report.outcome,
        hooks.chose_leave.load(std::sync::atomic::Ordering::SeqCst),
        terminated(),
    )
    .map(|ended| FollowView {
        ended,
        follow_timeout_ms: a.follow_timeout.map(millis),
    });
    let mut left_running = false;
    if let Some(note) = hooks.left_running_by_choice(&report.outcome) {
        ctx.printer.note(note);
        report.error = None;
        left_running = true;
    }
    let stopped = stopped_by_a_stop_request(&cc, &mut report, &obs).await;
    if !stopped {
        explain_a_failed_execution(ctx, &mut report, placement_in_kafka.as_ref()).await;
    }
    let mut output = flow_output(&report, kind, a.show_internal, stopped, placement_in_kafka);
    if let Some(FlowOutput::Execution(view)) = output.as_mut() {
        view.follow = follow;
    }
    Ok(FlowRun {
        report,
        output,
        left_running,
    })
}

/// Refuses what would race this flow: a Strimzi operator that is not paused, or its
/// KafkaRebalance executing; before an execution, reassignments nobody owns.
async fn guards(
    ctx: &Ctx,
    kind: &RebalanceKind,
    a: &ProposalSpec,
    printer: &Printer,
) -> Result<(), CliError> {
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
    crate::app::guards::operator(&ctx.kube(), ctx.strimzi(), action, a.force, printer).await?;
    if a.execute {
        crate::app::guards::external_reassignments(
            &ctx.settings,
            ctx.request_timeout(),
            a.wait_for_reassignments,
            a.poll_interval,
            printer,
        )
        .await?;
    }
    Ok(())
}

/// How the flow runs for these options.
fn flow_config(ctx: &Ctx, a: &ProposalSpec) -> FlowConfig {
    FlowConfig {
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
    }
}

/// Runs the flow with the request as it must be sent: the one Cruise Control's reviewer
/// approved (`--review-id`), an execution that may be held for review, or the plain request.
async fn send(
    cc: &crate::cruise_control::CruiseControlClient,
    request: &RebalanceRequest,
    a: &ProposalSpec,
    mut config: FlowConfig,
    hooks: &RebalanceHooks<'_>,
    obs: &CliObserver,
) -> Result<flow::FlowReport<CliError>, CliError> {
    let interrupt = interrupt_signal();
    Ok(match a.review_id {
        Some(id) => {
            let op = crate::app::rebalance::review::Reviewed::prepare(
                cc,
                request,
                id,
                a.execute,
                Instant::now() + a.timeout,
                obs,
            )
            .await?;
            // Cruise Control's reviewer approved this request: no second dry run (it would be
            // held too), and an approved execution needs no second confirmation.
            config.recheck = false;
            config.assume_yes |= op.execution;
            flow::run(cc, &op, config, hooks, obs, interrupt).await
        }
        None if a.execute => {
            let op = crate::app::rebalance::review::ExecuteUnderReview {
                request,
                client: cc,
                deadline: Instant::now() + a.timeout,
            };
            flow::run(cc, &op, config, hooks, obs, interrupt).await
        }
        None => flow::run(cc, request, config, hooks, obs, interrupt).await,
    })
}

/// A stop and a failure both end `CompletedWithError`: Cruise Control's own record tells them
/// apart (see `task`). A stopped execution is reported as such; `true` when it was stopped.
async fn stopped_by_a_stop_request(
    cc: &crate::cruise_control::CruiseControlClient,
    report: &mut flow::FlowReport<CliError>,
    obs: &CliObserver,
) -> bool {
    let Outcome::Failed { task_id: Some(t) } = &report.outcome else {
        return false;
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    let Ok((_, Verdict::Stopped)) = look(cc, t, deadline, obs).await else {
        return false;
    };
    report.error = Some(CliError::new(
        ExitCode::Stopped,
        anyhow::anyhow!(
            "the execution (task {t}) was stopped by a stop request (stop_proposal_execution); replicas already moved stay where they are"
        ),
    ));
    true
}

/// A failed execution (not stopped by a stop request) says what Cruise Control and Kafka show:
/// what Kafka refused, what moved, what is still in flight and which throttles were left (#25
/// points 1 and 16): a real Cruise Control ends the whole execution when one move dies.
async fn explain_a_failed_execution(
    ctx: &Ctx,
    report: &mut flow::FlowReport<CliError>,
    placement_in_kafka: Option<&crate::app::placement::PlacementChange>,
) {
    use crate::app::rebalance::failure::{FailedExecution, failed_execution_message, read_kafka};
    let Outcome::Failed { task_id } = &report.outcome else {
        return;
    };
    let seen = read_kafka(ctx.kafka_access()).await;
    let executed = report.execution.as_ref().map(|a| &a.value);
    let down: Vec<i32> = match (&seen.alive, executed) {
        (Some(alive), Some(r)) => {
            let mut d: Vec<i32> = r
                .proposals
                .iter()
                .flat_map(|p| p.new_replicas.iter().copied())
                .filter(|b| !alive.contains(b))
                .collect();
            d.sort_unstable();
            d.dedup();
            d
        }
        _ => Vec::new(),
    };
    let done = match executed {
        Some(r) if placement_in_kafka.is_some() => {
            crate::app::placement::read(&ctx.settings.kafka, ctx.request_timeout(), &ctx.printer)
                .await
                .map(|now| crate::app::placement::proposal_done(&r.proposals, &now))
        }
        _ => None,
    };
    // Not stopped by a stop request, yet seen stopping.
    let stopped_by_cruise_control = report.flow.saw_stopping();
    if let Some(msg) = failed_execution_message(&FailedExecution {
        task_id: task_id.as_deref(),
        stopped_by_cruise_control,
        cordoned: &seen.cordoned,
        down_destinations: &down,
        moved: placement_in_kafka,
        done,
        in_flight: seen.in_flight.as_deref(),
        throttles: seen.throttles.as_deref(),
    }) {
        report.error = Some(CliError::new(ExitCode::Failed, anyhow::anyhow!(msg)));
    }
}

/// What a flow shows as its result (pure): the dry-run proposal, or the execution with the
/// proposal it ran, the approved one, the drift and the progress. `stopped`: a failed execution
/// was stopped by a stop request.
fn flow_output(
    report: &flow::FlowReport<CliError>,
    kind: &RebalanceKind,
    show_internal: bool,
    stopped: bool,
    placement_in_kafka: Option<crate::app::placement::PlacementChange>,
) -> Option<FlowOutput> {
    let proposal_of = |answer: &Option<Answer<OptimizationResult>>, dry_run: bool| {
        answer.as_ref().map(|answer| ProposalView {
            show_internal,
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
        // Following ended while the execution runs (left running, --follow-timeout, SIGTERM):
        // the document still comes, with what was seen last (`follow.ended` says why).
        Outcome::TimedOut { .. }
        | Outcome::Interrupted {
            after: AfterInterrupt::LeftRunning | AfterInterrupt::StopFailed,
            ..
        } => Some(("running", proposal_of(&report.execution, false))),
        Outcome::Interrupted {
            after: AfterInterrupt::StopRequested,
            ..
        } => Some(("stopping", proposal_of(&report.execution, false))),
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
            task_id: report.outcome.task_id().map(str::to_string),
            proposal,
            approved_proposal,
            drift: report.drift.clone().map(Box::new),
            execution_drift: report.execution_drift.clone().map(Box::new),
            follow: None,
            execution: ExecutionOutcome {
                status,
                progress,
                placement_in_kafka,
            },
        }));
    }
    output
}

fn emit_execution(printer: &Printer, out: &ExecutionView) -> Result<(), CliError> {
    if printer.format == crate::output::OutputFormat::Table {
        crate::output::write_stdout(&render_execution(out, printer.style()))?;
    } else {
        printer.emit(out, |v| render_execution(v, printer.style()))?;
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
