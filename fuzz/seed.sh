#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the golden files: the repo's formats/ and tests/shapes/,
# and, when present, ../shared (or $SHARED) (Glaze exchange pairs, JSONTestSuite). Run from anywhere;
# existing corpus entries are kept. The corpora are git-ignored.
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$fuzz")"
shared="${SHARED:-$root/../shared}"

json=("$root"/formats/json/bench/*.json "$root"/tests/shapes/everything.json "$root"/tests/regressions/*.json)
beve=("$root"/formats/beve/bench/*.beve "$root"/tests/shapes/everything.beve "$root"/tests/regressions/*.beve)
if [ -d "$shared" ]; then
  json+=("$shared"/glaze/exchange/*.json "$shared"/JSONTestSuite/test_parsing/*.json)
  beve+=("$shared"/glaze/exchange/*.beve)
else
  echo "no ../shared: seeding from the repo's golden files only"
fi

seed() { # target files...
  local dir="$fuzz/corpus/$1"
  shift
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] && cp "$f" "$dir/$(basename "$f")"
  done
  echo "$dir: $(ls "$dir" | wc -l) files"
}

for t in json_value json_typed pretty_minify json_differential; do seed "$t" "${json[@]}"; done
for t in beve_value beve_typed beve_transcode beve_to_json; do seed "$t" "${beve[@]}"; done
# value_roundtrip builds values from raw bytes: any bytes do; start from the BEVE files.
seed value_roundtrip "${beve[@]}"
