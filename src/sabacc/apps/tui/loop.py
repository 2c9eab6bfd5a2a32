"""The terminal table's game loop: taking in events, driving the bots, the hand summary.

Bots act after a short visible delay, each decision computed off the UI thread
(``asyncio.to_thread`` inside a worker). When a hand ends the table stops on a summary until the
human presses Enter; when the game ends it shows the standings.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Mapping

from textual.widgets import RichLog

from sabacc.apps.tui.config import TableConfig
from sabacc.apps.tui.screens import GameOverScreen
from sabacc.apps.tui.state import TableHost, TableState
from sabacc.apps.tui.view import (
    colour_cards,
)
from sabacc.core import events as ev
from sabacc.core.actions import JUNK, Action
from sabacc.core.errors import IllegalActionError, SabaccError
from sabacc.engine.game import Game
from sabacc.services.bots import Bot
from sabacc.services.explain import explain_hand
from sabacc.services.render import render_log, vocabulary


def decide(bot: Bot, game: Game, seat: int) -> Action:
    """Ask a bot for its action (searching bots get a sampler through ``bots.base.decide``)."""
    from sabacc.services.bots import base

    helper = getattr(base, "decide", None)
    if callable(helper):
        action: Action = helper(bot, game, seat)
        return action
    return bot.act(game.observation(seat), game.legal_actions())


class TurnLoop(TableState):
    """Drives the game: the human's actions, the bots' turns, the log and the hand summaries."""

    def start(self, game: Game, bots: Mapping[int, Bot], config: TableConfig) -> None:
        """Seat a new game (any game in progress is abandoned)."""
        self.generation += 1
        self.workers.cancel_group(self, "bots")
        self.game = game
        self.bots = dict(bots)
        self.config = config
        self.seen = 0
        self.queue.clear()
        self.queue_lines.clear()
        self.review = None
        self.review_adjust = {}
        self.hand_status = {}
        self.last_you_cards = []
        self.thinking = None
        self.over_shown = False
        self._reset_mode()
        self.query_one("#log", RichLog).clear()
        self.log_lines = []
        self.log_events = []
        self._layout_seats()
        self.advance()

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
            obs = game.observation(self.human)
            self.last_you_cards = list(obs["you"]["cards"]) if "you" in obs else []
        self.queue.extend(new)
        self.queue_lines.extend(
            render_log(new, game.names, viewer=self.human, lang=self.lang, variant=game.info)
        )
        rolled = False
        while self.queue and self.review is None:
            event = self.queue.popleft()
            self._note(event, self.queue_lines.popleft())
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

    def _note(self, event: ev.Event, line: str | None) -> None:
        """Log an event and keep the per-hand seat status the review needs."""
        game = self.game
        assert game is not None
        log = self.query_one("#log", RichLog)
        if isinstance(event, ev.HandStarted):
            log.clear()
            self.log_lines = []
            self.log_events = []
            log.border_title = vocabulary(None, self.lang).text("ui.hand_title", hand=event.hand)
            self.hand_status = {s: "in" for s in event.seats}
        elif isinstance(event, ev.Acted) and event.public == str(JUNK):
            self.hand_status[event.seat] = "junked"
        elif isinstance(event, ev.Eliminated):
            self.hand_status[event.seat] = "out"
        self.log_events.append(event)
        if line:
            text = colour_cards(game.variant, line)
            self.log_lines.append(text)
            log.write(text)

    def set_language(self, lang: str) -> None:
        """Speak ``lang`` from now on, and say again in it what is already on screen: this
        hand's log (from its events, through the one renderer), the queued lines, the hand's
        explanation, the key bar and the footer."""
        game = self.game
        self.lang = lang
        self.localize_bindings()
        log = self.query_one("#log", RichLog)
        if game is not None:
            said = render_log(
                self.log_events, game.names, viewer=self.human, lang=lang, variant=game.info
            )
            self.log_lines = [colour_cards(game.variant, line) for line in said if line]
            self.queue_lines = deque(
                render_log(
                    list(self.queue), game.names, viewer=self.human, lang=lang, variant=game.info
                )
            )
            hand = self.review.get("hand") if self.review is not None else None
            result = next((r for r in game.hand_results if r.hand == hand), None)
            if result is not None:
                self.review_lines = explain_hand(
                    game.info, result, game.names, game.events_for(self.human),
                    viewer=self.human, lang=lang,
                )  # fmt: skip
            hand_no = hand if hand is not None else game.hand_no
            log.border_title = vocabulary(None, lang).text("ui.hand_title", hand=hand_no)
        log.clear()
        for text in self.log_lines:
            log.write(text)
        self._reset_mode()
        self.refresh_table()

    def _begin_review(self, hand: int) -> None:
        game = self.game
        assert game is not None
        result = next((r for r in game.hand_results if r.hand == hand), None)
        if result is None:  # pragma: no cover - every ended hand has a result
            return
        self.review = result.to_dict()
        self.review_lines = explain_hand(
            game.info, result, game.names, game.events_for(self.human),
            viewer=self.human, lang=self.lang,
        )  # fmt: skip
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
        outcome = obs.get("outcome")
        self.app.push_screen(
            GameOverScreen(outcome or {}, game.names, self.human, vocabulary(game.info, self.lang)),
            callback=self._after_game_over,
        )

    def _after_game_over(self, choice: str | None) -> None:
        app = self.app
        if choice == "again" and isinstance(app, TableHost):
            app.new_game(self.config.again())
        elif choice == "setup":
            self.action_new_game()
        else:
            app.exit()

    def act(self, action: Action) -> None:
        """Apply the human's action (only ever one of the offered, legal actions)."""
        game = self.game
        if game is None or not self.human_turn or not game.is_legal(action):
            self.app.bell()
            return
        self._reset_mode()
        game.apply(action, seat=self.human)
        self.advance()
