//! Reading the journals kept under the state directory (`journal/ID.jsonl`, written by
//! [`crate::output::journal`]): which there are, and the entries of one.

use std::path::{Path, PathBuf};

use crate::output::journal::{Entry, dir_in};

/// Why a journal could not be read.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("no journal {id} in {dir}")]
    NotFound { id: String, dir: PathBuf },
    #[error("journal ids are letters, digits and '-', not {0:?}")]
    BadId(String),
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The ids of the journals in `state_dir`, oldest first (ids sort by start time).
///
/// # Errors
/// The directory exists but cannot be read.
pub fn ids(state_dir: &Path) -> Result<Vec<String>, JournalError> {
    let dir = dir_in(state_dir);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(JournalError::Io { path: dir, source }),
    };
    let mut ids: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".jsonl"))
                .map(str::to_string)
        })
        .collect();
    ids.sort();
    Ok(ids)
}

/// The file of journal `id`.
///
/// # Errors
/// `id` is not a journal id (a path, say).
pub fn path_of(state_dir: &Path, id: &str) -> Result<PathBuf, JournalError> {
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(JournalError::BadId(id.to_string()));
    }
    Ok(dir_in(state_dir).join(format!("{id}.jsonl")))
}

/// The raw text of journal `id`.
///
/// # Errors
/// No such journal, or it cannot be read.
pub fn read_text(state_dir: &Path, id: &str) -> Result<String, JournalError> {
    let path = path_of(state_dir, id)?;
    std::fs::read_to_string(&path).map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            JournalError::NotFound {
                id: id.to_string(),
                dir: dir_in(state_dir),
            }
        } else {
            JournalError::Io { path, source }
        }
    })
}

/// The entries of journal `id`, in order. A line that does not parse (cut short by a crash)
/// is skipped.
///
/// # Errors
/// No such journal, or it cannot be read.
pub fn read(state_dir: &Path, id: &str) -> Result<Vec<Entry>, JournalError> {
    Ok(read_text(state_dir, id)?
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}
