//! Before the roll touches anything: the plan shown, a dry run's end, the refusals (Cruise
//! Control executes, `--strict`, a plan already blocked), nothing to do, and the confirmation.

use super::plan::Planned;
use super::{
    Ctx, Document, ResultDoc, RollRunArgs, emit_result, join, join_or_none, movers, render_plan,
};
use crate::driver::{Outcome, RunReport};
use crate::engine::model::ClusterSnapshot;
use crate::engine::roll::{Plan, PlanStep};
use crate::error::{CliError, CodedError, ExitCode};
use crate::output::{OutputFormat, confirm};

/// Whether the roll goes on.
pub(super) enum Gate {
    Go,
    /// It ends here with this code (a dry run, nothing to do).
    Stop(ExitCode),
}

/// Shows the plan and decides whether the roll may start (or resume).
pub(super) fn check(ctx: &Ctx, args: &RollRunArgs, p: &Planned) -> Result<Gate, CliError> {
    let printer = &ctx.printer;
    let (plan, snapshot, notes) = (&p.plan, &p.prepared.snapshot, &p.notes);
    if let Some(run) = &p.resumed
        && !printer.quiet
    {
        crate::output::stderr_line(format_args!(
            "Resuming the roll saved in {} (restarted so far: {}; a node whose restart was \
             in flight is judged from evidence, not restarted again)",
            p.state_path.display(),
            join_or_none(&RunReport::of(run, Outcome::Interrupted, run.started).restarted())
        ));
    }
    if printer.format == OutputFormat::Table {
        crate::output::write_stdout(&crate::output::fit_prose(
            &render_plan(plan, snapshot, notes),
            printer.style(),
        ))?;
    }
    let strict_refusal = (args.strict && !p.risky.is_empty()).then(|| {
        format!(
            "--strict: {} topic(s) cannot stay available during this roll: {}",
            p.risky.len(),
            p.risky
                .iter()
                .map(|t| t.topic.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    if args.dry_run {
        return dry_run(ctx, args, p, strict_refusal);
    }
    if p.resumed.is_none() {
        refuse(ctx, args, p, strict_refusal.as_deref())?;
        if plan.steps.is_empty() {
            emit_result(printer, plan, notes, &ResultDoc::nothing(plan))?;
            return Ok(Gate::Stop(ExitCode::Ok));
        }
    }
    for warning in plan_warnings(plan, snapshot) {
        if !printer.quiet {
            crate::output::stderr_line(crate::output::paint_line(
                &format!("warning: {warning}"),
                printer.err_color,
            ));
        }
    }
    let touched = plan.steps.len();
    confirm(
        &if p.resumed.is_some() {
            format!(
                "Resume the roll ({touched} step(s) left above{})",
                movers::confirmation(&p.others)
            )
        } else {
            format!(
                "Roll the cluster ({touched} step(s) above{})",
                movers::confirmation(&p.others)
            )
        },
        ctx.global.yes,
        printer.interactive,
    )?;
    Ok(Gate::Go)
}

/// A dry run ends after the plan: the document (JSON/YAML), and the refusals a real run would
/// meet as its exit code.
fn dry_run(
    ctx: &Ctx,
    args: &RollRunArgs,
    p: &Planned,
    strict_refusal: Option<String>,
) -> Result<Gate, CliError> {
    let printer = &ctx.printer;
    if printer.format != OutputFormat::Table {
        printer.emit(
            &Document {
                plan: &p.plan,
                notes: &p.notes,
                dry_run: true,
                result: None,
            },
            |_| String::new(),
        )?;
    }
    if let Some(reason) = strict_refusal {
        return Err(CliError::new(
            ExitCode::Failed,
            CodedError::new(ExitCode::Failed, format!("refusing the roll: {reason}")),
        ));
    }
    if let Some(reason) = movers::strict_refusal(&p.others, args.strict) {
        return Err(movers::error(
            ExitCode::Busy,
            format!("refusing the roll: {reason}"),
        ));
    }
    Ok(Gate::Stop(ExitCode::Ok))
}

/// A new roll refuses (with its result document) while Cruise Control executes or cannot be
/// asked, under `--strict` with other reassignments or risky topics, or when its plan is
/// already blocked. A resumed one may be in the middle of a batch and waits instead (the
/// engine holds new actions until the execution ends).
fn refuse(
    ctx: &Ctx,
    args: &RollRunArgs,
    p: &Planned,
    strict_refusal: Option<&str>,
) -> Result<(), CliError> {
    let (printer, plan, notes) = (&ctx.printer, &p.plan, &p.notes);
    if let Some((code, message)) = movers::refusal(&p.others, args.force) {
        let mut result = ResultDoc::refused(plan, &message);
        result.exit_code = code.code();
        emit_result(printer, plan, notes, &result)?;
        return Err(movers::error(code, message));
    }
    if let Some(reason) = movers::strict_refusal(&p.others, args.strict) {
        let mut result = ResultDoc::refused(plan, &reason);
        result.exit_code = ExitCode::Busy.code();
        emit_result(printer, plan, notes, &result)?;
        return Err(movers::error(
            ExitCode::Busy,
            format!("refusing to start the roll: {reason}"),
        ));
    }
    if let Some(reason) = strict_refusal {
        emit_result(printer, plan, notes, &ResultDoc::refused(plan, reason))?;
        return Err(CliError::new(
            ExitCode::Failed,
            CodedError::new(
                ExitCode::Failed,
                format!("refusing to start the roll: {reason}; nothing was changed"),
            ),
        ));
    }
    let blocked = plan.steps.iter().find_map(|s| match s {
        PlanStep::Blocked { nodes, reason } => Some((nodes.clone(), reason.clone())),
        _ => None,
    });
    if let Some((nodes, reason)) = blocked {
        emit_result(printer, plan, notes, &ResultDoc::refused(plan, &reason))?;
        let who = if nodes.is_empty() {
            String::new()
        } else {
            format!(" (node(s) {})", join(&nodes))
        };
        return Err(CliError::new(
            ExitCode::Failed,
            CodedError::new(
                ExitCode::Failed,
                format!("refusing to start the roll{who}: {reason}; nothing was changed"),
            ),
        ));
    }
    Ok(())
}

/// Warnings shown before asking: a restart that makes the metadata quorum unavailable.
pub(super) fn plan_warnings(plan: &Plan, snapshot: &ClusterSnapshot) -> Vec<String> {
    let voters = snapshot.quorum.as_ref().map_or(0, |q| q.voters.len());
    let mut out = Vec::new();
    if voters == 1 {
        let restarts_controller = plan.steps.iter().any(|s| match s {
            PlanStep::Restart { nodes, .. } => nodes.iter().any(|n| {
                snapshot
                    .nodes
                    .iter()
                    .any(|x| x.id == n.node && x.roles.controller)
            }),
            _ => false,
        });
        if restarts_controller {
            out.push(
                "the cluster has a single controller: while it restarts the metadata quorum is \
                 unavailable (no topic, partition or broker registration changes, no new \
                 leaders until it is back)"
                    .to_string(),
            );
        }
    }
    out
}
