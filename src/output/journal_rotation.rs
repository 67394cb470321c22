//! Keeps the journals bounded (issue 29): `operate` opens one per action and every changing
//! command one per run, so without a bound the state directory only grows. When a journal
//! begins, the others past the retention are removed, oldest first, never the one being
//! written: at most [`Retention::keep`] journals (`KAFKAOPS_JOURNAL_KEEP`, default
//! [`DEFAULT_KEEP`]) and none older than [`Retention::max_age`] (`KAFKAOPS_JOURNAL_MAX_AGE`, a
//! duration such as `30d`, `off` for no age limit; default [`DEFAULT_MAX_AGE`]). The choice of
//! which to remove is pure ([`to_remove`]); a journal's age is read from its id (its start
//! time), not from the file system.

use std::path::Path;
use std::time::{Duration, SystemTime};

/// How many journals are kept by default.
pub const DEFAULT_KEEP: usize = 500;
/// How old a journal may get by default (90 days).
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(90 * 24 * 3600);

/// How many journals are kept, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// At most this many (the one being written included; at least 1).
    pub keep: usize,
    /// None older than this (`None`: no age limit).
    pub max_age: Option<Duration>,
}

impl Default for Retention {
    fn default() -> Self {
        Retention {
            keep: DEFAULT_KEEP,
            max_age: Some(DEFAULT_MAX_AGE),
        }
    }
}

impl Retention {
    /// From `KAFKAOPS_JOURNAL_KEEP` and `KAFKAOPS_JOURNAL_MAX_AGE` (`env` reads a variable).
    ///
    /// # Errors
    /// A value that is not a positive count or a duration (or `off`), named.
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Retention, String> {
        let mut r = Retention::default();
        if let Some(v) = env("KAFKAOPS_JOURNAL_KEEP") {
            r.keep = v
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| {
                    format!("KAFKAOPS_JOURNAL_KEEP={v:?} is not a positive number of journals")
                })?;
        }
        if let Some(v) = env("KAFKAOPS_JOURNAL_MAX_AGE") {
            r.max_age = if v.trim() == "off" {
                None
            } else {
                Some(
                    humantime::parse_duration(v.trim())
                        .ok()
                        .filter(|d| !d.is_zero())
                        .ok_or_else(|| {
                            format!(
                                "KAFKAOPS_JOURNAL_MAX_AGE={v:?} is not a duration (e.g. 30d) or off"
                            )
                        })?,
                )
            };
        }
        Ok(r)
    }
}

/// When the journal `id` began, from its id (`20261127T235057123-PID[-N]`; `None`: not an id
/// of that shape, and so never judged by age).
#[must_use]
pub fn started(id: &str) -> Option<SystemTime> {
    let stamp = id.split('-').next()?;
    let (date, time) = stamp.split_once('T')?;
    if date.len() != 8 || time.len() != 9 || !stamp.chars().all(|c| c.is_ascii_digit() || c == 'T')
    {
        return None;
    }
    let text = format!(
        "{}-{}-{}T{}:{}:{}.{}Z",
        &date[..4],
        &date[4..6],
        &date[6..],
        &time[..2],
        &time[2..4],
        &time[4..6],
        &time[6..]
    );
    humantime::parse_rfc3339(&text).ok()
}

/// The journals to remove from `ids` (oldest first, as ids sort) at `now`: those older than
/// the age limit and the oldest past the count, never `current` (the one being written).
#[must_use]
pub fn to_remove(ids: &[String], current: &str, now: SystemTime, r: Retention) -> Vec<String> {
    let mut others: Vec<&String> = ids.iter().filter(|id| *id != current).collect();
    others.sort();
    let too_old = |id: &str| {
        r.max_age.is_some_and(|age| {
            started(id).is_some_and(|t| now.duration_since(t).is_ok_and(|d| d > age))
        })
    };
    // Room for the current one: the others keep at most `keep - 1`.
    let over = others.len().saturating_sub(r.keep.max(1) - 1);
    others
        .iter()
        .enumerate()
        .filter(|(i, id)| *i < over || too_old(id))
        .map(|(_, id)| (*id).clone())
        .collect()
}

/// Removes the journals of `dir` that [`to_remove`] names; returns their ids. A file that
/// cannot be removed is left (and not returned).
///
/// # Errors
/// `dir` cannot be listed.
pub fn prune(
    dir: &Path,
    current: &str,
    now: SystemTime,
    r: Retention,
) -> std::io::Result<Vec<String>> {
    let ids: Vec<String> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".jsonl"))
                .map(str::to_string)
        })
        .collect();
    Ok(to_remove(&ids, current, now, r)
        .into_iter()
        .filter(|id| std::fs::remove_file(dir.join(format!("{id}.jsonl"))).is_ok())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_at(secs: u64, pid: u32) -> String {
        let t =
            humantime::format_rfc3339_millis(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
                .to_string();
        let compact: String = t
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == 'T')
            .collect();
        format!("{compact}-{pid}")
    }

    const DAY: u64 = 24 * 3600;

    #[test]
    fn the_id_says_when_the_journal_began() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
        let id = crate::output::journal::new_id(t);
        assert_eq!(started(&id), Some(t));
        assert_eq!(started(&format!("{id}-3")), Some(t));
        assert_eq!(started("notes"), None);
        assert_eq!(started("2026T1-1"), None);
    }

    #[test]
    fn the_oldest_past_the_count_go_first_never_the_current_one() {
        let ids: Vec<String> = (0..6).map(|i| id_at(1_000_000 + i, 7)).collect();
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_010);
        let r = Retention {
            keep: 3,
            max_age: None,
        };
        // The current one is the newest: the three oldest go, two others stay with it.
        assert_eq!(to_remove(&ids, &ids[5], now, r), ids[..3].to_vec());
        // The current one is the oldest (a clock set back): it stays, the next oldest go.
        assert_eq!(to_remove(&ids, &ids[0], now, r), ids[1..4].to_vec());
        // keep 1: only the current one.
        let one = Retention { keep: 1, ..r };
        assert_eq!(to_remove(&ids, &ids[5], now, one), ids[..5].to_vec());
        // Under the count: nothing.
        let many = Retention { keep: 10, ..r };
        assert!(to_remove(&ids, &ids[5], now, many).is_empty());
    }

    #[test]
    fn journals_past_the_age_go_whatever_the_count_and_foreign_names_never_by_age() {
        let old = id_at(10 * DAY, 1);
        let older = id_at(5 * DAY, 1);
        let fresh = id_at(99 * DAY, 1);
        let current = id_at(100 * DAY, 2);
        let foreign = "zz-notes".to_string();
        let ids = vec![
            fresh.clone(),
            old.clone(),
            current.clone(),
            older.clone(),
            foreign.clone(),
        ];
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(100 * DAY);
        let r = Retention {
            keep: 100,
            max_age: Some(Duration::from_secs(30 * DAY)),
        };
        assert_eq!(to_remove(&ids, &current, now, r), vec![older, old]);
        // The current one is never removed, however old.
        let r = Retention {
            keep: 100,
            max_age: Some(Duration::from_secs(1)),
        };
        let gone = to_remove(&ids, &current, now + Duration::from_secs(DAY), r);
        assert!(!gone.contains(&current) && gone.contains(&fresh) && !gone.contains(&foreign));
    }

    #[test]
    fn prune_removes_the_files_it_names_and_only_those() {
        let dir = tempfile::tempdir().unwrap();
        let ids: Vec<String> = (0..4).map(|i| id_at(1_000_000 + i, 9)).collect();
        for id in &ids {
            std::fs::write(dir.path().join(format!("{id}.jsonl")), "{}\n").unwrap();
        }
        std::fs::write(dir.path().join("README"), "not a journal").unwrap();
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_010);
        let r = Retention {
            keep: 2,
            max_age: None,
        };
        let gone = prune(dir.path(), &ids[3], now, r).unwrap();
        assert_eq!(gone, ids[..2].to_vec());
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            vec![
                format!("{}.jsonl", ids[2]),
                format!("{}.jsonl", ids[3]),
                "README".to_string()
            ]
        );
    }

    #[test]
    fn retention_from_the_environment_and_bad_values_named() {
        let env = |k: &str| match k {
            "KAFKAOPS_JOURNAL_KEEP" => Some("20".to_string()),
            "KAFKAOPS_JOURNAL_MAX_AGE" => Some("7d".to_string()),
            _ => None,
        };
        assert_eq!(
            Retention::from_env(&env),
            Ok(Retention {
                keep: 20,
                max_age: Some(Duration::from_secs(7 * DAY))
            })
        );
        assert_eq!(Retention::from_env(&|_| None), Ok(Retention::default()));
        let off = |k: &str| (k == "KAFKAOPS_JOURNAL_MAX_AGE").then(|| "off".to_string());
        assert_eq!(Retention::from_env(&off).unwrap().max_age, None);
        let bad = |k: &str| (k == "KAFKAOPS_JOURNAL_KEEP").then(|| "0".to_string());
        assert!(
            Retention::from_env(&bad)
                .unwrap_err()
                .contains("KAFKAOPS_JOURNAL_KEEP")
        );
        let bad = |k: &str| (k == "KAFKAOPS_JOURNAL_MAX_AGE").then(|| "soon".to_string());
        assert!(
            Retention::from_env(&bad)
                .unwrap_err()
                .contains("KAFKAOPS_JOURNAL_MAX_AGE")
        );
    }
}
