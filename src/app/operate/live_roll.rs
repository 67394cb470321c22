//! The real [`RollPort`]: plans with the roll engine over what Kafka (and, in Kubernetes, the
//! pods) say, and restarts through the roll driver on the platform, as `kafkaops roll` does.

use std::collections::{BTreeMap, BTreeSet};

use super::ports::{RollPort, RollStep, RollStepEnd, WishSeen};
use crate::app::operate::roll::{self, RollSession, RollSettings};
use crate::driver::{Outcome, RollIo, StepResult};
use crate::engine::roll::run::RollRun;
use crate::kafka::KafkaClient;
use crate::platform::kube::LeaseGuard;
use crate::state::Store;

/// Rolls through the roll driver: the Kafka client it observes with and how nodes restart.
pub struct LiveRoll {
    pub kafka: KafkaClient,
    pub settings: RollSettings,
}

impl LiveRoll {
    /// The roll over `kafka`, whose observations (shared with the loop's clones of it) keep of
    /// each broker's configs only the keys `operate` reads ([`broker_config_keys`]).
    #[must_use]
    pub fn new(kafka: KafkaClient, settings: RollSettings) -> LiveRoll {
        kafka.keep_broker_config_keys(Some(broker_config_keys(&settings.desired)));
        LiveRoll { kafka, settings }
    }
}

/// The broker config keys `operate` reads (issue #27: a broker reports some 350, kept for
/// every broker between observations): those of the policy's `roll.brokerConfig` (what the
/// roll compares and applies), the cordon and the throttles (the health verdict), and the
/// ones the observation reads itself (`kafka::client::OBSERVED_BROKER_KEYS`, added by the
/// client).
#[must_use]
pub fn broker_config_keys(desired: &BTreeMap<String, String>) -> BTreeSet<String> {
    let mut keys: BTreeSet<String> = desired.keys().cloned().collect();
    keys.insert(crate::engine::cordon::CORDON_KEY.to_string());
    keys.extend(
        crate::engine::throttles::BROKER_KEYS
            .iter()
            .map(|k| (*k).to_string()),
    );
    keys
}

/// Why a roll ended, in one sentence (logged and recorded).
fn why(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Done(summary) => {
            let held: Vec<_> = summary
                .held
                .iter()
                .map(|h| (h.node, h.reason.clone()))
                .collect();
            match super::held::reason_tail(&held) {
                Some(tail) => format!("the roll completed; {tail}"),
                None => "the roll completed".to_string(),
            }
        }
        Outcome::Aborted(e) => format!("the roll was aborted: {e}"),
        Outcome::RestartFailed { node, error } => {
            format!("restarting node {node} failed: {error:#}")
        }
        Outcome::ObserveFailed(e) => format!("the cluster could not be observed: {e:#}"),
        Outcome::SaveFailed(e) => format!("the state could not be saved: {e:#}"),
        Outcome::Interrupted => "interrupted".to_string(),
    }
}

impl RollPort for LiveRoll {
    type Session = RollSession;

    async fn wish(&self, rolled: &BTreeMap<i32, String>) -> Result<WishSeen, String> {
        roll::wish(&self.kafka, &self.settings, rolled).await
    }

    fn can_restart(&self) -> bool {
        self.settings.can_restart()
    }

    fn follow_policy(&mut self, desired: &BTreeMap<String, String>, max_batch_size: usize) {
        self.settings.desired.clone_from(desired);
        // A key the policy adds is read again from every broker (the client forgets the
        // configs it kept when the set changes).
        self.kafka
            .keep_broker_config_keys(Some(broker_config_keys(desired)));
        self.settings.config.max_batch_size = max_batch_size.max(1);
    }

    fn config_hash(&self) -> String {
        roll::config_hash(&self.settings.desired)
    }

    async fn lease_holder(&self) -> Option<Result<Option<String>, String>> {
        let k = self.settings.kube.as_ref()?;
        Some(k.roll_lease_holder().await.map_err(|e| e.to_string()))
    }

    async fn take_lease(&self) -> Option<Result<LeaseGuard, String>> {
        let k = self.settings.kube.as_ref()?;
        Some(
            k.take_lease(crate::app::roll::LEASE_DURATION)
                .await
                .map_err(|e| e.to_string()),
        )
    }

    async fn start(
        &self,
        saved: Option<&RollRun>,
        rolled: &BTreeMap<i32, String>,
    ) -> Result<(RollSession, BTreeSet<i32>), String> {
        let s = roll::start(&self.kafka, &self.settings, saved, rolled).await?;
        let nodes = s.config_nodes.clone();
        Ok((s, nodes))
    }

    async fn step<T: Store<RollRun> + Send>(
        &self,
        session: &mut RollSession,
        store: &mut T,
    ) -> RollStep {
        let result = crate::driver::step(
            &mut session.run,
            &session.io,
            &mut session.progress,
            store,
            false,
            &session.options,
        )
        .await;
        let decided = session.progress.take();
        let end = match &result {
            StepResult::Wake(at) => RollStepEnd::Wake(at.since(RollIo::now(&session.io))),
            StepResult::Finished(outcome) => {
                session.witness.stop();
                RollStepEnd::Finished {
                    ok: matches!(outcome, Outcome::Done(_)),
                    why: why(outcome),
                }
            }
        };
        RollStep {
            decided,
            run: session.run.clone(),
            end,
        }
    }

    fn end(&self, session: RollSession) {
        session.witness.stop();
    }
}
