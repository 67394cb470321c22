//! `kafkaops rebalance ...` arguments.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::{IdList, parse_duration};

#[derive(Debug, Subcommand)]
pub enum RebalanceCommand {
    /// Move replicas onto newly added brokers (Cruise Control add_broker)
    Add(AddArgs),
    /// Move all replicas off brokers about to be removed (Cruise Control remove_broker)
    Remove(RemoveArgs),
    /// Rebalance the whole cluster (Cruise Control rebalance)
    Full(FullArgs),
    /// Fix the goal violations Cruise Control reports that no rebalance handled yet: a full
    /// rebalance with a template's goals and options (dry run unless --execute)
    Imbalance(ImbalanceArgs),
    /// Show what Cruise Control is executing
    Status(StatusArgs),
    /// Stop the ongoing Cruise Control execution
    Stop(StopArgs),
    /// Change the pace of the running execution live (Cruise Control's admin endpoint)
    Pace(PaceArgs),
}

/// Options of `rebalance pace`.
#[derive(Debug, Args, Clone)]
pub struct PaceArgs {
    /// Concurrent inter-broker partition movements per broker from now on
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrency: u32,
    /// Concurrent leader movements from now on
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..))]
    pub leader_concurrency: Option<u32>,
    /// Reason recorded by Cruise Control for the request
    #[arg(long, default_value = "kafkaops rebalance pace")]
    pub reason: String,
    /// Give up waiting for Cruise Control after this long
    #[arg(long, default_value = "2m", value_parser = parse_duration)]
    pub timeout: Duration,
}

/// Options of `rebalance status`.
#[derive(Debug, Args, Clone)]
pub struct StatusArgs {
    /// Give up waiting for Cruise Control after this long
    #[arg(long, default_value = "2m", value_parser = parse_duration)]
    pub timeout: Duration,
}

/// Options of `rebalance stop`.
#[derive(Debug, Args, Clone)]
pub struct StopArgs {
    /// Give up waiting for the execution to stop after this long
    #[arg(long, default_value = "5m", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Reason recorded by Cruise Control for the request
    #[arg(long, default_value = "kafkaops")]
    pub reason: String,
    /// Pause between polls of Cruise Control (it advises at least 5s)
    #[arg(long, default_value = "5s", value_parser = parse_duration, hide = true)]
    pub poll_interval: Duration,
}

/// Options shared by add, remove and full.
#[derive(Debug, Args, Clone)]
pub struct ProposalArgs {
    /// Goals to optimise, in priority order (comma-separated) [default: Cruise Control's]
    #[arg(long, value_delimiter = ',')]
    pub goals: Vec<String>,
    /// Allow goals that leave out some hard goals
    #[arg(long)]
    pub skip_hard_goal_check: bool,
    /// Topics (regular expression) whose replicas must not move
    #[arg(long, value_name = "REGEX")]
    pub excluded_topics: Option<String>,
    /// Replication throttle during execution, bytes per second
    #[arg(long, value_name = "BYTES_PER_SEC")]
    pub replication_throttle: Option<u64>,
    /// Concurrent inter-broker partition movements per broker
    #[arg(long, value_name = "N")]
    pub concurrent_partition_movements_per_broker: Option<u32>,
    /// Concurrent leader movements
    #[arg(long, value_name = "N")]
    pub concurrent_leader_movements: Option<u32>,
    /// List internal topics (`__*`, e.g. Cruise Control's own sample topics) one by one in the movements table (default: one line for all of them)
    #[arg(long)]
    pub show_internal: bool,
    /// Execute the proposal (default: dry run, show it only)
    #[arg(long)]
    pub execute: bool,
    /// With --execute: return once the execution started, printing the task id
    #[arg(long, requires = "execute")]
    pub no_wait: bool,
    /// Give up waiting for Cruise Control (proposal or execution) after this long
    #[arg(long, default_value = "30m", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Reason recorded by Cruise Control for the request
    #[arg(long, default_value = "kafkaops")]
    pub reason: String,
    /// If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)
    #[arg(long, value_name = "DURATION", default_value = "0s", value_parser = parse_duration)]
    pub wait_for_ready: Duration,
    /// Pause between polls of Cruise Control (it advises at least 5s)
    #[arg(long, default_value = "5s", value_parser = parse_duration, hide = true)]
    pub poll_interval: Duration,
    /// With --execute: if partition reassignments not started by Cruise Control are in flight,
    /// wait up to this long for them to end (default: refuse at once with exit code 5)
    #[arg(long, value_name = "DURATION", default_value = "0s", value_parser = parse_duration)]
    pub wait_for_reassignments: Duration,
    /// With --strimzi: execute even though the Strimzi operator's reconciliation is not paused or
    /// one of its KafkaRebalances is executing (default: refuse with exit code 5)
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args, Clone)]
pub struct AddArgs {
    /// The new brokers (comma-separated ids); replicas move only onto these
    #[arg(long, required = true, value_parser = IdList::parse)]
    pub brokers: IdList,
    #[command(flatten)]
    pub proposal: ProposalArgs,
}

#[derive(Debug, Args, Clone)]
pub struct RemoveArgs {
    /// The brokers being removed (comma-separated ids); replicas move only off these
    #[arg(long, required = true, value_parser = IdList::parse)]
    pub brokers: IdList,
    /// Move replicas only onto these brokers (comma-separated ids)
    #[arg(long, value_parser = IdList::parse)]
    pub destination_brokers: Option<IdList>,
    #[command(flatten)]
    pub proposal: ProposalArgs,
}

#[derive(Debug, Args, Clone)]
pub struct FullArgs {
    #[command(flatten)]
    pub proposal: ProposalArgs,
}

#[derive(Debug, Args, Clone)]
pub struct ImbalanceArgs {
    /// Rebalance template: YAML with the fields of a KafkaRebalance spec (goals, skipHardGoalCheck,
    /// excludedTopics, replicationThrottle, concurrentPartitionMovementsPerBroker,
    /// concurrentLeaderMovements), or a whole KafkaRebalance; flags given here override it
    #[arg(long, env = "KAFKAOPS_REBALANCE_TEMPLATE", value_name = "FILE")]
    pub template: Option<PathBuf>,
    /// Directory of the file that records which violations were fixed [default:
    /// $XDG_STATE_HOME/kafkaops or ~/.local/state/kafkaops]
    #[arg(long, env = "KAFKAOPS_STATE_DIR", value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// Keep watching and rebalance on every new goal violation until stopped (Ctrl-C)
    #[arg(long, conflicts_with = "no_wait")]
    pub watch: bool,
    /// With --watch: pause between looks at Cruise Control's anomalies
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    pub interval: Duration,
    #[command(flatten)]
    pub proposal: ProposalArgs,
}
