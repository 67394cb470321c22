//! Property tests of the auto-rebalance state machine (`kafkaops::engine::rebalance`).
//!
//! Random event sequences (scale-down and scale-up requests, Cruise Control anomaly lists with
//! re-detections under new ids, unordered and with unfixable violations, rebalances ending well,
//! badly or after a stop, idle ticks), checking after every event: the state names the running
//! mode (Idle exactly when nothing runs), a rebalance is only started when none runs, the one
//! started has the highest precedence of what waits (scale-down > scale-up > imbalance), only a
//! scale-down stops a running scale-up, a failure goes back to Idle, unfixable violations are
//! never acted on, violations first seen during a rebalance are fixed by it, the ledger does not
//! grow with re-detections, and the state survives a JSON round trip. Then the run is drained
//! (every rebalance succeeds): every requested broker got its rebalance and every fixable
//! violation ended in the fixed list.
//!
//! Default: 256 cases per property; `PROPTEST_CASES=5000` for a heavier run.

use std::collections::{BTreeMap, BTreeSet};

use kafkaops::engine::anomalies::{AnomalyKey, AnomalyRecord, AnomalyType};
use kafkaops::engine::model::Millis;
use kafkaops::engine::rebalance::{Action, AutoRebalancer, Event, Ledger, Mode, State};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// Contents: goal sets 0..4; 3 is unfixable.
fn violation(content: u8, id: u32, detected: i64) -> AnomalyRecord {
    let (fixable, unfixable) = match content {
        0 => (vec!["ReplicaDistributionGoal"], vec![]),
        1 => (vec!["LeaderReplicaDistributionGoal"], vec![]),
        2 => (
            vec!["LeaderReplicaDistributionGoal", "ReplicaDistributionGoal"],
            vec![],
        ),
        _ => (vec!["ReplicaDistributionGoal"], vec!["RackAwareGoal"]),
    };
    AnomalyRecord {
        kind: AnomalyType::GoalViolation,
        anomaly_id: format!("id-{id}"),
        status: "IGNORED".into(),
        detected_at_ms: Some(detected),
        status_updated_at_ms: Some(detected),
        fixable_goals: fixable.into_iter().map(String::from).collect(),
        unfixable_goals: unfixable.into_iter().map(String::from).collect(),
        failed_brokers: BTreeMap::new(),
        failed_disks: BTreeMap::new(),
        description: None,
    }
}

#[derive(Debug, Clone)]
enum Ev {
    Down(BTreeSet<i32>),
    Up(BTreeSet<i32>),
    /// (content, how long before now it was detected) pairs; plus one broker failure.
    Anomalies(Vec<(u8, u16)>, bool),
    Finished(bool),
    Tick,
}

fn brokers() -> impl Strategy<Value = BTreeSet<i32>> {
    proptest::collection::btree_set(1..6i32, 0..3)
}

fn event() -> impl Strategy<Value = Ev> {
    prop_oneof![
        1 => brokers().prop_map(Ev::Down),
        1 => brokers().prop_map(Ev::Up),
        2 => (
            proptest::collection::vec((0u8..4, 0u16..300), 0..12),
            any::<bool>()
        )
            .prop_map(|(v, b)| Ev::Anomalies(v, b)),
        3 => any::<bool>().prop_map(Ev::Finished),
        1 => Just(Ev::Tick),
    ]
}

struct Run {
    m: AutoRebalancer,
    now: u64,
    next_id: u32,
    /// Brokers requested for removal / addition, and those started.
    down_requested: BTreeSet<i32>,
    down_started: BTreeSet<i32>,
    up_requested: BTreeSet<i32>,
    up_started: BTreeSet<i32>,
    /// Fixable contents ever observed.
    fixable_seen: BTreeSet<AnomalyKey>,
    starts: usize,
}

impl Run {
    fn new() -> Run {
        Run {
            m: AutoRebalancer::new(),
            now: 1_000,
            next_id: 0,
            down_requested: BTreeSet::new(),
            down_started: BTreeSet::new(),
            up_requested: BTreeSet::new(),
            up_started: BTreeSet::new(),
            fixable_seen: BTreeSet::new(),
            starts: 0,
        }
    }

    fn make_event(&mut self, e: &Ev) -> Event {
        match e {
            Ev::Down(b) => Event::ScaleDownRequested(b.clone()),
            Ev::Up(b) => Event::ScaleUpRequested(b.clone()),
            Ev::Anomalies(list, broker_failure) => {
                let mut records: Vec<AnomalyRecord> = list
                    .iter()
                    .map(|(c, ago)| {
                        self.next_id += 1;
                        violation(
                            *c,
                            self.next_id,
                            i64::try_from(self.now.saturating_sub(u64::from(*ago))).unwrap(),
                        )
                    })
                    .collect();
                if *broker_failure {
                    let mut f = violation(0, 0, 1);
                    f.kind = AnomalyType::BrokerFailure;
                    f.failed_brokers.insert(3, 1);
                    records.push(f);
                }
                Event::AnomaliesObserved(records)
            }
            Ev::Finished(ok) => Event::RebalanceFinished { succeeded: *ok },
            Ev::Tick => Event::Tick,
        }
    }

    /// Feeds one event and checks every invariant.
    fn step(&mut self, e: &Ev) -> Result<Action, TestCaseError> {
        self.now += 37;
        let now = Millis(self.now);
        let before = self.m.clone();
        let event = self.make_event(e);
        if let Event::AnomaliesObserved(records) = &event {
            for r in records {
                if r.is_fixable_goal_violation() {
                    self.fixable_seen.insert(r.key());
                }
            }
        }
        if let Event::ScaleDownRequested(b) = &event {
            self.down_requested.extend(b.iter().copied());
        }
        if let Event::ScaleUpRequested(b) = &event {
            self.up_requested.extend(b.iter().copied());
        }
        let action = self.m.handle(event.clone(), now);
        let m = &self.m;

        // The state names the running mode; Idle exactly when nothing runs.
        match m.running() {
            None => prop_assert_eq!(m.state(), State::Idle),
            Some(r) => prop_assert_eq!(
                m.state(),
                match r.mode {
                    Mode::RemoveBrokers => State::RebalanceOnScaleDown,
                    Mode::AddBrokers => State::RebalanceOnScaleUp,
                    Mode::Imbalance => State::RebalanceOnImbalance,
                }
            ),
        }
        match &action {
            Action::Start(r) => {
                self.starts += 1;
                // Only one at a time: something ran before only if it just finished.
                prop_assert!(
                    before.running().is_none() || matches!(event, Event::RebalanceFinished { .. }),
                    "started {r:?} while {:?} ran",
                    before.running()
                );
                prop_assert_eq!(m.running(), Some(r));
                // Precedence: nothing of higher precedence still waits.
                for q in m.queued().keys() {
                    prop_assert!(*q >= r.mode, "{q:?} waits while {:?} started", r.mode);
                }
                match r.mode {
                    Mode::RemoveBrokers => self.down_started.extend(r.brokers.iter().copied()),
                    Mode::AddBrokers => self.up_started.extend(r.brokers.iter().copied()),
                    Mode::Imbalance => {
                        prop_assert!(!r.anomalies.is_empty());
                        for k in &r.anomalies {
                            prop_assert!(self.fixable_seen.contains(k), "unfixable acted on: {k}");
                        }
                    }
                }
                prop_assert!(r.mode == Mode::Imbalance || !r.brokers.is_empty());
            }
            Action::StopRunning => {
                prop_assert!(matches!(event, Event::ScaleDownRequested(_)));
                prop_assert_eq!(before.running().map(|r| r.mode), Some(Mode::AddBrokers));
                prop_assert!(!before.stopping() && m.stopping());
            }
            Action::Nothing => {}
        }
        // A failure (not a preemption) goes back to Idle.
        if matches!(event, Event::RebalanceFinished { succeeded: false })
            && before.running().is_some()
            && !before.stopping()
        {
            prop_assert_eq!(m.state(), State::Idle);
            prop_assert_eq!(&action, &Action::Nothing);
        }
        // Late or duplicate answers change nothing.
        if matches!(event, Event::RebalanceFinished { .. }) && before.running().is_none() {
            prop_assert_eq!(&before, m);
        }
        // Violations first seen during a rebalance never wait for another one.
        if before.running().is_some() && m.running().is_some() {
            for k in m.ledger().not_fixed().keys() {
                prop_assert!(
                    before.ledger().not_fixed().contains_key(k),
                    "{k} first seen during a rebalance is queued"
                );
            }
        }
        // Unfixable violations never enter the lists; the lists are bounded by contents.
        for k in m
            .ledger()
            .not_fixed()
            .keys()
            .chain(m.ledger().fixed().keys())
        {
            prop_assert!(self.fixable_seen.contains(k), "{k}");
        }
        prop_assert!(m.ledger().not_fixed().len() <= 3 && m.ledger().fixed().len() <= 3);
        prop_assert!(m.ledger().fixed().len() <= Ledger::MAX_FIXED);
        // Serializable.
        let back: AutoRebalancer =
            serde_json::from_str(&serde_json::to_string(m).unwrap()).unwrap();
        prop_assert_eq!(&back, m);
        Ok(action)
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        ..ProptestConfig::default()
    })]

    #[test]
    fn invariants_hold_after_every_event(events in proptest::collection::vec(event(), 1..60)) {
        let mut run = Run::new();
        for e in &events {
            run.step(e)?;
        }
        // Drain: every rebalance succeeds from now on.
        for _ in 0..20 {
            if run.m.running().is_none() {
                run.step(&Ev::Tick)?;
            }
            if run.m.running().is_none() {
                break;
            }
            run.step(&Ev::Finished(true))?;
        }
        prop_assert_eq!(run.m.state(), State::Idle);
        prop_assert!(run.m.queued().is_empty(), "{:?}", run.m.queued());
        prop_assert_eq!(&run.down_started, &run.down_requested);
        // A preempted scale-up runs again; every requested broker got its scale-up.
        prop_assert_eq!(&run.up_started, &run.up_requested);
        let fixed: BTreeSet<AnomalyKey> = run.m.ledger().fixed().keys().cloned().collect();
        prop_assert_eq!(&fixed, &run.fixable_seen);
    }

    /// The same violations re-detected any number of times under new ids, in any order, while
    /// idle after their fix: nothing starts and the ledger does not grow.
    #[test]
    fn redetections_of_fixed_violations_start_nothing(
        contents in proptest::collection::vec(0u8..3, 1..6),
        repeats in 1usize..30,
    ) {
        let mut m = AutoRebalancer::new();
        let mut id = 0;
        let records: Vec<AnomalyRecord> =
            contents.iter().map(|c| { id += 1; violation(*c, id, 100) }).collect();
        let a = m.handle(Event::AnomaliesObserved(records), Millis(150));
        prop_assert!(matches!(a, Action::Start(ref r) if r.mode == Mode::Imbalance));
        m.handle(Event::RebalanceFinished { succeeded: true }, Millis(200));
        let ledger = m.ledger().clone();
        for i in 0..repeats {
            let mut again: Vec<AnomalyRecord> = contents
                .iter()
                .map(|c| { id += 1; violation(*c, id, 150 + i64::try_from(i).unwrap() % 50) })
                .collect();
            again.reverse();
            prop_assert_eq!(m.handle(Event::AnomaliesObserved(again), Millis(300)), Action::Nothing);
            prop_assert_eq!(m.ledger(), &ledger);
        }
        // Detected again after the fix: a new imbalance rebalance.
        let later = violation(contents[0], 9_999, 250);
        prop_assert!(matches!(
            m.handle(Event::AnomaliesObserved(vec![later]), Millis(300)),
            Action::Start(ref r) if r.mode == Mode::Imbalance
        ));
    }

    /// Whatever waits when the machine is idle, the highest precedence starts first and the
    /// rest follow in precedence order.
    #[test]
    fn queued_modes_run_in_precedence_order(
        down in brokers(), up in brokers(), violated in any::<bool>(),
    ) {
        let mut m = AutoRebalancer::new();
        // Start something to queue behind: an unrelated scale-down of broker 9.
        let first = m.handle(Event::ScaleDownRequested([9].into()), Millis(1));
        prop_assert!(matches!(first, Action::Start(_)));
        m.handle(Event::ScaleUpRequested(up.clone()), Millis(2));
        if violated {
            // Queued before... it is first seen while the scale-down runs: fixed by it.
            m.handle(Event::AnomaliesObserved(vec![violation(0, 1, 2)]), Millis(3));
        }
        m.handle(Event::ScaleDownRequested(down.clone()), Millis(4));
        let mut order = Vec::new();
        let mut now = 10;
        while let Action::Start(r) = m.handle(Event::RebalanceFinished { succeeded: true }, Millis(now)) {
            order.push(r.mode);
            now += 10;
        }
        let mut expected = Vec::new();
        if !down.is_empty() { expected.push(Mode::RemoveBrokers); }
        if !up.is_empty() { expected.push(Mode::AddBrokers); }
        prop_assert_eq!(order, expected);
        prop_assert_eq!(m.ledger().fixed().len(), usize::from(violated));
    }
}

/// The seed's triple case: a scale-down, a scale-up and a violation waiting together (here:
/// queued behind a failed scale-down, then the violation arrives while idle) run as scale-down,
/// then scale-up, then the full rebalance.
#[test]
fn scale_down_then_scale_up_then_imbalance() {
    let mut m = AutoRebalancer::new();
    let a = m.handle(Event::ScaleDownRequested([4].into()), Millis(1));
    assert!(matches!(a, Action::Start(ref r) if r.mode == Mode::RemoveBrokers));
    m.handle(Event::ScaleUpRequested([5].into()), Millis(2));
    m.handle(Event::ScaleDownRequested([3].into()), Millis(3));
    assert_eq!(
        m.handle(Event::RebalanceFinished { succeeded: false }, Millis(4)),
        Action::Nothing
    );
    assert_eq!(m.state(), State::Idle);
    let a = m.handle(
        Event::AnomaliesObserved(vec![violation(1, 1, 4)]),
        Millis(5),
    );
    let mut order = Vec::new();
    let Action::Start(r) = a else { panic!("{a:?}") };
    order.push(r.mode);
    let mut now = 10;
    while let Action::Start(r) = m.handle(Event::RebalanceFinished { succeeded: true }, Millis(now))
    {
        order.push(r.mode);
        now += 10;
    }
    assert_eq!(
        order,
        [Mode::RemoveBrokers, Mode::AddBrokers, Mode::Imbalance]
    );
    assert_eq!(m.state(), State::Idle);
    assert_eq!(m.ledger().fixed().len(), 1);
    assert!(m.ledger().not_fixed().is_empty());
}

/// Every (state, event) pair of the seed's FSM, with the state and action it leads to.
#[test]
fn every_transition_of_the_seed() {
    use Mode::{AddBrokers, Imbalance, RemoveBrokers};
    use State::{Idle, RebalanceOnImbalance, RebalanceOnScaleDown, RebalanceOnScaleUp};
    /// A machine in `state` (nothing queued).
    fn in_state(state: State) -> AutoRebalancer {
        let mut m = AutoRebalancer::new();
        let e = match state {
            Idle => return m,
            RebalanceOnScaleDown => Event::ScaleDownRequested([4].into()),
            RebalanceOnScaleUp => Event::ScaleUpRequested([5].into()),
            RebalanceOnImbalance => Event::AnomaliesObserved(vec![violation(0, 1, 10)]),
        };
        assert!(matches!(m.handle(e, Millis(20)), Action::Start(_)));
        assert_eq!(m.state(), state);
        m
    }
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum A {
        Nothing,
        Start(Mode),
        Stop,
    }
    let events = |s: &str| match s {
        "scale-down" => Event::ScaleDownRequested([3].into()),
        "scale-up" => Event::ScaleUpRequested([6].into()),
        "violation" => Event::AnomaliesObserved(vec![violation(1, 2, 30)]),
        "unfixable" => Event::AnomaliesObserved(vec![violation(3, 3, 30)]),
        "succeeded" => Event::RebalanceFinished { succeeded: true },
        "failed" => Event::RebalanceFinished { succeeded: false },
        _ => Event::Tick,
    };
    // (from, event, to, action, then: the state after the running rebalance succeeds)
    let table: &[(State, &str, State, A, State)] = &[
        (
            Idle,
            "scale-down",
            RebalanceOnScaleDown,
            A::Start(RemoveBrokers),
            Idle,
        ),
        (
            Idle,
            "scale-up",
            RebalanceOnScaleUp,
            A::Start(AddBrokers),
            Idle,
        ),
        (
            Idle,
            "violation",
            RebalanceOnImbalance,
            A::Start(Imbalance),
            Idle,
        ),
        (Idle, "unfixable", Idle, A::Nothing, Idle),
        (Idle, "succeeded", Idle, A::Nothing, Idle),
        (Idle, "failed", Idle, A::Nothing, Idle),
        (Idle, "tick", Idle, A::Nothing, Idle),
        // Scale-down running: another scale-down or a scale-up waits; a violation is fixed by it.
        (
            RebalanceOnScaleDown,
            "scale-down",
            RebalanceOnScaleDown,
            A::Nothing,
            RebalanceOnScaleDown,
        ),
        (
            RebalanceOnScaleDown,
            "scale-up",
            RebalanceOnScaleDown,
            A::Nothing,
            RebalanceOnScaleUp,
        ),
        (
            RebalanceOnScaleDown,
            "violation",
            RebalanceOnScaleDown,
            A::Nothing,
            Idle,
        ),
        (
            RebalanceOnScaleDown,
            "unfixable",
            RebalanceOnScaleDown,
            A::Nothing,
            Idle,
        ),
        (RebalanceOnScaleDown, "succeeded", Idle, A::Nothing, Idle),
        (RebalanceOnScaleDown, "failed", Idle, A::Nothing, Idle),
        (
            RebalanceOnScaleDown,
            "tick",
            RebalanceOnScaleDown,
            A::Nothing,
            Idle,
        ),
        // Scale-up running: a scale-down stops it (it runs again after); the rest as above.
        (
            RebalanceOnScaleUp,
            "scale-down",
            RebalanceOnScaleUp,
            A::Stop,
            RebalanceOnScaleDown,
        ),
        (
            RebalanceOnScaleUp,
            "scale-up",
            RebalanceOnScaleUp,
            A::Nothing,
            RebalanceOnScaleUp,
        ),
        (
            RebalanceOnScaleUp,
            "violation",
            RebalanceOnScaleUp,
            A::Nothing,
            Idle,
        ),
        (
            RebalanceOnScaleUp,
            "unfixable",
            RebalanceOnScaleUp,
            A::Nothing,
            Idle,
        ),
        (RebalanceOnScaleUp, "succeeded", Idle, A::Nothing, Idle),
        (RebalanceOnScaleUp, "failed", Idle, A::Nothing, Idle),
        (
            RebalanceOnScaleUp,
            "tick",
            RebalanceOnScaleUp,
            A::Nothing,
            Idle,
        ),
        // Imbalance running: scale requests wait for it; a new violation is fixed by it.
        (
            RebalanceOnImbalance,
            "scale-down",
            RebalanceOnImbalance,
            A::Nothing,
            RebalanceOnScaleDown,
        ),
        (
            RebalanceOnImbalance,
            "scale-up",
            RebalanceOnImbalance,
            A::Nothing,
            RebalanceOnScaleUp,
        ),
        (
            RebalanceOnImbalance,
            "violation",
            RebalanceOnImbalance,
            A::Nothing,
            Idle,
        ),
        (
            RebalanceOnImbalance,
            "unfixable",
            RebalanceOnImbalance,
            A::Nothing,
            Idle,
        ),
        (RebalanceOnImbalance, "succeeded", Idle, A::Nothing, Idle),
        (RebalanceOnImbalance, "failed", Idle, A::Nothing, Idle),
        (
            RebalanceOnImbalance,
            "tick",
            RebalanceOnImbalance,
            A::Nothing,
            Idle,
        ),
    ];
    for (from, event, to, action, then) in table {
        let mut m = in_state(*from);
        let got = match m.handle(events(event), Millis(40)) {
            Action::Nothing => A::Nothing,
            Action::Start(r) => A::Start(r.mode),
            Action::StopRunning => A::Stop,
        };
        assert_eq!((m.state(), got), (*to, *action), "{from:?} --{event}-->");
        if m.running().is_some() {
            m.handle(Event::RebalanceFinished { succeeded: true }, Millis(50));
        }
        assert_eq!(
            m.state(),
            *then,
            "{from:?} --{event}--> {to:?}, then success"
        );
        // Whatever was started or queued, the machine drains to Idle with nothing left waiting.
        for _ in 0..5 {
            m.handle(Event::RebalanceFinished { succeeded: true }, Millis(60));
        }
        assert_eq!(m.state(), Idle, "{from:?} --{event}--> drains");
        assert!(
            m.queued().is_empty(),
            "{from:?} --{event}--> {:?}",
            m.queued()
        );
    }
}
