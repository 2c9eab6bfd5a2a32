"""The release workflow (.github/workflows/release.yml) builds wheels for Linux, macOS and
Windows with cibuildwheel, tests each one with a command that works, and publishes with PyPI's
trusted publishing (an OpenID token, no stored secret) only from a version tag."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def _workflow() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return data


def test_wheels_for_every_platform_and_trusted_publishing() -> None:
    jobs = _workflow()["jobs"]
    systems = jobs["wheels"]["strategy"]["matrix"]["os"]
    assert {s.split("-")[0] for s in systems} == {"ubuntu", "macos", "windows"}
    build = next(
        s for s in jobs["wheels"]["steps"] if s.get("uses", "").startswith("pypa/cibuildwheel")
    )
    assert build["env"]["CIBW_BUILD"].split() == ["cp311-*", "cp312-*", "cp313-*"]
    publish = jobs["publish"]
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["needs"] == ["sdist", "wheels"]
    assert "refs/tags/v" in publish["if"]
    assert any(
        s.get("uses", "").startswith("pypa/gh-action-pypi-publish") for s in publish["steps"]
    )
    assert "password" not in WORKFLOW.read_text(encoding="utf-8")


def test_the_wheel_test_command_passes_here() -> None:
    """The command cibuildwheel runs in each built wheel's environment, run on this tree."""
    jobs = _workflow()["jobs"]
    build = next(s for s in jobs["wheels"]["steps"] if "cibuildwheel" in s.get("uses", ""))
    command = shlex.split(build["env"]["CIBW_TEST_COMMAND"])
    assert command[:2] == ["python", "-c"]
    from sabacc.variants import compiled

    if not compiled.available():
        pytest.skip("the compiled cores are not built here")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [sys.executable, "-c", command[2]], capture_output=True, text=True, env=env, timeout=300
    )
    assert result.returncode == 0, result.stderr
