//! Rendering: tables for people, JSON/YAML for scripts, prompts and progress.
//!
//! Only data goes to stdout; logs and progress go to stderr so that
//! `kafkaops ... --output json | jq` always sees a clean document. Commands
//! build a serializable value and a table renderer and hand both to [`Printer`];
//! they never pick a format themselves.
//!
//! # JSON output
//!
//! The JSON (and YAML) a command prints is an API; every command follows one convention:
//!
//! - **One document.** `-o json` prints one JSON document, `-o yaml` one YAML document. The
//!   commands that stream records (`anomalies watch`, `health --watch`, `rebalance imbalance
//!   --watch`) print one compact JSON object per line (NDJSON) with `-o jsonl`, and refuse
//!   `-o json` (exit 2) unless they end after one pass (`anomalies watch --once -o json`: the
//!   array of its events). The format never changes on its own (piped or not).
//! - **Keys** are `snake_case`; nothing Cruise Control names in camelCase is passed through as a
//!   key (its concurrency caps are `maximum_concurrent_partition_movements_per_broker`, ...).
//!   Enumerated *values* (`"status":"nothing-to-do"`, `"type":"goal-violation"`) are
//!   kebab-case words; Cruise Control's own state names (`"executor_state":
//!   "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS"`) are kept as it spells them.
//! - **Units are in the name.** Durations are integer milliseconds named `_ms` (`elapsed_ms`,
//!   `eta_ms`, `duration_ms`); instants are integer milliseconds since the Unix epoch named
//!   `_at_ms` (`started_at_ms`, `observed_at_ms`, `expires_at_ms`); rates are bytes per second
//!   named `_bytes_per_second`; sizes are `_bytes`, except the data sizes Cruise Control
//!   computes, which stay in its megabytes (`data_to_move_mb`, floats); percentages are 0-100
//!   named `_pct`; everything else is a count.
//! - **Ids are numbers** (broker, node and partition ids, review ids); only ids that are not
//!   numbers where they come from stay strings (Cruise Control task ids and anomaly ids, which
//!   are UUIDs; journal ids).
//! - **The Cruise Control task** of a command that starts or follows one is at the top-level key
//!   `task_id` (`rebalance add|remove|full|imbalance --execute`, `rebalance status`, `status
//!   --task`, `stop`, `pace`); `topic set-rf`, which may start several, lists them in `task_ids`.
//! - **Progress is numbers** (`partitions_finished` of `partitions_total`, `adding_in_sync_count`
//!   of `adding_count`), never a sentence.
//! - Absent values are `null`, never `""` or `-1`; numbers Cruise Control sends as `NaN` are `null`.
//!
//! The exceptions: `journal show` prints the journal's lines as they were recorded (its own
//! format, `kafkaops-journal/1`, with RFC 3339 times), and `config view` prints settings as the
//! config file spells them.

pub mod journal;
pub mod journal_rotation;
pub mod prose;

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use comfy_table::Table;
use serde::Serialize;

pub mod table;
pub use prose::fit_prose;
pub use table::{
    Grid, Style, fit, human_bytes, human_mb, human_rate, new_table, paint_line, wrap_prose,
};

/// `--output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    #[default]
    Table,
    /// A table with every column, ids unshortened, not fitted to the terminal
    Wide,
    /// One JSON document (every command, streaming ones with `--once`)
    Json,
    /// One compact JSON object per line (NDJSON): the streaming commands' records
    Jsonl,
    Yaml,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to emit colour on a stream, honouring `NO_COLOR`.
    #[must_use]
    pub fn enabled(self, is_tty: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                is_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// Where and how a command prints.
#[derive(Debug, Clone)]
pub struct Printer {
    pub format: OutputFormat,
    pub color: bool,
    pub quiet: bool,
    /// Whether stderr is an interactive terminal (progress bars, prompts).
    pub interactive: bool,
    /// The width tables fit ([`table::terminal_width`]; `None`: not fitted).
    pub width: Option<u16>,
    /// `-o wide`: tables show every column (the format is then [`OutputFormat::Table`]).
    pub wide: bool,
    /// Whether lines on stderr (warnings) are coloured (`--color`, `NO_COLOR`, stderr a terminal).
    pub err_color: bool,
}

impl Printer {
    #[must_use]
    pub fn new(format: OutputFormat, color: ColorChoice, quiet: bool) -> Self {
        Self {
            format: match format {
                OutputFormat::Wide => OutputFormat::Table,
                f => f,
            },
            color: color.enabled(std::io::stdout().is_terminal()),
            quiet,
            interactive: std::io::stderr().is_terminal() && std::io::stdin().is_terminal(),
            width: table::terminal_width(),
            wide: format == OutputFormat::Wide,
            err_color: color.enabled(std::io::stderr().is_terminal()),
        }
    }

    /// How this printer's tables are drawn.
    #[must_use]
    pub fn style(&self) -> Style {
        Style {
            color: self.color,
            width: self.width,
            wide: self.wide,
        }
    }

    /// `t` fitted to the terminal ([`table::fit`]; no low-value columns named).
    #[must_use]
    pub fn fit(&self, t: Table) -> String {
        fit(t, self.style(), &[])
    }

    /// Prints `value` as JSON/YAML, or the table `table` builds from it.
    pub fn emit<T: Serialize>(
        &self,
        value: &T,
        table: impl FnOnce(&T) -> String,
    ) -> anyhow::Result<()> {
        let text = match self.format {
            OutputFormat::Json => {
                let mut s = serde_json::to_string_pretty(value)?;
                s.push('\n');
                s
            }
            OutputFormat::Jsonl => {
                let mut s = serde_json::to_string(value)?;
                s.push('\n');
                s
            }
            OutputFormat::Yaml => serde_yaml::to_string(value)?,
            OutputFormat::Table | OutputFormat::Wide => table(value),
        };
        write_stdout(&text)
    }

    /// `-o json` is one JSON document: a command that would stream records refuses it (the
    /// caller makes this a usage error) and names `-o jsonl`, one object per line.
    pub fn one_document(&self, command: &str) -> Result<(), String> {
        if self.format == OutputFormat::Json {
            return Err(format!(
                "`{command}` streams records: `-o json` is one document; use `-o jsonl` (one JSON object per line)"
            ));
        }
        Ok(())
    }

    /// Prints one record of a stream (`anomalies watch`, `health --watch`): a compact JSON
    /// object on one line (`-o jsonl`), a YAML document behind `---`, or the line `text` builds
    /// for people. Streaming commands refuse `-o json` ([`Printer::one_document`]).
    /// Each record is flushed at once so a reader (`| jq -c`) sees it as it happens.
    pub fn emit_record<T: Serialize>(
        &self,
        value: &T,
        text: impl FnOnce(&T) -> String,
    ) -> anyhow::Result<()> {
        write_stdout(&self.record(value, text)?)
    }

    /// The text [`Printer::emit_record`] writes.
    pub fn record<T: Serialize>(
        &self,
        value: &T,
        text: impl FnOnce(&T) -> String,
    ) -> anyhow::Result<String> {
        let mut s = match self.format {
            OutputFormat::Json | OutputFormat::Jsonl => serde_json::to_string(value)?,
            OutputFormat::Yaml => format!("---\n{}", serde_yaml::to_string(value)?),
            OutputFormat::Table | OutputFormat::Wide => text(value),
        };
        if !s.ends_with('\n') {
            s.push('\n');
        }
        Ok(s)
    }

    /// A status line for people (stderr), silenced by `-q` and in JSON/YAML mode it still
    /// goes to stderr so scripts can ignore it.
    /// Under `-q` the note still goes into the run's journal.
    pub fn note(&self, msg: impl std::fmt::Display) {
        if !self.quiet {
            stderr_line(paint_line(&msg.to_string(), self.err_color));
        } else if journal::is_open() {
            shown("stderr", &msg.to_string());
        }
    }

    /// A table with this printer's styling.
    #[must_use]
    pub fn table(&self) -> Table {
        new_table(self.style())
    }
}

/// Set once a write to stdout or stderr found the reader gone (`| head`).
static READER_GONE: AtomicBool = AtomicBool::new(false);

/// Whether the reader of stdout or stderr went away: commands that watch (`anomalies
/// watch`, `imbalance --watch`) end quietly at their next turn, as `tail -f | head` does.
pub fn reader_gone() -> bool {
    READER_GONE.load(Ordering::Relaxed)
}

/// Writes to stdout; a closed pipe (`| head`) is not an error, it is remembered
/// ([`reader_gone`]).
pub fn write_stdout(text: &str) -> anyhow::Result<()> {
    shown("stdout", text);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            READER_GONE.store(true, Ordering::Relaxed);
            Ok(())
        }
        other => Ok(other?),
    }
}

/// Writes to stderr and never panics (`eprint!` does when stderr is a closed pipe, as in
/// `kafkaops ... 2>&1 | head`); a closed pipe is remembered ([`reader_gone`]), any other
/// error is dropped: there is nowhere left to report it.
pub fn write_stderr(text: &str) {
    shown("stderr", text);
    let mut err = std::io::stderr().lock();
    if let Err(e) = err.write_all(text.as_bytes()).and_then(|()| err.flush())
        && e.kind() == std::io::ErrorKind::BrokenPipe
    {
        READER_GONE.store(true, Ordering::Relaxed);
    }
}

/// What the run showed goes into its journal, if it keeps one.
fn shown(stream: &str, text: &str) {
    if journal::is_open() {
        journal::record(journal::Event::Shown {
            stream: stream.into(),
            text: text.trim_end_matches('\n').into(),
        });
    }
}

/// [`write_stderr`] of one line.
pub fn stderr_line(msg: impl std::fmt::Display) {
    write_stderr(&format!("{msg}\n"));
}

/// Why a confirmation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    #[error(
        "{action}: refusing without confirmation because no terminal is attached; pass --yes to proceed"
    )]
    NotInteractive { action: String },
    #[error("{action}: not confirmed, nothing was changed")]
    Declined { action: String },
    #[error("prompt failed: {0}")]
    Io(String),
}

/// Asks before a destructive action unless `assume_yes`; refuses when nobody can answer.
/// The answer goes into the run's journal: confirmed (by the prompt or `--yes`) or not, and why.
pub fn confirm(action: &str, assume_yes: bool, interactive: bool) -> Result<(), PromptError> {
    let answer = ask(action, assume_yes, interactive);
    journal::record(match &answer {
        Ok(()) => journal::Event::Confirmed {
            action: action.into(),
            how: if assume_yes { "--yes" } else { "prompt" }.into(),
        },
        Err(e) => journal::Event::NotConfirmed {
            action: action.into(),
            why: e.to_string(),
        },
    });
    answer
}

fn ask(action: &str, assume_yes: bool, interactive: bool) -> Result<(), PromptError> {
    if assume_yes {
        return Ok(());
    }
    if !interactive {
        return Err(PromptError::NotInteractive {
            action: action.to_string(),
        });
    }
    let ok = dialoguer::Confirm::new()
        .with_prompt(format!("{action}?"))
        .default(false)
        .interact()
        .map_err(|e| PromptError::Io(e.to_string()))?;
    if ok {
        Ok(())
    } else {
        Err(PromptError::Declined {
            action: action.to_string(),
        })
    }
}

/// A progress bar on stderr that hides itself when stderr is not a terminal or `-q` is set.
#[must_use]
pub fn progress_bar(printer: &Printer, len: u64, what: &str) -> indicatif::ProgressBar {
    let pb = if printer.interactive && !printer.quiet {
        indicatif::ProgressBar::new(len)
    } else {
        indicatif::ProgressBar::hidden()
    };
    pb.set_style(progress_style(true));
    pb.set_prefix(what.to_string());
    pb
}

/// The bar's style: with the counts (`[====>   ] 3/9 msg`) or, when no total is known, the
/// message alone. No ETA of indicatif's own: the caller's message carries the one estimate.
#[must_use]
pub fn progress_style(counted: bool) -> indicatif::ProgressStyle {
    let template = if counted {
        "{spinner} {prefix} [{bar:30}] {pos}/{len} {msg}"
    } else {
        "{spinner} {prefix} {msg}"
    };
    indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_prompt_without_terminal_unless_yes() {
        assert!(confirm("Execute", true, false).is_ok());
        let err = confirm("Execute", false, false).unwrap_err();
        assert!(err.to_string().contains("--yes"));
    }

    #[test]
    fn records_stream_as_one_json_document_per_line() {
        #[derive(Serialize)]
        struct Ev {
            kind: &'static str,
            text: &'static str,
        }
        let p = |format| Printer {
            format,
            color: false,
            quiet: false,
            interactive: false,
            width: None,
            wide: false,
            err_color: false,
        };
        let ev = Ev {
            kind: "goal-violation",
            text: "two\nlines",
        };
        let json = p(OutputFormat::Jsonl)
            .record(&ev, |_| unreachable!())
            .unwrap();
        assert_eq!(json.matches('\n').count(), 1, "{json}");
        let back: serde_json::Value = serde_json::from_str(json.trim_end()).unwrap();
        assert_eq!(back["text"], "two\nlines");
        let yaml = p(OutputFormat::Yaml)
            .record(&ev, |_| unreachable!())
            .unwrap();
        assert!(yaml.starts_with("---\nkind: goal-violation\n"), "{yaml}");
        let table = p(OutputFormat::Table)
            .record(&ev, |e| format!("{} seen", e.kind))
            .unwrap();
        assert_eq!(table, "goal-violation seen\n");
        // `-o json` is one document: a stream refuses it and names `-o jsonl`.
        let refused = p(OutputFormat::Json)
            .one_document("anomalies watch")
            .unwrap_err();
        assert!(refused.contains("-o jsonl"), "{refused}");
        assert!(
            p(OutputFormat::Jsonl)
                .one_document("anomalies watch")
                .is_ok()
        );
    }

    #[test]
    fn color_never_and_always() {
        assert!(!ColorChoice::Never.enabled(true));
        assert!(ColorChoice::Always.enabled(false));
        assert!(!ColorChoice::Auto.enabled(false));
    }
}
