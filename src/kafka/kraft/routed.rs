//! The [`KafkaClient`] side of the KRaft requests: which node each one must go to (the active
//! controller with `bootstrap.controllers`, else a broker that forwards it), with the client's
//! connection settings and timeouts, and the listener probe that tells whether a process runs.

use std::collections::BTreeMap;

use super::{
    FeatureUpdate, NodeFeatureAnswer, NodeFeatures, RegisteredBroker, add_raft_voter,
    controller_endpoints, describe_registered_brokers, remove_raft_voter, unregister_broker,
    update_features,
};
use crate::kafka::client::KafkaClient;
use crate::kafka::error::{KafkaError, Result};
use crate::kafka::observation::{RaftEndpoint, RawQuorum};
use crate::kafka::wire::Connection;
use crate::kafka::wire_admin;

fn millis(d: std::time::Duration) -> i32 {
    i32::try_from(d.as_millis()).unwrap_or(i32::MAX)
}

impl KafkaClient {
    /// DescribeQuorum in full, from the active controller (with `bootstrap.controllers`) or
    /// through a broker.
    pub async fn describe_quorum(&self) -> Result<RawQuorum> {
        let mut conn = self.quorum_connection().await?.conn;
        Ok(wire_admin::describe_quorum(&mut conn).await?.0)
    }

    /// A connection for a quorum or feature change: to the active controller with
    /// `bootstrap.controllers`, else to a broker, which forwards.
    async fn change_connection(&self) -> Result<Connection> {
        Ok(self.quorum_connection().await?.conn)
    }

    /// AddRaftVoter (see the module docs); returns once the new voter set is committed.
    pub async fn add_raft_voter(
        &self,
        voter_id: i32,
        directory_id: &str,
        endpoints: &[RaftEndpoint],
    ) -> Result<()> {
        let mut conn = self.change_connection().await?;
        // Kafka's own wait, inside our request timeout.
        let kafka_timeout = millis(self.timeout()).saturating_sub(1000).max(1000);
        add_raft_voter(&mut conn, voter_id, directory_id, endpoints, kafka_timeout).await
    }

    /// RemoveRaftVoter (see the module docs).
    pub async fn remove_raft_voter(&self, voter_id: i32, directory_id: &str) -> Result<()> {
        let mut conn = self.change_connection().await?;
        remove_raft_voter(&mut conn, voter_id, directory_id).await
    }

    /// UpdateFeatures (see the module docs); `validate_only` changes nothing.
    pub async fn update_features(
        &self,
        updates: &[FeatureUpdate],
        validate_only: bool,
    ) -> Result<()> {
        let mut conn = self.change_connection().await?;
        let kafka_timeout = millis(self.timeout()).saturating_sub(1000).max(1000);
        update_features(&mut conn, updates, validate_only, kafka_timeout).await
    }

    /// UnregisterBroker (see the module docs).
    pub async fn unregister_broker(&self, id: i32) -> Result<()> {
        let mut conn = self.change_connection().await?;
        unregister_broker(&mut conn, id).await
    }

    /// The finalized feature levels as the active controller (with `bootstrap.controllers`) or
    /// a broker reports them, with that node's supported ranges.
    pub async fn finalized_features(&self) -> Result<NodeFeatures> {
        let mut conn = self.change_connection().await?;
        Ok(conn.refresh_features().await?.clone())
    }

    /// Every registered broker, fenced ones included (DescribeCluster v2, Kafka >= 4.0).
    pub async fn registered_brokers(&self) -> Result<Vec<RegisteredBroker>> {
        let needed_for = "listing registered brokers";
        let mut conn = self.wire_connection_to_brokers(needed_for).await?;
        describe_registered_brokers(&mut conn)
            .await?
            .ok_or_else(|| KafkaError::UnsupportedApi {
                address: conn.address().into(),
                api: "DescribeCluster v2 (Kafka >= 4.0)".into(),
                needed_for: needed_for.into(),
            })
    }

    /// Every registered controller (voters and observers) with its endpoint on the controller
    /// listener kafkaops connects to (DescribeCluster `EndpointType` 2 on a controller).
    /// Needs `bootstrap.controllers`: brokers do not list controllers.
    pub async fn registered_controllers(&self) -> Result<BTreeMap<i32, (String, u16)>> {
        if self.config().controller_addresses().is_empty() {
            return Err(KafkaError::InvalidSetting {
                key: "bootstrap.controllers".into(),
                message: "listing the controllers (observers included) needs the controllers' \
                          addresses"
                    .into(),
            });
        }
        Ok(self.quorum_connection().await?.controllers)
    }

    /// The advertised controller endpoints of controller `id`, from its own configs (asked of
    /// it on its controller listener, found among the registered controllers): what
    /// AddRaftVoter must carry for it.
    pub async fn controller_endpoints(&self, id: i32) -> Result<Vec<RaftEndpoint>> {
        let controllers = self.registered_controllers().await?;
        let (host, port) = controllers.get(&id).ok_or_else(|| KafkaError::Protocol {
            what: "DescribeCluster".into(),
            address: self.config().controller_addresses().join(","),
            message: format!("controller {id} is not registered"),
        })?;
        let address = format!("{host}:{port}");
        let mut conn = self
            .wire_connection_to(&address, "reading a controller's listeners")
            .await?;
        let keys = [
            "listeners",
            "advertised.listeners",
            "controller.listener.names",
        ];
        let configs = wire_admin::describe_node_configs(
            &mut conn,
            id,
            &keys,
            "reading a controller's listeners",
        )
        .await?;
        let get = |k: &str| configs.get(k).cloned().flatten();
        let names = get("controller.listener.names").unwrap_or_default();
        controller_endpoints(
            get("listeners").as_deref(),
            get("advertised.listeners").as_deref(),
            &names,
        )
        .map_err(|message| KafkaError::Protocol {
            what: "DescribeConfigs".into(),
            address,
            message: format!("controller {id}: {message}"),
        })
    }

    /// Every node's ApiVersions features: every registered broker (fenced ones included) on
    /// its broker listener, every controller on its controller listener (registered
    /// controllers with `bootstrap.controllers`, else the voters DescribeQuorum lists). A node
    /// that cannot be reached is in the map with the reason.
    pub async fn node_features(&self) -> Result<BTreeMap<i32, NodeFeatureAnswer>> {
        let mut addresses: BTreeMap<i32, String> = BTreeMap::new();
        let controllers = if self.config().controller_addresses().is_empty() {
            self.describe_quorum()
                .await?
                .voter_endpoints
                .into_iter()
                .filter_map(|(id, e)| e.first().map(|e| (id, (e.host.clone(), e.port))))
                .collect()
        } else {
            self.registered_controllers().await?
        };
        for (id, (host, port)) in controllers {
            addresses.insert(id, format!("{host}:{port}"));
        }
        for b in self.registered_brokers().await? {
            addresses.insert(b.id, format!("{}:{}", b.host, b.port));
        }
        let mut out = BTreeMap::new();
        for (id, address) in addresses {
            let features = match self
                .wire_connection_to(&address, "reading a node's feature levels")
                .await
            {
                Ok(conn) => Ok(conn.features().clone()),
                Err(e) => Err(e.to_string()),
            };
            out.insert(id, NodeFeatureAnswer { address, features });
        }
        Ok(out)
    }
}

/// Whether a node's process runs, told by one TCP connect to its listener `address`:
/// `Some(true)` when it accepts, `Some(false)` when the host refuses the connection (nothing
/// listens: the process is gone), `None` when nothing answered within `timeout` or the name
/// did not resolve (a host that is down or unreachable cannot tell).
pub async fn listener_accepts(address: &str, timeout: std::time::Duration) -> Option<bool> {
    match tokio::time::timeout(timeout, tokio::net::TcpStream::connect(address)).await {
        Ok(Ok(_)) => Some(true),
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::ConnectionRefused => Some(false),
        Ok(Err(_)) | Err(_) => None,
    }
}
