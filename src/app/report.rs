//! How a use case tells people what it does: a small trait the CLI renders and `operate` logs.
//!
//! A use case never prints. What a person should know while it runs (what it waits for, what it
//! rides out, what it decided) goes through a [`Reporter`]: the CLI's renders notes on stderr
//! (silenced by `-q`, never on stdout where the data goes), `operate`'s writes log lines
//! ([`LogReporter`]), a test's records them.

/// Where a use case reports to.
pub trait Reporter: Send + Sync {
    /// A line for people: what is done or waited for.
    fn note(&self, message: &str);
    /// Something wrong that the use case rides out (it goes on).
    fn warn(&self, message: &str);
}

/// Reports as log lines (`operate`, and anything running unattended).
#[derive(Debug, Clone, Copy, Default)]
pub struct LogReporter;

impl Reporter for LogReporter {
    fn note(&self, message: &str) {
        tracing::info!("{message}");
    }

    fn warn(&self, message: &str) {
        tracing::warn!("{message}");
    }
}

/// Reports nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoReporter;

impl Reporter for NoReporter {
    fn note(&self, _message: &str) {}

    fn warn(&self, _message: &str) {}
}
