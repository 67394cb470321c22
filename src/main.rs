//! The `kafkaops` binary: parse, set up logging, run, map errors to exit codes.

use clap::FromArgMatches;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

use kafkaops::cli::operate::LogFormat;
use kafkaops::cli::{Cli, Command};
use kafkaops::error::ExitCode;

fn main() {
    // Usage shows the name kafkaops was called by (`kubectl kafkaops` as a kubectl plugin).
    let name = kafkaops::cli::usage_name(&kafkaops::cli::invoked_name());
    let matches = match kafkaops::cli::help::parse_command(name).try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            // --help/--version print and exit 0; real usage errors exit 2.
            let _ = e.print();
            std::process::exit(if e.use_stderr() {
                ExitCode::Usage.code()
            } else {
                0
            });
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            std::process::exit(ExitCode::Usage.code());
        }
    };
    init_logging(cli.global.verbose, cli.global.quiet, &cli.command);
    let err_color = cli
        .global
        .color
        .enabled(std::io::IsTerminal::is_terminal(&std::io::stderr()));

    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            kafkaops::output::stderr_line(format_args!(
                "error: cannot start the async runtime: {e}"
            ));
            std::process::exit(ExitCode::Failed.code());
        }
    };
    // A log collector reading `operate --log-format json` gets the final error as JSON too.
    let json_logs = matches!(&cli.command, Command::Operate(a) if a.log_format == LogFormat::Json);
    let result = runtime.block_on(kafkaops::commands::run(cli, &matches));
    let code = match result {
        Ok(code) => code,
        Err(err) if json_logs => {
            tracing::error!(exit_code = err.code.code(), "{err}");
            err.code
        }
        Err(err) => {
            kafkaops::output::stderr_line(kafkaops::output::paint_line(
                &format!("error: {err}"),
                err_color,
            ));
            err.code
        }
    };
    std::process::exit(code.code());
}

/// Logs go to stderr; `-v` raises the default level, `-q` lowers it, `RUST_LOG` overrides.
/// Only `operate` has a log format (its logs go to collectors; `json`: one JSON object per line
/// with timestamp, level, target and fields, never coloured); every other command writes lines
/// for people.
fn init_logging(verbose: u8, quiet: bool, command: &Command) {
    let format = match command {
        Command::Operate(args) => args.log_format,
        _ => LogFormat::Text,
    };
    let level = match (quiet, verbose) {
        (true, _) => "error",
        (false, 0) => "warn",
        (false, 1) => "info",
        (false, 2) => "debug",
        _ => "trace",
    };
    // `operate` is a service: its own info lines (each action with its reason, each
    // transition) are its record, so they show without -v.
    let ours = match (command, quiet, verbose) {
        (Command::Operate(_), false, 0) => "info",
        _ => level,
    };
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new(format!("{level},kafkaops={ours}")));
    let ansi = kafkaops::output::ColorChoice::Auto
        .enabled(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    // The journal of a run that changes something records the crate's events whatever the
    // verbosity (kafkaops::output::journal); the log lines on stderr follow -v/-q/RUST_LOG.
    let journal = kafkaops::output::journal::JournalLayer
        .with_filter(kafkaops::output::journal::journal_filter());
    let registry = tracing_subscriber::registry().with(journal);
    let _ = match format {
        LogFormat::Text => registry
            .with(
                tracing_subscriber::fmt::layer()
                    .with_writer(std::io::stderr)
                    .with_ansi(ansi)
                    .with_target(false)
                    .with_filter(filter),
            )
            .try_init(),
        LogFormat::Json => registry
            .with(
                tracing_subscriber::fmt::layer()
                    .with_writer(std::io::stderr)
                    .json()
                    .with_ansi(false)
                    .with_target(true)
                    .with_current_span(true)
                    .flatten_event(true)
                    .with_filter(filter),
            )
            .try_init(),
    };
}
