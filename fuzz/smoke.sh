#!/usr/bin/env bash
# The CI fuzz smoke: every target built, then each run on its corpus (seeded by seed.sh from the
# golden files and tests/regressions) and fuzzed for an equal share of a total budget:
#   fuzz/smoke.sh [TOTAL_SECONDS]       (default 300, shared by every fuzz_targets/*.rs)
# The share never drops below 10 seconds a target. Installs cargo-fuzz if it is missing; if that
# is impossible (no registry), says so and exits 0, since the regression corpus
# (tests/regressions) still runs under cargo test. Exits non-zero on any finding.
set -uo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
total="${1:-300}"
targets=()
for f in "$fuzz"/fuzz_targets/*.rs; do targets+=("$(basename "$f" .rs)"); done
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz smoke: installing cargo-fuzz"
  if ! cargo install cargo-fuzz --version 0.13.2 --locked >/tmp/cargo-fuzz-install.log 2>&1; then
    tail -5 /tmp/cargo-fuzz-install.log
    echo "fuzz smoke: cargo-fuzz could not be installed; skipped (tests/regressions still runs)"
    exit 0
  fi
fi
"$fuzz/seed.sh" >/dev/null
# Every target in one cargo invocation, so that the shared code is built once and the targets
# are compiled side by side; run.sh's per-target build is then a no-op.
mkdir -p "$fuzz/logs"
start=$(date +%s)
if ! (cd "$fuzz" && RUSTC_BOOTSTRAP=1 cargo fuzz build -O -a) >"$fuzz/logs/build.log" 2>&1; then
  tail -20 "$fuzz/logs/build.log"
  echo "fuzz smoke: the targets did not build (fuzz/logs/build.log)"
  exit 1
fi
echo "fuzz smoke: ${#targets[@]} targets built in $(($(date +%s) - start)) s"
share=$((total / ${#targets[@]}))
[ "$share" -lt 10 ] && share=10
"$fuzz/run.sh" "$share" "${targets[@]}"
rc=$?
echo "fuzz smoke: ${#targets[@]} targets, $share s each; $(wc -l <"$fuzz/logs/stats.tsv") runs recorded in fuzz/logs/stats.tsv; exit $rc"
exit $rc
