//! The shape of the crate, checked on its source (STYLE.md §1, issue #24).
//!
//! - The engine is the pure core: it must not do IO, read clocks or sleep; this fails the moment
//!   someone imports an IO crate or a clock into `src/engine`.
//! - Each folder imports only the layers below it: a table of the `crate::` paths each folder
//!   must not name ([`forbidden`]), checked on every `crate::` and `super::` path in code (not
//!   in comments or strings), so the layers cannot erode silently.

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

// ---------------------------------------------------------------------------------------------
// The layers (issue #24, STYLE.md §1): which `crate::` paths each folder must not name.
// ---------------------------------------------------------------------------------------------

/// Every top-level module of the crate (a folder `src/x/` or a file `src/x.rs`).
const ALL: &[&str] = &[
    "app",
    "cli",
    "commands",
    "cruise_control",
    "driver",
    "engine",
    "error",
    "error_codes",
    "kafka",
    "output",
    "platform",
    "secret",
    "settings",
    "state",
];

/// Leaves: any layer may use them; they use nothing of the crate but the leaves below them
/// (`secret` is the lowest: `output` and `settings` may use it, nothing else, so no circle can
/// form between leaves either).
const LEAVES: &[&str] = &["output", "secret", "settings"];

/// What each folder must not import, by the crate's top-level module it names. The layers:
/// `main -> commands -> app -> driver -> adapters (cruise_control, kafka, platform, state) ->
/// engine`, `cli` (clap types) for `commands` and `main` only, the exit-code table
/// (`error`, `error_codes`) at the edge only, `settings`, `secret`, `output` as leaves.
fn forbidden(folder: &str) -> Vec<&'static str> {
    let except = |allowed: &[&str]| -> Vec<&'static str> {
        ALL.iter()
            .copied()
            .filter(|m| *m != folder && !allowed.contains(m))
            .collect()
    };
    // Above the adapters: the edge, the CLI types and the application layer.
    let upper = ["app", "cli", "commands", "driver", "error", "error_codes"];
    match folder {
        // The pure core: nothing of the crate outside itself.
        "engine" => except(&[]),
        // Persistence: the engine's data (and the leaves) only.
        "state" => except(&["engine", "output", "secret", "settings"]),
        // Adapters: no layer above them, no sibling adapter but the store Kubernetes implements.
        "cruise_control" => [upper.as_slice(), &["kafka", "platform", "state"]].concat(),
        "kafka" => [upper.as_slice(), &["cruise_control", "platform", "state"]].concat(),
        "platform" => [upper.as_slice(), &["cruise_control", "kafka"]].concat(),
        // The drivers: step functions over the adapters; nothing above them.
        "driver" => vec!["app", "cli", "commands", "error", "error_codes"],
        // The application layer: nothing of the edge (and no printing: see
        // `the_application_layer_never_prints`).
        "app" => vec!["cli", "commands", "error", "error_codes", "main"],
        // The edge's exit-code table and classifier: used by `commands` and `main`, never the
        // other way; the table (`error_codes`) does not name the error type built on it.
        "error" => vec!["app", "cli", "commands"],
        "error_codes" => vec!["app", "cli", "commands", "error"],
        // clap types only, on top of the leaves.
        "cli" => except(LEAVES),
        "secret" => except(&[]),
        "output" | "settings" => except(&["secret"]),
        // `commands` may use everything below it; inside it, no subcommand imports another
        // (`no_subcommand_imports_a_sibling`).
        _ => Vec::new(),
    }
}

/// `text` without comments, string and character literals (their contents become spaces).
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&b, i) {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|h| b.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push(' ');
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if c == '\'' {
            // A character literal ('x', '\n', '"'); a lifetime ('a) is code.
            if next == Some('\\') {
                i += 2;
                while i < b.len() && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push(' ');
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push(' ');
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn ident_before(b: &[char], i: usize) -> bool {
    i > 0 && ident_char(b[i - 1])
}

/// The module path of a source file (`src/engine/roll/mod.rs` -> `engine::roll`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The top-level modules a `crate::` or `super::` path starting at `i` (at its first `::`
/// segment) names: one, or one per item of a `{...}` group.
fn heads(code: &[char], mut i: usize, base: &[String]) -> Vec<String> {
    let segment = |i: &mut usize| -> String {
        let mut s = String::new();
        while *i < code.len() && ident_char(code[*i]) {
            s.push(code[*i]);
            *i += 1;
        }
        s
    };
    if let Some(head) = base.first() {
        return vec![head.clone()];
    }
    while i < code.len() && code[i].is_whitespace() {
        i += 1;
    }
    if code.get(i) != Some(&'{') {
        let s = segment(&mut i);
        return if s.is_empty() { Vec::new() } else { vec![s] };
    }
    // A group: the first segment of every item at depth 1.
    let mut out = Vec::new();
    let mut depth = 0;
    let mut expect = true;
    while i < code.len() {
        match code[i] {
            '{' => {
                depth += 1;
                expect = depth == 1;
                i += 1;
            }
            '}' => {
                depth -= 1;
                i += 1;
                if depth == 0 {
                    break;
                }
            }
            ',' => {
                expect = depth == 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            c if ident_char(c) && expect => {
                out.push(segment(&mut i));
                expect = false;
            }
            _ => i += 1,
        }
    }
    out
}

/// Every top-level module a file's code names through `crate::` or `super::`, with its line.
fn imports(src: &Path, file: &Path) -> Vec<(String, usize)> {
    let text = std::fs::read_to_string(file).unwrap();
    let code: Vec<char> = code_only(&text).chars().collect();
    let module = module_of(src, file);
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let starts = |w: &str| {
            w.chars()
                .enumerate()
                .all(|(k, c)| code.get(i + k) == Some(&c))
        };
        let line = || code[..i].iter().filter(|c| **c == '\n').count() + 1;
        if ident_before(&code, i) {
            i += 1;
            continue;
        }
        if starts("crate::") {
            for h in heads(&code, i + "crate::".len(), &[]) {
                out.push((h, line()));
            }
            i += "crate::".len();
        } else if starts("super::") {
            let mut levels = 0;
            let mut j = i;
            while "super::"
                .chars()
                .enumerate()
                .all(|(k, c)| code.get(j + k) == Some(&c))
            {
                levels += 1;
                j += "super::".len();
            }
            let base: Vec<String> = module[..module.len().saturating_sub(levels)].to_vec();
            for h in heads(&code, j, &base) {
                out.push((h, line()));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn each_layer_imports_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    let mut checked = 0;
    for file in &files {
        let module = module_of(&src, file);
        let Some(folder) = module.first() else {
            continue; // lib.rs only declares the modules
        };
        if folder == "main" {
            continue; // the binary, on top of everything
        }
        assert!(
            ALL.contains(&folder.as_str()),
            "{}: a top-level module the layer table does not know ({folder}): add it to ALL \
             and give it its rules",
            file.display()
        );
        let forbidden = forbidden(folder);
        let rel = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        for (head, line) in imports(&src, file) {
            checked += 1;
            if forbidden.contains(&head.as_str()) && !stage_2_allowed(&rel, &head) {
                found.push(format!(
                    "{}:{line}: `{folder}` must not use `crate::{head}`",
                    file.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(checked > 500, "the scan found only {checked} paths");
    assert!(
        found.is_empty(),
        "imports against the layers (see the table in tests/architecture.rs):\n{}",
        found.join("\n")
    );
}

/// Every `crate::` and `super::` path a file's code names, resolved to an absolute module path
/// (`super::` replaced by the file's parent modules): its segments up to the first item that
/// is not a plain name, one path per item of a `{...}` group (the group's first segment).
fn paths(src: &Path, file: &Path) -> Vec<(Vec<String>, usize)> {
    let text = std::fs::read_to_string(file).unwrap();
    let code: Vec<char> = code_only(&text).chars().collect();
    let module = module_of(src, file);
    let starts_at = |i: usize, w: &str| {
        w.chars()
            .enumerate()
            .all(|(k, c)| code.get(i + k) == Some(&c))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        if ident_before(&code, i) || !(starts_at(i, "crate::") || starts_at(i, "super::")) {
            i += 1;
            continue;
        }
        let line = code[..i].iter().filter(|c| **c == '\n').count() + 1;
        let mut base: Vec<String> = Vec::new();
        let mut j = i;
        if starts_at(j, "crate::") {
            j += "crate::".len();
        } else {
            let mut levels = 0;
            while starts_at(j, "super::") {
                levels += 1;
                j += "super::".len();
            }
            base = module[..module.len().saturating_sub(levels)].to_vec();
        }
        // Plain segments: `a::b::c`.
        loop {
            let mut s = String::new();
            while j < code.len() && ident_char(code[j]) {
                s.push(code[j]);
                j += 1;
            }
            if s.is_empty() {
                break;
            }
            base.push(s);
            if starts_at(j, "::") && code.get(j + 2).is_some_and(|c| ident_char(*c)) {
                j += 2;
            } else {
                break;
            }
        }
        // A group: `a::{b, c}`, or `super::{b, c}` right after the prefix.
        let group = if starts_at(j, "::{") {
            Some(j + 2)
        } else {
            (code.get(j) == Some(&'{')).then_some(j)
        };
        if let Some(g) = group {
            for h in heads(&code, g, &[]) {
                let mut p = base.clone();
                p.push(h);
                out.push((p, line));
            }
        } else {
            out.push((base, line));
        }
        i = j.max(i + 1);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Inside the application layer and the commands (issue #24 stage 2-3).
// ---------------------------------------------------------------------------------------------

/// The subcommand modules of `commands` (one per subcommand; `rebalance imbalance` and
/// `rebalance pace` have modules of their own). A subcommand module must not name another: what
/// two of them share is in the application layer or in a shared module of `commands`
/// ([`SHARED`]).
const SUBCOMMANDS: &[&str] = &[
    "anomalies",
    "completions",
    "config",
    "cordon",
    "health",
    "hold",
    "imbalance",
    "journal",
    "kraft",
    "operate",
    "pace",
    "reassignments",
    "rebalance",
    "roll",
    "throttles",
    "topic",
];

/// The one shared, non-subcommand module of `commands` (`commands::shared`: the observer of
/// Cruise Control waits, the rebalance flow's terminal side, the proposal spec from clap). It
/// names no subcommand. Anything else beside the subcommands fails the test: what several
/// subcommands share goes into `shared` (or `app`), not into a module next to them that one
/// of them could grow into.
const SHARED: &[&str] = &["shared"];

/// Imports of a sibling subcommand that cannot go yet because they sit in another helper's files
/// (issue #24 stage 2-3): (file under `src/`, the sibling it names, who removes it). Empty this
/// list as they go; an entry that no longer matches fails the test, so it cannot go stale.
const SIBLING_ALLOWED: &[(&str, &str, &str)] = &[];

/// The subcommand paths each module of `commands` must not name: every subcommand but its own
/// (for a shared module: every subcommand).
fn forbidden_siblings(own: &str) -> Vec<&'static str> {
    SUBCOMMANDS.iter().copied().filter(|s| *s != own).collect()
}

/// Every module of `commands` under `src` that is neither a subcommand nor shared, every path
/// from one subcommand (or a shared module) to another subcommand that `allowed` does not list,
/// and every entry of `allowed` no path needs any more.
fn sibling_violations(src: &Path, allowed: &[(&str, &str, &str)]) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&src.join("commands"), &mut files);
    let mut found = Vec::new();
    let mut allowed_seen = Vec::new();
    for file in &files {
        let module = module_of(src, file);
        let Some(own) = module.get(1) else {
            continue; // commands/mod.rs: the dispatch names every subcommand
        };
        if own == "schemas" {
            continue; // the catalogue of output schemas names every subcommand's output type
        }
        let rel = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if !SUBCOMMANDS.contains(&own.as_str()) && !SHARED.contains(&own.as_str()) {
            found.push(format!(
                "{rel}: a module of `commands` that is neither a subcommand nor shared ({own}): \
                 add it to SUBCOMMANDS, or move it into `commands::shared`"
            ));
            continue;
        }
        let forbidden = forbidden_siblings(own);
        for (path, line) in paths(src, file) {
            let [first, second, ..] = path.as_slice() else {
                continue;
            };
            if first != "commands" || !forbidden.contains(&second.as_str()) {
                continue;
            }
            if let Some(a) = allowed.iter().find(|(f, s, _)| *f == rel && s == second) {
                allowed_seen.push(*a);
                continue;
            }
            found.push(format!(
                "{rel}:{line}: `commands::{own}` must not use `commands::{second}` (move what \
                 both need to `app` or `commands::shared`)"
            ));
        }
    }
    for a in allowed {
        if !allowed_seen.contains(a) {
            found.push(format!(
                "{a:?} is allowed but no longer imported: remove it from SIBLING_ALLOWED"
            ));
        }
    }
    found
}

#[test]
fn no_subcommand_imports_a_sibling() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = sibling_violations(&src, SIBLING_ALLOWED);
    assert!(
        found.is_empty(),
        "a subcommand imports a sibling:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_sibling_rule_catches_a_forbidden_import() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, code: &str| {
        let file = dir.path().join(rel);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, code).unwrap();
    };
    // A subcommand naming a sibling (directly and through `super::`), one naming its own
    // submodule and the shared module (both fine), a shared module naming a subcommand, a
    // support module beside the subcommands (as `commands/observe.rs` was), and a stale
    // allowance.
    write(
        "commands/topic.rs",
        "use super::rebalance::X;\nuse super::shared::observe::CliObserver;\n",
    );
    write(
        "commands/roll/execute.rs",
        "use super::render::acted_on;\nuse crate::commands::roll::render::f;\n\
         fn f() { crate::commands::pace::run(); }\n",
    );
    write(
        "commands/shared/cc_flow/task.rs",
        "use crate::commands::imbalance::Y;\n",
    );
    write("commands/observe.rs", "use crate::output::Printer;\n");
    write(
        "commands/mod.rs",
        "use self::topic::Z;\nuse crate::commands::roll::W;\n",
    );
    let stale = ("commands/kraft.rs", "roll", "nobody");
    let mut found = sibling_violations(dir.path(), &[stale]);
    found.sort();
    assert_eq!(found.len(), 5, "{found:#?}");
    assert!(found[0].contains("(\"commands/kraft.rs\""), "{found:#?}");
    assert!(
        found[1].starts_with("commands/observe.rs: a module of `commands` that is neither"),
        "{found:#?}"
    );
    assert!(
        found[2].starts_with("commands/roll/execute.rs:3:")
            && found[2].contains("`commands::roll` must not use `commands::pace`"),
        "{found:#?}"
    );
    assert!(
        found[3].starts_with("commands/shared/cc_flow/task.rs:1:")
            && found[3].contains("`commands::shared` must not use `commands::imbalance`"),
        "{found:#?}"
    );
    assert!(
        found[4].starts_with("commands/topic.rs:1:")
            && found[4].contains("`commands::topic` must not use `commands::rebalance`"),
        "{found:#?}"
    );
}

/// What of `output` prints or asks: the application layer reports through `app::Reporter`
/// instead (the CLI renders it, `operate` logs it).
const PRINTING: &[&str] = &[
    "Printer",
    "printer",
    "confirm",
    "progress_bar",
    "write_stdout",
    "write_stderr",
];

#[test]
fn the_application_layer_never_prints() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("app"), &mut files);
    assert!(!files.is_empty());
    let mut found = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap().display().to_string();
        for (path, line) in paths(&src, file) {
            if path.first().is_some_and(|h| h == "output")
                && path.iter().any(|s| PRINTING.contains(&s.as_str()))
            {
                found.push(format!("{rel}:{line}: `{}`", path.join("::")));
            }
        }
        let text = code_only(&std::fs::read_to_string(file).unwrap());
        for (n, l) in text.lines().enumerate() {
            for m in ["println!", "eprintln!", "print!(", "eprint!("] {
                if l.contains(m) {
                    found.push(format!("{rel}:{}: {m}", n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the application layer prints (report through app::Reporter instead):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scanner_resolves_sibling_paths() {
    let code = r##"
        use super::observe::CliObserver;
        use super::{Ctx, rebalance::run};
        use crate::commands::roll::{a, b};
        let x = super::super::topic::f(); // crate::commands::pace in a comment
        use crate::output::Printer;
    "##;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("commands/operate/act.rs");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, code).unwrap();
    let got: Vec<String> = paths(dir.path(), &file)
        .into_iter()
        .map(|(p, _)| p.join("::"))
        .collect();
    assert_eq!(
        got,
        [
            "commands::operate::observe::CliObserver",
            "commands::operate::Ctx",
            "commands::operate::rebalance",
            "commands::roll::a",
            "commands::roll::b",
            "commands::topic::f",
            "output::Printer",
        ]
    );
}

#[test]
fn the_scanner_reads_paths_as_the_compiler_does() {
    let code = r##"
        use crate::engine::x; // crate::commands in a comment
        /* crate::cli in a block */ let s = "crate::app in a string";
        let r = r#"crate::driver in a raw string"#; let c = '"'; let l: &'static str = "";
        use crate::{kafka::a, platform::{b, c}};
        use super::super::{ports, Ctx};
        fn f() -> crate::state::X {}
    "##;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("commands/operate/act.rs");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, code).unwrap();
    let heads: Vec<String> = imports(dir.path(), &file)
        .into_iter()
        .map(|(h, _)| h)
        .collect();
    assert_eq!(
        heads,
        ["engine", "kafka", "platform", "commands", "state"],
        "{:?}",
        code_only(code)
    );
}

// ---------------------------------------------------------------------------------------------
// The `operate` loop (issue #24): `src/app/operate/` imports nothing of `commands` or `cli`.
// ---------------------------------------------------------------------------------------------

/// Stage 2 of #24, still open: the `crate::commands::` paths the operate loop's app modules may
/// name until the helpers moving them into `app` are merged, by file, each with its owner. The
/// lead closes an entry after merging its move (then the path is `crate::app::...`, and
/// [`the_operate_loop_imports_nothing_of_the_cli`] fails on the stale entry until it is gone).
const OPERATE_STAGE_2: &[(&str, &[&str])] = &[];

/// Whether `file` (relative to `src/`) may name `crate::{head}` for now ([`OPERATE_STAGE_2`]);
/// which paths exactly is checked by [`the_operate_loop_imports_nothing_of_the_cli`].
fn stage_2_allowed(file: &str, head: &str) -> bool {
    head == "commands" && OPERATE_STAGE_2.iter().any(|(f, _)| *f == file)
}

/// Every `crate::commands::` / `crate::cli::` path in the code of a file under `src/app/operate`
/// that [`OPERATE_STAGE_2`] does not allow, and every entry of it that no path needs any more.
fn operate_loop_violations(src: &Path, allowed: &[(&str, &[&str])]) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&src.join("app/operate"), &mut files);
    assert!(!files.is_empty(), "no operate loop under src/app/operate");
    let mut found = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    for file in &files {
        let rel = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let code = code_only(&std::fs::read_to_string(file).unwrap());
        let prefixes = allowed
            .iter()
            .find(|(f, _)| *f == rel)
            .map_or(&[][..], |(_, p)| *p);
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let line = code[..at].matches('\n').count() + 1;
            let rest = rest.trim_start();
            if rest.starts_with("cli")
                && !rest[3..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                found.push(format!(
                    "{rel}:{line}: the operate loop must not use `crate::cli`"
                ));
            }
            let Some(path) = rest.strip_prefix("commands::") else {
                if rest.starts_with("commands") {
                    found.push(format!(
                        "{rel}:{line}: the operate loop must not use `crate::commands`"
                    ));
                }
                continue;
            };
            match prefixes.iter().find(|p| path.starts_with(**p)) {
                Some(p) => {
                    used.insert((rel.clone(), *p));
                }
                None => found.push(format!(
                    "{rel}:{line}: the operate loop must not use `crate::commands::{}`",
                    path.split(|c: char| c.is_whitespace() || c == ';' || c == ',')
                        .next()
                        .unwrap_or("")
                )),
            }
        }
    }
    for (f, prefixes) in allowed {
        for p in *prefixes {
            if !used.contains(&(f.to_string(), *p)) {
                found.push(format!(
                    "{f}: the stage-2 allowance `crate::commands::{p}` is not needed any more: \
                     remove it from OPERATE_STAGE_2"
                ));
            }
        }
    }
    found
}

#[test]
fn the_operate_loop_imports_nothing_of_the_cli() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = operate_loop_violations(&src, OPERATE_STAGE_2);
    assert!(
        found.is_empty(),
        "the operate loop (src/app/operate) names the CLI edge:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_operate_loop_rule_catches_a_forbidden_import() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("app/operate/x.rs");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        "use crate::commands::operate::policy::P;\n\
         // crate::cli::operate in a comment\n\
         fn f(_: crate::cli::operate::OperateArgs) { crate::commands::roll::run(); }\n",
    )
    .unwrap();
    let allowed: &[(&str, &[&str])] =
        &[("app/operate/x.rs", &["operate::policy::", "rebalance::"])];
    let found = operate_loop_violations(dir.path(), allowed);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(
        found[0].contains("x.rs:3") && found[0].contains("crate::cli"),
        "{found:#?}"
    );
    assert!(
        found[1].contains("crate::commands::roll::run"),
        "{found:#?}"
    );
    assert!(
        found[2].contains("`crate::commands::rebalance::` is not needed"),
        "{found:#?}"
    );
}

/// The layer table itself allows no circle: if `a` may use `b` (directly or through others),
/// `b` may not use `a`. Checked over the table rather than today's imports, so a rule loosened
/// later (two leaves allowed to use each other, an adapter allowed to use another that uses it)
/// fails here before any code makes the circle.
#[test]
fn the_layer_table_allows_no_circle() {
    let allowed = |m: &str| -> Vec<&'static str> {
        let forbidden = forbidden(m);
        ALL.iter()
            .copied()
            .filter(|x| *x != m && !forbidden.contains(x))
            .collect()
    };
    // Depth-first search for a back edge; `path` is the chain from the start.
    fn visit<'a>(
        m: &'a str,
        allowed: &dyn Fn(&str) -> Vec<&'a str>,
        path: &mut Vec<&'a str>,
        done: &mut Vec<&'a str>,
    ) -> Option<String> {
        if let Some(i) = path.iter().position(|p| *p == m) {
            return Some(format!("{} -> {m}", path[i..].join(" -> ")));
        }
        if done.contains(&m) {
            return None;
        }
        path.push(m);
        for next in allowed(m) {
            if let Some(circle) = visit(next, allowed, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.push(m);
        None
    }
    let mut done = Vec::new();
    for m in ALL {
        let circle = visit(m, &allowed, &mut Vec::new(), &mut done);
        assert!(
            circle.is_none(),
            "the layer table allows a circle: {}",
            circle.unwrap()
        );
    }
    // The leaves in particular: `secret` uses no other module; `output` and `settings` only it.
    assert_eq!(allowed("secret"), Vec::<&str>::new());
    assert_eq!(allowed("output"), vec!["secret"]);
    assert_eq!(allowed("settings"), vec!["secret"]);
}
