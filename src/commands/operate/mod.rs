//! `kafkaops operate`: the other subcommands' logic as a long-running controller.
//!
//! Each loop (a resync interval, woken early by changes) observes Kafka, Cruise Control and,
//! in Kubernetes, the pods; decides with the pure engines (`crate::engine::operate` over the
//! auto-rebalance machine, the replication-factor engine and the roll engine); acts through
//! the same adapters as the CLI. What differs between a plain host and Kubernetes sits behind
//! [`ports`]. What to keep true is the [`policy`] file. [`telemetry`] serves metrics and health.
//!
//! A controller outlives outages: without `--once`, Kafka not answering at start (unreachable,
//! timed out) or Kafka / Cruise Control not answering later is waited for with backoff and
//! logged once per change ([`wake`]), and the loop acts again when they answer. Credentials,
//! TLS and settings errors at start still exit (6 / 2): they do not heal by waiting. `--once`
//! exits 6 when Kafka or Cruise Control cannot be reached. A leader that is deposed (its save
//! answered a conflict, or it lost the Lease) stops acting, waits to lead again and then goes on
//! from the state the other leader left.
//!
//! The loop ([`Operator`]) is generic over the ports: the state is persisted after every
//! transition (and before an execution request is sent, so a successor attaches to the task
//! instead of sending it again), only the leader acts, and SIGTERM / Ctrl-C persist, release
//! and exit 0, leaving a running Cruise Control execution to finish on its own.

pub mod act;
pub mod kube_ports;
pub mod observe;
pub mod policy;
pub mod ports;
pub mod roll;
pub mod store_file;
pub mod telemetry;
pub mod wake;

#[cfg(test)]
mod leadership_tests;

use std::path::PathBuf;
use std::pin::pin;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::Ctx;
use crate::cli::operate::OperateArgs;
use crate::cruise_control::CruiseControlClient;
use crate::cruise_control::client::LogObserver;
use crate::cruise_control::flow::{FlowDriver, Step};
use crate::engine::cc_flow::FlowConfig;
use crate::engine::model::Millis;
use crate::engine::operate::{Act, Decision, OperateState, RecordResult, STATE_VERSION, decide};
use crate::error::{CliError, ExitCode};
use crate::kafka::KafkaClient;
use policy::{PolicySource, Reload};
use ports::{ActionRecord, ActionResult, Leadership, PortError, Recorder, StateStore};
use store_file::{FileStore, LockLeadership, LogRecorder};
use telemetry::{ErrorSource, Telemetry};

/// One log line of the loop (stderr, through `tracing`: text, or JSON with `--log-format json`;
/// `operate` logs at info by default, see `main.rs`).
pub fn log(msg: impl std::fmt::Display) {
    tracing::info!("{msg}");
}

/// A log line about something wrong that the loop rides out.
pub fn warn(msg: impl std::fmt::Display) {
    tracing::warn!("{msg}");
}

fn now_ms() -> Millis {
    Millis(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
    )
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Resolves on Ctrl-C or SIGTERM. Registered at start, so a signal at any point ends the loop
/// through the same path (persist, release, exit 0).
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    async move {
        #[cfg(unix)]
        if let Some(mut term) = term {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The operate state file of the cluster behind `cc_url`.
fn state_path(args: &OperateArgs, cc_url: &str) -> PathBuf {
    let dir = args
        .state_dir
        .clone()
        .unwrap_or_else(|| crate::state::default_dir(&|k| std::env::var(k).ok()));
    dir.join(crate::state::file_name("operate", cc_url))
}

/// Runs `kafkaops operate` on a plain host.
pub async fn run(ctx: &Ctx, args: OperateArgs) -> Result<ExitCode, CliError> {
    let mut shutdown = Box::pin(shutdown_signal());
    // A bad policy is reported (exit 2) before anything is contacted; the checks against the
    // cluster follow once Kafka answers.
    let mut policy = PolicySource::load(&args.policy, policy::SETTLE, None).await?;
    if ctx.settings.cruise_control.url.is_none() {
        return Err(CliError::usage(
            "operate needs Cruise Control: set --cruise-control-url (or KAFKAOPS_CRUISE_CONTROL_URL)",
        ));
    }
    if ctx.settings.kafka.bootstrap_servers.is_none() {
        return Err(CliError::usage(
            "operate needs Kafka: set --bootstrap-servers (or KAFKAOPS_BOOTSTRAP_SERVERS)",
        ));
    }
    let poll = args
        .resync
        .clamp(Duration::from_millis(200), Duration::from_secs(5));
    let cc = super::rebalance::client(ctx, poll)?;
    let Some(kafka) = connect_kafka(ctx, &args, &mut shutdown).await? else {
        log("stopped while waiting for Kafka");
        return Ok(ExitCode::Ok);
    };
    check_against_cluster(&mut policy, &kafka).await?;
    let method = super::roll::restart_method_of(
        args.restart_command.as_ref(),
        args.stop_command.as_ref(),
        args.start_command.as_ref(),
    )?;
    let mut roll = roll::RollSettings::new(
        policy.policy().roll.broker_config.clone(),
        method,
        policy.policy().roll.max_batch_size,
        args.action_timeout,
    );
    if let Some(kube) = kube_ports::from_args(ctx, &args).await? {
        roll.kube = kube.pods;
        let mut op = Operator::new(cc, kafka, kube.ports, policy, args, roll);
        op.cluster_watch = Some(kube.watch);
        op.platform = kube
            .strimzi
            .map(|s| Box::new(s) as Box<dyn ports::PlatformObserver>);
        return op.run(shutdown).await;
    }
    let path = state_path(&args, cc.url());
    let store = FileStore::new(path.clone());
    let leadership = LockLeadership::new(path.with_extension("lock"));
    let op = Operator::new(
        cc,
        kafka,
        (store, leadership, LogRecorder),
        policy,
        args,
        roll,
    );
    op.run(shutdown).await
}

/// Connects to Kafka. Without `--once`, Kafka not answering (unreachable, timed out) is waited
/// for with backoff, logged once per change (`None`: stopped meanwhile); credentials, TLS and
/// settings errors do not heal by waiting and end the run (exit 6 / 2), as with `--once`.
async fn connect_kafka(
    ctx: &Ctx,
    args: &OperateArgs,
    shutdown: &mut (impl std::future::Future<Output = ()> + Unpin),
) -> Result<Option<KafkaClient>, CliError> {
    let mut outages = wake::Outages::default();
    loop {
        let e = match super::reassignments::kafka(ctx).await {
            Ok(k) => {
                if let Some(line) = outages.note("Kafka", Ok(())) {
                    log(line);
                }
                return Ok(Some(k));
            }
            Err(e) => e,
        };
        let waitable = e
            .error
            .chain()
            .find_map(|c| c.downcast_ref::<crate::kafka::KafkaError>())
            .is_some_and(|k| {
                matches!(
                    k,
                    crate::kafka::KafkaError::Unreachable { .. }
                        | crate::kafka::KafkaError::Timeout { .. }
                )
            });
        if args.once || !waitable {
            return Err(e);
        }
        if let Some(line) = outages.note("Kafka", Err(&e.to_string())) {
            warn(line);
        }
        tokio::select! {
            () = tokio::time::sleep(outages.pause(args.resync)) => {}
            () = &mut *shutdown => return Ok(None),
        }
    }
}

/// Checks the policy loaded at start against the cluster (exit 2 when it does not fit). Kafka
/// not answering is no reason to stop: the loop checks again at every refresh and acts on
/// nothing until a check passed.
pub async fn check_against_cluster(
    policy: &mut PolicySource,
    kafka: &KafkaClient,
) -> Result<(), CliError> {
    match observe::cluster_facts(kafka).await {
        Ok(facts) => policy.check(&facts)?,
        Err(e) => {
            warn(format!(
                "the policy is not checked against the cluster yet (Kafka cannot be read: {e})"
            ));
            policy.not_checked(format!("Kafka cannot be read: {e}"));
        }
    }
    Ok(())
}

/// The loop, generic over the ports.
pub struct Operator<S: StateStore, L: Leadership, R: Recorder> {
    pub cc: CruiseControlClient,
    pub kafka: KafkaClient,
    pub store: S,
    pub leadership: L,
    pub recorder: R,
    pub telemetry: Telemetry,
    /// The policy file and the policy in force (the last good one).
    pub policy: PolicySource,
    pub args: OperateArgs,
    /// The document last saved (nothing is written when it did not change).
    saved: std::sync::Mutex<Option<String>>,
    /// The waits and notes of the last loop: a line is logged when it first appears, not in
    /// every loop.
    said: std::sync::Mutex<std::collections::BTreeSet<String>>,
    /// The task this process said it follows (said once per task).
    followed: std::sync::Mutex<Option<String>>,
    /// How nodes are rolled (the platform, the desired configuration).
    pub roll: roll::RollSettings,
    /// The roll this process drives, if one runs.
    roll_session: Option<roll::RollSession>,
    /// Kubernetes: the roll Lease `kafkaops roll` takes for the same pods, held (and renewed in
    /// the background) while our roll runs, so a manual roll meanwhile is refused as busy.
    roll_lease: Option<crate::platform::kube::LeaseGuard>,
    /// Kubernetes: the operator guard's view and the node pools' scale-down intent.
    pub platform: Option<Box<dyn ports::PlatformObserver>>,
    /// Kafka and Cruise Control outages: logged once per change, backoff while they last.
    outages: wake::Outages,
    /// Kubernetes: the pods and node pools whose changes wake the loop before the resync.
    pub cluster_watch: Option<kube_ports::ClusterWatch>,
}

/// Why the loop stopped acting.
enum Stop {
    /// Another instance wrote the state or took the leadership.
    Deposed(String),
}

impl<S: StateStore, L: Leadership, R: Recorder> Operator<S, L, R> {
    /// Builds a loop over other ports (Kubernetes).
    pub fn new(
        cc: CruiseControlClient,
        kafka: KafkaClient,
        ports: (S, L, R),
        policy: PolicySource,
        args: OperateArgs,
        roll: roll::RollSettings,
    ) -> Self {
        Operator {
            cc,
            kafka,
            store: ports.0,
            leadership: ports.1,
            recorder: ports.2,
            telemetry: Telemetry::new(),
            policy,
            args,
            saved: std::sync::Mutex::new(None),
            said: std::sync::Mutex::default(),
            followed: std::sync::Mutex::default(),
            roll,
            roll_session: None,
            roll_lease: None,
            platform: None,
            outages: wake::Outages::default(),
            cluster_watch: None,
        }
    }

    fn flow_config(&self) -> FlowConfig {
        FlowConfig {
            execute: true,
            assume_yes: true,
            no_wait: false,
            timeout_ms: millis(self.args.action_timeout),
            wait_for_ready_ms: 0,
            poll_interval_ms: millis(
                self.args
                    .resync
                    .clamp(Duration::from_millis(200), Duration::from_secs(5)),
            ),
            recheck: false,
            follow_timeout_ms: Some(u64::MAX),
        }
    }

    /// Runs until SIGTERM / Ctrl-C (or one loop with `--once`).
    pub async fn run(
        mut self,
        shutdown: impl std::future::Future<Output = ()>,
    ) -> Result<ExitCode, CliError> {
        let mut shutdown = pin!(shutdown);
        let server = self
            .telemetry
            .serve(self.args.listen, self.args.resync)
            .await
            .map_err(|e| {
                CliError::usage(format!(
                    "cannot serve /metrics, /healthz and /readyz on {} (--listen): {e}",
                    self.args.listen
                ))
            })?;
        log(format!(
            "serving /metrics, /healthz and /readyz on http://{}",
            server.local_addr()
        ));
        if !self.wait_to_lead(&mut shutdown).await? {
            log("stopped before becoming the leader");
            return Ok(ExitCode::Ok);
        }
        let mut state = self.load().await?;
        self.say_leading(&state);
        // Wakes the sleep early when the policy file changes (not needed for one loop).
        let policy_watch = (!self.args.once)
            .then(|| wake::PolicyWatch::start(self.args.policy.clone(), wake::POLICY_CHECK));
        // Kubernetes: wakes it when the cluster's pods or node pools change.
        let cluster_changes = self
            .cluster_watch
            .as_ref()
            .filter(|_| !self.args.once)
            .map(kube_ports::ClusterWatch::start);
        let mut code = ExitCode::Ok;
        // Depositions in a row: a store that keeps failing must not spin the loop.
        let mut deposed = 0u32;
        loop {
            let step = tokio::select! {
                r = self.iteration(&mut state) => Some(r),
                () = &mut shutdown => None,
            };
            let pause = match step {
                None => break,
                Some(Ok((pause, reachable))) => {
                    if self.args.once {
                        if !reachable {
                            code = ExitCode::Unreachable;
                        }
                        break;
                    }
                    deposed = 0;
                    pause.min(self.outages.pause(self.args.resync))
                }
                Some(Err(Stop::Deposed(why))) => {
                    // Someone else acts now: stop acting, wait to lead again, and then go on
                    // from the state the other leader left (never from ours).
                    log(format!(
                        "not the leader any more ({why}); waiting to lead again"
                    ));
                    self.telemetry.leader(false);
                    self.release_roll_lease().await;
                    self.leadership.release().await;
                    if self.args.once {
                        return Ok(ExitCode::Failed);
                    }
                    if !self.wait_to_lead(&mut shutdown).await? {
                        log("stopped while waiting to lead again");
                        return Ok(ExitCode::Ok);
                    }
                    self.forget_leading();
                    state = self.load().await?;
                    self.say_leading(&state);
                    deposed = deposed.saturating_add(1);
                    let resync = millis(self.args.resync);
                    Duration::from_millis(crate::engine::anomalies::poll_delay_ms(
                        resync, deposed, resync,
                    ))
                }
            };
            let policy_changed = async {
                match &policy_watch {
                    Some(w) => w.changed().await,
                    None => std::future::pending().await,
                }
            };
            let cluster_changed = async {
                match &cluster_changes {
                    Some(c) => c.changed().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = tokio::time::sleep(pause) => {}
                () = policy_changed => log(format!("policy {} changed; looking now", self.args.policy.display())),
                what = cluster_changed => log(format!("the cluster changed ({what}); looking now")),
                () = &mut shutdown => break,
            }
        }
        if !self.args.dry_run
            && let Err(e) = self.persist(&state).await
        {
            log(format!("could not save the state on exit: {e}"));
        }
        if let Some(r) = state.rebalance()
            && let Some(t) = r.flow.task_id()
        {
            log(format!(
                "exiting; Cruise Control task {t} keeps running (the next instance attaches to it)"
            ));
        }
        self.release_roll_lease().await;
        self.leadership.release().await;
        self.telemetry.leader(false);
        Ok(code)
    }

    /// Waits to lead (`false`: stopped first). A standby is alive and ready while it waits: its
    /// wait counts as a loop for /healthz.
    async fn wait_to_lead(
        &self,
        shutdown: &mut (impl std::future::Future<Output = ()> + Unpin),
    ) -> Result<bool, CliError> {
        self.telemetry.leader(false);
        self.telemetry.ready(true);
        let standby = async {
            loop {
                self.telemetry.loop_succeeded(now_secs());
                tokio::time::sleep(self.args.resync).await;
            }
        };
        tokio::select! {
            r = self.leadership.acquire() => r.map_err(|e| CliError::new(ExitCode::Failed, e))?,
            () = standby => {}
            () = &mut *shutdown => return Ok(false),
        }
        self.telemetry.leader(true);
        Ok(true)
    }

    /// Gives the roll Lease up if we hold it (the roll ended, we exit or were deposed): its
    /// holder is cleared, so the next roller (a `kafkaops roll`, the next leader) takes it at once.
    async fn release_roll_lease(&mut self) {
        if let Some(g) = self.roll_lease.take() {
            log(format!("releasing the roll lease {}", g.name()));
            g.give_up(false).await;
        }
    }

    fn say_leading(&self, state: &OperateState) {
        log(format!(
            "leading; state {:?}, policy {} (modes: {})",
            state.rebalancer.state(),
            self.args.policy.display(),
            self.policy
                .policy()
                .auto_rebalance
                .iter()
                .map(|e| e.mode.name())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }

    /// Forgets what this process knew while it last led (the saved document, the lines said,
    /// the followed task, its roll session): the next leader's state is read afresh.
    fn forget_leading(&mut self) {
        *self.saved_doc() = None;
        self.said
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
        *self
            .followed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        if let Some(s) = self.roll_session.take() {
            s.witness.stop();
        }
    }

    async fn load(&mut self) -> Result<OperateState, CliError> {
        let doc = self
            .store
            .load()
            .await
            .map_err(|e| CliError::new(ExitCode::Failed, e))?;
        let Some(doc) = doc else {
            return Ok(OperateState::new());
        };
        let state: OperateState = serde_json::from_str(&doc).map_err(|e| {
            CliError::usage(format!(
                "the saved operate state is not readable ({e}); move it away to start afresh"
            ))
        })?;
        if state.version != STATE_VERSION {
            return Err(CliError::usage(format!(
                "the saved operate state has version {}, this kafkaops reads version {STATE_VERSION}",
                state.version
            )));
        }
        *self.saved_doc() = Some(doc);
        Ok(state)
    }

    /// Saves `state` if it changed since the last save.
    fn saved_doc(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        self.saved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn persist(&self, state: &OperateState) -> Result<(), PortError> {
        if self.args.dry_run {
            return Ok(());
        }
        let doc = serde_json::to_string(state).map_err(|e| PortError::Io(e.to_string()))?;
        if self.saved_doc().as_deref() == Some(doc.as_str()) {
            return Ok(());
        }
        match self.store.save(&doc).await {
            Ok(()) => {
                *self.saved_doc() = Some(doc);
                Ok(())
            }
            Err(e) => {
                self.telemetry.error(ErrorSource::State);
                Err(e)
            }
        }
    }

    async fn persist_or_stop(&self, state: &OperateState) -> Result<(), Stop> {
        match self.persist(state).await {
            Ok(()) => Ok(()),
            Err(PortError::Conflict(why)) => Err(Stop::Deposed(why)),
            Err(e) => {
                // A state that cannot be saved must not run ahead of what a successor reads.
                log(format!("cannot save the state: {e}"));
                Err(Stop::Deposed(e.to_string()))
            }
        }
    }

    /// One loop: observe, decide, act. Returns the pause before the next loop and whether both
    /// Kafka and Cruise Control answered.
    async fn iteration(&mut self, state: &mut OperateState) -> Result<(Duration, bool), Stop> {
        if !self.leadership.is_leader() {
            return Err(Stop::Deposed("leadership lost".into()));
        }
        let timeout = self.args.action_timeout.min(Duration::from_secs(30));
        let mut obs = observe::observe(
            &self.kafka,
            &self.cc,
            state.needs_user_tasks(),
            timeout,
            now_ms(),
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
            return Ok((self.args.resync, obs.kafka.is_ok() && obs.cc.is_ok()));
        }
        let mut roll_notes = Vec::new();
        if state.roll().is_none() {
            match roll::wish(&self.kafka, &self.roll, &state.rolled_config).await {
                Ok((w, note)) => {
                    roll_notes.extend(note);
                    match w {
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
        if obs.kafka.is_err() {
            self.telemetry.error(ErrorSource::Kafka);
        }
        if obs.cc.is_err() {
            self.telemetry.error(ErrorSource::CruiseControl);
        }
        // Logged once per change of an outage; the loop backs off while one lasts.
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
        let mut engine_policy = self.policy.policy().engine();
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
        if let Some(k) = &self.roll.kube {
            match k.roll_lease_holder().await {
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
        let reachable = obs.kafka.is_ok() && obs.cc.is_ok() && platform_ok;
        self.telemetry.ready(reachable);
        let flow = self.flow_config();
        let before = state.clone();
        let mut d = decide(state, &obs, &engine_policy, &flow);
        d.notes.extend(roll_notes);
        self.report(&d).await;
        if self.args.dry_run {
            // The same decisions, none taken: keep only what the engine learned (grace times).
            let learned = std::mem::take(&mut state.empty_since);
            *state = before;
            state.empty_since = learned;
            self.telemetry.state(
                &format!("{:?}", state.rebalancer.state()),
                state.mover_name(),
            );
            self.telemetry.loop_succeeded(now_secs());
            return Ok((self.args.resync, reachable));
        }
        self.persist_or_stop(state).await?;
        let mut pause = self.args.resync;
        for act in &d.acts {
            if !self.leadership.is_leader() {
                return Err(Stop::Deposed("leadership lost".into()));
            }
            match act {
                Act::StepRebalance => {
                    if let Some(p) = self.step_rebalance(state).await? {
                        pause = pause.min(p);
                    }
                }
                Act::StepReplicationFactors => {
                    if let Some(p) = self.step_replication_factors(state, &obs).await? {
                        pause = pause.min(p);
                    }
                }
                Act::StepRoll => {
                    if let Some(p) = self.step_roll(state).await? {
                        pause = pause.min(p);
                    }
                }
                Act::StopRebalance { task_id } => {
                    let r = self
                        .cc
                        .stop_proposal_execution(
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
                        target: task_id.clone().unwrap_or_else(|| "-".into()),
                        reason: "a scale-down preempts the running scale-up".into(),
                        result,
                    })
                    .await;
                    pause = pause.min(Duration::from_millis(self.flow_config().poll_interval_ms));
                }
            }
        }
        self.telemetry.state(
            &format!("{:?}", state.rebalancer.state()),
            state.mover_name(),
        );
        self.telemetry.loop_succeeded(now_secs());
        Ok((pause, reachable))
    }

    /// Re-reads the policy file (every loop; the cluster is read only when the content changed).
    /// A bad version is logged with its field and counted; the last good policy stays in force.
    async fn refresh_policy(&mut self) {
        let kafka = &self.kafka;
        let path = self.args.policy.display();
        match self
            .policy
            .refresh(async || observe::cluster_facts(kafka).await)
            .await
        {
            Reload::Unchanged => {}
            Reload::Reloaded => {
                // What the roll keeps true follows the policy in force.
                let p = self.policy.policy();
                self.roll.desired.clone_from(&p.roll.broker_config);
                self.roll.config.max_batch_size = p.roll.max_batch_size.max(1);
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
    async fn report(&self, d: &Decision) {
        for r in &d.records {
            let result = if self.args.dry_run && r.result == RecordResult::Started {
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
            let would = if self.args.dry_run {
                " (dry run: would)"
            } else {
                ""
            };
            log(format!("auto-rebalance{would}: {from:?} -> {to:?}"));
        }
    }

    async fn record(&self, a: ActionRecord) {
        let result = match a.result {
            ActionResult::Started => "started",
            ActionResult::Succeeded => "succeeded",
            ActionResult::Failed => "failed",
            ActionResult::DryRun => "dry-run",
        };
        log(format!("{} {} {}: {}", a.kind, a.target, result, a.reason));
        self.telemetry.action(&a.kind, result);
        self.recorder.record(&a).await;
    }

    /// Drives the running roll one step (starting or resuming its session first). Returns how
    /// long until it wants to look again.
    async fn step_roll(&mut self, state: &mut OperateState) -> Result<Option<Duration>, Stop> {
        let Some(r) = state.roll() else {
            return Ok(None);
        };
        // Kubernetes: the roll Lease, as `kafkaops roll` takes it; held by another, the roll
        // waits (a wait, not a failure) and takes it once it is free.
        if let Some(k) = &self.roll.kube
            && self.roll_lease.is_none()
        {
            match k.take_lease(crate::commands::roll::LEASE_DURATION).await {
                Ok(g) => {
                    log(format!("took the roll lease {}", g.name()));
                    self.roll_lease = Some(g);
                }
                Err(e) => {
                    let nodes: Vec<String> = r.nodes.iter().map(i32::to_string).collect();
                    let wait = format!("the roll of nodes {} waits: {e}", nodes.join(","));
                    self.report(&Decision {
                        waits: vec![wait],
                        ..Decision::default()
                    })
                    .await;
                    return Ok(Some(self.args.resync));
                }
            }
        }
        let Some(r) = state.roll() else {
            return Ok(None);
        };
        if self.roll_session.is_none() {
            match roll::start(
                &self.kafka,
                &self.roll,
                r.run.as_ref(),
                &state.rolled_config,
            )
            .await
            {
                Ok(s) => {
                    // Not rolled again for the same desired configuration (roll.rs).
                    let hash = roll::config_hash(&self.roll.desired);
                    for n in &s.config_nodes {
                        state.rolled_config.insert(*n, hash.clone());
                    }
                    self.roll_session = Some(s);
                }
                Err(e) => {
                    self.release_roll_lease().await;
                    if let Some(rec) = state.finish_roll(false, &format!("cannot start: {e}")) {
                        self.report(&Decision {
                            records: vec![rec],
                            ..Decision::default()
                        })
                        .await;
                    }
                    self.persist_or_stop(state).await?;
                    return Ok(Some(self.args.resync));
                }
            }
        }
        let Some(session) = self.roll_session.as_mut() else {
            return Ok(None);
        };
        // A restart waits for its pod or command (up to --action-timeout, twice for a stop and
        // a start command): /healthz allows that (`Telemetry::busy`).
        let _busy = self
            .telemetry
            .busy(now_secs(), self.args.action_timeout * 2);
        let result = {
            let mut store = roll::StateRunStore {
                store: &self.store,
                state: &mut *state,
                saved: &self.saved,
            };
            crate::driver::step(
                &mut session.run,
                &session.io,
                &mut session.progress,
                &mut store,
                false,
                &session.options,
            )
            .await
        };
        let decided = session.progress.take();
        let wake_in = match &result {
            crate::driver::StepResult::Wake(at) => {
                Some(at.since(crate::driver::RollIo::now(&session.io)))
            }
            crate::driver::StepResult::Finished(_) => None,
        };
        let run = serde_json::to_value(&session.run).ok();
        if let crate::driver::StepResult::Finished(_) = &result {
            session.witness.stop();
        }
        for (kind, target, reason) in decided {
            self.record(ActionRecord {
                kind,
                target,
                reason,
                result: ActionResult::Started,
            })
            .await;
        }
        match result {
            crate::driver::StepResult::Wake(_) => {
                if let Some(r) = state.roll_mut() {
                    r.run = run;
                }
                self.persist_or_stop(state).await?;
                Ok(Some(Duration::from_millis(wake_in.unwrap_or(0))))
            }
            crate::driver::StepResult::Finished(outcome) => {
                let ok = matches!(outcome, crate::driver::Outcome::Done(_));
                let why = match &outcome {
                    crate::driver::Outcome::Done(_) => "the roll completed".to_string(),
                    crate::driver::Outcome::Aborted(e) => format!("the roll was aborted: {e}"),
                    crate::driver::Outcome::RestartFailed { node, error } => {
                        format!("restarting node {node} failed: {error:#}")
                    }
                    crate::driver::Outcome::ObserveFailed(e) => {
                        format!("the cluster could not be observed: {e:#}")
                    }
                    crate::driver::Outcome::SaveFailed(e) => {
                        format!("the state could not be saved: {e:#}")
                    }
                    crate::driver::Outcome::Interrupted => "interrupted".to_string(),
                };
                self.roll_session = None;
                self.release_roll_lease().await;
                if !ok && let Some(r) = state.roll() {
                    // A failed roll is tried again, even for the same configuration.
                    for n in r.nodes.clone() {
                        state.rolled_config.remove(&n);
                    }
                }
                if let Some(rec) = state.finish_roll(ok, &why) {
                    self.report(&Decision {
                        records: vec![rec],
                        ..Decision::default()
                    })
                    .await;
                }
                self.persist_or_stop(state).await?;
                Ok(Some(Duration::from_millis(200)))
            }
        }
    }

    /// Drives the running rebalance's flow until it waits or ends, saving the state after
    /// every step and before the execution request. Returns how long until it wants to look
    /// again (`None`: nothing runs).
    async fn step_rebalance(&mut self, state: &mut OperateState) -> Result<Option<Duration>, Stop> {
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
                return Ok(Some(self.args.resync));
            }
        };
        self.step_flow(state, &op).await
    }

    /// Drives the running replication-factor round's flow until it waits or ends.
    async fn step_replication_factors(
        &mut self,
        state: &mut OperateState,
        obs: &crate::engine::operate::Observation,
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
            && let Some(crate::engine::operate::Mover::ReplicationFactors(r)) = &mut state.mover
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
    async fn step_flow<O: crate::cruise_control::flow::CcOperation>(
        &self,
        state: &mut OperateState,
        op: &O,
    ) -> Result<Option<Duration>, Stop> {
        let Some(flow) = state.flow().cloned() else {
            return Ok(None);
        };
        let hooks = act::OperateHooks;
        let mut driver = FlowDriver::resume(&self.cc, op, flow, &hooks, &LogObserver);
        let mut never = pin!(std::future::pending::<()>());
        loop {
            state.set_flow(driver.flow().clone());
            if state.about_to_execute() {
                // Saved before the request is sent: a successor finds the task by this time.
                // With its parameters: the successor's only way to tell its task.
                state.mark_requested(now_ms(), op.execution_query());
                self.persist_or_stop(state).await?;
                if !self.leadership.is_leader() {
                    return Err(Stop::Deposed("leadership lost".into()));
                }
            }
            let step = {
                let _busy = self.telemetry.busy(now_secs(), self.args.action_timeout);
                driver.step(never.as_mut()).await
            };
            state.set_flow(driver.flow().clone());
            if let Some(task) = driver.flow().task_id() {
                let mut followed = self
                    .followed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if followed.as_deref() != Some(task) {
                    log(format!("following the execution (task {task})"));
                    *followed = Some(task.to_string());
                }
            }
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
}

fn now_secs() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}
