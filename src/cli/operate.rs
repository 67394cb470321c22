//! `kafkaops operate` arguments.
//!
//! The roll platform flags are the ones of `kafkaops roll` (restart commands on a plain host,
//! `--strimzi`/`--pod-selector` in Kubernetes), so a controller restarts nodes exactly as the
//! command does. What to keep true is not a flag: it is the policy file, re-read on change.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::parse_duration;

/// How log lines are written (stderr).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines
    #[default]
    Text,
    /// One JSON object per line (for log collectors)
    Json,
}

#[derive(Debug, Args)]
pub struct OperateArgs {
    /// The policy file (YAML): auto-rebalance modes and templates, brokers to drain,
    /// replication factors, desired broker configuration. Re-read when it changes; a bad
    /// version is reported and the last good one stays in force
    #[arg(long, env = "KAFKAOPS_POLICY", value_name = "FILE")]
    pub policy: PathBuf,
    /// Time between reconcile loops when nothing happens, e.g. 30s, 2m
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_duration)]
    pub resync: Duration,
    /// Log every action it would take and take none (nothing is persisted either)
    #[arg(long)]
    pub dry_run: bool,
    /// Run one reconcile loop and exit (for scripts and tests of a single decision)
    #[arg(long)]
    pub once: bool,
    /// Plain host: directory of the state file (one per cluster) [default: $XDG_STATE_HOME/kafkaops,
    /// else ~/.local/state/kafkaops]
    #[arg(long, env = "KAFKAOPS_STATE_DIR", value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    // The text is clap's help, not Markdown: rustdoc must not read `[default: ...]` as a link.
    #[allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]
    /// Kubernetes: keep the state in this ConfigMap (key state.json) [default:
    /// kafkaops-operate-<cluster> with --strimzi, else the --lease name]
    #[arg(long, value_name = "NAME")]
    pub state_configmap: Option<String>,
    // The text is clap's help, not Markdown: rustdoc must not read `[default: ...]` as a link.
    #[allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]
    /// Kubernetes: leader election Lease; only its holder acts, standbys wait [default:
    /// kafkaops-operate-<cluster> with --strimzi, else the --state-configmap name]. Without
    /// Kubernetes a lock file in the state directory keeps a second instance out
    #[arg(long, value_name = "NAME")]
    pub lease: Option<String>,
    /// Kubernetes: how long a leader's Lease lasts without renewal (a standby takes over after it;
    /// the leader stops acting at 2/3 of it). At least 3s; rounded up to whole seconds
    #[arg(long, value_name = "DURATION", default_value = "15s", value_parser = parse_lease_duration)]
    pub lease_duration: Duration,
    /// Address of the HTTP endpoints /metrics, /healthz and /readyz (port 0: any free port, printed at start)
    #[arg(long, default_value = "127.0.0.1:9464", value_name = "ADDR")]
    pub listen: SocketAddr,
    /// Log line format on stderr
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Plain host: command restarting a node for a roll; {id} and {host} are replaced
    #[arg(long, value_name = "TEMPLATE", conflicts_with_all = ["stop_command", "start_command"])]
    pub restart_command: Option<String>,
    /// Plain host: instead of --restart-command, command stopping a node ({id}, {host})
    #[arg(long, value_name = "TEMPLATE", requires = "start_command")]
    pub stop_command: Option<String>,
    /// Plain host: instead of --restart-command, command starting a node ({id}, {host})
    #[arg(long, value_name = "TEMPLATE", requires = "stop_command")]
    pub start_command: Option<String>,
    /// Kubernetes without Strimzi: the pods of the cluster (restart = delete the pod)
    #[arg(long, value_name = "SELECTOR", conflicts_with_all = ["restart_command", "stop_command", "start_command"])]
    pub pod_selector: Option<String>,
    /// With --pod-selector: the pod label holding the Kafka node id [default: the number ending
    /// the pod name, e.g. a StatefulSet ordinal]
    #[arg(long, value_name = "LABEL", requires = "pod_selector")]
    pub node_id_label: Option<String>,
    /// How long one Cruise Control request, restart or reconfiguration may take before the
    /// action counts as failed (the loop goes on)
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = parse_duration)]
    pub action_timeout: Duration,
    /// A reassignment whose new replicas neither grew their log (DescribeLogDirs on the
    /// destination, sampled each loop while reassignments are in flight) nor joined the ISR
    /// for this long is `reassignment-stalled` in the health verdict on /metrics
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = parse_duration)]
    pub stall_after: Duration,
}

/// The shortest `--lease-duration`: the Lease stores whole seconds, the leader renews every
/// third of it and stops acting at two thirds, so shorter leases leave no room for one slow
/// renewal.
pub const MIN_LEASE_DURATION: Duration = Duration::from_secs(3);

/// clap value parser of `--lease-duration` (at least [`MIN_LEASE_DURATION`]).
pub fn parse_lease_duration(s: &str) -> Result<Duration, String> {
    let d = parse_duration(s)?;
    if d < MIN_LEASE_DURATION {
        return Err(format!(
            "{s:?} is too short: a lease lasts at least {}",
            humantime::format_duration(MIN_LEASE_DURATION)
        ));
    }
    Ok(d)
}
