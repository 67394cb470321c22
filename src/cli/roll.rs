//! `kafkaops roll` arguments.
//!
//! The desired configuration is `--desired-config FILE`, not `--config`: `--config` is the
//! global kafkaops config-file flag.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::{IdList, parse_duration, parse_key_value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RoleFilter {
    Broker,
    Controller,
}

#[derive(Debug, Args)]
pub struct RollArgs {
    /// Roll every node
    #[arg(long, conflicts_with_all = ["nodes", "role"])]
    pub all: bool,
    /// Roll these nodes (comma-separated ids)
    #[arg(long, alias = "brokers", value_name = "IDS", value_parser = IdList::parse)]
    pub nodes: Option<IdList>,
    /// Roll the nodes with this role
    #[arg(long, value_enum, value_name = "ROLE")]
    pub role: Option<RoleFilter>,
    /// Desired broker configuration (a .properties file): broker-role nodes whose effective
    /// config differs are reconfigured dynamically where possible, restarted otherwise
    #[arg(long = "desired-config", value_name = "FILE")]
    pub desired_config: Option<PathBuf>,
    /// Desired configuration value (repeatable)
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_key_value)]
    pub set: Vec<(String, String)>,
    #[command(flatten)]
    pub run: RollRunArgs,
}

/// How a roll restarts nodes, its limits and its state: the flags `roll` and `upgrade --to`
/// (which rolls every node onto new software) share.
#[derive(Debug, Args, Clone)]
pub struct RollRunArgs {
    /// Most brokers restarted together (only brokers sharing no partition)
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub max_batch_size: usize,
    /// How long a restarted node may take to serve again
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = parse_duration)]
    pub post_restart_timeout: Duration,
    /// How long a reconfigured node may take to settle
    #[arg(long, value_name = "DURATION", default_value = "2m", value_parser = parse_duration)]
    pub post_reconfigure_timeout: Duration,
    /// Restarts of one node before the roll aborts
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_restart_attempts: u32,
    /// Failed dynamic reconfigurations before a node is restarted instead
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_reconfig_attempts: u32,
    /// Also restart unhealthy nodes outside the selection (stopped, not ready, lagging);
    /// by default they are only reported and still count in the safety checks
    #[arg(long)]
    pub include_unhealthy: bool,
    /// Print the plan and exit
    #[arg(long)]
    pub dry_run: bool,
    /// Roll even though Cruise Control is executing or cannot be asked (when it is configured
    /// or found with --strimzi), or, with --strimzi, the Strimzi operator's reconciliation is not
    /// paused or one of its KafkaRebalances is executing (default: refuse with exit code 5, or
    /// 6 when Cruise Control cannot be asked)
    #[arg(long)]
    pub force: bool,
    /// Do not restore preferred leaders after each restart
    #[arg(long)]
    pub no_preferred_leader_election: bool,
    /// Command restarting a node; {id} and {host} are replaced
    #[arg(long, value_name = "TEMPLATE", conflicts_with_all = ["stop_command", "start_command"])]
    pub restart_command: Option<String>,
    /// Instead of --restart-command: command stopping a node ({id}, {host}); needs --start-command
    #[arg(long, value_name = "TEMPLATE", requires = "start_command")]
    pub stop_command: Option<String>,
    /// Instead of --restart-command: command starting a node ({id}, {host}); needs --stop-command
    #[arg(long, value_name = "TEMPLATE", requires = "stop_command")]
    pub start_command: Option<String>,
    /// Timeout of one restart command
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_duration)]
    pub command_timeout: Duration,
    /// How often to observe the cluster while waiting
    #[arg(long, value_name = "DURATION", default_value = "2s", value_parser = parse_duration)]
    pub poll_interval: Duration,
    /// How long a safety check (min ISR, quorum, log recovery) may hold the roll back
    /// mid-way before it aborts
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_duration)]
    pub blocked_timeout: Duration,
    /// Directory of the saved roll state (one file per cluster); a re-run of the same roll
    /// resumes from it [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]
    #[arg(long, env = "KAFKAOPS_STATE_DIR", value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// Delete a saved roll of this cluster (finished or not) before starting
    #[arg(long)]
    pub discard_state: bool,
    /// Kubernetes: roll the pods matching this label selector (restart = delete the pod)
    #[arg(long, value_name = "SELECTOR", conflicts_with_all = ["restart_command", "stop_command", "start_command"])]
    pub pod_selector: Option<String>,
    /// With --pod-selector: the pod label holding the Kafka node id [default: the number
    /// ending the pod name, e.g. a StatefulSet ordinal]
    #[arg(long, value_name = "LABEL", requires = "pod_selector")]
    pub node_id_label: Option<String>,
    /// Refuse to roll (exit 1, nothing restarted; a dry run exits 1 too) while any topic on
    /// the nodes to restart cannot stay available: replication factor 1, factor at or below
    /// min.insync.replicas, partitions already under min ISR or offline; and (exit 5) while
    /// partition reassignments that Cruise Control did not start are in flight
    #[arg(long)]
    pub strict: bool,
}
