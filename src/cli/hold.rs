//! `kafkaops hold ...` arguments.

use std::time::Duration;

use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum HoldCommand {
    /// Hold nodes: never restarted by a roll (nor operate's), never a destination of a rebalance
    /// kafkaops asks for, until the hold expires or is removed
    Add(AddArgs),
    /// List the holds stored in the cluster (expired ones marked as such)
    List,
    /// Remove the holds of nodes
    Remove(RemoveArgs),
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// Node ids to hold (comma-separated or repeated)
    #[arg(long, value_name = "IDS", value_delimiter = ',', required = true, num_args = 1..)]
    pub nodes: Vec<i32>,
    /// Why (shown by roll, health and hold list)
    #[arg(long, value_name = "TEXT")]
    pub reason: String,
    /// How long the hold lasts (e.g. 4h, 30m, 2d)
    #[arg(long, value_name = "DURATION", value_parser = super::parse_duration)]
    pub expires: Duration,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// Node ids whose hold to remove (comma-separated or repeated)
    #[arg(long, value_name = "IDS", value_delimiter = ',', required = true, num_args = 1..)]
    pub nodes: Vec<i32>,
}
