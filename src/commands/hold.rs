//! `kafkaops hold add|list|remove`: node holds (issue 29), stored in the cluster's compacted
//! topic `__kafkaops_holds` so that every kafkaops (a laptop, `operate`) sees the same ones.
//!
//! The reads and writes are [`crate::app::hold`], the expiry rule [`crate::engine::holds`];
//! this checks the input (an unknown node is refused with exit 2 before anything is written),
//! previews, confirms and renders.
//!
//! `--output json` of `list` (and of `add`/`remove`, the holds read back): `{"holds":[{"node",
//! "reason","created_at_ms","expires_at_ms","expired":bool}]}`.

use serde::Serialize;

use super::Ctx;
use crate::app::hold::Holds;
use crate::cli::hold::{AddArgs, HoldCommand, RemoveArgs};
use crate::engine::holds::Hold;
use crate::engine::model::Millis;
use crate::error::{CliError, ExitCode};
use crate::kafka::KafkaClient;
use crate::output::confirm;

/// Runs a `hold` subcommand.
pub async fn run(ctx: &Ctx, cmd: HoldCommand) -> Result<ExitCode, CliError> {
    match cmd {
        HoldCommand::Add(a) => add(ctx, &a).await,
        HoldCommand::List => list(ctx).await,
        HoldCommand::Remove(a) => remove(ctx, &a).await,
    }
}

#[derive(schemars::JsonSchema, Debug, Serialize)]
struct Row {
    #[serde(flatten)]
    hold: Hold,
    expired: bool,
}

#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct ListView {
    holds: Vec<Row>,
}

fn when(ms: u64) -> String {
    crate::engine::holds::when(ms)
}

fn render(v: &ListView, style: crate::output::Style) -> String {
    if v.holds.is_empty() {
        return "No node is held.\n".into();
    }
    let mut t = crate::output::Grid::new(style, ["node", "reason", "since", "expires", "status"])
        .low_value(&[2]);
    for r in &v.holds {
        t.row([
            r.hold.node.to_string(),
            r.hold.reason.clone(),
            when(r.hold.created_ms),
            when(r.hold.expires_ms),
            if r.expired { "expired" } else { "held" }.to_string(),
        ]);
    }
    format!("{}\n", t.render())
}

fn view(holds: Vec<Hold>, now: Millis) -> ListView {
    ListView {
        holds: holds
            .into_iter()
            .map(|h| Row {
                expired: !h.is_active(now),
                hold: h,
            })
            .collect(),
    }
}

async fn connect(ctx: &Ctx) -> Result<KafkaClient, CliError> {
    Ok(crate::app::cordon::kafka(ctx.kafka_access()).await?)
}

async fn show(ctx: &Ctx, at: &Holds, kafka: &KafkaClient) -> Result<(), CliError> {
    let holds = crate::app::hold::read(at, kafka).await?;
    let v = view(holds, crate::app::hold::now());
    ctx.printer.emit(&v, |v| render(v, ctx.printer.style()))?;
    Ok(())
}

async fn list(ctx: &Ctx) -> Result<ExitCode, CliError> {
    let kafka = connect(ctx).await?;
    let at = ctx.holds().await?;
    show(ctx, &at, &kafka).await?;
    Ok(ExitCode::Ok)
}

async fn add(ctx: &Ctx, a: &AddArgs) -> Result<ExitCode, CliError> {
    let kafka = connect(ctx).await?;
    let at = ctx.holds().await?;
    let known = crate::app::hold::known_nodes(&kafka).await?;
    let holds = crate::app::hold::new_holds(
        &a.nodes,
        &known,
        &a.reason,
        a.expires,
        crate::app::hold::now(),
    )
    .map_err(CliError::usage)?;
    let nodes = holds
        .iter()
        .map(|h| h.node.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    confirm(
        &format!(
            "Hold node(s) {nodes} ({}) until {}",
            holds[0].reason,
            when(holds[0].expires_ms)
        ),
        ctx.global.yes,
        ctx.printer.interactive,
    )?;
    crate::app::hold::add(&at, &kafka, &holds).await?;
    show(ctx, &at, &kafka).await?;
    Ok(ExitCode::Ok)
}

async fn remove(ctx: &Ctx, a: &RemoveArgs) -> Result<ExitCode, CliError> {
    let kafka = connect(ctx).await?;
    let at = ctx.holds().await?;
    let stored = crate::app::hold::read(&at, &kafka).await?;
    let missing: Vec<String> = a
        .nodes
        .iter()
        .filter(|n| !stored.iter().any(|h| h.node.0 == **n))
        .map(ToString::to_string)
        .collect();
    if !missing.is_empty() {
        return Err(CliError::usage(format!(
            "node(s) {} hold nothing to remove",
            missing.join(", ")
        )));
    }
    let nodes = a
        .nodes
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    confirm(
        &format!("Remove the hold of node(s) {nodes}"),
        ctx.global.yes,
        ctx.printer.interactive,
    )?;
    crate::app::hold::remove(&at, &kafka, &a.nodes).await?;
    show(ctx, &at, &kafka).await?;
    Ok(ExitCode::Ok)
}
