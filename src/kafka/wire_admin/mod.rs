//! The admin requests that only the wire path can make.
//!
//! DescribeQuorum and ListPartitionReassignments are not in librdkafka; reading a
//! controller's own config needs a connection to that controller, which librdkafka
//! cannot open; librdkafka cannot address the cluster-wide broker default (a `BROKER`
//! resource with an empty name) in IncrementalAlterConfigs. Each function takes an open [`Connection`] and returns observation
//! types; the decoding of responses into those types is pure and unit-tested.

use std::collections::BTreeMap;

use kafka_protocol::messages::alter_partition_reassignments_request::{
    ReassignablePartition, ReassignableTopic,
};
use kafka_protocol::messages::describe_quorum_request::{PartitionData, TopicData};
use kafka_protocol::messages::describe_quorum_response::{
    Node as QuorumNode, PartitionData as QuorumPartition, ReplicaState,
};
use kafka_protocol::messages::{
    AlterPartitionReassignmentsRequest, BrokerId, DescribeClusterRequest, DescribeClusterResponse,
    DescribeQuorumRequest, DescribeQuorumResponse, ListPartitionReassignmentsRequest,
    ListPartitionReassignmentsResponse, MetadataRequest, MetadataResponse, TopicName,
};
use kafka_protocol::protocol::StrBytes;

use super::error::{KafkaError, Result, error_name};
use super::ffi::{ClusterDescription, NodeAddress, PartitionDescription, TopicDescription};
use super::observation::{ControllerAddresses, RaftEndpoint, RawQuorum, ReplicaObservation};
use super::wire::Connection;
use crate::engine::view::Reassignment;

mod configs;
mod fetch;
mod log_dirs;

pub use configs::{
    alter_cluster_default, decode_min_isr_overrides, decode_topic_configs, describe_broker_configs,
    describe_node_config, describe_node_configs, describe_topic_configs, topic_min_isr_overrides,
};
pub use fetch::{
    EARLIEST, LATEST, LogRecord, PartitionLeader, decode_partition_leader, decode_records,
    list_offset, partition_leader, read_partition,
};
pub use log_dirs::{decode_replica_sizes, replica_sizes};

/// The KRaft metadata log, the only partition DescribeQuorum describes.
pub const METADATA_TOPIC: &str = "__cluster_metadata";

fn ts(v: i64) -> Option<i64> {
    (v >= 0).then_some(v)
}

fn api_err(what: &str, address: &str, code: i16, message: Option<&StrBytes>) -> KafkaError {
    KafkaError::Api {
        what: format!("{what} via {address}"),
        node: None,
        code,
        name: error_name(code),
        message: message.map(|m| m.as_str().to_string()),
    }
}

/// The quorum and the controllers' listeners (v2 only) from a DescribeQuorum response.
pub fn decode_quorum(
    response: &DescribeQuorumResponse,
    version: i16,
    address: &str,
) -> Result<(RawQuorum, ControllerAddresses)> {
    if response.error_code != 0 {
        return Err(api_err(
            "DescribeQuorum",
            address,
            response.error_code,
            response.error_message.as_ref(),
        ));
    }
    let partition = metadata_partition(response, address)?;
    if version < 1 {
        // v0 has no timestamps: the controller safety check cannot run.
        return Err(KafkaError::UnsupportedApi {
            address: address.into(),
            api: "DescribeQuorum v1 (Kafka >= 3.3)".into(),
            needed_for: "the controller quorum check (LastCaughtUpTimestamp)".into(),
        });
    }
    let leader = partition.leader_id.0;
    let quorum = RawQuorum {
        leader_id: (leader >= 0).then_some(leader),
        leader_epoch: partition.leader_epoch,
        high_watermark: partition.high_watermark,
        voters: partition.current_voters.iter().map(replica).collect(),
        observers: partition.observers.iter().map(replica).collect(),
        answered_by: address.into(),
        voter_endpoints: voter_endpoints(&response.nodes),
        version,
    };
    let listeners = response
        .nodes
        .iter()
        .filter_map(|n| {
            n.listeners
                .first()
                .map(|l| (n.node_id.0, (l.host.as_str().to_string(), l.port)))
        })
        .collect();
    Ok((quorum, listeners))
}

/// The metadata log's partition (`__cluster_metadata-0`) of a DescribeQuorum answer, or the
/// error it was answered with.
fn metadata_partition<'a>(
    response: &'a DescribeQuorumResponse,
    address: &str,
) -> Result<&'a QuorumPartition> {
    let partition = response
        .topics
        .iter()
        .filter(|t| t.topic_name.0.as_str() == METADATA_TOPIC)
        .flat_map(|t| &t.partitions)
        .find(|p| p.partition_index == 0)
        .ok_or_else(|| KafkaError::Protocol {
            what: "DescribeQuorum".into(),
            address: address.into(),
            message: format!("no {METADATA_TOPIC}-0 in the response"),
        })?;
    if partition.error_code != 0 {
        return Err(api_err(
            "DescribeQuorum",
            address,
            partition.error_code,
            partition.error_message.as_ref(),
        ));
    }
    Ok(partition)
}

/// One voter or observer as DescribeQuorum reports it.
fn replica(r: &ReplicaState) -> ReplicaObservation {
    ReplicaObservation {
        id: r.replica_id.0,
        log_end_offset: r.log_end_offset,
        last_fetch_timestamp: ts(r.last_fetch_timestamp),
        last_caught_up_timestamp: ts(r.last_caught_up_timestamp),
        directory_id: super::kraft::directory_id_text(&r.replica_directory_id),
    }
}

/// The voters' listeners (DescribeQuorum v2 `Nodes`), sorted per voter.
fn voter_endpoints(nodes: &[QuorumNode]) -> BTreeMap<i32, Vec<RaftEndpoint>> {
    nodes
        .iter()
        .map(|n| {
            let mut endpoints: Vec<RaftEndpoint> = n
                .listeners
                .iter()
                .map(|l| RaftEndpoint {
                    name: l.name.as_str().to_string(),
                    host: l.host.as_str().to_string(),
                    port: l.port,
                })
                .collect();
            endpoints.sort();
            (n.node_id.0, endpoints)
        })
        .collect()
}

/// DescribeQuorum (any broker forwards it; controllers answer directly).
pub async fn describe_quorum(conn: &mut Connection) -> Result<(RawQuorum, ControllerAddresses)> {
    let request = DescribeQuorumRequest::default().with_topics(vec![
        TopicData::default()
            .with_topic_name(TopicName(StrBytes::from_static_str(METADATA_TOPIC)))
            .with_partitions(vec![PartitionData::default().with_partition_index(0)]),
    ]);
    let (version, response) = conn.send(&request, "the controller quorum check").await?;
    decode_quorum(&response, version, conn.address())
}

/// Ongoing reassignments from a ListPartitionReassignments response.
pub fn decode_reassignments(
    response: &ListPartitionReassignmentsResponse,
    address: &str,
) -> Result<Vec<Reassignment>> {
    if response.error_code != 0 {
        return Err(api_err(
            "ListPartitionReassignments",
            address,
            response.error_code,
            response.error_message.as_ref(),
        ));
    }
    let ids = |v: &[BrokerId]| v.iter().map(|b| b.0).collect::<Vec<_>>();
    let mut out: Vec<Reassignment> = response
        .topics
        .iter()
        .flat_map(|t| {
            t.partitions.iter().map(|p| Reassignment {
                topic: t.name.0.as_str().to_string(),
                partition: p.partition_index,
                replicas: ids(&p.replicas),
                adding: ids(&p.adding_replicas),
                removing: ids(&p.removing_replicas),
            })
        })
        .collect();
    out.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
    Ok(out)
}

/// Every ongoing partition reassignment.
pub async fn list_reassignments(
    conn: &mut Connection,
    timeout_ms: i32,
) -> Result<Vec<Reassignment>> {
    let request = ListPartitionReassignmentsRequest::default()
        .with_timeout_ms(timeout_ms)
        .with_topics(None);
    let (_, response) = conn.send(&request, "listing ongoing reassignments").await?;
    decode_reassignments(&response, conn.address())
}

/// The active controller (if any) and node id -> (host, port) of every controller, via
/// DescribeCluster on a controller listener (KIP-919; there `ControllerId` is the quorum
/// leader).
pub async fn describe_controllers(
    conn: &mut Connection,
) -> Result<(Option<i32>, ControllerAddresses)> {
    let request = DescribeClusterRequest::default().with_endpoint_type(2);
    let v = conn.version::<DescribeClusterRequest>("finding the controllers")?;
    if v < 1 {
        return Err(KafkaError::UnsupportedApi {
            address: conn.address().into(),
            api: "DescribeCluster v1 (Kafka >= 3.7)".into(),
            needed_for: "finding the controllers".into(),
        });
    }
    let response = conn.send_at(&request, v).await?;
    if response.error_code != 0 {
        return Err(api_err(
            "DescribeCluster",
            conn.address(),
            response.error_code,
            response.error_message.as_ref(),
        ));
    }
    let controllers = response
        .brokers
        .iter()
        .map(|b| {
            (
                b.broker_id.0,
                (
                    b.host.as_str().to_string(),
                    u16::try_from(b.port).unwrap_or(0),
                ),
            )
        })
        .collect();
    let leader = response.controller_id.0;
    Ok(((leader >= 0).then_some(leader), controllers))
}

/// The registered but fenced brokers, from a broker (DescribeCluster v2 with
/// `include_fenced_brokers`, Kafka >= 4.0, KIP-1073). `None` when the broker speaks only
/// older versions: then fencing can only be inferred from absence.
pub async fn describe_fenced_brokers(conn: &mut Connection) -> Result<Option<Vec<NodeAddress>>> {
    Ok(super::kraft::describe_registered_brokers(conn)
        .await?
        .map(|brokers| {
            brokers
                .into_iter()
                .filter(|b| b.fenced)
                .map(|b| NodeAddress {
                    id: b.id,
                    host: b.host,
                    port: b.port,
                    rack: b.rack,
                })
                .collect()
        }))
}

/// The registered brokers as a broker lists them (DescribeCluster, broker endpoint): the
/// unfenced ones, and with v2 (Kafka >= 4.0, KIP-1073) the fenced ones from the same answer
/// (`include_fenced_brokers`), so both lists describe one moment. `None` for the fenced list
/// when the broker speaks only older versions: then fencing can only be inferred from absence.
///
/// kafkaops decodes this itself: librdkafka's DescribeCluster fails ("Bad message format") on
/// an answer listing more than 32 racked brokers with short advertised hosts.
pub async fn describe_brokers(
    conn: &mut Connection,
) -> Result<(ClusterDescription, Option<Vec<NodeAddress>>)> {
    let v = conn.version::<DescribeClusterRequest>("listing the brokers")?;
    let mut request = DescribeClusterRequest::default();
    if v >= 1 {
        request = request.with_endpoint_type(1);
    }
    if v >= 2 {
        request = request.with_include_fenced_brokers(true);
    }
    let response = conn.send_at(&request, v).await?;
    decode_brokers(&response, v, conn.address())
}

/// The unfenced brokers (and with v2 the fenced ones) from a DescribeCluster answer.
pub fn decode_brokers(
    response: &DescribeClusterResponse,
    version: i16,
    address: &str,
) -> Result<(ClusterDescription, Option<Vec<NodeAddress>>)> {
    if response.error_code != 0 {
        return Err(api_err(
            "DescribeCluster",
            address,
            response.error_code,
            response.error_message.as_ref(),
        ));
    }
    let node = |b: &kafka_protocol::messages::describe_cluster_response::DescribeClusterBroker| {
        NodeAddress {
            id: b.broker_id.0,
            host: b.host.as_str().to_string(),
            port: u16::try_from(b.port).unwrap_or(0),
            rack: b.rack.as_ref().map(|r| r.as_str().to_string()),
        }
    };
    let mut nodes: Vec<NodeAddress> = response
        .brokers
        .iter()
        .filter(|b| !b.is_fenced)
        .map(node)
        .collect();
    nodes.sort_by_key(|n| n.id);
    let fenced = (version >= 2).then(|| {
        let mut f: Vec<NodeAddress> = response
            .brokers
            .iter()
            .filter(|b| b.is_fenced)
            .map(node)
            .collect();
        f.sort_by_key(|n| n.id);
        f
    });
    let controller = response.controller_id.0;
    let cluster_id = response.cluster_id.as_str();
    Ok((
        ClusterDescription {
            cluster_id: (!cluster_id.is_empty()).then(|| cluster_id.to_string()),
            controller: (controller >= 0).then_some(controller),
            nodes,
        },
        fenced,
    ))
}

/// Every topic's partition metadata as the broker at the other end sees it (Metadata for all
/// topics, no auto-creation). A topic the broker reports with an error is an error naming
/// the topic: an observation missing a topic would hide its partitions from the safety checks.
pub async fn describe_all_topics(conn: &mut Connection) -> Result<Vec<TopicDescription>> {
    let v = conn.version::<MetadataRequest>("reading partition metadata")?;
    let request = MetadataRequest::default()
        .with_topics(if v == 0 { Some(Vec::new()) } else { None })
        .with_allow_auto_topic_creation(false);
    let response = conn.send_at(&request, v).await?;
    decode_topics(&response, conn.address())
}

/// The partition metadata of a Metadata answer (see [`describe_all_topics`]), sorted by topic
/// and partition.
pub fn decode_topics(response: &MetadataResponse, address: &str) -> Result<Vec<TopicDescription>> {
    let ids = |v: &[BrokerId]| v.iter().map(|b| b.0).collect::<Vec<_>>();
    let mut out = Vec::with_capacity(response.topics.len());
    for t in &response.topics {
        let name = t.name.as_ref().map(|n| n.0.as_str().to_string());
        let Some(name) = name else {
            return Err(KafkaError::Protocol {
                what: "Metadata".into(),
                address: address.into(),
                message: "a topic without a name".into(),
            });
        };
        if t.error_code != 0 {
            return Err(api_err(
                &format!("Metadata of topic {name:?}"),
                address,
                t.error_code,
                None,
            ));
        }
        let mut partitions: Vec<PartitionDescription> = t
            .partitions
            .iter()
            .map(|p| PartitionDescription {
                partition: p.partition_index,
                leader: (p.leader_id.0 >= 0).then_some(p.leader_id.0),
                replicas: ids(&p.replica_nodes),
                isr: ids(&p.isr_nodes),
            })
            .collect();
        partitions.sort_by_key(|p| p.partition);
        out.push(TopicDescription {
            name,
            internal: t.is_internal,
            partitions,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Starts moving `topic`-`partition` to `replicas` (used by tests to create a reassignment;
/// the roller itself never moves replicas).
pub async fn alter_partition_reassignment(
    conn: &mut Connection,
    topic: &str,
    partition: i32,
    replicas: &[i32],
    timeout_ms: i32,
) -> Result<()> {
    let request = AlterPartitionReassignmentsRequest::default()
        .with_timeout_ms(timeout_ms)
        .with_topics(vec![
            ReassignableTopic::default()
                .with_name(TopicName(StrBytes::from_string(topic.to_string())))
                .with_partitions(vec![
                    ReassignablePartition::default()
                        .with_partition_index(partition)
                        .with_replicas(Some(replicas.iter().map(|r| BrokerId(*r)).collect())),
                ]),
        ]);
    let v = conn
        .version::<AlterPartitionReassignmentsRequest>("starting a reassignment")?
        .min(0);
    let response = conn.send_at(&request, v).await?;
    if response.error_code != 0 {
        return Err(api_err(
            "AlterPartitionReassignments",
            conn.address(),
            response.error_code,
            response.error_message.as_ref(),
        ));
    }
    for t in &response.responses {
        for p in &t.partitions {
            if p.error_code != 0 {
                return Err(api_err(
                    &format!(
                        "AlterPartitionReassignments for {}-{}",
                        t.name.0.as_str(),
                        p.partition_index
                    ),
                    conn.address(),
                    p.error_code,
                    p.error_message.as_ref(),
                ));
            }
        }
    }
    Ok(())
}

/// Cancels the ongoing reassignments of `partitions` (AlterPartitionReassignments with null
/// replicas): each partition goes back to its original replica set. Returns, per partition,
/// the error Kafka gave (NO_REASSIGNMENT_IN_PROGRESS when it had finished meanwhile).
pub async fn cancel_reassignments(
    conn: &mut Connection,
    partitions: &[(String, i32)],
    timeout_ms: i32,
) -> Result<Vec<((String, i32), Option<String>)>> {
    let mut by_topic: std::collections::BTreeMap<&str, Vec<i32>> =
        std::collections::BTreeMap::new();
    for (t, p) in partitions {
        by_topic.entry(t.as_str()).or_default().push(*p);
    }
    let request = AlterPartitionReassignmentsRequest::default()
        .with_timeout_ms(timeout_ms)
        .with_topics(
            by_topic
                .into_iter()
                .map(|(t, ps)| {
                    ReassignableTopic::default()
                        .with_name(TopicName(StrBytes::from_string(t.to_string())))
                        .with_partitions(
                            ps.into_iter()
                                .map(|p| {
                                    ReassignablePartition::default()
                                        .with_partition_index(p)
                                        .with_replicas(None)
                                })
                                .collect(),
                        )
                })
                .collect(),
        );
    let v = conn
        .version::<AlterPartitionReassignmentsRequest>("cancelling reassignments")?
        .min(0);
    let response = conn.send_at(&request, v).await?;
    if response.error_code != 0 {
        return Err(api_err(
            "AlterPartitionReassignments",
            conn.address(),
            response.error_code,
            response.error_message.as_ref(),
        ));
    }
    let mut out = Vec::new();
    for t in &response.responses {
        for p in &t.partitions {
            let err = (p.error_code != 0).then(|| {
                let name = error_name(p.error_code);
                match p.error_message.as_ref() {
                    Some(m) => format!("{name}: {}", m.as_str()),
                    None => name.to_string(),
                }
            });
            out.push(((t.name.0.as_str().to_string(), p.partition_index), err));
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests;
