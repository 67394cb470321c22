//! The Kafka and Cruise Control clients, built from the resolved settings in one place each.
//!
//! Every command and `operate` connects through these two functions, so how a client is made
//! from the settings (the connection properties and secrets, the CA file, the timeouts, the
//! polling and retry policy) is decided once. A caller names what a failed Kafka connection
//! was for ("cannot connect to the Kafka cluster to check the leaving brokers"); a setting
//! that is missing is reported as it is.

use std::time::Duration;

use anyhow::Context;

use crate::cruise_control::retry::Backoff;
use crate::cruise_control::{CcError, ClientConfig, CruiseControlClient};
use crate::kafka::{ConnectionConfig, KafkaClient};
use crate::settings::{CruiseControlSettings, KafkaSettings};

/// The request timeout when none is configured.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Connects to Kafka with the resolved settings; every Admin API request may take up to
/// `request_timeout`. `context`: what a failed connection is reported as (the Kafka error
/// stays in the chain, for the edge's classifier).
///
/// # Errors
/// No bootstrap servers are configured (a [`KafkaError`](crate::kafka::error::KafkaError) as it is), or the connection fails.
pub async fn kafka(
    settings: &KafkaSettings,
    request_timeout: Duration,
    context: Option<&str>,
) -> anyhow::Result<KafkaClient> {
    let config = ConnectionConfig::from_settings(settings, request_timeout)?;
    let connected = KafkaClient::connect(config).await;
    match context {
        Some(c) => connected.with_context(|| c.to_string()),
        None => Ok(connected?),
    }
}

/// How a Cruise Control client polls and retries (`None`: the client's defaults).
#[derive(Debug, Clone, Copy, Default)]
pub struct CcOptions {
    /// How often an answer still being computed (a 202 task) is polled.
    pub poll_interval: Option<Duration>,
    /// The retry backoff of failed requests.
    pub backoff: Option<Backoff>,
}

impl CcOptions {
    /// Polls every `interval`, retries by the client's defaults.
    #[must_use]
    pub fn polling(interval: Duration) -> CcOptions {
        CcOptions {
            poll_interval: Some(interval),
            backoff: None,
        }
    }
}

/// A Cruise Control client for the resolved settings.
///
/// # Errors
/// No URL is configured, the CA file cannot be read, or the HTTP client cannot be built.
pub fn cruise_control(
    settings: &CruiseControlSettings,
    options: CcOptions,
) -> Result<CruiseControlClient, CcError> {
    let mut cfg = ClientConfig::from_settings(settings)?;
    if let Some(p) = options.poll_interval {
        cfg.poll_interval = p;
    }
    if let Some(b) = options.backoff {
        cfg.backoff = b;
    }
    CruiseControlClient::new(cfg)
}
