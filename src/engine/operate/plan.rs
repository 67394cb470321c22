//! What a dry run would do, in order: `operate --once --dry-run` is asked for every action the
//! loop would take, not only the first one it starts. The loop starts one mover at a time
//! (scale-down, scale-up, rolls, replication factors, imbalance), so the others only show as
//! waits of the first decision. [`plan_ahead`] decides again and again on a copy of the state,
//! assuming each started action succeeded and changed the observation as it is meant to (a
//! drained broker holds nothing, a filled one holds replicas, a rolled node needs no roll, a
//! topic has its factor, a rebalance cleared the violations), until nothing new starts.

use super::{Decision, Mover, Observation, OperatePolicy, OperateState, Record, RecordResult};
use crate::engine::cc_flow::FlowConfig;
use crate::engine::rebalance::Mode;

/// At most this many decisions are simulated (each starts at least one action, and there are
/// only five kinds; a policy that keeps asking is cut short rather than looped over).
const MAX_STEPS: usize = 16;

/// The actions a loop would start from `state` and `obs`, in the order it would start them,
/// each assumed to succeed. The first decision's are first (what the loop starts now).
#[must_use]
pub fn plan_ahead(
    state: &OperateState,
    obs: &Observation,
    policy: &OperatePolicy,
    flow: &FlowConfig,
) -> Vec<Record> {
    let mut state = state.clone();
    let mut obs = obs.clone();
    let mut out: Vec<Record> = Vec::new();
    for _ in 0..MAX_STEPS {
        let d = super::decide(&mut state, &obs, policy, flow);
        let started: Vec<Record> = d
            .records
            .into_iter()
            .filter(|r| r.result == RecordResult::Started)
            .collect();
        if started.is_empty() {
            break;
        }
        out.extend(started);
        // Every mover started is assumed done: the world as it leaves it.
        let mut finished = Decision::default();
        for _ in 0..MAX_STEPS {
            let Some(mover) = state.mover.clone() else {
                break;
            };
            assume_done(&mover, &mut obs);
            match mover {
                Mover::Rebalance(_) => state.finish(
                    true,
                    "dry run: assumed done",
                    obs.now,
                    policy,
                    flow,
                    &mut finished,
                ),
                Mover::Roll(_) => {
                    let _ = state.finish_roll(true, "dry run: assumed done");
                }
                Mover::ReplicationFactors(_) => state.mover = None,
            }
            // A queued rebalance the machine starts as the last one ends is one more action.
            out.extend(
                std::mem::take(&mut finished.records)
                    .into_iter()
                    .filter(|r| r.result == RecordResult::Started),
            );
        }
    }
    out
}

/// What `mover` changes in the world once it succeeded.
fn assume_done(mover: &Mover, obs: &mut Observation) {
    match mover {
        Mover::Rebalance(r) => match r.rebalance.mode {
            Mode::RemoveBrokers => {
                if let Ok(k) = &mut obs.kafka {
                    for b in &r.rebalance.brokers {
                        k.brokers.insert(*b, 0);
                    }
                }
            }
            Mode::AddBrokers => {
                if let Ok(k) = &mut obs.kafka {
                    for b in &r.rebalance.brokers {
                        let n = k.brokers.entry(*b).or_insert(0);
                        *n = (*n).max(1);
                    }
                }
            }
            Mode::Imbalance => {
                if let Ok(cc) = &mut obs.cc {
                    cc.anomalies.clear();
                }
            }
        },
        Mover::Roll(_) => obs.roll = None,
        Mover::ReplicationFactors(r) => {
            if let Ok(k) = &mut obs.kafka {
                for (topic, change) in &r.replicas.changes {
                    if let Some(t) = k.topics.get_mut(topic) {
                        t.min_rf = change.target;
                        t.max_rf = change.target;
                    }
                }
            }
        }
    }
}
