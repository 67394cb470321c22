//! The terminal's side of a rebalance flow: the proposal shown before it runs, the question
//! asked, the progress bar while it runs, the choice after Ctrl-C.

use std::sync::atomic::{AtomicBool, Ordering};
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
use crate::engine::eta::Eta;
use crate::engine::view::{ExecutionProgress, ExecutorState};
use crate::error::CliError;
use crate::output::{Printer, confirm, progress_bar, progress_style};

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
    /// Following an execution something else started (`rebalance status --task --follow`).
    pub(crate) attached: bool,
    /// The operator chose "Leave it running" at the Ctrl-C menu.
    pub(crate) chose_leave: AtomicBool,
}

impl RebalanceHooks<'_> {
    /// After the flow: when the operator chose to leave the execution running, a clean exit
    /// (the note to print) instead of an interruption error.
    pub(crate) fn left_running_by_choice(
        &self,
        outcome: &crate::engine::cc_flow::Outcome,
    ) -> Option<String> {
        left_running_note(outcome, self.chose_leave.load(Ordering::SeqCst))
    }
}

/// The note for an execution the operator chose to leave running, or `None` when the outcome
/// is anything else (pure).
#[must_use]
pub(crate) fn left_running_note(
    outcome: &crate::engine::cc_flow::Outcome,
    chosen: bool,
) -> Option<String> {
    use crate::engine::cc_flow::{AfterInterrupt, Outcome};
    match outcome {
        Outcome::Interrupted {
            task_id,
            after: AfterInterrupt::LeftRunning,
        } if chosen => Some(match task_id {
            Some(t) => format!(
                "Left task {t} running on Cruise Control. Follow it with \
                 `kafkaops rebalance status --task {t} --follow`; stop it with `kafkaops rebalance stop`."
            ),
            None => "Left the execution running on Cruise Control (it was being started). See it \
                     with `kafkaops rebalance status`; stop it with `kafkaops rebalance stop`."
                .to_string(),
        }),
        _ => None,
    }
}

/// The progress bar while following, and what its rate is computed from.
pub(crate) struct FollowDisplay {
    pb: indicatif::ProgressBar,
    started: Instant,
    /// The one ETA: a smoothed rate between changes of the data counter.
    eta: Eta,
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

    fn waiting_for_previous_stop(&self) {
        self.printer
            .note(crate::driver::cc_flow::PREVIOUS_STOP_NOTE);
    }

    fn proposal(&self, dry_run: &Answer<OptimizationResult>) {
        let view = ProposalView::new(self.kind, &dry_run.value, true);
        if let Some(w) = super::dead_brokers_warning(&view) {
            self.printer.note(w);
        }
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
        let text = render_proposal(&view, self.printer.style(), true);
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
            let text = render_proposal(&view, self.printer.style(), true).replacen(
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
        let task = task_id.map(|t| format!(" (task {t})")).unwrap_or_default();
        self.printer.note(if self.attached {
            format!("Following the running execution{task} (Ctrl-C to stop it or leave it running)")
        } else {
            format!("Execution started{task}; following it (Ctrl-C to stop it or leave it running)")
        });
        let mut follow = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        *follow = Some(FollowDisplay {
            pb: progress_bar(self.printer, 0, "moving"),
            started: Instant::now(),
            eta: Eta::new(),
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
            f.eta
                .observe(f.started.elapsed().as_secs_f64(), p.data_finished_mb);
            match bar_counts(&p) {
                Some((pos, len)) => {
                    f.pb.set_style(progress_style(true));
                    f.pb.set_length(len);
                    f.pb.set_position(pos);
                }
                // Cruise Control reports no partition counters yet (or between phases): no
                // "0/0" while partitions move.
                None => f.pb.set_style(progress_style(false)),
            }
            f.pb.set_message(follow_message(
                &p,
                f.eta.rate(),
                f.eta.seconds_left(p.data_total_mb),
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
            self.chose_leave.store(true, Ordering::SeqCst);
            InterruptChoice::LeaveRunning
        }
    }
}

/// The bar's position and length, or `None` when Cruise Control gives no partition total (pure).
#[must_use]
pub(crate) fn bar_counts(p: &ExecutionProgress) -> Option<(u64, u64)> {
    (p.partitions_total > 0).then(|| {
        (
            p.partitions_finished.min(p.partitions_total),
            p.partitions_total,
        )
    })
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

#[cfg(test)]
mod tests {
    use super::left_running_note;
    use crate::engine::cc_flow::{AfterInterrupt, Outcome};

    #[test]
    fn only_a_chosen_leave_is_a_clean_exit_and_it_suggests_following_the_task() {
        let left = Outcome::Interrupted {
            task_id: Some("t-1".into()),
            after: AfterInterrupt::LeftRunning,
        };
        let note = left_running_note(&left, true).unwrap();
        assert!(
            note.contains("kafkaops rebalance status --task t-1 --follow"),
            "{note}"
        );
        // Left running without a choice (no terminal, a second Ctrl-C): still an interruption.
        assert_eq!(left_running_note(&left, false), None);
        for after in [
            AfterInterrupt::StopRequested,
            AfterInterrupt::StopFailed,
            AfterInterrupt::NothingStarted,
        ] {
            let o = Outcome::Interrupted {
                task_id: Some("t-1".into()),
                after,
            };
            assert_eq!(left_running_note(&o, true), None, "{o:?}");
        }
    }

    #[test]
    fn no_zero_of_zero_while_partitions_move_and_one_eta_at_most() {
        use super::super::follow_message;
        use super::bar_counts;
        use crate::engine::view::ExecutionProgress;
        let moving = ExecutionProgress {
            state: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into(),
            partitions_in_progress: 9,
            data_total_mb: 15.0,
            ..ExecutionProgress::default()
        };
        assert_eq!(bar_counts(&moving), None, "no 0/0 bar");
        let m = follow_message(&moving, None, None);
        assert!(
            m.contains("9 partition(s) moving") && !m.contains("0/0 ("),
            "{m}"
        );
        let counted = ExecutionProgress {
            partitions_total: 15,
            partitions_finished: 7,
            data_finished_mb: 7.0,
            ..moving
        };
        assert_eq!(bar_counts(&counted), Some((7, 15)));
        let m = follow_message(&counted, Some(0.5), Some(16.0));
        assert_eq!(m.matches("left").count(), 1, "{m}");
        // No rate (or a stalled one): no estimate at all.
        let m = follow_message(&counted, Some(0.5), None);
        assert!(!m.contains("left") && !m.contains("eta"), "{m}");
    }
}
