//! The journal of a run: what a command that changes something showed, what was confirmed,
//! each request it sent with the answer, each decision and wait, and the outcome, one JSON
//! line per event in a file of its own under the state directory (`journal/ID.jsonl`).
//!
//! Nothing writes to a journal directly. The recording rides on what the run already reports:
//! what the [printer](super) writes to stdout and stderr (the plan, the notes, the result),
//! the confirmation prompt ([`super::confirm`]), and the `tracing` events of the crate (the
//! decisions and waits the use cases log, and the requests the adapters log with a `request`
//! field: Cruise Control's HTTP exchanges, Kafka's protocol and librdkafka calls), plus the
//! HTTP spans of the Kubernetes client, which [`JournalLayer`] turns into events whatever
//! the verbosity. Every string is redacted ([`crate::secret::redact`]) with the run's own
//! secrets before it is written, so a journal holds no password at any `-v`.
//!
//! The file is only appended to (one `write` per line, flushed), so an interrupted run leaves
//! every event it got to and no `end`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime};

use serde::{Deserialize, Serialize};
use tracing::field::{Field, Visit};
use tracing::{Event as TracingEvent, Level, Subscriber};
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;

/// The `format` of a journal's first line.
pub const FORMAT: &str = "kafkaops.journal.v1";

/// The longest text an event keeps (an answer of Cruise Control can be megabytes).
const MAX_TEXT: usize = 16 * 1024;

/// One thing that happened in a run.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The run began.
    Start {
        format: String,
        id: String,
        /// The subcommand (`roll`, `rebalance add`, `operate: rebalance`).
        command: String,
        /// The command line, redacted.
        args: Vec<String>,
        /// `--yes`: every question is answered yes without asking.
        yes: bool,
        version: String,
        pid: u32,
    },
    /// Text the run showed: the plan, notes, the result (`stdout` or `stderr`).
    Shown { stream: String, text: String },
    /// An action was confirmed (`how`: `prompt` or `--yes`).
    Confirmed { action: String, how: String },
    /// An action was not confirmed (declined, or nobody could answer).
    NotConfirmed { action: String, why: String },
    /// A request sent to Cruise Control, Kafka or Kubernetes, and its answer.
    Request {
        system: String,
        request: String,
        answer: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ms: Option<u64>,
    },
    /// A decision, a wait or anything else the run logged, with its reason.
    Log {
        level: String,
        target: String,
        message: String,
    },
    /// The run ended.
    End {
        exit_code: i32,
        /// The exit code's name (`ok`, `failed`, `timeout`, ...).
        outcome: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
        duration_ms: u64,
    },
}

/// One line of a journal: when, and what.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub seq: u64,
    /// RFC 3339, UTC, milliseconds.
    pub at: String,
    #[serde(flatten)]
    pub event: Event,
}

/// The journal being written by this process.
struct Active {
    file: std::fs::File,
    path: PathBuf,
    seq: u64,
    known: Vec<String>,
    started: Instant,
    /// `operate`: the kind of action this journal is of (its end closes it).
    action: Option<String>,
}

static ACTIVE: Mutex<Option<Active>> = Mutex::new(None);
/// Whether a journal is open: the one check a log event costs when none is.
static OPEN: AtomicBool = AtomicBool::new(false);

/// The directory of the journals under a state directory.
#[must_use]
pub fn dir_in(state_dir: &Path) -> PathBuf {
    state_dir.join("journal")
}

/// A new journal id: the start time (sortable) and the process id.
#[must_use]
pub fn new_id(now: SystemTime) -> String {
    let t = humantime::format_rfc3339_millis(now).to_string();
    let compact: String = t
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == 'T')
        .collect();
    format!("{compact}-{}", std::process::id())
}

/// What a journal is opened with.
pub struct Opening<'a> {
    pub state_dir: &'a Path,
    pub command: &'a str,
    pub args: &'a [String],
    pub yes: bool,
    /// The secrets of this run, masked wherever they appear.
    pub known_secrets: Vec<String>,
}

/// Opens a journal for this run (the previous one, if any, is closed without an end) and
/// records its start. Returns its id.
pub fn begin(o: &Opening<'_>) -> std::io::Result<String> {
    let dir = dir_in(o.state_dir);
    std::fs::create_dir_all(&dir)?;
    let base = new_id(SystemTime::now());
    let mut options = std::fs::OpenOptions::new();
    options.create_new(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    // Two journals begun in the same millisecond (operate's actions) get a suffix.
    let mut n = 0;
    let (id, path, file) = loop {
        let id = if n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        let path = dir.join(format!("{id}.jsonl"));
        match options.open(&path) {
            Ok(file) => break (id, path, file),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(e),
        }
    };
    // Bounded: the others past the retention go, oldest first, never this one.
    match super::journal_rotation::Retention::from_env(&|k| std::env::var(k).ok()) {
        Ok(r) => {
            if let Err(e) = super::journal_rotation::prune(&dir, &id, SystemTime::now(), r) {
                tracing::warn!("cannot remove old journals in {}: {e}", dir.display());
            }
        }
        Err(e) => tracing::warn!("old journals kept: {e}"),
    }
    let args = crate::secret::redact_args(o.args, &o.known_secrets);
    {
        let mut active = ACTIVE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *active = Some(Active {
            file,
            path,
            seq: 0,
            known: o.known_secrets.clone(),
            started: Instant::now(),
            action: None,
        });
    }
    OPEN.store(true, Ordering::Release);
    record(Event::Start {
        format: FORMAT.into(),
        id: id.clone(),
        command: o.command.into(),
        args,
        yes: o.yes,
        version: env!("CARGO_PKG_VERSION").into(),
        pid: std::process::id(),
    });
    Ok(id)
}

/// Whether a journal is open.
#[must_use]
pub fn is_open() -> bool {
    OPEN.load(Ordering::Acquire)
}

/// Appends `event` to the open journal (nothing when none is), redacted. A failed write is
/// dropped: the journal never makes a run fail.
pub fn record(event: Event) {
    if !is_open() {
        return;
    }
    let mut guard = ACTIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let Some(active) = guard.as_mut() else {
        return;
    };
    let entry = Entry {
        seq: active.seq,
        at: humantime::format_rfc3339_millis(SystemTime::now()).to_string(),
        event,
    };
    active.seq += 1;
    let Ok(mut value) = serde_json::to_value(&entry) else {
        return;
    };
    redact_value(&mut value, &active.known);
    let Ok(mut line) = serde_json::to_string(&value) else {
        return;
    };
    line.push('\n');
    let _ = active
        .file
        .write_all(line.as_bytes())
        .and_then(|()| active.file.flush());
}

/// Records the end of the run and closes the journal; returns its path.
pub fn finish(exit_code: i32, outcome: &str, error: Option<String>) -> Option<PathBuf> {
    let duration_ms = {
        let guard = ACTIVE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let active = guard.as_ref()?;
        u64::try_from(active.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    };
    record(Event::End {
        exit_code,
        outcome: outcome.into(),
        error,
        duration_ms,
    });
    OPEN.store(false, Ordering::Release);
    let mut guard = ACTIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    guard.take().map(|a| {
        let _ = a.file.sync_all();
        a.path
    })
}

/// Where `operate` keeps a journal per action: set once at its start.
struct ActionJournals {
    state_dir: PathBuf,
    args: Vec<String>,
    known: Vec<String>,
}

static ACTIONS: Mutex<Option<ActionJournals>> = Mutex::new(None);

/// `operate`: keep a journal of each action in `state_dir` (with the process's command line
/// and secrets), opened by [`action_started`] and closed by [`action_ended`].
pub fn keep_action_journals(state_dir: &Path, args: &[String], known_secrets: Vec<String>) {
    let mut a = ACTIONS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *a = Some(ActionJournals {
        state_dir: state_dir.to_path_buf(),
        args: args.to_vec(),
        known: known_secrets,
    });
}

/// `operate` started an action of `kind` on `target`: a journal of its own opens, unless one
/// of another action is open, in which this one is a step (a stop of the running rebalance).
pub fn action_started(kind: &str, target: &str, reason: &str) {
    let open_kind = {
        let guard = ACTIVE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        guard.as_ref().map(|a| a.action.clone())
    };
    // An action's journal is open: this one is a step of it.
    if !matches!(open_kind, Some(Some(_))) {
        {
            let config = ACTIONS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let Some(c) = config.as_ref() else {
                return;
            };
            let opened = begin(&Opening {
                state_dir: &c.state_dir,
                command: &format!("operate: {kind}"),
                args: &c.args,
                yes: true,
                known_secrets: c.known.clone(),
            });
            drop(config);
            if opened.is_err() {
                return;
            }
            let mut guard = ACTIVE
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(a) = guard.as_mut() {
                a.action = Some(kind.to_string());
            }
        }
    }
    record(Event::Log {
        level: "INFO".into(),
        target: "kafkaops::operate".into(),
        message: format!("{kind} {target} started: {reason}"),
    });
}

/// `operate`'s action of `kind` ended: its journal closes with the outcome (an action that
/// is a step of another is only recorded).
pub fn action_ended(kind: &str, target: &str, succeeded: bool, reason: &str) {
    let is_open_action = {
        let guard = ACTIVE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        guard
            .as_ref()
            .is_some_and(|a| a.action.as_deref() == Some(kind))
    };
    let result = if succeeded { "succeeded" } else { "failed" };
    record(Event::Log {
        level: "INFO".into(),
        target: "kafkaops::operate".into(),
        message: format!("{kind} {target} {result}: {reason}"),
    });
    if is_open_action {
        let (code, outcome) = if succeeded { (0, "ok") } else { (1, "failed") };
        finish(code, outcome, (!succeeded).then(|| reason.to_string()));
    }
}

/// Every string in `value` redacted.
pub fn redact_value(value: &mut serde_json::Value, known: &[String]) {
    match value {
        serde_json::Value::String(s) => {
            let mut r = crate::secret::redact(s, known);
            if r.len() > MAX_TEXT {
                let mut cut = MAX_TEXT;
                while !r.is_char_boundary(cut) {
                    cut -= 1;
                }
                r.truncate(cut);
                r.push_str(" [...]");
            }
            *s = r;
        }
        serde_json::Value::Array(items) => {
            for v in items {
                redact_value(v, known);
            }
        }
        serde_json::Value::Object(map) => {
            for v in map.values_mut() {
                redact_value(v, known);
            }
        }
        _ => {}
    }
}

/// Turns the crate's `tracing` events (debug and above) and the Kubernetes client's HTTP spans
/// into journal events while a journal is open. Install it with [`journal_filter`].
#[derive(Debug, Clone, Copy, Default)]
pub struct JournalLayer;

/// What the journal layer listens to: the crate's events at debug and above, and the
/// Kubernetes client's `HTTP` spans, only while a journal is open.
pub fn journal_filter<S>() -> impl tracing_subscriber::layer::Filter<S> {
    tracing_subscriber::filter::dynamic_filter_fn(|meta, _cx| {
        is_open()
            && ((meta.target().starts_with("kafkaops") && *meta.level() <= Level::DEBUG)
                || (meta.is_span() && meta.name() == "HTTP" && meta.target().starts_with("kube")))
    })
}

/// The fields of an event, as text.
#[derive(Default)]
struct Fields {
    message: String,
    system: Option<String>,
    request: Option<String>,
    answer: Option<String>,
    ms: Option<u64>,
    method: Option<String>,
    url: Option<String>,
    status: Option<u64>,
    other: Vec<String>,
}

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let text = format!("{value:?}");
        self.text(field, text);
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.text(field, value.to_string());
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        match field.name() {
            "ms" => self.ms = Some(value),
            "http.status_code" => self.status = Some(value),
            _ => self.text(field, value.to_string()),
        }
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        match (field.name(), u64::try_from(value)) {
            ("ms", Ok(v)) => self.ms = Some(v),
            ("http.status_code", Ok(v)) => self.status = Some(v),
            _ => self.text(field, value.to_string()),
        }
    }
}

impl Fields {
    fn text(&mut self, field: &Field, text: String) {
        match field.name() {
            "message" => self.message = text,
            "system" => self.system = Some(text),
            "request" => self.request = Some(text),
            "answer" => self.answer = Some(text),
            "http.method" => self.method = Some(text),
            "http.url" => self.url = Some(text),
            name if name.starts_with("otel.") => {}
            name => self.other.push(format!("{name}={text}")),
        }
    }
}

/// A Kubernetes request in flight (kept in its span).
struct KubeRequest {
    fields: Fields,
    started: Instant,
}

impl<S> tracing_subscriber::Layer<S> for JournalLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_event(&self, event: &TracingEvent<'_>, _ctx: Context<'_, S>) {
        let meta = event.metadata();
        if !meta.target().starts_with("kafkaops") {
            return;
        }
        let mut f = Fields::default();
        event.record(&mut f);
        if let Some(request) = f.request.take() {
            record(Event::Request {
                system: f.system.take().unwrap_or_else(|| "unknown".into()),
                request,
                answer: f.answer.take().unwrap_or_default(),
                ms: f.ms,
            });
            return;
        }
        let mut message = f.message;
        for o in f.other {
            message.push(' ');
            message.push_str(&o);
        }
        record(Event::Log {
            level: meta.level().to_string(),
            target: meta.target().to_string(),
            message,
        });
    }

    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: Context<'_, S>,
    ) {
        if attrs.metadata().name() != "HTTP" {
            return;
        }
        let mut fields = Fields::default();
        attrs.record(&mut fields);
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(KubeRequest {
                fields,
                started: Instant::now(),
            });
        }
    }

    fn on_record(
        &self,
        id: &tracing::span::Id,
        values: &tracing::span::Record<'_>,
        ctx: Context<'_, S>,
    ) {
        if let Some(span) = ctx.span(id)
            && let Some(req) = span.extensions_mut().get_mut::<KubeRequest>()
        {
            values.record(&mut req.fields);
        }
    }

    fn on_close(&self, id: tracing::span::Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else {
            return;
        };
        let Some(req) = span.extensions_mut().remove::<KubeRequest>() else {
            return;
        };
        let f = req.fields;
        record(Event::Request {
            system: "kubernetes".into(),
            request: format!(
                "{} {}",
                f.method.as_deref().unwrap_or("?"),
                f.url.as_deref().unwrap_or("?")
            ),
            answer: f
                .status
                .map_or_else(|| "no answer".into(), |s| format!("HTTP {s}")),
            ms: u64::try_from(req.started.elapsed().as_millis()).ok(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_every_string_of_an_event() {
        let mut v = serde_json::to_value(Entry {
            seq: 0,
            at: "t".into(),
            event: Event::Request {
                system: "cruise-control".into(),
                request: "GET https://ops:pw-1@cc/state".into(),
                answer: "{\"sasl.password\": \"pw-2\", \"x\": \"pw-3\"}".into(),
                ms: Some(1),
            },
        })
        .unwrap();
        redact_value(&mut v, &["pw-3".into()]);
        let text = v.to_string();
        for pw in ["pw-1", "pw-2", "pw-3"] {
            assert!(!text.contains(pw), "{pw} in {text}");
        }
    }

    #[test]
    fn ids_sort_by_start_time() {
        let t0 = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000);
        let a = new_id(t0);
        let b = new_id(t0 + std::time::Duration::from_millis(1500));
        assert!(a < b, "{a} {b}");
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    }
}
