//! `kafkaops health`: one verdict (healthy, degraded, unavailable) with every reason, as a script
//! or a Kubernetes probe can use it (exit 0, 13, 14).
//!
//! The facts are read by [`crate::app::health`], the verdict is the engine's
//! ([`crate::engine::health`]); this resolves the arguments, loops for `--watch` and
//! `--exit-when-healthy`, and renders. Stalled reassignments need two looks: the loops keep
//! their samples in memory, the one-shot run in `health-progress-<bootstrap>.json` of the
//! state directory (`--state-dir`), compared with the run before it (`--stall-after`).
//!
//! `--output json`: `{"verdict":"healthy"|"degraded"|"unavailable","reasons":[{"kind",
//! "severity":"info"|"degraded"|"unavailable","subject"?,"partitions"?,"message","ignored"?}],
//! "observed_at_ms"}` (epoch ms); with `--watch -o jsonl`, one such object per line whenever the verdict or its reasons
//! change (an observation that failed is `{"error", "observed_at_ms"}`); `--watch -o json` (one
//! document) is refused.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::Ctx;
use crate::app::hold::Holds;
use crate::cli::health::HealthArgs;
use crate::engine::health::{HealthReport, IgnoreRule, ProgressTracker, Severity, evaluate};
use crate::error::{CliError, ExitCode};
use crate::kafka::KafkaClient;

#[derive(schemars::JsonSchema, Debug, Serialize, PartialEq)]
pub(crate) struct View {
    #[serde(flatten)]
    report: HealthReport,
    /// When the facts were read (epoch ms).
    observed_at_ms: u64,
}

#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct Failed {
    error: String,
    observed_at_ms: u64,
}

/// Now, in epoch ms (the JSON convention for instants).
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn render(v: &View) -> String {
    let r = &v.report;
    let counted = r.reasons.iter().filter(|x| !x.ignored).count();
    let mut s = format!(
        "{}: {}\n",
        r.verdict.as_str().to_uppercase(),
        if r.reasons.is_empty() {
            "nothing to report".to_string()
        } else {
            format!(
                "{} reason(s){}",
                r.reasons.len(),
                if counted == r.reasons.len() {
                    String::new()
                } else {
                    format!(", {} ignored", r.reasons.len() - counted)
                }
            )
        }
    );
    for x in &r.reasons {
        let sev = match x.severity {
            Severity::Info => "info",
            Severity::Degraded => "degraded",
            Severity::Unavailable => "unavailable",
        };
        s.push_str(&format!(
            "  [{sev}{}] {}: {}\n",
            if x.ignored { ", ignored" } else { "" },
            x.kind,
            x.message
        ));
    }
    s
}

/// Runs `health`.
pub async fn run(ctx: &Ctx, a: HealthArgs) -> Result<ExitCode, CliError> {
    let ignore = a
        .ignore
        .iter()
        .map(|s| IgnoreRule::parse(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::usage)?;
    if a.watch {
        ctx.printer
            .one_document("health --watch")
            .map_err(CliError::usage)?;
    }
    let kafka = crate::app::cordon::kafka(ctx.kafka_access()).await?;
    let at = ctx.holds().await?;
    if !a.watch && !a.exit_when_healthy {
        let file = sample_file(&kafka, &a);
        let mut tracker = load_samples(&file);
        let progress = (&mut tracker, a.stall_after);
        let view = observe(ctx, (&kafka, &at), &ignore, progress).await?;
        if let Err(e) = crate::state::file::save(&file, &tracker) {
            tracing::warn!("reassignment progress not kept for the next run: {e:#}");
        }
        ctx.printer.emit(&view, render)?;
        return Ok(crate::error_codes::health(view.report.verdict));
    }
    follow(ctx, (&kafka, &at), &a, &ignore).await
}

/// Where the one-shot `health` keeps its last sample of the reassignments in flight: the
/// state directory, one file per cluster (named after its bootstrap servers).
fn sample_file(kafka: &KafkaClient, a: &HealthArgs) -> std::path::PathBuf {
    a.state_dir
        .clone()
        .unwrap_or_else(crate::state::default_state_dir)
        .join(crate::state::file_name(
            "health-progress",
            &kafka.config().bootstrap_servers,
        ))
}

/// The samples of the run before (none when missing or unreadable: then nothing is judged
/// stalled this run, only sampled).
fn load_samples(file: &std::path::Path) -> ProgressTracker {
    match crate::state::file::load::<ProgressTracker>(file) {
        Ok(t) => t.unwrap_or_default(),
        Err(e) => {
            tracing::warn!("earlier reassignment progress not read: {e:#}");
            ProgressTracker::default()
        }
    }
}

/// The Kafka client and where the holds live.
type Cluster<'a> = (&'a KafkaClient, &'a Holds);

async fn observe(
    ctx: &Ctx,
    cluster: Cluster<'_>,
    ignore: &[IgnoreRule],
    progress: crate::app::health::Progress<'_>,
) -> anyhow::Result<View> {
    let facts = crate::app::health::facts_tracking(
        cluster,
        &ctx.settings.cruise_control,
        ctx.request_timeout(),
        Some(progress),
    )
    .await?;
    Ok(View {
        report: evaluate(&facts, ignore),
        observed_at_ms: now_ms(),
    })
}

/// `--watch` and/or `--exit-when-healthy`: observe every `--interval`; print each change
/// (`--watch`) and stop once healthy (`--exit-when-healthy`) or at Ctrl-C. A failed
/// observation is reported and retried.
async fn follow(
    ctx: &Ctx,
    cluster: Cluster<'_>,
    a: &HealthArgs,
    ignore: &[IgnoreRule],
) -> Result<ExitCode, CliError> {
    let printer = &ctx.printer;
    let deadline = a.exit_when_healthy.then(|| Instant::now() + a.timeout);
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    let mut last: Option<HealthReport> = None;
    let mut last_view: Option<View> = None;
    let mut last_error: Option<String> = None;
    // The samples of reassignments in flight, compared from one observation to the next.
    let mut tracker = ProgressTracker::default();
    if a.exit_when_healthy && !a.watch {
        printer.note(format!(
            "Waiting up to {} for the cluster to be healthy (observing every {})",
            humantime::format_duration(a.timeout),
            humantime::format_duration(a.interval)
        ));
    }
    loop {
        match observe(ctx, cluster, ignore, (&mut tracker, a.stall_after)).await {
            Ok(view) => {
                last_error = None;
                if last.as_ref() != Some(&view.report) {
                    say_change(printer, a, &view)?;
                }
                last = Some(view.report.clone());
                let healthy = view.report.verdict == crate::engine::health::Verdict::Healthy;
                if a.exit_when_healthy && healthy {
                    if !a.watch {
                        printer.emit(&view, render)?;
                    }
                    return Ok(ExitCode::Ok);
                }
                last_view = Some(view);
            }
            Err(e) => {
                let msg = format!("{e:#}");
                if last_error.as_ref() != Some(&msg) {
                    say_failure(printer, a, &msg)?;
                }
                last_error = Some(msg);
            }
        }
        let mut wait = a.interval;
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                if !a.watch
                    && let Some(v) = &last_view
                {
                    printer.emit(v, render)?;
                }
                return Err(not_healthy_in_time(a, last, last_error));
            }
            wait = wait.min(left);
        }
        tokio::select! {
            () = tokio::time::sleep(wait.max(Duration::from_millis(10))) => {}
            _ = &mut ctrl_c => {
                // --watch alone ends with the last verdict's code; a wait for health was cut short.
                return Ok(match last {
                    Some(r) if !a.exit_when_healthy => crate::error_codes::health(r.verdict),
                    _ => ExitCode::Interrupted,
                });
            }
        }
    }
}

/// A changed verdict while following: the whole view with `--watch`, else a note.
fn say_change(
    printer: &crate::output::Printer,
    a: &HealthArgs,
    view: &View,
) -> Result<(), CliError> {
    if a.watch {
        printer.emit_record(view, render)?;
    } else {
        printer.note(format!(
            "{}: {} reason(s) counted",
            view.report.verdict.as_str(),
            view.report
                .reasons
                .iter()
                .filter(|r| !r.ignored && r.severity != Severity::Info)
                .count()
        ));
    }
    Ok(())
}

/// A new observation failure while following: a record for scripts with `--watch -o json|yaml`,
/// else a note.
fn say_failure(
    printer: &crate::output::Printer,
    a: &HealthArgs,
    msg: &str,
) -> Result<(), CliError> {
    if a.watch && printer.format != crate::output::OutputFormat::Table {
        printer.emit_record(
            &Failed {
                error: msg.to_string(),
                observed_at_ms: now_ms(),
            },
            |f| f.error.clone(),
        )?;
    } else {
        printer.note(format!("Cannot observe the cluster: {msg}; retrying"));
    }
    Ok(())
}

/// `--exit-when-healthy` ran out of time: exit 3, with the last verdict or failure.
fn not_healthy_in_time(
    a: &HealthArgs,
    last: Option<HealthReport>,
    last_error: Option<String>,
) -> CliError {
    CliError::new(
        ExitCode::Timeout,
        anyhow::anyhow!(
            "the cluster was not healthy within {}{}",
            humantime::format_duration(a.timeout),
            last.map(|r| format!(" (last verdict: {})", r.verdict.as_str()))
                .or_else(|| last_error.map(|e| format!(" (last observation failed: {e})")))
                .unwrap_or_default()
        ),
    )
}
