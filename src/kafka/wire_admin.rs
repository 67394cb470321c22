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
use kafka_protocol::messages::describe_configs_request::DescribeConfigsResource;
use kafka_protocol::messages::describe_quorum_request::{PartitionData, TopicData};
use kafka_protocol::messages::incremental_alter_configs_request::{
    AlterConfigsResource, AlterableConfig,
};
use kafka_protocol::messages::{
    AlterPartitionReassignmentsRequest, BrokerId, DescribeClusterRequest, DescribeClusterResponse,
    DescribeConfigsRequest, DescribeConfigsResponse, DescribeQuorumRequest, DescribeQuorumResponse,
    IncrementalAlterConfigsRequest, ListPartitionReassignmentsRequest,
    ListPartitionReassignmentsResponse, MetadataRequest, MetadataResponse, TopicName,
};
use kafka_protocol::protocol::StrBytes;

use super::error::{KafkaError, Result, error_name};
use super::ffi::{
    AlterOp, ClusterDescription, ConfigChange, NodeAddress, PartitionDescription, TopicDescription,
};
use super::observation::{ControllerAddresses, RaftEndpoint, RawQuorum, ReplicaObservation};
use super::wire::Connection;
use crate::engine::view::{ConfigEntry, ConfigSource, Reassignment};

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
    if version < 1 {
        // v0 has no timestamps: the controller safety check cannot run.
        return Err(KafkaError::UnsupportedApi {
            address: address.into(),
            api: "DescribeQuorum v1 (Kafka >= 3.3)".into(),
            needed_for: "the controller quorum check (LastCaughtUpTimestamp)".into(),
        });
    }
    let replica =
        |r: &kafka_protocol::messages::describe_quorum_response::ReplicaState| ReplicaObservation {
            id: r.replica_id.0,
            log_end_offset: r.log_end_offset,
            last_fetch_timestamp: ts(r.last_fetch_timestamp),
            last_caught_up_timestamp: ts(r.last_caught_up_timestamp),
            directory_id: super::kraft::directory_id_text(&r.replica_directory_id),
        };
    let leader = partition.leader_id.0;
    let voter_endpoints = response
        .nodes
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
        .collect();
    let quorum = RawQuorum {
        leader_id: (leader >= 0).then_some(leader),
        leader_epoch: partition.leader_epoch,
        high_watermark: partition.high_watermark,
        voters: partition.current_voters.iter().map(replica).collect(),
        observers: partition.observers.iter().map(replica).collect(),
        answered_by: address.into(),
        voter_endpoints,
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

/// Whether topic `name` exists with partitions, as the broker at the other end sees it
/// (Metadata for that topic alone, no auto-creation; a topic answered with an error, e.g.
/// unknown or not authorized, does not).
pub async fn topic_exists(conn: &mut Connection, name: &str) -> Result<bool> {
    let v = conn.version::<MetadataRequest>("reading a topic's metadata")?;
    let request = MetadataRequest::default()
        .with_topics(Some(vec![
            kafka_protocol::messages::metadata_request::MetadataRequestTopic::default()
                .with_name(Some(TopicName(StrBytes::from_string(name.to_string())))),
        ]))
        .with_allow_auto_topic_creation(false);
    let response = conn.send_at(&request, v).await?;
    Ok(response.topics.iter().any(|t| {
        t.name.as_ref().is_some_and(|n| n.0.as_str() == name)
            && t.error_code == 0
            && !t.partitions.is_empty()
    }))
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

fn config_source(code: i8) -> ConfigSource {
    match code {
        1 => ConfigSource::DynamicTopic,
        2 => ConfigSource::DynamicBroker,
        3 => ConfigSource::DynamicDefaultBroker,
        4 => ConfigSource::StaticBroker,
        5 => ConfigSource::Default,
        _ => ConfigSource::Unknown,
    }
}

/// The config entries of one DescribeConfigs result (sensitive values dropped).
fn config_entries(
    result: &kafka_protocol::messages::describe_configs_response::DescribeConfigsResult,
) -> Vec<ConfigEntry> {
    result
        .configs
        .iter()
        .map(|c| ConfigEntry {
            name: c.name.as_str().to_string(),
            value: if c.is_sensitive {
                None
            } else {
                c.value.as_ref().map(|v| v.as_str().to_string())
            },
            read_only: c.read_only,
            source: config_source(c.config_source),
            sensitive: c.is_sensitive,
        })
        .collect()
}

fn describe_configs_version(conn: &Connection, needed_for: &str) -> Result<i16> {
    let v = conn.version::<DescribeConfigsRequest>(needed_for)?;
    if v < 1 {
        // v0 has no config source: a topic override cannot be told from a broker default.
        return Err(KafkaError::UnsupportedApi {
            address: conn.address().into(),
            api: "DescribeConfigs v1 (Kafka >= 1.1)".into(),
            needed_for: needed_for.into(),
        });
    }
    Ok(v)
}

/// Every config of broker `id`, asked of the broker at the other end of `conn` (which must be
/// broker `id`: only a broker answers for its own static configs).
pub async fn describe_broker_configs(conn: &mut Connection, id: i32) -> Result<Vec<ConfigEntry>> {
    let v = describe_configs_version(conn, "reading a broker's configs")?;
    let request = DescribeConfigsRequest::default().with_resources(vec![
        DescribeConfigsResource::default()
            .with_resource_type(4)
            .with_resource_name(StrBytes::from_string(id.to_string()))
            .with_configuration_keys(None),
    ]);
    let response = conn.send_at(&request, v).await?;
    let result = response
        .results
        .first()
        .ok_or_else(|| KafkaError::Protocol {
            what: "DescribeConfigs".into(),
            address: conn.address().into(),
            message: "empty result".into(),
        })?;
    if result.error_code != 0 {
        return Err(KafkaError::Api {
            what: format!("DescribeConfigs of broker {id} via {}", conn.address()),
            node: Some(id),
            code: result.error_code,
            name: error_name(result.error_code),
            message: result
                .error_message
                .as_ref()
                .map(|m| m.as_str().to_string()),
        });
    }
    Ok(config_entries(result))
}

/// The configs of each of `topics` (only `keys`, or all of them for `None`), by topic, in
/// requests of 200 topics (DescribeConfigs TOPIC; any broker answers). What librdkafka's
/// DescribeConfigs would give, without its client (issue #27: that client keeps a thread per
/// broker of the cluster).
///
/// # Errors
/// A request fails, or one topic's answer carries an error.
pub async fn describe_topic_configs(
    conn: &mut Connection,
    topics: &[String],
    keys: Option<&[&str]>,
) -> Result<BTreeMap<String, Vec<ConfigEntry>>> {
    let v = describe_configs_version(conn, "reading topic configs")?;
    let mut out = BTreeMap::new();
    for chunk in topics.chunks(200) {
        let request = DescribeConfigsRequest::default().with_resources(
            chunk
                .iter()
                .map(|t| {
                    DescribeConfigsResource::default()
                        .with_resource_type(2)
                        .with_resource_name(StrBytes::from_string(t.clone()))
                        .with_configuration_keys(keys.map(|keys| {
                            keys.iter()
                                .map(|k| StrBytes::from_string((*k).to_string()))
                                .collect()
                        }))
                })
                .collect(),
        );
        let response = conn.send_at(&request, v).await?;
        out.extend(decode_topic_configs(&response, conn.address())?);
    }
    Ok(out)
}

/// The configs by topic of a DescribeConfigs answer about topics (an error for the first topic
/// answered with one).
///
/// # Errors
/// A topic's result carries an error code.
pub fn decode_topic_configs(
    response: &DescribeConfigsResponse,
    address: &str,
) -> Result<BTreeMap<String, Vec<ConfigEntry>>> {
    let mut out = BTreeMap::new();
    for r in &response.results {
        let topic = r.resource_name.as_str();
        if r.error_code != 0 {
            return Err(KafkaError::Api {
                what: format!("DescribeConfigs of topic {topic:?} via {address}"),
                node: None,
                code: r.error_code,
                name: error_name(r.error_code),
                message: r.error_message.as_ref().map(|m| m.as_str().to_string()),
            });
        }
        out.insert(topic.to_string(), config_entries(r));
    }
    Ok(out)
}

/// Per topic whose configs could be read: its topic-level `min.insync.replicas` override
/// (config source DYNAMIC_TOPIC_CONFIG), `None` when it has none. Asked for that one key, in
/// requests of 200 topics. A topic whose configs could not be read, or whose override cannot
/// be parsed, is left out (unknown: the roll refuses to restart its replicas), with the reason
/// logged; a failed request leaves its topics out the same way.
pub async fn topic_min_isr_overrides(
    conn: &mut Connection,
    topics: &[String],
) -> BTreeMap<String, Option<i32>> {
    let mut out = BTreeMap::new();
    let v = match describe_configs_version(conn, "reading topic configs") {
        Ok(v) => v,
        Err(e) => {
            tracing::warn!("{e}; min.insync.replicas of every topic is unknown");
            return out;
        }
    };
    for chunk in topics.chunks(200) {
        let request = DescribeConfigsRequest::default().with_resources(
            chunk
                .iter()
                .map(|t| {
                    DescribeConfigsResource::default()
                        .with_resource_type(2)
                        .with_resource_name(StrBytes::from_string(t.clone()))
                        .with_configuration_keys(Some(vec![StrBytes::from_static_str(
                            "min.insync.replicas",
                        )]))
                })
                .collect(),
        );
        let response = match conn.send_at(&request, v).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(
                    "DescribeConfigs of {} topic(s) failed: {e}; their min.insync.replicas \
                     is unknown",
                    chunk.len()
                );
                continue;
            }
        };
        out.extend(decode_min_isr_overrides(&response));
    }
    out
}

/// The topic-level `min.insync.replicas` overrides of a DescribeConfigs answer about topics.
pub fn decode_min_isr_overrides(
    response: &DescribeConfigsResponse,
) -> BTreeMap<String, Option<i32>> {
    let mut out = BTreeMap::new();
    for r in &response.results {
        let topic = r.resource_name.as_str();
        if r.error_code != 0 {
            tracing::warn!(
                "DescribeConfigs of topic {topic:?} failed: {}; its min.insync.replicas is \
                 unknown",
                error_name(r.error_code)
            );
            continue;
        }
        let entry = r
            .configs
            .iter()
            .find(|c| c.name.as_str() == "min.insync.replicas");
        let value = match entry {
            Some(c) if config_source(c.config_source) == ConfigSource::DynamicTopic => {
                match c
                    .value
                    .as_ref()
                    .and_then(|v| v.as_str().trim().parse::<i32>().ok())
                {
                    Some(v) => Some(v),
                    None => {
                        tracing::warn!(
                            "topic {topic:?}: unreadable min.insync.replicas override {:?}; \
                             treated as unknown",
                            c.value
                        );
                        continue;
                    }
                }
            }
            _ => None,
        };
        out.insert(topic.to_string(), value);
    }
    out
}

/// One config value of node `node_id`, asked of that node itself (DescribeConfigs BROKER).
pub async fn describe_node_config(
    conn: &mut Connection,
    node_id: i32,
    key: &str,
) -> Result<Option<String>> {
    let mut values =
        describe_node_configs(conn, node_id, &[key], "reading a controller's config").await?;
    Ok(values.remove(key).flatten())
}

/// Several config values of node `node_id`, asked of that node itself (DescribeConfigs BROKER);
/// `what` names the read in errors.
pub async fn describe_node_configs(
    conn: &mut Connection,
    node_id: i32,
    keys: &[&str],
    what: &str,
) -> Result<BTreeMap<String, Option<String>>> {
    let request = DescribeConfigsRequest::default().with_resources(vec![
        DescribeConfigsResource::default()
            .with_resource_type(4)
            .with_resource_name(StrBytes::from_string(node_id.to_string()))
            .with_configuration_keys(Some(
                keys.iter()
                    .map(|k| StrBytes::from_string((*k).to_string()))
                    .collect(),
            )),
    ]);
    let (_, response) = conn.send(&request, what).await?;
    let result = response
        .results
        .first()
        .ok_or_else(|| KafkaError::Protocol {
            what: "DescribeConfigs".into(),
            address: conn.address().into(),
            message: "empty result".into(),
        })?;
    if result.error_code != 0 {
        return Err(KafkaError::Api {
            what: format!("DescribeConfigs via {}", conn.address()),
            node: Some(node_id),
            code: result.error_code,
            name: error_name(result.error_code),
            message: result
                .error_message
                .as_ref()
                .map(|m| m.as_str().to_string()),
        });
    }
    Ok(result
        .configs
        .iter()
        .map(|c| {
            (
                c.name.as_str().to_string(),
                c.value.as_ref().map(|v| v.as_str().to_string()),
            )
        })
        .collect())
}

/// IncrementalAlterConfigs on the cluster-wide broker default (`BROKER` resource with an
/// empty name), which librdkafka cannot address. Any broker forwards it to the controller.
/// With eligible leader replicas (KIP-966) this is where `min.insync.replicas` is set.
pub async fn alter_cluster_default(conn: &mut Connection, changes: &[ConfigChange]) -> Result<()> {
    let configs = changes
        .iter()
        .map(|c| {
            AlterableConfig::default()
                .with_name(StrBytes::from_string(c.name.clone()))
                .with_config_operation(match c.op {
                    AlterOp::Set => 0,
                    AlterOp::Delete => 1,
                    AlterOp::Append => 2,
                    AlterOp::Subtract => 3,
                })
                .with_value(c.value.clone().map(StrBytes::from_string))
        })
        .collect();
    let request = IncrementalAlterConfigsRequest::default().with_resources(vec![
        AlterConfigsResource::default()
            .with_resource_type(4)
            .with_resource_name(StrBytes::from_static_str(""))
            .with_configs(configs),
    ]);
    let (_, response) = conn
        .send(&request, "altering the cluster-wide broker default")
        .await?;
    for r in &response.responses {
        if r.error_code != 0 {
            return Err(api_err(
                "IncrementalAlterConfigs on the cluster-wide broker default",
                conn.address(),
                r.error_code,
                r.error_message.as_ref(),
            ));
        }
    }
    Ok(())
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
mod tests {
    use super::*;
    use kafka_protocol::messages::describe_quorum_response::{
        Listener, Node, PartitionData as RespPartition, ReplicaState, TopicData as RespTopic,
    };
    use kafka_protocol::messages::list_partition_reassignments_response::{
        OngoingPartitionReassignment, OngoingTopicReassignment,
    };

    fn state(id: i32, caught_up: i64) -> ReplicaState {
        ReplicaState::default()
            .with_replica_id(BrokerId(id))
            .with_log_end_offset(42)
            .with_last_fetch_timestamp(caught_up)
            .with_last_caught_up_timestamp(caught_up)
    }

    fn quorum_response(leader: i32) -> DescribeQuorumResponse {
        DescribeQuorumResponse::default()
            .with_topics(vec![
                RespTopic::default()
                    .with_topic_name(TopicName(StrBytes::from_static_str(METADATA_TOPIC)))
                    .with_partitions(vec![
                        RespPartition::default()
                            .with_leader_id(BrokerId(leader))
                            .with_leader_epoch(5)
                            .with_high_watermark(1234)
                            .with_current_voters(vec![state(1, 1000), state(2, -1), state(3, 990)])
                            .with_observers(vec![state(4, 1000)]),
                    ]),
            ])
            .with_nodes(vec![
                Node::default()
                    .with_node_id(BrokerId(1))
                    .with_listeners(vec![
                        Listener::default()
                            .with_name(StrBytes::from_static_str("CONTROLLER"))
                            .with_host(StrBytes::from_static_str("c1"))
                            .with_port(9093),
                    ]),
            ])
    }

    #[test]
    fn quorum_decoding() {
        let (q, listeners) = decode_quorum(&quorum_response(1), 2, "b:9092").unwrap();
        assert_eq!(q.leader_id, Some(1));
        assert_eq!(q.leader_epoch, 5);
        assert_eq!(
            q.voters.iter().map(|v| v.id).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        assert_eq!(q.voters[1].last_caught_up_timestamp, None);
        assert_eq!(q.voters[2].last_caught_up_timestamp, Some(990));
        assert_eq!(q.observers[0].id, 4);
        assert_eq!(listeners.get(&1), Some(&("c1".to_string(), 9093)));
        let (q, _) = decode_quorum(&quorum_response(-1), 2, "b:9092").unwrap();
        assert_eq!(q.leader_id, None);
    }

    #[test]
    fn topic_configs_decoding_drops_secrets_and_fails_on_a_topic_error() {
        use kafka_protocol::messages::describe_configs_response::{
            DescribeConfigsResourceResult, DescribeConfigsResult,
        };
        let entry = |name: &str, value: &str, source: i8, sensitive: bool| {
            DescribeConfigsResourceResult::default()
                .with_name(StrBytes::from_string(name.into()))
                .with_value(Some(StrBytes::from_string(value.into())))
                .with_config_source(source)
                .with_is_sensitive(sensitive)
        };
        let ok = DescribeConfigsResult::default()
            .with_resource_type(2)
            .with_resource_name(StrBytes::from_static_str("t"))
            .with_configs(vec![
                entry("leader.replication.throttled.replicas", "0:1", 1, false),
                entry("secret", "s3cr3t", 1, true),
            ]);
        let r = DescribeConfigsResponse::default().with_results(vec![ok.clone()]);
        let configs = decode_topic_configs(&r, "b:9092").unwrap();
        let t = &configs["t"];
        assert_eq!(t[0].value.as_deref(), Some("0:1"));
        assert_eq!(t[0].source, ConfigSource::DynamicTopic);
        assert_eq!(t[1].value, None);
        let failed = DescribeConfigsResult::default()
            .with_resource_type(2)
            .with_resource_name(StrBytes::from_static_str("gone"))
            .with_error_code(3);
        let r = DescribeConfigsResponse::default().with_results(vec![ok, failed]);
        let err = decode_topic_configs(&r, "b:9092").unwrap_err();
        assert!(err.to_string().contains("gone"), "{err}");
    }

    #[test]
    fn quorum_v0_cannot_serve_the_safety_check() {
        let err = decode_quorum(&quorum_response(1), 0, "b:9092").unwrap_err();
        assert!(err.to_string().contains("LastCaughtUpTimestamp"), "{err}");
    }

    #[test]
    fn quorum_errors_are_reported() {
        let r = quorum_response(1).with_error_code(41);
        let err = decode_quorum(&r, 1, "b:9092").unwrap_err();
        assert!(err.to_string().contains("NOT_CONTROLLER"), "{err}");
    }

    #[test]
    fn broker_listing_decoding() {
        use kafka_protocol::messages::describe_cluster_response::DescribeClusterBroker;
        let b = |id: i32, fenced: bool| {
            DescribeClusterBroker::default()
                .with_broker_id(BrokerId(id))
                .with_host(StrBytes::from_static_str("127.0.0.1"))
                .with_port(9000 + id)
                .with_rack(Some(StrBytes::from_static_str("r")))
                .with_is_fenced(fenced)
        };
        let r = DescribeClusterResponse::default()
            .with_cluster_id(StrBytes::from_static_str("abc"))
            .with_controller_id(BrokerId(2))
            .with_brokers(vec![b(3, false), b(1, true), b(2, false)]);
        let (cluster, fenced) = decode_brokers(&r, 2, "b:9092").unwrap();
        assert_eq!(
            cluster.nodes.iter().map(|n| n.id).collect::<Vec<_>>(),
            vec![2, 3]
        );
        assert_eq!(cluster.cluster_id.as_deref(), Some("abc"));
        assert_eq!(cluster.controller, Some(2));
        assert_eq!(cluster.nodes[0].rack.as_deref(), Some("r"));
        assert_eq!(cluster.nodes[0].port, 9002);
        assert_eq!(
            fenced.unwrap().iter().map(|n| n.id).collect::<Vec<_>>(),
            vec![1]
        );
        // Before v2 only unfenced brokers are listed, and fencing is not reported.
        let (_, fenced) = decode_brokers(&r, 1, "b:9092").unwrap();
        assert_eq!(fenced, None);
        let err = decode_brokers(&r.clone().with_error_code(31), 2, "b:9092").unwrap_err();
        assert!(err.to_string().contains("DescribeCluster"), "{err}");
    }

    #[test]
    fn reassignment_decoding() {
        let r = ListPartitionReassignmentsResponse::default().with_topics(vec![
            OngoingTopicReassignment::default()
                .with_name(TopicName(StrBytes::from_static_str("t")))
                .with_partitions(vec![
                    OngoingPartitionReassignment::default()
                        .with_partition_index(3)
                        .with_replicas(vec![BrokerId(4), BrokerId(5), BrokerId(6)])
                        .with_adding_replicas(vec![BrokerId(6)])
                        .with_removing_replicas(vec![BrokerId(4)]),
                ]),
        ]);
        let out = decode_reassignments(&r, "b:9092").unwrap();
        assert_eq!(
            out,
            vec![Reassignment {
                topic: "t".into(),
                partition: 3,
                replicas: vec![4, 5, 6],
                adding: vec![6],
                removing: vec![4],
            }]
        );
    }
}
