//! Which desired settings differ from what a node runs with, and whether all
//! of them can be applied without a restart.
//!
//! The node's own `DescribeConfigs` answer says which settings are read-only
//! (Kafka sets `is_read_only` exactly for settings outside its dynamic
//! set), so the engine needs no copy of Kafka's table. A setting the node does
//! not report at all is treated as read-only: when in doubt, restart.
//!
//! Kafka returns no value both for sensitive settings (passwords, keys) and
//! for settings that are unset. Only a sensitive value cannot be compared: it
//! is skipped, and the diff names it so the plan and the summary can say that
//! it was neither checked nor applied. An unset setting that is desired is a
//! change like any other (a read-only one needs a restart).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::model::ConfigEntry;

/// One dynamic change to apply with IncrementalAlterConfigs (SET).
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigChange {
    pub key: String,
    /// Current value (`None` when unset or not reported).
    pub from: Option<String>,
    pub to: String,
}

/// Result of comparing desired with current settings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConfigDiff {
    /// Changed settings that can be applied dynamically.
    pub dynamic: Vec<ConfigChange>,
    /// Changed settings that need a restart.
    pub static_keys: Vec<String>,
    /// Desired settings whose current value Kafka does not return because it
    /// is sensitive: not compared, so neither known to differ nor applied.
    pub sensitive_keys: Vec<String>,
}

impl ConfigDiff {
    /// Compares `desired` with `current` (`None`: the node's settings are not
    /// known, so every desired setting counts as a static change). Sensitive
    /// values (reported without a value and flagged sensitive) cannot be
    /// compared and are listed in [`ConfigDiff::sensitive_keys`]; an unset
    /// value is compared like any other.
    #[must_use]
    pub fn compute(
        desired: &BTreeMap<String, String>,
        current: Option<&BTreeMap<String, ConfigEntry>>,
    ) -> ConfigDiff {
        let mut diff = ConfigDiff::default();
        for (key, want) in desired {
            let Some(entry) = current.and_then(|c| c.get(key)) else {
                diff.static_keys.push(key.clone());
                continue;
            };
            match &entry.value {
                None if entry.sensitive => diff.sensitive_keys.push(key.clone()),
                Some(v) if v == want => {}
                value => {
                    if entry.read_only {
                        diff.static_keys.push(key.clone());
                    } else {
                        diff.dynamic.push(ConfigChange {
                            key: key.clone(),
                            from: value.clone(),
                            to: want.clone(),
                        });
                    }
                }
            }
        }
        diff
    }

    /// No setting is known to differ (sensitive ones may).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.dynamic.is_empty() && self.static_keys.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_static_unknown_and_sensitive_settings() {
        let current = BTreeMap::from([
            (
                "a".to_string(),
                ConfigEntry {
                    value: Some("1".into()),
                    read_only: false,
                    sensitive: false,
                },
            ),
            (
                "b".to_string(),
                ConfigEntry {
                    value: Some("1".into()),
                    read_only: true,
                    sensitive: false,
                },
            ),
            (
                "secret".to_string(),
                ConfigEntry {
                    value: None,
                    read_only: false,
                    sensitive: true,
                },
            ),
        ]);
        let desired = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let d = ConfigDiff::compute(&desired(&[("a", "1"), ("b", "1")]), Some(&current));
        assert!(d.is_empty());
        let d = ConfigDiff::compute(&desired(&[("a", "2"), ("secret", "x")]), Some(&current));
        assert_eq!(d.dynamic.len(), 1);
        assert!(d.static_keys.is_empty());
        let d = ConfigDiff::compute(
            &desired(&[("a", "2"), ("b", "2"), ("new", "x")]),
            Some(&current),
        );
        assert_eq!(d.static_keys, vec!["b".to_string(), "new".to_string()]);
        let d = ConfigDiff::compute(&desired(&[("a", "1")]), None);
        assert_eq!(d.static_keys, vec!["a".to_string()]);
        let d = ConfigDiff::compute(&desired(&[("a", "2"), ("secret", "x")]), Some(&current));
        assert_eq!(d.sensitive_keys, vec!["secret".to_string()]);
    }

    /// Issue 23, point 6: DescribeConfigs returns no value for unset keys too. A desired
    /// read-only key that is unset (`create.topic.policy.class.name`) is a restart, never
    /// skipped; an unset dynamic key is a dynamic change from nothing.
    #[test]
    fn unset_keys_are_changes_and_only_sensitive_ones_are_skipped() {
        let unset = |read_only| ConfigEntry {
            value: None,
            read_only,
            sensitive: false,
        };
        let current = BTreeMap::from([
            ("create.topic.policy.class.name".to_string(), unset(true)),
            ("log.cleaner.threads".to_string(), unset(false)),
        ]);
        let desired = BTreeMap::from([
            (
                "create.topic.policy.class.name".to_string(),
                "com.example.Policy".to_string(),
            ),
            ("log.cleaner.threads".to_string(), "2".to_string()),
        ]);
        let d = ConfigDiff::compute(&desired, Some(&current));
        assert_eq!(
            d.static_keys,
            vec!["create.topic.policy.class.name".to_string()]
        );
        assert_eq!(
            d.dynamic,
            vec![ConfigChange {
                key: "log.cleaner.threads".into(),
                from: None,
                to: "2".into(),
            }]
        );
        assert!(d.sensitive_keys.is_empty());
        assert!(!d.is_empty());
    }
}
