//! `kafkaops rebalance review list|approve|discard` and `--review-id`: Cruise Control's two-step
//! verification (reference §3.10; see [`crate::cruise_control::review`] for how a held request
//! is detected: exit 8 with its review id, never "nothing to move").
//!
//! With two-step verification every POST is held until reviewed, dry runs included. The workflow
//! kafkaops supports, one Cruise Control review per command:
//! 1. `rebalance add --brokers 4` (no `--execute`) → the dry run is held: exit 8, review id A;
//!    `rebalance review approve A`, then the same command with `--review-id A` shows its proposal.
//! 2. `rebalance add --brokers 4 --execute` → kafkaops' dry run is held; kafkaops then submits the
//!    execution request itself, discards its own held dry run, and exits 8 with the execution's
//!    review id B: the reviewer reviews the one request that will run.
//! 3. `rebalance review approve B`; `rebalance add --brokers 4 --execute --review-id B` → the
//!    approved execution starts and is followed like any execution (the reviewer's approval is
//!    the confirmation).
//!
//! `--review-id` checks the review board first (the whole board, filtered here: a real Cruise
//! Control answers `review_ids` with a 500): the id must be APPROVED and be a request of the
//! same endpoint; an approved execution needs `--execute`. The reviewed request is sent with
//! `review_id` alone (no `json=true`: Cruise Control refuses it beside `review_id`). The re-check
//! of the proposal before the execution (`--max-drift`) is not done in review mode: it would be
//! one more held dry run, and Cruise Control's reviewer is the gate there.

use std::time::Instant;

use serde::Serialize;

use crate::cli::rebalance::{ReviewCommand, ReviewDecisionArgs, ReviewListArgs};
use crate::commands::Ctx;
use crate::commands::shared::observe::{CliObserver, cruise_control as client};
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
            endpoint: r.endpoint(),
            execution: r.is_execution(),
            request: r.endpoint_with_params.clone(),
            submitter: r.submitter_address.clone(),
            submitted_ms: r.submission_time_ms,
            reason: r.reason.clone(),
        }
    }
}

pub(crate) fn render(views: &[ReviewView], style: crate::output::Style) -> String {
    if views.is_empty() {
        return "No requests held for review.\n".into();
    }
    let mut t = crate::output::Grid::new(style, ["id", "status", "kind", "request", "reason"])
        .low_value(&[3]);
    for v in views {
        t.row([
            v.id.to_string(),
            v.status.clone(),
            if v.execution { "execution" } else { "dry run" }.to_string(),
            v.request.clone(),
            v.reason.clone(),
        ]);
    }
    format!("{}\n", t.render())
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
    printer.emit(&views, |v| render(v, printer.style()))?;
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
    let deadline = Instant::now() + a.timeout;
    // Cruise Control answers an id it does not hold with a 500 "due to: 'null'" (reference
    // section 14): look first, and say which ids are unknown.
    let board = cc.review_board(&[], deadline, &obs).await?;
    let unknown = crate::app::rebalance::review::unknown_ids(&board, &a.ids);
    if !unknown.is_empty() {
        return Err(CliError::new(
            ExitCode::Usage,
            anyhow::anyhow!(
                "review id {} is unknown: Cruise Control holds no such request (see `kafkaops rebalance review list`); nothing was reviewed",
                unknown
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let done = cc.review(yes, no, &a.reason, deadline, &obs).await?;
    let views: Vec<ReviewView> = done.iter().map(ReviewView::from).collect();
    printer.emit(&views, |v| render(v, printer.style()))?;
    Ok(ExitCode::Ok)
}
