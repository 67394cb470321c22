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
    DescribeConfigsResponse, DescribeQuorumRequest, DescribeQuorumResponse,
    IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse,
    ListPartitionReassignmentsRequest, ListPartitionReassignmentsResponse, MetadataRequest,
    MetadataResponse, RemoveRaftVoterRequest, RemoveRaftVoterResponse, RequestHeader,
    ResponseHeader, SaslAuthenticateRequest, SaslAuthenticateResponse, SaslHandshakeRequest,
    SaslHandshakeResponse, UnregisterBrokerRequest, UnregisterBrokerResponse,
    UpdateFeaturesRequest, UpdateFeaturesResponse,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, Message, StrBytes};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

use super::config::{ClientIdentity, SaslMechanism, SaslSettings, TlsSettings, WireSecurity};
use super::error::{KafkaError, Result, error_name};
use super::kraft::NodeFeatures;
use super::scram::{ScramClient, ScramHash};

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

    async fn authenticate(&mut self, sasl: &SaslSettings) -> Result<()> {
        let mechanism = sasl.mechanism.name();
        let handshake =
            SaslHandshakeRequest::default().with_mechanism(StrBytes::from_static_str(mechanism));
        let v = self
            .version::<SaslHandshakeRequest>("SASL authentication")?
            .min(1);
        let response = self.send_at(&handshake, v).await?;
        if response.error_code != 0 {
            let offered: Vec<&str> = response.mechanisms.iter().map(|m| m.as_str()).collect();
            return Err(KafkaError::Authentication {
                address: self.address.clone(),
                mechanism: mechanism.into(),
                message: format!(
                    "{} (the listener offers: {})",
                    error_name(response.error_code),
                    offered.join(", ")
                ),
            });
        }
        match sasl.mechanism {
            SaslMechanism::Plain => {
                let token = format!("\0{}\0{}", sasl.username, sasl.password.expose());
                self.sasl_step(mechanism, Bytes::from(token)).await?;
            }
            SaslMechanism::ScramSha256 | SaslMechanism::ScramSha512 => {
                let hash = if sasl.mechanism == SaslMechanism::ScramSha256 {
                    ScramHash::Sha256
                } else {
                    ScramHash::Sha512
                };
                let auth_err =
                    |address: &str, e: &dyn std::fmt::Display| KafkaError::Authentication {
                        address: address.to_string(),
                        mechanism: mechanism.into(),
                        message: e.to_string(),
                    };
                let mut scram = ScramClient::new(hash, &sasl.username, sasl.password.expose())
                    .map_err(|e| auth_err(&self.address, &e))?;
                let server_first = self
                    .sasl_step(mechanism, Bytes::from(scram.client_first()))
                    .await?;
                let server_first = String::from_utf8_lossy(&server_first).into_owned();
                let client_final = scram
                    .client_final(&server_first)
                    .map_err(|e| auth_err(&self.address, &e))?;
                let server_final = self.sasl_step(mechanism, Bytes::from(client_final)).await?;
                scram
                    .verify_server_final(&String::from_utf8_lossy(&server_final))
                    .map_err(|e| auth_err(&self.address, &e))?;
            }
        }
        Ok(())
    }

    async fn sasl_step(&mut self, mechanism: &str, token: Bytes) -> Result<Bytes> {
        let request = SaslAuthenticateRequest::default().with_auth_bytes(token);
        let v = self.version::<SaslAuthenticateRequest>("SASL authentication")?;
        let response = self.send_at(&request, v).await?;
        if response.error_code != 0 {
            // SASL_AUTHENTICATION_FAILED: say what to check (never the password itself).
            let hint = if response.error_code == 58 {
                "; check sasl.username and the password (sasl.password or KAFKAOPS_KAFKA_PASSWORD)"
            } else {
                ""
            };
            return Err(KafkaError::Authentication {
                address: self.address.clone(),
                mechanism: mechanism.into(),
                message: format!(
                    "{}{}{hint}",
                    error_name(response.error_code),
                    response
                        .error_message
                        .as_ref()
                        .map(|m| format!(": {}", m.as_str()))
                        .unwrap_or_default()
                ),
            });
        }
        Ok(response.auth_bytes)
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

async fn tls_handshake(
    address: &str,
    tcp: TcpStream,
    tls: &TlsSettings,
    timeout: Duration,
) -> Result<tokio_native_tls::TlsStream<TcpStream>> {
    let err = |message: String| KafkaError::Tls {
        address: address.to_string(),
        message,
    };
    let mut builder = native_tls::TlsConnector::builder();
    if let Some(ca) = &tls.ca {
        let pem = ca
            .read()
            .map_err(|e| err(format!("cannot read the CA file {ca:?}: {e}")))?;
        // A bundle may hold several certificates.
        let certs = native_tls::Certificate::stack_from_pem(&pem)
            .map_err(|e| err(format!("CA certificates are not valid PEM: {e}")))?;
        if certs.is_empty() {
            return Err(err("the CA file holds no certificate".into()));
        }
        for cert in certs {
            builder.add_root_certificate(cert);
        }
    }
    match &tls.identity {
        None => {}
        Some(ClientIdentity::Pem { certificate, key }) => {
            let cert = certificate
                .read()
                .map_err(|e| err(format!("cannot read the client certificate: {e}")))?;
            let key = key
                .read()
                .map_err(|e| err(format!("cannot read the client key: {e}")))?;
            let identity = native_tls::Identity::from_pkcs8(&cert, &key).map_err(|e| {
                err(format!(
                    "client certificate/key unusable (the key must be unencrypted PKCS#8 PEM): {e}"
                ))
            })?;
            builder.identity(identity);
        }
        Some(ClientIdentity::Pkcs12 { path, password }) => {
            let der = std::fs::read(path)
                .map_err(|e| err(format!("cannot read {}: {e}", path.display())))?;
            let identity = native_tls::Identity::from_pkcs12(&der, password.expose())
                .map_err(|e| err(format!("keystore {} unusable: {e}", path.display())))?;
            builder.identity(identity);
        }
    }
    builder.danger_accept_invalid_certs(!tls.verify);
    builder.danger_accept_invalid_hostnames(!tls.verify_hostname);
    let connector = builder.build().map_err(|e| err(e.to_string()))?;
    let host = address.rsplit_once(':').map_or(address, |(h, _)| h);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let connector = tokio_native_tls::TlsConnector::from(connector);
    match tokio::time::timeout(timeout, connector.connect(host, tcp)).await {
        Err(_) => Err(KafkaError::Timeout {
            what: "TLS handshake".into(),
            address: address.into(),
            after: timeout,
        }),
        Ok(Err(e)) => Err(err(handshake_failure(&e.to_string()))),
        Ok(Ok(s)) => Ok(s),
    }
}

/// OpenSSL's handshake error, with what to change when the server's certificate was rejected.
fn handshake_failure(openssl: &str) -> String {
    if openssl.contains("hostname mismatch") || openssl.contains("IP address mismatch") {
        format!(
            "the server's certificate does not name this host ({openssl}); connect by a name the \
             certificate lists, or set ssl.endpoint.identification.algorithm=none"
        )
    } else if openssl.contains("certificate verify failed") {
        format!(
            "the server's certificate is not trusted ({openssl}); set ssl.ca.location to the CA \
             that signed the brokers' certificates"
        )
    } else {
        openssl.to_string()
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
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;
    use tokio::net::TcpListener;

    #[test]
    fn handshake_failures_say_what_to_change() {
        let untrusted = handshake_failure(
            "error:0A000086:SSL routines:tls_post_process_server_certificate:certificate verify failed:../ssl/statem/statem_clnt.c:1889: (self-signed certificate in certificate chain)",
        );
        assert!(
            untrusted.contains("not trusted") && untrusted.contains("ssl.ca.location"),
            "{untrusted}"
        );
        let wrong_host = handshake_failure(
            "error:0A000086:SSL routines:tls_post_process_server_certificate:certificate verify failed:../ssl/statem/statem_clnt.c:1889: (hostname mismatch)",
        );
        assert!(
            wrong_host.contains("does not name this host")
                && wrong_host.contains("ssl.endpoint.identification.algorithm"),
            "{wrong_host}"
        );
        assert_eq!(handshake_failure("unexpected eof"), "unexpected eof");
    }

    /// A server that reads one request and answers with `reply` (raw bytes after the length).
    async fn one_shot_server(reply: Vec<u8>) -> (String, tokio::task::JoinHandle<Vec<u8>>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let handle = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut len = [0u8; 4];
            s.read_exact(&mut len).await.unwrap();
            let mut req = vec![0u8; u32::from_be_bytes(len) as usize];
            s.read_exact(&mut req).await.unwrap();
            let mut frame = (u32::try_from(reply.len()).unwrap()).to_be_bytes().to_vec();
            frame.extend_from_slice(&reply);
            s.write_all(&frame).await.unwrap();
            req
        });
        (addr, handle)
    }

    #[tokio::test]
    async fn refused_connection_is_unreachable_and_names_the_address() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        drop(listener);
        let err = Connection::connect(&addr, &WireSecurity::default(), Duration::from_secs(5))
            .await
            .unwrap_err();
        assert!(matches!(err, KafkaError::Unreachable { .. }), "{err}");
        assert!(err.to_string().contains(&addr));
    }

    #[tokio::test]
    async fn empty_response_is_a_protocol_error() {
        let (addr, server) = one_shot_server(vec![]).await;
        let listener_reply = tokio::spawn(async move { server.await.unwrap() });
        // A zero-length answer: header decoding fails cleanly, naming the address.
        let err = Connection::connect(&addr, &WireSecurity::default(), Duration::from_secs(5))
            .await
            .unwrap_err();
        assert!(matches!(err, KafkaError::Protocol { .. }), "{err}");
        let request = listener_reply.await.unwrap();
        // The request we sent is ApiVersions (18) v4 with correlation id 1.
        assert_eq!(&request[..8], &[0, 18, 0, 4, 0, 0, 0, 1]);
    }

    #[tokio::test]
    async fn mismatched_correlation_id_is_detected() {
        // Response header v0 with correlation id 99 (the body is never looked at).
        let reply = 99i32.to_be_bytes().to_vec();
        let (addr, _server) = one_shot_server(reply).await;
        let err = Connection::connect(&addr, &WireSecurity::default(), Duration::from_secs(5))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("correlation id 99"), "{err}");
    }

    // ---- A scripted Kafka server for the connection set-up: ApiVersions fallback to v0,
    // SaslHandshake v1, SaslAuthenticate v0 with PLAIN or SCRAM-SHA-256 (server side done
    // here with OpenSSL, independently of `ScramClient`).

    use crate::kafka::config::{SaslMechanism, SaslSettings, WireSecurity};
    use crate::secret::Secret;
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD as B64;

    struct Request {
        api_key: i16,
        version: i16,
        correlation_id: i32,
        body: Bytes,
    }

    async fn read_request(s: &mut TcpStream) -> Option<Request> {
        let mut len = [0u8; 4];
        s.read_exact(&mut len).await.ok()?;
        let mut buf = vec![0u8; u32::from_be_bytes(len) as usize];
        s.read_exact(&mut buf).await.ok()?;
        let mut b = Bytes::from(buf);
        let api_key = b.get_i16();
        let version = b.get_i16();
        let correlation_id = b.get_i32();
        let client_id_len = b.get_i16();
        b.advance(usize::try_from(client_id_len.max(0)).unwrap());
        if api_key == 18 && version >= 3 {
            b.advance(1); // header v2: empty tagged fields
        }
        Some(Request {
            api_key,
            version,
            correlation_id,
            body: b,
        })
    }

    async fn reply(s: &mut TcpStream, correlation_id: i32, body: &[u8]) {
        let mut frame = BytesMut::new();
        frame.put_u32(u32::try_from(body.len() + 4).unwrap());
        frame.put_i32(correlation_id);
        frame.extend_from_slice(body);
        s.write_all(&frame).await.unwrap();
    }

    fn api_versions_v0(error: i16, keys: &[(i16, i16, i16)]) -> Vec<u8> {
        let mut b = BytesMut::new();
        b.put_i16(error);
        b.put_i32(i32::try_from(keys.len()).unwrap());
        for (k, min, max) in keys {
            b.put_i16(*k);
            b.put_i16(*min);
            b.put_i16(*max);
        }
        b.to_vec()
    }

    fn sasl_authenticate_v0(error: i16, message: Option<&str>, auth: &[u8]) -> Vec<u8> {
        let mut b = BytesMut::new();
        b.put_i16(error);
        match message {
            None => b.put_i16(-1),
            Some(m) => {
                b.put_i16(i16::try_from(m.len()).unwrap());
                b.extend_from_slice(m.as_bytes());
            }
        }
        b.put_i32(i32::try_from(auth.len()).unwrap());
        b.extend_from_slice(auth);
        b.to_vec()
    }

    fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
        let pkey = openssl::pkey::PKey::hmac(key).unwrap();
        let mut signer =
            openssl::sign::Signer::new(openssl::hash::MessageDigest::sha256(), &pkey).unwrap();
        signer.update(data).unwrap();
        signer.sign_to_vec().unwrap()
    }

    /// Answers SASL for user "ops" with `password`; records what it saw.
    async fn fake_kafka(
        mechanism: &'static str,
        password: &'static str,
    ) -> (String, tokio::task::JoinHandle<Vec<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let handle = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut seen = Vec::new();
            let salt = b"kafkaops-salt";
            let mut client_first_bare = String::new();
            let mut server_first = String::new();
            while let Some(mut req) = read_request(&mut s).await {
                seen.push(format!("{}v{}", req.api_key, req.version));
                match req.api_key {
                    // An old server: only ApiVersions v0.
                    18 if req.version > 0 => {
                        reply(
                            &mut s,
                            req.correlation_id,
                            &api_versions_v0(35, &[(18, 0, 0)]),
                        )
                        .await;
                    }
                    18 => {
                        let keys = [(18, 0, 0), (17, 0, 1), (36, 0, 0), (55, 0, 2)];
                        reply(&mut s, req.correlation_id, &api_versions_v0(0, &keys)).await;
                    }
                    17 => {
                        let n = usize::try_from(req.body.get_i16()).unwrap();
                        let asked = String::from_utf8(req.body.split_to(n).to_vec()).unwrap();
                        let mut b = BytesMut::new();
                        b.put_i16(if asked == mechanism { 0 } else { 33 });
                        b.put_i32(1);
                        b.put_i16(i16::try_from(mechanism.len()).unwrap());
                        b.extend_from_slice(mechanism.as_bytes());
                        reply(&mut s, req.correlation_id, &b).await;
                    }
                    36 => {
                        let n = usize::try_from(req.body.get_i32()).unwrap();
                        let token = String::from_utf8(req.body.split_to(n).to_vec()).unwrap();
                        let answer = if mechanism == "PLAIN" {
                            if token == format!("\0ops\0{password}") {
                                sasl_authenticate_v0(0, None, b"")
                            } else {
                                sasl_authenticate_v0(58, Some("Invalid username or password"), b"")
                            }
                        } else if let Some(bare) = token.strip_prefix("n,,") {
                            client_first_bare = bare.to_string();
                            let nonce = bare.split(",r=").nth(1).unwrap();
                            server_first = format!("r={nonce}srv,s={},i=4096", B64.encode(salt));
                            sasl_authenticate_v0(0, None, server_first.as_bytes())
                        } else {
                            let (without_proof, proof) = token.rsplit_once(",p=").unwrap();
                            let mut salted = [0u8; 32];
                            openssl::pkcs5::pbkdf2_hmac(
                                password.as_bytes(),
                                salt,
                                4096,
                                openssl::hash::MessageDigest::sha256(),
                                &mut salted,
                            )
                            .unwrap();
                            let client_key = hmac(&salted, b"Client Key");
                            let stored = openssl::hash::hash(
                                openssl::hash::MessageDigest::sha256(),
                                &client_key,
                            )
                            .unwrap();
                            let auth =
                                format!("{client_first_bare},{server_first},{without_proof}");
                            let signature = hmac(&stored, auth.as_bytes());
                            let expected: Vec<u8> = client_key
                                .iter()
                                .zip(&signature)
                                .map(|(a, b)| a ^ b)
                                .collect();
                            if B64.decode(proof).unwrap() == expected {
                                let server_sig =
                                    hmac(&hmac(&salted, b"Server Key"), auth.as_bytes());
                                sasl_authenticate_v0(
                                    0,
                                    None,
                                    format!("v={}", B64.encode(server_sig)).as_bytes(),
                                )
                            } else {
                                sasl_authenticate_v0(
                                    58,
                                    Some(
                                        "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256",
                                    ),
                                    b"",
                                )
                            }
                        };
                        reply(&mut s, req.correlation_id, &answer).await;
                    }
                    _ => break,
                }
            }
            seen
        });
        (addr, handle)
    }

    fn sasl(mechanism: SaslMechanism, password: &str) -> WireSecurity {
        WireSecurity {
            tls: None,
            sasl: Some(SaslSettings {
                mechanism,
                username: "ops".into(),
                password: Secret::new(password),
            }),
        }
    }

    #[tokio::test]
    async fn scram_sha_256_against_an_old_server() {
        let (addr, server) = fake_kafka("SCRAM-SHA-256", "pencil").await;
        let conn = Connection::connect(
            &addr,
            &sasl(SaslMechanism::ScramSha256, "pencil"),
            Duration::from_secs(10),
        )
        .await
        .unwrap();
        assert_eq!(conn.version::<DescribeQuorumRequest>("test").unwrap(), 2);
        drop(conn);
        // ApiVersions v4 refused, v0 accepted, then the handshake and two SCRAM rounds.
        assert_eq!(
            server.await.unwrap(),
            vec!["18v4", "18v0", "17v1", "36v0", "36v0"]
        );
    }

    #[tokio::test]
    async fn wrong_scram_password_is_an_authentication_error() {
        let (addr, _server) = fake_kafka("SCRAM-SHA-256", "pencil").await;
        let err = Connection::connect(
            &addr,
            &sasl(SaslMechanism::ScramSha256, "crayon"),
            Duration::from_secs(10),
        )
        .await
        .unwrap_err();
        assert!(matches!(err, KafkaError::Authentication { .. }), "{err}");
        assert!(
            err.to_string().contains("SASL_AUTHENTICATION_FAILED"),
            "{err}"
        );
    }

    #[tokio::test]
    async fn plain_and_an_unoffered_mechanism() {
        let (addr, server) = fake_kafka("PLAIN", "secret").await;
        Connection::connect(
            &addr,
            &sasl(SaslMechanism::Plain, "secret"),
            Duration::from_secs(10),
        )
        .await
        .unwrap();
        assert_eq!(server.await.unwrap().last().unwrap(), "36v0");

        let (addr, _server) = fake_kafka("PLAIN", "secret").await;
        let err = Connection::connect(
            &addr,
            &sasl(SaslMechanism::ScramSha512, "secret"),
            Duration::from_secs(10),
        )
        .await
        .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("UNSUPPORTED_SASL_MECHANISM") && text.contains("offers: PLAIN"),
            "{text}"
        );
    }
}
