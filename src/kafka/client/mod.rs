//! The adapter's client: librdkafka for what it does, the wire path for the rest.
//!
//! [`KafkaClient`] implements [`KafkaAdmin`] (reads and the two changes the roller makes:
//! incremental config changes and preferred leader elections) and [`ClusterObserver`]
//! (one whole [`KafkaObservation`](crate::kafka::KafkaObservation)). librdkafka calls block, so they run on
//! `spawn_blocking`; wire-path connections are opened per observation and dropped.
//!
//! An observation is made on the wire path only (issue #27: at 1,000 brokers librdkafka's
//! one main thread parsing every broker's answer was the bottleneck, and its DescribeCluster
//! fails on many racked brokers with short host names). Its cost grows with the partitions,
//! not brokers x partitions: partition metadata from [`METADATA_SOURCES`] brokers caught up
//! with the metadata quorum (none caught up: the observation fails),
//! broker configs kept between observations and asked again only when something says they
//! may have changed, every fan-out bounded by [`FAN_OUT`]. What the safety checks decide on
//! (ISR, leaders, fencing, quorum, broker states, `min.insync.replicas`) is read every time.
//!
//! Layout: [`api`] (the traits), [`lazy_admin`] (librdkafka's admin client, made on demand),
//! [`requests`] (the Admin API requests outside the observation), [`observe`] (the
//! observation's fan-out), [`sources`] (which brokers the quorum's word lets it trust),
//! [`cache`] (broker configs kept between observations), [`broker_state`] (broker-state
//! endpoints).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rdkafka::ClientConfig;

use super::config::ConnectionConfig;
use super::error::{KafkaError, Result};
use super::wire::{Connection, connect_any};
use super::wire_admin;

pub mod api;
pub mod broker_state;
pub mod cache;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod lazy_admin;
pub mod needed;
pub mod observe;
pub mod requests;
pub mod sources;

pub use api::{ClusterObserver, KafkaAdmin};
pub use broker_state::{broker_state_url, missing_broker_state_ids, parse_broker_state};
use cache::ObservationCache;
pub use cache::{CONFIG_REFRESH_OBSERVATIONS, OBSERVED_BROKER_KEYS};
pub use lazy_admin::ADMIN_IDLE;
use lazy_admin::{LazyAdmin, setting_error};
pub use needed::BrokerConfigReads;
pub use observe::FAN_OUT;
pub use sources::{
    FETCH_LIVENESS_MS, METADATA_SOURCES, metadata_candidates, metadata_caught_up, vouched_alive,
};

/// The Kafka client of kafkaops.
#[derive(Clone)]
pub struct KafkaClient {
    /// librdkafka's admin client, made only when a request needs it (shared by clones).
    admin: Arc<LazyAdmin>,
    config: Arc<ConnectionConfig>,
    http: reqwest::Client,
    /// Broker ids known from elsewhere (the platform's node list).
    extra_broker_ids: Vec<i32>,
    /// What one observation keeps for the next (shared by clones).
    cache: Arc<Mutex<ObservationCache>>,
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
        // librdkafka's settings are checked now (each key and value); its client is made
        // only when a request needs it (see [`ADMIN_IDLE`]).
        let cc = rdkafka_config(&config);
        cc.create_native_config().map_err(setting_error)?;
        let http = reqwest::Client::builder()
            .timeout(config.request_timeout)
            .build()
            .map_err(|e| KafkaError::InvalidSetting {
                key: super::config::BROKER_STATE_URL.into(),
                message: e.to_string(),
            })?;
        Ok(Self {
            admin: Arc::new(LazyAdmin {
                slot: Mutex::default(),
                config: Mutex::new(Some(cc)),
            }),
            config: Arc::new(config),
            http,
            extra_broker_ids: Vec::new(),
            cache: Arc::default(),
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
}

/// A wire connection for quorum requests and what was learnt finding it.
pub(super) struct QuorumConnection {
    pub(super) conn: Connection,
    /// The controller the connection goes to, when it goes to the active controller.
    pub(super) active_controller: Option<i32>,
    pub(super) controllers: BTreeMap<i32, (String, u16)>,
}

fn millis(d: Duration) -> i32 {
    i32::try_from(d.as_millis()).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

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
