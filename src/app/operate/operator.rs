//! The [`Operator`]: its ports and what it remembers between loops, and its run (lead, loop,
//! wait to lead again when deposed, persist and release at the end).

use std::pin::{Pin, pin};
use std::time::Duration;

use super::ports::{
    ClusterWatcher, CruiseControlPort, KafkaPort, PlatformObserver, Recorder, RollPort,
};
use super::telemetry::Telemetry;
use super::wake::{self, ClusterChanges, PolicyWatch};
use super::{DryRunReport, Ended, OperateError, OperateSpec, log, millis, now_ms, now_secs};
use crate::app::operate::policy::PolicySource;
use crate::engine::cc_flow::FlowConfig;
use crate::engine::model::Millis;
use crate::engine::operate::OperateState;
use crate::state::{Leadership, Store};

/// The loop, generic over the ports.
pub struct Operator<C, K, S, L, R, P: RollPort> {
    pub cc: C,
    pub kafka: K,
    pub store: S,
    pub leadership: L,
    pub recorder: R,
    pub telemetry: Telemetry,
    /// The policy file and the policy in force (the last good one).
    pub policy: PolicySource,
    pub spec: OperateSpec,
    /// The document last saved (nothing is written when it did not change).
    pub(super) saved: std::sync::Mutex<Option<String>>,
    /// The waits and notes of the last loop: a line is logged when it first appears, not in
    /// every loop.
    pub(super) said: std::sync::Mutex<std::collections::BTreeSet<String>>,
    /// The held nodes the roll waits for, as last said (each said once when its hold starts
    /// to matter and once when it stops).
    pub(super) held: std::sync::Mutex<super::held::HeldLog>,
    /// The task this process said it follows (said once per task).
    pub(super) followed: std::sync::Mutex<Option<String>>,
    /// The wait for the roll Lease another holder keeps, as last said (said once while it
    /// lasts; apart from `said`, which each loop's decision replaces).
    pub(super) lease_wait: super::held::SaidOnce,
    /// How nodes are rolled (the platform, the desired configuration).
    pub roll: P,
    /// The roll this process drives, if one runs.
    pub(super) roll_session: Option<P::Session>,
    /// Kubernetes: the roll Lease `kafkaops roll` takes for the same pods, held (and renewed in
    /// the background) while our roll runs, so a manual roll meanwhile is refused as busy.
    pub(super) roll_lease: Option<crate::platform::kube::LeaseGuard>,
    /// Kubernetes: the operator guard's view and the node pools' scale-down intent.
    pub platform: Option<Box<dyn PlatformObserver>>,
    /// Kafka and Cruise Control outages: logged once per change, backoff while they last.
    pub(super) outages: wake::Outages,
    /// Kubernetes: the pods and node pools whose changes wake the loop before the resync.
    pub cluster_watch: Option<Box<dyn ClusterWatcher>>,
    /// The wall clock the engine decides by (a test's world has its own).
    pub clock: Clock,
    /// How long a reassignment may make no progress before the health verdict on `/metrics`
    /// calls it `reassignment-stalled` (`--stall-after`, as `kafkaops health`'s).
    pub stall_after: Duration,
    /// The samples of the reassignments in flight across loops (in memory, as `health --watch`
    /// keeps them; a new leader starts afresh).
    pub(super) progress: crate::engine::health::ProgressTracker,
    /// The brokers the last decision called safe to stop (drained, nothing moving onto them).
    pub safe_to_stop: std::collections::BTreeSet<i32>,
    /// `--dry-run`: what the last loop would have done (shared, so the caller of
    /// [`Operator::run`] reads it after the run).
    pub dry_run_report: std::sync::Arc<std::sync::Mutex<Option<DryRunReport>>>,
}

/// A clock in milliseconds since the epoch.
pub type Clock = std::sync::Arc<dyn Fn() -> Millis + Send + Sync>;

/// Why the loop stopped acting.
pub(super) enum Stop {
    /// Another instance wrote the state or took the leadership.
    Deposed(String),
}

/// What wakes the loop before its pause is over (besides the stop signal).
struct Wakers {
    /// The policy file changed (not watched for one loop).
    policy: Option<PolicyWatch>,
    /// Kubernetes: the cluster's pods or node pools changed.
    cluster: Option<ClusterChanges>,
}

impl<C: CruiseControlPort, K: KafkaPort, S: Store<str>, L: Leadership, R: Recorder, P: RollPort>
    Operator<C, K, S, L, R, P>
{
    /// Builds a loop over the given ports (plain host: a state file, a lock file, log lines;
    /// Kubernetes: a ConfigMap, a Lease, Events).
    pub fn new(
        cc: C,
        kafka: K,
        ports: (S, L, R),
        policy: PolicySource,
        spec: OperateSpec,
        roll: P,
    ) -> Self {
        Operator {
            cc,
            kafka,
            store: ports.0,
            leadership: ports.1,
            recorder: ports.2,
            telemetry: Telemetry::new(),
            policy,
            spec,
            saved: std::sync::Mutex::new(None),
            said: std::sync::Mutex::default(),
            held: std::sync::Mutex::default(),
            followed: std::sync::Mutex::default(),
            lease_wait: super::held::SaidOnce::default(),
            roll,
            roll_session: None,
            roll_lease: None,
            platform: None,
            outages: wake::Outages::default(),
            cluster_watch: None,
            clock: std::sync::Arc::new(now_ms),
            stall_after: crate::app::health::DEFAULT_STALL_AFTER,
            progress: crate::engine::health::ProgressTracker::default(),
            safe_to_stop: std::collections::BTreeSet::new(),
            dry_run_report: std::sync::Arc::default(),
        }
    }

    pub(super) fn flow_config(&self) -> FlowConfig {
        FlowConfig {
            execute: true,
            assume_yes: true,
            no_wait: false,
            timeout_ms: millis(self.spec.action_timeout),
            wait_for_ready_ms: 0,
            poll_interval_ms: millis(self.spec.poll_interval()),
            recheck: false,
            follow_timeout_ms: Some(u64::MAX),
        }
    }

    /// Runs until `shutdown` resolves (or one loop with `--once`).
    ///
    /// # Errors
    /// The endpoints cannot be served, the leadership cannot be acquired, or the saved state
    /// cannot be read.
    pub async fn run(
        mut self,
        shutdown: impl std::future::Future<Output = ()>,
    ) -> Result<Ended, OperateError> {
        let mut shutdown = pin!(shutdown);
        // One loop is over before anyone could scrape it: `--once` binds no port (a second
        // one-shot run, or one next to a running controller, does not collide on --listen).
        let _server = if self.spec.once {
            None
        } else {
            let server = self
                .telemetry
                .serve(self.spec.listen, self.spec.resync)
                .await
                .map_err(|source| OperateError::Listen {
                    addr: self.spec.listen,
                    source,
                })?;
            log(format!(
                "serving /metrics, /healthz and /readyz on http://{}",
                server.local_addr()
            ));
            Some(server)
        };
        if !self.wait_to_lead(&mut shutdown).await? {
            log("stopped before becoming the leader");
            return Ok(Ended::Stopped);
        }
        let mut state = self.load().await?;
        self.say_leading(&state);
        let wakers = Wakers {
            // Wakes the sleep early when the policy file changes (not needed for one loop).
            policy: (!self.spec.once)
                .then(|| PolicyWatch::start(self.spec.policy.clone(), wake::POLICY_CHECK)),
            // Kubernetes: wakes it when the cluster's pods or node pools change.
            cluster: self
                .cluster_watch
                .as_ref()
                .filter(|_| !self.spec.once)
                .map(|w| w.start()),
        };
        let mut ended = Ended::Stopped;
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
                    if self.spec.once {
                        if !reachable {
                            ended = Ended::Unreachable;
                        }
                        break;
                    }
                    deposed = 0;
                    pause.min(self.outages.pause(self.spec.resync))
                }
                Some(Err(Stop::Deposed(why))) => {
                    match self
                        .lead_again(&why, &mut state, &mut deposed, &mut shutdown)
                        .await?
                    {
                        Some(pause) => pause,
                        None if self.spec.once => return Ok(Ended::Deposed),
                        None => return Ok(Ended::Stopped),
                    }
                }
            };
            if !self.sleep(pause, &wakers, &mut shutdown).await {
                break;
            }
        }
        self.finish(&state).await;
        Ok(ended)
    }

    /// Loads the state this process leads from, as [`Operator::run`] does once it leads (a
    /// test then steps the loop with [`Operator::step`]).
    ///
    /// # Errors
    /// The saved state cannot be read.
    pub async fn resume(&mut self) -> Result<OperateState, OperateError> {
        let state = self.load().await?;
        self.say_leading(&state);
        Ok(state)
    }

    /// One loop, as [`Operator::run`] repeats it: the pause it wants before the next.
    ///
    /// # Errors
    /// Deposed (with why): another instance wrote the state or took the leadership.
    pub async fn step(&mut self, state: &mut OperateState) -> Result<Duration, String> {
        match self.iteration(state).await {
            Ok((pause, _)) => Ok(pause),
            Err(Stop::Deposed(why)) => Err(why),
        }
    }

    /// Deposed: someone else acts now. Stops acting, waits to lead again and then goes on from
    /// the state the other leader left (never from ours). Returns the pause before the next
    /// loop (`None`: the run ends, deposed with `--once` or stopped while waiting).
    async fn lead_again(
        &mut self,
        why: &str,
        state: &mut OperateState,
        deposed: &mut u32,
        shutdown: &mut (impl std::future::Future<Output = ()> + Unpin),
    ) -> Result<Option<Duration>, OperateError> {
        log(format!(
            "not the leader any more ({why}); waiting to lead again"
        ));
        self.telemetry.leader(false);
        self.release_roll_lease().await;
        self.leadership.release().await;
        if self.spec.once {
            return Ok(None);
        }
        if !self.wait_to_lead(shutdown).await? {
            log("stopped while waiting to lead again");
            return Ok(None);
        }
        self.forget_leading();
        *state = self.load().await?;
        self.say_leading(state);
        *deposed = deposed.saturating_add(1);
        let resync = millis(self.spec.resync);
        Ok(Some(Duration::from_millis(
            crate::engine::anomalies::poll_delay_ms(resync, *deposed, resync),
        )))
    }

    /// Sleeps `pause`, woken early by a change; `false` when stopped meanwhile.
    async fn sleep(
        &self,
        pause: Duration,
        wakers: &Wakers,
        shutdown: &mut Pin<&mut impl std::future::Future<Output = ()>>,
    ) -> bool {
        let policy_changed = async {
            match &wakers.policy {
                Some(w) => w.changed().await,
                None => std::future::pending().await,
            }
        };
        let cluster_changed = async {
            match &wakers.cluster {
                Some(c) => c.changed().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = policy_changed => log(format!("policy {} changed; looking now", self.spec.policy.display())),
            what = cluster_changed => log(format!("the cluster changed ({what}); looking now")),
            () = shutdown.as_mut() => return false,
        }
        true
    }

    /// The end of a run: persists the state, says what keeps running, releases everything.
    async fn finish(&mut self, state: &OperateState) {
        if !self.spec.dry_run
            && let Err(e) = self.persist(state).await
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
    }

    /// Waits to lead (`false`: stopped first). A standby is alive and ready while it waits: its
    /// wait counts as a loop for /healthz.
    async fn wait_to_lead(
        &self,
        shutdown: &mut (impl std::future::Future<Output = ()> + Unpin),
    ) -> Result<bool, OperateError> {
        self.telemetry.leader(false);
        self.telemetry.ready(true);
        let standby = async {
            loop {
                self.telemetry.loop_succeeded(now_secs());
                tokio::time::sleep(self.spec.resync).await;
            }
        };
        tokio::select! {
            r = self.leadership.acquire() => r.map_err(OperateError::Leadership)?,
            () = standby => {}
            () = &mut *shutdown => return Ok(false),
        }
        self.telemetry.leader(true);
        Ok(true)
    }

    /// Gives the roll Lease up if we hold it (the roll ended, we exit or were deposed): its
    /// holder is cleared, so the next roller (a `kafkaops roll`, the next leader) takes it at once.
    pub(super) async fn release_roll_lease(&mut self) {
        if let Some(g) = self.roll_lease.take() {
            log(format!("releasing the roll lease {}", g.name()));
            g.give_up(false).await;
        }
    }

    fn say_leading(&self, state: &OperateState) {
        log(format!(
            "leading; state {:?}, policy {} (modes: {})",
            state.rebalancer.state(),
            self.spec.policy.display(),
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
        self.lease_wait.forget();
        self.said
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
        *self
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = super::held::HeldLog::default();
        *self
            .followed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        if let Some(s) = self.roll_session.take() {
            self.roll.end(s);
        }
    }
}
