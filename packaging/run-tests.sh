#!/usr/bin/env bash
# Set everything up (first run only) and run the whole test suite, import contracts included.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/packaging/setup.sh"
cd "$ROOT"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
exec "$VENV/bin/python" -m pytest "$@"
