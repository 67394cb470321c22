//! The seed's `anomaly-not-fixed` / `anomaly-fixed` lists, keyed by content.
//!
//! Strimzi's proposal keeps the goal-violation anomaly ids a rebalance still has to fix and the
//! ones it fixed. Keyed by id, both lists would grow by one entry per detection interval
//! (Cruise Control re-detects the same violation under a new id every interval, reference §13)
//! and a re-detection would look like a new violation. Here an entry is keyed by the violation's
//! content ([`AnomalyKey`]: type and violated goals) and remembers when it was fixed: a detection
//! of that content made *before* the fix is the old violation (already handled), one made *after*
//! it means the violation came back and must be fixed again. Each content has one entry, and the
//! fixed list is capped ([`Ledger::MAX_FIXED`]), so the ledger does not grow with detections.
//!
//! Times are epoch milliseconds: detection times are Cruise Control's clock, fix times the
//! caller's, so hosts with skewed clocks may treat a detection made within the skew as handled
//! (Cruise Control then reports it again in the next interval).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::anomalies::{AnomalyKey, AnomalyRecord, latest_by_content};
use crate::engine::model::Millis;

/// A fixable violation no rebalance has handled yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotFixed {
    /// The id of the first detection seen (for messages; ids change every interval).
    pub first_anomaly_id: String,
    pub first_detected_ms: i64,
    pub last_detected_ms: i64,
}

/// A violation a rebalance handled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixed {
    /// When the rebalance that handled it ended (epoch ms).
    pub fixed_at: Millis,
    /// The last detection id handled (for messages).
    pub last_anomaly_id: String,
}

/// What one observation of Cruise Control's goal violations found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Observed {
    /// Fixable violations not handled yet that this observation added (content first seen, or
    /// detected again after its fix).
    pub new_not_fixed: Vec<AnomalyKey>,
    /// Latest detection of each fixable violation already handled by a rebalance.
    pub handled: Vec<AnomalyRecord>,
    /// Latest detection of each unfixable violation: reported, never acted on.
    pub unfixable: Vec<AnomalyRecord>,
}

/// The fixed / not-fixed lists (serializable, bounded).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    #[serde(with = "crate::engine::anomalies::key_map")]
    not_fixed: BTreeMap<AnomalyKey, NotFixed>,
    #[serde(with = "crate::engine::anomalies::key_map")]
    fixed: BTreeMap<AnomalyKey, Fixed>,
}

impl Ledger {
    /// At most this many fixed contents are kept (the oldest fixes are forgotten first).
    pub const MAX_FIXED: usize = 256;
    /// At most this many not-fixed contents are kept (the oldest detections first out).
    pub const MAX_NOT_FIXED: usize = 256;

    #[must_use]
    pub fn not_fixed(&self) -> &BTreeMap<AnomalyKey, NotFixed> {
        &self.not_fixed
    }

    #[must_use]
    pub fn fixed(&self) -> &BTreeMap<AnomalyKey, Fixed> {
        &self.fixed
    }

    /// Takes in Cruise Control's current goal violations (any order, duplicates, other types
    /// are ignored).
    pub fn observe(&mut self, records: &[AnomalyRecord]) -> Observed {
        let mut out = Observed::default();
        for (key, r) in latest_by_content(records) {
            if key.kind != crate::engine::anomalies::AnomalyType::GoalViolation {
                continue;
            }
            if !r.is_fixable_goal_violation() {
                out.unfixable.push(r);
                continue;
            }
            let detected = r.detected_at_ms.unwrap_or(0);
            if let Some(p) = self.not_fixed.get_mut(&key) {
                p.last_detected_ms = p.last_detected_ms.max(detected);
                continue;
            }
            let handled = self
                .fixed
                .get(&key)
                .is_some_and(|f| u64::try_from(detected).unwrap_or(0) <= f.fixed_at.0);
            if handled {
                out.handled.push(r);
                continue;
            }
            self.not_fixed.insert(
                key.clone(),
                NotFixed {
                    first_anomaly_id: r.anomaly_id.clone(),
                    first_detected_ms: detected,
                    last_detected_ms: detected,
                },
            );
            out.new_not_fixed.push(key);
        }
        while self.not_fixed.len() > Self::MAX_NOT_FIXED {
            let oldest = self
                .not_fixed
                .iter()
                .min_by_key(|(k, p)| (p.last_detected_ms, (*k).clone()))
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                self.not_fixed.remove(&k);
            }
        }
        out
    }

    /// Moves `keys` (whether listed as not fixed or not) to the fixed list as fixed at `at`.
    pub fn mark_fixed<'a>(&mut self, keys: impl IntoIterator<Item = &'a AnomalyKey>, at: Millis) {
        for key in keys {
            let id = self
                .not_fixed
                .remove(key)
                .map(|p| p.first_anomaly_id)
                .or_else(|| self.fixed.get(key).map(|f| f.last_anomaly_id.clone()))
                .unwrap_or_default();
            self.fixed.insert(
                key.clone(),
                Fixed {
                    fixed_at: at,
                    last_anomaly_id: id,
                },
            );
        }
        while self.fixed.len() > Self::MAX_FIXED {
            let oldest = self
                .fixed
                .iter()
                .min_by_key(|(k, f)| (f.fixed_at, (*k).clone()))
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                self.fixed.remove(&k);
            }
        }
    }

    /// Drops `keys` from the not-fixed list (a running rebalance covers them; they reach the
    /// fixed list when it ends).
    pub fn forget_not_fixed(&mut self, keys: &[AnomalyKey]) {
        for k in keys {
            self.not_fixed.remove(k);
        }
    }

    /// Moves every not-fixed content to the fixed list (a rebalance ran over them).
    pub fn mark_all_fixed(&mut self, at: Millis) {
        let keys: Vec<AnomalyKey> = self.not_fixed.keys().cloned().collect();
        self.mark_fixed(&keys, at);
    }
}
