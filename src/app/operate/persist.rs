//! The operate state across the store: loaded when this process starts to lead, saved after
//! every transition (only when it changed), a refused save deposing the loop.

use super::operator::{Operator, Stop};
use super::ports::{CruiseControlPort, KafkaPort, Recorder, RollPort};
use super::telemetry::ErrorSource;
use super::{OperateError, log};
use crate::engine::operate::{OperateState, STATE_VERSION};
use crate::state::{Leadership, Store, StoreError};

impl<C: CruiseControlPort, K: KafkaPort, S: Store<str>, L: Leadership, R: Recorder, P: RollPort>
    Operator<C, K, S, L, R, P>
{
    pub(super) async fn load(&mut self) -> Result<OperateState, OperateError> {
        let doc = self.store.load().await.map_err(OperateError::Load)?;
        let Some(doc) = doc else {
            return Ok(OperateState::new());
        };
        let state: OperateState =
            serde_json::from_str(&doc).map_err(|e| OperateError::Unreadable(e.to_string()))?;
        if state.version != STATE_VERSION {
            return Err(OperateError::Version(state.version));
        }
        *self.saved_doc() = Some(doc);
        Ok(state)
    }

    /// The document last saved.
    pub(super) fn saved_doc(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        self.saved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Saves `state` if it changed since the last save.
    pub(super) async fn persist(&self, state: &OperateState) -> Result<(), StoreError> {
        if self.spec.dry_run {
            return Ok(());
        }
        let doc = serde_json::to_string(state).map_err(|e| StoreError::Io(e.to_string()))?;
        if self.saved_doc().as_deref() == Some(doc.as_str()) {
            return Ok(());
        }
        match self.store.save(&doc).await {
            Ok(()) => {
                *self.saved_doc() = Some(doc);
                Ok(())
            }
            Err(e) => {
                self.telemetry.error(ErrorSource::State);
                Err(e)
            }
        }
    }

    pub(super) async fn persist_or_stop(&self, state: &OperateState) -> Result<(), Stop> {
        match self.persist(state).await {
            Ok(()) => Ok(()),
            Err(StoreError::Conflict(why)) => Err(Stop::Deposed(why)),
            Err(e) => {
                // A state that cannot be saved must not run ahead of what a successor reads.
                log(format!("cannot save the state: {e}"));
                Err(Stop::Deposed(e.to_string()))
            }
        }
    }
}
