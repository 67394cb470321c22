//! `kafkaops rebalance review list|approve|discard` and `--review-id`: Cruise Control's two-step
//! verification (reference §3.10; see [`crate::cruise_control::review`] for how a held request
//! is detected: exit 8 with its review id, never "nothing to move").
//!
//! With two-step verification every POST is held until reviewed, dry runs included. The workflow
//! kafkaops supports, one Cruise Control review per request:
//! 1. `rebalance add --brokers 4 --execute` → the dry run is held: exit 8, review id A.
//! 2. `rebalance review approve A`; `rebalance add --brokers 4 --execute --review-id A` → the
//!    approved dry run runs and its proposal is shown and confirmed as usual; the execution
//!    request is then held in turn: exit 8, review id B.
//! 3. `rebalance review approve B`; `rebalance add --brokers 4 --execute --review-id B` → the
//!    approved execution starts and is followed like any execution.
//!
//! `--review-id` checks the review board first: the id must be APPROVED and be a request of the
//! same endpoint; an approved execution needs `--execute`. The re-check of the proposal before
//! the execution (`--max-drift`) is not done in review mode: it would be one more held dry run,
//! and Cruise Control's reviewer is the gate there.

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use serde::Serialize;

use crate::cli::rebalance::{ReviewCommand, ReviewDecisionArgs, ReviewListArgs};
use crate::commands::Ctx;
use crate::commands::observe::{CliObserver, cruise_control as client};
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::{RebalanceKind, RebalanceRequest};
use crate::cruise_control::retry::RetryPolicy;
use crate::cruise_control::review::RequestInfo;
use crate::cruise_control::{Answer, CcError, CruiseControlApi, CruiseControlClient, Observer};
use crate::driver::cc_flow::CcOperation;
use crate::error::{CliError, ExitCode};

/// Runs `rebalance review ...`.
pub(crate) async fn run(ctx: &Ctx, cmd: ReviewCommand) -> Result<ExitCode, CliError> {
    match cmd {
        ReviewCommand::List(a) => list(ctx, &a).await,
        ReviewCommand::Approve(a) => decide(ctx, &a, true).await,
        ReviewCommand::Discard(a) => decide(ctx, &a, false).await,
    }
}

/// One held request as kafkaops shows it.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewView {
    pub id: i64,
    pub status: String,
    pub endpoint: String,
    pub execution: bool,
    pub request: String,
    pub submitter: String,
    pub submitted_ms: Option<i64>,
    pub reason: String,
}

impl From<&RequestInfo> for ReviewView {
    fn from(r: &RequestInfo) -> Self {
        ReviewView {
            id: r.id,
            status: r.status.clone(),
            endpoint: r.endpoint().to_string(),
            execution: r.is_execution(),
            request: r.endpoint_with_params.clone(),
            submitter: r.submitter_address.clone(),
            submitted_ms: r.submission_time_ms,
            reason: r.reason.clone(),
        }
    }
}

fn render(views: &[ReviewView], color: bool) -> String {
    if views.is_empty() {
        return "No requests held for review.\n".into();
    }
    let mut t = crate::output::new_table(color);
    t.set_header(vec!["id", "status", "kind", "request", "reason"]);
    for v in views {
        t.add_row(vec![
            v.id.to_string(),
            v.status.clone(),
            if v.execution { "execution" } else { "dry run" }.to_string(),
            v.request.clone(),
            v.reason.clone(),
        ]);
    }
    format!("{t}\n")
}

async fn list(ctx: &Ctx, a: &ReviewListArgs) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, std::time::Duration::from_secs(5))?;
    let board = cc
        .review_board(&a.ids, Instant::now() + a.timeout, &obs)
        .await?;
    let views: Vec<ReviewView> = board.iter().map(ReviewView::from).collect();
    printer.emit(&views, |v| render(v, printer.color))?;
    Ok(ExitCode::Ok)
}

async fn decide(ctx: &Ctx, a: &ReviewDecisionArgs, approve: bool) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, std::time::Duration::from_secs(5))?;
    let (yes, no): (&[i64], &[i64]) = if approve {
        (&a.ids, &[])
    } else {
        (&[], &a.ids)
    };
    let done = cc
        .review(yes, no, &a.reason, Instant::now() + a.timeout, &obs)
        .await?;
    let views: Vec<ReviewView> = done.iter().map(ReviewView::from).collect();
    printer.emit(&views, |v| render(v, printer.color))?;
    Ok(ExitCode::Ok)
}

/// Why `--review-id` cannot run (pure).
pub fn check_reviewed(
    board: &[RequestInfo],
    id: i64,
    kind: &RebalanceKind,
    execute: bool,
) -> Result<bool, String> {
    let Some(r) = board.iter().find(|r| r.id == id) else {
        return Err(format!(
            "Cruise Control holds no request with review id {id}; see `kafkaops rebalance review list`; nothing was changed"
        ));
    };
    let want = kind.endpoint().path();
    if r.endpoint() != want {
        return Err(format!(
            "review {id} is a {} request, not {want}; nothing was changed",
            r.endpoint()
        ));
    }
    if r.status != "APPROVED" {
        return Err(format!(
            "review {id} is {}, not APPROVED (approve it with `kafkaops rebalance review approve {id}`); nothing was changed",
            r.status
        ));
    }
    if r.is_execution() && !execute {
        return Err(format!(
            "review {id} is an execution request: pass --execute to run it; nothing was changed"
        ));
    }
    Ok(r.is_execution())
}

/// The rebalance request run through a review id.
pub(crate) struct Reviewed {
    pub request: RebalanceRequest,
    pub review_id: i64,
    /// The approved request is an execution.
    pub execution: bool,
    /// The answer to the approved execution (sent at the flow's proposal step).
    started: Mutex<Option<Answer<OptimizationResult>>>,
}

impl Reviewed {
    /// Checks `id` on the review board and prepares the operation.
    pub(crate) async fn prepare(
        cc: &CruiseControlClient,
        request: &RebalanceRequest,
        id: i64,
        execute: bool,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<Reviewed, CliError> {
        let board = cc.review_board(&[id], deadline, obs).await?;
        let execution = check_reviewed(&board, id, &request.kind, execute)
            .map_err(|e| CliError::new(ExitCode::Usage, anyhow::anyhow!(e)))?;
        Ok(Reviewed {
            request: request.clone(),
            review_id: id,
            execution,
            started: Mutex::new(None),
        })
    }
}

impl CcOperation for Reviewed {
    /// The flow asks for a dry run, then (confirmed) the execution. An approved dry run is sent
    /// as `review_id=N` at the dry-run step and the execution request as usual (held for review
    /// in turn). An approved execution is sent once, at the dry-run step (its answer is the
    /// proposal it executes); the execution step takes that answer and sends nothing.
    fn request<C: CruiseControlApi>(
        &self,
        cc: &C,
        dryrun: bool,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> impl std::future::Future<Output = Result<Answer<OptimizationResult>, CcError>> {
        let policy = *policy;
        async move {
            let mut req = self.request.clone();
            match (self.execution, dryrun) {
                (true, true) => {
                    req.review_id = Some(self.review_id);
                    req.execution.dryrun = false;
                    let answer = cc.rebalance(&req, &policy, obs).await?;
                    *self.started.lock().unwrap_or_else(PoisonError::into_inner) =
                        Some(answer.clone());
                    Ok(answer)
                }
                (true, false) => self
                    .started
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take()
                    .ok_or_else(|| CcError::Protocol {
                        endpoint: req.kind.endpoint().path().into(),
                        detail: "the reviewed execution was not started".into(),
                    }),
                (false, true) => {
                    req.review_id = Some(self.review_id);
                    req.execution.dryrun = true;
                    cc.rebalance(&req, &policy, obs).await
                }
                (false, false) => {
                    req.execution.dryrun = false;
                    cc.rebalance(&req, &policy, obs).await
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(id: i64, status: &str, url: &str) -> RequestInfo {
        RequestInfo {
            id,
            submitter_address: String::new(),
            submission_time_ms: None,
            status: status.into(),
            endpoint_with_params: url.into(),
            reason: String::new(),
        }
    }

    #[test]
    fn only_an_approved_request_of_the_same_endpoint_runs() {
        let board = [
            info(
                0,
                "APPROVED",
                "POST /kafkacruisecontrol/add_broker?brokerid=4&dryrun=true",
            ),
            info(
                1,
                "PENDING_REVIEW",
                "POST /kafkacruisecontrol/add_broker?brokerid=4",
            ),
            info(
                2,
                "APPROVED",
                "POST /kafkacruisecontrol/add_broker?brokerid=4&dryrun=false",
            ),
        ];
        let add = RebalanceKind::AddBrokers(vec![4]);
        assert_eq!(check_reviewed(&board, 0, &add, false), Ok(false));
        assert!(
            check_reviewed(&board, 1, &add, true)
                .unwrap_err()
                .contains("PENDING_REVIEW")
        );
        assert!(
            check_reviewed(&board, 2, &add, false)
                .unwrap_err()
                .contains("--execute")
        );
        assert_eq!(check_reviewed(&board, 2, &add, true), Ok(true));
        assert!(check_reviewed(&board, 0, &RebalanceKind::Full, false).is_err());
        assert!(check_reviewed(&board, 9, &add, false).is_err());
    }
}
