"""The observation schema: docs/observation.schema.json is current, and real observations of
every variant (both engines for Corellian Spike, every seat and a spectator, through whole games
with house rules) validate against it; the schema is closed, so an unknown key fails too."""

from __future__ import annotations

import importlib.util
import json
import random
import typing
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
import sabacc.engine.observation
from sabacc.engine.observation import SCHEMA_VERSION
from sabacc.variants import compiled
from sabacc.variants.registry import variant_names

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "observation.schema.json"


def _gen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_schema", ROOT / "scripts" / "gen_schema.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _gen()
VALIDATOR = jsonschema.Draft202012Validator(json.loads(DOC.read_text(encoding="utf-8")))
#: House rules that change what an observation shows (betting structures, rounds, caps...).
HOUSE_RULES: dict[str, list[dict[str, Any]]] = {
    "corellian_spike": [{}, {"betting": "pot_limit", "rounds": 2}, {"buy_in": 12}],
    "surabat_cycle": [{}, {"hand_cap": 3}],
    "classic": [{}, {"bet_limit": 5, "max_orbits": 2}],
}


def test_the_schema_document_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == GEN.text(), (
        "docs/observation.schema.json is stale: run python scripts/gen_schema.py"
    )
    jsonschema.Draft202012Validator.check_schema(GEN.schema())
    assert set(GEN.schema()["$defs"]) >= {"SeatObservation", "PotsObservation"}


def _play(game: Any, rng: random.Random, steps: int) -> list[Any]:
    """Observations of every seat and a spectator at every decision of random play."""
    seen = []
    for _ in range(steps):
        for seat in [None, *range(game.num_players)]:
            seen.append(game.observation(seat))
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return seen


def _errors(obs: Any) -> list[str]:
    # Through JSON, as the web protocol sends it: the dict must be JSON with nothing lost.
    sent = json.loads(json.dumps(obs))
    assert sent == obs
    return [e.message for e in VALIDATOR.iter_errors(sent)]


@pytest.mark.parametrize("variant", variant_names())
def test_real_observations_validate(variant: str) -> None:
    engines: list[Any] = ["python"]
    if variant == "corellian_spike" and compiled.available():
        engines.append("compiled")
    for engine in engines:
        for k, rules in enumerate(HOUSE_RULES.get(variant, [{}])):
            for players in (2, 4):
                game = sabacc.new_game(
                    variant, players=players, seed=k * 10 + players, engine=engine, **rules
                )
                for obs in _play(game, random.Random(k), 300):
                    assert obs["schema_version"] == SCHEMA_VERSION
                    assert _errors(obs) == [], (variant, engine, rules, obs["phase"])


@settings(max_examples=10, deadline=None)
@given(
    variant=st.sampled_from(variant_names()),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
)
def test_observations_validate_in_any_game(variant: str, players: int, seed: int) -> None:
    game = sabacc.new_game(variant, players=players, seed=seed)
    for obs in _play(game, random.Random(seed), 150):
        assert _errors(obs) == []


def test_the_schema_is_closed() -> None:
    obs: Any = sabacc.new_game("classic", players=2, seed=1).observation(0)
    assert _errors(obs) == []
    obs["surprise"] = 1
    assert _errors(obs)
    del obs["surprise"]
    obs["seats"][0]["stack"] = 2.5  # a fractional stack is not an observation
    assert _errors(obs)
    obs["seats"][0]["stack"] = 3
    obs["variant"] = "corellian_spike"  # classic's keys under another variant's name
    assert _errors(obs)


def test_the_web_protocol_states_the_schema() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert "observation.schema.json" in text
    assert f"observation schema, version {SCHEMA_VERSION}" in text
    protocol = pytest.importorskip("sabacc.apps.server.protocol")
    assert protocol.OBSERVATION_SCHEMA_VERSION == SCHEMA_VERSION


def test_the_types_are_exported() -> None:
    assert sabacc.Observation is sabacc.engine.observation.Observation
    assert sabacc.OBSERVATION_SCHEMA_VERSION == SCHEMA_VERSION
    base = set(typing.get_type_hints(sabacc.Observation))
    for name in variant_names():
        observation_type = sabacc.variant(name).info.game_type.observation_type
        assert base < set(typing.get_type_hints(observation_type))  # the engine's part, and more
