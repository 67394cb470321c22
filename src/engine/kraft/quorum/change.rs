//! Whether the quorum's membership may change now: a voter added (`AddRaftVoter`) or removed
//! (`RemoveRaftVoter`), the quorum migrated from static to dynamic, and whether a change is
//! already under way. The rules are listed in the parent module's documentation.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    Limits, MIGRATE_MIN_METADATA_VERSION, QuorumMode, QuorumRefusal, QuorumView, caught_up,
    leader_clock, leader_end_offset,
};
use crate::engine::kraft::{KRAFT_VERSION, LevelRange, METADATA_VERSION, majority};
use crate::engine::model::NodeId;

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
                crate::engine::kraft::upgrade::metadata_version_name(m.max)
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
