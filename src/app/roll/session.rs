//! A roll session over the [`crate::driver`] step function: what the roll was asked (saved with
//! its state, so that re-running the same roll resumes it and another is refused), resuming a
//! saved run, the loop the CLI runs (`operate` steps the same run once per loop instead), and
//! what becomes of the state when the run ends.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::Selection;
use super::requests::Role;
use crate::app::Reporter;
use crate::driver::{self, DriverOptions, Outcome, Progress, RollIo, RollRun, RunReport};
use crate::engine::roll::RollConfig;
use crate::state::RollStore;

/// How the nodes restart, as saved with a roll's request (the commands as given).
#[derive(Debug, Clone, Copy, Default)]
pub struct RestartCommands<'a> {
    pub restart: Option<&'a str>,
    pub stop: Option<&'a str>,
    pub start: Option<&'a str>,
}

/// What a roll was asked, as saved with its state: a re-run with the same request resumes.
#[must_use]
pub fn request_document(
    selection: Option<&Selection>,
    desired: &std::collections::BTreeMap<String, String>,
    config: &RollConfig,
    restart: RestartCommands<'_>,
) -> serde_json::Value {
    let selection = match selection {
        None => serde_json::Value::Null,
        Some(Selection::All) => serde_json::json!("all"),
        Some(Selection::Nodes(ids)) => serde_json::json!({ "nodes": ids }),
        Some(Selection::Role(Role::Broker)) => serde_json::json!({ "role": "broker" }),
        Some(Selection::Role(Role::Controller)) => {
            serde_json::json!({ "role": "controller" })
        }
    };
    serde_json::json!({
        "selection": selection,
        "desired_config": desired,
        "config": config,
        "restart": {
            "restart_command": restart.restart,
            "stop_command": restart.stop,
            "start_command": restart.start,
        },
    })
}

/// A saved request in words (`--all`, `--nodes 1,2`, `--set KEY=...`).
#[must_use]
pub fn describe_request(request: &serde_json::Value) -> String {
    let mut parts = Vec::new();
    if let Some(release) = request["upgrade_to"].as_str() {
        parts.push(format!("upgrade --to {release}"));
    }
    match &request["selection"] {
        serde_json::Value::String(s) if s == "all" => parts.push("--all".to_string()),
        serde_json::Value::Object(o) => {
            if let Some(ids) = o.get("nodes").and_then(|v| v.as_array()) {
                let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
                parts.push(format!("--nodes {}", ids.join(",")));
            }
            if let Some(role) = o.get("role").and_then(|v| v.as_str()) {
                parts.push(format!("--role {role}"));
            }
        }
        _ => {}
    }
    if let Some(d) = request["desired_config"].as_object() {
        parts.extend(d.keys().map(|k| format!("desired {k}")));
    }
    if parts.is_empty() {
        "an unrecognised request".to_string()
    } else {
        parts.join(" ")
    }
}

/// Why a saved run cannot be resumed or discarded.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The state file cannot be read (a usage error: discard it).
    #[error("{0:#}; pass --discard-state to delete it and start a new roll")]
    Unreadable(anyhow::Error),
    /// A saved roll of another request (a usage error: finish it, or discard it).
    #[error(
        "a saved roll of this cluster for a different request exists in {path} ({request}, \
         {restarted} node(s) restarted so far); re-run that roll to finish it, or pass \
         --discard-state to delete it and start this one"
    )]
    Different {
        path: String,
        request: String,
        restarted: usize,
    },
    /// Discarding failed.
    #[error(transparent)]
    Discard(anyhow::Error),
}

/// The saved run to resume (`None`: start a new one). `discard`: the saved state is deleted
/// first (not on a dry run) and a new run starts.
///
/// # Errors
/// The state cannot be read or deleted, or it is a roll of another request.
pub fn saved_run(
    path: &Path,
    request: &serde_json::Value,
    discard: bool,
    dry_run: bool,
    reporter: &dyn Reporter,
) -> Result<Option<RollRun>, ResumeError> {
    if discard {
        if path.exists() && !dry_run {
            crate::state::remove_roll(path).map_err(ResumeError::Discard)?;
            reporter.note(&format!(
                "Discarded the saved roll state {}",
                path.display()
            ));
        }
        return Ok(None);
    }
    match crate::state::load_roll(path).map_err(ResumeError::Unreadable)? {
        None => Ok(None),
        Some(s) if s.request == *request => Ok(Some(s.run)),
        Some(s) => Err(ResumeError::Different {
            path: path.display().to_string(),
            request: describe_request(&s.request),
            restarted: RunReport::of(&s.run, Outcome::Interrupted, s.run.started)
                .restarted()
                .len(),
        }),
    }
}

/// The CLI's loop over the step function ([`driver::run_until`]): saves after every step, sleeps
/// until the step's wake-up, stops at once after a restart command when `exit_after_command` is
/// set (a second Ctrl-C); `stop` (the first Ctrl-C) is honoured between batches.
pub async fn drive<I: RollIo, P: Progress>(
    run: &mut RollRun,
    io: &I,
    progress: &mut P,
    store: &mut RollStore,
    stop: &AtomicBool,
    exit_after_command: &AtomicBool,
    options: &DriverOptions,
) -> Outcome {
    driver::run_until(run, io, progress, store, stop, exit_after_command, options).await
}

/// Whether a run that ended with `outcome` keeps its state to be resumed: a run the engine
/// finished (done, aborted, failed restart) is over; an interrupted one (Ctrl-C, observation or
/// save failure) is not.
#[must_use]
pub fn keeps_state(outcome: &Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Interrupted | Outcome::ObserveFailed(_) | Outcome::SaveFailed(_)
    )
}

/// Saves the state of a run that ended with `outcome` to be resumed, or deletes it when the
/// run is over (failures are logged: the roll's result stands).
pub fn settle_state(store: &RollStore, run: &RollRun, outcome: &Outcome, path: &Path) {
    if keeps_state(outcome) {
        if let Err(e) = store.write(run) {
            tracing::warn!("{e:#}");
        }
    } else if let Err(e) = crate::state::remove_roll(path) {
        tracing::warn!("{e:#}");
    }
}
