//! What became of an execution, after the fact: a task's verdict from Cruise Control's own
//! records (`rebalance status --task`, and the end of a flow that failed).
//!
//! Cruise Control's `user_tasks` says whether the task still runs (`Active`, `InExecution`),
//! `Completed`, or `CompletedWithError`. A stopped execution also ends `CompletedWithError`
//! (reference §3.8), so a stop is told from a failure by Cruise Control's own record: a
//! `stop_proposal_execution` user task started after the execution's task ([`verdict`], pure).

use std::time::Instant;

use serde::Serialize;

use crate::cruise_control::model::{TaskStatus, UserTask};
use crate::cruise_control::{CcError, CruiseControlClient, Observer};

/// What became of a task.
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Running,
    Completed,
    Failed,
    Stopped,
}

/// The verdict on `task`, given the start times of the stop requests Cruise Control remembers
/// (pure): `CompletedWithError` after a stop requested at or after the task's start is a stop.
#[must_use]
pub fn verdict(status: &TaskStatus, task_start_ms: Option<i64>, stop_starts_ms: &[i64]) -> Verdict {
    match status {
        TaskStatus::Completed => Verdict::Completed,
        TaskStatus::CompletedWithError => {
            let start = task_start_ms.unwrap_or(i64::MIN);
            if stop_starts_ms.iter().any(|s| *s >= start) {
                Verdict::Stopped
            } else {
                Verdict::Failed
            }
        }
        _ => Verdict::Running,
    }
}

/// Asks Cruise Control what became of `task_id`: its record and the verdict ([`verdict`]).
///
/// # Errors
/// Cruise Control cannot be asked, or does not know the task.
pub async fn look(
    cc: &CruiseControlClient,
    task_id: &str,
    deadline: Instant,
    obs: &dyn Observer,
) -> Result<(UserTask, Verdict), CcError> {
    let task = cc.user_task(task_id, deadline, obs).await?;
    let stops = if task.status == TaskStatus::CompletedWithError {
        cc.stop_requests(deadline, obs)
            .await?
            .into_iter()
            // The endpoints filter already asks for stop requests only; do not trust it blindly.
            .filter(|t| {
                t.user_task_id != task_id && t.request_url.contains("stop_proposal_execution")
            })
            .filter_map(|t| t.start_ms)
            .collect()
    } else {
        Vec::new()
    };
    let v = verdict(&task.status, task.start_ms, &stops);
    Ok((task, v))
}

/// The proposal the execution of `task_id` runs (its answer, which `user_tasks` keeps while the
/// task runs or after it completed), or `None` when Cruise Control does not give it (best
/// effort: a stopped or failed task keeps no answer).
pub async fn executed_proposal(
    cc: &CruiseControlClient,
    task_id: &str,
    deadline: Instant,
    obs: &dyn Observer,
) -> Option<crate::cruise_control::model::OptimizationResult> {
    let task = cc.user_task(task_id, deadline, obs).await.ok()?;
    proposal_of(&task)
}

/// The proposal in a task's answer, if it has one (pure).
#[must_use]
pub fn proposal_of(task: &UserTask) -> Option<crate::cruise_control::model::OptimizationResult> {
    let body = task.original_response.as_deref()?;
    crate::cruise_control::lenient::from_str(body).ok()
}
