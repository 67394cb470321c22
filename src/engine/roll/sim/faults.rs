//! The faults the property tests inject into a simulated cluster: nodes that never come back or
//! lag, ISR shrinks, leadership moves, reassignments that land mid-roll, quorum leader changes.

use super::{Fault, SimCluster, SimNode, Undo};
use crate::engine::model::NodeId;

impl SimCluster {
    /// Injects a fault now.
    pub fn inject(&mut self, f: &Fault) {
        let now = self.now;
        match *f {
            Fault::Crash { node, down_ms } => {
                if self.nodes.get(&node).is_some_and(SimNode::is_running) {
                    self.nodes.get_mut(&node).expect("checked").crashed_by_fault = true;
                    self.take_down(node, down_ms.map(|d| now.plus(d)));
                }
            }
            Fault::IsrShrink {
                partition,
                node,
                for_ms,
            } => self.shrink_isr(partition, node, for_ms),
            Fault::LeaderMove { partition } => self.move_leader(partition),
            Fault::QuorumLeaderChange => {
                let voting = self.voting_controllers();
                if let Some(other) = voting
                    .iter()
                    .copied()
                    .find(|v| Some(*v) != self.quorum_leader)
                {
                    self.quorum_leader = Some(other);
                }
            }
            Fault::ControllerLag { node, for_ms } => {
                if let Some(n) = self.nodes.get_mut(&node)
                    && n.roles.controller
                {
                    n.lagging = true;
                    // Far behind at once, so the quorum check sees it.
                    let far = i64::try_from(now.0).unwrap_or(i64::MAX) - 10 * self.fetch_timeout_ms;
                    self.caught_up_at.insert(node, far);
                    self.undo.push((now.plus(for_ms), Undo::Lag(node)));
                    if self.quorum_leader == Some(node) {
                        self.elect_quorum_leader();
                    }
                }
            }
            Fault::Reassign {
                partition,
                add,
                remove,
                done_after_ms,
            } => self.start_reassignment(partition, add, remove, done_after_ms),
            Fault::Unreachable { node, for_ms } => {
                if let Some(n) = self.nodes.get_mut(&node) {
                    n.reachable = false;
                    self.undo.push((now.plus(for_ms), Undo::Reachable(node)));
                }
            }
        }
    }

    /// [`Fault::IsrShrink`]: `node` leaves the ISR of a partition (and its leadership) for
    /// `for_ms`, unless it is the last in-sync replica.
    pub(super) fn shrink_isr(&mut self, partition: usize, node: NodeId, for_ms: u64) {
        let now = self.now;
        let len = self.partitions.len();
        if len == 0 {
            return;
        }
        let part = &mut self.partitions[partition % len];
        if part.p.isr.len() > 1 && part.p.isr.contains(&node) {
            part.p.isr.retain(|r| *r != node);
            if part.p.leader == Some(node) {
                part.p.leader = part.p.isr.first().copied();
            }
            part.rejoin_at.insert(node, now.plus(for_ms));
        }
    }

    /// [`Fault::LeaderMove`]: another in-sync replica of a partition takes the leadership.
    pub(super) fn move_leader(&mut self, partition: usize) {
        let len = self.partitions.len();
        if len == 0 {
            return;
        }
        let part = &mut self.partitions[partition % len];
        if let Some(other) = part
            .p
            .isr
            .iter()
            .copied()
            .find(|r| Some(*r) != part.p.leader)
        {
            part.p.leader = Some(other);
        }
    }

    /// [`Fault::Reassign`]: a reassignment adding `add` and removing `remove` that completes
    /// after `done_after_ms`, when `add` serves and the partition is not already moving.
    pub(super) fn start_reassignment(
        &mut self,
        partition: usize,
        add: NodeId,
        remove: NodeId,
        done_after_ms: u64,
    ) {
        let now = self.now;
        let len = self.partitions.len();
        if len == 0 {
            return;
        }
        let add_ok = self
            .nodes
            .get(&add)
            .is_some_and(|n| n.roles.broker && n.is_serving());
        let part = &mut self.partitions[partition % len];
        if !add_ok
            || part.reassignment_done_at.is_some()
            || part.p.replicas.contains(&add)
            || !part.p.replicas.contains(&remove)
        {
            return;
        }
        part.p.replicas.push(add);
        part.p.isr.push(add);
        part.p.adding = vec![add];
        part.p.removing = vec![remove];
        part.reassignment_done_at = Some(now.plus(done_after_ms));
    }
}
