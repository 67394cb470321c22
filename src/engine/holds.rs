//! Node holds (`kafkaops hold`, issue 29): an operator's word that a node must be left alone
//! (a disk swap, a long log recovery) until a time. The rules are pure so that every reader
//! (roll, operate, rebalance, health) agrees on which holds still count: a hold past its
//! expiry is ignored without anyone having to remove it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::model::{Millis, NodeId};

/// One hold as stored (the value of its record, keyed by the node id).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hold {
    pub node: NodeId,
    pub reason: String,
    /// When it was placed (milliseconds since the epoch).
    pub created_ms: u64,
    /// When it stops counting (milliseconds since the epoch).
    pub expires_ms: u64,
}

impl Hold {
    /// `true` while the hold counts at `now`.
    #[must_use]
    pub fn is_active(&self, now: Millis) -> bool {
        now.0 < self.expires_ms
    }
}

/// The holds that count at `now`, by node, with their reason (what the roll engine is given).
#[must_use]
pub fn active(holds: &[Hold], now: Millis) -> BTreeMap<NodeId, String> {
    holds
        .iter()
        .filter(|h| h.is_active(now))
        .map(|h| (h.node, h.reason.clone()))
        .collect()
}

/// The nodes of `nodes` that are held, with their reason (pure).
#[must_use]
pub fn held_among(nodes: &[i32], held: &BTreeMap<NodeId, String>) -> Vec<(i32, String)> {
    let mut out: Vec<(i32, String)> = nodes
        .iter()
        .filter_map(|n| held.get(&NodeId(*n)).map(|r| (*n, r.clone())))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The brokers replicas may move to when nodes are held: every live broker but the held ones
/// and those `leaving` (pure; sorted).
#[must_use]
pub fn destinations_avoiding(
    live: &[i32],
    held: &BTreeMap<NodeId, String>,
    leaving: &[i32],
) -> Vec<i32> {
    let mut out: Vec<i32> = live
        .iter()
        .copied()
        .filter(|b| !held.contains_key(&NodeId(*b)) && !leaving.contains(b))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Held nodes as people read them: `3 (disk swap), 5 (recovery)`.
#[must_use]
pub fn describe(held: &[(i32, String)]) -> String {
    held.iter()
        .map(|(n, r)| format!("{n} ({r})"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_leave_out_held_and_leaving_brokers() {
        let held: BTreeMap<NodeId, String> = [(NodeId(3), "disk".to_string())].into();
        assert_eq!(
            destinations_avoiding(&[4, 1, 2, 3], &held, &[]),
            vec![1, 2, 4]
        );
        assert_eq!(
            destinations_avoiding(&[1, 2, 3, 4], &held, &[4]),
            vec![1, 2]
        );
        assert!(destinations_avoiding(&[3], &held, &[]).is_empty());
        assert_eq!(held_among(&[1, 3, 3], &held), vec![(3, "disk".to_string())]);
        assert!(held_among(&[1, 2], &held).is_empty());
        assert_eq!(describe(&held_among(&[3], &held)), "3 (disk)");
    }

    #[test]
    fn an_expired_hold_no_longer_counts() {
        let h = Hold {
            node: NodeId(3),
            reason: "disk swap".into(),
            created_ms: 0,
            expires_ms: 1_000,
        };
        assert_eq!(active(std::slice::from_ref(&h), Millis(999)).len(), 1);
        assert!(active(std::slice::from_ref(&h), Millis(1_000)).is_empty());
    }
}
