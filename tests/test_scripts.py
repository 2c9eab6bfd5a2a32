"""The Quick start scripts' environment logic (scripts/_venv.sh), on a throwaway project, and
the new-variant skeleton (scripts/new_variant.py), on a copy of the package.

A fake "system Python" that refuses pip like an externally managed one (PEP 668) stands in
for python3: the scripts must make a project virtual environment and never run pip with it;
install only on the first run and when a build file changes; and explain the one command to
run when Debian's python3-venv is missing. The real scripts run end to end in CI (.ci/run).

``new_variant.py`` writes into a temporary copy of ``src/``: the package it writes must import,
register, play games to the end, pass its own tests and the project's lint, and a taken name
must be refused with nothing written.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
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


def test_the_engine_benchmark_reuses_its_environment_and_build() -> None:
    """benchmarks/engine.sh installs through sabacc_venv (into .bench-venv), so sabacc and its
    cores are built on the first run and again only when a build file changes (the test
    above); its extra holds the reference library."""
    text = (ROOT / "benchmarks" / "engine.sh").read_text()
    commands = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    assert 'source "$(dirname "$0")/../scripts/_venv.sh"' in commands
    assert 'export SABACC_VENV="$PWD/.bench-venv"' in commands
    assert "sabacc_venv bench-engine" in commands
    assert [c for c in commands if re.search(r"\bpip3?\b", c)] == []
    with (ROOT / "pyproject.toml").open("rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    assert any(r.startswith("pokerkit") for r in extras["bench-engine"])


def test_a_change_to_a_cython_include_reinstalls(tmp_path: Path) -> None:
    """The kernel's rules are .pxi includes: changing one must rebuild the cores too."""
    repo = _project(tmp_path)
    (repo / "src" / "sabacc" / "_rules.pxi").write_text("# 1\n")
    bindir, _ = _fake(tmp_path, PEP668)
    assert _source(repo, bindir).returncode == 0
    (repo / "src" / "sabacc" / "_rules.pxi").write_text("# 2\n")
    changed = _source(repo, bindir)
    assert changed.returncode == 0, changed.stderr
    assert "== installing sabacc[tui] into .venv" in changed.stderr


PLAY_NEW_VARIANT = """
import json, sys
import sabacc
from sabacc.services.bots import decide, make_bot
assert sabacc.__file__.startswith(sys.argv[1]), sabacc.__file__   # the copy, not this tree
info = sabacc.variant("outer_rim").info
results = []
for seed, players in [(7, 2), (8, 4)]:
    game = sabacc.new_game("outer_rim", players=players, seed=seed)
    bots = [make_bot("random", seed + seat) for seat in range(players)]
    while not game.is_over:
        seat = game.current_player
        game.apply(decide(bots[seat], game, seat))
    same = sabacc.replay(game.history()).payoffs == game.payoffs
    results.append({"payoffs": game.payoffs, "hands": len(game.hand_results), "replays": same})
print(json.dumps({"names": sabacc.variant_names(), "title": info.title,
                  "game": type(game).__name__, "results": results}))
"""


def _source_copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    ignore = shutil.ignore_patterns("*.c", "__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "src", root / "src", ignore=ignore)
    return root


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=root, timeout=600
    )


def test_new_variant_writes_a_package_that_registers_plays_and_passes_its_tests(
    tmp_path: Path,
) -> None:
    root = _source_copy(tmp_path)
    script = str(ROOT / "scripts" / "new_variant.py")
    made = _run(root, script, "outer_rim", "--title", "Outer Rim", "--root", str(root))
    assert made.returncode == 0, made.stdout + made.stderr
    package = root / "src" / "sabacc" / "variants" / "outer_rim"
    tests = root / "tests" / "variants" / "outer_rim"
    assert sorted(p.name for p in package.iterdir()) == ["__init__.py", "rules.py", "text.py"]
    assert sorted(p.name for p in tests.iterdir()) == ["__init__.py", "test_rules.py"]
    # the checklist is printed and is the package's docstring
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
    for step in ("1. Rules:", "2. The record:", "3. Words:", "6. Rules and docs:"):
        assert step in made.stdout
        assert step in doc
    assert "docs/adding-a-variant.md" in doc

    played = _run(root, "-c", PLAY_NEW_VARIANT, str(root / "src"))
    assert played.returncode == 0, played.stderr
    report = json.loads(played.stdout)
    assert "outer_rim" in report["names"]  # `import sabacc` registers it
    assert (report["title"], report["game"]) == ("Outer Rim", "OuterRimGame")
    for result in report["results"]:
        assert sum(result["payoffs"]) == 0
        assert result["hands"] >= 1
        assert result["replays"]

    own = _run(root, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests))
    assert own.returncode == 0, own.stdout + own.stderr
    assert "5 passed" in own.stdout

    ruff = Path(sys.executable).with_name("ruff")
    if ruff.exists():  # the skeleton passes the project's lint and format as written
        shutil.copy2(ROOT / "pyproject.toml", root / "pyproject.toml")  # its ruff settings
        paths = [str(package), str(tests), str(package.parent / "__init__.py")]
        for check in (["check"], ["format", "--check"]):
            run = subprocess.run([ruff, *check, *paths], capture_output=True, text=True, cwd=root)
            assert run.returncode == 0, run.stdout


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("kessel", "already exists"),  # a variant's package
        ("spike", "already a registered variant name or alias"),  # an alias
        ("registry", "already exists"),  # a module of sabacc.variants
        ("Outer-Rim", "is not a variant name"),
        ("class", "is not a variant name"),
    ],
)
def test_new_variant_refuses_a_taken_or_malformed_name(tmp_path: Path, name: str, why: str) -> None:
    root = _source_copy(tmp_path)
    init = root / "src" / "sabacc" / "variants" / "__init__.py"
    before = init.read_text()
    refused = _run(root, str(ROOT / "scripts" / "new_variant.py"), name, "--root", str(root))
    assert refused.returncode == 1
    assert why in refused.stdout
    assert "nothing written" in refused.stdout
    assert init.read_text() == before
    assert not (root / "tests").exists()
