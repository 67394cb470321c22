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
//! running), but can never send a proposal or an execution request. However following ends
//! (the task ended, left running at the Ctrl-C menu, `--follow-timeout`, Ctrl-C without a
//! terminal, SIGTERM, a stop asked), the task's document is printed with `follow.ended` saying
//! why, then the command exits with that case's code (0, 0, 3, 130, 143, 130).

use std::time::{Duration, Instant};

use serde::Serialize;

use super::{FollowEnded, FollowView, RebalanceHooks, follow_ended, millis};
use crate::app::rebalance::task::{Verdict, look};
use crate::cli::rebalance::StatusArgs;
use crate::commands::Ctx;
use crate::commands::shared::observe::{CliObserver, cruise_control as client};
use crate::cruise_control::CruiseControlClient;
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
use crate::output::Printer;

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
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct TaskView {
    pub task_id: String,
    pub status: Verdict,
    /// Cruise Control's task status (`Active`, `InExecution`, `Completed`, `CompletedWithError`).
    pub cruise_control_status: String,
    pub request: String,
    pub started_at_ms: Option<i64>,
    /// The executor's progress while this task runs (after `--follow`: the last counters seen).
    pub progress: Option<ExecutionProgress>,
    /// How far the task's proposal is done, as Kafka shows it (`null` without a Kafka
    /// connection or when Cruise Control did not give the proposal).
    pub placement_in_kafka: Option<crate::app::placement::ProposalDone>,
    /// With `--follow`: why following ended (`null` without `--follow`).
    pub follow: Option<FollowView>,
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
    if let Some(why) = v.follow.as_ref().and_then(|f| stopped_following(f.ended)) {
        out.push_str(&format!("Stopped following it: {why}.\n"));
    }
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

/// Why following ended while the task may still run, for people (`None`: it finished).
fn stopped_following(ended: FollowEnded) -> Option<&'static str> {
    Some(match ended {
        FollowEnded::Finished => return None,
        FollowEnded::LeftRunning => "left running at your choice",
        FollowEnded::Timeout => "--follow-timeout passed",
        FollowEnded::Interrupted => "interrupted",
        FollowEnded::Terminated => "terminated (SIGTERM)",
        FollowEnded::StopRequested => "a stop was requested",
        FollowEnded::StopFailed => "the stop request failed",
    })
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
    let mut follow_view = None;
    // The exit of a follow that ended while the task runs (left running, timed out, ...): the
    // document is printed first, then this.
    let mut exit = None;
    if a.follow {
        let ended = if v == Verdict::Running {
            let f = follow(&cc, a, task_id, &printer, &obs).await?;
            v = f.verdict;
            followed = f.progress;
            exit = f.exit;
            f.ended
        } else {
            FollowEnded::Finished
        };
        follow_view = Some(FollowView {
            ended,
            follow_timeout_ms: a.follow_timeout.map(millis),
        });
    }
    let deadline = Instant::now() + a.timeout;
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
        started_at_ms: task.start_ms,
        progress,
        placement_in_kafka,
        follow: follow_view,
    };
    printer.emit(&view, render)?;
    exit.unwrap_or(Ok(v.exit_code()))
}

/// What following a running task ended with.
struct Followed {
    /// Why following ended.
    ended: FollowEnded,
    /// The task's verdict now.
    verdict: Verdict,
    /// The last counters seen while following (for a task that ended).
    progress: Option<ExecutionProgress>,
    /// The command's exit when following ended while the task runs (left running at the
    /// operator's choice, interrupted, timed out); `None`: the verdict's.
    exit: Option<Result<ExitCode, CliError>>,
}

/// `--follow`: the shared flow attached to the running task, followed exactly as a fresh
/// `--execute` would be (progress bar, Ctrl-C to stop it or leave it running). An error is
/// returned only when following could not end in a known way (Cruise Control unreachable): every
/// other end is a document.
async fn follow(
    cc: &CruiseControlClient,
    a: &StatusArgs,
    task_id: &str,
    printer: &Printer,
    obs: &CliObserver,
) -> Result<Followed, CliError> {
    let hooks = RebalanceHooks {
        kind: &RebalanceKind::Full,
        printer,
        execute: true,
        show_internal: false,
        url: cc.url().to_string(),
        follow: std::sync::Mutex::new(None),
        approved_plan: None,
        tolerance: Tolerance::default(),
        attached: true,
        chose_leave: std::sync::atomic::AtomicBool::new(false),
    };
    let op = never_sent();
    let interrupt = super::interrupt_signal();
    let driver = FlowDriver::resume(cc, &op, attached_flow(a, task_id), &hooks, obs);
    let mut report = flow::run_driver(driver, interrupt, |_| {}).await;
    if let Some(e) = super::terminated_error(&report.outcome) {
        report.error = Some(e);
    }
    let chose_leave = hooks.chose_leave.load(std::sync::atomic::Ordering::SeqCst);
    let ended = match &report.outcome {
        // Cruise Control forgot the task: there is no state left to show.
        Outcome::TaskLost { .. } => None,
        o => follow_ended(o, chose_leave, super::terminated()),
    };
    let Some(ended) = ended else {
        // Attached past the execution request: anything else is a failure to follow.
        return Err(report.error.unwrap_or_else(|| {
            CliError::new(
                ExitCode::Failed,
                anyhow::anyhow!("following task {task_id} ended without an outcome"),
            )
        }));
    };
    let exit = if let Some(note) = hooks.left_running_by_choice(&report.outcome) {
        printer.note(note);
        Some(Ok(ExitCode::Ok))
    } else if ended == FollowEnded::Finished {
        None
    } else {
        Some(match report.error {
            Some(e) => Err(e),
            None => Ok(report.outcome.exit_code()),
        })
    };
    // The task's verdict now: it ended (how), or it still runs (how far, read by the caller).
    let (_, verdict) = look(cc, task_id, Instant::now() + a.timeout, obs).await?;
    Ok(Followed {
        ended,
        verdict,
        progress: report.flow.progress().cloned(),
        exit,
    })
}

/// A flow attached to the running task, past its execution request, followed while it runs
/// (or `--follow-timeout`).
fn attached_flow(a: &StatusArgs, task_id: &str) -> CcFlow {
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
    CcFlow::attach(config, task_id.to_string(), Millis(0))
}

/// The request of an attached flow: never sent (the flow is past the execution request).
fn never_sent() -> RebalanceRequest {
    RebalanceRequest {
        kind: RebalanceKind::Full,
        goals: GoalOptions::default(),
        execution: ExecutionOptions::default(),
        reason: String::new(),
        verbose: false,
        review_id: None,
        extra: Vec::new(),
    }
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
