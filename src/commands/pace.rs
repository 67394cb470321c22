//! `kafkaops rebalance pace`: changes how many partitions the running Cruise Control execution
//! moves at once, live, through CC's admin endpoint (`POST /admin` with
//! `concurrent_partition_movements_per_broker` / `concurrent_leader_movements`).
//!
//! Why: an execution started too gently takes hours, one started too hard hurts producers; CC
//! can change its concurrency while it runs, and stopping and re-submitting would compute a
//! new plan. The change applies to the running execution only, so with nothing executing
//! kafkaops says so and changes nothing.
//!
//! `--throttle RATE` changes the replication throttle of the running execution without stopping
//! it. Cruise Control applies a throttle batch by batch (its `ReplicationThrottleHelper`): before
//! each batch of replica movements it sets the brokers' `leader.`/`follower.replication.throttled.rate`
//! to the execution's throttle where the value differs, and removes them from brokers with nothing
//! left in progress. So kafkaops sets the new rate directly on the brokers that carry one
//! (IncrementalAlterConfigs, Kafka Admin API), and then holds it: each time Cruise Control puts
//! its own rate back on a broker for a new batch, kafkaops sets the new one again, until the
//! execution ends (`--once`: set it once and return). Ctrl-C stops holding; the execution goes on.
//! The decisions are in [`crate::engine::pace`].
//!
//! An execution started without a replication throttle has no throttled replicas on its topics,
//! so a broker rate alone limits nothing: only then kafkaops stops the execution and resumes the
//! same request with the new throttle, under the drift guard of `rebalance --execute`
//! ([`crate::engine::drift`]). Brokers cordoned for a `rebalance remove` stay cordoned throughout:
//! a removal left stopped still means the broker is leaving.
//!
//! The stop and resume:
//! 1. find the running execution's user task and its original request (`user_tasks`: the
//!    `RequestURL` with all its parameters, and the proposal it answered); a self-healing
//!    execution, or a request kafkaops cannot re-send faithfully, is refused before anything
//!    changes;
//! 2. say what will happen and ask (unless `--yes`): like `rebalance stop`, this acts on the
//!    running execution, there is no dry run of a stop;
//! 3. `stop_proposal_execution`, then wait until the executor is idle;
//! 4. send the same request (same endpoint and parameters, `replication_throttle=RATE`) as a
//!    dry run and compare its proposal with the **approved plan** = what the stopped execution
//!    still had to do: the original proposal's movements whose partitions are not yet on their
//!    target replicas, read from Kafka ([`crate::engine::drift::remaining`]). The original
//!    proposal was approved when it started; the part already done must not count as drift
//!    (Cruise Control no longer proposes it), and the part left must not be silently replaced
//!    by another plan. When kafkaops cannot tell what is left (no Kafka bootstrap servers, or a
//!    proposal without per-partition movements) it compares with the original proposal itself
//!    and says so: then the comparison is stricter the further the execution had got;
//! 5. within `--max-drift` / `--max-data-mb`, send the execution and print its task id (return
//!    at once, as `--no-wait`; `--wait` follows it as `rebalance status --task --follow` does);
//!    past them kafkaops shows what changed and asks whether to resume anyway (with `--yes` or
//!    without a terminal it does not: the execution stays stopped and the exit code is 1).
//!
//! `--output json` of the live change: `{"status":"changed","task_id","replication_throttle",
//! "brokers":[{"broker","leader","follower"}],"holding":bool}` (the rates read back after the change).
//! Of the stop/resume: `{"status":"resumed"|"drifted"|"nothing-left","stopped_task_id",
//! "task_id":str|null,"replication_throttle","endpoint","approved":"remaining"|"original",
//! "approved_replica_movements","new_replica_movements","drift":<DriftReport>}`.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Serialize;

use super::Ctx;
use super::shared::observe::{CliObserver, cruise_control as client};
use crate::cli::rebalance::{PaceArgs, StatusArgs};
use crate::cruise_control::lenient;
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::{self, ConcurrencyChange, Substate};
use crate::engine::drift::{self, DriftReport, Plan, Tolerance};
use crate::engine::pace::{self, BrokerRates};
use crate::error::{CliError, CodedError, ExitCode};
use crate::kafka::{ConfigChange, ConfigTarget, KafkaAdmin, KafkaClient};
use crate::output::confirm;

/// `rebalance pace` output.
#[derive(Debug, Serialize)]
struct PaceView {
    task_id: Option<String>,
    executor_state: String,
    concurrency: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    leader_concurrency: Option<u32>,
    /// Cruise Control's own account of the change.
    cruise_control_says: Option<String>,
}

fn render(v: &PaceView) -> String {
    let mut s = format!(
        "Pace of the running execution{} changed: {} partition movement(s) per broker{}\n",
        v.task_id
            .as_deref()
            .map(|t| format!(" (task {t})"))
            .unwrap_or_default(),
        v.concurrency,
        v.leader_concurrency
            .map(|m| format!(", {m} leader movement(s)"))
            .unwrap_or_default()
    );
    if let Some(said) = &v.cruise_control_says {
        for line in said.lines().filter(|l| !l.trim().is_empty()) {
            s.push_str(&format!("  Cruise Control: {}\n", line.trim()));
        }
    }
    s
}

/// Runs `rebalance pace`.
pub async fn run(ctx: &Ctx, a: &PaceArgs) -> Result<ExitCode, CliError> {
    if let Some(rate) = a.throttle {
        return throttle(ctx, a, rate).await;
    }
    let Some(concurrency) = a.concurrency else {
        unreachable!("clap requires --concurrency or --throttle")
    };
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, Duration::from_secs(5))?;
    let deadline = Instant::now() + a.timeout;
    let state = cc
        .state(&[Substate::Executor], false, deadline, &obs)
        .await?;
    let executor = state.executor_view();
    if executor.is_idle() {
        return Err(not_executing());
    }
    let change = ConcurrencyChange {
        partition_movements_per_broker: Some(concurrency),
        leader_movements: a.leader_concurrency,
    };
    let result = cc
        .change_concurrency(&change, &a.reason, deadline, &obs)
        .await?;
    let view = PaceView {
        task_id: executor.running_task().map(str::to_string),
        executor_state: executor.state.clone(),
        concurrency,
        leader_concurrency: a.leader_concurrency,
        cruise_control_says: result.ongoing_concurrency_change_request,
    };
    printer.emit(&view, render)?;
    Ok(ExitCode::Ok)
}

fn not_executing() -> CliError {
    refused(
        "Cruise Control is not executing anything: the pace applies to a running execution \
         (start one with --concurrent-partition-movements-per-broker or --replication-throttle); \
         nothing was changed",
    )
}

/// A safety check or a precondition refused: exit 1.
fn refused(msg: impl Into<String>) -> CliError {
    CliError::new(ExitCode::Failed, CodedError::new(ExitCode::Failed, msg))
}

/// `rebalance pace --throttle` output.
#[derive(Debug, Serialize)]
struct ThrottleView {
    /// `resumed`, `drifted` (left stopped) or `nothing-left` (left stopped: all was done).
    status: &'static str,
    /// The execution that was stopped.
    stopped_task_id: String,
    /// The resumed execution (with `resumed`).
    task_id: Option<String>,
    /// The new replication throttle, bytes per second.
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

/// `rebalance pace --throttle RATE`: stop, re-check, resume (see the module docs).
#[allow(clippy::too_many_lines)]
async fn throttle(ctx: &Ctx, a: &PaceArgs, rate: u64) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, a.poll_interval)?;
    let deadline = Instant::now() + a.timeout;
    let executor = cc
        .state(&[Substate::Executor], false, deadline, &obs)
        .await?
        .executor_view();
    if executor.is_idle() {
        return Err(not_executing());
    }
    let Some(task_id) = executor
        .triggered_user_task_id
        .clone()
        .filter(|t| !t.is_empty())
    else {
        return Err(refused(format!(
            "the running execution ({}) was not started by a user request (self-healing?): \
             kafkaops cannot re-submit it; nothing was changed",
            executor.describe()
        )));
    };
    // Before the stop: once stopped, Cruise Control keeps no proposal for the task.
    let task = cc.user_task(&task_id, deadline, &obs).await?;
    if let Some(kafka) = live_kafka(ctx).await? {
        let rates = broker_rates(&kafka).await?;
        if rates.iter().any(BrokerRates::throttled) || request_throttled(&task.request_url) {
            return live(ctx, a, rate, &cc, &kafka, &task_id, rates).await;
        }
        printer.note(format!(
            "Task {task_id} runs without a replication throttle: its topics list no throttled \
             replicas, so a broker rate alone would limit nothing. kafkaops has to stop it and \
             resume it with one."
        ));
    } else {
        printer.note(
            "No Kafka bootstrap servers given: kafkaops cannot change the brokers' throttle \
             directly, so it has to stop the execution and resume it with the new throttle",
        );
    }
    let reason = format!("{} (--throttle {rate}, resumes task {task_id})", a.reason);
    let (endpoint, dry_query) = params::replay_query(&task.request_url, rate, true, &reason)
        .map_err(|e| refused(format!("{e}; nothing was changed")))?;
    let original: Option<Plan> = task
        .original_response
        .as_deref()
        .and_then(|body| lenient::from_str::<OptimizationResult>(body).ok())
        .map(|r| Plan::from(&r));

    printer.note(format!(
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
    ));
    confirm(
        &format!(
            "Stop task {task_id} and resume it with replication throttle {rate} B/s on Cruise Control at {}",
            cc.url()
        ),
        ctx.global.yes,
        printer.interactive,
    )?;

    let started = Instant::now();
    let deadline = started + a.timeout;
    cc.stop_proposal_execution(&reason, deadline, &obs).await?;
    crate::app::rebalance::wait_until_idle(&cc, a.poll_interval, started, deadline, &printer, &obs)
        .await?;
    printer.note(format!("Task {task_id} stopped."));

    let (approved_kind, approved) = match &original {
        Some(plan) => match current_placement(ctx, plan).await {
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
        },
        None => {
            kept_cordoned(ctx, &printer, &task_id).await;
            return Err(refused(format!(
                "Cruise Control kept no proposal for task {task_id}: there is nothing to compare \
                 the re-submitted request with, so the execution stays stopped. Resume it by \
                 hand (a dry run of the same command, then --execute)"
            )));
        }
    };
    let deadline = Instant::now() + a.timeout;
    let policy = cc.policy(deadline);
    let dry = cc.replay(endpoint, &dry_query, &policy, &obs).await?;
    let new = Plan::from(&dry.value);
    let tol = Tolerance {
        max_drift_pct: a.max_drift,
        max_data_mb: a.max_data_mb,
    };
    let report = drift::compare(&approved, &new, &tol);
    let mut view = ThrottleView {
        status: "drifted",
        stopped_task_id: task_id.clone(),
        task_id: None,
        replication_throttle: rate,
        endpoint: endpoint.path().to_string(),
        approved: approved_kind,
        approved_replica_movements: approved.replica_movements,
        new_replica_movements: new.replica_movements,
        drift: report,
    };
    if !view.drift.within_tolerance {
        // Show what changed, then ask: with --yes (or no terminal) only a plan within the
        // tolerance is resumed.
        printer.note(render_throttle(&view));
        let ask = !ctx.global.yes && printer.interactive;
        let resume = ask
            && confirm(
                &format!(
                    "Resume task {task_id}'s request with replication throttle {rate} B/s anyway \
                     (the new proposal above)"
                ),
                false,
                true,
            )
            .is_ok();
        if !resume {
            kept_cordoned(ctx, &printer, &task_id).await;
            printer.emit(&view, render_throttle)?;
            return Err(refused(format!(
                "the re-submitted proposal drifted from what task {task_id} still had to do; the \
                 execution stays stopped"
            )));
        }
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
    if a.wait
        && let Some(t) = &started.task_id
    {
        let follow = StatusArgs {
            timeout: a.timeout,
            task: Some(t.clone()),
            follow: true,
            follow_timeout: None,
            poll_interval: a.poll_interval,
        };
        return super::shared::cc_flow::task::status_task(ctx, &follow, t).await;
    }
    Ok(ExitCode::Ok)
}

/// The removal stays stopped but its brokers are still leaving: they stay cordoned, and the
/// user is told how to lift it.
async fn kept_cordoned(ctx: &Ctx, printer: &crate::output::Printer, task_id: &str) {
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

/// The Kafka client for the live change; `None` without bootstrap servers.
async fn live_kafka(ctx: &Ctx) -> Result<Option<KafkaClient>, CliError> {
    if ctx.settings.kafka.bootstrap_servers.is_none() {
        return Ok(None);
    }
    crate::app::guards::kafka(&ctx.settings, ctx.request_timeout())
        .await
        .map(Some)
        .map_err(|e| {
            CliError::new(
                ExitCode::Unreachable,
                CodedError::new(ExitCode::Unreachable, format!("{e:#}")),
            )
        })
}

/// Every broker's throttle rates (per-broker dynamic configs).
async fn broker_rates(kafka: &KafkaClient) -> Result<Vec<BrokerRates>, CliError> {
    let io = |e: anyhow::Error| {
        CliError::new(
            ExitCode::Unreachable,
            CodedError::new(ExitCode::Unreachable, format!("{e:#}")),
        )
    };
    let cluster = kafka
        .describe_cluster()
        .await
        .context("cannot list the brokers")
        .map_err(io)?;
    let mut out = Vec::new();
    for n in cluster.nodes {
        let entries = kafka
            .describe_broker_configs(n.id)
            .await
            .with_context(|| format!("cannot read the configs of broker {}", n.id))
            .map_err(io)?;
        out.push(BrokerRates::from_entries(n.id, &entries));
    }
    out.sort_by_key(|b| b.broker);
    Ok(out)
}

/// Whether the request that started the execution asked for a replication throttle.
fn request_throttled(request_url: &str) -> bool {
    request_url
        .split_once('?')
        .map(|(_, q)| q)
        .unwrap_or_default()
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .any(|(k, v)| k == "replication_throttle" && !v.is_empty() && v != "null")
}

/// Sets both throttle rates of each of `brokers` to `rate`.
async fn set_rates(kafka: &KafkaClient, brokers: &[i32], rate: u64) -> Result<(), CliError> {
    for b in brokers {
        kafka
            .incremental_alter_configs(
                ConfigTarget::Broker(*b),
                vec![
                    ConfigChange::set(pace::LEADER_RATE, rate.to_string()),
                    ConfigChange::set(pace::FOLLOWER_RATE, rate.to_string()),
                ],
            )
            .await
            .with_context(|| format!("cannot change the throttle rates of broker {b}"))
            .map_err(|e| {
                CliError::new(
                    ExitCode::Failed,
                    CodedError::new(ExitCode::Failed, format!("{e:#}")),
                )
            })?;
    }
    Ok(())
}

/// `rebalance pace --throttle` on a throttled execution: the live change.
#[derive(Debug, Serialize)]
struct LiveView {
    status: &'static str,
    task_id: String,
    replication_throttle: u64,
    /// The rates read back from the brokers after the change.
    brokers: Vec<BrokerRates>,
    /// Whether kafkaops keeps the rate until the execution ends.
    holding: bool,
}

fn render_live(v: &LiveView) -> String {
    let changed: Vec<String> = v
        .brokers
        .iter()
        .filter(|b| b.throttled())
        .map(|b| b.broker.to_string())
        .collect();
    let mut s = format!(
        "Replication throttle of task {} changed to {} B/s on broker(s) {}; the execution keeps running.\n",
        v.task_id,
        v.replication_throttle,
        if changed.is_empty() {
            "none yet".to_string()
        } else {
            changed.join(",")
        }
    );
    for b in &v.brokers {
        let show = |r: Option<u64>| r.map_or_else(|| "-".to_string(), |r| r.to_string());
        s.push_str(&format!(
            "  broker {}: leader {} B/s, follower {} B/s\n",
            b.broker,
            show(b.leader),
            show(b.follower)
        ));
    }
    s
}

/// The live change (see the module docs): set, read back, then hold until the execution ends.
#[allow(clippy::too_many_arguments)]
async fn live(
    ctx: &Ctx,
    a: &PaceArgs,
    rate: u64,
    cc: &crate::cruise_control::client::CruiseControlClient,
    kafka: &KafkaClient,
    task_id: &str,
    before: Vec<BrokerRates>,
) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let targets = pace::to_set(rate, &before);
    let now: Vec<String> = before
        .iter()
        .filter(|b| b.throttled())
        .map(|b| {
            format!(
                "{} ({}/{} B/s)",
                b.broker,
                b.leader.map_or("-".into(), |r| r.to_string()),
                b.follower.map_or("-".into(), |r| r.to_string())
            )
        })
        .collect();
    printer.note(format!(
        "Task {task_id} is throttled on broker(s) {} (leader/follower). kafkaops will set \
         leader.replication.throttled.rate and follower.replication.throttled.rate = {rate} B/s on \
         them through the Kafka Admin API; the execution keeps running.\n\
         Cruise Control puts its own rate back before each new batch of movements on a broker: {}",
        if now.is_empty() {
            "none right now".to_string()
        } else {
            now.join(", ")
        },
        if a.once {
            "with --once kafkaops does not set it again."
        } else {
            "kafkaops sets the new rate again each time, until the execution ends (Ctrl-C stops \
             that; the execution keeps running)."
        }
    ));
    confirm(
        &format!("Change the replication throttle of task {task_id} to {rate} B/s"),
        ctx.global.yes,
        printer.interactive,
    )?;
    set_rates(kafka, &targets, rate).await?;
    let after = broker_rates(kafka).await?;
    let view = LiveView {
        status: "changed",
        task_id: task_id.to_string(),
        replication_throttle: rate,
        brokers: after,
        holding: !a.once,
    };
    printer.emit(&view, render_live)?;
    if a.once {
        return Ok(ExitCode::Ok);
    }
    // Hold: set the rate again wherever Cruise Control put its own back.
    // The brokers' configs are read every second at most (Kafka), the executor every
    // --poll-interval (each read is a Cruise Control user task).
    let mut touched: BTreeSet<i32> = targets.into_iter().collect();
    let tick = a.poll_interval.min(Duration::from_secs(1));
    let mut executor_read = Instant::now();
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        tokio::select! {
            () = tokio::time::sleep(tick) => {}
            _ = &mut ctrl_c => {
                printer.note(format!(
                    "Stopped holding the throttle; task {task_id} keeps running (Cruise Control \
                     sets its own rate again at its next batch). Follow it with \
                     `kafkaops rebalance status --task {task_id} --follow`."
                ));
                return Ok(ExitCode::Ok);
            }
        }
        let mut ended = None;
        if executor_read.elapsed() >= a.poll_interval {
            executor_read = Instant::now();
            let deadline = Instant::now() + a.timeout;
            match cc.state(&[Substate::Executor], false, deadline, &obs).await {
                Ok(s) => {
                    let executor = s.executor_view();
                    if executor.is_idle()
                        || executor.triggered_user_task_id.as_deref() != Some(task_id)
                    {
                        ended = Some(executor);
                    }
                }
                Err(e) => tracing::warn!("cannot read Cruise Control's executor state: {e}"),
            }
        }
        let rates = match broker_rates(kafka).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!("cannot read the brokers' throttle rates: {e}");
                continue;
            }
        };
        if let Some(executor) = ended {
            // Cruise Control cleared its rates when the execution ended; a rate kafkaops set
            // after that (a race with the last batch) is removed the same way.
            let stale: Vec<i32> = rates
                .iter()
                .filter(|b| {
                    touched.contains(&b.broker)
                        && b.throttled()
                        && b.leader.unwrap_or(rate) == rate
                        && b.follower.unwrap_or(rate) == rate
                })
                .map(|b| b.broker)
                .collect();
            for b in &stale {
                let _ = kafka
                    .incremental_alter_configs(
                        ConfigTarget::Broker(*b),
                        vec![
                            ConfigChange::delete(pace::LEADER_RATE),
                            ConfigChange::delete(pace::FOLLOWER_RATE),
                        ],
                    )
                    .await
                    .map_err(|e| tracing::warn!("cannot remove the throttle of broker {b}: {e:#}"));
            }
            printer.note(format!(
                "Task {task_id} is no longer executing ({}): stopped holding the throttle. \
                 See how it ended with `kafkaops rebalance status --task {task_id}`.",
                executor.describe()
            ));
            return Ok(ExitCode::Ok);
        }
        let again = pace::to_set(rate, &rates);
        if !again.is_empty() {
            printer.note(format!(
                "Cruise Control set its own rate back on broker(s) {} for a new batch: setting {rate} B/s again",
                crate::app::cordon::join(&again)
            ));
            set_rates(kafka, &again, rate).await?;
            touched.extend(again);
        }
    }
}
