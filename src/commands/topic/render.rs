//! How `topic set-rf` and `topic status` show their result: the JSON view (a stable API, see
//! the parent module's docs) and the table for people. Pure: no IO, no Cruise Control, no Kafka.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::app::topic::set_rf::ProposalSummary;
use crate::engine::model::NodeId;
use crate::engine::replicas::{ChangeState, ReplicasState};

#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct TopicView {
    pub topic: String,
    pub before: Option<u16>,
    pub target: u16,
    pub after: Option<u16>,
    /// `[smallest, largest]` replica count when the partitions disagreed before (`before` is
    /// `null` then).
    pub before_mix: Option<(u16, u16)>,
    /// `[smallest, largest]` replica count when the partitions disagree now (`after` is `null`).
    pub after_mix: Option<(u16, u16)>,
    pub state: ChangeState,
    pub task_id: Option<String>,
    pub message: Option<String>,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct SetRfView {
    pub dry_run: bool,
    pub execute: bool,
    pub task_ids: Vec<String>,
    pub proposal: Option<ProposalSummary>,
    pub topics: Vec<TopicView>,
}

/// The topics the proposal touches besides the named ones, for people (pure): `None` when
/// there are none.
pub(super) fn other_topics_line(p: &ProposalSummary) -> Option<String> {
    let others: Vec<String> = p
        .topics
        .iter()
        .filter(|t| !t.named)
        .map(|t| {
            let mut what = Vec::new();
            if t.replica_movements > 0 {
                what.push(format!("{} replica", t.replica_movements));
            }
            if t.leader_movements > 0 {
                what.push(format!("{} leader", t.leader_movements));
            }
            format!("{} ({})", t.topic, what.join(", "))
        })
        .collect();
    (!others.is_empty()).then(|| {
        format!(
            "It also moves {} other topic(s): {}",
            others.len(),
            others.join(", ")
        )
    })
}

pub(super) fn view(
    state: &ReplicasState,
    dry_run: bool,
    execute: bool,
    proposal: Option<ProposalSummary>,
) -> SetRfView {
    let task_ids: BTreeSet<String> = state
        .changes
        .values()
        .filter_map(|c| c.task_id.clone())
        .collect();
    SetRfView {
        dry_run,
        execute,
        task_ids: task_ids.into_iter().collect(),
        proposal,
        topics: state
            .changes
            .iter()
            .map(|(t, c)| TopicView {
                topic: t.clone(),
                before: c.before,
                target: c.target,
                after: c.after,
                before_mix: c.before_mix,
                after_mix: c.after_mix,
                state: c.state,
                task_id: c.task_id.clone(),
                message: c.message.clone(),
            })
            .collect(),
    }
}

/// A factor cell: the factor, the mix when the partitions disagree (`2-3 (mixed)`), else `-`.
fn rf(v: Option<u16>, mix: Option<(u16, u16)>) -> String {
    match (v, mix) {
        (Some(v), _) => v.to_string(),
        (None, Some((lo, hi))) => format!("{lo}-{hi} (mixed)"),
        (None, None) => "-".into(),
    }
}

fn state_name(s: ChangeState) -> &'static str {
    match s {
        ChangeState::Pending => "pending",
        ChangeState::Ongoing => "ongoing",
        ChangeState::Done => "done",
        ChangeState::Failed => "failed",
    }
}

#[must_use]
pub fn render(v: &SetRfView, style: crate::output::Style) -> String {
    let mut out = String::new();
    if let Some(p) = &v.proposal {
        out.push_str(&format!(
            "Cruise Control's proposal: {} replica movements, {} leader movements, {} to move\n",
            p.replica_movements,
            p.leader_movements,
            p.data_to_move_mb
                .map_or_else(|| "-".into(), crate::output::human_mb)
        ));
        if let Some(line) = other_topics_line(p) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    let mut t = crate::output::Grid::new(
        style,
        [
            "topic", "before", "target", "after", "state", "task", "message",
        ],
    )
    .ids(&[5])
    .low_value(&[5, 1]);
    for r in &v.topics {
        t.row([
            r.topic.clone(),
            rf(r.before, r.before_mix),
            r.target.to_string(),
            rf(r.after, r.after_mix),
            state_name(r.state).to_string(),
            r.task_id.clone().unwrap_or_else(|| "-".into()),
            r.message.clone().unwrap_or_default(),
        ]);
    }
    out.push_str(&format!("{}\n", t.render()));
    if v.dry_run {
        out.push_str("Dry run: nothing was changed. Re-run with --execute to apply it.\n");
    }
    out
}

/// What a preview says about the held nodes (issue 29, pure): that this proposal places no new
/// replica on them (and `--execute` checks its proposal again), or a warning naming where it
/// does.
pub(super) fn held_note(held: &BTreeMap<NodeId, String>, p: &ProposalSummary) -> String {
    if p.onto_held.is_empty() {
        format!(
            "Held node(s) {}: this proposal places no new replica on them; Cruise Control's topic_configuration cannot be told to avoid a broker, so --execute checks its proposal again and refuses one that would",
            held.iter()
                .map(|(n, why)| format!("{n} ({why})"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        format!(
            "Warning: {}",
            crate::app::topic::onto_held_message(&p.onto_held)
        )
    }
}
