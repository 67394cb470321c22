//! The synthetic Kafka (`tests/support/synthetic_kafka/`) speaks the real protocol: librdkafka
//! (rdkafka's metadata and admin clients), kafkaops' own observation and `kafkaops roll
//! --dry-run` work against it and see exactly the placement it serves; lagging brokers answer
//! from the stale view and show up as lagging in DescribeQuorum; every request kafkaops makes
//! is one it answers.
//!
//! Run with `cargo test --test wire synthetic_kafka::`. No real cluster: the synthetic one runs on
//! its own threads inside the test process.

use crate::support::{bin, synthetic_kafka};

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use bytes::{Buf, BufMut, Bytes, BytesMut};
use kafka_protocol::messages::describe_topic_partitions_request::{Cursor, TopicRequest};
use kafka_protocol::messages::metadata_request::MetadataRequestTopic;
use kafka_protocol::messages::{
    ApiKey, ApiVersionsRequest, ApiVersionsResponse, DescribeClusterRequest,
    DescribeClusterResponse, DescribeTopicPartitionsRequest, DescribeTopicPartitionsResponse,
    MetadataRequest, MetadataResponse, RequestHeader, ResponseHeader, TopicName,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, StrBytes};
use kafkaops::kafka::client::{ClusterObserver, KafkaAdmin, KafkaClient};
use kafkaops::kafka::config::ConnectionConfig;
use kafkaops::kafka::observation::{FetchTimeoutSource, KafkaObservation, RolesSource};
use rdkafka::admin::{AdminClient, AdminOptions, ResourceSpecifier};
use rdkafka::client::DefaultClientContext;
use rdkafka::consumer::{BaseConsumer, Consumer};
use synthetic_kafka::{Cluster, Spec, SyntheticKafka, View};

const TIMEOUT: Duration = Duration::from_secs(30);

/// 5 brokers in 3 racks, 3 controllers, 50 partitions in topics of 10, RF 3 rack-aware;
/// brokers 2 and 5 (the last to be asked) lag and 4 partitions are out of sync.
fn small() -> Spec {
    let mut spec = Spec::new(5, 50);
    spec.partitions_per_topic = 10;
    spec.seed = 7;
    spec.lagging = BTreeSet::from([2, 5]);
    spec.out_of_sync = 4;
    spec
}

/// (topic, partition) -> (replicas, leader, ISR) as `view` serves it.
type Placement = BTreeMap<(String, i32), (Vec<i32>, i32, Vec<i32>)>;

fn model_placement(c: &Cluster, view: View) -> Placement {
    c.topics
        .iter()
        .flat_map(|t| {
            t.partitions.iter().map(move |p| {
                let isr = match view {
                    View::Current => p.isr.clone(),
                    View::Stale => p.stale_isr.clone(),
                };
                (
                    (t.name.clone(), p.index),
                    (p.replicas.clone(), p.leader, isr),
                )
            })
        })
        .collect()
}

fn observed_placement(o: &KafkaObservation) -> Placement {
    o.topics
        .iter()
        .flat_map(|t| {
            t.partitions.iter().map(move |p| {
                (
                    (t.name.clone(), p.partition),
                    (p.replicas.clone(), p.leader.unwrap_or(-1), p.isr.clone()),
                )
            })
        })
        .collect()
}

/// How long [`settled`] waits at most: librdkafka connects to the brokers it learns of in the
/// background, and on a loaded machine (load 30 on 2 cores) its requests and the synthetic
/// cluster's answers take seconds; the wait ends as soon as the condition holds.
const SETTLE_DEADLINE: Duration = Duration::from_secs(120);

/// The counters once every request the synthetic cluster received is answered (and, with
/// `quiet`, no new request came for 300 ms), polled until [`SETTLE_DEADLINE`]; then the last
/// counters, which the caller's assertions judge (a request still unanswered then fails them).
async fn settled(kafka: &SyntheticKafka, quiet: bool) -> synthetic_kafka::Stats {
    let deadline = std::time::Instant::now() + SETTLE_DEADLINE;
    let pause = Duration::from_millis(if quiet { 300 } else { 50 });
    let mut last = kafka.stats();
    loop {
        tokio::time::sleep(pause).await;
        let now = kafka.stats();
        let done = now.answered == now.requests && (!quiet || now.requests == last.requests);
        if done || std::time::Instant::now() > deadline {
            return now;
        }
        last = now;
    }
}

fn address(c: &Cluster, id: i32) -> String {
    let n = c.node(id).unwrap();
    format!("{}:{}", n.host, n.port)
}

#[test]
fn the_spec_makes_a_real_difference_between_the_views() {
    let kafka = SyntheticKafka::start(&small()).unwrap();
    let c = kafka.cluster();
    assert_eq!(c.partition_count(), 50);
    assert_eq!(c.topics.len(), 5);
    let differing: Vec<_> = c
        .topics
        .iter()
        .flat_map(|t| &t.partitions)
        .filter(|p| p.isr != p.stale_isr)
        .collect();
    assert_eq!(differing.len(), 4);
    for p in differing {
        // The stale view still lists the replica that left; the current one does not.
        assert_eq!(p.stale_isr, p.replicas);
        assert_eq!(p.isr, p.replicas[..2]);
    }
    // Rack-aware: one replica per rack (rack of broker i = (i - 1) % 3).
    for p in c.topics.iter().flat_map(|t| &t.partitions) {
        let racks: BTreeSet<i32> = p.replicas.iter().map(|b| (b - 1) % 3).collect();
        assert_eq!(racks.len(), 3, "{p:?}");
    }
}

#[test]
fn librdkafka_metadata_and_configs_match_what_is_served() {
    let kafka = SyntheticKafka::start(&small()).unwrap();
    let c = kafka.cluster();
    // Bootstrapped with one broker, librdkafka usually asks that one (reported as -1 while
    // it does not know its id yet) but may ask another it has learnt of: the answer must be the
    // view of whoever answered. Both views must have been seen through librdkafka.
    let mut views_seen = BTreeSet::new();
    for attempt in 0..20 {
        let bootstrap = if attempt % 2 == 0 { 1 } else { 2 };
        let consumer: BaseConsumer = rdkafka::ClientConfig::new()
            .set("bootstrap.servers", address(c, bootstrap))
            .create()
            .unwrap();
        let md = consumer.fetch_metadata(None, TIMEOUT).unwrap();
        let answered = match md.orig_broker_id() {
            -1 => bootstrap,
            id => id,
        };
        let view = c.view_of(answered);
        let brokers: Vec<(i32, u16)> = md
            .brokers()
            .iter()
            .map(|b| (b.id(), u16::try_from(b.port()).unwrap()))
            .collect();
        let expected: Vec<(i32, u16)> = c.brokers.iter().map(|b| (b.id, b.port)).collect();
        assert_eq!(brokers, expected);
        let seen: Placement = md
            .topics()
            .iter()
            .flat_map(|t| {
                t.partitions().iter().map(move |p| {
                    (
                        (t.name().to_string(), p.id()),
                        (p.replicas().to_vec(), p.leader(), p.isr().to_vec()),
                    )
                })
            })
            .collect();
        assert_eq!(
            seen,
            model_placement(c, view),
            "as broker {answered} serves it"
        );
        views_seen.insert(format!("{view:?}"));
        if views_seen.len() == 2 {
            break;
        }
    }
    assert_eq!(views_seen.len(), 2, "{views_seen:?}");
    // DescribeConfigs through librdkafka's admin client: a broker's own config and topics'.
    let admin: AdminClient<DefaultClientContext> = rdkafka::ClientConfig::new()
        .set("bootstrap.servers", kafka.bootstrap_servers())
        .create()
        .unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let options = AdminOptions::new().request_timeout(Some(TIMEOUT));
    let topic = c.topics[0].name.clone();
    let results = runtime
        .block_on(admin.describe_configs(
            &[
                ResourceSpecifier::Broker(3),
                ResourceSpecifier::Topic(&topic),
            ],
            &options,
        ))
        .unwrap();
    let broker = results[0].as_ref().unwrap();
    assert_eq!(broker.get("node.id").unwrap().value.as_deref(), Some("3"));
    assert_eq!(
        broker.get("broker.rack").unwrap().value.as_deref(),
        Some("c")
    );
    assert_eq!(
        broker.get("process.roles").unwrap().value.as_deref(),
        Some("broker")
    );
    assert!(broker.entries.len() > 300, "a real broker's whole config");
    let listeners = broker.get("listeners").unwrap().value.clone().unwrap();
    assert_eq!(listeners, format!("PLAINTEXT://{}", address(c, 3)));
    let t = results[1].as_ref().unwrap();
    let min_isr = t.get("min.insync.replicas").unwrap();
    assert_eq!(min_isr.value.as_deref(), Some("2"));
    assert_eq!(min_isr.source, rdkafka::admin::ConfigSource::DynamicTopic);
    assert_eq!(kafka.stats().by_api.get("Unsupported"), None);
}

/// Sends one request on a fresh connection and decodes the answer (`None`: the node closed
/// the connection, as for an API it does not serve).
fn raw<Req: Encodable + HeaderVersion, Resp: Decodable + HeaderVersion>(
    address: &str,
    api: ApiKey,
    version: i16,
    request: &Req,
) -> Option<(i16, Resp)> {
    let mut s = TcpStream::connect(address).unwrap();
    s.set_read_timeout(Some(TIMEOUT)).unwrap();
    let mut body = BytesMut::new();
    RequestHeader::default()
        .with_request_api_key(api as i16)
        .with_request_api_version(version)
        .with_correlation_id(77)
        .with_client_id(Some(StrBytes::from_static_str("test")))
        .encode(&mut body, Req::header_version(version))
        .unwrap();
    // A version the codec does not know (ApiVersions v9: a newer client) goes with the body of
    // the newest one it knows; the server must not need to read it.
    let body_version = if api == ApiKey::ApiVersions {
        version.min(4)
    } else {
        version
    };
    request.encode(&mut body, body_version).unwrap();
    let mut frame = BytesMut::new();
    frame.put_u32(u32::try_from(body.len()).unwrap());
    frame.extend_from_slice(&body);
    s.write_all(&frame).unwrap();
    let mut len = [0u8; 4];
    if s.read_exact(&mut len).is_err() {
        return None;
    }
    let mut buf = vec![0u8; u32::from_be_bytes(len) as usize];
    s.read_exact(&mut buf).unwrap();
    let mut buf = Bytes::from(buf);
    // An ApiVersions answer to an unsupported version comes in v0.
    let answer_version = if api == ApiKey::ApiVersions && version > 4 {
        0
    } else {
        version
    };
    let header = ResponseHeader::decode(&mut buf, Resp::header_version(answer_version)).unwrap();
    assert_eq!(header.correlation_id, 77);
    let resp = Resp::decode(&mut buf, answer_version).unwrap();
    assert!(!buf.has_remaining(), "trailing bytes");
    Some((answer_version, resp))
}

#[test]
fn wire_details_a_client_relies_on() {
    let kafka = SyntheticKafka::start(&small()).unwrap();
    let c = kafka.cluster();
    let broker = address(c, 1);
    let controller = address(c, c.quorum_leader);

    // ApiVersions: brokers offer Metadata, controllers do not; a too-new version is answered
    // in v0 with UNSUPPORTED_VERSION.
    let keys = |addr: &str, v: i16| {
        let (_, r): (i16, ApiVersionsResponse) =
            raw(addr, ApiKey::ApiVersions, v, &ApiVersionsRequest::default()).unwrap();
        (
            r.error_code,
            r.api_keys.iter().map(|k| k.api_key).collect::<Vec<_>>(),
        )
    };
    assert!(keys(&broker, 3).1.contains(&(ApiKey::Metadata as i16)));
    assert!(!keys(&controller, 3).1.contains(&(ApiKey::Metadata as i16)));
    let (error, offered) = keys(&broker, 9);
    assert_eq!(error, 35);
    assert!(offered.contains(&(ApiKey::ApiVersions as i16)));
    // A controller closes the connection on Metadata (it does not serve it); counted.
    let none: Option<(i16, MetadataResponse)> = raw(
        &controller,
        ApiKey::Metadata,
        12,
        &MetadataRequest::default(),
    );
    assert!(none.is_none());
    assert_eq!(kafka.stats().by_api["Unsupported"].requests, 1);

    // Metadata by name and by topic id, and an unknown topic.
    let t = &c.topics[1];
    let req = MetadataRequest::default().with_topics(Some(vec![
        MetadataRequestTopic::default()
            .with_name(Some(TopicName(StrBytes::from_string(t.name.clone())))),
        MetadataRequestTopic::default()
            .with_name(None)
            .with_topic_id(c.topics[2].id),
        MetadataRequestTopic::default()
            .with_name(Some(TopicName(StrBytes::from_static_str("no-such-topic")))),
    ]));
    let (_, r): (i16, MetadataResponse) = raw(&broker, ApiKey::Metadata, 12, &req).unwrap();
    assert_eq!(r.topics.len(), 3);
    assert_eq!(r.topics[0].partitions.len(), t.partitions.len());
    assert_eq!(
        r.topics[1].name.as_ref().unwrap().0.as_str(),
        c.topics[2].name
    );
    assert_eq!(r.topics[2].error_code, 3);

    // DescribeTopicPartitions pages through every partition exactly once, in the broker's
    // view (the lagging broker reports the stale ISR).
    for (id, view) in [(1, View::Current), (2, View::Stale)] {
        let mut seen: Placement = BTreeMap::new();
        let mut cursor = None;
        let mut pages = 0;
        loop {
            let req = DescribeTopicPartitionsRequest::default()
                .with_topics(
                    c.topics
                        .iter()
                        .rev()
                        .map(|t| {
                            TopicRequest::default()
                                .with_name(TopicName(StrBytes::from_string(t.name.clone())))
                        })
                        .collect(),
                )
                .with_response_partition_limit(7)
                .with_cursor(cursor.take());
            let (_, r): (i16, DescribeTopicPartitionsResponse) =
                raw(&address(c, id), ApiKey::DescribeTopicPartitions, 0, &req).unwrap();
            pages += 1;
            for t in &r.topics {
                for p in &t.partitions {
                    let key = (
                        t.name.as_ref().unwrap().0.as_str().to_string(),
                        p.partition_index,
                    );
                    let value = (
                        p.replica_nodes.iter().map(|b| b.0).collect(),
                        p.leader_id.0,
                        p.isr_nodes.iter().map(|b| b.0).collect(),
                    );
                    assert!(seen.insert(key, value).is_none(), "a partition twice");
                }
            }
            match r.next_cursor {
                Some(next) => {
                    cursor = Some(
                        Cursor::default()
                            .with_topic_name(next.topic_name)
                            .with_partition_index(next.partition_index),
                    );
                }
                None => break,
            }
        }
        assert_eq!(pages, 50usize.div_ceil(7));
        assert_eq!(seen, model_placement(c, view), "broker {id}");
    }

    // DescribeCluster: a broker lists brokers and refuses the controller endpoint type; a
    // controller lists controllers with the quorum leader as controller.
    let (_, r): (i16, DescribeClusterResponse) = raw(
        &broker,
        ApiKey::DescribeCluster,
        2,
        &DescribeClusterRequest::default()
            .with_endpoint_type(1)
            .with_include_fenced_brokers(true),
    )
    .unwrap();
    assert_eq!(r.brokers.len(), 5);
    let (_, r): (i16, DescribeClusterResponse) = raw(
        &broker,
        ApiKey::DescribeCluster,
        1,
        &DescribeClusterRequest::default().with_endpoint_type(2),
    )
    .unwrap();
    assert_eq!(r.error_code, 114);
    let (_, r): (i16, DescribeClusterResponse) = raw(
        &controller,
        ApiKey::DescribeCluster,
        1,
        &DescribeClusterRequest::default().with_endpoint_type(2),
    )
    .unwrap();
    assert_eq!(
        (r.error_code, r.controller_id.0, r.brokers.len()),
        (0, c.quorum_leader, 3)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn kafkaops_observes_the_served_placement_and_the_lagging_broker() {
    let kafka = SyntheticKafka::start(&small()).unwrap();
    let c = kafka.cluster().clone();
    let mut config = ConnectionConfig::new(kafka.bootstrap_servers());
    config.request_timeout = TIMEOUT;
    let client = KafkaClient::connect(config).await.unwrap();
    let o = client.observe().await.unwrap();

    // Exactly the served placement; the ISR is the current one although brokers 2 and 5 report
    // the stale one (the observation must not let them put a replica back in sync).
    assert_eq!(observed_placement(&o), model_placement(&c, View::Current));
    assert_ne!(
        model_placement(&c, View::Current),
        model_placement(&c, View::Stale)
    );
    assert_eq!(o.cluster_id.as_deref(), Some(c.cluster_id.as_str()));
    for t in &o.topics {
        assert_eq!((t.min_insync_replicas, t.configs_read), (Some(2), true));
    }
    let brokers: Vec<i32> = o
        .nodes
        .iter()
        .filter(|n| n.roles.broker)
        .map(|n| n.id)
        .collect();
    assert_eq!(brokers, vec![1, 2, 3, 4, 5]);
    for n in o.nodes.iter().filter(|n| n.roles.broker) {
        let node = c.node(n.id).unwrap();
        assert_eq!(
            (n.port, n.rack.clone()),
            (Some(node.port), node.rack.clone())
        );
        assert_eq!(n.roles_source, RolesSource::ProcessRoles);
    }
    // The quorum: the leader, 3 voters, 5 observers of which brokers 2 and 5 lag.
    let q = &o.quorum;
    assert_eq!(q.leader_id, Some(c.quorum_leader));
    assert_eq!(q.voters.len(), 3);
    assert_eq!(q.observers.len(), 5);
    for obs in &q.observers {
        let lagging = obs.log_end_offset < q.high_watermark;
        assert_eq!(lagging, c.lagging.contains(&obs.id), "{obs:?}");
    }
    let lagging = q.observers.iter().find(|r| r.id == 2).unwrap();
    let current = q.observers.iter().find(|r| r.id == 1).unwrap();
    assert!(
        current.last_caught_up_timestamp.unwrap() - lagging.last_caught_up_timestamp.unwrap()
            > q.fetch_timeout_ms
    );
    assert_eq!(q.fetch_timeout_ms, 2000);

    // The admin calls a roll makes between observations.
    let described = client
        .describe_topics(vec![c.topics[0].name.clone()])
        .await
        .unwrap();
    assert_eq!(described[0].partitions.len(), 10);

    // librdkafka's own background requests (connecting to the brokers it just learnt of) may
    // still be in flight: wait until every request received is answered.
    let stats = settled(&kafka, false).await;
    assert_eq!(stats.by_api.get("Unsupported"), None, "{stats:?}");
    for api in [
        "ApiVersions",
        "Metadata",
        "DescribeConfigs",
        "DescribeQuorum",
    ] {
        assert!(stats.by_api[api].requests > 0, "{api}: {stats:?}");
    }
    let per_node: u64 = stats.by_node.values().map(|n| n.requests).sum();
    assert_eq!(per_node, stats.requests);
    assert_eq!(
        stats.answered, stats.requests,
        "every request answered: {stats:?}"
    );
    let per_api: u64 = stats.by_api.values().map(|a| a.bytes_out).sum();
    assert_eq!(per_api, stats.bytes_out);
    let _ = kafka.take_stats();
    assert_eq!(kafka.stats().requests, 0);

    // With bootstrap.controllers the roles and the fetch timeout come from the controllers.
    let mut config = ConnectionConfig::new(kafka.bootstrap_servers());
    config.bootstrap_controllers = Some(kafka.bootstrap_controllers());
    config.request_timeout = TIMEOUT;
    let client = KafkaClient::connect(config).await.unwrap();
    let o = client.observe().await.unwrap();
    assert_eq!(
        o.quorum.fetch_timeout_source,
        FetchTimeoutSource::ActiveController(c.quorum_leader)
    );
    for ctl in &c.controllers {
        let n = o.node(ctl.id).unwrap();
        assert!(n.roles.controller && !n.roles.broker);
        assert_eq!(n.roles_source, RolesSource::ProcessRoles);
        assert_eq!(n.port, Some(ctl.port));
    }
    assert_eq!(observed_placement(&o), model_placement(&c, View::Current));
    assert_eq!(kafka.stats().by_api.get("Unsupported"), None);
}

#[test]
fn roll_dry_run_refuses_what_the_current_isr_forbids_despite_the_lagging_broker() {
    let kafka = SyntheticKafka::start(&small()).unwrap();
    let c = kafka.cluster();
    // A broker in the ISR of an out-of-sync partition (ISR 2 = min.insync.replicas 2): the
    // stale view (brokers 2 and 5) still lists 3 in sync, which would allow the restart.
    let blocked_by = c
        .topics
        .iter()
        .flat_map(|t| t.partitions.iter().map(move |p| (t, p)))
        .find(|(_, p)| p.isr != p.stale_isr)
        .unwrap();
    let blocked = blocked_by.1.isr[0];
    let state = tempfile::tempdir().unwrap();
    let run = |node: i32| {
        bin::run(
            bin::kafkaops()
                .args([
                    "--bootstrap-servers",
                    &kafka.bootstrap_servers(),
                    "--output",
                    "json",
                ])
                .args([
                    "roll",
                    "--dry-run",
                    "--nodes",
                    &node.to_string(),
                    "--state-dir",
                ])
                .arg(state.path()),
        )
    };
    let out = run(blocked);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.stdout.clone();
    let plan = out.json();
    assert!(out.planned_roll_nodes().is_empty(), "{text}");
    let step = &plan["plan"]["steps"][0];
    assert_eq!(step["action"], "blocked", "{text}");
    let reason = step["reason"].as_str().unwrap();
    let (topic, partition) = blocked_by;
    assert!(
        reason.contains(&format!(
            "{}-{} below min.insync.replicas",
            topic.name, partition.index
        )),
        "blocked for another reason: {text}"
    );
    // A broker in no out-of-sync partition's ISR is planned.
    let in_reduced_isr: BTreeSet<i32> = c
        .topics
        .iter()
        .flat_map(|t| &t.partitions)
        .filter(|p| p.isr != p.stale_isr)
        .flat_map(|p| p.isr.clone())
        .collect();
    let free = (1..=5).find(|b| !in_reduced_isr.contains(b)).unwrap();
    let out = run(free);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.planned_roll_nodes(),
        vec![i64::from(free)],
        "{}",
        out.stdout
    );
    assert_eq!(kafka.stats().by_api.get("Unsupported"), None);
}

/// More than 32 brokers in racks: each node advertises its own 15-character loopback address
/// (librdkafka's DescribeCluster fails on that many racked brokers advertising `127.0.0.1`,
/// see `node_host`).
#[tokio::test(flavor = "multi_thread")]
async fn kafkaops_observes_forty_brokers_in_racks() {
    let kafka = SyntheticKafka::start(&Spec::new(40, 400)).unwrap();
    let c = kafka.cluster().clone();
    let hosts: BTreeSet<&str> = c.brokers.iter().map(|b| b.host.as_str()).collect();
    assert_eq!(hosts.len(), 40);
    let first_three = kafka
        .bootstrap_servers()
        .split(',')
        .take(3)
        .collect::<Vec<_>>()
        .join(",");
    let client = KafkaClient::connect(ConnectionConfig::new(first_three))
        .await
        .unwrap();
    let o = client.observe().await.unwrap();
    assert_eq!(observed_placement(&o), model_placement(&c, View::Current));
    assert_eq!(o.nodes.iter().filter(|n| n.roles.broker).count(), 40);
    assert_eq!(kafka.stats().by_api.get("Unsupported"), None);
}

/// The same 40 racked brokers all advertising `127.0.0.1` (a short host): librdkafka's
/// DescribeCluster failed on that answer ("Bad message format") and `kafkaops roll --dry-run`
/// crashed with exactly 33 such brokers; kafkaops now lists the brokers with its own
/// DescribeCluster.
#[tokio::test(flavor = "multi_thread")]
async fn forty_racked_brokers_on_a_short_host_are_listed() {
    let mut spec = Spec::new(40, 400);
    spec.host = Some("127.0.0.1".into());
    let kafka = SyntheticKafka::start(&spec).unwrap();
    let c = kafka.cluster().clone();
    assert!(
        c.brokers
            .iter()
            .all(|b| b.host == "127.0.0.1" && b.rack.is_some())
    );
    let client = KafkaClient::connect(ConnectionConfig::new(kafka.bootstrap_servers()))
        .await
        .unwrap();
    let listed = client.describe_cluster().await.unwrap();
    assert_eq!(listed.nodes.len(), 40);
    for n in &listed.nodes {
        let served = c.node(n.id).unwrap();
        assert_eq!(
            (n.host.as_str(), n.port, n.rack.clone()),
            (served.host.as_str(), served.port, served.rack.clone())
        );
    }
    let o = client.observe().await.unwrap();
    assert_eq!(observed_placement(&o), model_placement(&c, View::Current));
    assert_eq!(o.nodes.iter().filter(|n| n.roles.broker).count(), 40);
    assert_eq!(kafka.stats().by_api.get("Unsupported"), None);

    // The dry run that crashed at 33 brokers.
    let mut spec = Spec::new(33, 330);
    spec.host = Some("127.0.0.1".into());
    let kafka = SyntheticKafka::start(&spec).unwrap();
    let state = tempfile::tempdir().unwrap();
    let out = bin::run(
        bin::kafkaops()
            .args([
                "--bootstrap-servers",
                &kafka.bootstrap_servers(),
                "--output",
                "json",
            ])
            .args(["roll", "--dry-run", "--all", "--state-dir"])
            .arg(state.path()),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.planned_roll_nodes().is_empty(), "{}", out.stdout);
}

/// Which brokers an observation asks what (issue #27): partition metadata only of caught-up
/// brokers (at most three, never the lagging 2 and 5), broker configs of every broker the
/// first time and afterwards only of the brokers whose metadata lags (they may have stopped);
/// the metadata sources move from one observation to the next.
#[tokio::test(flavor = "multi_thread")]
async fn an_observation_reads_partition_metadata_from_a_few_caught_up_brokers() {
    let mut spec = small();
    spec.brokers = 8;
    spec.lagging = BTreeSet::from([2, 5]);
    let kafka = SyntheticKafka::start(&spec).unwrap();
    let c = kafka.cluster().clone();
    let mut config = ConnectionConfig::new(kafka.bootstrap_servers());
    config.request_timeout = TIMEOUT;
    let client = KafkaClient::connect(config).await.unwrap();
    let asked = |stats: &synthetic_kafka::Stats, api: &str| -> BTreeSet<i32> {
        stats
            .by_node
            .iter()
            .filter(|(_, n)| n.by_api.get(api).is_some_and(|a| a.requests > 0))
            .map(|(id, _)| *id)
            .collect()
    };
    let _ = kafka.take_stats();
    let mut sources = BTreeSet::new();
    for round in 0..4 {
        let o = client.observe().await.unwrap();
        assert_eq!(observed_placement(&o), model_placement(&c, View::Current));
        let stats = kafka.take_stats();
        let metadata = asked(&stats, "Metadata");
        assert_eq!(metadata.len(), 3, "round {round}: {metadata:?}");
        assert!(
            metadata.is_disjoint(&c.lagging),
            "round {round}: {metadata:?}"
        );
        assert_eq!(
            o.metadata_from.iter().copied().collect::<BTreeSet<_>>(),
            metadata
        );
        sources.extend(metadata);
        let configs: BTreeSet<i32> = asked(&stats, "DescribeConfigs")
            .into_iter()
            .filter(|id| c.brokers.iter().any(|b| b.id == *id))
            .collect();
        if round == 0 {
            assert_eq!(configs, (1..=8).collect(), "round {round}");
        } else {
            // The first source also answers the topic configs.
            let mut expected = c.lagging.clone();
            expected.insert(o.metadata_from[0]);
            assert_eq!(configs, expected, "round {round}");
        }
        // Every broker's configs are there, cached or not.
        assert_eq!(o.broker_configs.len(), 8, "round {round}");
        assert!(o.unreachable_brokers.is_empty());
    }
    assert!(sources.len() > 3, "the sources move: {sources:?}");
    // A broker the caller restarted or reconfigured is asked again.
    client.forget_broker(7);
    let o = client.observe().await.unwrap();
    let configs = asked(&kafka.take_stats(), "DescribeConfigs");
    assert!(configs.contains(&7), "{configs:?}");
    assert!(
        !configs.contains(&8) || o.metadata_from[0] == 8,
        "{configs:?}"
    );
}

/// A broker that crashed after its configs were kept, and that Kafka has not fenced yet, is
/// not taken as reachable on its old answer: the quorum shows its metadata fetches stopped, so
/// it is asked again, does not answer and is unreachable, and the snapshot the roll decides on
/// discounts it from every ISR (as when every broker was asked every observation).
#[tokio::test(flavor = "multi_thread")]
async fn a_broker_that_crashed_since_its_configs_were_read_is_not_reachable() {
    let mut spec = small();
    spec.lagging = BTreeSet::new();
    spec.out_of_sync = 0;
    let kafka = SyntheticKafka::start(&spec).unwrap();
    let mut config = ConnectionConfig::new(kafka.bootstrap_servers());
    config.request_timeout = TIMEOUT;
    let client = KafkaClient::connect(config).await.unwrap();
    let o = client.observe().await.unwrap();
    assert_eq!(o.broker_configs.len(), 5);
    // Crashed 3 s ago right after a fetch: still listed unfenced, still at the high watermark.
    kafka.crash(4, Duration::from_secs(3));
    let o = client.observe().await.unwrap();
    let node = o.node(4).unwrap();
    assert_eq!(node.fenced, Some(false));
    assert!(
        o.unreachable_brokers.contains_key(&4),
        "{:?}",
        o.unreachable_brokers
    );
    assert!(!o.broker_configs.contains_key(&4));
    assert!(!o.metadata_from.contains(&4), "{:?}", o.metadata_from);
    let snapshot = kafkaops::kafka::convert::to_snapshot(&o);
    let n4 = snapshot
        .nodes
        .iter()
        .find(|n| n.id.0 == 4)
        .expect("broker 4 in the snapshot");
    assert!(!n4.is_serving(), "{n4:?}");
    // The others run by the quorum's word and keep their configs.
    for id in [1, 2, 3, 5] {
        assert!(o.broker_configs.contains_key(&id), "broker {id}");
    }
}

/// `operate`'s view of the partitions (`KafkaClient::describe_all_topics`) is one Metadata
/// request to one bootstrap broker, whatever the number of brokers, and holds every partition
/// as served.
#[tokio::test(flavor = "multi_thread")]
async fn every_topic_is_described_with_one_metadata_request() {
    let mut spec = small();
    spec.lagging = BTreeSet::new();
    spec.out_of_sync = 0;
    let kafka = SyntheticKafka::start(&spec).unwrap();
    let c = kafka.cluster().clone();
    let mut config = ConnectionConfig::new(kafka.bootstrap_servers());
    config.request_timeout = TIMEOUT;
    let client = KafkaClient::connect(config).await.unwrap();
    // librdkafka's own start-up requests first (all answered, none new for a while), then count
    // from zero.
    let _ = settled(&kafka, true).await;
    let _ = kafka.take_stats();
    let topics = client.describe_all_topics().await.unwrap();
    let seen: Placement = topics
        .iter()
        .flat_map(|t| {
            t.partitions.iter().map(move |p| {
                (
                    (t.name.clone(), p.partition),
                    (p.replicas.clone(), p.leader.unwrap_or(-1), p.isr.clone()),
                )
            })
        })
        .collect();
    assert_eq!(seen, model_placement(&c, View::Current));
    let stats = kafka.take_stats();
    assert_eq!(stats.by_api["Metadata"].requests, 1, "{stats:?}");
    assert_eq!(stats.nodes_asked, 1, "{stats:?}");
}

/// Issue #27: `operate`'s idle loop (its Kafka view, the policy's cluster facts, the health
/// verdict with the topics' throttles) makes no librdkafka client, which would learn every
/// broker and keep a thread per broker, nor does reading no holds; a request only librdkafka
/// makes creates one, and it is dropped once unused for `ADMIN_IDLE`.
#[tokio::test(flavor = "multi_thread")]
async fn operate_loop_makes_no_librdkafka_client_and_an_unused_one_is_dropped() {
    use kafkaops::app::operate::ports::KafkaPort;
    let mut spec = small();
    spec.lagging = BTreeSet::new();
    spec.out_of_sync = 0;
    let kafka = SyntheticKafka::start(&spec).unwrap();
    let mut config = ConnectionConfig::new(kafka.bootstrap_servers());
    config.request_timeout = TIMEOUT;
    let client = KafkaClient::connect(config).await.unwrap();
    // The loop's Kafka side: the client, the holds in the cluster's holds topic.
    let live = kafkaops::app::operate::observe::LiveKafka {
        client: client.clone(),
        holds: kafkaops::app::hold::Holds::Topic,
    };
    for _ in 0..2 {
        let view = KafkaPort::observe(&live).await.unwrap();
        assert_eq!(view.brokers.len(), 5, "{view:?}");
        let facts = KafkaPort::cluster_facts(&live).await.unwrap();
        assert_eq!(facts.topics.len(), 5, "{facts:?}");
        assert!(KafkaPort::health(&live).await.is_some());
    }
    let topics: Vec<String> = kafka
        .cluster()
        .topics
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let configs = client.describe_topic_configs(&topics).await.unwrap();
    assert_eq!(configs.len(), topics.len());
    let min_isr = configs[&topics[0]]
        .iter()
        .find(|e| e.name == "min.insync.replicas")
        .and_then(|e| e.value.clone());
    assert_eq!(min_isr.as_deref(), Some("2"), "{configs:?}");
    assert_eq!(client.librdkafka_clients_made(), 0);
    assert!(!client.librdkafka_client_alive());
    // No holds topic: one Metadata request on the wire path says so, no librdkafka consumer
    // (whose own Metadata requests would be counted too).
    let _ = kafka.take_stats();
    assert!(client.read_holds().await.unwrap().is_empty());
    let stats = kafka.take_stats();
    let versions = stats.by_api.get("ApiVersions").map_or(0, |c| c.requests);
    assert_eq!(stats.requests - versions, 1, "{stats:?}");
    assert_eq!(stats.by_api["Metadata"].requests, 1, "{stats:?}");
    // A request only librdkafka makes here creates the client...
    let entries = client.describe_broker_configs(1).await.unwrap();
    assert!(entries.iter().any(|e| e.name == "broker.id"), "{entries:?}");
    assert_eq!(client.librdkafka_clients_made(), 1);
    assert!(client.librdkafka_client_alive());
    // ...and nothing else using it, it goes (deadline well past ADMIN_IDLE).
    let deadline = std::time::Instant::now() + kafkaops::kafka::client::ADMIN_IDLE * 4;
    while client.librdkafka_client_alive() {
        assert!(
            std::time::Instant::now() < deadline,
            "librdkafka's admin client still alive {:?} after its last use",
            kafkaops::kafka::client::ADMIN_IDLE * 4
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // The next request makes a new one.
    client.describe_broker_configs(2).await.unwrap();
    assert_eq!(client.librdkafka_clients_made(), 2);
}

/// Issue #27: `operate`'s idle loop reads the partition metadata once per loop: its Kafka view
/// and the health verdict on `/metrics` come from one observation of one caught-up broker, and
/// with no holds topic no holds are asked for. It failed with four whole-cluster Metadata
/// requests a loop (the view's plus the health verdict's three caught-up brokers) and one or
/// two more for the holds. The loop runs for real (`Operator::step`, the live roll, the file
/// store), with Cruise Control unreachable.
#[tokio::test(flavor = "multi_thread")]
async fn operate_idle_loop_sends_one_metadata_request_per_loop() {
    use kafkaops::app::operate::policy::{ClusterFacts, PolicySource};
    use kafkaops::app::operate::ports::LogRecorder;
    use kafkaops::app::operate::roll::RollSettings;
    use kafkaops::app::operate::{LiveRoll, OperateSpec, Operator};
    use kafkaops::cruise_control::{ClientConfig, CruiseControlClient};
    use kafkaops::state::{FileStore, LockLeadership};

    let mut spec = small();
    spec.lagging = BTreeSet::new();
    let kafka = SyntheticKafka::start(&spec).unwrap();
    let mut config = ConnectionConfig::new(kafka.bootstrap_servers());
    config.request_timeout = TIMEOUT;
    let client = KafkaClient::connect(config).await.unwrap();
    let cc = CruiseControlClient::new(ClientConfig {
        url: url::Url::parse("http://127.0.0.1:9/kafkacruisecontrol/").unwrap(),
        username: None,
        password: None,
        ca_pem: None,
        timeout: Duration::from_secs(1),
        poll_interval: Duration::from_millis(100),
        backoff: kafkaops::cruise_control::retry::Backoff::default(),
        connect_to: None,
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let policy_path = dir.path().join("policy.yaml");
    std::fs::write(
        &policy_path,
        "autoRebalance:\n  - mode: add-brokers\n    template: { name: t }\n\
         \x20 - mode: imbalance\n    template: { name: t }\ntemplates:\n  t: {}\n",
    )
    .unwrap();
    let policy = PolicySource::load(&policy_path, Duration::ZERO, Some(&ClusterFacts::default()))
        .await
        .unwrap();
    let op_spec = OperateSpec {
        policy: policy_path.clone(),
        resync: Duration::from_secs(30),
        dry_run: false,
        once: false,
        listen: "127.0.0.1:0".parse().unwrap(),
        action_timeout: Duration::from_secs(2),
    };
    let state_path = dir.path().join("state.json");
    let roll = LiveRoll::new(
        client.clone(),
        RollSettings::new(Default::default(), None, 1, op_spec.action_timeout),
    );
    let live = kafkaops::app::operate::observe::LiveKafka {
        client: client.clone(),
        holds: kafkaops::app::hold::Holds::Topic,
    };
    let mut op = Operator::new(
        cc,
        live.clone(),
        (
            FileStore::new(state_path.clone()),
            LockLeadership::new(state_path.with_extension("lock")),
            LogRecorder,
        ),
        policy,
        op_spec,
        roll,
    );
    kafkaops::state::Leadership::acquire(&op.leadership)
        .await
        .unwrap();
    let mut state = op.resume().await.unwrap();
    for round in 0..3 {
        let _ = kafka.take_stats();
        op.step(&mut state).await.unwrap();
        let stats = kafka.take_stats();
        assert_eq!(
            stats.by_api["Metadata"].requests, 1,
            "loop {round}: one Metadata request a loop: {stats:?}"
        );
        // The one answer is the whole cluster's (every topic), read from one broker.
        let metadata_nodes: Vec<i32> = stats
            .by_node
            .iter()
            .filter(|(_, n)| n.by_api.get("Metadata").is_some_and(|c| c.requests > 0))
            .map(|(id, _)| *id)
            .collect();
        assert_eq!(metadata_nodes.len(), 1, "{stats:?}");
    }
    // The loop's read of Kafka gave both the view and the health verdict's facts.
    use kafkaops::app::operate::ports::KafkaPort;
    let _ = kafka.take_stats();
    let (view, health) = KafkaPort::observe_with_health(&live).await;
    assert_eq!(view.unwrap().brokers.len(), 5);
    let health = health.expect("the health verdict's Kafka side");
    assert_eq!(health.partitions.len(), 50);
    assert_eq!(kafka.take_stats().by_api["Metadata"].requests, 1);
    // What the observations keep of the brokers' configs: only the keys operate reads.
    let o = client
        .observe_from(kafkaops::app::operate::observe::LOOP_METADATA_SOURCES)
        .await
        .unwrap();
    let keys: BTreeSet<&str> = o
        .broker_configs
        .values()
        .flatten()
        .map(|e| e.name.as_str())
        .collect();
    assert!(keys.contains("process.roles"), "{keys:?}");
    assert!(!keys.contains("broker.id"), "{keys:?}");
    assert!(keys.len() <= 12, "{keys:?}");
}

/// `roll --dry-run` reads only the broker configs its plan needs (issue #27: reading every
/// broker's was 2,000 requests at 1,000 brokers): with `bootstrap.controllers` (every
/// controller listed and asked its own `process.roles`), of the brokers only the replicas of
/// the topic without a `min.insync.replicas` override and the lagging brokers (the quorum does
/// not vouch for them) are asked. The preview decides exactly as a roll reading every broker's
/// configs: same roles, states and reachability, same min ISR of every partition, same plan.
#[tokio::test(flavor = "multi_thread")]
async fn a_preview_reads_only_the_broker_configs_its_plan_needs_and_plans_the_same() {
    use kafkaops::app::roll::Selection;
    use kafkaops::app::roll::prepare::{Ask, Target, prepare};
    use kafkaops::engine::roll::{RollConfig, Roller};

    // 30 brokers, 30 topics of 2 partitions; the first topic has no override (6 replicas).
    let mut spec = Spec::new(30, 60);
    spec.partitions_per_topic = 2;
    spec.topics_without_min_isr = 1;
    spec.lagging = BTreeSet::from([17]);
    spec.out_of_sync = 3;
    let kafka = SyntheticKafka::start(&spec).unwrap();
    let c = kafka.cluster().clone();
    let fallback: BTreeSet<i32> = c.topics[0]
        .partitions
        .iter()
        .flat_map(|p| p.replicas.clone())
        .collect();
    assert!(fallback.len() < 10, "{fallback:?}");
    let brokers: BTreeSet<i32> = c.brokers.iter().map(|b| b.id).collect();
    let selection = Selection::All;
    let desired = BTreeMap::new();
    let asked_configs = |stats: &synthetic_kafka::Stats| -> BTreeSet<i32> {
        stats
            .by_node
            .iter()
            .filter(|(id, n)| {
                brokers.contains(id)
                    && n.by_api
                        .get("DescribeConfigs")
                        .is_some_and(|a| a.requests > 0)
            })
            .map(|(id, _)| *id)
            .collect()
    };
    let mut looked = Vec::new();
    for preview in [true, false] {
        let mut config = ConnectionConfig::new(kafka.bootstrap_servers());
        config.bootstrap_controllers = Some(kafka.bootstrap_controllers());
        config.request_timeout = TIMEOUT;
        let client = KafkaClient::connect(config).await.unwrap();
        let _ = kafka.take_stats();
        let target = Target {
            pods: None,
            method: None,
            command_timeout: TIMEOUT,
        };
        let ask = Ask {
            selection: Some(&selection),
            desired: &desired,
            software: None,
            preview,
        };
        let prepared = prepare(&client, &target, &ask).await.unwrap();
        let stats = settled(&kafka, true).await;
        looked.push((prepared, asked_configs(&stats), stats.requests));
    }
    let (lazy, lazy_asked, lazy_requests) = &looked[0];
    let (every, every_asked, every_requests) = &looked[1];
    // Who was asked: every broker by the roll; by the preview the fallback topic's replicas,
    // the lagging broker and the first metadata source (it answers the topic configs).
    assert_eq!(every_asked, &brokers);
    let mut expected = fallback.clone();
    expected.insert(17);
    expected.insert(lazy.observation.metadata_from[0]);
    assert_eq!(lazy_asked, &expected);
    assert!(
        *lazy_requests < every_requests / 2,
        "{lazy_requests} vs {every_requests}"
    );
    let keys = |p: &kafkaops::app::roll::prepare::Prepared| -> BTreeSet<i32> {
        p.observation.broker_configs.keys().copied().collect()
    };
    assert_eq!(keys(lazy), &fallback | &BTreeSet::from([17]));
    assert_eq!(keys(every), brokers);
    // The same decisions: every node the same but for the configs nobody needed.
    let (a, b) = (&lazy.snapshot, &every.snapshot);
    assert_eq!(a.nodes.len(), b.nodes.len());
    for (x, y) in a.nodes.iter().zip(&b.nodes) {
        assert_eq!(
            (x.id, x.roles, x.state, x.reachable, &x.rack),
            (y.id, y.roles, y.state, y.reachable, &y.rack)
        );
        if !x.config.is_empty() {
            assert_eq!(x.config, y.config, "node {}", x.id);
        }
    }
    for n in &lazy.observation.nodes {
        let m = every.observation.node(n.id).unwrap();
        assert_eq!(n.roles, m.roles, "node {}", n.id);
        let told = brokers.contains(&n.id) && !keys(lazy).contains(&n.id);
        assert_eq!(
            n.roles_source == RolesSource::Registrations,
            told,
            "node {}: {:?}",
            n.id,
            n.roles_source
        );
    }
    assert_eq!(a.partitions, b.partitions);
    assert_eq!(a.topics, b.topics);
    for p in &a.partitions {
        assert_eq!(a.effective_min_isr(p), b.effective_min_isr(p), "{:?}", p.tp);
    }
    assert_eq!(lazy.requests, every.requests);
    let plan = |p: &kafkaops::app::roll::prepare::Prepared| {
        Roller::new(RollConfig::default(), p.requests.clone()).plan(&p.snapshot)
    };
    let (pa, pb) = (plan(lazy), plan(every));
    assert_eq!(pa, pb);
    // Not a vacuous plan: restarts, and blocked by the out-of-sync partitions at some point
    // or not, both read the same.
    assert!(
        pa.steps
            .iter()
            .any(|s| matches!(s, kafkaops::engine::roll::PlanStep::Restart { .. })),
        "{pa:?}"
    );
    assert_eq!(kafka.stats().by_api.get("Unsupported"), None);
}
