#!/bin/sh
# What one observation of a large cluster costs kafkaops (issue #27): `kafkaops roll --dry-run
# --all` end to end and the library's observation (first and following ones) against synthetic
# clusters (tests/support/synthetic_kafka/) of 100, 500 and 1,000 brokers with 10,000, 50,000 and
# 100,000 partitions; prints the Markdown tables of benches/README.md (JSON details on stderr).
#
#   benches/observation.sh                                   # release build, the three sizes
#   benches/observation.sh --sizes 100x10000 --observations 5
#   KAFKAOPS_BENCH_PROFILE=dev benches/observation.sh        # debug build (much faster to build)
#   benches/observation.sh --rss-limit-mib 4096 --timeout 300
set -eu
cd "$(dirname "$0")/.."
profile=${KAFKAOPS_BENCH_PROFILE:-release}
cargo build --profile "$profile" --locked --bin kafkaops --example observation_bench >&2
target_dir=${CARGO_TARGET_DIR:-target}
dir=$profile
[ "$profile" = dev ] && dir=debug
exec "$target_dir/$dir/examples/observation_bench" --kafkaops "$target_dir/$dir/kafkaops" "$@"
