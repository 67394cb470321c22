//! What the CLI shows while a Cruise Control request waits: one observer for every subcommand.
//!
//! The Cruise Control client retries and polls on its own; its [`Observer`] says what it waits
//! for. Every subcommand that talks to Cruise Control shows those waits the same way (notes on
//! stderr, silenced by `-q`), so the observer lives here, shared, not in one subcommand that the
//! others would import.

use std::time::Duration;

use crate::cruise_control::model::ProgressStep;
use crate::cruise_control::{CcError, Observer};
use crate::output::Printer;

/// Tells the user what a wait is for (stderr; the progress bar is separate).
pub(crate) struct CliObserver {
    pub(crate) printer: Printer,
}

impl Observer for CliObserver {
    fn retrying(&self, waiting_for: &str, attempt: u32, retry_in: Duration, error: &CcError) {
        self.printer.note(format!(
            "Waiting for {waiting_for} (attempt {attempt}, retrying in {}): {error}",
            humantime::format_duration(retry_in)
        ));
    }
    fn computing(&self, task_id: &str, step: Option<&ProgressStep>) {
        match step {
            Some(s) => self.printer.note(format!(
                "Cruise Control is computing (task {task_id}): {}",
                s.step
            )),
            None => tracing::info!("Cruise Control task {task_id} is still computing"),
        }
    }
}

/// The Cruise Control client of a command: the resolved settings, polling every
/// `poll_interval` ([`crate::app::clients`] builds it).
pub(crate) fn cruise_control(
    ctx: &crate::commands::Ctx,
    poll_interval: Duration,
) -> Result<crate::cruise_control::CruiseControlClient, crate::error::CliError> {
    Ok(crate::app::clients::cruise_control(
        &ctx.settings.cruise_control,
        crate::app::clients::CcOptions::polling(poll_interval),
    )?)
}
