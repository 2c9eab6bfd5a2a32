#!/usr/bin/env bash
# Make the benchmark environment with sabacc[rl] and the reference (rlcard and pygame, needed by
# PettingZoo's texas_holdem_v4), then run the RL environment benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
[ -x .bench-venv/bin/python ] || "$PY" -m venv .bench-venv
.bench-venv/bin/python -m pip install -q --disable-pip-version-check rlcard pygame -e ".[rl]"
exec .bench-venv/bin/python benchmarks/bench_rl.py "$@"
