#!/bin/sh
# The idle cost of `kafkaops operate` on a large cluster (issue #27): a synthetic Kafka
# (examples/synthetic_kafka.rs) of B brokers and P partitions, `operate --resync 30s` with every
# auto-rebalance mode; Cruise Control is not running (its URL refuses connections), so the loop
# reads Kafka each resync and acts on nothing. Samples /proc/PID every 5 s after the first loop
# and prints CPU seconds per hour, VmRSS, VmHWM, RssAnon and RssFile, and the loops seen (each
# loop sends one Metadata request, counted by the synthetic cluster).
#
#   benches/operate_idle_synthetic.sh                          # 1,000 brokers, 100,000 partitions, 300 s
#   KAFKAOPS_BENCH_PROFILE=dev benches/operate_idle_synthetic.sh   # debug build
#   KAFKAOPS_BENCH_BROKERS=100 KAFKAOPS_BENCH_PARTITIONS=10000 KAFKAOPS_BENCH_SECONDS=600 \
#       benches/operate_idle_synthetic.sh
set -eu
cd "$(dirname "$0")/.."
brokers=${KAFKAOPS_BENCH_BROKERS:-1000}
partitions=${KAFKAOPS_BENCH_PARTITIONS:-100000}
seconds=${KAFKAOPS_BENCH_SECONDS:-300}
resync=${KAFKAOPS_BENCH_RESYNC:-30s}
profile=${KAFKAOPS_BENCH_PROFILE:-release}
target_dir=${CARGO_TARGET_DIR:-target}
dir=$profile
[ "$profile" = dev ] && dir=debug
# KAFKAOPS_BIN and SYNTHETIC_KAFKA_BIN: binaries already built (nothing is built then).
bin=${KAFKAOPS_BIN:-$target_dir/$dir/kafkaops}
synthetic=${SYNTHETIC_KAFKA_BIN:-$target_dir/$dir/examples/synthetic_kafka}
if [ -z "${KAFKAOPS_BIN:-}" ] || [ -z "${SYNTHETIC_KAFKA_BIN:-}" ]; then
    cargo build --profile "$profile" --locked --bin kafkaops --example synthetic_kafka >&2
fi
work=$(mktemp -d)
synth_pid=
op_pid=
cleanup() {
    [ -n "$op_pid" ] && kill "$op_pid" 2>/dev/null || true
    [ -n "$synth_pid" ] && kill "$synth_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
"$synthetic" --brokers "$brokers" --partitions "$partitions" \
    --until-signal >"$work/info.json" 2>"$work/synthetic.err" &
synth_pid=$!
i=0
until [ -s "$work/info.json" ]; do
    i=$((i + 1))
    [ $i -gt 600 ] && { echo "the synthetic cluster did not start" >&2; cat "$work/synthetic.err" >&2; exit 1; }
    sleep 0.1
done
bootstrap=$(sed -n 's/.*"bootstrap_servers":"\([^"]*\)".*/\1/p' "$work/info.json")
stats=$(sed -n 's/.*"stats_url":"\([^"]*\)".*/\1/p' "$work/info.json")
cat >"$work/policy.yaml" <<'EOF'
autoRebalance:
  - mode: add-brokers
    template: { name: t }
  - mode: remove-brokers
    template: { name: t }
  - mode: imbalance
    template: { name: t }
templates:
  t: {}
EOF
# A port nothing listens on: Cruise Control unreachable.
KAFKAOPS_CRUISE_CONTROL_URL=http://127.0.0.1:9/ "$bin" --bootstrap-servers "$bootstrap" operate \
    --policy "$work/policy.yaml" --state-dir "$work/state" --resync "$resync" \
    --listen 127.0.0.1:0 >"$work/operate.log" 2>&1 &
op_pid=$!
metadata() {
    curl -sf "$stats?nodes=0" | sed -n 's/.*"Metadata":{"requests":\([0-9]*\).*/\1/p'
}
# Warm-up: the first loop's Metadata answer.
i=0
until [ "$(metadata)" -ge 1 ] 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 1200 ] && { echo "no loop within 120 s" >&2; cat "$work/operate.log" >&2; exit 1; }
    sleep 0.1
done
sleep 5
hz=$(getconf CLK_TCK)
cpu() { awk -v hz="$hz" '{ s = substr($0, index($0, ") ") + 2); split(s, f, " "); print (f[12] + f[13]) / hz }' "/proc/$op_pid/stat"; }
kib() { awk -v k="$1" '$1 == k { print $2 }' "/proc/$op_pid/status"; }
start_cpu=$(cpu)
start_loops=$(metadata)
start=$(date +%s)
peak=0
while [ $(($(date +%s) - start)) -lt "$seconds" ]; do
    sleep 5
    kill -0 "$op_pid" 2>/dev/null || { echo "operate exited" >&2; cat "$work/operate.log" >&2; exit 1; }
    r=$(kib VmRSS:)
    [ "$r" -gt "$peak" ] && peak=$r
done
end_cpu=$(cpu)
end_loops=$(metadata)
elapsed=$(($(date +%s) - start))
awk -v c0="$start_cpu" -v c1="$end_cpu" -v t="$elapsed" -v rss="$(kib VmRSS:)" -v peak="$peak" \
    -v hwm="$(kib VmHWM:)" -v anon="$(kib RssAnon:)" -v file="$(kib RssFile:)" \
    -v thr="$(kib Threads:)" -v loops=$((end_loops - start_loops)) -v b="$brokers" -v p="$partitions" \
    -v first="$start_cpu" -v resync="$resync" 'BEGIN {
    printf "operate, %d synthetic brokers, %d partitions, resync %s, measured %d s after the first loop\n", b, p, resync, t
    printf "CPU: %.2f s = %.1f CPU seconds per hour; start-up and first loop %.2f s\n", c1 - c0, (c1 - c0) / t * 3600, first
    printf "memory: VmRSS %.1f MiB (sampled peak %.1f), VmHWM %.1f MiB, RssAnon %.1f MiB, RssFile %.1f MiB, %d threads\n", rss / 1024, peak / 1024, hwm / 1024, anon / 1024, file / 1024, thr
    printf "loops (Metadata requests) while measuring: %d\n", loops
}'
