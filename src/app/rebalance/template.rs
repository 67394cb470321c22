//! Rebalance templates: the fields of a Strimzi `KafkaRebalance` spec kafkaops uses, read from
//! `rebalance imbalance --template` and from `operate`'s policy, merged into a [`ProposalSpec`].

use serde::Deserialize;

use super::ProposalSpec;

/// A rebalance template: the fields of a `KafkaRebalance` spec kafkaops uses.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Template {
    /// Must be `full` (or absent): an imbalance is fixed by a full rebalance.
    #[serde(default)]
    pub mode: Option<String>,
    #[serde(default)]
    pub goals: Vec<String>,
    #[serde(default)]
    pub skip_hard_goal_check: bool,
    #[serde(default)]
    pub excluded_topics: Option<String>,
    /// Bytes per second (`throttle` is accepted too).
    #[serde(default, alias = "throttle")]
    pub replication_throttle: Option<u64>,
    #[serde(default)]
    pub concurrent_partition_movements_per_broker: Option<u32>,
    #[serde(default)]
    pub concurrent_leader_movements: Option<u32>,
}

impl Template {
    /// Parses a template file: a whole `KafkaRebalance` (its `spec` is used) or just the spec.
    ///
    /// # Errors
    /// Not YAML, an unknown field, or a `mode` other than `full`.
    pub fn parse(text: &str) -> Result<Template, String> {
        let doc: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
        let spec = match doc.get("spec") {
            // A whole resource (or just `spec:`): a spec itself has no `spec` field.
            Some(spec) => spec.clone(),
            _ if doc.is_null() => serde_yaml::Value::Mapping(serde_yaml::Mapping::new()),
            _ => doc,
        };
        let t: Template = serde_yaml::from_value(spec).map_err(|e| e.to_string())?;
        if let Some(m) = &t.mode
            && m != "full"
        {
            return Err(format!(
                "mode {m:?}: an imbalance is fixed by a full rebalance, so the template's mode must be `full` or absent"
            ));
        }
        Ok(t)
    }

    /// The rebalance options: what `a` sets (flags given on the command line) wins over the
    /// template.
    #[must_use]
    pub fn merge_into(&self, a: &ProposalSpec) -> ProposalSpec {
        let mut out = a.clone();
        if out.goals.is_empty() {
            out.goals.clone_from(&self.goals);
        }
        out.skip_hard_goal_check |= self.skip_hard_goal_check;
        out.excluded_topics = a.excluded_topics.clone().or(self.excluded_topics.clone());
        out.replication_throttle = a.replication_throttle.or(self.replication_throttle);
        out.concurrent_partition_movements_per_broker = a
            .concurrent_partition_movements_per_broker
            .or(self.concurrent_partition_movements_per_broker);
        out.concurrent_leader_movements = a
            .concurrent_leader_movements
            .or(self.concurrent_leader_movements);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_kafka_rebalance_specs_or_whole_resources() {
        let whole = "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaRebalance\nmetadata:\n  name: t\n  annotations:\n    strimzi.io/rebalance-template: \"true\"\nspec:\n  goals: [RackAwareGoal, ReplicaDistributionGoal]\n  skipHardGoalCheck: true\n  replicationThrottle: 1000\n";
        let t = Template::parse(whole).unwrap();
        assert_eq!(t.goals, ["RackAwareGoal", "ReplicaDistributionGoal"]);
        assert!(t.skip_hard_goal_check);
        assert_eq!(t.replication_throttle, Some(1000));
        let spec = Template::parse(
            "excludedTopics: 'internal.*'\nthrottle: 5\nconcurrentLeaderMovements: 3\n",
        )
        .unwrap();
        assert_eq!(spec.excluded_topics.as_deref(), Some("internal.*"));
        assert_eq!(spec.replication_throttle, Some(5));
        assert_eq!(Template::parse("").unwrap(), Template::default());
        assert_eq!(
            Template::parse("spec:\n  goals: [A]\n").unwrap().goals,
            ["A"]
        );
        assert!(
            Template::parse("gaols: [x]\n")
                .unwrap_err()
                .contains("gaols")
        );
        assert!(
            Template::parse("mode: add-brokers\n")
                .unwrap_err()
                .contains("full")
        );
    }
}
