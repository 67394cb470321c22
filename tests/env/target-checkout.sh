#!/usr/bin/env bash
# Sourced by tests/env/test-all.sh and examples/local-demo.sh after CARGO_TARGET_DIR is set.
#
# The target directory is cached under ~/.cache/kafkaops-testenv and shared by every checkout of
# kafkaops on the machine (CI's fresh clones included), so dependencies (librdkafka above all) are
# compiled once. Cargo, however, judges whether kafkaops itself is up to date from the files its
# dep-info lists, by absolute path: a target dir last built from another checkout looks fresh and
# would run that checkout's code. When the checkout changes, only kafkaops' own artifacts are removed
# (dependencies stay cached), so what runs is always built from this checkout.
kafkaops_target_for_checkout() {
  local root="$1" marker="$CARGO_TARGET_DIR/.kafkaops-checkout"
  mkdir -p "$CARGO_TARGET_DIR"
  if [ "$(cat "$marker" 2>/dev/null)" != "$root" ]; then
    echo "target dir $CARGO_TARGET_DIR was last built from another checkout: rebuilding kafkaops itself" >&2
    cargo clean -p kafkaops --quiet >&2 || true
    printf '%s\n' "$root" >"$marker"
  fi
}
