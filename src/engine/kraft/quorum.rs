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

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{KRAFT_VERSION, LevelRange, METADATA_VERSION, majority};
use crate::engine::failure::FailureKind;
use crate::engine::model::NodeId;
use crate::engine::roll::safety::{clock_stepped_back, is_caught_up};

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

/// Why a quorum change is refused. Each names what blocks it; [`QuorumRefusal::retryable`]
/// says which may pass by waiting.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QuorumRefusal {
    #[error("the controller quorum has no active controller; retry once one is elected")]
    NoLeader,
    #[error(
        "node {node}'s LastCaughtUpTimestamp {ts} is ahead of the active controller's clock \
         ({leader_ts}): its clock stepped back, no timestamp can be trusted until it passes them"
    )]
    ClockSteppedBack {
        node: NodeId,
        #[serde(rename = "last_caught_up_at_ms", alias = "ts")]
        ts: i64,
        #[serde(rename = "leader_time_at_ms", alias = "leader_ts")]
        leader_ts: i64,
    },
    #[error(
        "the quorum is static (kraft.version 0): its membership cannot change; `quorum migrate` \
         turns it dynamic first"
    )]
    StaticQuorum,
    #[error("kraft.version is unknown: cannot tell whether the quorum is static or dynamic")]
    KraftVersionUnknown,
    #[error("node {node} is already a voter")]
    AlreadyVoter { node: NodeId },
    #[error(
        "node {node} is not a known controller (no controller registration or controller role): \
         only controllers can become voters"
    )]
    NotAController { node: NodeId },
    #[error(
        "node {node} does not fetch from the quorum as an observer: start it as a controller \
         formatted with --no-initial-controllers first"
    )]
    NotAnObserver { node: NodeId },
    #[error("node {node} is not running")]
    NotRunning { node: NodeId },
    #[error(
        "node {node} has no known metadata directory id (DescribeQuorum v2, Kafka >= 3.9, is \
         needed)"
    )]
    NoDirectoryId { node: NodeId },
    #[error(
        "node {node} has not caught up: {lag} records behind the leader (at most {max_lag}), \
         last fetch {fetch_age} ago (at most {max_fetch_age_ms} ms), caught up: {caught_up}",
        lag = opt(*lag_records),
        fetch_age = opt_ms(*fetch_age_ms)
    )]
    NotCaughtUp {
        node: NodeId,
        lag_records: Option<i64>,
        fetch_age_ms: Option<i64>,
        caught_up: bool,
        max_lag: i64,
        max_fetch_age_ms: i64,
    },
    #[error("node {node} is not a voter")]
    NotAVoter { node: NodeId },
    #[error("node {node} is the last voter: a quorum needs at least one")]
    LastVoter { node: NodeId },
    #[error(
        "node {node} is the active controller: move leadership away first (restart it \
         gracefully: it resigns and another voter takes over), then remove it"
    )]
    ActiveController { node: NodeId },
    #[error(
        "{change} would leave {caught_up:?} caught up and running of {voters} voter(s), {needed} \
         needed for a majority"
    )]
    WouldLoseMajority {
        change: String,
        caught_up: Vec<NodeId>,
        voters: usize,
        needed: usize,
    },
    #[error("the quorum is already dynamic (kraft.version {kraft_version}): nothing to migrate")]
    AlreadyDynamic { kraft_version: i16 },
    #[error("node {node}'s supported features are unknown ({reason}): every node must be asked")]
    NodeUnknown { node: NodeId, reason: String },
    #[error(
        "node {node} cannot take part in the migration: {reason}; upgrade its software to Kafka \
         4.1 or later first"
    )]
    NodeCannotMigrate { node: NodeId, reason: String },
    #[error("voter(s) {lagging:?} are not running and caught up: every voter must be")]
    VotersNotCaughtUp { lagging: Vec<NodeId> },
    #[error(
        "another quorum change is in progress: {reason}; nothing was changed, retry once it has \
         completed"
    )]
    ChangeInProgress { reason: String },
}

fn opt(v: Option<i64>) -> String {
    v.map_or_else(|| "unknown".into(), |v| v.to_string())
}

fn opt_ms(v: Option<i64>) -> String {
    v.map_or_else(|| "unknown".into(), |v| format!("{v} ms"))
}

impl QuorumRefusal {
    /// Whether waiting may clear it (an election, a catching-up observer, a clock passing its
    /// old timestamps); the others need the cluster or the request to change.
    #[must_use]
    pub fn retryable(&self) -> bool {
        matches!(
            self,
            QuorumRefusal::NoLeader
                | QuorumRefusal::ClockSteppedBack { .. }
                | QuorumRefusal::NotCaughtUp { .. }
                | QuorumRefusal::VotersNotCaughtUp { .. }
        )
    }

    /// Its failure class: waiting may clear it (not ready), nothing to do (already a voter,
    /// already dynamic), the request names a node that cannot be one (invalid), else a refusal.
    #[must_use]
    pub fn failure_kind(&self) -> FailureKind {
        match self {
            _ if self.retryable() => FailureKind::NotReady,
            QuorumRefusal::AlreadyVoter { .. } | QuorumRefusal::AlreadyDynamic { .. } => {
                FailureKind::NoOp
            }
            QuorumRefusal::NotAController { .. } | QuorumRefusal::NotAVoter { .. } => {
                FailureKind::Invalid
            }
            QuorumRefusal::ChangeInProgress { .. } => FailureKind::Busy,
            _ => FailureKind::Failed,
        }
    }
}

/// The leader and its clock (its own `LastCaughtUpTimestamp`), once no member's timestamp is
/// ahead of it.
fn leader_clock(view: &QuorumView) -> Result<(NodeId, i64), QuorumRefusal> {
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
fn caught_up(m: &Member, leader: NodeId, leader_ts: i64, limits: &Limits) -> bool {
    m.running != Some(false)
        && (m.id == leader
            || m.last_caught_up_ms
                .is_some_and(|t| is_caught_up(leader_ts, t, limits.caught_up_within_ms)))
}

fn leader_end_offset(view: &QuorumView) -> Option<i64> {
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

fn require_dynamic(view: &QuorumView) -> Result<(), QuorumRefusal> {
    match QuorumMode::of(view.kraft_version) {
        QuorumMode::Dynamic => Ok(()),
        QuorumMode::Static => Err(QuorumRefusal::StaticQuorum),
        QuorumMode::Unknown => Err(QuorumRefusal::KraftVersionUnknown),
    }
}

/// Whether the quorum is in the middle of a change, as far as DescribeQuorum shows it.
///
/// Kafka applies one voter change at a time: the leader appends the new voter set
/// (`VotersRecord`) to its log, lists it at once in DescribeQuorum (the latest voter set,
/// committed or not), and refuses another AddRaftVoter/RemoveRaftVoter (REQUEST_TIMED_OUT)
/// until that record is committed. DescribeQuorum has no "pending" flag, nor any trace of an
/// AddRaftVoter the leader is still checking (it asks the new voter's ApiVersions before it
/// appends anything); what it does show of a change under way is:
/// - a **running voter the leader has not heard from** (no log end offset and no fetch time):
///   a voter just added whose fetches have not reached the leader yet, or a leader just
///   elected (a voter the platform reports stopped is a dead voter, not a change, and may be
///   removed);
/// - **no high watermark**: the leader has not committed anything in its epoch, and Kafka
///   refuses voter changes until it has.
///
/// An AddRaftVoter/RemoveRaftVoter that Kafka itself refuses because a previous change is not
/// committed is mapped to the same refusal where it is sent ([`crate::engine::kraft`]'s caller).
///
/// # Errors
/// [`QuorumRefusal::ChangeInProgress`] naming what shows it.
pub fn change_in_progress(view: &QuorumView) -> Result<(), QuorumRefusal> {
    pending(view, None)
}

/// [`change_in_progress`], not counting `except` (a voter to remove: a dead voter that never
/// fetched from this leader is what one removes).
fn pending(view: &QuorumView, except: Option<NodeId>) -> Result<(), QuorumRefusal> {
    if view.leader.is_some() && view.high_watermark.is_none() {
        return Err(QuorumRefusal::ChangeInProgress {
            reason: format!(
                "the active controller has no high watermark yet (epoch {}): it has not \
                 committed its latest records",
                view.epoch
            ),
        });
    }
    let joining: Vec<NodeId> = view
        .voters
        .iter()
        .filter(|m| {
            Some(m.id) != view.leader
                && Some(m.id) != except
                && m.running != Some(false)
                && m.log_end_offset.is_none()
                && m.last_fetch_ms.is_none()
        })
        .map(|m| m.id)
        .collect();
    if !joining.is_empty() {
        return Err(QuorumRefusal::ChangeInProgress {
            reason: format!(
                "voter(s) {joining:?} are listed but have not fetched from the active \
                 controller yet (a voter set just changed, or a leader was just elected)"
            ),
        });
    }
    Ok(())
}

/// What `AddRaftVoter` must carry (the listeners come from the node's own config).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddVoter {
    pub node: NodeId,
    pub directory_id: String,
}

/// Whether controller `node` may become a voter now.
///
/// # Errors
/// The first [`QuorumRefusal`] that applies, in the order of the module docs.
pub fn check_add(
    view: &QuorumView,
    node: NodeId,
    limits: &Limits,
) -> Result<AddVoter, QuorumRefusal> {
    require_dynamic(view)?;
    let (leader, leader_ts) = leader_clock(view)?;
    if view.is_voter(node) {
        return Err(QuorumRefusal::AlreadyVoter { node });
    }
    if !view.controllers.contains(&node) {
        return Err(QuorumRefusal::NotAController { node });
    }
    pending(view, None)?;
    let candidate = view
        .observers
        .iter()
        .find(|m| m.id == node)
        .ok_or(QuorumRefusal::NotAnObserver { node })?;
    if candidate.running == Some(false) {
        return Err(QuorumRefusal::NotRunning { node });
    }
    let directory_id = candidate
        .directory_id
        .clone()
        .ok_or(QuorumRefusal::NoDirectoryId { node })?;
    let lag_records = leader_end_offset(view)
        .zip(candidate.log_end_offset)
        .map(|(l, o)| l - o);
    let fetch_age_ms = candidate.last_fetch_ms.map(|f| leader_ts - f);
    let is_up = caught_up(candidate, leader, leader_ts, limits);
    let lag_ok = lag_records.is_some_and(|l| l <= limits.max_lag_records);
    let fetch_ok = fetch_age_ms.is_some_and(|a| (0..=limits.max_fetch_age_ms).contains(&a));
    if !(is_up && lag_ok && fetch_ok) {
        return Err(QuorumRefusal::NotCaughtUp {
            node,
            lag_records,
            fetch_age_ms,
            caught_up: is_up,
            max_lag: limits.max_lag_records,
            max_fetch_age_ms: limits.max_fetch_age_ms,
        });
    }
    let mut up: Vec<NodeId> = view
        .voters
        .iter()
        .filter(|m| caught_up(m, leader, leader_ts, limits))
        .map(|m| m.id)
        .collect();
    up.push(node);
    let voters = view.voters.len() + 1;
    let needed = majority(voters);
    if up.len() < needed {
        return Err(QuorumRefusal::WouldLoseMajority {
            change: format!("adding node {node}"),
            caught_up: up,
            voters,
            needed,
        });
    }
    Ok(AddVoter { node, directory_id })
}

/// What `RemoveRaftVoter` must carry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoveVoter {
    pub node: NodeId,
    pub directory_id: String,
}

/// Whether voter `node` may be removed now.
///
/// # Errors
/// The first [`QuorumRefusal`] that applies, in the order of the module docs.
pub fn check_remove(
    view: &QuorumView,
    node: NodeId,
    limits: &Limits,
) -> Result<RemoveVoter, QuorumRefusal> {
    require_dynamic(view)?;
    let (leader, leader_ts) = leader_clock(view)?;
    let target = view
        .voters
        .iter()
        .find(|m| m.id == node)
        .ok_or(QuorumRefusal::NotAVoter { node })?;
    pending(view, Some(node))?;
    if view.voters.len() == 1 {
        return Err(QuorumRefusal::LastVoter { node });
    }
    if node == leader {
        return Err(QuorumRefusal::ActiveController { node });
    }
    let directory_id = target
        .directory_id
        .clone()
        .ok_or(QuorumRefusal::NoDirectoryId { node })?;
    let remaining = view.voters.len() - 1;
    let up: Vec<NodeId> = view
        .voters
        .iter()
        .filter(|m| m.id != node && caught_up(m, leader, leader_ts, limits))
        .map(|m| m.id)
        .collect();
    let needed = majority(remaining);
    if up.len() < needed {
        return Err(QuorumRefusal::WouldLoseMajority {
            change: format!("removing node {node}"),
            caught_up: up,
            voters: remaining,
            needed,
        });
    }
    Ok(RemoveVoter { node, directory_id })
}

/// One node's supported features, or why they are unknown.
pub type NodeSupport = BTreeMap<NodeId, Result<BTreeMap<String, LevelRange>, String>>;

/// The static-to-dynamic pre-flight. `nodes` holds every registered broker (fenced ones
/// included) and every controller: Kafka checks them all before it upgrades `kraft.version`.
/// On success the update to make is `kraft.version` = 1.
///
/// # Errors
/// [`QuorumRefusal::AlreadyDynamic`] when there is nothing to do, else the first refusal.
pub fn check_migrate(
    view: &QuorumView,
    nodes: &NodeSupport,
    limits: &Limits,
) -> Result<i16, QuorumRefusal> {
    match view.kraft_version {
        None => return Err(QuorumRefusal::KraftVersionUnknown),
        Some(v) if v >= 1 => return Err(QuorumRefusal::AlreadyDynamic { kraft_version: v }),
        Some(_) => {}
    }
    let (leader, leader_ts) = leader_clock(view)?;
    pending(view, None)?;
    for (node, support) in nodes {
        let features = support
            .as_ref()
            .map_err(|reason| QuorumRefusal::NodeUnknown {
                node: *node,
                reason: reason.clone(),
            })?;
        let reason = match (features.get(KRAFT_VERSION), features.get(METADATA_VERSION)) {
            (Some(k), _) if !k.contains(1) => {
                Some(format!("it supports kraft.version {}-{}", k.min, k.max))
            }
            (None, _) => Some("it does not report kraft.version".to_string()),
            (_, Some(m)) if m.max < MIGRATE_MIN_METADATA_VERSION => Some(format!(
                "its software supports metadata.version up to {} (older than Kafka 4.1)",
                super::upgrade::metadata_version_name(m.max)
            )),
            (_, None) => Some("it does not report metadata.version".to_string()),
            _ => None,
        };
        if let Some(reason) = reason {
            return Err(QuorumRefusal::NodeCannotMigrate {
                node: *node,
                reason,
            });
        }
    }
    for v in &view.voters {
        if !nodes.contains_key(&v.id) {
            return Err(QuorumRefusal::NodeUnknown {
                node: v.id,
                reason: "a voter that was not asked".into(),
            });
        }
    }
    let lagging: Vec<NodeId> = view
        .voters
        .iter()
        .filter(|m| !caught_up(m, leader, leader_ts, limits))
        .map(|m| m.id)
        .collect();
    if !lagging.is_empty() {
        return Err(QuorumRefusal::VotersNotCaughtUp { lagging });
    }
    Ok(1)
}
