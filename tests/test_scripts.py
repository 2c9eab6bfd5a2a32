"""The Quick start scripts' environment logic (scripts/_venv.sh), on a throwaway project.

A fake "system Python" that refuses pip like an externally managed one (PEP 668) stands in
for python3: the scripts must make a project virtual environment and never run pip with it;
install only on the first run and when a build file changes; and explain the one command to
run when Debian's python3-venv is missing. The real scripts run end to end in CI (.ci/run).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PEP668 = """#!/bin/sh
# A system Python that refuses pip installs, like Debian's (PEP 668).
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
  echo "$*" >> "{log}"
  echo "error: externally-managed-environment" >&2
  exit 1
fi
exec "{real}" "$@"
"""

NO_VENV = """#!/bin/sh
# A Debian system Python without the python3-venv package.
case "$*" in
  *"-m venv"*)
    echo "The virtual environment was not created successfully because ensurepip is not" >&2
    echo "available.  On Debian/Ubuntu systems, you need to install the python3-venv" >&2
    mkdir -p "$3/bin"; exit 1 ;;
  *sys.prefix*) exit 0 ;;
esac
exec "{real}" "$@"
"""


def _base_python() -> str:
    """A real interpreter that can make virtual environments (the one running the tests)."""
    return sys.executable


def _project(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy2(ROOT / "scripts" / "_venv.sh", repo / "scripts" / "_venv.sh")
    (repo / "src" / "sabacc").mkdir(parents=True)
    (repo / "src" / "sabacc" / "__init__.py").write_text('__version__ = "0"\n')
    (repo / "setup.py").write_text("from setuptools import setup\nsetup()\n")
    (repo / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "sabacc"\nversion = "0"\n'
        "[project.optional-dependencies]\ntui = []\ntest = []\n"
    )
    return repo


def _fake(tmp_path: Path, template: str) -> tuple[Path, Path]:
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    log = tmp_path / "system-pip.log"
    python = bindir / "python3"
    python.write_text(template.format(real=_base_python(), log=log))
    python.chmod(0o755)
    return bindir, log


def _source(
    repo: Path, bindir: Path, extra: str = "tui", **env: str
) -> subprocess.CompletedProcess[str]:
    script = f'set -euo pipefail; source "{repo}/scripts/_venv.sh"; sabacc_venv {extra}; '
    script += 'echo "VENV_PY=$VENV_PY"'
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    clean.pop("PYTHON", None)
    clean["PATH"] = f"{bindir}{os.pathsep}{clean['PATH']}"
    return subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        env={**clean, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **env},
        timeout=600,
    )


def test_an_externally_managed_python_gets_a_project_venv_and_installs_only_on_change(
    tmp_path: Path,
) -> None:
    repo = _project(tmp_path)
    bindir, log = _fake(tmp_path, PEP668)
    first = _source(repo, bindir)
    assert first.returncode == 0, first.stderr
    assert "== creating the project virtual environment .venv" in first.stderr
    assert "== installing sabacc[tui] into .venv (first run" in first.stderr
    assert f"VENV_PY={repo}/.venv/bin/python" in first.stdout
    assert (repo / ".venv" / ".sabacc-tui.stamp").exists()
    assert not log.exists(), f"pip ran with the system Python: {log.read_text()}"

    again = _source(repo, bindir)
    assert again.returncode == 0, again.stderr
    assert again.stderr == "", "a second run with nothing changed must not install again"

    with (repo / "pyproject.toml").open("a") as f:
        f.write("# changed\n")
    changed = _source(repo, bindir)
    assert changed.returncode == 0, changed.stderr
    assert "== installing sabacc[tui] into .venv (pyproject.toml" in changed.stderr
    assert "creating" not in changed.stderr  # the venv is reused
    assert not log.exists()


def test_a_missing_python3_venv_package_is_explained(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        # As root the script installs python3-venv with apt-get (CI); fake a normal user.
        bindir, _ = _fake(tmp_path, NO_VENV)
        (bindir / "id").write_text("#!/bin/sh\necho 1000\n")
        (bindir / "id").chmod(0o755)
    else:
        bindir, _ = _fake(tmp_path, NO_VENV)
    if shutil.which("apt-get") is None:
        (bindir / "apt-get").write_text("#!/bin/sh\nexit 1\n")
        (bindir / "apt-get").chmod(0o755)
    repo = _project(tmp_path)
    result = _source(repo, bindir)
    assert result.returncode == 1
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert f"sudo apt install python{version}-venv" in result.stderr, result.stderr
    assert not (repo / ".venv").exists(), "a half-made venv was left behind"


def test_too_old_a_python_is_refused(tmp_path: Path) -> None:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for name in ("python3", "python"):
        (bindir / name).write_text("#!/bin/sh\nexit 1\n")  # fails the version check
        (bindir / name).chmod(0o755)
    repo = _project(tmp_path)
    result = _source(repo, bindir)
    assert result.returncode == 1
    assert "needs Python 3.11 or newer" in result.stderr


@pytest.mark.parametrize("script", ["play.sh", "test.sh", "docs.sh"])
def test_the_scripts_use_the_project_venv(script: str) -> None:
    text = (ROOT / "scripts" / script).read_text()
    assert 'source "$(dirname "$0")/_venv.sh"' in text
    commands = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    pip = [c for c in commands if re.search(r"\bpip3?\b", c)]
    assert pip == [], "installs go through sabacc_venv only"
