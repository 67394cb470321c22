#!/usr/bin/env bash
# Makes kafkaops' release artefacts for one target, in OUT (default dist/):
#
#   kafkaops-v<version>-<target>.tar.gz         kafkaops, LICENSE, README.md, completions/, man/
#   kafkaops-v<version>-<target>.tar.gz.sha256  its checksum (`sha256sum -c` format)
#   SHA256SUMS                                  the checksums of every archive in OUT
#   kafkaops.yaml                               the krew manifest (kafkaops.krew.yaml rendered):
#                                               one platform per archive in OUT, at BASE_URL
#
#   examples/release/package.sh --base-url https://github.com/OWNER/kafkaops/releases/download/v0.1.0
#   examples/release/package.sh --target aarch64-unknown-linux-gnu --base-url ...   # once per target, same OUT
#
# Without --binary it builds the release binary first: `cargo build --release --locked
# [--target TARGET]`, i.e. target/[TARGET/]release/kafkaops (lto = "fat": a few minutes).
# --binary PATH packages a binary built elsewhere (tests/kube/ship.rs packages its debug build).
# The archives are reproducible: sorted names, owner 0, mtime of the last commit (or
# SOURCE_DATE_EPOCH), gzip without a timestamp; the same binary gives the same checksum.
# Upload the archives and checksums to BASE_URL, then submit kafkaops.yaml to a krew index.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$top/examples/release"
out="$top/dist" target="" binary="" base_url="" homepage="${KAFKAOPS_HOMEPAGE:-}"
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --target) target="$2"; shift 2 ;;
    --binary) binary="$2"; shift 2 ;;
    --base-url) base_url="${2%/}"; shift 2 ;;
    --homepage) homepage="$2"; shift 2 ;;
    -h|--help) usage ;;
    *) echo "package.sh: unknown argument $1" >&2; usage ;;
  esac
done
[ -n "$base_url" ] || { echo "package.sh: --base-url (where the archives will be downloaded from) is required" >&2; exit 2; }
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$top/Cargo.toml" | head -n1)
[ -n "$version" ] || { echo "package.sh: no version in Cargo.toml" >&2; exit 2; }
[ -n "$target" ] || target=$(rustc -vV | sed -n 's/^host: //p')
if [ -z "$binary" ]; then
  (cd "$top" && cargo build --release --locked ${target:+--target "$target"})
  tdir="${CARGO_TARGET_DIR:-$top/target}"
  binary="$tdir/$target/release/kafkaops"
  [ -x "$binary" ] || binary="$tdir/release/kafkaops"
fi
[ -x "$binary" ] || { echo "package.sh: $binary is not an executable" >&2; exit 2; }
case "$target" in
  x86_64-*-linux-*) os=linux arch=amd64 ;;
  aarch64-*-linux-*) os=linux arch=arm64 ;;
  x86_64-apple-darwin) os=darwin arch=amd64 ;;
  aarch64-apple-darwin) os=darwin arch=arm64 ;;
  *) echo "package.sh: no krew platform for target $target" >&2; exit 2 ;;
esac
# The binary must be the version it is released as.
said=$("$binary" --version)
[ "$said" = "kafkaops $version" ] || { echo "package.sh: $binary says \"$said\", Cargo.toml says $version" >&2; exit 1; }

mkdir -p "$out"
name="kafkaops-v$version-$target"
stage=$(mktemp -d)
chmod 0755 "$stage"
trap 'rm -rf "$stage"' EXIT
install -m 0755 "$binary" "$stage/kafkaops"
install -m 0644 "$top/LICENSE" "$top/README.md" "$stage/"
cp -R "$top/completions" "$top/man" "$stage/"
epoch="${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || echo 0)}"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
  --format=gnu -cf - . | gzip -9n > "$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
(cd "$out" && cat kafkaops-v"$version"-*.tar.gz.sha256 > SHA256SUMS)

# The krew manifest: the template with one platform block per archive of this version in OUT.
[ -n "$homepage" ] || homepage=$(git -C "$top" remote get-url origin 2>/dev/null | sed 's/\.git$//') || true
[ -n "$homepage" ] || homepage="$base_url"
manifest="$out/kafkaops.yaml"
awk '/^# platform:begin$/ { exit } !body && /^#/ { next } { body = 1; print }' "$here/kafkaops.krew.yaml" \
  | sed -e "s|@VERSION@|$version|g" -e "s|@HOMEPAGE@|$homepage|g" > "$manifest.tmp"
block=$(awk '/^# platform:begin$/ { on = 1; next } /^# platform:end$/ { on = 0 } on' "$here/kafkaops.krew.yaml")
for sum in "$out"/kafkaops-v"$version"-*.tar.gz.sha256; do
  read -r sha file < "$sum"
  t=${file#kafkaops-v"$version"-}; t=${t%.tar.gz}
  case "$t" in
    x86_64-*-linux-*) o=linux a=amd64 ;;
    aarch64-*-linux-*) o=linux a=arm64 ;;
    x86_64-apple-darwin) o=darwin a=amd64 ;;
    aarch64-apple-darwin) o=darwin a=arm64 ;;
    *) continue ;;
  esac
  printf '%s\n' "$block" | sed -e "s|@OS@|$o|" -e "s|@ARCH@|$a|" -e "s|@URI@|$base_url/$file|" \
    -e "s|@SHA256@|$sha|" >> "$manifest.tmp"
done
mv "$manifest.tmp" "$manifest"
echo "package.sh: $out/$name.tar.gz ($os/$arch) sha256 $(cut -d' ' -f1 "$out/$name.tar.gz.sha256"); krew manifest $manifest" >&2
