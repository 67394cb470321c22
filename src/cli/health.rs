//! `kafkaops health` arguments.

use std::time::Duration;

use clap::Args;

use super::parse_duration;

#[derive(Debug, Args)]
pub struct HealthArgs {
    /// Observe again every --interval and print the verdict whenever it or its reasons change,
    /// until Ctrl-C
    #[arg(long)]
    pub watch: bool,
    /// Wait until the cluster is healthy (exit 0), observing every --interval; exit 3 when
    /// --timeout passes first
    #[arg(long)]
    pub exit_when_healthy: bool,
    /// How long --exit-when-healthy waits
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_duration, requires = "exit_when_healthy")]
    pub timeout: Duration,
    /// How often --watch and --exit-when-healthy observe
    #[arg(long, value_name = "DURATION", default_value = "5s", value_parser = parse_duration)]
    pub interval: Duration,
    /// Known conditions left out of the verdict (still shown): KIND or KIND:SUBJECT, e.g.
    /// `leftover-throttle`, `under-replicated:orders`, `broker-fenced:3` (comma-separated or
    /// repeated; kinds: see `-o json` or the README)
    #[arg(long, value_delimiter = ',', value_name = "KIND[:SUBJECT]")]
    pub ignore: Vec<String>,
}
