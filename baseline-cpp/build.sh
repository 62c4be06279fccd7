#!/usr/bin/env bash
# Builds the Glaze baseline. Usage: baseline-cpp/build.sh GLAZE_DIR [OUT]
# GLAZE_DIR is a checkout of stephenberry/glaze (its include/ folder is used); OUT defaults to
# target/baseline-cpp/bench. The value-level differential program is built beside it
# (OUT's folder, `differential`). Needs clang++-19 with libc++ (Debian: clang-19 libc++-19-dev
# libc++abi-19-dev). Flags: -O3 -DNDEBUG -march=native (compare against structio built with
# RUSTFLAGS="-C target-cpu=native" for like with like).
set -euo pipefail
glaze=${1:?usage: build.sh GLAZE_DIR [OUT]}
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/../target/baseline-cpp/bench}
mkdir -p "$(dirname "$out")"
${CXX:-clang++-19} -std=c++23 -stdlib=libc++ -O3 -DNDEBUG ${MARCH:--march=native} \
  -I "$glaze/include" "$here/bench.cpp" -o "$out"
${CXX:-clang++-19} -std=c++23 -stdlib=libc++ -O2 -DNDEBUG \
  -I "$glaze/include" "$here/differential.cpp" -o "$(dirname "$out")/differential"
echo "$out"
