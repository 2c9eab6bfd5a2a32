#!/usr/bin/env bash
# Make the benchmark environment with sabacc[rl] and the reference (rlcard and pygame, needed by
# PettingZoo's texas_holdem_v4), then run the RL environment benchmark.
#   bash benchmarks/rl.sh [bench_rl.py options]
#   bash benchmarks/rl.sh --vector [bench_vector.py options]   # + sabacc[bench]: pgx, jax CPU;
#                                                               # the vectorized environment
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
[ -x .bench-venv/bin/python ] || "$PY" -m venv .bench-venv
if [ "${1:-}" = "--vector" ]; then
    shift
    .bench-venv/bin/python -m pip install -q --disable-pip-version-check -e ".[bench]"
    PIN=()  # one core (CORE=1 by default) where taskset exists
    command -v taskset >/dev/null && PIN=(taskset -c "${CORE:-1}")
    exec "${PIN[@]}" .bench-venv/bin/python benchmarks/bench_vector.py "$@"
fi
.bench-venv/bin/python -m pip install -q --disable-pip-version-check rlcard pygame -e ".[rl]"
exec .bench-venv/bin/python benchmarks/bench_rl.py "$@"
