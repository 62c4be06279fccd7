#!/usr/bin/env bash
# structio against Glaze on the seven benchmark documents, one markdown table.
#
#   benches/compare.sh [N]
#
# Two modes (MB = 10^6 bytes):
# - paired (the default with GLAZE_BENCH): one process times structio and drives Glaze's
#   baseline (`bench serve`) to alternate with it every few milliseconds, BENCH_ROUNDS rounds
#   per cell, both pinned to one CPU. Prints `| document | operation | structio MB/s |
#   Glaze MB/s | structio / Glaze |` with medians: MB/s of the rounds' bests, and the
#   median of the rounds' ratios (not the ratio of the two medians). On a shared host whose
#   speed drifts, this is the figure to quote.
# - loops (MODE=loops, or no GLAZE_BENCH): runs the two sides' whole benchmarks alternately N
#   times (default 3); every cell keeps its best MB/s; same columns, ratio of the bests.
#
# Environment:
#   GLAZE_BENCH         baseline-cpp's binary (baseline-cpp/build.sh). Unset: structio figures only.
#   MODE                paired (default with GLAZE_BENCH) or loops.
#   BENCH_ROUNDS        paired: rounds per cell (default 100; a round is each side's best of
#                       five samples of BENCH_SAMPLE_MS, default 0.5 ms).
#   BENCH_OPS           comma-separated operations to time, e.g. beve_read,minify (default: all
#                       six; in loops mode only structio's side is filtered).
#   BENCH_CPU           paired: the CPU both sides are pinned to with taskset (default 0).
#   STRUCTIO_BENCH_DIR  folder with NAME.json, NAME.pretty.json, NAME.beve (`bench generate DIR`).
#                       Default: the copies in formats/json/bench and formats/beve/bench.
#   BENCH_SECONDS       length of one timing loop, both sides (default 0.5).
#   BENCH_REPS          loops per cell and run, both sides; the best counts (default 5).
#   NATIVE              1: build structio with RUSTFLAGS="-C target-cpu=native" into
#                       target/native, like with like against a -march=native Glaze build
#                       (default when GLAZE_BENCH is set). 0: a plain build in the usual target.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
secs=${BENCH_SECONDS:-0.5}
reps=${BENCH_REPS:-5}
glaze=${GLAZE_BENCH:-}
native=${NATIVE:-$([[ -n "$glaze" ]] && echo 1 || echo 0)}
if [[ -n "$glaze" && ! -x "$glaze" ]]; then
  echo "GLAZE_BENCH=$glaze is not an executable file; build it with baseline-cpp/build.sh" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One folder with all three files of each document (what both sides read).
dir=${STRUCTIO_BENCH_DIR:-}
if [[ -z "$dir" ]]; then
  dir=$work/docs
  mkdir -p "$dir"
  ln -s "$root"/formats/json/bench/*.json "$root"/formats/beve/bench/*.beve "$dir"/
fi

# Build structio's side (the `mbps` bench target) and find its executable.
if [[ "$native" == 1 ]]; then
  export RUSTFLAGS="${RUSTFLAGS:-} -C target-cpu=native"
  export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target/native}
fi
echo "building structio's side (RUSTFLAGS='${RUSTFLAGS:-}')..." >&2
exe=$(cd "$root" && cargo bench --bench mbps --no-run --message-format=json 2>/dev/null |
  grep -o '"executable":"[^"]*/mbps-[^"]*"' | tail -n 1 | cut -d'"' -f4)
[[ -x "$exe" ]] || { echo "could not build the mbps bench" >&2; exit 1; }

mode=${MODE:-$([[ -n "$glaze" ]] && echo paired || echo loops)}
if [[ "$mode" == paired ]]; then
  [[ -n "$glaze" ]] || { echo "MODE=paired needs GLAZE_BENCH" >&2; exit 1; }
  pin=()
  if command -v taskset >/dev/null; then pin=(taskset -c "${BENCH_CPU:-0}"); fi
  echo "paired: ${BENCH_ROUNDS:-100} rounds per cell, samples of ${BENCH_SAMPLE_MS:-0.5} ms..." >&2
  "${pin[@]}" "$exe" paired "$glaze" "$dir" "${BENCH_ROUNDS:-100}" "${BENCH_SAMPLE_MS:-0.5}" |
    awk -F'\t' '
      BEGIN {
        print "| document | operation | structio MB/s | Glaze MB/s | structio / Glaze |"
        print "|---|---|---:|---:|---:|"
      }
      { printf "| %s | %s | %s | %s | %.0f%% |\n", $1, $2, $3, $4, 100 * $5 }'
  exit 0
fi

for i in $(seq "$runs"); do
  echo "run $i/$runs (seconds=$secs reps=$reps)..." >&2
  if [[ -n "$glaze" ]]; then
    "$glaze" run "$dir" "$secs" "$reps" >"$work/glaze.$i"
  fi
  "$exe" "$dir" "$secs" "$reps" >"$work/structio.$i"
done

cat "$work"/structio.* | awk -F'\t' -v glaze_files="$(ls "$work"/glaze.* 2>/dev/null | tr '\n' ' ')" '
  BEGIN {
    n = split(glaze_files, gf, " ")
    for (i = 1; i <= n; i++)
      while ((getline line < gf[i]) > 0) {
        split(line, f, "\t"); k = f[1] "\t" f[2]
        if (!(k in g) || f[3] + 0 > g[k]) g[k] = f[3] + 0
      }
    has_glaze = n > 0
  }
  {
    k = $1 "\t" $2
    if (!(k in r)) order[++cells] = k
    if (!(k in r) || $3 + 0 > r[k]) r[k] = $3 + 0
  }
  END {
    if (has_glaze) {
      print "| document | operation | structio MB/s | Glaze MB/s | structio / Glaze |"
      print "|---|---|---:|---:|---:|"
    } else {
      print "| document | operation | structio MB/s |"
      print "|---|---|---:|"
    }
    for (i = 1; i <= cells; i++) {
      k = order[i]; split(k, f, "\t")
      if (has_glaze) {
        ratio = (k in g && g[k] > 0) ? sprintf("%.0f%%", 100 * r[k] / g[k]) : "n/a"
        printf "| %s | %s | %.0f | %s | %s |\n", f[1], f[2], r[k], (k in g) ? sprintf("%.0f", g[k]) : "n/a", ratio
      } else {
        printf "| %s | %s | %.0f |\n", f[1], f[2], r[k]
      }
    }
  }'
