"""The RL toolkit asks the variant (its ``VariantInfo.rl_spec``) instead of naming it: no
string in ``src/sabacc/apps/rl`` is a variant name or alias, except in docstrings and default
argument values."""

from __future__ import annotations

import ast
from pathlib import Path

from sabacc.variants.registry import lookup, variant_names

RL = Path(__file__).resolve().parents[3] / "src" / "sabacc" / "apps" / "rl"


def _names() -> set[str]:
    out: set[str] = set()
    for name in variant_names():
        info = lookup(name)
        out |= {info.name, *info.aliases}
    return out


def _allowed(tree: ast.AST) -> set[int]:
    """ids of the constant nodes that may name a variant: docstrings and defaults."""
    ok: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            ok.add(id(node.value))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None:
                    ok.add(id(default))
    return ok


def test_no_variant_name_in_rl_code() -> None:
    names = _names()
    found = []
    files = sorted(RL.glob("*.py"))
    assert files
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        ok = _allowed(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.lower() in names
                and id(node) not in ok
            ):
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert found == []


def test_the_check_sees_a_comparison() -> None:
    tree = ast.parse('def f(v="classic"):\n    """classic"""\n    return v == "surabat"\n')
    ok = _allowed(tree)
    hits = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in ok]
    assert [n.value for n in hits] == ["surabat"]
