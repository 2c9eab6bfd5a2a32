"""Kessel Sabacc at the terminal table: piles, seats, token hand, draw flow, dice, reveal.

Everything the table shows for Kessel comes from the variant's ``TableDisplay`` declaration;
these pilot tests play real games (bots with no delay, fixed seeds) by keys and clicks.
"""

from __future__ import annotations

import pytest

import sabacc
from sabacc.apps.tui.controls import build_choices, legal_texts
from sabacc.apps.tui.view import card_lines, chip, colour_cards, side_hand_text
from tests.apps.tui.helpers import make_app, screen_text, settle

KESSEL = "kessel"


def test_sand_is_gold_and_blood_is_red() -> None:
    assert "dark_goldenrod" in str(chip(KESSEL, "3s").style)
    assert "dark_red" in str(chip(KESSEL, "5b").style)
    assert chip(KESSEL, "Ib").plain == "I●"
    sand = card_lines(KESSEL, "0s")
    assert any("yellow" in str(span.style) for span in sand[1].spans)
    assert any("red" in str(span.style) for span in card_lines(KESSEL, "4b")[1].spans)
    assert "Sylop" in sand[2].plain
    line = colour_cards(KESSEL, "You show Is 5b")
    assert line.plain == "You show I◆ 5●"  # the log writes cards as the cards show them
    styles = {line.plain[s.start : s.end]: str(s.style) for s in line.spans}
    assert "yellow" in styles["I◆"] and "red" in styles["5●"]


def test_every_legal_action_is_one_choice_away_in_random_play() -> None:
    import random

    rng = random.Random(5)
    for seed in range(6):
        game = sabacc.new_game(KESSEL, players=3, seed=seed)
        steps = 0
        while not game.is_over and steps < 300:
            seat = game.current_player
            assert seat is not None
            obs = game.observation(seat)
            choices = build_choices(obs, "en", game.parse_action)
            assert sorted(legal_texts(choices)) == sorted(str(a) for a in game.legal_actions())
            keys = [c.key for c in choices]
            assert len(keys) == len(set(keys))
            game.apply(rng.choice(game.legal_actions()))
            steps += 1


def test_token_menu_lists_each_token_with_its_effect() -> None:
    game = sabacc.new_game(KESSEL, players=3, seed=2, shift_tokens="free_draw,target_tariff")
    seat = game.current_player
    assert seat is not None
    obs = game.observation(seat)
    token = next(c for c in build_choices(obs, "en", game.parse_action) if c.key == "t")
    texts = [str(o.action) for o in token.options]
    assert "token free_draw" in texts
    assert sum(t.startswith("token target_tariff") for t in texts) == 2  # one per opponent
    menu = side_hand_text(obs, "en", token)
    assert menu is not None and "this turn's draw costs nothing" in menu.plain
    ja = side_hand_text(obs, "ja", next(c for c in build_choices(obs, "ja", game.parse_action)))
    assert ja is not None


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_kessel_table_fits_without_clipping(size: tuple[int, int]) -> None:
    app = make_app(KESSEL, players=4, seed=3, options={"shift_tokens": "draft"})
    async with app.run_test(size=size) as pilot:
        assert await settle(pilot) == "human"
        text = screen_text(app)
        game = app.game
        assert game is not None
        obs = game.observation(0)
        for label in ("[1] Sand", "[2] Blood", "[3] Sand", "[4] Blood", "draw 17", "discard 1"):
            assert label in text, label
        back = "╭─────╮" if size == (80, 24) else "╭───────╮"  # 9×7 cards at 120×40
        assert text.count(back) >= 2  # the two draw piles' backs (the rest are faces)
        assert "Shift tokens [t]" in text
        from sabacc.variants.kessel.text import TOKEN_NAMES

        for token in obs["my_tokens"]:
            assert TOKEN_NAMES["en"][token] in text, token
        for label in ("stand", "Sand top", "Blood top", "Token"):
            assert label in text, label
        # the phase is named "Turn": the action bar says "Your turn", not "Your turn · Turn"
        assert "Your turn" in text and "Your turn · Turn" not in text
        for seat in obs["seats"][1:]:
            assert seat["name"] in text
        for s, seat in enumerate(obs["seats"]):  # each round pot and token count, at its seat
            assert f"pot {seat['committed']}" in text
            assert f"tok {obs['tokens_left'][s]}" in text
        assert f"· pot {obs['seats'][0]['committed']}" in text  # yours, in your box's title
        for code in obs["you"]["cards"]:
            assert code[0] in text


@pytest.mark.asyncio
async def test_a_kessel_game_by_keys_and_clicks_to_its_end() -> None:
    app = make_app(
        KESSEL,
        players=3,
        seed=4,
        options={"chips": 4, "game_end": "rounds:3", "shift_tokens": "free_draw,refund"},
    )
    used_token = drew_by_click = chose_die = reviewed = penalty_shown = False
    async with app.run_test(size=(80, 24)) as pilot:
        game = app.game
        assert game is not None
        state = await settle(pilot)
        for _ in range(400):
            if state == "over":
                break
            if state == "review":
                reviewed = True
                text = screen_text(app)
                assert "over" in text and "You" in text
                penalty_shown = penalty_shown or "penalty" in text  # a loser's pot and penalty
                await pilot.press("enter")
            else:
                keys = [c.key for c in app.table.choices]
                phase = game.phase
                if "t" in keys and not used_token:
                    await pilot.press("t")
                    assert "this turn's draw costs nothing" in screen_text(app)
                    await pilot.press("1")  # Free Draw
                    used_token = True
                    assert "free_draw" in game.observation(0)["tokens_used"][0]
                elif phase == "turn" and not drew_by_click and "1" in keys:
                    await pilot.click("#pile-cards-0")
                    drew_by_click = game.phase == "draw"
                    assert drew_by_click
                elif phase == "draw":
                    assert set(keys) == {"k", "x"}
                    await pilot.press("k")
                elif phase in ("impostor", "prime"):
                    dice = game.observation(0)["dice"]
                    assert "Dice" in screen_text(app)
                    await pilot.press(str(max(dice)))
                    chose_die = True
                else:
                    await pilot.press("s" if "s" in keys else keys[0])
            state = await settle(pilot)
        assert state == "over"
        assert game.is_over
    assert used_token and drew_by_click and reviewed and penalty_shown
    del chose_die  # an Impostor at the reveal depends on the deal; see the random-play test
