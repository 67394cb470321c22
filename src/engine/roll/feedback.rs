//! What the driver tells the roller between decisions: how a restart went (done, failed,
//! process ended, never issued), what Cruise Control is doing, and the rule that holds the roll
//! back while another mover works. Feed-back is never assumed at decision time (`STYLE.md`,
//! functional core); split out of the roller core (`mod.rs`).

use crate::engine::model::{Millis, NodeId};
use crate::engine::movers::CruiseControlView;

use super::select::Selection;
use super::{ActionKind, Decision, RollError, Roller};

impl Roller {
    /// Feed-back: the platform reports that the restart command of `node`
    /// finished successfully at `at`. For `kill -TERM`-style commands this
    /// can be before the old process exited, so it does not make the node
    /// count as back by itself. Ignored for a node the roller is not
    /// restarting.
    pub fn handle_restart_done(&mut self, node: NodeId, at: Millis) {
        let Some(progress) = self.restart_progress(node) else {
            return;
        };
        if progress.done_at.is_some() {
            return;
        }
        progress.done_at = Some(at);
        if let Some(ctx) = self.nodes.get_mut(&node) {
            ctx.num_restarts = ctx.num_restarts.saturating_add(1);
            ctx.last_transition = at;
        }
    }

    /// Feed-back: the restart command of `node` failed. The roll aborts with
    /// [`RollError::RestartFailed`]; nothing else is restarted.
    pub fn handle_restart_failed(&mut self, node: NodeId, at: Millis, error: String) {
        if self.finished.is_some() {
            return;
        }
        if let Some(ctx) = self.nodes.get_mut(&node) {
            ctx.last_transition = at;
        }
        self.finish(Decision::Abort {
            reason: RollError::RestartFailed { node, error },
        });
    }

    /// Feed-back: evidence that the process `node` ran when its restart was
    /// decided has ended (e.g. the restart witness saw its connection
    /// close). Ignored for a node the roller is not restarting and for
    /// evidence older than the decision.
    pub fn handle_process_ended(&mut self, node: NodeId, at: Millis) {
        let Some(progress) = self.restart_progress(node) else {
            return;
        };
        if progress.ended.is_none() && at >= progress.requested_at {
            progress.ended = Some((at, "its process ended (reported at restart)".into()));
        }
    }

    /// Feed-back: the restart of `nodes` that the last decision asked for
    /// was never issued (a run restored after a crash between "decided" and
    /// "issued" found the decision stale). The roller forgets it: the nodes
    /// are not counted as restarted and the next decision starts from a
    /// fresh observation (and fresh safety checks). Ignored unless the
    /// current action is a restart of exactly these nodes whose command has
    /// not reported completion.
    pub fn handle_restart_not_issued(&mut self, nodes: &[NodeId]) {
        let matches = self.awaiting.as_ref().is_some_and(|a| {
            a.kind == ActionKind::Restart
                && a.nodes == nodes
                && a.restarts.values().all(|p| p.done_at.is_none())
        });
        if matches {
            self.awaiting = None;
        }
    }

    /// Input before a decision (or a plan): what Cruise Control's executor is doing, when the
    /// caller asks it (a roll without Cruise Control, or run with `--force`, never calls this).
    /// While an execution runs, or while Cruise Control cannot be asked, no new restart or
    /// reconfiguration starts: the decision is a blocked wait that names the execution and
    /// says the block clears when it ends (and aborts after `blocked_timeout_ms`, like any
    /// block); an action already under way is still waited for. See [`other_mover_block`].
    pub fn handle_cruise_control(&mut self, view: &CruiseControlView) {
        self.other_mover = other_mover_block(view);
    }

    /// Feed-back: the action the last decision asked for was never issued (a
    /// run restored after a crash between "decided" and "issued", or held
    /// back by a stop request). The roller forgets it as if it had never been
    /// decided, so the next decision starts from a fresh observation with
    /// fresh safety checks: a restart is forgotten as by
    /// [`Roller::handle_restart_not_issued`]; a reconfiguration gives back its
    /// attempt (it does not count towards `max_reconfig_attempts`); a
    /// preferred-leader election is asked for again if the nodes still do not
    /// lead. Ignored when the roller is not waiting on that very action.
    pub fn handle_not_issued(&mut self, decision: &Decision) {
        match decision {
            Decision::Restart { .. } => {
                self.handle_restart_not_issued(&decision.restarted_nodes());
            }
            Decision::Reconfigure { node, .. } => {
                let matches = self
                    .awaiting
                    .as_ref()
                    .is_some_and(|a| a.kind == ActionKind::Reconfigure && a.nodes == [*node]);
                if matches {
                    self.awaiting = None;
                    if let Some(ctx) = self.nodes.get_mut(node) {
                        ctx.num_reconfigs = ctx.num_reconfigs.saturating_sub(1);
                    }
                }
            }
            Decision::ElectPreferredLeaders { nodes, .. } => {
                if let Some(a) = self.awaiting.as_mut() {
                    for n in nodes {
                        a.elected.remove(n);
                    }
                }
            }
            Decision::Wait { .. } | Decision::Done { .. } | Decision::Abort { .. } => {}
        }
    }

    /// A restored roller whose executor's incarnations do not survive the
    /// executor (the restart witness numbers processes from zero in every
    /// run): incarnations recorded before the restore cannot be compared with
    /// new ones, so they are forgotten (a changed incarnation would otherwise
    /// be false evidence of a restart).
    pub fn forget_incarnations(&mut self) {
        if let Some(a) = self.awaiting.as_mut() {
            for p in a.restarts.values_mut() {
                p.incarnation_before = None;
            }
        }
    }
}

/// The roll's rule about other movers: while Cruise Control executes (or cannot be asked), no
/// node is restarted or reconfigured. A broker restarted under an execution that moves replicas
/// to or from it kills the execution's tasks (Cruise Control stops with its throttles and
/// reassignments left behind), and the execution's next batch can take a partition's ISR below
/// what the roll judged (the Strimzi proposal's open race). `None`: nothing holds the roll.
#[must_use]
pub fn other_mover_block(view: &CruiseControlView) -> Option<RollError> {
    match view {
        CruiseControlView::NotAsked | CruiseControlView::Idle => None,
        CruiseControlView::Unreachable(error) | CruiseControlView::StateUnknown(error) => {
            Some(RollError::CruiseControlUnknown {
                error: error.clone(),
            })
        }
        CruiseControlView::Executing(x) => Some(RollError::CruiseControlExecuting {
            task: x.task.clone(),
            execution: x.description.clone(),
            also: None,
        }),
    }
}

/// A selection held back by another mover: a restart or reconfiguration becomes a block that
/// names the mover; a block for another reason keeps that reason beside it.
pub(super) fn hold_for(mover: Option<&RollError>, selection: Selection) -> Selection {
    let Some(block) = mover else {
        return selection;
    };
    match selection {
        Selection::Restart(nodes, _) => {
            Selection::Blocked(nodes.iter().map(|n| n.node).collect(), block.clone())
        }
        Selection::Reconfigure(node, _, _) => Selection::Blocked(vec![node], block.clone()),
        Selection::Blocked(nodes, other) => {
            let held = match block.clone() {
                RollError::CruiseControlExecuting {
                    task, execution, ..
                } => RollError::CruiseControlExecuting {
                    task,
                    execution,
                    also: Some(other.to_string()),
                },
                b => b,
            };
            Selection::Blocked(nodes, held)
        }
        s @ (Selection::Abort(_) | Selection::Done) => s,
    }
}
