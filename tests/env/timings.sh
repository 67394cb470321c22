#!/usr/bin/env bash
# Where the suite's time went, per test binary.
#
#   KAFKAOPS_TEST_TIMINGS=/tmp/t.tsv tests/env/test-all.sh 2>&1 | tee /tmp/t.log
#   tests/env/timings.sh /tmp/t.log /tmp/t.tsv
#
# The first file is cargo's output (the "Running ..." and "test result: ... finished in" lines give
# each binary's wall time); the second, optional, is the harness's timing log
# (tests/support/timing.rs): cluster, apiserver and Cruise Control double starts, waits for the
# cluster slot, and waits of a second or more. Prints a Markdown table, slowest binary first, and
# the steps of test-all.sh with their start offsets.
set -euo pipefail
log=${1:?usage: timings.sh CARGO_OUTPUT [TIMINGS_TSV]}
tsv=${2:-/dev/null}

awk -F'\t' -v OFS='\t' '
  # Pass 1: the timing log, summed per binary.
  FNR == NR {
    b = $2; k = $4; ms = $5
    if (k == "cluster_start") { cs[b]++; cst[b] += ms }
    else if (k == "cluster_stop") { stop[b] += ms
      if (match($6, /up [0-9.]+s/)) up[b] += substr($6, RSTART + 3, RLENGTH - 4) * 1000 }
    else if (k == "kube_start") { ks[b]++; kst[b] += ms }
    else if (k == "cc_double_start") { cc[b]++; cct[b] += ms }
    else if (k == "cluster_lock") { lk[b] += ms }
    else if (k == "wait_for") { wf[b] += ms }
    next
  }
  # Pass 2: cargo output.
  /^ *Running / {
    name = $0; sub(/^ *Running /, "", name); sub(/ \(.*$/, "", name)
    bin = name; sub(/^tests\//, "", bin); sub(/(\/main)?\.rs$/, "", bin)
    if (name ~ /^unittests /) { bin = name; sub(/^unittests /, "", bin); bin = "unit " bin }
    next
  }
  /^ *Doc-tests / { bin = "doc-tests"; next }
  /^test result:/ && bin != "" {
    n = $0; sub(/^test result: [a-zA-Z]+\. /, "", n); sub(/ passed.*/, "", n)
    f = $0; sub(/.*finished in /, "", f); sub(/s$/, "", f)
    if (!(bin in wall)) order[++count] = bin
    wall[bin] += f; tests[bin] += n; bin = ""
    next
  }
  END {
    key = "binary"
    print "| binary | tests | wall s | clusters (start s) | cluster up s | stop s | apiservers (start s) | CC doubles (start s) | waited for a cluster slot s | waits >= 1 s, sum s |"
    print "|---|---:|---:|---|---:|---:|---|---|---:|---:|"
    # slowest first
    for (i = 1; i <= count; i++) idx[i] = i
    for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++)
      if (wall[order[idx[j]]] > wall[order[idx[i]]]) { t = idx[i]; idx[i] = idx[j]; idx[j] = t }
    for (i = 1; i <= count; i++) {
      b = order[idx[i]]; tb = b; sub(/^unit .*/, "", tb)
      total += wall[b]
      printf "| %s | %d | %.1f | %s | %s | %s | %s | %s | %s | %s |\n", b, tests[b], wall[b],
        (cs[tb] ? sprintf("%d (%.0f)", cs[tb], cst[tb] / 1000) : ""),
        (up[tb] ? sprintf("%.0f", up[tb] / 1000) : ""),
        (stop[tb] ? sprintf("%.0f", stop[tb] / 1000) : ""),
        (ks[tb] ? sprintf("%d (%.0f)", ks[tb], kst[tb] / 1000) : ""),
        (cc[tb] ? sprintf("%d (%.0f)", cc[tb], cct[tb] / 1000) : ""),
        (lk[tb] ? sprintf("%.0f", lk[tb] / 1000) : ""),
        (wf[tb] ? sprintf("%.0f", wf[tb] / 1000) : "")
      ncs += cs[tb]; tcs += cst[tb]; tup += up[tb]
    }
    printf "| **all %d binaries** | | **%.0f** | %d (%.0f) | %.0f | | | | | |\n", count, total, ncs, tcs / 1000, tup / 1000
  }
' "$tsv" "$log"

# Per test module (tests named `module::test`, i.e. binaries made of modules), from the timing log
# alone: span is from the first cluster/apiserver start of the module to its last stop; modules of
# one binary overlap when it runs clusters side by side.
# (awk reads the whole file: `cut | grep -q` would end early and, under pipefail, fail on SIGPIPE.)
if [ "$tsv" != /dev/null ] && awk -F'\t' '$3 ~ /::/ { found = 1 } END { exit !found }' "$tsv"; then
  echo
  awk -F'\t' '
    $3 ~ /::/ {
      m = $2 " | " substr($3, 1, index($3, "::") - 1); k = $4; ms = $5; t = $1
      if (!(m in seen)) { seen[m] = 1; mods[++n] = m }
      begin = (k == "cluster_start" || k == "kube_start") ? t - ms : t
      if (!(m in first) || begin < first[m]) first[m] = begin
      if (!(m in last) || t > last[m]) last[m] = t
      if (k == "cluster_start") cs[m]++
      else if (k == "cluster_stop" && match($6, /up [0-9.]+s/)) up[m] += substr($6, RSTART + 3, RLENGTH - 4)
      else if (k == "cluster_lock") lk[m] += ms / 1000
      else if (k == "wait_for") wf[m] += ms / 1000
    }
    END {
      print "| binary | module | clusters | cluster up s | span s | waited for a cluster slot s | waits >= 1 s, sum s |"
      print "|---|---|---:|---:|---:|---:|---:|"
      for (i = 1; i <= n; i++) idx[i] = i
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (up[mods[idx[j]]] > up[mods[idx[i]]]) { x = idx[i]; idx[i] = idx[j]; idx[j] = x }
      for (i = 1; i <= n; i++) {
        m = mods[idx[i]]
        printf "| %s | %d | %.0f | %.0f | %.0f | %.0f |\n", m, cs[m], up[m], (last[m] - first[m]) / 1000, lk[m], wf[m]
      }
    }
  ' "$tsv"
  # The tests that keep a cluster up longest, with their longest single wait: what to shorten first.
  echo
  echo "| binary | test | cluster up s | waits >= 1 s, sum s | longest wait |"
  echo "|---|---|---:|---:|---|"
  awk -F'\t' '
    $3 ~ /::/ {
      t = $2 " | " $3; k = $4; ms = $5
      if (k == "cluster_stop" && match($6, /up [0-9.]+s/)) up[t] += substr($6, RSTART + 3, RLENGTH - 4)
      else if (k == "wait_for") { wf[t] += ms / 1000; if (ms > maxw[t]) { maxw[t] = ms; what[t] = $6 } }
    }
    END {
      for (t in up) printf "%012.1f| %s | %.0f | %.0f | %.1f s %s |\n", up[t], t, up[t], wf[t], maxw[t] / 1000, what[t]
    }
  ' "$tsv" | sort -r | head -20 | cut -d'|' -f2- | sed 's/^/|/'
fi

echo
echo "Steps (offsets from the start of test-all.sh):"
grep -E '^==> .* \(\+[0-9]+s\)$' "$log" || true
grep -E '^RC=|^WALL' "$log" || true
