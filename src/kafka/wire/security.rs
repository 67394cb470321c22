//! Securing a wire connection: the TLS handshake (with errors that say which setting to change)
//! and SASL authentication (PLAIN, SCRAM-SHA-256/512) over SaslHandshake/SaslAuthenticate.
//! Kept apart from the framing in the parent module because it is the part that changes with a
//! listener's security settings and carries secrets.

use std::time::Duration;

use bytes::Bytes;
use kafka_protocol::messages::{SaslAuthenticateRequest, SaslHandshakeRequest};
use kafka_protocol::protocol::StrBytes;
use tokio::net::TcpStream;

use super::Connection;
use crate::kafka::config::{ClientIdentity, SaslMechanism, SaslSettings, TlsSettings};
use crate::kafka::error::{KafkaError, Result, error_name};
use crate::kafka::scram::{ScramClient, ScramHash};

impl Connection {
    pub(super) async fn authenticate(&mut self, sasl: &SaslSettings) -> Result<()> {
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
}

pub(super) async fn tls_handshake(
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
pub(super) fn handshake_failure(openssl: &str) -> String {
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
