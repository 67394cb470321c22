//! The state file of `topic set-rf` (`topic-set-rf.json`): the engine's per-topic changes plus
//! the flow of the ongoing round, read when a run starts and written atomically after every step
//! of a run ([`Saver`]), so a re-run after an interruption resumes instead of starting over.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::engine::cc_flow::CcFlow;
use crate::engine::failure::{Classified, FailureKind};
use crate::engine::replicas::{ReplicasState, TopicChange};

/// The state file's name inside the state directory.
pub const STATE_FILE: &str = "topic-set-rf.json";

/// What `topic-set-rf.json` holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct StateFile {
    pub version: u32,
    pub replicas: ReplicasState,
    /// The flow of the ongoing round (followed again when the command is re-run).
    pub flow: Option<CcFlow>,
}

/// Reads the state file (`None` when there is none).
///
/// # Errors
/// The file cannot be read or parsed ([`FailureKind::Invalid`]).
pub fn load_state(path: &Path) -> anyhow::Result<Option<StateFile>> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .with_context(|| {
                format!(
                    "the state file {} is not readable; move it away to start over",
                    path.display()
                )
            })
            .map_err(|e| Classified::new(FailureKind::Invalid, format!("{e:#}")).into()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Classified::new(
            FailureKind::Invalid,
            format!("cannot read the state file {}: {e}", path.display()),
        )
        .into()),
    }
}

/// Writes the state file atomically (temporary file, then rename).
pub fn save_state(path: &Path, state: &StateFile) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the state directory {}", dir.display()))?;
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_vec_pretty(state)?)
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// How a run writes the state file after every step: its own changes, the unfinished changes
/// of other topics the file held (kept as they are) and, when it saves no flow of its own, the
/// flow of those other topics' ongoing change (kept for that command's re-run).
pub(super) struct Saver<'a> {
    path: &'a Path,
    others: BTreeMap<String, TopicChange>,
    other_flow: Option<CcFlow>,
}

impl<'a> Saver<'a> {
    /// `state`: the run's changes as prepared; `saved_flow`: the flow the file held.
    pub(super) fn new(
        path: &'a Path,
        state: &ReplicasState,
        others: BTreeMap<String, TopicChange>,
        saved_flow: Option<&CcFlow>,
    ) -> Self {
        // The flow of another topics' ongoing change, kept for that command's re-run.
        let ours = |f: &CcFlow| {
            f.task_id().is_some_and(|t| {
                state
                    .changes
                    .values()
                    .any(|c| c.task_id.as_deref() == Some(t))
            })
        };
        let other_flow = saved_flow
            .filter(|f| {
                f.task_id()
                    .is_some_and(|t| others.values().any(|c| c.task_id.as_deref() == Some(t)))
                    && !ours(f)
            })
            .cloned();
        Saver {
            path,
            others,
            other_flow,
        }
    }

    /// Writes `state` (and `flow`, else the other topics' flow); a failure is logged, the run
    /// goes on.
    pub(super) fn save(&self, state: &ReplicasState, flow: Option<&CcFlow>) {
        let mut replicas = state.clone();
        for (t, c) in &self.others {
            replicas
                .changes
                .entry(t.clone())
                .or_insert_with(|| c.clone());
        }
        let file = StateFile {
            version: 1,
            replicas,
            flow: flow.or(self.other_flow.as_ref()).cloned(),
        };
        if let Err(e) = save_state(self.path, &file) {
            tracing::warn!("cannot save the state file: {e:#}");
        }
    }
}
