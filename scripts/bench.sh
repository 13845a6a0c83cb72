#!/usr/bin/env bash
# `npm run bench`: builds the WASM module (no native build, no tests), then runs the benchmark
# against nostr-tools, nostr-wasm and @rust-nostr/nostr-sdk in one Node process, then the relay
# feed through a real local dev relay (events/s delivered verified, memory per 10,000 events and
# per 1,000 subscriptions) next to nostr-tools' SimplePool, and the dev relay's publish-to-OK latency
# with a hostile client attached (50 REQs, ~12 MB of non-matching filters) beside the idle latency.
# Arguments go to bench/run.mjs: --quick, --only sign,verify, --rounds N, --budget S, --json FILE.
# The Markdown table is printed and written to build/bench-results.md.
# NOSTR_BENCH_SKIP_FEED=1 leaves out the relay feed part (it takes a few minutes with the peers).
set -euo pipefail
cd "$(dirname "$0")/.."
NOSTR_SKIP_NATIVE=1 bash scripts/build.sh >&2
node bench/run.mjs "$@"
if [ "${NOSTR_BENCH_SKIP_FEED:-0}" != 1 ]; then
  echo
  echo "### Relay feed through a real local dev relay"
  node bench/relay-feed.mjs
  echo
  echo "### The dev relay with a hostile client attached"
  node bench/relay-hostile.mjs
fi
# NOSTR_BENCH_SKIP_BROWSER=1 leaves out the browser part (Chromium, Firefox ESR and WebKitGTK start).
if [ "${NOSTR_BENCH_SKIP_BROWSER:-0}" != 1 ]; then
  echo
  echo "### The main thread during a 5,000-event burst (browsers, verifyWorkers)"
  node bench/verify-workers-browser.mjs
fi
