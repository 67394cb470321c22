//! The typed calls, one per Cruise Control endpoint the tool uses: each builds its query, picks
//! the retry policy that suits it (reads retry, mutations only when nothing can have run) and
//! parses the answer. The HTTP and task-polling mechanics they share live in the parent module.

use std::time::Instant;

use super::{Answer, CruiseControlClient, Observer, find_task, held, parse};
use crate::cruise_control::error::CcError;
use crate::cruise_control::model::{
    CruiseControlState, KafkaClusterState, OptimizationResult, StopResult, UserTask, UserTasks,
};
use crate::cruise_control::params::{self, Endpoint, Query, RebalanceRequest, Substate};
use crate::cruise_control::retry::RetryPolicy;
use crate::cruise_control::review::{RequestInfo, ReviewBoard};
use crate::engine::movers::CruiseControlView;

impl CruiseControlClient {
    /// One task from `user_tasks` (with its original response); `TaskLost` when unknown.
    pub async fn user_task(
        &self,
        task_id: &str,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<UserTask, CcError> {
        let tasks = self
            .user_tasks(&[task_id.to_string()], true, deadline, obs)
            .await?;
        find_task(tasks, task_id)
    }

    /// `GET /user_tasks`.
    pub async fn user_tasks(
        &self,
        ids: &[String],
        fetch_completed_task: bool,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<UserTasks, CcError> {
        let q = params::user_tasks_query(ids, fetch_completed_task);
        let reply = self
            .send(Endpoint::UserTasks, &q, &self.policy(deadline), obs)
            .await?;
        parse(Endpoint::UserTasks, &reply.body)
    }

    /// The `stop_proposal_execution` requests Cruise Control still remembers (user tasks of
    /// that endpoint): how a stopped execution is told from a failed one, since both end
    /// `CompletedWithError`.
    pub async fn stop_requests(
        &self,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<Vec<UserTask>, CcError> {
        let q: Query = vec![
            (
                "endpoints",
                Endpoint::StopProposalExecution.path().to_string(),
            ),
            ("fetch_completed_task", "false".to_string()),
        ];
        let reply = self
            .send(Endpoint::UserTasks, &q, &self.policy(deadline), obs)
            .await?;
        Ok(parse::<UserTasks>(Endpoint::UserTasks, &reply.body)?.user_tasks)
    }

    /// What the executor is doing, as the rules about other movers read it
    /// ([`crate::engine::movers`]): one `state?substates=executor` request (retried within
    /// `deadline`); a failure is [`CruiseControlView::Unreachable`] with the error.
    pub async fn executor_view(&self, deadline: Instant, obs: &dyn Observer) -> CruiseControlView {
        match self
            .state(&[Substate::Executor], false, deadline, obs)
            .await
        {
            Ok(s) => CruiseControlView::of(Ok(&s.executor_view())),
            Err(e) => CruiseControlView::of(Err(&e.to_string())),
        }
    }

    /// `GET /state` with the given substates (all when empty).
    pub async fn state(
        &self,
        substates: &[Substate],
        verbose: bool,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<CruiseControlState, CcError> {
        let q = params::state_query(substates, verbose);
        Ok(self
            .request_async(Endpoint::State, &q, true, &self.policy(deadline), obs)
            .await?
            .value)
    }

    /// `GET /kafka_cluster_state`.
    pub async fn kafka_cluster_state(
        &self,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<KafkaClusterState, CcError> {
        let q = params::kafka_cluster_state_query(None, false);
        let reply = self
            .send(Endpoint::KafkaClusterState, &q, &self.policy(deadline), obs)
            .await?;
        parse(Endpoint::KafkaClusterState, &reply.body)
    }

    /// `GET /load` (current broker load).
    pub async fn load(
        &self,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<crate::cruise_control::model::BrokerLoad, CcError> {
        let q = params::load_query(true);
        Ok(self
            .request_async(Endpoint::Load, &q, true, &self.policy(deadline), obs)
            .await?
            .value)
    }

    /// `GET /proposals`.
    pub async fn proposals(
        &self,
        req: &params::ProposalsRequest,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> Result<OptimizationResult, CcError> {
        Ok(self
            .request_async(Endpoint::Proposals, &req.query(), true, policy, obs)
            .await?
            .value)
    }

    /// `POST /rebalance`, `/add_broker` or `/remove_broker`. For `dryrun=false` the
    /// answer means the execution has *started*; follow it with [`Self::state`] or
    /// [`Self::user_task`] using the returned task id.
    pub async fn rebalance(
        &self,
        req: &RebalanceRequest,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> Result<Answer<OptimizationResult>, CcError> {
        let mut policy = *policy;
        policy.idempotent &= req.execution.dryrun;
        self.request_async(
            req.kind.endpoint(),
            &req.query(),
            req.execution.dryrun,
            &policy,
            obs,
        )
        .await
    }

    /// Sends a request built by [`params::replay_query`] (a running execution's request again,
    /// with another throttle). As [`Self::rebalance`]: for `dryrun=false` the answer means the
    /// execution has started.
    pub async fn replay(
        &self,
        endpoint: Endpoint,
        query: &Query,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> Result<Answer<OptimizationResult>, CcError> {
        let dryrun = query.iter().any(|(k, v)| *k == "dryrun" && v == "true");
        let mut policy = *policy;
        policy.idempotent &= dryrun;
        self.request_async(endpoint, query, dryrun, &policy, obs)
            .await
    }

    /// `POST /topic_configuration`: the query form for one regex, the JSON body form
    /// (several factors in one request) when [`params::TopicConfigurationRequest::by_factor`]
    /// is set. "Already at the target replication factor" comes back as an error of class
    /// `NoOp`.
    pub async fn topic_configuration(
        &self,
        req: &params::TopicConfigurationRequest,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> Result<Answer<OptimizationResult>, CcError> {
        let mut policy = *policy;
        policy.idempotent &= req.execution.dryrun;
        let body = req.body();
        self.request_async_with(
            Endpoint::TopicConfiguration,
            &req.query(),
            body.as_deref(),
            req.execution.dryrun,
            &policy,
            obs,
        )
        .await
    }

    /// `POST /admin` with concurrency parameters: changes the running execution's pace live.
    pub async fn change_concurrency(
        &self,
        change: &params::ConcurrencyChange,
        reason: &str,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<crate::cruise_control::model::AdminResult, CcError> {
        let q = change.query(reason);
        let reply = self
            .send(Endpoint::Admin, &q, &self.policy(deadline), obs)
            .await?;
        parse(Endpoint::Admin, &reply.body)
    }

    /// `POST /stop_proposal_execution`.
    pub async fn stop_proposal_execution(
        &self,
        reason: &str,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<StopResult, CcError> {
        let q = params::stop_query(reason);
        let reply = self
            .send(
                Endpoint::StopProposalExecution,
                &q,
                &self.policy(deadline),
                obs,
            )
            .await?;
        held(Endpoint::StopProposalExecution, &reply.body)?;
        parse(Endpoint::StopProposalExecution, &reply.body)
    }

    /// `GET /review_board`: every held request, or only `ids` (all requests when `ids` is
    /// empty). The whole board is asked for and filtered here: `review_ids` makes a real
    /// Cruise Control answer 500 "due to: 'null'" (reference section 14).
    pub async fn review_board(
        &self,
        ids: &[i64],
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<Vec<RequestInfo>, CcError> {
        let reply = self
            .send(
                Endpoint::ReviewBoard,
                &Vec::new(),
                &self.policy(deadline),
                obs,
            )
            .await?;
        let mut requests = parse::<ReviewBoard>(Endpoint::ReviewBoard, &reply.body)?.requests;
        if !ids.is_empty() {
            requests.retain(|r| ids.contains(&r.id));
        }
        Ok(requests)
    }

    /// `POST /review`: approve and/or discard held requests.
    pub async fn review(
        &self,
        approve: &[i64],
        discard: &[i64],
        reason: &str,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<Vec<RequestInfo>, CcError> {
        let mut q: Query = Vec::new();
        if !approve.is_empty() {
            q.push(("approve", params_join(approve)));
        }
        if !discard.is_empty() {
            q.push(("discard", params_join(discard)));
        }
        q.push(("reason", reason.to_string()));
        let mut policy = self.policy(deadline);
        policy.idempotent = false;
        let reply = self.send(Endpoint::Review, &q, &policy, obs).await?;
        Ok(parse::<ReviewBoard>(Endpoint::Review, &reply.body)?.requests)
    }
}

fn params_join(ids: &[i64]) -> String {
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}
