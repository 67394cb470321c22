#!/usr/bin/env bash
# Installs a real Apache Kafka 4.x (jars from Maven Central) for kafkaops' integration tests.
#
#   tests/env/setup.sh            # prints the install dir (…/kafka-<version>-<stamp>) on stdout
#   tests/env/setup.sh previous   # the same for the older release upgrade tests start from
#   tests/env/setup.sh 4.2.0      # any release on Maven Central, by number
#
# The version numbers live in pom.xml: <kafka.version> (the default, what every test runs) and
# <kafka.previous.version> (a release with a lower latest metadata.version, for upgrade tests).
# Result: $CACHE/kafka-<version>-<stamp>/{libs/*.jar, agents/jolokia-agent.jar, config/log4j2.yaml,
# cds/kafka.jsa (class-data-sharing archive, best effort), .complete}
# with CACHE=${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}. The Maven repository lives in
# $CACHE/m2, so a second run downloads nothing; once .complete matches this directory's pom.xml and
# log4j2.yaml the script returns immediately. Safe to run concurrently (flock on $CACHE/setup.lock).
# Java 17+ and Maven are installed from Debian packages (apt-get) only when missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${KAFKAOPS_TESTENV_CACHE:-$HOME/.cache/kafkaops-testenv}"
pom_property() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$here/pom.xml"; }
case "${1:-current}" in
  current) version="$(pom_property kafka.version)" ;;
  previous) version="$(pom_property kafka.previous.version)" ;;
  [0-9]*.[0-9]*.[0-9]*) version="$1" ;;
  *) echo "usage: $0 [current|previous|X.Y.Z]" >&2; exit 2 ;;
esac
jolokia="$(pom_property jolokia.version)"
# Bump layout when this script changes what it puts into $dest.
layout=2
stamp="$( (echo "layout=$layout version=$version" && cat "$here/pom.xml" "$here/log4j2.yaml") | sha256sum | cut -d' ' -f1)"
# The stamp is part of the path: checkouts with different pom.xml/log4j2.yaml/layout (other
# branches, worktrees) get their own install and never replace one that is in use.
dest="$cache/kafka-$version-${stamp:0:12}"

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
# -Dkafka.version overrides the pom's property: one pom serves every release.
mvn_ -Dkafka.version="$version" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp/libs"
mvn_ dependency:copy -Dartifact="org.jolokia:jolokia-agent-jvm:$jolokia:jar:javaagent" \
  -DoutputDirectory="$tmp/agents" -Dmdep.stripVersion=true -Dmdep.stripClassifier=true
mv "$tmp/agents/jolokia-agent-jvm.jar" "$tmp/agents/jolokia-agent.jar"
mkdir -p "$tmp/config"
cp "$here/log4j2.yaml" "$tmp/config/log4j2.yaml"

rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
log "installed $(ls "$dest/libs" | wc -l) jars"

# A class-data-sharing archive of a started node roughly halves each JVM's start-up (measured
# 4.6 s -> 2.5 s to RUNNING for one node) and saves CPU on small hosts. The archive records the
# classpath, so it is dumped here, in the final location. Best effort: without it nodes start
# normally. JVM flags must match the harness (tests/support/kafka.rs, jvm_options).
cds_dump() {
  local work="$dest/cds-work" ports=() p pid i
  rm -rf "$work" "$dest/cds"
  mkdir -p "$work/data" "$dest/cds"
  while ((${#ports[@]} < 2)); do
    p=$((20000 + RANDOM % 30000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && [[ " ${ports[*]} " != *" $p "* ]]; then
      ports+=("$p")
    fi
  done
  cat >"$work/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${ports[1]}
listeners=PLAINTEXT://127.0.0.1:${ports[0]},CONTROLLER://127.0.0.1:${ports[1]}
advertised.listeners=PLAINTEXT://127.0.0.1:${ports[0]}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$work/data
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
PROPS
  local opts=(-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData
    "-Dlog4j2.configurationFile=$dest/config/log4j2.yaml" -cp "$dest/libs/*")
  java "${opts[@]}" kafka.tools.StorageTool format -t q1Sh-9_ISia_zwGINzRvyQ \
    -c "$work/server.properties" >"$work/format.log" 2>&1 || return 1
  java -XX:ArchiveClassesAtExit="$dest/cds/kafka.jsa" "${opts[@]}" kafka.Kafka \
    "$work/server.properties" >"$work/node.log" 2>&1 &
  pid=$!
  trap 'kill -9 $pid 2>/dev/null' EXIT
  for ((i = 0; i < 1200; i++)); do
    grep -q 'Kafka Server started' "$work/node.log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" || true
  trap - EXIT
  grep -q 'Kafka Server started' "$work/node.log" || return 1
  rm -rf "$work"
  [[ -s "$dest/cds/kafka.jsa" ]]
}
if cds_dump; then
  log "created the class-data-sharing archive $dest/cds/kafka.jsa"
else
  log "no class-data-sharing archive (nodes start without it); see $dest/cds-work"
  rm -rf "$dest/cds"
fi

echo "$stamp" >"$dest/.complete"
echo "$dest"
