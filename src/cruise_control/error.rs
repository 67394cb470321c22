//! Cruise Control errors, classified once.
//!
//! Cruise Control has no error codes: every client substring-matches
//! `errorMessage` (reference §5). [`classify`] does it here, for every caller, and
//! sorts each failure into retryable (wait and try again), permanent (the input or
//! cluster must change) or no-op (already done). The failure class each stands for
//! ([`CcError::failure_kind`]) is decided here too, so the binary's edge maps the whole type
//! to an exit code with one line.

use std::time::Duration;

use crate::engine::failure::{Classified, FailureKind};

/// Why a request may succeed later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transient {
    /// The load model has too few valid windows yet (`NotEnoughValidWindowsException`).
    NotEnoughValidWindows,
    /// `max.active.user.tasks` reached.
    ActiveTaskLimit,
    /// Another execution is running.
    OngoingExecution,
    /// Connection refused / reset / DNS.
    Unreachable,
    /// The request timed out.
    Timeout,
    /// The server said "please retry" (capacity churn, monitor loading).
    PleaseRetry,
}

impl Transient {
    /// What the user is waiting for, in words.
    #[must_use]
    pub fn waiting_for(self) -> &'static str {
        match self {
            Transient::NotEnoughValidWindows => {
                "Cruise Control to collect enough metric windows for a load model"
            }
            Transient::ActiveTaskLimit => "a free Cruise Control user-task slot",
            Transient::OngoingExecution => "the ongoing Cruise Control execution to finish",
            Transient::Unreachable => "Cruise Control to accept connections",
            Transient::Timeout => "Cruise Control to answer in time",
            Transient::PleaseRetry => "Cruise Control to become ready",
        }
    }
}

/// Why a request will fail again until the input or the cluster changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permanent {
    /// 400: a bad or unknown parameter.
    BadRequest,
    /// A broker id Cruise Control does not know.
    UnknownBroker,
    /// The goals leave out hard goals.
    MissingHardGoals,
    /// No solution satisfies the hard goals.
    OptimizationFailure,
    /// 401/403: credentials or permissions.
    Unauthorized,
    /// 404: not a Cruise Control endpoint (wrong URL prefix?).
    NotFound,
    /// TLS could not be established.
    Tls,
    /// Anything else.
    Other,
}

/// The class of a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    Retryable(Transient),
    Permanent(Permanent),
    /// Nothing to do: the target state already holds.
    NoOp,
}

/// Classifies an HTTP status and Cruise Control `errorMessage` (pure).
#[must_use]
pub fn classify(status: u16, message: &str) -> ErrorClass {
    use ErrorClass::{NoOp, Permanent as P, Retryable as R};
    let m = message.to_ascii_lowercase();
    match status {
        401 | 407 => return P(Permanent::Unauthorized),
        403 if !m.contains("cannot process") => return P(Permanent::Unauthorized),
        404 => return P(Permanent::NotFound),
        408 | 504 => return R(Transient::Timeout),
        502 | 503 => return R(Transient::Unreachable),
        _ => {}
    }
    if m.contains("already have target replication factor") {
        return NoOp;
    }
    if m.contains("notenoughvalidwindows")
        || m.contains("there is no window available in range")
        || m.contains("valid windows when aggregating")
    {
        return R(Transient::NotEnoughValidWindows);
    }
    if m.contains("active user tasks") && m.contains("servlet capacity") {
        return R(Transient::ActiveTaskLimit);
    }
    // A real CC answers 400 with the bare message, which may name a parameter such as
    // `stop_ongoing_execution` (reference section 13): a bad request, whatever its words.
    if status == 400 {
        return P(Permanent::BadRequest);
    }
    // After a restart with stored samples add_broker answers 500 "Unable to generate proposal
    // since load monitor is in LOADING state." (reference section 13): not ready yet.
    if m.contains("load monitor is in loading state") {
        return R(Transient::PleaseRetry);
    }
    if m.contains("ongoingexecutionexception")
        || m.contains("ongoing execution")
        || m.contains("stop_ongoing_execution")
        || m.contains("ongoing inter-broker partition movements")
        || m.contains("initiated by external agent")
    {
        return R(Transient::OngoingExecution);
    }
    if status == 400 {
        return P(Permanent::BadRequest);
    }
    // An unknown goal: "Goals [X] are not supported. Supported: [...]" (reference section 14),
    // a usage error like an unknown broker, whatever the status.
    if m.contains("are not supported") && m.contains("goals") {
        return P(Permanent::BadRequest);
    }
    if m.contains("does not exist") && m.contains("broker") {
        return P(Permanent::UnknownBroker);
    }
    if m.contains("missing hard goals") {
        return P(Permanent::MissingHardGoals);
    }
    if m.contains("optimizationfailureexception") {
        return P(Permanent::OptimizationFailure);
    }
    if m.contains("please retry") || m.contains("loadmonitor is not ready") {
        return R(Transient::PleaseRetry);
    }
    if status == 403 {
        return P(Permanent::BadRequest);
    }
    P(Permanent::Other)
}

/// A Cruise Control client failure.
#[derive(Debug, thiserror::Error)]
pub enum CcError {
    #[error("cannot reach Cruise Control at {url}: {detail}")]
    Unreachable {
        url: String,
        detail: String,
        /// The connection itself failed, so the request was certainly not sent.
        connect: bool,
    },
    #[error("Cruise Control at {url} did not answer within {}", humantime::format_duration(*.timeout))]
    Timeout { url: String, timeout: Duration },
    #[error("{}", tls_message(url, *why))]
    Tls {
        url: String,
        /// OpenSSL's text (logged at `-v`, never part of the message).
        detail: String,
        why: TlsFailure,
    },
    /// An `http://` URL (or a bare host:port) names a port that speaks HTTPS.
    #[error(
        "Cruise Control at {url} speaks HTTPS, not plain HTTP: use {https_url} (--cruise-control-url)"
    )]
    HttpsExpected { url: String, https_url: String },
    /// A 404 that is not Cruise Control's (Jetty's page): nothing serves the API under the URL.
    #[error(
        "no Cruise Control API answered under {url}: {method} {path} answered HTTP 404 with a page that is not Cruise Control's; check the URL's path (Cruise Control serves its API under /kafkacruisecontrol/)"
    )]
    NoApi {
        url: String,
        method: &'static str,
        path: String,
    },
    #[error("{}", auth_message(url, *status, what))]
    Auth {
        url: String,
        status: u16,
        /// What was sent, and for a 403 which role the request needs.
        what: AuthFailure,
    },
    #[error("{}", api_message(endpoint, *status, message, *class))]
    Api {
        endpoint: String,
        status: u16,
        message: String,
        class: ErrorClass,
    },
    #[error("unexpected answer from Cruise Control {endpoint}: {detail}")]
    Protocol { endpoint: String, detail: String },
    #[error(
        "Cruise Control task {task_id} ({endpoint}) ended with an error; Cruise Control reports the cause only in its log"
    )]
    TaskFailed { task_id: String, endpoint: String },
    #[error(
        "Cruise Control no longer knows task {task_id} (restarted, or the task expired); its outcome is unknown: check `kafkaops rebalance status` before retrying"
    )]
    TaskLost { task_id: String },
    #[error("gave up after {attempts} attempt(s) waiting for {waiting_for}")]
    GaveUp {
        waiting_for: &'static str,
        attempts: u32,
        #[source]
        last: Box<CcError>,
    },
    #[error("gave up after {} waiting for {waiting_for}", humantime::format_duration(*.after))]
    DeadlineExceeded {
        waiting_for: String,
        after: Duration,
    },
    #[error("{0}")]
    Config(String),
    /// Two-step verification: Cruise Control holds the request for review; nothing ran.
    #[error("{}", review_pending_message(endpoint, requests))]
    ReviewPending {
        endpoint: String,
        requests: Vec<super::review::RequestInfo>,
    },
}

fn review_pending_message(endpoint: &str, requests: &[super::review::RequestInfo]) -> String {
    let ids: Vec<String> = requests.iter().map(|r| r.id.to_string()).collect();
    let what = match requests.first() {
        Some(r) if r.is_execution() => "execution",
        Some(_) => "dry run",
        None => "request",
    };
    let id = ids.first().map_or("N", String::as_str);
    format!(
        "Cruise Control holds the {endpoint} {what} for review (two-step verification): review id {} ({}); nothing ran. Approve it with `kafkaops rebalance review approve {id}`, then run the same command with `--review-id {id}`",
        ids.join(","),
        requests.first().map_or("-", |r| r.status.as_str())
    )
}

/// Why Cruise Control (its Jetty security) turned a request away: what kafkaops sent, or for
/// HTTP 403 (credentials accepted, role too low) which role the request needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthFailure {
    /// A user and a password were sent and refused.
    Refused { user: String },
    /// No user was given.
    NoCredentials,
    /// A user without a password.
    NoPassword { user: String },
    /// HTTP 403: the user's role may not make this request (reference section 7: ADMIN for
    /// every POST, USER for the reads of state, load and proposals, VIEWER for the rest).
    Role {
        user: Option<String>,
        method: &'static str,
        endpoint: &'static str,
        needs: &'static str,
    },
}

fn auth_message(url: &str, status: u16, what: &AuthFailure) -> String {
    const PASSWORD: &str = "KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file";
    match what {
        AuthFailure::Refused { user } => format!(
            "Cruise Control at {url} refused the credentials of user {user:?} (HTTP {status}): wrong user or password; check --cruise-control-user and the password ({PASSWORD})"
        ),
        AuthFailure::NoCredentials => format!(
            "Cruise Control at {url} asks for credentials (HTTP {status}) and none were given: set --cruise-control-user and the password ({PASSWORD})"
        ),
        AuthFailure::NoPassword { user } => format!(
            "Cruise Control at {url} refused user {user:?} (HTTP {status}): no password was given; set {PASSWORD}"
        ),
        AuthFailure::Role {
            user,
            method,
            endpoint,
            needs,
        } => {
            let who = user
                .as_ref()
                .map_or_else(|| "the user".to_string(), |u| format!("user {u:?}"));
            let hint = match *needs {
                "ADMIN" => {
                    "every POST request (rebalances and their dry runs, executions, stops, reviews) needs ADMIN (Strimzi: the rebalance-operator user)"
                }
                "USER" => "reads of state, load and proposals need USER",
                _ => "every request needs at least VIEWER",
            };
            format!(
                "Cruise Control at {url} accepted the credentials but {who} lacks the {needs} role that {method} {endpoint} needs (HTTP {status}): {hint}"
            )
        }
    }
}

/// Why a TLS connection to Cruise Control failed, in terms of what to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TlsFailure {
    /// The server's certificate does not chain to a trusted CA; `ca_given`: whether a CA file
    /// was given (then it does not sign the certificate), else the system roots lack its CA.
    Untrusted { ca_given: bool },
    /// The certificate does not name the host connected to.
    NameMismatch,
    /// The certificate has expired or is not valid yet.
    Expired,
    /// Anything else (the details are logged at `-v`).
    Other,
}

impl TlsFailure {
    /// Reads OpenSSL's handshake text (pure).
    #[must_use]
    pub fn from_openssl(text: &str, ca_given: bool) -> Self {
        let t = text.to_ascii_lowercase();
        if t.contains("hostname mismatch") || t.contains("ip address mismatch") {
            TlsFailure::NameMismatch
        } else if t.contains("certificate has expired")
            || t.contains("certificate is not yet valid")
        {
            TlsFailure::Expired
        } else if t.contains("certificate verify failed") || t.contains("unable to get") {
            TlsFailure::Untrusted { ca_given }
        } else {
            TlsFailure::Other
        }
    }
}

fn tls_message(url: &str, why: TlsFailure) -> String {
    const STRIMZI: &str =
        "(Strimzi: the cluster CA, ca.crt of the secret <cluster>-cluster-ca-cert)";
    match why {
        TlsFailure::Untrusted { ca_given: false } => format!(
            "Cruise Control at {url} presented a certificate this host does not trust: no CA file was given and the certificate's CA is not among the system's trusted roots; pass the CA that signed it with --cruise-control-ca-file {STRIMZI}"
        ),
        TlsFailure::Untrusted { ca_given: true } => format!(
            "the CA file given (--cruise-control-ca-file) does not sign the certificate of Cruise Control at {url}; give the CA that issued the server's certificate {STRIMZI}"
        ),
        TlsFailure::NameMismatch => format!(
            "the certificate of Cruise Control at {url} does not name that host; connect by a name the certificate lists"
        ),
        TlsFailure::Expired => {
            format!("the certificate of Cruise Control at {url} has expired or is not valid yet")
        }
        TlsFailure::Other => format!(
            "TLS with Cruise Control at {url} failed (the handshake did not complete; -v shows why)"
        ),
    }
}

/// How an error answer reads: the server's text, except for a full user-task table, which a
/// real Cruise Control reports as an HTTP 500 with an exception dump (reference section 13) and
/// which is one plain sentence here (exit 5).
fn api_message(endpoint: &str, status: u16, message: &str, class: ErrorClass) -> String {
    if class == ErrorClass::Retryable(Transient::ActiveTaskLimit) {
        let slots = message
            .split("There are already ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse::<u32>().ok());
        return format!(
            "Cruise Control is busy: all {}of its user-task slots (max.active.user.tasks) are taken by other requests; each frees a few seconds after its request ends, so retry shortly",
            slots.map(|n| format!("{n} ")).unwrap_or_default()
        );
    }
    format!(
        "Cruise Control {endpoint} failed (HTTP {status}): {}",
        plain_text(message)
    )
}

/// Cruise Control's error text without its Java framing (pure): the "Error processing ...
/// request '...' due to: '...'." wrapper and the exception class names in front
/// (`...KafkaCruiseControlException: java.lang.IllegalArgumentException: Broker [99] does not
/// exist.` reads `Broker [99] does not exist.`, reference section 14). The server's text as
/// sent is logged by the client (`-v`).
#[must_use]
pub fn plain_text(message: &str) -> &str {
    let mut m = message.trim();
    if let Some(rest) = m.strip_prefix("Error processing ")
        && let Some(i) = rest.find(" due to: '")
    {
        m = rest[i + " due to: '".len()..]
            .trim_end()
            .trim_end_matches('.')
            .trim_end_matches('\'');
    }
    while let Some(i) = m.find(": ") {
        let head = &m[..i];
        let class = !head.is_empty()
            && !head.contains(char::is_whitespace)
            && (head.ends_with("Exception") || head.ends_with("Error"));
        if !class {
            break;
        }
        m = m[i + 2..].trim_start();
    }
    if m.is_empty() { message.trim() } else { m }
}

/// A Cruise Control error as a classified failure (its message as it is, its class from
/// [`CcError::failure_kind`]), for the layers that report failures without exit codes.
impl From<CcError> for Classified {
    fn from(e: CcError) -> Self {
        let kind = e.failure_kind();
        Classified::wrap(kind, e)
    }
}

impl CcError {
    /// The class of this failure.
    #[must_use]
    pub fn class(&self) -> ErrorClass {
        match self {
            CcError::Unreachable { .. } => ErrorClass::Retryable(Transient::Unreachable),
            CcError::Timeout { .. } | CcError::DeadlineExceeded { .. } => {
                ErrorClass::Retryable(Transient::Timeout)
            }
            CcError::Tls { .. } | CcError::HttpsExpected { .. } => {
                ErrorClass::Permanent(Permanent::Tls)
            }
            CcError::NoApi { .. } => ErrorClass::Permanent(Permanent::NotFound),
            CcError::Auth { .. } => ErrorClass::Permanent(Permanent::Unauthorized),
            CcError::Api { class, .. } => *class,
            CcError::GaveUp { last, .. } => last.class(),
            CcError::Protocol { .. }
            | CcError::TaskFailed { .. }
            | CcError::TaskLost { .. }
            | CcError::Config(_)
            | CcError::ReviewPending { .. } => ErrorClass::Permanent(Permanent::Other),
        }
    }

    /// The failure class this error stands for (the edge maps it to an exit code).
    #[must_use]
    pub fn failure_kind(&self) -> FailureKind {
        if let CcError::Config(_) = self {
            return FailureKind::Invalid;
        }
        if let CcError::ReviewPending { .. } = self {
            return FailureKind::ReviewPending;
        }
        match self.class() {
            ErrorClass::NoOp => FailureKind::NoOp,
            ErrorClass::Retryable(t) => match t {
                Transient::NotEnoughValidWindows | Transient::PleaseRetry => FailureKind::NotReady,
                Transient::ActiveTaskLimit | Transient::OngoingExecution => FailureKind::Busy,
                Transient::Unreachable => FailureKind::Unreachable,
                Transient::Timeout => FailureKind::TimedOut,
            },
            ErrorClass::Permanent(p) => match p {
                Permanent::BadRequest | Permanent::UnknownBroker | Permanent::MissingHardGoals => {
                    FailureKind::Invalid
                }
                Permanent::Unauthorized | Permanent::Tls | Permanent::NotFound => {
                    FailureKind::Unreachable
                }
                Permanent::OptimizationFailure => FailureKind::GoalsUnsatisfiable,
                Permanent::Other => FailureKind::Failed,
            },
        }
    }

    /// True when trying again later may succeed.
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        !matches!(
            self,
            CcError::GaveUp { .. } | CcError::DeadlineExceeded { .. }
        ) && matches!(self.class(), ErrorClass::Retryable(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_framing_is_left_out_of_the_message() {
        let real = "Error processing POST request '/add_broker' due to: 'com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: java.lang.IllegalArgumentException: Broker [99] does not exist.'.";
        assert_eq!(plain_text(real), "Broker [99] does not exist.");
        let bare = "com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: java.lang.IllegalArgumentException: Broker [99] does not exist.";
        assert_eq!(plain_text(bare), "Broker [99] does not exist.");
        assert_eq!(
            plain_text("Cannot start a new execution: ongoing. Retry: later"),
            "Cannot start a new execution: ongoing. Retry: later"
        );
        assert_eq!(plain_text("null"), "null");
        let e = CcError::Api {
            endpoint: "add_broker".into(),
            status: 500,
            message: bare.into(),
            class: classify(500, bare),
        };
        let shown = e.to_string();
        assert!(!shown.contains("java.lang"), "{shown}");
        assert!(!shown.contains("KafkaCruiseControlException"), "{shown}");
        assert_eq!(e.failure_kind(), FailureKind::Invalid);
        let goal = "com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: java.lang.IllegalArgumentException: Goals [NoSuchGoal] are not supported. Supported: [BrokerSetAwareGoal, ...]";
        assert_eq!(
            classify(500, goal),
            ErrorClass::Permanent(Permanent::BadRequest)
        );
    }

    #[test]
    fn auth_and_tls_failures_say_what_to_change() {
        let role = CcError::Auth {
            url: "https://cc:9090".into(),
            status: 403,
            what: AuthFailure::Role {
                user: Some("healthcheck".into()),
                method: "POST",
                endpoint: "rebalance",
                needs: "ADMIN",
            },
        };
        let shown = role.to_string();
        assert!(
            shown.contains("user \"healthcheck\" lacks the ADMIN role that POST rebalance needs"),
            "{shown}"
        );
        assert!(!shown.contains("refused the credentials"), "{shown}");
        let none = CcError::Auth {
            url: "u".into(),
            status: 401,
            what: AuthFailure::NoPassword { user: "ops".into() },
        };
        assert!(none.to_string().contains("no password was given"), "{none}");
        assert_eq!(none.failure_kind(), FailureKind::Unreachable);

        let real = "client error (Connect): error:0A000086:SSL routines:tls_post_process_server_certificate:certificate verify failed:../ssl/statem/statem_clnt.c:1889: (self-signed certificate in certificate chain)";
        assert_eq!(
            TlsFailure::from_openssl(real, false),
            TlsFailure::Untrusted { ca_given: false }
        );
        assert_eq!(
            TlsFailure::from_openssl(real, true),
            TlsFailure::Untrusted { ca_given: true }
        );
        assert_eq!(
            TlsFailure::from_openssl(
                &real.replace(
                    "self-signed certificate in certificate chain",
                    "hostname mismatch"
                ),
                true
            ),
            TlsFailure::NameMismatch
        );
        assert_eq!(
            TlsFailure::from_openssl("handshake failure", false),
            TlsFailure::Other
        );
        for ca_given in [false, true] {
            let e = CcError::Tls {
                url: "https://cc:9090".into(),
                detail: real.into(),
                why: TlsFailure::from_openssl(real, ca_given),
            };
            let shown = e.to_string();
            assert!(
                !shown.contains("SSL routines") && !shown.contains(".c:"),
                "{shown}"
            );
            assert!(
                shown.contains(if ca_given {
                    "does not sign"
                } else {
                    "no CA file was given"
                }),
                "{shown}"
            );
        }
    }

    #[test]
    fn classification_of_documented_messages() {
        use ErrorClass::*;
        let cases: &[(u16, &str, ErrorClass)] = &[
            (
                500,
                "Error processing POST request '/rebalance' due to: 'com.linkedin.cruisecontrol.exception.NotEnoughValidWindowsException: There are only 0 valid windows when aggregating in range [-1, 1579]'.",
                Retryable(Transient::NotEnoughValidWindows),
            ),
            (
                500,
                "There is no window available in range [-1, 1700] (index [1, -1]).",
                Retryable(Transient::NotEnoughValidWindows),
            ),
            (
                500,
                "java.lang.RuntimeException: There are already 5 active user tasks, which has reached the servlet capacity.",
                Retryable(Transient::ActiveTaskLimit),
            ),
            (
                500,
                "OngoingExecutionException: Cannot execute new proposals while there is an ongoing execution.",
                Retryable(Transient::OngoingExecution),
            ),
            (
                500,
                "IllegalStateException: Cannot start a new execution while there is an ongoing execution. Please use stop_ongoing_execution=true to stop ongoing execution and start a new one.",
                Retryable(Transient::OngoingExecution),
            ),
            (
                500,
                "java.lang.IllegalStateException: Cannot execute new proposals while there are ongoing partition reassignments initiated by external agent: [orders-0]",
                Retryable(Transient::OngoingExecution),
            ),
            (
                400,
                "Bad POST request '/rebalance' due to 'Unrecognized endpoint parameters in REBALANCE POST request: [foo].'.",
                Permanent(super::Permanent::BadRequest),
            ),
            (
                500,
                "com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: java.lang.IllegalArgumentException: Broker [3] does not exist.",
                Permanent(super::Permanent::UnknownBroker),
            ),
            (
                500,
                "Missing hard goals [RackAwareGoal] in the provided goals: [DiskCapacityGoal]. Add skip_hard_goal_check=true parameter to ignore this sanity check.",
                Permanent(super::Permanent::MissingHardGoals),
            ),
            (
                500,
                "com.linkedin.kafka.cruisecontrol.exception.OptimizationFailureException: [RackAwareGoal] Insufficient number of racks",
                Permanent(super::Permanent::OptimizationFailure),
            ),
            (
                500,
                "All topics matching given pattern already have target replication factor.",
                NoOp,
            ),
            (
                500,
                "Unable to retrieve capacity for broker 3 due to churn, please retry.",
                Retryable(Transient::PleaseRetry),
            ),
            (
                401,
                "<html>Unauthorized</html>",
                Permanent(super::Permanent::Unauthorized),
            ),
            (
                404,
                "Unrecognized endpoint",
                Permanent(super::Permanent::NotFound),
            ),
            (503, "", Retryable(Transient::Unreachable)),
            (
                500,
                "java.lang.NullPointerException",
                Permanent(super::Permanent::Other),
            ),
        ];
        for (status, msg, want) in cases {
            assert_eq!(classify(*status, msg), *want, "{status} {msg}");
        }
    }
}
