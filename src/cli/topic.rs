//! `kafkaops topic ...` arguments.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::parse_duration;

#[derive(Debug, Subcommand)]
pub enum TopicCommand {
    /// Change the replication factor of topics through Cruise Control (dry run unless --execute)
    SetRf(SetRfArgs),
    /// Replication-factor changes: pending, ongoing and finished (from the state file, refreshed
    /// from Kafka and Cruise Control where possible); changes nothing
    Status(TopicStatusArgs),
}

#[derive(Debug, Args)]
pub struct TopicStatusArgs {
    /// Where the state file (`topic-set-rf.json`) of pending and ongoing changes lives
    /// [default: $XDG_STATE_HOME/kafkaops or ~/.local/state/kafkaops]
    #[arg(long, value_name = "DIR", env = "KAFKAOPS_STATE_DIR")]
    pub state_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SetRfArgs {
    /// Topics to change (exact names; repeatable or comma-separated)
    #[arg(long, value_name = "TOPICS", value_delimiter = ',', requires = "replication_factor", conflicts_with_all = ["from_file", "status"])]
    pub topics: Vec<String>,
    /// The new replication factor of --topics
    #[arg(
        long = "replication-factor",
        short = 'r',
        value_name = "N",
        requires = "topics"
    )]
    pub replication_factor: Option<u16>,
    /// YAML or JSON list of `{topic, replication_factor}` entries (several factors in one run)
    #[arg(long, value_name = "FILE", conflicts_with = "status")]
    pub from_file: Option<PathBuf>,
    /// Old spelling of `kafkaops topic status` (kept, hidden)
    #[arg(long, hide = true)]
    pub status: bool,
    /// Execute the change (default: dry run, show Cruise Control's proposal only)
    #[arg(long)]
    pub execute: bool,
    /// With --execute: return once Cruise Control accepted the change (follow it later by
    /// re-running the same command, or see it with `kafkaops topic status`)
    #[arg(long, requires = "execute")]
    pub no_wait: bool,
    /// Allow a factor below the topic's min.insync.replicas (producers with acks=all will fail)
    #[arg(long)]
    pub allow_below_min_isr: bool,
    /// Where the state file (`topic-set-rf.json`) of pending and ongoing changes lives
    /// [default: $XDG_STATE_HOME/kafkaops or ~/.local/state/kafkaops]
    #[arg(long, value_name = "DIR", env = "KAFKAOPS_STATE_DIR")]
    pub state_dir: Option<PathBuf>,
    /// Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)
    #[arg(long, value_name = "RATE", value_parser = super::parse_rate)]
    pub replication_throttle: Option<u64>,
    /// Concurrent inter-broker partition movements per broker
    #[arg(long, value_name = "N")]
    pub concurrent_partition_movements_per_broker: Option<u32>,
    /// Concurrent leader movements
    #[arg(long, value_name = "N")]
    pub concurrent_leader_movements: Option<u32>,
    /// Reason recorded by Cruise Control for the request
    #[arg(long, value_name = "TEXT", default_value = "kafkaops topic set-rf")]
    pub reason: String,
    /// Give up waiting (for another execution to end, for the change to finish) after this long
    #[arg(long, value_name = "DURATION", default_value = "30m", value_parser = parse_duration)]
    pub timeout: Duration,
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
