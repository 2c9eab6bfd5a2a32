"""Smoke test: the training example runs end to end with a tiny budget."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "train_reinforce", ROOT / "examples" / "train_reinforce.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train_and_evaluate_tiny(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "policy.npz"
    args = ["--episodes", "128", "--batch", "32", "--eval-hands", "8", "--workers", "2"]
    summary = _example().main([*args, "--out", str(out), "--quiet"])
    assert out.exists() and out.with_name("policy_untrained.npz").exists()
    assert set(summary) == {"untrained", "trained"}
    assert set(summary["trained"]) == {"random", "heuristic"}
    text = capsys.readouterr().out
    assert "trained policy" in text and "vs heuristic" in text
