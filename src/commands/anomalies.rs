//! `kafkaops anomalies watch`: what Cruise Control's anomaly detector finds, as it finds it.
//!
//! Cruise Control has no push channel for anomalies: they are only visible by polling
//! `GET /state?substates=anomaly_detector`, which holds at most 10 recent entries per type in no
//! order, re-detects the same violation under a new id every interval and forgets everything on
//! a restart (reference §13). This command polls, turns the lists into content-keyed records and
//! lets the pure [`WatchTracker`] decide what is new: an anomaly is printed once when its content
//! first appears and again when its status changes, never again because of a new id or a restart.
//!
//! Output: on a terminal a live table of every anomaly seen, redrawn after each poll with a
//! connection line; piped (or `-o json`) one [`WatchEvent`] JSON object per line, flushed at once;
//! `-o yaml` one YAML document per event. Losing Cruise Control is not fatal: the watcher says it
//! is disconnected (stderr and the table), retries with backoff
//! ([`crate::engine::anomalies::poll_delay_ms`]) and says when it is back. Only refused
//! credentials, TLS and configuration errors end it (exit 6 / 2). `--exit-on TYPE` ends it with
//! exit code 10 when an anomaly of that type appears (after printing it); `--once` prints the
//! current anomalies and exits.
//!
//! JSON line (stable): `{"event":"new"|"status-changed","previous_status":str|null,"type":
//! "goal-violation"|"broker-failure"|"disk-failure"|"metric-anomaly"|"topic-anomaly"|
//! "maintenance-event","anomaly_id","status","detected_at_ms","status_updated_at_ms",
//! "fixable_goals":[..],"unfixable_goals":[..],"failed_brokers":{"id":ms},"failed_disks":
//! {"broker:logdir":ms},"description":str|null,"fixable":bool|null}`.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::Ctx;
use super::shared::observe::CliObserver;
use crate::app::anomalies::{details, time_of};
use crate::cli::anomalies::{AnomaliesCommand, WatchArgs};
use crate::cruise_control::convert::anomaly_records as records;
use crate::cruise_control::error::{ErrorClass, Permanent};
use crate::cruise_control::params::Substate;
use crate::cruise_control::retry::Backoff;
use crate::cruise_control::{CcError, CruiseControlClient};
use crate::engine::anomalies::{
    AnomalyKey, AnomalyRecord, AnomalyType, WatchEvent, WatchEventKind, WatchFilter, WatchTracker,
    poll_delay_ms,
};
use crate::error::{CliError, ExitCode};
use crate::output::{OutputFormat, Printer, write_stdout};

/// Runs an `anomalies` subcommand.
pub async fn run(ctx: &Ctx, cmd: AnomaliesCommand) -> Result<ExitCode, CliError> {
    match cmd {
        AnomaliesCommand::Watch(a) => watch(ctx, &a).await,
    }
}

/// How the stream is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    /// A table redrawn after every poll (a terminal).
    Live,
    /// One record per event (JSON lines when piped, YAML documents with `-o yaml`).
    Records,
}

/// Whether a failed poll is an outage to wait out (Cruise Control restarting, unreachable,
/// overloaded) or a mistake that waiting does not fix.
fn is_outage(e: &CcError) -> bool {
    match e {
        CcError::Auth { .. }
        | CcError::Tls { .. }
        | CcError::HttpsExpected { .. }
        | CcError::NoApi { .. }
        | CcError::Config(_) => false,
        CcError::Api { class, status, .. } => {
            !matches!(
                class,
                ErrorClass::Permanent(Permanent::BadRequest | Permanent::Unauthorized)
            ) && *status != 404
        }
        _ => true,
    }
}

fn epoch_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// One event as a line for people.
#[must_use]
pub fn render_event(e: &WatchEvent) -> String {
    let r = &e.anomaly;
    let what = match (&e.event, &e.previous_status) {
        (WatchEventKind::StatusChanged, Some(p)) => format!("{p} -> {}", r.status),
        _ => r.status.clone(),
    };
    format!(
        "{} {} {} ({}): {} [id {}]",
        time_of(r.detected_at_ms),
        r.kind.name(),
        what,
        match e.event {
            WatchEventKind::New => "new",
            WatchEventKind::StatusChanged => "status changed",
        },
        details(r),
        r.anomaly_id
    )
}

/// The live table: every anomaly content seen (latest detection), plus the connection line.
pub(crate) fn render_live(
    seen: &BTreeMap<AnomalyKey, AnomalyRecord>,
    connection: &str,
    style: crate::output::Style,
) -> String {
    let mut out = String::new();
    out.push_str(connection);
    out.push('\n');
    if seen.is_empty() {
        out.push_str("No anomalies reported.\n");
        return out;
    }
    let mut t = crate::output::Grid::new(
        style,
        ["type", "status", "detected", "details", "latest id"],
    )
    .ids(&[4])
    .low_value(&[4, 2]);
    for r in seen.values() {
        t.row([
            r.kind.name().to_string(),
            r.status.clone(),
            time_of(r.detected_at_ms),
            details(r),
            r.anomaly_id.clone(),
        ]);
    }
    out.push_str(&t.render());
    out.push('\n');
    crate::output::wrap_prose(&out, style)
}

struct Watcher<'a> {
    printer: &'a Printer,
    view: View,
    url: String,
    filter: WatchFilter,
    tracker: WatchTracker,
    /// For the live table: the latest record of every content shown.
    seen: BTreeMap<AnomalyKey, AnomalyRecord>,
}

impl Watcher<'_> {
    /// Prints what one successful poll brought; returns the events that passed the filters.
    fn show(&mut self, all: &[AnomalyRecord], connection: &str) -> anyhow::Result<Vec<WatchEvent>> {
        let events: Vec<WatchEvent> = self
            .tracker
            .observe(all)
            .into_iter()
            .filter(|e| self.filter.accepts(&e.anomaly))
            .collect();
        for e in &events {
            self.seen.insert(e.anomaly.key(), e.anomaly.clone());
        }
        // Keep the table's rows current (statuses of re-detections, ids).
        for (k, r) in crate::engine::anomalies::latest_by_content(all) {
            if let Some(row) = self.seen.get_mut(&k) {
                *row = r;
            }
        }
        match self.view {
            View::Live => self.redraw(connection)?,
            View::Records => {
                for e in &events {
                    self.printer.emit_record(e, render_event)?;
                }
            }
        }
        Ok(events)
    }

    fn redraw(&self, connection: &str) -> anyhow::Result<()> {
        // Clear the screen and draw from the top: a table that stays current.
        let text = render_live(&self.seen, connection, self.printer.style());
        write_stdout(&format!("\x1b[H\x1b[2J{text}"))
    }
}

/// The engine's anomaly type for the one the command line names.
fn anomaly_type(t: crate::cli::anomalies::AnomalyType) -> AnomalyType {
    use crate::cli::anomalies::AnomalyType as Arg;
    match t {
        Arg::GoalViolation => AnomalyType::GoalViolation,
        Arg::BrokerFailure => AnomalyType::BrokerFailure,
        Arg::DiskFailure => AnomalyType::DiskFailure,
        Arg::MetricAnomaly => AnomalyType::MetricAnomaly,
        Arg::TopicAnomaly => AnomalyType::TopicAnomaly,
        Arg::MaintenanceEvent => AnomalyType::MaintenanceEvent,
    }
}

/// A client that does not retry a failed poll itself: the watch loop backs off and says it is
/// disconnected instead of hanging in the client's retries (only the active-task limit, which
/// frees within seconds, is still waited for).
fn watch_client(ctx: &Ctx, interval: Duration) -> Result<CruiseControlClient, CliError> {
    let no_retry = Duration::from_secs(24 * 3600);
    Ok(crate::app::clients::cruise_control(
        &ctx.settings.cruise_control,
        crate::app::clients::CcOptions {
            poll_interval: Some(interval.max(Duration::from_millis(100))),
            backoff: Some(Backoff {
                initial: no_retry,
                max: no_retry,
                ..Backoff::default()
            }),
        },
    )?)
}

async fn poll(
    cc: &CruiseControlClient,
    timeout: Duration,
    obs: &CliObserver,
) -> Result<Vec<AnomalyRecord>, CcError> {
    let state = cc
        .state(
            &[Substate::AnomalyDetector],
            false,
            Instant::now() + timeout,
            obs,
        )
        .await?;
    Ok(records(&state.anomaly_detector.unwrap_or_default()))
}

async fn watch(ctx: &Ctx, a: &WatchArgs) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = watch_client(ctx, a.interval)?;
    let terminal = std::io::stdout().is_terminal();
    let view = match printer.format {
        OutputFormat::Table if terminal && !a.once => View::Live,
        _ => View::Records,
    };
    // Piped table output is one JSON object per line (a table cannot be appended to).
    let mut record_printer = printer.clone();
    if printer.format == OutputFormat::Table && !terminal {
        record_printer.format = OutputFormat::Json;
    }
    let mut w = Watcher {
        printer: &record_printer,
        view,
        url: cc.url().to_string(),
        filter: WatchFilter {
            types: a.types.iter().copied().map(anomaly_type).collect(),
            statuses: a.statuses.iter().map(|s| s.trim().to_uppercase()).collect(),
        },
        tracker: WatchTracker::new(),
        seen: BTreeMap::new(),
    };
    let interval_ms = u64::try_from(a.interval.as_millis()).unwrap_or(u64::MAX);
    let max_ms = u64::try_from(a.max_backoff.as_millis()).unwrap_or(u64::MAX);
    // One request may take up to the interval (at least 10 s), retries included.
    let request_timeout = a.interval.max(Duration::from_secs(10));
    let mut failures: u32 = 0;
    let mut disconnected_since: Option<i64> = None;
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        // The reader went away (`| head`): end quietly, as `tail -f | head` does.
        if crate::output::reader_gone() {
            return Ok(ExitCode::Ok);
        }
        match poll(&cc, request_timeout, &obs).await {
            Ok(all) => {
                if let Some(since) = disconnected_since.take() {
                    printer.note(format!(
                        "Reconnected to Cruise Control at {} (disconnected since {}); anomalies already shown are not repeated",
                        w.url,
                        time_of(Some(since))
                    ));
                }
                failures = 0;
                let connection = format!(
                    "Cruise Control anomalies at {}: connected, last poll {} (every {}; Ctrl-C to stop)",
                    w.url,
                    time_of(Some(epoch_ms())),
                    humantime::format_duration(a.interval)
                );
                let events = w.show(&all, &connection)?;
                if let Some(hit) = events.iter().find(|e| {
                    e.event == WatchEventKind::New
                        && a.exit_on.iter().any(|t| anomaly_type(*t) == e.anomaly.kind)
                }) {
                    printer.note(format!(
                        "A {} anomaly appeared (id {}); exiting with code {} (--exit-on)",
                        hit.anomaly.kind.name(),
                        hit.anomaly.anomaly_id,
                        ExitCode::AnomalyFound.code()
                    ));
                    return Ok(ExitCode::AnomalyFound);
                }
                if a.once {
                    // Table mode says there is nothing (stderr), piped too; JSON/YAML print
                    // nothing for nothing (#25 point 8).
                    if view == View::Records
                        && printer.format == OutputFormat::Table
                        && events.is_empty()
                    {
                        printer.note("No anomalies reported.");
                    }
                    return Ok(ExitCode::Ok);
                }
            }
            Err(e) if !a.once && is_outage(&e) => {
                failures += 1;
                let since = *disconnected_since.get_or_insert_with(epoch_ms);
                let retry_in = Duration::from_millis(poll_delay_ms(interval_ms, failures, max_ms));
                let msg = format!(
                    "DISCONNECTED from Cruise Control at {} since {}: {e}; retrying in {}",
                    w.url,
                    time_of(Some(since)),
                    humantime::format_duration(retry_in)
                );
                if w.view == View::Live {
                    w.redraw(&msg)?;
                } else {
                    printer.note(&msg);
                }
                tokio::select! {
                    () = tokio::time::sleep(retry_in) => {}
                    _ = &mut ctrl_c => return Ok(ExitCode::Ok),
                }
                continue;
            }
            Err(e) => return Err(e.into()),
        }
        tokio::select! {
            () = tokio::time::sleep(a.interval) => {}
            _ = &mut ctrl_c => return Ok(ExitCode::Ok),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_table_lists_every_content_with_its_details() {
        let gv = AnomalyRecord {
            kind: AnomalyType::GoalViolation,
            anomaly_id: "id-1".into(),
            status: "IGNORED".into(),
            detected_at_ms: Some(0),
            status_updated_at_ms: Some(0),
            fixable_goals: vec![],
            unfixable_goals: vec!["RackAwareGoal".into()],
            failed_brokers: BTreeMap::new(),
            failed_disks: BTreeMap::new(),
            description: None,
        };
        let mut bf = gv.clone();
        bf.kind = AnomalyType::BrokerFailure;
        bf.unfixable_goals.clear();
        bf.failed_brokers.insert(3, 1_000);
        let seen: BTreeMap<AnomalyKey, AnomalyRecord> =
            [gv, bf].into_iter().map(|r| (r.key(), r)).collect();
        let text = render_live(&seen, "connected", crate::output::Style::PLAIN);
        assert!(text.starts_with("connected\n"), "{text}");
        assert!(
            text.contains(
                "fixable: (none); unfixable: RackAwareGoal (Cruise Control cannot fix it)"
            ),
            "{text}"
        );
        assert!(
            text.contains("broker 3 since 1970-01-01T00:00:01Z"),
            "{text}"
        );
        assert!(
            render_live(&BTreeMap::new(), "x", crate::output::Style::PLAIN)
                .contains("No anomalies reported.")
        );
    }

    #[test]
    fn outages_are_waited_out_and_mistakes_are_not() {
        assert!(is_outage(&CcError::Unreachable {
            url: "u".into(),
            detail: "refused".into(),
            connect: true
        }));
        assert!(!is_outage(&CcError::Auth {
            url: "u".into(),
            status: 401,
            what: crate::cruise_control::error::AuthFailure::Refused { user: "u".into() }
        }));
        assert!(is_outage(&CcError::Api {
            endpoint: "state".into(),
            status: 500,
            message: "There are already 5 active user tasks".into(),
            class: crate::cruise_control::error::classify(
                500,
                "There are already 5 active user tasks"
            ),
        }));
        assert!(!is_outage(&CcError::Api {
            endpoint: "state".into(),
            status: 400,
            message: "Unsupported substates".into(),
            class: crate::cruise_control::error::classify(400, "Unsupported substates"),
        }));
    }

    /// Issue #26: the live table at 80 and 160 columns, within the width (ids shortened or
    /// dropped before anything wraps); `-o wide` is the whole table.
    #[test]
    fn the_live_table_fits_80_and_160_columns() {
        use crate::output::Style;
        use crate::output::table::{assert_fits, at};
        for width in [80, 160] {
            let text = anomalies_text(at(width));
            assert_fits(&text, width);
            insta::assert_snapshot!(format!("anomalies_{width}"), text);
        }
        let wide = anomalies_text(Style {
            wide: true,
            ..at(80)
        });
        assert_eq!(wide, anomalies_text(Style::PLAIN));
        assert!(
            wide.contains("7c9e6679-7425-40de-944b-e07fc1f90ae7"),
            "{wide}"
        );
    }

    fn anomalies_text(style: crate::output::Style) -> String {
        let record = |kind, id: &str, status: &str| AnomalyRecord {
            kind,
            anomaly_id: id.into(),
            status: status.into(),
            detected_at_ms: Some(1_795_356_000_000),
            status_updated_at_ms: Some(1_795_356_060_000),
            fixable_goals: if kind == AnomalyType::GoalViolation {
                vec![
                    "ReplicaDistributionGoal".into(),
                    "LeaderReplicaDistributionGoal".into(),
                ]
            } else {
                Vec::new()
            },
            unfixable_goals: Vec::new(),
            failed_brokers: if kind == AnomalyType::BrokerFailure {
                [(3, 1_795_355_990_000)].into_iter().collect()
            } else {
                BTreeMap::new()
            },
            failed_disks: BTreeMap::new(),
            description: None,
        };
        let seen: BTreeMap<_, _> = [
            record(
                AnomalyType::GoalViolation,
                "7c9e6679-7425-40de-944b-e07fc1f90ae7",
                "FIX_STARTED",
            ),
            record(
                AnomalyType::BrokerFailure,
                "16fd2706-8baf-433b-82eb-8c7fada847da",
                "CHECK_WITH_DELAY",
            ),
        ]
        .into_iter()
        .map(|r| (r.key(), r))
        .collect();
        render_live(
            &seen,
            "Cruise Control anomalies at http://cruise-control.kafka.svc:9090/kafkacruisecontrol: connected, last poll 2026-11-22T14:01:00Z (every 10s; Ctrl-C to stop)",
            style,
        )
    }
}
