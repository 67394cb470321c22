//! Real `-o json` outputs checked against the committed JSON Schemas (`schemas/`, generated from
//! the output types): [`check`] is called by [`super::bin::Out::json`], so every cluster and kube
//! test that reads a command's JSON validates it, and a renamed or retyped field fails there.
#![allow(dead_code)] // Shared by several test binaries; each uses a subset.

use std::path::Path;

use serde_json::Value;

/// The published schema (`schemas/NAME.json`) of what kafkaops prints for `args`, if any.
#[must_use]
pub fn schema_name(args: &[String]) -> Option<&'static str> {
    const COMMANDS: [&str; 14] = [
        "anomalies",
        "broker",
        "config",
        "health",
        "hold",
        "journal",
        "operate",
        "quorum",
        "reassignments",
        "rebalance",
        "roll",
        "throttles",
        "topic",
        "upgrade",
    ];
    let at = args.iter().position(|a| COMMANDS.contains(&a.as_str()))?;
    let sub = args
        .get(at + 1)
        .map(String::as_str)
        .filter(|s| !s.starts_with('-'));
    let has = |flag: &str| {
        args.iter()
            .any(|a| a == flag || a.starts_with(&format!("{flag}=")))
    };
    Some(match (args[at].as_str(), sub) {
        ("anomalies", Some("watch")) => "anomalies-watch",
        ("broker", Some("cordon" | "uncordon")) => "broker-cordon",
        ("broker", Some("list")) => "broker-list",
        ("broker", Some("unregister")) => "broker-unregister",
        ("config", Some("view")) => "config-view",
        ("config", Some("get-contexts")) => "config-get-contexts",
        ("journal", Some("list")) => "journal-list",
        ("journal", Some("show")) => "journal-show",
        ("journal", Some("bundle")) => "journal-bundle",
        ("operate", _) if has("--dry-run") => "operate-dry-run",
        ("topic", Some("set-rf" | "status")) => "topic-set-rf",
        ("health", _) if has("--watch") => "health-watch",
        ("health", _) => "health",
        ("hold", Some("list" | "add" | "remove")) => "hold",
        ("reassignments", Some("list")) => "reassignments-list",
        ("reassignments", Some("cancel")) => "reassignments-cancel",
        ("rebalance", Some("imbalance")) => "rebalance-imbalance",
        ("rebalance", Some("pace")) => "rebalance-pace",
        ("rebalance", Some("review")) => "rebalance-review",
        ("rebalance", Some("status")) if has("--task") => "rebalance-status-task",
        ("rebalance", Some("status")) => "rebalance-status",
        ("rebalance", Some("stop")) => "rebalance-stop",
        ("rebalance", Some("add" | "remove" | "full" | "demote" | "remove-disks")) => "rebalance",
        ("quorum", Some("status" | "add" | "remove" | "migrate")) => "quorum",
        // `upgrade --to RELEASE` is a roll onto new software: the roll's document.
        ("roll", _) => "roll",
        ("upgrade", _) if has("--to") => "roll",
        ("upgrade", _) if has("--finalize") => "upgrade-finalize",
        ("upgrade", _) => "upgrade",
        ("throttles", Some("list")) => "throttles-list",
        ("throttles", Some("clear")) => "throttles-clear",
        _ => return None,
    })
}

/// The errors of `doc` against `schemas/NAME.json` (empty: it conforms).
#[must_use]
pub fn errors(name: &str, doc: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text).expect("a schema is JSON");
    let validator = jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("{} is not a valid schema: {e}", path.display()));
    validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect()
}

/// Panics unless `doc`, the `-o json` output of a kafkaops run with `args`, conforms to its
/// command's published schema (`anomalies watch --once -o json`: each event of its array).
/// Outputs without a published schema are not checked.
pub fn check(args: &[String], doc: &Value) {
    let Some(name) = schema_name(args) else {
        return;
    };
    let docs: Vec<&Value> = match (name, doc) {
        ("anomalies-watch", Value::Array(events)) => events.iter().collect(),
        _ => vec![doc],
    };
    for d in docs {
        let errs = errors(name, d);
        assert!(
            errs.is_empty(),
            "the output of `kafkaops {}` does not match schemas/{name}.json:\n{}\n{d:#}",
            args.join(" "),
            errs.join("\n")
        );
    }
}

fn owned<S: AsRef<str>>(args: &[S]) -> Vec<String> {
    args.iter().map(|a| a.as_ref().to_string()).collect()
}

/// `stdout` of a kafkaops run with `args` (a run not captured by [`super::bin::Out`]): exactly
/// one JSON document, checked against its command's published schema ([`check`]). Panics when
/// it is not one JSON document or does not conform.
#[must_use]
pub fn json_of<S: AsRef<str>>(args: &[S], stdout: &str) -> Value {
    let v: Value = serde_json::from_str(stdout)
        .unwrap_or_else(|e| panic!("not one JSON document ({e}):\n{stdout}"));
    check(&owned(args), &v);
    v
}

/// One line of a streaming kafkaops run's `-o jsonl` output (`args`), checked against its
/// command's published schema, or `None` when the line is not JSON (a line still being
/// written by a run in the background). Panics when a JSON line does not conform.
#[must_use]
pub fn record_of<S: AsRef<str>>(args: &[S], line: &str) -> Option<Value> {
    let v: Value = serde_json::from_str(line).ok()?;
    check(&owned(args), &v);
    Some(v)
}

/// Every line of a finished streaming run's `-o jsonl` output (`args`): each one JSON object,
/// checked against its command's published schema. Panics on a line that is not JSON.
#[must_use]
pub fn jsonl_of<S: AsRef<str>>(args: &[S], stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| {
            record_of(args, l)
                .unwrap_or_else(|| panic!("not one JSON object per line: {l}\n{stdout}"))
        })
        .collect()
}

/// Stdout of a kafkaops run with `-o yaml` (`args`): exactly one YAML document, checked against
/// its command's published schema as [`check`] checks JSON (the YAML is the same value).
/// Panics with the text when it is not one YAML document or does not conform.
#[must_use]
pub fn check_yaml<S: AsRef<str>>(args: &[S], stdout: &str) -> Value {
    let v: Value = serde_yaml::from_str(stdout)
        .unwrap_or_else(|e| panic!("not one YAML document ({e}):\n{stdout}"));
    check(&owned(args), &v);
    v
}

/// The files of a `journal bundle` archive by name, with `health.json` and `manifest.json`
/// checked against their published schemas (`schemas/journal-bundle-health.json`,
/// `schemas/journal-bundle-manifest.json`) and the manifest's journals matching the archive's.
/// Panics when the archive cannot be read or a file does not conform.
#[must_use]
pub fn bundle_files(archive: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(
        std::fs::File::open(archive).expect("the bundle"),
    ));
    for f in tar.entries().expect("a tar.gz") {
        let mut f = f.expect("an entry");
        let name = f.path().expect("a name").display().to_string();
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut bytes).expect("read an entry");
        files.insert(name, bytes);
    }
    for (file, schema) in [
        ("health.json", "journal-bundle-health"),
        ("manifest.json", "journal-bundle-manifest"),
    ] {
        let doc: Value = serde_json::from_slice(
            files
                .get(file)
                .unwrap_or_else(|| panic!("no {file} in the bundle")),
        )
        .unwrap_or_else(|e| panic!("{file} is not JSON: {e}"));
        let errs = errors(schema, &doc);
        assert!(
            errs.is_empty(),
            "{file} of the bundle does not match schemas/{schema}.json:\n{}\n{doc:#}",
            errs.join("\n")
        );
    }
    let manifest: Value = serde_json::from_slice(&files["manifest.json"]).expect("JSON");
    let listed: Vec<String> = manifest["journals"]
        .as_array()
        .expect("journals")
        .iter()
        .map(|j| format!("journal/{}.jsonl", j.as_str().expect("an id")))
        .collect();
    let archived: Vec<String> = files
        .keys()
        .filter(|n| n.starts_with("journal/"))
        .cloned()
        .collect();
    assert_eq!(
        listed, archived,
        "the manifest lists the archive's journals"
    );
    files
}
