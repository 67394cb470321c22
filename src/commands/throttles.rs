//! `kafkaops throttles list|clear`: the replication throttles set on the cluster, whether
//! anything moving needs them, and removing them.
//!
//! The reads and writes are [`crate::app::throttles`], the rules
//! [`crate::engine::throttles`]; this resolves the arguments, previews, confirms and renders.
//!
//! `--output json` of `list`: `{"movement":{"reassignments":N,"cruise_control":{"state",
//! "detail"?}},"throttles":[{"target":{"kind":"broker"|"broker-default"|"topic","name"?},"key",
//! "value","need":"unused"|"in-use"|"unknown","reason"?}]}`; of `clear`: `{"dry_run","cleared":
//! [throttle],"failed":{target: error},"left":[throttle]}`.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

use super::Ctx;
use crate::cli::throttles::{ClearArgs, ThrottlesCommand};
use crate::engine::throttles::{CcMovement, Movement, Need, Throttle, need, plan_clear};
use crate::error::{CliError, ExitCode};
use crate::kafka::KafkaClient;
use crate::output::confirm;

/// How long `clear` reads the configs back until they are gone.
const SETTLE: Duration = Duration::from_secs(30);

/// Runs a `throttles` subcommand.
pub async fn run(ctx: &Ctx, cmd: ThrottlesCommand) -> Result<ExitCode, CliError> {
    match cmd {
        ThrottlesCommand::List => list(ctx).await,
        ThrottlesCommand::Clear(a) => clear(ctx, &a).await,
    }
}

#[derive(schemars::JsonSchema, Debug, Serialize)]
struct Row {
    #[serde(flatten)]
    throttle: Throttle,
    #[serde(flatten)]
    need: Need,
}

#[derive(schemars::JsonSchema, Debug, Serialize)]
struct MovementView {
    reassignments: usize,
    cruise_control: CcMovement,
}

#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct ListView {
    movement: MovementView,
    throttles: Vec<Row>,
}

fn movement_view(m: &Movement) -> MovementView {
    MovementView {
        reassignments: m.reassignments.len(),
        cruise_control: m.cruise_control.clone(),
    }
}

fn movement_line(m: &MovementView) -> String {
    let cc = match &m.cruise_control {
        CcMovement::NotConfigured => "no Cruise Control configured".to_string(),
        CcMovement::Unknown(e) => format!("Cruise Control's state unknown ({e})"),
        CcMovement::Idle => "Cruise Control idle".to_string(),
        CcMovement::Executing(w) => format!("Cruise Control executing: {w}"),
    };
    format!(
        "Moving: {} partition reassignment(s) in flight; {cc}.\n",
        m.reassignments
    )
}

fn table(rows: &[Row], style: crate::output::Style) -> String {
    let mut t = crate::output::new_table(style);
    t.set_header(vec!["where", "config", "value", "needed"]);
    for r in rows {
        t.add_row(vec![
            r.throttle.target.to_string(),
            r.throttle.key.clone(),
            r.throttle.value.clone(),
            match &r.need {
                Need::Unused => "no (leftover)".to_string(),
                Need::InUse(why) => format!("yes: {why}"),
                Need::Unknown(why) => format!("maybe: {why}"),
            },
        ]);
    }
    format!("{}\n", crate::output::fit(t, style, &[]))
}

fn render_list(v: &ListView, style: crate::output::Style) -> String {
    let mut s = movement_line(&v.movement);
    if v.throttles.is_empty() {
        s.push_str("No replication throttle is set.\n");
    } else {
        s.push_str(&table(&v.throttles, style));
    }
    s
}

async fn read(ctx: &Ctx) -> Result<(KafkaClient, Vec<Throttle>, Movement), CliError> {
    let kafka = crate::app::cordon::kafka(ctx.kafka_access()).await?;
    let throttles = crate::app::throttles::read(&kafka).await?;
    let movement = crate::app::throttles::movement(
        &kafka,
        &ctx.settings.cruise_control,
        ctx.request_timeout(),
    )
    .await?;
    Ok((kafka, throttles, movement))
}

async fn list(ctx: &Ctx) -> Result<ExitCode, CliError> {
    let (_kafka, throttles, movement) = read(ctx).await?;
    let view = ListView {
        movement: movement_view(&movement),
        throttles: throttles
            .iter()
            .map(|t| Row {
                throttle: t.clone(),
                need: need(t, &movement),
            })
            .collect(),
    };
    ctx.printer
        .emit(&view, |v| render_list(v, ctx.printer.style()))?;
    Ok(ExitCode::Ok)
}

#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct ClearView {
    dry_run: bool,
    cleared: Vec<Throttle>,
    /// Resources whose change Kafka refused, with its error.
    failed: BTreeMap<String, String>,
    /// Throttles still read back after the change.
    left: Vec<Throttle>,
}

fn render_clear(v: &ClearView, style: crate::output::Style) -> String {
    if v.cleared.is_empty() {
        return "No replication throttle is set: nothing to clear.\n".into();
    }
    let rows: Vec<Row> = v
        .cleared
        .iter()
        .map(|t| Row {
            throttle: t.clone(),
            need: Need::Unused,
        })
        .collect();
    let mut s = table(&rows, style);
    if v.dry_run {
        s.push_str("Dry run: nothing was changed. Re-run with --execute to remove these.\n");
        return s;
    }
    for (target, e) in &v.failed {
        s.push_str(&format!("{target}: not changed: {e}\n"));
    }
    for t in &v.left {
        s.push_str(&format!("{} {} is still set\n", t.target, t.key));
    }
    if v.failed.is_empty() && v.left.is_empty() {
        s.push_str(&format!(
            "Removed {} throttle config(s); read back: none is set.\n",
            v.cleared.len()
        ));
    }
    s
}

async fn clear(ctx: &Ctx, a: &ClearArgs) -> Result<ExitCode, CliError> {
    let (kafka, throttles, movement) = read(ctx).await?;
    let printer = &ctx.printer;
    // Refused (exit 5) while a movement uses them, dry run or not: the preview says the same.
    let chosen = plan_clear(&throttles, &movement, a.force).map_err(anyhow::Error::from)?;
    let in_use = chosen
        .iter()
        .filter(|t| !need(t, &movement).is_unused())
        .count();
    let mut view = ClearView {
        dry_run: !a.execute,
        cleared: chosen,
        failed: BTreeMap::new(),
        left: Vec::new(),
    };
    if view.cleared.is_empty() || !a.execute {
        printer.emit(&view, |v| render_clear(v, printer.style()))?;
        return Ok(ExitCode::Ok);
    }
    if in_use > 0 {
        printer.note(format!(
            "Warning: --force: {in_use} of them may be in use by a movement ({}), which then runs \
             unthrottled",
            movement_line(&movement_view(&movement)).trim_end()
        ));
    }
    confirm(
        &format!(
            "Remove {} replication throttle config(s) ({})",
            view.cleared.len(),
            view.cleared
                .iter()
                .map(|t| format!("{} {}", t.target, t.key))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ctx.global.yes,
        printer.interactive,
    )?;
    let (failed, left) = crate::app::throttles::clear(&kafka, &view.cleared, SETTLE).await?;
    view.failed = failed;
    view.left = left;
    printer.emit(&view, |v| render_clear(v, printer.style()))?;
    Ok(if view.failed.is_empty() && view.left.is_empty() {
        ExitCode::Ok
    } else {
        ExitCode::Incomplete
    })
}
