//! What plugs into the Cruise Control flow: the request it sends ([`CcOperation`]: a
//! rebalance-family request or a `topic_configuration` request, through whichever Cruise
//! Control API the flow runs against), the command's side ([`FlowHooks`]: checks, prompts,
//! the progress sink) and what the flow hands back ([`FlowReport`]).

use std::future::Future;
use std::time::Instant;

use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::{Query, RebalanceRequest, TopicConfigurationRequest};
use crate::cruise_control::retry::RetryPolicy;
use crate::cruise_control::{Answer, CcError, CruiseControlApi, CruiseControlClient, Observer};
use crate::engine::cc_flow::{CcFlow, InterruptChoice, Outcome};
use crate::engine::drift::{DriftReport, Plan, Tolerance};
use crate::engine::failure::Classified;
use crate::engine::view::{ExecutorState, MonitorState};

/// What the flow executes: a request that Cruise Control answers with a proposal, sent once as
/// a dry run and (when confirmed) once as the execution, through whichever Cruise Control API
/// the flow runs against.
pub trait CcOperation {
    /// Sends the request, as a dry run or as the execution.
    fn request<C: CruiseControlApi>(
        &self,
        cc: &C,
        dryrun: bool,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<Answer<OptimizationResult>, CcError>>;

    /// The query parameters of the execution request (`dryrun=false`) as sent, without the
    /// `json=true` the client adds: what Cruise Control's `user_tasks` lists it with. `None`
    /// when the operation cannot say. Required (no default), so an operation that wraps another
    /// forwards it rather than silently saying nothing.
    fn execution_query(&self) -> Option<Vec<(String, String)>>;
}

fn owned(q: Query) -> Vec<(String, String)> {
    q.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

impl CcOperation for RebalanceRequest {
    fn request<C: CruiseControlApi>(
        &self,
        cc: &C,
        dryrun: bool,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<Answer<OptimizationResult>, CcError>> {
        let mut req = self.clone();
        req.execution.dryrun = dryrun;
        let policy = *policy;
        async move { cc.rebalance(&req, &policy, obs).await }
    }

    fn execution_query(&self) -> Option<Vec<(String, String)>> {
        let mut req = self.clone();
        req.execution.dryrun = false;
        Some(owned(req.query()))
    }
}

impl CcOperation for TopicConfigurationRequest {
    fn request<C: CruiseControlApi>(
        &self,
        cc: &C,
        dryrun: bool,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<Answer<OptimizationResult>, CcError>> {
        let mut req = self.clone();
        req.execution.dryrun = dryrun;
        let policy = *policy;
        async move { cc.topic_configuration(&req, &policy, obs).await }
    }

    fn execution_query(&self) -> Option<Vec<(String, String)>> {
        let mut req = self.clone();
        req.execution.dryrun = false;
        Some(owned(req.query()))
    }
}

/// The command's side of the flow: checks, prompts and the progress sink. `C` is the Cruise
/// Control API the flow runs against (the REST client unless a test scripts one).
///
/// Every method is required, none has a default: a side that wraps another (a guard around a
/// command's hooks) forwards each one, and forgetting one is a compile error, not a silent
/// fallback (set-rf's hold check once lost the resumed-follow and previous-stop notes that way).
pub trait FlowHooks<C = CruiseControlClient> {
    /// The command's error type (the CLI's `CliError`): it takes the client's errors and the
    /// flow's own, each with its failure class.
    type Error: From<CcError> + From<Classified> + std::fmt::Display;

    /// The operation's own input checks against the cluster (e.g. broker ids), after Cruise
    /// Control was found ready and before any proposal: `Err` when Cruise Control could not be
    /// asked, `Ok(Err(..))` when the input is refused.
    fn check_input(
        &self,
        cc: &C,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> impl Future<Output = Result<Result<(), Self::Error>, CcError>>;
    /// The load model is not ready; the flow waits for it.
    fn waiting_for_ready(&self, reason: &str);
    /// A stopped execution is still winding down (`STOPPING_EXECUTION`): the flow waits for the
    /// executor to be free before it asks for anything (called once per wait). A side with
    /// nothing of its own to show logs it ([`log_previous_stop`]).
    fn waiting_for_previous_stop(&self);
    /// The dry-run proposal arrived (shown before any confirmation).
    fn proposal(&self, dry_run: &Answer<OptimizationResult>);
    /// Asks the operator to execute `dry_run`; `Err` when declined or nobody can answer.
    fn confirm(&self, dry_run: &Answer<OptimizationResult>) -> Result<(), Self::Error>;
    /// The execution started and is followed from now on.
    fn following(&self, task_id: Option<&str>);
    /// A resumed flow follows the execution an earlier run started (said once Cruise Control
    /// shows it still knows the task). A side that says nothing else calls
    /// [`FlowHooks::following`].
    fn following_again(&self, task_id: Option<&str>);
    /// An observation of the busy executor while following.
    fn progress(&self, executor: &ExecutorState);
    /// Following is over (finished or interrupted): clear progress displays. May be called
    /// more than once.
    fn follow_ended(&self);
    /// Interrupted while an execution may run: stop it or leave it running?
    fn choose_after_interrupt(
        &self,
        task_id: Option<&str>,
    ) -> impl Future<Output = InterruptChoice>;
    /// The plan approved before this run (`--approved-plan`), which a `--yes` execution must
    /// match instead of the dry run of this run; `None`: the dry run is the approved one.
    fn approved_plan(&self) -> Option<Plan>;
    /// How far the re-checked proposal may differ from the approved one
    /// ([`Tolerance::default`] unless the operator chose one).
    fn tolerance(&self) -> Tolerance;
    /// The re-check found the proposal changed past the tolerance: nothing was executed. Shown
    /// before the operator is asked again (or before `--yes` refuses).
    fn drifted(&self, report: &DriftReport, new: &Answer<OptimizationResult>);
    /// The execution's own proposal (Cruise Control recomputes it once more for the execution)
    /// differs past the tolerance from the approved one: the execution is already running, so
    /// this can only be told (the re-check before it is what prevents it).
    fn execution_drifted(&self, report: &DriftReport, task_id: Option<&str>);
}

/// What a side of the flow with no display of its own does while a stopped execution winds
/// down ([`FlowHooks::waiting_for_previous_stop`]): it logs the note.
pub fn log_previous_stop() {
    tracing::info!("{}", super::words::PREVIOUS_STOP_NOTE);
}

/// What the flow did.
#[derive(Debug)]
pub struct FlowReport<E> {
    /// The final (serializable) state of the flow.
    pub flow: CcFlow,
    pub outcome: Outcome,
    /// The monitor state of the readiness check.
    pub monitor: Option<MonitorState>,
    /// The dry-run answer.
    pub proposal: Option<Answer<OptimizationResult>>,
    /// The answer to the execution request (Cruise Control's recomputed proposal).
    pub execution: Option<Answer<OptimizationResult>>,
    /// The last re-check dry run before the execution (when the flow re-checks).
    pub recheck: Option<Answer<OptimizationResult>>,
    /// The last comparison of a re-check with the approved plan.
    pub drift: Option<DriftReport>,
    /// The execution's own answer compared with the approved plan (when re-checked).
    pub execution_drift: Option<DriftReport>,
    /// Why the flow failed, worded for people, for every outcome whose exit code is not 0.
    pub error: Option<E>,
}
