//! The answer to each request, built from the model as a real KRaft node would give it.
//!
//! Brokers answer Metadata, DescribeTopicPartitions, DescribeConfigs (their own config and
//! topics'), DescribeCluster (broker endpoint) and forward DescribeQuorum and
//! ListPartitionReassignments to the quorum leader (answered here directly). Controllers answer
//! DescribeConfigs (their own), DescribeCluster (controller endpoint), DescribeQuorum (the leader;
//! other controllers say NOT_LEADER_OR_FOLLOWER) and ListPartitionReassignments.

use kafka_protocol::messages::api_versions_response::{
    ApiVersion, FinalizedFeatureKey, SupportedFeatureKey,
};
use kafka_protocol::messages::describe_cluster_response::DescribeClusterBroker;
use kafka_protocol::messages::describe_configs_response::DescribeConfigsResult;
use kafka_protocol::messages::describe_quorum_response::{
    Listener, Node as QuorumNode, PartitionData, ReplicaState, TopicData,
};
use kafka_protocol::messages::describe_topic_partitions_response::{
    Cursor, DescribeTopicPartitionsResponsePartition, DescribeTopicPartitionsResponseTopic,
};
use kafka_protocol::messages::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kafka_protocol::messages::{
    ApiKey, ApiVersionsResponse, BrokerId, DescribeClusterRequest, DescribeClusterResponse,
    DescribeConfigsRequest, DescribeConfigsResponse, DescribeQuorumRequest, DescribeQuorumResponse,
    DescribeTopicPartitionsRequest, DescribeTopicPartitionsResponse,
    ListPartitionReassignmentsRequest, ListPartitionReassignmentsResponse, MetadataRequest,
    MetadataResponse, TopicName,
};
use kafka_protocol::protocol::{Message, StrBytes};

use super::configs::{Configs, node_entries, topic_entries};
use super::model::{Cluster, Node, Partition, Topic, View};

pub const NONE: i16 = 0;
pub const UNKNOWN_TOPIC_OR_PARTITION: i16 = 3;
pub const NOT_LEADER_OR_FOLLOWER: i16 = 6;
pub const UNSUPPORTED_VERSION: i16 = 35;
pub const INVALID_REQUEST: i16 = 42;
pub const UNKNOWN_TOPIC_ID: i16 = 100;
pub const MISMATCHED_ENDPOINT_TYPE: i16 = 114;
pub const UNSUPPORTED_ENDPOINT_TYPE: i16 = 115;

/// `authorized_operations` when the client did not ask for them.
const OPS_NOT_ASKED: i32 = i32::MIN;
/// Every operation allowed (no authorizer), as bits of Kafka's `AclOperation` codes: a cluster's
/// CREATE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE;
/// a topic's READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS.
const CLUSTER_OPS: i32 = 8096;
const TOPIC_OPS: i32 = 3576;

/// The APIs a node answers, with their versions (those of Kafka 4.x that the codec speaks).
#[must_use]
pub fn supported(controller: bool) -> Vec<(ApiKey, i16, i16)> {
    use kafka_protocol::messages as m;
    let r = |k: ApiKey, v: kafka_protocol::protocol::VersionRange| (k, v.min, v.max);
    let mut apis = vec![
        r(ApiKey::ApiVersions, m::ApiVersionsRequest::VERSIONS),
        r(ApiKey::DescribeConfigs, m::DescribeConfigsRequest::VERSIONS),
        r(ApiKey::DescribeCluster, m::DescribeClusterRequest::VERSIONS),
        r(ApiKey::DescribeQuorum, m::DescribeQuorumRequest::VERSIONS),
        r(
            ApiKey::ListPartitionReassignments,
            m::ListPartitionReassignmentsRequest::VERSIONS,
        ),
    ];
    if !controller {
        apis.push(r(ApiKey::Metadata, m::MetadataRequest::VERSIONS));
        apis.push(r(
            ApiKey::DescribeTopicPartitions,
            m::DescribeTopicPartitionsRequest::VERSIONS,
        ));
    }
    apis.sort_by_key(|(k, _, _)| *k as i16);
    apis
}

#[must_use]
pub fn api_versions(controller: bool, error_code: i16) -> ApiVersionsResponse {
    ApiVersionsResponse::default()
        .with_error_code(error_code)
        .with_api_keys(
            supported(controller)
                .into_iter()
                .map(|(k, min, max)| {
                    ApiVersion::default()
                        .with_api_key(k as i16)
                        .with_min_version(min)
                        .with_max_version(max)
                })
                .collect(),
        )
        .with_supported_features(vec![
            SupportedFeatureKey::default()
                .with_name(StrBytes::from_static_str("metadata.version"))
                .with_min_version(7)
                .with_max_version(27),
            SupportedFeatureKey::default()
                .with_name(StrBytes::from_static_str("kraft.version"))
                .with_min_version(0)
                .with_max_version(1),
        ])
        .with_finalized_features_epoch(1_000)
        .with_finalized_features(vec![
            FinalizedFeatureKey::default()
                .with_name(StrBytes::from_static_str("metadata.version"))
                .with_min_version_level(27)
                .with_max_version_level(27),
        ])
}

fn ids(v: &[i32]) -> Vec<BrokerId> {
    v.iter().map(|i| BrokerId(*i)).collect()
}

fn topic_name(t: &Topic) -> TopicName {
    TopicName(StrBytes::from_string(t.name.clone()))
}

/// The ISR and leader epoch `view` reports for `p`.
fn isr_of(p: &Partition, view: View) -> (&[i32], i32) {
    match view {
        View::Current => (&p.isr, p.leader_epoch),
        View::Stale if p.stale_isr != p.isr => (&p.stale_isr, p.leader_epoch - 1),
        View::Stale => (&p.stale_isr, p.leader_epoch),
    }
}

fn metadata_topic(t: &Topic, view: View, ops: bool) -> MetadataResponseTopic {
    MetadataResponseTopic::default()
        .with_name(Some(topic_name(t)))
        .with_topic_id(t.id)
        .with_partitions(
            t.partitions
                .iter()
                .map(|p| {
                    let (isr, epoch) = isr_of(p, view);
                    MetadataResponsePartition::default()
                        .with_partition_index(p.index)
                        .with_leader_id(BrokerId(p.leader))
                        .with_leader_epoch(epoch)
                        .with_replica_nodes(ids(&p.replicas))
                        .with_isr_nodes(ids(isr))
                })
                .collect(),
        )
        .with_topic_authorized_operations(if ops { TOPIC_OPS } else { OPS_NOT_ASKED })
}

/// Metadata as a broker with `view` answers it. In KRaft the "controller" of Metadata is a
/// live broker; here always the first.
#[must_use]
pub fn metadata(
    cluster: &Cluster,
    view: View,
    req: &MetadataRequest,
    version: i16,
) -> MetadataResponse {
    let ops = req.include_topic_authorized_operations;
    let topics = match &req.topics {
        // v0: an empty list means every topic; v1+: null does.
        Some(list) if !(version == 0 && list.is_empty()) => list
            .iter()
            .map(|rt| {
                // A topic id (v10+) wins over the name, as in Kafka.
                let by_id = !rt.topic_id.is_nil();
                let found = if by_id {
                    cluster.topic_by_id(&rt.topic_id)
                } else {
                    rt.name.as_ref().and_then(|n| cluster.topic(n.0.as_str()))
                };
                match found {
                    Some(t) => metadata_topic(t, view, ops),
                    None if by_id => MetadataResponseTopic::default()
                        .with_error_code(UNKNOWN_TOPIC_ID)
                        .with_name(None)
                        .with_topic_id(rt.topic_id)
                        .with_topic_authorized_operations(OPS_NOT_ASKED),
                    None => MetadataResponseTopic::default()
                        .with_error_code(UNKNOWN_TOPIC_OR_PARTITION)
                        .with_name(rt.name.clone())
                        .with_topic_authorized_operations(OPS_NOT_ASKED),
                }
            })
            .collect(),
        _ => cluster
            .topics
            .iter()
            .map(|t| metadata_topic(t, view, ops))
            .collect(),
    };
    MetadataResponse::default()
        .with_brokers(
            cluster
                .brokers
                .iter()
                .map(|b| {
                    MetadataResponseBroker::default()
                        .with_node_id(BrokerId(b.id))
                        .with_host(StrBytes::from_string(b.host.clone()))
                        .with_port(i32::from(b.port))
                        .with_rack(b.rack.clone().map(StrBytes::from_string))
                })
                .collect(),
        )
        .with_cluster_id(Some(StrBytes::from_string(cluster.cluster_id.clone())))
        .with_controller_id(BrokerId(cluster.brokers[0].id))
        .with_topics(topics)
        .with_cluster_authorized_operations(if req.include_cluster_authorized_operations {
            CLUSTER_OPS
        } else {
            OPS_NOT_ASKED
        })
}

/// DescribeTopicPartitions (KIP-966): topics in name order (all when none is named), at most
/// `response_partition_limit` partitions, resumed at `cursor`.
#[must_use]
pub fn describe_topic_partitions(
    cluster: &Cluster,
    view: View,
    req: &DescribeTopicPartitionsRequest,
) -> DescribeTopicPartitionsResponse {
    let mut names: Vec<&str> = if req.topics.is_empty() {
        cluster.topics.iter().map(|t| t.name.as_str()).collect()
    } else {
        req.topics.iter().map(|t| t.name.0.as_str()).collect()
    };
    names.sort_unstable();
    names.dedup();
    let limit = usize::try_from(req.response_partition_limit.max(1)).unwrap_or(1);
    let (start_topic, start_partition) = match &req.cursor {
        Some(c) => (Some(c.topic_name.0.as_str()), c.partition_index),
        None => (None, 0),
    };
    let mut out = Vec::new();
    let mut budget = limit;
    let mut next = None;
    for name in names {
        if start_topic.is_some_and(|s| name < s) {
            continue;
        }
        let first = if start_topic == Some(name) {
            start_partition
        } else {
            0
        };
        let Some(t) = cluster.topic(name) else {
            out.push(
                DescribeTopicPartitionsResponseTopic::default()
                    .with_error_code(UNKNOWN_TOPIC_OR_PARTITION)
                    .with_name(Some(TopicName(StrBytes::from_string(name.to_string()))))
                    .with_topic_authorized_operations(OPS_NOT_ASKED),
            );
            continue;
        };
        if budget == 0 {
            next = Some(
                Cursor::default()
                    .with_topic_name(topic_name(t))
                    .with_partition_index(first),
            );
            break;
        }
        let mut partitions = Vec::new();
        for p in t.partitions.iter().filter(|p| p.index >= first) {
            if budget == 0 {
                next = Some(
                    Cursor::default()
                        .with_topic_name(topic_name(t))
                        .with_partition_index(p.index),
                );
                break;
            }
            budget -= 1;
            let (isr, epoch) = isr_of(p, view);
            partitions.push(
                DescribeTopicPartitionsResponsePartition::default()
                    .with_partition_index(p.index)
                    .with_leader_id(BrokerId(p.leader))
                    .with_leader_epoch(epoch)
                    .with_replica_nodes(ids(&p.replicas))
                    .with_isr_nodes(ids(isr))
                    .with_eligible_leader_replicas(Some(Vec::new()))
                    .with_last_known_elr(Some(Vec::new())),
            );
        }
        out.push(
            DescribeTopicPartitionsResponseTopic::default()
                .with_name(Some(topic_name(t)))
                .with_topic_id(t.id)
                .with_partitions(partitions)
                .with_topic_authorized_operations(TOPIC_OPS),
        );
        if next.is_some() {
            break;
        }
    }
    DescribeTopicPartitionsResponse::default()
        .with_topics(out)
        .with_next_cursor(next)
}

/// DescribeConfigs answered by `node`: its own BROKER resource, the cluster default (`""`,
/// no dynamic defaults here) and, on brokers, TOPIC resources.
#[must_use]
pub fn describe_configs(
    configs: &Configs,
    cluster: &Cluster,
    node: &Node,
    req: &DescribeConfigsRequest,
    version: i16,
) -> DescribeConfigsResponse {
    let results = req
        .resources
        .iter()
        .map(|r| {
            let base = DescribeConfigsResult::default()
                .with_resource_type(r.resource_type)
                .with_resource_name(r.resource_name.clone());
            let keys = r.configuration_keys.as_deref();
            let name = r.resource_name.as_str();
            let error = |code: i16, message: String| {
                base.clone()
                    .with_error_code(code)
                    .with_error_message(Some(StrBytes::from_string(message)))
            };
            match r.resource_type {
                2 if node.controller => error(
                    INVALID_REQUEST,
                    "topic configs are served by brokers".into(),
                ),
                2 => match cluster.topic(name) {
                    Some(t) => base.clone().with_configs(topic_entries(
                        configs,
                        t,
                        keys,
                        req.include_synonyms,
                        version,
                    )),
                    None => error(
                        UNKNOWN_TOPIC_OR_PARTITION,
                        format!("Topic {name} does not exist."),
                    ),
                },
                4 if name.is_empty() => base.clone(),
                4 if name == node.id.to_string() => base.clone().with_configs(node_entries(
                    configs,
                    cluster,
                    node,
                    keys,
                    req.include_synonyms,
                    version,
                )),
                4 => error(
                    INVALID_REQUEST,
                    format!(
                        "Unexpected broker id, expected {} or empty string, but received {name}",
                        node.id
                    ),
                ),
                other => error(
                    INVALID_REQUEST,
                    format!("resource type {other} is not served by the synthetic cluster"),
                ),
            }
        })
        .collect();
    DescribeConfigsResponse::default().with_results(results)
}

/// DescribeCluster: brokers list the brokers (endpoint type 1), controllers the controllers
/// with the quorum leader as controller (type 2).
#[must_use]
pub fn describe_cluster(
    cluster: &Cluster,
    node: &Node,
    req: &DescribeClusterRequest,
) -> DescribeClusterResponse {
    let base = DescribeClusterResponse::default()
        .with_endpoint_type(req.endpoint_type)
        .with_cluster_id(StrBytes::from_string(cluster.cluster_id.clone()))
        .with_cluster_authorized_operations(if req.include_cluster_authorized_operations {
            CLUSTER_OPS
        } else {
            OPS_NOT_ASKED
        });
    let wanted = if node.controller { 2 } else { 1 };
    if req.endpoint_type != 1 && req.endpoint_type != 2 {
        return base
            .with_error_code(UNSUPPORTED_ENDPOINT_TYPE)
            .with_error_message(Some(StrBytes::from_string(format!(
                "unsupported endpoint type {}",
                req.endpoint_type
            ))));
    }
    if req.endpoint_type != wanted {
        return base
            .with_error_code(MISMATCHED_ENDPOINT_TYPE)
            .with_error_message(Some(StrBytes::from_static_str(
                "the request was sent to an endpoint of another type",
            )));
    }
    let (nodes, controller_id) = if node.controller {
        (&cluster.controllers, cluster.quorum_leader)
    } else {
        (&cluster.brokers, cluster.brokers[0].id)
    };
    base.with_controller_id(BrokerId(controller_id))
        .with_brokers(
            nodes
                .iter()
                .map(|n| {
                    DescribeClusterBroker::default()
                        .with_broker_id(BrokerId(n.id))
                        .with_host(StrBytes::from_string(n.host.clone()))
                        .with_port(i32::from(n.port))
                        .with_rack(n.rack.clone().map(StrBytes::from_string))
                })
                .collect(),
        )
}

/// DescribeQuorum of `__cluster_metadata-0` at `now_ms` (the leader's clock). Voters are
/// caught up; observers (the brokers) too unless lagging: those are `quorum_lag` records
/// behind and last caught up 30 s ago. A `crashed` broker is at the high watermark with its
/// last fetch (the map's value) as both timestamps.
#[must_use]
pub fn describe_quorum(
    cluster: &Cluster,
    node: &Node,
    req: &DescribeQuorumRequest,
    now_ms: i64,
    crashed: &std::collections::BTreeMap<i32, i64>,
) -> DescribeQuorumResponse {
    let hw = cluster.high_watermark;
    let state = |id: i32, leo: i64, fetch: i64, caught_up: i64| {
        ReplicaState::default()
            .with_replica_id(BrokerId(id))
            .with_log_end_offset(leo)
            .with_last_fetch_timestamp(fetch)
            .with_last_caught_up_timestamp(caught_up)
    };
    let topics = req
        .topics
        .iter()
        .map(|t| {
            let partitions = t
                .partitions
                .iter()
                .map(|p| {
                    let base = PartitionData::default().with_partition_index(p.partition_index);
                    if t.topic_name.0.as_str() != "__cluster_metadata" || p.partition_index != 0 {
                        return base.with_error_code(UNKNOWN_TOPIC_OR_PARTITION);
                    }
                    if node.controller && node.id != cluster.quorum_leader {
                        return base
                            .with_error_code(NOT_LEADER_OR_FOLLOWER)
                            .with_leader_id(BrokerId(cluster.quorum_leader))
                            .with_leader_epoch(cluster.quorum_epoch);
                    }
                    base.with_leader_id(BrokerId(cluster.quorum_leader))
                        .with_leader_epoch(cluster.quorum_epoch)
                        .with_high_watermark(hw)
                        .with_current_voters(
                            cluster
                                .controllers
                                .iter()
                                .map(|c| {
                                    // The leader reports itself as fetched and caught up now.
                                    if c.id == cluster.quorum_leader {
                                        state(c.id, hw, now_ms, now_ms)
                                    } else {
                                        state(c.id, hw, now_ms - 40, now_ms - 40)
                                    }
                                })
                                .collect(),
                        )
                        .with_observers(
                            cluster
                                .brokers
                                .iter()
                                .map(|b| {
                                    if let Some(&at) = crashed.get(&b.id) {
                                        state(b.id, hw, at, at)
                                    } else if cluster.lagging.contains(&b.id) {
                                        state(
                                            b.id,
                                            hw - cluster.quorum_lag,
                                            now_ms - 60,
                                            now_ms - 30_000,
                                        )
                                    } else {
                                        state(b.id, hw, now_ms - 60, now_ms - 60)
                                    }
                                })
                                .collect(),
                        )
                })
                .collect();
            TopicData::default()
                .with_topic_name(t.topic_name.clone())
                .with_partitions(partitions)
        })
        .collect();
    DescribeQuorumResponse::default()
        .with_topics(topics)
        .with_nodes(
            cluster
                .controllers
                .iter()
                .map(|c| {
                    QuorumNode::default()
                        .with_node_id(BrokerId(c.id))
                        .with_listeners(vec![
                            Listener::default()
                                .with_name(StrBytes::from_static_str("CONTROLLER"))
                                .with_host(StrBytes::from_string(c.host.clone()))
                                .with_port(c.port),
                        ])
                })
                .collect(),
        )
}

/// No reassignment is ever in progress.
#[must_use]
pub fn list_reassignments(
    _req: &ListPartitionReassignmentsRequest,
) -> ListPartitionReassignmentsResponse {
    ListPartitionReassignmentsResponse::default()
}
