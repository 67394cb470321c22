//! How the adapter connects: one set of settings for both Kafka paths.
//!
//! Users configure Kafka once, with librdkafka property names (`security.protocol`,
//! `sasl.mechanism`, `ssl.ca.location`, ...). librdkafka gets those properties as they
//! are; the direct wire-protocol path (for what librdkafka cannot do: DescribeQuorum,
//! partition reassignments, controller connections) derives its TLS and SASL settings
//! from the *same* properties here, so the two paths can never disagree. Settings the
//! wire path cannot honour are reported as [`KafkaError::UnsupportedSetting`] when that
//! path is needed, never ignored.
//!
//! A few keys are kafkaops' own and are removed before librdkafka sees them:
//! `bootstrap.controllers` (KIP-919: the controller quorum's listeners) and
//! `kafkaops.broker.state.url` (a broker-state endpoint URL template).

use std::collections::BTreeMap;
use std::time::Duration;

use crate::secret::Secret;
use crate::settings::KafkaSettings;

use super::error::{KafkaError, Result};

/// Property holding the controller quorum's listeners (`host:port,...`), as in Kafka's
/// `AdminClientConfig.BOOTSTRAP_CONTROLLERS_CONFIG`.
pub const BOOTSTRAP_CONTROLLERS: &str = "bootstrap.controllers";
/// Property holding the broker-state endpoint URL template (`{host}` and `{id}` are replaced),
/// e.g. `http://{host}:8080/v1/broker-state` for Strimzi's KafkaAgent.
pub const BROKER_STATE_URL: &str = "kafkaops.broker.state.url";

/// Everything the adapter needs to connect.
#[derive(Debug, Clone)]
pub struct ConnectionConfig {
    /// Broker bootstrap list, `host:port,...`.
    pub bootstrap_servers: String,
    /// Controller bootstrap list (`bootstrap.controllers`), if configured.
    pub bootstrap_controllers: Option<String>,
    /// librdkafka properties (without kafkaops' own keys, without secrets).
    pub properties: BTreeMap<String, String>,
    /// Secret librdkafka properties (`sasl.password`, `ssl.key.password`, ...).
    pub secrets: BTreeMap<String, Secret>,
    /// Broker-state endpoint URL template, if configured.
    pub broker_state_url: Option<String>,
    /// Timeout of one request (and of connecting).
    pub request_timeout: Duration,
}

impl ConnectionConfig {
    /// A plaintext configuration for `bootstrap_servers`.
    #[must_use]
    pub fn new(bootstrap_servers: impl Into<String>) -> Self {
        Self {
            bootstrap_servers: bootstrap_servers.into(),
            bootstrap_controllers: None,
            properties: BTreeMap::new(),
            secrets: BTreeMap::new(),
            broker_state_url: None,
            request_timeout: Duration::from_secs(30),
        }
    }

    /// Builds the configuration from resolved settings; kafkaops' own keys are taken out
    /// of the property map.
    pub fn from_settings(settings: &KafkaSettings, request_timeout: Duration) -> Result<Self> {
        let bootstrap_servers = settings
            .bootstrap_servers
            .as_ref()
            .map(|b| b.value.clone())
            .ok_or(KafkaError::MissingBootstrapServers)?;
        let mut properties: BTreeMap<String, String> = settings
            .properties
            .iter()
            .map(|(k, v)| (k.clone(), v.value.clone()))
            .collect();
        let bootstrap_controllers = properties.remove(BOOTSTRAP_CONTROLLERS);
        let broker_state_url = properties.remove(BROKER_STATE_URL);
        let secrets = settings
            .secrets
            .iter()
            .map(|(k, v)| (k.clone(), v.value.clone()))
            .collect();
        Ok(Self {
            bootstrap_servers,
            bootstrap_controllers,
            properties,
            secrets,
            broker_state_url,
            request_timeout,
        })
    }

    /// Sets a librdkafka property (or one of kafkaops' own keys).
    #[must_use]
    pub fn with_property(mut self, key: &str, value: impl Into<String>) -> Self {
        let value = value.into();
        match key {
            BOOTSTRAP_CONTROLLERS => self.bootstrap_controllers = Some(value),
            BROKER_STATE_URL => self.broker_state_url = Some(value),
            k if crate::settings::is_secret_key(k) => {
                self.secrets.insert(k.to_string(), Secret::new(value));
            }
            k => {
                self.properties.insert(k.to_string(), value);
            }
        }
        self
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.properties.get(key).map(String::as_str)
    }

    fn secret(&self, key: &str) -> Option<&Secret> {
        self.secrets.get(key)
    }

    /// The broker bootstrap addresses.
    #[must_use]
    pub fn broker_addresses(&self) -> Vec<String> {
        split_list(&self.bootstrap_servers)
    }

    /// The controller bootstrap addresses (empty when not configured).
    #[must_use]
    pub fn controller_addresses(&self) -> Vec<String> {
        self.bootstrap_controllers
            .as_deref()
            .map(split_list)
            .unwrap_or_default()
    }

    /// Derives the wire-path security settings. `needed_for` names the request that needs
    /// them, for the error message when a setting cannot be honoured.
    pub fn wire_security(&self, needed_for: &str) -> Result<WireSecurity> {
        let protocol = self
            .get("security.protocol")
            .unwrap_or("plaintext")
            .to_ascii_uppercase();
        let (tls, sasl) = match protocol.as_str() {
            "PLAINTEXT" => (false, false),
            "SSL" => (true, false),
            "SASL_PLAINTEXT" => (false, true),
            "SASL_SSL" => (true, true),
            other => {
                return Err(KafkaError::InvalidSetting {
                    key: "security.protocol".into(),
                    message: format!(
                        "{other:?} is not one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL"
                    ),
                });
            }
        };
        let sasl = if sasl {
            Some(self.wire_sasl(needed_for)?)
        } else {
            None
        };
        let tls = if tls {
            Some(self.wire_tls(needed_for)?)
        } else {
            None
        };
        Ok(WireSecurity { tls, sasl })
    }

    /// The SASL half of [`Self::wire_security`]: the mechanisms the wire client speaks, with
    /// their username and password.
    fn wire_sasl(&self, needed_for: &str) -> Result<SaslSettings> {
        let mechanism_raw = self
            .get("sasl.mechanism")
            .or(self.get("sasl.mechanisms"))
            .unwrap_or("GSSAPI");
        let mechanism = match mechanism_raw.to_ascii_uppercase().as_str() {
            "PLAIN" => SaslMechanism::Plain,
            "SCRAM-SHA-256" => SaslMechanism::ScramSha256,
            "SCRAM-SHA-512" => SaslMechanism::ScramSha512,
            "GSSAPI" => {
                return Err(unsupported(
                    needed_for,
                    "sasl.mechanism",
                    mechanism_raw,
                    "Kerberos (GSSAPI) is only available through librdkafka, which cannot send this request",
                ));
            }
            "OAUTHBEARER" => {
                return Err(unsupported(
                    needed_for,
                    "sasl.mechanism",
                    mechanism_raw,
                    "OAUTHBEARER tokens are only available through librdkafka, which cannot send this request",
                ));
            }
            other => {
                return Err(KafkaError::InvalidSetting {
                    key: "sasl.mechanism".into(),
                    message: format!("unknown mechanism {other:?}"),
                });
            }
        };
        let username = self
            .get("sasl.username")
            .ok_or_else(|| KafkaError::InvalidSetting {
                key: "sasl.username".into(),
                message: format!("required for SASL {}", mechanism.name()),
            })?
            .to_string();
        let password = self.secret("sasl.password").cloned().ok_or_else(|| {
            KafkaError::InvalidSetting {
                key: "sasl.password".into(),
                message: format!(
                    "required for SASL {} (set it in the config file or KAFKAOPS_KAFKA_PASSWORD)",
                    mechanism.name()
                ),
            }
        })?;
        Ok(SaslSettings {
            mechanism,
            username,
            password,
        })
    }

    /// The TLS half of [`Self::wire_security`]: verification, the CA and the client identity
    /// (PEM pair or PKCS#12), refusing what only librdkafka's OpenSSL could do.
    fn wire_tls(&self, needed_for: &str) -> Result<TlsSettings> {
        for key in ["ssl.engine.location", "ssl.providers", "ssl.sigalgs.list"] {
            if let Some(v) = self.get(key) {
                return Err(unsupported(
                    needed_for,
                    key,
                    v,
                    "OpenSSL engines and providers are only available through librdkafka",
                ));
            }
        }
        if self.secret("ssl.key.password").is_some() {
            return Err(unsupported(
                needed_for,
                "ssl.key.password",
                Secret::MASK,
                "encrypted private keys are not supported on this path; use an unencrypted PEM key or ssl.keystore.location (PKCS#12)",
            ));
        }
        let verify = !self
            .get("enable.ssl.certificate.verification")
            .is_some_and(|v| v.eq_ignore_ascii_case("false"));
        // librdkafka >= 2.0 verifies host names by default ("https").
        let verify_hostname = !self
            .get("ssl.endpoint.identification.algorithm")
            .is_some_and(|v| v.eq_ignore_ascii_case("none"));
        let ca = match (self.get("ssl.ca.location"), self.get("ssl.ca.pem")) {
            (Some(path), _) if path != "probe" => Some(PemSource::File(path.into())),
            (_, Some(pem)) => Some(PemSource::Inline(pem.to_string())),
            _ => None,
        };
        Ok(TlsSettings {
            ca,
            identity: self.wire_identity()?,
            verify,
            verify_hostname,
        })
    }

    /// The client certificate: a PEM certificate and key (files or inline), or a PKCS#12
    /// keystore; neither is fine, half a pair is an error.
    fn wire_identity(&self) -> Result<Option<ClientIdentity>> {
        let certificate = match (
            self.get("ssl.certificate.location"),
            self.get("ssl.certificate.pem"),
        ) {
            (Some(path), _) => Some(PemSource::File(path.into())),
            (_, Some(pem)) => Some(PemSource::Inline(pem.to_string())),
            _ => None,
        };
        let key = match (self.get("ssl.key.location"), self.secret("ssl.key.pem")) {
            (Some(path), _) => Some(PemSource::File(path.into())),
            (_, Some(pem)) => Some(PemSource::Inline(pem.expose().to_string())),
            _ => None,
        };
        match (certificate, key, self.get("ssl.keystore.location")) {
            (Some(certificate), Some(key), _) => Ok(Some(ClientIdentity::Pem { certificate, key })),
            (None, None, Some(path)) => Ok(Some(ClientIdentity::Pkcs12 {
                path: path.into(),
                password: self
                    .secret("ssl.keystore.password")
                    .cloned()
                    .unwrap_or_else(|| Secret::new("")),
            })),
            (None, None, None) => Ok(None),
            _ => Err(KafkaError::InvalidSetting {
                key: "ssl.certificate.location / ssl.key.location".into(),
                message: "a client certificate needs both a certificate and a key".into(),
            }),
        }
    }
}

/// A setting the wire client cannot honour for `needed_for`, and why.
fn unsupported(needed_for: &str, setting: &str, value: &str, reason: &str) -> KafkaError {
    KafkaError::UnsupportedSetting {
        setting: setting.into(),
        value: value.into(),
        needed_for: needed_for.into(),
        reason: reason.into(),
    }
}

/// Splits `a:1, b:2` into addresses.
fn split_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        // A listener-style entry (`SASL_SSL://host:port`) names its address after the scheme.
        .map(|p| {
            p.split_once("://")
                .map_or(p, |(_, address)| address)
                .to_string()
        })
        .collect()
}

/// TLS and SASL for the wire path.
#[derive(Debug, Clone, Default)]
pub struct WireSecurity {
    pub tls: Option<TlsSettings>,
    pub sasl: Option<SaslSettings>,
}

/// The SASL mechanisms the wire path speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaslMechanism {
    Plain,
    ScramSha256,
    ScramSha512,
}

impl SaslMechanism {
    /// The name Kafka uses in SaslHandshake.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SaslMechanism::Plain => "PLAIN",
            SaslMechanism::ScramSha256 => "SCRAM-SHA-256",
            SaslMechanism::ScramSha512 => "SCRAM-SHA-512",
        }
    }
}

#[derive(Debug, Clone)]
pub struct SaslSettings {
    pub mechanism: SaslMechanism,
    pub username: String,
    pub password: Secret,
}

/// A PEM document from a file or inline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PemSource {
    File(std::path::PathBuf),
    Inline(String),
}

impl PemSource {
    pub(crate) fn read(&self) -> std::io::Result<Vec<u8>> {
        match self {
            PemSource::File(p) => std::fs::read(p),
            PemSource::Inline(s) => Ok(s.as_bytes().to_vec()),
        }
    }
}

#[derive(Debug, Clone)]
pub enum ClientIdentity {
    Pem {
        certificate: PemSource,
        key: PemSource,
    },
    Pkcs12 {
        path: std::path::PathBuf,
        password: Secret,
    },
}

#[derive(Debug, Clone)]
pub struct TlsSettings {
    /// Trusted CA certificates (PEM); the system roots when `None`.
    pub ca: Option<PemSource>,
    pub identity: Option<ClientIdentity>,
    pub verify: bool,
    pub verify_hostname: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(props: &[(&str, &str)]) -> ConnectionConfig {
        props
            .iter()
            .fold(ConnectionConfig::new("a:9092, b:9092"), |c, (k, v)| {
                c.with_property(k, *v)
            })
    }

    #[test]
    fn plaintext_by_default() {
        let s = cfg(&[]).wire_security("DescribeQuorum").unwrap();
        assert!(s.tls.is_none() && s.sasl.is_none());
        assert_eq!(cfg(&[]).broker_addresses(), vec!["a:9092", "b:9092"]);
        let listeners = ConnectionConfig::new("SASL_SSL://a:9093,PLAINTEXT://b:9092, SSL://c:9094");
        assert_eq!(
            listeners.broker_addresses(),
            vec!["a:9093", "b:9092", "c:9094"]
        );
    }

    #[test]
    fn scram_over_tls() {
        let s = cfg(&[
            ("security.protocol", "sasl_ssl"),
            ("sasl.mechanism", "SCRAM-SHA-512"),
            ("sasl.username", "ops"),
            ("sasl.password", "pw"),
            ("ssl.ca.location", "/etc/ca.pem"),
            ("ssl.endpoint.identification.algorithm", "none"),
        ])
        .wire_security("DescribeQuorum")
        .unwrap();
        let sasl = s.sasl.unwrap();
        assert_eq!(sasl.mechanism, SaslMechanism::ScramSha512);
        assert_eq!(sasl.password.expose(), "pw");
        let tls = s.tls.unwrap();
        assert_eq!(tls.ca, Some(PemSource::File("/etc/ca.pem".into())));
        assert!(tls.verify && !tls.verify_hostname);
    }

    #[test]
    fn gssapi_is_reported_not_skipped() {
        let err = cfg(&[
            ("security.protocol", "SASL_SSL"),
            ("sasl.mechanism", "GSSAPI"),
        ])
        .wire_security("DescribeQuorum (controller quorum check)")
        .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("GSSAPI") && text.contains("DescribeQuorum"),
            "{text}"
        );
    }

    #[test]
    fn own_keys_are_taken_out() {
        let c = cfg(&[
            ("bootstrap.controllers", "c1:9093,c2:9093"),
            (
                "kafkaops.broker.state.url",
                "http://{host}:8080/v1/broker-state",
            ),
            ("client.id", "x"),
        ]);
        assert_eq!(c.controller_addresses(), vec!["c1:9093", "c2:9093"]);
        assert!(c.broker_state_url.is_some());
        assert_eq!(c.properties.keys().collect::<Vec<_>>(), vec!["client.id"]);
    }

    #[test]
    fn missing_password_is_a_usage_error() {
        let err = cfg(&[
            ("security.protocol", "SASL_PLAINTEXT"),
            ("sasl.mechanism", "PLAIN"),
            ("sasl.username", "u"),
        ])
        .wire_security("x")
        .unwrap_err();
        assert!(err.to_string().contains("sasl.password"));
    }

    #[test]
    fn from_resolved_settings() {
        use crate::settings::{Source, Sourced};
        let settings = KafkaSettings {
            bootstrap_servers: Some(Sourced::new("b1:9092".to_string(), Source::Flag)),
            properties: BTreeMap::from([
                (
                    "bootstrap.controllers".to_string(),
                    Sourced::new("c1:9093".to_string(), Source::ConfigFile),
                ),
                (
                    "security.protocol".to_string(),
                    Sourced::new("SASL_PLAINTEXT".to_string(), Source::ConfigFile),
                ),
                (
                    "sasl.mechanism".to_string(),
                    Sourced::new("PLAIN".to_string(), Source::ConfigFile),
                ),
                (
                    "sasl.username".to_string(),
                    Sourced::new("ops".to_string(), Source::ConfigFile),
                ),
            ]),
            secrets: BTreeMap::from([(
                "sasl.password".to_string(),
                Sourced::new(Secret::new("pw"), Source::Environment),
            )]),
        };
        let c = ConnectionConfig::from_settings(&settings, Duration::from_secs(5)).unwrap();
        assert_eq!(c.controller_addresses(), vec!["c1:9093"]);
        assert!(
            !c.properties.contains_key("bootstrap.controllers"),
            "librdkafka would reject it"
        );
        assert_eq!(
            c.wire_security("x")
                .unwrap()
                .sasl
                .unwrap()
                .password
                .expose(),
            "pw"
        );
        let none = KafkaSettings {
            bootstrap_servers: None,
            properties: BTreeMap::new(),
            secrets: BTreeMap::new(),
        };
        let err = ConnectionConfig::from_settings(&none, Duration::from_secs(5)).unwrap_err();
        assert!(err.to_string().contains("--bootstrap-servers"), "{err}");
    }
}
