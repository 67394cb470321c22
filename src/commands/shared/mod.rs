//! What several subcommands show the same way, in one place that is not a subcommand: the
//! observer of Cruise Control waits ([`observe`]), the clap proposal arguments resolved into
//! the application layer's spec ([`proposal`]) and the terminal's side of a Cruise Control
//! rebalance flow ([`cc_flow`]: the hooks, the proposal and status views and their text,
//! following a task).
//!
//! A subcommand module of `commands` never imports another (`tests/cli/architecture.rs`): what
//! two of them render or ask alike lives here (or, when `operate` needs it too, in
//! [`crate::app`]). These modules import no subcommand. It sits inside `commands`, not beside
//! it, because it is the CLI's edge too: it takes the command's [`super::Ctx`], prints, asks and
//! maps outcomes to exit codes.

pub mod cc_flow;
pub mod observe;
pub mod proposal;
