"""The variant is the one place that knows the variant: outside ``sabacc/variants/`` no code
names a variant (or an alias of one) to branch on it. Apps ask ``VariantInfo`` instead.

Names come from the registry, so a newly registered variant is covered at once. Allowed: default
argument values (``variant: str = "corellian_spike"``) and field defaults in class bodies (a
form's default variant), which choose a variant without knowing anything about it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sabacc.variants.registry import lookup, variant_names

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "sabacc"
WEB = PACKAGE / "apps" / "web"

#: Folders still being cleaned on another branch; the integrator empties this set after merging
#: it. ``apps/rl``: the RL observation encoder (branch ``obs``).
PENDING: set[str] = {"apps/rl"}


def _norm(name: str) -> str:
    # Case is kept: code compares the lowercase names; "Spike" (a phase's title) is prose.
    return name.strip().replace("-", "_").replace(" ", "_")


def variant_words() -> set[str]:
    """Every registered name and alias, spelled with ``_`` (``corellian-spike`` ->
    ``corellian_spike``)."""
    words: set[str] = set()
    for name in variant_names():
        info = lookup(name)
        words |= {_norm(w) for w in (info.name, *info.aliases)}
    return words


def _skipped(path: Path) -> bool:
    rel = path.relative_to(PACKAGE).as_posix()
    return rel.startswith("variants/") or any(rel.startswith(p + "/") for p in PENDING)


def _allowed_nodes(tree: ast.AST) -> set[int]:
    """ids of constants that are default values (of arguments, or of fields in class bodies)."""
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None:
                    allowed |= {id(n) for n in ast.walk(default)}
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                    allowed |= {id(n) for n in ast.walk(stmt.value)}
    return allowed


def python_offences(source: str, words: set[str]) -> list[tuple[int, str]]:
    """(line, text) of each string constant naming a variant that is not a default value."""
    tree = ast.parse(source)
    allowed = _allowed_nodes(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and _norm(node.value) in words
        and id(node) not in allowed
    ]


_QUOTED = re.compile(r"""(["'`])([A-Za-z_ -]+)\1""")


def js_offences(source: str, words: set[str]) -> list[tuple[int, str]]:
    """(line, text) of each quoted JS string that names a variant."""
    return [
        (lineno, match.group(0))
        for lineno, line in enumerate(source.splitlines(), 1)
        for match in _QUOTED.finditer(line)
        if _norm(match.group(2)) in words
    ]


def test_the_registry_names_every_builtin_variant() -> None:
    # The scan is only as good as its word list: the three built-in variants are in it.
    assert {"classic", "corellian_spike", "surabat_cycle", "spike", "surabat"} <= variant_words()


def test_no_variant_names_in_python_outside_variants() -> None:
    words = variant_words()
    offences = [
        f"{path.relative_to(SRC)}:{line}: {text!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not _skipped(path)
        for line, text in python_offences(path.read_text(encoding="utf-8"), words)
    ]
    assert not offences, "ask VariantInfo instead of naming a variant:\n" + "\n".join(offences)


def test_no_variant_names_in_the_web_client() -> None:
    words = variant_words()
    offences = [
        f"{path.relative_to(SRC)}:{line}: {text}"
        for path in sorted(WEB.glob("*.js"))
        for line, text in js_offences(path.read_text(encoding="utf-8"), words)
    ]
    assert not offences, "the client draws from /api/variants:\n" + "\n".join(offences)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('def f(v="classic"):\n    return v\n', []),
        ('def f(v):\n    return v == "classic"\n', [2]),
        ('X = ("corellian_spike", "surabat-cycle")\n', [1, 1]),
        ('class C:\n    variant: str = "spike"\n', []),
        ('"""The classic game."""\n', []),
        ('f(variant="corellian-spike")\n', [1]),
        ('PHASE_TITLE = "Spike"\n', []),
    ],
)
def test_the_python_scan(source: str, expected: list[int]) -> None:
    # The detector itself: comparisons, tables and call arguments are found; defaults and prose
    # are not.
    assert [line for line, _ in python_offences(source, variant_words())] == expected


def test_the_js_scan() -> None:
    text = 'if (v === "classic") x();\nconst note = "a classic look";\nf(`surabat`);\n'
    assert [line for line, _ in js_offences(text, variant_words())] == [1, 3]
