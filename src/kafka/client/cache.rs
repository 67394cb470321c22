//! What one observation keeps for the next: broker configs that do not change while a broker
//! runs, read again only when something says they may have changed
//! ([`KafkaClient::broker_configs`](super::KafkaClient)), and the key filter that keeps them
//! small ([`KafkaClient::keep_broker_config_keys`]).

use std::collections::{BTreeMap, BTreeSet};

use futures::StreamExt;

use super::needed::BrokerConfigReads;
use super::{FAN_OUT, KafkaClient};
use crate::engine::view::ConfigEntry;
use crate::kafka::error::{KafkaError, Result};
use crate::kafka::ffi::NodeAddress;
use crate::kafka::wire_admin;

/// A broker's configs are read again at the latest after this many observations (about 2
/// minutes at a roll's 2 s poll), a share of the brokers each observation.
pub const CONFIG_REFRESH_OBSERVATIONS: u64 = 64;

/// What observations carry over: broker configs that do not change while a broker runs.
#[derive(Debug, Default)]
pub(super) struct ObservationCache {
    pub(super) observations: u64,
    pub(super) brokers: BTreeMap<i32, CachedBroker>,
    /// The only config keys kept of each broker (`None`: every key; see
    /// [`KafkaClient::keep_broker_config_keys`]).
    pub(super) keep: Option<BTreeSet<String>>,
    /// Which brokers' configs an observation reads ([`KafkaClient::read_broker_configs`]).
    pub(super) reads: BrokerConfigReads,
}

/// The broker config keys an observation itself reads (roles, the quorum's fetch timeout, the
/// broker-level `min.insync.replicas`, the idle limit of the roll's restart witness): a caller
/// that keeps only some keys ([`KafkaClient::keep_broker_config_keys`]) keeps these too.
pub const OBSERVED_BROKER_KEYS: [&str; 4] = [
    "process.roles",
    "controller.quorum.fetch.timeout.ms",
    "min.insync.replicas",
    "connections.max.idle.ms",
];

#[derive(Debug, Clone)]
pub(super) struct CachedBroker {
    configs: Vec<ConfigEntry>,
    /// The broker's endpoint when its configs were read.
    address: NodeAddress,
    /// The observation that read the configs.
    read_at: u64,
    /// The last observation that listed the broker unfenced.
    listed_at: u64,
}

/// The listed brokers whose configs this observation asks for (see
/// `KafkaClient::broker_configs`): the must-ask ones, then up to a share of the brokers whose
/// cached configs are older than [`CONFIG_REFRESH_OBSERVATIONS`], oldest first.
fn configs_to_read(
    cached: &BTreeMap<i32, CachedBroker>,
    listed: &[NodeAddress],
    alive: &BTreeSet<i32>,
    observation: u64,
) -> Vec<NodeAddress> {
    let mut ask = Vec::new();
    let mut due = Vec::new();
    for n in listed {
        match cached.get(&n.id) {
            Some(c)
                if c.address == *n && c.listed_at + 1 == observation && alive.contains(&n.id) =>
            {
                if observation.saturating_sub(c.read_at) >= CONFIG_REFRESH_OBSERVATIONS {
                    due.push((c.read_at, n.clone()));
                }
            }
            _ => ask.push(n.clone()),
        }
    }
    due.sort_by_key(|(read_at, n)| (*read_at, n.id));
    let share = usize::try_from(CONFIG_REFRESH_OBSERVATIONS).unwrap_or(1);
    let budget = listed.len().div_ceil(share).max(1) * 2;
    ask.extend(due.into_iter().take(budget).map(|(_, n)| n));
    ask
}

impl KafkaClient {
    /// Forgets what the observations keep of broker `id` (its configs): the next observation
    /// asks it again. Callers that restart a broker say so here.
    pub fn forget_broker(&self, id: i32) {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .brokers
            .remove(&id);
    }

    /// Keeps of each broker's configs only `keys` and [`OBSERVED_BROKER_KEYS`] (`None`: every
    /// key, the default), in what observations keep between them and in the observations
    /// themselves. A broker reports some 350 configs (30 KiB decoded): at 1,000 brokers a
    /// long-running `operate` kept 30 MB of them (issue #27) when it reads a dozen keys.
    /// Changing the set forgets every broker's configs (the next observation reads them
    /// again), so a key added later is never missing from an older answer.
    pub fn keep_broker_config_keys(&self, keys: Option<BTreeSet<String>>) {
        let keys = keys.map(|mut k| {
            k.extend(OBSERVED_BROKER_KEYS.iter().map(|k| (*k).to_string()));
            k
        });
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if cache.keep != keys {
            cache.keep = keys;
            cache.brokers.clear();
        }
    }

    /// Which brokers' configs the next observations read: every unfenced broker's (the
    /// default) or only those a decision needs (`roll --dry-run`; see
    /// [`super::needed`]). Brokers not asked have no configs in the observation; the quorum's
    /// word that they run stands in for their answer.
    pub fn read_broker_configs(&self, reads: BrokerConfigReads) {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .reads = reads;
    }

    /// Which brokers' configs observations read ([`Self::read_broker_configs`]).
    pub(super) fn broker_config_reads(&self) -> BrokerConfigReads {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .reads
    }

    /// Forgets what the observations keep of every broker.
    pub fn forget_all_brokers(&self) {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .brokers
            .clear();
    }

    /// Each unfenced broker's configs, and the brokers that did not answer. What a roll does
    /// not change while the broker runs is not asked again every observation: a broker is
    /// asked when its configs are not known yet, when it was not listed unfenced in the
    /// previous observation (it may have restarted), when its endpoint changed, when the
    /// quorum does not vouch that it runs now (`alive`, from [`vouched_alive`]: its metadata
    /// is behind or its last fetch is old, so it may have stopped: asking it tells), and
    /// otherwise once every [`CONFIG_REFRESH_OBSERVATIONS`] observations, a share of the
    /// brokers each time. So a broker with configs in the answer answered now or runs by the
    /// quorum's word now: the snapshot's "reachable" (which discounts a crashed, not yet
    /// fenced broker from every ISR) never rests on an old answer. Concurrency is bounded by
    /// [`FAN_OUT`].
    ///
    /// `needed` (with [`BrokerConfigReads::Needed`]): only these brokers and those the quorum
    /// does not vouch for are asked; the others are left out unless kept from before.
    pub(super) async fn broker_configs(
        &self,
        listed: &[NodeAddress],
        alive: &BTreeSet<i32>,
        needed: Option<&BTreeSet<i32>>,
        observation: u64,
    ) -> (BTreeMap<i32, Vec<ConfigEntry>>, BTreeMap<i32, String>) {
        let ask: Vec<NodeAddress> = {
            let cache = self
                .cache
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let mut ask = configs_to_read(&cache.brokers, listed, alive, observation);
            if let Some(needed) = needed {
                ask.retain(|n| needed.contains(&n.id) || !alive.contains(&n.id));
            }
            ask
        };
        let answers: Vec<(i32, NodeAddress, Result<Vec<ConfigEntry>>)> = futures::stream::iter(ask)
            .map(|node| async move {
                let address = format!("{}:{}", node.host, node.port);
                let answer = async {
                    let mut conn = self
                        .wire_connection_to(&address, "reading a broker's configs")
                        .await?;
                    wire_admin::describe_broker_configs(&mut conn, node.id).await
                };
                let answer = match tokio::time::timeout(self.timeout(), answer).await {
                    Ok(a) => a,
                    Err(_) => Err(KafkaError::Timeout {
                        what: format!("DescribeConfigs of broker {}", node.id),
                        address,
                        after: self.timeout(),
                    }),
                };
                (node.id, node, answer)
            })
            .buffer_unordered(FAN_OUT)
            .collect()
            .await;
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut unreachable = BTreeMap::new();
        for (id, node, answer) in answers {
            match answer {
                Ok(mut configs) => {
                    if let Some(keep) = &cache.keep {
                        configs.retain(|e| keep.contains(&e.name));
                        configs.shrink_to_fit();
                    }
                    cache.brokers.insert(
                        id,
                        CachedBroker {
                            configs,
                            address: node,
                            read_at: observation,
                            listed_at: observation,
                        },
                    );
                }
                Err(e) => {
                    cache.brokers.remove(&id);
                    unreachable.insert(id, e.to_string());
                }
            }
        }
        let mut configs = BTreeMap::new();
        for n in listed {
            if let Some(c) = cache.brokers.get_mut(&n.id) {
                c.listed_at = observation;
                configs.insert(n.id, c.configs.clone());
            }
        }
        // Brokers no longer listed unfenced are forgotten: asked again when they come back.
        let listed_ids: BTreeSet<i32> = listed.iter().map(|n| n.id).collect();
        cache.brokers.retain(|id, _| listed_ids.contains(id));
        (configs, unreachable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::client::fixtures::addr;

    #[test]
    fn cached_broker_configs_are_read_again_when_something_says_they_may_have_changed() {
        let cached = |read_at: u64, listed_at: u64, address: NodeAddress| CachedBroker {
            configs: Vec::new(),
            address,
            read_at,
            listed_at,
        };
        let mut moved = addr(4);
        moved.port = 9093;
        let cache = BTreeMap::from([
            (1, cached(9, 9, addr(1))),
            (2, cached(9, 9, addr(2))),
            (3, cached(5, 8, addr(3))),
            (4, cached(9, 9, moved)),
        ]);
        let listed: Vec<NodeAddress> = (1..=5).map(addr).collect();
        let caught_up = BTreeSet::from([1, 3, 4, 5]);
        let ask: Vec<i32> = configs_to_read(&cache, &listed, &caught_up, 10)
            .iter()
            .map(|n| n.id)
            .collect();
        // 1: cached, listed last time, vouched alive: not asked. 2: not vouched alive (behind
        // the quorum, or no recent fetch: it may have crashed since its answer). 3: was not
        // listed unfenced in observation 9 (may have restarted). 4: its endpoint changed.
        // 5: not cached.
        assert_eq!(ask, vec![2, 3, 4, 5]);
        // Old entries are refreshed a share at a time, oldest first.
        let cache: BTreeMap<i32, CachedBroker> = (1..=5)
            .map(|id| (id, cached(u64::try_from(id).unwrap(), 99, addr(id))))
            .collect();
        let all: BTreeSet<i32> = (1..=5).collect();
        let ask: Vec<i32> = configs_to_read(&cache, &listed, &all, 100)
            .iter()
            .map(|n| n.id)
            .collect();
        assert_eq!(ask, vec![1, 2]);
        let cache: BTreeMap<i32, CachedBroker> =
            (1..=5).map(|id| (id, cached(10, 59, addr(id)))).collect();
        assert!(configs_to_read(&cache, &listed, &all, 60).is_empty());
    }
}
