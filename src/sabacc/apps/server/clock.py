"""Turn timers and automatic moves: who acts when nobody clicks.

After every change the manager asks :meth:`TurnClock.schedule` to look at the seat to act: a
person gets the turn timer (the default move when it runs out, and "away" after too many in a
row); a bot thinks in a worker thread; an away seat plays the default move. Every timer and
prepared move carries the decision it was made for, ``(game number, version)``, and does
nothing if the table has moved on since.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.table import Table
from sabacc.core.actions import CHECK, JUNK, STAND, Action, Bet, Raise
from sabacc.engine.betting import Legal
from sabacc.engine.game import Game
from sabacc.services.bots.base import decide

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

log = logging.getLogger("sabacc.apps.server")

Key = tuple[int, int]


def default_action(legal: Legal) -> Action:
    """What the timer plays for an absent player: check, stand or junk (else the first option)."""
    for action in (CHECK, STAND, JUNK):
        if legal.contains(action):
            return action
    if legal.fixed:
        return legal.fixed[0]
    if legal.bet:
        return Bet(legal.bet[0])
    if legal.raise_:
        return Raise(legal.raise_[0])
    raise ServerError("no_action", "nothing to play")  # pragma: no cover


def decision_key(table: Table) -> Key:
    """The decision a table is at: its game number and how many actions were played."""
    return (table.games_played, table.version)


class TurnClock:
    """The turn timers and automatic moves of one manager's tables."""

    def __init__(self, manager: TableManager, settings: Settings) -> None:
        self.manager = manager
        self.settings = settings
        self.loop: asyncio.AbstractEventLoop | None = None

    def schedule(self, table: Table) -> None:
        """Arm the turn timer, or start a bot's or an away seat's move, for the seat to act."""
        game = table.game
        loop = self.loop
        if loop is None or self.manager.tables.get(table.code) is not table:
            return  # not started, or a table evicted since (a late call_later)
        cp = game.current_player if game is not None and table.status == "playing" else None
        key = decision_key(table)
        if cp is None:
            self.clear(table)
            return
        assert game is not None
        seat = table.seats[cp]
        if seat.kind == "bot" or seat.away:
            self.clear(table)
            if not self.manager.storage_ok:
                return  # nothing can be stored: the manager schedules again when it can
            if table.pending_key != key:
                table.pending_key = key
                delay = self.settings.bot_delay if seat.kind == "bot" else self.settings.away_delay
                table.pending = loop.create_task(self._auto_move(table, key, delay))
            return
        if table.turn_timer <= 0:
            self.clear(table)
            return
        if table.timer_key == key and table.timer is not None:
            return  # this turn's timer is already running
        self.clear(table)
        table.timer_key = key
        table.deadline = loop.time() + table.turn_timer
        table.timer = loop.call_later(table.turn_timer, self._timeout, table, key)

    @staticmethod
    def clear(table: Table) -> None:
        """Disarm the table's turn timer."""
        if table.timer is not None:
            table.timer.cancel()
        table.timer = None
        table.timer_key = None
        table.deadline = None

    def stop(self, table: Table) -> None:
        """Disarm the timer and cancel a prepared move (shutting down)."""
        self.clear(table)
        if table.pending is not None:
            table.pending.cancel()

    @staticmethod
    def still_to_act(table: Table, key: Key) -> tuple[Game, int] | None:
        """The game and the seat to act, if the table is still at decision ``key`` (a timer or
        a prepared move for an older decision is stale: None)."""
        game = table.game
        if game is None or decision_key(table) != key:
            return None
        seat = game.current_player
        return None if seat is None else (game, seat)

    def _timeout(self, table: Table, key: Key) -> None:
        table.timer = None
        turn = self.still_to_act(table, key)
        if turn is None:
            return
        game, seat = turn
        missed = table.missed.get(seat, 0) + 1
        try:
            if missed >= self.settings.missed_turns_away and not table.seats[seat].away:
                self.manager.update_seat(table, seat, away=True)
            table.missed[seat] = missed
            self.manager.act(table, seat, default_action(game.legal()), auto=True)
        except ServerError as exc:
            if exc.code != "storage_error":  # pragma: no cover - the default move is legal
                log.exception("timer move refused at table %s", table.code)
                return
            # Not stored: nothing happened. Play it as soon as the database answers again.
            table.missed[seat] = missed - 1
            if self.loop is not None and table.timer is None:
                table.timer_key = key
                table.timer = self.loop.call_later(
                    self.settings.storage_retry, self._timeout, table, key
                )

    async def _auto_move(self, table: Table, key: Key, delay: float) -> None:
        """A bot's move (thought out in a worker thread), or the default move of an away seat."""
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            turn = self.still_to_act(table, key)
            if turn is None:
                return
            game, seat = turn
            bot = table.bots.get(seat)
            action: Action | str
            if bot is not None and table.seats[seat].kind == "bot":
                try:
                    # decide() also hands search bots (ismcts) their sampler of hidden cards.
                    action = await asyncio.to_thread(decide, bot, game, seat)
                except Exception:
                    log.exception("bot %s failed at table %s", bot.name, table.code)
                    action = default_action(game.legal())
                if table.game is not game or decision_key(table) != key:
                    return
                auto = False
            else:
                action = default_action(game.legal())
                auto = True
            try:
                self.manager.act(table, seat, action, auto=auto)
            except ServerError as exc:
                if exc.code == "storage_error":
                    return  # nothing happened: tried again when the database answers
                log.warning("bot move %r refused at %s: %s", action, table.code, exc.message)
                self.manager.act(table, seat, default_action(game.legal()), auto=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("automatic move failed at table %s", table.code)
        finally:
            if table.pending_key == key:
                table.pending = None
                table.pending_key = None
                # A refused or failed move must not stall the table: look again.
                if decision_key(table) == key and self.loop is not None:
                    self.loop.call_later(1.0, self.schedule, table)
