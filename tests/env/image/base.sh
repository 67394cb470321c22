#!/usr/bin/env bash
# The base of the image test (tests/ship.rs): a root filesystem made of Debian's packages of
# glibc alone (libc6, and base-files for the directory layout), standing in for
# gcr.io/distroless/cc, onto which the test lays out examples/image/stage.sh's output. Less than
# distroless has, on purpose: whatever else the binary needs must come from stage.sh.
# The packages are fetched once with `apt-get download` (the host's Debian release) and unpacked
# with dpkg-deb under $KAFKAOPS_TESTENV_CACHE/image/<hash>/root; a warm run does nothing. Prints
# that directory.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
packages="libc6 base-files"
key="$( (cat "$here/base.sh"; . /etc/os-release; echo "$ID $VERSION_ID $(dpkg --print-architecture)") | sha256sum | cut -c1-16)"
out="$cache/image/$key"
if [ -e "$out/.complete" ]; then echo "$out/root"; exit 0; fi
mkdir -p "$cache/image"
exec 9>"$cache/image/build.lock"
flock 9
if [ -e "$out/.complete" ]; then echo "$out/root"; exit 0; fi
tmp="$out.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp/debs" "$tmp/root"
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
if ! (cd "$tmp/debs" && apt-get download $packages >/dev/null 2>&1); then
  # No package lists yet (a fresh machine): fetch them once.
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  (cd "$tmp/debs" && apt-get download $packages >/dev/null)
fi
for deb in "$tmp"/debs/*.deb; do dpkg-deb -x "$deb" "$tmp/root"; done
ls "$tmp/debs" > "$tmp/packages"
touch "$tmp/.complete"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "$out/root"
