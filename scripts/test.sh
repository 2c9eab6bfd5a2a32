#!/usr/bin/env bash
# Install sabacc with everything its tests need, then run the whole suite: ruff, mypy, pytest.
# Works on a fresh machine with Python 3.11+ and pip. Exits non-zero on any failure,
# including pytest collecting no tests.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"

echo "== installing sabacc[test]"
"$PY" -m pip install --disable-pip-version-check -q -e ".[test]"

echo "== ruff"
"$PY" -m ruff check src tests benchmarks
"$PY" -m ruff format --check src tests benchmarks

echo "== mypy"
"$PY" -m mypy

echo "== pytest"
set +e
"$PY" -m pytest -q -p no:cacheprovider "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests: failing" >&2
  exit 1
fi
exit "$status"
