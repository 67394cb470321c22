//! One Kafka protocol connection, for the requests librdkafka cannot send.
//!
//! librdkafka has no DescribeQuorum, no partition-reassignment listing and cannot
//! talk to KRaft controllers (no `bootstrap.controllers`). For those, kafkaops speaks
//! the protocol itself with the `kafka-protocol` codec: framing, correlation ids,
//! ApiVersions negotiation, TLS (OpenSSL via native-tls, like librdkafka) and SASL
//! PLAIN / SCRAM. One connection serves one node; callers open short-lived
//! connections per observation, so there is no pool to keep healthy.

use std::collections::HashMap;
use std::time::Duration;

use bytes::{Buf, BufMut, Bytes, BytesMut};
use kafka_protocol::messages::{
    AddRaftVoterRequest, AddRaftVoterResponse, AlterPartitionReassignmentsRequest,
    AlterPartitionReassignmentsResponse, ApiVersionsRequest, ApiVersionsResponse,
    DescribeClusterRequest, DescribeClusterResponse, DescribeConfigsRequest,
    DescribeConfigsResponse, DescribeLogDirsRequest, DescribeLogDirsResponse,
    DescribeQuorumRequest, DescribeQuorumResponse, FetchRequest, FetchResponse,
    IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse, ListOffsetsRequest,
    ListOffsetsResponse, ListPartitionReassignmentsRequest, ListPartitionReassignmentsResponse,
    MetadataRequest, MetadataResponse, RemoveRaftVoterRequest, RemoveRaftVoterResponse,
    RequestHeader, ResponseHeader, SaslAuthenticateRequest, SaslAuthenticateResponse,
    SaslHandshakeRequest, SaslHandshakeResponse, UnregisterBrokerRequest, UnregisterBrokerResponse,
    UpdateFeaturesRequest, UpdateFeaturesResponse,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, Message, StrBytes};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

use super::config::WireSecurity;
use super::error::{KafkaError, Result, error_name};
use super::kraft::NodeFeatures;

mod security;

use security::tls_handshake;

/// A request the wire path sends: its API key, name and response type.
pub trait WireRequest: Encodable + HeaderVersion + Message {
    const KEY: i16;
    const NAME: &'static str;
    type Response: Decodable + HeaderVersion;
}

macro_rules! wire_request {
    ($req:ty, $resp:ty, $key:literal, $name:literal) => {
        impl WireRequest for $req {
            const KEY: i16 = $key;
            const NAME: &'static str = $name;
            type Response = $resp;
        }
    };
}

wire_request!(ApiVersionsRequest, ApiVersionsResponse, 18, "ApiVersions");
wire_request!(
    SaslHandshakeRequest,
    SaslHandshakeResponse,
    17,
    "SaslHandshake"
);
wire_request!(
    SaslAuthenticateRequest,
    SaslAuthenticateResponse,
    36,
    "SaslAuthenticate"
);
wire_request!(MetadataRequest, MetadataResponse, 3, "Metadata");
wire_request!(FetchRequest, FetchResponse, 1, "Fetch");
wire_request!(ListOffsetsRequest, ListOffsetsResponse, 2, "ListOffsets");
wire_request!(
    DescribeConfigsRequest,
    DescribeConfigsResponse,
    32,
    "DescribeConfigs"
);
wire_request!(
    IncrementalAlterConfigsRequest,
    IncrementalAlterConfigsResponse,
    44,
    "IncrementalAlterConfigs"
);
wire_request!(
    DescribeLogDirsRequest,
    DescribeLogDirsResponse,
    35,
    "DescribeLogDirs"
);
wire_request!(
    DescribeQuorumRequest,
    DescribeQuorumResponse,
    55,
    "DescribeQuorum"
);
wire_request!(
    DescribeClusterRequest,
    DescribeClusterResponse,
    60,
    "DescribeCluster"
);
wire_request!(
    ListPartitionReassignmentsRequest,
    ListPartitionReassignmentsResponse,
    46,
    "ListPartitionReassignments"
);
wire_request!(
    AlterPartitionReassignmentsRequest,
    AlterPartitionReassignmentsResponse,
    45,
    "AlterPartitionReassignments"
);
wire_request!(
    UpdateFeaturesRequest,
    UpdateFeaturesResponse,
    57,
    "UpdateFeatures"
);
wire_request!(
    UnregisterBrokerRequest,
    UnregisterBrokerResponse,
    64,
    "UnregisterBroker"
);
wire_request!(
    AddRaftVoterRequest,
    AddRaftVoterResponse,
    80,
    "AddRaftVoter"
);
wire_request!(
    RemoveRaftVoterRequest,
    RemoveRaftVoterResponse,
    81,
    "RemoveRaftVoter"
);

trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// Largest response we accept (Kafka's own default `socket.request.max.bytes` is 100 MiB).
const MAX_FRAME: usize = 100 * 1024 * 1024;
const CLIENT_ID: &str = "kafkaops";
/// The ApiVersions version asked first: v4 is the first that lists supported features whose
/// minimum level is 0 (KAFKA-17011), such as `kraft.version`.
const API_VERSIONS_VERSION: i16 = 4;

/// An open, authenticated connection to one Kafka node.
pub struct Connection {
    io: Box<dyn Io>,
    address: String,
    correlation_id: i32,
    /// api key -> (min, max) the server supports.
    versions: HashMap<i16, (i16, i16)>,
    /// The feature levels the server reported in the same ApiVersions answer.
    features: NodeFeatures,
    timeout: Duration,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("address", &self.address)
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// Connects to `address` (`host:port`), negotiates versions and authenticates.
    pub async fn connect(
        address: &str,
        security: &WireSecurity,
        timeout: Duration,
    ) -> Result<Self> {
        let tcp = match tokio::time::timeout(timeout, TcpStream::connect(address)).await {
            Err(_) => {
                return Err(KafkaError::Timeout {
                    what: "connecting".into(),
                    address: address.into(),
                    after: timeout,
                });
            }
            Ok(Err(e)) => {
                return Err(KafkaError::Unreachable {
                    what: "connecting".into(),
                    address: address.into(),
                    message: e.to_string(),
                });
            }
            Ok(Ok(s)) => s,
        };
        let _ = tcp.set_nodelay(true);
        let io: Box<dyn Io> = match &security.tls {
            None => Box::new(tcp),
            Some(tls) => Box::new(tls_handshake(address, tcp, tls, timeout).await?),
        };
        let mut conn = Self {
            io,
            address: address.to_string(),
            correlation_id: 0,
            versions: HashMap::new(),
            features: NodeFeatures::default(),
            timeout,
        };
        conn.negotiate_versions().await?;
        if let Some(sasl) = &security.sasl {
            conn.authenticate(sasl).await?;
        }
        tracing::debug!(
            address,
            tls = security.tls.is_some(),
            sasl = security
                .sasl
                .as_ref()
                .map_or("none", |s| s.mechanism.name()),
            "kafka-protocol connection open"
        );
        Ok(conn)
    }

    /// The address this connection goes to.
    #[must_use]
    pub fn address(&self) -> &str {
        &self.address
    }

    async fn negotiate_versions(&mut self) -> Result<()> {
        let request = ApiVersionsRequest::default()
            .with_client_software_name(StrBytes::from_static_str(CLIENT_ID))
            .with_client_software_version(StrBytes::from_static_str(env!("CARGO_PKG_VERSION")));
        let timeout = self.timeout;
        let body = tokio::time::timeout(timeout, self.exchange(&request, API_VERSIONS_VERSION))
            .await
            .map_err(|_| KafkaError::Timeout {
                what: "ApiVersions".into(),
                address: self.address.clone(),
                after: timeout,
            })??;
        let mut version = API_VERSIONS_VERSION;
        let response = match ApiVersionsResponse::decode(&mut body.clone(), version) {
            Ok(r) if r.error_code != 35 => r,
            // UNSUPPORTED_VERSION (older server): the body is in v0 format and lists the
            // ApiVersions versions the server speaks; ask again in one of those.
            _ => {
                let v0 = ApiVersionsResponse::decode(&mut body.clone(), 0).map_err(|e| {
                    self.protocol("ApiVersions", format!("cannot decode the response: {e}"))
                })?;
                if v0.error_code != 35 {
                    return Err(self.api_error("ApiVersions", v0.error_code, None));
                }
                let max = v0
                    .api_keys
                    .iter()
                    .find(|k| k.api_key == 18)
                    .map_or(0, |k| k.max_version)
                    .min(API_VERSIONS_VERSION);
                version = max;
                self.send_at(&request, max).await?
            }
        };
        if response.error_code != 0 {
            return Err(self.api_error("ApiVersions", response.error_code, None));
        }
        self.versions = response
            .api_keys
            .iter()
            .map(|k| (k.api_key, (k.min_version, k.max_version)))
            .collect();
        self.features = NodeFeatures::from_api_versions(&response, version);
        Ok(())
    }

    /// The feature levels this server reported when the connection was opened (ApiVersions):
    /// what its software supports and what it has loaded as finalized.
    #[must_use]
    pub fn features(&self) -> &NodeFeatures {
        &self.features
    }

    /// Asks ApiVersions again (same version as at connect) and returns the features: the
    /// finalized levels change when a feature is upgraded.
    pub async fn refresh_features(&mut self) -> Result<&NodeFeatures> {
        self.negotiate_versions().await?;
        Ok(&self.features)
    }

    /// The highest version of `R` both sides speak.
    pub fn version<R: WireRequest>(&self, needed_for: &str) -> Result<i16> {
        let (min, max) =
            self.versions
                .get(&R::KEY)
                .copied()
                .ok_or_else(|| KafkaError::UnsupportedApi {
                    address: self.address.clone(),
                    api: R::NAME.into(),
                    needed_for: needed_for.into(),
                })?;
        let ours = R::VERSIONS;
        let v = max.min(ours.max);
        if v < min.max(ours.min) {
            return Err(KafkaError::UnsupportedApi {
                address: self.address.clone(),
                api: format!(
                    "{} v{min}-{max} (kafkaops speaks v{}-{})",
                    R::NAME,
                    ours.min,
                    ours.max
                ),
                needed_for: needed_for.into(),
            });
        }
        Ok(v)
    }

    /// Sends `request` at the highest common version.
    pub async fn send<R: WireRequest>(
        &mut self,
        request: &R,
        needed_for: &str,
    ) -> Result<(i16, R::Response)> {
        let v = self.version::<R>(needed_for)?;
        Ok((v, self.send_at(request, v).await?))
    }

    /// Sends `request` at `version` and waits for its response.
    pub async fn send_at<R: WireRequest>(
        &mut self,
        request: &R,
        version: i16,
    ) -> Result<R::Response> {
        let timeout = self.timeout;
        let sent = std::time::Instant::now();
        let result = match tokio::time::timeout(timeout, self.round_trip(request, version)).await {
            Ok(r) => r,
            Err(_) => Err(KafkaError::Timeout {
                what: R::NAME.into(),
                address: self.address.clone(),
                after: timeout,
            }),
        };
        // Each request and its answer for the run's journal (crate::output::journal): the
        // API, not the body (a SCRAM credential change carries salted passwords).
        tracing::debug!(
            system = "kafka",
            request = format!("{} v{version} to {}", R::NAME, self.address).as_str(),
            answer = match &result {
                Ok(_) => "ok".to_string(),
                Err(e) => e.to_string(),
            }
            .as_str(),
            ms = u64::try_from(sent.elapsed().as_millis()).unwrap_or(u64::MAX),
            "Kafka answered"
        );
        result
    }

    async fn round_trip<R: WireRequest>(
        &mut self,
        request: &R,
        version: i16,
    ) -> Result<R::Response> {
        let mut buf = self.exchange(request, version).await?;
        let response = R::Response::decode(&mut buf, version)
            .map_err(|e| self.protocol(R::NAME, format!("cannot decode v{version}: {e}")))?;
        if buf.has_remaining() {
            tracing::debug!(
                api = R::NAME,
                extra = buf.remaining(),
                "trailing bytes after response"
            );
        }
        Ok(response)
    }

    /// Sends one request and returns the response body (after the response header).
    async fn exchange<R: WireRequest>(&mut self, request: &R, version: i16) -> Result<Bytes> {
        self.correlation_id = self.correlation_id.wrapping_add(1);
        let correlation_id = self.correlation_id;
        let header = RequestHeader::default()
            .with_request_api_key(R::KEY)
            .with_request_api_version(version)
            .with_correlation_id(correlation_id)
            .with_client_id(Some(StrBytes::from_static_str(CLIENT_ID)));
        let mut body = BytesMut::new();
        let encode = |body: &mut BytesMut| -> anyhow::Result<()> {
            header.encode(body, R::header_version(version))?;
            request.encode(body, version)
        };
        encode(&mut body)
            .map_err(|e| self.protocol(R::NAME, format!("cannot encode v{version}: {e}")))?;
        let len = u32::try_from(body.len())
            .map_err(|_| self.protocol(R::NAME, "request too large".into()))?;
        let mut frame = BytesMut::with_capacity(body.len() + 4);
        frame.put_u32(len);
        frame.extend_from_slice(&body);
        self.io
            .write_all(&frame)
            .await
            .map_err(|e| self.broken(R::NAME, &e))?;
        self.io
            .flush()
            .await
            .map_err(|e| self.broken(R::NAME, &e))?;

        let mut len = [0u8; 4];
        self.io
            .read_exact(&mut len)
            .await
            .map_err(|e| self.broken(R::NAME, &e))?;
        let len = u32::from_be_bytes(len) as usize;
        if len > MAX_FRAME {
            return Err(self.protocol(
                R::NAME,
                format!("response of {len} bytes (is this a TLS or SASL listener spoken to in plaintext?)"),
            ));
        }
        let mut buf = vec![0u8; len];
        self.io
            .read_exact(&mut buf)
            .await
            .map_err(|e| self.broken(R::NAME, &e))?;
        let mut buf = Bytes::from(buf);
        let response_header =
            ResponseHeader::decode(&mut buf, R::Response::header_version(version))
                .map_err(|e| self.protocol(R::NAME, format!("bad response header: {e}")))?;
        if response_header.correlation_id != correlation_id {
            return Err(self.protocol(
                R::NAME,
                format!(
                    "correlation id {} does not match request {correlation_id}",
                    response_header.correlation_id
                ),
            ));
        }
        Ok(buf)
    }

    fn broken(&self, what: &str, e: &std::io::Error) -> KafkaError {
        KafkaError::Unreachable {
            what: what.into(),
            address: self.address.clone(),
            message: if e.kind() == std::io::ErrorKind::UnexpectedEof {
                "the server closed the connection (wrong security.protocol for this listener, or not authorized?)".into()
            } else {
                e.to_string()
            },
        }
    }

    fn protocol(&self, what: &str, message: String) -> KafkaError {
        KafkaError::Protocol {
            what: what.into(),
            address: self.address.clone(),
            message,
        }
    }

    /// An API error from this connection's server.
    #[must_use]
    pub fn api_error(&self, what: &str, code: i16, message: Option<&StrBytes>) -> KafkaError {
        KafkaError::Api {
            what: format!("{what} via {}", self.address),
            node: None,
            code,
            name: error_name(code),
            message: message.map(|m| m.as_str().to_string()),
        }
    }
}

/// Connects to the first reachable address of `addresses`; the error lists every failure.
pub async fn connect_any(
    addresses: &[String],
    security: &WireSecurity,
    timeout: Duration,
    what: &str,
) -> Result<Connection> {
    let mut failures = Vec::new();
    for address in addresses {
        match Connection::connect(address, security, timeout).await {
            Ok(c) => return Ok(c),
            // Wrong credentials or TLS settings fail the same way everywhere: stop early.
            Err(e @ (KafkaError::Authentication { .. } | KafkaError::Tls { .. })) => return Err(e),
            Err(e) => failures.push(e),
        }
    }
    match failures.len() {
        0 => Err(KafkaError::InvalidSetting {
            key: "bootstrap servers".into(),
            message: format!("no address to connect to for {what}"),
        }),
        1 => Err(failures.remove(0)),
        _ => {
            let first_timeout = failures
                .iter()
                .all(|f| matches!(f, KafkaError::Timeout { .. }));
            let message = failures
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ");
            if first_timeout {
                Err(KafkaError::Timeout {
                    what: format!("connecting for {what}"),
                    address: addresses.join(","),
                    after: timeout,
                })
            } else {
                Err(KafkaError::Unreachable {
                    what: what.into(),
                    address: addresses.join(","),
                    message,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests;
