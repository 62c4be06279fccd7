#!/usr/bin/env bash
# Re-takes every table of docs/performance.md at the checked-out commit, one after another,
# into one folder of raw outputs (default target/retake/COMMIT), and prints where it is.
#
#   GLAZE=/path/to/glaze benches/retake.sh [STAGE...]
#
# GLAZE is a checkout of stephenberry/glaze (tested at 8.1.0, 2eeb21dd); the Glaze baseline is
# built from it twice (-march=native and -march=x86-64) unless GLAZE_BENCH and GLAZE_BENCH_X86
# name existing builds. Without GLAZE and those two, the roundtrip stage is left out.
#
# Stages (all by default, in this order): roundtrip corpus rpc stdio serde boundary numeric
# streams pointer. Each writes STAGE.txt (what the bench prints) into the folder; `env.txt`
# records the date, commit, CPU, load and tool versions at the start. Instruction counts
# (callgrind, needs valgrind) go to corpus_instructions.txt and rpc_instructions.txt. Run it on a
# quiet host: the benches pair or alternate their sides, but a quiet host keeps the spread
# small. Every stage pins itself to CPU ${BENCH_CPU:-1}.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
commit=$(git rev-parse --short HEAD)
out=${RETAKE_DIR:-$root/target/retake/$commit}
mkdir -p "$out"
cpu=${BENCH_CPU:-1}
pin=(taskset -c "$cpu")
stages=("$@")
[[ ${#stages[@]} -gt 0 ]] || stages=(roundtrip corpus rpc stdio serde boundary numeric streams pointer)

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- src derive keys rpc benches examples || echo ' (with uncommitted changes)')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') ($(nproc) cpus)"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "rustc: $(rustc --version)"
  command -v clang++-19 >/dev/null && echo "clang: $(clang++-19 --version | head -n 1)"
  command -v valgrind >/dev/null && echo "valgrind: $(valgrind --version)"
} | tee "$out/env.txt"

timed() { # STAGE COMMAND...: runs COMMAND into STAGE.txt, printing the time it took
  local stage=$1 t0=$SECONDS
  shift
  echo "== $stage ..." >&2
  "$@" >"$out/$stage.txt" 2>"$out/$stage.log" || {
    echo "$stage failed; see $out/$stage.log" >&2
    return 1
  }
  echo "== $stage: $((SECONDS - t0)) s" >&2
}

# Instructions of the function `measured` over one run of COMMAND, from callgrind's totals.
instructions() {
  local f
  f=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$f" --toggle-collect='*measured*' "$@" \
    >/dev/null 2>&1
  awk '/^(summary|totals):/ { print $2; exit }' "$f"
  rm -f "$f"
}

roundtrip() {
  local native=${GLAZE_BENCH:-} x86=${GLAZE_BENCH_X86:-}
  if [[ -z "$native" || -z "$x86" ]]; then
    [[ -n "${GLAZE:-}" ]] || { echo "roundtrip: set GLAZE (or GLAZE_BENCH and GLAZE_BENCH_X86)" >&2; return 1; }
    native=$root/target/baseline-cpp/bench
    x86=$root/target/baseline-cpp/x86-64/bench
    baseline-cpp/build.sh "$GLAZE" "$native" >&2
    MARCH=-march=x86-64 baseline-cpp/build.sh "$GLAZE" "$x86" >&2
  fi
  echo "## native (structio target-cpu=native, Glaze -march=native)"
  GLAZE_BENCH=$native BENCH_CPU=$cpu benches/compare.sh
  echo "## x86-64 (both at the x86-64 baseline)"
  GLAZE_BENCH=$x86 NATIVE=0 BENCH_CPU=$cpu benches/compare.sh
}

corpus() {
  cargo build --release --example corpus_read >&2
  "${pin[@]}" cargo bench --bench corpus
}

corpus_instructions() {
  local exe=target/release/examples/corpus_read
  echo -e "read\tcalls\tinstructions per call"
  echo -e "tools_call\t1000\t$(($(instructions "$exe" tools_call 1000) / 1000))"
  for doc in twitter:4 citm_catalog:4 canada:2; do
    local name=${doc%:*} n=${doc#*:}
    echo -e "$name fresh\t$n\t$(($(instructions "$exe" "$name" "$n") / n))"
    echo -e "$name reused\t$n\t$(($(instructions "$exe" "$name" "$n" reuse) / n))"
  done
}

rpc() {
  "${pin[@]}" cargo bench -p structio-rpc --bench rpc
}

rpc_instructions() {
  local exe iters=2000
  exe=$(cargo bench -p structio-rpc --bench rpc --no-run --message-format=json 2>/dev/null |
    grep -o '"executable":"[^"]*/rpc-[^"]*"' | tail -n 1 | cut -d'"' -f4)
  echo -e "row\tside\tinstructions per call\tallocations per call"
  TSV=1 ROUNDS=3 ITERS=200 "$exe" --bench | grep -P '\t' | while IFS=$'\t' read -r row side _ _ allocs; do
    local n=$iters
    [[ "$row" == *"stream of"* ]] && n=2
    echo -e "$row\t$side\t$(($(ROW="$row" SIDE="$side" ROUNDS=1 ITERS=$n instructions "$exe" --bench) / n))\t$allocs"
  done
}

stdio() {
  cargo build --release -p structio-rpc --examples >&2
  "${pin[@]}" cargo bench -p structio-rpc --bench stdio
}

serde() {
  env SECONDS=0.5 REPS=7 "${pin[@]}" cargo bench --features serde --bench serde_bridge
}

boundary() {
  "${pin[@]}" cargo bench --bench boundary
}

numeric() {
  "${pin[@]}" cargo bench --bench numeric
}

streams() {
  "${pin[@]}" cargo bench --bench streams -- 1 5
}

pointer() {
  "${pin[@]}" cargo bench --bench pointer
}

for s in "${stages[@]}"; do
  case $s in
    roundtrip | serde | boundary | numeric | streams | stdio | pointer) timed "$s" "$s" ;;
    corpus)
      timed corpus corpus
      command -v valgrind >/dev/null && timed corpus_instructions corpus_instructions
      ;;
    rpc)
      timed rpc rpc
      command -v valgrind >/dev/null && timed rpc_instructions rpc_instructions
      ;;
    *) echo "unknown stage $s" >&2; exit 2 ;;
  esac
done
echo "$out"
