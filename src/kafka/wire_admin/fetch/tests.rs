use super::*;
use bytes::BytesMut;
use kafka_protocol::messages::BrokerId;
use kafka_protocol::messages::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kafka_protocol::records::{
    Compression, Record, RecordBatchEncoder, RecordEncodeOptions, TimestampType,
};

fn record(offset: i64, key: &str, value: Option<&str>, control: bool) -> Record {
    Record {
        transactional: false,
        control,
        delete_horizon: false,
        partition_leader_epoch: 0,
        producer_id: -1,
        producer_epoch: -1,
        timestamp_type: TimestampType::Creation,
        offset,
        sequence: -1,
        timestamp: 0,
        key: Some(Bytes::from(key.to_string())),
        value: value.map(|v| Bytes::from(v.to_string())),
        headers: Default::default(),
    }
}

/// One v2 batch of `records`, uncompressed, as a broker stores it.
fn batch(records: &[Record]) -> BytesMut {
    compressed(records, Compression::None)
}

/// One v2 batch of `records` compressed with `compression` by the crate's own encoder.
fn compressed(records: &[Record], compression: Compression) -> BytesMut {
    let mut buf = BytesMut::new();
    RecordBatchEncoder::encode(
        &mut buf,
        records,
        &RecordEncodeOptions {
            version: 2,
            compression,
        },
    )
    .unwrap();
    buf
}

fn keys(records: &[LogRecord]) -> Vec<(i64, String, Option<String>)> {
    records
        .iter()
        .map(|r| {
            let text =
                |b: &Option<Bytes>| b.as_ref().map(|b| String::from_utf8_lossy(b).into_owned());
            (r.offset, text(&r.key).unwrap_or_default(), text(&r.value))
        })
        .collect()
}

#[test]
fn records_of_whole_batches_in_order_with_compaction_gaps_and_tombstones() {
    let mut bytes = batch(&[
        record(0, "1", Some("a"), false),
        record(3, "2", None, false),
    ]);
    bytes.extend_from_slice(&batch(&[record(7, "1", Some("b"), false)]));
    let (records, next) = decode_records(bytes.freeze()).unwrap();
    assert_eq!(
        keys(&records),
        vec![
            (0, "1".into(), Some("a".into())),
            (3, "2".into(), None),
            (7, "1".into(), Some("b".into())),
        ]
    );
    // The offset after the last batch, past the gaps compaction left.
    assert_eq!(next, Some(8));
}

#[test]
fn a_truncated_last_batch_is_left_for_the_next_fetch() {
    let mut bytes = batch(&[record(4, "1", Some("a"), false)]);
    let second = batch(&[record(5, "2", Some("b"), false)]);
    bytes.extend_from_slice(&second[..second.len() - 3]);
    let (records, next) = decode_records(bytes.freeze()).unwrap();
    assert_eq!(keys(&records), vec![(4, "1".into(), Some("a".into()))]);
    assert_eq!(next, Some(5));
    // Only a part of a batch (or of its header): nothing read, no offset to go on from.
    let (records, next) = decode_records(second.freeze().slice(..10)).unwrap();
    assert!(records.is_empty());
    assert_eq!(next, None);
    assert_eq!(decode_records(Bytes::new()).unwrap(), (Vec::new(), None));
}

#[test]
fn control_batches_move_the_offset_but_are_not_records() {
    let mut bytes = batch(&[record(0, "1", Some("a"), false)]);
    bytes.extend_from_slice(&batch(&[record(1, "", None, true)]));
    let (records, next) = decode_records(bytes.freeze()).unwrap();
    assert_eq!(keys(&records), vec![(0, "1".into(), Some("a".into()))]);
    assert_eq!(next, Some(2));
}

#[test]
fn a_corrupt_batch_is_an_error() {
    let mut bytes = batch(&[record(0, "1", Some("a"), false)]);
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    assert!(decode_records(bytes.freeze()).is_err());
}

#[test]
fn batches_of_every_codec_are_read() {
    let value = "disk swap ".repeat(50);
    let codecs = [
        (Compression::Gzip, 1),
        (Compression::Snappy, 2),
        (Compression::Lz4, 3),
        (Compression::Zstd, 4),
    ];
    let mut bytes = BytesMut::new();
    let mut expected = Vec::new();
    for (i, (codec, bits)) in (0_i64..).zip(codecs) {
        let b = compressed(
            &[
                record(2 * i, "1", Some(&value), false),
                record(2 * i + 1, "2", None, false),
            ],
            codec,
        );
        // Really compressed: the attributes name the codec and the batch is smaller than its value.
        assert_eq!(b[22] & 0x7, bits, "{codec:?}");
        assert!(b.len() < value.len(), "{codec:?}: {} bytes", b.len());
        bytes.extend_from_slice(&b);
        expected.push((2 * i, "1".to_string(), Some(value.clone())));
        expected.push((2 * i + 1, "2".to_string(), None));
    }
    let (records, next) = decode_records(bytes.freeze()).unwrap();
    assert_eq!(keys(&records), expected);
    assert_eq!(next, Some(8));
}

#[test]
fn a_batch_that_does_not_decode_names_its_offset_and_codec() {
    let mut bytes = compressed(&[record(5, "1", Some("a"), false)], Compression::Lz4);
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    let e = decode_records(bytes.freeze()).unwrap_err().to_string();
    assert!(e.contains("offset 5 (lz4)"), "{e}");
    // An unknown codec (attributes 5-7) is named too, not read as nothing.
    let mut bytes = batch(&[record(0, "1", Some("a"), false)]);
    bytes[22] |= 0x7;
    let e = decode_records(bytes.freeze()).unwrap_err().to_string();
    assert!(e.contains("unknown codec 7"), "{e}");
}

fn metadata(error: i16, leader: i32) -> MetadataResponse {
    let id = Uuid::from_u128(7);
    MetadataResponse::default()
        .with_brokers(vec![
            MetadataResponseBroker::default()
                .with_node_id(BrokerId(1))
                .with_host(StrBytes::from_static_str("b1"))
                .with_port(9092),
            MetadataResponseBroker::default()
                .with_node_id(BrokerId(2))
                .with_host(StrBytes::from_static_str("b2"))
                .with_port(9093),
        ])
        .with_topics(vec![
            MetadataResponseTopic::default()
                .with_name(Some(TopicName(StrBytes::from_static_str("h"))))
                .with_error_code(error)
                .with_topic_id(id)
                .with_partitions(vec![
                    MetadataResponsePartition::default()
                        .with_partition_index(0)
                        .with_leader_id(BrokerId(leader)),
                ]),
        ])
}

#[test]
fn the_leader_is_found_by_its_advertised_address_and_an_absent_topic_is_none() {
    let at = decode_partition_leader(&metadata(0, 2), "h", 0).unwrap();
    assert_eq!(at.topic_id, Uuid::from_u128(7));
    assert_eq!(at.leader, Some((2, "b2:9093".to_string())));
    // No leader for now (an election), or one the answer lists no address for.
    assert_eq!(
        decode_partition_leader(&metadata(0, -1), "h", 0)
            .unwrap()
            .leader,
        None
    );
    assert_eq!(
        decode_partition_leader(&metadata(0, 9), "h", 0)
            .unwrap()
            .leader,
        None
    );
    // UNKNOWN_TOPIC_OR_PARTITION, TOPIC_AUTHORIZATION_FAILED, another topic or partition.
    assert_eq!(decode_partition_leader(&metadata(3, 1), "h", 0), None);
    assert_eq!(decode_partition_leader(&metadata(29, 1), "h", 0), None);
    assert_eq!(decode_partition_leader(&metadata(0, 1), "other", 0), None);
    assert_eq!(decode_partition_leader(&metadata(0, 1), "h", 1), None);
}

#[test]
fn a_fetch_names_the_topic_by_id_from_v13_and_by_name_before() {
    let id = Uuid::from_u128(7);
    for (version, by_id) in [(12, false), (13, true), (18, true)] {
        let r = fetch_request("h", id, 0, 42, version);
        let t = &r.topics[0];
        assert_eq!(t.topic_id == id, by_id);
        assert_eq!(t.topic.0.as_str() == "h", !by_id);
        assert_eq!(t.partitions[0].fetch_offset, 42);
        assert_eq!(r.replica_id.0, -1);
        // Encodes at that version (a field the version lacks would be refused).
        let mut buf = BytesMut::new();
        kafka_protocol::protocol::Encodable::encode(&r, &mut buf, version).unwrap();
    }
}
