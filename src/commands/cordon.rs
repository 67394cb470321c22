//! `kafkaops broker cordon|uncordon`: cordoning brokers by hand (KIP-1066).
//!
//! The cordon kafkaops puts around a `rebalance remove` (and what `rebalance stop` and `rebalance
//! status` do with it) is a use case of the application layer: [`crate::app::cordon`].

use serde::Serialize;

use super::Ctx;
use crate::app::cordon::{join, kafka, set, states, unsupported};
use crate::cli::broker::{BrokerCommand, CordonArgs};
use crate::engine::cordon::CordonState;
use crate::error::{CliError, CodedError, ExitCode};
use crate::kafka::{KafkaAdmin, KafkaClient};
use crate::output::confirm;

/// `broker cordon|uncordon` output.
#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct CordonView {
    cordoned: bool,
    changed: Vec<i32>,
    unchanged: Vec<i32>,
}

/// The ids of `asked` the cluster does not list, in the order asked.
fn unknown_brokers(asked: &[i32], known: &[i32]) -> Vec<i32> {
    let mut out: Vec<i32> = asked
        .iter()
        .copied()
        .filter(|b| !known.contains(b))
        .collect();
    out.dedup();
    out
}

/// Runs a `broker` subcommand.
pub async fn run(ctx: &Ctx, cmd: BrokerCommand) -> Result<ExitCode, CliError> {
    let (cordon, a): (bool, CordonArgs) = match cmd {
        BrokerCommand::Cordon(a) => (true, a),
        BrokerCommand::Uncordon(a) => (false, a),
        BrokerCommand::List | BrokerCommand::Unregister(_) => {
            return Err(CliError::usage("not a cordon command"));
        }
    };
    let kafka = kafka(ctx.kafka_access()).await?;
    let brokers = a.brokers.0;
    refuse_unknown(&kafka, &brokers).await?;
    let before = states(&kafka, &brokers).await?;
    let missing = crate::app::cordon::unsupported_brokers(&before);
    if !missing.is_empty() {
        return Err(CliError::new(
            ExitCode::Failed,
            CodedError::new(
                ExitCode::Failed,
                format!("{}; nothing was changed", unsupported(&missing)),
            ),
        ));
    }
    let mut todo = Vec::new();
    let mut unchanged = Vec::new();
    for (b, state) in &before {
        if matches!(state, CordonState::Cordoned(_)) == cordon {
            unchanged.push(*b);
        } else {
            todo.push(*b);
        }
    }
    if !todo.is_empty() {
        confirm(
            &format!(
                "{} broker(s) {}",
                if cordon { "Cordon" } else { "Uncordon" },
                join(&todo)
            ),
            ctx.global.yes,
            ctx.printer.interactive,
        )?;
        for &b in &todo {
            set(&kafka, b, cordon).await?;
        }
    }
    let view = CordonView {
        cordoned: cordon,
        changed: todo,
        unchanged,
    };
    ctx.printer.emit(&view, render)?;
    Ok(ExitCode::Ok)
}

/// Ids the cluster does not have are a usage error, found at once (asking a missing broker for
/// its configs would wait for the request timeout).
async fn refuse_unknown(kafka: &KafkaClient, brokers: &[i32]) -> Result<(), CliError> {
    let known: Vec<i32> = kafka
        .describe_cluster()
        .await
        .map_err(|e| {
            CliError::new(
                ExitCode::Unreachable,
                CodedError::new(
                    ExitCode::Unreachable,
                    format!("cannot list the brokers: {e}"),
                ),
            )
        })?
        .nodes
        .iter()
        .map(|n| n.id)
        .collect();
    let unknown = unknown_brokers(brokers, &known);
    if unknown.is_empty() {
        return Ok(());
    }
    let mut known = known;
    known.sort_unstable();
    Err(CliError::new(
        ExitCode::Usage,
        CodedError::new(
            ExitCode::Usage,
            format!(
                "unknown broker id(s) {}; the cluster has brokers {}; nothing was changed",
                join(&unknown),
                join(&known)
            ),
        ),
    ))
}

fn render(v: &CordonView) -> String {
    let verb = if v.cordoned { "cordoned" } else { "uncordoned" };
    let mut s = String::new();
    if !v.changed.is_empty() {
        s.push_str(&format!("Broker(s) {} {verb}.\n", join(&v.changed)));
    }
    if !v.unchanged.is_empty() {
        s.push_str(&format!(
            "Broker(s) {} already {verb}.\n",
            join(&v.unchanged)
        ));
    }
    s
}
