#!/usr/bin/env bash
# Builds the native core with its tests (build/native) and the WASM module (dist/).
# Incremental: a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export NODE_PATH=/usr/share/nodejs  # emcc's JS optimizer needs Debian's acorn at -O2 and above
jobs=$(nproc)

if [ "${NOSTR_SKIP_NATIVE:-0}" != 1 ]; then
  [ -f build/native/CMakeCache.txt ] || cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j"$jobs"
fi

[ -f build/wasm/CMakeCache.txt ] || emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm -j"$jobs"
node scripts/bundle.mjs  # one JS module per package entry: dist/index.{node,browser,single}.js
