//! `kafkaops anomalies ...` arguments.

use std::time::Duration;

use clap::{Args, Subcommand};

use super::parse_duration;

#[derive(Debug, Subcommand)]
pub enum AnomaliesCommand {
    /// Stream the anomalies Cruise Control detects (planned: not implemented yet)
    Watch(WatchArgs),
}

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Poll interval
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    pub interval: Duration,
    /// Print the current anomalies once and exit
    #[arg(long)]
    pub once: bool,
}
