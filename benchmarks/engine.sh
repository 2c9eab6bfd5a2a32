#!/usr/bin/env bash
# Make a benchmark environment (.bench-venv) with sabacc and the reference library (pokerkit),
# then run the benchmark. The environment and its build are reused: sabacc is installed (and its
# cores compiled) on the first run and again only when a build file or the Cython source changed
# (scripts/_venv.sh's stamp); Python edits need nothing (editable install).
set -euo pipefail
cd "$(dirname "$0")/.."
export SABACC_VENV="$PWD/.bench-venv"
source "$(dirname "$0")/../scripts/_venv.sh"
sabacc_venv bench-engine
exec "$VENV_PY" benchmarks/bench_engine.py "$@"
