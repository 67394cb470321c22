//! `kafkaops anomalies ...` arguments.

use std::time::Duration;

use clap::{Args, Subcommand};

use super::parse_duration;

/// An anomaly type as the command line names it (the types Cruise Control reports, in the
/// order of its lists; `anomalies watch` maps them to the engine's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum AnomalyType {
    GoalViolation,
    BrokerFailure,
    DiskFailure,
    MetricAnomaly,
    TopicAnomaly,
    MaintenanceEvent,
}

#[derive(Debug, Subcommand)]
pub enum AnomaliesCommand {
    /// Stream the anomalies Cruise Control detects: each once when it first appears and again
    /// when its status changes (a live table on a terminal, one JSON object per line when piped)
    Watch(WatchArgs),
}

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Poll interval (Cruise Control keeps only a few recent anomalies per type: poll often
    /// enough not to miss one)
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_duration)]
    pub interval: Duration,
    /// Print the current anomalies once and exit
    #[arg(long)]
    pub once: bool,
    /// Only these anomaly types (comma-separated or repeated) [default: all]
    #[arg(long = "type", value_enum, value_delimiter = ',', value_name = "TYPE")]
    pub types: Vec<AnomalyType>,
    /// Only anomalies with these statuses, e.g. DETECTED,IGNORED,FIX_STARTED (comma-separated or
    /// repeated) [default: all]
    #[arg(long = "status", value_delimiter = ',', value_name = "STATUS")]
    pub statuses: Vec<String>,
    /// Exit with code 10 as soon as an anomaly of this type appears (comma-separated or
    /// repeated), for scripts and alerting
    #[arg(long, value_enum, value_delimiter = ',', value_name = "TYPE")]
    pub exit_on: Vec<AnomalyType>,
    /// Longest pause between attempts while Cruise Control is unreachable
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_duration)]
    pub max_backoff: Duration,
}
