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
key="$(cd "$here" && cat apiserver/go.mod apiserver/go.sum apiserver/main.go apiserver/fakekubelet/main.go etcd/go.mod etcd/go.sum etcd/main.go build.sh 2>/dev/null | sha256sum | cut -c1-16)"
out="$cache/kube/$key"
if [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ] && [ -x "$out/fake-kubelet" ]; then
  echo "$out"
  exit 0
fi
# Go >= 1.26: the one on the PATH when it is new enough, else the toolchain the Go module proxy serves
# (golang.org/toolchain, the same zip `GOTOOLCHAIN` downloads), unpacked once into the cache. A fresh
# machine without Go therefore needs nothing but curl and unzip.
go_ok() { "$1" version 2>/dev/null | grep -Eq 'go1\.(2[6-9]|[3-9][0-9])'; }
if command -v go >/dev/null && go_ok go; then
  :
else
  toolchain=go1.26.8
  arch=$(uname -m); case "$arch" in x86_64) arch=amd64 ;; aarch64) arch=arm64 ;; esac
  gohome="$cache/go-toolchain/$toolchain"
  if ! go_ok "$gohome/bin/go"; then
    mkdir -p "$cache/go-toolchain"
    zip="$cache/go-toolchain/$toolchain.zip"
    url="${GOPROXY_URL:-https://proxy.golang.org}/golang.org/toolchain/@v/v0.0.1-$toolchain.linux-$arch.zip"
    echo "kube/build.sh: no Go >= 1.26 on the PATH; fetching $toolchain from the Go module proxy" >&2
    curl -fsSL --retry 3 -o "$zip.part" "$url"
    mv "$zip.part" "$zip"
    rm -rf "$gohome.tmp"
    mkdir -p "$gohome.tmp"
    (cd "$gohome.tmp" && unzip -q "$zip")
    # The module zip holds golang.org/toolchain@v0.0.1-<version>/ with the Go tree inside.
    rm -rf "$gohome"
    mv "$gohome.tmp"/golang.org/toolchain@*/ "$gohome"
    rm -rf "$gohome.tmp" "$zip"
    chmod +x "$gohome"/bin/* "$gohome"/pkg/tool/*/* 2>/dev/null || true
  fi
  export GOROOT="$gohome" PATH="$gohome/bin:$PATH"
fi
export GOTOOLCHAIN=local
mkdir -p "$cache/kube"
exec 9>"$cache/kube/build.lock"
flock 9
if [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ] && [ -x "$out/fake-kubelet" ]; then echo "$out"; exit 0; fi
export GOMODCACHE="$cache/go/mod" GOCACHE="$cache/go/build" GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0
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
