"""sabacc builds and installs as a stranger would get it.

``python -m build`` makes an sdist and then a wheel *from that sdist*; each is installed into a
clean virtual environment and plays a game from there (not from this tree). The sdist carries
the Cython source, the wheel carries no generated C; installing the sdist with no working C
compiler (``CC=/bin/false``) succeeds with a one-line notice and the pure-Python engine.

It builds in isolated environments, so it needs the package index (CI reaches it) and takes
about a minute; pip's cache makes reruns faster. The cores are compiled with ``-O0``
(``SABACC_CFLAGS``, read by setup.py): this test checks what is packaged and that the built core
plays the same game as the Python engine, not how fast it runs, and ``-O2`` takes eight times
longer to compile. Without the ``build`` module or ``venv`` it is skipped outside CI and fails
in CI (``CI`` set).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What the sdist is made of; everything else in the repository is not part of the package.
SOURCES = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "CHANGELOG.md"]
NOTICE = "installing the pure-Python engine only"

PLAY = """
import json, sys
before = set(sys.modules)  # what the interpreter loaded itself (setuptools' .pth hook...)
import sabacc
from sabacc.variants import compiled
assert sabacc.__file__.startswith(sys.prefix), sabacc.__file__   # the installed copy
engines = ["python", "compiled"] if compiled.available() else ["python"]
payoffs = {}
for engine in engines:
    game = sabacc.new_game("spike", players=3, seed=5, engine=engine)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    payoffs[engine] = list(game.payoffs)
assert len({json.dumps(p) for p in payoffs.values()}) == 1, payoffs
# The engine needs no third-party package (the wheel was installed with --no-deps).
runtime = {"sabacc", "__main__", "cython_runtime"}
new = {n.split(".")[0] for n in set(sys.modules) - before}
outside = [m for m in new - set(sys.stdlib_module_names)
           if m not in runtime and not m.startswith("_cython_")]
assert outside == [], outside
print(json.dumps({"version": sabacc.__version__, "compiled": compiled.available()}))
"""


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return {**env, **extra}


def _run(args: list[str | Path], **kw: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        timeout=900,
        **kw,  # type: ignore[call-overload]
    )
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


def _venv(path: Path) -> Path:
    made = subprocess.run([sys.executable, "-m", "venv", path], capture_output=True, text=True)
    if made.returncode != 0:
        _skip_or_fail(f"cannot make a virtual environment: {made.stderr.strip()}")
    return path / "bin" / "python"


def _play(python: Path, cwd: Path) -> str:
    return _run([python, "-c", PLAY], cwd=cwd, env=_env()).stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("build") is None:
        _skip_or_fail("the build module is not installed (pip install build)")
    work = tmp_path_factory.mktemp("packaging")
    tree = work / "sabacc"
    tree.mkdir()
    for name in SOURCES:
        shutil.copy2(ROOT / name, tree / name)
    junk = shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "src", tree / "src", ignore=junk)
    out = work / "dist"
    build_env = _env(SABACC_CFLAGS="-O0 -g0")  # see the module docstring
    log = _run([sys.executable, "-m", "build", "--outdir", out, tree], cwd=work, env=build_env)
    assert "Building wheel from sdist" in log.stdout + log.stderr, log.stderr
    return out


def _one(dist: Path, pattern: str) -> Path:
    found = sorted(dist.glob(pattern))
    assert len(found) == 1, found
    return found[0]


def test_the_sdist_can_build_the_extension_and_holds_no_generated_code(dist: Path) -> None:
    sdist = _one(dist, "sabacc-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = [n.split("/", 1)[1] for n in tar.getnames() if "/" in n]
    assert any(n.endswith("_corellian_spike_core.pyx") for n in names)
    assert any(n.endswith("_corellian_spike_core.pyi") for n in names)
    assert any(n.endswith("spike_family/_spike_family.pxi") for n in names), "the family's include"
    assert any(n.endswith("variants/_kernel/_core_protocol.pxi") for n in names), (
        "the cores' include"
    )
    assert {"LICENSE", "CHANGELOG.md", "README.md", "setup.py", "pyproject.toml"} <= set(names)
    assert any(n.endswith("/py.typed") for n in names)
    assert any("/web/" in n for n in names)
    assert not [n for n in names if n.endswith((".c", ".so", ".pyc"))]


def test_the_wheel_from_the_sdist_installs_and_plays(dist: Path, tmp_path: Path) -> None:
    wheel = _one(dist, "sabacc-*.whl")
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
        metadata = whl.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert not [n for n in names if n.endswith((".c", ".pyx", ".pxi"))], "C or .pyx shipped"
    assert any(n.endswith("_corellian_spike_core.pyi") for n in names)
    assert any(n.endswith("variants/_kernel/_core_protocol.pyi") for n in names), (
        "the cores' stub base"
    )
    assert any(n.endswith("/py.typed") for n in names)
    assert any("/web/" in n and n.endswith(".js") for n in names), "the web client is missing"
    assert any(n.endswith("store/migrations/env.py") for n in names), "no migration env"
    assert any(n.endswith("migrations/versions/0001_baseline.py") for n in names)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "License-Expression: MIT" in metadata
    assert "Project-URL: Documentation" in metadata
    python = _venv(tmp_path / "venv")
    _run([python, "-m", "pip", "install", "-q", "--no-deps", wheel], cwd=tmp_path, env=_env())
    played = _play(python, tmp_path)
    import sabacc

    assert f'"version": "{sabacc.__version__}"' in played
    if os.environ.get("CI") or shutil.which("cc") or shutil.which("gcc"):
        assert '"compiled": true' in played, "the wheel was built without the compiled core"


def test_the_sdist_installs_without_a_c_compiler(dist: Path, tmp_path: Path) -> None:
    sdist = _one(dist, "sabacc-*.tar.gz")
    python = _venv(tmp_path / "venv")
    install = _run(
        # --no-cache-dir: never a wheel cached from an earlier build of the same sdist
        [python, "-m", "pip", "install", "-v", "--no-deps", "--no-cache-dir", sdist],
        cwd=tmp_path,
        env=_env(CC="/bin/false", CXX="/bin/false"),
    )
    output = install.stdout + install.stderr
    notices = [line for line in output.splitlines() if NOTICE in line]
    assert len(notices) == 1, output[-3000:]
    assert '"compiled": false' in _play(python, tmp_path)
