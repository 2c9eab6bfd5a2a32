"""Services and apps use games through their public protocol only: no ``game._bet_unit()``,
``game._rounds()`` or any other private member of an engine called from outside the engines.

Checked over the source (AST): an attribute ``x._name`` with ``x`` not ``self``/``cls``, where
``_name`` is a private member of a game on either engine, is a reach past the protocol.
"""

from __future__ import annotations

import ast
from pathlib import Path

import sabacc
from sabacc.engine.game import Game
from sabacc.variants import compiled

SRC = Path(__file__).resolve().parents[2] / "src" / "sabacc"
OUTSIDE = [SRC / "services", SRC / "apps"]


def private_members() -> set[str]:
    """Private (single underscore) names of every engine's games: class and instance members."""
    names: set[str] = set()
    samples: list[object] = [sabacc.new_game(v, players=3, seed=1) for v in sabacc.variant_names()]
    if compiled.available():
        samples.append(sabacc.new_game("spike", players=3, seed=1, engine="compiled"))
    for obj in [Game, *samples]:
        names.update(dir(obj))
        names.update(getattr(obj, "__dict__", {}))
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def reaches(path: Path, private: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in private:
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            found.append(f"{path.relative_to(SRC)}:{node.lineno}: .{node.attr}")
    return found


def test_private_members_are_known() -> None:
    private = private_members()
    assert {"_bet_unit", "_rounds", "_legal", "_perform"} <= private


def test_no_private_engine_member_is_used_outside_the_engines() -> None:
    private = private_members()
    found = [
        hit for root in OUTSIDE for path in root.rglob("*.py") for hit in reaches(path, private)
    ]
    assert not found, "use the game's public protocol instead:\n" + "\n".join(found)
