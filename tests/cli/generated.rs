//! The committed completions and man pages must match the clap definition.
//! Regenerate with `UPDATE_GENERATED=1 cargo test --test cli cli:: generated::`.

use std::path::Path;

use clap_complete::Shell;
use kafkaops::commands::completions::{completion_file_name, completion_script};

/// Man pages: one for `kafkaops` and one per (nested) subcommand, as (file name, roff).
fn man_pages() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut cmd = kafkaops::cli::command();
    cmd.build();
    collect_man(&cmd, "kafkaops", &mut out);
    out
}

fn collect_man(cmd: &clap::Command, name: &str, out: &mut Vec<(String, Vec<u8>)>) {
    let page_cmd = cmd.clone().name(name.to_string());
    let mut buf = Vec::new();
    clap_mangen::Man::new(page_cmd)
        .render(&mut buf)
        .expect("render a man page");
    out.push((format!("{name}.1"), buf));
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        collect_man(sub, &format!("{name}-{}", sub.get_name()), out);
    }
}

fn check(path: &Path, expected: &[u8], stale: &mut Vec<String>) {
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, expected).unwrap();
        return;
    }
    match std::fs::read(path) {
        Ok(actual) if actual == expected => {}
        _ => stale.push(path.display().to_string()),
    }
}

#[test]
fn completions_and_man_pages_are_up_to_date() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stale = Vec::new();
    let shells = [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Elvish,
    ];
    for shell in shells {
        let path = root.join("completions").join(completion_file_name(shell));
        check(&path, completion_script(shell).as_bytes(), &mut stale);
    }
    let pages = man_pages();
    assert!(pages.iter().any(|(n, _)| n == "kafkaops-rebalance-add.1"));
    for (name, roff) in &pages {
        check(&root.join("man").join(name), roff, &mut stale);
    }
    // No leftover pages for commands that no longer exist.
    for entry in std::fs::read_dir(root.join("man")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !pages.iter().any(|(n, _)| *n == name) {
            stale.push(format!("man/{name} (no such command)"));
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files (run `UPDATE_GENERATED=1 cargo test --test cli cli:: generated::`): {stale:?}"
    );
}
