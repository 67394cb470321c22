//! The `kafkaops` binary: parse, set up logging, run, map errors to exit codes.

use clap::{CommandFactory, FromArgMatches};
use tracing_subscriber::EnvFilter;

use kafkaops::cli::operate::LogFormat;
use kafkaops::cli::{Cli, Command};
use kafkaops::error::ExitCode;

fn main() {
    // Usage shows the name kafkaops was called by (`kubectl kafkaops` as a kubectl plugin).
    let name = kafkaops::cli::usage_name(&kafkaops::cli::invoked_name());
    let matches = match Cli::command().bin_name(name).try_get_matches() {
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
    // Only `operate` has a log format (its logs go to collectors); every other command writes
    // lines for people.
    let format = match &cli.command {
        Command::Operate(args) => args.log_format,
        _ => LogFormat::Text,
    };
    init_logging(cli.global.verbose, cli.global.quiet, format);

    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            std::process::exit(ExitCode::Failed.code());
        }
    };
    let result = runtime.block_on(kafkaops::commands::run(cli, &matches));
    let code = match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err}");
            err.code
        }
    };
    std::process::exit(code.code());
}

/// Logs go to stderr; `-v` raises the default level, `-q` lowers it, `RUST_LOG` overrides.
/// `json`: one JSON object per line (timestamp, level, fields, the span path), never coloured.
fn init_logging(verbose: u8, quiet: bool, format: LogFormat) {
    let default = match (quiet, verbose) {
        (true, _) => "error",
        (false, 0) => "warn",
        (false, 1) => "info",
        (false, 2) => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new(format!("{default},kafkaops={default}")));
    let ansi = kafkaops::output::ColorChoice::Auto
        .enabled(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.with_ansi(ansi).with_target(false).try_init(),
        LogFormat::Json => builder
            .json()
            .with_ansi(false)
            .with_target(true)
            .with_current_span(true)
            .flatten_event(true)
            .try_init(),
    };
}
