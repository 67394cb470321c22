//! The hold check of `topic set-rf` (issue 29): the command's flow hooks, wrapped so that no
//! new replica lands on a held node.

use std::collections::BTreeMap;
use std::time::Instant;

use super::super::{onto_held, onto_held_message};
use crate::cruise_control::model::OptimizationResult;
use crate::cruise_control::{CcError, CruiseControlClient, Observer};
use crate::driver::cc_flow::FlowHooks;
use crate::engine::failure::{Classified, FailureKind};
use crate::engine::model::NodeId;

/// The command's hooks, with the check that keeps new replicas off held nodes (issue 29):
/// `topic_configuration` takes no destination, so the dry-run proposal is checked before the
/// execution is asked for, and one that places a replica on a held node is refused
/// ([`FailureKind::Failed`], nothing sent). With holds the flow always reaches the confirmation
/// step; the person is asked once (not at all under `--yes`), the check runs every round.
pub(super) struct HoldGuard<'a, H> {
    inner: &'a H,
    held: &'a BTreeMap<NodeId, String>,
    assume_yes: bool,
    confirmed: std::sync::atomic::AtomicBool,
}

impl<'a, H> HoldGuard<'a, H> {
    /// `inner` guarded against `held` (empty: the check passes everything through);
    /// `assume_yes`: `--yes`, nobody is asked.
    pub(super) fn new(inner: &'a H, held: &'a BTreeMap<NodeId, String>, assume_yes: bool) -> Self {
        HoldGuard {
            inner,
            held,
            assume_yes,
            confirmed: std::sync::atomic::AtomicBool::new(false),
        }
    }
}

impl<H: FlowHooks> FlowHooks for HoldGuard<'_, H> {
    type Error = H::Error;

    async fn check_input(
        &self,
        cc: &CruiseControlClient,
        deadline: Instant,
        obs: &dyn Observer,
    ) -> Result<Result<(), H::Error>, CcError> {
        self.inner.check_input(cc, deadline, obs).await
    }

    fn waiting_for_ready(&self, reason: &str) {
        self.inner.waiting_for_ready(reason);
    }

    fn proposal(&self, dry_run: &crate::cruise_control::Answer<OptimizationResult>) {
        self.inner.proposal(dry_run);
    }

    fn confirm(
        &self,
        dry_run: &crate::cruise_control::Answer<OptimizationResult>,
    ) -> Result<(), H::Error> {
        use std::sync::atomic::Ordering;
        if self.held.is_empty() {
            return self.inner.confirm(dry_run);
        }
        let hits = onto_held(&dry_run.value.proposals, self.held);
        if !hits.is_empty() {
            return Err(H::Error::from(Classified::new(
                FailureKind::Failed,
                format!("{}; nothing was changed", onto_held_message(&hits)),
            )));
        }
        if self.assume_yes || self.confirmed.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.inner.confirm(dry_run)?;
        self.confirmed.store(true, Ordering::Relaxed);
        Ok(())
    }

    fn waiting_for_previous_stop(&self) {
        self.inner.waiting_for_previous_stop();
    }

    fn following(&self, task_id: Option<&str>) {
        self.inner.following(task_id);
    }

    fn following_again(&self, task_id: Option<&str>) {
        self.inner.following_again(task_id);
    }

    fn progress(&self, executor: &crate::engine::view::ExecutorState) {
        self.inner.progress(executor);
    }

    fn follow_ended(&self) {
        self.inner.follow_ended();
    }

    async fn choose_after_interrupt(
        &self,
        task_id: Option<&str>,
    ) -> crate::engine::cc_flow::InterruptChoice {
        self.inner.choose_after_interrupt(task_id).await
    }

    fn approved_plan(&self) -> Option<crate::engine::drift::Plan> {
        self.inner.approved_plan()
    }

    fn tolerance(&self) -> crate::engine::drift::Tolerance {
        self.inner.tolerance()
    }

    fn drifted(
        &self,
        report: &crate::engine::drift::DriftReport,
        new: &crate::cruise_control::Answer<OptimizationResult>,
    ) {
        self.inner.drifted(report, new);
    }

    fn execution_drifted(&self, report: &crate::engine::drift::DriftReport, task_id: Option<&str>) {
        self.inner.execution_drifted(report, task_id);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// Inner hooks that record which of their methods were called.
    #[derive(Default)]
    struct Recorder(Mutex<Vec<&'static str>>);

    impl Recorder {
        fn said(&self, what: &'static str) {
            self.0.lock().unwrap().push(what);
        }
    }

    /// The recorder's error: any failure as its text.
    struct Failed(String);

    impl From<CcError> for Failed {
        fn from(e: CcError) -> Self {
            Failed(e.to_string())
        }
    }

    impl From<Classified> for Failed {
        fn from(e: Classified) -> Self {
            Failed(e.to_string())
        }
    }

    impl std::fmt::Display for Failed {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl FlowHooks for Recorder {
        type Error = Failed;
        async fn check_input(
            &self,
            _cc: &CruiseControlClient,
            _deadline: Instant,
            _obs: &dyn Observer,
        ) -> Result<Result<(), Failed>, CcError> {
            Ok(Ok(()))
        }
        fn waiting_for_ready(&self, _reason: &str) {
            self.said("waiting_for_ready");
        }
        fn waiting_for_previous_stop(&self) {
            self.said("waiting_for_previous_stop");
        }
        fn proposal(&self, _dry_run: &crate::cruise_control::Answer<OptimizationResult>) {}
        fn confirm(
            &self,
            _dry_run: &crate::cruise_control::Answer<OptimizationResult>,
        ) -> Result<(), Failed> {
            Ok(())
        }
        fn following(&self, _task_id: Option<&str>) {
            self.said("following");
        }
        fn following_again(&self, _task_id: Option<&str>) {
            self.said("following_again");
        }
        fn progress(&self, _executor: &crate::engine::view::ExecutorState) {}
        fn follow_ended(&self) {}
        async fn choose_after_interrupt(
            &self,
            _task_id: Option<&str>,
        ) -> crate::engine::cc_flow::InterruptChoice {
            crate::engine::cc_flow::InterruptChoice::LeaveRunning
        }
        fn approved_plan(&self) -> Option<crate::engine::drift::Plan> {
            self.said("approved_plan");
            None
        }
        fn tolerance(&self) -> crate::engine::drift::Tolerance {
            self.said("tolerance");
            crate::engine::drift::Tolerance::default()
        }
        fn drifted(
            &self,
            _report: &crate::engine::drift::DriftReport,
            _new: &crate::cruise_control::Answer<OptimizationResult>,
        ) {
            self.said("drifted");
        }
        fn execution_drifted(
            &self,
            _report: &crate::engine::drift::DriftReport,
            _task_id: Option<&str>,
        ) {
            self.said("execution_drifted");
        }
    }

    /// The hold check wraps the command's hooks: what the command says (a resumed change is
    /// followed "again", a lingering stop is waited for) must reach them, not the defaults.
    #[test]
    fn the_hold_guard_passes_every_note_to_the_commands_hooks() {
        let inner = Recorder::default();
        let held = BTreeMap::new();
        let guard = HoldGuard::new(&inner, &held, true);
        guard.waiting_for_ready("sampling");
        guard.waiting_for_previous_stop();
        guard.following(Some("t"));
        guard.following_again(Some("t"));
        let _ = guard.approved_plan();
        let _ = guard.tolerance();
        assert_eq!(
            *inner.0.lock().unwrap(),
            [
                "waiting_for_ready",
                "waiting_for_previous_stop",
                "following",
                "following_again",
                "approved_plan",
                "tolerance"
            ]
        );
    }
}
