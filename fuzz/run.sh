#!/usr/bin/env bash
# Runs fuzz targets one after another, one process each (the machine is shared), built in
# release mode with debug assertions and overflow checks (-O -a):
#   fuzz/run.sh SECONDS [TARGET...]      (default: all targets, every fuzz_targets/*.rs)
# Logs go to fuzz/logs/TARGET.log (git-ignored); the last libFuzzer stats line of each run is
# appended to fuzz/logs/stats.tsv as: date, target, seconds run, executions, exit code
# (exit code 0: no finding; otherwise the crashing input is in fuzz/artifacts/TARGET/).
# Exits non-zero if any target failed to build or found something.
set -uo pipefail
# The whole script is one function, read before it runs, so editing this file while a run is
# in progress does not disturb it.
main() {
  fuzz="$(cd "$(dirname "$0")" && pwd)"
  secs="${1:?seconds per target}"
  shift
  targets=("$@")
  if [ ${#targets[@]} -eq 0 ]; then
    for f in "$fuzz"/fuzz_targets/*.rs; do targets+=("$(basename "$f" .rs)"); done
  fi
  mkdir -p "$fuzz/logs"
  cd "$fuzz"
  failed=0
  for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    RUSTC_BOOTSTRAP=1 cargo fuzz build -O -a "$t" >"logs/$t.build.log" 2>&1 || { echo "$t: build failed (logs/$t.build.log)"; failed=1; continue; }
    start=$(date +%s)
    RUSTC_BOOTSTRAP=1 cargo fuzz run -O -a "$t" "corpus/$t" -- \
      -max_total_time="$secs" -max_len=16384 -rss_limit_mb=2048 -timeout=10 \
      -print_final_stats=1 -artifact_prefix="artifacts/$t/" >"logs/$t.log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | tail -1 | grep -o '[0-9]*$')
    ran=$(grep -o 'Done [0-9]* runs in [0-9]* second' "logs/$t.log" | tail -1 | awk '{print $5}')
    ran=${ran:-$(($(date +%s) - start))}
    printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$ran" "${execs:-?}" "$rc" >>logs/stats.tsv
    echo "$t: rc=$rc execs=${execs:-?} seconds=$ran"
    if [ "$rc" -ne 0 ]; then
      failed=1
      grep -E "panicked|ERROR: libFuzzer|SUMMARY|Test unit written" "logs/$t.log" | head -5 || true
    fi
  done
  exit "$failed"
}
main "$@"
exit
