"""The full-screen terminal table: one human (seat 0) against bots, keyboard first.

The table draws the human's observation only (plus the public event log), offers exactly the
legal actions as keys and buttons (:mod:`sabacc.apps.tui.controls`), and lets bots act after a short
visible delay, each decision computed off the UI thread (``asyncio.to_thread`` inside a worker).
When a hand ends the table stops on a summary (showdown reveals, pot payouts, net results) until
the human presses Enter; when the game ends it shows the standings.
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from sabacc.apps.tui import hints as odds_hints
from sabacc.apps.tui.config import TableConfig
from sabacc.apps.tui.controls import Choice, Sizer, build_choices, sizer_for
from sabacc.apps.tui.screens import GameOverScreen, RulesScreen, SettingsScreen
from sabacc.apps.tui.view import (
    Pile,
    chip,
    colour_cards,
    dice_line,
    event_line,
    hand_label,
    info_parts,
    phase_title,
    pile_counts,
    piles,
    pot_lines,
    result_lines,
    review_status_line,
    seat_body,
    seat_title,
    second_person,
    shift_banner,
    signed_amount,
    status_line,
    you_summary,
)
from sabacc.apps.tui.widgets import ActionBar, CardsView, SeatView
from sabacc.core import events as ev
from sabacc.core.actions import Action
from sabacc.core.errors import IllegalActionError, SabaccError
from sabacc.engine.game import Game
from sabacc.services.bots import Bot

MAX_OPPONENTS = 7
PILE_SLOTS = 3
DIGIT_KEYS = "1234567890"


def decide(bot: Bot, game: Game, seat: int) -> Action:
    """Ask a bot for its action (searching bots get a sampler through ``bots.base.decide``)."""
    from sabacc.services.bots import base

    helper = getattr(base, "decide", None)
    if callable(helper):
        action: Action = helper(bot, game, seat)
        return action
    return bot.act(game.observation(seat), game.legal_actions())


class TableScreen(Screen[None]):
    """The table. It owns the game session: events, bots, the human's choices."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "rules", "Rules", key_display="?"),
        Binding("h", "hints", "Odds hints"),
        Binding("n", "new_game", "New game"),
        Binding("q", "quit", "Quit"),
    ]

    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    #topbar { height: 1; background: $panel; }
    #top { width: 1fr; }
    #top-right { width: auto; color: $text-muted; }
    #opponents {
        height: auto;
        grid-size: 3;
        grid-rows: 4;
        grid-gutter: 0 1;
    }
    #middle { height: 1fr; }
    #left { width: 1fr; }
    #centre {
        height: 1fr;
        padding: 0 1;
        overflow-y: auto;
    }
    #centre-text { height: auto; }
    #piles { height: auto; }
    .pile { width: auto; height: auto; margin-right: 2; }
    .pile-label { width: auto; color: $text-muted; }
    .pile CardsView { height: 5; }
    TableScreen.crowded .pile CardsView { height: 1; }
    #you {
        height: auto;
        border: round $primary-lighten-1;
        border-title-style: bold;
        padding: 0 1;
    }
    #you.to-act { border: double $warning; border-title-color: $warning; }
    #you { border-subtitle-align: left; border-subtitle-color: $text; }
    #hand { height: 5; }
    #you-summary { height: auto; }
    #log {
        width: 40%;
        min-width: 32;
        max-width: 64;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, human: int = 0) -> None:
        super().__init__()
        self.human = human
        self.game: Game | None = None
        self.bots: dict[int, Bot] = {}
        self.config = TableConfig()
        self.generation = 0
        self.seen = 0
        self.queue: deque[ev.Event] = deque()
        self.review: dict[str, Any] | None = None
        self.review_adjust: dict[int, int] = {}
        self.hand_status: dict[int, str] = {}
        self.last_you_cards: list[str] = []
        self.mode = "play"  # "play" | "pick" | "size"
        self.pick: Choice | None = None
        self.sizer: Sizer | None = None
        self.choices: list[Choice] = []
        self.thinking: int | None = None
        self.show_hints = False
        self.over_shown = False
        self.pile_names: list[str] = []
        self.pile_widths: dict[int, tuple[int, int]] = {}

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="topbar"):
            yield Static(id="top")
            yield Static(id="top-right")
        with Grid(id="opponents"):
            for i in range(1, MAX_OPPONENTS + 1):
                yield SeatView(id=f"seat-{i}")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                with Vertical(id="centre"):
                    yield Static(id="centre-text")
                    with Horizontal(id="piles"):
                        for i in range(PILE_SLOTS):
                            with Vertical(classes="pile", id=f"pile-{i}"):
                                yield Static(classes="pile-label")
                                yield CardsView(id=f"pile-cards-{i}")
                with Vertical(id="you"):
                    yield CardsView(id="hand")
                    yield Static(id="you-summary")
            log = RichLog(id="log", wrap=True, min_width=16, markup=False)
            log.border_title = "This hand"
            log.can_focus = False
            yield log
        yield ActionBar(id="actions")
        yield Footer(compact=True, show_command_palette=False)

    # ------------------------------------------------------------------ state queries
    @property
    def human_turn(self) -> bool:
        game = self.game
        return (
            game is not None
            and self.review is None
            and not game.is_over
            and game.current_player == self.human
        )

    @property
    def state(self) -> str:
        """``"human"`` (your decision), ``"review"`` (hand summary), ``"over"``, ``"bots"``."""
        if self.game is None:
            return "idle"
        if self.review is not None:
            return "review"
        if self.game.is_over and not self.queue:
            return "over"
        if self.human_turn:
            return "human"
        return "bots"

    # ------------------------------------------------------------------ session
    def start(self, game: Game, bots: Mapping[int, Bot], config: TableConfig) -> None:
        """Seat a new game (any game in progress is abandoned)."""
        self.generation += 1
        self.workers.cancel_group(self, "bots")
        self.game = game
        self.bots = dict(bots)
        self.config = config
        self.seen = 0
        self.queue.clear()
        self.review = None
        self.review_adjust = {}
        self.hand_status = {}
        self.last_you_cards = []
        self.thinking = None
        self.over_shown = False
        self._reset_mode()
        self.query_one("#log", RichLog).clear()
        self._layout_seats()
        self.advance()

    def _layout_seats(self) -> None:
        assert self.game is not None
        opponents = self.game.n - 1
        cols = opponents if opponents <= 4 else math.ceil(opponents / 2)
        self.query_one("#opponents", Grid).styles.grid_size_columns = max(1, cols)
        for i in range(1, MAX_OPPONENTS + 1):
            self.query_one(f"#seat-{i}", SeatView).display = i <= opponents
        self.set_class(opponents > 4, "crowded")

    def _reset_mode(self) -> None:
        self.mode = "play"
        self.pick = None
        self.sizer = None

    def advance(self) -> None:
        """Take in new events, stop on a finished hand, else hand the turn to whoever is next."""
        game = self.game
        if game is None:
            return
        rolled = self._intake()
        self.refresh_table()
        if self.review is not None:
            return
        if game.is_over:
            self._show_game_over()
            return
        seat = game.current_player
        if seat is not None and seat != self.human:
            self.run_worker(
                self._run_bots(self.generation, rolled),
                group="bots",
                exclusive=True,
                exit_on_error=False,
            )

    def _intake(self) -> bool:
        """Log the new events up to a finished hand (kept for the summary). True if dice rolled."""
        game = self.game
        assert game is not None
        new = game.events_for(self.human, self.seen)
        self.seen = len(game.events)
        if not game.is_over and not any(isinstance(e, ev.HandEnded) for e in new):
            you = game.observation(self.human).get("you") or {}
            self.last_you_cards = list(you.get("cards") or [])
        self.queue.extend(new)
        rolled = False
        while self.queue and self.review is None:
            event = self.queue.popleft()
            self._note(event)
            if isinstance(event, ev.DiceRolled):
                rolled = True
            if isinstance(event, ev.HandEnded):
                self._begin_review(event.hand)
        return rolled

    async def _run_bots(self, generation: int, rolled: bool) -> None:
        """Let the bots act until the human is to act, a hand ends or the game ends.

        Each bot waits ``bot_delay`` seconds (longer after a dice roll) with its seat marked
        as thinking, then decides in a worker thread: the UI never waits for a decision.
        """
        while True:
            game = self.game
            if game is None or generation != self.generation:
                return
            seat = game.current_player
            if self.review is not None or game.is_over or seat is None or seat == self.human:
                break
            delay = self.config.bot_delay * (2.5 if rolled else 1.0)
            if delay > 0:
                self.thinking = seat
                self.refresh_table()
                await asyncio.sleep(delay)
            bot = self.bots.get(seat)
            try:
                if bot is None:
                    raise SabaccError(f"no bot for seat {seat}")
                action = await asyncio.to_thread(decide, bot, game, seat)
                if generation != self.generation or game.current_player != seat:
                    return
                game.apply(action, seat=seat)
            except (SabaccError, IllegalActionError, ValueError) as exc:
                if generation != self.generation or game.current_player != seat:
                    return
                self.app.notify(f"{game.names[seat]}'s bot failed ({exc}); it stands pat")
                game.apply(game.legal_actions()[0], seat=seat)
            self.thinking = None
            rolled = self._intake()
        self.advance()

    def _note(self, event: ev.Event) -> None:
        """Log an event and keep the per-hand seat status the review needs."""
        game = self.game
        assert game is not None
        log = self.query_one("#log", RichLog)
        if isinstance(event, ev.HandStarted):
            log.clear()
            log.border_title = f"Hand {event.hand}"
            self.hand_status = {s: "in" for s in event.seats}
        elif isinstance(event, ev.Acted) and event.public.split(" ")[0] in ("junk", "fold"):
            self.hand_status[event.seat] = "junked"
        elif isinstance(event, ev.Eliminated):
            self.hand_status[event.seat] = "out"
        line = event_line(event, game.names)
        if line:
            line = second_person(line, game.names[self.human])
            log.write(colour_cards(game.variant, line))

    def _begin_review(self, hand: int) -> None:
        game = self.game
        assert game is not None
        result = next((r for r in game.hand_results if r.hand == hand), None)
        if result is None:  # pragma: no cover - every ended hand has a result
            return
        self.review = result.to_dict()
        # Stacks as they were when the hand ended: undo what later events already moved.
        adjust: dict[int, int] = {}
        for later in self.queue:
            if isinstance(later, ev.Anted):
                adjust[later.seat] = adjust.get(later.seat, 0) + later.main + later.sabacc
            elif isinstance(later, ev.Paid) and later.reason != "ante":  # antes: see Anted
                adjust[later.seat] = adjust.get(later.seat, 0) + later.amount
            elif isinstance(later, ev.PotAwarded):
                for s, share in zip(later.seats, later.shares, strict=True):
                    adjust[s] = adjust.get(s, 0) - share
        self.review_adjust = adjust
        self._reset_mode()

    def continue_play(self) -> None:
        """Leave the hand summary: on to the next hand (or the standings)."""
        if self.review is None:
            return
        self.review = None
        self.review_adjust = {}
        self.advance()

    def _show_game_over(self) -> None:
        game = self.game
        if game is None or self.over_shown:
            return
        self.over_shown = True
        obs = game.observation(self.human)
        outcome = obs.get("outcome") or {}
        self.app.push_screen(
            GameOverScreen(outcome, game.names, self.human), callback=self._after_game_over
        )

    def _after_game_over(self, choice: str | None) -> None:
        app = self.app
        if choice == "again" and isinstance(app, SabaccApp):
            app.new_game(self.config.again())
        elif choice == "setup":
            self.action_new_game()
        else:
            app.exit()

    # ------------------------------------------------------------------ the human's input
    def act(self, action: Action) -> None:
        """Apply the human's action (only ever one of the offered, legal actions)."""
        game = self.game
        if game is None or not self.human_turn or not game.is_legal(action):
            self.app.bell()
            return
        self._reset_mode()
        game.apply(action, seat=self.human)
        self.advance()

    def on_key(self, event: events.Key) -> None:
        if self.press_key(event.key, event.character):
            event.stop()
            event.prevent_default()

    @on(ActionBar.Chosen)
    def _chosen(self, message: ActionBar.Chosen) -> None:
        self.press_key(message.key, None)

    @on(CardsView.Picked)
    def _card_clicked(self, message: CardsView.Picked) -> None:
        """A click on a card picks it, when a card is being picked from that row."""
        where = "hand"
        view_id = message.view.id or ""
        if view_id.startswith("pile-cards-"):
            slot = int(view_id.rsplit("-", 1)[1])
            where = self.pile_names[slot] if slot < len(self.pile_names) else ""
        if self.mode == "pick" and self.pick is not None:
            for option in self.pick.options:
                if option.where == where and option.index == message.index:
                    self.act(option.action)
                    return

    def press_key(self, key: str, character: str | None = None) -> bool:
        """Do what ``key`` means now; True if it meant something."""
        if self.game is None:
            return False
        if self.review is not None:
            if key in ("enter", "space"):
                self.continue_play()
                return True
            return False
        if not self.human_turn:
            return False
        if self.mode == "size" and self.sizer is not None:
            return self._size_key(key, character)
        if self.mode == "pick" and self.pick is not None:
            if key == "escape":
                self._reset_mode()
                self.refresh_table()
                return True
            for option in self.pick.options:
                if option.key == key:
                    self.act(option.action)
                    return True
            # Another choice's key switches to it.
        for choice in self.choices:
            if choice.key == key:
                self._activate(choice)
                return True
        return False

    def _activate(self, choice: Choice) -> None:
        game = self.game
        assert game is not None
        if choice.kind == "direct" and choice.action is not None:
            self.act(choice.action)
        elif choice.kind == "pick":
            self.mode = "pick"
            self.pick = choice
            self.refresh_table()
        elif choice.kind == "size":
            self.mode = "size"
            self.sizer = sizer_for(choice, game.observation(self.human))
            self.refresh_table()

    def _size_key(self, key: str, character: str | None) -> bool:
        sizer = self.sizer
        assert sizer is not None
        steps = {"left": -1, "minus": -1, "right": 1, "plus": 1, "equals_sign": 1, "down": -5}
        steps["up"] = 5
        presets = {"m": "min", "h": "half", "p": "pot", "a": "max"}
        if key in steps:
            sizer.step(steps[key])
        elif key in presets:
            sizer.preset(presets[key])
        elif character is not None and character.isdigit() and len(key) == 1:
            sizer.type_digit(character)
        elif key == "backspace":
            sizer.backspace()
        elif key == "enter":
            action = sizer.action()
            if action is None:
                self.app.bell()
                return True
            self.act(action)
            return True
        elif key == "escape":
            self._reset_mode()
        else:
            return False
        self.refresh_table()
        return True

    # ------------------------------------------------------------------ actions (bindings)
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hints":
            return odds_hints.available()
        return True

    def action_rules(self) -> None:
        game = self.game
        variant = game.variant if game is not None else self.config.variant
        import sabacc

        try:
            v = sabacc.variant(variant)
        except SabaccError:
            return
        self.app.push_screen(RulesScreen(v.title, v.rules_text))

    def action_hints(self) -> None:
        if odds_hints.available():
            self.show_hints = not self.show_hints
            self.refresh_table()

    def action_new_game(self) -> None:
        app = self.app
        if isinstance(app, SabaccApp):
            app.open_settings(can_cancel=self.game is not None)

    def action_quit(self) -> None:
        self.app.exit()

    # ------------------------------------------------------------------ drawing
    def refresh_table(self) -> None:
        game = self.game
        if game is None:
            return
        obs = game.observation(self.human)
        review = self.review
        self.choices = build_choices(obs) if self.human_turn else []
        import sabacc

        try:
            title = sabacc.variant(game.variant).title
        except SabaccError:  # pragma: no cover - the game's own variant is registered
            title = game.variant
        top = status_line(obs, title) if review is None else review_status_line(review, title)
        self.query_one("#top", Static).update(top)
        self.query_one("#top-right", Static).update(Text(f"seed {game.seed} ", style="dim"))
        self._draw_seats(obs, review)
        self._draw_centre(obs, review)
        self._draw_you(obs, review)
        self._draw_actions(obs, review)

    def _stack(self, obs: Mapping[str, Any], seat: int) -> int:
        stack = int(obs["seats"][seat]["stack"])
        return stack + self.review_adjust.get(seat, 0) if self.review is not None else stack

    def _draw_seats(self, obs: Mapping[str, Any], review: Mapping[str, Any] | None) -> None:
        seats = obs["seats"]
        winners: set[int] = set()
        if review is not None:
            for pot in review.get("pots") or []:
                winners.update(pot.get("winners") or [])
        for i in range(1, MAX_OPPONENTS + 1):
            view = self.query_one(f"#seat-{i}", SeatView)
            if i >= len(seats):
                continue
            seat = dict(seats[i])
            seat["stack"] = self._stack(obs, i)
            if review is not None:
                seat["dealer"] = review.get("dealer") == i
            to_act = review is None and obs.get("current_player") == i
            view.border_title = seat_title(seat, to_act)
            reveal = None
            net = None
            if review is not None:
                hands = review.get("hands") or {}
                reveal = hands.get(str(i))
                nets = review.get("net") or []
                net = int(nets[i]) if i < len(nets) else None
                if reveal is None:
                    status = self.hand_status.get(i, "waiting")
                    seat["status"] = status if status != "in" else "active"
                    seat["cards"] = 0
                    seat["round_bet"] = 0
                    seat["known_cards"] = []
            view.update(seat_body(obs, seat, thinking=self.thinking == i, reveal=reveal, net=net))
            view.set_class(to_act, "to-act")
            status = str(seats[i].get("status", ""))
            view.set_class(review is None and status in ("junked", "out"), "gone")
            view.set_class(i in winners, "winner")

    def _draw_centre(self, obs: Mapping[str, Any], review: Mapping[str, Any] | None) -> None:
        game = self.game
        assert game is not None
        lines: list[Text] = []
        shown: list[Pile] = []
        if review is not None:
            lines.extend(result_lines(review, game.names, self.human))
        else:
            lines.extend(pot_lines(obs))
            dice = dice_line(obs)
            if dice is not None:
                lines[0].append("   ")
                lines[0].append_text(dice[0])
            facts = [p for p in (pile_counts(obs), Text(" · ".join(info_parts(obs)))) if p]
            if facts:
                lines.append(Text(" · ", style="dim").join(facts))
                lines[-1].stylize("dim")
            if dice is not None and dice[1]:
                lines.append(shift_banner(obs))
            shown = piles(obs)[:PILE_SLOTS]
        self.query_one("#centre-text", Static).update(Text("\n").join(lines))
        picking_sun = self.mode == "pick" and self.pick is not None
        sun_picks = (
            {o.index for o in self.pick.options if o.where == "sun"}
            if picking_sun and self.pick is not None
            else set()
        )
        self.pile_names = [p.name for p in shown]
        # Each pile as wide as its cards; the widest shrinks to chips if they do not all fit.
        widths = [max(7, (len(p.codes) + p.backs) * 8 - 1) for p in shown]
        room = self.query_one("#centre", Vertical).content_size.width or 46
        if widths and sum(w + 2 for w in widths) > room:
            widest = widths.index(max(widths))
            others = sum(w + 2 for i, w in enumerate(widths) if i != widest)
            widths[widest] = max(7, room - others - 2)
        for i in range(PILE_SLOTS):
            slot = self.query_one(f"#pile-{i}", Vertical)
            if i >= len(shown):
                slot.display = False
                continue
            pile = shown[i]
            slot.display = True
            slot.query_one(".pile-label", Static).update(pile.label)
            view = slot.query_one(CardsView)
            if self.pile_widths.get(i) != (widths[i], len(pile.label)):
                self.pile_widths[i] = (widths[i], len(pile.label))
                view.styles.width = widths[i]
                slot.styles.width = max(widths[i], len(pile.label))
            numbered = pile.name == "sun" and bool(sun_picks)
            view.show(
                game.variant,
                pile.codes,
                highlight=sun_picks if pile.name == "sun" else set(),
                numbered=numbered,
                backs=pile.backs,
                empty_text="—",
            )

    def _draw_you(self, obs: Mapping[str, Any], review: Mapping[str, Any] | None) -> None:
        game = self.game
        assert game is not None
        me = dict(obs["seats"][self.human])
        if review is not None:
            me["dealer"] = review.get("dealer") == self.human
        you = obs.get("you") or {}
        box = self.query_one("#you", Vertical)
        hand_view = self.query_one("#hand", CardsView)
        hints = self.query_one("#you-summary", Static)
        title = f"{'▶ ' if self.human_turn else ''}{me['name']}"
        if me.get("dealer"):
            title += " (D)"
        title += f" · {self._stack(obs, self.human)} credits"
        if review is None and me.get("round_bet"):
            title += f" · bet {me['round_bet']}"
        if review is None and me.get("status") not in (None, "active"):
            title += f" · {str(me['status']).replace('_', '-')}"
        box.border_title = title
        box.set_class(self.human_turn, "to-act")
        hint: Text | None = None
        if review is not None:
            shown = (review.get("hands") or {}).get(str(self.human))
            if shown is not None:
                cards = list(shown.get("cards") or [])
                text = Text("showed ")
                text.append(hand_label(str(shown.get("name", ""))), style="bold")
            else:
                junked = self.hand_status.get(self.human) == "junked"
                cards = [] if junked else self.last_you_cards
                text = Text("junked" if junked else "not shown")
            nets = review.get("net") or []
            if self.human < len(nets):
                delta = int(nets[self.human])
                text.append(" · this hand ")
                text.append(signed_amount(delta), style="green" if delta > 0 else "red")
            hand_view.show(game.variant, cards, numbered=False, empty_text="(no cards)")
        else:
            cards = list(you.get("cards") or [])
            highlight: set[int] = set()
            numbered = True
            if self.mode == "pick" and self.pick is not None:
                highlight = {o.index for o in self.pick.options if o.where == "hand"}
                numbered = bool(highlight)  # digits pick from another row: hide these
            hand_view.show(
                game.variant,
                cards,
                highlight=highlight,
                numbered=numbered,
                empty_text="(no cards)",
            )
            text = you_summary(obs)
            if self.show_hints and self.human_turn:
                hint = odds_hints.hint_text(obs)
        box.border_subtitle = Text(" ") + text + Text(" ")
        hints.display = hint is not None
        hints.update(hint or "")

    def _draw_actions(self, obs: Mapping[str, Any], review: Mapping[str, Any] | None) -> None:
        game = self.game
        assert game is not None
        bar = self.query_one("#actions", ActionBar)
        if review is not None:
            last = game.is_over and not any(isinstance(e, ev.HandStarted) for e in self.queue)
            what = "final standings" if last else "next hand"
            bar.show(
                Text(f"Hand {review.get('hand')} is over.", style="bold"),
                [("enter", "⏎", what)],
            )
            return
        if game.is_over:
            bar.show(Text("Game over.", style="bold"), [])
            return
        if not self.human_turn:
            seat = game.current_player
            name = game.names[seat] if seat is not None else "nobody"
            verb = "is thinking…" if self.thinking == seat else "is to act"
            bar.show(Text(f"{name} {verb}", style="italic"), [])
            return
        phase = phase_title(str(obs.get("phase", "")))
        if self.mode == "size" and self.sizer is not None:
            s = self.sizer
            prompt = Text(f"{s.kind.capitalize()} ", style="bold")
            prompt.append(str(s.value), style="bold reverse" if s.valid else "bold red")
            prompt.append(f" ({s.low}–{s.high})  ←/→ ±{s.unit}  ↓/↑ ±{5 * s.unit}  or type")
            bar.show(
                prompt,
                [
                    ("left", "←", ""),
                    ("right", "→", ""),
                    ("m", "m", "min"),
                    ("h", "h", "½pot"),
                    ("p", "p", "pot"),
                    ("a", "a", "all-in"),
                    ("enter", "⏎", f"{s.kind} {s.value}"),
                    ("escape", "esc", "back"),
                ],
            )
            return
        if self.mode == "pick" and self.pick is not None:
            prompt = Text(self.pick.prompt, style="bold")
            entries: list[tuple[str, str, str | Text]] = [
                (o.key, o.key, chip(game.variant, o.code)) for o in self.pick.options
            ]
            bar.show(prompt, [*entries, ("escape", "esc", "back")])
            return
        prompt = Text(f"Your turn · {phase} phase", style="bold")
        to_call = int((obs.get("betting") or {}).get("to_call") or 0)
        if to_call:
            prompt.append(f" · {to_call} to call", style="cyan")
        bar.show(prompt, [(c.key, c.key, c.label) for c in self.choices])


class SabaccApp(App[None]):
    """``sabacc play``: the full-screen table. ``setup=True`` opens the settings first."""

    TITLE = "Sabacc"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        config: TableConfig | None = None,
        *,
        game: Game | None = None,
        bots: Mapping[int, Bot] | None = None,
        setup: bool = False,
        hints: bool = False,
    ) -> None:
        super().__init__()
        self.config = config or TableConfig()
        self._initial = (game, dict(bots or {}))
        self.setup = setup
        self.table = TableScreen()
        self.table.show_hints = hints and odds_hints.available()

    @property
    def game(self) -> Game | None:
        """The game at the table (the last one started)."""
        return self.table.game

    async def on_mount(self) -> None:
        await self.push_screen(self.table)
        game, bots = self._initial
        if self.setup:
            self.open_settings(can_cancel=False)
        elif game is not None:
            self.table.start(game, bots, self.config)
        else:
            self.new_game(self.config)

    def new_game(self, config: TableConfig) -> None:
        """Start a game from ``config`` (settings are validated before this is called)."""
        try:
            game, bots = config.build()
        except SabaccError as exc:
            self.notify(str(exc), severity="error")
            self.open_settings(can_cancel=self.table.game is not None)
            return
        self.config = config
        self.table.start(game, bots, config)

    def open_settings(self, *, can_cancel: bool = True) -> None:
        def chosen(config: TableConfig | None) -> None:
            if config is not None:
                self.new_game(config)

        self.push_screen(SettingsScreen(self.config, can_cancel=can_cancel), callback=chosen)


def run(
    config: TableConfig | None = None, *, setup: bool = False, hints: bool = False
) -> Game | None:
    """Run the terminal table until the user quits; returns the last game played."""
    app = SabaccApp(config, setup=setup, hints=hints)
    app.run()
    return app.game
