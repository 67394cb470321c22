//! The engine is the pure core: it must not do IO, read clocks or sleep (STYLE.md §1).
//! This test fails the moment someone imports an IO crate or a clock into `src/engine`.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn engine_is_pure() {
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let mut files = Vec::new();
    rust_files(&engine, &mut files);
    assert!(!files.is_empty());
    let forbidden = [
        "tokio::",
        "reqwest::",
        "rdkafka::",
        "kube::",
        "std::net",
        "std::fs",
        "std::process",
        "SystemTime::now",
        "Instant::now",
        "thread::sleep",
        "std::env::var",
    ];
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for f in forbidden {
                if code.contains(f) {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "IO or clock use in the pure engine:\n{}",
        found.join("\n")
    );
}
