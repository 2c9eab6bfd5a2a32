"""Scaffolding the compiled cores' tests share (``tests/variants/test_*_core*.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

VARIANTS = Path(__file__).resolve().parents[2] / "src" / "sabacc" / "variants"


def stub_members(stub: str, name: str) -> set[str]:
    """The public members class ``name`` declares in the type stub ``stub`` (a file name in
    ``sabacc/variants``), those of its stub bases included: a base class of the same stub, or
    ``CoreMembers`` of the stub-only ``_core_protocol.pyi`` (the members every core includes
    from ``_core_protocol.pxi``)."""
    classes: dict[str, ast.ClassDef] = {}
    for file in (stub, "_core_protocol.pyi"):
        tree = ast.parse((VARIANTS / file).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, node)
    names: set[str] = set()
    todo = [name]
    while todo:
        cls = classes[todo.pop()]
        todo.extend(b.id for b in cls.bases if isinstance(b, ast.Name))
        for node in cls.body:
            if isinstance(node, ast.FunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return {n for n in names if not n.startswith("_")}


def assert_stub_matches(stub: str, cls: type) -> None:
    """The stub (what mypy checks ``GameProtocol`` against) lists exactly the public members
    of the built class ``cls``."""
    stub_names = stub_members(stub, cls.__name__)
    runtime = {n for n in dir(cls) if not n.startswith("_")}
    assert stub_names - runtime == set(), "in the stub, not in the core"
    assert runtime - stub_names == set(), "in the core, not in the stub"
