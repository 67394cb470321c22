#!/usr/bin/env bash
# Builds the test apiserver, etcd and the fake kubelet (tests/env/kube/{apiserver,etcd,
# apiserver/fakekubelet}) from the Go module proxy and caches them under
# $KAFKAOPS_TESTENV_CACHE/kube/<hash of the wrapper modules>/. A warm run (same go.mod/go.sum/main.go)
# builds nothing. Module and build caches live under the same cache directory
# so CI can keep them. Prints the directory holding `kube-apiserver`, `etcd` and `fake-kubelet` on
# stdout.
# Needs Go >= 1.26 (k8s.io/kubernetes v1.37 declares go 1.26.0).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
key="$(cd "$here" && cat apiserver/go.mod apiserver/go.sum apiserver/main.go apiserver/fakekubelet/main.go etcd/go.mod etcd/go.sum etcd/main.go build.sh ../go.sh 2>/dev/null | sha256sum | cut -c1-16)"
out="$cache/kube/$key"
if [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ] && [ -x "$out/fake-kubelet" ]; then
  echo "$out"
  exit 0
fi
# Go >= 1.26 and the module/build caches under $cache (../go.sh).
. "$here/../go.sh"
mkdir -p "$cache/kube"
exec 9>"$cache/kube/build.lock"
flock 9
if [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ] && [ -x "$out/fake-kubelet" ]; then echo "$out"; exit 0; fi
tmp="$out.tmp.$$"
mkdir -p "$tmp"
start=$(date +%s)
ver=k8s.io/component-base/version
(cd "$here/etcd" && nice -n 19 go build -trimpath -ldflags "-s -w" -o "$tmp/etcd" .)
(cd "$here/apiserver" && nice -n 19 go build -trimpath \
  -ldflags "-s -w -X $ver.gitVersion=v1.37.2 -X $ver.gitMajor=1 -X $ver.gitMinor=37" \
  -o "$tmp/kube-apiserver" .)
# The fake kubelet (port-forward only) lives in the apiserver's module: same dependency versions.
(cd "$here/apiserver" && nice -n 19 go build -trimpath -ldflags "-s -w" -o "$tmp/fake-kubelet" ./fakekubelet)
rm -rf "$out"
mv "$tmp" "$out"
echo "kube/build.sh: built kube-apiserver, etcd and fake-kubelet in $(( $(date +%s) - start )) s into $out" >&2
echo "$out"
