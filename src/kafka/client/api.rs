//! The two traits the rest of the crate reads Kafka through: [`KafkaAdmin`] (requests and the
//! two changes a roller makes) and [`ClusterObserver`] (one whole observation). Scripted
//! doubles implement them in tests; [`KafkaClient`](super::KafkaClient) implements both.

use std::collections::BTreeMap;
use std::future::Future;

use crate::engine::view::ConfigEntry;
use crate::kafka::error::Result;
use crate::kafka::ffi::{
    ClusterDescription, ConfigChange, ConfigTarget, ElectionOutcome, TopicDescription,
};
use crate::kafka::observation::KafkaObservation;

/// Reads and changes through the Admin API.
pub trait KafkaAdmin: Send + Sync {
    /// Registered, unfenced brokers and the cluster id.
    fn describe_cluster(&self) -> impl Future<Output = Result<ClusterDescription>> + Send;
    /// Every topic name, internal ones included.
    fn list_topics(&self) -> impl Future<Output = Result<Vec<String>>> + Send;
    fn describe_topics(
        &self,
        names: Vec<String>,
    ) -> impl Future<Output = Result<Vec<TopicDescription>>> + Send;
    /// All configs of broker `id`, with read-only flags (asked of that broker).
    fn describe_broker_configs(
        &self,
        id: i32,
    ) -> impl Future<Output = Result<Vec<ConfigEntry>>> + Send;
    /// Effective `min.insync.replicas` per topic (topics without the key are left out).
    fn min_insync_replicas(
        &self,
        topics: Vec<String>,
    ) -> impl Future<Output = Result<BTreeMap<String, i32>>> + Send;
    /// IncrementalAlterConfigs: only the named keys change; every other dynamic config stays.
    fn incremental_alter_configs(
        &self,
        target: ConfigTarget,
        changes: Vec<ConfigChange>,
    ) -> impl Future<Output = Result<()>> + Send;
    /// Preferred leader election for `partitions`, or all partitions for `None`.
    /// ELECTION_NOT_NEEDED counts as success.
    fn elect_preferred_leaders(
        &self,
        partitions: Option<Vec<(String, i32)>>,
    ) -> impl Future<Output = Result<Vec<ElectionOutcome>>> + Send;
}

/// Reads a whole cluster at once.
pub trait ClusterObserver: Send + Sync {
    fn observe(&self) -> impl Future<Output = Result<KafkaObservation>> + Send;
}
