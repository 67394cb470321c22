//! `kafkaops throttles ...` arguments.

use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum ThrottlesCommand {
    /// List every replication throttle set on the cluster (broker rates, topic throttled
    /// replicas) and whether anything moving needs it
    List,
    /// Remove the replication throttles (dry run unless --execute); refused while a movement
    /// uses them, unless --force
    Clear(ClearArgs),
}

#[derive(Debug, Args)]
pub struct ClearArgs {
    /// Remove them (default: dry run, show what would be removed)
    #[arg(long)]
    pub execute: bool,
    /// Remove them even while reassignments are in flight or Cruise Control executes (or may:
    /// its state cannot be read); the movement then runs unthrottled
    #[arg(long)]
    pub force: bool,
}
