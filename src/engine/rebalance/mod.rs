//! The auto-rebalance state machine of Strimzi's proposals (seeds
//! `rebalance-add-remove-brokers.md` and `auto-rebalance-on-imbalanced-clusters.md`), pure.
//!
//! Three things can ask for a rebalance: a scale-down (move replicas off brokers about to go),
//! a scale-up (move replicas onto new brokers) and goal violations Cruise Control detected (a
//! full rebalance, the `imbalance` mode). Only one rebalance runs at a time, so requests queue,
//! and when several wait the precedence is scale-down > scale-up > imbalance. The states are the
//! seed's: [`State::Idle`], [`State::RebalanceOnScaleDown`], [`State::RebalanceOnScaleUp`] and
//! [`State::RebalanceOnImbalance`] (the seed's `RebalanceOnAnomalyDetection`).
//!
//! Rules (where the seed's diagrams disagree with each other, the choice is named):
//! - From Idle, the waiting mode of highest precedence starts.
//! - A scale-down requested while a scale-up runs stops the scale-up ([`Action::StopRunning`]),
//!   which is queued again and runs after the scale-down (seed: "the current rebalancing scale up
//!   is stopped (and queued)"). Any other request during a rebalance is queued.
//! - Goal violations first detected while a rebalance runs are treated as fixed by it (they move
//!   to the fixed list when it ends); if they persist, Cruise Control detects them again after it
//!   and they count as new. Violations already waiting when a scale rebalance was chosen stay
//!   queued and run last (the seed's "scale down, then scale up, then full rebalance"; its
//!   two-mode diagram that drops the queued full rebalance is not followed).
//! - A rebalance that ends, successfully or not, moves the violations it covered to the fixed
//!   list (seed: a failure follows "the same procedure"). Success starts the next queued mode;
//!   failure returns to Idle (the failed mode is dropped, other queued modes start on the next
//!   event, e.g. [`Event::Tick`]).
//! - Unfixable violations (any unfixable goal) are never acted on.
//!
//! The state (including the [`Ledger`]) is plain serde data: `rebalance imbalance` keeps it in a
//! state file between runs, and `operate` can keep it in the cluster and feed it the same events
//! once per reconcile. Nothing here does IO or reads a clock; `now` is an input (epoch ms).

pub mod ledger;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::engine::anomalies::{AnomalyKey, AnomalyRecord};
use crate::engine::model::Millis;
pub use ledger::{Fixed, Ledger, NotFixed, Observed};

/// The kinds of rebalance, in precedence order (`Ord`: the smallest goes first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Scale-down: Cruise Control `remove_broker`.
    RemoveBrokers,
    /// Scale-up: Cruise Control `add_broker`.
    AddBrokers,
    /// Goal violations: a full rebalance (`rebalance`).
    Imbalance,
}

impl Mode {
    /// The mode's name in policies and templates (`add-brokers`, `remove-brokers`,
    /// `imbalance`), as serde writes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mode::RemoveBrokers => "remove-brokers",
            Mode::AddBrokers => "add-brokers",
            Mode::Imbalance => "imbalance",
        }
    }
}

/// The seed's FSM states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub enum State {
    Idle,
    RebalanceOnScaleDown,
    RebalanceOnScaleUp,
    RebalanceOnImbalance,
}

impl State {
    fn of(mode: Mode) -> State {
        match mode {
            Mode::RemoveBrokers => State::RebalanceOnScaleDown,
            Mode::AddBrokers => State::RebalanceOnScaleUp,
            Mode::Imbalance => State::RebalanceOnImbalance,
        }
    }
}

/// A rebalance to run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rebalance {
    pub mode: Mode,
    /// The brokers added or removed (empty for an imbalance rebalance).
    pub brokers: BTreeSet<i32>,
    /// The violations it is run for (imbalance only).
    pub anomalies: Vec<AnomalyKey>,
}

/// What happens to the machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// Brokers about to be removed need emptying.
    ScaleDownRequested(BTreeSet<i32>),
    /// New brokers should get replicas.
    ScaleUpRequested(BTreeSet<i32>),
    /// Cruise Control's current anomaly lists (any order; only goal violations count).
    AnomaliesObserved(Vec<AnomalyRecord>),
    /// The running rebalance ended (or was stopped).
    RebalanceFinished { succeeded: bool },
    /// Nothing new: start what is queued if idle (after a failure).
    Tick,
}

/// What the driver must do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    Nothing,
    /// Start this rebalance (nothing else runs).
    Start(Rebalance),
    /// Stop the running rebalance (preempted by a scale-down); answer with
    /// [`Event::RebalanceFinished`] once it stopped.
    StopRunning,
}

/// The running rebalance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Running {
    rebalance: Rebalance,
    /// A stop was asked for (preemption); it is queued again when it ends.
    stopping: bool,
    /// Violations it is treated as fixing (its own plus those first detected while it runs).
    covered: BTreeSet<AnomalyKey>,
}

/// The auto-rebalance state machine (serializable).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoRebalancer {
    state: State,
    last_transition: Millis,
    running: Option<Running>,
    /// Queued scale-down brokers (empty: none queued).
    queued_remove: BTreeSet<i32>,
    /// Queued scale-up brokers (empty: none queued).
    queued_add: BTreeSet<i32>,
    ledger: Ledger,
}

impl Default for AutoRebalancer {
    fn default() -> Self {
        AutoRebalancer::new()
    }
}

impl AutoRebalancer {
    #[must_use]
    pub fn new() -> AutoRebalancer {
        AutoRebalancer {
            state: State::Idle,
            last_transition: Millis(0),
            running: None,
            queued_remove: BTreeSet::new(),
            queued_add: BTreeSet::new(),
            ledger: Ledger::default(),
        }
    }

    #[must_use]
    pub fn state(&self) -> State {
        self.state
    }

    /// When the state last changed.
    #[must_use]
    pub fn last_transition(&self) -> Millis {
        self.last_transition
    }

    #[must_use]
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The running rebalance, if any.
    #[must_use]
    pub fn running(&self) -> Option<&Rebalance> {
        self.running.as_ref().map(|r| &r.rebalance)
    }

    /// Whether a stop of the running rebalance was asked for.
    #[must_use]
    pub fn stopping(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.stopping)
    }

    /// The modes waiting, with their brokers, in precedence order (the seed's `status.modes`).
    #[must_use]
    pub fn queued(&self) -> BTreeMap<Mode, BTreeSet<i32>> {
        let mut m = BTreeMap::new();
        if !self.queued_remove.is_empty() {
            m.insert(Mode::RemoveBrokers, self.queued_remove.clone());
        }
        if !self.queued_add.is_empty() {
            m.insert(Mode::AddBrokers, self.queued_add.clone());
        }
        if !self.ledger.not_fixed().is_empty() {
            m.insert(Mode::Imbalance, BTreeSet::new());
        }
        m
    }

    /// Feeds one event; `now` is epoch ms.
    pub fn handle(&mut self, event: Event, now: Millis) -> Action {
        match event {
            Event::ScaleDownRequested(brokers) => {
                if brokers.is_empty() {
                    return Action::Nothing;
                }
                self.queued_remove.extend(brokers);
                match &mut self.running {
                    None => self.start_next(now),
                    Some(r) if r.rebalance.mode == Mode::AddBrokers && !r.stopping => {
                        r.stopping = true;
                        Action::StopRunning
                    }
                    Some(_) => Action::Nothing,
                }
            }
            Event::ScaleUpRequested(brokers) => {
                if brokers.is_empty() {
                    return Action::Nothing;
                }
                self.queued_add.extend(brokers);
                if self.running.is_none() {
                    self.start_next(now)
                } else {
                    Action::Nothing
                }
            }
            Event::AnomaliesObserved(records) => {
                let observed = self.ledger.observe(&records);
                if let Some(r) = &mut self.running {
                    // Treated as fixed by the running rebalance.
                    for key in observed.new_not_fixed {
                        r.covered.insert(key);
                    }
                    let covered: Vec<AnomalyKey> = r.covered.iter().cloned().collect();
                    self.ledger.forget_not_fixed(&covered);
                    Action::Nothing
                } else {
                    self.start_next(now)
                }
            }
            Event::RebalanceFinished { succeeded } => {
                let Some(r) = self.running.take() else {
                    return Action::Nothing;
                };
                self.ledger.mark_fixed(&r.covered, now);
                if r.stopping {
                    if r.rebalance.mode == Mode::AddBrokers {
                        self.queued_add.extend(r.rebalance.brokers);
                    }
                    return self.start_next(now);
                }
                if succeeded {
                    self.start_next(now)
                } else {
                    self.transition(State::Idle, now);
                    Action::Nothing
                }
            }
            Event::Tick => {
                if self.running.is_none() {
                    self.start_next(now)
                } else {
                    Action::Nothing
                }
            }
        }
    }

    /// Starts the queued mode of highest precedence, or goes idle.
    fn start_next(&mut self, now: Millis) -> Action {
        debug_assert!(self.running.is_none());
        let rebalance = if !self.queued_remove.is_empty() {
            Rebalance {
                mode: Mode::RemoveBrokers,
                brokers: std::mem::take(&mut self.queued_remove),
                anomalies: Vec::new(),
            }
        } else if !self.queued_add.is_empty() {
            Rebalance {
                mode: Mode::AddBrokers,
                brokers: std::mem::take(&mut self.queued_add),
                anomalies: Vec::new(),
            }
        } else if !self.ledger.not_fixed().is_empty() {
            Rebalance {
                mode: Mode::Imbalance,
                brokers: BTreeSet::new(),
                anomalies: self.ledger.not_fixed().keys().cloned().collect(),
            }
        } else {
            self.transition(State::Idle, now);
            return Action::Nothing;
        };
        let covered: BTreeSet<AnomalyKey> = rebalance.anomalies.iter().cloned().collect();
        let covered_list: Vec<AnomalyKey> = covered.iter().cloned().collect();
        self.ledger.forget_not_fixed(&covered_list);
        self.transition(State::of(rebalance.mode), now);
        self.running = Some(Running {
            rebalance: rebalance.clone(),
            stopping: false,
            covered,
        });
        Action::Start(rebalance)
    }

    fn transition(&mut self, to: State, now: Millis) {
        if self.state != to || self.running.is_none() {
            self.last_transition = now;
        }
        self.state = to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::anomalies::AnomalyType;

    fn gv(id: &str, det: i64, goals: &[&str]) -> AnomalyRecord {
        AnomalyRecord {
            kind: AnomalyType::GoalViolation,
            anomaly_id: id.into(),
            status: "IGNORED".into(),
            detected_at_ms: Some(det),
            status_updated_at_ms: Some(det),
            fixable_goals: goals.iter().map(|s| (*s).to_string()).collect(),
            unfixable_goals: Vec::new(),
            failed_brokers: BTreeMap::new(),
            failed_disks: BTreeMap::new(),
            description: None,
        }
    }

    fn set(v: &[i32]) -> BTreeSet<i32> {
        v.iter().copied().collect()
    }

    #[test]
    fn the_seed_walkthrough() {
        let mut m = AutoRebalancer::new();
        // Scale-down and scale-up and a violation at once: down, then up, then imbalance.
        assert_eq!(
            m.handle(
                Event::AnomaliesObserved(vec![gv("a", 10, &["G"])]),
                Millis(20)
            ),
            Action::Start(Rebalance {
                mode: Mode::Imbalance,
                brokers: BTreeSet::new(),
                anomalies: vec![gv("a", 10, &["G"]).key()],
            })
        );
        assert_eq!(m.state(), State::RebalanceOnImbalance);
        // A scale-down during the imbalance rebalance waits for it.
        assert_eq!(
            m.handle(Event::ScaleDownRequested(set(&[4])), Millis(30)),
            Action::Nothing
        );
        // The same violation re-detected under a new id during the run is covered by it.
        m.handle(
            Event::AnomaliesObserved(vec![gv("b", 35, &["G"])]),
            Millis(36),
        );
        assert!(m.ledger().not_fixed().is_empty());
        let a = m.handle(Event::RebalanceFinished { succeeded: true }, Millis(40));
        assert!(matches!(
            a,
            Action::Start(Rebalance {
                mode: Mode::RemoveBrokers,
                ..
            })
        ));
        assert_eq!(m.ledger().fixed().len(), 1);
        // Old detections (before the fix) are handled; a later one is new again.
        m.handle(Event::ScaleUpRequested(set(&[5])), Millis(41));
        assert_eq!(
            m.handle(Event::ScaleDownRequested(set(&[3])), Millis(42)),
            Action::Nothing
        );
        let a = m.handle(Event::RebalanceFinished { succeeded: true }, Millis(50));
        assert!(
            matches!(&a, Action::Start(r) if r.mode == Mode::RemoveBrokers && r.brokers == set(&[3]))
        );
        // Scale-down preempts a running scale-up, which is queued again.
        let a = m.handle(Event::RebalanceFinished { succeeded: true }, Millis(60));
        assert!(matches!(&a, Action::Start(r) if r.mode == Mode::AddBrokers));
        assert_eq!(
            m.handle(Event::ScaleDownRequested(set(&[2])), Millis(61)),
            Action::StopRunning
        );
        let a = m.handle(Event::RebalanceFinished { succeeded: false }, Millis(62));
        assert!(matches!(&a, Action::Start(r) if r.mode == Mode::RemoveBrokers));
        assert_eq!(m.queued().get(&Mode::AddBrokers), Some(&set(&[5])));
        // A failure returns to Idle; the queued scale-up starts on the next tick.
        assert_eq!(
            m.handle(Event::RebalanceFinished { succeeded: false }, Millis(70)),
            Action::Nothing
        );
        assert_eq!(m.state(), State::Idle);
        assert!(
            matches!(m.handle(Event::Tick, Millis(71)), Action::Start(r) if r.mode == Mode::AddBrokers)
        );
        m.handle(Event::RebalanceFinished { succeeded: true }, Millis(80));
        assert_eq!(m.state(), State::Idle);
        // Old detection: nothing; new detection of the same content after the fix: imbalance.
        assert_eq!(
            m.handle(
                Event::AnomaliesObserved(vec![gv("c", 39, &["G"])]),
                Millis(90)
            ),
            Action::Nothing
        );
        assert!(matches!(
            m.handle(Event::AnomaliesObserved(vec![gv("d", 85, &["G"])]), Millis(90)),
            Action::Start(r) if r.mode == Mode::Imbalance
        ));
    }
}
