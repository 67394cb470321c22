//! The terminal's side of a rebalance flow: the proposal shown before it runs, the question
//! asked, the progress bar while it runs, the choice after Ctrl-C.

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use super::{ProposalView, follow_message, num, render_proposal, terminated, usage};
use crate::app::rebalance::validate_against_cluster;
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::params::RebalanceKind;
use crate::cruise_control::{Answer, CcError, CruiseControlClient, Observer};
use crate::driver::cc_flow::FlowHooks;
use crate::engine::cc_flow::InterruptChoice;
use crate::engine::drift::{DriftReport, Plan, Tolerance};
use crate::engine::view::{ExecutionProgress, ExecutorState};
use crate::error::CliError;
use crate::output::{Printer, confirm, progress_bar};

/// The rebalance command's side of the Cruise Control flow.
pub(crate) struct RebalanceHooks<'a> {
    pub(crate) kind: &'a RebalanceKind,
    pub(crate) printer: &'a Printer,
    pub(crate) execute: bool,
    pub(crate) show_internal: bool,
    pub(crate) url: String,
    pub(crate) follow: Mutex<Option<FollowDisplay>>,
    /// `--approved-plan`: what a `--yes` execution must match.
    pub(crate) approved_plan: Option<Plan>,
    pub(crate) tolerance: Tolerance,
}

/// The progress bar while following, and what its rate is computed from.
pub(crate) struct FollowDisplay {
    pb: indicatif::ProgressBar,
    started: Instant,
    first_mb: Option<f64>,
    /// The highest counters seen so far ([`ExecutionProgress::observe`]): a real Cruise Control
    /// drops them in the leader phase and moves them in jumps.
    seen: Option<ExecutionProgress>,
}

impl FlowHooks for RebalanceHooks<'_> {
    type Error = CliError;

    async fn check_input(
        &self,
        cc: &CruiseControlClient,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<Result<(), CliError>, CcError> {
        // A dry run changes nothing and Cruise Control checks the ids itself ("Broker [9] does
        // not exist.", exit 2): asking kafka_cluster_state first would only take one more of its
        // few user-task slots (reference section 13). An execution is checked first.
        if matches!(self.kind, RebalanceKind::Full) || !self.execute {
            return Ok(Ok(()));
        }
        let cluster = cc.kafka_cluster_state(deadline, obs).await?;
        Ok(validate_against_cluster(self.kind, &cluster.broker_ids()).map_err(usage))
    }

    fn waiting_for_ready(&self, reason: &str) {
        self.printer
            .note(format!("Waiting for Cruise Control's load model: {reason}"));
    }

    fn proposal(&self, dry_run: &Answer<OptimizationResult>) {
        let view = ProposalView::new(self.kind, &dry_run.value, true);
        if let RebalanceKind::RemoveBrokers { brokers, .. } = self.kind {
            let left = left_in_proposal(&view, brokers);
            if !left.is_empty() {
                self.printer.note(format!(
                    "Warning: this proposal leaves replicas on leaving broker(s): {}; they would not be empty after it",
                    left.iter()
                        .map(|(b, n)| format!("broker {b}: {n} replica(s)"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        // With --execute the proposal is shown once, as what is about to run; a dry run is
        // printed with the outcome.
        if !self.execute {
            return;
        }
        let view = ProposalView {
            show_internal: self.show_internal,
            ..view
        };
        let text = render_proposal(&view, self.printer.color, true);
        if self.printer.format == crate::output::OutputFormat::Table {
            if let Err(e) = crate::output::write_stdout(&text) {
                tracing::warn!("cannot print the proposal: {e:#}");
            }
        } else if self.printer.interactive {
            // JSON or YAML on a terminal: stdout carries the document at the end, but the
            // person about to be asked must see what they approve first (on stderr).
            crate::output::write_stderr(&text);
        }
    }

    fn execution_drifted(&self, report: &DriftReport, task_id: Option<&str>) {
        self.printer.note(format!(
            "Warning: Cruise Control recomputed the proposal for the execution{} and it differs from the approved one ({}); it is running. Stop it with `kafkaops rebalance stop` if that is not acceptable",
            task_id.map(|t| format!(" (task {t})")).unwrap_or_default(),
            report.reasons.join("; ")
        ));
    }

    fn approved_plan(&self) -> Option<Plan> {
        self.approved_plan.clone()
    }

    fn tolerance(&self) -> Tolerance {
        self.tolerance
    }

    fn drifted(&self, report: &DriftReport, new: &Answer<OptimizationResult>) {
        self.printer.note(
            crate::app::rebalance::drift::render_drift(report)
                .trim_end()
                .to_string(),
        );
        if self.printer.interactive {
            let view = ProposalView::new(self.kind, &new.value, true);
            let text = render_proposal(&view, self.printer.color, true).replacen(
                "Proposal to execute:",
                "New proposal:",
                1,
            );
            if self.printer.format == crate::output::OutputFormat::Table {
                let _ = crate::output::write_stdout(&text);
            } else {
                crate::output::write_stderr(&text);
            }
        }
    }

    fn confirm(&self, dry_run: &Answer<OptimizationResult>) -> Result<(), CliError> {
        let view = ProposalView::new(self.kind, &dry_run.value, true);
        let action = format!(
            "Execute this proposal on Cruise Control at {} ({} replica and {} leader movements, {} MB)",
            self.url,
            view.summary.replica_movements,
            view.summary.leader_movements,
            num(view.summary.data_to_move_mb, 0)
        );
        // --yes never reaches this hook: the flow skips the question.
        confirm(&action, false, self.printer.interactive)?;
        Ok(())
    }

    fn following(&self, task_id: Option<&str>) {
        self.printer.note(format!(
            "Execution started{}; following it (Ctrl-C to stop it or leave it running)",
            task_id.map(|t| format!(" (task {t})")).unwrap_or_default()
        ));
        let mut follow = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        *follow = Some(FollowDisplay {
            pb: progress_bar(self.printer, 0, "moving"),
            started: Instant::now(),
            first_mb: None,
            seen: None,
        });
    }

    fn progress(&self, executor: &ExecutorState) {
        let mut p = executor.progress();
        let mut follow = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(f) = follow.as_mut() {
            match f.seen.as_mut() {
                Some(seen) => seen.observe(&p),
                None => f.seen = Some(p.clone()),
            }
            if let Some(seen) = &f.seen {
                p = seen.clone();
            }
            let base = *f.first_mb.get_or_insert(p.data_finished_mb);
            f.pb.set_length(p.partitions_total.max(1));
            f.pb.set_position(p.partitions_finished);
            f.pb.set_message(follow_message(
                &p,
                p.data_finished_mb - base,
                f.started.elapsed().as_secs_f64(),
            ));
        }
        tracing::info!(
            "{}: {}/{} partitions, {:.0}/{:.0} MB",
            p.state,
            p.partitions_finished,
            p.partitions_total,
            p.data_finished_mb,
            p.data_total_mb
        );
    }

    fn follow_ended(&self) {
        let mut follow = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(f) = follow.take() {
            f.pb.finish_and_clear();
        }
    }

    async fn choose_after_interrupt(&self, _task_id: Option<&str>) -> InterruptChoice {
        // SIGTERM is a CI job or a pod being cancelled, not a person: like Ctrl-C without a
        // terminal, the execution is left running.
        if !self.printer.interactive || terminated() {
            return InterruptChoice::LeaveRunning;
        }
        let stop = tokio::task::spawn_blocking(|| {
            dialoguer::Select::new()
                .with_prompt("Interrupted. What about the running execution?")
                .items(["Leave it running", "Stop it"])
                .default(0)
                .interact()
                .map(|i| i == 1)
                .unwrap_or(false)
        })
        .await
        .unwrap_or(false);
        if stop {
            InterruptChoice::Stop
        } else {
            InterruptChoice::LeaveRunning
        }
    }
}

/// Leaving brokers that still hold replicas after the proposal, with how many (pure).
#[must_use]
pub fn left_in_proposal(p: &ProposalView, leaving: &[i32]) -> Vec<(i64, u64)> {
    p.broker_load
        .iter()
        .filter(|l| leaving.iter().any(|b| i64::from(*b) == l.broker))
        .filter_map(|l| l.replicas_after.filter(|n| *n > 0).map(|n| (l.broker, n)))
        .collect()
}
