//! Admin calls the rdkafka-based harness lacks, made through kafkaops' own Kafka client and
//! wrapped synchronously: IncrementalAlterConfigs (replication throttles) and partition
//! reassignments (AlterPartitionReassignments / ListPartitionReassignments over the wire path),
//! and Kafka's raw DescribeQuorum answer.
//!
//! Each [`Admin`] owns a small current-thread tokio runtime, so it works from plain `#[test]`
//! functions and from the control server's threads alike.

#![allow(dead_code)] // Shared by several test binaries and an example; each uses a subset.

use std::time::Duration;

use anyhow::{Result, anyhow};
use kafkaops::engine::view::{ConfigSource, Reassignment};
use kafkaops::kafka::client::{KafkaAdmin, KafkaClient};
use kafkaops::kafka::config::ConnectionConfig;
use kafkaops::kafka::observation::RawQuorum;
use kafkaops::kafka::wire_admin::describe_quorum;
use kafkaops::kafka::{ConfigChange, ConfigTarget};

use super::kafka::KafkaCluster;

/// The replication-throttle keys Kafka's `kafka-reassign-partitions --throttle` sets.
const LEADER_RATE: &str = "leader.replication.throttled.rate";
const FOLLOWER_RATE: &str = "follower.replication.throttled.rate";
const LEADER_REPLICAS: &str = "leader.replication.throttled.replicas";
const FOLLOWER_REPLICAS: &str = "follower.replication.throttled.replicas";

/// A synchronous admin client for one cluster.
pub struct Admin {
    rt: tokio::runtime::Runtime,
    client: KafkaClient,
}

impl Admin {
    /// Connects to the cluster's brokers, with `bootstrap.controllers` for the wire path.
    pub fn connect(cluster: &KafkaCluster) -> Result<Admin> {
        let mut config = ConnectionConfig::new(cluster.bootstrap_servers());
        config.request_timeout = Duration::from_secs(15);
        let config = config.with_property("bootstrap.controllers", cluster.controller_bootstrap());
        Self::connect_with(config)
    }

    /// kafkaops' client with any connection settings (e.g. the SASL_SSL listeners).
    pub fn connect_with(config: ConnectionConfig) -> Result<Admin> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let client = rt
            .block_on(KafkaClient::connect(config))
            .map_err(|e| anyhow!("connect the admin client: {e}"))?;
        Ok(Admin { rt, client })
    }

    /// The names of every topic, internal ones included (one Metadata request on the wire
    /// path, which creates nothing).
    pub fn topic_names(&self) -> Result<Vec<String>> {
        let topics = self
            .rt
            .block_on(self.client.describe_all_topics())
            .map_err(|e| anyhow!("list the topics: {e}"))?;
        Ok(topics.into_iter().map(|t| t.name).collect())
    }

    /// Kafka's DescribeQuorum answer (the leader, each voter's `LastCaughtUpTimestamp`), asked of
    /// a broker, which forwards it to the active controller: the raw answer, no kafkaops rule.
    pub fn describe_quorum(&self) -> Result<RawQuorum> {
        self.rt.block_on(async {
            let mut conn = self
                .client
                .wire_connection_to_brokers("DescribeQuorum")
                .await
                .map_err(|e| anyhow!("connect for DescribeQuorum: {e}"))?;
            describe_quorum(&mut conn)
                .await
                .map(|(quorum, _)| quorum)
                .map_err(|e| anyhow!("DescribeQuorum: {e}"))
        })
    }

    /// IncrementalAlterConfigs: only the named keys change.
    pub fn alter(&self, target: ConfigTarget, changes: Vec<ConfigChange>) -> Result<()> {
        let what = format!("{target:?} {changes:?}");
        self.rt
            .block_on(self.client.incremental_alter_configs(target, changes))
            .map_err(|e| anyhow!("IncrementalAlterConfigs {what}: {e}"))
    }

    /// `topic`'s own (topic-level) value of `key`, `None` when unset.
    pub fn topic_config(&self, topic: &str, key: &str) -> Result<Option<String>> {
        let configs = self
            .rt
            .block_on(self.client.describe_topic_configs(&[topic.to_string()]))
            .map_err(|e| anyhow!("DescribeConfigs topic {topic}: {e}"))?;
        Ok(configs
            .get(topic)
            .into_iter()
            .flatten()
            .find(|e| e.name == key && e.source == ConfigSource::DynamicTopic)
            .and_then(|e| e.value.clone())
            .filter(|v| !v.is_empty()))
    }

    /// Starts moving `topic`-`partition` to `replicas`.
    pub fn reassign(&self, topic: &str, partition: i32, replicas: &[i32]) -> Result<()> {
        self.rt
            .block_on(
                self.client
                    .alter_partition_reassignment(topic, partition, replicas),
            )
            .map_err(|e| anyhow!("reassign {topic}-{partition} to {replicas:?}: {e}"))
    }

    /// Reassignments in flight.
    pub fn reassignments(&self) -> Result<Vec<Reassignment>> {
        self.rt
            .block_on(self.client.list_reassignments())
            .map_err(|e| anyhow!("list reassignments: {e}"))
    }

    /// A replication throttle as `kafka-reassign-partitions --throttle` sets it: `rate`
    /// bytes/s for leaders and followers on `brokers`, and the throttled replicas of
    /// `topic`-`partition` (the leaders that serve the moving replicas, and the followers).
    pub fn set_replication_throttle(
        &self,
        topic: &str,
        partition: i32,
        leaders: &[i32],
        followers: &[i32],
        brokers: &[i32],
        rate: u64,
    ) -> Result<()> {
        let list = |ids: &[i32]| -> String {
            ids.iter()
                .map(|b| format!("{partition}:{b}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        self.alter(
            ConfigTarget::Topic(topic.to_string()),
            vec![
                ConfigChange::set(LEADER_REPLICAS, list(leaders)),
                ConfigChange::set(FOLLOWER_REPLICAS, list(followers)),
            ],
        )?;
        self.set_broker_throttle(brokers, rate)
    }

    /// Every replica of `topic` throttled (`*`), at `rate` bytes/s on `brokers`: the slow
    /// reassignments the tests need, whoever starts them.
    pub fn throttle_whole_topic(&self, topic: &str, brokers: &[i32], rate: u64) -> Result<()> {
        self.alter(
            ConfigTarget::Topic(topic.to_string()),
            vec![
                ConfigChange::set(LEADER_REPLICAS, "*"),
                ConfigChange::set(FOLLOWER_REPLICAS, "*"),
            ],
        )?;
        self.set_broker_throttle(brokers, rate)
    }

    /// The leader and follower replication rate of `brokers`, in bytes/s.
    pub fn set_broker_throttle(&self, brokers: &[i32], rate: u64) -> Result<()> {
        for b in brokers {
            self.alter(
                ConfigTarget::Broker(*b),
                vec![
                    ConfigChange::set(LEADER_RATE, rate.to_string()),
                    ConfigChange::set(FOLLOWER_RATE, rate.to_string()),
                ],
            )?;
        }
        Ok(())
    }

    /// Removes what [`Admin::set_replication_throttle`] set.
    pub fn clear_replication_throttle(&self, topic: &str, brokers: &[i32]) -> Result<()> {
        for b in brokers {
            self.alter(
                ConfigTarget::Broker(*b),
                vec![
                    ConfigChange::delete(LEADER_RATE),
                    ConfigChange::delete(FOLLOWER_RATE),
                ],
            )?;
        }
        self.alter(
            ConfigTarget::Topic(topic.to_string()),
            vec![
                ConfigChange::delete(LEADER_REPLICAS),
                ConfigChange::delete(FOLLOWER_REPLICAS),
            ],
        )
    }
}
