//! The Cruise Control API as the drivers use it: a trait the REST client implements, so a
//! scripted double can stand in for Cruise Control where a driver is tested (the flow driver in
//! `crate::driver::cc_flow`), and so the engine's views come out of it already converted.
//!
//! Only what a driver needs is here: the retry policy, the readiness and executor state, a
//! task's status, the stop request and the two requests that make proposals. Everything else
//! (reviews, loads, concurrency) stays on [`CruiseControlClient`] for the commands that use it.

use std::future::Future;
use std::time::Instant;

use super::client::{Answer, CruiseControlClient, Observer};
use super::error::CcError;
use super::model::OptimizationResult;
use super::params::{RebalanceRequest, Substate, TopicConfigurationRequest};
use super::retry::RetryPolicy;
use crate::engine::view::{ExecutorState, MonitorState, TaskStatus};

/// What the drivers ask of Cruise Control.
pub trait CruiseControlApi: Sync {
    /// The retry policy of a request that must end by `deadline`.
    fn policy(&self, deadline: Instant) -> RetryPolicy;

    /// The load monitor and the executor (`GET /state`, verbose, with the analyzer).
    fn readiness(
        &self,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<(MonitorState, ExecutorState), CcError>> + Send;

    /// The executor (`GET /state?substates=executor`).
    fn executor(
        &self,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<ExecutorState, CcError>> + Send;

    /// The status of user task `task_id`; [`CcError::TaskLost`] when Cruise Control does not
    /// list it.
    fn task_status(
        &self,
        task_id: &str,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<TaskStatus, CcError>> + Send;

    /// Asks Cruise Control to stop the running execution.
    fn stop_execution(
        &self,
        reason: &str,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<(), CcError>> + Send;

    /// `POST /rebalance`, `/add_broker`, `/remove_broker`, ... (dry run or execution).
    fn rebalance(
        &self,
        req: &RebalanceRequest,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<Answer<OptimizationResult>, CcError>> + Send;

    /// `POST /topic_configuration` (dry run or execution).
    fn topic_configuration(
        &self,
        req: &TopicConfigurationRequest,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<Answer<OptimizationResult>, CcError>> + Send;
}

impl CruiseControlApi for CruiseControlClient {
    fn policy(&self, deadline: Instant) -> RetryPolicy {
        CruiseControlClient::policy(self, deadline)
    }

    async fn readiness(
        &self,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<(MonitorState, ExecutorState), CcError> {
        let state = self
            .state(
                &[Substate::Monitor, Substate::Executor, Substate::Analyzer],
                true,
                deadline,
                obs,
            )
            .await?;
        Ok((
            state.monitor_view().unwrap_or_default(),
            state.executor_view(),
        ))
    }

    async fn executor(
        &self,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<ExecutorState, CcError> {
        Ok(self
            .state(&[Substate::Executor], false, deadline, obs)
            .await?
            .executor_view())
    }

    async fn task_status(
        &self,
        task_id: &str,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<TaskStatus, CcError> {
        let task = self.user_task(task_id, deadline, obs).await?;
        Ok(TaskStatus::from(&task.status))
    }

    async fn stop_execution(
        &self,
        reason: &str,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<(), CcError> {
        self.stop_proposal_execution(reason, deadline, obs)
            .await
            .map(|_| ())
    }

    async fn rebalance(
        &self,
        req: &RebalanceRequest,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> Result<Answer<OptimizationResult>, CcError> {
        CruiseControlClient::rebalance(self, req, policy, obs).await
    }

    async fn topic_configuration(
        &self,
        req: &TopicConfigurationRequest,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> Result<Answer<OptimizationResult>, CcError> {
        CruiseControlClient::topic_configuration(self, req, policy, obs).await
    }
}
