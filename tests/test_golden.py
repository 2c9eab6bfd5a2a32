"""Golden hand histories: stored games (tests/golden/, written by scripts/make_golden.py) must
replay through :func:`sabacc.replay`, the one replay path, to exactly the stored states.

Each file holds a seeded game's history, the deal of every hand, every hand's result, the final
stacks and a digest of the state after every action. A change to shuffling, dealing or any rule
that would re-deal or re-score a stored game fails here. Corellian Spike goldens replay on the
compiled core too. Regenerate the files only for a deliberate change (see the script).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import sabacc
from sabacc.variants import compiled

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
FILES = sorted(GOLDEN.glob("*.json"))

_spec = importlib.util.spec_from_file_location("make_golden", ROOT / "scripts" / "make_golden.py")
assert _spec is not None and _spec.loader is not None
make_golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_golden)


def load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == make_golden.FORMAT and doc["version"] == make_golden.VERSION
    return doc


def replay_and_compare(doc: dict[str, Any], engine: str) -> None:
    history = doc["history"]
    start = sabacc.replay(history, upto=0, engine=engine)  # type: ignore[call-overload]
    actions = [(a["seat"], a["action"]) for a in history["actions"]]
    walked = make_golden.walk(start, actions)
    for i, (got, want) in enumerate(zip(walked["digests"], doc["digests"], strict=True)):
        assert got == want, f"{doc['name']}: the state differs after action {i + 1} {actions[i]}"
    assert walked["deals"] == doc["deals"]
    assert walked["hands"] == doc["hands"]
    assert walked["final_stacks"] == doc["final_stacks"]
    assert walked["outcome"] == doc["outcome"] == history["result"]
    whole = sabacc.replay(history, engine=engine)  # type: ignore[call-overload]
    assert whole.history() == history


def test_every_variant_has_goldens() -> None:
    variants = {load(p)["history"]["variant"] for p in FILES}
    assert variants == set(sabacc.variant_names())
    assert len(FILES) == len(make_golden.CASES)
    sizes = {len(load(p)["history"]["players"]) for p in FILES}
    assert {2, 6} <= sizes


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_replays_exactly(path: Path) -> None:
    replay_and_compare(load(path), "python")


# Every variant with a compiled core (VariantInfo.compiled): its goldens replay on it too.
COMPILED = [p for p in FILES if sabacc.variant(load(p)["history"]["variant"]).info.compiled]


@pytest.mark.skipif(not compiled.available(), reason="the compiled core is not built")
@pytest.mark.parametrize("path", COMPILED, ids=[p.stem for p in COMPILED])
def test_golden_replays_on_the_compiled_core(path: Path) -> None:
    replay_and_compare(load(path), "compiled")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_different_deal_is_caught(path: Path) -> None:
    """The comparison can fail: the same actions from another seed's deal (what a changed
    shuffle would give) no longer match the stored states (or no longer apply at all)."""
    doc = load(path)
    doc["history"] = {**doc["history"], "seed": doc["history"]["seed"] + 1}
    with pytest.raises((AssertionError, sabacc.HistoryError, sabacc.IllegalActionError)):
        replay_and_compare(doc, "python")
