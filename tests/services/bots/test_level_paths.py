"""A level means one bot on every path: the library, ``sabacc simulate``, ``sabacc play`` (and
the TUI), web tables and quick match (a table's stored bots), and the RL environment all seat,
for one level in one variant, the bot that variant's bot model maps the level to; and levels
that would play the same bot are declared (and refused when not)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import ClassVar

import pytest

import sabacc
from sabacc.core.errors import OptionError
from sabacc.engine.bots import BotModel
from sabacc.services.bots import decide, level_names, make_bot
from sabacc.services.bots.base import LevelBot
from sabacc.services.bots.levels import (
    alike_levels,
    check_levels,
    level_bots,
    levels_note,
    resolve_level,
    strengths,
)
from sabacc.services.sim import SimSpec, play_game
from sabacc.variants.registry import lookup

VARIANTS = sabacc.variant_names()


def spec_of(bot: object) -> str | None:
    assert isinstance(bot, LevelBot)
    return bot.spec


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_path_seats_the_variants_bot_for_a_level(variant: str) -> None:
    from sabacc.apps.rl.gym_env import SabaccGymEnv
    from sabacc.apps.server.table import make_bots
    from sabacc.apps.tui.config import TableConfig
    from sabacc.services.store.repository import GameRecord

    info = lookup(variant)
    players = max(2, info.min_players)
    for level in level_names():
        want = resolve_level(level, info)
        assert want == level_bots(info)[level]
        # the library, told the variant (by record or by name)
        assert spec_of(make_bot(level, 1, info)) == want
        assert spec_of(make_bot(level, 1, variant)) == want
        # the library, not told: bound at its first decision from the game
        game = sabacc.new_game(variant, players=players, seed=2, log=False)
        loose = make_bot(level, 1)
        assert spec_of(loose) is None
        if level == "easy":  # one decision is enough to bind (the search levels are slow)
            decide(loose, game)
            assert spec_of(loose) == want
        # `sabacc play` and the TUI's settings (TableConfig.build)
        config = TableConfig(variant, players, (level,), seed=3)
        _, seats = config.build()
        assert {spec_of(bot) for bot in seats.values()} == {want}
        # web tables and quick match (a stored game's bots, rebuilt after a restart too)
        record = GameRecord(
            id=1,
            number=1,
            variant=info.name,
            options={},
            seed=5,
            players=["a", "b"],
            seat_tokens=[None, None],
            bots=[None, level],
            stacks=[100, 100],
            hands=0,
            action_count=0,
            result=None,
            started_at=datetime.now(UTC),
            finished_at=None,
        )
        assert spec_of(make_bots(record)[1]) == want
        # the RL environment's opponents
        env = SabaccGymEnv(variant, opponents=(level,), num_players=players)
        env.reset(seed=1)
        assert {spec_of(bot) for bot in env.bots} == {want}


def test_simulate_plays_the_level_as_the_variant_maps_it() -> None:
    """``sabacc simulate --bots easy,hard`` in Kessel plays, move for move, the games of the
    bots Kessel's levels name (the same seeds), whose ``hard`` is not Spike's."""
    info = lookup("kessel")
    assert resolve_level("hard", info) != resolve_level("hard")
    options = (("game_end", "hands:1"),)
    by_level = play_game(SimSpec("kessel", ("easy", "hard"), 2, 4, options, engine="python"), 0, 0)
    specs = (resolve_level("easy", info), resolve_level("hard", info))
    by_spec = play_game(SimSpec("kessel", specs, 2, 4, options, engine="python"), 0, 0)
    assert by_level.history()["actions"] == by_spec.history()["actions"]


def test_a_bound_level_bot_refuses_another_variant() -> None:
    bot = make_bot("easy", 1, "spike")
    game = sabacc.new_game("kessel", players=2, seed=1, log=False)
    with pytest.raises(OptionError, match="plays corellian_spike, not kessel"):
        decide(bot, game)


def test_kessel_and_coruscant_declare_their_three_strengths() -> None:
    for name in ("kessel", "coruscant_shift"):
        info = lookup(name)
        check_levels(info)
        assert alike_levels(info) == (("hard", "expert"),)
        assert strengths(info) == 3
        note = levels_note(info)
        assert note is not None and "3 bot strengths" in note and "hard and expert" in note
        assert "3段階" in (levels_note(info, "ja") or "")
    for name in ("spike", "surabat", "classic"):
        info = lookup(name)
        check_levels(info)
        assert alike_levels(info) == () and strengths(info) == 4 and levels_note(info) is None


class _Coinciding(BotModel):
    level_bots: ClassVar[dict[str, str]] = {"normal": "heuristic"}


class _Declared(_Coinciding):
    same_levels: ClassVar[tuple[tuple[str, ...], ...]] = (("easy", "normal"),)


class _Measured(BotModel):
    """Different specs, measured to play alike (declared: the UIs say so)."""

    same_levels: ClassVar[tuple[tuple[str, ...], ...]] = (("easy", "normal", "expert"),)


class _Unknown(BotModel):
    same_levels: ClassVar[tuple[tuple[str, ...], ...]] = (("easy", "insane"),)


def test_levels_that_coincide_undeclared_are_refused() -> None:
    spike = lookup("spike")
    undeclared = dataclasses.replace(spike, bot=_Coinciding())
    with pytest.raises(OptionError, match="levels easy, normal all play heuristic; declare"):
        check_levels(undeclared)
    declared = dataclasses.replace(spike, bot=_Declared())
    check_levels(declared)
    assert alike_levels(declared) == (("easy", "normal"),) and strengths(declared) == 3
    measured = dataclasses.replace(spike, bot=_Measured())
    check_levels(measured)
    assert alike_levels(measured) == (("easy", "normal", "expert"),)
    assert strengths(measured) == 2
    with pytest.raises(OptionError, match="unknown levels"):
        check_levels(dataclasses.replace(spike, bot=_Unknown()))


def test_register_refuses_levels_that_coincide_undeclared() -> None:
    """The bots' level check is one of the registry's record checks: a variant whose distinct
    levels would play one bot undeclared is not registered at all."""
    from sabacc.core.errors import UnknownVariantError
    from sabacc.variants.registry import VariantRecordError, register

    toy = dataclasses.replace(lookup("spike"), name="coinciding_toy", aliases=(), bot=_Coinciding())
    with pytest.raises(VariantRecordError, match="levels easy, normal all play heuristic"):
        register(toy)
    with pytest.raises(UnknownVariantError):
        lookup("coinciding_toy")
