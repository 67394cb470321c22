//! What may start when nothing of ours moves, in precedence order: scale-down and scale-up
//! (through the auto-rebalance machine), then a planned roll, then the policy's replication
//! factors, then imbalance; while anything blocks a start, every wish waits and says why.

use std::collections::BTreeMap;

use super::decide::Wanted;
use super::decision::{Act, Decision, Record, RecordResult, ids, topics_of};
use super::machine::{feed, queued_wishes};
use super::observation::{KafkaView, Observation, OperatePolicy, RollWish};
use super::safety::blockers;
use super::state::{Mover, OperateState, RunningReplicationFactors, RunningRoll};
use crate::engine::cc_flow::{CcFlow, FlowConfig};
use crate::engine::model::Millis;
use crate::engine::rebalance::Mode;
use crate::engine::replicas::ReplicasState;

/// 3. Nothing of ours moves: may anything start?
pub(super) fn nothing_runs(
    state: &mut OperateState,
    wanted: Wanted,
    obs: &Observation,
    policy: &OperatePolicy,
    flow: &FlowConfig,
    d: &mut Decision,
) {
    let blockers = blockers(obs);
    let rf = rf_wanted(state, obs, policy);
    if !blockers.is_empty() {
        all_wait(state, &wanted, obs, &rf, &blockers.join("; "), d);
        return;
    }
    let held = obs
        .kafka
        .as_ref()
        .ok()
        .filter(|k| !k.held.is_empty())
        .map(|k| {
            k.held
                .iter()
                .map(|(n, why)| format!("{n} ({why})"))
                .collect::<Vec<_>>()
                .join(", ")
        });
    let scale_wish = (!wanted.to_drain.is_empty() && policy.modes.contains(&Mode::RemoveBrokers))
        || (!wanted.scale_up.is_empty() && policy.modes.contains(&Mode::AddBrokers))
        || state
            .rebalancer
            .queued()
            .keys()
            .any(|m| *m != Mode::Imbalance);
    match &obs.roll {
        // (4) Planned rolls come after scale-down and scale-up, before imbalance.
        Some(w) if !scale_wish => start_roll(state, w, obs.now, d),
        // (5) Replication factors, before imbalance.
        // A replication-factor change cannot be told to keep new replicas off a held
        // node (topic_configuration takes no destination): none starts while one is.
        None if !scale_wish && !rf.is_empty() && held.is_none() => {
            if let Ok(k) = &obs.kafka {
                start_replication_factors(state, k, &rf, obs.now, flow, d);
            }
        }
        _ => {
            let Wanted {
                to_drain,
                scale_up,
                anomalies,
            } = wanted;
            feed(
                state, &to_drain, &scale_up, anomalies, policy, flow, obs.now, d,
            );
            later_wishes_wait(&rf, held.as_deref(), obs, d);
        }
    }
}

/// Starts the roll the shell found needed.
fn start_roll(state: &mut OperateState, w: &RollWish, now: Millis, d: &mut Decision) {
    d.records.push(Record {
        kind: "roll".into(),
        target: format!("nodes {}", ids(&w.nodes)),
        reason: w.reason.clone(),
        result: RecordResult::Started,
    });
    state.mover = Some(Mover::Roll(RunningRoll {
        nodes: w.nodes.clone(),
        reason: w.reason.clone(),
        started_at: now,
        run: None,
    }));
    d.acts.push(Act::StepRoll);
}

/// Starts a round for the policy's factors not in force (`rf`).
fn start_replication_factors(
    state: &mut OperateState,
    k: &KafkaView,
    rf: &BTreeMap<String, u16>,
    now: Millis,
    flow: &FlowConfig,
    d: &mut Decision,
) {
    let replicas = ReplicasState::plan(None, rf, &k.facts());
    d.records.push(Record {
        kind: "set-rf".into(),
        target: topics_of(&replicas),
        reason: format!(
            "the policy asks for {}",
            rf.iter()
                .map(|(t, f)| format!("{t}: {f}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        result: RecordResult::Started,
    });
    let tag = state.next_tag(now);
    state.mover = Some(Mover::ReplicationFactors(RunningReplicationFactors {
        replicas,
        flow: CcFlow::new(flow.clone()),
        requested_at: None,
        started_at: now,
        tag,
        request: None,
    }));
    d.acts.push(Act::StepReplicationFactors);
}

/// The replication factors and the roll wait while scale-down and scale-up go first (or, for
/// the factors, while a node is held: `held` names them).
fn later_wishes_wait(
    rf: &BTreeMap<String, u16>,
    held: Option<&str>,
    obs: &Observation,
    d: &mut Decision,
) {
    if let (false, Some(h)) = (rf.is_empty(), held) {
        d.waits.push(format!(
            "replication factors of topics {} wait: node(s) {h} are held, and a replication-factor change cannot keep new replicas off them",
            rf.keys().cloned().collect::<Vec<_>>().join(",")
        ));
    } else if !rf.is_empty() {
        d.waits.push(format!(
            "replication factors of topics {} wait: scale-down, scale-up and rolls go first",
            rf.keys().cloned().collect::<Vec<_>>().join(",")
        ));
    }
    if let Some(w) = &obs.roll {
        d.waits.push(format!(
            "roll of nodes {} waits: scale-down and scale-up go first",
            ids(&w.nodes)
        ));
    }
}

/// Something blocks every start (`why`): each wish waits, naming it.
fn all_wait(
    state: &OperateState,
    wanted: &Wanted,
    obs: &Observation,
    rf: &BTreeMap<String, u16>,
    why: &str,
    d: &mut Decision,
) {
    let mut wishes = wanted.broker_wishes();
    wishes.extend(queued_wishes(state));
    if let Some(w) = &obs.roll {
        wishes.push(format!("roll of nodes {}", ids(&w.nodes)));
    }
    if !rf.is_empty() {
        wishes.push(format!(
            "replication factors of topics {}",
            rf.keys().cloned().collect::<Vec<_>>().join(",")
        ));
    }
    if wishes.is_empty() {
        d.notes.push(format!("nothing to do; {why}"));
    }
    for w in wishes {
        d.waits.push(format!("{w} waits: {why}"));
    }
}

/// The policy's factors not in force (topics that exist, not at their target, not failed at
/// that target before).
fn rf_wanted(
    state: &OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
) -> BTreeMap<String, u16> {
    let Ok(k) = &obs.kafka else {
        return BTreeMap::new();
    };
    policy
        .replication_factors
        .iter()
        .filter(|(t, target)| {
            k.topics.get(*t).is_some_and(|f| !f.is_at(**target))
                && state.rf_failed.get(*t) != Some(*target)
        })
        .map(|(t, f)| (t.clone(), *f))
        .collect()
}
