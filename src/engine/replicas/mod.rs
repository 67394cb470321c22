//! Replication-factor changes (`kafkaops topic set-rf`), decided purely.
//!
//! Why a state machine of its own: a change of many topics is one Cruise Control task that
//! may outlive the process (`--no-wait`, Ctrl-C, a crash) and Cruise Control itself (it keeps
//! user tasks in memory only). The seed (`shared/seeds/topic-replication-factor-change.md`)
//! keeps, per topic, a target and a state: **pending** (not in Cruise Control's queue: not
//! sent yet, refused because another execution runs, or forgotten by a restart), **ongoing**
//! (sent, with the task id), and then **done** or **failed**. This module holds that state as
//! plain serde data ([`ReplicasState`], saved to the state file between steps), checks the
//! input before anything is sent ([`validate`]), groups what to send by target factor so one
//! `topic_configuration` request carries every topic ([`ReplicasState::to_send`]), and turns
//! what happened (the flow's outcome, the factors read back from Kafka) into the next state.
//! No IO, no clock: the command (`topic set-rf`) observes and acts.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// What Kafka says about one topic (read by the command through the Kafka adapter).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicFacts {
    pub partitions: u32,
    /// The smallest and largest replica count over the partitions (equal when uniform).
    pub min_rf: u16,
    pub max_rf: u16,
    /// Effective `min.insync.replicas` (topic override, else the broker default).
    pub min_isr: Option<u32>,
}

impl TopicFacts {
    /// The smallest and largest replica count, when the partitions disagree (`None` when uniform).
    #[must_use]
    pub fn mix(&self) -> Option<(u16, u16)> {
        (self.min_rf != self.max_rf).then_some((self.min_rf, self.max_rf))
    }

    /// The replication factor, when every partition has the same replica count.
    #[must_use]
    pub fn rf(&self) -> Option<u16> {
        (self.min_rf == self.max_rf).then_some(self.min_rf)
    }

    /// Every partition has exactly `target` replicas.
    #[must_use]
    pub fn is_at(&self, target: u16) -> bool {
        self.min_rf == target && self.max_rf == target
    }
}

/// What Kafka says about the cluster.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterFacts {
    /// Brokers able to host replicas (registered and unfenced).
    pub brokers: usize,
    /// Distinct `broker.rack` values; empty when no broker has a rack.
    pub racks: BTreeSet<String>,
    pub topics: BTreeMap<String, TopicFacts>,
}

/// Input that cannot work, found before anything is sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("no topic given: pass --topics with --replication-factor, or --from-file")]
    Nothing,
    #[error("topic {topic:?} is listed with different replication factors: {factors:?}")]
    Conflicting { topic: String, factors: Vec<u16> },
    #[error("topic {topic:?}: the replication factor must be at least 1 (got {target})")]
    BelowOne { topic: String, target: u16 },
    #[error("topic(s) {} do not exist", .0.join(", "))]
    UnknownTopics(Vec<String>),
    #[error(
        "topic {topic:?}: replication factor {target} is more than the {brokers} broker(s) able to host replicas"
    )]
    AboveBrokers {
        topic: String,
        target: u16,
        brokers: usize,
    },
    #[error(
        "topic {topic:?}: replication factor {target} is below its min.insync.replicas ({min_isr}); producers with acks=all would fail. Pass --allow-below-min-isr to do it anyway"
    )]
    BelowMinIsr {
        topic: String,
        target: u16,
        min_isr: u32,
    },
}

/// Every problem of an input, reported together; nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}; nothing was changed", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct InputErrors(pub Vec<InputError>);

/// Merges the requested (topic, factor) pairs: a topic listed twice with the same factor is
/// fine, with different factors an error.
pub fn merge_requests(
    pairs: impl IntoIterator<Item = (String, u16)>,
) -> Result<BTreeMap<String, u16>, InputErrors> {
    let mut seen: BTreeMap<String, BTreeSet<u16>> = BTreeMap::new();
    for (t, rf) in pairs {
        seen.entry(t).or_default().insert(rf);
    }
    let mut errors = Vec::new();
    let mut out = BTreeMap::new();
    for (topic, factors) in seen {
        if factors.contains(&0) {
            // Needs no cluster: said before anything connects.
            errors.push(InputError::BelowOne { topic, target: 0 });
        } else if factors.len() > 1 {
            errors.push(InputError::Conflicting {
                topic,
                factors: factors.into_iter().collect(),
            });
        } else if let Some(rf) = factors.into_iter().next() {
            out.insert(topic, rf);
        }
    }
    if out.is_empty() && errors.is_empty() {
        errors.push(InputError::Nothing);
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(InputErrors(errors))
    }
}

/// Checks the wanted factors against the cluster. Topics already at their target pass
/// whatever their factor (they are skipped, not changed).
pub fn validate(
    wanted: &BTreeMap<String, u16>,
    cluster: &ClusterFacts,
    allow_below_min_isr: bool,
) -> Result<(), InputErrors> {
    let mut errors = Vec::new();
    let unknown: Vec<String> = wanted
        .keys()
        .filter(|t| !cluster.topics.contains_key(*t))
        .cloned()
        .collect();
    if !unknown.is_empty() {
        errors.push(InputError::UnknownTopics(unknown));
    }
    for (topic, &target) in wanted {
        if target < 1 {
            errors.push(InputError::BelowOne {
                topic: topic.clone(),
                target,
            });
            continue;
        }
        let Some(facts) = cluster.topics.get(topic) else {
            continue;
        };
        if facts.is_at(target) {
            continue;
        }
        if usize::from(target) > cluster.brokers {
            errors.push(InputError::AboveBrokers {
                topic: topic.clone(),
                target,
                brokers: cluster.brokers,
            });
        }
        if let Some(min_isr) = facts.min_isr
            && u32::from(target) < min_isr
            && !allow_below_min_isr
        {
            errors.push(InputError::BelowMinIsr {
                topic: topic.clone(),
                target,
                min_isr,
            });
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(InputErrors(errors))
    }
}

/// Where one topic's change is (the seed's states).
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeState {
    /// Not in Cruise Control's queue: not sent yet, refused for now, or forgotten.
    Pending,
    /// Sent: Cruise Control runs (or queued) the task.
    Ongoing,
    /// The topic has its target factor (read back from Kafka).
    Done,
    /// The change ended without the topic reaching its target.
    Failed,
}

impl ChangeState {
    #[must_use]
    pub fn is_final(self) -> bool {
        matches!(self, ChangeState::Done | ChangeState::Failed)
    }
}

/// One topic's change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicChange {
    /// The factor before the change (`None`: partitions disagreed).
    pub before: Option<u16>,
    pub target: u16,
    /// The factor last read from Kafka.
    pub after: Option<u16>,
    /// The smallest and largest replica count before the change, when the partitions disagreed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before_mix: Option<(u16, u16)>,
    /// The smallest and largest replica count last read, when the partitions disagree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_mix: Option<(u16, u16)>,
    pub state: ChangeState,
    /// The Cruise Control task carrying the change (ongoing, and kept afterwards).
    pub task_id: Option<String>,
    /// Why it is pending again, failed, or was skipped.
    pub message: Option<String>,
}

/// How a Cruise Control round for the changes ended (from the flow's outcome).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundEnd {
    /// The task completed.
    Completed,
    /// The task ended `CompletedWithError` (or was stopped).
    CompletedWithError,
    /// Cruise Control forgot the task (restart, expiry).
    Lost,
    /// Cruise Control said there is nothing to do (already at the target).
    NothingToDo,
    /// Not sent, try again later: another execution runs, the load model is not ready, the
    /// active-task limit.
    Busy(String),
    /// Refused for good (the input or the cluster must change).
    Refused(String),
}

/// How a `topic_configuration` flow's outcome ends a round (`None`: it did not end one: the
/// execution was started without waiting, interrupted, timed out, or following it failed).
#[must_use]
pub fn round_end(outcome: &crate::engine::cc_flow::Outcome) -> Option<RoundEnd> {
    use crate::engine::cc_flow::{FailureClass, Outcome, Stage};
    Some(match outcome {
        Outcome::Completed { .. } => RoundEnd::Completed,
        Outcome::Failed { .. } => RoundEnd::CompletedWithError,
        Outcome::TaskLost { .. } => RoundEnd::Lost,
        Outcome::NothingToDo => RoundEnd::NothingToDo,
        Outcome::Busy { running } => RoundEnd::Busy(format!(
            "Cruise Control is executing something else ({running})"
        )),
        Outcome::Error {
            stage: Stage::Proposal | Stage::Start | Stage::Readiness,
            failure,
            ..
        } if failure.class == FailureClass::Retryable
            && failure.kind != crate::engine::failure::FailureKind::NotReady =>
        {
            RoundEnd::Busy(failure.message.clone())
        }
        Outcome::Error {
            stage: Stage::Proposal | Stage::Start,
            failure,
            ..
        } if failure.class == FailureClass::Permanent => RoundEnd::Refused(failure.message.clone()),
        _ => return None,
    })
}

/// The state of a `set-rf` run (saved in the state file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicasState {
    /// The cluster the changes are for (refuses to mix clusters in one file).
    pub cluster_id: Option<String>,
    pub changes: BTreeMap<String, TopicChange>,
}

impl ReplicasState {
    /// A new run for `wanted`: topics already at their target are done at once ("skipped").
    #[must_use]
    pub fn plan(
        cluster_id: Option<String>,
        wanted: &BTreeMap<String, u16>,
        cluster: &ClusterFacts,
    ) -> Self {
        let mut s = ReplicasState {
            cluster_id,
            changes: BTreeMap::new(),
        };
        s.adopt(wanted, cluster);
        s
    }

    /// Takes `wanted` into an existing (restored) state: a topic with an unfinished change to
    /// the same target keeps it (re-running after an interruption resumes), and so does a done
    /// one still at its target (its task is remembered); anything else starts over as pending.
    /// Topics not in `wanted` are dropped. Done topics are reported as skipped.
    pub fn adopt(&mut self, wanted: &BTreeMap<String, u16>, cluster: &ClusterFacts) {
        let old = std::mem::take(&mut self.changes);
        for (topic, &target) in wanted {
            let facts = cluster.topics.get(topic);
            let now = facts.and_then(TopicFacts::rf);
            let at_target = facts.is_some_and(|f| f.is_at(target));
            let kept = old
                .get(topic)
                .filter(|c| {
                    c.target == target
                        && (!c.state.is_final() || (c.state == ChangeState::Done && at_target))
                })
                .cloned();
            let change = kept.unwrap_or(TopicChange {
                before: now,
                target,
                after: None,
                before_mix: facts.and_then(TopicFacts::mix),
                after_mix: None,
                state: ChangeState::Pending,
                task_id: None,
                message: None,
            });
            self.changes.insert(topic.clone(), change);
        }
        self.observe(cluster);
        for c in self.changes.values_mut() {
            if c.state == ChangeState::Done {
                let by = c
                    .task_id
                    .as_deref()
                    .map(|t| format!(" (changed by task {t})"))
                    .unwrap_or_default();
                c.message = Some(format!(
                    "already at the target replication factor{by}: skipped"
                ));
            }
        }
    }

    /// New facts from Kafka: every unfinished topic already at its target is done.
    pub fn observe(&mut self, cluster: &ClusterFacts) {
        for (topic, c) in &mut self.changes {
            let Some(f) = cluster.topics.get(topic) else {
                continue;
            };
            c.after = f.rf();
            c.after_mix = f.mix();
            if !c.state.is_final() && f.is_at(c.target) {
                c.state = ChangeState::Done;
            }
        }
    }

    /// What to send now, grouped by target factor (one request carries them all).
    #[must_use]
    pub fn to_send(&self) -> BTreeMap<u16, Vec<String>> {
        let mut out: BTreeMap<u16, Vec<String>> = BTreeMap::new();
        for (t, c) in &self.changes {
            if c.state == ChangeState::Pending {
                out.entry(c.target).or_default().push(t.clone());
            }
        }
        out
    }

    /// The task ids of ongoing changes.
    #[must_use]
    pub fn ongoing_tasks(&self) -> BTreeSet<String> {
        self.changes
            .values()
            .filter(|c| c.state == ChangeState::Ongoing)
            .filter_map(|c| c.task_id.clone())
            .collect()
    }

    /// Whether anything is still pending or ongoing.
    #[must_use]
    pub fn unfinished(&self) -> bool {
        self.changes.values().any(|c| !c.state.is_final())
    }

    /// Whether some change failed.
    #[must_use]
    pub fn any_failed(&self) -> bool {
        self.changes
            .values()
            .any(|c| c.state == ChangeState::Failed)
    }

    /// Cruise Control accepted the execution of every pending change as task `task_id`.
    pub fn handle_sent(&mut self, task_id: Option<String>) {
        for c in self.changes.values_mut() {
            if c.state == ChangeState::Pending {
                c.state = ChangeState::Ongoing;
                c.task_id.clone_from(&task_id);
                c.message = None;
            }
        }
    }

    /// A round ended; `cluster` was read from Kafka afterwards (topics at their target are
    /// done whatever Cruise Control said).
    pub fn handle_round(&mut self, end: &RoundEnd, cluster: &ClusterFacts) {
        self.observe(cluster);
        for c in self.changes.values_mut() {
            if c.state.is_final() {
                continue;
            }
            match end {
                RoundEnd::Completed => {
                    c.state = ChangeState::Failed;
                    c.message = Some(format!(
                        "Cruise Control reported the task complete but the replication factor is {} instead of {}",
                        factor(c.after),
                        c.target
                    ));
                }
                RoundEnd::NothingToDo => {
                    c.state = ChangeState::Failed;
                    c.message = Some(format!(
                        "Cruise Control found nothing to do but the replication factor is {} instead of {}",
                        factor(c.after),
                        c.target
                    ));
                }
                RoundEnd::CompletedWithError => {
                    c.state = ChangeState::Failed;
                    c.message = Some(
                        "the Cruise Control task ended with an error (CompletedWithError) or was stopped"
                            .into(),
                    );
                }
                RoundEnd::Lost => {
                    // The seed: Cruise Control restarted or expired the task; the change is
                    // sent again.
                    c.state = ChangeState::Pending;
                    c.message = Some(format!(
                        "Cruise Control no longer knows task {} (restarted?); sending the change again",
                        c.task_id.as_deref().unwrap_or("-")
                    ));
                    c.task_id = None;
                }
                RoundEnd::Busy(why) => {
                    if c.state == ChangeState::Pending {
                        c.message = Some(format!("waiting in line: {why}"));
                    }
                }
                RoundEnd::Refused(why) => {
                    c.state = ChangeState::Failed;
                    c.message = Some(why.clone());
                }
            }
        }
    }

    /// How many changes are in each state.
    #[must_use]
    pub fn counts(&self) -> BTreeMap<ChangeState, usize> {
        let mut m = BTreeMap::new();
        for c in self.changes.values() {
            *m.entry(c.state).or_insert(0) += 1;
        }
        m
    }
}

impl PartialOrd for ChangeState {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ChangeState {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (*self as u8).cmp(&(*other as u8))
    }
}

fn factor(rf: Option<u16>) -> String {
    rf.map_or_else(|| "mixed".into(), |r| r.to_string())
}

/// A Java regular expression matching exactly these names (Cruise Control matches whole names;
/// `.` in a name must not match any character).
#[must_use]
pub fn whole_names_regex(topics: &[String]) -> String {
    topics
        .iter()
        .map(|t| escape(t))
        .collect::<Vec<_>>()
        .join("|")
}

fn escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for ch in name.chars() {
        if !(ch.is_ascii_alphanumeric() || ch == '_') {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests;
