"""The README's generated parts match the code, and its Quick start is what CI runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _gen_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_options_tables_are_current() -> None:
    gen = _gen_docs()
    text = (ROOT / "README.md").read_text()
    assert gen.render(text) == text, "README options tables are stale: run scripts/gen_docs.py"


def test_quick_start_has_the_two_commands_and_ci_runs_the_test_one() -> None:
    text = (ROOT / "README.md").read_text()
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = [line for line in quick.splitlines() if line.startswith("bash ")]
    assert [c.split()[1] for c in commands] == ["scripts/play.sh", "scripts/test.sh"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "scripts/test.sh" in ci
