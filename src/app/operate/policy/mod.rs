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
//!
//! Every error names its exact field (`replicationFactors.orders: ...`,
//! `autoRebalance[1].template.name: unknown template ...`, `drain[0]: broker 9 does not exist`),
//! whether it is a wrong type, an unknown key, a dangling template name, a template whose `mode`
//! does not fit its auto-rebalance mode, a mode listed twice, or a fact of the cluster
//! ([`Policy::check`] against [`ClusterFacts`]: drained brokers and topics exist, factors within
//! `1..=brokers`). [`PolicySource`] keeps the policy in force: it re-reads the file every resync,
//! adopts a changed content only when it is stable and good, and otherwise keeps the last good
//! policy (a file truncated mid-write is never acted on).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde::{Deserialize, Serialize};

mod source;

pub use source::{LoadError, PolicySource, Reload, SETTLE};

use crate::app::rebalance::Template;
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

// ---------------------------------------------------------------------------------------------
// Loading, validation and reload.
//
// Three layers, each naming the exact field it rejects:
// 1. [`Policy::parse`]: YAML into the types above through `serde_path_to_error`, so a wrong
//    type or an unknown key is reported at its path (`replicationFactors.orders: invalid
//    type ...`, `roll.brokerConfg: unknown field ...`);
// 2. the checks that need nothing but the file (template names, template modes, duplicate
//    modes, factor 0, batch size 0);
// 3. [`Policy::check`] against [`ClusterFacts`], plain data the loop observed (broker ids,
//    topic names), so it is tested without a cluster.
// [`PolicySource`] re-reads the file every resync and swaps the policy only for a good one.
// ---------------------------------------------------------------------------------------------

/// One thing wrong with a policy, at its field (`autoRebalance[1].template.name`); `field` is
/// empty when the file is not YAML at all (the message then says where it broke).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

/// A policy that cannot be used: every problem found, each at its field. Bad at start: exit 2;
/// bad on reload: logged, the last good policy stays in force.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct PolicyError {
    pub problems: Vec<Problem>,
}

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let all: Vec<String> = self.problems.iter().map(ToString::to_string).collect();
        f.write_str(&all.join("; "))
    }
}

impl PolicyError {
    fn one(field: impl Into<String>, message: impl Into<String>) -> PolicyError {
        PolicyError {
            problems: vec![Problem {
                field: field.into(),
                message: message.into(),
            }],
        }
    }
}

/// What the policy is checked against: the cluster as the loop last observed it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterFacts {
    /// The registered brokers (fenced ones included: a stopped broker may still be drained).
    pub brokers: BTreeSet<i32>,
    /// The topics that exist.
    pub topics: BTreeSet<String>,
}

/// The `mode` a template used by an auto-rebalance mode may name (Strimzi's KafkaRebalance
/// modes; an imbalance is fixed by a full rebalance).
fn strimzi_mode(mode: Mode) -> &'static str {
    match mode {
        Mode::AddBrokers => "add-brokers",
        Mode::RemoveBrokers => "remove-brokers",
        Mode::Imbalance => "full",
    }
}

fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let v: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(", ")
    }
}

impl Policy {
    /// Parses a policy file and runs the checks that need no cluster. An empty file is an
    /// error (a file caught empty mid-write must not mean "do nothing"; an empty policy is `{}`).
    pub fn parse(text: &str) -> Result<Policy, PolicyError> {
        if text.trim().is_empty() {
            return Err(PolicyError::one(
                "",
                "the policy file is empty (write `{}` for a policy that asks for nothing)",
            ));
        }
        let de = serde_yaml::Deserializer::from_str(text);
        let policy: Policy = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." { String::new() } else { path };
            let message = without_yaml_path(&e.into_inner().to_string(), &field);
            PolicyError::one(field, message)
        })?;
        let problems = policy.structural_problems();
        if problems.is_empty() {
            Ok(policy)
        } else {
            Err(PolicyError { problems })
        }
    }

    fn structural_problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut push = |field: String, message: String| out.push(Problem { field, message });
        let mut seen: BTreeMap<Mode, usize> = BTreeMap::new();
        for (i, entry) in self.auto_rebalance.iter().enumerate() {
            if let Some(first) = seen.insert(entry.mode, i) {
                // Keep the first position for the message of a third occurrence too.
                seen.insert(entry.mode, first);
                push(
                    format!("autoRebalance[{i}].mode"),
                    format!(
                        "{} is already listed at autoRebalance[{first}] (each mode once)",
                        entry.mode.name()
                    ),
                );
            }
            let name = &entry.template.name;
            match self.templates.get(name) {
                None => push(
                    format!("autoRebalance[{i}].template.name"),
                    format!(
                        "unknown template {name:?} (templates: {})",
                        list(self.templates.keys())
                    ),
                ),
                Some(t) => {
                    let want = strimzi_mode(entry.mode);
                    if let Some(m) = &t.mode
                        && m != want
                    {
                        push(
                            format!("templates.{name}.mode"),
                            format!(
                                "{m:?}: the template is used by autoRebalance[{i}] ({}), which runs a `{want}` rebalance, so its mode must be `{want}` or absent",
                                entry.mode.name()
                            ),
                        );
                    }
                }
            }
        }
        for (topic, factor) in &self.replication_factors {
            if *factor == 0 {
                push(
                    format!("replicationFactors.{topic}"),
                    "0 is not a replication factor (at least 1)".to_string(),
                );
            }
        }
        if self.roll.max_batch_size == 0 {
            push(
                "roll.maxBatchSize".to_string(),
                "0: a roll restarts at least one node at a time".to_string(),
            );
        }
        out
    }

    /// Checks the policy against the cluster: drained brokers and topics must exist, factors
    /// must be in `1..=brokers`, and draining must leave a broker to move replicas to.
    pub fn check(&self, facts: &ClusterFacts) -> Result<(), PolicyError> {
        let mut problems = Vec::new();
        let brokers = list(&facts.brokers);
        for (i, id) in self.drain.iter().enumerate() {
            if !facts.brokers.contains(id) {
                problems.push(Problem {
                    field: format!("drain[{i}]"),
                    message: format!("broker {id} does not exist (brokers: {brokers})"),
                });
            }
        }
        let drained: BTreeSet<i32> = self.drain.iter().copied().collect();
        if !facts.brokers.is_empty() && facts.brokers.iter().all(|b| drained.contains(b)) {
            problems.push(Problem {
                field: "drain".to_string(),
                message: format!(
                    "drains every broker ({brokers}): their replicas would have nowhere to go"
                ),
            });
        }
        let count = facts.brokers.len();
        for (topic, factor) in &self.replication_factors {
            let field = format!("replicationFactors.{topic}");
            if !facts.topics.contains(topic) {
                problems.push(Problem {
                    field,
                    message: format!("topic {topic:?} does not exist"),
                });
            } else if *factor == 0 || usize::from(*factor) > count {
                problems.push(Problem {
                    field,
                    message: format!(
                        "{factor} is out of range 1..={count} (the cluster has {count} brokers)"
                    ),
                });
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(PolicyError { problems })
        }
    }
}

/// serde_yaml starts its messages with its own path, which for an unknown key is the parent's
/// (`roll: unknown field ...`); the field is named once, by `serde_path_to_error`'s exact path.
fn without_yaml_path(message: &str, field: &str) -> String {
    if let Some((head, rest)) = message.split_once(": ")
        && !head.contains(' ')
        && (field == head
            || field.starts_with(&format!("{head}."))
            || field.starts_with(&format!("{head}[")))
    {
        return rest.to_string();
    }
    message.to_string()
}

#[cfg(test)]
mod tests;
