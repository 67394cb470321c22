//! The roll's progress in words: one line per action and per change of an acted-on node's
//! state, from the driver's [`Event`]s. `kafkaops roll` prints the lines on stderr, `operate`
//! logs them; both get the same lines from here.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::driver::{Event, PendingAction};
use crate::engine::model::{ClusterSnapshot, Millis, NodeId};
use crate::engine::roll::{Decision, NodeState, Roller};

/// Turns the driver's events into progress lines; remembers what it said (a node's state is
/// said again only when it changes, a wait only when it is a new one).
#[derive(Default)]
pub struct ProgressLines {
    recovery: Arc<Mutex<BTreeMap<i32, i64>>>,
    /// Nodes of the current action.
    current: Vec<NodeId>,
    last_status: BTreeMap<NodeId, String>,
    last_wait: Option<String>,
    started: Option<Millis>,
}

impl ProgressLines {
    /// Lines with the IO's log-recovery figures (`recovery`: node -> logs left to recover).
    #[must_use]
    pub fn new(recovery: Arc<Mutex<BTreeMap<i32, i64>>>) -> ProgressLines {
        ProgressLines {
            recovery,
            ..ProgressLines::default()
        }
    }

    fn stamp(&self, at: Millis) -> String {
        let s = self.started.map_or(0, |t| at.since(t)) / 1000;
        format!("[{:>2}:{:02}]", s / 60, s % 60)
    }

    fn status(&self, snapshot: &ClusterSnapshot, roller: &Roller, id: NodeId) -> String {
        let Some(ctx) = roller.contexts().get(&id) else {
            return "unknown".into();
        };
        match ctx.state {
            NodeState::Restarted | NodeState::NotRunning | NodeState::Unknown => {
                "restarting".into()
            }
            NodeState::NotReady => "starting".into(),
            NodeState::Recovering => {
                let logs = self
                    .recovery
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(&id.0)
                    .copied();
                match logs {
                    Some(n) => format!("recovering {n} logs"),
                    None => "recovering logs".into(),
                }
            }
            NodeState::Reconfigured => "reconfigured, waiting to serve".into(),
            NodeState::Serving => {
                let behind = snapshot
                    .partitions
                    .iter()
                    .filter(|p| p.replicas.contains(&id) && !p.isr.contains(&id))
                    .count();
                if behind > 0 {
                    format!("catching up ISR ({behind} partition(s) behind)")
                } else {
                    "in sync, waiting to lead its preferred partitions".into()
                }
            }
            NodeState::LeadingAllPreferred => {
                if ctx.roles.broker {
                    "serving, leading preferred".into()
                } else {
                    "serving".into()
                }
            }
        }
    }
}

impl ProgressLines {
    /// What the roll is waiting on right now, for a spinner between the lines: the nodes of the
    /// current action that have not settled yet and their last state (`node 3: restarting`),
    /// or `None` when no action is in flight.
    #[must_use]
    pub fn waiting_on(&self) -> Option<String> {
        let pending: Vec<String> = self
            .current
            .iter()
            .filter_map(|id| match self.last_status.get(id).map(String::as_str) {
                None => Some(format!("node {id}: waiting for the first observation")),
                Some(s) if settled(s) => None,
                Some(s) => Some(format!("node {id}: {s}")),
            })
            .collect();
        (!pending.is_empty()).then(|| pending.join("; "))
    }
}

/// A node state after which the action asks nothing more of the node.
fn settled(status: &str) -> bool {
    matches!(status, "serving, leading preferred" | "serving")
}

impl ProgressLines {
    /// The lines `event` makes (none when nothing a person should see changed).
    pub fn lines(&mut self, event: &Event<'_>) -> Vec<String> {
        let mut out = Vec::new();
        self.event(event, &mut |line| out.push(line));
        out
    }

    fn event(&mut self, event: &Event<'_>, say: &mut dyn FnMut(String)) {
        match event {
            Event::Observed {
                snapshot,
                roller,
                at,
            } => {
                self.started.get_or_insert(*at);
                for id in self.current.clone() {
                    let status = self.status(snapshot, roller, id);
                    if self.last_status.get(&id) != Some(&status) {
                        say(format!("{}   node {id}: {status}", self.stamp(*at)));
                        self.last_status.insert(id, status);
                    }
                }
            }
            Event::Decided(d) => self.decided(d, say),
            Event::ObserveRetry { error, retry_until } => {
                tracing::debug!("observation failed (retrying until {retry_until}): {error:#}");
                say(format!("    observation failed, retrying: {error:#}"));
            }
            Event::ActionFailed { what, error } => {
                say(format!("    {what} failed: {error:#}"));
            }
            Event::StopRequested => {
                say("    stop requested: finishing the current batch".to_string());
            }
            Event::Resumed {
                pending,
                not_issued,
                clock_behind_ms,
            } => resumed(*pending, *not_issued, *clock_behind_ms, say),
            Event::UnconfirmedRestartJudged { nodes, happened } => {
                let ids: Vec<NodeId> = nodes.to_vec();
                if *happened {
                    say(format!(
                        "    node(s) {}: the restart issued before the resume happened (evidence seen); \
                         waiting for them to serve",
                        join(&ids)
                    ));
                } else {
                    say(format!(
                        "    node(s) {}: no evidence that the restart issued before the resume happened; \
                         deciding again",
                        join(&ids)
                    ));
                }
            }
            Event::SaveFailed { error } => {
                say(format!(
                    "    warning: the roll state was not saved: {error:#}"
                ));
            }
        }
    }

    /// A decision: a new action names its nodes (their states are said from now on).
    fn decided(&mut self, d: &Decision, say: &mut dyn FnMut(String)) {
        match d {
            Decision::Restart { nodes, reason } => {
                self.current = nodes.iter().map(|n| n.node).collect();
                self.last_status.clear();
                self.last_wait = None;
                say(format!(
                    "==> restarting node(s) {}: {reason}",
                    join(&self.current)
                ));
            }
            Decision::Reconfigure {
                node,
                changes,
                reason,
            } => {
                self.current = vec![*node];
                self.last_status.clear();
                self.last_wait = None;
                let keys: Vec<String> = changes
                    .iter()
                    .map(|c| format!("{}={}", c.key, c.to))
                    .collect();
                say(format!(
                    "==> reconfiguring node {node} ({}): {reason}",
                    keys.join(", ")
                ));
            }
            Decision::ElectPreferredLeaders {
                nodes, partitions, ..
            } => {
                say(format!(
                    "    electing preferred leaders for {} partition(s) of node(s) {}",
                    partitions.len(),
                    join(nodes)
                ));
            }
            Decision::Wait { for_what, .. } if for_what.is_blocked() => {
                let text = for_what.to_string();
                if self.last_wait.as_deref() != Some(text.as_str()) {
                    say(format!("    waiting: {text}"));
                    self.last_wait = Some(text);
                }
            }
            Decision::Wait { .. } => {}
            Decision::Done { .. } | Decision::Abort { .. } => self.current.clear(),
        }
    }
}

/// A resumed run: what it found saved.
fn resumed(
    pending: Option<&PendingAction>,
    not_issued: Option<&Decision>,
    clock_behind_ms: u64,
    say: &mut dyn FnMut(String),
) {
    if clock_behind_ms > 0 {
        say(format!(
            "    the clock is {} behind the saved roll (moved back, or another host's): \
             no saved time is trusted for a decision",
            humantime::format_duration(std::time::Duration::from_millis(clock_behind_ms))
        ));
    }
    if let Some(d) = not_issued {
        let nodes = match d {
            Decision::Restart { .. } => d.restarted_nodes(),
            Decision::Reconfigure { node, .. } => vec![*node],
            Decision::ElectPreferredLeaders { nodes, .. } => nodes.clone(),
            _ => Vec::new(),
        };
        say(format!(
            "    the saved {} of node(s) {} was never issued: observing and deciding \
             again before anything is done",
            decision_word(d),
            join(&nodes)
        ));
    }
    if let Some(p) = pending {
        say(format!(
            "    resumed with a pending {} ({:?})",
            decision_word(&p.decision),
            p.status
        ));
    }
}

fn decision_word(d: &Decision) -> &'static str {
    match d {
        Decision::Restart { .. } => "restart",
        Decision::Reconfigure { .. } => "reconfiguration",
        Decision::ElectPreferredLeaders { .. } => "leader election",
        Decision::Wait { .. } => "wait",
        Decision::Done { .. } => "end",
        Decision::Abort { .. } => "abort",
    }
}

fn join(ids: &[NodeId]) -> String {
    ids.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::driver::sim_io::SimIo;
    use crate::driver::{self, DriverOptions, Progress};
    use crate::engine::roll::RollConfig;
    use crate::engine::roll::sim::{ClusterSpec, Placement, SimCluster};

    /// Records, after every event, what a spinner would show.
    struct Spinner {
        lines: ProgressLines,
        said: Vec<String>,
        shown: Vec<Option<String>>,
    }

    impl Progress for Spinner {
        fn event(&mut self, event: &Event<'_>) {
            self.said.extend(self.lines.lines(event));
            self.shown.push(self.lines.waiting_on());
        }
    }

    /// #26: a long wait always shows that something is happening. While a restarted node has
    /// not settled, `waiting_on` names it and its state (the CLI's spinner shows that with the
    /// elapsed time); between actions and after the roll there is nothing to spin for.
    #[test]
    fn waiting_on_names_each_restarted_node_until_it_settles() {
        let spec = ClusterSpec {
            brokers: 3,
            combined: 0,
            controllers: 3,
            topics: 2,
            partitions_per_topic: 2,
            replication_factor: 3,
            min_isr_choices: vec![2],
            racks: 3,
            placement: Placement::RackAware,
        };
        let mut sim = SimCluster::generate(&spec, 5);
        let ids: Vec<NodeId> = sim.nodes.keys().copied().collect();
        for id in &ids {
            sim.restart_reasons
                .insert(*id, vec!["selected with --all".into()]);
        }
        let config = RollConfig {
            poll_interval_ms: 1_000,
            ..RollConfig::default()
        };
        sim.start_roll(config.clone());
        let mut roller = Roller::new(config, sim.requests());
        let io = SimIo::new(sim);
        let mut spinner = Spinner {
            lines: ProgressLines::default(),
            said: Vec::new(),
            shown: Vec::new(),
        };
        let stop = AtomicBool::new(false);
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(driver::run(
                &mut roller,
                &io,
                &mut spinner,
                &stop,
                &DriverOptions::default(),
            ));
        let restarting: Vec<&String> = spinner
            .shown
            .iter()
            .flatten()
            .filter(|s| s.contains(": restarting"))
            .collect();
        for id in &ids {
            assert!(
                restarting
                    .iter()
                    .any(|s| s.contains(&format!("node {id}: "))),
                "node {id} was never shown restarting: {:?}",
                spinner.shown
            );
        }
        assert_eq!(
            spinner.shown.last(),
            Some(&None),
            "nothing to wait on once the roll is done: {:?}",
            spinner.said
        );
        // Every node shown is one the current action restarted, never another one.
        for s in spinner.shown.iter().flatten() {
            assert!(s.starts_with("node "), "{s}");
        }
    }
}
