#!/usr/bin/env bash
# The documentation site (MkDocs Material + mkdocstrings, configured in mkdocs.yml).
#   bash scripts/docs.sh          serve it at http://127.0.0.1:8000/ with live reload
#   bash scripts/docs.sh build    build it into site/ with --strict (warnings fail), as CI does
# Installs sabacc[docs] into the project's .venv first when needed (see scripts/_venv.sh).
# Extra arguments go to mkdocs (e.g. bash scripts/docs.sh serve -a 0.0.0.0:8001).
set -euo pipefail
source "$(dirname "$0")/_venv.sh"
cd "$SABACC_ROOT"
sabacc_venv docs
export NO_MKDOCS_2_WARNING=1
case "${1:-serve}" in
  build) shift || true; exec "$VENV_PY" -m mkdocs build --strict "$@" ;;
  serve) shift || true; exec "$VENV_PY" -m mkdocs serve "$@" ;;
  *) exec "$VENV_PY" -m mkdocs "$@" ;;
esac
