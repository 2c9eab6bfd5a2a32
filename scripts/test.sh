#!/usr/bin/env bash
# Install sabacc with everything its tests need into the project's virtual environment .venv
# (made on first run; reinstalled only when pyproject.toml, setup.py or the Cython source
# change), then run the whole suite: ruff, mypy (src and tests), pytest (with the doctests, the
# documentation site build and the packaging test). Works on a fresh machine with only
# Python 3.11+, including a system Python that refuses pip installs (PEP 668). Exits non-zero on
# any failure, including pytest collecting no tests. Arguments go to pytest, which runs on every
# core (SABACC_TEST_WORKERS=1: one process).
set -euo pipefail
source "$(dirname "$0")/_venv.sh"
cd "$SABACC_ROOT"
sabacc_venv test
PY="$VENV_PY"

# The web tests need Debian's Chromium (browser tests, with a Japanese font for the screenshots)
# and PostgreSQL with psycopg (store tests on both databases). Installed only when missing; as
# root in CI. Outside CI, without them those tests are skipped, loudly; in CI that is a failure.
apt_pkgs=()
command -v chromium >/dev/null 2>&1 || apt_pkgs+=(chromium)
fc-list :lang=ja 2>/dev/null | grep -q . || apt_pkgs+=(fonts-vlgothic)
{ command -v initdb || ls /usr/lib/postgresql/*/bin/initdb; } >/dev/null 2>&1 || apt_pkgs+=(postgresql)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || apt_pkgs+=(nginx)
if [ "${#apt_pkgs[@]}" -gt 0 ]; then
  echo "== apt-get install ${apt_pkgs[*]}"
  (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${apt_pkgs[@]}") \
    || { echo "could not install ${apt_pkgs[*]}: the tests that need them are skipped" >&2
         [ -z "${CI:-}" ] || exit 1; }
fi

echo "== ruff"
"$PY" -m ruff check src tests benchmarks scripts setup.py
"$PY" -m ruff format --check src tests benchmarks scripts setup.py

echo "== mypy (src and tests)"
"$PY" -m mypy

# pytest on every core (pytest-xdist): SABACC_TEST_WORKERS=N sets the number of worker
# processes, SABACC_TEST_WORKERS=1 runs in this process without xdist. --dist loadgroup keeps
# a module that shares a module-scoped fixture on one worker (tests/conftest.py).
workers="${SABACC_TEST_WORKERS:-$("$PY" -c 'import os; print(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)')}"
xdist=()
if [ "$workers" -gt 1 ]; then
  xdist=(-n "$workers" --dist loadgroup)
fi
echo "== pytest (${workers} worker(s))"
set +e
"$PY" -m pytest -q -p no:cacheprovider ${xdist[@]+"${xdist[@]}"} "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests: failing" >&2
  exit 1
fi
exit "$status"
