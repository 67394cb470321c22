//! `kafkaops quorum status|add|remove|migrate`, `broker list|unregister` and `upgrade` (its dry
//! run and `--finalize`): the KRaft lifecycle (issue #28). Arguments in, the use cases of
//! [`crate::app::kraft`] called, their answers rendered; every change is previewed and confirmed
//! (or `--yes`). `upgrade --to RELEASE` is a roll: `commands::roll` runs it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::Ctx;
use crate::app::kraft::{self, QuorumSnapshot, UpgradePlan};
use crate::cli::broker::UnregisterArgs;
use crate::cli::kraft::{
    QuorumChangeArgs, QuorumCommand, QuorumLimits, QuorumWaitArgs, RollLeaseArgs, UpgradeArgs,
};
use crate::engine::failure::Classified;
use crate::engine::kraft::ghosts::BrokerListing;
use crate::engine::kraft::quorum::{Limits, MemberStatus, QuorumRefusal, Verdict};
use crate::engine::model::NodeId;
use crate::error::{CliError, ExitCode};
use crate::error_codes::failure;
use crate::kafka::KafkaClient;
use crate::output::confirm;

fn limits(a: &QuorumLimits) -> Limits {
    let ms = |d: std::time::Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    Limits {
        caught_up_within_ms: ms(a.caught_up_within),
        max_lag_records: a.max_lag_records,
        max_fetch_age_ms: ms(a.max_fetch_age),
    }
}

/// Takes the roll Lease of the cluster's pods (Kubernetes: `--strimzi` or `--pod-selector`),
/// so that no `kafkaops roll` restarts nodes while the quorum or the feature levels change,
/// and none starts meanwhile. Held by a roll: refused (exit 5) before Kafka is asked, nothing
/// changed. Hosts have no Lease: `None`.
async fn roll_lease(
    ctx: &Ctx,
    lease: &RollLeaseArgs,
) -> Result<Option<crate::platform::kube::LeaseGuard>, CliError> {
    let Some(pods) = crate::platform::kube::PodSelector::of(
        ctx.strimzi(),
        lease.pod_selector.as_ref(),
        lease.node_id_label.as_ref(),
    ) else {
        return Ok(None);
    };
    let conn = ctx.kube().connect().await.map_err(anyhow::Error::from)?;
    let guard = crate::platform::kube::KubePlatform::new(conn, pods, ctx.request_timeout())
        .take_lease(crate::app::roll::LEASE_DURATION)
        .await
        .map_err(|e| anyhow::Error::from(e).context("nothing was changed"))?;
    Ok(Some(guard))
}

/// Runs `change` holding the roll Lease (when there is one), released on every way out.
async fn under_roll_lease<F, T>(ctx: &Ctx, lease: &RollLeaseArgs, change: F) -> Result<T, CliError>
where
    F: std::future::Future<Output = Result<T, CliError>>,
{
    let guard = roll_lease(ctx, lease).await?;
    let result = change.await;
    if let Some(guard) = guard {
        guard.release().await;
    }
    result
}

async fn connect(ctx: &Ctx) -> Result<KafkaClient, CliError> {
    Ok(crate::app::cordon::kafka(ctx.kafka_access()).await?)
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "-".into(), |v| v.to_string())
}

fn member_rows(t: &mut comfy_table::Table, members: &[MemberStatus]) {
    for m in members {
        t.add_row(vec![
            m.id.to_string(),
            if m.leader {
                "leader".into()
            } else if m.voter {
                "voter".into()
            } else {
                "observer".into()
            },
            opt(m.directory_id.as_deref()),
            opt(m.log_end_offset),
            opt(m.lag_records),
            opt(m.fetch_age_ms.map(|a| format!("{a} ms"))),
            if m.caught_up { "yes" } else { "no" }.into(),
            match m.running {
                Some(true) => "yes",
                Some(false) => "no",
                None => "?",
            }
            .into(),
        ]);
    }
}

fn verdict_text(v: &Verdict) -> String {
    match v {
        Verdict::Healthy => "healthy: every voter is caught up".into(),
        Verdict::VoterLagging { lagging } => format!(
            "voter lagging: {} not caught up; one more failure may stop the quorum",
            ids(lagging)
        ),
        Verdict::NoCaughtUpMajority {
            caught_up,
            voters,
            needed,
        } => format!(
            "no caught-up majority: {} of {voters} voters caught up, {needed} needed; the \
             quorum cannot commit",
            caught_up.len()
        ),
        Verdict::Unknown { reason } => format!("unknown: {reason}"),
    }
}

fn ids(v: &[NodeId]) -> String {
    v.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn render_quorum(ctx: &Ctx, snap: &QuorumSnapshot) -> String {
    let s = &snap.status;
    let mut t = ctx.printer.table();
    t.set_header(vec![
        "node",
        "role",
        "directory id",
        "log end",
        "lag",
        "last fetch",
        "caught up",
        "running",
    ]);
    member_rows(&mut t, &s.voters);
    member_rows(&mut t, &s.observers);
    // The directory id (a long Uuid) and the last fetch go first when the terminal is narrow.
    let t = crate::output::fit(t, ctx.printer.style(), &[2, 5]);
    format!(
        "Quorum: {} (kraft.version {}), leader {}, epoch {}, high watermark {}\n{t}\nVerdict: {}\n",
        match s.mode {
            crate::engine::kraft::quorum::QuorumMode::Static => "static",
            crate::engine::kraft::quorum::QuorumMode::Dynamic => "dynamic",
            crate::engine::kraft::quorum::QuorumMode::Unknown => "unknown mode",
        },
        opt(s.kraft_version),
        opt(s.leader),
        s.epoch,
        opt(s.high_watermark),
        verdict_text(&s.verdict)
    )
}

/// Runs a `quorum` subcommand; a change holds the roll Lease (Kubernetes).
pub async fn quorum(ctx: &Ctx, cmd: QuorumCommand) -> Result<ExitCode, CliError> {
    let lease = match &cmd {
        QuorumCommand::Status(_) => None,
        QuorumCommand::Add(a) | QuorumCommand::Remove(a) => Some(a.wait.lease.clone()),
        QuorumCommand::Migrate(a) => Some(a.lease.clone()),
    };
    match lease {
        Some(lease) => under_roll_lease(ctx, &lease, quorum_cmd(ctx, cmd)).await,
        None => quorum_cmd(ctx, cmd).await,
    }
}

async fn quorum_cmd(ctx: &Ctx, cmd: QuorumCommand) -> Result<ExitCode, CliError> {
    let kafka = connect(ctx).await?;
    match cmd {
        QuorumCommand::Status(a) => {
            let snap = kraft::quorum(&kafka, &limits(&a)).await?;
            ctx.printer.emit(&snap, |s| render_quorum(ctx, s))?;
            Ok(failure(kraft::verdict_kind(&snap.status.verdict)))
        }
        QuorumCommand::Add(a) => quorum_add(ctx, &kafka, &a).await,
        QuorumCommand::Remove(a) => quorum_remove(ctx, &kafka, &a).await,
        QuorumCommand::Migrate(a) => quorum_migrate(ctx, &kafka, &a).await,
    }
}

/// `quorum add`: the pre-flight shown, confirmed, then AddRaftVoter and the wait.
async fn quorum_add(
    ctx: &Ctx,
    kafka: &KafkaClient,
    a: &QuorumChangeArgs,
) -> Result<ExitCode, CliError> {
    let node = NodeId(a.controller);
    let l = limits(&a.wait.limits);
    let (snap, answer) = kraft::add_preflight(kafka, node, &l).await?;
    ctx.printer.note(render_quorum(ctx, &snap).trim_end());
    preflight_refusal(answer.as_ref().err())?;
    if let Err(e) = &answer {
        ctx.printer.note(format!(
            "Controller {node} is not ready yet ({e}); kafkaops waits up to {:?} for it \
             after confirmation",
            a.wait.wait
        ));
    }
    confirm(
        &format!("Add controller {node} to the quorum's voters (AddRaftVoter)"),
        ctx.global.yes,
        ctx.printer.interactive,
    )?;
    let after = kraft::add(kafka, node, &l, a.wait.wait, &ctx.printer).await?;
    ctx.printer.emit(&after, |s| {
        format!(
            "Controller {node} is a voter and caught up.\n{}",
            render_quorum(ctx, s)
        )
    })?;
    Ok(ExitCode::Ok)
}

/// `quorum remove`: the pre-flight shown (a refusal ends it), confirmed, then RemoveRaftVoter.
async fn quorum_remove(
    ctx: &Ctx,
    kafka: &KafkaClient,
    a: &QuorumChangeArgs,
) -> Result<ExitCode, CliError> {
    let node = NodeId(a.controller);
    let l = limits(&a.wait.limits);
    let (snap, answer) = kraft::remove_preflight(kafka, node, &l).await?;
    ctx.printer.note(render_quorum(ctx, &snap).trim_end());
    if let Err(e) = answer {
        return Err(refusal(e));
    }
    confirm(
        &format!("Remove controller {node} from the quorum's voters (RemoveRaftVoter)"),
        ctx.global.yes,
        ctx.printer.interactive,
    )?;
    let after = kraft::remove(kafka, node, &l, a.wait.wait, &ctx.printer).await?;
    ctx.printer.emit(&after, |s| {
        format!(
            "Controller {node} is no longer a voter (it still runs as an observer until \
             stopped).\n{}",
            render_quorum(ctx, s)
        )
    })?;
    Ok(ExitCode::Ok)
}

/// `quorum migrate`: static to dynamic quorum (irreversible), confirmed first.
async fn quorum_migrate(
    ctx: &Ctx,
    kafka: &KafkaClient,
    a: &QuorumWaitArgs,
) -> Result<ExitCode, CliError> {
    let l = limits(&a.limits);
    let (snap, answer) = kraft::migrate_preflight(kafka, &l).await?;
    ctx.printer.note(render_quorum(ctx, &snap).trim_end());
    if let Err(e) = answer {
        return Err(refusal(e));
    }
    ctx.printer.note(
        "Migrating turns the quorum dynamic (kraft.version 0 -> 1): it CANNOT be undone; \
         controller.quorum.voters stays valid but membership then changes with `quorum \
         add|remove`.",
    );
    confirm(
        "Upgrade kraft.version to 1 (static -> dynamic quorum, irreversible)",
        ctx.global.yes,
        ctx.printer.interactive,
    )?;
    let after = kraft::migrate(kafka, &l, a.wait, &ctx.printer).await?;
    ctx.printer.emit(&after, |s| {
        format!("The quorum is dynamic.\n{}", render_quorum(ctx, s))
    })?;
    Ok(ExitCode::Ok)
}

fn refusal(e: QuorumRefusal) -> CliError {
    let kind = e.failure_kind();
    CliError::from(anyhow::Error::from(Classified::wrap(kind, e)).context("nothing was changed"))
}

/// A refusal that waiting cannot clear ends the command before it asks.
fn preflight_refusal(e: Option<&QuorumRefusal>) -> Result<(), CliError> {
    match e {
        Some(e) if !e.retryable() => Err(refusal(e.clone())),
        _ => Ok(()),
    }
}

fn render_brokers(ctx: &Ctx, brokers: &[BrokerListing]) -> String {
    let mut t = ctx.printer.table();
    t.set_header(vec![
        "broker",
        "fenced",
        "rack",
        "running",
        "replicas on it",
    ]);
    for b in brokers {
        let holds = if b.holds.is_empty() {
            "none".to_string()
        } else {
            let mut s = b
                .holds
                .iter()
                .take(5)
                .map(|(t, p)| format!("{t}-{p}"))
                .collect::<Vec<_>>()
                .join(", ");
            if b.holds.len() > 5 {
                let _ = write!(s, " (+{} more)", b.holds.len() - 5);
            }
            s
        };
        t.add_row(vec![
            b.id.to_string(),
            if b.fenced { "yes" } else { "no" }.into(),
            opt(b.rack.as_deref()),
            match b.running {
                Some(true) => "yes",
                Some(false) => "no",
                None => "?",
            }
            .into(),
            holds,
        ]);
    }
    format!("{}\n", crate::output::fit(t, ctx.printer.style(), &[2]))
}

/// `broker list`.
pub async fn broker_list(ctx: &Ctx) -> Result<ExitCode, CliError> {
    let kafka = connect(ctx).await?;
    let brokers = kraft::brokers(&kafka).await?;
    ctx.printer.emit(&brokers, |b| render_brokers(ctx, b))?;
    Ok(ExitCode::Ok)
}

/// `broker unregister` output.
#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct UnregisterView {
    brokers: Vec<i32>,
    executed: bool,
}

/// `broker unregister`.
pub async fn broker_unregister(ctx: &Ctx, a: UnregisterArgs) -> Result<ExitCode, CliError> {
    let kafka = connect(ctx).await?;
    let brokers: Vec<NodeId> = a.brokers.0.iter().copied().map(NodeId).collect();
    let answers = kraft::unregister_preflight(&kafka, &brokers).await?;
    for (b, answer) in &answers {
        match answer {
            Ok(()) => ctx.printer.note(format!(
                "Broker {b}: fenced, not running, no replica on it: may be unregistered"
            )),
            Err(e) => ctx.printer.note(format!("Broker {b}: refused: {e}")),
        }
    }
    if let Some(e) = kraft::first_unregister_refusal(&answers) {
        return Err(CliError::from(e.context("nothing was changed")));
    }
    let ids = crate::app::cordon::join(&a.brokers.0);
    if a.execute {
        confirm(
            &format!("Unregister broker(s) {ids} (UnregisterBroker)"),
            ctx.global.yes,
            ctx.printer.interactive,
        )?;
        kraft::unregister(&kafka, &brokers, a.wait, &ctx.printer).await?;
    }
    let view = UnregisterView {
        brokers: a.brokers.0.clone(),
        executed: a.execute,
    };
    ctx.printer.emit(&view, |v| {
        if v.executed {
            format!("Broker(s) {ids} unregistered.\n")
        } else {
            format!("Dry run: broker(s) {ids} may be unregistered; add --execute to do it.\n")
        }
    })?;
    Ok(ExitCode::Ok)
}

fn render_plan(ctx: &Ctx, p: &UpgradePlan) -> String {
    let mut nodes = ctx.printer.table();
    nodes.set_header(vec![
        "node",
        "software (release)",
        "latest metadata.version",
    ]);
    for n in &p.nodes {
        nodes.add_row(vec![
            n.id.to_string(),
            n.unknown
                .clone()
                .map_or_else(|| opt(n.release.as_deref()), |e| format!("unknown: {e}")),
            opt(n.metadata_version_max.as_deref()),
        ]);
    }
    let mut features = ctx.printer.table();
    features.set_header(vec!["feature", "finalized", "highest every node supports"]);
    for f in &p.features {
        features.add_row(vec![
            f.name.clone(),
            opt(f.finalized),
            opt(f.highest_common),
        ]);
    }
    let mut s = format!(
        "{}\n{}\n",
        ctx.printer.fit(nodes),
        ctx.printer.fit(features)
    );
    match (&p.would_finalize, &p.refused) {
        (Some(c), _) if c.is_empty() => {
            s.push_str("Nothing to finalize: the levels are already finalized.\n");
        }
        (Some(c), _) => {
            s.push_str("Plan: every node runs software that supports the target; `upgrade --finalize` would finalize:\n");
            for c in c {
                let _ = writeln!(s, "  {} {} -> {}", c.feature, opt(c.from), c.to);
            }
        }
        (None, Some(r)) => {
            let _ = writeln!(
                s,
                "Plan: change the software the nodes start with, roll every node onto it \
                 (`upgrade --to RELEASE`: controllers first, then brokers, each checked on the \
                 new software), let it soak, then `upgrade --finalize`. Now: {r}"
            );
        }
        (None, None) => {}
    }
    s
}

/// `upgrade`; `--finalize` holds the roll Lease (Kubernetes).
pub async fn upgrade(ctx: &Ctx, a: UpgradeArgs) -> Result<ExitCode, CliError> {
    if a.finalize {
        let lease = a.lease();
        under_roll_lease(ctx, &lease, upgrade_cmd(ctx, a)).await
    } else {
        upgrade_cmd(ctx, a).await
    }
}

async fn upgrade_cmd(ctx: &Ctx, a: UpgradeArgs) -> Result<ExitCode, CliError> {
    let kafka = connect(ctx).await?;
    let targets: BTreeMap<String, i16> = a.features.into_iter().collect();
    let plan = kraft::upgrade_plan(&kafka, &targets).await?;
    if !a.finalize {
        ctx.printer.emit(&plan, |p| render_plan(ctx, p))?;
        return Ok(ExitCode::Ok);
    }
    ctx.printer.note(render_plan(ctx, &plan).trim_end());
    let changes = match plan.finalize {
        Err(e) => {
            let kind = e.failure_kind();
            return Err(CliError::from(
                anyhow::Error::from(Classified::wrap(kind, e)).context("nothing was changed"),
            ));
        }
        Ok(c) => c,
    };
    if !changes.is_empty() {
        let what = changes
            .iter()
            .map(|c| format!("{} {} -> {}", c.feature, opt(c.from), c.to))
            .collect::<Vec<_>>()
            .join(", ");
        ctx.printer.note(format!(
            "Finalizing {what} is the point of no return: after it the nodes cannot go back to \
             the older software."
        ));
        confirm(
            &format!("Finalize {what}"),
            ctx.global.yes,
            ctx.printer.interactive,
        )?;
    }
    let done = kraft::finalize(&kafka, &targets, a.wait, &ctx.printer).await?;
    ctx.printer.emit(&done, |d| {
        if d.is_empty() {
            "Nothing to finalize.\n".into()
        } else {
            d.iter().fold(String::new(), |mut s, c| {
                let _ = writeln!(s, "Finalized {} {}.", c.feature, c.to);
                s
            })
        }
    })?;
    Ok(ExitCode::Ok)
}
