//! The binary and the repository without a cluster: command-line parsing, usage errors and exit
//! codes, configuration sources, the generated completions and man pages, the crate's layering,
//! and where the test suite keeps its files.
//!
//! One test binary (each links the whole crate; see `tests/env/README.md`, "Test binaries").
//!
//! Run with `cargo test --test cli cli::`.

mod architecture;
mod cli;
mod generated;
mod journal;
mod layout;
mod schemas;

/// The part of `tests/support` these tests use, at the path the other binaries use.
mod support {
    pub(crate) use super::bin;
}
#[path = "../support/bin.rs"]
mod bin;
#[path = "../support/schema.rs"]
mod schema;
