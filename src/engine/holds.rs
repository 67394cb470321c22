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

#[cfg(test)]
mod tests {
    use super::*;

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
