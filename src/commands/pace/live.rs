//! `rebalance pace --throttle RATE` on a throttled execution: the live change. The new rate is
//! set on the brokers that carry one (Kafka Admin API), read back, and held (set again each
//! time Cruise Control puts its own rate back for a new batch) until the execution ends,
//! Ctrl-C, or at once with `--once`. The execution keeps running throughout.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Serialize;

use crate::cli::rebalance::PaceArgs;
use crate::commands::Ctx;
use crate::commands::shared::observe::CliObserver;
use crate::cruise_control::client::CruiseControlClient;
use crate::cruise_control::params::Substate;
use crate::engine::pace::{self, BrokerRates};
use crate::engine::view::ExecutorState;
use crate::error::{CliError, CodedError, ExitCode};
use crate::kafka::{ConfigChange, ConfigTarget, KafkaAdmin, KafkaClient};
use crate::output::{Printer, confirm};

/// `rebalance pace --throttle` on a throttled execution: the live change.
#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct LiveView {
    status: &'static str,
    task_id: String,
    #[serde(rename = "replication_throttle_bytes_per_second")]
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
pub(super) async fn live(
    ctx: &Ctx,
    a: &PaceArgs,
    rate: u64,
    cc: &CruiseControlClient,
    kafka: &KafkaClient,
    task_id: &str,
    before: Vec<BrokerRates>,
) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let targets = pace::to_set(rate, &before);
    printer.note(what_will_happen(task_id, rate, &before, a.once));
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
    let hold = Hold {
        a,
        rate,
        cc,
        kafka,
        task_id,
        printer: &printer,
    };
    hold.until_the_execution_ends(targets.into_iter().collect())
        .await
}

/// What the live change does, said before it is confirmed.
fn what_will_happen(task_id: &str, rate: u64, before: &[BrokerRates], once: bool) -> String {
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
    format!(
        "Task {task_id} is throttled on broker(s) {} (leader/follower). kafkaops will set \
         leader.replication.throttled.rate and follower.replication.throttled.rate = {rate} B/s on \
         them through the Kafka Admin API; the execution keeps running.\n\
         Cruise Control puts its own rate back before each new batch of movements on a broker: {}",
        if now.is_empty() {
            "none right now".to_string()
        } else {
            now.join(", ")
        },
        if once {
            "with --once kafkaops does not set it again."
        } else {
            "kafkaops sets the new rate again each time, until the execution ends (Ctrl-C stops \
             that; the execution keeps running)."
        }
    )
}

/// Holding the new rate on the brokers while the execution runs.
struct Hold<'a> {
    a: &'a PaceArgs,
    rate: u64,
    cc: &'a CruiseControlClient,
    kafka: &'a KafkaClient,
    task_id: &'a str,
    printer: &'a Printer,
}

impl Hold<'_> {
    /// Sets the rate again wherever Cruise Control put its own back, until the execution ends
    /// (then a rate kafkaops left behind is removed) or Ctrl-C. The brokers' configs are read
    /// every second at most (Kafka), the executor every --poll-interval (each read is a Cruise
    /// Control user task).
    async fn until_the_execution_ends(
        &self,
        mut touched: BTreeSet<i32>,
    ) -> Result<ExitCode, CliError> {
        let (a, rate, task_id) = (self.a, self.rate, self.task_id);
        let tick = a.poll_interval.min(Duration::from_secs(1));
        let mut executor_read = Instant::now();
        let ctrl_c = tokio::signal::ctrl_c();
        tokio::pin!(ctrl_c);
        loop {
            tokio::select! {
                () = tokio::time::sleep(tick) => {}
                _ = &mut ctrl_c => {
                    self.printer.note(format!(
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
                ended = self.execution_ended().await;
            }
            let rates = match broker_rates(self.kafka).await {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!("cannot read the brokers' throttle rates: {e}");
                    continue;
                }
            };
            if let Some(executor) = ended {
                self.remove_stale_rates(&rates, &touched).await;
                self.printer.note(format!(
                    "Task {task_id} is no longer executing ({}): stopped holding the throttle. \
                     See how it ended with `kafkaops rebalance status --task {task_id}`.",
                    executor.describe()
                ));
                return Ok(ExitCode::Ok);
            }
            let again = pace::to_set(rate, &rates);
            if !again.is_empty() {
                self.printer.note(format!(
                    "Cruise Control set its own rate back on broker(s) {} for a new batch: setting {rate} B/s again",
                    crate::app::cordon::join(&again)
                ));
                set_rates(self.kafka, &again, rate).await?;
                touched.extend(again);
            }
        }
    }

    /// The executor, once it is idle or runs another task than the one held for.
    async fn execution_ended(&self) -> Option<ExecutorState> {
        let obs = CliObserver {
            printer: self.printer.clone(),
        };
        let deadline = Instant::now() + self.a.timeout;
        match self
            .cc
            .state(&[Substate::Executor], false, deadline, &obs)
            .await
        {
            Ok(s) => {
                let executor = s.executor_view();
                (executor.is_idle()
                    || executor.triggered_user_task_id.as_deref() != Some(self.task_id))
                .then_some(executor)
            }
            Err(e) => {
                tracing::warn!("cannot read Cruise Control's executor state: {e}");
                None
            }
        }
    }

    /// Cruise Control cleared its rates when the execution ended; a rate kafkaops set after
    /// that (a race with the last batch) is removed the same way.
    async fn remove_stale_rates(&self, rates: &[BrokerRates], touched: &BTreeSet<i32>) {
        let rate = self.rate;
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
            let _ = self
                .kafka
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
    }
}

/// Every broker's throttle rates (per-broker dynamic configs).
pub(super) async fn broker_rates(kafka: &KafkaClient) -> Result<Vec<BrokerRates>, CliError> {
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
