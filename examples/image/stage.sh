#!/bin/sh
# Lays out what the kafkaops image adds to its base (gcr.io/distroless/cc: glibc, libgcc, CA
# certificates, the user nonroot 65532, no shell): the binary as /usr/local/bin/kafkaops and every
# shared library it links except glibc's own, at the path the dynamic linker found it, so that any
# glibc base of the same Debian release runs it (librdkafka links zlib, which some distroless
# releases lack).
#
#   examples/image/stage.sh BINARY ROOT
#
# The Containerfile runs it in its build stage (ROOT=/out, copied onto the base); tests/kube/ship.rs
# runs it on the test build to make the same layout on a root made of Debian's glibc alone.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BINARY ROOT" >&2; exit 2; }
bin=$1 root=$2
mkdir -p "$root/usr/local/bin"
cp "$bin" "$root/usr/local/bin/kafkaops"
chmod 0755 "$root/usr/local/bin/kafkaops"
# ldd's "name => /path (address)" lines; the vDSO and the loader have no "=> /path".
ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r name path; do
  case "$name" in
    # glibc (the base image's, and it must match its loader).
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|ld-linux*) continue ;;
  esac
  mkdir -p "$root$(dirname "$path")"
  # -L: the file, not the symlink the soname is.
  cp -L "$path" "$root$path"
  echo "$path"
done
