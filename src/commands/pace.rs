//! `kafkaops rebalance pace`: changes how many partitions the running Cruise Control execution
//! moves at once, live, through CC's admin endpoint (`POST /admin` with
//! `concurrent_partition_movements_per_broker` / `concurrent_leader_movements`).
//!
//! Why: an execution started too gently takes hours, one started too hard hurts producers; CC
//! can change its concurrency while it runs, and stopping and re-submitting would compute a
//! new plan. The change applies to the running execution only, so with nothing executing
//! kafkaops says so and changes nothing.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::Ctx;
use super::rebalance::{CliObserver, client};
use crate::cli::rebalance::PaceArgs;
use crate::cruise_control::params::{ConcurrencyChange, Substate};
use crate::error::{CliError, CodedError, ExitCode};

/// `rebalance pace` output.
#[derive(Debug, Serialize)]
struct PaceView {
    task_id: Option<String>,
    executor_state: String,
    concurrency: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    leader_concurrency: Option<u32>,
    /// Cruise Control's own account of the change.
    cruise_control_says: Option<String>,
}

fn render(v: &PaceView) -> String {
    let mut s = format!(
        "Pace of the running execution{} changed: {} partition movement(s) per broker{}\n",
        v.task_id
            .as_deref()
            .map(|t| format!(" (task {t})"))
            .unwrap_or_default(),
        v.concurrency,
        v.leader_concurrency
            .map(|m| format!(", {m} leader movement(s)"))
            .unwrap_or_default()
    );
    if let Some(said) = &v.cruise_control_says {
        for line in said.lines().filter(|l| !l.trim().is_empty()) {
            s.push_str(&format!("  Cruise Control: {}\n", line.trim()));
        }
    }
    s
}

/// Runs `rebalance pace`.
pub async fn run(ctx: &Ctx, a: &PaceArgs) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, Duration::from_secs(5))?;
    let deadline = Instant::now() + a.timeout;
    let state = cc
        .state(&[Substate::Executor], false, deadline, &obs)
        .await?;
    let executor = state.executor.unwrap_or_default();
    if executor.is_idle() {
        return Err(CliError::new(
            ExitCode::Failed,
            CodedError::new(
                ExitCode::Failed,
                "Cruise Control is not executing anything: the pace applies to a running \
                 execution (start one with --concurrent-partition-movements-per-broker); nothing \
                 was changed",
            ),
        ));
    }
    let change = ConcurrencyChange {
        partition_movements_per_broker: Some(a.concurrency),
        leader_movements: a.leader_concurrency,
    };
    let result = cc
        .change_concurrency(&change, &a.reason, deadline, &obs)
        .await?;
    let view = PaceView {
        task_id: executor.running_task().map(str::to_string),
        executor_state: executor.state.clone(),
        concurrency: a.concurrency,
        leader_concurrency: a.leader_concurrency,
        cruise_control_says: result.ongoing_concurrency_change_request,
    };
    printer.emit(&view, render)?;
    Ok(ExitCode::Ok)
}
