//! What `topic set-rf` shows and asks while the shared Cruise Control flow runs: the
//! [`FlowHooks`] of a replication-factor change (notes, the confirmation, the progress bar, the
//! choice after Ctrl-C).

use std::collections::BTreeSet;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use super::render::other_topics_line;
use crate::app::topic::set_rf::summary;
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::{Answer, CcError, CruiseControlClient, Observer};
use crate::driver::cc_flow::FlowHooks;
use crate::engine::cc_flow::InterruptChoice;
use crate::engine::drift::{DriftReport, Plan, Tolerance};
use crate::engine::view::ExecutorState;
use crate::error::CliError;
use crate::output::{Printer, confirm, progress_bar};

/// What `set-rf` says when it follows a change (pure): one it just started, or (`again`) one an
/// earlier run started, said only once Cruise Control shows it still knows the task.
pub(super) fn following_note(task_id: Option<&str>, again: bool) -> String {
    let task = task_id.map(|t| format!(" (task {t})")).unwrap_or_default();
    if again {
        format!(
            "Following the change started earlier{task} (Ctrl-C to stop it or leave it running)"
        )
    } else {
        format!("Change started{task}; following it (Ctrl-C to stop it or leave it running)")
    }
}

pub(super) struct TopicHooks<'a> {
    pub(super) printer: &'a Printer,
    /// The topics the command names (the proposal may touch others).
    pub(super) named: &'a BTreeSet<String>,
    pub(super) execute: bool,
    pub(super) url: String,
    pub(super) follow: Mutex<Option<indicatif::ProgressBar>>,
}

impl FlowHooks for TopicHooks<'_> {
    type Error = CliError;

    async fn check_input(
        &self,
        _cc: &CruiseControlClient,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<Result<(), CliError>, CcError> {
        // Checked against Kafka before the flow started (engine::replicas::validate).
        Ok(Ok(()))
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
        if self.execute {
            let s = summary(&dry_run.value, self.named);
            self.printer.note(format!(
                "Cruise Control's proposal: {} replica movements, {} leader movements",
                s.replica_movements, s.leader_movements
            ));
            if let Some(line) = other_topics_line(&s) {
                self.printer.note(line);
            }
        }
    }

    fn confirm(&self, dry_run: &Answer<OptimizationResult>) -> Result<(), CliError> {
        let s = summary(&dry_run.value, self.named);
        let others = s.topics.iter().filter(|t| !t.named).count();
        let action = format!(
            "Change replication factors through Cruise Control at {} ({} replica and {} leader movements{})",
            self.url,
            s.replica_movements,
            s.leader_movements,
            if others > 0 {
                format!(", touching {others} other topic(s) too")
            } else {
                String::new()
            }
        );
        confirm(&action, false, self.printer.interactive)?;
        Ok(())
    }

    fn following(&self, task_id: Option<&str>) {
        self.printer.note(following_note(task_id, false));
        let mut f = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        *f = Some(progress_bar(self.printer, 0, "changing"));
    }

    fn following_again(&self, task_id: Option<&str>) {
        self.printer.note(following_note(task_id, true));
        let mut f = self.follow.lock().unwrap_or_else(PoisonError::into_inner);
        *f = Some(progress_bar(self.printer, 0, "changing"));
    }

    // A replication-factor change has no approved plan to hold the execution to: it executes
    // the dry run the operator was shown, and never re-checks it.
    fn approved_plan(&self) -> Option<Plan> {
        None
    }

    fn tolerance(&self) -> Tolerance {
        Tolerance::default()
    }

    fn drifted(&self, _report: &DriftReport, _new: &Answer<OptimizationResult>) {}

    fn execution_drifted(&self, _report: &DriftReport, _task_id: Option<&str>) {}

    fn progress(&self, executor: &ExecutorState) {
        let p = executor.progress();
        if let Some(pb) = self
            .follow
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
        {
            pb.set_length(p.partitions_total.max(1));
            pb.set_position(p.partitions_finished);
            pb.set_message(format!("partitions ({})", p.state));
        }
        tracing::info!(
            "{}: {}/{} partitions, {}/{} leaders",
            p.state,
            p.partitions_finished,
            p.partitions_total,
            p.leaders_finished,
            p.leaders_total
        );
    }

    fn follow_ended(&self) {
        if let Some(pb) = self
            .follow
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            pb.finish_and_clear();
        }
    }

    async fn choose_after_interrupt(&self, task_id: Option<&str>) -> InterruptChoice {
        if !self.printer.interactive {
            return InterruptChoice::LeaveRunning;
        }
        let prompt = format!(
            "Interrupted. Stop the change{} on Cruise Control (replicas already moved stay)?",
            task_id.map(|t| format!(" (task {t})")).unwrap_or_default()
        );
        let answer = tokio::task::spawn_blocking(move || {
            dialoguer::Confirm::new()
                .with_prompt(prompt)
                .default(false)
                .interact()
                .unwrap_or(false)
        })
        .await
        .unwrap_or(false);
        if answer {
            InterruptChoice::Stop
        } else {
            InterruptChoice::LeaveRunning
        }
    }
}
