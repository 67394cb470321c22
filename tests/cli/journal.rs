//! `operate`'s journals, one per action (`crate::output::journal`), in a binary of their own
//! kind: no test here runs `operate` in-process, so the process-wide journal is this test's.

use kafkaops::output::journal::{
    Entry, Event, action_ended, action_started, dir_in, is_open, keep_action_journals,
};
use std::path::PathBuf;

#[test]
fn operate_keeps_one_journal_per_action() {
    let dir = tempfile::tempdir().unwrap();
    let args = vec!["kafkaops".to_string(), "operate".into()];
    keep_action_journals(dir.path(), &args, vec!["op-secret".into()]);
    action_started("scale-up", "brokers 4", "broker 4 is empty (op-secret)");
    // A stop of the running rebalance is a step of its journal, not a journal of its own.
    action_started("stop-rebalance", "task-1", "a scale-down preempts it");
    action_ended("stop-rebalance", "task-1", true, "stopped");
    action_ended("scale-up", "brokers 4", false, "stopped by a scale-down");
    action_started("roll", "node 2", "config changed");
    action_ended("roll", "node 2", true, "done");
    let dir_j = dir_in(dir.path());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir_j)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    let first = std::fs::read_to_string(&files[0]).unwrap();
    assert!(!first.contains("op-secret"), "{first}");
    let events: Vec<Entry> = first
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        matches!(&events[0].event, Event::Start { command, .. } if command == "operate: scale-up")
    );
    assert!(first.contains("stop-rebalance task-1 succeeded"), "{first}");
    assert!(matches!(
        &events.last().unwrap().event,
        Event::End { exit_code: 1, outcome, .. } if outcome == "failed"
    ));
    let second = std::fs::read_to_string(&files[1]).unwrap();
    assert!(second.contains("\"operate: roll\""), "{second}");
    assert!(second.contains("\"outcome\":\"ok\""), "{second}");
    assert!(!is_open());
}
