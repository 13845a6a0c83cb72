#!/usr/bin/env bash
# The main job: builds what is missing, then runs the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "demo: building what is missing (a fresh machine installs the toolchain first: a few minutes)" >&2
NOSTR_SKIP_NATIVE=1 bash scripts/build.sh >/dev/null
exec node examples/quickstart.mjs
