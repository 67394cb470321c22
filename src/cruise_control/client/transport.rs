//! One HTTP exchange with Cruise Control and what its failures mean: the request with its
//! credentials and timeout, the answer turned into a typed error class (auth, TLS, transient,
//! HTTP status), and a journal line per request. Kept apart from the retry and task-polling
//! protocol in the parent module, which only sees classified [`CcError`]s.

use std::time::Duration;

use reqwest::{Method, StatusCode};

use super::{CruiseControlClient, Reply, USER_TASK_ID};
use crate::cruise_control::error::{AuthFailure, CcError, TlsFailure, classify};
use crate::cruise_control::lenient;
use crate::cruise_control::model::ErrorResponse;
use crate::cruise_control::params::{Endpoint, Query};
use crate::secret::Secret;

impl CruiseControlClient {
    /// One HTTP exchange; non-2xx answers become classified errors.
    /// `body`: an optional JSON body (`topic_configuration`'s body form).
    pub(super) async fn send_once_with(
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
        let req = self.build_request(method.clone(), url, body, task_header);
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
            &answer_line(status, task_id.as_deref(), &body),
            sent,
        );
        if status.is_success() {
            return Ok(Reply {
                status,
                task_id,
                body,
            });
        }
        Err(self.error_answer(endpoint, &method, path, status, &body))
    }

    /// The request with its credentials, task header and JSON body, when given.
    fn build_request(
        &self,
        method: Method,
        url: url::Url,
        body: Option<&str>,
        task_header: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let mut req = self.http.request(method, url);
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
        req
    }

    /// A non-2xx answer, classified: credentials refused (by Cruise Control or a proxy in
    /// front), a path outside every Cruise Control servlet, or Cruise Control's own error.
    fn error_answer(
        &self,
        endpoint: Endpoint,
        method: &Method,
        path: String,
        status: StatusCode,
        body: &str,
    ) -> CcError {
        let parsed: Option<ErrorResponse> = lenient::from_str(body).ok();
        let message = parsed
            .map(|e| e.error_message)
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| snippet(body));
        let is_cc_json = body.trim_start().starts_with('{');
        if matches!(status.as_u16(), 401 | 407) || (status.as_u16() == 403 && !is_cc_json) {
            return CcError::Auth {
                url: self.display_url.clone(),
                status: status.as_u16(),
                what: self.auth_failure(status.as_u16(), endpoint, method),
            };
        }
        if status == StatusCode::NOT_FOUND && !is_cc_json {
            // Jetty's own page: the path is outside every Cruise Control servlet (a real CC
            // answers an unknown endpoint under its prefix with its JSON error).
            tracing::info!("{method} {path} answered HTTP 404: {}", snippet(body));
            return CcError::NoApi {
                url: self.display_url.clone(),
                method: if endpoint.is_post() { "POST" } else { "GET" },
                path,
            };
        }
        tracing::info!(
            "Cruise Control {} answered HTTP {}: {message}",
            endpoint.path(),
            status.as_u16()
        );
        CcError::Api {
            endpoint: endpoint.path().to_string(),
            status: status.as_u16(),
            class: classify(status.as_u16(), &message),
            message,
        }
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
}

pub(super) fn snippet(body: &str) -> String {
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

/// An answer as the journal records it: status, task id (when given) and body.
fn answer_line(status: StatusCode, task_id: Option<&str>, body: &str) -> String {
    format!(
        "HTTP {}{} {body}",
        status.as_u16(),
        task_id
            .map(|t| format!(" (User-Task-ID {t})"))
            .unwrap_or_default()
    )
}
