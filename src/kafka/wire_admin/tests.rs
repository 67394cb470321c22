//! Unit tests of the pure decoders: quorum, brokers, reassignments, topic configs.

use super::*;
use crate::engine::view::ConfigSource;
use kafka_protocol::messages::DescribeConfigsResponse;
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
