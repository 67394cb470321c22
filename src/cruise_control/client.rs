//! The HTTP side of the Cruise Control client (reqwest).
//!
//! Everything protocol-shaped lives here: URL building (`json=true` always), basic
//! auth, the CA file, per-request timeouts, the 202 + `User-Task-ID` protocol and
//! its polling through `user_tasks` (never by re-submitting a mutation), and the
//! retry loop driven by the pure [`super::retry::decide`]. Callers get typed
//! results or a classified [`CcError`]. Credentials are only ever handed to
//! reqwest, which marks the `Authorization` header sensitive; nothing here logs
//! a header or a body that carries them.

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;

use super::error::{AuthFailure, CcError, ErrorClass, TlsFailure, Transient, classify};
use super::lenient;
use super::model::{
    CruiseControlState, ErrorResponse, KafkaClusterState, OptimizationResult, ProgressResult,
    ProgressStep, StopResult, TaskStatus, UserTask, UserTasks,
};
use super::params::{self, Endpoint, Query, RebalanceRequest, Substate};
use super::retry::{Backoff, RetryDecision, RetryPolicy, decide};
use super::review::{RequestInfo, ReviewBoard, held_for_review};
use crate::engine::movers::CruiseControlView;
use crate::secret::Secret;
use crate::settings::CruiseControlSettings;

/// The request header and response header carrying a user task id.
pub const USER_TASK_ID: &str = "User-Task-ID";

/// How to reach Cruise Control.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Base URL, e.g. `https://cc:9090` (the `/kafkacruisecontrol/` prefix is added
    /// unless the URL already ends with it).
    pub url: url::Url,
    pub username: Option<String>,
    pub password: Option<Secret>,
    /// Extra CA certificates (PEM) to trust besides the system roots.
    pub ca_pem: Option<Vec<u8>>,
    /// Timeout of one HTTP request.
    pub timeout: Duration,
    /// Pause between `user_tasks` / `state` polls (Cruise Control advises ≥ 5 s); a task that
    /// answered 202 is polled sooner at first ([`next_poll_pause`]).
    pub poll_interval: Duration,
    /// Pauses between retries.
    pub backoff: Backoff,
    /// Connect to this address instead of resolving the URL's host (a port-forward's local
    /// end); the URL's host is still the TLS server name and what the certificate must name.
    pub connect_to: Option<std::net::SocketAddr>,
}

impl ClientConfig {
    /// From resolved settings (reads the CA file).
    pub fn from_settings(s: &CruiseControlSettings) -> Result<Self, CcError> {
        let url = s
            .require_url()
            .map_err(|e| CcError::Config(e.to_string()))?;
        let ca_pem = match &s.ca_file {
            Some(f) => Some(std::fs::read(&f.value).map_err(|e| {
                CcError::Config(format!("cannot read CA file {}: {e}", f.value.display()))
            })?),
            None => None,
        };
        Ok(Self {
            url,
            username: s.username.as_ref().map(|u| u.value.clone()),
            password: s.password.as_ref().map(|p| p.value.clone()),
            ca_pem,
            timeout: s.timeout.value,
            poll_interval: Duration::from_secs(5),
            backoff: Backoff::default(),
            connect_to: s.connect_to,
        })
    }
}

/// Someone to tell what a wait is for (a progress line, a log).
pub trait Observer: Send + Sync {
    /// A retryable failure; the next attempt comes after `retry_in`.
    fn retrying(&self, waiting_for: &str, attempt: u32, retry_in: Duration, error: &CcError);
    /// A 202 task is still computing.
    fn computing(&self, task_id: &str, step: Option<&ProgressStep>);
}

/// An observer that logs through `tracing`.
pub struct LogObserver;

impl Observer for LogObserver {
    fn retrying(&self, waiting_for: &str, attempt: u32, retry_in: Duration, error: &CcError) {
        tracing::warn!(
            "waiting for {waiting_for} (attempt {attempt}, next in {}): {error}",
            humantime::format_duration(retry_in)
        );
    }
    fn computing(&self, task_id: &str, step: Option<&ProgressStep>) {
        match step {
            Some(s) => tracing::info!("task {task_id}: {} {}", s.step, s.description),
            None => tracing::info!("task {task_id}: in progress"),
        }
    }
}

/// A raw answer.
#[derive(Debug)]
struct Reply {
    status: StatusCode,
    task_id: Option<String>,
    body: String,
}

/// A typed result plus the user task that produced it.
#[derive(Debug, Clone)]
pub struct Answer<T> {
    pub value: T,
    pub task_id: Option<String>,
}

/// The Cruise Control REST client.
#[derive(Debug, Clone)]
pub struct CruiseControlClient {
    http: reqwest::Client,
    base: url::Url,
    display_url: String,
    username: Option<String>,
    password: Option<Secret>,
    timeout: Duration,
    poll_interval: Duration,
    backoff: Backoff,
    /// Whether a CA file was given (what an untrusted certificate means).
    ca_given: bool,
    connect_to: Option<std::net::SocketAddr>,
}

impl CruiseControlClient {
    pub fn new(cfg: ClientConfig) -> Result<Self, CcError> {
        let mut b = reqwest::Client::builder()
            .timeout(cfg.timeout)
            .connect_timeout(cfg.timeout.min(Duration::from_secs(10)))
            .user_agent(concat!("kafkaops/", env!("CARGO_PKG_VERSION")));
        if let Some(pem) = &cfg.ca_pem {
            let certs = reqwest::Certificate::from_pem_bundle(pem)
                .map_err(|e| CcError::Config(format!("CA file is not PEM: {e}")))?;
            if certs.is_empty() {
                return Err(CcError::Config("CA file holds no certificate".into()));
            }
            for c in certs {
                b = b.add_root_certificate(c);
            }
        }
        let mut base = cfg.url.clone();
        if let (Some(addr), Some(host)) = (cfg.connect_to, cfg.url.host_str()) {
            // reqwest uses an override's port only when the URL names none.
            b = b.resolve(host, addr);
            let _ = base.set_port(None);
        }
        let http = b
            .build()
            .map_err(|e| CcError::Config(format!("cannot build the HTTP client: {e}")))?;
        let path = base.path().trim_end_matches('/').to_string();
        let path = if path.ends_with("/kafkacruisecontrol") {
            format!("{path}/")
        } else {
            format!("{path}/kafkacruisecontrol/")
        };
        base.set_path(&path);
        base.set_query(None);
        Ok(Self {
            http,
            display_url: cfg.url.as_str().trim_end_matches('/').to_string(),
            base,
            username: cfg.username,
            password: cfg.password,
            timeout: cfg.timeout,
            poll_interval: cfg.poll_interval,
            backoff: cfg.backoff,
            ca_given: cfg.ca_pem.is_some(),
            connect_to: cfg.connect_to,
        })
    }

    /// The default retry policy of this client up to `deadline`.
    #[must_use]
    pub fn policy(&self, deadline: Instant) -> RetryPolicy {
        RetryPolicy::with_backoff(deadline, self.backoff)
    }

    /// The base URL (without credentials) for messages.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.display_url
    }

    fn endpoint_url(&self, endpoint: Endpoint, query: &Query) -> url::Url {
        let mut url = self
            .base
            .join(endpoint.path())
            .unwrap_or_else(|_| self.base.clone());
        {
            let mut pairs = url.query_pairs_mut();
            // A reviewed request (`review_id=N`) must carry nothing else: Cruise Control answers
            // `json=true` beside it with 400 "mutually exclusive" (reference section 14); the
            // request runs with the parameters it was held with, `json=true` included.
            if !query.iter().any(|(k, _)| *k == "review_id") {
                pairs.append_pair("json", "true");
            }
            for (k, v) in query {
                pairs.append_pair(k, v);
            }
        }
        url
    }

    /// One HTTP exchange; non-2xx answers become classified errors.
    /// `body`: an optional JSON body (`topic_configuration`'s body form).
    async fn send_once_with(
        &self,
        endpoint: Endpoint,
        query: &Query,
        body: Option<&str>,
        task_header: Option<&str>,
    ) -> Result<Reply, CcError> {
        let method = if endpoint.is_post() {
            Method::POST
        } else {
            Method::GET
        };
        let url = self.endpoint_url(endpoint, query);
        let path = url.path().to_string();
        let mut req = self.http.request(method.clone(), url);
        if let Some(user) = &self.username {
            req = req.basic_auth(user, self.password.as_ref().map(Secret::expose));
        }
        if let Some(id) = task_header {
            req = req.header(USER_TASK_ID, id);
        }
        if let Some(body) = body {
            req = req
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.to_string());
        }
        tracing::debug!("{method} {} {endpoint}", self.display_url);
        // The request and its answer, for the run's journal (crate::output::journal) and -vv:
        // the URL with its query (never credentials: those go in the Authorization header).
        let request = format!(
            "{method} {}{}",
            self.endpoint_url(endpoint, query),
            body.map(|b| format!(" {b}")).unwrap_or_default()
        );
        let sent = std::time::Instant::now();
        let resp = match req.send().await {
            Ok(r) => r,
            Err(e) => {
                let err = self.send_error(&e).await;
                journal_request(&request, &err.to_string(), sent);
                return Err(err);
            }
        };
        let status = resp.status();
        let task_id = resp
            .headers()
            .get(USER_TASK_ID)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = match resp.text().await {
            Ok(b) => b,
            Err(e) => {
                let err = self.transport_error(&e);
                journal_request(&request, &err.to_string(), sent);
                return Err(err);
            }
        };
        journal_request(
            &request,
            &format!(
                "HTTP {}{} {body}",
                status.as_u16(),
                task_id
                    .as_deref()
                    .map(|t| format!(" (User-Task-ID {t})"))
                    .unwrap_or_default()
            ),
            sent,
        );
        if status.is_success() {
            return Ok(Reply {
                status,
                task_id,
                body,
            });
        }
        let parsed: Option<ErrorResponse> = lenient::from_str(&body).ok();
        let message = parsed
            .map(|e| e.error_message)
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| snippet(&body));
        let is_cc_json = body.trim_start().starts_with('{');
        if matches!(status.as_u16(), 401 | 407) || (status.as_u16() == 403 && !is_cc_json) {
            return Err(CcError::Auth {
                url: self.display_url.clone(),
                status: status.as_u16(),
                what: self.auth_failure(status.as_u16(), endpoint, &method),
            });
        }
        if status == StatusCode::NOT_FOUND && !is_cc_json {
            // Jetty's own page: the path is outside every Cruise Control servlet (a real CC
            // answers an unknown endpoint under its prefix with its JSON error).
            tracing::info!("{method} {path} answered HTTP 404: {}", snippet(&body));
            return Err(CcError::NoApi {
                url: self.display_url.clone(),
                method: if endpoint.is_post() { "POST" } else { "GET" },
                path,
            });
        }
        tracing::info!(
            "Cruise Control {} answered HTTP {}: {message}",
            endpoint.path(),
            status.as_u16()
        );
        Err(CcError::Api {
            endpoint: endpoint.path().to_string(),
            status: status.as_u16(),
            class: classify(status.as_u16(), &message),
            message,
        })
    }

    /// What a 401/403 means given what was sent (the password itself is never looked at
    /// beyond whether one was given).
    fn auth_failure(&self, status: u16, endpoint: Endpoint, method: &Method) -> AuthFailure {
        match (&self.username, &self.password) {
            _ if status == 403 => AuthFailure::Role {
                user: self.username.clone(),
                method: if *method == Method::POST {
                    "POST"
                } else {
                    "GET"
                },
                endpoint: endpoint.path(),
                needs: endpoint.required_role(),
            },
            (None, _) => AuthFailure::NoCredentials,
            (Some(user), None) => AuthFailure::NoPassword { user: user.clone() },
            (Some(user), Some(p)) if p.expose().is_empty() => {
                AuthFailure::NoPassword { user: user.clone() }
            }
            (Some(user), Some(_)) => AuthFailure::Refused { user: user.clone() },
        }
    }

    /// A failed send: an `http://` URL that names an HTTPS port is recognised at once (the
    /// server drops or garbles the plain request, which would otherwise look like a Cruise
    /// Control that is not up yet and be retried).
    async fn send_error(&self, e: &reqwest::Error) -> CcError {
        let err = self.transport_error(e);
        if self.base.scheme() == "http"
            && matches!(err, CcError::Unreachable { connect: false, .. })
            && self.speaks_tls().await
        {
            let mut https = self.display_url.clone();
            https.replace_range(..4, "https");
            return CcError::HttpsExpected {
                url: self.display_url.clone(),
                https_url: https,
            };
        }
        err
    }

    /// Whether the server behind the base URL completes a TLS handshake (its certificate is not
    /// checked: the question is only which protocol the port speaks).
    async fn speaks_tls(&self) -> bool {
        let Some(host) = self.base.host_str().map(str::to_string) else {
            return false;
        };
        let addr = match self.connect_to {
            Some(a) => a.to_string(),
            None => format!("{host}:{}", self.base.port_or_known_default().unwrap_or(80)),
        };
        let probe = async {
            let tcp = tokio::net::TcpStream::connect(&addr).await.ok()?;
            let connector = native_tls::TlsConnector::builder()
                .danger_accept_invalid_certs(true)
                .danger_accept_invalid_hostnames(true)
                .build()
                .ok()?;
            tokio_native_tls::TlsConnector::from(connector)
                .connect(host.trim_start_matches('[').trim_end_matches(']'), tcp)
                .await
                .ok()
        };
        let tls = tokio::time::timeout(self.timeout.min(Duration::from_secs(5)), probe)
            .await
            .ok()
            .flatten()
            .is_some();
        tracing::debug!("{addr} speaks TLS: {tls}");
        tls
    }

    fn transport_error(&self, e: &reqwest::Error) -> CcError {
        let url = self.display_url.clone();
        if e.is_timeout() {
            return CcError::Timeout {
                url,
                timeout: self.timeout,
            };
        }
        let chain = error_chain(e);
        if is_tls_failure(e) {
            // OpenSSL's text (with its C source line) and the request URL are for -v only.
            tracing::info!("TLS with Cruise Control at {url} failed: {chain}");
            let why = TlsFailure::from_openssl(&chain, self.ca_given);
            return CcError::Tls {
                url,
                detail: chain,
                why,
            };
        }
        CcError::Unreachable {
            url,
            detail: chain,
            connect: e.is_connect(),
        }
    }

    /// Sends with retries per `policy`, telling `obs` what is awaited.
    async fn send(
        &self,
        endpoint: Endpoint,
        query: &Query,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> Result<Reply, CcError> {
        self.send_with(endpoint, query, None, policy, obs).await
    }

    /// [`Self::send`] with an optional JSON body.
    async fn send_with(
        &self,
        endpoint: Endpoint,
        query: &Query,
        body: Option<&str>,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> Result<Reply, CcError> {
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            match self.send_once_with(endpoint, query, body, None).await {
                Ok(r) => return Ok(r),
                Err(e) => match decide(policy, attempt, Instant::now(), &e) {
                    RetryDecision::RetryAfter(pause) => {
                        let what = match e.class() {
                            super::error::ErrorClass::Retryable(t) => t.waiting_for(),
                            _ => "Cruise Control",
                        };
                        obs.retrying(what, attempt, pause, &e);
                        tokio::time::sleep(pause).await;
                    }
                    RetryDecision::GiveUp if attempt > 1 && e.is_retryable() => {
                        let waiting_for = match e.class() {
                            super::error::ErrorClass::Retryable(t) => t.waiting_for(),
                            _ => "Cruise Control",
                        };
                        return Err(CcError::GaveUp {
                            waiting_for,
                            attempts: attempt,
                            last: Box::new(e),
                        });
                    }
                    RetryDecision::GiveUp => return Err(e),
                },
            }
        }
    }

    /// Sends a request to an async endpoint and, on 202, waits for its user task
    /// by polling `user_tasks`; returns the parsed final response.
    async fn request_async<T: DeserializeOwned>(
        &self,
        endpoint: Endpoint,
        query: &Query,
        refetch_errors: bool,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> Result<Answer<T>, CcError> {
        self.request_async_with(endpoint, query, None, refetch_errors, policy, obs)
            .await
    }

    /// [`Self::request_async`] with an optional JSON body (re-sent when fetching an error).
    async fn request_async_with<T: DeserializeOwned>(
        &self,
        endpoint: Endpoint,
        query: &Query,
        body: Option<&str>,
        refetch_errors: bool,
        policy: &RetryPolicy,
        obs: &dyn Observer,
    ) -> Result<Answer<T>, CcError> {
        let reply = self.send_with(endpoint, query, body, policy, obs).await?;
        if endpoint.is_post() {
            held(endpoint, &reply.body)?;
        }
        if reply.status != StatusCode::ACCEPTED {
            return Ok(Answer {
                value: parse(endpoint, &reply.body)?,
                task_id: reply.task_id,
            });
        }
        let task_id = reply.task_id.clone().ok_or_else(|| CcError::Protocol {
            endpoint: endpoint.path().into(),
            detail: format!("202 without a {USER_TASK_ID} header"),
        })?;
        let progress: Option<ProgressResult> = lenient::from_str(&reply.body).ok();
        obs.computing(
            &task_id,
            progress.as_ref().and_then(ProgressResult::current_step),
        );
        let task = match self
            .wait_for_task(&task_id, endpoint, policy.deadline, obs)
            .await
        {
            Ok(t) => t,
            Err(CcError::TaskFailed { .. }) if refetch_errors => {
                // For reads and dry runs it is safe to ask the server for the cached
                // response of the finished task: a matching User-Task-ID header never
                // starts a new task (an unknown one is a 500), and the error lives only there.
                return Err(self.fetch_task_error(endpoint, query, body, &task_id).await);
            }
            Err(e) => return Err(e),
        };
        let body = task.original_response.ok_or_else(|| CcError::Protocol {
            endpoint: endpoint.path().into(),
            detail: format!("task {task_id} finished without originalResponse"),
        })?;
        Ok(Answer {
            value: parse(endpoint, &body)?,
            task_id: Some(task_id),
        })
    }

    async fn fetch_task_error(
        &self,
        endpoint: Endpoint,
        query: &Query,
        body: Option<&str>,
        task_id: &str,
    ) -> CcError {
        match self
            .send_once_with(endpoint, query, body, Some(task_id))
            .await
        {
            Err(e @ CcError::Api { .. }) if !e.to_string().contains("Unexpected header") => e,
            _ => CcError::TaskFailed {
                task_id: task_id.into(),
                endpoint: endpoint.path().into(),
            },
        }
    }

    /// Polls `user_tasks` until the task has left `Active` (or `deadline`): quickly at first
    /// (most proposals take well under a second once the load model is ready), then backing
    /// off to the poll interval ([`next_poll_pause`]). A quick poll that finds every user-task
    /// slot taken (each request holds one for up to ~5 s) switches to the poll interval at once
    /// instead of waiting for a slot.
    pub async fn wait_for_task(
        &self,
        task_id: &str,
        endpoint: Endpoint,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<UserTask, CcError> {
        let started = Instant::now();
        let mut last = None;
        loop {
            let pause = next_poll_pause(last, self.poll_interval);
            if Instant::now() + pause > deadline {
                return Err(CcError::DeadlineExceeded {
                    waiting_for: format!("Cruise Control task {task_id} ({endpoint})"),
                    after: started.elapsed(),
                });
            }
            tracing::debug!(
                "task {task_id}: polling user_tasks in {}",
                humantime::format_duration(pause)
            );
            tokio::time::sleep(pause).await;
            last = Some(pause);
            let task = if pause < self.poll_interval {
                let q = params::user_tasks_query(&[task_id.to_string()], true);
                match self
                    .send_once_with(Endpoint::UserTasks, &q, None, None)
                    .await
                {
                    Ok(reply) => find_task(
                        parse::<UserTasks>(Endpoint::UserTasks, &reply.body)?,
                        task_id,
                    )?,
                    Err(e) if e.class() == ErrorClass::Retryable(Transient::ActiveTaskLimit) => {
                        tracing::debug!("task {task_id}: no free user-task slot for a quick poll");
                        last = Some(self.poll_interval);
                        continue;
                    }
                    Err(_) => self.user_task(task_id, deadline, obs).await?,
                }
            } else {
                self.user_task(task_id, deadline, obs).await?
            };
            match task.status {
                TaskStatus::Active | TaskStatus::Other(_) => obs.computing(task_id, None),
                TaskStatus::CompletedWithError => {
                    return Err(CcError::TaskFailed {
                        task_id: task_id.into(),
                        endpoint: endpoint.path().into(),
                    });
                }
                TaskStatus::InExecution | TaskStatus::Completed => return Ok(task),
            }
        }
    }

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
    ) -> Result<super::model::BrokerLoad, CcError> {
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
    ) -> Result<super::model::AdminResult, CcError> {
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

/// The first pause before polling a task that answered 202 is this short.
pub const FIRST_POLL_PAUSE: Duration = Duration::from_millis(200);

/// The pause before the next poll of a computing task (pure): [`FIRST_POLL_PAUSE`] first, then
/// doubling up to `interval` (which also caps the first).
#[must_use]
pub fn next_poll_pause(last: Option<Duration>, interval: Duration) -> Duration {
    last.map_or(FIRST_POLL_PAUSE, |d| d.saturating_mul(2))
        .min(interval)
}

/// `task_id` among `tasks`; `TaskLost` when Cruise Control no longer lists it.
fn find_task(tasks: UserTasks, task_id: &str) -> Result<UserTask, CcError> {
    tasks
        .user_tasks
        .into_iter()
        .find(|t| t.user_task_id == task_id)
        .ok_or_else(|| CcError::TaskLost {
            task_id: task_id.into(),
        })
}

fn params_join(ids: &[i64]) -> String {
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// A POST answered with the review purgatory's `RequestInfo`: nothing ran (see [`super::review`]).
fn held(endpoint: Endpoint, body: &str) -> Result<(), CcError> {
    match held_for_review(body) {
        Some(requests) => Err(CcError::ReviewPending {
            endpoint: endpoint.path().to_string(),
            requests,
        }),
        None => Ok(()),
    }
}

fn parse<T: DeserializeOwned>(endpoint: Endpoint, body: &str) -> Result<T, CcError> {
    lenient::from_str(body).map_err(|e| CcError::Protocol {
        endpoint: endpoint.path().into(),
        detail: format!("{e}; body starts with {:?}", snippet(body)),
    })
}

fn snippet(body: &str) -> String {
    let t = body.trim();
    let mut s: String = t.chars().take(300).collect();
    if t.chars().count() > 300 {
        s.push('…');
    }
    s
}

/// Whether a transport error is a TLS failure: decided from the error's causes only (their types,
/// or failing that their own messages), never from the top-level message, which contains the URL
/// and so would turn a host named `cc-tls` into a "TLS failure".
fn is_tls_failure(e: &reqwest::Error) -> bool {
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        if s.downcast_ref::<native_tls::Error>().is_some()
            || s.downcast_ref::<openssl::ssl::Error>().is_some()
            || s.downcast_ref::<openssl::error::ErrorStack>().is_some()
        {
            return true;
        }
        let lower = s.to_string().to_ascii_lowercase();
        if ["certificate", "ssl", "tls", "handshake"]
            .iter()
            .any(|w| lower.contains(w))
        {
            return true;
        }
        src = s.source();
    }
    false
}

/// The error and its causes in one line, without the request URL reqwest puts in its own text
/// (the base URL is in every message already; the endpoint and query are noise there).
fn error_chain(e: &reqwest::Error) -> String {
    let mut top = e.to_string();
    if let Some(url) = e.url() {
        top = top.replace(&format!(" for url ({url})"), "");
    }
    let mut parts = vec![top];
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        let t = s.to_string();
        if !parts.iter().any(|p| p.contains(&t)) {
            parts.push(t);
        }
        src = s.source();
    }
    parts.join(": ")
}

/// One exchange with Cruise Control as a `request` event (the journal keeps these whatever
/// the verbosity).
fn journal_request(request: &str, answer: &str, sent: std::time::Instant) {
    const KEEP: usize = 4096;
    let mut cut = answer.len().min(KEEP);
    while !answer.is_char_boundary(cut) {
        cut -= 1;
    }
    let answer = if cut < answer.len() {
        format!("{} [{} more bytes]", &answer[..cut], answer.len() - cut)
    } else {
        answer.to_string()
    };
    tracing::debug!(
        system = "cruise-control",
        request,
        answer = answer.as_str(),
        ms = u64::try_from(sent.elapsed().as_millis()).unwrap_or(u64::MAX),
        "Cruise Control answered"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_computing_task_is_polled_quickly_at_first_then_at_the_interval() {
        let interval = Duration::from_secs(5);
        let mut last = None;
        let mut pauses = Vec::new();
        for _ in 0..8 {
            let p = next_poll_pause(last, interval);
            pauses.push(p.as_millis());
            last = Some(p);
        }
        assert_eq!(pauses, [200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
        // A short interval (tests, `--poll-interval 100ms`) caps the first pause too.
        let short = Duration::from_millis(100);
        assert_eq!(next_poll_pause(None, short), short);
        assert_eq!(next_poll_pause(Some(short), short), short);
    }
}
