#!/bin/sh
# The idle cost of `kafkaops operate`: a real cluster (3 combined nodes) with 1,000 topics, the
# Cruise Control double, operate with every auto-rebalance mode and a 30 s resync; prints CPU
# seconds per hour and resident memory (VmRSS, VmHWM) of the release binary over the measured
# period. See benches/README.md and tests/cluster/operate_idle.rs.
#
#   benches/operate_idle.sh                      # 900 s measured
#   KAFKAOPS_BENCH_SECONDS=3600 benches/operate_idle.sh
set -eu
cd "$(dirname "$0")/.."
cargo build --release --locked --bin kafkaops >&2
target_dir=${CARGO_TARGET_DIR:-target}
KAFKAOPS_TEST_BIN="$target_dir/release/kafkaops" \
KAFKAOPS_BENCH_SECONDS=${KAFKAOPS_BENCH_SECONDS:-900} \
    exec cargo test --test cluster operate_idle:: -- --ignored --nocapture
