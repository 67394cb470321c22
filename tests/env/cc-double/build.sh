#!/usr/bin/env bash
# Builds the Cruise Control test double (a small Java 17 program) once per source version.
#
# Output: ~/.cache/kafkaops-testenv/cc-double/<content-hash>/{cc-double.jar,libs/}. The hash covers pom.xml
# and src/, so a warm run is a no-op and any source change rebuilds. Safe to run concurrently (flock).
# Prints the output directory as the last line on stdout; run the double with
#   java -cp "<dir>/cc-double.jar:<dir>/libs/*" dev.kafkaops.ccdouble.Main --bootstrap-servers H:P
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
out="$cache/cc-double"
mkdir -p "$out"

hash="$(cd "$here" && find pom.xml src -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
dest="$out/$hash"

exec 9>"$out/.lock"
flock 9

if [[ -f "$dest/.built" ]]; then
    touch "$dest"   # recently used builds are kept (see the cleanup below)
    echo "$dest"
    exit 0
fi

if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
    echo "cc-double: installing openjdk-17-jdk-headless and maven" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless maven >&2
fi

tmp="$(mktemp -d "$out/build.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
cp -r "$here/pom.xml" "$here/src" "$tmp/"
# Maven 3.8 still emits colour resets in batch mode; strip them from what reaches the terminal.
mvn -q -B -Dstyle.color=never -Dmaven.repo.local="$cache/m2" -f "$tmp/pom.xml" \
    package dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp/libs" 2>&1 |
    sed -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d' >&2
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "cc-double: maven build failed" >&2; exit 1; }
rm -rf "$dest.partial"
mkdir -p "$dest.partial"
cp "$tmp/target/cc-double.jar" "$dest.partial/"
cp -r "$tmp/libs" "$dest.partial/libs"
touch "$dest.partial/.built"
rm -rf "$dest"
mv "$dest.partial" "$dest"
# Several worktrees (other source versions) share this cache and may be running their build right
# now, so only builds unused for two days are removed.
find "$out" -mindepth 1 -maxdepth 1 -type d -regextype posix-extended -regex '.*/[0-9a-f]{16}' \
    ! -name "$hash" -mtime +2 -exec rm -rf {} +
echo "$dest"
