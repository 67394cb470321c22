//! `kafkaops completions <shell>` and the generator behind the committed `completions/` files
//! (checked for staleness by `tests/cli/generated.rs`, which also renders the committed `man/` pages
//! from the same clap definition: the binary itself never renders a man page).

use clap_complete::Shell;

use crate::error::{CliError, ExitCode};

/// Prints the script for the name kafkaops was called by (`kubectl-kafkaops` as a kubectl
/// plugin completes that command).
pub fn run(shell: Shell) -> Result<ExitCode, CliError> {
    crate::output::write_stdout(&completion_script_for(shell, &crate::cli::invoked_name()))?;
    Ok(ExitCode::Ok)
}

/// The completion script for `shell` (for the command `kafkaops`).
#[must_use]
pub fn completion_script(shell: Shell) -> String {
    completion_script_for(shell, "kafkaops")
}

/// The completion script for `shell` and the command `name`.
#[must_use]
pub fn completion_script_for(shell: Shell, name: &str) -> String {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut crate::cli::command(), name, &mut buf);
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
