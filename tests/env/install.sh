#!/usr/bin/env bash
# Installs what building and testing kafkaops needs on a fresh Debian machine, then prepares the
# test environment (Kafka jars from Maven Central, the Cruise Control test double), all cached
# under ~/.cache/kafkaops-testenv. Idempotent: a warm run installs and downloads nothing.
#
# `install.sh --demo` installs only what examples/local-demo.sh uses (the Debian packages, the Kafka
# classpath and the Cruise Control test double); the Kubernetes and shipping tools are for the tests.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
demo_only=false
case "${1:-}" in
  --demo) demo_only=true ;;
  "") ;;
  *) echo "usage: install.sh [--demo]" >&2; exit 2 ;;
esac
export KAFKAOPS_TESTENV_CACHE="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
mkdir -p "$KAFKAOPS_TESTENV_CACHE"

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v java >/dev/null || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || need+=(maven)
command -v keytool >/dev/null || need+=(openjdk-17-jdk-headless)
command -v openssl >/dev/null || need+=(openssl)
[ -x /usr/bin/time ] || need+=(time)
for h in curl/curl.h openssl/ssl.h zlib.h; do
  [ -e "/usr/include/$h" ] || [ -e "/usr/include/x86_64-linux-gnu/$h" ] || case "$h" in
    curl/*) need+=(libcurl4-openssl-dev) ;;
    openssl/*) need+=(libssl-dev) ;;
    zlib.h) need+=(zlib1g-dev) ;;
  esac
done
if [ ${#need[@]} -gt 0 ]; then
  echo "install.sh: installing Debian packages: ${need[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v cargo >/dev/null; then
  echo "install.sh: cargo not found. Install Rust 1.89+ with rustup (Debian's rustc is too old for edition 2024)." >&2
  exit 2
fi

# Kafka runtime classpath and the Cruise Control test double (each script is idempotent and cached).
# (Their stdout is the path they prepared: keep it off this script's stdout, which callers such as
# examples/local-demo.sh keep for results.)
"$here/setup.sh" >&2
# The older Kafka release the upgrade tests start from (tests/cluster/kraft_lifecycle.rs, tests/cluster/kraft_cli.rs).
"$here/setup.sh" previous >&2
"$here/cc-double/build.sh" >&2
if $demo_only; then
  exit 0
fi
# kube-apiserver and etcd for the Kubernetes tests (tests/kube/kube_roll.rs), built from the Go module
# proxy and cached by the hash of their wrapper modules (cold ~8 CPU-minutes, warm 0.02 s). Without Go
# >= 1.26 on the PATH, build.sh fetches the Go toolchain from the module proxy first.
"$here/kube/build.sh" >&2
# Helm, kubectl, krew and its manifest validator, Prometheus' rule parser and the Prometheus
# Operator's CRDs for the tests of the shipping files (tests/kube/ship.rs), built from the Go module
# proxy and cached the same way (cold ~7.5 min wall on 2 cores with module downloads, warm 0.03 s).
"$here/ship/build.sh" >&2
# The glibc-only root filesystem the image test runs the binary from (Debian's packages, cached).
"$here/image/base.sh" >&2
