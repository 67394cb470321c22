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

use std::time::Instant;

use serde::Serialize;

use crate::cli::rebalance::{ReviewCommand, ReviewDecisionArgs, ReviewListArgs};
use crate::commands::Ctx;
use crate::commands::observe::{CliObserver, cruise_control as client};
use crate::cruise_control::review::RequestInfo;
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
