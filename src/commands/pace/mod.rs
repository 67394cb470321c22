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
//! `--output json` of the live change: `{"status":"changed","task_id","replication_throttle_bytes_per_second",
//! "brokers":[{"broker","leader_bytes_per_second","follower_bytes_per_second"}],"holding":bool}` (the rates read back after the change).
//! Of the stop/resume: `{"status":"resumed"|"drifted"|"nothing-left","stopped_task_id",
//! "task_id":str|null,"replication_throttle_bytes_per_second","endpoint","approved":"remaining"|"original",
//! "approved_replica_movements","new_replica_movements","drift":<DriftReport>}`.

mod live;
mod resume;

pub(crate) use live::LiveView;
pub(crate) use resume::ThrottleView;

use std::time::{Duration, Instant};

use serde::Serialize;

use super::Ctx;
use super::shared::observe::{CliObserver, cruise_control as client};
use crate::cli::rebalance::PaceArgs;
use crate::cruise_control::params::{ConcurrencyChange, Substate};
use crate::engine::pace::BrokerRates;
use crate::error::{CliError, CodedError, ExitCode};
use crate::kafka::KafkaClient;

/// `rebalance pace` output.
#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct PaceView {
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

/// `rebalance pace --throttle RATE`: the live change on a throttled execution, else stop,
/// re-check, resume (see the module docs).
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
        let rates = live::broker_rates(&kafka).await?;
        if rates.iter().any(BrokerRates::throttled) || request_throttled(&task.request_url) {
            return live::live(ctx, a, rate, &cc, &kafka, &task_id, rates).await;
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
    resume::stop_and_resume(ctx, a, rate, &cc, &task_id, &task).await
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
