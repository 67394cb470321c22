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
mod tests {
    use std::path::PathBuf;

    use super::*;

    const GOOD: &str = "\
autoRebalance:
  - mode: add-brokers
    template: { name: add }
  - mode: remove-brokers
    template: { name: remove }
  - mode: imbalance
    template: { name: full }
scaleUpGracePeriod: 2m
drain: [2]
templates:
  add: {}
  remove: { replicationThrottle: 10000000 }
  full: { mode: full, goals: [RackAwareGoal, ReplicaDistributionGoal] }
replicationFactors:
  orders: 3
roll:
  brokerConfig:
    log.retention.ms: \"604800000\"
  maxBatchSize: 1
";

    fn facts() -> ClusterFacts {
        ClusterFacts {
            brokers: [0, 1, 2].into_iter().collect(),
            topics: ["orders".to_string(), "payments".to_string()]
                .into_iter()
                .collect(),
        }
    }

    /// The one problem of a bad policy, as displayed.
    fn problem(text: &str) -> String {
        let err = Policy::parse(text).and_then(|p| p.check(&facts()).map(|()| p));
        let err = err.expect_err("the policy should be rejected");
        assert_eq!(err.problems.len(), 1, "{err}");
        err.to_string()
    }

    #[test]
    fn the_documented_policy_is_good() {
        let p = Policy::parse(GOOD).unwrap();
        p.check(&facts()).unwrap();
        assert_eq!(p.scale_up_grace_period, Duration::from_secs(120));
        assert_eq!(p.drain, vec![2]);
        assert_eq!(p.replication_factors["orders"], 3);
        assert_eq!(p.templates["remove"].replication_throttle, Some(10_000_000));
        assert_eq!(p.roll.broker_config["log.retention.ms"], "604800000");
        // `{}` asks for nothing: no mode runs.
        let empty = Policy::parse("{}").unwrap();
        assert!(empty.auto_rebalance.is_empty());
        assert_eq!(empty.roll.max_batch_size, 1);
    }

    #[test]
    fn the_example_configmap_policy_is_good() {
        let cm: serde_yaml::Value =
            serde_yaml::from_str(include_str!("../../../../examples/operate/policy.yaml")).unwrap();
        let text = cm["data"]["policy.yaml"].as_str().unwrap();
        let p = Policy::parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.auto_rebalance.len(), 3);
    }

    #[test]
    fn a_wrong_value_is_named_at_its_field() {
        let bad = GOOD.replace("orders: 3", "orders: three");
        let msg = problem(&bad);
        assert!(
            msg.starts_with("replicationFactors.orders: invalid type: string \"three\""),
            "{msg}"
        );
        let bad = GOOD.replace("orders: 3", "orders: 70000");
        let msg = problem(&bad);
        assert!(
            msg.starts_with("replicationFactors.orders: invalid value: integer `70000`"),
            "{msg}"
        );
        let bad = GOOD.replace("scaleUpGracePeriod: 2m", "scaleUpGracePeriod: soon");
        assert!(problem(&bad).starts_with("scaleUpGracePeriod: "));
        let bad = GOOD.replace("mode: remove-brokers", "mode: remove-broker");
        let msg = problem(&bad);
        assert!(
            msg.starts_with("autoRebalance[1].mode: unknown variant"),
            "{msg}"
        );
    }

    #[test]
    fn unknown_keys_are_named() {
        let bad = GOOD.replace("  maxBatchSize: 1", "  maxBatchSise: 1");
        let msg = problem(&bad);
        assert!(
            msg.starts_with("roll.maxBatchSise: unknown field `maxBatchSise`"),
            "{msg}"
        );
        let bad = GOOD.replace("drain: [2]", "drian: [2]");
        let msg = problem(&bad);
        assert!(msg.starts_with("drian: unknown field `drian`"), "{msg}");
        let bad = GOOD.replace("replicationThrottle:", "replicationThrotle:");
        let msg = problem(&bad);
        assert!(
            msg.starts_with("templates.remove.replicationThrotle: unknown field"),
            "{msg}"
        );
        let bad = GOOD.replace(
            "template: { name: add }",
            "template: { name: add, kind: x }",
        );
        let msg = problem(&bad);
        assert!(
            msg.starts_with("autoRebalance[0].template.kind: unknown field"),
            "{msg}"
        );
    }

    #[test]
    fn an_unknown_template_is_named() {
        let bad = GOOD.replace("{ name: remove }", "{ name: remov }");
        assert_eq!(
            problem(&bad),
            "autoRebalance[1].template.name: unknown template \"remov\" (templates: add, full, remove)"
        );
    }

    #[test]
    fn a_template_mode_must_fit_the_auto_rebalance_mode() {
        let bad = GOOD.replace("{ mode: full,", "{ mode: remove-brokers,");
        let msg = problem(&bad);
        assert!(
            msg.starts_with("templates.full.mode: \"remove-brokers\": the template is used by autoRebalance[2] (imbalance), which runs a `full` rebalance"),
            "{msg}"
        );
        let bad = GOOD.replace("remove: {", "remove: { mode: full,");
        let msg = problem(&bad);
        assert!(msg.starts_with("templates.remove.mode: \"full\""), "{msg}");
        let ok = GOOD.replace("remove: {", "remove: { mode: remove-brokers,");
        Policy::parse(&ok).unwrap();
    }

    #[test]
    fn a_mode_listed_twice_is_named() {
        let bad = GOOD.replace(
            "  - mode: imbalance\n",
            "  - mode: add-brokers\n    template: { name: add }\n  - mode: imbalance\n",
        );
        assert_eq!(
            problem(&bad),
            "autoRebalance[2].mode: add-brokers is already listed at autoRebalance[0] (each mode once)"
        );
    }

    #[test]
    fn drained_brokers_must_exist_and_leave_one() {
        let bad = GOOD.replace("drain: [2]", "drain: [2, 9]");
        assert_eq!(
            problem(&bad),
            "drain[1]: broker 9 does not exist (brokers: 0, 1, 2)"
        );
        let bad = GOOD.replace("drain: [2]", "drain: [0, 1, 2]");
        assert!(problem(&bad).starts_with("drain: drains every broker (0, 1, 2)"));
    }

    #[test]
    fn factors_must_be_in_range_and_topics_must_exist() {
        let bad = GOOD.replace("orders: 3", "orders: 4");
        assert_eq!(
            problem(&bad),
            "replicationFactors.orders: 4 is out of range 1..=3 (the cluster has 3 brokers)"
        );
        let bad = GOOD.replace("orders: 3", "orders: 0");
        assert!(
            problem(&bad).starts_with("replicationFactors.orders: 0 is not a replication factor")
        );
        let bad = GOOD.replace("orders: 3", "ordres: 3");
        assert_eq!(
            problem(&bad),
            "replicationFactors.ordres: topic \"ordres\" does not exist"
        );
    }

    #[test]
    fn every_problem_is_reported() {
        let bad = GOOD
            .replace("drain: [2]", "drain: [7]")
            .replace("orders: 3", "orders: 5");
        let err = Policy::parse(&bad).unwrap().check(&facts()).unwrap_err();
        let fields: Vec<&str> = err.problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["drain[0]", "replicationFactors.orders"]);
    }

    #[test]
    fn an_empty_or_broken_file_is_rejected() {
        assert!(Policy::parse("").unwrap_err().to_string().contains("empty"));
        assert!(Policy::parse("  \n").is_err());
        // Cut mid-write inside a flow mapping: not YAML, the error says where.
        let cut = &GOOD[..GOOD.find("remove }").unwrap() + 3];
        let msg = Policy::parse(cut).unwrap_err().to_string();
        assert!(msg.contains("line"), "{msg}");
    }

    // ---- reload ----

    struct File {
        _dir: tempfile::TempDir,
        path: PathBuf,
    }

    impl File {
        fn new(text: &str) -> File {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("policy.yaml");
            std::fs::write(&path, text).unwrap();
            File { _dir: dir, path }
        }
        fn write(&self, text: &str) {
            std::fs::write(&self.path, text).unwrap();
        }
    }

    async fn source(f: &File) -> PolicySource {
        PolicySource::load(&f.path, Duration::ZERO, Some(&facts()))
            .await
            .unwrap()
    }

    async fn refresh(s: &mut PolicySource) -> Reload {
        s.refresh(async || Ok(facts())).await
    }

    #[tokio::test]
    async fn a_bad_file_at_start_is_fatal_and_names_the_field() {
        let f = File::new(&GOOD.replace("orders: 3", "orders: 9"));
        let err = PolicySource::load(&f.path, Duration::ZERO, Some(&facts()))
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("replicationFactors.orders: 9 is out of range"),
            "{err}"
        );
        let missing = f.path.with_file_name("nothing.yaml");
        let err = PolicySource::load(&missing, Duration::ZERO, Some(&facts()))
            .await
            .unwrap_err();
        assert!(matches!(err, LoadError::Unreadable { .. }), "{err}");
    }

    #[tokio::test]
    async fn a_changed_file_is_reloaded_and_an_unchanged_one_is_not() {
        let f = File::new(GOOD);
        let mut s = source(&f).await;
        assert_eq!(refresh(&mut s).await, Reload::Unchanged);
        f.write(&GOOD.replace("orders: 3", "orders: 2"));
        assert_eq!(refresh(&mut s).await, Reload::Reloaded);
        assert_eq!(s.policy().replication_factors["orders"], 2);
        assert_eq!(refresh(&mut s).await, Reload::Unchanged);
    }

    #[tokio::test]
    async fn a_bad_version_keeps_the_last_good_policy_and_is_reported_once() {
        let f = File::new(GOOD);
        let mut s = source(&f).await;
        f.write(&GOOD.replace("{ name: full }", "{ name: fulll }"));
        match refresh(&mut s).await {
            Reload::Rejected(e) => assert!(
                e.to_string()
                    .starts_with("autoRebalance[2].template.name: unknown template \"fulll\""),
                "{e}"
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(*s.policy(), Policy::parse(GOOD).unwrap());
        assert_eq!(refresh(&mut s).await, Reload::Unchanged);
        // Fixed: adopted.
        f.write(&GOOD.replace("drain: [2]", "drain: []"));
        assert_eq!(refresh(&mut s).await, Reload::Reloaded);
        assert!(s.policy().drain.is_empty());
    }

    #[tokio::test]
    async fn a_file_truncated_mid_write_is_never_acted_on() {
        let f = File::new(GOOD);
        let mut s = source(&f).await;
        let next = GOOD.replace("orders: 3", "orders: 1");
        for cut in [0, 40, next.find("remove }").unwrap() + 3] {
            f.write(&next[..cut]);
            assert!(
                matches!(refresh(&mut s).await, Reload::Rejected(_)),
                "cut at {cut}"
            );
            assert_eq!(s.policy().replication_factors["orders"], 3);
        }
        f.write(&next);
        assert_eq!(refresh(&mut s).await, Reload::Reloaded);
        assert_eq!(s.policy().replication_factors["orders"], 1);
    }

    #[tokio::test]
    async fn a_file_being_written_is_not_adopted_until_it_settles() {
        let f = File::new(GOOD);
        let mut s = PolicySource::load(&f.path, Duration::from_millis(300), Some(&facts()))
            .await
            .unwrap();
        // A writer changes the file again while the first read settles.
        let path = f.path.clone();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            std::fs::write(&path, GOOD.replace("orders: 3", "orders: 2")).unwrap();
        });
        f.write(&GOOD.replace("orders: 3", "orders: 1"));
        assert_eq!(refresh(&mut s).await, Reload::Changing);
        writer.join().unwrap();
        assert_eq!(s.policy().replication_factors["orders"], 3);
        assert_eq!(refresh(&mut s).await, Reload::Reloaded);
        assert_eq!(s.policy().replication_factors["orders"], 2);
    }

    #[tokio::test]
    async fn a_configmap_symlink_swap_is_seen_whatever_the_mtimes() {
        // The kubelet's layout: policy.yaml -> ..data/policy.yaml, ..data -> ..<timestamp>.
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let old = d.join("..v1");
        std::fs::create_dir(&old).unwrap();
        std::fs::write(old.join("policy.yaml"), GOOD).unwrap();
        std::os::unix::fs::symlink("..v1", d.join("..data")).unwrap();
        std::os::unix::fs::symlink("..data/policy.yaml", d.join("policy.yaml")).unwrap();
        let mut s = PolicySource::load(&d.join("policy.yaml"), Duration::ZERO, Some(&facts()))
            .await
            .unwrap();
        // New version with the same mtime as the old one, swapped in atomically.
        let new = d.join("..v2");
        std::fs::create_dir(&new).unwrap();
        std::fs::write(
            new.join("policy.yaml"),
            GOOD.replace("drain: [2]", "drain: [1]"),
        )
        .unwrap();
        let mtime = std::fs::metadata(old.join("policy.yaml"))
            .unwrap()
            .modified()
            .unwrap();
        std::fs::File::options()
            .write(true)
            .open(new.join("policy.yaml"))
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        std::os::unix::fs::symlink("..v2", d.join("..data_tmp")).unwrap();
        std::fs::rename(d.join("..data_tmp"), d.join("..data")).unwrap();
        assert_eq!(refresh(&mut s).await, Reload::Reloaded);
        assert_eq!(s.policy().drain, vec![1]);
    }

    #[tokio::test]
    async fn a_change_waits_for_the_cluster_facts() {
        let f = File::new(GOOD);
        let mut s = source(&f).await;
        // Unchanged: the cluster is not even asked.
        let asked = s
            .refresh(async || -> Result<ClusterFacts, String> { panic!("asked") })
            .await;
        assert_eq!(asked, Reload::Unchanged);
        f.write(&GOOD.replace("drain: [2]", "drain: [1]"));
        let r = s.refresh(async || Err("Kafka is down".to_string())).await;
        assert_eq!(r, Reload::Deferred("Kafka is down".into()));
        assert_eq!(s.policy().drain, vec![2]);
        assert_eq!(refresh(&mut s).await, Reload::Reloaded);
        assert_eq!(s.policy().drain, vec![1]);
        // At start without facts: only the checks that need no cluster.
        f.write(&GOOD.replace("drain: [2]", "drain: [9]"));
        let s = PolicySource::load(&f.path, Duration::ZERO, None)
            .await
            .unwrap();
        assert_eq!(s.policy().drain, vec![9]);
        f.write(&GOOD.replace("{ name: add }", "{ name: nope }"));
        assert!(
            PolicySource::load(&f.path, Duration::ZERO, None)
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn a_policy_is_acted_on_only_once_the_cluster_checks_passed() {
        // Loaded while Kafka did not answer: not checked, nothing may act on it.
        let f = File::new(&GOOD.replace("drain: [2]", "drain: [9]"));
        let mut s = PolicySource::load(&f.path, Duration::ZERO, None)
            .await
            .unwrap();
        assert!(s.unchecked().is_some());
        // Kafka still down, the file unchanged: still unchecked, and says why.
        let r = s.refresh(async || Err("Kafka is down".to_string())).await;
        assert_eq!(r, Reload::Unchanged);
        assert!(s.unchecked().unwrap().contains("Kafka is down"), "{s:?}");
        // Kafka answers; broker 9 does not exist: still unchecked, with the problem.
        assert_eq!(refresh(&mut s).await, Reload::Unchanged);
        assert!(s.unchecked().unwrap().contains("drain[0]"), "{s:?}");
        // Broker 9 registers: checked, without an edit of the file.
        let mut with9 = facts();
        with9.brokers.insert(9);
        let f9 = with9.clone();
        assert_eq!(s.refresh(async || Ok(f9)).await, Reload::Checked);
        assert_eq!(s.unchecked(), None);
        assert_eq!(
            s.refresh(async || -> Result<ClusterFacts, String> { panic!("asked") })
                .await,
            Reload::Unchanged
        );

        // A new version rejected because of a cluster fact (a topic not created yet) ...
        let next = GOOD
            .replace("drain: [2]", "drain: [9]")
            .replace("  orders: 3", "  orders: 3\n  audit: 2");
        f.write(&next);
        let f9 = with9.clone();
        match s.refresh(async || Ok(f9)).await {
            Reload::Rejected(e) => assert!(
                e.to_string().starts_with("replicationFactors.audit: "),
                "{e}"
            ),
            other => panic!("{other:?}"),
        }
        // ... is reported once, checked again at each refresh ...
        let f9 = with9.clone();
        assert_eq!(s.refresh(async || Ok(f9)).await, Reload::Unchanged);
        assert!(!s.policy().replication_factors.contains_key("audit"));
        // ... and adopted once the topic exists, without an edit.
        with9.topics.insert("audit".to_string());
        assert_eq!(s.refresh(async || Ok(with9)).await, Reload::Reloaded);
        assert_eq!(s.policy().replication_factors["audit"], 2);
        assert_eq!(s.unchecked(), None);

        // Unchecked at start, then a broken file: the policy in force is still checked.
        let f = File::new(GOOD);
        let mut s = PolicySource::load(&f.path, Duration::ZERO, None)
            .await
            .unwrap();
        f.write("autoRebalance: [");
        assert!(matches!(refresh(&mut s).await, Reload::Rejected(_)));
        assert!(s.unchecked().is_some());
        assert_eq!(refresh(&mut s).await, Reload::Checked);
        assert_eq!(s.unchecked(), None);
    }

    #[tokio::test]
    async fn an_unreadable_file_keeps_the_last_good_policy() {
        let f = File::new(GOOD);
        let mut s = source(&f).await;
        std::fs::remove_file(&f.path).unwrap();
        assert!(matches!(refresh(&mut s).await, Reload::Unreadable(_)));
        assert_eq!(*s.policy(), Policy::parse(GOOD).unwrap());
    }
}
