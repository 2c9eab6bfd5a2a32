"""The hand-history format (sabacc.services.hand_history, docs/history-format.md): its JSON
Schema, the schema checker that needs no third-party package, validation by replay, reading and
writing, and ``sabacc history validate``."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import sabacc
from sabacc.apps.cli import app
from sabacc.core.errors import HistoryError
from sabacc.services import hand_history
from sabacc.variants.registry import lookup, variant_names
from tests.support import choose_small

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))
jsonschema = pytest.importorskip("jsonschema")
VALIDATOR = jsonschema.Draft202012Validator(hand_history.schema())


def golden(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["history"]
    return doc


def played(variant: str, seed: int = 5, steps: int | None = None, **kw: Any) -> sabacc.Game:
    g = sabacc.new_game(variant, players=3, seed=seed, **kw)
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (steps is None or n < steps):
        g.apply(choose_small(rng, g))
        n += 1
    return g


def schema_accepts(doc: Any) -> bool:
    return not list(VALIDATOR.iter_errors(doc))


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(hand_history.schema())


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_golden_history_validates(path: Path) -> None:
    doc = golden(path)
    assert schema_accepts(doc)
    assert hand_history.validate(doc) == []


def test_the_goldens_cover_every_variant() -> None:
    assert {golden(p)["variant"] for p in GOLDEN} == set(variant_names())


@pytest.mark.parametrize("variant", variant_names())
def test_every_variant_writes_valid_histories(variant: str) -> None:
    for game in (played(variant), played(variant, steps=9)):
        doc = json.loads(hand_history.dumps(game))
        assert doc == game.history()
        assert schema_accepts(doc) and hand_history.validate(doc) == []


def test_a_custom_table_history_validates() -> None:
    g = sabacc.new_game("spike", players=3, seed=2, stacks=[50, 60, 70], pause_between_hands=True)
    rng = random.Random(2)
    while not g.is_over and g.phase != "between_hands":
        g.apply(choose_small(rng, g))
    g.join("Rey", 40)
    g.rebuy(0, 10, "top_up")
    g.leave(1)
    g.deal()
    for _ in range(5):
        g.apply(choose_small(rng, g))
    doc = g.history()
    assert doc["setup"] and {e["op"] for e in doc["table"]} == {"join", "rebuy", "leave", "deal"}
    assert schema_accepts(doc) and hand_history.validate(doc) == []


def test_a_session_list_validates_and_an_empty_one_does_not() -> None:
    docs = [golden(GOLDEN[0]), golden(GOLDEN[-1])]
    assert schema_accepts(docs) and hand_history.validate(docs) == []
    assert not schema_accepts([]) and hand_history.check([])


def _broken() -> list[tuple[str, Any]]:
    """(the problem's path, a document) for ways a document can be malformed."""
    base = golden(GOLDEN[0])

    def change(path: str, how: Any) -> dict[str, Any]:
        doc = copy.deepcopy(base)
        how(doc)
        return doc

    return [
        ("/seed", change("/seed", lambda d: d.update(seed="7"))),
        ("/seed", change("/seed", lambda d: d.update(seed=True))),
        ("", change("", lambda d: d.pop("actions"))),
        ("/players", change("", lambda d: d.update(players=["solo"]))),
        ("/players/1", change("", lambda d: d["players"].__setitem__(1, ""))),
        ("/actions/0/seat", change("", lambda d: d["actions"][0].update(seat=-1))),
        ("/actions/0/seat", change("", lambda d: d["actions"][0].update(seat=8))),
        ("/actions/0/action", change("", lambda d: d["actions"][0].update(action="Bet  4"))),
        ("/actions/0/auto", change("", lambda d: d["actions"][0].update(auto="yes"))),
        ("/actions/0/x", change("", lambda d: d["actions"][0].update(x=1))),
        ("/options/rounds", change("", lambda d: d["options"].update(rounds=[2]))),
        ("/options/Bad Name", change("", lambda d: d["options"].update({"Bad Name": 1}))),
        ("/setup/stacks/0", change("", lambda d: d.update(setup={"stacks": [0, 5]}))),
        ("/setup/seats", change("", lambda d: d.update(setup={"seats": 2}))),
        ("/table/0", change("", lambda d: d.update(table=[{"op": "join", "at": 0}]))),
        ("/table/0/op", change("", lambda d: d.update(table=[{"op": "sit", "at": 0}]))),
        ("/table/0/at", change("", lambda d: d.update(table=[{"op": "deal", "at": -1}]))),
        ("/result", change("", lambda d: d.update(result={"stacks": []}))),
        ("/result/winners/0", change("", lambda d: d["result"].update(winners=[9]))),
        ("/meta/game", change("", lambda d: d.update(meta={"game": 0}))),
        ("/comment", change("", lambda d: d.update(comment="hi"))),
        ("", change("", lambda d: d.update(version=2))),
        ("", change("", lambda d: d.update(version=True))),
        ("", change("", lambda d: d.update(format="sabacc-golden"))),
    ]


@pytest.mark.parametrize(("where", "doc"), _broken())
def test_the_checker_agrees_with_the_schema_and_says_where(where: str, doc: Any) -> None:
    problems = hand_history.check(doc)
    assert not schema_accepts(doc)
    assert problems, "the checker accepted what the schema refuses"
    assert any(p.path == where for p in problems), problems
    with pytest.raises(HistoryError, match=r"not a valid sabacc hand history|version|format"):
        hand_history.loads(json.dumps(doc))


def test_validate_replays_the_actions_and_the_result() -> None:
    doc = golden(GOLDEN[0])
    bad = copy.deepcopy(doc)
    bad["actions"][2]["seat"] = 1 - bad["actions"][2]["seat"]
    assert hand_history.check(bad) == []
    (problem,) = hand_history.validate(bad)
    assert (
        problem.path == "" and "does not replay" in problem.message and "action 3" in str(problem)
    )
    assert hand_history.validate(bad, replay=False) == []
    wrong = copy.deepcopy(doc)
    wrong["result"]["stacks"] = list(reversed(wrong["result"]["stacks"]))
    assert [p.path for p in hand_history.validate(wrong)] == ["/result"]
    unfinished = copy.deepcopy(doc)
    unfinished["result"] = None
    assert "replays to its end" in str(hand_history.validate(unfinished)[0])
    cut = copy.deepcopy(doc)
    cut["actions"] = cut["actions"][:5]
    assert "replays unfinished" in str(hand_history.validate(cut)[0])
    del cut["result"]  # a writer may leave the result out
    assert hand_history.validate(cut) == []
    assert "/1" in [p.path for p in hand_history.validate([doc, bad])]


def test_read_write_round_trip(tmp_path: Path) -> None:
    game = played("kessel", seed=8)
    path = tmp_path / "game.json"
    hand_history.write(game, path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith('{\n "format": "sabacc-history",') and text.endswith("}\n")
    assert hand_history.read(path) == game.history()
    again = sabacc.replay(hand_history.read(path))
    assert again.full_state() == game.full_state()
    named = sabacc.new_game("classic", players=["Ñoño", "Ahsoka"], seed=1).history()
    assert "Ñoño" in hand_history.dumps(named)
    with pytest.raises(HistoryError, match="/seed: must be integer"):
        hand_history.dumps({**named, "seed": None})
    with pytest.raises(HistoryError, match="not JSON"):
        hand_history.loads("{")
    with pytest.raises(HistoryError, match="cannot read"):
        hand_history.read(tmp_path / "missing.json")


runner = CliRunner()


def test_cli_validate(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    bad = tmp_path / "bad.json"
    good.write_text(json.dumps(golden(GOLDEN[0])))
    doc = golden(GOLDEN[1])
    doc["actions"][0]["seat"] = "zero"
    bad.write_text(json.dumps(doc))
    ok = runner.invoke(app, ["history", "validate", str(good)])
    assert ok.exit_code == 0 and f"{good}: valid" in ok.output
    no = runner.invoke(app, ["history", "validate", str(good), str(bad)])
    assert no.exit_code == 1
    assert f"{bad}: invalid" in no.output and "/actions/0/seat: must be integer" in no.output
    out = runner.invoke(app, ["history", "validate", "--json", str(bad)])
    assert json.loads(out.output) == {
        "valid": False,
        "files": {str(bad): ["/actions/0/seat: must be integer"]},
    }
    (tmp_path / "junk.json").write_text("{")
    junk = runner.invoke(app, ["history", "validate", str(tmp_path / "junk.json")])
    assert junk.exit_code == 2 and "is not JSON" in junk.output
    missing = runner.invoke(app, ["history", "validate", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_cli_prints_the_schema() -> None:
    out = runner.invoke(app, ["history", "schema"])
    assert out.exit_code == 0 and json.loads(out.output) == hand_history.schema()


def test_the_specification_lists_every_variants_action_forms() -> None:
    """docs/history-format.md's action table follows the variants' declared action kinds."""
    spec = (ROOT / "docs" / "history-format.md").read_text(encoding="utf-8")
    table = spec.split("## Actions", 1)[1].split("\n## ", 1)[0]
    rows = {
        line.split("(`")[1].split("`)")[0]: line
        for line in table.splitlines()
        if line.startswith("| ") and "(`" in line
    }
    assert set(rows) == set(variant_names())
    for name in variant_names():
        forms = {kind.form for kind in lookup(name).actions}
        listed = {f.strip(" `") for f in rows[name].split("|")[2].split(",")}
        assert listed == forms, name
