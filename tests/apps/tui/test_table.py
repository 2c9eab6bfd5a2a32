"""The full-screen table driven by key presses and clicks (Textual pilot, 80×24)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, Input, RichLog, Select, Static

import sabacc
from sabacc.apps.tui import SabaccApp, TableConfig, hints
from sabacc.apps.tui.screens import (
    ConfirmQuitScreen,
    GameOverScreen,
    RulesScreen,
    SettingsScreen,
)
from sabacc.apps.tui.view import colour_cards
from sabacc.apps.tui.widgets import ActionBar, CardsView, SeatView
from sabacc.core.actions import Action
from sabacc.engine.observation import Observation
from tests.apps.tui.helpers import keys_now, make_app, play_until, screen_text, settle

pytestmark = pytest.mark.asyncio


def log_text(app: SabaccApp) -> str:
    return "\n".join(line.text for line in app.table.query_one("#log", RichLog).lines)


async def test_start_shows_the_table() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "human"
        text = screen_text(app)
        assert "Corellian Spike" in text and "Hand 1" in text and "Card phase" in text
        for name in ("Bot 1", "Bot 2", "Bot 3"):
            assert name in text
        assert "Pot 4" in text and "Sabacc pot 4" in text
        assert "You (D)" in text and "98 credits" in text  # dealer button, stack after antes
        assert "Discard" in text and "Draw" in text
        game = app.game
        assert game is not None
        cards = game.observation(0)["you"]["cards"]
        hand = app.table.query_one("#hand", CardsView)
        assert hand.codes == cards
        assert "╭1────╮" in text  # the cards are drawn, numbered
        # every legal action has a key on screen
        bar = app.table.query_one(ActionBar)
        assert keys_now(app) == ["s", "g", "d", "e"]
        labels = " ".join(bar.labels())
        for key in ("s", "g", "d", "e"):
            assert f" {key}  " in labels
        assert "Your turn" in text
        # the log tells the hand so far, our own cards included
        # the log writes cards as the cards show them (one notation): +4t is +4▲
        dealt = colour_cards(game.variant, " ".join(cards)).plain
        assert "You are dealt: " + dealt in log_text(app)
        # keys that are not offered do nothing
        n = len(game.actions)
        await pilot.press("r", "b", "c", "j", "x", "m", "1", "enter", "escape")
        assert len(game.actions) == n and app.table.mode == "play"
        # the footer shows the global keys; `h` (odds hints) only when odds are available
        shown = {k for k, b in app.screen.active_bindings.items() if b.binding.show and b.enabled}
        assert {"question_mark", "n", "q"} <= shown
        assert ("h" in shown) == hints.available()


async def test_a_hand_played_by_keys_reaches_the_showdown_summary() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await play_until(pilot, "review", prefer="cs") == "review"
        game = app.game
        assert game is not None
        result = game.hand_results[0]
        assert result.reason == "showdown"
        text = screen_text(app)
        assert "Hand 1 over (showdown)" in text
        main = result.pots[0]
        winner = "You" if main.winners[0] == 0 else game.names[main.winners[0]]
        hand_name = result.hands[main.winners[0]][1]
        assert hand_name is not None
        centre = centre_text(app)
        assert f"{winner} win" in centre and f"the main pot ({main.amount})" in centre
        assert f"with {hand_name.name}" in centre and "Net this hand: " in centre
        # every hand at the showdown is revealed on its seat
        for seat, (cards, _value) in result.hands.items():
            if seat == 0:
                assert app.table.query_one("#hand", CardsView).codes == list(cards)
            else:
                body = str(app.table.query_one(f"#seat-{seat}", SeatView).render())
                for code in cards:
                    assert code.rstrip("cst") in body
        assert "next hand" in " ".join(app.table.query_one(ActionBar).labels())
        # Enter: on to hand 2, with a fresh log
        await pilot.press("enter")
        await settle(pilot)
        assert app.table.review is None
        assert "Hand 2" in screen_text(app)
        assert "Hand 1" not in log_text(app)


async def test_swap_picks_a_card_by_number_and_escape_cancels() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.game
        assert game is not None
        before = game.observation(0)
        top = before["discard_top"]
        await pilot.press("d")
        assert app.table.mode == "pick"
        assert "Give which card" in app.table.query_one(ActionBar).prompt
        assert app.table.query_one("#hand", CardsView).highlight == {0, 1}
        await pilot.press("escape")
        assert app.table.mode == "play"
        assert len(game.actions) == len([a for a in game.actions])  # nothing applied
        # h: odds hints for the options at hand
        await pilot.press("h")
        hint = str(app.table.query_one("#you-summary").render())
        assert hint.startswith("Odds ") and "↑" in hint
        await pilot.press("h")
        assert not app.table.query_one("#you-summary").display
        n = len(game.actions)
        await pilot.press("d", "2")
        assert game.actions[n] == (0, f"swap discard {before['you']['cards'][1][:-1]}")
        assert top in game.observation(0)["you"]["cards"]


async def test_bet_sizing_with_keys_never_leaves_the_legal_range() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        assert await settle(pilot) == "human"
        game = app.game
        assert game is not None
        assert game.phase == "betting"
        assert keys_now(app) == ["c", "b", "j"]
        lo, hi = game.legal().bet or (0, 0)
        await pilot.press("b")
        sizer = app.table.sizer
        assert sizer is not None and (sizer.low, sizer.high) == (lo, hi)
        assert sizer.value == lo
        await pilot.press("left")  # already at the minimum
        assert sizer.value == lo
        await pilot.press("right", "right", "up")
        assert sizer.value == lo + 7
        await pilot.press("a")
        assert sizer.value == hi
        await pilot.press("right")
        assert sizer.value == hi
        await pilot.press("9", "9")  # 99: out of range, shown but cannot be confirmed
        assert not sizer.valid
        await pilot.press("enter")
        assert app.table.mode == "size" and game.current_player == 0
        assert "out of range" in screen_text(app)
        await pilot.press("backspace", "backspace")
        for digit in str(hi + 21):  # past the maximum's digits: still the typed number
            await pilot.press(digit)
        assert sizer.value == hi + 21 and not sizer.valid
        await pilot.press("enter")
        assert app.table.mode == "size" and game.current_player == 0
        for _ in str(hi + 21):
            await pilot.press("backspace")
        await pilot.press("1", "2")
        assert sizer.value == 12 and sizer.valid
        assert "Bet 12" in screen_text(app)
        await pilot.press("escape")
        assert app.table.mode == "play"
        n = len(game.actions)
        await pilot.press("b", "m", "right", "enter")
        assert game.actions[n] == (0, f"bet {lo + 1}")


async def test_mouse_clicks_on_buttons_and_cards() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.game
        assert game is not None
        bar = app.table.query_one(ActionBar)
        swap = bar.button_for("d")
        assert swap is not None
        await pilot.click(f"#{swap.id}")
        assert app.table.mode == "pick"
        card = game.observation(0)["you"]["cards"][0]
        n = len(game.actions)
        await pilot.click("#hand", offset=(3, 2))  # the first card
        assert game.actions[n] == (0, f"swap discard {card[:-1]}")
        await settle(pilot)
        check = bar.button_for("c")
        assert check is not None
        await pilot.click(f"#{check.id}")
        assert game.actions[n + 1 :][-1][0] != 0 or game.actions[-1] == (0, "check")
        assert (0, "check") in game.actions


async def test_surabat_table_shows_sun_and_moon_and_picks_a_sun_card() -> None:
    app = make_app(variant="surabat_cycle", players=3, seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "human"
        game = app.game
        assert game is not None
        obs = game.observation(0)
        text = screen_text(app)
        assert "Sun (3)" in text and "Moon (2)" in text and "Discards 0" in text
        await pilot.press("g")
        assert app.table.mode == "pick"
        assert "Take which Sun card?" in app.table.query_one(ActionBar).prompt
        n = len(game.actions)
        await pilot.press("3")
        assert game.actions[n] == (0, f"gain {obs['sun'][2][:-1]}")
        assert obs["sun"][2] in game.observation(0)["you"]["cards"]
        # ? shows the rules of the variant at hand
        await pilot.press("question_mark")
        assert isinstance(app.screen, RulesScreen)
        assert "Surabat Cycle: rules" in screen_text(app)
        assert "Sun pile" in str(app.screen.query_one("#rules-text").render())
        # with the variant's hand glossary
        assert "Yee-Haa: a Sylop and at least one pair" in str(
            app.screen.query_one("#rules-text").render()
        )
        await pilot.press("escape")
        assert not isinstance(app.screen, RulesScreen)


async def test_classic_hand_by_keys() -> None:
    app = make_app(variant="classic", players=3, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "human"
        text = screen_text(app)
        assert "Classic Sabacc" in text and "Betting phase" in text
        assert "fold" in " ".join(app.table.query_one(ActionBar).labels())
        assert await play_until(pilot, "review", prefer="cs") == "review"
        game = app.game
        assert game is not None
        assert "Hand 1 over" in screen_text(app)


async def test_classic_summary_shows_the_callers_penalty() -> None:
    """Calling the hand and not winning costs a penalty: the summary says so, with its reason."""
    import sabacc
    from sabacc.core import events as ev
    from sabacc.engine.game import Game
    from sabacc.services.bots import decide, make_bot

    game = sabacc.new_game("classic", players=3, seed=19, game_end="hands:3")
    assert isinstance(game, Game)
    bots = {s: make_bot("heuristic", s) for s in range(3)}
    while game.hand_no == 1:  # heuristic bots in every seat play hand 1 (its caller loses)
        seat = game.current_player
        assert seat is not None
        game.apply(decide(bots[seat], game), seat=seat)
    paid = [e for e in game.events if isinstance(e, ev.Paid) and e.reason == "caller did not win"]
    assert paid, "seed 19 no longer has a lost call in hand 1"
    config = TableConfig(variant="classic", players=3, seed=19, bot_delay=0)
    app = SabaccApp(config, game=game, bots={1: bots[1], 2: bots[2]})
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "review"
        who = "You pay" if paid[0].seat == 0 else f"{game.names[paid[0].seat]} pays"
        line = f"{who} {paid[0].amount} to the sabacc pot"
        assert line in centre_text(app)
        log = app.table.query_one("#log", RichLog)
        assert any(line in strip.text for strip in log.lines)  # and in the log


async def _open_settings(
    pilot: Pilot[None], app: SabaccApp, options: dict[str, str]
) -> SettingsScreen:
    await settle(pilot)
    await pilot.press("n")
    await pilot.pause()
    assert isinstance(app.screen, SettingsScreen)
    screen = app.screen
    screen.query_one("#variant", Select).value = "surabat_cycle"
    await pilot.pause()
    await pilot.pause()
    screen.query_one("#players", Select).value = 3
    screen.query_one("#seed", Input).value = "7"
    for name, value in options.items():
        control = screen.query_one(f"#opt-{name}")
        if isinstance(control, Select):
            control.value = value
        else:
            assert isinstance(control, Input)
            control.value = value
    await pilot.pause()
    assert screen.query_one("#players", Select).value == 3
    return screen


async def test_settings_screen_refuses_a_number_out_of_its_range() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_settings(pilot, app, {"rounds": "0"})
        await pilot.click("#start")
        await pilot.pause()
        assert app.screen is screen  # a bad house rule is reported, nothing starts
        error = str(screen.query_one("#settings-error").render())
        assert "Rounds: 0 is not allowed (1 or more, or none)" in error
        start = screen.query_one("#start")
        assert start.region.bottom <= 24  # still on screen under the error message
        screen.query_one("#opt-rounds", Input).value = "two"
        screen.action_start()
        await pilot.pause()
        assert "'two' is not a whole number" in str(screen.query_one("#settings-error").render())
        assert app.game is not None and app.game.variant == "corellian_spike"


async def test_settings_screen_starts_a_new_game() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_settings(pilot, app, {"rounds": "2", "betting": "pot_limit"})
        old_game = app.game
        await pilot.click("#start")
        for _ in range(200):  # the settings screen closes and the new table is built
            await pilot.pause()
            if app.game is not old_game and app.screen is not screen:
                break
        assert await settle(pilot) == "human"
        game = app.game
        assert game is not None
        assert (game.variant, game.n, game.seed) == ("surabat_cycle", 3, 7)
        options = dataclasses.asdict(game.options)
        assert options["rounds"] == 2 and options["betting"] == "pot_limit"
        assert "round 1/2" in screen_text(app)


@pytest.mark.parametrize("variant", sabacc.variant_names())
async def test_every_house_rule_is_a_labelled_control(variant: str) -> None:
    """Before a game (--setup), each of the variant's house rules has a label in words and a
    dropdown of its choices or a number box with its range; the help line follows the focus."""
    from sabacc.core.options import OptionSpec

    config = TableConfig(variant=variant, seed=4, bot_delay=0)
    app = SabaccApp(config, setup=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        specs: list[OptionSpec] = list(sabacc.variant(variant).info.options_type.specs())
        assert specs
        for spec in specs:
            control = screen.query_one(f"#opt-{spec.name}")
            label = screen.option_label(spec.name)
            assert "_" not in label and label[0].isupper(), label
            if spec.kind == "choice":
                assert isinstance(control, Select)
                assert control.value == str(spec.default)
            elif spec.kind == "bool":
                assert isinstance(control, Select) and control.value in ("true", "false")
            elif spec.presets:  # a dropdown of presets, the default first, in words
                assert isinstance(control, Select) and control.value == ""
                for item in spec.items:  # a multi-valued rule: a checkbox per item
                    assert isinstance(screen.query_one(f"#opt-{spec.name}-item-{item}"), Checkbox)
            else:
                assert isinstance(control, Input)
                if spec.kind == "int" and spec.minimum is not None and spec.name != "game_end":
                    assert str(spec.minimum) in control.placeholder, control.placeholder
            if isinstance(control, Select):  # every value in words, never raw
                shown = [str(prompt) for prompt, _ in control._options]
                raw = [x for x in shown if "_" in x or ":N" in x or x in ("true", "false")]
                assert not raw, (spec.name, raw)
        first = screen.query_one(f"#opt-{specs[0].name}")
        first.focus()
        await pilot.pause()
        help_line = str(screen.query_one("#settings-help").render())
        assert help_line.startswith(screen.option_label(specs[0].name) + ":")
        screen.action_start()  # the defaults start a game
        assert await settle(pilot) in ("human", "review")
        assert app.game is not None and app.game.variant == variant


async def test_settings_speak_japanese() -> None:
    app = SabaccApp(TableConfig(variant="kessel", seed=4, bot_delay=0), setup=True, lang="ja")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for words in ("新しいゲーム：設定", "バリアント", "ハウスルール", "チップ", "開始"):
            assert words in text, words


async def test_settings_offer_the_levels_and_say_which_play_the_same_bot() -> None:
    """The bots' picker offers the levels and random only; Kessel's settings say that its
    hard and expert play one bot, Spike's say nothing of it."""
    app = SabaccApp(TableConfig(variant="kessel", seed=4, bot_delay=0), setup=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        picker = app.screen.query_one("#bots", Select)
        values = [value for _, value in picker._options if isinstance(value, str)]
        assert values == ["easy", "normal", "hard", "expert", "random"]
        note = app.screen.query_one("#levels-note", Static)
        assert "3 bot strengths: hard and expert play the same bot" in str(note.render())
        app.screen.query_one("#variant", Select).value = "corellian_spike"
        await settle(pilot)
        assert not app.screen.query("#levels-note")


async def test_setup_flag_opens_settings_and_enter_starts_with_defaults() -> None:
    app = SabaccApp(TableConfig(seed=4, bot_delay=0), setup=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert app.game is None
        await pilot.press("enter")  # the Start button has the focus
        assert await settle(pilot) == "human"
        assert app.game is not None and app.game.seed == 4


async def test_game_over_shows_standings_and_plays_again() -> None:
    app = make_app(players=2, seed=5, options={"game_end": "hands:1"})
    async with app.run_test(size=(80, 24)) as pilot:
        assert await play_until(pilot, "over", prefer="cs") == "over"
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        game = app.game
        assert game is not None and game.outcome is not None
        text = screen_text(app)
        assert "final standings" in text
        for place, seat in enumerate(game.outcome.standings, 1):
            who = "You" if seat == 0 else game.names[seat]
            assert f"{place}. {who}" in text
        assert "Game over after 1 hand:" in text  # not "1 hands"
        await pilot.press("enter")
        assert await settle(pilot) == "human"
        assert app.game is not game and app.game is not None and app.game.hand_no == 1
        assert app.games == [game, app.game]  # the session keeps every game (for --save)


async def test_quit_asks_before_leaving_a_game_in_progress() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "human"
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuitScreen)
        assert "Quit the game in progress" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmQuitScreen) and app.is_running
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running


def centre_text(app: SabaccApp) -> str:
    """The centre of the table (the hand summary) as plain text, unwrapped."""
    return str(app.table.query_one("#centre-text", Static).render())


def _hand_events(events: Sequence[Any], hand: int) -> list[Any]:
    from sabacc.core import events as ev

    out: list[Any] = []
    inside = False
    for e in events:
        if isinstance(e, ev.HandStarted):
            inside = e.hand == hand
        if inside:
            out.append(e)
    return out


class SlowBot:
    """A bot that thinks until the test lets it answer, recording the thread it thinks on.

    ``started`` is set once it is deciding; it answers when ``release`` is set (or after 30 s,
    so a failing test cannot hang). No sleeps: the test controls when the decision ends.
    """

    name = "slow"

    def __init__(self) -> None:
        self.threads: list[str] = []
        self.started = threading.Event()
        self.release = threading.Event()

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        self.threads.append(threading.current_thread().name)
        self.started.set()
        self.release.wait(timeout=30)
        return legal[0]


async def test_bots_think_off_the_ui_thread_after_a_visible_delay() -> None:
    import sabacc

    bot = SlowBot()
    game = sabacc.new_game("spike", players=["You", "Bot 1"], seed=1)
    config = TableConfig(players=2, seed=1, bot_delay=0.05)
    app = SabaccApp(config, game=game, bots={1: bot})
    async with app.run_test(size=(80, 24)) as pilot:
        try:
            await pilot.pause()
            # the seat shows as thinking during the delay and while the bot decides
            assert app.table.state == "bots"
            assert "Bot 1 is thinking…" in app.table.query_one(ActionBar).prompt
            assert await asyncio.to_thread(bot.started.wait, 30), "the bot was never asked"
            await pilot.pause()
            assert app.table.state == "bots"
            assert "Bot 1 is thinking…" in app.table.query_one(ActionBar).prompt
            assert "thinking…" in str(app.table.query_one("#seat-1", SeatView).render())
            # the UI answers while the bot is still deciding
            await pilot.press("question_mark")
            assert isinstance(app.screen, RulesScreen)
            await pilot.press("escape")
            assert not bot.release.is_set() and app.table.state == "bots"
        finally:
            bot.release.set()
        await settle(pilot)
        assert app.table.state != "bots"
        assert bot.threads and all(t != threading.main_thread().name for t in bot.threads)


async def test_resizes_cleanly() -> None:
    app = make_app(players=8, seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        text = screen_text(app)
        lines = text.splitlines()
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
        for i in range(1, 8):
            assert f"Bot {i}" in text
        assert "Your turn" in text and " s  stand" in text and "? Rules" in text
        hand = app.table.query_one("#hand", CardsView)
        assert hand.region.bottom <= 24 and hand.region.height >= 5
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert "Your turn" in screen_text(app)


async def test_the_log_and_the_action_bar_speak_the_chosen_language() -> None:
    config = TableConfig(variant="classic", players=2, seed=3, bot_delay=0)
    app = SabaccApp(config, lang="ja")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "human"
        assert "あなたに札が配られる：" in log_text(app)
        labels = " ".join(app.table.query_one(ActionBar).labels())
        assert "フォールド" in labels


def assert_nothing_clipped(app: SabaccApp) -> None:
    """Every shown widget of the table lies inside the terminal, the centre needs no scrollbar
    and each pile's cards lie inside the centre."""
    width, height = app.size
    table = app.table
    for widget in table.query("*"):
        if not widget.display or not widget.region.area:
            continue
        r = widget.region
        assert r.right <= width and r.bottom <= height, f"{widget!r} outside the screen: {r}"
    centre = table.query_one("#centre")
    assert centre.max_scroll_y == 0 and centre.max_scroll_x == 0, "the centre overflows"
    for view in table.query("#piles CardsView"):
        if view.display and view.region.area:
            assert centre.region.contains_region(view.region), f"pile clipped: {view.region}"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("variant", sabacc.variant_names())
async def test_nothing_is_clipped_through_a_hand(variant: str, size: tuple[int, int]) -> None:
    """Through the card phase, after the dice (where the variant rolls them during a hand) and
    at the summary, at both documented sizes, in every variant."""
    app = make_app(variant=variant, seed=4)
    async with app.run_test(size=size) as pilot:
        state = await settle(pilot)
        rolled = False
        for _ in range(80):
            assert_nothing_clipped(app)
            game = app.game
            assert game is not None
            obs = game.observation(0)
            rolled = rolled or bool(obs.get("dice") or obs.get("roll"))
            if state == "review":
                break
            keys = keys_now(app)
            await pilot.press(next((k for k in "gcs" if k in keys), keys[0]))
            if app.table.mode == "pick" and app.table.pick is not None:
                await pilot.press(app.table.pick.options[0].key)
            elif app.table.mode == "subset":  # keep the first card (or what is kept already)
                if not app.table.chosen:
                    await pilot.press("1")
                await pilot.press("enter")
            elif app.table.mode == "size":
                await pilot.press("enter")
            state = await settle(pilot)
        rolls = "dice" in obs and sabacc.variant(variant).info.display.dice_shift
        assert rolled or not rolls or "target" in obs, "the dice were seen"
        assert state == "review"
        assert_nothing_clipped(app)


async def test_a_terminal_below_the_minimum_says_so_and_the_log_rewraps() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        log = app.table.query_one("#log", RichLog)
        wide = len(log.lines)
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        text = screen_text(app)
        assert "Terminal too small: 70×20" in text and "at least 80×24" in text
        assert "Your turn" not in text
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "Terminal too small" not in text and "Your turn" in text
        assert len(log.lines) > wide  # the same lines, re-wrapped to the narrower log
        assert all(strip.cell_length <= log.scrollable_content_region.width for strip in log.lines)


async def test_the_final_hand_is_announced() -> None:
    app = make_app(players=2, seed=5, options={"game_end": "hands:2"})
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "human"
        assert "FINAL HAND" not in screen_text(app)
        assert await play_until(pilot, "review") == "review"
        await pilot.press("enter")
        assert await settle(pilot) == "human"
        game = app.game
        assert game is not None and game.hand_no == 2
        assert "FINAL HAND" in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_how_to_win_on_start_dismissable_and_again_from_question_mark(lang: str) -> None:
    config = TableConfig(variant="classic", players=3, seed=3, bot_delay=0)
    app = SabaccApp(config, intro=True, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        heading = "how to win" if lang == "en" else "勝ち方"
        assert isinstance(app.screen, RulesScreen) and app.screen.heading == heading
        intro = app.screen.rules
        assert ("How to win" if lang == "en" else "勝ち方") in intro
        assert ("Idiot's Array:" if lang == "en" else "イディオッツ・アレイ") in intro  # glossary
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, RulesScreen)
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.rules.startswith(intro)


@pytest.mark.parametrize("variant", sabacc.variant_names())
async def test_a_roomy_terminal_draws_bigger_cards_and_more_log(variant: str) -> None:
    """120×40 uses its extra room: your cards and the piles are drawn 9×7 instead of 7×5, the
    log shows more lines, and still nothing is clipped; back at 80×24 the cards are 7×5."""
    app = make_app(variant=variant, seed=4)
    async with app.run_test(size=(120, 40)) as pilot:
        assert await settle(pilot) == "human"
        await pilot.pause()
        hand = app.table.query_one("#hand", CardsView)
        assert hand.region.height == 7
        text = screen_text(app)
        assert "╭1──────╮" in text and "╰───────╯" in text  # big cards, numbered
        log = app.table.query_one("#log", RichLog)
        assert log.region.height >= 30
        assert_nothing_clipped(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert hand.region.height == 5 and "╭1────╮" in text and "╭1──────╮" not in text
        assert_nothing_clipped(app)


@pytest.mark.parametrize("variant", sabacc.variant_names())
async def test_japanese_chrome_and_the_log_said_again_after_switching(variant: str) -> None:
    """With ``--lang ja`` the key bar, the boxes and the footer are Japanese; ``L`` switches to
    English and every line already in the log is said again in English (and back)."""
    app = SabaccApp(TableConfig(variant=variant, players=3, seed=4, bot_delay=0), lang="ja")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "human"
        text = screen_text(app)
        assert "あなたの番" in text and "ルール" in text and "終了" in text, text
        assert "Your turn" not in text and "Quit" not in text
        bar = app.table.query_one(ActionBar)  # wide Japanese labels still fit on the bar
        shown = [b for b in bar.query(Button) if not b.has_class("-hidden")]
        assert shown and all(b.region.right <= 80 for b in shown), [b.region for b in shown]
        assert_nothing_clipped(app)
        before = len(app.table.log_lines)
        assert before > 0
        ja_log = log_text(app)
        await pilot.press("L")
        await pilot.pause()
        text = screen_text(app)
        assert "Your turn" in text and "? Rules" in text and "あなたの番" not in text
        assert len(app.table.log_lines) == before  # the same lines, said again
        en_log = log_text(app)
        assert en_log != ja_log and ("You" in en_log or "you" in en_log)
        assert not any("\u3040" <= ch <= "\u30ff" for ch in en_log)  # no kana left
        await pilot.press("L")
        await pilot.pause()
        assert log_text(app) == ja_log


async def test_a_multi_valued_rule_is_ticked_and_a_counted_preset_takes_its_number() -> None:
    """Kessel's shift tokens were a free-text field: a checkbox per token (with its effect)
    makes the list; a game length "N rounds" is a dropdown entry with a number box."""
    info = sabacc.variant("kessel").info
    multi = next(s for s in info.options_type.specs() if s.kind == "multi")
    counted = next((s, p) for s in info.options_type.specs() for p in s.presets if p.endswith(":N"))
    app = SabaccApp(TableConfig(variant="kessel", seed=4, bot_delay=0), setup=True, lang="ja")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        first, second = multi.items[:2]
        box = screen.query_one(f"#opt-{multi.name}-item-{first}", Checkbox)
        assert "_" not in str(box.label) and "·" in str(box.label)  # name · effect
        box.value = True
        screen.query_one(f"#opt-{multi.name}-item-{second}", Checkbox).value = True
        await pilot.pause()
        assert screen.query_one(f"#opt-{multi.name}", Select).value == "list"
        spec, preset = counted
        screen.query_one(f"#opt-{spec.name}", Select).value = preset
        await pilot.pause()
        number = screen.query_one(f"#opt-{spec.name}-n", Input)
        assert number.display  # shown only for a preset taking a number
        with pytest.raises(ValueError):
            screen.house_rules()  # no number yet: refused, never a silent default
        number.value = "5"
        rules = screen.house_rules()
        assert rules[multi.name] == f"{first},{second}"
        assert rules[spec.name] == preset.replace(":N", ":5")
        config = screen.read_config()
        game, _ = config.build()
        assert game.options.hand_limit == 5


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_top_bar_keeps_the_status_and_the_seed_apart_at_80_columns(lang: str) -> None:
    """The status fills the bar's left part; the seed, in the player's language, never runs
    into it (it did: "Selection phaseseed 56639…" at 80 columns in Coruscant Shift)."""
    config = TableConfig(
        variant="coruscant_shift", players=4, seed=5663922942812440495, bot_delay=0
    )
    app = SabaccApp(config, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "human"
        top = screen_text(app).splitlines()[0]
        label = {"en": "Seed", "ja": "シード"}[lang]
        assert f" {label} 5663922942812440495" in top, top
        left = top[: top.index(f" {label} 5663922942812440495")]
        assert left.strip(), top  # the status is there, and a space parts it from the seed
