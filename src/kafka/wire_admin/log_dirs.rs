//! DescribeLogDirs: the size of a broker's replicas of some partitions, which librdkafka cannot
//! ask for. `health` reads it on the destinations of reassignments in flight: an adding replica
//! whose log stops growing makes no progress (issue 29, [`crate::engine::health::progress`]).

use std::collections::BTreeMap;

use kafka_protocol::messages::describe_log_dirs_request::DescribableLogDirTopic;
use kafka_protocol::messages::{DescribeLogDirsRequest, DescribeLogDirsResponse, TopicName};
use kafka_protocol::protocol::StrBytes;

use super::api_err;
use crate::kafka::error::Result;
use crate::kafka::wire::Connection;

/// `(topic, partition)` -> the size in bytes of this broker's replica (the largest over its log
/// directories; a future replica of a move between directories is left out), from a
/// DescribeLogDirs answer. A log directory that answered with an error is skipped (its
/// replicas are unknown, not empty); a top-level error fails.
///
/// # Errors
/// The answer's top-level error code.
pub fn decode_replica_sizes(
    response: &DescribeLogDirsResponse,
    address: &str,
) -> Result<BTreeMap<(String, i32), i64>> {
    if response.error_code != 0 {
        return Err(api_err(
            "DescribeLogDirs",
            address,
            response.error_code,
            None,
        ));
    }
    let mut out: BTreeMap<(String, i32), i64> = BTreeMap::new();
    for dir in response.results.iter().filter(|d| d.error_code == 0) {
        for t in &dir.topics {
            for p in t.partitions.iter().filter(|p| !p.is_future_key) {
                let e = out
                    .entry((t.name.0.as_str().to_string(), p.partition_index))
                    .or_insert(p.partition_size);
                *e = (*e).max(p.partition_size);
            }
        }
    }
    Ok(out)
}

/// The sizes of the replicas of `partitions` (topic -> partitions) on the broker `conn` is
/// open to; a partition it holds no replica of is absent.
///
/// # Errors
/// The broker cannot be asked or answers with an error.
pub async fn replica_sizes(
    conn: &mut Connection,
    partitions: &BTreeMap<String, Vec<i32>>,
) -> Result<BTreeMap<(String, i32), i64>> {
    let topics = partitions
        .iter()
        .map(|(t, ps)| {
            DescribableLogDirTopic::default()
                .with_topic(TopicName(StrBytes::from_string(t.clone())))
                .with_partitions(ps.clone())
        })
        .collect();
    let request = DescribeLogDirsRequest::default().with_topics(Some(topics));
    let (_, response) = conn
        .send(&request, "the progress of reassignments (DescribeLogDirs)")
        .await?;
    decode_replica_sizes(&response, conn.address())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_protocol::messages::describe_log_dirs_response::{
        DescribeLogDirsPartition, DescribeLogDirsResult, DescribeLogDirsTopic,
    };

    fn dir(error: i16, parts: &[(&str, i32, i64, bool)]) -> DescribeLogDirsResult {
        let mut by: BTreeMap<&str, Vec<DescribeLogDirsPartition>> = BTreeMap::new();
        for (t, p, size, future) in parts {
            by.entry(t).or_default().push(
                DescribeLogDirsPartition::default()
                    .with_partition_index(*p)
                    .with_partition_size(*size)
                    .with_is_future_key(*future),
            );
        }
        DescribeLogDirsResult::default()
            .with_error_code(error)
            .with_log_dir(StrBytes::from_static_str("/data"))
            .with_topics(
                by.into_iter()
                    .map(|(t, ps)| {
                        DescribeLogDirsTopic::default()
                            .with_name(TopicName(StrBytes::from_string(t.to_string())))
                            .with_partitions(ps)
                    })
                    .collect(),
            )
    }

    #[test]
    fn sizes_take_the_largest_current_replica_and_skip_failed_dirs_and_future_ones() {
        let response = DescribeLogDirsResponse::default().with_results(vec![
            dir(0, &[("a", 0, 100, false), ("a", 1, 5, false)]),
            dir(0, &[("a", 0, 40, false), ("a", 1, 900, true)]),
            dir(57, &[("b", 0, 7, false)]),
        ]);
        let sizes = decode_replica_sizes(&response, "x:9092").unwrap();
        assert_eq!(
            sizes,
            BTreeMap::from([(("a".to_string(), 0), 100), (("a".to_string(), 1), 5)])
        );
        let failed = DescribeLogDirsResponse::default().with_error_code(31);
        assert!(decode_replica_sizes(&failed, "x:9092").is_err());
    }
}
