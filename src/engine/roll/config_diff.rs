//! Which desired settings differ from what a node runs with, and whether all
//! of them can be applied without a restart.
//!
//! The node's own `DescribeConfigs` answer says which settings are read-only
//! (Kafka sets `is_read_only` exactly for settings outside its dynamic
//! set), so the engine needs no copy of Kafka's table. A setting the node does
//! not report at all is treated as read-only: when in doubt, restart.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::model::ConfigEntry;

/// One dynamic change to apply with IncrementalAlterConfigs (SET).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
}

impl ConfigDiff {
    /// Compares `desired` with `current` (`None`: the node's settings are not
    /// known, so every desired setting counts as a static change). Sensitive
    /// values (reported without a value) cannot be compared and are skipped.
    #[must_use]
    pub fn compute(
        desired: &BTreeMap<String, String>,
        current: Option<&BTreeMap<String, ConfigEntry>>,
    ) -> ConfigDiff {
        let mut diff = ConfigDiff::default();
        for (key, want) in desired {
            match current.and_then(|c| c.get(key)) {
                None => diff.static_keys.push(key.clone()),
                Some(entry) => match &entry.value {
                    None => {}
                    Some(v) if v == want => {}
                    value @ Some(_) => {
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
                },
            }
        }
        diff
    }

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
                },
            ),
            (
                "b".to_string(),
                ConfigEntry {
                    value: Some("1".into()),
                    read_only: true,
                },
            ),
            (
                "secret".to_string(),
                ConfigEntry {
                    value: None,
                    read_only: false,
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
    }
}
