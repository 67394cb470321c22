#!/bin/sh
# Times `kafkaops roll --role broker` with --max-batch-size 1 and a larger batch on one real
# cluster (3 controllers + 6 brokers in 3 racks, one rack-aware RF 3 topic) and prints a
# Markdown row with both durations and their ratio. See benches/README.md.
#
#   benches/roll_batch.sh                 # 6 brokers, 12 partitions, batch 1 vs 2
#   benches/roll_batch.sh --batch 3 --brokers 9 --partitions 27
set -eu
cd "$(dirname "$0")/.."
cargo build --release --locked --bin kafkaops --example roll_batch >&2
target_dir=${CARGO_TARGET_DIR:-target}
exec "$target_dir/release/examples/roll_batch" --kafkaops "$target_dir/release/kafkaops" "$@"
