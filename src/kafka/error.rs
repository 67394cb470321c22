//! Errors of the Kafka adapter.
//!
//! Every variant names what was attempted and where (node id, address), because an
//! operator reading "connection refused" needs to know *which* of nine hosts refused.
//! The exit code each variant stands for is decided once, in its [`OutcomeExitCode`](crate::error_codes::OutcomeExitCode) implementation.

use std::time::Duration;

/// A failure talking to Kafka.
#[derive(Debug, thiserror::Error)]
pub enum KafkaError {
    /// No TCP connection (refused, DNS, no route) or it broke mid-request.
    #[error("cannot reach Kafka at {address} ({what}): {message}")]
    Unreachable {
        what: String,
        address: String,
        message: String,
    },
    /// The server rejected our credentials or the SASL exchange failed.
    #[error("authentication with {address} failed ({mechanism}): {message}")]
    Authentication {
        address: String,
        mechanism: String,
        message: String,
    },
    /// The TLS handshake failed or the TLS settings are unusable.
    #[error("TLS with {address} failed: {message}")]
    Tls { address: String, message: String },
    /// A request got no answer in time.
    #[error("{what} timed out after {after:?} ({address})")]
    Timeout {
        what: String,
        address: String,
        after: Duration,
    },
    /// A connection setting cannot be used for a request librdkafka cannot make, so the
    /// check that needs it cannot run. Never silently skipped.
    #[error(
        "{setting}={value} cannot be used for {needed_for}: {reason}. kafkaops talks to Kafka \
         directly for this and supports security.protocol PLAINTEXT/SSL/SASL_PLAINTEXT/SASL_SSL \
         with sasl.mechanism PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512"
    )]
    UnsupportedSetting {
        setting: String,
        value: String,
        needed_for: String,
        reason: String,
    },
    /// No bootstrap servers anywhere (flag, environment, config-file context).
    #[error(
        "no Kafka bootstrap servers configured: pass --bootstrap-servers host:port,..., set \
         KAFKAOPS_BOOTSTRAP_SERVERS, or add `bootstrap-servers:` to the context in the config file"
    )]
    MissingBootstrapServers,
    /// A connection setting is missing or malformed.
    #[error("invalid Kafka setting {key}: {message}")]
    InvalidSetting { key: String, message: String },
    /// Kafka answered with an error code.
    #[error("{what} failed{}: {name} ({code}){}", node_suffix(*.node), message_suffix(.message))]
    Api {
        what: String,
        node: Option<i32>,
        code: i16,
        name: String,
        message: Option<String>,
    },
    /// The server does not offer a request (or any version of it we speak).
    #[error("{address} does not support {api} (needed for {needed_for})")]
    UnsupportedApi {
        address: String,
        api: String,
        needed_for: String,
    },
    /// A response we could not decode or that contradicts the protocol.
    #[error("unexpected response from {address} to {what}: {message}")]
    Protocol {
        what: String,
        address: String,
        message: String,
    },
    /// The controller quorum has no leader right now (an election is running or a majority
    /// of controllers is down).
    #[error(
        "the controller quorum has no active controller (asked {address}); retry when it has elected one"
    )]
    NoActiveController { address: String },
    /// librdkafka reported an error. Its text is in the message, so it is not also a
    /// `source` (an error chain would print it twice).
    #[error("{what} failed: {cause}")]
    Client {
        what: String,
        cause: rdkafka::error::KafkaError,
    },
    /// The broker-state endpoint could not be read.
    #[error("cannot read the broker state of node {node} from {url}: {message}")]
    BrokerState {
        node: i32,
        url: String,
        message: String,
    },
}

fn node_suffix(node: Option<i32>) -> String {
    node.map(|n| format!(" on node {n}")).unwrap_or_default()
}

fn message_suffix(message: &Option<String>) -> String {
    match message {
        Some(m) if !m.is_empty() => format!(": {m}"),
        _ => String::new(),
    }
}

impl KafkaError {
    pub(crate) fn client(what: impl Into<String>, source: rdkafka::error::KafkaError) -> Self {
        KafkaError::Client {
            what: what.into(),
            cause: source,
        }
    }
}

/// Result of the Kafka adapter.
pub type Result<T, E = KafkaError> = std::result::Result<T, E>;

/// The name of a Kafka protocol error code as Kafka spells it, e.g. 84 -> `ELECTION_NOT_NEEDED`.
#[must_use]
pub fn error_name(code: i16) -> String {
    match kafka_protocol::ResponseError::try_from_code(code) {
        None => "NONE".to_string(),
        Some(kafka_protocol::ResponseError::Unknown(c)) => format!("UNKNOWN_ERROR_CODE_{c}"),
        Some(e) => {
            let camel = e.to_string();
            let mut out = String::with_capacity(camel.len() + 8);
            for (i, ch) in camel.chars().enumerate() {
                if ch.is_ascii_uppercase() && i > 0 {
                    out.push('_');
                }
                out.push(ch.to_ascii_uppercase());
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_error_names_the_node_and_code() {
        let e = KafkaError::Api {
            what: "DescribeQuorum".into(),
            node: Some(3),
            code: 41,
            name: error_name(41),
            message: Some("not the controller".into()),
        };
        let text = e.to_string();
        assert!(text.contains("node 3") && text.contains("41"), "{text}");
        assert_eq!(error_name(84), "ELECTION_NOT_NEEDED");
        assert_eq!(error_name(0), "NONE");
    }

    #[test]
    fn a_librdkafka_error_is_told_once_in_a_chain() {
        let e = KafkaError::client(
            "DescribeConfigs of broker 9",
            rdkafka::error::KafkaError::AdminOp(
                rdkafka::types::RDKafkaErrorCode::OperationTimedOut,
            ),
        );
        let text = format!("{:#}", anyhow::Error::from(e));
        assert_eq!(text.matches("OperationTimedOut").count(), 1, "{text}");
    }
}
