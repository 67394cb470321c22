//! Running a request through Cruise Control's two-step verification (`--review-id`): the review
//! board is checked first (the id must be APPROVED and a request of the same endpoint; an
//! approved execution needs `execute`), then the request is sent with its review id. See
//! `commands::rebalance::review` for the workflow and [`crate::cruise_control::review`] for how a
//! held request is detected.

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::{RebalanceKind, RebalanceRequest};
use crate::cruise_control::retry::RetryPolicy;
use crate::cruise_control::review::RequestInfo;
use crate::cruise_control::{Answer, CcError, CruiseControlApi, CruiseControlClient, Observer};
use crate::driver::cc_flow::CcOperation;
use crate::engine::failure::{Classified, FailureKind};

/// Why `--review-id` cannot run (pure); `Ok(true)`: the approved request is an execution.
///
/// # Errors
/// No such review, another endpoint's, not approved, or an execution without `execute`.
pub fn check_reviewed(
    board: &[RequestInfo],
    id: i64,
    kind: &RebalanceKind,
    execute: bool,
) -> Result<bool, String> {
    let Some(r) = board.iter().find(|r| r.id == id) else {
        return Err(format!(
            "review id {id} is unknown: Cruise Control holds no such request (see `kafkaops rebalance review list`); nothing was changed"
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

/// The ids of `ids` that are not on the review board (pure): Cruise Control answers a review of
/// an id it does not hold with a 500 whose text is `'null'` (reference section 14).
#[must_use]
pub fn unknown_ids(board: &[RequestInfo], ids: &[i64]) -> Vec<i64> {
    ids.iter()
        .copied()
        .filter(|id| !board.iter().any(|r| r.id == *id))
        .collect()
}

/// `--execute` when Cruise Control may hold requests for review (two-step verification, #25
/// point 17): kafkaops' own dry run is not what should be reviewed, since approving it only
/// leads to a second held request, the execution. When the dry run comes back held, the
/// execution request is submitted at once (held in turn: exit 8 with its review id) and the
/// held dry run is discarded, so the reviewer approves the one request that runs, and
/// `--review-id` then starts it ([`Reviewed`]). Without two-step verification this is the plain
/// request.
pub struct ExecuteUnderReview<'a> {
    pub request: &'a RebalanceRequest,
    /// For discarding the held dry run (`review` is not part of the drivers' API).
    pub client: &'a CruiseControlClient,
    pub deadline: Instant,
}

impl CcOperation for ExecuteUnderReview<'_> {
    fn request<C: CruiseControlApi>(
        &self,
        cc: &C,
        dryrun: bool,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> impl std::future::Future<Output = Result<Answer<OptimizationResult>, CcError>> {
        let policy = *policy;
        async move {
            let held = match self.request.request(cc, dryrun, &policy, obs).await {
                Err(CcError::ReviewPending { requests, .. })
                    if dryrun && !requests.iter().any(RequestInfo::is_execution) =>
                {
                    requests
                }
                other => return other,
            };
            let execution = self.request.request(cc, false, &policy, obs).await;
            let ids: Vec<i64> = held.iter().map(|r| r.id).collect();
            if let Err(e) = self
                .client
                .review(
                    &[],
                    &ids,
                    "kafkaops: superseded by the held execution request",
                    self.deadline,
                    obs,
                )
                .await
            {
                tracing::warn!(
                    "could not discard kafkaops' own held dry run (review id {ids:?}): {e}"
                );
            }
            match execution {
                // Two-step verification holds every POST: this is what the reviewer approves.
                Err(e) => Err(e),
                // Cruise Control held the dry run but ran the execution: never treat that as a
                // proposal to confirm (the flow would send the execution again).
                Ok(answer) => Err(CcError::Protocol {
                    endpoint: self.request.kind.endpoint().path().into(),
                    detail: format!(
                        "Cruise Control held the dry run for review but started the execution request at once (task {}); follow it with `kafkaops rebalance status --task {}`",
                        answer.task_id.as_deref().unwrap_or("?"),
                        answer.task_id.as_deref().unwrap_or("ID")
                    ),
                }),
            }
        }
    }

    fn execution_query(&self) -> Option<Vec<(String, String)>> {
        self.request.execution_query()
    }
}

/// The rebalance request run through a review id.
pub struct Reviewed {
    pub request: RebalanceRequest,
    pub review_id: i64,
    /// The approved request is an execution.
    pub execution: bool,
    /// The answer to the approved execution (sent at the flow's proposal step).
    started: Mutex<Option<Answer<OptimizationResult>>>,
}

impl Reviewed {
    /// Checks `id` on the review board and prepares the operation.
    ///
    /// # Errors
    /// Cruise Control cannot be asked, or the review id cannot run
    /// ([`FailureKind::Invalid`], see [`check_reviewed`]).
    pub async fn prepare(
        cc: &CruiseControlClient,
        request: &RebalanceRequest,
        id: i64,
        execute: bool,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> anyhow::Result<Reviewed> {
        let board = cc.review_board(&[id], deadline, obs).await?;
        let execution = check_reviewed(&board, id, &request.kind, execute)
            .map_err(|e| Classified::new(FailureKind::Invalid, e))?;
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

    /// Not said: the request that executes depends on what was approved (the held execution
    /// itself or a fresh one), and only `operate`, which never runs a reviewed request, records
    /// it.
    fn execution_query(&self) -> Option<Vec<(String, String)>> {
        None
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
        assert!(
            check_reviewed(&board, 9, &add, false)
                .unwrap_err()
                .contains("review id 9 is unknown")
        );
        assert_eq!(unknown_ids(&board, &[0, 7, 2, 9]), vec![7, 9]);
    }
}
