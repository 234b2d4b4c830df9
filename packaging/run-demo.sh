#!/usr/bin/env bash
# Set everything up (first run only) and start GraphDef Inspector on the bundled demo model.
# Extra arguments are passed on, e.g. `packaging/run-demo.sh summarize --format=tf`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/packaging/setup.sh"
exec "$VENV/bin/graphdef-inspector" "$@"
