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
}

#[derive(Debug, Args)]
pub struct CordonArgs {
    /// The brokers (comma-separated ids)
    #[arg(long, required = true, value_parser = IdList::parse)]
    pub brokers: IdList,
}
