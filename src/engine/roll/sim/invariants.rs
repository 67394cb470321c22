//! The safety oracle: checks the roll's invariants on the simulator's *true* state (not the
//! snapshot the engine saw) whenever the engine touches, restarts or holds nodes and when it says
//! it is done, and records every breach. It restates the rules from the design (min ISR, quorum
//! majority, one controller at a time, no restart of a node a reassignment needs) on its own data,
//! so a mistake in the engine's rules cannot hide here.

use std::collections::BTreeSet;

use super::{Phase, SimCluster, SimNode};
use crate::engine::model::NodeId;

impl SimCluster {
    pub(super) fn violation(&mut self, v: String) {
        self.violations.push(format!("t={}: {v}", self.now.0));
    }

    /// Does the node still need what the roll is for?
    pub(super) fn needs_restart(&self, n: &SimNode) -> bool {
        if n.restarts_by_roll > 0 {
            return false;
        }
        if self
            .restart_reasons
            .get(&n.id)
            .is_some_and(|r| !r.is_empty())
        {
            return true;
        }
        n.desired.iter().any(|(k, v)| {
            n.config
                .get(k)
                .is_none_or(|e| e.read_only && e.value.as_deref() != Some(v.as_str()))
        }) || (n.reconfigs_by_roll >= self.rules.max_reconfig_attempts && self.needs_reconfig(n))
    }

    pub(super) fn needs_reconfig(&self, n: &SimNode) -> bool {
        n.restarts_by_roll == 0
            && n.desired.iter().any(|(k, v)| {
                n.config
                    .get(k)
                    .is_some_and(|e| !e.read_only && e.value.as_deref() != Some(v.as_str()))
            })
    }

    pub(super) fn is_unhealthy(n: &SimNode) -> bool {
        !n.reachable || matches!(n.phase, Phase::Down { .. } | Phase::Starting { .. })
    }

    /// Ordering invariants for any action on `batch`.
    pub(super) fn check_touch(&mut self, batch: &[NodeId], restart: bool) {
        let unhealthy: Vec<NodeId> = self
            .nodes
            .values()
            // A held node is never the roll's to restart: it orders nothing (its replicas and
            // vote still count in `check_restart`, judged on the true state).
            .filter(|n| {
                Self::is_unhealthy(n) && !batch.contains(&n.id) && !self.held.contains(&n.id)
            })
            .map(|n| n.id)
            .collect();
        let pending_restart: Vec<NodeId> = self
            .nodes
            .values()
            .filter(|n| {
                !batch.contains(&n.id)
                    && !self.held.contains(&n.id)
                    && !Self::is_unhealthy(n)
                    && self.needs_restart(n)
            })
            .map(|n| n.id)
            .collect();
        let mut found = Vec::new();
        for id in batch {
            let n = &self.nodes[id];
            let healthy = !Self::is_unhealthy(n) && n.phase == Phase::Serving;
            if healthy && !unhealthy.is_empty() {
                found.push(format!(
                    "touched healthy node {id} while {unhealthy:?} are unhealthy"
                ));
            }
            if !restart && !pending_restart.is_empty() {
                found.push(format!(
                    "reconfigured {id} while {pending_restart:?} still need a restart"
                ));
            }
            if restart && healthy && !self.needs_restart(n) {
                found.push(format!("restarted node {id} which needed no restart"));
            }
            if !restart && !self.needs_reconfig(n) {
                found.push(format!(
                    "reconfigured node {id} which needed no reconfiguration"
                ));
            }
        }
        for v in found {
            self.violation(v);
        }
        let non_serving_by_roll = self
            .nodes
            .values()
            .filter(|n| !n.is_serving() && !n.crashed_by_fault)
            .count();
        if non_serving_by_roll > self.initial_non_serving {
            let v = format!(
                "{non_serving_by_roll} nodes not serving before acting again (roll started with {})",
                self.initial_non_serving
            );
            self.violation(v);
        }
    }

    /// Safety invariants of a restart, judged on the true state.
    pub(super) fn check_restart(&mut self, batch: &[NodeId]) {
        self.check_touch(batch, true);
        self.check_batch_shape(batch);
        self.check_no_recovery_elsewhere(batch);
        self.check_partitions_of_restart(batch);
        self.check_quorum_majority(batch);
    }

    /// Each node at most `max_restart_attempts` times and once per batch; a batch no larger
    /// than allowed (except every combined node down at once).
    fn check_batch_shape(&mut self, batch: &[NodeId]) {
        for id in batch {
            if self.nodes[id].restarts_by_roll + 1 > self.rules.max_restart_attempts {
                let v = format!(
                    "node {id} restarted more than {} times",
                    self.rules.max_restart_attempts
                );
                self.violation(v);
            }
            if batch.iter().filter(|b| *b == id).count() > 1 {
                self.violation(format!("node {id} twice in one batch"));
            }
        }
        if batch.len() > self.rules.max_batch_size.max(1) && !self.all_combined_down(batch) {
            let v = format!(
                "batch {batch:?} larger than max batch size {}",
                self.rules.max_batch_size
            );
            self.violation(v);
        }
    }

    /// No log recovery elsewhere.
    fn check_no_recovery_elsewhere(&mut self, batch: &[NodeId]) {
        let recovering: Vec<NodeId> = self
            .nodes
            .values()
            .filter(|n| matches!(n.phase, Phase::Recovering { .. }) && !batch.contains(&n.id))
            .map(|n| n.id)
            .collect();
        if !recovering.is_empty() {
            self.violation(format!(
                "restarted {batch:?} while {recovering:?} in log recovery"
            ));
        }
    }

    /// No two batch members share a partition, and every partition keeps `min.insync.replicas`
    /// in sync, judged on the ISR once its reassignment completes.
    fn check_partitions_of_restart(&mut self, batch: &[NodeId]) {
        let running: BTreeSet<NodeId> = batch
            .iter()
            .copied()
            .filter(|b| self.nodes[b].is_running())
            .collect();
        // The one allowed exception: every controller is combined and none
        // runs, so they restart together for a quorum to form.
        let quorum_rescue = self.all_combined_down(batch);
        let mut found = Vec::new();
        for part in &self.partitions {
            let p = &part.p;
            let members: Vec<NodeId> = p.all_replicas().filter(|r| batch.contains(r)).collect();
            if members.len() > 1 && !quorum_rescue {
                found.push(format!(
                    "batch members {members:?} share partition {}",
                    p.tp
                ));
            }
            // min ISR, judged on the ISR once the reassignment completes.
            let min = self
                .topics
                .get(&p.tp.topic)
                .and_then(|t| t.min_insync_replicas)
                .unwrap_or(1) as usize;
            if p.replicas.len() <= min {
                continue;
            }
            let target_isr: Vec<NodeId> = p
                .isr
                .iter()
                .copied()
                .filter(|r| !p.removing.contains(r) && self.nodes[r].is_running())
                .collect();
            if target_isr.iter().any(|r| running.contains(r)) {
                let after = target_isr.iter().filter(|r| !running.contains(r)).count();
                if after < min {
                    found.push(format!(
                        "restart of {batch:?} leaves {} with {after} in-sync replicas once its \
                         reassignment completes (min.insync.replicas {min})",
                        p.tp
                    ));
                }
            }
        }
        for v in found {
            self.violation(v);
        }
    }

    /// Quorum majority, by the oracle's own rule (not the engine's `quorum_needed`): a KRaft
    /// quorum of `n` voters commits only while more than half of them (`2 * k > n`) are caught
    /// up with the leader. What counts as caught up is what the snapshot showed the roll: a
    /// voter serving and fetching (this simulator makes a lagging controller's
    /// `LastCaughtUpTimestamp` fall behind at once and reports a stopped one as not running, so
    /// the truth here is what the roll saw). A restart must keep such a majority among the
    /// voters left. One or two voters cannot keep a majority through any restart: the roll's
    /// documented policy (Strimzi's `KafkaQuorumCheck`) restarts a single voter anyway and one
    /// of two only while the other is caught up, so that much is asked of them. Beyond two, a quorum
    /// that had already lost its majority before the restart is not the roll's doing.
    fn check_quorum_majority(&mut self, batch: &[NodeId]) {
        let n = self.controllers().len();
        let voting = self.voting_controllers();
        let after = voting.iter().filter(|v| !batch.contains(v)).count();
        let had_majority = 2 * voting.len() > n;
        let breach = match n {
            0 | 1 => false,
            // Two voters: a caught-up one restarts only while the other is caught up.
            2 => after < voting.len() && after == 0,
            _ => had_majority && 2 * after <= n,
        };
        if breach {
            let v = format!(
                "restart of {batch:?} leaves {after} of {n} voters caught up ({} before): \
                 the quorum loses its majority",
                voting.len()
            );
            self.violation(v);
        }
    }

    pub(super) fn all_combined_down(&self, batch: &[NodeId]) -> bool {
        let controllers = self.controllers();
        !controllers.is_empty()
            && batch.iter().all(|b| controllers.contains(b))
            && controllers
                .iter()
                .all(|c| self.nodes[c].roles.is_combined() && !self.nodes[c].is_running())
    }

    /// Post-conditions of a normal termination.
    /// A held node is never acted on.
    pub(super) fn check_held(&mut self, nodes: &[NodeId], what: &str) {
        for id in nodes {
            if self.held.contains(id) {
                self.violation(format!("held node {id} {what}"));
            }
        }
    }

    pub(super) fn check_done(&mut self) {
        let mut found = Vec::new();
        for n in self.nodes.values().filter(|n| !self.held.contains(&n.id)) {
            let reasons = self
                .restart_reasons
                .get(&n.id)
                .is_some_and(|r| !r.is_empty());
            if reasons && n.restarts_by_roll == 0 {
                found.push(format!(
                    "node {} had restart reasons but was not restarted",
                    n.id
                ));
            }
            let config_ok = n.desired.iter().all(|(k, v)| {
                n.config
                    .get(k)
                    .is_some_and(|e| e.value.as_deref() == Some(v.as_str()))
            });
            if !config_ok && n.restarts_by_roll == 0 {
                found.push(format!(
                    "node {} ends with settings differing from the desired ones",
                    n.id
                ));
            }
        }
        let non_serving = self.nodes.values().filter(|n| !n.is_serving()).count();
        if non_serving > self.initial_non_serving {
            found.push(format!(
                "roll ended with {non_serving} non-serving nodes, started with {}",
                self.initial_non_serving
            ));
        }
        for v in found {
            self.violation(v);
        }
    }
}
