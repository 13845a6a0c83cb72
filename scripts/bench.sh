#!/usr/bin/env bash
# `npm run bench`: builds the WASM module (no native build, no tests), then runs the benchmark
# against nostr-tools, nostr-wasm and @rust-nostr/nostr-sdk in one Node process.
# Arguments go to bench/run.mjs: --quick, --only sign,verify, --rounds N, --budget S, --json FILE.
# The Markdown table is printed and written to build/bench-results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
NOSTR_SKIP_NATIVE=1 bash scripts/build.sh >&2
exec node bench/run.mjs "$@"
