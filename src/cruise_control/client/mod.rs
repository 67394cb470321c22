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

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use super::error::{CcError, ErrorClass, Transient};
use super::lenient;
use super::model::{ProgressResult, ProgressStep, TaskStatus, UserTask, UserTasks};
use super::params::{self, Endpoint, Query};
use super::retry::{Backoff, RetryDecision, RetryPolicy, decide};
use super::review::held_for_review;
use crate::secret::Secret;
use crate::settings::CruiseControlSettings;

mod endpoints;
mod transport;

use transport::snippet;

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
