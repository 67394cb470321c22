//! `rebalance pace --throttle RATE` on an execution started without a replication throttle:
//! stop it, ask for the same request again with the throttle as a dry run, compare it with
//! what the stopped execution still had to do, and resume it only within the tolerance (the
//! steps are in the parent module's docs).

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use super::refused;
use crate::cli::rebalance::{PaceArgs, StatusArgs};
use crate::commands::Ctx;
use crate::commands::shared::observe::CliObserver;
use crate::cruise_control::client::CruiseControlClient;
use crate::cruise_control::lenient;
use crate::cruise_control::model::{OptimizationResult, UserTask};
use crate::cruise_control::params::{self, Endpoint};
use crate::engine::drift::{self, DriftReport, Plan, Tolerance};
use crate::error::{CliError, ExitCode};
use crate::kafka::KafkaAdmin;
use crate::output::{Printer, confirm};

/// `rebalance pace --throttle` output.
#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct ThrottleView {
    /// `resumed`, `drifted` (left stopped) or `nothing-left` (left stopped: all was done).
    status: &'static str,
    /// The execution that was stopped.
    stopped_task_id: String,
    /// The resumed execution (with `resumed`).
    task_id: Option<String>,
    /// The new replication throttle, bytes per second.
    #[serde(rename = "replication_throttle_bytes_per_second")]
    replication_throttle: u64,
    /// The Cruise Control endpoint re-submitted (`add_broker`, `rebalance`, ...).
    endpoint: String,
    /// What the re-submitted proposal was compared with: `remaining` (what the stopped
    /// execution still had to do) or `original` (its whole proposal; what is left is unknown).
    approved: &'static str,
    /// Replica movements left in the approved plan and in the re-submitted proposal.
    approved_replica_movements: u64,
    new_replica_movements: u64,
    drift: DriftReport,
}

fn render_throttle(v: &ThrottleView) -> String {
    let mut s = String::new();
    match v.status {
        "resumed" => s.push_str(&format!(
            "Execution resumed with replication throttle {} B/s: task {} (was {}).\n\
             Follow it with `kafkaops rebalance status --task {} --follow`.\n",
            v.replication_throttle,
            v.task_id.as_deref().unwrap_or("?"),
            v.stopped_task_id,
            v.task_id.as_deref().unwrap_or("?"),
        )),
        "nothing-left" => s.push_str(&format!(
            "Task {} was stopped and Cruise Control proposes nothing more to do: nothing was resumed.\n",
            v.stopped_task_id
        )),
        _ => {
            s.push_str(&format!(
                "Task {} was stopped and NOT resumed: the re-submitted proposal differs from what \
                 it still had to do past the tolerance:\n",
                v.stopped_task_id
            ));
            for r in &v.drift.reasons {
                s.push_str(&format!("  - {r}\n"));
            }
            s.push_str(
                "Replicas already moved stay where they are. Look at the new proposal with a dry \
                 run of the same command, or raise --max-drift.\n",
            );
        }
    }
    s
}

/// Stops the running execution (`task`), re-checks its request with the new throttle and
/// resumes it within the tolerance (see the module docs).
pub(super) async fn stop_and_resume(
    ctx: &Ctx,
    a: &PaceArgs,
    rate: u64,
    cc: &CruiseControlClient,
    task_id: &str,
    task: &UserTask,
) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let reason = format!("{} (--throttle {rate}, resumes task {task_id})", a.reason);
    let (endpoint, dry_query) = params::replay_query(&task.request_url, rate, true, &reason)
        .map_err(|e| refused(format!("{e}; nothing was changed")))?;
    let original: Option<Plan> = task
        .original_response
        .as_deref()
        .and_then(|body| lenient::from_str::<OptimizationResult>(body).ok())
        .map(|r| Plan::from(&r));
    printer.note(what_will_happen(a, rate, task_id, task, endpoint));
    confirm(
        &format!(
            "Stop task {task_id} and resume it with replication throttle {rate} B/s on Cruise Control at {}",
            cc.url()
        ),
        ctx.global.yes,
        printer.interactive,
    )?;

    stop(cc, a, &reason, &printer, &obs).await?;
    printer.note(format!("Task {task_id} stopped."));

    let Some(original) = original else {
        kept_cordoned(ctx, &printer, task_id).await;
        return Err(no_proposal_kept(task_id));
    };
    let (approved_kind, approved) = approved_plan(ctx, &printer, &original).await;
    let deadline = Instant::now() + a.timeout;
    let policy = cc.policy(deadline);
    let dry = cc.replay(endpoint, &dry_query, &policy, &obs).await?;
    let new = Plan::from(&dry.value);
    let tol = Tolerance {
        max_drift_pct: a.max_drift,
        max_data_mb: a.max_data_mb,
    };
    let mut view = ThrottleView {
        status: "drifted",
        stopped_task_id: task_id.to_string(),
        task_id: None,
        replication_throttle: rate,
        endpoint: endpoint.path().to_string(),
        approved: approved_kind,
        approved_replica_movements: approved.replica_movements,
        new_replica_movements: new.replica_movements,
        drift: drift::compare(&approved, &new, &tol),
    };
    if !view.drift.within_tolerance && !resume_anyway(ctx, &printer, &view) {
        return Err(left_stopped(ctx, &printer, &view).await);
    }
    if new.replica_movements == 0 && new.leader_movements == 0 {
        view.status = "nothing-left";
        printer.emit(&view, render_throttle)?;
        return Ok(ExitCode::Ok);
    }
    let (_, exec_query) = params::replay_query(&task.request_url, rate, false, &reason)
        .map_err(|e| refused(format!("{e}; the execution stays stopped")))?;
    let started = cc
        .replay(endpoint, &exec_query, &cc.policy(deadline), &obs)
        .await?;
    view.status = "resumed";
    view.task_id.clone_from(&started.task_id);
    printer.emit(&view, render_throttle)?;
    match &started.task_id {
        Some(t) if a.wait => follow(ctx, a, t).await,
        _ => Ok(ExitCode::Ok),
    }
}

/// `--wait`: follows the resumed execution as `rebalance status --task --follow` does.
async fn follow(ctx: &Ctx, a: &PaceArgs, task_id: &str) -> Result<ExitCode, CliError> {
    let follow = StatusArgs {
        timeout: a.timeout,
        task: Some(task_id.to_string()),
        follow: true,
        follow_timeout: None,
        poll_interval: a.poll_interval,
    };
    crate::commands::shared::cc_flow::task::status_task(ctx, &follow, task_id).await
}

/// Cruise Control kept no proposal for the stopped task: nothing to compare with.
fn no_proposal_kept(task_id: &str) -> CliError {
    refused(format!(
        "Cruise Control kept no proposal for task {task_id}: there is nothing to compare the \
         re-submitted request with, so the execution stays stopped. Resume it by hand (a dry run \
         of the same command, then --execute)"
    ))
}

/// The re-submitted proposal drifted and is not resumed: the execution stays stopped (its
/// brokers cordoned when it was a removal), and the view says why.
async fn left_stopped(ctx: &Ctx, printer: &Printer, view: &ThrottleView) -> CliError {
    let task_id = &view.stopped_task_id;
    kept_cordoned(ctx, printer, task_id).await;
    if let Err(e) = printer.emit(view, render_throttle) {
        return e.into();
    }
    refused(format!(
        "the re-submitted proposal drifted from what task {task_id} still had to do; the \
         execution stays stopped"
    ))
}

/// Stops the execution and waits until the executor is idle.
async fn stop(
    cc: &CruiseControlClient,
    a: &PaceArgs,
    reason: &str,
    printer: &Printer,
    obs: &CliObserver,
) -> Result<(), CliError> {
    let started = Instant::now();
    let deadline = started + a.timeout;
    cc.stop_proposal_execution(reason, deadline, obs).await?;
    crate::app::rebalance::wait_until_idle(cc, a.poll_interval, started, deadline, printer, obs)
        .await?;
    Ok(())
}

/// The stop and resume, said before it is confirmed.
fn what_will_happen(
    a: &PaceArgs,
    rate: u64,
    task_id: &str,
    task: &UserTask,
    endpoint: Endpoint,
) -> String {
    format!(
        "Cruise Control cannot change the replication throttle of a running execution. kafkaops will:\n\
         \x20 1. stop task {task_id} ({endpoint}: {}) and wait until the executor is idle;\n\
         \x20 2. ask for the same request again as a dry run with replication_throttle={rate};\n\
         \x20 3. compare it with what the stopped execution still had to do (--max-drift {}%{});\n\
         \x20 4. execute it only if within that tolerance; otherwise the execution stays stopped.",
        task.request_url,
        a.max_drift,
        a.max_data_mb
            .map(|m| format!(", --max-data-mb {m}"))
            .unwrap_or_default()
    )
}

/// What the re-submitted proposal is compared with: what the stopped execution still had to do
/// (`remaining`), or its whole original proposal when that cannot be told (`original`).
async fn approved_plan(ctx: &Ctx, printer: &Printer, plan: &Plan) -> (&'static str, Plan) {
    match current_placement(ctx, plan).await {
        Ok(Some(current)) => match drift::remaining(plan, &current) {
            Some(left) => ("remaining", left),
            None => ("original", plan.clone()),
        },
        Ok(None) => {
            printer.note(
                "No Kafka bootstrap servers given: cannot tell what the stopped execution \
                 still had to do; comparing with its whole original proposal",
            );
            ("original", plan.clone())
        }
        Err(e) => {
            printer.note(format!(
                "Cannot read the partitions from Kafka ({e:#}); comparing with the whole \
                 original proposal"
            ));
            ("original", plan.clone())
        }
    }
}

/// The re-submitted proposal drifted: show what changed, then ask. With --yes (or no terminal)
/// only a plan within the tolerance is resumed.
fn resume_anyway(ctx: &Ctx, printer: &Printer, view: &ThrottleView) -> bool {
    printer.note(render_throttle(view));
    let ask = !ctx.global.yes && printer.interactive;
    ask && confirm(
        &format!(
            "Resume task {}'s request with replication throttle {} B/s anyway \
             (the new proposal above)",
            view.stopped_task_id, view.replication_throttle
        ),
        false,
        true,
    )
    .is_ok()
}

/// The removal stays stopped but its brokers are still leaving: they stay cordoned, and the
/// user is told how to lift it.
async fn kept_cordoned(ctx: &Ctx, printer: &Printer, task_id: &str) {
    if let Some(brokers) = crate::app::cordon::cordoned_brokers(ctx.kafka_access()).await
        && !brokers.is_empty()
    {
        let list = crate::app::cordon::join(&brokers);
        printer.note(format!(
            "Broker(s) {list} stay cordoned (task {task_id} was removing them): resume the removal, \
             or lift it with `kafkaops broker uncordon --brokers {list}`"
        ));
    }
}

/// The replicas of the partitions `plan` moves, as Kafka reports them now; `None` without
/// Kafka bootstrap servers.
async fn current_placement(
    ctx: &Ctx,
    plan: &Plan,
) -> anyhow::Result<Option<BTreeMap<(String, i32), Vec<i32>>>> {
    if ctx.settings.kafka.bootstrap_servers.is_none() {
        return Ok(None);
    }
    let kafka = crate::app::guards::kafka(&ctx.settings, ctx.request_timeout())
        .await
        .map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let mut topics: Vec<String> = plan.movements.iter().map(|m| m.topic.clone()).collect();
    topics.sort();
    topics.dedup();
    let described = kafka
        .describe_topics(topics)
        .await
        .context("cannot describe the topics of the plan")?;
    Ok(Some(
        described
            .into_iter()
            .flat_map(|t| {
                let name = t.name;
                t.partitions
                    .into_iter()
                    .map(move |p| ((name.clone(), p.partition), p.replicas))
            })
            .collect(),
    ))
}
