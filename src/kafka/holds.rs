//! Where node holds live (issue 29): a compacted topic kafkaops owns in the cluster itself,
//! [`HOLDS_TOPIC`], one record per held node keyed by its id, a tombstone to remove it. Every
//! kafkaops that can reach the cluster (a laptop, `operate`) reads the same holds, and no
//! machine's state directory is the only copy. The topic is created (one partition,
//! `cleanup.policy=compact`, uncompressed, the brokers' default replication) by the first
//! `hold add`, and read over the wire path, without a librdkafka consumer.

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
use super::wire_admin::{self, EARLIEST, LATEST};
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
        // Stored uncompressed whatever the brokers' default (a few small records: nothing to
        // gain); a topic someone set to compress is read too ([`super::wire_admin::read_partition`]).
        let topic = NewTopic::new(HOLDS_TOPIC, 1, TopicReplication::Fixed(-1))
            .set("cleanup.policy", "compact")
            .set("compression.type", "uncompressed");
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
            .set("compression.type", "none")
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
    /// Read over the wire path (Metadata, ListOffsets and Fetch to the partition's leader,
    /// [`super::wire_admin::read_partition`]): a librdkafka consumer learns every broker from
    /// its first Metadata answer and starts a thread per broker (issue #27: 1,000 at 1,000
    /// brokers), a cost the roll and `operate` would pay on every read. Settings only
    /// librdkafka honours (e.g. GSSAPI) read with its consumer instead.
    ///
    /// # Errors
    /// The topic could not be read to its end.
    pub async fn read_holds(&self) -> Result<Vec<Hold>> {
        if let Err(e) = self.config().wire_security("reading the holds") {
            tracing::debug!("reading the holds with librdkafka: {e}");
            let cc = rdkafka_config(self.config());
            let timeout = self.config().request_timeout;
            return tokio::task::spawn_blocking(move || read_holds_blocking(&cc, timeout))
                .await
                .map_err(|e| KafkaError::Protocol {
                    what: "reading the holds".into(),
                    address: HOLDS_TOPIC.into(),
                    message: e.to_string(),
                })?;
        }
        // The leader moves when its broker restarts (a roll reads the holds meanwhile): an
        // answer of a former leader or a leader that went away is asked again, with fresh
        // metadata, a few times.
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.read_holds_wire().await {
                Err(e) if attempt < LEADER_ATTEMPTS && leader_moved(&e) => {
                    tracing::debug!("reading the holds again (attempt {attempt}): {e}");
                    tokio::time::sleep(LEADER_BACKOFF * attempt).await;
                }
                other => return other,
            }
        }
    }

    /// One read of the holds over the wire path (see [`Self::read_holds`]).
    async fn read_holds_wire(&self) -> Result<Vec<Hold>> {
        let what = "reading the holds";
        let mut conn = self.wire_connection_to_brokers(what).await?;
        let Some(at) = wire_admin::partition_leader(&mut conn, HOLDS_TOPIC, 0).await? else {
            return Ok(Vec::new());
        };
        let Some((_, leader)) = at.leader else {
            return Err(KafkaError::Api {
                what: format!("finding the leader of {HOLDS_TOPIC}-0"),
                node: None,
                code: LEADER_NOT_AVAILABLE,
                name: super::error::error_name(LEADER_NOT_AVAILABLE),
                message: None,
            });
        };
        if conn.address() != leader {
            conn = self.wire_connection_to(&leader, what).await?;
        }
        let start = wire_admin::list_offset(&mut conn, HOLDS_TOPIC, 0, EARLIEST).await?;
        let end = wire_admin::list_offset(&mut conn, HOLDS_TOPIC, 0, LATEST).await?;
        let records =
            wire_admin::read_partition(&mut conn, HOLDS_TOPIC, at.topic_id, 0, (start, end))
                .await?;
        let mut log = HoldLog::default();
        for r in &records {
            log.apply(r.key.as_deref(), r.value.as_deref());
        }
        Ok(log.into_holds())
    }
}

/// How many times [`KafkaClient::read_holds`] reads when the leader moved, and the pause
/// before the next attempt (times the attempt).
const LEADER_ATTEMPTS: u32 = 4;
const LEADER_BACKOFF: Duration = Duration::from_millis(250);
/// Kafka's LEADER_NOT_AVAILABLE.
const LEADER_NOT_AVAILABLE: i16 = 5;

/// Whether `e` says the partition's leader moved or is away for now: NOT_LEADER_OR_FOLLOWER,
/// LEADER_NOT_AVAILABLE, a fenced or unknown leader epoch, OFFSET_OUT_OF_RANGE (the log start
/// moved between ListOffsets and Fetch), or the leader's address not answering.
fn leader_moved(e: &KafkaError) -> bool {
    match e {
        KafkaError::Api { code, .. } => matches!(code, 1 | 5 | 6 | 74 | 75),
        KafkaError::Unreachable { .. } | KafkaError::Timeout { .. } => true,
        _ => false,
    }
}

/// The holds of a compacted log read in order: the latest record of a key wins, a tombstone
/// (no value) removes it, and a value that does not parse is left out, not fatal (a hold never
/// written by kafkaops cannot stop every command).
#[derive(Debug, Default)]
struct HoldLog(BTreeMap<String, Option<Hold>>);

impl HoldLog {
    fn apply(&mut self, key: Option<&[u8]>, value: Option<&[u8]>) {
        let key = String::from_utf8_lossy(key.unwrap_or_default()).into_owned();
        let hold = value.and_then(|p| serde_json::from_slice(p).ok());
        self.0.insert(key, hold);
    }

    fn into_holds(self) -> Vec<Hold> {
        self.0.into_values().flatten().collect()
    }
}

/// [`KafkaClient::read_holds`] with a librdkafka consumer, for settings the wire path cannot
/// honour.
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
    let mut log = HoldLog::default();
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
                    log.apply(m.key(), m.payload());
                    if m.offset() + 1 >= high {
                        break;
                    }
                }
                Some(Err(e)) => return Err(KafkaError::client(what.clone(), e)),
                None => {}
            }
        }
    }
    Ok(log.into_holds())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hold(node: i32, reason: &str) -> Hold {
        Hold {
            node: NodeId(node),
            reason: reason.into(),
            created_ms: 1,
            expires_ms: 2,
        }
    }

    fn json(h: &Hold) -> Vec<u8> {
        serde_json::to_vec(h).unwrap()
    }

    #[test]
    fn the_latest_record_of_a_node_wins_a_tombstone_removes_and_garbage_is_left_out() {
        let mut log = HoldLog::default();
        log.apply(Some(b"1"), Some(&json(&hold(1, "old"))));
        log.apply(Some(b"2"), Some(&json(&hold(2, "disk"))));
        log.apply(Some(b"3"), Some(&json(&hold(3, "gone soon"))));
        log.apply(Some(b"1"), Some(&json(&hold(1, "new"))));
        log.apply(Some(b"3"), None);
        log.apply(Some(b"4"), Some(b"not json"));
        assert_eq!(log.into_holds(), vec![hold(1, "new"), hold(2, "disk")]);
        // A later record that does not parse removes what was there, as the consumer did.
        let mut log = HoldLog::default();
        log.apply(Some(b"5"), Some(&json(&hold(5, "x"))));
        log.apply(Some(b"5"), Some(b"{"));
        assert!(log.into_holds().is_empty());
    }

    #[test]
    fn a_moved_or_absent_leader_is_asked_again_other_errors_are_not() {
        let api = |code| KafkaError::Api {
            what: "Fetch".into(),
            node: None,
            code,
            name: crate::kafka::error::error_name(code),
            message: None,
        };
        for code in [1, 5, 6, 74, 75] {
            assert!(leader_moved(&api(code)), "{code}");
        }
        for code in [3, 29, 87] {
            assert!(!leader_moved(&api(code)), "{code}");
        }
        assert!(leader_moved(&KafkaError::Unreachable {
            what: "Fetch".into(),
            address: "b:9092".into(),
            message: "refused".into(),
        }));
    }
}
