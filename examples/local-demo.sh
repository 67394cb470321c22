#!/usr/bin/env bash
# The one command that installs what is needed and runs the main job against a local real cluster:
# a KRaft Kafka cluster (1 controller + 4 brokers, from Maven Central jars) with the Cruise Control
# test double, and `kafkaops rebalance add --brokers 4` moving replicas onto the new broker.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export KAFKAOPS_TESTENV_CACHE="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$KAFKAOPS_TESTENV_CACHE/target}"
. "$root/tests/env/target-checkout.sh"
# Only what the demo uses is installed (no Kubernetes or shipping tools: those are for the tests).
# Progress goes to stderr; stdout keeps only the demo's result (a JSON line).
echo "local-demo: installing what is missing (cached under $KAFKAOPS_TESTENV_CACHE) ..." >&2
tests/env/install.sh --demo
kafkaops_target_for_checkout "$root"
echo "local-demo: building kafkaops (the first build compiles librdkafka and takes a few minutes) ..." >&2
cargo build --locked --bin kafkaops --example local_demo
KAFKAOPS_BIN="$CARGO_TARGET_DIR/debug/kafkaops" exec "$CARGO_TARGET_DIR/debug/examples/local_demo"
