//! One loop of the [`Operator`]: observe (Kafka, Cruise Control, the roll wish, the platform),
//! re-read the policy, decide with the pure engine, report the decision (log lines, records,
//! metrics) and act on it ([`super::steps`]).

use std::time::Duration;

use super::observe;
use super::operator::{Operator, Stop};
use super::ports::{ActionRecord, ActionResult, CruiseControlPort, KafkaPort, Recorder, RollPort};
use super::telemetry::ErrorSource;
use super::{DryRunReport, PlannedAction};
use super::{log, now_secs, warn};
use crate::app::operate::policy::Reload;
use crate::cruise_control::client::LogObserver;
use crate::engine::operate::{
    Act, Decision, Observation, OperatePolicy, OperateState, RecordResult, decide, plan_ahead,
};
use crate::state::{Leadership, Store};

impl<C: CruiseControlPort, K: KafkaPort, S: Store<str>, L: Leadership, R: Recorder, P: RollPort>
    Operator<C, K, S, L, R, P>
{
    /// One loop: observe, decide, act. Returns the pause before the next loop and whether both
    /// Kafka and Cruise Control answered.
    pub(super) async fn iteration(
        &mut self,
        state: &mut OperateState,
    ) -> Result<(Duration, bool), Stop> {
        if !self.leadership.is_leader() {
            return Err(Stop::Deposed("leadership lost".into()));
        }
        let timeout = self.spec.action_timeout.min(Duration::from_secs(30));
        let (mut obs, health, progress) = observe::observe(
            &self.kafka,
            &self.cc,
            state.needs_user_tasks(),
            timeout,
            (self.clock)(),
        )
        .await;
        // The policy file is read before anything is decided (a reload applies at once).
        self.refresh_policy().await;
        if let Some(why) = self.policy.unchecked() {
            // Never act on a policy the cluster checks did not pass (a drained broker or a
            // topic that does not exist); it is checked again at every loop.
            let wait =
                format!("everything waits until the policy is checked against the cluster: {why}");
            self.report(&Decision {
                waits: vec![wait],
                ..Decision::default()
            })
            .await;
            self.telemetry.ready(false);
            self.telemetry.loop_succeeded(now_secs());
            return Ok((self.spec.resync, obs.kafka.is_ok() && obs.cc.is_ok()));
        }
        let roll_notes = self.roll_wish(state, &mut obs).await;
        self.note_outages(&obs);
        self.export_health(&obs, health, &progress);
        let mut engine_policy = self.policy.policy().engine();
        let platform_ok = self.observe_platform(&mut obs, &mut engine_policy).await;
        let reachable = obs.kafka.is_ok() && obs.cc.is_ok() && platform_ok;
        self.telemetry.ready(reachable);
        let flow = self.flow_config();
        let before = state.clone();
        let mut d = decide(state, &obs, &engine_policy, &flow);
        d.notes.extend(roll_notes);
        self.safe_to_stop.clone_from(&d.safe_to_stop);
        self.report(&d).await;
        if self.spec.dry_run {
            self.plan_dry_run(&before, &obs, &engine_policy, &flow, &d);
            // The same decisions, none taken: keep only what the engine learned (grace times).
            let learned = std::mem::take(&mut state.empty_since);
            *state = before;
            state.empty_since = learned;
            self.telemetry.state(
                &format!("{:?}", state.rebalancer.state()),
                state.mover_name(),
            );
            self.telemetry.loop_succeeded(now_secs());
            return Ok((self.spec.resync, reachable));
        }
        self.persist_or_stop(state).await?;
        let pause = self.act(state, &d, &obs, timeout).await?;
        self.telemetry.state(
            &format!("{:?}", state.rebalancer.state()),
            state.mover_name(),
        );
        self.telemetry.loop_succeeded(now_secs());
        Ok((pause, reachable))
    }

    /// `--dry-run`: every action the loop would take from `before`, in order (the first ones
    /// are this loop's, [`Operator::report`] logged them); the later ones are logged here, and
    /// the whole plan is kept for the caller of the run ([`Operator::dry_run_report`]).
    fn plan_dry_run(
        &self,
        before: &OperateState,
        obs: &Observation,
        policy: &OperatePolicy,
        flow: &crate::engine::cc_flow::FlowConfig,
        d: &Decision,
    ) {
        let plan = plan_ahead(before, obs, policy, flow);
        let now = d
            .records
            .iter()
            .filter(|r| r.result == RecordResult::Started)
            .count();
        for r in plan.iter().skip(now) {
            log(format!(
                "then (dry run: would) {} {}: {}",
                r.kind, r.target, r.reason
            ));
        }
        let report = DryRunReport {
            actions: plan
                .into_iter()
                .map(|r| PlannedAction {
                    kind: r.kind,
                    target: r.target,
                    reason: r.reason,
                })
                .collect(),
            waits: d.waits.clone(),
            notes: d.notes.clone(),
        };
        *self
            .dry_run_report
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(report);
    }

    /// Which nodes need a roll (when none runs), into `obs`; returns the notes to log.
    async fn roll_wish(&self, state: &OperateState, obs: &mut Observation) -> Vec<String> {
        let mut roll_notes = Vec::new();
        if state.roll().is_none() {
            match self.roll.wish(&state.rolled_config).await {
                Ok(seen) => {
                    roll_notes.extend(seen.note);
                    let wished = seen.wish.as_ref().map(|w| w.nodes.clone());
                    for line in self
                        .held_log()
                        .update(seen.held, &wished.unwrap_or_default())
                    {
                        log(line);
                    }
                    match seen.wish {
                        Some(w) if !self.roll.can_restart() => roll_notes.push(format!(
                            "nodes {:?} need a roll ({}), but no --restart-command (or --stop-command and --start-command) says how to restart them",
                            w.nodes, w.reason
                        )),
                        w => obs.roll = w,
                    }
                }
                Err(e) => {
                    self.telemetry.error(ErrorSource::Kafka);
                    roll_notes.push(format!("cannot tell which nodes need a roll: {e}"));
                }
            }
        }
        // The held nodes the roll waits for, in every loop's notes (a roll running meanwhile
        // does not make them new again): logged once while they stay.
        roll_notes.extend(self.held_log().lines());
        roll_notes
    }

    fn held_log(&self) -> std::sync::MutexGuard<'_, super::held::HeldLog> {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The health verdict on `/metrics`: Kafka's side from this loop's read of Kafka (`facts`),
    /// Cruise Control's from this loop's observation (its executor and anomalies; the load
    /// monitor is not asked), and the reassignments that made no progress for
    /// [`Operator::stall_after`], judged from this loop's `progress` sample and the earlier ones.
    fn export_health(
        &mut self,
        obs: &Observation,
        facts: Option<crate::engine::health::HealthFacts>,
        progress: &[crate::engine::health::ReassignmentProgress],
    ) {
        use crate::engine::health::{CruiseControlFacts, evaluate};
        let Some(mut facts) = facts else {
            return;
        };
        let now = i64::try_from(obs.now.0).unwrap_or(i64::MAX);
        self.progress.observe(progress, now);
        let after = i64::try_from(super::millis(self.stall_after)).unwrap_or(i64::MAX);
        facts.stalled = self.progress.stalled(now, after);
        facts.cruise_control = match &obs.cc {
            Err(e) => CruiseControlFacts::Unreachable { error: e.clone() },
            Ok(cc) => CruiseControlFacts::Seen {
                monitor_not_ready: None,
                executing: (!cc.executor.is_idle()).then(|| cc.executor.describe()),
                anomalies: cc.anomalies.clone(),
            },
        };
        self.telemetry.health(&evaluate(&facts, &[]));
    }

    /// Counts what could not be read and logs each outage once per change (the loop backs
    /// off while one lasts).
    fn note_outages(&mut self, obs: &Observation) {
        if obs.kafka.is_err() {
            self.telemetry.error(ErrorSource::Kafka);
        }
        if obs.cc.is_err() {
            self.telemetry.error(ErrorSource::CruiseControl);
        }
        let kafka_read = obs.kafka.as_ref().map(|_| ()).map_err(ToString::to_string);
        let cc_read = obs.cc.as_ref().map(|_| ()).map_err(ToString::to_string);
        for (source, r) in [("Kafka", kafka_read), ("Cruise Control", cc_read)] {
            if let Some(line) = self
                .outages
                .note(source, r.as_ref().map(|_| ()).map_err(String::as_str))
            {
                if r.is_err() { warn(line) } else { log(line) }
            }
        }
    }

    /// Adds what the platform sees to `obs` and `policy` (Kubernetes: the Strimzi operator's
    /// side, the node pools' scale-down, the roll Lease's holder); `false` when it could not
    /// be read.
    async fn observe_platform(
        &mut self,
        obs: &mut Observation,
        engine_policy: &mut OperatePolicy,
    ) -> bool {
        let mut platform_ok = true;
        if let Some(p) = &self.platform {
            match p.observe().await {
                Ok(v) => {
                    obs.operator = v.operator;
                    // The node pools' scale-down joins the drain set before the engine checks
                    // it (a set that would leave too few brokers drains nothing).
                    engine_policy.drain.extend(v.drain);
                }
                Err(e) => {
                    platform_ok = false;
                    self.telemetry.error(ErrorSource::Kubernetes);
                    obs.platform_error = Some(e.to_string());
                }
            }
        }
        // Kubernetes: a `kafkaops roll` (or a former leader's roll) holding the roll Lease of
        // the same pods is a mover: nothing of ours starts while it is held.
        if let Some(holder) = self.roll.lease_holder().await {
            match holder {
                Ok(other) => {
                    if other.is_some() && self.roll_lease.is_some() {
                        // Ours expired and was taken: we hold nothing any more.
                        self.roll_lease = None;
                    }
                    obs.other_roll = other;
                }
                Err(e) => {
                    platform_ok = false;
                    self.telemetry.error(ErrorSource::Kubernetes);
                    let e = format!("the roll lease cannot be read: {e}");
                    obs.platform_error = Some(match obs.platform_error.take() {
                        Some(p) => format!("{p}; {e}"),
                        None => e,
                    });
                }
            }
        }
        platform_ok
    }

    /// Takes the decision's acts in order; returns the pause before the next loop.
    async fn act(
        &mut self,
        state: &mut OperateState,
        d: &Decision,
        obs: &Observation,
        timeout: Duration,
    ) -> Result<Duration, Stop> {
        let mut pause = self.spec.resync;
        for act in &d.acts {
            if !self.leadership.is_leader() {
                return Err(Stop::Deposed("leadership lost".into()));
            }
            let wants = match act {
                Act::StepRebalance => self.step_rebalance(state).await?,
                Act::StepReplicationFactors => self.step_replication_factors(state, obs).await?,
                Act::StepRoll => self.step_roll(state).await?,
                Act::StopRebalance { task_id } => {
                    self.stop_rebalance(task_id.as_ref(), timeout).await;
                    Some(Duration::from_millis(self.flow_config().poll_interval_ms))
                }
            };
            if let Some(p) = wants {
                pause = pause.min(p);
            }
        }
        Ok(pause)
    }

    /// Asks Cruise Control to stop the running scale-up (a scale-down preempts it).
    async fn stop_rebalance(&self, task_id: Option<&String>, timeout: Duration) {
        let r = self
            .cc
            .stop_execution(
                "kafkaops operate: a scale-down preempts the scale-up",
                std::time::Instant::now() + timeout,
                &LogObserver,
            )
            .await;
        let result = match &r {
            Ok(_) => ActionResult::Succeeded,
            Err(e) => {
                self.telemetry.error(ErrorSource::CruiseControl);
                log(format!("stopping the execution failed: {e}"));
                ActionResult::Failed
            }
        };
        self.record(ActionRecord {
            kind: "stop-rebalance".into(),
            target: task_id.cloned().unwrap_or_else(|| "-".into()),
            reason: "a scale-down preempts the running scale-up".into(),
            result,
        })
        .await;
    }

    /// Re-reads the policy file (every loop; the cluster is read only when the content changed).
    /// A bad version is logged with its field and counted; the last good policy stays in force.
    async fn refresh_policy(&mut self) {
        let kafka = &self.kafka;
        let path = self.spec.policy.display();
        match self
            .policy
            .refresh(async || kafka.cluster_facts().await)
            .await
        {
            Reload::Unchanged => {}
            Reload::Reloaded => {
                // What the roll keeps true follows the policy in force.
                let p = self.policy.policy();
                self.roll
                    .follow_policy(&p.roll.broker_config, p.roll.max_batch_size);
                log(format!("policy {path} reloaded"));
            }
            Reload::Rejected(e) => {
                self.telemetry.error(ErrorSource::Policy);
                warn(format!(
                    "policy {path} rejected, the last good version stays in force: {e}"
                ));
            }
            Reload::Unreadable(e) => {
                self.telemetry.error(ErrorSource::Policy);
                warn(format!(
                    "policy {path} cannot be read, the last good version stays in force: {e}"
                ));
            }
            Reload::Changing => log(format!(
                "policy {path} is being written; read again at the next loop"
            )),
            Reload::Deferred(e) => log(format!(
                "policy {path} changed; it is checked once Kafka answers ({e})"
            )),
            Reload::Checked => log(format!(
                "policy {path} checked against the cluster; acting on it"
            )),
        }
    }

    /// Logs, records and counts a decision.
    pub(super) async fn report(&self, d: &Decision) {
        self.report_records(&d.records).await;
        let now: std::collections::BTreeSet<String> =
            d.notes.iter().chain(&d.waits).cloned().collect();
        let mut said = self
            .said
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for line in d.notes.iter().chain(&d.waits) {
            if !said.contains(line) {
                log(line);
            }
        }
        *said = now;
        drop(said);
        for (from, to) in &d.transitions {
            self.telemetry
                .transition(&format!("{from:?}"), &format!("{to:?}"));
            let would = if self.spec.dry_run {
                " (dry run: would)"
            } else {
                ""
            };
            log(format!("auto-rebalance{would}: {from:?} -> {to:?}"));
        }
    }

    /// Logs, records and counts the records of an action that ended or could not start,
    /// outside a loop's decision: the lines the loop said stay said (its notes and waits are
    /// not logged again when the next decision still has them).
    pub(super) async fn report_records(&self, records: &[crate::engine::operate::Record]) {
        for r in records {
            let result = if self.spec.dry_run && r.result == RecordResult::Started {
                ActionResult::DryRun
            } else {
                match r.result {
                    RecordResult::Started => ActionResult::Started,
                    RecordResult::Succeeded => ActionResult::Succeeded,
                    RecordResult::Failed => ActionResult::Failed,
                }
            };
            self.record(ActionRecord {
                kind: r.kind.clone(),
                target: r.target.clone(),
                reason: r.reason.clone(),
                result,
            })
            .await;
        }
    }

    pub(super) async fn record(&self, a: ActionRecord) {
        let result = match a.result {
            ActionResult::Started => "started",
            ActionResult::Succeeded => "succeeded",
            ActionResult::Failed => "failed",
            ActionResult::DryRun => "dry-run",
        };
        // `operate` keeps a journal per action (crate::output::journal): opened before the
        // action's first line, closed after its last.
        if a.result == ActionResult::Started {
            crate::output::journal::action_started(&a.kind, &a.target, &a.reason);
        }
        log(format!("{} {} {}: {}", a.kind, a.target, result, a.reason));
        if matches!(a.result, ActionResult::Succeeded | ActionResult::Failed) {
            crate::output::journal::action_ended(
                &a.kind,
                &a.target,
                a.result == ActionResult::Succeeded,
                &a.reason,
            );
        }
        self.telemetry.action(&a.kind, result);
        self.recorder.record(&a).await;
    }
}
