#!/usr/bin/env bash
# Make a benchmark environment with sabacc and the reference library, then run the benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
[ -x .bench-venv/bin/python ] || "$PY" -m venv .bench-venv
.bench-venv/bin/python -m pip install -q --disable-pip-version-check pokerkit numpy -e .
exec .bench-venv/bin/python benchmarks/bench_engine.py "$@"
