//! `kafkaops broker ...` arguments.

use clap::{Args, Subcommand};

use super::IdList;

#[derive(Debug, Subcommand)]
pub enum BrokerCommand {
    /// Cordon brokers (KIP-1066, Kafka 4.3+): they take no new partitions, so topics created
    /// while they are drained do not land on them
    Cordon(CordonArgs),
    /// Uncordon brokers: they take new partitions again
    Uncordon(CordonArgs),
    /// Registered brokers (fenced ones too): rack, whether they run, replicas still on them
    List,
    /// Remove the registration of brokers that are gone (fenced, stopped, holding no replica;
    /// KIP-1073). A dry run unless --execute
    Unregister(UnregisterArgs),
}

#[derive(Debug, Args)]
pub struct UnregisterArgs {
    /// The brokers (comma-separated ids)
    #[arg(long, value_name = "IDS", required = true, value_parser = IdList::parse)]
    pub brokers: IdList,
    /// Unregister them (after confirmation, or --yes); without it only the checks run
    #[arg(long)]
    pub execute: bool,
    /// How long to wait until Kafka no longer lists them
    #[arg(long, value_name = "DURATION", default_value = "1m", value_parser = super::parse_duration)]
    pub wait: std::time::Duration,
}

#[derive(Debug, Args)]
pub struct CordonArgs {
    /// The brokers (comma-separated ids)
    #[arg(long, value_name = "IDS", required = true, value_parser = IdList::parse)]
    pub brokers: IdList,
}
