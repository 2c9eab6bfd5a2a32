"""Every script in examples/ runs, as a user runs it (a new interpreter, this tree on the path);
examples/train_reinforce.py, which trains for minutes by default, runs with a tiny budget in
tests/apps/rl/test_example.py."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Small arguments for each example (every example is listed: a new one must be added here).
ARGS = {
    "every_variant.py": ["--seed", "2"],
    "gymnasium_random_agent.py": ["--env", "sabacc/Kessel-v1", "--episodes", "5"],
    "train_reinforce.py": None,  # tests/apps/rl/test_example.py
}
NEEDS = {"gymnasium_random_agent.py": ("gymnasium", "numpy", "pettingzoo")}


def test_every_example_is_run() -> None:
    assert sorted(p.name for p in (ROOT / "examples").glob("*.py")) == sorted(ARGS)


@pytest.mark.parametrize("name", [n for n, a in ARGS.items() if a is not None])
def test_the_example_runs(name: str, tmp_path: Path) -> None:
    missing = [m for m in NEEDS.get(name, ()) if importlib.util.find_spec(m) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"{name} needs {missing}")
        pytest.skip(f"{name} needs {missing}")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    args = ARGS[name]
    assert args is not None
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    if name == "every_variant.py":
        import sabacc

        written = sorted(p.stem for p in (tmp_path / "histories").glob("*.json"))
        assert written == sorted(sabacc.variant_names())
        doc = json.loads((tmp_path / "histories" / "kessel.json").read_text(encoding="utf-8"))
        assert sabacc.replay(doc).is_over
    else:
        lines = result.stdout.strip().splitlines()
        assert [line.split(": ")[0] for line in lines] == [
            "sabacc/Kessel-v1 reward=net",
            "sabacc/Kessel-v1 reward=zero_sum",
        ]
