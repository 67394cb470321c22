//! `kafkaops journal list|show|bundle`: the journals of past runs, read back.

use std::path::PathBuf;

use serde::Serialize;

use crate::cli::journal::{BundleArgs, JournalCommand, JournalDir};
use crate::error::{CliError, ExitCode};
use crate::output::journal::{Entry, Event};

use super::Ctx;

/// The state directory the journals are in: `--state-dir`, `KAFKAOPS_STATE_DIR`, else the
/// default.
fn state_dir(d: &JournalDir) -> PathBuf {
    d.state_dir
        .clone()
        .unwrap_or_else(crate::state::default_state_dir)
}

/// `journal show -o json`: the journal's id and its lines as they were recorded (their own
/// format, `kafkaops.journal.v1`: `at` is RFC 3339; `schemas/journal-show.json`).
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ShowView {
    id: String,
    events: Vec<Entry>,
}

/// Runs `journal ...`.
pub async fn run(ctx: &Ctx, cmd: JournalCommand) -> Result<ExitCode, CliError> {
    match cmd {
        JournalCommand::List(d) => {
            let list = crate::app::journal::list(&state_dir(&d)).map_err(anyhow::Error::from)?;
            ctx.printer.emit(&list, |l| render_list(ctx, l))?;
        }
        JournalCommand::Show(a) => {
            let (id, entries) =
                crate::app::journal::show(&state_dir(&a.dir), &a.id).map_err(|e| match e {
                    crate::state::journal::JournalError::NotFound { .. }
                    | crate::state::journal::JournalError::BadId(_) => CliError::usage(e),
                    e => CliError::from(anyhow::Error::from(e)),
                })?;
            let doc = ShowView {
                id,
                events: entries,
            };
            ctx.printer.emit(&doc, |d| render_show(&d.id, &d.events))?;
        }
        JournalCommand::Bundle(a) => bundle(ctx, &a).await?,
    }
    Ok(ExitCode::Ok)
}

async fn bundle(ctx: &Ctx, a: &BundleArgs) -> Result<(), CliError> {
    let dir = state_dir(&a.dir);
    let out = a.output_file.clone().unwrap_or_else(|| {
        let t = crate::output::journal::new_id(std::time::SystemTime::now());
        PathBuf::from(format!("kafkaops-bundle-{t}.tar.gz"))
    });
    ctx.printer.note("Taking a health snapshot of the cluster");
    let holds = ctx.holds().await?;
    let health = crate::app::journal::health_snapshot(
        ctx.kafka_access(),
        &holds,
        &ctx.settings.cruise_control,
        a.health_timeout,
    )
    .await;
    if let Some(e) = &health.error {
        ctx.printer
            .note(format!("No health snapshot in the bundle: {e}"));
    }
    let b = crate::app::journal::bundle(&dir, &health, &super::known_secrets(&ctx.settings), &out)?;
    ctx.printer.emit(&b, |b| {
        format!(
            "Wrote {} ({} journal(s), {})\n",
            b.path,
            b.journals,
            if b.health {
                "with a health snapshot"
            } else {
                "without a health snapshot"
            }
        )
    })?;
    Ok(())
}

fn render_list(ctx: &Ctx, list: &[crate::app::journal::Summary]) -> String {
    if list.is_empty() {
        return "No journals.\n".into();
    }
    let mut t = ctx.printer.table();
    t.set_header(["ID", "COMMAND", "STARTED", "DURATION", "OUTCOME"]);
    for s in list {
        t.add_row([
            s.id.clone(),
            s.command.clone(),
            s.started.clone(),
            s.duration_ms.map_or_else(|| "-".into(), duration),
            s.outcome.clone(),
        ]);
    }
    format!("{t}\n")
}

/// One line (or block) per event, for people.
fn render_show(id: &str, entries: &[Entry]) -> String {
    let mut s = format!("Journal {id}\n");
    for e in entries {
        let time = e.at.get(11..23).unwrap_or(&e.at);
        let line = match &e.event {
            Event::Start {
                command, args, yes, ..
            } => format!(
                "start     {command}: {}{}",
                args.join(" "),
                if *yes {
                    " (--yes: no questions asked)"
                } else {
                    ""
                }
            ),
            Event::Shown { stream, text } => {
                let body: Vec<String> = text.lines().map(|l| format!("    | {l}")).collect();
                format!("shown     ({stream})\n{}", body.join("\n"))
            }
            Event::Confirmed { action, how } => format!("confirmed {action} (by {how})"),
            Event::NotConfirmed { action, why } => format!("declined  {action}: {why}"),
            Event::Request {
                system,
                request,
                answer,
                ms,
            } => format!(
                "request   {system}: {request} -> {}{}",
                first_line(answer),
                ms.map(|m| format!(" ({m} ms)")).unwrap_or_default()
            ),
            Event::Log { level, message, .. } => format!("{:<9} {message}", level.to_lowercase()),
            Event::End {
                exit_code,
                outcome,
                error,
                duration_ms,
            } => format!(
                "end       {outcome} (exit {exit_code}) after {}{}",
                duration(*duration_ms),
                error.as_ref().map(|e| format!(": {e}")).unwrap_or_default()
            ),
        };
        s.push_str(&format!("{time} {line}\n"));
    }
    s
}

/// A duration for people: milliseconds under a second, else whole seconds.
fn duration(ms: u64) -> String {
    let d = if ms < 1000 {
        std::time::Duration::from_millis(ms)
    } else {
        std::time::Duration::from_secs((ms + 500) / 1000)
    };
    humantime::format_duration(d).to_string()
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    if line.len() > 200 || text.lines().nth(1).is_some() {
        let mut cut = line.len().min(200);
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{} [...]", &line[..cut])
    } else {
        line.to_string()
    }
}
