//! `topic set-rf`'s arguments resolved into a clap-free [`SetRfSpec`] (ripgrep's low-args ->
//! high-args): the state directory, the wanted factors from `--topics`/`--from-file`, the
//! options every round is sent with.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::app::topic::RoundOptions;
use crate::app::topic::set_rf::SetRfSpec;
use crate::cli::topic::SetRfArgs;
use crate::engine::replicas::{InputErrors, merge_requests};
use crate::error::{CliError, ExitCode};

pub(super) fn state_dir(arg: Option<&Path>) -> Result<PathBuf, CliError> {
    if let Some(d) = arg {
        return Ok(d.to_path_buf());
    }
    if let Some(d) = std::env::var_os("XDG_STATE_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d).join("kafkaops"));
    }
    match std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        Some(h) => Ok(PathBuf::from(h).join(".local/state/kafkaops")),
        None => Err(CliError::usage(
            "no state directory: pass --state-dir or set KAFKAOPS_STATE_DIR",
        )),
    }
}

/// One entry of `--from-file`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileEntry {
    #[serde(alias = "name")]
    topic: String,
    #[serde(alias = "replicas")]
    replication_factor: u16,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum DesiredFile {
    List(Vec<FileEntry>),
    Wrapped { topics: Vec<FileEntry> },
}

/// Parses a `--from-file` document (YAML; JSON is YAML too).
pub fn parse_desired(text: &str) -> Result<Vec<(String, u16)>, String> {
    let doc: DesiredFile = serde_yaml::from_str(text)
        .map_err(|e| format!("expected a list of {{topic, replication_factor}} entries: {e}"))?;
    let entries = match doc {
        DesiredFile::List(v) | DesiredFile::Wrapped { topics: v } => v,
    };
    Ok(entries
        .into_iter()
        .map(|e| (e.topic, e.replication_factor))
        .collect())
}

fn input_error(e: InputErrors) -> CliError {
    CliError::new(ExitCode::Usage, e)
}

pub(super) fn wanted_of(args: &SetRfArgs) -> Result<BTreeMap<String, u16>, CliError> {
    let mut pairs: Vec<(String, u16)> = Vec::new();
    if let Some(rf) = args.replication_factor {
        pairs.extend(
            args.topics
                .iter()
                .filter(|t| !t.is_empty())
                .map(|t| (t.clone(), rf)),
        );
    }
    if let Some(f) = &args.from_file {
        let text = std::fs::read_to_string(f).map_err(|e| {
            CliError::usage(format!("cannot read --from-file {}: {e}", f.display()))
        })?;
        pairs.extend(
            parse_desired(&text)
                .map_err(|e| CliError::usage(format!("--from-file {}: {e}", f.display())))?,
        );
    }
    merge_requests(pairs).map_err(input_error)
}

/// What every round is sent with besides its topics, from the arguments.
pub(super) fn round_options(args: &SetRfArgs) -> RoundOptions {
    RoundOptions {
        replication_throttle: args.replication_throttle,
        concurrent_partition_movements_per_broker: args.concurrent_partition_movements_per_broker,
        concurrent_leader_movements: args.concurrent_leader_movements,
        reason: args.reason.clone(),
    }
}

/// The spec of a `set-rf` run that changes or previews factors (`state_file` its state file,
/// `holds` the held nodes): everything the application layer needs, nothing of clap.
pub(super) fn spec(
    args: &SetRfArgs,
    assume_yes: bool,
    state_file: PathBuf,
    holds: crate::app::hold::Holds,
) -> Result<SetRfSpec, CliError> {
    Ok(SetRfSpec {
        wanted: wanted_of(args)?,
        execute: args.execute,
        no_wait: args.no_wait,
        assume_yes,
        allow_below_min_isr: args.allow_below_min_isr,
        timeout: args.timeout,
        poll_interval: args.poll_interval,
        wait_for_ready: args.wait_for_ready,
        options: round_options(args),
        state_file,
        holds,
    })
}
