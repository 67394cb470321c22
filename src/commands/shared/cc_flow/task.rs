//! `kafkaops rebalance status --task ID [--follow]`: what became of an execution, after the fact.
//!
//! After `--no-wait`, a timeout, a lost terminal or a cancelled CI job, the task id is all that
//! is left. Cruise Control's `user_tasks` says whether the task still runs (`Active`,
//! `InExecution`), `Completed`, or `CompletedWithError`. A stopped execution also ends
//! `CompletedWithError` (reference §3.8), so a stop is told from a failure by Cruise Control's own
//! record: a `stop_proposal_execution` user task started after the execution's task
//! ([`verdict`], pure). Exit codes: completed 0, failed 1, stopped 9, still running 0 (without
//! `--follow`), forgotten by Cruise Control 1 (outcome unknown).
//!
//! `--follow` re-attaches: the shared flow ([`crate::engine::cc_flow::CcFlow::attach`]) follows
//! the task exactly as a fresh `--execute` would (progress bar, Ctrl-C to stop it or leave it
//! running), but can never send a proposal or an execution request.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::{RebalanceHooks, millis};
use crate::app::rebalance::task::{Verdict, look};
use crate::cli::rebalance::StatusArgs;
use crate::commands::Ctx;
use crate::commands::shared::observe::{CliObserver, cruise_control as client};
use crate::cruise_control::params::{
    ExecutionOptions, GoalOptions, RebalanceKind, RebalanceRequest, Substate,
};
use crate::driver::cc_flow::{self as flow, FlowDriver};
use crate::engine::cc_flow::{CcFlow, FlowConfig, Outcome};
use crate::engine::drift::Tolerance;
use crate::engine::model::Millis;
use crate::engine::view::ExecutionProgress;
use crate::error::{CliError, ExitCode};
use crate::error_codes::OutcomeExitCode;

/// The exit code of a task's verdict (the edge's table).
pub trait VerdictExitCode {
    fn exit_code(self) -> ExitCode;
}

impl VerdictExitCode for Verdict {
    fn exit_code(self) -> ExitCode {
        match self {
            Verdict::Running | Verdict::Completed => ExitCode::Ok,
            Verdict::Failed => ExitCode::Failed,
            Verdict::Stopped => ExitCode::Stopped,
        }
    }
}

/// `rebalance status --task` output.
#[derive(Debug, Clone, Serialize)]
pub struct TaskView {
    pub task_id: String,
    pub status: Verdict,
    /// Cruise Control's task status (`Active`, `InExecution`, `Completed`, `CompletedWithError`).
    pub cruise_control_status: String,
    pub request: String,
    pub started_ms: Option<i64>,
    /// The executor's progress while this task runs (after `--follow`: the last counters seen).
    pub progress: Option<ExecutionProgress>,
    /// How far the task's proposal is done, as Kafka shows it (`null` without a Kafka
    /// connection or when Cruise Control did not give the proposal).
    pub placement_in_kafka: Option<crate::app::placement::ProposalDone>,
}

fn render(v: &TaskView) -> String {
    let what = match v.status {
        Verdict::Running => "is still running",
        Verdict::Completed => "completed",
        Verdict::Failed => {
            "ended with an error (some replicas may have moved; see Cruise Control's log)"
        }
        Verdict::Stopped => {
            "was stopped by a stop request (replicas already moved stay where they are)"
        }
    };
    let mut out = format!("Task {} {what}.\nRequest: {}\n", v.task_id, v.request);
    if let Some(p) = &v.progress {
        out.push_str(&super::render_progress(p, crate::output::Style::PLAIN));
    }
    if let Some(d) = &v.placement_in_kafka {
        out.push_str(&super::render_proposal_done(
            d,
            v.progress.as_ref().map(|p| p.partitions_total),
        ));
    }
    out
}

/// Runs `rebalance status --task ID [--follow]`.
pub(crate) async fn status_task(
    ctx: &Ctx,
    a: &StatusArgs,
    task_id: &str,
) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, a.poll_interval)?;
    let deadline = Instant::now() + a.timeout;
    let (task, mut v) = look(&cc, task_id, deadline, &obs).await?;
    // What the task runs: its answer, kept while it runs (a stopped or failed one keeps none).
    let proposal = crate::app::rebalance::task::proposal_of(&task);
    let mut followed = None;
    if a.follow && v == Verdict::Running {
        // Far enough to mean "while it runs", near enough for Instant arithmetic.
        let follow = a
            .follow_timeout
            .unwrap_or(Duration::from_secs(365 * 24 * 3600));
        let config = FlowConfig {
            execute: true,
            assume_yes: true,
            no_wait: false,
            timeout_ms: millis(follow),
            wait_for_ready_ms: 0,
            poll_interval_ms: millis(a.poll_interval),
            recheck: false,
            follow_timeout_ms: None,
        };
        let flow = CcFlow::attach(config, task_id.to_string(), Millis(0));
        // Never sent: an attached flow is past the execution request.
        let op = RebalanceRequest {
            kind: RebalanceKind::Full,
            goals: GoalOptions::default(),
            execution: ExecutionOptions::default(),
            reason: String::new(),
            verbose: false,
            review_id: None,
            extra: Vec::new(),
        };
        let hooks = RebalanceHooks {
            kind: &RebalanceKind::Full,
            printer: &printer,
            execute: true,
            show_internal: false,
            url: cc.url().to_string(),
            follow: std::sync::Mutex::new(None),
            approved_plan: None,
            tolerance: Tolerance::default(),
            attached: true,
            chose_leave: std::sync::atomic::AtomicBool::new(false),
        };
        let interrupt = super::interrupt_signal();
        let driver = FlowDriver::resume(&cc, &op, flow, &hooks, &obs);
        let mut report = flow::run_driver(driver, interrupt, |_| {}).await;
        if let Some(e) = super::terminated_error(&report.outcome) {
            report.error = Some(e);
        }
        if let Some(note) = hooks.left_running_by_choice(&report.outcome) {
            printer.note(note);
            return Ok(ExitCode::Ok);
        }
        match &report.outcome {
            Outcome::Completed { .. } | Outcome::Failed { .. } => {
                let (_, after) = look(&cc, task_id, Instant::now() + a.timeout, &obs).await?;
                v = after;
                followed = report.flow.progress().cloned();
            }
            _ => {
                return match report.error {
                    Some(e) => Err(e),
                    None => Ok(report.outcome.exit_code()),
                };
            }
        }
    }
    let progress = if v == Verdict::Running {
        let ex = cc
            .state(&[Substate::Executor], false, deadline, &obs)
            .await?
            .executor_view();
        (ex.running_task() == Some(task_id)).then(|| ex.progress())
    } else {
        followed
    };
    let placement_in_kafka = match &proposal {
        Some(p) => {
            crate::app::placement::read(&ctx.settings.kafka, ctx.request_timeout(), &printer)
                .await
                .map(|now| crate::app::placement::proposal_done(&p.proposals, &now))
        }
        None => None,
    };
    let view = TaskView {
        task_id: task_id.to_string(),
        status: v,
        cruise_control_status: format!("{:?}", task.status),
        request: task.request_url.clone(),
        started_ms: task.start_ms,
        progress,
        placement_in_kafka,
    };
    printer.emit(&view, render)?;
    Ok(v.exit_code())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::rebalance::task::verdict;
    use crate::cruise_control::model::TaskStatus;

    #[test]
    fn a_stop_after_the_start_makes_an_error_a_stop() {
        use TaskStatus::*;
        assert_eq!(verdict(&Completed, Some(10), &[20]), Verdict::Completed);
        assert_eq!(verdict(&CompletedWithError, Some(10), &[]), Verdict::Failed);
        assert_eq!(
            verdict(&CompletedWithError, Some(10), &[5]),
            Verdict::Failed
        );
        assert_eq!(
            verdict(&CompletedWithError, Some(10), &[5, 12]),
            Verdict::Stopped
        );
        assert_eq!(verdict(&InExecution, Some(10), &[12]), Verdict::Running);
        assert_eq!(verdict(&Active, None, &[]), Verdict::Running);
        assert_eq!(Verdict::Stopped.exit_code().code(), 9);
    }
}
