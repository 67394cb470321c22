//! `kafkaops quorum ...` and `kafkaops upgrade` arguments (KRaft lifecycle, issue #28).

use std::time::Duration;

use clap::{Args, Subcommand};

use super::parse_duration;
use super::roll::RollRunArgs;

#[derive(Debug, Subcommand)]
pub enum QuorumCommand {
    /// The controller quorum: voters and observers, leader, lag, kraft.version, and a verdict
    /// (exit 0 healthy, 4 a voter lagging or no leader, 1 no caught-up majority)
    Status(QuorumLimits),
    /// Make a controller that runs as an observer a voter (AddRaftVoter), once it has caught up
    Add(QuorumChangeArgs),
    /// Remove a voter (RemoveRaftVoter), only if the others keep a caught-up majority
    Remove(QuorumChangeArgs),
    /// Turn a static quorum dynamic (kraft.version 0 -> 1, Kafka 4.1+); cannot be undone
    Migrate(QuorumWaitArgs),
}

/// The caught-up limits of the quorum rules.
#[derive(Debug, Args, Clone)]
pub struct QuorumLimits {
    /// How far behind the leader's clock a member's last caught-up time may be
    /// (controller.quorum.fetch.timeout.ms)
    #[arg(long, value_name = "DURATION", default_value = "2s", value_parser = parse_duration)]
    pub caught_up_within: Duration,
    /// How many records a controller to add may trail the leader's log end
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_lag_records: i64,
    /// How old a controller to add's last fetch may be
    #[arg(long, value_name = "DURATION", default_value = "2s", value_parser = parse_duration)]
    pub max_fetch_age: Duration,
}

/// Which pods' roll Lease a change must not overlap (Kubernetes): the flags `roll` takes.
#[derive(Debug, Args, Clone, Default)]
pub struct RollLeaseArgs {
    /// Kubernetes: the pods `kafkaops roll --pod-selector` rolls; the change is refused (exit 5)
    /// while a roll holds their Lease, and holds it itself meanwhile [with --strimzi: the
    /// cluster's pods]
    #[arg(long, value_name = "SELECTOR")]
    pub pod_selector: Option<String>,
    /// With --pod-selector: the pod label holding the Kafka node id
    #[arg(long, value_name = "LABEL", requires = "pod_selector")]
    pub node_id_label: Option<String>,
}

#[derive(Debug, Args)]
pub struct QuorumWaitArgs {
    #[command(flatten)]
    pub limits: QuorumLimits,
    #[command(flatten)]
    pub lease: RollLeaseArgs,
    /// How long to wait for the change to be allowed and then to show
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_duration)]
    pub wait: Duration,
}

#[derive(Debug, Args)]
pub struct QuorumChangeArgs {
    /// The controller's node id
    #[arg(long, value_name = "ID")]
    pub controller: i32,
    #[command(flatten)]
    pub wait: QuorumWaitArgs,
}

#[derive(Debug, Args)]
pub struct UpgradeArgs {
    /// Finalize the feature levels (the point of no return: no downgrade after it). Without
    /// it: a dry run showing each node's software, the feature levels and the plan
    #[arg(long)]
    pub finalize: bool,
    /// A feature level to finalize, FEATURE=LEVEL (repeatable; default: metadata.version at the
    /// highest level every node supports). kraft.version is refused: that is `quorum migrate`
    #[arg(long = "feature", value_name = "FEATURE=LEVEL", value_parser = parse_feature)]
    pub features: Vec<(String, i16)>,
    /// How long to wait for every node to report the new levels
    #[arg(long, value_name = "DURATION", default_value = "2m", value_parser = parse_duration)]
    pub wait: Duration,
    /// Roll every node not yet on this release's software (e.g. 4.4) through the safe roll,
    /// controllers first, once you have changed the software each node starts with: each
    /// restarted node must report that release's latest metadata.version, else the roll stops
    /// (nothing is finalized). Resumable like `roll`; then let it soak and `--finalize`
    #[arg(long, value_name = "RELEASE", conflicts_with_all = ["finalize", "features"])]
    pub to: Option<String>,
    /// How `--to` restarts nodes (the `roll` flags); with --finalize only --pod-selector and
    /// --node-id-label count (the roll Lease the finalization holds)
    #[command(flatten)]
    pub roll: RollRunArgs,
}

impl UpgradeArgs {
    /// The roll Lease `--finalize` holds (Kubernetes).
    #[must_use]
    pub fn lease(&self) -> RollLeaseArgs {
        RollLeaseArgs {
            pod_selector: self.roll.pod_selector.clone(),
            node_id_label: self.roll.node_id_label.clone(),
        }
    }
}

/// Parses `FEATURE=LEVEL`.
fn parse_feature(s: &str) -> Result<(String, i16), String> {
    let (k, v) = super::parse_key_value(s)?;
    let level = v
        .trim()
        .parse::<i16>()
        .map_err(|_| format!("{v:?} is not a feature level (an integer)"))?;
    Ok((k, level))
}
