"""What a newcomer tripped on at the terminal table (issue 35), each case driven with the pilot."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.widgets import Static

from sabacc.apps.tui import SabaccApp, TableConfig
from sabacc.apps.tui.widgets import CardsView, SeatView
from tests.apps.tui.helpers import keys_now, screen_text, settle


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_coruscant_totals_the_kept_set_and_marks_its_cards(lang: str) -> None:
    """N2: after keeping one card the total is that card's value (not the five cards' sum)
    and the kept card is marked in the hand."""
    config = TableConfig(variant="coruscant_shift", players=2, seed=7, bot_delay=0)
    app = SabaccApp(config, lang=lang)
    async with app.run_test(size=(120, 40)) as pilot:
        assert await settle(pilot) == "human"
        assert "k" in keys_now(app)
        await pilot.press("k")
        assert app.table.mode == "subset"
        await pilot.press("1")
        await pilot.press("enter")
        await settle(pilot)
        game = app.table.game
        assert game is not None
        obs = game.observation(0)
        kept = obs["kept"]
        assert len(kept) == 1
        hand = app.table.query_one("#hand", CardsView)
        assert hand.kept == 1
        assert hand.codes[0] == kept[0]
        value = obs["you"]["values"][0]
        assert sum(obs["you"]["values"]) != value  # the five cards' sum is not the kept total
        box = app.table.query_one("#you")
        subtitle = Text.from_markup(str(box.border_subtitle)).plain
        shown = f"{value:+d}" if value else "0"
        word = {"en": "Total ", "ja": "合計 "}[lang]
        assert f"{word}{shown}" in subtitle, subtitle
        assert {"en": "Kept 1", "ja": "キープ 1 枚"}[lang] in subtitle, subtitle
        assert "✓" in screen_text(app)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_last_rounds_bets_are_not_shown_in_the_next_phase(lang: str) -> None:
    """B14: after a betting round the seats, your box and the pot line still said "bet 5" in
    the next card phase; a round's bets show only while it is under way."""
    config = TableConfig(variant="corellian_spike", players=3, seed=3, bot_delay=0)
    app = SabaccApp(config, lang=lang)
    word = {"en": "bet 5", "ja": "ベット 5"}[lang]
    async with app.run_test(size=(120, 40)) as pilot:
        assert await settle(pilot) == "human"
        await pilot.press("s")  # stand
        assert await settle(pilot) == "human"
        assert "b" in keys_now(app)
        await pilot.press("b", "5", "enter")
        assert await settle(pilot) == "human"
        game = app.table.game
        assert game is not None
        obs = game.observation(0)
        assert obs["phase"] != "betting"
        assert any(s["round_bet"] for s in obs["seats"])  # the engine still holds them
        seats = [str(v.render()) for v in app.table.query(SeatView)]
        assert not any(word in body for body in seats), seats
        title = Text.from_markup(str(app.table.query_one("#you").border_title)).plain
        assert word not in title, title
        centre = str(app.table.query_one("#centre-text", Static).render())
        assert word.lower() not in centre.lower(), centre


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "'s turn · your bet"), ("ja", "の番 · あなたのベット")]
)
def test_a_bet_in_another_seats_turn_says_it_is_yours_to_bet(lang: str, said: str) -> None:
    """N17: "Bot 1's turn · you to act" read as a contradiction; in a betting round of
    another seat's turn the bar says what is yours to do: "Bot 1's turn · your bet"."""
    import random

    import sabacc
    from sabacc.apps.tui.view import info_parts

    game = sabacc.new_game("classic", players=3, seed=1)
    rng = random.Random(1)
    while not game.is_over:
        obs = game.observation(game.current_player)
        if obs["phase"] == "betting" and obs["turn"] != obs["seat"]:
            break
        game.apply(rng.choice(list(game.legal_actions())))
    assert not game.is_over
    parts = info_parts(obs, lang)
    assert any(said in p for p in parts), parts


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("variant", "lang", "unit"),
    [
        ("kessel", "en", " ▮"),
        ("kessel", "ja", " ▮"),
        ("corellian_spike", "ja", " クレ "),
        ("corellian_spike", "en", " cr "),
    ],
)
async def test_seats_count_stacks_in_the_variants_unit_and_language(
    variant: str, lang: str, unit: str
) -> None:
    """N14, N11: Kessel's seats said "cr" beside "chips" in your box; Japanese seats said
    "cr". A seat's stack is in the player's language, and never in a unit the variant does
    not use (Kessel's seats have no room for "chips": the bare count)."""
    config = TableConfig(variant=variant, players=3, seed=2, bot_delay=0)
    app = SabaccApp(config, lang=lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        shown = [Text.from_markup(str(v.render())).plain for v in app.table.query(SeatView)]
        bodies = [b for b in shown if b.strip()]  # the seats of this table (others are empty)
        assert len(bodies) == 2 and all(unit in b for b in bodies), bodies
        if unit != " cr ":
            assert not any(" cr " in b for b in bodies), bodies
