#!/usr/bin/env bash
# Builds the tools the tests of the shipping files (tests/ship.rs: the Helm chart, the krew
# manifest, the alert rules and dashboard under examples/) need, from the Go module proxy, and
# caches them under $KAFKAOPS_TESTENV_CACHE/ship/<hash of the wrapper modules>/. A warm run builds
# nothing. Prints that directory on stdout. It holds:
#   helm                    Helm v4 (helm/: helm.sh/helm/v4/cmd/helm)
#   kubectl                 kubectl at the k8s.io version Helm uses (helm/kubectl/)
#   kubectl-krew            krew v0.4.3, and its own manifest validator
#   validate-krew-manifest  (krew/: sigs.k8s.io/krew/cmd/{krew,validate-krew-manifest})
#   promcheck               Prometheus' rule-file and PromQL parser, and its rule evaluation over
#                           a scenario of series (promcheck/)
#   crds/                   the ServiceMonitor, PodMonitor and PrometheusRule CRDs, generated with
#                           controller-gen from the Prometheus Operator's API types (monitoring/)
# Module and build caches are shared with kube/build.sh (../go.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
key="$(cd "$here" && cat helm/go.mod helm/go.sum helm/kubectl/main.go krew/go.mod krew/go.sum \
  monitoring/go.mod monitoring/go.sum monitoring/crds.go promcheck/go.mod promcheck/go.sum \
  promcheck/main.go build.sh ../go.sh | sha256sum | cut -c1-16)"
out="$cache/ship/$key"
crds="servicemonitors podmonitors prometheusrules"
complete() {
  for b in helm kubectl kubectl-krew validate-krew-manifest promcheck; do [ -x "$out/$b" ] || return 1; done
  for c in $crds; do [ -s "$out/crds/monitoring.coreos.com_$c.yaml" ] || return 1; done
}
if complete; then
  echo "$out"
  exit 0
fi
. "$here/../go.sh"
mkdir -p "$cache/ship"
exec 9>"$cache/ship/build.lock"
flock 9
if complete; then echo "$out"; exit 0; fi
tmp="$out.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp/crds"
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
build() { # module dir, output name, package, extra ldflags
  local t0; t0=$(date +%s)
  (cd "$here/$1" && nice -n 19 go build -trimpath -ldflags "-s -w ${4:-}" -o "$tmp/$2" "$3")
  echo "ship/build.sh: $2 in $(( $(date +%s) - t0 )) s" >&2
}
build helm helm helm.sh/helm/v4/cmd/helm "-X helm.sh/helm/v4/internal/version.version=v4.3.1"
build helm kubectl ./kubectl
# No version stamped: krew then counts as a development build and never checks GitHub for a newer
# release (the tests reach no network but the loopback).
build krew kubectl-krew sigs.k8s.io/krew/cmd/krew
build krew validate-krew-manifest sigs.k8s.io/krew/cmd/validate-krew-manifest
build promcheck promcheck .
build monitoring controller-gen sigs.k8s.io/controller-tools/cmd/controller-gen
# The CRDs as the Prometheus Operator generates them (its Makefile: controller-gen crd on
# pkg/apis/monitoring/v1), run in the module that requires those types.
(cd "$here/monitoring" && "$tmp/controller-gen" crd:crdVersions=v1,allowDangerousTypes=true \
  paths=github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1 \
  output:crd:dir="$tmp/crds.all")
for c in $crds; do mv "$tmp/crds.all/monitoring.coreos.com_$c.yaml" "$tmp/crds/"; done
rm -rf "$tmp/crds.all" "$tmp/controller-gen"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "ship/build.sh: built helm, kubectl, krew, its validator, promcheck and the monitoring CRDs in $(( $(date +%s) - start )) s into $out" >&2
echo "$out"
