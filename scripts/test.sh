#!/usr/bin/env bash
# Every test: native GoogleTest (plain and ASan+UBSan), libsecp256k1's and our constant-time checks
# under valgrind, the fuzz targets for a short time, the package through the real WASM with
# node --test, the TypeScript declarations, and the packed tarball in Node and three browser engines.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
jobs=$(nproc)

echo "== native tests (ctest)"
(cd build/native && ctest --output-on-failure -j"$jobs")

if [ "${NOSTR_SKIP_CTIME:-0}" != 1 ]; then
  echo "== constant-time checks under valgrind (clang-14; cmake/ctime.cmake)"
  [ -f build/ctime/CMakeCache.txt ] || CC=clang-14 CXX=clang++-14 cmake -S . -B build/ctime \
    -DCMAKE_BUILD_TYPE=Release -DNOSTR_CTIME=ON >/dev/null
  cmake --build build/ctime -j"$jobs" --target ctime_checks
  (cd build/ctime && ctest --output-on-failure -j"$jobs")
fi

if [ "${NOSTR_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== native tests under ASan + UBSan (clang-14)"
  # The same tree builds the fuzz targets (tests/fuzz), run below.
  [ -f build/asan/CMakeCache.txt ] || CC=clang-14 CXX=clang++-14 cmake -S . -B build/asan \
    -DCMAKE_BUILD_TYPE=Debug -DNOSTR_SANITIZE=ON -DNOSTR_FUZZ=ON >/dev/null
  cmake -DNOSTR_FUZZ=ON build/asan >/dev/null
  cmake --build build/asan -j"$jobs"
  (cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j"$jobs")
fi

if [ "${NOSTR_SKIP_FUZZ:-0}" != 1 ]; then
  # Every libFuzzer target of tests/fuzz for a short bounded time (npm run fuzz runs them longer).
  echo "== fuzz targets, ${NOSTR_FUZZ_SECONDS:-10} s each (clang-14, ASan + UBSan)"
  if [ "${NOSTR_SKIP_SANITIZE:-0}" != 1 ]; then export NOSTR_FUZZ_BUILD=build/asan; fi
  bash scripts/fuzz.sh "${NOSTR_FUZZ_SECONDS:-10}"
fi

echo "== TypeScript declarations"
npx tsc -p tests/types/tsconfig.json

echo "== package tests (node --test)"
# Every Node process of the suite logs what it prints into build/secrets-log (the preload changes
# nothing else); afterwards no secret key of the vectors in tests/vectors may appear in it.
rm -rf build/secrets-log
NOSTR_SECRETS_LOG="$PWD/build/secrets-log" NODE_OPTIONS="--import=$PWD/tests/support/secrets-capture.mjs ${NODE_OPTIONS:-}" \
  node --test --test-concurrency="$jobs" tests/js/

echo "== no test secret key in the suite's output"
node tests/support/secrets-check.mjs build/secrets-log
