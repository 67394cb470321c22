//! One loop's decision ([`decide`]): the broker facts (what is to be drained, what is new and
//! empty), then the running mover, then what may start in precedence order (scale-down,
//! scale-up, rolls, replication factors, imbalance), then the checks every unsent request and
//! every drained broker get.

use std::collections::{BTreeMap, BTreeSet};

use super::decision::{Act, Decision, Record, RecordResult, ids, target_of, topics_of};
use super::machine::{feed, queued_wishes};
use super::observation::{Observation, OperatePolicy};
use super::running::running;
use super::safety::{blockers, drain_refused, safe_to_stop};
use super::state::{Mover, OperateState, RunningReplicationFactors, RunningRoll};
use super::unsent::hold_unsent;
use crate::engine::cc_flow::{CcFlow, FlowConfig};
use crate::engine::rebalance::Mode;
use crate::engine::replicas::ReplicasState;

/// Decides one loop: updates `state` and says what the shell must do.
pub fn decide(
    state: &mut OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    flow: &FlowConfig,
) -> Decision {
    let mut d = Decision::default();
    let now = obs.now;

    // Broker facts: what is to be drained, what is new and empty. A drain set that would leave
    // too few brokers (the policy's, or Strimzi's scale-down added to it) drains nothing.
    let mut to_drain = BTreeSet::new();
    let mut scale_up = BTreeSet::new();
    let refused = obs
        .kafka
        .as_ref()
        .ok()
        .and_then(|k| drain_refused(policy, k));
    if let Some(why) = &refused {
        d.waits.push(why.clone());
    }
    match &obs.kafka {
        Ok(k) => {
            state
                .empty_since
                .retain(|b, _| k.brokers.get(b) == Some(&0) && !policy.drain.contains(b));
            for (&b, &n) in &k.brokers {
                if policy.drain.contains(&b) {
                    if n > 0 && refused.is_none() {
                        to_drain.insert(b);
                    }
                } else if n == 0 {
                    let since = *state.empty_since.entry(b).or_insert(now);
                    if now.since(since) >= policy.scale_up_grace_ms {
                        if let Some(why) = k.held.get(&b) {
                            d.waits
                                .push(format!("scale-up of broker {b} waits: it is held ({why})"));
                        } else {
                            scale_up.insert(b);
                        }
                    }
                }
            }
        }
        Err(e) => d.waits.push(format!(
            "scale-up and scale-down detection waits: Kafka metadata cannot be read ({e})"
        )),
    }
    let anomalies = obs.cc.as_ref().ok().map(|c| c.anomalies.clone());

    // 1. The running rebalance, if any: resolve, follow, or finish it.
    if state.mover.is_some() {
        running(state, obs, policy, flow, &mut d);
    }
    // Brokers the running rebalance (maybe just started) covers are not requested again.
    if let Some(r) = state.rebalance() {
        for b in &r.rebalance.brokers {
            if r.rebalance.mode == Mode::RemoveBrokers {
                to_drain.remove(b);
            }
            if r.rebalance.mode == Mode::AddBrokers {
                scale_up.remove(b);
            }
        }
    }

    // 2. While a rebalance of ours runs: a scale-down preempts a scale-up; the rest queues.
    if state.rebalance().is_some() {
        let wait_on = state
            .rebalance()
            .map(|r| {
                format!(
                    "the {} rebalance of {} runs",
                    r.rebalance.mode.name(),
                    target_of(&r.rebalance)
                )
            })
            .unwrap_or_default();
        feed(
            state, &to_drain, &scale_up, anomalies, policy, flow, now, &mut d,
        );
        if state.mover.is_some() {
            let mut wishes = queued_wishes(state);
            if let Some(w) = &obs.roll {
                wishes.push(format!("roll of nodes {}", ids(&w.nodes)));
            }
            for w in wishes {
                d.waits.push(format!("{w} waits: {wait_on}"));
            }
        }
    } else if state.roll().is_some() || state.replication_factors().is_some() {
        // 2'. A roll or a replication-factor round runs: nothing else starts until it ends.
        let wait_on = match (state.roll(), state.replication_factors()) {
            (Some(r), _) => format!("the roll of nodes {} runs", ids(&r.nodes)),
            (_, Some(r)) => format!(
                "the replication-factor round of {} runs",
                topics_of(&r.replicas)
            ),
            _ => String::new(),
        };
        let mut wishes = queued_wishes(state);
        if !to_drain.is_empty() {
            wishes.push(format!("scale-down of brokers {}", ids(&to_drain)));
        }
        if !scale_up.is_empty() {
            wishes.push(format!("scale-up of brokers {}", ids(&scale_up)));
        }
        for w in wishes {
            d.waits.push(format!("{w} waits: {wait_on}"));
        }
        if let Some(r) = state.roll() {
            // Someone else's execution or reassignments started meanwhile: no node restarts
            // while they move data; the roll resumes from its saved run once they are over.
            let why = blockers(obs);
            if why.is_empty() {
                d.acts.push(Act::StepRoll);
            } else {
                d.waits.push(format!(
                    "the roll of nodes {} waits: {}",
                    ids(&r.nodes),
                    why.join("; ")
                ));
            }
        }
    } else {
        // 3. Nothing of ours moves: may anything start?
        let blockers = blockers(obs);
        let rf = rf_wanted(state, obs, policy);
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
        let scale_wish = (!to_drain.is_empty() && policy.modes.contains(&Mode::RemoveBrokers))
            || (!scale_up.is_empty() && policy.modes.contains(&Mode::AddBrokers))
            || state
                .rebalancer
                .queued()
                .keys()
                .any(|m| *m != Mode::Imbalance);
        if blockers.is_empty() {
            match &obs.roll {
                // (4) Planned rolls come after scale-down and scale-up, before imbalance.
                Some(w) if !scale_wish => {
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
                // (5) Replication factors, before imbalance.
                // A replication-factor change cannot be told to keep new replicas off a held
                // node (topic_configuration takes no destination): none starts while one is.
                None if !scale_wish && !rf.is_empty() && held.is_none() => {
                    if let Ok(k) = &obs.kafka {
                        let replicas = ReplicasState::plan(None, &rf, &k.facts());
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
                }
                _ => {
                    feed(
                        state, &to_drain, &scale_up, anomalies, policy, flow, now, &mut d,
                    );
                    if let (false, Some(h)) = (rf.is_empty(), &held) {
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
            }
        } else {
            let why = blockers.join("; ");
            let mut wishes: Vec<String> = Vec::new();
            if !to_drain.is_empty() {
                wishes.push(format!("scale-down of brokers {}", ids(&to_drain)));
            }
            if !scale_up.is_empty() {
                wishes.push(format!("scale-up of brokers {}", ids(&scale_up)));
            }
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
    }
    hold_unsent(state, obs, policy, refused.is_none(), flow, &mut d);
    if refused.is_none() {
        safe_to_stop(state, obs, policy, &mut d);
    }
    d
}

/// The policy's factors not in force (topics that exist, not at their target, not failed at
/// that target before).
pub(super) fn rf_wanted(
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
