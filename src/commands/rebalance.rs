//! `kafkaops rebalance ...`: Cruise Control add_broker / remove_broker / rebalance.

use super::Ctx;
use crate::cli::rebalance::RebalanceCommand;
use crate::error::{CliError, ExitCode};

pub async fn run(_ctx: &Ctx, _cmd: RebalanceCommand) -> Result<ExitCode, CliError> {
    Err(CliError::usage(
        "`kafkaops rebalance` is not implemented yet; nothing was changed",
    ))
}
