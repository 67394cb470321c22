//! Whatever arrives from outside must be answered with an error, never a panic.
//!
//! Property tests feed mutated inputs to every parser of external data: each Cruise Control
//! response shape (starting from the recorded answers in `tests/fixtures/cruise_control/` and
//! mutating them the ways a different server version or a proxy would: keys dropped, values of
//! the wrong type, Gson's bare `NaN`, truncated bodies, arbitrary text), `.properties` files for
//! `roll --desired-config`, and the YAML config file. A parser may reject an input; it must not
//! panic (multi-byte text next to Gson's `NaN` tokens is the case the float sanitiser must slice
//! carefully).

use std::path::Path;

use kafkaops::cruise_control::lenient;
use kafkaops::cruise_control::model::{
    CruiseControlState, ErrorResponse, KafkaClusterState, OptimizationResult, ProgressResult,
    StopResult, UserTasks,
};
use kafkaops::settings::{Overrides, Source, Sourced, resolve};
use proptest::prelude::*;
use serde_json::Value;

fn fixtures() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cruise_control");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("fixtures dir") {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let value: Value = lenient::from_str(&text).expect("fixtures are valid JSON");
        out.push((
            path.file_name().unwrap().to_string_lossy().into_owned(),
            value,
        ));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(
        out.len() >= 10,
        "expected the recorded Cruise Control answers"
    );
    out
}

/// Every response type the client parses; errors are fine, panics are not.
fn parse_all(body: &str) {
    let _ = lenient::from_str::<CruiseControlState>(body);
    let _ = lenient::from_str::<OptimizationResult>(body);
    let _ = lenient::from_str::<ProgressResult>(body);
    let _ = lenient::from_str::<UserTasks>(body);
    let _ = lenient::from_str::<KafkaClusterState>(body);
    let _ = lenient::from_str::<StopResult>(body);
    let _ = lenient::from_str::<ErrorResponse>(body);
    let _ = lenient::sanitize_special_floats(body);
}

/// A replacement value of some other type.
fn odd_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
        Just(Value::Array(vec![])),
        Just(serde_json::json!({})),
        Just(serde_json::json!([{"a": 1}, "x", null])),
        Just(Value::String("NaN".into())),
        Just(Value::from(u64::MAX)),
        Just(Value::from(-1)),
    ]
}

#[derive(Debug, Clone)]
enum Mutation {
    /// Drop the `n`-th key met in a walk of the document.
    DropKey(usize),
    /// Replace the `n`-th value met with another.
    Replace(usize, Value),
    /// Serialise, then cut the text at a fraction of its length.
    Truncate(f64),
    /// Serialise, then write `NaN` / `Infinity` tokens instead of the `n`-th number.
    BareSpecialFloat(usize, &'static str),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0usize..400).prop_map(Mutation::DropKey),
        ((0usize..400), odd_value()).prop_map(|(n, v)| Mutation::Replace(n, v)),
        (0.0f64..1.0).prop_map(Mutation::Truncate),
        (
            (0usize..60),
            prop_oneof![Just("NaN"), Just("Infinity"), Just("-Infinity")]
        )
            .prop_map(|(n, t)| Mutation::BareSpecialFloat(n, t)),
    ]
}

/// Walks values depth first; calls `f` on the `target`-th one. Returns whether it was reached.
fn visit(v: &mut Value, target: usize, seen: &mut usize, f: &mut dyn FnMut(&mut Value)) -> bool {
    if *seen == target {
        f(v);
        return true;
    }
    *seen += 1;
    match v {
        Value::Array(items) => items.iter_mut().any(|i| visit(i, target, seen, f)),
        Value::Object(map) => map.values_mut().any(|i| visit(i, target, seen, f)),
        _ => false,
    }
}

fn drop_key(v: &mut Value, target: usize, seen: &mut usize) -> bool {
    match v {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for k in keys {
                if *seen == target {
                    map.remove(&k);
                    return true;
                }
                *seen += 1;
                if drop_key(map.get_mut(&k).unwrap(), target, seen) {
                    return true;
                }
            }
            false
        }
        Value::Array(items) => items.iter_mut().any(|i| drop_key(i, target, seen)),
        _ => false,
    }
}

fn apply(mut doc: Value, muts: &[Mutation]) -> String {
    let mut tail: Vec<&Mutation> = Vec::new();
    for m in muts {
        match m {
            Mutation::DropKey(n) => {
                drop_key(&mut doc, *n, &mut 0);
            }
            Mutation::Replace(n, with) => {
                visit(&mut doc, *n, &mut 0, &mut |v| *v = with.clone());
            }
            other => tail.push(other),
        }
    }
    let mut text = serde_json::to_string(&doc).unwrap();
    for m in tail {
        match m {
            Mutation::Truncate(f) => {
                let mut cut = (text.len() as f64 * f) as usize;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
            }
            Mutation::BareSpecialFloat(n, token) => {
                // Replace the n-th run of digits outside strings (approximately: any run).
                let bytes = text.as_bytes();
                let mut runs = Vec::new();
                let mut i = 0;
                while i < bytes.len() {
                    if bytes[i].is_ascii_digit() {
                        let start = i;
                        while i < bytes.len() && bytes[i].is_ascii_digit() {
                            i += 1;
                        }
                        runs.push((start, i));
                    } else {
                        i += 1;
                    }
                }
                if let Some(&(s, e)) = runs.get(*n % runs.len().max(1)) {
                    text.replace_range(s..e, token);
                }
            }
            _ => {}
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_cruise_control_answers_never_panic(
        which in 0usize..64,
        muts in prop::collection::vec(mutation(), 1..6),
    ) {
        let docs = fixtures();
        let (_, doc) = &docs[which % docs.len()];
        let body = apply(doc.clone(), &muts);
        parse_all(&body);
    }

    #[test]
    fn arbitrary_text_never_panics_the_cruise_control_parsers(body in any::<String>()) {
        parse_all(&body);
    }

    #[test]
    fn special_float_tokens_next_to_any_text_never_panic(
        prefix in any::<String>(),
        token in prop_oneof![Just("NaN"), Just("Infinity"), Just("-Infinity"), Just("\"")],
        suffix in any::<String>(),
    ) {
        parse_all(&format!("{prefix}{token}{suffix}"));
    }

    #[test]
    fn properties_files_never_panic(text in any::<String>()) {
        let _ = kafkaops::commands::roll::parse_properties(&text);
    }

    #[test]
    fn properties_like_text_never_panics(
        lines in prop::collection::vec(
            prop_oneof![
                "[a-z.]{1,10}=[a-z0-9 ]{0,8}",
                "[a-z.]{1,10}:[a-z0-9]{0,8}",
                "[a-z.]{1,10} [a-z0-9]{0,8}",
                "[#!].{0,10}",
                "[a-z]{1,5}=[a-z]{0,5}\\\\",
                "\\\\u[0-9a-fA-F]{0,4}",
                ".{0,12}",
            ],
            0..12,
        ),
    ) {
        let _ = kafkaops::commands::roll::parse_properties(&lines.join("\n"));
    }

    #[test]
    fn config_files_never_panic(
        yaml in prop_oneof![
            any::<String>(),
            Just("current-context: a\ncontexts:\n  - name: a\n".to_string()),
        ],
        extra in prop::collection::vec(
            prop_oneof![
                "    bootstrap-servers: [a-z0-9:,]{0,20}",
                "    cruise-control: \\{ url: [a-z:/0-9]{0,20}, timeout: [0-9a-z]{0,5} \\}",
                "    kafka-properties: \\{ [a-z.]{1,8}: [a-z0-9]{0,5} \\}",
                "    kafka-password-env: [A-Z_]{0,8}",
                "  - name: .{0,6}",
                ".{0,20}",
            ],
            0..6,
        ),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.yaml");
        std::fs::write(&path, format!("{yaml}\n{}", extra.join("\n"))).unwrap();
        let overrides = Overrides {
            config: Some(Sourced::new(path, Source::Flag)),
            ..Overrides::default()
        };
        let _ = resolve(&overrides, &|_| None);
    }
}

#[test]
fn every_recorded_answer_parses_as_recorded() {
    // The mutation tests start from these; make sure they are what the client really parses.
    for (name, doc) in fixtures() {
        let text = serde_json::to_string(&doc).unwrap();
        let ok = lenient::from_str::<CruiseControlState>(&text).is_ok()
            || lenient::from_str::<OptimizationResult>(&text).is_ok()
            || lenient::from_str::<ProgressResult>(&text).is_ok()
            || lenient::from_str::<KafkaClusterState>(&text).is_ok()
            || lenient::from_str::<StopResult>(&text).is_ok()
            || lenient::from_str::<ErrorResponse>(&text).is_ok();
        assert!(ok, "{name} parses as no known shape");
    }
}
