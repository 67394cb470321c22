//! `kafkaops topic ...` arguments.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::parse_duration;

#[derive(Debug, Subcommand)]
pub enum TopicCommand {
    /// Change the replication factor of topics through Cruise Control (planned: not implemented yet)
    SetRf(SetRfArgs),
}

#[derive(Debug, Args)]
pub struct SetRfArgs {
    /// Topics to change (names; repeatable or comma-separated)
    #[arg(long, value_delimiter = ',', required = true)]
    pub topics: Vec<String>,
    /// The new replication factor
    #[arg(long = "replication-factor", short = 'r')]
    pub replication_factor: u16,
    /// Execute (default: dry run)
    #[arg(long)]
    pub execute: bool,
    /// Return once the change started
    #[arg(long, requires = "execute")]
    pub no_wait: bool,
    /// Where to remember the change, so a later run resumes it after a Cruise Control restart
    #[arg(long, value_name = "FILE")]
    pub state_file: Option<PathBuf>,
    /// Give up waiting after this long
    #[arg(long, default_value = "30m", value_parser = parse_duration)]
    pub timeout: Duration,
}
