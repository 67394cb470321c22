//! Held nodes in `operate`'s roll (issue #29). A node the roll would restart or reconfigure
//! but that an operator holds (`kafkaops hold`) is left alone and the roll waits for it; the
//! loop says so once when the hold starts to matter and once when it stops mattering (the hold
//! expired or was removed, or the node needs no roll any more), not at every loop. The roll's
//! own records (the wish's reason, the finished roll's outcome) name the held nodes the same
//! way: each hold's reason and expiry, because an on-call reading them asks "until when?".
//! [`SaidOnce`] does the same for one standing line (the wait for the roll Lease another
//! holder keeps).

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::holds::{Hold, when};
use crate::engine::model::{ClusterSnapshot, Millis, NodeId};
use crate::engine::roll::{NodeRequest, RollConfig, Roller};

/// The holds that count at `now`, by node, each described with its reason and expiry (what the
/// roll engine is given, so its plan and summary name the expiry too).
#[must_use]
pub fn describe(holds: &[Hold], now: Millis) -> BTreeMap<NodeId, String> {
    holds
        .iter()
        .filter(|h| h.is_active(now))
        .map(|h| {
            (
                h.node,
                format!("{}, until {}", h.reason, when(h.expires_ms)),
            )
        })
        .collect()
}

/// The held nodes the roll waits for: those a plan without the holds would restart,
/// reconfigure or be blocked on, each with its line (pure).
#[must_use]
pub fn waiting(
    config: &RollConfig,
    snapshot: &ClusterSnapshot,
    requests: &BTreeMap<NodeId, NodeRequest>,
    holds: &BTreeMap<NodeId, String>,
) -> BTreeMap<i32, String> {
    if holds.is_empty() {
        return BTreeMap::new();
    }
    let plan = Roller::new(config.clone(), requests.clone()).plan(snapshot);
    super::roll::planned_nodes(&plan)
        .into_iter()
        .filter_map(|n| {
            let hold = holds.get(&NodeId(n))?;
            let why = requests.get(&NodeId(n)).map_or_else(String::new, needs);
            Some((
                n,
                format!("roll: node {n} is held ({hold}): the roll waits for it ({why})"),
            ))
        })
        .collect()
}

/// What a node's roll is for, in a few words.
fn needs(r: &NodeRequest) -> String {
    let mut why: Vec<String> = r.restart_reasons.clone();
    if !r.desired_config.is_empty() {
        why.push(format!(
            "roll.brokerConfig: {}",
            r.desired_config
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    format!("it needs a roll: {}", why.join("; "))
}

/// The tail of a roll's reason naming the held nodes it leaves alone (`None`: none).
#[must_use]
pub fn reason_tail(held: &[(NodeId, String)]) -> Option<String> {
    (!held.is_empty()).then(|| {
        format!(
            "held node(s) left alone, the roll waits for them: {}",
            held.iter()
                .map(|(n, r)| format!("node {n} ({r})"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// What the loop said about held nodes, so that each line is said once.
#[derive(Debug, Default)]
pub struct HeldLog {
    /// The held nodes the roll waits for, with their line, as last seen.
    waiting: BTreeMap<i32, String>,
}

impl HeldLog {
    /// Takes what the loop sees now (`waiting`, from [`waiting`]; `wished`: the nodes the roll
    /// wants now) and returns the lines about holds that stopped mattering.
    pub fn update(
        &mut self,
        waiting: BTreeMap<i32, String>,
        wished: &BTreeSet<i32>,
    ) -> Vec<String> {
        let ended = self
            .waiting
            .keys()
            .filter(|n| !waiting.contains_key(n))
            .map(|n| {
                if wished.contains(n) {
                    format!("roll: node {n} is no longer held (its hold expired or was removed): the roll goes on with it")
                } else {
                    format!("roll: node {n} no longer waits for a hold (the hold ended or the node needs no roll any more)")
                }
            })
            .collect();
        self.waiting = waiting;
        ended
    }

    /// The lines about the held nodes the roll waits for (notes of every loop: the loop logs
    /// a note once while it stays).
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        self.waiting.values().cloned().collect()
    }
}

/// A standing line said once while it lasts: [`SaidOnce::say`] returns it the first time
/// (and again once it changed or was forgotten), `None` while it repeats.
#[derive(Debug, Default)]
pub struct SaidOnce(std::sync::Mutex<Option<String>>);

impl SaidOnce {
    /// `line` when it is new, else `None`.
    pub fn say(&self, line: String) -> Option<String> {
        let mut last = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if last.as_deref() == Some(line.as_str()) {
            return None;
        }
        *last = Some(line.clone());
        Some(line)
    }

    /// The line no longer stands: said again when it comes back.
    pub fn forget(&self) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_standing_line_is_said_once_while_it_lasts() {
        let once = SaidOnce::default();
        let wait = || "the roll of nodes 1,2 waits: Lease kafkaops-roll held by x".to_string();
        assert_eq!(once.say(wait()), Some(wait()));
        assert_eq!(once.say(wait()), None);
        assert_eq!(once.say(wait()), None);
        // Another holder: new information.
        let other = "the roll of nodes 1,2 waits: Lease kafkaops-roll held by y".to_string();
        assert_eq!(once.say(other.clone()), Some(other.clone()));
        // Taken, then held by another again: said again.
        once.forget();
        assert_eq!(once.say(other.clone()), Some(other));
    }

    fn hold(node: i32, reason: &str, expires_ms: u64) -> Hold {
        Hold {
            node: NodeId(node),
            reason: reason.into(),
            created_ms: 0,
            expires_ms,
        }
    }

    #[test]
    fn holds_are_described_with_their_expiry_and_expired_ones_left_out() {
        let holds = [
            hold(2, "disk swap", 1_800_000_000_000),
            hold(3, "old", 1_000),
        ];
        let d = describe(&holds, Millis(2_000));
        assert_eq!(d.len(), 1);
        assert_eq!(d[&NodeId(2)], "disk swap, until 2027-01-15T08:00:00Z");
    }

    #[test]
    fn a_hold_is_said_once_when_it_starts_and_once_when_it_ends() {
        let mut log = HeldLog::default();
        let line = "roll: node 2 is held (x, until T): the roll waits for it (it needs a roll: y)";
        let held = BTreeMap::from([(2, line.to_string())]);
        assert!(log.update(held.clone(), &BTreeSet::from([1])).is_empty());
        assert_eq!(log.lines(), vec![line.to_string()]);
        // Still held: nothing ended, the same note (logged once by the loop).
        assert!(log.update(held, &BTreeSet::new()).is_empty());
        assert_eq!(log.lines(), vec![line.to_string()]);
        // The hold ended and node 2 is wanted now: one line, then nothing.
        let ended = log.update(BTreeMap::new(), &BTreeSet::from([2]));
        assert_eq!(ended.len(), 1);
        assert!(ended[0].contains("node 2 is no longer held"), "{ended:?}");
        assert!(log.lines().is_empty());
        assert!(log.update(BTreeMap::new(), &BTreeSet::from([2])).is_empty());
        // Ended because the node needs no roll any more: said as such.
        log.update(BTreeMap::from([(3, "l".to_string())]), &BTreeSet::new());
        let ended = log.update(BTreeMap::new(), &BTreeSet::new());
        assert!(ended[0].contains("node 3 no longer waits"), "{ended:?}");
    }

    #[test]
    fn the_reason_tail_names_each_held_node_with_its_hold() {
        assert_eq!(reason_tail(&[]), None);
        assert_eq!(
            reason_tail(&[(NodeId(2), "disk swap, until T".into())]).as_deref(),
            Some("held node(s) left alone, the roll waits for them: node 2 (disk swap, until T)")
        );
    }
}
