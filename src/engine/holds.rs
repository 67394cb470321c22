//! Node holds (`kafkaops hold`, issue 29): an operator's word that a node must be left alone
//! (a disk swap, a long log recovery) until a time. The rules are pure so that every reader
//! (roll, operate, rebalance, health) agrees on which holds still count: a hold past its
//! expiry is ignored without anyone having to remove it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::model::{Millis, NodeId};

/// One hold as stored (the value of its record, keyed by the node id).
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hold {
    pub node: NodeId,
    pub reason: String,
    /// When it was placed (milliseconds since the epoch).
    #[serde(rename = "created_at_ms", alias = "created_ms")]
    pub created_ms: u64,
    /// When it stops counting (milliseconds since the epoch).
    #[serde(rename = "expires_at_ms", alias = "expires_ms")]
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

/// The last instant RFC 3339 can write (9999-12-31T23:59:59Z), in milliseconds since the epoch.
const LAST_RFC3339_MS: u64 = 253_402_300_799_000;

/// A hold's time (milliseconds since the epoch) as people read it: RFC 3339 in UTC, or `never`
/// past what RFC 3339 can write (a hold placed for thousands of years; formatting it would fail).
#[must_use]
pub fn when(ms: u64) -> String {
    if ms > LAST_RFC3339_MS {
        return "never".into();
    }
    humantime::format_rfc3339_seconds(std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms))
        .to_string()
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
    fn times_past_what_rfc3339_can_write_are_never() {
        // Found by the health property test: a hold expiring at u64::MAX ms made the formatter fail.
        assert_eq!(when(0), "1970-01-01T00:00:00Z");
        assert_eq!(when(LAST_RFC3339_MS), "9999-12-31T23:59:59Z");
        assert_eq!(when(LAST_RFC3339_MS + 1), "never");
        assert_eq!(when(u64::MAX), "never");
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
