"""The server's shape (issue 31): split by reason to change, no giant function or module.

Every function and method in ``sabacc/apps/server`` fits on a screen (at most 80 lines, from
its ``def`` to its last line), no module there is over 450 lines, and the table manager is a
facade over collaborators in modules of their own, not one class with every method.
"""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "sabacc" / "apps" / "server"
MAX_FUNCTION = 80
MAX_MODULE = 450
#: The most methods the manager's facade may have (it had about 60, every one with its body).
MAX_MANAGER_METHODS = 40


def _modules() -> list[Path]:
    found = sorted(SERVER.rglob("*.py"))
    assert len(found) > 10, f"no server modules under {SERVER}"
    return found


def test_no_function_in_the_server_is_over_80_lines() -> None:
    long = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([d.lineno for d in node.decorator_list] + [node.lineno])
                size = (node.end_lineno or node.lineno) - start + 1
                if size > MAX_FUNCTION:
                    long.append(f"{path.relative_to(SERVER)}: {node.name} ({size} lines)")
    assert not long, long


def test_no_server_module_is_a_giant() -> None:
    big = []
    for path in _modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE:
            big.append(f"{path.relative_to(SERVER)}: {lines} lines")
    assert not big, big


def test_the_manager_is_a_facade_over_collaborators() -> None:
    """Each reason to change has its module, and the manager's methods only hand calls on."""
    for name in ("registry", "seating", "play", "presence", "chat", "persistence", "cluster"):
        assert (SERVER / f"{name}.py").is_file(), name
    for name in ("pages", "tables", "accounts", "community"):
        assert (SERVER / "routes" / f"{name}.py").is_file(), name
    assert (SERVER / "ws.py").is_file()
    tree = ast.parse((SERVER / "manager.py").read_text(encoding="utf-8"))
    (manager,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TableManager"]
    methods = [n for n in manager.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    assert len(methods) <= MAX_MANAGER_METHODS, len(methods)
    for method in methods:
        if method.name == "__init__":
            continue
        body = [s for s in method.body if not isinstance(s, ast.Expr)]  # less the docstring
        assert len(body) <= 4, f"TableManager.{method.name} does more than hand a call on"
