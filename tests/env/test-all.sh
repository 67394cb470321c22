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
# shellcheck source=tests/env/target-checkout.sh
. "$root/tests/env/target-checkout.sh"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

start=$(date +%s)
# Every process the suite starts inherits this marker, so the orphan check below finds exactly ours
# (never the JVMs of another run on the same machine).
export KAFKAOPS_TEST_RUN_ID="run-$$-$start"
ours() {
  for env in /proc/[0-9]*/environ; do
    if { tr '\0' '\n' < "$env"; } 2>/dev/null | grep -qx "KAFKAOPS_TEST_RUN_ID=$KAFKAOPS_TEST_RUN_ID"; then
      pid=${env#/proc/}; pid=${pid%/environ}
      [ "$pid" != "$$" ] && [ "$pid" != "$BASHPID" ] && echo "$pid"
    fi
  done
}
step() { echo; echo "==> $* (+$(( $(date +%s) - start ))s)"; }

step "install and prepare the test environment"
tests/env/install.sh
kafkaops_target_for_checkout "$root"

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --all-targets --locked -- -D warnings

step "build tests"
cargo test --all-targets --locked --no-run

step "cargo test"
# Integration tests that start Kafka clusters serialize themselves; test binaries run one after another.
cargo test --all-targets --locked --no-fail-fast

step "no orphan processes"
left=$(ours | while read -r pid; do ps -o pid=,args= -p "$pid" 2>/dev/null | grep -E 'java|kafka' ; done || true)
if [ -n "$left" ]; then
  echo "processes started by this suite are still running after it:" >&2
  echo "$left" >&2
  echo "$left" | awk '{print $1}' | xargs -r kill -9 || true
  exit 1
fi
step "all tests passed"
