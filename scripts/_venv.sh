# Shared by scripts/play.sh and scripts/test.sh (sourced, not run): make or reuse the project's
# virtual environment .venv/ and install sabacc into it, editable, only when something changed.
#
#   sabacc_venv EXTRA   sets $VENV_PY to .venv's python with sabacc[EXTRA] installed
#
# Nothing is ever installed into the system Python, so this works on Debian/Ubuntu system
# Pythons that refuse pip installs (PEP 668, "externally-managed-environment").
# Environment: PYTHON picks the interpreter that creates the venv (default: python3, then
# python); SABACC_VENV the venv directory (default: .venv in the repository).
# The stamp .venv/.sabacc-EXTRA.stamp holds a hash of what an install depends on (pyproject.toml,
# setup.py, MANIFEST.in, the Cython source and its includes); Python source edits need no
# reinstall (editable).

SABACC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${SABACC_VENV:-$SABACC_ROOT/.venv}"

_say() { printf '== %s\n' "$*" >&2; }
_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

_find_python() {
  local candidate
  for candidate in "${PYTHON:-}" python3 python; do
    [ -n "$candidate" ] || continue
    command -v "$candidate" >/dev/null 2>&1 || continue
    if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

# The hash of everything a (re)install depends on, plus the interpreter's version.
_install_hash() {
  local files
  files=$(cd "$SABACC_ROOT" && ls pyproject.toml setup.py MANIFEST.in 2>/dev/null
          find src -name '*.pyx' -o -name '*.pxd' -o -name '*.pxi' | sort)
  {
    "$VENV/bin/python" -c 'import sys; print(sys.version)'
    (cd "$SABACC_ROOT" && cat $files)
  } | { sha256sum 2>/dev/null || shasum -a 256; } | cut -c1-64
}

_make_venv() {
  local py="$1" log
  log=$(mktemp)
  _say "creating the project virtual environment .venv with $("$py" -V 2>&1)"
  if "$py" -m venv "$VENV" >"$log" 2>&1 && [ -x "$VENV/bin/pip" ]; then
    rm -f "$log"
    return 0
  fi
  rm -rf "$VENV"
  # Debian and Ubuntu ship venv's pip bootstrap (ensurepip) in a separate package.
  if "$py" -c 'import sys; sys.exit(sys.prefix != "/usr")' 2>/dev/null \
      && command -v apt-get >/dev/null 2>&1; then
    local pkg
    pkg="python$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')-venv"
    if [ "$(id -u)" -eq 0 ]; then
      _say "apt-get install $pkg (python -m venv needs it)"
      (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$pkg") >&2 \
        || _die "could not install $pkg"
      "$py" -m venv "$VENV" >"$log" 2>&1 && [ -x "$VENV/bin/pip" ] && { rm -f "$log"; return 0; }
      rm -rf "$VENV"
    else
      cat "$log" >&2
      rm -f "$log"
      _die "python -m venv needs the $pkg package; install it once with:
    sudo apt install $pkg
and run this script again"
    fi
  fi
  cat "$log" >&2
  rm -f "$log"
  _die "could not create the virtual environment $VENV with $py"
}

sabacc_venv() {
  local extra="$1" py want have note
  if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c '' 2>/dev/null; then
    py=$(_find_python) || _die "sabacc needs Python 3.11 or newer (set PYTHON=/path/to/python3.11)"
    rm -rf "$VENV"
    _make_venv "$py"
  fi
  VENV_PY="$VENV/bin/python"
  want=$(_install_hash)
  have=$(cat "$VENV/.sabacc-$extra.stamp" 2>/dev/null || true)
  if [ "$want" = "$have" ] && "$VENV_PY" -c 'import sabacc' 2>/dev/null; then
    return 0
  fi
  if [ -z "$have" ]; then note="first run, ~1 min"; else note="pyproject.toml, setup.py or the .pyx changed"; fi
  _say "installing sabacc[$extra] into .venv ($note)"
  # Progress: pip's own lines, minus the noise of requirements already satisfied.
  local status=0
  "$VENV_PY" -m pip install --disable-pip-version-check --progress-bar off \
      -e "$SABACC_ROOT[$extra]" 2>&1 \
    | { grep --line-buffered -v '^Requirement already satisfied' >&2 || true; } || status=$?
  [ "$status" -eq 0 ] || _die "installing sabacc[$extra] into .venv failed (see above)"
  "$VENV_PY" -c 'import sabacc' || _die "sabacc does not import from .venv after installing"
  echo "$want" >"$VENV/.sabacc-$extra.stamp"
  # [test] holds everything [tui] and [docs] do: no second install after test.sh.
  if [ "$extra" = test ]; then
    echo "$want" >"$VENV/.sabacc-tui.stamp"
    echo "$want" >"$VENV/.sabacc-docs.stamp"
  fi
  _say "sabacc[$extra] is installed in .venv"
}
