//! Where the test suite keeps its files, checked so that nothing is silently left out.
//!
//! The integration tests are a few binaries, `tests/<binary>/main.rs`, each declaring its test
//! modules (`tests/env/README.md`, "Test binaries"). A file dropped next to them without a `mod`
//! line is never compiled, and a `tests/*.rs` file is one more binary linking the whole crate.
//! proptest keeps the failing inputs of `tests/<binary>/<module>.rs` in
//! `tests/proptest-regressions/<module>.txt` (it looks beside the nearest `main.rs`); a seed file
//! anywhere else is never replayed.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use proptest::test_runner::{FailurePersistence, FileFailurePersistence};

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn names(dir: &Path, ext: &str) -> BTreeSet<String> {
    fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == ext))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// The test binaries: directories of `tests/` with a `main.rs`.
fn binaries() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(tests_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("main.rs").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The `mod NAME;` lines of a crate root (file modules only, not `mod NAME { … }`).
fn declared_modules(main: &Path) -> BTreeSet<String> {
    fs::read_to_string(main)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter_map(|l| {
            l.strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("mod "))
        })
        .filter_map(|l| l.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_test_file_belongs_to_one_of_a_few_binaries() {
    let loose = names(&tests_dir(), "rs");
    assert!(
        loose.is_empty(),
        "tests/{{{}}}.rs: each would be one more test binary linking the whole crate; make it a \
         module of one of {:?} (by what it needs)",
        loose.into_iter().collect::<Vec<_>>().join(","),
        binaries()
            .iter()
            .map(|b| b.file_name().unwrap().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
    );
    let bins = binaries();
    assert!(bins.len() >= 5, "test binaries: {bins:?}");
    for bin in bins {
        let mut files = names(&bin, "rs");
        files.remove("main");
        let declared = declared_modules(&bin.join("main.rs"));
        let missing: Vec<&String> = files.difference(&declared).collect();
        assert!(
            missing.is_empty(),
            "{}: {missing:?} not declared in main.rs, so never compiled nor run",
            bin.display()
        );
    }
}

#[test]
fn proptest_seeds_are_where_proptest_replays_them() {
    let seeds = tests_dir().join("proptest-regressions");
    let modules: BTreeSet<String> = binaries().iter().flat_map(|b| names(b, "rs")).collect();
    let kept = names(&seeds, "txt");
    assert!(!kept.is_empty(), "no seed files in {}", seeds.display());
    for name in &kept {
        let source = binaries()
            .iter()
            .map(|b| b.join(format!("{name}.rs")))
            .find(|p| p.is_file())
            .unwrap_or_else(|| {
                panic!(
                    "{}/{name}.txt belongs to no tests/<binary>/{name}.rs: proptest never reads it",
                    seeds.display()
                )
            });
        assert!(modules.contains(name));
        // What proptest does with `file!()` of that module: every seed of the file is loaded.
        let relative = source
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let loaded = FileFailurePersistence::SourceParallel("proptest-regressions")
            .load_persisted_failures2(Some(Box::leak(relative.into_boxed_str())))
            .len();
        let written = fs::read_to_string(seeds.join(format!("{name}.txt")))
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("cc "))
            .count();
        assert!(written > 0, "{name}.txt holds no seed");
        assert_eq!(
            loaded, written,
            "proptest loads {loaded} of {name}.txt's {written} seeds"
        );
    }
    // Seed files next to their source (proptest's fallback when no main.rs is found) would be
    // ignored here.
    let mut stray = Vec::new();
    let mut dirs = vec![tests_dir()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path
                .extension()
                .is_some_and(|x| x == "proptest-regressions")
            {
                stray.push(path);
            }
        }
    }
    assert!(
        stray.is_empty(),
        "seed files proptest does not read (move them to {}): {stray:?}",
        seeds.display()
    );
}
