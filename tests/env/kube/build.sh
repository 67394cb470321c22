#!/usr/bin/env bash
# Builds the test apiserver and etcd (tests/env/kube/{apiserver,etcd}) from the Go module proxy and
# caches them under $KAFKAOPS_TESTENV_CACHE/kube/<hash of the wrapper modules>/. A warm run (same
# go.mod/go.sum/main.go) builds nothing. Module and build caches live under the same cache directory
# so CI can keep them. Prints the directory holding `kube-apiserver` and `etcd` on stdout.
# Needs Go >= 1.26 (k8s.io/kubernetes v1.37 declares go 1.26.0).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
key="$(cd "$here" && cat apiserver/go.mod apiserver/go.sum apiserver/main.go etcd/go.mod etcd/go.sum etcd/main.go build.sh 2>/dev/null | sha256sum | cut -c1-16)"
out="$cache/kube/$key"
if [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ]; then
  echo "$out"
  exit 0
fi
if ! command -v go >/dev/null; then
  echo "kube/build.sh: go not found; install Go >= 1.26 (https://go.dev/dl/) to build the test apiserver" >&2
  exit 2
fi
mkdir -p "$cache/kube"
exec 9>"$cache/kube/build.lock"
flock 9
if [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ]; then echo "$out"; exit 0; fi
export GOMODCACHE="$cache/go/mod" GOCACHE="$cache/go/build" GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0
tmp="$out.tmp.$$"
mkdir -p "$tmp"
start=$(date +%s)
ver=k8s.io/component-base/version
(cd "$here/etcd" && nice -n 19 go build -trimpath -ldflags "-s -w" -o "$tmp/etcd" .)
(cd "$here/apiserver" && nice -n 19 go build -trimpath \
  -ldflags "-s -w -X $ver.gitVersion=v1.37.2 -X $ver.gitMajor=1 -X $ver.gitMinor=37" \
  -o "$tmp/kube-apiserver" .)
rm -rf "$out"
mv "$tmp" "$out"
echo "kube/build.sh: built kube-apiserver and etcd in $(( $(date +%s) - start )) s into $out" >&2
echo "$out"
