//! The listeners: one per node, Kafka framing, request decoding, cached response encodings,
//! the per-API and per-node counters, and the small HTTP endpoint that reports them.
//!
//! A response depends only on the request body and on who answers (the broker's metadata
//! view, or the node itself for its own config), so encodings are cached under that key: a
//! Metadata answer of 100,000 partitions is built once and then only written, however many
//! brokers are asked. Each connection answers its requests in order, like a Kafka broker.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use bytes::{BufMut, Bytes, BytesMut};
use kafka_protocol::messages::{
    ApiKey, ApiVersionsResponse, DescribeClusterRequest, DescribeClusterResponse,
    DescribeConfigsRequest, DescribeConfigsResponse, DescribeQuorumRequest, DescribeQuorumResponse,
    DescribeTopicPartitionsRequest, DescribeTopicPartitionsResponse,
    ListPartitionReassignmentsRequest, ListPartitionReassignmentsResponse, MetadataRequest,
    MetadataResponse, RequestHeader, ResponseHeader,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion};
use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::OnceCell;

use super::configs::Configs;
use super::model::{Cluster, Node, View};
use super::responses;

/// Largest request accepted (Kafka's `socket.request.max.bytes` default).
const MAX_REQUEST: usize = 100 * 1024 * 1024;
/// The response cache is emptied when it holds more than this.
const MAX_CACHE_BYTES: usize = 1 << 30;

/// The APIs counted by name; anything else counts as "Unsupported".
pub const COUNTED: [(ApiKey, &str); 7] = [
    (ApiKey::ApiVersions, "ApiVersions"),
    (ApiKey::Metadata, "Metadata"),
    (ApiKey::DescribeTopicPartitions, "DescribeTopicPartitions"),
    (ApiKey::DescribeConfigs, "DescribeConfigs"),
    (ApiKey::DescribeCluster, "DescribeCluster"),
    (ApiKey::DescribeQuorum, "DescribeQuorum"),
    (
        ApiKey::ListPartitionReassignments,
        "ListPartitionReassignments",
    ),
];
const UNSUPPORTED: usize = COUNTED.len();
const SLOTS: usize = COUNTED.len() + 1;

fn slot(api: Option<ApiKey>) -> usize {
    api.and_then(|a| COUNTED.iter().position(|(k, _)| *k == a))
        .unwrap_or(UNSUPPORTED)
}

fn slot_name(i: usize) -> &'static str {
    COUNTED.get(i).map_or("Unsupported", |(_, n)| n)
}

#[derive(Default)]
struct Cell {
    requests: AtomicU64,
    answered: AtomicU64,
    bytes_in: AtomicU64,
    bytes_out: AtomicU64,
}

/// Requests received, answers written in full, and bytes in both directions (length prefixes
/// included; `bytes_out` counts whole answers only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Count {
    pub requests: u64,
    pub answered: u64,
    pub bytes_in: u64,
    pub bytes_out: u64,
}

impl Count {
    fn add(&mut self, other: Count) {
        self.requests += other.requests;
        self.answered += other.answered;
        self.bytes_in += other.bytes_in;
        self.bytes_out += other.bytes_out;
    }
}

/// One API's traffic over every node.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ApiCount {
    pub requests: u64,
    pub answered: u64,
    pub bytes_in: u64,
    pub bytes_out: u64,
    /// Distinct nodes that received it.
    pub nodes: u64,
    /// When its first and last answers went out, in ms since the counters started (or were
    /// last reset).
    pub first_ms: u64,
    pub last_ms: u64,
}

/// One node's traffic.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct NodeCount {
    pub requests: u64,
    pub answered: u64,
    pub bytes_in: u64,
    pub bytes_out: u64,
    pub connections: u64,
    pub by_api: BTreeMap<String, Count>,
}

/// What the cluster served since start or the last reset.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Stats {
    pub requests: u64,
    pub answered: u64,
    pub bytes_in: u64,
    pub bytes_out: u64,
    pub connections: u64,
    /// Nodes that received at least one request.
    pub nodes_asked: u64,
    pub by_api: BTreeMap<String, ApiCount>,
    /// Only nodes that saw traffic.
    pub by_node: BTreeMap<i32, NodeCount>,
}

struct Counters {
    /// `nodes x SLOTS`.
    cells: Vec<Cell>,
    connections: Vec<AtomicU64>,
    /// Per slot: first and last answer, ms since `epoch`.
    first: Vec<AtomicU64>,
    last: Vec<AtomicU64>,
    epoch: Mutex<Instant>,
}

impl Counters {
    fn new(nodes: usize) -> Self {
        Self {
            cells: (0..nodes * SLOTS).map(|_| Cell::default()).collect(),
            connections: (0..nodes).map(|_| AtomicU64::new(0)).collect(),
            first: (0..SLOTS).map(|_| AtomicU64::new(u64::MAX)).collect(),
            last: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
            epoch: Mutex::new(Instant::now()),
        }
    }

    fn received(&self, node: usize, slot: usize, bytes_in: usize) {
        let c = &self.cells[node * SLOTS + slot];
        c.requests.fetch_add(1, Ordering::Relaxed);
        c.bytes_in.fetch_add(bytes_in as u64, Ordering::Relaxed);
    }

    fn answered(&self, node: usize, slot: usize, bytes_out: usize) {
        let c = &self.cells[node * SLOTS + slot];
        c.answered.fetch_add(1, Ordering::Relaxed);
        c.bytes_out.fetch_add(bytes_out as u64, Ordering::Relaxed);
        let epoch = *self.epoch.lock().unwrap();
        let ms = u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.first[slot].fetch_min(ms, Ordering::Relaxed);
        self.last[slot].fetch_max(ms, Ordering::Relaxed);
    }

    fn snapshot(&self, nodes: &[Node], reset: bool) -> Stats {
        let read = |a: &AtomicU64| {
            if reset {
                a.swap(0, Ordering::Relaxed)
            } else {
                a.load(Ordering::Relaxed)
            }
        };
        let mut stats = Stats::default();
        for (i, node) in nodes.iter().enumerate() {
            let mut n = NodeCount {
                connections: read(&self.connections[i]),
                ..NodeCount::default()
            };
            for s in 0..SLOTS {
                let c = &self.cells[i * SLOTS + s];
                let count = Count {
                    requests: read(&c.requests),
                    answered: read(&c.answered),
                    bytes_in: read(&c.bytes_in),
                    bytes_out: read(&c.bytes_out),
                };
                if count.requests == 0 && count.answered == 0 {
                    continue;
                }
                n.requests += count.requests;
                n.answered += count.answered;
                n.bytes_in += count.bytes_in;
                n.bytes_out += count.bytes_out;
                n.by_api
                    .entry(slot_name(s).to_string())
                    .or_default()
                    .add(count);
                let api = stats.by_api.entry(slot_name(s).to_string()).or_default();
                api.requests += count.requests;
                api.answered += count.answered;
                api.bytes_in += count.bytes_in;
                api.bytes_out += count.bytes_out;
                api.nodes += 1;
                api.first_ms = self.first[s].load(Ordering::Relaxed);
                api.last_ms = self.last[s].load(Ordering::Relaxed);
            }
            stats.connections += n.connections;
            if n.requests > 0 || n.answered > 0 || n.connections > 0 {
                stats.requests += n.requests;
                stats.answered += n.answered;
                stats.bytes_in += n.bytes_in;
                stats.bytes_out += n.bytes_out;
                if n.requests > 0 {
                    stats.nodes_asked += 1;
                }
                stats.by_node.insert(node.id, n);
            }
        }
        if reset {
            *self.epoch.lock().unwrap() = Instant::now();
            for s in 0..SLOTS {
                self.first[s].store(u64::MAX, Ordering::Relaxed);
                self.last[s].store(0, Ordering::Relaxed);
            }
        }
        stats
    }
}

#[derive(Hash, PartialEq, Eq)]
struct CacheKey {
    /// The view (Metadata, DescribeTopicPartitions) or the answering node (DescribeConfigs).
    scope: i64,
    api: i16,
    version: i16,
    body: Bytes,
}

/// What every connection shares.
pub struct Shared {
    pub cluster: Cluster,
    configs: Configs,
    /// Brokers then controllers, as indexed by the counters.
    nodes: Vec<Node>,
    counters: Counters,
    cache: Mutex<HashMap<CacheKey, Arc<OnceCell<Bytes>>>>,
    cache_bytes: AtomicUsize,
    warned: Mutex<Vec<(i16, i16)>>,
    /// Brokers that crashed (see [`Shared::crash`]), with their last metadata fetch on the
    /// leader's clock.
    crashed: Mutex<BTreeMap<i32, i64>>,
}

impl Shared {
    pub fn new(cluster: Cluster) -> Self {
        let nodes: Vec<Node> = cluster
            .brokers
            .iter()
            .chain(&cluster.controllers)
            .cloned()
            .collect();
        Self {
            counters: Counters::new(nodes.len()),
            nodes,
            configs: Configs::load(),
            cluster,
            cache: Mutex::new(HashMap::new()),
            cache_bytes: AtomicUsize::new(0),
            warned: Mutex::new(Vec::new()),
            crashed: Mutex::new(BTreeMap::new()),
        }
    }

    /// Broker `id` crashed `ago` before now, right after a metadata fetch, and is not fenced
    /// yet: it answers nothing more (connections are closed unread), DescribeCluster still
    /// lists it unfenced and DescribeQuorum still shows it at the high watermark (no record
    /// was committed since), with that last fetch as its timestamps.
    pub fn crash(&self, id: i32, ago: std::time::Duration) {
        let ago = i64::try_from(ago.as_millis()).unwrap_or(i64::MAX);
        self.crashed.lock().unwrap().insert(id, now_ms() - ago);
    }

    fn crashed(&self, id: i32) -> bool {
        self.crashed.lock().unwrap().contains_key(&id)
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    pub fn stats(&self, reset: bool) -> Stats {
        self.counters.snapshot(&self.nodes, reset)
    }

    fn warn_once(&self, api: i16, version: i16, node: i32) {
        let mut w = self.warned.lock().unwrap();
        if !w.contains(&(api, version)) {
            w.push((api, version));
            eprintln!(
                "synthetic kafka: node {node} got a request it does not serve (api key {api}, \
                 v{version}); connection closed"
            );
        }
    }

    /// The encoding cached under `key`, built by `build` the first time (concurrent askers
    /// wait for that one build).
    async fn cached(
        &self,
        key: CacheKey,
        build: impl FnOnce() -> anyhow::Result<Bytes>,
    ) -> anyhow::Result<Bytes> {
        let cell = {
            let mut cache = self.cache.lock().unwrap();
            if self.cache_bytes.load(Ordering::Relaxed) > MAX_CACHE_BYTES {
                cache.clear();
                self.cache_bytes.store(0, Ordering::Relaxed);
            }
            Arc::clone(cache.entry(key).or_default())
        };
        let bytes = cell
            .get_or_try_init(|| async {
                let b = build()?;
                self.cache_bytes.fetch_add(b.len(), Ordering::Relaxed);
                Ok::<_, anyhow::Error>(b)
            })
            .await?;
        Ok(bytes.clone())
    }
}

fn encode<R: Encodable>(response: &R, version: i16) -> anyhow::Result<Bytes> {
    let mut buf = BytesMut::new();
    response.encode(&mut buf, version)?;
    Ok(buf.freeze())
}

fn decode<R: Decodable>(body: &Bytes, version: i16) -> anyhow::Result<R> {
    R::decode(&mut body.clone(), version)
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// An encoded response and its header version.
struct Answer {
    header_version: i16,
    body: Bytes,
}

fn answer<R: HeaderVersion>(version: i16, body: Bytes) -> Answer {
    Answer {
        header_version: R::header_version(version),
        body,
    }
}

/// The answer of node `node` (an index into `shared.nodes`), or `None` for a request it does
/// not serve (the connection is then closed, as Kafka does).
async fn respond(
    shared: &Shared,
    node: usize,
    api: ApiKey,
    version: i16,
    body: Bytes,
) -> anyhow::Result<Option<Answer>> {
    let n = &shared.nodes[node];
    let cluster = &shared.cluster;
    if api == ApiKey::ApiVersions {
        let (min, max) = responses::supported(n.controller)
            .iter()
            .find(|(k, _, _)| *k == ApiKey::ApiVersions)
            .map(|(_, a, b)| (*a, *b))
            .unwrap_or((0, 0));
        // A version we do not speak: answer in v0 with UNSUPPORTED_VERSION and our range.
        let (v, error) = if version > max || version < min {
            (0, responses::UNSUPPORTED_VERSION)
        } else {
            (version, responses::NONE)
        };
        let r = responses::api_versions(n.controller, error);
        return Ok(Some(answer::<ApiVersionsResponse>(v, encode(&r, v)?)));
    }
    let Some((_, min, max)) = responses::supported(n.controller)
        .into_iter()
        .find(|(k, _, _)| *k == api)
    else {
        return Ok(None);
    };
    if version < min || version > max {
        return Ok(None);
    }
    let key = |scope: i64| CacheKey {
        scope,
        api: api as i16,
        version,
        body: body.clone(),
    };
    let view_scope = |v: View| match v {
        View::Current => 0,
        View::Stale => 1,
    };
    Ok(Some(match api {
        ApiKey::Metadata => {
            let view = cluster.view_of(n.id);
            let b = shared
                .cached(key(view_scope(view)), || {
                    let req: MetadataRequest = decode(&body, version)?;
                    encode(&responses::metadata(cluster, view, &req, version), version)
                })
                .await?;
            answer::<MetadataResponse>(version, b)
        }
        ApiKey::DescribeTopicPartitions => {
            let view = cluster.view_of(n.id);
            let b = shared
                .cached(key(view_scope(view)), || {
                    let req: DescribeTopicPartitionsRequest = decode(&body, version)?;
                    encode(
                        &responses::describe_topic_partitions(cluster, view, &req),
                        version,
                    )
                })
                .await?;
            answer::<DescribeTopicPartitionsResponse>(version, b)
        }
        ApiKey::DescribeConfigs => {
            let b = shared
                // Keyed by the answering node: its own BROKER resource is in the answer.
                .cached(key(i64::from(n.id)), || {
                    let req: DescribeConfigsRequest = decode(&body, version)?;
                    encode(
                        &responses::describe_configs(&shared.configs, cluster, n, &req, version),
                        version,
                    )
                })
                .await?;
            answer::<DescribeConfigsResponse>(version, b)
        }
        ApiKey::DescribeCluster => {
            let req: DescribeClusterRequest = decode(&body, version)?;
            let r = responses::describe_cluster(cluster, n, &req);
            answer::<DescribeClusterResponse>(version, encode(&r, version)?)
        }
        ApiKey::DescribeQuorum => {
            let req: DescribeQuorumRequest = decode(&body, version)?;
            let crashed = shared.crashed.lock().unwrap().clone();
            let r = responses::describe_quorum(cluster, n, &req, now_ms(), &crashed);
            answer::<DescribeQuorumResponse>(version, encode(&r, version)?)
        }
        ApiKey::ListPartitionReassignments => {
            let req: ListPartitionReassignmentsRequest = decode(&body, version)?;
            let r = responses::list_reassignments(&req);
            answer::<ListPartitionReassignmentsResponse>(version, encode(&r, version)?)
        }
        _ => return Ok(None),
    }))
}

/// Serves one connection to node `node` until the client closes it.
async fn serve_connection(shared: Arc<Shared>, node: usize, mut stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    shared.counters.connections[node].fetch_add(1, Ordering::Relaxed);
    let node_id = shared.nodes[node].id;
    loop {
        if shared.crashed(node_id) {
            return;
        }
        let mut len = [0u8; 4];
        if stream.read_exact(&mut len).await.is_err() {
            return;
        }
        let len = u32::from_be_bytes(len) as usize;
        if !(4..=MAX_REQUEST).contains(&len) {
            return;
        }
        let mut frame = vec![0u8; len];
        if stream.read_exact(&mut frame).await.is_err() {
            return;
        }
        let mut frame = Bytes::from(frame);
        let api_key = i16::from_be_bytes([frame[0], frame[1]]);
        let version = i16::from_be_bytes([frame[2], frame[3]]);
        let api = ApiKey::try_from(api_key).ok();
        let header = api.and_then(|a| {
            RequestHeader::decode(&mut frame, a.request_header_version(version)).ok()
        });
        let served = api.is_some_and(|a| {
            a == ApiKey::ApiVersions
                || responses::supported(shared.nodes[node].controller)
                    .iter()
                    .any(|(k, min, max)| *k == a && (*min..=*max).contains(&version))
        });
        let (true, Some(api), Some(header)) = (served, api, header) else {
            shared.counters.received(node, UNSUPPORTED, len + 4);
            shared.warn_once(api_key, version, node_id);
            return;
        };
        let counted = slot(Some(api));
        shared.counters.received(node, counted, len + 4);
        let answer = match respond(&shared, node, api, version, frame).await {
            Ok(Some(a)) => a,
            Ok(None) => {
                shared.warn_once(api_key, version, node_id);
                return;
            }
            Err(e) => {
                eprintln!(
                    "synthetic kafka: node {node_id}: cannot answer api key {api_key} \
                     v{version}: {e}; connection closed"
                );
                return;
            }
        };
        let mut head = BytesMut::with_capacity(16);
        head.put_u32(0);
        if ResponseHeader::default()
            .with_correlation_id(header.correlation_id)
            .encode(&mut head, answer.header_version)
            .is_err()
        {
            return;
        }
        let total = head.len() - 4 + answer.body.len();
        let Ok(total32) = u32::try_from(total) else {
            return;
        };
        head[..4].copy_from_slice(&total32.to_be_bytes());
        // Counted once the answer is made, before it is written: what the tests check is that the
        // synthetic Kafka has an answer for every request it received. A client that gave up on a
        // request and closed its connection meanwhile (librdkafka's background requests time out
        // on a loaded machine) does not make the request unanswered.
        shared.counters.answered(node, counted, total + 4);
        if stream.write_all(&head).await.is_err() || stream.write_all(&answer.body).await.is_err() {
            return;
        }
    }
}

/// Accepts connections to node `node` forever.
pub async fn serve_node(shared: Arc<Shared>, node: usize, listener: TcpListener) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                tokio::spawn(serve_connection(Arc::clone(&shared), node, stream));
            }
            Err(e) => {
                // Out of file descriptors, most likely: wait a little rather than spin.
                eprintln!("synthetic kafka: accept failed: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        }
    }
}

/// The stats endpoint: `GET /stats` (add `?reset=1` to zero the counters after reading),
/// `GET /stats?nodes=0` without the per-node table.
pub async fn serve_http(shared: Arc<Shared>, listener: TcpListener) {
    loop {
        let Ok((mut stream, _)) = listener.accept().await else {
            continue;
        };
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 1024];
            while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < 16 * 1024 {
                match stream.read(&mut chunk).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
            let text = String::from_utf8_lossy(&buf);
            let target = text.split_whitespace().nth(1).unwrap_or("/");
            let (path, query) = target.split_once('?').unwrap_or((target, ""));
            let (status, body) = if path == "/stats" {
                let reset = query.split('&').any(|p| p == "reset=1");
                let mut stats = shared.stats(reset);
                if query.split('&').any(|p| p == "nodes=0") {
                    stats.by_node.clear();
                }
                ("200 OK", serde_json::to_string(&stats).unwrap_or_default())
            } else {
                ("404 Not Found", "{\"error\":\"try /stats\"}".to_string())
            };
            let reply = format!(
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(reply.as_bytes()).await;
            let _ = stream.shutdown().await;
        });
    }
}
