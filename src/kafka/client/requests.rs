//! The Admin API requests outside the observation: [`KafkaAdmin`] (cluster, topics, configs,
//! config changes, leader elections) through librdkafka or the wire path, topic configs,
//! every topic's partition metadata, and partition reassignments.

use std::collections::BTreeMap;

use rdkafka::admin::ResourceSpecifier;

use super::{KafkaAdmin, KafkaClient, millis};
use crate::engine::view::{ConfigEntry, ConfigSource, Reassignment};
use crate::kafka::error::{KafkaError, Result};
use crate::kafka::ffi::{
    self, ClusterDescription, ConfigChange, ConfigTarget, ElectionOutcome, NodeAddress,
    TopicDescription,
};
use crate::kafka::wire_admin;

impl KafkaClient {
    /// Starts a partition reassignment over the wire path (tests use it; the roller does not).
    pub async fn alter_partition_reassignment(
        &self,
        topic: &str,
        partition: i32,
        replicas: &[i32],
    ) -> Result<()> {
        let mut conn = self.quorum_connection().await?.conn;
        wire_admin::alter_partition_reassignment(
            &mut conn,
            topic,
            partition,
            replicas,
            millis(self.timeout()),
        )
        .await
    }

    /// Cancels the ongoing reassignments of `partitions` (see
    /// [`wire_admin::cancel_reassignments`]).
    pub async fn cancel_reassignments(
        &self,
        partitions: &[(String, i32)],
    ) -> Result<Vec<((String, i32), Option<String>)>> {
        let mut conn = self.quorum_connection().await?.conn;
        wire_admin::cancel_reassignments(&mut conn, partitions, millis(self.timeout())).await
    }

    /// Ongoing partition reassignments.
    pub async fn list_reassignments(&self) -> Result<Vec<Reassignment>> {
        let mut conn = self.quorum_connection().await?.conn;
        wire_admin::list_reassignments(&mut conn, millis(self.timeout())).await
    }

    /// Every config of each of `topics` (DescribeConfigs TOPIC, 200 topics per request), by
    /// topic (`throttles list`, `health`: the throttled-replica lists).
    ///
    /// # Errors
    /// A request or one topic's answer fails.
    pub async fn describe_topic_configs(
        &self,
        topics: &[String],
    ) -> Result<BTreeMap<String, Vec<ConfigEntry>>> {
        self.topic_configs(topics, None).await
    }

    /// The configs named `keys` (all for `None`) of each of `topics`, by topic: over the wire
    /// path (a bootstrap broker answers), or librdkafka's DescribeConfigs with settings only
    /// librdkafka honours (e.g. GSSAPI), which returns every config.
    ///
    /// # Errors
    /// A request or one topic's answer fails.
    pub async fn topic_configs(
        &self,
        topics: &[String],
        keys: Option<&[&str]>,
    ) -> Result<BTreeMap<String, Vec<ConfigEntry>>> {
        if topics.is_empty() {
            return Ok(BTreeMap::new());
        }
        if let Err(e) = self.config.wire_security("reading topic configs") {
            tracing::debug!("reading topic configs with librdkafka: {e}");
            return self.topic_configs_librdkafka(topics).await;
        }
        let mut conn = self
            .wire_connection_to_brokers("reading topic configs")
            .await?;
        wire_admin::describe_topic_configs(&mut conn, topics, keys).await
    }

    async fn topic_configs_librdkafka(
        &self,
        topics: &[String],
    ) -> Result<BTreeMap<String, Vec<ConfigEntry>>> {
        let admin = self.admin.get()?;
        let mut out = BTreeMap::new();
        for chunk in topics.chunks(200) {
            let what = format!("DescribeConfigs of {} topic(s)", chunk.len());
            let specs: Vec<ResourceSpecifier<'_>> =
                chunk.iter().map(|t| ResourceSpecifier::Topic(t)).collect();
            let results = admin
                .describe_configs(specs.iter(), &self.options())
                .await
                .map_err(|e| KafkaError::client(what.clone(), e))?;
            for (topic, result) in chunk.iter().zip(results) {
                match result {
                    Ok(r) => {
                        out.insert(topic.clone(), r.entries.iter().map(convert_entry).collect());
                    }
                    Err(code) => {
                        return Err(describe_error(
                            format!("DescribeConfigs of topic {topic}"),
                            None,
                            code,
                        ));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Every topic name, and the id of the broker that just answered (librdkafka asks a
    /// broker it is connected to, so that one is alive; -1 when librdkafka does not say).
    async fn metadata(&self) -> Result<(i32, Vec<String>)> {
        self.blocking("Metadata", |admin, timeout| {
            let md = admin
                .inner()
                .fetch_metadata(None, timeout)
                .map_err(|e| KafkaError::client("listing topics (Metadata)", e))?;
            let mut names: Vec<String> = md.topics().iter().map(|t| t.name().to_string()).collect();
            names.sort();
            Ok((md.orig_broker_id(), names))
        })
        .await
    }

    async fn describe_topics_via(
        &self,
        broker: i32,
        names: Vec<String>,
    ) -> Result<Vec<TopicDescription>> {
        self.blocking("DescribeTopics", move |admin, timeout| {
            ffi::describe_topics(admin, &names, (broker >= 0).then_some(broker), timeout)
        })
        .await
    }

    /// Effective `min.insync.replicas` per topic, asked of `broker`.
    async fn min_insync_replicas_via(
        &self,
        broker: i32,
        topics: Vec<String>,
    ) -> Result<BTreeMap<String, i32>> {
        let mut out = BTreeMap::new();
        // Topic configs can come from any broker; by default librdkafka asks "the
        // controller", which may be a broker that has just died.
        let options = self.options().broker_id((broker >= 0).then_some(broker));
        let admin = self.admin.get()?;
        // Batches keep requests small on clusters with many topics.
        for chunk in topics.chunks(200) {
            let specs: Vec<ResourceSpecifier<'_>> =
                chunk.iter().map(|t| ResourceSpecifier::Topic(t)).collect();
            let results = admin
                .describe_configs(specs.iter(), &options)
                .await
                .map_err(|e| KafkaError::client("DescribeConfigs of topics", e))?;
            for (topic, result) in chunk.iter().zip(results) {
                let resource = result.map_err(|code| {
                    describe_error(format!("DescribeConfigs of topic {topic:?}"), None, code)
                })?;
                if let Some(v) = resource
                    .get("min.insync.replicas")
                    .and_then(|e| e.value.as_deref())
                    .and_then(|v| v.parse().ok())
                {
                    out.insert(topic.clone(), v);
                }
            }
        }
        Ok(out)
    }

    /// Every topic's partition metadata as one bootstrap broker sees it: one Metadata answer
    /// over the wire path, or (settings only librdkafka honours, e.g. GSSAPI) librdkafka's
    /// listing and DescribeTopics. For views that need no caught-up broker, such as
    /// `operate`'s replica counts; the roll's safety checks read the partitions through
    /// [`ClusterObserver::observe`](super::ClusterObserver::observe) instead. Nothing is kept between calls (librdkafka's
    /// metadata cache would hold every partition of the cluster).
    ///
    /// # Errors
    /// No bootstrap broker answers, or a topic is reported with an error.
    pub async fn describe_all_topics(&self) -> Result<Vec<TopicDescription>> {
        if let Err(e) = self.config.wire_security("reading partition metadata") {
            tracing::debug!("reading partition metadata with librdkafka: {e}");
            let names = self.list_topics().await?;
            if names.is_empty() {
                return Ok(Vec::new());
            }
            return self.describe_topics(names).await;
        }
        let mut conn = self
            .wire_connection_to_brokers("reading partition metadata")
            .await?;
        wire_admin::describe_all_topics(&mut conn).await
    }

    /// The registered brokers over the wire path (see [`wire_admin::describe_brokers`]): the
    /// unfenced ones and, from Kafka 4.0, the fenced ones from the same answer.
    pub(super) async fn broker_listing(
        &self,
    ) -> Result<(ClusterDescription, Option<Vec<NodeAddress>>)> {
        let mut conn = self
            .wire_connection_to_brokers("listing the brokers (DescribeCluster)")
            .await?;
        wire_admin::describe_brokers(&mut conn).await
    }
}

impl KafkaAdmin for KafkaClient {
    async fn describe_cluster(&self) -> Result<ClusterDescription> {
        if let Err(e) = self.config.wire_security("listing the brokers") {
            // Settings only librdkafka honours (e.g. GSSAPI): its DescribeCluster, which
            // works up to 32 racked brokers on short host names.
            tracing::debug!("listing the brokers with librdkafka: {e}");
            let (broker, _) = self.metadata().await?;
            return self
                .blocking("DescribeCluster", move |admin, timeout| {
                    ffi::describe_cluster(admin, (broker >= 0).then_some(broker), timeout)
                })
                .await;
        }
        Ok(self.broker_listing().await?.0)
    }

    async fn list_topics(&self) -> Result<Vec<String>> {
        Ok(self.metadata().await?.1)
    }

    async fn describe_topics(&self, names: Vec<String>) -> Result<Vec<TopicDescription>> {
        let (broker, _) = self.metadata().await?;
        self.describe_topics_via(broker, names).await
    }

    async fn describe_broker_configs(&self, id: i32) -> Result<Vec<ConfigEntry>> {
        let what = format!("DescribeConfigs of broker {id}");
        let results = self
            .admin
            .get()?
            .describe_configs([&ResourceSpecifier::Broker(id)], &self.options())
            .await
            .map_err(|e| KafkaError::client(what.clone(), e))?;
        match results.into_iter().next() {
            Some(Ok(resource)) => Ok(resource.entries.iter().map(convert_entry).collect()),
            Some(Err(code)) => Err(describe_error(what, Some(id), code)),
            None => Ok(Vec::new()),
        }
    }

    async fn min_insync_replicas(&self, topics: Vec<String>) -> Result<BTreeMap<String, i32>> {
        let (broker, _) = self.metadata().await?;
        self.min_insync_replicas_via(broker, topics).await
    }

    async fn incremental_alter_configs(
        &self,
        target: ConfigTarget,
        changes: Vec<ConfigChange>,
    ) -> Result<()> {
        // What the observations keep of the brokers' configs is out of date now (also when the
        // change fails half-way): the next observation reads them again.
        match &target {
            ConfigTarget::Broker(id) => self.forget_broker(*id),
            ConfigTarget::ClusterDefault => self.forget_all_brokers(),
            ConfigTarget::Topic(_) => {}
        }
        if target == ConfigTarget::ClusterDefault {
            // librdkafka cannot address a resource with an empty name: the wire path can.
            let mut conn = self
                .wire_connection_to_brokers("altering the cluster-wide broker default")
                .await?;
            return wire_admin::alter_cluster_default(&mut conn, &changes).await;
        }
        self.blocking("IncrementalAlterConfigs", move |admin, timeout| {
            ffi::incremental_alter_configs(admin, &target, &changes, timeout)
        })
        .await
    }

    async fn elect_preferred_leaders(
        &self,
        partitions: Option<Vec<(String, i32)>>,
    ) -> Result<Vec<ElectionOutcome>> {
        let (broker, _) = self.metadata().await?;
        self.blocking("ElectLeaders", move |admin, timeout| {
            ffi::elect_preferred_leaders(
                admin,
                partitions.as_deref(),
                (broker >= 0).then_some(broker),
                timeout,
            )
        })
        .await
    }
}

fn convert_entry(e: &rdkafka::admin::ConfigEntry) -> ConfigEntry {
    use rdkafka::admin::ConfigSource as S;
    ConfigEntry {
        name: e.name.clone(),
        value: if e.is_sensitive {
            None
        } else {
            e.value.clone()
        },
        read_only: e.is_read_only,
        source: match e.source {
            S::DynamicTopic => ConfigSource::DynamicTopic,
            S::DynamicBroker => ConfigSource::DynamicBroker,
            S::DynamicDefaultBroker => ConfigSource::DynamicDefaultBroker,
            S::StaticBroker => ConfigSource::StaticBroker,
            S::Default => ConfigSource::Default,
            _ => ConfigSource::Unknown,
        },
        sensitive: e.is_sensitive,
    }
}

fn describe_error(
    what: String,
    node: Option<i32>,
    code: rdkafka::types::RDKafkaErrorCode,
) -> KafkaError {
    let num = code as i32;
    KafkaError::Api {
        what,
        node,
        code: i16::try_from(num).unwrap_or(-1),
        name: format!("{code:?}"),
        message: Some(code.to_string()),
    }
}
