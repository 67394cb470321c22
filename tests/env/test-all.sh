#!/usr/bin/env bash
# The one command that installs what is needed and runs every test of kafkaops:
# formatting, lints, unit and property tests, and the integration tests against a real KRaft
# Kafka cluster and the Cruise Control test double. `.ci/run` calls this.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
export KAFKAOPS_TESTENV_CACHE="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
# Compiled dependencies (librdkafka above all) are cached with the rest of the test environment.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$KAFKAOPS_TESTENV_CACHE/target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

start=$(date +%s)
step() { echo; echo "==> $* (+$(( $(date +%s) - start ))s)"; }

step "install and prepare the test environment"
tests/env/install.sh

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --all-targets --locked -- -D warnings

step "build tests"
cargo test --all-targets --locked --no-run

step "cargo test"
# Integration tests that start Kafka clusters serialize themselves; test binaries run one after another.
cargo test --all-targets --locked

step "no orphan processes"
if pgrep -f 'kafka\.Kafka|ccdouble' >/dev/null; then
  echo "orphan Kafka / Cruise Control double processes after the suite:" >&2
  pgrep -af 'kafka\.Kafka|ccdouble' >&2
  pkill -9 -f 'kafka\.Kafka|ccdouble' || true
  exit 1
fi
step "all tests passed"
