//! The use cases behind `kafkaops journal`: list the journals of past runs, read one back, and
//! bundle them with a health snapshot into one archive for a ticket or a post-mortem.
//!
//! Journals are written redacted ([`crate::output::journal`]); the bundle redacts every file
//! again with the secrets of the run that builds it, so an archive holds no password even if a
//! journal was written by an older kafkaops or with other settings.

use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use crate::output::journal::{Entry, Event, redact_value};
use crate::state::journal::{self as store, JournalError};

/// One journal, as `journal list` shows it.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Summary {
    pub id: String,
    pub command: String,
    /// The first entry's time as recorded (RFC 3339), for the table.
    #[serde(skip)]
    pub started: String,
    /// The same instant in epoch ms (the JSON convention; `None`: unreadable).
    pub started_at_ms: Option<u64>,
    /// Milliseconds from start to end (`None`: no end recorded).
    pub duration_ms: Option<u64>,
    /// The exit code's name, or `running or interrupted` when no end was recorded.
    pub outcome: String,
    pub exit_code: Option<i32>,
    pub events: usize,
}

/// What a journal's entries say about the run.
#[must_use]
pub fn summarize(id: &str, entries: &[Entry]) -> Summary {
    let mut s = Summary {
        id: id.to_string(),
        command: String::new(),
        started: entries.first().map(|e| e.at.clone()).unwrap_or_default(),
        started_at_ms: entries
            .first()
            .and_then(|e| humantime::parse_rfc3339_weak(&e.at).ok())
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .and_then(|d| u64::try_from(d.as_millis()).ok()),
        duration_ms: None,
        outcome: "running or interrupted".into(),
        exit_code: None,
        events: entries.len(),
    };
    for e in entries {
        match &e.event {
            Event::Start { command, .. } => s.command.clone_from(command),
            Event::End {
                exit_code,
                outcome,
                duration_ms,
                ..
            } => {
                s.outcome.clone_from(outcome);
                s.exit_code = Some(*exit_code);
                s.duration_ms = Some(*duration_ms);
            }
            _ => {}
        }
    }
    s
}

/// The journals in `state_dir`, oldest first.
///
/// # Errors
/// The journal directory cannot be read.
pub fn list(state_dir: &Path) -> Result<Vec<Summary>, JournalError> {
    let mut out = Vec::new();
    for id in store::ids(state_dir)? {
        // A journal removed between the listing and the read is left out.
        match store::read(state_dir, &id) {
            Ok(entries) => out.push(summarize(&id, &entries)),
            Err(JournalError::NotFound { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// The entries of journal `id`; `last` picks the newest.
///
/// # Errors
/// No such journal (or none at all for `last`), or it cannot be read.
pub fn show(state_dir: &Path, id: &str) -> Result<(String, Vec<Entry>), JournalError> {
    let id = if id == "last" {
        store::ids(state_dir)?
            .pop()
            .ok_or_else(|| JournalError::NotFound {
                id: "last".into(),
                dir: crate::output::journal::dir_in(state_dir),
            })?
    } else {
        id.to_string()
    };
    let entries = store::read(state_dir, &id)?;
    Ok((id, entries))
}

/// `health.json` in a bundle: when the cluster was asked, and the verdict `kafkaops health` gave,
/// or why there is none. Its schema is `schemas/journal-bundle-health.json`.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct HealthSnapshot {
    /// When the snapshot was asked for (RFC 3339, seconds, UTC).
    pub observed_at: String,
    /// The verdict and its reasons (`kafkaops health -o json`'s `verdict` and `reasons`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<crate::engine::health::HealthReport>,
    /// Why there is no report: the cluster did not answer, or not in time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `manifest.json` in a bundle: what wrote it and which journals it holds. Its schema is
/// `schemas/journal-bundle-manifest.json`.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct Manifest {
    /// `kafkaops.bundle.v1`.
    pub format: String,
    /// The kafkaops version that wrote the bundle.
    pub version: String,
    /// The journals' ids, oldest first (`journal/ID.jsonl` each).
    pub journals: Vec<String>,
}

/// The health verdict now, for a bundle: the report of `health`, or why there is none (the
/// cluster did not answer within `timeout`).
pub async fn health_snapshot(
    kafka: super::cordon::KafkaAccess<'_>,
    holds: &super::hold::Holds,
    cc: &crate::settings::CruiseControlSettings,
    timeout: Duration,
) -> HealthSnapshot {
    let observe = async {
        let client = super::cordon::kafka(kafka).await?;
        let facts = super::health::facts((&client, holds), cc, kafka.request_timeout).await?;
        anyhow::Ok(crate::engine::health::evaluate(&facts, &[]))
    };
    let observed_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let (report, error) = match tokio::time::timeout(timeout, observe).await {
        Ok(Ok(report)) => (Some(report), None),
        Ok(Err(e)) => (None, Some(format!("{e:#}"))),
        Err(_) => (
            None,
            Some(format!(
                "the cluster did not answer within {}",
                humantime::format_duration(timeout)
            )),
        ),
    };
    HealthSnapshot {
        observed_at,
        report,
        error,
    }
}

/// What went into a bundle.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct Bundled {
    pub path: String,
    pub journals: usize,
    pub health: bool,
}

/// Writes `out`: a gzipped tar with `journal/ID.jsonl` for every journal in `state_dir` and
/// `health.json`, every string redacted with `known` (the secrets of this run).
///
/// # Errors
/// A journal cannot be read or the archive cannot be written.
pub fn bundle(
    state_dir: &Path,
    health: &HealthSnapshot,
    known: &[String],
    out: &Path,
) -> anyhow::Result<Bundled> {
    use anyhow::Context as _;
    let file =
        std::fs::File::create(out).with_context(|| format!("cannot create {}", out.display()))?;
    let gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    let mtime = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut add = |name: &str, data: &[u8]| -> anyhow::Result<()> {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o600);
        header.set_mtime(mtime);
        header.set_cksum();
        tar.append_data(&mut header, name, data)
            .with_context(|| format!("cannot add {name} to {}", out.display()))
    };
    // The journals archived: one pruned or removed between the listing and its read is left out
    // of the manifest too.
    let mut archived = Vec::new();
    for id in store::ids(state_dir)? {
        let text = match store::read_text(state_dir, &id) {
            Ok(t) => t,
            Err(JournalError::NotFound { .. }) => continue,
            Err(e) => return Err(e.into()),
        };
        let mut clean = String::with_capacity(text.len());
        for line in text.lines() {
            let redacted = match serde_json::from_str::<serde_json::Value>(line) {
                Ok(mut v) => {
                    redact_value(&mut v, known);
                    v.to_string()
                }
                // A line cut short by a crash: kept as text, redacted as text.
                Err(_) => crate::secret::redact(line, known),
            };
            clean.push_str(&redacted);
            clean.push('\n');
        }
        add(&format!("journal/{id}.jsonl"), clean.as_bytes())?;
        archived.push(id);
    }
    let journals = archived.len();
    let mut pretty = |name: &str, doc: &serde_json::Value| -> anyhow::Result<()> {
        let mut text = serde_json::to_string_pretty(doc)?;
        text.push('\n');
        add(name, text.as_bytes())
    };
    let mut health_doc = serde_json::to_value(health)?;
    redact_value(&mut health_doc, known);
    pretty("health.json", &health_doc)?;
    let manifest = Manifest {
        format: "kafkaops.bundle.v1".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        journals: archived,
    };
    pretty("manifest.json", &serde_json::to_value(&manifest)?)?;
    let gz = tar
        .into_inner()
        .with_context(|| format!("cannot write {}", out.display()))?;
    gz.finish()
        .with_context(|| format!("cannot write {}", out.display()))?;
    Ok(Bundled {
        path: out.display().to_string(),
        journals,
        health: health.report.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn entry(seq: u64, event: Event) -> Entry {
        Entry {
            seq,
            at: format!("2026-11-27T20:00:0{seq}.000Z"),
            event,
        }
    }

    #[test]
    fn a_journal_without_an_end_is_running_or_interrupted() {
        let start = entry(
            0,
            Event::Start {
                format: "f".into(),
                id: "x".into(),
                command: "roll".into(),
                args: vec![],
                yes: true,
                version: "0".into(),
                pid: 1,
            },
        );
        let s = summarize("x", std::slice::from_ref(&start));
        assert_eq!(s.command, "roll");
        assert_eq!(s.outcome, "running or interrupted");
        assert_eq!(s.duration_ms, None);
        let end = entry(
            1,
            Event::End {
                exit_code: 1,
                outcome: "failed".into(),
                error: None,
                duration_ms: 1000,
            },
        );
        let s = summarize("x", &[start, end]);
        assert_eq!(
            (s.outcome.as_str(), s.exit_code, s.duration_ms),
            ("failed", Some(1), Some(1000))
        );
        assert_eq!(s.started, "2026-11-27T20:00:00.000Z");
        assert_eq!(s.started_at_ms, Some(1_795_809_600_000));
    }

    /// A state directory whose journal directory exists, and where the bundle goes.
    fn state_dir() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let jdir = crate::output::journal::dir_in(dir.path());
        std::fs::create_dir_all(&jdir).unwrap();
        let out = dir.path().join("b.tar.gz");
        (dir, jdir, out)
    }

    /// A health snapshot without a report, saying `error`.
    fn no_report(error: &str) -> HealthSnapshot {
        HealthSnapshot {
            observed_at: "2026-11-27T20:00:00Z".into(),
            report: None,
            error: Some(error.into()),
        }
    }

    /// The files of the bundle `out` as text, by name.
    fn archived(out: &Path) -> BTreeMap<String, String> {
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(
            std::fs::File::open(out).unwrap(),
        ));
        let mut files = BTreeMap::new();
        for f in archive.entries().unwrap() {
            let mut f = f.unwrap();
            let mut text = String::new();
            std::io::Read::read_to_string(&mut f, &mut text).unwrap();
            files.insert(f.path().unwrap().display().to_string(), text);
        }
        files
    }

    #[test]
    fn a_bundle_redacts_every_file() {
        let (dir, jdir, out) = state_dir();
        std::fs::write(
            jdir.join("20261127T200000000-1.jsonl"),
            "{\"seq\":0,\"at\":\"t\",\"event\":\"log\",\"level\":\"INFO\",\"target\":\"k\",\"message\":\"pw is Sekr3t-1 and sasl.password=Sekr3t-2\"}\ncut short Sekr3t-1\n",
        )
        .unwrap();
        let health = no_report("auth failed for https://u:Sekr3t-3@cc/");
        let b = bundle(dir.path(), &health, &["Sekr3t-1".into()], &out).unwrap();
        assert_eq!(b.journals, 1);
        let files = archived(&out);
        for (name, text) in &files {
            for pw in ["Sekr3t-1", "Sekr3t-2", "Sekr3t-3"] {
                assert!(!text.contains(pw), "{pw} in {name}: {text}");
            }
        }
        assert_eq!(
            files.keys().collect::<Vec<_>>(),
            [
                "health.json",
                "journal/20261127T200000000-1.jsonl",
                "manifest.json"
            ]
        );
    }

    /// A journal listed but gone when read (pruned meanwhile; here a dangling link) is neither
    /// archived nor named by the manifest.
    #[cfg(unix)]
    #[test]
    fn a_journal_gone_before_its_read_is_left_out_of_the_manifest() {
        let (dir, jdir, out) = state_dir();
        std::fs::write(jdir.join("20261127T200000000-1.jsonl"), "{}\n").unwrap();
        std::os::unix::fs::symlink(
            jdir.join("no-such-file"),
            jdir.join("20261127T200000000-2.jsonl"),
        )
        .unwrap();
        let b = bundle(dir.path(), &no_report("no answer"), &[], &out).unwrap();
        assert_eq!((b.journals, b.health), (1, false));
        let manifest: serde_json::Value =
            serde_json::from_str(&archived(&out)["manifest.json"]).unwrap();
        assert_eq!(
            manifest["journals"],
            serde_json::json!(["20261127T200000000-1"]),
            "{manifest:#}"
        );
    }
}
