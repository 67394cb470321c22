#!/usr/bin/env bash
# Runs a command and reports the peak of the summed resident memory of the command and all its
# descendants (the test binary plus every Kafka JVM it starts), sampled every 0.5 s.
# `/usr/bin/time -v` is not enough here: it reports the largest single process, not the sum.
#
#   tests/env/peak-rss.sh cargo test --test cluster cluster_env::
set -uo pipefail
"$@" &
root=$!
peak=0
sample() {
  ps -e -o pid=,ppid=,rss= | awk -v root="$root" '
    { parent[$1] = $2; rss[$1] = $3 }
    END {
      for (p in rss) {
        q = p
        while (q != "" && q != 0 && q != 1 && q != root) q = parent[q]
        if (q == root) total += rss[p]
      }
      print total + 0
    }'
}
while kill -0 "$root" 2>/dev/null; do
  now=$(sample)
  ((now > peak)) && peak=$now
  sleep 0.5
done
wait "$root"
rc=$?
echo "peak-rss.sh: peak RSS of the process tree: $((peak / 1024)) MiB (exit $rc)" >&2
exit "$rc"
