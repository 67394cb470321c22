//! Which brokers' replication throttle rates `rebalance pace --throttle` changes, and when it
//! must change them again.
//!
//! Why: Cruise Control applies the throttle of a running execution batch by batch: before each
//! batch of replica movements it sets `leader.`/`follower.replication.throttled.rate` on the
//! batch's brokers to the execution's throttle wherever the value differs, and after a batch it
//! removes the rates of brokers with nothing left in progress (its `ReplicationThrottleHelper`).
//! So a rate changed through the Admin API holds until Cruise Control's next batch on that
//! broker; kafkaops keeps the new rate by setting it again on every broker where Cruise Control
//! put its own back, and never on a broker without a rate (nothing of the execution moves there,
//! or Cruise Control already cleared it). Pure: the caller reads the brokers' configs.

use serde::Serialize;

use super::view::{ConfigEntry, ConfigSource};

/// The broker config keys of the replication throttle rate.
pub const LEADER_RATE: &str = "leader.replication.throttled.rate";
pub const FOLLOWER_RATE: &str = "follower.replication.throttled.rate";

/// One broker's throttle rates as its dynamic per-broker configs hold them (`None`: unset there).
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BrokerRates {
    pub broker: i32,
    #[serde(rename = "leader_bytes_per_second")]
    pub leader: Option<u64>,
    #[serde(rename = "follower_bytes_per_second")]
    pub follower: Option<u64>,
}

impl BrokerRates {
    /// The rates of `broker` from its DescribeConfigs entries: only per-broker dynamic values
    /// count (what Cruise Control sets and removes); static and cluster-wide ones are not the
    /// execution's.
    #[must_use]
    pub fn from_entries(broker: i32, entries: &[ConfigEntry]) -> Self {
        let rate = |key: &str| {
            entries
                .iter()
                .find(|e| e.name == key && e.source == ConfigSource::DynamicBroker)
                .and_then(|e| e.value.as_deref())
                .and_then(|v| v.trim().parse::<u64>().ok())
        };
        Self {
            broker,
            leader: rate(LEADER_RATE),
            follower: rate(FOLLOWER_RATE),
        }
    }

    /// Whether the broker carries a throttle rate at all.
    #[must_use]
    pub fn throttled(&self) -> bool {
        self.leader.is_some() || self.follower.is_some()
    }
}

/// The brokers whose rates must be set to `target` now: those with a rate that differs from
/// it. A broker without any rate is left alone.
#[must_use]
pub fn to_set(target: u64, brokers: &[BrokerRates]) -> Vec<i32> {
    let mut out: Vec<i32> = brokers
        .iter()
        .filter(|b| b.throttled() && (b.leader != Some(target) || b.follower != Some(target)))
        .map(|b| b.broker)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn entry(name: &str, value: &str, source: ConfigSource) -> ConfigEntry {
        ConfigEntry {
            name: name.into(),
            value: Some(value.into()),
            read_only: false,
            source,
            sensitive: false,
        }
    }

    #[test]
    fn only_per_broker_dynamic_rates_count() {
        let e = [
            entry(LEADER_RATE, "1024", ConfigSource::StaticBroker),
            entry(FOLLOWER_RATE, "2048", ConfigSource::DynamicBroker),
        ];
        let r = BrokerRates::from_entries(3, &e);
        assert_eq!(r.leader, None);
        assert_eq!(r.follower, Some(2048));
        let e = [entry(LEADER_RATE, "5", ConfigSource::DynamicDefaultBroker)];
        assert!(!BrokerRates::from_entries(1, &e).throttled());
    }

    fn rate() -> impl Strategy<Value = Option<u64>> {
        prop_oneof![Just(None), (1u64..4).prop_map(Some)]
    }

    proptest! {
        /// Oracle, stated per broker: a broker is chosen iff one of its two rates is set and the
        /// pair is not exactly (target, target).
        #[test]
        fn chosen_iff_throttled_and_not_at_target(
            target in 1u64..4,
            rates in proptest::collection::vec((rate(), rate()), 0..8),
        ) {
            let brokers: Vec<BrokerRates> = rates
                .iter()
                .enumerate()
                .map(|(i, (l, f))| BrokerRates { broker: i as i32, leader: *l, follower: *f })
                .collect();
            let chosen = to_set(target, &brokers);
            for (i, (l, f)) in rates.iter().enumerate() {
                let any = l.is_some() || f.is_some();
                let at_target = *l == Some(target) && *f == Some(target);
                prop_assert_eq!(chosen.contains(&(i as i32)), any && !at_target, "broker {}", i);
            }
            // Applying the change reaches a fixed point: nothing left to set.
            let after: Vec<BrokerRates> = brokers
                .iter()
                .map(|b| if chosen.contains(&b.broker) {
                    BrokerRates { broker: b.broker, leader: Some(target), follower: Some(target) }
                } else { b.clone() })
                .collect();
            prop_assert!(to_set(target, &after).is_empty());
        }
    }
}
