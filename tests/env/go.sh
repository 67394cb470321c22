# Sourced by the build scripts of Go tools for the tests (kube/build.sh, ship/build.sh): makes
# Go >= 1.26 the `go` on the PATH (the one installed when it is new enough, else the toolchain the
# Go module proxy serves, golang.org/toolchain, the same zip `GOTOOLCHAIN` downloads, unpacked
# once into the cache: a fresh machine without Go needs nothing but curl and unzip) and points
# the module and build caches into the test cache, so CI can keep them.
# Expects $cache (the test cache directory). k8s.io/kubernetes v1.37 declares go 1.26.0.
kafkaops_go_ok() { "$1" version 2>/dev/null | grep -Eq 'go1\.(2[6-9]|[3-9][0-9])'; }
if ! { command -v go >/dev/null && kafkaops_go_ok go; }; then
  kafkaops_toolchain=go1.26.8
  kafkaops_arch=$(uname -m); case "$kafkaops_arch" in x86_64) kafkaops_arch=amd64 ;; aarch64) kafkaops_arch=arm64 ;; esac
  kafkaops_gohome="$cache/go-toolchain/$kafkaops_toolchain"
  if ! kafkaops_go_ok "$kafkaops_gohome/bin/go"; then
    mkdir -p "$cache/go-toolchain"
    (
      flock 8
      if ! kafkaops_go_ok "$kafkaops_gohome/bin/go"; then
        zip="$cache/go-toolchain/$kafkaops_toolchain.zip"
        url="${GOPROXY_URL:-https://proxy.golang.org}/golang.org/toolchain/@v/v0.0.1-$kafkaops_toolchain.linux-$kafkaops_arch.zip"
        echo "go.sh: no Go >= 1.26 on the PATH; fetching $kafkaops_toolchain from the Go module proxy" >&2
        curl -fsSL --retry 3 -o "$zip.part" "$url"
        mv "$zip.part" "$zip"
        rm -rf "$kafkaops_gohome.tmp"
        mkdir -p "$kafkaops_gohome.tmp"
        (cd "$kafkaops_gohome.tmp" && unzip -q "$zip")
        # The module zip holds golang.org/toolchain@v0.0.1-<version>/ with the Go tree inside.
        rm -rf "$kafkaops_gohome"
        mv "$kafkaops_gohome.tmp"/golang.org/toolchain@*/ "$kafkaops_gohome"
        rm -rf "$kafkaops_gohome.tmp" "$zip"
        chmod +x "$kafkaops_gohome"/bin/* "$kafkaops_gohome"/pkg/tool/*/* 2>/dev/null || true
      fi
    ) 8>"$cache/go-toolchain/fetch.lock"
  fi
  export GOROOT="$kafkaops_gohome" PATH="$kafkaops_gohome/bin:$PATH"
fi
export GOTOOLCHAIN=local
export GOMODCACHE="$cache/go/mod" GOCACHE="$cache/go/build" GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0
