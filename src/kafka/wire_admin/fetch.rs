//! Reading one partition from its start to its end over the wire path (Metadata for its
//! leader, ListOffsets for its bounds, Fetch for its records), without a librdkafka consumer:
//! librdkafka starts a thread per broker it learns of (issue #27: 1,000 at 1,000 brokers) and
//! its `assign()` needs a consumer group. The holds topic ([`crate::kafka::holds`]) is read
//! this way on every roll step and `operate` loop. Records are v2 batches, uncompressed or
//! compressed with any of Kafka's codecs (gzip, snappy, lz4, zstd: a topic's `compression.type`
//! makes the broker store them so, whatever the producer sent); a batch that does not decode is
//! an error naming its codec, never read as nothing.

use bytes::Bytes;
use kafka_protocol::messages::fetch_request::{FetchPartition, FetchTopic};
use kafka_protocol::messages::list_offsets_request::{ListOffsetsPartition, ListOffsetsTopic};
use kafka_protocol::messages::metadata_request::MetadataRequestTopic;
use kafka_protocol::messages::{
    FetchRequest, FetchResponse, ListOffsetsRequest, MetadataRequest, MetadataResponse, TopicName,
};
use kafka_protocol::protocol::StrBytes;
use kafka_protocol::records::RecordBatchDecoder;
use uuid::Uuid;

use super::api_err;
use crate::kafka::error::{KafkaError, Result};
use crate::kafka::wire::Connection;

/// ListOffsets' timestamp for the log start offset.
pub const EARLIEST: i64 = -2;
/// ListOffsets' timestamp for the high watermark (the end a consumer reads to).
pub const LATEST: i64 = -1;
/// The most one Fetch asks of the partition (Kafka returns a first batch larger than this
/// whole, KIP-74).
const PARTITION_MAX_BYTES: i32 = 1024 * 1024;

/// Where a partition is read: its topic's id (Fetch v13+ names topics by id) and its leader's
/// id and advertised address, from one Metadata answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionLeader {
    pub topic_id: Uuid,
    /// `(node id, "host:port")`; `None` while the partition has no leader.
    pub leader: Option<(i32, String)>,
}

/// One record of a partition's log: a `None` value is a tombstone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogRecord {
    pub offset: i64,
    pub key: Option<Bytes>,
    pub value: Option<Bytes>,
}

/// The leader of `topic`'s `partition` from a Metadata answer of that topic; `None` when the
/// topic (or the partition) does not exist.
#[must_use]
pub fn decode_partition_leader(
    response: &MetadataResponse,
    topic: &str,
    partition: i32,
) -> Option<PartitionLeader> {
    let t = response
        .topics
        .iter()
        .find(|t| t.name.as_ref().is_some_and(|n| n.0.as_str() == topic) && t.error_code == 0)?;
    let p = t
        .partitions
        .iter()
        .find(|p| p.partition_index == partition)?;
    let id = p.leader_id.0;
    let leader = (id >= 0 && p.error_code == 0)
        .then(|| response.brokers.iter().find(|b| b.node_id.0 == id))
        .flatten()
        .map(|b| (id, format!("{}:{}", b.host.as_str(), b.port)));
    Some(PartitionLeader {
        topic_id: t.topic_id,
        leader,
    })
}

/// The leader of `topic`'s `partition`, asked in one Metadata request that creates nothing;
/// `None` when the topic does not exist.
///
/// # Errors
/// The request fails.
pub async fn partition_leader(
    conn: &mut Connection,
    topic: &str,
    partition: i32,
) -> Result<Option<PartitionLeader>> {
    let request = MetadataRequest::default()
        .with_topics(Some(vec![MetadataRequestTopic::default().with_name(Some(
            TopicName(StrBytes::from_string(topic.to_string())),
        ))]))
        .with_allow_auto_topic_creation(false);
    let (_, response) = conn
        .send(&request, &format!("reading topic {topic}"))
        .await?;
    Ok(decode_partition_leader(&response, topic, partition))
}

/// The offset ListOffsets answers for `timestamp` ([`EARLIEST`] or [`LATEST`], read
/// uncommitted) on the partition's leader `conn` is open to.
///
/// # Errors
/// The request fails or the partition answers with an error (e.g. NOT_LEADER_OR_FOLLOWER).
pub async fn list_offset(
    conn: &mut Connection,
    topic: &str,
    partition: i32,
    timestamp: i64,
) -> Result<i64> {
    let request = ListOffsetsRequest::default()
        .with_replica_id((-1).into())
        .with_topics(vec![
            ListOffsetsTopic::default()
                .with_name(TopicName(StrBytes::from_string(topic.to_string())))
                .with_partitions(vec![
                    ListOffsetsPartition::default()
                        .with_partition_index(partition)
                        .with_timestamp(timestamp),
                ]),
        ]);
    let (_, response) = conn
        .send(&request, &format!("reading topic {topic}"))
        .await?;
    let p = response
        .topics
        .iter()
        .flat_map(|t| &t.partitions)
        .find(|p| p.partition_index == partition)
        .ok_or_else(|| KafkaError::Protocol {
            what: "ListOffsets".into(),
            address: conn.address().into(),
            message: format!("no {topic}-{partition} in the response"),
        })?;
    if p.error_code != 0 {
        return Err(api_err(
            &format!("ListOffsets of {topic}-{partition}"),
            conn.address(),
            p.error_code,
            None,
        ));
    }
    Ok(p.offset)
}

/// The records of a Fetch answer's `records` bytes, control batches left out, and the offset
/// after the last whole batch (`None`: no whole batch, e.g. only a truncated one, which Kafka
/// may send at the end of an answer). An empty batch (every record compacted away) still
/// moves the offset on.
///
/// # Errors
/// A batch that does not decode (a bad CRC, an old message format, a codec that fails), named
/// with its offset and codec.
pub fn decode_records(mut bytes: Bytes) -> anyhow::Result<(Vec<LogRecord>, Option<i64>)> {
    // Batch framing: base offset (8), length (4), then `length` bytes in which the last offset
    // delta sits after the leader epoch (4), magic (1), CRC (4) and attributes (2).
    const HEADER: usize = 12;
    const LAST_DELTA_AT: usize = HEADER + 4 + 1 + 4 + 2;
    let mut records = Vec::new();
    let mut next = None;
    while bytes.len() >= HEADER {
        let base = i64::from_be_bytes(bytes[..8].try_into()?);
        let len = usize::try_from(i32::from_be_bytes(bytes[8..12].try_into()?))?;
        if bytes.len() < HEADER + len || len < LAST_DELTA_AT + 4 - HEADER {
            break;
        }
        let mut batch = bytes.split_to(HEADER + len);
        let delta = i32::from_be_bytes(batch[LAST_DELTA_AT..LAST_DELTA_AT + 4].try_into()?);
        let codec = codec_name(batch[LAST_DELTA_AT - 1]);
        let set = RecordBatchDecoder::decode(&mut batch)
            .map_err(|e| anyhow::anyhow!("batch at offset {base} ({codec}): {e}"))?;
        records.extend(
            set.records
                .into_iter()
                .filter(|r| !r.control)
                .map(|r| LogRecord {
                    offset: r.offset,
                    key: r.key,
                    value: r.value,
                }),
        );
        next = Some(base + i64::from(delta) + 1);
    }
    Ok((records, next))
}

/// The codec a batch's attributes (their low byte) name, as Kafka's `compression.type` spells it.
fn codec_name(attributes: u8) -> String {
    match attributes & 0x7 {
        0 => "uncompressed".into(),
        1 => "gzip".into(),
        2 => "snappy".into(),
        3 => "lz4".into(),
        4 => "zstd".into(),
        other => format!("unknown codec {other}"),
    }
}

/// Every record of `topic`'s `partition` from `start` up to (not including) `end`, read from
/// the leader `conn` is open to.
///
/// # Errors
/// A Fetch fails, the partition answers with an error, or a Fetch brings nothing new before
/// `end` is reached.
pub async fn read_partition(
    conn: &mut Connection,
    topic: &str,
    topic_id: Uuid,
    partition: i32,
    (start, end): (i64, i64),
) -> Result<Vec<LogRecord>> {
    let what = format!("reading topic {topic}");
    let mut version = conn.version::<FetchRequest>(&what)?;
    if topic_id.is_nil() {
        // Fetch v13+ names the topic by id only.
        version = version.min(12);
    }
    let mut out = Vec::new();
    let mut offset = start;
    while offset < end {
        let request = fetch_request(topic, topic_id, partition, offset, version);
        let response = conn.send_at(&request, version).await?;
        let records = fetched_bytes(&response, partition, conn.address(), topic)?;
        let (batch, next) = decode_records(records).map_err(|e| KafkaError::Protocol {
            what: format!("Fetch of {topic}-{partition}"),
            address: conn.address().into(),
            message: format!("cannot decode the records at offset {offset}: {e}"),
        })?;
        let Some(next) = next.filter(|n| *n > offset) else {
            return Err(KafkaError::Protocol {
                what: format!("Fetch of {topic}-{partition}"),
                address: conn.address().into(),
                message: format!("no records at offset {offset}, before the end {end}"),
            });
        };
        out.extend(
            batch
                .into_iter()
                .filter(|r| r.offset >= offset && r.offset < end),
        );
        offset = next;
    }
    Ok(out)
}

/// A consumer's Fetch of one partition from `offset`, answered at once.
fn fetch_request(
    topic: &str,
    topic_id: Uuid,
    partition: i32,
    offset: i64,
    version: i16,
) -> FetchRequest {
    let mut t = FetchTopic::default().with_partitions(vec![
        FetchPartition::default()
            .with_partition(partition)
            .with_fetch_offset(offset)
            .with_partition_max_bytes(PARTITION_MAX_BYTES),
    ]);
    if version >= 13 {
        t = t.with_topic_id(topic_id);
    } else {
        t = t.with_topic(TopicName(StrBytes::from_string(topic.to_string())));
    }
    FetchRequest::default()
        .with_max_wait_ms(0)
        .with_min_bytes(0)
        .with_max_bytes(PARTITION_MAX_BYTES)
        .with_topics(vec![t])
}

/// The records bytes of `partition` in a Fetch answer, or its error.
fn fetched_bytes(
    response: &FetchResponse,
    partition: i32,
    address: &str,
    topic: &str,
) -> Result<Bytes> {
    if response.error_code != 0 {
        return Err(api_err("Fetch", address, response.error_code, None));
    }
    let p = response
        .responses
        .iter()
        .flat_map(|t| &t.partitions)
        .find(|p| p.partition_index == partition)
        .ok_or_else(|| KafkaError::Protocol {
            what: "Fetch".into(),
            address: address.into(),
            message: format!("no {topic}-{partition} in the response"),
        })?;
    if p.error_code != 0 {
        return Err(api_err(
            &format!("Fetch of {topic}-{partition}"),
            address,
            p.error_code,
            None,
        ));
    }
    Ok(p.records.clone().unwrap_or_default())
}

#[cfg(test)]
mod tests;
