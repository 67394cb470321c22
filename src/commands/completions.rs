//! `kafkaops completions <shell>` and the generators behind the committed
//! `completions/` and `man/` files (checked for staleness by `tests/generated.rs`).

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;
use crate::error::{CliError, ExitCode};

pub fn run(shell: Shell) -> Result<ExitCode, CliError> {
    crate::output::write_stdout(&completion_script(shell))?;
    Ok(ExitCode::Ok)
}

/// The completion script for `shell`.
#[must_use]
pub fn completion_script(shell: Shell) -> String {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "kafkaops", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// The file name a completion script is committed under.
#[must_use]
pub fn completion_file_name(shell: Shell) -> String {
    match shell {
        Shell::Bash => "kafkaops.bash".into(),
        Shell::Zsh => "_kafkaops".into(),
        Shell::Fish => "kafkaops.fish".into(),
        Shell::PowerShell => "_kafkaops.ps1".into(),
        Shell::Elvish => "kafkaops.elv".into(),
        _ => format!("kafkaops.{shell}"),
    }
}

/// Man pages: one for `kafkaops` and one per (nested) subcommand, as (file name, roff).
#[must_use]
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut cmd = Cli::command();
    cmd.build();
    collect_man(&cmd, "kafkaops", &mut out);
    out
}

fn collect_man(cmd: &clap::Command, name: &str, out: &mut Vec<(String, Vec<u8>)>) {
    let page_cmd = cmd.clone().name(name.to_string());
    let mut buf = Vec::new();
    if clap_mangen::Man::new(page_cmd).render(&mut buf).is_ok() {
        out.push((format!("{name}.1"), buf));
    }
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        collect_man(sub, &format!("{name}-{}", sub.get_name()), out);
    }
}
