//! Acting on a decision: the Cruise Control requests of a rebalance (built from the policy's
//! template as `rebalance add|remove|full` builds them) and the unattended side of the shared
//! flow ([`OperateHooks`]: no prompt, no progress display, never a stop on interrupt: a
//! controller leaves an execution running when it exits, and the next leader attaches to it).

use std::time::Instant;

use super::policy::Policy;
use crate::app::rebalance::{ProposalSpec, checked_request};
use crate::app::topic::RoundOptions;
use crate::cruise_control::CcError;
use crate::cruise_control::client::{Answer, CruiseControlClient, Observer};
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::{RebalanceKind, RebalanceRequest};
use crate::driver::cc_flow::FlowHooks;
use crate::engine::cc_flow::InterruptChoice;
use crate::engine::drift::{DriftReport, Plan, Tolerance};
use crate::engine::failure::Classified;
use crate::engine::operate::RunningRebalance;
use crate::engine::rebalance::Mode;
use crate::engine::view::ExecutorState;

/// The `reason` of an operate request: what and why, and the mover's tag, which tells its
/// task from any other in `user_tasks` (`crate::engine::operate::find_our_task`).
fn reason(what: &str, tag: &str) -> String {
    if tag.is_empty() {
        format!("kafkaops operate: {what}")
    } else {
        format!("kafkaops operate: {what} [{tag}]")
    }
}

/// The Cruise Control request of the running rebalance `running`, with its mode's template
/// from the policy. While brokers are on the drain list, the engine names the only brokers
/// replicas may move to (`destination_broker_ids`, which `rebalance` and `remove_broker`
/// accept), so nothing lands on a broker about to be stopped.
///
/// # Errors
/// The template sets an option the mode's endpoint does not accept.
pub fn request(
    policy: &Policy,
    running: &RunningRebalance,
) -> Result<RebalanceRequest, Classified> {
    let r = &running.rebalance;
    let brokers: Vec<i32> = r.brokers.iter().copied().collect();
    let destinations: Vec<i32> = running.destinations.iter().flatten().copied().collect();
    let kind = match r.mode {
        Mode::AddBrokers => RebalanceKind::AddBrokers(brokers),
        Mode::RemoveBrokers => RebalanceKind::RemoveBrokers {
            brokers,
            destinations: destinations.clone(),
        },
        Mode::Imbalance => RebalanceKind::Full,
    };
    // The options of a flagless `rebalance` command, with the mode's template merged in.
    let mut args = policy
        .template_for(r.mode)
        .merge_into(&ProposalSpec::default());
    args.reason = reason(
        &format!("{} {}", r.mode.name(), crate::engine::operate::target_of(r)),
        &running.tag,
    );
    let mut req = checked_request(&kind, &args, None)?;
    if r.mode == Mode::Imbalance {
        req.goals.destination_broker_ids = destinations;
    }
    Ok(req)
}

/// The `topic_configuration` request of a replication-factor round: every pending change,
/// grouped by target factor (as `topic set-rf` sends it); the rack-awareness check is skipped
/// only when no broker has a rack.
#[must_use]
pub fn rf_request(
    replicas: &crate::engine::replicas::ReplicasState,
    racks: bool,
    tag: &str,
) -> crate::cruise_control::params::TopicConfigurationRequest {
    let options = RoundOptions {
        reason: reason("replication factors", tag),
        ..RoundOptions::default()
    };
    crate::app::topic::round_request(replicas, &options, racks)
}

/// The unattended flow hooks: log lines instead of prompts and progress bars.
pub struct OperateHooks;

impl FlowHooks for OperateHooks {
    type Error = Classified;

    async fn check_input(
        &self,
        _cc: &CruiseControlClient,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<Result<(), Classified>, CcError> {
        // The brokers come from Kafka's metadata, and Cruise Control checks them itself; one
        // user-task slot fewer.
        Ok(Ok(()))
    }

    fn waiting_for_ready(&self, reason: &str) {
        super::log(format!("waiting for Cruise Control's load model: {reason}"));
    }

    fn waiting_for_previous_stop(&self) {
        super::log(crate::driver::cc_flow::PREVIOUS_STOP_NOTE);
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

    fn confirm(&self, _dry_run: &Answer<OptimizationResult>) -> Result<(), Classified> {
        Ok(())
    }

    fn following(&self, _task_id: Option<&str>) {
        // Said once per task by the loop (this is called on every resume).
    }

    fn following_again(&self, task_id: Option<&str>) {
        FlowHooks::following(self, task_id);
    }

    fn progress(&self, _executor: &ExecutorState) {}

    fn follow_ended(&self) {}

    async fn choose_after_interrupt(&self, _task_id: Option<&str>) -> InterruptChoice {
        InterruptChoice::LeaveRunning
    }

    // No approved plan: the loop executes the dry run it was shown, at the default tolerance,
    // and has nobody to tell about a drift (it never re-checks).
    fn approved_plan(&self) -> Option<Plan> {
        None
    }

    fn tolerance(&self) -> Tolerance {
        Tolerance::default()
    }

    fn drifted(&self, _report: &DriftReport, _new: &Answer<OptimizationResult>) {}

    fn execution_drifted(&self, _report: &DriftReport, _task_id: Option<&str>) {}
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::driver::cc_flow::CcOperation;
    use crate::engine::cc_flow::{CcFlow, FlowConfig};
    use crate::engine::model::Millis;
    use crate::engine::rebalance::Rebalance;

    fn running(mode: Mode, brokers: &[i32], destinations: Option<&[i32]>) -> RunningRebalance {
        RunningRebalance {
            rebalance: Rebalance {
                mode,
                brokers: brokers.iter().copied().collect(),
                anomalies: Vec::new(),
            },
            flow: CcFlow::new(FlowConfig {
                execute: true,
                assume_yes: true,
                no_wait: false,
                timeout_ms: 1,
                wait_for_ready_ms: 0,
                poll_interval_ms: 1,
                recheck: false,
                follow_timeout_ms: None,
            }),
            requested_at: None,
            stop_requested: false,
            started_at: Millis(0),
            destinations: destinations.map(|d| d.iter().copied().collect::<BTreeSet<i32>>()),
            tag: "1700000000000-3".into(),
            request: None,
        }
    }

    fn param(q: &[(String, String)], name: &str) -> Option<String> {
        q.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    #[test]
    fn requests_name_the_engines_destinations_and_carry_the_movers_tag() {
        let policy = Policy::parse("{}").unwrap();
        let full = request(&policy, &running(Mode::Imbalance, &[], Some(&[1, 2, 3]))).unwrap();
        let q = full.execution_query().unwrap();
        assert_eq!(
            param(&q, "destination_broker_ids").as_deref(),
            Some("1,2,3")
        );
        assert_eq!(param(&q, "dryrun").as_deref(), Some("false"));
        assert!(
            param(&q, "reason").is_some_and(|r| r.ends_with("[1700000000000-3]")),
            "{q:?}"
        );
        let rm = request(&policy, &running(Mode::RemoveBrokers, &[3], Some(&[1, 2]))).unwrap();
        let q = rm.execution_query().unwrap();
        assert_eq!(param(&q, "brokerid").as_deref(), Some("3"));
        assert_eq!(param(&q, "destination_broker_ids").as_deref(), Some("1,2"));
        // No restriction: nothing added; add_broker never takes destinations.
        let full = request(&policy, &running(Mode::Imbalance, &[], None)).unwrap();
        assert_eq!(
            param(&full.execution_query().unwrap(), "destination_broker_ids"),
            None
        );
        let add = request(&policy, &running(Mode::AddBrokers, &[5], Some(&[1]))).unwrap();
        assert_eq!(
            param(&add.execution_query().unwrap(), "destination_broker_ids"),
            None
        );
        let rf = rf_request(
            &crate::engine::replicas::ReplicasState::default(),
            true,
            "7-1",
        );
        assert!(
            param(&rf.execution_query().unwrap(), "reason")
                .is_some_and(|r| r == "kafkaops operate: replication factors [7-1]")
        );
    }
}
