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
    #[error("TLS with Cruise Control at {url} failed: {detail} (check --cruise-control-ca-file)")]
    Tls { url: String, detail: String },
    #[error(
        "Cruise Control at {url} refused the credentials (HTTP {status}); check --cruise-control-user and the password"
    )]
    Auth { url: String, status: u16 },
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
            CcError::Tls { .. } => ErrorClass::Permanent(Permanent::Tls),
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
