//! The roll engine stays pure: no IO clients, no clock reads, no sleeping
//! (STYLE.md section 1). A grep, as the style guide suggests.

use std::path::Path;

const FORBIDDEN: &[&str] = &[
    "tokio",
    "reqwest",
    "rdkafka",
    "kube",
    "Instant::now",
    "SystemTime::now",
    "thread::sleep",
    "std::fs",
    "std::net",
];

fn check(path: &Path, offenders: &mut Vec<String>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            check(&entry.unwrap().path(), offenders);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        let text = std::fs::read_to_string(path).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for f in FORBIDDEN {
                if code.contains(f) {
                    offenders.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                }
            }
        }
    }
}

#[test]
fn roll_engine_and_model_do_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    check(&root.join("src/engine/roll"), &mut offenders);
    check(&root.join("src/engine/model.rs"), &mut offenders);
    assert!(
        offenders.is_empty(),
        "impure code in the engine:\n{}",
        offenders.join("\n")
    );
}
