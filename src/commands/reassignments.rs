//! `kafkaops reassignments list|cancel`, and the check that runs before every Cruise Control
//! execution (`rebalance ... --execute`, `topic set-rf --execute`).
//!
//! Why: Cruise Control refuses to execute while reassignments it did not start are in flight
//! ("Cannot execute new proposals while there are ongoing partition reassignments initiated by
//! external agent"), or with `auto.stop.external.agent=true` cancels them without a word.
//! Either way the operator should see them first, with who started them and how far they
//! got, and decide: wait, or cancel them here. Reads come from the Kafka Admin API (the wire
//! path: librdkafka has no ListPartitionReassignments); whether Cruise Control is executing
//! comes from its `state` endpoint. The decisions are in [`crate::engine::movers`].

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Serialize;

use super::Ctx;
use crate::cli::reassignments::{CancelArgs, ReassignmentsCommand};
use crate::cruise_control::LogObserver;
use crate::engine::movers::{
    self, CruiseControlView, ExecutorView, ExternalReassignments, ReassignmentView, blocking,
    classify,
};
use crate::error::{CliError, ExitCode};
use crate::kafka::{KafkaAdmin, KafkaClient};
use crate::output::{Printer, confirm};

/// Runs a `reassignments` subcommand.
pub async fn run(ctx: &Ctx, cmd: ReassignmentsCommand) -> Result<ExitCode, CliError> {
    match cmd {
        ReassignmentsCommand::List => list(ctx).await,
        ReassignmentsCommand::Cancel(a) => cancel(ctx, a).await,
    }
}

pub(crate) async fn kafka(ctx: &Ctx) -> Result<KafkaClient, CliError> {
    Ok(crate::app::clients::kafka(
        &ctx.settings.kafka,
        ctx.request_timeout(),
        Some("cannot connect to the Kafka cluster"),
    )
    .await?)
}

/// What Cruise Control's executor is doing; `Unknown` without a configured or reachable CC.
async fn executor_view(ctx: &Ctx) -> ExecutorView {
    if ctx.settings.cruise_control.url.is_none() {
        return ExecutorView::Unknown;
    }
    let cc = match crate::app::clients::cruise_control(
        &ctx.settings.cruise_control,
        crate::app::clients::CcOptions::default(),
    ) {
        Ok(cc) => cc,
        Err(e) => {
            tracing::warn!("cannot ask Cruise Control who started the reassignments: {e}");
            return ExecutorView::Unknown;
        }
    };
    let deadline = Instant::now() + ctx.request_timeout();
    let view = cc.executor_view(deadline, &LogObserver).await;
    if let CruiseControlView::Unreachable(e) = &view {
        tracing::warn!("cannot ask Cruise Control who started the reassignments: {e}");
    }
    view.executor()
}

/// The reassignments in flight, with ISR-based progress and an owner.
pub async fn observe(
    kafka: &KafkaClient,
    executor: ExecutorView,
) -> Result<Vec<ReassignmentView>, CliError> {
    let reassignments = kafka
        .list_reassignments()
        .await
        .context("cannot list the partition reassignments in flight")?;
    if reassignments.is_empty() {
        return Ok(Vec::new());
    }
    let mut topics: Vec<String> = reassignments.iter().map(|r| r.topic.clone()).collect();
    topics.sort();
    topics.dedup();
    let described = kafka
        .describe_topics(topics)
        .await
        .context("cannot describe the topics being reassigned")?;
    let isr: BTreeMap<(String, i32), Vec<i32>> = described
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(|p| ((t.name.clone(), p.partition), p.isr.clone()))
        })
        .collect();
    Ok(classify(&reassignments, &isr, executor))
}

/// `reassignments list` output.
#[derive(Debug, Serialize)]
struct ListView {
    reassignments: Vec<Row>,
}

#[derive(Debug, Serialize)]
struct Row {
    #[serde(flatten)]
    view: ReassignmentView,
    progress: String,
}

fn rows(views: &[ReassignmentView]) -> Vec<Row> {
    views
        .iter()
        .map(|v| Row {
            progress: v.progress(),
            view: v.clone(),
        })
        .collect()
}

fn join(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

fn render(rows: &[Row], color: bool) -> String {
    if rows.is_empty() {
        return "No partition reassignments in flight.\n".into();
    }
    let mut t = crate::output::new_table(color);
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
    format!("{t}\n")
}

async fn list(ctx: &Ctx) -> Result<ExitCode, CliError> {
    let kafka = kafka(ctx).await?;
    let executor = executor_view(ctx).await;
    let views = observe(&kafka, executor).await?;
    let out = ListView {
        reassignments: rows(&views),
    };
    ctx.printer
        .emit(&out, |o| render(&o.reassignments, ctx.printer.color))?;
    Ok(ExitCode::Ok)
}

/// `reassignments cancel` output.
#[derive(Debug, Serialize)]
struct CancelView {
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
    let views = observe(&kafka, executor).await?;
    let (chosen, missing) = movers::select_for_cancel(&views, a.all, &named);
    let printer = &ctx.printer;
    let mut out = CancelView {
        dry_run: !a.execute,
        cancelled: rows(&chosen),
        not_in_flight: missing.iter().map(|(t, p)| format!("{t}-{p}")).collect(),
        failed: BTreeMap::new(),
    };
    if chosen.is_empty() || !a.execute {
        printer.emit(&out, |o| render_cancel(o, printer.color))?;
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
    printer.emit(&out, |o| render_cancel(o, printer.color))?;
    Ok(if out.failed.is_empty() {
        ExitCode::Ok
    } else {
        ExitCode::Failed
    })
}

fn render_cancel(o: &CancelView, color: bool) -> String {
    let mut s = String::new();
    for n in &o.not_in_flight {
        s.push_str(&format!("{n}: no reassignment in flight\n"));
    }
    if o.cancelled.is_empty() {
        s.push_str("Nothing to cancel.\n");
        return s;
    }
    s.push_str(&render(&o.cancelled, color));
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

/// Before a Cruise Control execution: refuses (exit 5, with the list) while reassignments not
/// started by Cruise Control are in flight, or waits up to `wait` for them to end. Without
/// Kafka bootstrap servers it cannot look and says so (Cruise Control then decides alone).
pub async fn check_before_execution(
    ctx: &Ctx,
    printer: &Printer,
    wait: Duration,
    poll: Duration,
) -> Result<(), CliError> {
    if ctx.settings.kafka.bootstrap_servers.is_none() {
        printer.note(
            "Warning: no Kafka bootstrap servers given: cannot check for partition reassignments \
             that Cruise Control did not start (Cruise Control refuses or cancels them)",
        );
        return Ok(());
    }
    let kafka = kafka(ctx).await?;
    // Cruise Control is asked who started the reassignments only once Kafka shows some: every
    // request to it holds one of its few user-task slots (reference section 13), and the common
    // case, nothing in flight, needs none.
    let mut executor = None;
    let started = Instant::now();
    let mut announced = false;
    loop {
        let in_flight = kafka
            .list_reassignments()
            .await
            .context("cannot list the partition reassignments in flight")?;
        if in_flight.is_empty() {
            if announced {
                printer.note("The other reassignments have ended; going on.");
            }
            return Ok(());
        }
        let executor = match executor {
            Some(e) => e,
            None => *executor.insert(executor_view(ctx).await),
        };
        let found = blocking(&observe(&kafka, executor).await?);
        if found.is_empty() {
            if announced {
                printer.note("The other reassignments have ended; going on.");
            }
            return Ok(());
        }
        if started.elapsed() + poll > wait {
            let waited = (!wait.is_zero())
                .then(|| humantime::format_duration(started.elapsed()).to_string());
            return Err(ExternalReassignments {
                in_flight: found,
                waited,
            }
            .into());
        }
        if !announced {
            printer.note(format!(
                "Waiting up to {} for {} partition reassignment(s) not started by Cruise Control: {}",
                humantime::format_duration(wait),
                found.len(),
                movers::describe(&found)
            ));
            announced = true;
        }
        tokio::time::sleep(poll).await;
    }
}
