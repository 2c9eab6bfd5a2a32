"""The ``>>>`` examples in the docstrings and in the documentation pages are true.

Every module of the package whose source holds a ``>>>`` example is run with :mod:`doctest`
(found by walking the package, so modules can move); so is every fenced code block with ``>>>``
lines in README.md and ``docs/**/*.md`` (the blocks of one page share their names, like one
interpreter session). A module that needs an extra that is not installed is skipped outside CI;
in CI (``CI`` set) that is a failure.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import os
import pkgutil
import re
from pathlib import Path

import pytest

import sabacc

ROOT = Path(__file__).resolve().parent.parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.IGNORE_EXCEPTION_DETAIL
FENCED = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.S | re.M)


def modules_with_examples() -> list[str]:
    names = ["sabacc"]
    for info in pkgutil.walk_packages(sabacc.__path__, "sabacc."):
        names.append(info.name)
    found = []
    for name in names:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec else None
        if origin and origin.endswith(".py") and ">>>" in Path(origin).read_text():
            found.append(name)
    return found


def pages_with_examples() -> list[Path]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [p for p in pages if any(">>>" in m.group(2) for m in FENCED.finditer(p.read_text()))]


def _run(test: doctest.DocTest) -> doctest.TestResults:
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, clear_globs=False)
    return runner.summarize(verbose=False)


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"{name} needs an extra that is not installed ({exc})")
    tests = doctest.DocTestFinder().find(module, name)
    assert any(t.examples for t in tests), f"{name}: no examples found"
    for test in tests:
        if test.examples:
            result = _run(test)
            assert result.failed == 0, f"{test.name}: {result.failed} example(s) failed"


@pytest.mark.parametrize("page", pages_with_examples(), ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples(page: Path) -> None:
    text = page.read_text()
    blocks = [m for m in FENCED.finditer(text) if ">>>" in m.group(2)]
    globs: dict[str, object] = {}
    for block in blocks:
        lineno = text.count("\n", 0, block.start(2))
        test = doctest.DocTestParser().get_doctest(
            block.group(2), globs, f"{page.name}:{lineno + 1}", str(page), lineno
        )
        result = _run(test)
        assert result.failed == 0, f"{page.relative_to(ROOT)} line {lineno + 1}: examples failed"
        globs = test.globs  # the next block goes on in the same session


def test_there_are_examples_to_run() -> None:
    assert "sabacc" in modules_with_examples()
    assert pages_with_examples(), "no documentation page has >>> examples"
