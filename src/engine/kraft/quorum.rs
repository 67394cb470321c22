//! The controller quorum: its status verdict and whether its membership may change.
//!
//! The rules, all from the active controller's DescribeQuorum answer:
//! - A member is **caught up** when its `LastCaughtUpTimestamp` is at most the window
//!   (`controller.quorum.fetch.timeout.ms`, default 2000) behind the leader's own timestamp
//!   (the leader reports its current time for itself), the rule the roll uses
//!   ([`is_caught_up`]); the leader itself is caught up. A member the platform reports not
//!   running never counts: a stopped controller keeps a fresh timestamp for a moment.
//! - A timestamp **ahead** of the leader's means its clock stepped back; then no timestamp can be
//!   trusted and nothing is changed ([`QuorumRefusal::ClockSteppedBack`]).
//! - **Add** (`AddRaftVoter`): the quorum is dynamic (`kraft.version` >= 1); the node has the
//!   controller role, runs, fetches as an observer with a known directory id, trails the
//!   leader's log end by at most `max_lag_records`, fetched within `max_fetch_age_ms` and is
//!   caught up; with it the voters keep a caught-up majority.
//! - **Remove** (`RemoveRaftVoter`): the quorum is dynamic; the node is a voter with a known
//!   directory id, not the last one, not the active controller (move leadership first: a
//!   graceful restart of the active controller hands leadership to another voter), and the
//!   remaining voters keep a caught-up majority of the new, smaller set.
//! - **Migrate** (static to dynamic, `kraft.version` 0 -> 1, Kafka >= 4.1, KAFKA-16538): every
//!   node's software supports `kraft.version` 1 and is at least 4.1 (its supported
//!   `metadata.version` reaches 4.1-IV0), and every voter is running and caught up. It cannot
//!   be undone.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::majority;
use crate::engine::model::NodeId;
use crate::engine::roll::safety::{clock_stepped_back, is_caught_up};

mod change;
mod refusal;

pub use change::{
    AddVoter, NodeSupport, RemoveVoter, change_in_progress, check_add, check_migrate, check_remove,
};
pub use refusal::QuorumRefusal;

/// The first `metadata.version` of Kafka 4.1 (4.1-IV0): the first release that can upgrade
/// `kraft.version` from 0 to 1 (KAFKA-16538). A node whose software supports this level runs
/// 4.1 or later.
pub const MIGRATE_MIN_METADATA_VERSION: i16 = 26;

/// One quorum member as the active controller describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub id: NodeId,
    /// Its metadata log directory id (DescribeQuorum v2), Kafka's text form.
    pub directory_id: Option<String>,
    /// `None` when the leader does not know it.
    pub log_end_offset: Option<i64>,
    /// Leader wall clock (ms); `None` when unknown.
    #[serde(rename = "last_fetch_at_ms", alias = "last_fetch_ms")]
    pub last_fetch_ms: Option<i64>,
    /// Leader wall clock (ms); `None` when unknown.
    #[serde(rename = "last_caught_up_at_ms", alias = "last_caught_up_ms")]
    pub last_caught_up_ms: Option<i64>,
    /// Whether the platform reports the node's process running. `None`: nobody was asked, the
    /// timestamps alone decide. A platform that was asked and could not tell must say
    /// `Some(false)`: such a member never counts as caught up.
    pub running: Option<bool>,
}

/// What the rules decide on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuorumView {
    /// The active controller; `None` while there is none.
    pub leader: Option<NodeId>,
    pub epoch: i32,
    /// `None` while the leader has not established it.
    pub high_watermark: Option<i64>,
    pub voters: Vec<Member>,
    /// Brokers, and controllers that are not voters.
    pub observers: Vec<Member>,
    /// The finalized `kraft.version`: 0 static, >= 1 dynamic; `None` when unknown.
    pub kraft_version: Option<i16>,
    /// Nodes known to have the controller role (registered controllers, `process.roles`):
    /// only these may become voters (a broker's listener is not a controller's).
    pub controllers: BTreeSet<NodeId>,
}

impl QuorumView {
    fn member(&self, id: NodeId) -> Option<&Member> {
        self.voters
            .iter()
            .chain(&self.observers)
            .find(|m| m.id == id)
    }

    fn is_voter(&self, id: NodeId) -> bool {
        self.voters.iter().any(|m| m.id == id)
    }
}

/// Limits of the rules; [`Limits::default`] = Kafka's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// The caught-up window (`controller.quorum.fetch.timeout.ms`).
    pub caught_up_within_ms: i64,
    /// How many records a controller to add may trail the leader's log end.
    pub max_lag_records: i64,
    /// How old a controller to add's last fetch may be.
    pub max_fetch_age_ms: i64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            caught_up_within_ms: 2000,
            max_lag_records: 1000,
            max_fetch_age_ms: 2000,
        }
    }
}

/// Static (`controller.quorum.voters`, `kraft.version` 0) or dynamic (KIP-853) quorum.
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuorumMode {
    Static,
    Dynamic,
    Unknown,
}

impl QuorumMode {
    #[must_use]
    pub fn of(kraft_version: Option<i16>) -> Self {
        match kraft_version {
            Some(0) => QuorumMode::Static,
            Some(_) => QuorumMode::Dynamic,
            None => QuorumMode::Unknown,
        }
    }
}

/// One member's figures, for `quorum status`.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberStatus {
    pub id: NodeId,
    pub voter: bool,
    pub leader: bool,
    pub directory_id: Option<String>,
    pub log_end_offset: Option<i64>,
    /// Records behind the leader's log end; `None` when either end is unknown.
    pub lag_records: Option<i64>,
    /// How long ago (leader clock) it last fetched; `None` when unknown.
    pub fetch_age_ms: Option<i64>,
    /// How long ago (leader clock) it was last caught up; `None` when unknown.
    pub caught_up_age_ms: Option<i64>,
    pub caught_up: bool,
    pub running: Option<bool>,
}

/// The verdict of `quorum status`.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// Every voter is caught up.
    Healthy,
    /// A majority is caught up, these voters are not: one more failure may stop the quorum.
    VoterLagging { lagging: Vec<NodeId> },
    /// Fewer than a majority of voters are caught up: the quorum cannot commit.
    NoCaughtUpMajority {
        caught_up: Vec<NodeId>,
        voters: usize,
        needed: usize,
    },
    /// No active controller, or its timestamps cannot be trusted.
    Unknown { reason: String },
}

/// `quorum status` in data.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuorumStatus {
    pub mode: QuorumMode,
    pub kraft_version: Option<i16>,
    pub leader: Option<NodeId>,
    pub epoch: i32,
    pub high_watermark: Option<i64>,
    pub voters: Vec<MemberStatus>,
    pub observers: Vec<MemberStatus>,
    pub verdict: Verdict,
}

/// The leader and its clock (its own `LastCaughtUpTimestamp`), once no member's timestamp is
/// ahead of it.
pub(super) fn leader_clock(view: &QuorumView) -> Result<(NodeId, i64), QuorumRefusal> {
    let leader = view.leader.ok_or(QuorumRefusal::NoLeader)?;
    let leader_ts = view
        .member(leader)
        .and_then(|m| m.last_caught_up_ms)
        .ok_or(QuorumRefusal::NoLeader)?;
    let members = view.voters.iter().chain(&view.observers);
    if let Some((node, ts)) = clock_stepped_back(
        leader_ts,
        members.filter_map(|m| m.last_caught_up_ms.map(|t| (m.id, t))),
    ) {
        return Err(QuorumRefusal::ClockSteppedBack {
            node,
            ts,
            leader_ts,
        });
    }
    Ok((leader, leader_ts))
}

/// Whether `m` counts as caught up (and running) for the leader `leader` at `leader_ts`.
pub(super) fn caught_up(m: &Member, leader: NodeId, leader_ts: i64, limits: &Limits) -> bool {
    m.running != Some(false)
        && (m.id == leader
            || m.last_caught_up_ms
                .is_some_and(|t| is_caught_up(leader_ts, t, limits.caught_up_within_ms)))
}

pub(super) fn leader_end_offset(view: &QuorumView) -> Option<i64> {
    view.leader
        .and_then(|l| view.member(l))
        .and_then(|m| m.log_end_offset)
}

fn member_status(
    view: &QuorumView,
    m: &Member,
    voter: bool,
    clock: Option<(NodeId, i64)>,
    limits: &Limits,
) -> MemberStatus {
    let leader_ts = clock.map(|(_, t)| t);
    MemberStatus {
        id: m.id,
        voter,
        leader: view.leader == Some(m.id),
        directory_id: m.directory_id.clone(),
        log_end_offset: m.log_end_offset,
        lag_records: leader_end_offset(view)
            .zip(m.log_end_offset)
            .map(|(l, o)| (l - o).max(0)),
        fetch_age_ms: leader_ts.zip(m.last_fetch_ms).map(|(l, f)| l - f),
        caught_up_age_ms: leader_ts.zip(m.last_caught_up_ms).map(|(l, c)| l - c),
        caught_up: clock.is_some_and(|(leader, ts)| caught_up(m, leader, ts, limits)),
        running: m.running,
    }
}

/// The figures and the verdict of `quorum status`.
#[must_use]
pub fn status(view: &QuorumView, limits: &Limits) -> QuorumStatus {
    let clock = leader_clock(view);
    let ok_clock = clock.as_ref().ok().copied();
    let voters: Vec<MemberStatus> = view
        .voters
        .iter()
        .map(|m| member_status(view, m, true, ok_clock, limits))
        .collect();
    let observers = view
        .observers
        .iter()
        .map(|m| member_status(view, m, false, ok_clock, limits))
        .collect();
    let verdict = match clock {
        Err(e) => Verdict::Unknown {
            reason: e.to_string(),
        },
        Ok(_) => {
            let up: Vec<NodeId> = voters
                .iter()
                .filter(|v| v.caught_up)
                .map(|v| v.id)
                .collect();
            let needed = majority(voters.len());
            if up.len() < needed {
                Verdict::NoCaughtUpMajority {
                    caught_up: up,
                    voters: voters.len(),
                    needed,
                }
            } else if up.len() < voters.len() {
                Verdict::VoterLagging {
                    lagging: voters
                        .iter()
                        .filter(|v| !v.caught_up)
                        .map(|v| v.id)
                        .collect(),
                }
            } else {
                Verdict::Healthy
            }
        }
    };
    QuorumStatus {
        mode: QuorumMode::of(view.kraft_version),
        kraft_version: view.kraft_version,
        leader: view.leader,
        epoch: view.epoch,
        high_watermark: view.high_watermark,
        voters,
        observers,
        verdict,
    }
}
