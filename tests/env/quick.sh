#!/usr/bin/env bash
# The inner loop: formatting, lints, unit and property tests, and the tests against wire-level
# doubles and the command line. No Kafka cluster, no apiserver, nothing to install; a few minutes
# on a warm target directory. `tests/env/test-all.sh` (what `.ci/run` runs) runs these and every
# test against real clusters.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
export KAFKAOPS_TESTENV_CACHE="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$KAFKAOPS_TESTENV_CACHE/target}"
# shellcheck source=tests/env/target-checkout.sh
. "$root/tests/env/target-checkout.sh"
kafkaops_target_for_checkout "$root"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

start=$(date +%s)
step() { echo; echo "==> $* (+$(( $(date +%s) - start ))s)"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --all-targets --locked -- -D warnings

step "cargo test (unit, engine, wire, cli)"
cargo test --locked --lib --bins --test engine --test wire --test cli

step "cargo doc (warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --lib

step "quick tier passed"
