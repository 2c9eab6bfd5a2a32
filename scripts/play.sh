#!/usr/bin/env bash
# Install sabacc into the project's virtual environment .venv (made on first run; reinstalled
# only when pyproject.toml, setup.py or the Cython source change) and start a game of
# Corellian Spike against three bots in this terminal. Arguments go to `sabacc play`.
set -euo pipefail
source "$(dirname "$0")/_venv.sh"
sabacc_venv tui
exec "$VENV_PY" -m sabacc play "$@"
