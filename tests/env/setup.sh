#!/usr/bin/env bash
# Installs a real Apache Kafka 4.x (jars from Maven Central) for kafkaops' integration tests.
#
#   tests/env/setup.sh            # prints the install dir (…/kafka-<version>) on stdout
#
# Result: $CACHE/kafka-<version>/{libs/*.jar, agents/jolokia-agent.jar, config/log4j2.yaml, .complete}
# with CACHE=${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}. The Maven repository lives in
# $CACHE/m2, so a second run downloads nothing; once .complete matches this directory's pom.xml and
# log4j2.yaml the script returns immediately. Safe to run concurrently (flock on $CACHE/setup.lock).
# Java 17+ and Maven are installed from Debian packages (apt-get) only when missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
version="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml")"
jolokia="$(sed -n 's:.*<jolokia.version>\(.*\)</jolokia.version>.*:\1:p' "$here/pom.xml")"
dest="$cache/kafka-$version"
stamp="$(cat "$here/pom.xml" "$here/log4j2.yaml" | sha256sum | cut -d' ' -f1)"

log() { echo "setup.sh: $*" >&2; }

if [[ -f "$dest/.complete" && "$(cat "$dest/.complete")" == "$stamp" ]]; then
  echo "$dest"
  exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/setup.lock"
flock 9
# Another process may have finished the install while we waited for the lock.
if [[ -f "$dest/.complete" && "$(cat "$dest/.complete")" == "$stamp" ]]; then
  echo "$dest"
  exit 0
fi

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
java_major() { java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }
need_pkgs=()
if ! command -v java >/dev/null || [[ "$(java_major)" -lt 17 ]]; then need_pkgs+=(openjdk-17-jdk-headless); fi
if ! command -v mvn >/dev/null; then need_pkgs+=(maven); fi
if ((${#need_pkgs[@]})); then
  log "installing ${need_pkgs[*]} with apt-get"
  as_root apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q "${need_pkgs[@]}" >&2
fi

log "resolving org.apache.kafka:kafka_2.13:$version into $dest"
tmp="$(mktemp -d "$cache/.kafka-$version.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
# Maven 3.8 still emits colour resets in batch mode; strip them from what reaches the terminal.
mvn_() {
  mvn -B -q -Dstyle.color=never -f "$here/pom.xml" -Dmaven.repo.local="$cache/m2" "$@" 2>&1 |
    sed -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d' >&2
  return "${PIPESTATUS[0]}"
}
mvn_ dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp/libs"
mvn_ dependency:copy -Dartifact="org.jolokia:jolokia-agent-jvm:$jolokia:jar:javaagent" \
  -DoutputDirectory="$tmp/agents" -Dmdep.stripVersion=true -Dmdep.stripClassifier=true
mv "$tmp/agents/jolokia-agent-jvm.jar" "$tmp/agents/jolokia-agent.jar"
mkdir -p "$tmp/config"
cp "$here/log4j2.yaml" "$tmp/config/log4j2.yaml"
echo "$stamp" >"$tmp/.complete"

rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
log "installed $(ls "$dest/libs" | wc -l) jars"
echo "$dest"
