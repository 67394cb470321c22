//! Rendering: tables for people, JSON/YAML for scripts, prompts and progress.
//!
//! Only data goes to stdout; logs and progress go to stderr so that
//! `kafkaops ... --output json | jq` always sees a clean document. Commands
//! build a serializable value and a table renderer and hand both to [`Printer`];
//! they never pick a format themselves.

pub mod journal;
pub mod journal_rotation;

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use comfy_table::Table;
use serde::Serialize;

pub mod table;
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
    Json,
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
            OutputFormat::Yaml => serde_yaml::to_string(value)?,
            OutputFormat::Table | OutputFormat::Wide => table(value),
        };
        write_stdout(&text)
    }

    /// Prints one record of a stream (`anomalies watch`, `operate` events): a compact JSON
    /// document on one line, a YAML document behind `---`, or the line `text` builds for people.
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
            OutputFormat::Json => serde_json::to_string(value)?,
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
        let json = p(OutputFormat::Json)
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
    }

    #[test]
    fn color_never_and_always() {
        assert!(!ColorChoice::Never.enabled(true));
        assert!(ColorChoice::Always.enabled(false));
        assert!(!ColorChoice::Auto.enabled(false));
    }
}
