#!/usr/bin/env bash
# Install sabacc and start a game of Corellian Spike against three bots in this terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
"$PY" -m pip install --disable-pip-version-check -q -e ".[tui]"
exec "$PY" -m sabacc play "$@"
