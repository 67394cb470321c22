//! Replication throttles: which configs are throttles, whether a movement in flight needs them,
//! and what `throttles clear` may remove.
//!
//! Why: a reassignment with a throttle (Kafka's `kafka-reassign-partitions --throttle`, Cruise
//! Control's `replication_throttle`) sets broker rates and per-topic throttled-replica lists;
//! when the movement is stopped half way (or the tool that set them dies), nobody removes them
//! (Cruise Control #1972, KAFKA-17993), and every later re-replication, including the one after
//! a broker failure, crawls at the leftover rate. `health` reports leftovers, `throttles list`
//! shows them with what needs them, `throttles clear` removes them. The rules are pure:
//! the adapters read the configs and the movements, this decides.
//!
//! Needs, conservatively: a topic's throttled-replica lists are needed while a reassignment of
//! that topic is in flight or Cruise Control executes (it sets them per batch); a broker rate
//! (`leader.`/`follower.replication.throttled.rate`) while any reassignment is in flight or
//! Cruise Control executes; `replica.alter.log.dirs.io.max.bytes.per.second` while Cruise
//! Control executes (its intra-broker moves). A Cruise Control that is configured but cannot be
//! asked may be executing: its throttles are "unknown", and `clear` refuses them like throttles
//! in use unless forced.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::view::{ConfigEntry, ConfigSource, Reassignment};

/// Broker rate of the leaders' side of throttled replication (bytes/s).
pub const LEADER_RATE: &str = "leader.replication.throttled.rate";
/// Broker rate of the followers' side of throttled replication (bytes/s).
pub const FOLLOWER_RATE: &str = "follower.replication.throttled.rate";
/// Broker rate of moves between log directories of one broker (bytes/s).
pub const LOG_DIRS_RATE: &str = "replica.alter.log.dirs.io.max.bytes.per.second";
/// Topic list of throttled leader replicas (`partition:broker,...` or `*`).
pub const LEADER_REPLICAS: &str = "leader.replication.throttled.replicas";
/// Topic list of throttled follower replicas.
pub const FOLLOWER_REPLICAS: &str = "follower.replication.throttled.replicas";

/// The broker-level throttle keys.
pub const BROKER_KEYS: [&str; 3] = [LEADER_RATE, FOLLOWER_RATE, LOG_DIRS_RATE];
/// The topic-level throttle keys.
pub const TOPIC_KEYS: [&str; 2] = [LEADER_REPLICAS, FOLLOWER_REPLICAS];

/// Where a throttle config is set.
#[derive(
    schemars::JsonSchema, Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "name")]
pub enum ThrottleTarget {
    /// A broker's own dynamic config.
    Broker(i32),
    /// The cluster-wide dynamic broker default (`--entity-default`).
    BrokerDefault,
    /// A topic's config.
    Topic(String),
}

impl std::fmt::Display for ThrottleTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ThrottleTarget::Broker(b) => write!(f, "broker {b}"),
            ThrottleTarget::BrokerDefault => f.write_str("broker default"),
            ThrottleTarget::Topic(t) => write!(f, "topic {t}"),
        }
    }
}

/// One throttle config that is set.
#[derive(
    schemars::JsonSchema, Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Throttle {
    pub target: ThrottleTarget,
    pub key: String,
    pub value: String,
}

/// The throttles among a broker's configs (DescribeConfigs BROKER): its own dynamic values, and
/// the cluster-wide default when it reports one. Static values (`server.properties`) cannot be
/// removed at run time and are not listed.
#[must_use]
pub fn from_broker_configs(broker: i32, entries: &[ConfigEntry]) -> Vec<Throttle> {
    entries
        .iter()
        .filter(|e| BROKER_KEYS.contains(&e.name.as_str()))
        .filter_map(|e| {
            let value = e
                .value
                .as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())?;
            let target = match e.source {
                ConfigSource::DynamicBroker => ThrottleTarget::Broker(broker),
                ConfigSource::DynamicDefaultBroker => ThrottleTarget::BrokerDefault,
                _ => return None,
            };
            Some(Throttle {
                target,
                key: e.name.clone(),
                value: value.to_string(),
            })
        })
        .collect()
}

/// The throttles among a topic's configs (its own values; the default is empty).
#[must_use]
pub fn from_topic_configs(topic: &str, entries: &[ConfigEntry]) -> Vec<Throttle> {
    entries
        .iter()
        .filter(|e| TOPIC_KEYS.contains(&e.name.as_str()))
        .filter(|e| e.source == ConfigSource::DynamicTopic)
        .filter_map(|e| {
            let value = e
                .value
                .as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())?;
            Some(Throttle {
                target: ThrottleTarget::Topic(topic.to_string()),
                key: e.name.clone(),
                value: value.to_string(),
            })
        })
        .collect()
}

/// Sorted, each throttle once (the broker default is reported by every broker).
#[must_use]
pub fn dedup(mut throttles: Vec<Throttle>) -> Vec<Throttle> {
    throttles.sort();
    throttles.dedup();
    throttles
}

/// What Cruise Control's executor does, as far as throttles go.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "state", content = "detail")]
pub enum CcMovement {
    /// No Cruise Control configured: only Kafka's reassignments say what moves.
    NotConfigured,
    /// Configured but its executor's state is unknown (the reason): it may be executing.
    Unknown(String),
    Idle,
    /// Executing (what runs).
    Executing(String),
}

impl From<&super::movers::CruiseControlView> for CcMovement {
    fn from(v: &super::movers::CruiseControlView) -> CcMovement {
        use super::movers::CruiseControlView as V;
        match v {
            V::NotAsked => CcMovement::NotConfigured,
            V::Unreachable(e) | V::StateUnknown(e) => CcMovement::Unknown(e.clone()),
            V::Idle => CcMovement::Idle,
            V::Executing(x) => CcMovement::Executing(x.description.clone()),
        }
    }
}

/// What is moving now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement {
    pub reassignments: Vec<Reassignment>,
    pub cruise_control: CcMovement,
}

/// Whether a throttle is needed now.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "need", content = "reason")]
pub enum Need {
    /// Nothing moving needs it: a leftover.
    Unused,
    /// A movement in flight uses it (what).
    InUse(String),
    /// Cannot tell (why): Cruise Control may be executing.
    Unknown(String),
}

impl Need {
    #[must_use]
    pub fn is_unused(&self) -> bool {
        matches!(self, Need::Unused)
    }
}

fn partitions_of(reassignments: &[Reassignment], topic: Option<&str>) -> Vec<String> {
    reassignments
        .iter()
        .filter(|r| topic.is_none_or(|t| r.topic == t))
        .map(|r| format!("{}-{}", r.topic, r.partition))
        .collect()
}

fn summary(parts: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut s = parts
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if parts.len() > SHOWN {
        s.push_str(&format!(" and {} more", parts.len() - SHOWN));
    }
    s
}

/// Whether `t` is needed by what `m` shows moving (see the module docs).
#[must_use]
pub fn need(t: &Throttle, m: &Movement) -> Need {
    let cc = match &m.cruise_control {
        CcMovement::Executing(what) => {
            Some(Need::InUse(format!("Cruise Control is executing ({what})")))
        }
        CcMovement::Unknown(why) => Some(Need::Unknown(format!(
            "Cruise Control may be executing: its state is unknown ({why})"
        ))),
        CcMovement::Idle | CcMovement::NotConfigured => None,
    };
    let moving = |topic: Option<&str>| {
        let parts = partitions_of(&m.reassignments, topic);
        (!parts.is_empty()).then(|| {
            Need::InUse(format!(
                "{} partition reassignment(s) in flight: {}",
                parts.len(),
                summary(&parts)
            ))
        })
    };
    let by_reassignment = match &t.target {
        ThrottleTarget::Topic(topic) => moving(Some(topic)),
        ThrottleTarget::Broker(_) | ThrottleTarget::BrokerDefault if t.key == LOG_DIRS_RATE => None,
        ThrottleTarget::Broker(_) | ThrottleTarget::BrokerDefault => moving(None),
    };
    by_reassignment.or(cc).unwrap_or(Need::Unused)
}

/// `throttles clear` refused: a movement uses some of them (or may).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} throttle(s) may be in use, nothing was cleared: {}; wait for the movement to end, or \
     --force to clear them anyway",
    in_use.len(),
    reasons(in_use)
)]
pub struct ThrottlesInUse {
    pub in_use: Vec<(Throttle, Need)>,
}

fn reasons(in_use: &[(Throttle, Need)]) -> String {
    let set: BTreeSet<String> = in_use
        .iter()
        .map(|(_, n)| match n {
            Need::InUse(r) | Need::Unknown(r) => r.clone(),
            Need::Unused => String::new(),
        })
        .filter(|r| !r.is_empty())
        .collect();
    set.into_iter().collect::<Vec<_>>().join("; ")
}

/// What `throttles clear` removes: every throttle when nothing needs any (or `force`);
/// otherwise nothing, and the refusal names what uses them.
///
/// # Errors
/// [`ThrottlesInUse`] when a movement uses (or may use) one of them and `force` is not set.
pub fn plan_clear(
    throttles: &[Throttle],
    m: &Movement,
    force: bool,
) -> Result<Vec<Throttle>, ThrottlesInUse> {
    let in_use: Vec<(Throttle, Need)> = throttles
        .iter()
        .map(|t| (t.clone(), need(t, m)))
        .filter(|(_, n)| !n.is_unused())
        .collect();
    if !in_use.is_empty() && !force {
        return Err(ThrottlesInUse { in_use });
    }
    Ok(dedup(throttles.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, value: &str, source: ConfigSource) -> ConfigEntry {
        ConfigEntry {
            name: name.into(),
            value: Some(value.into()),
            read_only: false,
            source,
            sensitive: false,
        }
    }

    fn r(topic: &str, p: i32) -> Reassignment {
        Reassignment {
            topic: topic.into(),
            partition: p,
            replicas: vec![1, 2, 3],
            adding: vec![3],
            removing: vec![1],
        }
    }

    #[test]
    fn broker_and_topic_throttles_are_read_by_source() {
        let b = from_broker_configs(
            2,
            &[
                entry(LEADER_RATE, "1024", ConfigSource::DynamicBroker),
                entry(FOLLOWER_RATE, "2048", ConfigSource::DynamicDefaultBroker),
                entry(LOG_DIRS_RATE, "9", ConfigSource::StaticBroker),
                entry("num.io.threads", "8", ConfigSource::DynamicBroker),
            ],
        );
        assert_eq!(
            b,
            vec![
                Throttle {
                    target: ThrottleTarget::Broker(2),
                    key: LEADER_RATE.into(),
                    value: "1024".into()
                },
                Throttle {
                    target: ThrottleTarget::BrokerDefault,
                    key: FOLLOWER_RATE.into(),
                    value: "2048".into()
                },
            ]
        );
        let t = from_topic_configs(
            "orders",
            &[
                entry(LEADER_REPLICAS, "0:1,1:2", ConfigSource::DynamicTopic),
                entry(FOLLOWER_REPLICAS, "", ConfigSource::DynamicTopic),
                entry(LEADER_REPLICAS, "*", ConfigSource::Default),
            ],
        );
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].target, ThrottleTarget::Topic("orders".into()));
    }

    #[test]
    fn needs_follow_what_moves() {
        let topic = Throttle {
            target: ThrottleTarget::Topic("a".into()),
            key: LEADER_REPLICAS.into(),
            value: "*".into(),
        };
        let rate = Throttle {
            target: ThrottleTarget::Broker(1),
            key: LEADER_RATE.into(),
            value: "10".into(),
        };
        let dirs = Throttle {
            target: ThrottleTarget::Broker(1),
            key: LOG_DIRS_RATE.into(),
            value: "10".into(),
        };
        let idle = Movement {
            reassignments: vec![],
            cruise_control: CcMovement::Idle,
        };
        for t in [&topic, &rate, &dirs] {
            assert_eq!(need(t, &idle), Need::Unused);
        }
        let other_topic = Movement {
            reassignments: vec![r("b", 0)],
            cruise_control: CcMovement::NotConfigured,
        };
        assert_eq!(need(&topic, &other_topic), Need::Unused);
        assert!(matches!(need(&rate, &other_topic), Need::InUse(_)));
        assert_eq!(need(&dirs, &other_topic), Need::Unused);
        let cc = Movement {
            reassignments: vec![],
            cruise_control: CcMovement::Executing("task 1".into()),
        };
        for t in [&topic, &rate, &dirs] {
            assert!(matches!(need(t, &cc), Need::InUse(_)));
        }
        let unknown = Movement {
            reassignments: vec![],
            cruise_control: CcMovement::Unknown("refused".into()),
        };
        assert!(matches!(need(&topic, &unknown), Need::Unknown(_)));
        let err = plan_clear(&[topic.clone(), rate.clone()], &other_topic, false).unwrap_err();
        assert_eq!(err.in_use.len(), 1);
        assert!(err.to_string().contains("b-0"), "{err}");
        assert_eq!(
            plan_clear(&[topic.clone(), rate.clone()], &other_topic, true)
                .unwrap()
                .len(),
            2
        );
        assert_eq!(plan_clear(&[topic, rate], &idle, false).unwrap().len(), 2);
    }
}
