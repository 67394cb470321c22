#!/bin/sh
# A soak of `kafkaops operate` under faults (issue #23): a real cluster (3 controllers + 5
# brokers), the Cruise Control double, two acks=all idempotent producers, operate with every mode
# and a fault injector for 20 minutes; counts failed/lost sends, duplicate executions, moments
# with two movers and restarts below min ISR from independent observation, and prints a
# Markdown report (exit 1 when a counter is not 0). See examples/soak.rs and benches/README.md.
# It starts a cluster: run it under the shared lock.
#
#   flock /tmp/kafkaops-cluster.lock benches/soak.sh                      # release binary, 1200 s
#   flock /tmp/kafkaops-cluster.lock benches/soak.sh --debug --seconds 300 --seed 7
#
# The harness (the example) is always a dev build; --debug tests the dev build of kafkaops too.
set -eu
cd "$(dirname "$0")/.."
profile=release
if [ "${1:-}" = "--debug" ]; then
    profile=debug
    shift
fi
target_dir=${CARGO_TARGET_DIR:-target}
if [ "$profile" = release ]; then
    cargo build --locked --example soak >&2
    cargo build --release --locked --bin kafkaops >&2
else
    # One invocation: the binary built alone would unify other dependency features (a rebuild).
    cargo build --locked --example soak --bin kafkaops >&2
fi
KAFKAOPS_TEST_BIN="$target_dir/$profile/kafkaops" exec "$target_dir/debug/examples/soak" "$@"
