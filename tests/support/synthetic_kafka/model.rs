//! The cluster the synthetic Kafka serves: nodes, topics, a seeded placement and the two
//! metadata views (current, and the stale one lagging brokers answer from).
//!
//! Everything is generated once from a [`Spec`] and never changes while serving, so responses
//! built from it can be cached and the tests can compare what a client saw with this model.

use std::collections::{BTreeSet, HashMap};

/// How replicas are placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Each partition gets `replication_factor` distinct brokers picked at random.
    Random,
    /// Each partition gets one broker from each of `replication_factor` distinct racks
    /// (racks picked at random, then a random broker in each).
    RackAware,
}

impl std::str::FromStr for Placement {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(Placement::Random),
            "rack-aware" => Ok(Placement::RackAware),
            other => Err(format!("unknown placement {other:?} (random, rack-aware)")),
        }
    }
}

/// What to serve. Broker ids are `1..=brokers`, controller ids follow (`brokers+1..`).
#[derive(Debug, Clone)]
pub struct Spec {
    pub brokers: usize,
    /// Controller-only nodes (the KRaft quorum's voters); at least one. The first is the
    /// quorum leader.
    pub controllers: usize,
    /// Partitions in all, spread over topics of `partitions_per_topic` (the last one may be
    /// smaller).
    pub partitions: usize,
    pub partitions_per_topic: usize,
    pub replication_factor: usize,
    /// Racks `a`, `b`, ... assigned round-robin by broker id; 0 = no `broker.rack`.
    pub racks: usize,
    pub placement: Placement,
    pub seed: u64,
    /// Topic-level `min.insync.replicas` override on every topic (`None`: no override).
    pub min_insync_replicas: Option<i32>,
    /// The first this many topics have no override whatever `min_insync_replicas` says (their
    /// partitions fall back to the brokers' own `min.insync.replicas`).
    pub topics_without_min_isr: usize,
    /// Brokers whose metadata lags: they answer Metadata and DescribeTopicPartitions from the
    /// stale view and are behind in DescribeQuorum.
    pub lagging: BTreeSet<i32>,
    /// Partitions (picked with the seed) whose current ISR lacks their last replica; the
    /// stale view still lists it in sync.
    pub out_of_sync: usize,
    /// How many records a lagging broker's metadata log is behind the high watermark.
    pub quorum_lag: i64,
    /// The address every listener binds and advertises; `None` (the default): each node its own
    /// loopback address, `127.100.100.100`, `127.100.100.101`, ... (see [`node_host`]).
    pub host: Option<String>,
}

impl Spec {
    /// `brokers` brokers, 3 controllers, `partitions` partitions in topics of 100, RF 3,
    /// 3 racks, rack-aware, seed 42, `min.insync.replicas` 2 on every topic.
    #[must_use]
    pub fn new(brokers: usize, partitions: usize) -> Self {
        Self {
            brokers,
            controllers: 3,
            partitions,
            partitions_per_topic: 100,
            replication_factor: 3,
            racks: 3,
            placement: Placement::RackAware,
            seed: 42,
            min_insync_replicas: Some(2),
            topics_without_min_isr: 0,
            lagging: BTreeSet::new(),
            out_of_sync: 0,
            quorum_lag: 5_000,
            host: None,
        }
    }

    /// Why this spec cannot be served, if it cannot.
    pub fn check(&self) -> Result<(), String> {
        if self.brokers == 0 || self.controllers == 0 {
            return Err("at least one broker and one controller".into());
        }
        if self.brokers + self.controllers > 60_000 {
            return Err("too many nodes (one loopback address or port each)".into());
        }
        if self.partitions_per_topic == 0 {
            return Err("partitions per topic must be at least 1".into());
        }
        if self.replication_factor == 0 || self.replication_factor > self.brokers {
            return Err(format!(
                "replication factor {} needs as many brokers (have {})",
                self.replication_factor, self.brokers
            ));
        }
        if self.placement == Placement::RackAware {
            if self.racks < self.replication_factor {
                return Err(format!(
                    "rack-aware placement at RF {} needs at least as many racks (have {})",
                    self.replication_factor, self.racks
                ));
            }
            if self.brokers < self.racks {
                return Err("fewer brokers than racks".into());
            }
        }
        if self.replication_factor < 2 && self.out_of_sync > 0 {
            return Err("out-of-sync partitions need a replication factor of at least 2".into());
        }
        if self.out_of_sync > self.partitions {
            return Err("more out-of-sync partitions than partitions".into());
        }
        if let Some(id) = self
            .lagging
            .iter()
            .find(|id| **id < 1 || **id as usize > self.brokers)
        {
            return Err(format!("lagging broker {id} is not a broker id"));
        }
        Ok(())
    }
}

/// A node's listener.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub id: i32,
    pub host: String,
    pub port: u16,
    pub rack: Option<String>,
    pub controller: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    pub index: i32,
    /// Preference order: `replicas[0]` is the preferred leader and the leader.
    pub replicas: Vec<i32>,
    pub leader: i32,
    pub leader_epoch: i32,
    /// The ISR as the controller and every caught-up broker report it.
    pub isr: Vec<i32>,
    /// The ISR a lagging broker reports (the state before the ISR shrank).
    pub stale_isr: Vec<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    pub name: String,
    pub id: uuid::Uuid,
    pub partitions: Vec<Partition>,
    pub min_insync_replicas: Option<i32>,
}

/// Which metadata a broker answers from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum View {
    Current,
    Stale,
}

/// The whole cluster.
#[derive(Debug, Clone)]
pub struct Cluster {
    pub cluster_id: String,
    pub brokers: Vec<Node>,
    pub controllers: Vec<Node>,
    /// Sorted by name.
    pub topics: Vec<Topic>,
    pub lagging: BTreeSet<i32>,
    pub quorum_lag: i64,
    /// The quorum leader (the first controller).
    pub quorum_leader: i32,
    pub quorum_epoch: i32,
    pub high_watermark: i64,
    by_name: HashMap<String, usize>,
    by_id: HashMap<uuid::Uuid, usize>,
}

/// splitmix64: small, seeded, good enough for placements.
pub struct Rng(u64);

impl Rng {
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0; the modulo bias is irrelevant at these sizes).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next_u64() % n as u64).unwrap_or(0)
    }

    /// `k` distinct values of `0..n`, in random order.
    pub fn pick(&mut self, n: usize, k: usize) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::with_capacity(k);
        while out.len() < k {
            let v = self.below(n);
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }
}

/// The address node number `index` (brokers first, then controllers, from 0) listens on and
/// advertises when it has its own: `127.1xx.1xx.1xx`, always 15 characters.
///
/// Why not `127.0.0.1` for all: librdkafka (2.12.1) sizes the scratch buffer it parses a
/// Metadata response into at 4 times the response, which is too small for a brokers-only
/// answer (its DescribeCluster) listing more than 32 brokers whose advertised host has 9
/// characters or fewer and a `broker.rack`: the call then fails with "Bad message format"
/// (and at exactly 33 brokers kafkaops crashed). Real clusters advertising short IPs in racks
/// would hit the same; `--host 127.0.0.1` reproduces it.
#[must_use]
pub fn node_host(index: usize) -> String {
    format!(
        "127.{}.{}.{}",
        100 + index / 10_000,
        100 + (index / 100) % 100,
        100 + index % 100
    )
}

/// Rack name of rack number `i`: `a`..`z`, then `r26`, `r27`, ...
#[must_use]
pub fn rack_name(i: usize) -> String {
    if i < 26 {
        char::from(b'a' + u8::try_from(i).unwrap_or(0)).to_string()
    } else {
        format!("r{i}")
    }
}

fn id(i: usize) -> i32 {
    i32::try_from(i).expect("node id fits in i32")
}

impl Cluster {
    /// Generates the cluster; `broker_addresses` and `controller_addresses` are the bound
    /// listeners (host, port; one per node, in id order).
    ///
    /// # Panics
    /// When the spec does not pass [`Spec::check`] or the port lists do not match it.
    #[must_use]
    pub fn generate(
        spec: &Spec,
        broker_addresses: &[(String, u16)],
        controller_addresses: &[(String, u16)],
    ) -> Self {
        spec.check().expect("a valid spec");
        assert_eq!(broker_addresses.len(), spec.brokers);
        assert_eq!(controller_addresses.len(), spec.controllers);
        let mut rng = Rng::new(spec.seed);
        let brokers: Vec<Node> = (0..spec.brokers)
            .map(|i| Node {
                id: id(i + 1),
                host: broker_addresses[i].0.clone(),
                port: broker_addresses[i].1,
                rack: (spec.racks > 0).then(|| rack_name(i % spec.racks)),
                controller: false,
            })
            .collect();
        let controllers: Vec<Node> = (0..spec.controllers)
            .map(|i| Node {
                id: id(spec.brokers + i + 1),
                host: controller_addresses[i].0.clone(),
                port: controller_addresses[i].1,
                rack: None,
                controller: true,
            })
            .collect();
        // Broker indexes per rack, for the rack-aware placement.
        let by_rack: Vec<Vec<usize>> = (0..spec.racks.max(1))
            .map(|r| {
                (0..spec.brokers)
                    .filter(|i| spec.racks == 0 || i % spec.racks == r)
                    .collect()
            })
            .collect();
        let rf = spec.replication_factor;
        let topic_count = spec.partitions.div_ceil(spec.partitions_per_topic);
        let width = topic_count.max(1).to_string().len().max(4);
        let mut topics = Vec::with_capacity(topic_count);
        let mut left = spec.partitions;
        for t in 0..topic_count {
            let n = left.min(spec.partitions_per_topic);
            left -= n;
            let partitions = (0..n)
                .map(|p| {
                    let replicas: Vec<i32> = match spec.placement {
                        Placement::Random => rng
                            .pick(spec.brokers, rf)
                            .into_iter()
                            .map(|i| id(i + 1))
                            .collect(),
                        Placement::RackAware => rng
                            .pick(spec.racks, rf)
                            .into_iter()
                            .map(|r| {
                                let rack = &by_rack[r];
                                id(rack[rng.below(rack.len())] + 1)
                            })
                            .collect(),
                    };
                    Partition {
                        index: id(p),
                        leader: replicas[0],
                        leader_epoch: 3,
                        isr: replicas.clone(),
                        stale_isr: replicas.clone(),
                        replicas,
                    }
                })
                .collect();
            let hi = rng.next_u64();
            let lo = rng.next_u64();
            topics.push(Topic {
                name: format!("topic-{t:0width$}"),
                id: uuid::Uuid::from_u64_pair(hi, lo),
                partitions,
                min_insync_replicas: if t < spec.topics_without_min_isr {
                    None
                } else {
                    spec.min_insync_replicas
                },
            });
        }
        // Out-of-sync partitions: the last replica (never the leader) left the ISR; the
        // leader epoch moved on; lagging brokers have not seen it yet.
        let mut all: Vec<(usize, usize)> = topics
            .iter()
            .enumerate()
            .flat_map(|(t, topic)| (0..topic.partitions.len()).map(move |p| (t, p)))
            .collect();
        for k in 0..spec.out_of_sync {
            let j = k + rng.below(all.len() - k);
            all.swap(k, j);
            let (t, p) = all[k];
            let part = &mut topics[t].partitions[p];
            part.isr.pop();
            part.leader_epoch += 1;
        }
        let by_name = topics
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect();
        let by_id = topics.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
        let quorum_leader = controllers[0].id;
        Cluster {
            cluster_id: cluster_id(spec.seed),
            brokers,
            controllers,
            topics,
            lagging: spec.lagging.clone(),
            quorum_lag: spec.quorum_lag,
            quorum_leader,
            quorum_epoch: 7,
            high_watermark: 1_000_000,
            by_name,
            by_id,
        }
    }

    #[must_use]
    pub fn topic(&self, name: &str) -> Option<&Topic> {
        self.by_name.get(name).map(|i| &self.topics[*i])
    }

    #[must_use]
    pub fn topic_by_id(&self, id: &uuid::Uuid) -> Option<&Topic> {
        self.by_id.get(id).map(|i| &self.topics[*i])
    }

    #[must_use]
    pub fn node(&self, id: i32) -> Option<&Node> {
        self.brokers
            .iter()
            .chain(&self.controllers)
            .find(|n| n.id == id)
    }

    /// The view broker `id` answers from.
    #[must_use]
    pub fn view_of(&self, id: i32) -> View {
        if self.lagging.contains(&id) {
            View::Stale
        } else {
            View::Current
        }
    }

    #[must_use]
    pub fn partition_count(&self) -> usize {
        self.topics.iter().map(|t| t.partitions.len()).sum()
    }

    /// `host:port,...` of every broker.
    #[must_use]
    pub fn bootstrap_servers(&self) -> String {
        join_addresses(&self.brokers)
    }

    /// `host:port,...` of every controller.
    #[must_use]
    pub fn bootstrap_controllers(&self) -> String {
        join_addresses(&self.controllers)
    }
}

fn join_addresses(nodes: &[Node]) -> String {
    nodes
        .iter()
        .map(|n| format!("{}:{}", n.host, n.port))
        .collect::<Vec<_>>()
        .join(",")
}

/// A Kafka-style cluster id (22 characters of URL-safe base64) derived from the seed.
fn cluster_id(seed: u64) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut rng = Rng::new(seed ^ 0x5EED_C1A5_7E12_0000);
    (0..22)
        .map(|_| char::from(ALPHABET[rng.below(ALPHABET.len())]))
        .collect()
}
