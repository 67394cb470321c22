//! The adapter's client: librdkafka for what it does, the wire path for the rest.
//!
//! [`KafkaClient`] implements [`KafkaAdmin`] (reads and the two changes the roller makes:
//! incremental config changes and preferred leader elections) and [`ClusterObserver`]
//! (one whole [`KafkaObservation`]). librdkafka calls block, so they run on
//! `spawn_blocking`; wire-path connections are opened per observation and dropped.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use rdkafka::ClientConfig;
use rdkafka::admin::{AdminOptions, ResourceSpecifier};

use super::config::ConnectionConfig;
use super::error::{KafkaError, Result};
use super::ffi::{
    self, Admin, ClusterDescription, ConfigChange, ConfigTarget, ElectionOutcome, TopicDescription,
};
use super::observation::{
    BrokerState, ControllerAddresses, EndpointState, KafkaObservation, RawObservation,
    RecoveryProgress, assemble,
};
use super::wire::{Connection, connect_any};
use super::wire_admin;
use crate::engine::view::{ConfigEntry, ConfigSource, Reassignment};

/// Reads and changes through the Admin API.
pub trait KafkaAdmin: Send + Sync {
    /// Registered, unfenced brokers and the cluster id.
    fn describe_cluster(&self) -> impl Future<Output = Result<ClusterDescription>> + Send;
    /// Every topic name, internal ones included.
    fn list_topics(&self) -> impl Future<Output = Result<Vec<String>>> + Send;
    fn describe_topics(
        &self,
        names: Vec<String>,
    ) -> impl Future<Output = Result<Vec<TopicDescription>>> + Send;
    /// All configs of broker `id`, with read-only flags (asked of that broker).
    fn describe_broker_configs(
        &self,
        id: i32,
    ) -> impl Future<Output = Result<Vec<ConfigEntry>>> + Send;
    /// Effective `min.insync.replicas` per topic (topics without the key are left out).
    fn min_insync_replicas(
        &self,
        topics: Vec<String>,
    ) -> impl Future<Output = Result<BTreeMap<String, i32>>> + Send;
    /// IncrementalAlterConfigs: only the named keys change; every other dynamic config stays.
    fn incremental_alter_configs(
        &self,
        target: ConfigTarget,
        changes: Vec<ConfigChange>,
    ) -> impl Future<Output = Result<()>> + Send;
    /// Preferred leader election for `partitions`, or all partitions for `None`.
    /// ELECTION_NOT_NEEDED counts as success.
    fn elect_preferred_leaders(
        &self,
        partitions: Option<Vec<(String, i32)>>,
    ) -> impl Future<Output = Result<Vec<ElectionOutcome>>> + Send;
}

/// Reads a whole cluster at once.
pub trait ClusterObserver: Send + Sync {
    fn observe(&self) -> impl Future<Output = Result<KafkaObservation>> + Send;
}

/// The Kafka client of kafkaops.
#[derive(Clone)]
pub struct KafkaClient {
    admin: Arc<Admin>,
    config: Arc<ConnectionConfig>,
    http: reqwest::Client,
    /// Broker ids known from elsewhere (the platform's node list).
    extra_broker_ids: Vec<i32>,
}

impl std::fmt::Debug for KafkaClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KafkaClient")
            .field("bootstrap_servers", &self.config.bootstrap_servers)
            .field("bootstrap_controllers", &self.config.bootstrap_controllers)
            .finish_non_exhaustive()
    }
}

/// Fails fast (one TCP connect per address) when no bootstrap address accepts connections;
/// librdkafka would otherwise retry quietly until the request timeout.
async fn probe(addresses: &[String], timeout: Duration, what: &str) -> Result<()> {
    let mut failures = Vec::new();
    for a in addresses {
        match tokio::time::timeout(timeout, tokio::net::TcpStream::connect(a)).await {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(e)) => failures.push(format!("{a}: {e}")),
            Err(_) => failures.push(format!("{a}: no answer within {timeout:?}")),
        }
    }
    Err(KafkaError::Unreachable {
        what: what.into(),
        address: addresses.join(","),
        message: if failures.is_empty() {
            "no address configured".into()
        } else {
            failures.join("; ")
        },
    })
}

/// With TLS or SASL configured, one full handshake (TLS, then SASL) with a bootstrap broker on
/// kafkaops' own protocol path, from the same settings librdkafka gets. librdkafka reports a
/// rejected password or an untrusted certificate only as a "broker transport failure" after
/// retrying until the request timeout; this says which it is, at once. Only those two verdicts
/// are kept: anything else (a setting only librdkafka supports, a broker that is down) is left
/// for librdkafka to report as before.
async fn check_credentials(config: &ConnectionConfig, timeout: Duration) -> Result<()> {
    let Ok(security) = config.wire_security("checking the TLS and SASL settings") else {
        return Ok(());
    };
    if security.tls.is_none() && security.sasl.is_none() {
        return Ok(());
    }
    match connect_any(
        &config.broker_addresses(),
        &security,
        timeout,
        "checking the TLS and SASL settings",
    )
    .await
    {
        Err(e @ (KafkaError::Authentication { .. } | KafkaError::Tls { .. })) => Err(e),
        Err(e) => {
            tracing::debug!(error = %e, "TLS/SASL pre-check inconclusive; librdkafka decides");
            Ok(())
        }
        Ok(conn) => {
            tracing::debug!(address = conn.address(), "TLS/SASL settings accepted");
            Ok(())
        }
    }
}

/// librdkafka's settings from the connection settings (one place for every librdkafka client
/// kafkaops creates: the admin client, the holds topic's producer and consumer).
pub(crate) fn rdkafka_config(config: &ConnectionConfig) -> ClientConfig {
    let mut cc = ClientConfig::new();
    cc.set("bootstrap.servers", &config.bootstrap_servers);
    cc.set("client.id", "kafkaops");
    for (k, v) in &config.properties {
        cc.set(k, v);
    }
    for (k, v) in &config.secrets {
        cc.set(k, v.expose());
    }
    cc
}

impl KafkaClient {
    /// Checks that a bootstrap server accepts connections and creates the librdkafka client.
    pub async fn connect(config: ConnectionConfig) -> Result<Self> {
        let connect_timeout = config.request_timeout.min(Duration::from_secs(10));
        probe(
            &config.broker_addresses(),
            connect_timeout,
            "bootstrap servers",
        )
        .await?;
        check_credentials(&config, connect_timeout).await?;
        let cc = rdkafka_config(&config);
        let admin: Admin = cc.create().map_err(|e| match e {
            rdkafka::error::KafkaError::ClientConfig(_, ref desc, ref key, _) => {
                KafkaError::InvalidSetting {
                    key: key.clone(),
                    message: desc.clone(),
                }
            }
            other => KafkaError::client("creating the Kafka admin client", other),
        })?;
        let http = reqwest::Client::builder()
            .timeout(config.request_timeout)
            .build()
            .map_err(|e| KafkaError::InvalidSetting {
                key: super::config::BROKER_STATE_URL.into(),
                message: e.to_string(),
            })?;
        Ok(Self {
            admin: Arc::new(admin),
            config: Arc::new(config),
            http,
            extra_broker_ids: Vec::new(),
        })
    }

    /// Broker ids the cluster may not report right now (e.g. the platform's node list), so
    /// a stopped broker with no partitions still shows up, fenced.
    #[must_use]
    pub fn with_known_brokers(mut self, ids: Vec<i32>) -> Self {
        self.extra_broker_ids = ids;
        self
    }

    /// The connection settings.
    #[must_use]
    pub fn config(&self) -> &ConnectionConfig {
        &self.config
    }

    pub(super) fn timeout(&self) -> Duration {
        self.config.request_timeout
    }

    async fn blocking<T: Send + 'static>(
        &self,
        what: &'static str,
        f: impl FnOnce(&Admin, Duration) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let admin = Arc::clone(&self.admin);
        let timeout = self.timeout();
        tokio::task::spawn_blocking(move || f(&admin, timeout))
            .await
            .map_err(|e| KafkaError::Protocol {
                what: what.into(),
                address: "librdkafka".into(),
                message: format!("worker thread failed: {e}"),
            })?
    }

    fn options(&self) -> AdminOptions {
        AdminOptions::new().request_timeout(Some(self.timeout()))
    }

    /// Opens a wire-path connection for `needed_for`: to the controllers when
    /// `bootstrap.controllers` is configured, else to the brokers (which forward).
    pub async fn wire_connection(&self, needed_for: &str) -> Result<Connection> {
        let security = self.config.wire_security(needed_for)?;
        let controllers = self.config.controller_addresses();
        let addresses = if controllers.is_empty() {
            self.config.broker_addresses()
        } else {
            controllers
        };
        connect_any(&addresses, &security, self.timeout(), needed_for).await
    }

    /// Opens a wire-path connection to a bootstrap broker.
    pub async fn wire_connection_to_brokers(&self, needed_for: &str) -> Result<Connection> {
        let security = self.config.wire_security(needed_for)?;
        connect_any(
            &self.config.broker_addresses(),
            &security,
            self.timeout(),
            needed_for,
        )
        .await
    }

    /// Opens a wire-path connection to one address.
    pub async fn wire_connection_to(&self, address: &str, needed_for: &str) -> Result<Connection> {
        let security = self.config.wire_security(needed_for)?;
        Connection::connect(address, &security, self.timeout()).await
    }

    /// A wire connection for the quorum and reassignment requests. With `bootstrap.controllers` it goes to
    /// the active controller (other controllers answer DescribeQuorum with
    /// NOT_LEADER_OR_FOLLOWER), and the controllers' addresses come along; without, it goes
    /// to a broker, which forwards.
    pub(super) async fn quorum_connection(&self) -> Result<QuorumConnection> {
        let needed_for = "the controller quorum check (DescribeQuorum)";
        let mut conn = self.wire_connection(needed_for).await?;
        if self.config.controller_addresses().is_empty() {
            return Ok(QuorumConnection {
                conn,
                active_controller: None,
                controllers: BTreeMap::new(),
            });
        }
        let (leader, controllers) = wire_admin::describe_controllers(&mut conn).await?;
        let leader = leader.ok_or_else(|| KafkaError::NoActiveController {
            address: conn.address().into(),
        })?;
        let (host, port) =
            controllers
                .get(&leader)
                .cloned()
                .ok_or_else(|| KafkaError::Protocol {
                    what: "DescribeCluster".into(),
                    address: conn.address().into(),
                    message: format!(
                        "the active controller {leader} is not among the listed controllers"
                    ),
                })?;
        let address = format!("{host}:{port}");
        if address != conn.address() {
            conn = self.wire_connection_to(&address, needed_for).await?;
        }
        Ok(QuorumConnection {
            conn,
            active_controller: Some(leader),
            controllers,
        })
    }

    async fn broker_state(
        &self,
        setting: &str,
        id: i32,
        host: &str,
    ) -> std::result::Result<EndpointState, String> {
        let url = broker_state_url(setting, id, host)
            .ok_or_else(|| format!("no broker-state URL for node {id} in {setting:?}"))?;
        let response = self
            .http
            .get(&url)
            .send()
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("{url}: HTTP {status}"));
        }
        let body: serde_json::Value = response.json().await.map_err(|e| format!("{url}: {e}"))?;
        parse_broker_state(&body).ok_or_else(|| format!("{url}: no brokerState in {body}"))
    }

    /// Starts a partition reassignment over the wire path (tests use it; the roller does not).
    pub async fn alter_partition_reassignment(
        &self,
        topic: &str,
        partition: i32,
        replicas: &[i32],
    ) -> Result<()> {
        let mut conn = self.quorum_connection().await?.conn;
        wire_admin::alter_partition_reassignment(
            &mut conn,
            topic,
            partition,
            replicas,
            millis(self.timeout()),
        )
        .await
    }

    /// Cancels the ongoing reassignments of `partitions` (see
    /// [`wire_admin::cancel_reassignments`]).
    pub async fn cancel_reassignments(
        &self,
        partitions: &[(String, i32)],
    ) -> Result<Vec<((String, i32), Option<String>)>> {
        let mut conn = self.quorum_connection().await?.conn;
        wire_admin::cancel_reassignments(&mut conn, partitions, millis(self.timeout())).await
    }

    /// Ongoing partition reassignments.
    pub async fn list_reassignments(&self) -> Result<Vec<Reassignment>> {
        let mut conn = self.quorum_connection().await?.conn;
        wire_admin::list_reassignments(&mut conn, millis(self.timeout())).await
    }

    /// Every config of each of `topics` (DescribeConfigs TOPIC, 200 topics per request), by
    /// topic (`throttles list`, `health`: the throttled-replica lists).
    ///
    /// # Errors
    /// A request or one topic's answer fails.
    pub async fn describe_topic_configs(
        &self,
        topics: &[String],
    ) -> Result<BTreeMap<String, Vec<ConfigEntry>>> {
        let mut out = BTreeMap::new();
        for chunk in topics.chunks(200) {
            let what = format!("DescribeConfigs of {} topic(s)", chunk.len());
            let specs: Vec<ResourceSpecifier<'_>> =
                chunk.iter().map(|t| ResourceSpecifier::Topic(t)).collect();
            let results = self
                .admin
                .describe_configs(specs.iter(), &self.options())
                .await
                .map_err(|e| KafkaError::client(what.clone(), e))?;
            for (topic, result) in chunk.iter().zip(results) {
                match result {
                    Ok(r) => {
                        out.insert(topic.clone(), r.entries.iter().map(convert_entry).collect());
                    }
                    Err(code) => {
                        return Err(describe_error(
                            format!("DescribeConfigs of topic {topic}"),
                            None,
                            code,
                        ));
                    }
                }
            }
        }
        Ok(out)
    }
}

fn millis(d: Duration) -> i32 {
    i32::try_from(d.as_millis()).unwrap_or(i32::MAX)
}

/// Reads a broker-state endpoint answer: Strimzi KafkaAgent's
/// `{"brokerState": 2, "recoveryState": {...}}` or a Jolokia read of the
/// `kafka.server:type=KafkaServer,name=BrokerState` gauge (`{"value": 3, "status": 200}`).
#[must_use]
pub fn parse_broker_state(body: &serde_json::Value) -> Option<EndpointState> {
    let code = |v: &serde_json::Value| v.as_i64().or_else(|| v.as_f64().map(|f| f as i64));
    if let Some(state) = body.get("brokerState").and_then(code) {
        let recovery = body.get("recoveryState").and_then(|r| {
            Some(RecoveryProgress {
                remaining_logs: r.get("remainingLogsToRecover")?.as_i64()?,
                remaining_segments: r.get("remainingSegmentsToRecover")?.as_i64()?,
            })
        });
        return Some(EndpointState {
            state: BrokerState::from_code(state),
            recovery,
        });
    }
    if body.get("status").and_then(serde_json::Value::as_i64) == Some(200) {
        return Some(EndpointState {
            state: BrokerState::from_code(body.get("value").and_then(code)?),
            recovery: None,
        });
    }
    None
}

/// The broker-state URL of node `id`: `setting` is a template (`{host}`, `{id}`) or a
/// list `ID=URL,ID=URL`.
#[must_use]
pub fn broker_state_url(setting: &str, id: i32, host: &str) -> Option<String> {
    if setting.contains("{host}") || setting.contains("{id}") || !setting.contains('=') {
        return Some(
            setting
                .replace("{host}", host)
                .replace("{id}", &id.to_string()),
        );
    }
    // URLs may contain commas (JMX names): an entry starts only at `<digits>=`.
    let mut entries: Vec<(i32, String)> = Vec::new();
    for part in setting.split(',') {
        let starts_entry = part
            .split_once('=')
            .and_then(|(n, _)| n.trim().parse::<i32>().ok());
        match (starts_entry, entries.last_mut()) {
            (Some(n), _) => {
                let url = part.split_once('=').map_or("", |(_, u)| u);
                entries.push((n, url.trim().to_string()));
            }
            (None, Some((_, url))) => {
                url.push(',');
                url.push_str(part);
            }
            (None, None) => {}
        }
    }
    entries
        .into_iter()
        .find(|(n, _)| *n == id)
        .map(|(_, url)| url)
}

/// The broker ids a broker-state list (`ID=URL,ID=URL`) has no entry for; empty for a
/// template (`{host}`, `{id}`) or a single URL, which cover every broker.
#[must_use]
pub fn missing_broker_state_ids(setting: &str, ids: impl IntoIterator<Item = i32>) -> Vec<i32> {
    let mut missing: Vec<i32> = ids
        .into_iter()
        .filter(|id| broker_state_url(setting, *id, "").is_none())
        .collect();
    missing.sort_unstable();
    missing.dedup();
    missing
}

fn convert_entry(e: &rdkafka::admin::ConfigEntry) -> ConfigEntry {
    use rdkafka::admin::ConfigSource as S;
    ConfigEntry {
        name: e.name.clone(),
        value: if e.is_sensitive {
            None
        } else {
            e.value.clone()
        },
        read_only: e.is_read_only,
        source: match e.source {
            S::DynamicTopic => ConfigSource::DynamicTopic,
            S::DynamicBroker => ConfigSource::DynamicBroker,
            S::DynamicDefaultBroker => ConfigSource::DynamicDefaultBroker,
            S::StaticBroker => ConfigSource::StaticBroker,
            S::Default => ConfigSource::Default,
            _ => ConfigSource::Unknown,
        },
        sensitive: e.is_sensitive,
    }
}

fn describe_error(
    what: String,
    node: Option<i32>,
    code: rdkafka::types::RDKafkaErrorCode,
) -> KafkaError {
    let num = code as i32;
    KafkaError::Api {
        what,
        node,
        code: i16::try_from(num).unwrap_or(-1),
        name: format!("{code:?}"),
        message: Some(code.to_string()),
    }
}

/// A wire connection for quorum requests and what was learnt finding it.
pub(super) struct QuorumConnection {
    pub(super) conn: Connection,
    /// The controller the connection goes to, when it goes to the active controller.
    pub(super) active_controller: Option<i32>,
    pub(super) controllers: BTreeMap<i32, (String, u16)>,
}

impl KafkaClient {
    /// Every topic name, and the id of the broker that just answered (librdkafka asks a
    /// broker it is connected to, so that one is alive; -1 when librdkafka does not say).
    async fn metadata(&self) -> Result<(i32, Vec<String>)> {
        self.blocking("Metadata", |admin, timeout| {
            let md = admin
                .inner()
                .fetch_metadata(None, timeout)
                .map_err(|e| KafkaError::client("listing topics (Metadata)", e))?;
            let mut names: Vec<String> = md.topics().iter().map(|t| t.name().to_string()).collect();
            names.sort();
            Ok((md.orig_broker_id(), names))
        })
        .await
    }

    async fn describe_topics_via(
        &self,
        broker: i32,
        names: Vec<String>,
    ) -> Result<Vec<TopicDescription>> {
        self.blocking("DescribeTopics", move |admin, timeout| {
            ffi::describe_topics(admin, &names, (broker >= 0).then_some(broker), timeout)
        })
        .await
    }

    /// Effective `min.insync.replicas` per topic, asked of `broker`.
    async fn min_insync_replicas_via(
        &self,
        broker: i32,
        topics: Vec<String>,
    ) -> Result<BTreeMap<String, i32>> {
        let mut out = BTreeMap::new();
        // Topic configs can come from any broker; by default librdkafka asks "the
        // controller", which may be a broker that has just died.
        let options = self.options().broker_id((broker >= 0).then_some(broker));
        // Batches keep requests small on clusters with many topics.
        for chunk in topics.chunks(200) {
            let specs: Vec<ResourceSpecifier<'_>> =
                chunk.iter().map(|t| ResourceSpecifier::Topic(t)).collect();
            let results = self
                .admin
                .describe_configs(specs.iter(), &options)
                .await
                .map_err(|e| KafkaError::client("DescribeConfigs of topics", e))?;
            for (topic, result) in chunk.iter().zip(results) {
                let resource = result.map_err(|code| {
                    describe_error(format!("DescribeConfigs of topic {topic:?}"), None, code)
                })?;
                if let Some(v) = resource
                    .get("min.insync.replicas")
                    .and_then(|e| e.value.as_deref())
                    .and_then(|v| v.parse().ok())
                {
                    out.insert(topic.clone(), v);
                }
            }
        }
        Ok(out)
    }

    /// Per topic whose configs could be read (asked of `broker`): its topic-level
    /// `min.insync.replicas` override (config source DYNAMIC_TOPIC_CONFIG), `None` when the
    /// topic has none. A topic whose configs could not be read is left out (unknown: the
    /// roll refuses to restart its replicas), with the reason logged.
    async fn topic_min_isr_overrides_via(
        &self,
        broker: i32,
        topics: Vec<String>,
    ) -> BTreeMap<String, Option<i32>> {
        let mut out = BTreeMap::new();
        let options = self.options().broker_id((broker >= 0).then_some(broker));
        for chunk in topics.chunks(200) {
            let specs: Vec<ResourceSpecifier<'_>> =
                chunk.iter().map(|t| ResourceSpecifier::Topic(t)).collect();
            let results = match self.admin.describe_configs(specs.iter(), &options).await {
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
            for (topic, result) in chunk.iter().zip(results) {
                let resource = match result {
                    Ok(r) => r,
                    Err(code) => {
                        tracing::warn!(
                            "DescribeConfigs of topic {topic:?} failed: {code}; its \
                             min.insync.replicas is unknown"
                        );
                        continue;
                    }
                };
                let entry = resource.get("min.insync.replicas");
                let value = match entry {
                    Some(e) if e.source == rdkafka::admin::ConfigSource::DynamicTopic => {
                        match e
                            .value
                            .as_deref()
                            .and_then(|v| v.trim().parse::<i32>().ok())
                        {
                            Some(v) => Some(v),
                            None => {
                                tracing::warn!(
                                    "topic {topic:?}: unreadable min.insync.replicas override \
                                     {:?}; treated as unknown",
                                    e.value
                                );
                                continue;
                            }
                        }
                    }
                    _ => None,
                };
                out.insert(topic.clone(), value);
            }
        }
        out
    }

    /// Partition metadata as every unfenced broker other than `first` sees it (brokers that
    /// fail to answer are skipped: the first view is always there).
    async fn other_topic_views(
        &self,
        first: i32,
        brokers: &[i32],
        names: &[String],
    ) -> Vec<(i32, Vec<TopicDescription>)> {
        let mut asks = tokio::task::JoinSet::new();
        for &id in brokers.iter().filter(|id| **id != first) {
            let (client, names) = (self.clone(), names.to_vec());
            asks.spawn(async move { (id, client.describe_topics_via(id, names).await) });
        }
        let mut views = Vec::new();
        while let Some(joined) = asks.join_next().await {
            match joined {
                Ok((id, Ok(view))) => views.push((id, view)),
                Ok((id, Err(e))) => {
                    tracing::debug!("broker {id} did not describe the topics: {e}");
                }
                Err(e) => tracing::debug!("DescribeTopics task failed: {e}"),
            }
        }
        views.sort_by_key(|(id, _)| *id);
        views
    }

    /// `process.roles` of each controller, asked of that controller over
    /// `bootstrap.controllers` security settings (KIP-919); empty without
    /// `bootstrap.controllers`.
    async fn controller_roles(
        &self,
        controllers: &ControllerAddresses,
    ) -> BTreeMap<i32, std::result::Result<String, String>> {
        if self.config.controller_addresses().is_empty() {
            return BTreeMap::new();
        }
        let timeout = self.timeout().min(Duration::from_secs(5));
        let mut asks = tokio::task::JoinSet::new();
        for (&id, (host, port)) in controllers {
            let address = format!("{host}:{port}");
            let client = self.clone();
            asks.spawn(async move {
                let ask = async {
                    let security = client.config.wire_security("reading process.roles")?;
                    let mut conn = Connection::connect(&address, &security, timeout).await?;
                    wire_admin::describe_node_config(&mut conn, id, "process.roles").await
                };
                let r = match tokio::time::timeout(timeout, ask).await {
                    Ok(Ok(Some(v))) => Ok(v),
                    Ok(Ok(None)) => Err(format!("{address} reported no process.roles")),
                    Ok(Err(e)) => Err(e.to_string()),
                    Err(_) => Err(format!("{address}: no answer within {timeout:?}")),
                };
                (id, r)
            });
        }
        let mut out = BTreeMap::new();
        while let Some(joined) = asks.join_next().await {
            if let Ok((id, r)) = joined {
                out.insert(id, r);
            }
        }
        out
    }

    async fn describe_cluster_via(&self, broker: i32) -> Result<ClusterDescription> {
        self.blocking("DescribeCluster", move |admin, timeout| {
            ffi::describe_cluster(admin, (broker >= 0).then_some(broker), timeout)
        })
        .await
    }
}

impl KafkaAdmin for KafkaClient {
    async fn describe_cluster(&self) -> Result<ClusterDescription> {
        let (broker, _) = self.metadata().await?;
        self.describe_cluster_via(broker).await
    }

    async fn list_topics(&self) -> Result<Vec<String>> {
        Ok(self.metadata().await?.1)
    }

    async fn describe_topics(&self, names: Vec<String>) -> Result<Vec<TopicDescription>> {
        let (broker, _) = self.metadata().await?;
        self.describe_topics_via(broker, names).await
    }

    async fn describe_broker_configs(&self, id: i32) -> Result<Vec<ConfigEntry>> {
        let what = format!("DescribeConfigs of broker {id}");
        let results = self
            .admin
            .describe_configs([&ResourceSpecifier::Broker(id)], &self.options())
            .await
            .map_err(|e| KafkaError::client(what.clone(), e))?;
        match results.into_iter().next() {
            Some(Ok(resource)) => Ok(resource.entries.iter().map(convert_entry).collect()),
            Some(Err(code)) => Err(describe_error(what, Some(id), code)),
            None => Ok(Vec::new()),
        }
    }

    async fn min_insync_replicas(&self, topics: Vec<String>) -> Result<BTreeMap<String, i32>> {
        let (broker, _) = self.metadata().await?;
        self.min_insync_replicas_via(broker, topics).await
    }

    async fn incremental_alter_configs(
        &self,
        target: ConfigTarget,
        changes: Vec<ConfigChange>,
    ) -> Result<()> {
        if target == ConfigTarget::ClusterDefault {
            // librdkafka cannot address a resource with an empty name: the wire path can.
            let mut conn = self
                .wire_connection_to_brokers("altering the cluster-wide broker default")
                .await?;
            return wire_admin::alter_cluster_default(&mut conn, &changes).await;
        }
        self.blocking("IncrementalAlterConfigs", move |admin, timeout| {
            ffi::incremental_alter_configs(admin, &target, &changes, timeout)
        })
        .await
    }

    async fn elect_preferred_leaders(
        &self,
        partitions: Option<Vec<(String, i32)>>,
    ) -> Result<Vec<ElectionOutcome>> {
        let (broker, _) = self.metadata().await?;
        self.blocking("ElectLeaders", move |admin, timeout| {
            ffi::elect_preferred_leaders(
                admin,
                partitions.as_deref(),
                (broker >= 0).then_some(broker),
                timeout,
            )
        })
        .await
    }
}

impl ClusterObserver for KafkaClient {
    async fn observe(&self) -> Result<KafkaObservation> {
        // Everything the safety checks need; any failure fails the observation.
        let (live, names) = self.metadata().await?;
        let cluster = self.describe_cluster_via(live).await?;
        let unfenced: Vec<i32> = cluster.nodes.iter().map(|n| n.id).collect();
        // The ISR as every reachable broker sees it (merged conservatively in `assemble`):
        // one broker's metadata may be stale. The first view is asked of the broker that
        // answered Metadata; when that one is not known by id (a bootstrap connection) or does
        // not answer, librdkafka would ask "the controller", which KRaft names at random among
        // the registered brokers: maybe one that crashed and is not fenced yet. Then the other
        // registered brokers are asked in turn, and the first that answers is `live`.
        let (live, first) = match self.describe_topics_via(live, names.clone()).await {
            Ok(view) if live >= 0 => (live, view),
            first_try => {
                let mut found = None;
                for &id in unfenced.iter().filter(|id| **id != live) {
                    match self.describe_topics_via(id, names.clone()).await {
                        Ok(view) => {
                            found = Some((id, view));
                            break;
                        }
                        Err(e) => tracing::debug!("broker {id} did not describe the topics: {e}"),
                    }
                }
                match (found, first_try) {
                    (Some(answer), _) => answer,
                    (None, Ok(view)) => (live, view),
                    (None, Err(e)) => return Err(e),
                }
            }
        };
        let mut topic_views = vec![(live, first)];
        // The other views and the topic configs are asked while the broker configs are
        // (below): a broker that just died makes each of them wait for the request timeout.
        let other_views = self.other_topic_views(live, &unfenced, &names);
        let topic_configs = self.topic_min_isr_overrides_via(live, names.clone());
        // A broker that died moments ago is still registered until its session times out;
        // asking it times out. That must not hide the rest of the cluster: ask all brokers at
        // once and record who did not answer.
        let mut asks = tokio::task::JoinSet::new();
        for n in &cluster.nodes {
            let (client, id) = (self.clone(), n.id);
            asks.spawn(async move { (id, client.describe_broker_configs(id).await) });
        }
        let (others, topic_min_isr) = tokio::join!(other_views, topic_configs);
        topic_views.extend(others);
        let mut broker_configs = BTreeMap::new();
        let mut unreachable_brokers = BTreeMap::new();
        while let Some(joined) = asks.join_next().await {
            match joined {
                Ok((id, Ok(cfg))) => {
                    broker_configs.insert(id, cfg);
                }
                Ok((id, Err(e))) => {
                    unreachable_brokers.insert(id, e.to_string());
                }
                Err(e) => {
                    return Err(KafkaError::Protocol {
                        what: "DescribeConfigs".into(),
                        address: "librdkafka".into(),
                        message: format!("worker task failed: {e}"),
                    });
                }
            }
        }
        let QuorumConnection {
            mut conn,
            active_controller,
            controllers,
        } = self.quorum_connection().await?;
        let (quorum, mut listeners) = wire_admin::describe_quorum(&mut conn).await?;
        listeners.extend(controllers);
        let reassignments =
            wire_admin::list_reassignments(&mut conn, millis(self.timeout())).await?;
        // The fetch timeout that governs the quorum is the active controller's own; only a
        // connection to that controller can read it.
        let leader_fetch_timeout_ms = match (active_controller, quorum.leader_id) {
            (Some(asked), Some(leader)) if asked == leader => wire_admin::describe_node_config(
                &mut conn,
                leader,
                "controller.quorum.fetch.timeout.ms",
            )
            .await?
            .and_then(|v| v.trim().parse().ok()),
            _ => None,
        };
        drop(conn);
        // Fencing as Kafka >= 4.0 reports it (older brokers: inferred in `assemble`).
        let mut brokers_conn = self
            .wire_connection_to_brokers("listing fenced brokers")
            .await?;
        let fenced_brokers = wire_admin::describe_fenced_brokers(&mut brokers_conn).await?;
        drop(brokers_conn);
        let endpoint_states = match &self.config.broker_state_url {
            None => None,
            Some(template) => {
                let mut states = BTreeMap::new();
                for n in cluster.nodes.iter().chain(fenced_brokers.iter().flatten()) {
                    states.insert(n.id, self.broker_state(template, n.id, &n.host).await);
                }
                Some((template.clone(), states))
            }
        };
        let controller_roles = self.controller_roles(&listeners).await;
        let leader = quorum.leader_id;
        assemble(RawObservation {
            cluster,
            fenced_brokers,
            topic_views,
            topic_min_isr,
            controller_roles,
            broker_configs,
            unreachable_brokers,
            quorum,
            controller_addresses: listeners,
            leader_fetch_timeout_ms,
            reassignments,
            extra_broker_ids: self.extra_broker_ids.clone(),
            endpoint_states,
        })
        .map_err(|e| KafkaError::InvalidSetting {
            key: super::config::BOOTSTRAP_CONTROLLERS.into(),
            message: format!("{e} (active controller: {leader:?})"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strimzi_agent_answers() {
        let s = parse_broker_state(&serde_json::json!({"brokerState": 3})).unwrap();
        assert_eq!((s.state, s.recovery), (BrokerState::Running, None));
        let s = parse_broker_state(&serde_json::json!({
            "brokerState": 2,
            "recoveryState": {"remainingLogsToRecover": 5, "remainingSegmentsToRecover": 40}
        }))
        .unwrap();
        assert_eq!(s.state, BrokerState::Recovery);
        assert_eq!(s.recovery.unwrap().remaining_logs, 5);
        assert!(parse_broker_state(&serde_json::json!({"x": 1})).is_none());
        let s = parse_broker_state(&serde_json::json!({"value": 3, "status": 200})).unwrap();
        assert_eq!(s.state, BrokerState::Running);
        assert!(
            parse_broker_state(&serde_json::json!({"status": 404, "error": "no mbean"})).is_none()
        );
    }

    #[test]
    fn broker_state_urls() {
        assert_eq!(
            broker_state_url("http://{host}:8080/v1/broker-state/", 3, "k3").as_deref(),
            Some("http://k3:8080/v1/broker-state/")
        );
        let list = "1=http://a:1/x,2=http://b:2/jolokia/read/kafka.server:type=KafkaServer,name=BrokerState/Value";
        assert_eq!(
            broker_state_url(list, 1, "h").as_deref(),
            Some("http://a:1/x")
        );
        assert_eq!(
            broker_state_url(list, 2, "h").as_deref(),
            Some("http://b:2/jolokia/read/kafka.server:type=KafkaServer,name=BrokerState/Value")
        );
        assert_eq!(broker_state_url(list, 3, "h"), None);
        assert_eq!(missing_broker_state_ids(list, [3, 1, 2, 5]), vec![3, 5]);
        assert!(missing_broker_state_ids("http://{host}:8080/", [1, 2]).is_empty());
    }

    #[tokio::test]
    async fn unreachable_bootstrap_fails_fast_with_every_address() {
        let a = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let b = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addrs = format!("{},{}", a.local_addr().unwrap(), b.local_addr().unwrap());
        drop((a, b));
        let err = KafkaClient::connect(ConnectionConfig::new(addrs.clone()))
            .await
            .unwrap_err();
        assert!(matches!(err, KafkaError::Unreachable { .. }), "{err}");
        for addr in addrs.split(',') {
            assert!(err.to_string().contains(addr), "{err}");
        }
    }
}
