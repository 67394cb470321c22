//! The committed JSON Schemas under `schemas/` must match the output types they are generated
//! from (`kafkaops::commands::schemas`). Regenerate with
//! `UPDATE_GENERATED=1 cargo test --test cli schemas::`.

use std::path::Path;

#[test]
fn json_schemas_are_up_to_date() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let update = std::env::var_os("UPDATE_GENERATED").is_some();
    let all = kafkaops::commands::schemas::all();
    assert!(all.iter().any(|(n, _)| *n == "rebalance-status"));
    let mut stale = Vec::new();
    for (name, text) in &all {
        let path = dir.join(format!("{name}.json"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    // No leftover schema for an output that no longer exists.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(name) = file.strip_suffix(".json") else {
            continue;
        };
        if !all.iter().any(|(n, _)| *n == name) {
            stale.push(format!("schemas/{file} (no such output)"));
        }
    }
    assert!(
        stale.is_empty(),
        "stale schemas (run `UPDATE_GENERATED=1 cargo test --test cli schemas::`): {stale:?}"
    );
}

/// The validation the cluster tests run on real outputs ([`crate::schema::check`]) fails on a
/// document that deviates: a renamed field (the old `observed_at`), a missing one, a wrong type.
#[test]
fn a_deviating_output_fails_validation() {
    use serde_json::json;
    let good = json!({"verdict": "degraded", "reasons": [{"kind": "under-replicated",
        "severity": "degraded", "subject": "t", "partitions": ["t-0"], "message": "m",
        "ignored": false}], "observed_at_ms": 1_795_809_600_000_u64});
    assert_eq!(crate::schema::errors("health", &good), Vec::<String>::new());
    let mut renamed = good.clone();
    let at = renamed
        .as_object_mut()
        .unwrap()
        .remove("observed_at_ms")
        .unwrap();
    renamed["observed_at"] = at;
    assert!(!crate::schema::errors("health", &renamed).is_empty());
    let mut retyped = good.clone();
    retyped["observed_at_ms"] = json!("2026-11-27T20:00:00Z");
    assert!(!crate::schema::errors("health", &retyped).is_empty());
    // An optional field renamed (absent, and an unknown one present) fails too.
    let mut optional = good;
    optional["reasons"][0]
        .as_object_mut()
        .unwrap()
        .remove("subject");
    optional["reasons"][0]["topic"] = json!("t");
    assert!(!crate::schema::errors("health", &optional).is_empty());
    // Which schema a run's output is checked against.
    let args = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    assert_eq!(
        crate::schema::schema_name(&args(
            "--cruise-control-url u rebalance status --task t -o json"
        )),
        Some("rebalance-status-task")
    );
    assert_eq!(
        crate::schema::schema_name(&args("rebalance add --brokers 4 -o json")),
        Some("rebalance")
    );
}

/// An object with flattened enum fields (`throttles list`'s rows: the throttle and its `need` /
/// `reason`) is closed with `unevaluatedProperties`: the real output (as `health_throttles`
/// produced it) passes, and an unknown field or a wrong `need` still fails.
#[test]
fn flattened_fields_are_known_and_unknown_ones_still_fail() {
    use serde_json::json;
    let row = json!({"key": "follower.replication.throttled.rate", "need": "in-use",
        "reason": "1 partition reassignment(s) in flight: moving-0",
        "target": {"kind": "broker", "name": 1}, "value": "1024"});
    let good = json!({"movement": {"cruise_control": {"state": "not-configured"},
        "reassignments": 1}, "throttles": [row, {"key": "leader.replication.throttled.replicas",
        "need": "unused", "target": {"kind": "topic", "name": "moving"}, "value": "0:1"}]});
    assert_eq!(
        crate::schema::errors("throttles-list", &good),
        Vec::<String>::new()
    );
    let mut extra = good.clone();
    extra["throttles"][0]["reasons"] = json!("x");
    assert!(!crate::schema::errors("throttles-list", &extra).is_empty());
    let mut wrong = good.clone();
    wrong["throttles"][1]["need"] = json!("needed");
    assert!(!crate::schema::errors("throttles-list", &wrong).is_empty());
    let mut unused_with_reason = good;
    unused_with_reason["throttles"][1]["why"] = json!("x");
    assert!(!crate::schema::errors("throttles-list", &unused_with_reason).is_empty());
}

/// `roll -o json` (a finished run): the document passes; the state file's spellings of an
/// action (`at_ms`, a time since the roll started, not an instant; `elect_preferred_leaders`)
/// and an unknown status fail, as do `quorum status` with a string id and `journal show` with an
/// unknown key in an event.
#[test]
fn roll_quorum_and_journal_outputs_are_checked() {
    use serde_json::json;
    let roll = json!({"plan": {"steps": [{"action": "restart", "nodes": [{"node": 1,
        "reason": "selected with --all"}], "reason": "why now"}], "untouched": [2]},
        "dry_run": false, "result": {"status": "done", "exit_code": 0, "restarted": [1],
        "reconfigured": [], "skipped": [2], "elapsed_ms": 1234, "actions": [{"action":
        "elect-preferred-leaders", "partitions": 3, "after_ms": 10}]}});
    assert_eq!(crate::schema::errors("roll", &roll), Vec::<String>::new());
    let mut at = roll.clone();
    at["result"]["actions"][0] = json!({"action": "elect-preferred-leaders", "partitions": 3,
        "at_ms": 10});
    assert!(!crate::schema::errors("roll", &at).is_empty());
    let mut snake = roll.clone();
    snake["result"]["actions"][0]["action"] = json!("elect_preferred_leaders");
    assert!(!crate::schema::errors("roll", &snake).is_empty());
    let mut status = roll;
    status["result"]["status"] = json!("finished");
    assert!(!crate::schema::errors("roll", &status).is_empty());

    let member = json!({"id": 1, "voter": true, "leader": true, "directory_id": null,
        "log_end_offset": 10, "lag_records": 0, "fetch_age_ms": 0, "caught_up_age_ms": 0,
        "caught_up": true, "running": true});
    let quorum = json!({"mode": "dynamic", "kraft_version": 1, "leader": 1, "epoch": 3,
        "high_watermark": 10, "voters": [member], "observers": [],
        "verdict": {"verdict": "healthy"}});
    assert_eq!(
        crate::schema::errors("quorum", &quorum),
        Vec::<String>::new()
    );
    let mut string_id = quorum;
    string_id["voters"][0]["id"] = json!("1");
    assert!(!crate::schema::errors("quorum", &string_id).is_empty());

    let show = json!({"id": "20261127T200000000-1", "events": [{"seq": 0,
        "at": "2026-11-27T20:00:00.000Z", "event": "end", "exit_code": 0, "outcome": "ok",
        "duration_ms": 5}]});
    assert_eq!(
        crate::schema::errors("journal-show", &show),
        Vec::<String>::new()
    );
    let mut unknown = show;
    unknown["events"][0]["elapsed"] = json!(5);
    assert!(!crate::schema::errors("journal-show", &unknown).is_empty());

    let args = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    for (line, schema) in [
        ("roll --all --dry-run -o json", "roll"),
        ("upgrade --to 4.4 --dry-run -o json", "roll"),
        ("upgrade --finalize --yes -o json", "upgrade-finalize"),
        ("upgrade -o json", "upgrade"),
        ("quorum add --controller 4 -o json", "quorum"),
        ("journal show ID -o json", "journal-show"),
        ("journal bundle -o json", "journal-bundle"),
        // `status --task --follow`'s final document is the task's view, as without --follow.
        (
            "rebalance status --task T --follow -o json",
            "rebalance-status-task",
        ),
    ] {
        assert_eq!(
            crate::schema::schema_name(&args(line)),
            Some(schema),
            "{line}"
        );
    }
}

/// The real `journal list|show|bundle -o json` of a run that journaled (a roll refused for a
/// missing restart command), each checked against its schema by [`crate::bin::Out::json`].
#[test]
fn real_journal_outputs_conform() {
    use crate::bin::{kafkaops, run};
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().to_str().unwrap();
    let with_state = |args: &[&str]| {
        let mut cmd = kafkaops();
        cmd.env("KAFKAOPS_STATE_DIR", state)
            .args(["--bootstrap-servers", "127.0.0.1:1"])
            .args(args);
        run(&mut cmd)
    };
    assert_eq!(with_state(&["roll", "--all", "--yes"]).code, 2);
    let list = with_state(&["-o", "json", "journal", "list"]).json();
    let id = list[0]["id"]
        .as_str()
        .expect("the roll's journal")
        .to_string();
    let show = with_state(&["-o", "json", "journal", "show", &id]).json();
    assert_eq!(show["id"], id.as_str());
    assert_eq!(show["events"][0]["event"], "start", "{show:#}");
    let archive = dir.path().join("b.tar.gz");
    let bundle = with_state(&[
        "-o",
        "json",
        "journal",
        "bundle",
        "--health-timeout",
        "2s",
        "--output-file",
        archive.to_str().unwrap(),
    ])
    .json();
    assert_eq!(bundle["journals"], 1, "{bundle:#}");
    assert_eq!(bundle["health"], false, "{bundle:#}");
    let files = crate::schema::bundle_files(&archive);
    let health: serde_json::Value = serde_json::from_slice(&files["health.json"]).unwrap();
    assert!(
        health["error"].is_string(),
        "why there is no report: {health:#}"
    );
    assert!(health.get("report").is_none(), "{health:#}");
    let manifest: serde_json::Value = serde_json::from_slice(&files["manifest.json"]).unwrap();
    assert_eq!(manifest["journals"][0], id.as_str(), "{manifest:#}");
}

/// A bundle's `health.json` and `manifest.json` are held to their schemas: a renamed field fails.
#[test]
fn bundle_files_deviating_from_their_schemas_fail() {
    use serde_json::json;
    let health = json!({ "observed_at": "2026-11-28T12:00:00Z", "error": "no answer" });
    assert_eq!(
        crate::schema::errors("journal-bundle-health", &health),
        Vec::<String>::new()
    );
    let renamed = json!({ "observedAt": "2026-11-28T12:00:00Z", "error": "no answer" });
    assert!(!crate::schema::errors("journal-bundle-health", &renamed).is_empty());
    let bad_report = json!({ "observed_at": "t", "report": { "verdict": "fine", "reasons": [] } });
    assert!(!crate::schema::errors("journal-bundle-health", &bad_report).is_empty());
    let manifest = json!({ "format": "kafkaops.bundle.v1", "version": "0.1.0", "journals": ["a"] });
    assert_eq!(
        crate::schema::errors("journal-bundle-manifest", &manifest),
        Vec::<String>::new()
    );
    let mut extra = manifest;
    extra["health"] = json!(true);
    assert!(!crate::schema::errors("journal-bundle-manifest", &extra).is_empty());
}
