//! `kafkaops reassignments ...` arguments.

use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum ReassignmentsCommand {
    /// List the partition reassignments in flight (adding, removing, progress, who started them)
    List,
    /// Cancel partition reassignments in flight; each partition goes back to its original
    /// replicas (dry run unless --execute)
    Cancel(CancelArgs),
}

#[derive(Debug, Args)]
pub struct CancelArgs {
    /// Cancel every reassignment in flight
    #[arg(long, conflicts_with = "partitions")]
    pub all: bool,
    /// The partitions to cancel, as TOPIC-PARTITION (e.g. orders-3)
    #[arg(value_name = "TOPIC-PARTITION")]
    pub partitions: Vec<String>,
    /// Cancel them (default: dry run, show what would be cancelled)
    #[arg(long)]
    pub execute: bool,
}
