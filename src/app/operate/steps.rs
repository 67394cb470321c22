//! The acts of one loop that drive a running mover one step: the roll (through the roll
//! driver, with the roll Lease in Kubernetes), a rebalance and a replication-factor round
//! (through the Cruise Control flow driver), saving the state after every step and before an
//! execution request.

use std::pin::pin;
use std::time::Duration;

use super::operator::{Operator, Stop};
use super::ports::{
    ActionRecord, ActionResult, CruiseControlPort, KafkaPort, Recorder, RollPort, RollStepEnd,
};
use super::{log, now_secs};
use crate::app::operate::act;
use crate::app::operate::roll;
use crate::cruise_control::client::LogObserver;
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::{Answer, CcError, CruiseControlApi, CruiseControlClient, Observer};
use crate::driver::cc_flow::FlowHooks;
use crate::driver::cc_flow::{CcOperation, FlowDriver, Step};
use crate::engine::cc_flow::InterruptChoice;
use crate::engine::drift::{DriftReport, Plan, Tolerance};
use crate::engine::operate::{Mover, Observation, OperateState};
use crate::engine::view::ExecutorState;
use crate::state::{Leadership, Store};
use std::time::Instant;

impl<C: CruiseControlPort, K: KafkaPort, S: Store<str>, L: Leadership, R: Recorder, P: RollPort>
    Operator<C, K, S, L, R, P>
{
    /// Drives the running roll one step (starting or resuming its session first). Returns how
    /// long until it wants to look again.
    pub(super) async fn step_roll(
        &mut self,
        state: &mut OperateState,
    ) -> Result<Option<Duration>, Stop> {
        if state.roll().is_none() {
            return Ok(None);
        }
        if let Some(wait) = self.take_roll_lease(state).await {
            return Ok(Some(wait));
        }
        if state.roll().is_none() {
            return Ok(None);
        }
        if self.roll_session.is_none()
            && let Some(wait) = self.start_roll(state).await?
        {
            return Ok(Some(wait));
        }
        let Some(session) = self.roll_session.as_mut() else {
            return Ok(None);
        };
        // A restart waits for its pod or command (up to --action-timeout, twice for a stop and
        // a start command): /healthz allows that (`Telemetry::busy`).
        let _busy = self
            .telemetry
            .busy(now_secs(), self.spec.action_timeout * 2);
        let step = {
            let mut store = roll::StateRunStore {
                store: &self.store,
                state: std::sync::Mutex::new(&mut *state),
                saved: &self.saved,
            };
            self.roll.step(session, &mut store).await
        };
        for (kind, target, reason) in step.decided {
            self.record(ActionRecord {
                kind,
                target,
                reason,
                result: ActionResult::Started,
            })
            .await;
        }
        match step.end {
            RollStepEnd::Wake(wake_in) => {
                if let Some(r) = state.roll_mut() {
                    r.run = Some(step.run);
                }
                self.persist_or_stop(state).await?;
                Ok(Some(Duration::from_millis(wake_in)))
            }
            RollStepEnd::Finished { ok, why } => {
                self.finish_roll(state, ok, &why).await?;
                Ok(Some(Duration::from_millis(200)))
            }
        }
    }

    /// Kubernetes: the roll Lease, as `kafkaops roll` takes it; held by another, the roll waits
    /// (a wait, not a failure) and takes it once it is free. Returns the pause when it waits.
    async fn take_roll_lease(&mut self, state: &OperateState) -> Option<Duration> {
        let r = state.roll()?;
        if self.roll_lease.is_some() {
            return None;
        }
        match self.roll.take_lease().await? {
            Ok(g) => {
                log(format!("took the roll lease {}", g.name()));
                self.lease_wait.forget();
                self.roll_lease = Some(g);
                None
            }
            Err(e) => {
                // Logged once while it lasts: the loop's own notes are not touched (replacing
                // them with this line made every loop log them again).
                let nodes: Vec<String> = r.nodes.iter().map(i32::to_string).collect();
                if let Some(line) = self
                    .lease_wait
                    .say(format!("the roll of nodes {} waits: {e}", nodes.join(",")))
                {
                    log(line);
                }
                Some(self.spec.resync)
            }
        }
    }

    /// Starts (or resumes) the running roll's session. Returns the pause when it could not
    /// start (the roll is then finished as failed).
    async fn start_roll(&mut self, state: &mut OperateState) -> Result<Option<Duration>, Stop> {
        let Some(r) = state.roll() else {
            return Ok(None);
        };
        match self.roll.start(r.run.as_ref(), &state.rolled_config).await {
            Ok((s, config_nodes)) => {
                // Not rolled again for the same desired configuration (roll.rs).
                let hash = self.roll.config_hash();
                for n in &config_nodes {
                    state.rolled_config.insert(*n, hash.clone());
                }
                self.roll_session = Some(s);
                Ok(None)
            }
            Err(e) => {
                self.release_roll_lease().await;
                if let Some(rec) = state.finish_roll(false, &format!("cannot start: {e}")) {
                    self.report_records(&[rec]).await;
                }
                self.persist_or_stop(state).await?;
                Ok(Some(self.spec.resync))
            }
        }
    }

    /// The roll finished (`ok`: completed): ends the session, releases the roll Lease,
    /// records the end.
    async fn finish_roll(
        &mut self,
        state: &mut OperateState,
        ok: bool,
        why: &str,
    ) -> Result<(), Stop> {
        self.roll_session = None;
        self.release_roll_lease().await;
        if !ok && let Some(r) = state.roll() {
            // A failed roll is tried again, even for the same configuration.
            for n in r.nodes.clone() {
                state.rolled_config.remove(&n);
            }
        }
        if let Some(rec) = state.finish_roll(ok, why) {
            self.report_records(&[rec]).await;
        }
        self.persist_or_stop(state).await
    }

    /// Drives the running rebalance's flow until it waits or ends, saving the state after
    /// every step and before the execution request. Returns how long until it wants to look
    /// again (`None`: nothing runs).
    pub(super) async fn step_rebalance(
        &mut self,
        state: &mut OperateState,
    ) -> Result<Option<Duration>, Stop> {
        let Some(r) = state.rebalance() else {
            return Ok(None);
        };
        let op = match act::request(&self.policy.policy(), r) {
            Ok(op) => op,
            Err(e) => {
                log(format!(
                    "cannot build the Cruise Control request of the {} rebalance: {e}",
                    r.rebalance.mode.name()
                ));
                return Ok(Some(self.spec.resync));
            }
        };
        self.step_flow(state, &op).await
    }

    /// Drives the running replication-factor round's flow until it waits or ends.
    pub(super) async fn step_replication_factors(
        &mut self,
        state: &mut OperateState,
        obs: &Observation,
    ) -> Result<Option<Duration>, Stop> {
        let Some(r) = state.replication_factors() else {
            return Ok(None);
        };
        let racks = obs.kafka.as_ref().is_ok_and(|k| !k.racks.is_empty());
        let op = act::rf_request(&r.replicas, racks, &r.tag);
        let task_before = r.flow.task_id().is_some();
        let pause = self.step_flow(state, &op).await?;
        // Once Cruise Control took the changes, they are ongoing under its task.
        if !task_before
            && let Some(Mover::ReplicationFactors(r)) = &mut state.mover
            && r.flow.execution_started()
        {
            r.replicas.handle_sent(r.flow.task_id().map(str::to_string));
            self.persist_or_stop(state).await?;
        }
        Ok(pause)
    }

    /// Drives the running mover's Cruise Control flow for `op` until it waits or ends, saving
    /// the state after every step and before the execution request. Returns how long until it
    /// wants to look again.
    async fn step_flow<O: CcOperation>(
        &self,
        state: &mut OperateState,
        op: &O,
    ) -> Result<Option<Duration>, Stop> {
        let Some(flow) = state.flow().cloned() else {
            return Ok(None);
        };
        let hooks = LoopHooks(act::OperateHooks);
        let mut driver = FlowDriver::resume(&self.cc, op, flow, &hooks, &LogObserver);
        let mut never = pin!(std::future::pending::<()>());
        loop {
            state.set_flow(driver.flow().clone());
            if state.about_to_execute() {
                // Saved before the request is sent: a successor finds the task by this time.
                // With its parameters: the successor's only way to tell its task.
                state.mark_requested((self.clock)(), op.execution_query());
                self.persist_or_stop(state).await?;
                if !self.leadership.is_leader() {
                    return Err(Stop::Deposed("leadership lost".into()));
                }
            }
            let step = {
                let _busy = self.telemetry.busy(now_secs(), self.spec.action_timeout);
                driver.step(never.as_mut()).await
            };
            state.set_flow(driver.flow().clone());
            self.say_following(driver.flow().task_id());
            self.persist_or_stop(state).await?;
            match step {
                Step::Continue => {}
                Step::WakeUpAt(until) => {
                    return Ok(Some(Duration::from_millis(until.since(driver.now()))));
                }
                Step::Done => {
                    let report = driver.into_report();
                    if let Some(e) = &report.error {
                        log(format!("the Cruise Control flow ended: {e}"));
                    }
                    // The engine finishes it on the next loop, which comes at once.
                    return Ok(Some(Duration::from_millis(200)));
                }
            }
        }
    }

    /// Says once per task that this process follows it.
    fn say_following(&self, task: Option<&str>) {
        let Some(task) = task else {
            return;
        };
        let mut followed = self
            .followed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if followed.as_deref() != Some(task) {
            log(format!("following the execution (task {task})"));
            *followed = Some(task.to_string());
        }
    }
}

/// The unattended flow hooks of `operate` over whichever Cruise Control API the loop runs
/// against (the REST client, or a test's scripted one): log lines instead of prompts.
struct LoopHooks(act::OperateHooks);

impl<C: CruiseControlApi> FlowHooks<C> for LoopHooks {
    type Error = <act::OperateHooks as FlowHooks>::Error;

    async fn check_input(
        &self,
        _cc: &C,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<Result<(), Self::Error>, CcError> {
        // The brokers come from Kafka's metadata, and Cruise Control checks them itself; one
        // user-task slot fewer (as `act::OperateHooks`).
        Ok(Ok(()))
    }

    fn waiting_for_ready(&self, reason: &str) {
        self.0.waiting_for_ready(reason);
    }

    fn waiting_for_previous_stop(&self) {
        self.0.waiting_for_previous_stop();
    }

    fn proposal(&self, dry_run: &Answer<OptimizationResult>) {
        FlowHooks::<CruiseControlClient>::proposal(&self.0, dry_run);
    }

    fn confirm(&self, dry_run: &Answer<OptimizationResult>) -> Result<(), Self::Error> {
        FlowHooks::<CruiseControlClient>::confirm(&self.0, dry_run)
    }

    fn following(&self, task_id: Option<&str>) {
        FlowHooks::<CruiseControlClient>::following(&self.0, task_id);
    }

    fn following_again(&self, task_id: Option<&str>) {
        FlowHooks::<CruiseControlClient>::following_again(&self.0, task_id);
    }

    fn progress(&self, executor: &ExecutorState) {
        FlowHooks::<CruiseControlClient>::progress(&self.0, executor);
    }

    fn follow_ended(&self) {
        FlowHooks::<CruiseControlClient>::follow_ended(&self.0);
    }

    async fn choose_after_interrupt(&self, task_id: Option<&str>) -> InterruptChoice {
        FlowHooks::<CruiseControlClient>::choose_after_interrupt(&self.0, task_id).await
    }

    fn approved_plan(&self) -> Option<Plan> {
        FlowHooks::<CruiseControlClient>::approved_plan(&self.0)
    }

    fn tolerance(&self) -> Tolerance {
        FlowHooks::<CruiseControlClient>::tolerance(&self.0)
    }

    fn drifted(&self, report: &DriftReport, new: &Answer<OptimizationResult>) {
        FlowHooks::<CruiseControlClient>::drifted(&self.0, report, new);
    }

    fn execution_drifted(&self, report: &DriftReport, task_id: Option<&str>) {
        FlowHooks::<CruiseControlClient>::execution_drifted(&self.0, report, task_id);
    }
}
