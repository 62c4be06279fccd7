#!/usr/bin/env bash
# The CI fuzz smoke: every target for SECONDS (default 60), one at a time, from corpora seeded
# by seed.sh. Installs cargo-fuzz if it is missing; if that is impossible (no registry), says so
# and exits 0, since the regression corpus (tests/regressions) still runs under cargo test.
# Exits non-zero on any finding.
set -uo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
secs="${1:-60}"
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz smoke: installing cargo-fuzz"
  if ! cargo install cargo-fuzz --version 0.13.2 --locked >/tmp/cargo-fuzz-install.log 2>&1; then
    tail -5 /tmp/cargo-fuzz-install.log
    echo "fuzz smoke: cargo-fuzz could not be installed; skipped (tests/regressions still runs)"
    exit 0
  fi
fi
"$fuzz/seed.sh"
"$fuzz/run.sh" "$secs"
rc=$?
echo "fuzz smoke: $(wc -l <"$fuzz/logs/stats.tsv") runs recorded in fuzz/logs/stats.tsv; exit $rc"
exit $rc
