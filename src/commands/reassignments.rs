//! `kafkaops reassignments list|cancel`: the reassignments in flight, and cancelling them.
//!
//! Why: Cruise Control refuses to execute while reassignments it did not start are in flight
//! ("Cannot execute new proposals while there are ongoing partition reassignments initiated by
//! external agent"), or with `auto.stop.external.agent=true` cancels them without a word.
//! Either way the operator should see them first, with who started them and how far they
//! got, and decide: wait, or cancel them here. Reads come from the Kafka Admin API (the wire
//! path: librdkafka has no ListPartitionReassignments); whether Cruise Control is executing
//! comes from its `state` endpoint. The decisions are in [`crate::engine::movers`]; reading them
//! and the check that runs before every Cruise Control execution (`rebalance ... --execute`,
//! `topic set-rf --execute`) are in [`crate::app::guards`], shared with the other commands.

use std::collections::BTreeMap;

use anyhow::Context;
use serde::Serialize;

use super::Ctx;
use crate::app::guards;
use crate::cli::reassignments::{CancelArgs, ReassignmentsCommand};
use crate::engine::movers::{self, ExecutorView, ReassignmentView};
use crate::error::{CliError, ExitCode};
use crate::kafka::KafkaClient;
use crate::output::confirm;

/// Runs a `reassignments` subcommand.
pub async fn run(ctx: &Ctx, cmd: ReassignmentsCommand) -> Result<ExitCode, CliError> {
    match cmd {
        ReassignmentsCommand::List => list(ctx).await,
        ReassignmentsCommand::Cancel(a) => cancel(ctx, a).await,
    }
}

/// Connects to Kafka (the reassignments are read there).
async fn kafka(ctx: &Ctx) -> Result<KafkaClient, CliError> {
    Ok(guards::kafka(&ctx.settings, ctx.request_timeout()).await?)
}

/// What Cruise Control's executor is doing; `Unknown` without a configured or reachable CC.
async fn executor_view(ctx: &Ctx) -> ExecutorView {
    guards::executor_view(&ctx.settings.cruise_control, ctx.request_timeout()).await
}

/// `reassignments list` output.
#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct ListView {
    reassignments: Vec<Row>,
}

#[derive(schemars::JsonSchema, Debug, Serialize)]
struct Row {
    #[serde(flatten)]
    view: ReassignmentView,
    /// How many of the replicas being added are in sync (a number; `progress` of the table).
    adding_in_sync_count: usize,
    /// How many replicas are being added.
    adding_count: usize,
    /// The table's text ("1/2 new replicas in sync").
    #[serde(skip)]
    progress: String,
}

fn rows(views: &[ReassignmentView]) -> Vec<Row> {
    views
        .iter()
        .map(|v| Row {
            adding_in_sync_count: v.adding_in_sync.len(),
            adding_count: v.adding.len(),
            progress: v.progress(),
            view: v.clone(),
        })
        .collect()
}

fn join(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

fn render(rows: &[Row], style: crate::output::Style) -> String {
    if rows.is_empty() {
        return "No partition reassignments in flight.\n".into();
    }
    let mut t = crate::output::new_table(style);
    t.set_header(vec![
        "partition",
        "replicas",
        "adding",
        "removing",
        "progress",
        "started by",
    ]);
    for r in rows {
        let v = &r.view;
        t.add_row(vec![
            format!("{}-{}", v.topic, v.partition),
            join(&v.replicas),
            join(&v.adding),
            join(&v.removing),
            r.progress.clone(),
            v.owner.as_str().to_string(),
        ]);
    }
    // Who started it and what it adds matter less than the partition and its progress.
    format!("{}\n", crate::output::fit(t, style, &[5, 2, 3]))
}

async fn list(ctx: &Ctx) -> Result<ExitCode, CliError> {
    let kafka = kafka(ctx).await?;
    let executor = executor_view(ctx).await;
    let views = guards::reassignments(&kafka, executor).await?;
    let out = ListView {
        reassignments: rows(&views),
    };
    ctx.printer
        .emit(&out, |o| render(&o.reassignments, ctx.printer.style()))?;
    Ok(ExitCode::Ok)
}

/// `reassignments cancel` output.
#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct CancelView {
    dry_run: bool,
    cancelled: Vec<Row>,
    /// Named partitions that had no reassignment in flight.
    not_in_flight: Vec<String>,
    /// Partitions Kafka refused to cancel (e.g. finished meanwhile), with its error.
    failed: BTreeMap<String, String>,
}

async fn cancel(ctx: &Ctx, a: CancelArgs) -> Result<ExitCode, CliError> {
    if !a.all && a.partitions.is_empty() {
        return Err(CliError::usage(movers::CancelInputError::NothingNamed));
    }
    let named = a
        .partitions
        .iter()
        .map(|s| movers::parse_partition(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::usage)?;
    let kafka = kafka(ctx).await?;
    let executor = executor_view(ctx).await;
    let views = guards::reassignments(&kafka, executor).await?;
    let (chosen, missing) = movers::select_for_cancel(&views, a.all, &named);
    let printer = &ctx.printer;
    let mut out = CancelView {
        dry_run: !a.execute,
        cancelled: rows(&chosen),
        not_in_flight: missing.iter().map(|(t, p)| format!("{t}-{p}")).collect(),
        failed: BTreeMap::new(),
    };
    if chosen.is_empty() || !a.execute {
        printer.emit(&out, |o| render_cancel(o, printer.style()))?;
        return Ok(ExitCode::Ok);
    }
    if chosen
        .iter()
        .any(|v| v.owner == movers::Owner::CruiseControl)
    {
        printer.note(
            "Cruise Control is executing: cancelling its reassignments makes its execution fail; \
             `kafkaops rebalance stop` stops it cleanly",
        );
    }
    confirm(
        &format!(
            "Cancel {} partition reassignment(s) ({}); each partition goes back to its original replicas",
            chosen.len(),
            chosen
                .iter()
                .map(|v| format!("{}-{}", v.topic, v.partition))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ctx.global.yes,
        printer.interactive,
    )?;
    let partitions: Vec<(String, i32)> = chosen
        .iter()
        .map(|v| (v.topic.clone(), v.partition))
        .collect();
    let results = kafka
        .cancel_reassignments(&partitions)
        .await
        .context("cannot cancel the reassignments")?;
    for ((t, p), err) in results {
        if let Some(e) = err {
            out.failed.insert(format!("{t}-{p}"), e);
        }
    }
    printer.emit(&out, |o| render_cancel(o, printer.style()))?;
    Ok(if out.failed.is_empty() {
        ExitCode::Ok
    } else {
        ExitCode::Failed
    })
}

fn render_cancel(o: &CancelView, style: crate::output::Style) -> String {
    let mut s = String::new();
    for n in &o.not_in_flight {
        s.push_str(&format!("{n}: no reassignment in flight\n"));
    }
    if o.cancelled.is_empty() {
        s.push_str("Nothing to cancel.\n");
        return s;
    }
    s.push_str(&render(&o.cancelled, style));
    for (p, e) in &o.failed {
        s.push_str(&format!("{p}: not cancelled: {e}\n"));
    }
    if o.dry_run {
        s.push_str("Dry run: nothing was changed. Re-run with --execute to cancel these.\n");
    } else {
        let done = o.cancelled.len() - o.failed.len();
        s.push_str(&format!("Cancelled {done} reassignment(s).\n"));
    }
    s
}
