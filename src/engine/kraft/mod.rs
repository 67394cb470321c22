//! KRaft lifecycle decisions: controller quorum changes (KIP-853), software upgrades and
//! feature finalization, and ghost broker registrations (KIP-1073).
//!
//! Kafka has the primitives (AddRaftVoter/RemoveRaftVoter, UpdateFeatures, UnregisterBroker)
//! and checks almost nothing before using them: it removes the last caught-up voter of a
//! quorum, finalizes `kraft.version` as part of a release upgrade, and unregisters a broker
//! that replicas still point at. These modules are the checks, pure: the adapter reads the
//! cluster into the views below, a rule says yes (with exactly what to send) or no (with a
//! typed refusal a test can match and an operator can act on).
//!
//! - [`quorum`]: the status verdict, whether a controller may be added or a voter removed, the
//!   static-to-dynamic (`kraft.version` 0 -> 1) pre-flight.
//! - [`upgrade`]: what each node's software supports, the highest level every node supports,
//!   the finalize pre-flight (`metadata.version` and friends; never `kraft.version`).
//! - [`ghosts`]: registered brokers, what still points at them, the unregister pre-flight.
//!
//! Times are the quorum leader's wall clock as DescribeQuorum reports it (the leader reports
//! its own timestamps as its current time), never the caller's clock: no clock is read here.

pub mod ghosts;
pub mod quorum;
pub mod upgrade;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

/// The feature that records whether the quorum is static (0) or dynamic (1, KIP-853).
pub const KRAFT_VERSION: &str = "kraft.version";
/// The feature that gates metadata record formats; what a release upgrade finalizes.
pub const METADATA_VERSION: &str = "metadata.version";

/// A supported level range of one feature on one node (ApiVersions `SupportedFeatures`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelRange {
    pub min: i16,
    pub max: i16,
}

impl LevelRange {
    #[must_use]
    pub fn contains(self, level: i16) -> bool {
        (self.min..=self.max).contains(&level)
    }
}

/// Majority of a voter set of `n`: `n / 2 + 1` (a set of 0 has none).
#[must_use]
pub fn majority(n: usize) -> usize {
    if n == 0 { 0 } else { n / 2 + 1 }
}
