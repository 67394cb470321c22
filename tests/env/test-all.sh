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
# A fresh checkout builds kafkaops from scratch: incremental compilation would only write caches.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

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

# The binaries that start Kafka clusters are most of the time and mostly wait (on Kafka, on
# kafkaops' safety waits), so they start first, side by side in the background; lints, the rest of
# the build and the other binaries run meanwhile. The harness's cluster slots are file locks shared
# by every test process (tests/support/kafka.rs), so the two binaries together run at most
# KAFKAOPS_TEST_CLUSTERS clusters at once: 3 here (the harness's default for a developer's
# `cargo test` stays 2). Three clusters of the largest kind (7 JVMs) take ~3.3 GiB, and a cluster
# test mostly waits, so a third one on 2 cores cut the run from 1,129 s to 965 s, green
# (tests/env/README.md); `KAFKAOPS_TEST_CLUSTERS=2 .ci/run` is the fallback on a smaller host.
export KAFKAOPS_TEST_CLUSTERS="${KAFKAOPS_TEST_CLUSTERS:-3}"
logs=$(mktemp -d "${TMPDIR:-/tmp}/kafkaops-test-all.XXXXXX")
# Whatever way this script ends (a lint fails while the clusters run, Ctrl-C), nothing it started
# keeps running: the test binaries' JVMs die with them (PR_SET_PDEATHSIG in the harness).
cleanup() {
  local rc=$? victims
  if [ "$rc" != 0 ]; then
    victims=$(ours || true)
    [ -z "$victims" ] || kill -TERM $victims 2>/dev/null || true
  fi
  rm -rf "$logs"
}
trap cleanup EXIT
background=(cluster kube)
# Every cluster test waits for its slot from the start, so the slots' queue (longest first, the
# kube binary's tests before them; tests/support/slots.rs), not libtest's name order, decides what
# runs next: no long test starts last. A waiting test holds nothing but its thread. The kube
# binary stays at two: each of its tests starts an apiserver before it waits.
threads_cluster=64
threads_kube=2

# Lints inside the build: clippy-driver wraps rustc for kafkaops' own targets (as `cargo clippy`
# does for a check; dependencies are compiled as usual), so the crate is parsed, type-checked and
# linted once, not once for clippy and once more for the build. `-D warnings` through clippy's
# CLIPPY_ARGS; should a clippy version stop reading it, the warnings would be printed, and
# `build_linted` fails on any warning anyway.
export RUSTC_WORKSPACE_WRAPPER="${RUSTC_WORKSPACE_WRAPPER-$(rustc --print sysroot)/bin/clippy-driver}"
export CLIPPY_ARGS="${CLIPPY_ARGS--D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__}"
build_linted() {
  local out="$logs/build.log"
  cargo test --locked --no-run "$@" 2>&1 | tee "$out"
  if grep -q '^warning' "$out"; then
    echo "the build printed warnings (clippy's lints run with -D warnings)" >&2
    return 1
  fi
}

step "build the cluster and kube tests (with clippy's lints)"
build_linted --test cluster --test kube

step "cargo test --test cluster, --test kube (in the background, output in $logs)"
declare -A pids
for bin in "${background[@]}"; do
  threads_var="threads_$bin"
  cargo test --locked --no-fail-fast --test "$bin" -- --test-threads "${!threads_var}" \
    >"$logs/$bin.log" 2>&1 &
  pids[$bin]=$!
done

step "build every other target (with clippy's lints)"
build_linted --all-targets

step "cargo test (everything but cluster and kube)"
others=()
for main in tests/*/main.rs; do
  bin=${main#tests/}; bin=${bin%/main.rs}
  case " ${background[*]} " in *" $bin "*) ;; *) others+=(--test "$bin") ;; esac
done
failed=()
cargo test --locked --no-fail-fast --lib --bins --examples --benches "${others[@]}" ||
  failed+=("${others[*]} and the unit tests")

step "cargo doc (the crate's own documentation, warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --lib || failed+=("cargo doc")

for bin in "${background[@]}"; do
  step "cargo test --test $bin (waiting for it)"
  rc=0; wait "${pids[$bin]}" || rc=$?
  cat "$logs/$bin.log"
  [ "$rc" = 0 ] || failed+=("$bin")
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "test binaries failed: ${failed[*]}" >&2
  exit 1
fi

step "no orphan processes"
left=$(ours | while read -r pid; do ps -o pid=,args= -p "$pid" 2>/dev/null | grep -E 'java|kafka' ; done || true)
if [ -n "$left" ]; then
  echo "processes started by this suite are still running after it:" >&2
  echo "$left" >&2
  echo "$left" | awk '{print $1}' | xargs -r kill -9 || true
  exit 1
fi
step "all tests passed"
