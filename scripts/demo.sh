#!/usr/bin/env bash
# The main job: builds what is missing, then runs the demo: a local relay, the demo agent and the
# web page (web-demo/main.js; arguments are passed on: --port, --relay-port, --host).
# examples/quickstart.mjs still runs by itself: node examples/quickstart.mjs
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${NOSTR_DEMO_SKIP_BUILD:-0}" != 1 ]; then
  echo "demo: building what is missing (a fresh machine installs the toolchain first: a few minutes)" >&2
  NOSTR_SKIP_NATIVE=1 bash scripts/build.sh >/dev/null
fi
exec node web-demo/main.js "$@"
