//! Where node holds live (issue 29): a compacted topic kafkaops owns in the cluster itself,
//! [`HOLDS_TOPIC`], one record per held node keyed by its id, a tombstone to remove it. Every
//! kafkaops that can reach the cluster (a laptop, `operate`) reads the same holds, and no
//! machine's state directory is the only copy. The topic is created (one partition,
//! `cleanup.policy=compact`, the brokers' default replication) by the first `hold add`.

use std::collections::BTreeMap;
use std::time::Duration;

use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::DefaultClientContext;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::error::RDKafkaErrorCode;
use rdkafka::message::Message;
use rdkafka::producer::{FutureProducer, FutureRecord};
use rdkafka::{Offset, TopicPartitionList};

use super::client::{KafkaClient, rdkafka_config};
use super::error::{KafkaError, Result};
use crate::engine::holds::Hold;
use crate::engine::model::NodeId;

/// The compacted topic holding the holds.
pub const HOLDS_TOPIC: &str = "__kafkaops_holds";

impl KafkaClient {
    /// Creates [`HOLDS_TOPIC`] unless it exists.
    ///
    /// # Errors
    /// Kafka refused to create it (e.g. not authorized).
    pub async fn ensure_holds_topic(&self) -> Result<()> {
        let admin: AdminClient<DefaultClientContext> = rdkafka_config(self.config())
            .create()
            .map_err(|e| KafkaError::client("creating an admin client for the holds topic", e))?;
        let topic = NewTopic::new(HOLDS_TOPIC, 1, TopicReplication::Fixed(-1))
            .set("cleanup.policy", "compact");
        let opts = AdminOptions::new().operation_timeout(Some(self.config().request_timeout));
        let results = admin
            .create_topics([&topic], &opts)
            .await
            .map_err(|e| KafkaError::client(format!("creating topic {HOLDS_TOPIC}"), e))?;
        for r in results {
            match r {
                Ok(_) | Err((_, RDKafkaErrorCode::TopicAlreadyExists)) => {}
                Err((_, code)) => {
                    return Err(KafkaError::client(
                        format!("creating topic {HOLDS_TOPIC}"),
                        rdkafka::error::KafkaError::AdminOp(code),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Writes the hold of `node` (`None`: a tombstone, the hold is removed), acknowledged by
    /// every in-sync replica.
    ///
    /// # Errors
    /// The record was not acknowledged.
    pub async fn write_hold(&self, node: NodeId, hold: Option<&Hold>) -> Result<()> {
        let producer: FutureProducer = rdkafka_config(self.config())
            .set("acks", "all")
            .set("enable.idempotence", "true")
            .create()
            .map_err(|e| KafkaError::client("creating a producer for the holds topic", e))?;
        let key = node.0.to_string();
        let payload = hold.map(|h| serde_json::to_vec(h).unwrap_or_default());
        let mut record = FutureRecord::to(HOLDS_TOPIC).key(&key);
        if let Some(p) = &payload {
            record = record.payload(p);
        }
        producer
            .send(record, self.config().request_timeout)
            .await
            .map_err(|(e, _)| KafkaError::client(format!("writing the hold of node {node}"), e))?;
        Ok(())
    }

    /// Every hold stored (expired ones included: the caller judges them), read from the start
    /// of [`HOLDS_TOPIC`] to its end; none when the topic does not exist.
    ///
    /// # Errors
    /// The topic could not be read to its end.
    pub async fn read_holds(&self) -> Result<Vec<Hold>> {
        // Whether the topic exists is asked on the wire path first: a librdkafka client learns
        // every broker from its first Metadata answer and starts a thread per broker (issue #27:
        // 1,000 at 1,000 brokers), a cost `operate` would pay every loop for no holds at all.
        if self.config().wire_security("reading the holds").is_ok() {
            let mut conn = self.wire_connection_to_brokers("reading the holds").await?;
            if !super::wire_admin::topic_exists(&mut conn, HOLDS_TOPIC).await? {
                return Ok(Vec::new());
            }
        }
        let cc = rdkafka_config(self.config());
        let timeout = self.config().request_timeout;
        tokio::task::spawn_blocking(move || read_holds_blocking(&cc, timeout))
            .await
            .map_err(|e| KafkaError::Protocol {
                what: "reading the holds".into(),
                address: HOLDS_TOPIC.into(),
                message: e.to_string(),
            })?
    }
}

fn read_holds_blocking(cc: &rdkafka::ClientConfig, timeout: Duration) -> Result<Vec<Hold>> {
    let what = format!("reading topic {HOLDS_TOPIC}");
    // Whether there is anything to read is asked without a consumer group: a consumer with a
    // group looks for its coordinator, which makes Kafka create `__consumer_offsets` on a cluster
    // that has none, a side effect a read of no holds must not have. librdkafka's assign() needs
    // a group, so the group consumer is made only when there are holds to read.
    let probe: BaseConsumer = cc
        .clone()
        .set("enable.auto.commit", "false")
        .create()
        .map_err(|e| KafkaError::client(what.clone(), e))?;
    let metadata = probe
        .fetch_metadata(Some(HOLDS_TOPIC), timeout)
        .map_err(|e| KafkaError::client(what.clone(), e))?;
    let exists = metadata
        .topics()
        .iter()
        .any(|t| t.name() == HOLDS_TOPIC && t.error().is_none() && !t.partitions().is_empty());
    if !exists {
        return Ok(Vec::new());
    }
    let (low, high) = probe
        .fetch_watermarks(HOLDS_TOPIC, 0, timeout)
        .map_err(|e| KafkaError::client(what.clone(), e))?;
    drop(probe);
    let mut by_node: BTreeMap<String, Option<Hold>> = BTreeMap::new();
    if high > low {
        let consumer: BaseConsumer = cc
            .clone()
            .set("group.id", "kafkaops-holds-reader")
            .set("enable.auto.commit", "false")
            .set("enable.partition.eof", "false")
            .create()
            .map_err(|e| KafkaError::client(what.clone(), e))?;
        let mut tpl = TopicPartitionList::new();
        tpl.add_partition_offset(HOLDS_TOPIC, 0, Offset::Beginning)
            .map_err(|e| KafkaError::client(what.clone(), e))?;
        consumer
            .assign(&tpl)
            .map_err(|e| KafkaError::client(what.clone(), e))?;
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) else {
                return Err(KafkaError::Protocol {
                    what: what.clone(),
                    address: HOLDS_TOPIC.into(),
                    message: format!("did not reach offset {high} within {timeout:?}"),
                });
            };
            match consumer.poll(left.min(Duration::from_millis(500))) {
                Some(Ok(m)) => {
                    let key = String::from_utf8_lossy(m.key().unwrap_or_default()).into_owned();
                    // A record that does not parse is left out, not fatal: a hold never
                    // written by kafkaops cannot stop every command.
                    let hold = m.payload().and_then(|p| serde_json::from_slice(p).ok());
                    by_node.insert(key, hold);
                    if m.offset() + 1 >= high {
                        break;
                    }
                }
                Some(Err(e)) => return Err(KafkaError::client(what.clone(), e)),
                None => {}
            }
        }
    }
    Ok(by_node.into_values().flatten().collect())
}
