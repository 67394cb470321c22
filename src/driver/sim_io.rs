//! The roll simulator as a [`RollIo`], with injectable faults (tests only).

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};

use super::RollIo;
use crate::engine::model::{ClusterSnapshot, Millis, NodeId, TopicPartition};
use crate::engine::roll::sim::SimCluster;
use crate::engine::roll::{ConfigChange, Decision, NodeReason};

/// The simulator as IO, with injectable faults.
pub(crate) struct SimIo {
    pub(crate) sim: RefCell<SimCluster>,
    /// Observations (by index) that fail.
    pub(crate) failing_observations: RefCell<Vec<usize>>,
    pub(crate) observations: Cell<usize>,
    /// A node whose restart command fails.
    pub(crate) failing_restart: Option<NodeId>,
    /// Set `stop` after this many restart batches.
    pub(crate) stop_after_batches: Option<(usize, &'static AtomicBool)>,
    /// The IO's clock runs this far behind the simulator's (a clock moved back).
    pub(crate) clock_back_ms: Cell<u64>,
    /// A roll onto new software: what each node's software supports.
    pub(crate) software: Option<SimSoftware>,
}

/// The software of a simulated roll onto a new release: every node supports `metadata.version`
/// up to `old` until its restart, then `new`, except `stuck` (its software was not changed).
pub(crate) struct SimSoftware {
    pub(crate) old: i16,
    pub(crate) new: i16,
    pub(crate) stuck: Option<NodeId>,
    pub(crate) restarted: RefCell<std::collections::BTreeSet<NodeId>>,
}

impl SimIo {
    pub(crate) fn new(sim: SimCluster) -> SimIo {
        SimIo {
            sim: RefCell::new(sim),
            failing_observations: RefCell::new(Vec::new()),
            observations: Cell::new(0),
            failing_restart: None,
            stop_after_batches: None,
            clock_back_ms: Cell::new(0),
            software: None,
        }
    }
}

impl RollIo for SimIo {
    async fn observe(&self) -> anyhow::Result<ClusterSnapshot> {
        let i = self.observations.get();
        self.observations.set(i + 1);
        if self.failing_observations.borrow().contains(&i) {
            anyhow::bail!("observation {i} failed (injected)");
        }
        Ok(self.sim.borrow().snapshot())
    }

    async fn restart(&self, nodes: &[NodeId]) -> Vec<(NodeId, anyhow::Result<()>)> {
        if let Some(bad) = self.failing_restart
            && nodes.contains(&bad)
        {
            return nodes
                .iter()
                .map(|n| {
                    let r = if *n == bad {
                        Err(anyhow::anyhow!("restart command failed (injected)"))
                    } else {
                        Ok(())
                    };
                    (*n, r)
                })
                .collect();
        }
        let decision = Decision::Restart {
            nodes: nodes
                .iter()
                .map(|n| NodeReason {
                    node: *n,
                    reason: String::new(),
                })
                .collect(),
            reason: String::new(),
        };
        if let Some(software) = &self.software {
            software
                .restarted
                .borrow_mut()
                .extend(nodes.iter().copied());
        }
        let mut sim = self.sim.borrow_mut();
        sim.apply(&decision);
        if let Some((after, stop)) = self.stop_after_batches
            && sim.batches.len() >= after
        {
            stop.store(true, Ordering::SeqCst);
        }
        nodes.iter().map(|n| (*n, Ok(()))).collect()
    }

    async fn reconfigure(&self, node: NodeId, changes: &[ConfigChange]) -> anyhow::Result<()> {
        self.sim.borrow_mut().apply(&Decision::Reconfigure {
            node,
            changes: changes.to_vec(),
            reason: String::new(),
        });
        Ok(())
    }

    async fn elect_preferred_leaders(&self, partitions: &[TopicPartition]) -> anyhow::Result<()> {
        self.sim
            .borrow_mut()
            .apply(&Decision::ElectPreferredLeaders {
                nodes: Vec::new(),
                partitions: partitions.to_vec(),
                reason: String::new(),
            });
        Ok(())
    }

    fn now(&self) -> Millis {
        Millis(
            self.sim
                .borrow()
                .now
                .0
                .saturating_sub(self.clock_back_ms.get()),
        )
    }

    fn process_ended(&self) -> Vec<(NodeId, Millis)> {
        let back = self.clock_back_ms.get();
        std::mem::take(&mut self.sim.borrow_mut().process_ended)
            .into_iter()
            .map(|(n, at)| (n, Millis(at.0.saturating_sub(back))))
            .collect()
    }

    async fn software(
        &self,
    ) -> Option<std::collections::BTreeMap<NodeId, crate::engine::roll::SoftwareReport>> {
        let software = self.software.as_ref()?;
        let restarted = software.restarted.borrow();
        Some(
            self.sim
                .borrow()
                .nodes
                .keys()
                .map(|id| {
                    let new = restarted.contains(id) && software.stuck != Some(*id);
                    (*id, Ok(Some(if new { software.new } else { software.old })))
                })
                .collect(),
        )
    }

    async fn sleep_until(&self, until: Millis) {
        let mut sim = self.sim.borrow_mut();
        let to = until.plus(self.clock_back_ms.get()).max(sim.now);
        sim.advance_to(to);
    }
}
