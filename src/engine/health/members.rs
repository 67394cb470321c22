//! The members' rules of the health verdict: the metadata quorum (leader, a caught-up
//! majority, lagging voters, the leader's clock) and the brokers (fenced, recovering, not
//! serving, unreachable, cordoned, ids referenced but not registered).

use std::collections::{BTreeMap, BTreeSet};

use super::{BrokerStatus, HealthFacts, QuorumFacts, Reason, ids, node, reason};
use crate::engine::model::NodeId;
use crate::engine::roll::safety::{clock_stepped_back, is_caught_up};

pub(super) fn quorum_reasons(q: &QuorumFacts, out: &mut Vec<Reason>) {
    let Some(leader) = q.leader else {
        out.push(reason(
            "quorum-no-leader",
            None,
            "the metadata quorum has no leader: no metadata change (leader elections, topic \
             changes, broker registrations) can be committed"
                .into(),
        ));
        return;
    };
    let ts = |id: i32| {
        q.voters
            .iter()
            .find(|v| v.id == id)
            .and_then(|v| v.last_caught_up_ms)
            .filter(|t| *t >= 0)
    };
    let Some(leader_ts) = ts(leader) else {
        // The leader reports itself with no timestamp on some versions: only the leader is
        // known to be caught up.
        judge_voters(q, leader, |id| id == leader, out);
        return;
    };
    let all = q
        .voters
        .iter()
        .filter_map(|v| Some((NodeId(v.id), v.last_caught_up_ms?)));
    if let Some((id, t)) = clock_stepped_back(leader_ts, all) {
        out.push(reason(
            "quorum-clock",
            None,
            format!(
                "voter {id} reports a last caught-up time {t} ahead of the quorum leader's \
                 ({leader_ts}): the leader's clock stepped back, no voter can be judged caught up"
            ),
        ));
        return;
    }
    judge_voters(
        q,
        leader,
        |id| id == leader || ts(id).is_some_and(|t| is_caught_up(leader_ts, t, q.fetch_timeout_ms)),
        out,
    );
}

fn judge_voters(
    q: &QuorumFacts,
    leader: i32,
    caught_up: impl Fn(i32) -> bool,
    out: &mut Vec<Reason>,
) {
    let (up, lagging): (Vec<i32>, Vec<i32>) =
        q.voters.iter().map(|v| v.id).partition(|&id| caught_up(id));
    let leader_is_voter = q.voters.iter().any(|v| v.id == leader);
    let up_count = up.len() + usize::from(!leader_is_voter && caught_up(leader));
    if up_count * 2 <= q.voters.len() {
        out.push(reason(
            "quorum-no-majority",
            None,
            format!(
                "only {up_count} of {} quorum voters are caught up with leader {leader} (caught up: {}; \
                 lagging: {}): the metadata quorum cannot commit",
                q.voters.len(),
                ids(&up),
                ids(&lagging)
            ),
        ));
        return;
    }
    for id in lagging {
        out.push(reason(
            "quorum-lagging-voters",
            Some(node(id)),
            format!(
                "quorum voter {id} is not caught up with leader {leader} (within {} ms)",
                q.fetch_timeout_ms
            ),
        ));
    }
}

pub(super) fn broker_reasons(f: &HealthFacts, out: &mut Vec<Reason>) {
    let mut replicas_on: BTreeMap<i32, usize> = BTreeMap::new();
    for p in &f.partitions {
        for r in p.replicas.iter().chain(&p.adding).collect::<BTreeSet<_>>() {
            *replicas_on.entry(*r).or_default() += 1;
        }
    }
    let holds = |id: i32| match replicas_on.get(&id) {
        Some(n) => format!(" and holds replicas of {n} partition(s)"),
        None => String::new(),
    };
    for b in &f.brokers {
        let r = match &b.status {
            BrokerStatus::Serving => None,
            BrokerStatus::Fenced => Some(reason(
                "broker-fenced",
                Some(node(b.id)),
                format!("broker {} is fenced (not serving){}", b.id, holds(b.id)),
            )),
            BrokerStatus::Recovering(logs) => Some(reason(
                "broker-recovering",
                Some(node(b.id)),
                format!(
                    "broker {} is in log recovery{}{}",
                    b.id,
                    logs.map(|l| format!(" ({l} log(s) left)"))
                        .unwrap_or_default(),
                    holds(b.id)
                ),
            )),
            BrokerStatus::NotServing(state) => Some(reason(
                "broker-not-serving",
                Some(node(b.id)),
                format!("broker {} is not serving ({state}){}", b.id, holds(b.id)),
            )),
            BrokerStatus::Unreachable(e) => Some(reason(
                "broker-unreachable",
                Some(node(b.id)),
                format!("broker {} is registered but did not answer: {e}", b.id),
            )),
        };
        out.extend(r);
        if let Some(dirs) = &b.cordoned {
            out.push(reason(
                "cordoned",
                Some(node(b.id)),
                format!(
                    "broker {} is cordoned (cordoned.log.dirs={dirs}): it takes no new partitions",
                    b.id
                ),
            ));
        }
    }
    for &id in &f.unknown_replica_ids {
        out.push(reason(
            "unknown-broker-referenced",
            Some(node(id)),
            format!(
                "replicas of {} partition(s) are assigned to broker {id}, which is not registered",
                replicas_on.get(&id).copied().unwrap_or(0)
            ),
        ));
    }
}
