//! What `operate` keeps between loops: the auto-rebalance machine, the one running mover
//! (rebalance, roll or replication-factor round, typed, with its Cruise Control flow or roll
//! run) and the bookkeeping around them. Serializable and versioned ([`STATE_VERSION`]): a
//! state saved after any step, or between a decision and its act, resumes where it was.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::decision::{Record, RecordResult, ids};
use super::running::request_unanswered;
use super::tasks::RequestParams;
use crate::engine::cc_flow::{CcFlow, Phase};
use crate::engine::model::Millis;
use crate::engine::rebalance::{AutoRebalancer, Mode, Rebalance};
use crate::engine::replicas::ReplicasState;
use crate::engine::roll::run::RollRun;

/// The version of the saved [`OperateState`] document.
pub const STATE_VERSION: u32 = 1;

/// The roll being run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunningRoll {
    pub nodes: BTreeSet<i32>,
    pub reason: String,
    pub started_at: Millis,
    /// The roll's run (the roll engine and the driver's write-ahead record), saved by the shell
    /// after every step and before every command; `None` until the shell started it. The roll
    /// engine decides inside it; this engine only keeps it.
    #[serde(default, deserialize_with = "run_via_value")]
    pub run: Option<RollRun>,
}

/// Reads the roll run inside the internally tagged [`Mover`] through a JSON value: serde buffers
/// a tagged enum's content, and that buffer does not turn the string keys of the run's node maps
/// (`"5"`) back into node ids, which a JSON value does (states saved before the run was typed
/// kept it as such a value, so they read the same way).
fn run_via_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<RollRun>, D::Error> {
    Option::<serde_json::Value>::deserialize(d)?
        .map(|v| serde_json::from_value(v).map_err(serde::de::Error::custom))
        .transpose()
}

/// The rebalance being run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunningRebalance {
    pub rebalance: Rebalance,
    /// The Cruise Control conversation (stepped by the shell, saved after every step).
    pub flow: CcFlow,
    /// When the execution request was about to be sent (saved before sending it).
    pub requested_at: Option<Millis>,
    /// A stop was asked of Cruise Control (preempted by a scale-down).
    #[serde(default)]
    pub stop_requested: bool,
    /// When it was started (epoch ms).
    pub started_at: Millis,
    /// The only brokers replicas may move to (`destination_broker_ids`), set while the request
    /// is not sent when brokers on the drain list (other than those it removes) would otherwise
    /// be destinations; `None`: wherever the endpoint puts them. Frozen once the request is sent,
    /// so it says what the running execution may fill.
    #[serde(default)]
    pub destinations: Option<BTreeSet<i32>>,
    /// Goes into the request's `reason`, so that its task is told from any other in
    /// `user_tasks` (empty in states saved before it existed).
    #[serde(default)]
    pub tag: String,
    /// The execution request's parameters, saved with `requested_at` before it is sent: its
    /// task is the one listed with exactly these ([`find_our_task`](super::find_our_task)).
    #[serde(default)]
    pub request: Option<RequestParams>,
}

impl RunningRebalance {
    /// The next step of the flow sends the execution request: save the state with
    /// [`RunningRebalance::mark_requested`] first.
    #[must_use]
    pub fn about_to_execute(&self) -> bool {
        *self.flow.phase() == Phase::Starting && !self.flow.execution_started()
    }

    /// Records that the execution request with these parameters is about to be sent (at
    /// `now`, epoch ms).
    pub fn mark_requested(&mut self, now: Millis, request: Option<RequestParams>) {
        if self.requested_at.is_none() {
            self.requested_at = Some(now);
            self.request = request;
        }
    }

    /// Whether Cruise Control may move a replica onto broker `b` for this rebalance (its
    /// request, sent or to be sent, does not rule `b` out as a destination).
    #[must_use]
    pub fn may_fill(&self, b: i32) -> bool {
        match self.rebalance.mode {
            // add_broker moves replicas onto the added brokers only.
            Mode::AddBrokers => self.rebalance.brokers.contains(&b),
            Mode::RemoveBrokers => {
                !self.rebalance.brokers.contains(&b)
                    && self.destinations.as_ref().is_none_or(|d| d.contains(&b))
            }
            Mode::Imbalance => self.destinations.as_ref().is_none_or(|d| d.contains(&b)),
        }
    }
}

/// The one thing that moves data on our behalf.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[allow(clippy::large_enum_variant)] // One per state, persisted as JSON: no boxing needed.
pub enum Mover {
    Rebalance(RunningRebalance),
    Roll(RunningRoll),
    ReplicationFactors(RunningReplicationFactors),
}

/// A replication-factor round being run (`topic_configuration`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunningReplicationFactors {
    /// The changes, as `topic set-rf` keeps them.
    pub replicas: ReplicasState,
    pub flow: CcFlow,
    /// When the execution request was about to be sent (saved before sending it).
    pub requested_at: Option<Millis>,
    pub started_at: Millis,
    /// As [`RunningRebalance::tag`].
    #[serde(default)]
    pub tag: String,
    /// As [`RunningRebalance::request`].
    #[serde(default)]
    pub request: Option<RequestParams>,
}

/// What `operate` keeps between loops (serde; versioned).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperateState {
    pub version: u32,
    pub rebalancer: AutoRebalancer,
    pub mover: Option<Mover>,
    /// When each broker was first seen holding no replica (scale-up grace), epoch ms.
    pub empty_since: BTreeMap<i32, Millis>,
    /// Replication-factor changes that failed for good (topic: target): not tried again until
    /// the policy asks for another factor.
    #[serde(default)]
    pub rf_failed: BTreeMap<String, u16>,
    /// Per node, the hash of the desired broker configuration (`roll.brokerConfig`) a roll
    /// already went over it for: that configuration does not roll the node again (a setting a
    /// restart does not apply would otherwise roll every loop). Kept by the shell.
    #[serde(default)]
    pub rolled_config: BTreeMap<i32, String>,
    /// Movers started so far (part of each request's tag).
    #[serde(default)]
    pub started: u64,
}

impl Default for OperateState {
    fn default() -> Self {
        OperateState::new()
    }
}

impl OperateState {
    #[must_use]
    pub fn new() -> OperateState {
        OperateState {
            version: STATE_VERSION,
            rebalancer: AutoRebalancer::new(),
            mover: None,
            empty_since: BTreeMap::new(),
            rf_failed: BTreeMap::new(),
            rolled_config: BTreeMap::new(),
            started: 0,
        }
    }

    /// A tag no other request of this state carries (`<epoch ms>-<n>`), for a new mover.
    pub(super) fn next_tag(&mut self, now: Millis) -> String {
        self.started += 1;
        format!("{}-{}", now.0, self.started)
    }

    /// The running rebalance, if any.
    #[must_use]
    pub fn rebalance(&self) -> Option<&RunningRebalance> {
        match &self.mover {
            Some(Mover::Rebalance(r)) => Some(r),
            _ => None,
        }
    }

    pub fn rebalance_mut(&mut self) -> Option<&mut RunningRebalance> {
        match &mut self.mover {
            Some(Mover::Rebalance(r)) => Some(r),
            _ => None,
        }
    }

    /// The running roll, if any.
    #[must_use]
    pub fn roll(&self) -> Option<&RunningRoll> {
        match &self.mover {
            Some(Mover::Roll(r)) => Some(r),
            _ => None,
        }
    }

    pub fn roll_mut(&mut self) -> Option<&mut RunningRoll> {
        match &mut self.mover {
            Some(Mover::Roll(r)) => Some(r),
            _ => None,
        }
    }

    /// The running roll ended (`succeeded` or not, `why`): nothing moves any more.
    pub fn finish_roll(&mut self, succeeded: bool, why: &str) -> Option<Record> {
        let Some(Mover::Roll(r)) = self.mover.take() else {
            return None;
        };
        Some(Record {
            kind: "roll".into(),
            target: format!("nodes {}", ids(&r.nodes)),
            reason: why.to_string(),
            result: if succeeded {
                RecordResult::Succeeded
            } else {
                RecordResult::Failed
            },
        })
    }

    /// The next observation must include `user_tasks`: a saved execution request is in flight
    /// and its task is to be found.
    #[must_use]
    pub fn needs_user_tasks(&self) -> bool {
        self.flow().is_some_and(request_unanswered)
    }

    /// The Cruise Control flow of the running mover (rebalance or replication factors).
    #[must_use]
    pub fn flow(&self) -> Option<&CcFlow> {
        match &self.mover {
            Some(Mover::Rebalance(r)) => Some(&r.flow),
            Some(Mover::ReplicationFactors(r)) => Some(&r.flow),
            _ => None,
        }
    }

    /// Replaces the running mover's flow (after a step of the shell).
    pub fn set_flow(&mut self, flow: CcFlow) {
        match &mut self.mover {
            Some(Mover::Rebalance(r)) => r.flow = flow,
            Some(Mover::ReplicationFactors(r)) => r.flow = flow,
            _ => {}
        }
    }

    /// The next step of the running flow sends the execution request: save the state with
    /// [`OperateState::mark_requested`] first.
    #[must_use]
    pub fn about_to_execute(&self) -> bool {
        self.flow()
            .is_some_and(|f| *f.phase() == Phase::Starting && !f.execution_started())
            && self.requested_at().is_none()
    }

    /// When the running flow's execution request was about to be sent.
    #[must_use]
    pub fn requested_at(&self) -> Option<Millis> {
        match &self.mover {
            Some(Mover::Rebalance(r)) => r.requested_at,
            Some(Mover::ReplicationFactors(r)) => r.requested_at,
            _ => None,
        }
    }

    /// Records that the execution request with these parameters (the query as sent, `None`
    /// when the operation cannot say) is about to be sent (at `now`, epoch ms).
    pub fn mark_requested(&mut self, now: Millis, request: Option<RequestParams>) {
        match &mut self.mover {
            Some(Mover::Rebalance(r)) => r.mark_requested(now, request),
            Some(Mover::ReplicationFactors(r)) if r.requested_at.is_none() => {
                r.requested_at = Some(now);
                r.request = request;
            }
            _ => {}
        }
    }

    /// The running mover's tag (for the request's `reason`; empty when none or saved without).
    #[must_use]
    pub fn request_tag(&self) -> &str {
        match &self.mover {
            Some(Mover::Rebalance(r)) => &r.tag,
            Some(Mover::ReplicationFactors(r)) => &r.tag,
            _ => "",
        }
    }

    /// The running replication-factor round, if any.
    #[must_use]
    pub fn replication_factors(&self) -> Option<&RunningReplicationFactors> {
        match &self.mover {
            Some(Mover::ReplicationFactors(r)) => Some(r),
            _ => None,
        }
    }

    /// What moves, for metrics (`rebalance`, `none`).
    #[must_use]
    pub fn mover_name(&self) -> &'static str {
        match &self.mover {
            Some(Mover::Rebalance(_)) => "rebalance",
            Some(Mover::Roll(_)) => "roll",
            Some(Mover::ReplicationFactors(_)) => "set-rf",
            None => "none",
        }
    }
}
