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
    /// Move leadership off brokers, e.g. before maintenance (Cruise Control demote_broker)
    Demote(DemoteArgs),
    /// Move replicas off JBOD volumes of a broker (Cruise Control remove_disks)
    RemoveDisks(RemoveDisksArgs),
    /// Fix the goal violations Cruise Control reports that no rebalance handled yet: a full
    /// rebalance with a template's goals and options (dry run unless --execute)
    Imbalance(ImbalanceArgs),
    /// Show what Cruise Control is executing
    Status(StatusArgs),
    /// Stop the ongoing Cruise Control execution
    Stop(StopArgs),
    /// Change the pace of the running execution live (Cruise Control's admin endpoint)
    Pace(PaceArgs),
    /// Cruise Control's two-step verification: list, approve or discard held requests
    #[command(subcommand)]
    Review(ReviewCommand),
}

/// Options of `rebalance pace`.
#[derive(Debug, Args, Clone)]
#[command(group(clap::ArgGroup::new("pace").required(true).args(["concurrency", "throttle"])))]
pub struct PaceArgs {
    /// Concurrent inter-broker partition movements per broker from now on (live), as
    /// `rebalance add|remove|full` name it; `--concurrency` still works
    #[arg(long = "concurrent-partition-movements-per-broker", alias = "concurrency", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrency: Option<u32>,
    /// Concurrent leader movements from now on (`--leader-concurrency` still works)
    #[arg(long = "concurrent-leader-movements", alias = "leader-concurrency", value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "throttle")]
    pub leader_concurrency: Option<u32>,
    /// New replication throttle, in bytes per second (`50MB/s`, `500KiB/s`), set on the brokers' throttle rates while
    /// the execution keeps running, and held until it ends (Cruise Control sets its own back
    /// before each batch). An execution started without a throttle is stopped and re-submitted
    /// with it, after a re-check of the plan (asks first unless --yes); `--throttle` still
    /// works
    #[arg(long = "replication-throttle", alias = "throttle", value_name = "RATE", value_parser = super::parse_rate, conflicts_with = "concurrency")]
    pub throttle: Option<u64>,
    /// With --replication-throttle: change the brokers' rates once and return instead of holding the new
    /// rate until the execution ends (Cruise Control sets its own back at its next batch)
    #[arg(long, conflicts_with = "concurrency")]
    pub once: bool,
    /// With --replication-throttle: largest change between what the stopped execution still had to do and
    /// the re-submitted proposal, in percent of the movements, leader movements and data;
    /// past it the execution stays stopped
    #[arg(long, value_name = "PERCENT", default_value = "10%", value_parser = parse_percent, conflicts_with = "concurrency")]
    pub max_drift: u32,
    /// With --replication-throttle: largest change of the data to move, in MB (default: no absolute cap)
    #[arg(long, value_name = "MB", conflicts_with = "concurrency")]
    pub max_data_mb: Option<u64>,
    /// With --replication-throttle: follow the resumed execution until it ends (default: print its task id
    /// and return, as `--no-wait`)
    #[arg(long, conflicts_with = "concurrency")]
    pub wait: bool,
    /// Reason recorded by Cruise Control for the request
    #[arg(long, value_name = "TEXT", default_value = "kafkaops rebalance pace")]
    pub reason: String,
    /// Give up waiting for Cruise Control after this long (with --replication-throttle: for the stop and the
    /// re-submission each)
    #[arg(long, value_name = "DURATION", default_value = "2m", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Pause between polls of Cruise Control (it advises at least 5s)
    #[arg(long, value_name = "DURATION", default_value = "5s", value_parser = parse_duration, hide = true)]
    pub poll_interval: Duration,
}

/// `rebalance review ...`
#[derive(Debug, Subcommand)]
pub enum ReviewCommand {
    /// List the requests Cruise Control holds for review (review_board)
    List(ReviewListArgs),
    /// Approve held requests; run one with the same command plus `--review-id ID`
    Approve(ReviewDecisionArgs),
    /// Discard held requests
    Discard(ReviewDecisionArgs),
}

/// Options of `rebalance review list`.
#[derive(Debug, Args, Clone)]
pub struct ReviewListArgs {
    /// Only these review ids (comma-separated)
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub ids: Vec<i64>,
    /// Give up waiting for Cruise Control after this long
    #[arg(long, value_name = "DURATION", default_value = "2m", value_parser = parse_duration)]
    pub timeout: Duration,
}

/// Options of `rebalance review approve|discard`.
#[derive(Debug, Args, Clone)]
pub struct ReviewDecisionArgs {
    /// Review ids (comma-separated)
    #[arg(value_name = "IDS", required = true, value_delimiter = ',')]
    pub ids: Vec<i64>,
    /// Reason recorded by Cruise Control for the review
    #[arg(long, value_name = "TEXT", default_value = "kafkaops")]
    pub reason: String,
    /// Give up waiting for Cruise Control after this long
    #[arg(long, value_name = "DURATION", default_value = "2m", value_parser = parse_duration)]
    pub timeout: Duration,
}

/// Options of `rebalance status`.
#[derive(Debug, Args, Clone)]
pub struct StatusArgs {
    /// Give up waiting for Cruise Control after this long
    #[arg(long, value_name = "DURATION", default_value = "2m", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Report what became of this Cruise Control user task (the task id `--no-wait`, a timeout or
    /// an interrupt printed): running, completed (exit 0), failed (exit 1) or stopped (exit 9)
    #[arg(long, value_name = "ID")]
    pub task: Option<String>,
    /// With --task: re-attach and follow the execution until it ends
    #[arg(long, requires = "task")]
    pub follow: bool,
    /// With --follow: give up following after this long (default: follow while it runs)
    #[arg(long, value_name = "DURATION", requires = "follow", value_parser = parse_duration)]
    pub follow_timeout: Option<Duration>,
    /// Pause between polls of Cruise Control (it advises at least 5s)
    #[arg(long, value_name = "DURATION", default_value = "5s", value_parser = parse_duration, hide = true)]
    pub poll_interval: Duration,
}

/// Options of `rebalance stop`.
#[derive(Debug, Args, Clone)]
pub struct StopArgs {
    /// Give up waiting for the execution to stop after this long
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Reason recorded by Cruise Control for the request
    #[arg(long, value_name = "TEXT", default_value = "kafkaops")]
    pub reason: String,
    /// Pause between polls of Cruise Control (it advises at least 5s)
    #[arg(long, value_name = "DURATION", default_value = "5s", value_parser = parse_duration, hide = true)]
    pub poll_interval: Duration,
}

/// Options shared by add, remove and full.
#[derive(Debug, Args, Clone)]
pub struct ProposalArgs {
    /// Goals to optimise, in priority order (comma-separated) [default: Cruise Control's]
    #[arg(long, value_name = "GOALS", value_delimiter = ',')]
    pub goals: Vec<String>,
    /// Allow goals that leave out some hard goals
    #[arg(long)]
    pub skip_hard_goal_check: bool,
    /// Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control
    /// still moves their replicas off the leaving brokers (only moves among the others are
    /// excluded)
    #[arg(long, value_name = "REGEX")]
    pub excluded_topics: Option<String>,
    /// Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)
    #[arg(long, value_name = "RATE", value_parser = super::parse_rate)]
    pub replication_throttle: Option<u64>,
    /// Concurrent inter-broker partition movements per broker
    #[arg(long, value_name = "N")]
    pub concurrent_partition_movements_per_broker: Option<u32>,
    /// Concurrent leader movements
    #[arg(long, value_name = "N")]
    pub concurrent_leader_movements: Option<u32>,
    /// Concurrent inter-broker partition movements in the whole cluster
    #[arg(long, value_name = "N")]
    pub max_partition_movements_in_cluster: Option<u32>,
    /// Order of the replica movements: strategies from Cruise Control's
    /// replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)
    #[arg(long, value_name = "STRATEGY", value_delimiter = ',')]
    pub replica_movement_strategies: Vec<String>,
    /// Do not move leadership onto recently demoted brokers
    #[arg(long)]
    pub exclude_recently_demoted_brokers: bool,
    /// Any other Cruise Control parameter of the endpoint, passed through (repeatable; names
    /// the endpoint does not accept and names kafkaops sets itself are refused)
    #[arg(long = "cc-param", value_name = "KEY=VALUE")]
    pub cc_params: Vec<String>,
    /// List internal topics (`__*`, e.g. Cruise Control's own sample topics) one by one in the movements table (default: one line for all of them)
    #[arg(long)]
    pub show_internal: bool,
    /// Execute the proposal (default: dry run, show it only)
    #[arg(long)]
    pub execute: bool,
    /// With --execute: how much the proposal may change between its approval and the
    /// execution (share of changed replica movements, leader movements or data to move); past
    /// it nothing runs: the new proposal is shown and asked about again; with --yes and
    /// --approved-plan it is refused
    #[arg(long, value_name = "PERCENT", default_value = "10%", value_parser = parse_percent)]
    pub max_drift: u32,
    /// With --execute: largest change of the data to move between the approval and the
    /// execution, in MB (default: no absolute cap)
    #[arg(long, value_name = "MB")]
    pub max_data_mb: Option<u64>,
    /// With --execute: the proposal approved beforehand (the `--output json` of a dry run); the
    /// execution must match it within --max-drift / --max-data-mb
    #[arg(long, value_name = "FILE", requires = "execute")]
    pub approved_plan: Option<PathBuf>,
    /// Run the request Cruise Control's two-step verification approved under this id (see
    /// `kafkaops rebalance review`): an approved dry run shows its proposal (then, with
    /// --execute, the execution request is held for review in turn); an approved execution
    /// needs --execute and is followed like any execution
    #[arg(long, value_name = "ID", conflicts_with = "approved_plan")]
    pub review_id: Option<i64>,
    /// With --execute: return once the execution started, printing the task id
    #[arg(long, requires = "execute")]
    pub no_wait: bool,
    /// Give up waiting for Cruise Control's proposal (and the start of the execution) after
    /// this long
    #[arg(long, value_name = "DURATION", default_value = "30m", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Give up following the execution after this long, counted from its start (it keeps
    /// running; exit 3) [default: follow as long as it runs]
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub follow_timeout: Option<Duration>,
    /// Reason recorded by Cruise Control for the request
    #[arg(long, value_name = "TEXT", default_value = "kafkaops")]
    pub reason: String,
    /// If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)
    #[arg(long, value_name = "DURATION", default_value = "0s", value_parser = parse_duration)]
    pub wait_for_ready: Duration,
    /// Pause between polls of Cruise Control (it advises at least 5s)
    #[arg(long, value_name = "DURATION", default_value = "5s", value_parser = parse_duration, hide = true)]
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
    #[arg(long, value_name = "IDS", required = true, value_parser = IdList::parse)]
    pub brokers: IdList,
    #[command(flatten)]
    pub proposal: ProposalArgs,
}

#[derive(Debug, Args, Clone)]
pub struct RemoveArgs {
    /// The brokers being removed (comma-separated ids); replicas move only off these
    #[arg(long, value_name = "IDS", required = true, value_parser = IdList::parse)]
    pub brokers: IdList,
    /// Move replicas only onto these brokers (comma-separated ids)
    #[arg(long, value_name = "IDS", value_parser = IdList::parse)]
    pub destination_brokers: Option<IdList>,
    #[command(flatten)]
    pub proposal: ProposalArgs,
}

#[derive(Debug, Args, Clone)]
pub struct FullArgs {
    /// Move replicas only onto these brokers (comma-separated ids)
    #[arg(long, value_name = "IDS", value_parser = IdList::parse)]
    pub destination_brokers: Option<IdList>,
    /// Balance the disks within each broker instead (JBOD; Cruise Control's intra-broker goals;
    /// no --goals)
    #[arg(long, conflicts_with = "goals")]
    pub rebalance_disk: bool,
    /// Concurrent intra-broker (between disks) partition movements
    #[arg(long, value_name = "N")]
    pub concurrent_intra_broker_partition_movements: Option<u32>,
    #[command(flatten)]
    pub proposal: ProposalArgs,
}

#[derive(Debug, Args, Clone)]
pub struct DemoteArgs {
    /// The brokers to demote (comma-separated ids): their replicas become the least preferred
    /// leaders and leadership moves away
    #[arg(long, value_name = "IDS", required = true, value_parser = IdList::parse)]
    pub brokers: IdList,
    #[command(flatten)]
    pub proposal: ProposalArgs,
}

#[derive(Debug, Args, Clone)]
pub struct RemoveDisksArgs {
    /// Volumes to empty, as BROKER-LOGDIR (comma-separated), e.g. 1-/var/lib/kafka/data-1
    #[arg(
        long = "brokers-and-logdirs",
        required = true,
        value_name = "ID-LOGDIR",
        value_delimiter = ','
    )]
    pub brokers_and_logdirs: Vec<String>,
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
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_duration)]
    pub interval: Duration,
    #[command(flatten)]
    pub proposal: ProposalArgs,
}

/// `10%` or `10` -> 10.
fn parse_percent(s: &str) -> Result<u32, String> {
    s.trim()
        .trim_end_matches('%')
        .trim()
        .parse::<u32>()
        .map_err(|e| format!("not a percentage (e.g. 10%): {e}"))
}
