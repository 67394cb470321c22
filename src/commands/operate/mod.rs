//! `kafkaops operate`: the other subcommands' logic as a long-running controller.
//!
//! Each loop (a resync interval, woken early by changes) observes Kafka, Cruise Control and,
//! in Kubernetes, the pods; decides with the pure engines (`crate::engine::operate` over the
//! auto-rebalance machine, the replication-factor engine and the roll engine); acts through
//! the same adapters as the CLI. What differs between a plain host and Kubernetes sits behind
//! [`ports`]. What to keep true is the [`policy`] file. [`telemetry`] serves metrics and health.

pub mod kube_ports;
pub mod policy;
pub mod ports;
pub mod telemetry;

use super::Ctx;
use crate::cli::operate::OperateArgs;
use crate::error::{CliError, ExitCode};

/// Runs `kafkaops operate` (work in progress: issue #13).
pub async fn run(_ctx: &Ctx, _args: OperateArgs) -> Result<ExitCode, CliError> {
    Err(CliError::usage(
        "`kafkaops operate` is not implemented yet (issue #13)",
    ))
}
