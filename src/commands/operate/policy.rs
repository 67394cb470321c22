//! The `operate` policy file: what the controller keeps true.
//!
//! ```yaml
//! autoRebalance:                  # Strimzi's Kafka.spec.cruiseControl.autoRebalance, plus imbalance
//!   - mode: add-brokers           # add-brokers | remove-brokers | imbalance
//!     template: { name: add }     # a template below
//!   - mode: remove-brokers
//!     template: { name: remove }
//!   - mode: imbalance
//!     template: { name: full }
//! scaleUpGracePeriod: 2m          # a new broker must hold no replica this long before add_broker
//! drain: [5]                      # brokers to empty (remove_broker) before they are stopped
//! templates:                      # fields of a KafkaRebalance spec (as `rebalance imbalance --template`)
//!   add: {}
//!   remove: { replicationThrottle: 10000000 }
//!   full: { goals: [RackAwareGoal, ReplicaDistributionGoal] }
//! replicationFactors:             # topic: factor, applied as `topic set-rf`
//!   orders: 3
//! roll:
//!   brokerConfig:                 # desired broker configuration: reconfigured or rolled
//!     log.retention.ms: "604800000"
//!   maxBatchSize: 1
//! ```
//!
//! A mode absent from `autoRebalance` is never run automatically. Unknown keys are errors (the
//! file is the whole truth; a typo must not silently disable a mode).

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::commands::imbalance::Template;
use crate::engine::rebalance::Mode;

/// The whole policy.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Policy {
    #[serde(default)]
    pub auto_rebalance: Vec<AutoRebalanceEntry>,
    #[serde(default = "default_grace", with = "humantime_serde")]
    pub scale_up_grace_period: Duration,
    #[serde(default)]
    pub drain: Vec<i32>,
    #[serde(default)]
    pub templates: BTreeMap<String, Template>,
    #[serde(default)]
    pub replication_factors: BTreeMap<String, u16>,
    #[serde(default)]
    pub roll: RollPolicy,
}

fn default_grace() -> Duration {
    Duration::from_secs(120)
}

/// One auto-rebalance mode and its template.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AutoRebalanceEntry {
    pub mode: Mode,
    pub template: TemplateRef,
}

/// A reference to a template by name (Strimzi's `template: {name: ...}`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateRef {
    pub name: String,
}

/// What rolls keep true everywhere (Kubernetes adds its own reasons: annotation, stuck pods,
/// revision).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RollPolicy {
    #[serde(default)]
    pub broker_config: BTreeMap<String, String>,
    #[serde(default = "one")]
    pub max_batch_size: usize,
}

impl Default for RollPolicy {
    fn default() -> Self {
        RollPolicy {
            broker_config: BTreeMap::new(),
            max_batch_size: 1,
        }
    }
}

fn one() -> usize {
    1
}

impl Policy {
    /// What the engine needs of the policy.
    #[must_use]
    pub fn engine(&self) -> crate::engine::operate::OperatePolicy {
        crate::engine::operate::OperatePolicy {
            modes: self.auto_rebalance.iter().map(|e| e.mode).collect(),
            drain: self.drain.iter().copied().collect(),
            scale_up_grace_ms: u64::try_from(self.scale_up_grace_period.as_millis())
                .unwrap_or(u64::MAX),
            replication_factors: self.replication_factors.clone(),
        }
    }

    /// The template of `mode` (a mode's entry names it; a missing name is the empty template).
    #[must_use]
    pub fn template_for(&self, mode: Mode) -> Template {
        self.auto_rebalance
            .iter()
            .find(|e| e.mode == mode)
            .and_then(|e| self.templates.get(&e.template.name))
            .cloned()
            .unwrap_or_default()
    }
}

/// Reads and parses the policy file (the one place the loop loads it; reload and validation
/// with field paths replace this).
pub fn load(path: &std::path::Path) -> Result<Policy, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the policy {}: {e}", path.display()))?;
    if text.trim().is_empty() {
        return Ok(Policy::default());
    }
    serde_yaml::from_str(&text)
        .map_err(|e| format!("the policy {} is invalid: {e}", path.display()))
}
