//! What `operate` tells the outside world besides logs: Prometheus metrics and health.
//!
//! The loop calls these methods; [`Telemetry`] keeps the numbers (a `prometheus-client`
//! registry) and the HTTP server ([`Telemetry::serve`], axum) serves `/metrics` (OpenMetrics
//! text), `/healthz` (the process and its loop live: a loop finished within
//! [`HEALTHY_LOOPS`] resync intervals, else 503) and `/readyz` (it can reach Kafka and Cruise
//! Control and has a good policy; a standby is ready too, so a rolling update of the Deployment
//! proceeds).
//!
//! One loop may legitimately outlast those intervals: a roll's restart waits for its pod or
//! command (up to `--action-timeout`, twice for a stop and a start command). Such a step is
//! marked with [`Telemetry::busy`]; while it runs, `/healthz` allows it its limit from its
//! start on top of the usual intervals, so the liveness probe does not kill the leader
//! mid-restart, and still fails once the step overran its own limit (a hung call).
//!
//! A standby's waiting loop counts as a loop for `/healthz` (the loop calls
//! [`Telemetry::loop_succeeded`] while it waits for leadership too), so a healthy standby is not
//! restarted by its liveness probe. Before the first loop the start time counts as the last one,
//! so a starting instance has the same few intervals to finish it.
//!
//! Metrics (all prefixed `kafkaops_operate_`):
//! - `state{rebalance_state, mover}` gauge: exactly one label set is 1;
//! - `transitions_total{from, to}`: transitions of the auto-rebalance state machine;
//! - `actions_total{kind, result}`: actions taken (kinds and results of `ActionRecord`);
//! - `errors_total{source}`: failed calls (`cruise-control`, `kafka`, `kubernetes`, `policy`,
//!   `state`);
//! - `last_successful_loop_timestamp_seconds` gauge;
//! - `leader` gauge: 1 while this instance leads.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

/// `/healthz` answers 503 when no loop finished within this many resync intervals.
pub const HEALTHY_LOOPS: u32 = 3;

/// The content type of `/metrics` (OpenMetrics text).
pub const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Where an error came from (the `source` label of the error counter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorSource {
    CruiseControl,
    Kafka,
    Kubernetes,
    Policy,
    State,
}

impl ErrorSource {
    /// The label value.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            ErrorSource::CruiseControl => "cruise-control",
            ErrorSource::Kafka => "kafka",
            ErrorSource::Kubernetes => "kubernetes",
            ErrorSource::Policy => "policy",
            ErrorSource::State => "state",
        }
    }
}

type Labels = Vec<(&'static str, String)>;

struct Inner {
    registry: Registry,
    state: Family<Labels, Gauge>,
    current_state: Mutex<Option<Labels>>,
    transitions: Family<Labels, Counter>,
    actions: Family<Labels, Counter>,
    errors: Family<Labels, Counter>,
    last_loop: Gauge<f64, AtomicU64>,
    leader: Gauge,
    ready: AtomicBool,
    /// When the step marked busy started (seconds since the epoch as `f64` bits; 0: none).
    busy_since: AtomicU64,
    /// How long that step may take (seconds as `f64` bits).
    busy_limit: AtomicU64,
    /// Seconds since the epoch when the telemetry was created (the "last loop" before the
    /// first), as `f64` bits.
    started: AtomicU64,
}

/// The operate metrics and health flags (cheap to clone; shared with the HTTP server).
#[derive(Clone)]
pub struct Telemetry {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Telemetry")
            .field("last_loop", &self.inner.last_loop.get())
            .field("leader", &self.inner.leader.get())
            .field("ready", &self.inner.ready.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl Default for Telemetry {
    fn default() -> Self {
        Telemetry::new()
    }
}

fn epoch_seconds(t: SystemTime) -> f64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

impl Telemetry {
    #[must_use]
    pub fn new() -> Telemetry {
        let mut registry = Registry::with_prefix("kafkaops_operate");
        let state = Family::<Labels, Gauge>::default();
        registry.register(
            "state",
            "The auto-rebalance state and the mover running (the label set at 1)",
            state.clone(),
        );
        let transitions = Family::<Labels, Counter>::default();
        registry.register(
            "transitions",
            "Transitions of the auto-rebalance state machine",
            transitions.clone(),
        );
        let actions = Family::<Labels, Counter>::default();
        registry.register("actions", "Actions by kind and result", actions.clone());
        let errors = Family::<Labels, Counter>::default();
        registry.register(
            "errors",
            "Failed calls to a dependency, by source",
            errors.clone(),
        );
        let last_loop = Gauge::<f64, AtomicU64>::default();
        registry.register(
            "last_successful_loop_timestamp_seconds",
            "When the last reconcile loop completed (seconds since the epoch)",
            last_loop.clone(),
        );
        let leader = Gauge::default();
        registry.register(
            "leader",
            "1 while this instance is the leader (acts), 0 for a standby",
            leader.clone(),
        );
        Telemetry {
            inner: Arc::new(Inner {
                registry,
                state,
                current_state: Mutex::new(None),
                transitions,
                actions,
                errors,
                last_loop,
                leader,
                ready: AtomicBool::new(false),
                busy_since: AtomicU64::new(0),
                busy_limit: AtomicU64::new(0),
                started: AtomicU64::new(epoch_seconds(SystemTime::now()).to_bits()),
            }),
        }
    }
    /// The auto-rebalance state (`Idle`, `RebalanceOnScaleDown`, ...) and what else moves
    /// (`roll`, `set-rf`, `none`): exactly one label set is 1.
    pub fn state(&self, rebalance_state: &str, mover: &str) {
        let labels: Labels = vec![
            ("rebalance_state", rebalance_state.to_string()),
            ("mover", mover.to_string()),
        ];
        let mut current = self
            .inner
            .current_state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(old) = current.take()
            && old != labels
        {
            self.inner.state.remove(&old);
        }
        self.inner.state.get_or_create(&labels).set(1);
        *current = Some(labels);
    }
    /// One transition of the auto-rebalance state machine.
    pub fn transition(&self, from: &str, to: &str) {
        self.inner
            .transitions
            .get_or_create(&vec![("from", from.to_string()), ("to", to.to_string())])
            .inc();
    }
    /// One action (kinds and results as in [`super::ports::ActionRecord`]).
    pub fn action(&self, kind: &str, result: &str) {
        self.inner
            .actions
            .get_or_create(&vec![
                ("kind", kind.to_string()),
                ("result", result.to_string()),
            ])
            .inc();
    }
    /// One failed call to a dependency.
    pub fn error(&self, source: ErrorSource) {
        self.inner
            .errors
            .get_or_create(&vec![("source", source.label().to_string())])
            .inc();
    }
    /// A reconcile loop completed (seconds since the epoch).
    pub fn loop_succeeded(&self, epoch_seconds: f64) {
        self.inner.last_loop.set(epoch_seconds);
    }
    /// Whether this instance leads.
    pub fn leader(&self, leading: bool) {
        self.inner.leader.set(i64::from(leading));
    }
    /// Whether the dependencies answer and the policy is good (`/readyz`).
    pub fn ready(&self, ready: bool) {
        self.inner.ready.store(ready, Ordering::Relaxed);
    }

    /// The metrics in the OpenMetrics text format.
    #[must_use]
    pub fn encode(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.inner.registry);
        out
    }

    /// Whether a loop finished within [`HEALTHY_LOOPS`] resync intervals of `now` (seconds since
    /// the epoch), or a step marked [`Telemetry::busy`] runs and started within its limit plus
    /// those intervals; before the first loop, the start counts as the last loop.
    #[must_use]
    pub fn healthy(&self, now: f64, resync: Duration) -> bool {
        let started = f64::from_bits(self.inner.started.load(Ordering::Relaxed));
        let last = self.inner.last_loop.get().max(started);
        let allowance = (resync * HEALTHY_LOOPS).as_secs_f64();
        if now - last <= allowance {
            return true;
        }
        let busy_since = f64::from_bits(self.inner.busy_since.load(Ordering::Relaxed));
        let limit = f64::from_bits(self.inner.busy_limit.load(Ordering::Relaxed));
        busy_since > 0.0 && now - busy_since <= limit + allowance
    }

    /// A step that may take up to `limit` starts at `now` (seconds since the epoch): until the
    /// returned guard drops, `/healthz` counts the process alive for that long (see the module
    /// docs).
    pub fn busy(&self, now: f64, limit: Duration) -> Busy {
        self.inner
            .busy_limit
            .store(limit.as_secs_f64().to_bits(), Ordering::Relaxed);
        self.inner
            .busy_since
            .store(now.to_bits(), Ordering::Relaxed);
        Busy {
            telemetry: self.clone(),
        }
    }

    #[must_use]
    pub fn is_ready(&self) -> bool {
        self.inner.ready.load(Ordering::Relaxed)
    }

    /// Binds `listen` (port 0: any free port; see [`Server::local_addr`]) and serves
    /// `/metrics`, `/healthz` and `/readyz` in the background until the [`Server`] is dropped.
    pub async fn serve(&self, listen: SocketAddr, resync: Duration) -> std::io::Result<Server> {
        let listener = tokio::net::TcpListener::bind(listen).await?;
        let local_addr = listener.local_addr()?;
        let app = Router::new()
            .route("/metrics", get(metrics))
            .route("/healthz", get(healthz))
            .route("/readyz", get(readyz))
            .with_state((self.clone(), resync));
        let task = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                tracing::warn!("the HTTP server on {local_addr} stopped: {e}");
            }
        });
        Ok(Server { local_addr, task })
    }
}

type AppState = (Telemetry, Duration);

async fn metrics(State((t, _)): State<AppState>) -> Response {
    ([(header::CONTENT_TYPE, OPENMETRICS)], t.encode()).into_response()
}

async fn healthz(State((t, resync)): State<AppState>) -> Response {
    if t.healthy(epoch_seconds(SystemTime::now()), resync) {
        (StatusCode::OK, "ok\n").into_response()
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "no reconcile loop finished within {HEALTHY_LOOPS} resync intervals ({})\n",
                humantime::format_duration(resync * HEALTHY_LOOPS)
            ),
        )
            .into_response()
    }
}

async fn readyz(State((t, _)): State<AppState>) -> Response {
    if t.is_ready() {
        (StatusCode::OK, "ready\n").into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "not ready\n").into_response()
    }
}

/// A step marked busy ([`Telemetry::busy`]); dropping it ends the mark.
#[must_use = "the step is marked busy only while the guard lives"]
pub struct Busy {
    telemetry: Telemetry,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.telemetry
            .inner
            .busy_since
            .store(0f64.to_bits(), Ordering::Relaxed);
    }
}

/// The running HTTP server; dropping it stops it.
#[derive(Debug)]
pub struct Server {
    local_addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// The address it listens on (the real port when `--listen` asked for port 0).
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_one_state_is_set() {
        let t = Telemetry::new();
        t.state("Idle", "none");
        t.state("RebalanceOnScaleUp", "none");
        let text = t.encode();
        assert!(
            text.contains(
                "kafkaops_operate_state{rebalance_state=\"RebalanceOnScaleUp\",mover=\"none\"} 1\n"
            ),
            "{text}"
        );
        assert!(!text.contains("rebalance_state=\"Idle\""), "{text}");
    }

    #[test]
    fn health_follows_the_last_loop() {
        let t = Telemetry::new();
        let resync = Duration::from_secs(30);
        let start = f64::from_bits(t.inner.started.load(Ordering::Relaxed));
        // Before the first loop the start counts.
        assert!(t.healthy(start + 89.0, resync));
        assert!(!t.healthy(start + 91.0, resync));
        t.loop_succeeded(start + 100.0);
        assert!(t.healthy(start + 189.0, resync));
        assert!(!t.healthy(start + 191.0, resync));
    }

    #[test]
    fn a_long_step_keeps_the_process_alive_within_its_limit() {
        let t = Telemetry::new();
        let resync = Duration::from_secs(30);
        let last = f64::from_bits(t.inner.started.load(Ordering::Relaxed)) + 1000.0;
        t.loop_succeeded(last);
        // A restart of up to 10 minutes starts 10 s after the last loop.
        let busy = t.busy(last + 10.0, Duration::from_secs(600));
        // Past the 3 intervals (90 s) but within the step's limit plus them: alive.
        assert!(t.healthy(last + 200.0, resync));
        assert!(t.healthy(last + 10.0 + 600.0 + 89.0, resync));
        // The step overran its limit (a hung call): not alive.
        assert!(!t.healthy(last + 10.0 + 600.0 + 91.0, resync));
        // The step ended and no loop finished since: the usual rule.
        drop(busy);
        assert!(!t.healthy(last + 200.0, resync));
        assert!(t.healthy(last + 89.0, resync));
    }

    #[tokio::test]
    async fn the_server_answers_metrics_health_and_readiness() {
        let t = Telemetry::new();
        let resync = Duration::from_secs(30);
        let server = t
            .serve("127.0.0.1:0".parse().unwrap(), resync)
            .await
            .unwrap();
        let port = server.local_addr().port();
        assert_ne!(port, 0);
        let base = format!("http://127.0.0.1:{port}");
        let http = reqwest::Client::new();
        let get = |path: &str| http.get(format!("{base}{path}")).send();

        t.state("RebalanceOnScaleDown", "none");
        t.transition("Idle", "RebalanceOnScaleDown");
        t.action("rebalance-remove-brokers", "started");
        t.action("rebalance-remove-brokers", "started");
        t.error(ErrorSource::CruiseControl);
        t.leader(true);
        t.loop_succeeded(1_700_000_000.5);
        let r = get("/metrics").await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-type"], OPENMETRICS);
        let text = r.text().await.unwrap();
        for line in [
            "kafkaops_operate_state{rebalance_state=\"RebalanceOnScaleDown\",mover=\"none\"} 1",
            "kafkaops_operate_transitions_total{from=\"Idle\",to=\"RebalanceOnScaleDown\"} 1",
            "kafkaops_operate_actions_total{kind=\"rebalance-remove-brokers\",result=\"started\"} 2",
            "kafkaops_operate_errors_total{source=\"cruise-control\"} 1",
            "kafkaops_operate_last_successful_loop_timestamp_seconds 1700000000.5",
            "kafkaops_operate_leader 1",
            "# EOF",
        ] {
            assert!(text.lines().any(|l| l == line), "no {line:?} in\n{text}");
        }

        // Started long ago and the last loop is long ago: unhealthy; a fresh loop: healthy.
        t.inner
            .started
            .store(1_600_000_000f64.to_bits(), Ordering::Relaxed);
        assert_eq!(get("/healthz").await.unwrap().status(), 503);
        t.loop_succeeded(epoch_seconds(SystemTime::now()));
        assert_eq!(get("/healthz").await.unwrap().status(), 200);

        assert_eq!(get("/readyz").await.unwrap().status(), 503);
        t.ready(true);
        assert_eq!(get("/readyz").await.unwrap().status(), 200);
        assert_eq!(get("/nothing").await.unwrap().status(), 404);

        drop(server);
        // Stopped: the port no longer takes connections (a new client: no pooled connection).
        let mut stopped = false;
        for _ in 0..50 {
            if reqwest::get(format!("{base}/healthz")).await.is_err() {
                stopped = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(stopped, "the server still answers after it was dropped");
    }
}
