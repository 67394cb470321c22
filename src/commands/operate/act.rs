//! Acting on a decision: the Cruise Control requests of a rebalance (built from the policy's
//! template as `rebalance add|remove|full` builds them) and the unattended side of the shared
//! flow ([`OperateHooks`]: no prompt, no progress display, never a stop on interrupt: a
//! controller leaves an execution running when it exits, and the next leader attaches to it).

use std::time::Instant;

use clap::Parser;

use super::policy::Policy;
use crate::cli::rebalance::ProposalArgs;
use crate::commands::rebalance::checked_request;
use crate::cruise_control::CcError;
use crate::cruise_control::client::{Answer, CruiseControlClient, Observer};
use crate::cruise_control::flow::FlowHooks;
use crate::cruise_control::model::{ExecutorState, OptimizationResult};
use crate::cruise_control::params::{RebalanceKind, RebalanceRequest};
use crate::engine::cc_flow::InterruptChoice;
use crate::engine::rebalance::{Mode, Rebalance};
use crate::error::CliError;

/// The proposal options of a flagless `rebalance` command (clap's defaults).
#[derive(Parser)]
struct Defaults {
    #[command(flatten)]
    proposal: ProposalArgs,
}

/// The Cruise Control request of `r`, with its mode's template from the policy.
pub fn request(policy: &Policy, r: &Rebalance) -> Result<RebalanceRequest, CliError> {
    let brokers: Vec<i32> = r.brokers.iter().copied().collect();
    let kind = match r.mode {
        Mode::AddBrokers => RebalanceKind::AddBrokers(brokers),
        Mode::RemoveBrokers => RebalanceKind::RemoveBrokers {
            brokers,
            destinations: Vec::new(),
        },
        Mode::Imbalance => RebalanceKind::Full,
    };
    let defaults = Defaults::try_parse_from(["operate"])
        .map_err(|e| CliError::usage(format!("internal: default proposal options: {e}")))?;
    let mut args = policy.template_for(r.mode).merge_into(&defaults.proposal);
    args.reason = format!(
        "kafkaops operate: {} {}",
        r.mode.name(),
        crate::engine::operate::target_of(r)
    );
    checked_request(&kind, &args, None)
}

/// The `topic_configuration` request of a replication-factor round: every pending change,
/// grouped by target factor (as `topic set-rf` sends it); the rack-awareness check is skipped
/// only when no broker has a rack.
#[must_use]
pub fn rf_request(
    replicas: &crate::engine::replicas::ReplicasState,
    racks: bool,
) -> crate::cruise_control::params::TopicConfigurationRequest {
    use crate::cruise_control::params::{ExecutionOptions, GoalOptions, TopicConfigurationRequest};
    TopicConfigurationRequest {
        topic: String::new(),
        replication_factor: 0,
        by_factor: replicas
            .to_send()
            .into_iter()
            .map(|(rf, topics)| (rf, crate::engine::replicas::whole_names_regex(&topics)))
            .collect(),
        skip_rack_awareness_check: !racks,
        execution: ExecutionOptions {
            dryrun: true,
            ..ExecutionOptions::default()
        },
        goals: GoalOptions::default(),
        reason: "kafkaops operate: replication factors".into(),
    }
}

/// The unattended flow hooks: log lines instead of prompts and progress bars.
pub struct OperateHooks;

impl FlowHooks for OperateHooks {
    type Error = CliError;

    async fn check_input(
        &self,
        _cc: &CruiseControlClient,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<Result<(), CliError>, CcError> {
        // The brokers come from Kafka's metadata, and Cruise Control checks them itself; one
        // user-task slot fewer.
        Ok(Ok(()))
    }

    fn waiting_for_ready(&self, reason: &str) {
        super::log(format!("waiting for Cruise Control's load model: {reason}"));
    }

    fn proposal(&self, dry_run: &Answer<OptimizationResult>) {
        let s = &dry_run.value.summary;
        super::log(format!(
            "proposal: {} replica movement(s), {} leader movement(s), {:.1} MB to move",
            s.num_replica_movements,
            s.num_leader_movements,
            s.data_to_move_mb.unwrap_or(0.0)
        ));
    }

    fn confirm(&self, _dry_run: &Answer<OptimizationResult>) -> Result<(), CliError> {
        Ok(())
    }

    fn following(&self, _task_id: Option<&str>) {
        // Said once per task by the loop (this is called on every resume).
    }

    fn progress(&self, _executor: &ExecutorState) {}

    fn follow_ended(&self) {}

    async fn choose_after_interrupt(&self, _task_id: Option<&str>) -> InterruptChoice {
        InterruptChoice::LeaveRunning
    }
}
