//! Software upgrades: what each node's software supports and when a feature level may be
//! finalized.
//!
//! Kafka does not report a node's software version over its protocol (ApiVersions carries the
//! *client's* software name and version, not the server's). What each node does report, per
//! node, is the range of every feature its software supports (ApiVersions
//! `SupportedFeatures`); the top of its `metadata.version` range is the latest level of its
//! release ([`release_of`] names it). That range is also exactly what finalizing needs: Kafka
//! itself refuses an `UpdateFeatures` that a registered broker (fenced ones included) or
//! controller does not support, but an operator should hear it before, by node.
//!
//! The roll onto new software (`upgrade --to RELEASE`) restarts every node whose supported
//! maximum is not the release's latest ([`software_reasons`]); the roll engine checks each
//! restarted node against that level ([`crate::engine::roll::NodeRequest::expected_software`]).
//!
//! Rules of the finalize pre-flight:
//! - every node (every registered broker, fenced ones included, and every controller) was
//!   asked and its software supports the target level; a node that could not be asked blocks
//!   (it may run old software);
//! - a finalize only raises levels (a downgrade is another operation);
//! - `kraft.version` is never part of an upgrade: raising it turns a static quorum dynamic for
//!   good (KAFKA-21426); that is `quorum migrate`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{KRAFT_VERSION, LevelRange, METADATA_VERSION};
use crate::engine::failure::FailureKind;
use crate::engine::model::NodeId;

/// `metadata.version` levels and their names, as `kafka-storage feature-dependencies` of Kafka
/// 4.4.0 lists them (levels 7-34; 7 = 3.3-IV3 is the lowest Kafka 4.x accepts).
const METADATA_VERSIONS: [(i16, &str); 28] = [
    (7, "3.3-IV3"),
    (8, "3.4-IV0"),
    (9, "3.5-IV0"),
    (10, "3.5-IV1"),
    (11, "3.5-IV2"),
    (12, "3.6-IV0"),
    (13, "3.6-IV1"),
    (14, "3.6-IV2"),
    (15, "3.7-IV0"),
    (16, "3.7-IV1"),
    (17, "3.7-IV2"),
    (18, "3.7-IV3"),
    (19, "3.7-IV4"),
    (20, "3.8-IV0"),
    (21, "3.9-IV0"),
    (22, "4.0-IV0"),
    (23, "4.0-IV1"),
    (24, "4.0-IV2"),
    (25, "4.0-IV3"),
    (26, "4.1-IV0"),
    (27, "4.1-IV1"),
    (28, "4.2-IV0"),
    (29, "4.2-IV1"),
    (30, "4.3-IV0"),
    (31, "4.4-IV0"),
    (32, "4.4-IV1"),
    (33, "4.4-IV2"),
    (34, "4.5-IV0"),
];

/// The latest production `metadata.version` of each release (`kafka-storage version-mapping
/// --release-version X`): what a node of that release reports as its supported maximum
/// (unless `unstable.feature.versions.enable`).
const RELEASE_LATEST: [(i16, &str); 6] = [
    (21, "3.9"),
    (25, "4.0"),
    (27, "4.1"),
    (29, "4.2"),
    (30, "4.3"),
    (33, "4.4"),
];

/// `metadata.version` level `level` by name (`4.4-IV2`), or `level N` when unknown here.
#[must_use]
pub fn metadata_version_name(level: i16) -> String {
    METADATA_VERSIONS
        .iter()
        .find(|(l, _)| *l == level)
        .map_or_else(|| format!("level {level}"), |(_, n)| (*n).to_string())
}

/// The release whose latest `metadata.version` is `max_supported`: what a node reporting that
/// maximum runs (`None` for a level no release ends at, e.g. unstable levels enabled).
#[must_use]
pub fn release_of(max_supported: i16) -> Option<&'static str> {
    RELEASE_LATEST
        .iter()
        .find(|(l, _)| *l == max_supported)
        .map(|(_, r)| *r)
}

/// What the pre-flight decides on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct UpgradeView {
    /// The cluster's finalized levels (from the active controller, or a node).
    pub finalized: BTreeMap<String, i16>,
    /// Every registered broker (fenced ones included) and every controller: its supported
    /// ranges by feature, or why they could not be read.
    pub nodes: BTreeMap<NodeId, Result<BTreeMap<String, LevelRange>, String>>,
}

/// One node of the dry run.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeSoftware {
    pub id: NodeId,
    /// The top of its supported `metadata.version` range, by name.
    pub metadata_version_max: Option<String>,
    /// The release that range ends at (`4.4`), when it is one.
    pub release: Option<String>,
    /// Why it could not be asked.
    pub unknown: Option<String>,
}

/// A feature in the dry run: its finalized level and the highest every node supports.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureSummary {
    pub name: String,
    pub finalized: Option<i16>,
    /// The highest level every asked node supports; `None` when a node could not be asked or
    /// does not know the feature.
    pub highest_common: Option<i16>,
}

/// Each node's software and each feature's levels (the upgrade dry run).
#[must_use]
pub fn summary(view: &UpgradeView) -> (Vec<NodeSoftware>, Vec<FeatureSummary>) {
    let nodes = view
        .nodes
        .iter()
        .map(|(id, s)| {
            let max = s
                .as_ref()
                .ok()
                .and_then(|f| f.get(METADATA_VERSION))
                .map(|r| r.max);
            NodeSoftware {
                id: *id,
                metadata_version_max: max.map(metadata_version_name),
                release: max.and_then(release_of).map(str::to_string),
                unknown: s.as_ref().err().cloned(),
            }
        })
        .collect();
    let mut names: Vec<String> = view.finalized.keys().cloned().collect();
    for f in view.nodes.values().flatten() {
        names.extend(f.keys().cloned());
    }
    names.sort();
    names.dedup();
    let features = names
        .into_iter()
        .map(|name| FeatureSummary {
            finalized: view.finalized.get(&name).copied(),
            highest_common: highest_common(view, &name),
            name,
        })
        .collect();
    (nodes, features)
}

/// The highest level of `feature` every node supports; `None` when a node could not be asked,
/// does not know it, or there are no nodes.
#[must_use]
pub fn highest_common(view: &UpgradeView, feature: &str) -> Option<i16> {
    let mut it = view.nodes.values();
    let first = it.next()?;
    let mut max = first.as_ref().ok()?.get(feature)?.max;
    for s in it {
        max = max.min(s.as_ref().ok()?.get(feature)?.max);
    }
    Some(max)
}

/// Why a node blocks a level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Blocker {
    /// It could not be asked (down, unreachable): it may run old software.
    Unknown { reason: String },
    /// Its software supports the feature only in this range (or not at all: `None`).
    Unsupported { supported: Option<LevelRange> },
}

/// Why a finalize is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FinalizeRefusal {
    #[error(
        "kraft.version is never changed by an upgrade: raising it turns a static quorum dynamic \
         for good; use `quorum migrate`"
    )]
    KraftVersion,
    #[error("no feature level to finalize was given")]
    NothingRequested,
    #[error("{feature} {to} is below the finalized {from}: a finalize only raises levels")]
    Downgrade { feature: String, from: i16, to: i16 },
    #[error(
        "{feature} {level} cannot be finalized: {}",
        describe_blockers(blockers)
    )]
    NodesNotReady {
        feature: String,
        level: i16,
        blockers: Vec<(NodeId, Blocker)>,
    },
    #[error("no node was asked: the nodes' software is unknown")]
    NoNodes,
}

impl FinalizeRefusal {
    /// Its failure class: a request that cannot be made (kraft.version, nothing, a downgrade) is
    /// invalid, nodes that do not support the level are a refusal.
    #[must_use]
    pub fn failure_kind(&self) -> FailureKind {
        match self {
            FinalizeRefusal::KraftVersion
            | FinalizeRefusal::NothingRequested
            | FinalizeRefusal::Downgrade { .. } => FailureKind::Invalid,
            FinalizeRefusal::NodesNotReady { .. } | FinalizeRefusal::NoNodes => FailureKind::Failed,
        }
    }
}

fn describe_blockers(blockers: &[(NodeId, Blocker)]) -> String {
    blockers
        .iter()
        .map(|(n, b)| match b {
            Blocker::Unknown { reason } => format!("node {n} could not be asked ({reason})"),
            Blocker::Unsupported { supported: None } => {
                format!("node {n}'s software does not know the feature")
            }
            Blocker::Unsupported { supported: Some(r) } => {
                format!("node {n}'s software supports {}-{}", r.min, r.max)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// One level change of a finalize.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelChange {
    pub feature: String,
    pub from: Option<i16>,
    pub to: i16,
}

/// The finalize pre-flight for `targets` (feature -> level). Levels already finalized are left
/// out of the result; an empty result means nothing to do.
///
/// # Errors
/// The first [`FinalizeRefusal`] (features in name order; every blocking node of that feature).
pub fn check_finalize(
    view: &UpgradeView,
    targets: &BTreeMap<String, i16>,
) -> Result<Vec<LevelChange>, FinalizeRefusal> {
    if targets.is_empty() {
        return Err(FinalizeRefusal::NothingRequested);
    }
    if targets.contains_key(KRAFT_VERSION) {
        return Err(FinalizeRefusal::KraftVersion);
    }
    if view.nodes.is_empty() {
        return Err(FinalizeRefusal::NoNodes);
    }
    let mut changes = Vec::new();
    for (feature, &level) in targets {
        let from = view.finalized.get(feature).copied();
        if let Some(from) = from {
            if level < from {
                return Err(FinalizeRefusal::Downgrade {
                    feature: feature.clone(),
                    from,
                    to: level,
                });
            }
            if level == from {
                continue;
            }
        }
        let blockers: Vec<(NodeId, Blocker)> = view
            .nodes
            .iter()
            .filter_map(|(id, s)| match s {
                Err(reason) => Some((
                    *id,
                    Blocker::Unknown {
                        reason: reason.clone(),
                    },
                )),
                Ok(f) => match f.get(feature) {
                    Some(r) if r.contains(level) => None,
                    other => Some((
                        *id,
                        Blocker::Unsupported {
                            supported: other.copied(),
                        },
                    )),
                },
            })
            .collect();
        if !blockers.is_empty() {
            return Err(FinalizeRefusal::NodesNotReady {
                feature: feature.clone(),
                level,
                blockers,
            });
        }
        changes.push(LevelChange {
            feature: feature.clone(),
            from,
            to: level,
        });
    }
    Ok(changes)
}

/// A node restarted onto new software reports something else than that software supports.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
#[error(
    "node {node} came back supporting metadata.version up to {}, expected {} (the new software's \
     latest): it does not run the new software",
    reported.map_or_else(|| "unknown".to_string(), metadata_version_name),
    metadata_version_name(*expected)
)]
pub struct WrongSoftware {
    pub node: NodeId,
    pub reported: Option<i16>,
    pub expected: i16,
}

/// After a restart onto new software: the node must report the new software's latest
/// `metadata.version` (`expected`, e.g. 33 for Kafka 4.4) as its supported maximum.
///
/// # Errors
/// [`WrongSoftware`] when it reports another maximum or none.
pub fn check_software(
    node: NodeId,
    supported: &BTreeMap<String, LevelRange>,
    expected: i16,
) -> Result<(), WrongSoftware> {
    let reported = supported.get(METADATA_VERSION).map(|r| r.max);
    if reported == Some(expected) {
        Ok(())
    } else {
        Err(WrongSoftware {
            node,
            reported,
            expected,
        })
    }
}

/// The latest `metadata.version` of `release` (`4.4`, or `4.4.0`: the patch is ignored), as a
/// node of that release reports it; `None` for a release not known here.
#[must_use]
pub fn release_level(release: &str) -> Option<i16> {
    let mut parts = release.trim().split('.');
    let minor = format!("{}.{}", parts.next()?, parts.next()?);
    RELEASE_LATEST
        .iter()
        .find(|(_, r)| *r == minor)
        .map(|(l, _)| *l)
}

/// The releases [`release_level`] knows, oldest first.
#[must_use]
pub fn known_releases() -> Vec<&'static str> {
    RELEASE_LATEST.iter().map(|(_, r)| *r).collect()
}

/// Why a roll onto a release's software is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SoftwareRefusal {
    #[error(
        "release {release} supports metadata.version up to {}, below the finalized {}: nodes \
         on its software would not start (a finalized level cannot be undone)",
        metadata_version_name(*level),
        metadata_version_name(*finalized)
    )]
    BelowFinalized {
        release: String,
        level: i16,
        finalized: i16,
    },
}

/// The nodes a roll onto `release`'s software (whose latest `metadata.version` is `level`)
/// restarts, each with its "software version" restart reason: every node that does not report
/// `level` as its supported maximum, including one that could not be asked (it may run old
/// software; after its restart it must report `level` like any other).
///
/// # Errors
/// [`SoftwareRefusal::BelowFinalized`]: the cluster already finalized a higher level than
/// that software supports.
pub fn software_reasons(
    view: &UpgradeView,
    release: &str,
    level: i16,
) -> Result<BTreeMap<NodeId, String>, SoftwareRefusal> {
    if let Some(&finalized) = view.finalized.get(METADATA_VERSION)
        && finalized > level
    {
        return Err(SoftwareRefusal::BelowFinalized {
            release: release.to_string(),
            level,
            finalized,
        });
    }
    Ok(view
        .nodes
        .iter()
        .filter_map(|(id, s)| {
            let reported = match s {
                Err(reason) => format!("could not be asked ({reason})"),
                Ok(f) => match f.get(METADATA_VERSION).map(|r| r.max) {
                    Some(max) if max == level => return None,
                    Some(max) => format!(
                        "runs {} (metadata.version up to {})",
                        release_of(max).unwrap_or("an unknown release"),
                        metadata_version_name(max)
                    ),
                    None => "reports no metadata.version".to_string(),
                },
            };
            Some((
                *id,
                format!(
                    "software version: {reported}, target {release} (metadata.version up to {})",
                    metadata_version_name(level)
                ),
            ))
        })
        .collect())
}
