#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang-14, ASan + UBSan, build/fuzz) and runs each
# for the given number of seconds (default 60) on its corpus: build/fuzz/corpus/<target>, seeded
# by tests/fuzz/seed.mjs and grown by every run. Every target runs; the script fails when one had
# a finding, and the crashing input is left in build/fuzz/findings/<target>/.
#   bash scripts/fuzz.sh [seconds per target] [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
jobs=$(nproc)

# NOSTR_FUZZ_BUILD: another clang ASan+UBSan build tree configured with -DNOSTR_FUZZ=ON (CI reuses
# build/asan, so the targets cost no second build of the core); the default is an optimized tree.
build=${NOSTR_FUZZ_BUILD:-build/fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOSTR_SANITIZE=ON \
    -DNOSTR_FUZZ=ON >/dev/null
fi
cmake --build "$build" -j"$jobs" --target fuzz_targets
node tests/fuzz/seed.mjs "$build/corpus"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in tests/fuzz/*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
printf '%-18s %12s %8s %8s %s\n' target executions cov corpus result
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t" "$build/findings/$t"
  log="$build/findings/$t/last.log"
  if ./"$build"/fuzz_"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
      -print_final_stats=1 -artifact_prefix="$build/findings/$t/" "$build/corpus/$t" >"$log" 2>&1; then
    result=ok
  else
    result="FINDING (see $log)"
    status=1
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
  corpus=$(ls "$build/corpus/$t" | wc -l)
  printf '%-18s %12s %8s %8s %s\n' "$t" "$execs" "$cov" "$corpus" "$result"
done
exit $status
