//! `kafkaops journal ...` arguments.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum JournalCommand {
    /// List the journals of past runs: id, command, start, duration, outcome
    List(JournalDir),
    /// Show what a run did: the plan it showed, what was confirmed, each request and answer,
    /// each decision and wait, the outcome
    Show(ShowArgs),
    /// Write one .tar.gz with every journal and a health snapshot of the cluster (if it
    /// answers), secrets redacted, for a ticket or a post-mortem
    Bundle(BundleArgs),
}

#[derive(Debug, Args)]
pub struct JournalDir {
    /// State directory whose journals to read [default: $XDG_STATE_HOME/kafkaops, else
    /// ~/.local/state/kafkaops]
    #[arg(long, env = "KAFKAOPS_STATE_DIR", value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The journal's id (from `journal list`), or `last`
    pub id: String,
    #[command(flatten)]
    pub dir: JournalDir,
}

#[derive(Debug, Args)]
pub struct BundleArgs {
    /// Where to write the archive [default: kafkaops-bundle-TIME.tar.gz in the working
    /// directory]
    #[arg(long, value_name = "FILE")]
    pub output_file: Option<PathBuf>,
    /// How long the health snapshot may take before the bundle is written without it
    #[arg(long, default_value = "30s", value_parser = super::parse_duration, value_name = "DURATION")]
    pub health_timeout: Duration,
    #[command(flatten)]
    pub dir: JournalDir,
}
