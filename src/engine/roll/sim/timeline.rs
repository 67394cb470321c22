//! The simulator's clock: events (a process starting, finishing log recovery, a reassignment
//! completing, a fault ending) run in time order as time advances, and the quorum's caught-up
//! timestamps follow the serving controllers.

use super::{Fault, Phase, SimCluster, SimNode, Undo};
use crate::engine::model::{Millis, NodeId};

impl SimCluster {
    /// Advances time to `to`, running every event on the way in order.
    pub fn advance_to(&mut self, to: Millis) {
        loop {
            let next = self.next_event_time();
            match next {
                Some(t) if t <= to => {
                    self.now = self.now.max(t);
                    self.run_events_at(t);
                }
                _ => break,
            }
        }
        self.now = self.now.max(to);
        self.refresh_quorum();
    }

    pub(super) fn next_event_time(&self) -> Option<Millis> {
        let mut t: Option<Millis> = None;
        let mut consider = |x: Millis| t = Some(t.map_or(x, |y| y.min(x)));
        for n in self.nodes.values() {
            match n.phase {
                Phase::Down { until: Some(u) }
                | Phase::Starting { until: u }
                | Phase::Recovering { until: u } => {
                    consider(u);
                }
                _ => {}
            }
        }
        for p in &self.partitions {
            if let Some(d) = p.reassignment_done_at {
                consider(d);
            }
            for at in p.rejoin_at.values() {
                consider(*at);
            }
        }
        for (at, _) in &self.scheduled {
            consider(*at);
        }
        for (at, _) in &self.undo {
            consider(*at);
        }
        t
    }

    pub(super) fn run_events_at(&mut self, t: Millis) {
        self.refresh_quorum();
        self.run_scheduled_faults(t);
        self.undo_faults_ending(t);
        self.advance_processes(t);
        self.advance_partitions(t);
        self.refresh_quorum();
    }

    /// Injects the faults scheduled for `t` or earlier.
    fn run_scheduled_faults(&mut self, t: Millis) {
        let due: Vec<Fault> = {
            let (due, rest): (Vec<_>, Vec<_>) =
                self.scheduled.drain(..).partition(|(at, _)| *at <= t);
            self.scheduled = rest;
            due.into_iter().map(|(_, f)| f).collect()
        };
        for f in due {
            self.inject(&f);
        }
    }

    /// Ends the faults whose time is over: a lagging node catches up, an unreachable one
    /// answers again.
    fn undo_faults_ending(&mut self, t: Millis) {
        let undo: Vec<Undo> = {
            let (due, rest): (Vec<_>, Vec<_>) = self.undo.drain(..).partition(|(at, _)| *at <= t);
            self.undo = rest;
            due.into_iter().map(|(_, u)| u).collect()
        };
        for u in undo {
            match u {
                Undo::Lag(n) => {
                    if let Some(x) = self.nodes.get_mut(&n) {
                        x.lagging = false;
                    }
                }
                Undo::Reachable(n) => {
                    if let Some(x) = self.nodes.get_mut(&n) {
                        x.reachable = true;
                    }
                }
            }
        }
    }

    /// Moves each process on by its phase: a node down until `t` starts (a new incarnation),
    /// a started one goes into log recovery or serves, a recovered one serves.
    fn advance_processes(&mut self, t: Millis) {
        let ids: Vec<NodeId> = self.nodes.keys().copied().collect();
        for id in ids {
            let n = self.nodes.get_mut(&id).expect("listed");
            match n.phase {
                Phase::Down { until: Some(u) } if u <= t => {
                    n.phase = Phase::Starting {
                        until: t.plus(n.behaviour.start_ms),
                    };
                    n.incarnation += 1;
                    n.crashed_by_fault = false;
                }
                Phase::Starting { until } if until <= t => {
                    if n.behaviour.recovery_ms > 0 {
                        n.phase = Phase::Recovering {
                            until: t.plus(n.behaviour.recovery_ms),
                        };
                    } else {
                        self.become_serving(id, t);
                    }
                }
                Phase::Recovering { until } if until <= t => self.become_serving(id, t),
                _ => {}
            }
        }
    }

    /// Serving replicas due back rejoin their ISRs (leading a partition without a serving
    /// leader), and reassignments due complete.
    fn advance_partitions(&mut self, t: Millis) {
        for part in &mut self.partitions {
            let due: Vec<NodeId> = part
                .rejoin_at
                .iter()
                .filter(|(_, at)| **at <= t)
                .map(|(n, _)| *n)
                .collect();
            for n in due {
                part.rejoin_at.remove(&n);
                let serving = self.nodes.get(&n).is_some_and(SimNode::is_serving);
                if serving && part.p.replicas.contains(&n) && !part.p.isr.contains(&n) {
                    part.p.isr.push(n);
                    if part.p.leader.is_none_or(|l| !self.nodes[&l].is_serving()) {
                        part.p.leader = Some(n);
                    }
                }
            }
            if part.reassignment_done_at.is_some_and(|d| d <= t) {
                part.reassignment_done_at = None;
                let p = &mut part.p;
                let removing = std::mem::take(&mut p.removing);
                p.adding.clear();
                p.replicas.retain(|r| !removing.contains(r));
                if p.isr.iter().any(|r| !removing.contains(r)) {
                    p.isr.retain(|r| !removing.contains(r));
                }
                if p.leader.is_some_and(|l| removing.contains(&l)) {
                    p.leader = p.isr.first().copied();
                }
            }
        }
    }

    pub(super) fn become_serving(&mut self, id: NodeId, t: Millis) {
        let n = self.nodes.get_mut(&id).expect("known node");
        n.phase = Phase::Serving;
        let rejoin = t.plus(n.behaviour.isr_rejoin_ms);
        for part in &mut self.partitions {
            if part.p.replicas.contains(&id) && !part.p.isr.contains(&id) {
                part.rejoin_at.insert(id, rejoin);
            }
            if part.p.leader.is_none() && part.p.isr.contains(&id) {
                part.p.leader = Some(id);
            }
        }
    }

    pub(super) fn refresh_quorum(&mut self) {
        let now = i64::try_from(self.now.0).unwrap_or(i64::MAX);
        if self
            .quorum_leader
            .is_none_or(|l| !self.voting_controllers().contains(&l))
        {
            self.elect_quorum_leader();
        }
        if self.quorum_leader.is_none() {
            return;
        }
        for v in self.voting_controllers() {
            self.caught_up_at.insert(v, now);
        }
    }
}
