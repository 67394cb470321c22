//! librdkafka's admin client, made when a request needs it and dropped once unused (it keeps a
//! thread and a connection per broker of the cluster), and the one place its blocking calls
//! run ([`KafkaClient::blocking`](super::KafkaClient)).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rdkafka::ClientConfig;
use rdkafka::admin::AdminOptions;

use super::KafkaClient;
use crate::kafka::error::{KafkaError, Result};
use crate::kafka::ffi::Admin;

/// How long librdkafka's admin client is kept after its last use. It learns every broker of
/// the cluster and keeps a thread and a connection per broker (1,000 threads at 1,000
/// brokers, issue #27), so it is made when a request needs it and dropped once unused.
pub const ADMIN_IDLE: Duration = Duration::from_secs(10);

/// librdkafka's admin client, made on first use and dropped [`ADMIN_IDLE`] after the last
/// use ends (a request that comes meanwhile keeps it).
#[derive(Default)]
pub(super) struct LazyAdmin {
    pub(super) slot: Mutex<AdminSlot>,
    /// librdkafka's settings; `None` only in a client whose settings were never checked.
    pub(super) config: Mutex<Option<ClientConfig>>,
}

#[derive(Default)]
pub(super) struct AdminSlot {
    admin: Option<Arc<Admin>>,
    /// Uses in progress.
    in_flight: usize,
    /// Bumped by every use; a drop scheduled by an earlier use leaves a used client alone.
    generation: u64,
    /// How many admin clients this client has made (tests and benches read it).
    created: u64,
}

/// One use of the admin client; ending it schedules the drop of an unused client.
pub(super) struct AdminUse {
    admin: Arc<Admin>,
    lazy: Arc<LazyAdmin>,
}

impl std::ops::Deref for AdminUse {
    type Target = Admin;
    fn deref(&self) -> &Admin {
        &self.admin
    }
}

impl Drop for AdminUse {
    fn drop(&mut self) {
        let generation = {
            let mut slot = self.lazy.lock();
            slot.in_flight = slot.in_flight.saturating_sub(1);
            slot.generation
        };
        // Outside a runtime (a test's plain thread) the client stays until the KafkaClient goes.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let lazy = Arc::clone(&self.lazy);
        runtime.spawn(async move {
            tokio::time::sleep(ADMIN_IDLE).await;
            let unused = {
                let mut slot = lazy.lock();
                if slot.in_flight == 0 && slot.generation == generation {
                    slot.admin.take()
                } else {
                    None
                }
            };
            if let Some(admin) = unused {
                tracing::debug!("dropping librdkafka's admin client, unused for {ADMIN_IDLE:?}");
                // Destroying it joins librdkafka's threads: not on a runtime worker.
                let _ = tokio::task::spawn_blocking(move || drop(admin)).await;
            }
        });
    }
}

impl LazyAdmin {
    fn lock(&self) -> std::sync::MutexGuard<'_, AdminSlot> {
        self.slot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The admin client, made now if there is none.
    pub(super) fn get(self: &Arc<Self>) -> Result<AdminUse> {
        let mut slot = self.lock();
        let admin = match &slot.admin {
            Some(a) => Arc::clone(a),
            None => {
                let cc = self
                    .config
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .clone()
                    .unwrap_or_default();
                let admin: Admin = cc.create().map_err(setting_error)?;
                tracing::debug!("made librdkafka's admin client");
                let admin = Arc::new(admin);
                slot.admin = Some(Arc::clone(&admin));
                slot.created += 1;
                admin
            }
        };
        slot.in_flight += 1;
        slot.generation += 1;
        Ok(AdminUse {
            admin,
            lazy: Arc::clone(self),
        })
    }
}

/// A librdkafka client's creation error: a bad setting names its key.
pub(super) fn setting_error(e: rdkafka::error::KafkaError) -> KafkaError {
    match e {
        rdkafka::error::KafkaError::ClientConfig(_, ref desc, ref key, _) => {
            KafkaError::InvalidSetting {
                key: key.clone(),
                message: desc.clone(),
            }
        }
        other => KafkaError::client("creating the Kafka admin client", other),
    }
}

impl KafkaClient {
    /// How many librdkafka admin clients this client (and its clones) has made so far.
    #[must_use]
    pub fn librdkafka_clients_made(&self) -> u64 {
        self.admin.lock().created
    }

    /// Whether librdkafka's admin client exists now (it is dropped [`ADMIN_IDLE`] after its
    /// last use).
    #[must_use]
    pub fn librdkafka_client_alive(&self) -> bool {
        self.admin.lock().admin.is_some()
    }

    pub(super) async fn blocking<T: Send + 'static>(
        &self,
        what: &'static str,
        f: impl FnOnce(&Admin, Duration) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let admin = self.admin.get()?;
        let timeout = self.timeout();
        let sent = std::time::Instant::now();
        let result = tokio::task::spawn_blocking(move || f(&admin, timeout))
            .await
            .map_err(|e| KafkaError::Protocol {
                what: what.into(),
                address: "librdkafka".into(),
                message: format!("worker thread failed: {e}"),
            })
            .and_then(|r| r);
        // For the run's journal (crate::output::journal), as the wire path's requests.
        tracing::debug!(
            system = "kafka",
            request = format!("{what} (librdkafka)").as_str(),
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

    pub(super) fn options(&self) -> AdminOptions {
        AdminOptions::new().request_timeout(Some(self.timeout()))
    }
}
