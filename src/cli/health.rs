//! `kafkaops health` arguments.

use std::path::PathBuf;
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
    /// A reassignment whose new replicas neither grew their log (DescribeLogDirs on the
    /// destination) nor joined the ISR for this long is `reassignment-stalled` (degraded).
    /// Judging needs two looks: --watch compares its own observations; a one-shot `health`
    /// keeps the last sample in a small file of the state directory
    /// (`health-progress-<bootstrap>.json`) and compares with the run before it
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = parse_duration)]
    pub stall_after: Duration,
    /// State directory for the one-shot sample file [default: $XDG_STATE_HOME/kafkaops, else
    /// ~/.local/state/kafkaops]
    #[arg(long, env = "KAFKAOPS_STATE_DIR", value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// Known conditions left out of the verdict (still shown): KIND or KIND:SUBJECT, e.g.
    /// `leftover-throttle`, `under-replicated:orders`, `broker-fenced:3` (comma-separated or
    /// repeated; kinds: see `-o json` or the README)
    #[arg(long, value_delimiter = ',', value_name = "KIND[:SUBJECT]")]
    pub ignore: Vec<String>,
}
