"""Turn timers and automatic moves: who acts when nobody clicks.

After every change the manager asks :meth:`TurnClock.schedule` to look at the seat to act: a
person gets the turn timer (the default move when it runs out, and "away" after too many in a
row); a bot thinks in a worker process (``bot_workers``; a bounded pool shared by every table,
so a table of search bots cannot slow the event loop down) within ``bot_budget`` seconds, else
its table plays the default move; an away seat plays the default move. Every timer and
prepared move carries the decision it was made for, ``(game number, version)``, and does
nothing if the table has moved on since.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.lifeline import watch_parent
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.table import Table
from sabacc.core.actions import CHECK, JUNK, STAND, Action, Bet, Raise
from sabacc.core.errors import SabaccError
from sabacc.engine.betting import Legal
from sabacc.engine.game import Game
from sabacc.services.bots import Bot
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


def think(bot: Bot, game: Game, seat: int) -> tuple[Action, Bot]:
    """One bot decision, in a worker process: the action, and the bot as it is afterwards (its
    random state moved on), which the table keeps for its next decision."""
    return decide(bot, game, seat), bot


def odds_hints(obs: Any) -> dict[str, Any]:
    """The odds hints of a seat's observation (``GET /api/tables/{code}/odds``), worked out in
    the bot pool: each card option's chances, else the hand against a random one; empty for a
    variant without an odds model or a situation it cannot enumerate."""
    from sabacc.services.odds import hand_odds, option_odds

    try:
        options = [o.to_dict() for o in option_odds(obs)]
        hand = None if options else hand_odds(obs)
    except (SabaccError, ValueError):
        return {"options": [], "hand": None}
    return {"options": options, "hand": hand.to_dict() if hand else None}


def bot_pool(workers: int) -> Executor:
    """Where bots think: ``workers`` processes (started with ``spawn``: the server's threads and
    sockets are not copied), or one thread if ``workers`` is 0. A worker exits on its own
    when the server dies, even by ``kill -9`` (:mod:`sabacc.apps.server.lifeline`)."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="sabacc-bot")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=watch_parent,
        initargs=(os.getpid(),),
    )


def decision_key(table: Table) -> Key:
    """The decision a table is at: its game number and how many actions were played."""
    return (table.games_played, table.version)


class TurnClock:
    """The turn timers and automatic moves of one manager's tables."""

    def __init__(self, manager: TableManager, settings: Settings) -> None:
        self.manager = manager
        self.settings = settings
        self.loop: asyncio.AbstractEventLoop | None = None
        self._bots: Executor | None = None
        self._moves: set[asyncio.Task[None]] = set()

    @property
    def bots(self) -> Executor:
        if self._bots is None:
            self._bots = bot_pool(self.settings.bot_workers)
        return self._bots

    def close(self) -> None:
        for task in self._moves:
            task.cancel()
        if self._bots is not None:
            self._bots.shutdown(wait=False, cancel_futures=True)
            self._bots = None

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
        if self.still_to_act(table, key) is None or self.loop is None:
            return
        task = self.loop.create_task(self._timeout_move(table, key))
        self._moves.add(task)
        task.add_done_callback(self._moves.discard)

    async def _timeout_move(self, table: Table, key: Key) -> None:
        turn = self.still_to_act(table, key)
        if turn is None:
            return
        game, seat = turn
        missed = table.missed.get(seat, 0) + 1
        try:
            table.missed[seat] = missed
            await self.manager.act(
                table,
                seat,
                default_action(game.legal()),
                auto=True,
                key=key,
                away=missed >= self.settings.missed_turns_away,
            )
        except ServerError as exc:
            table.missed[seat] = missed - 1
            if exc.code == "stale":
                return  # somebody acted meanwhile
            if exc.code != "storage_error":  # pragma: no cover - the default move is legal
                log.exception("timer move refused at table %s", table.code)
                return
            # Not stored: nothing happened. Play it as soon as the database answers again.
            if self.loop is not None and table.timer is None:
                table.timer_key = key
                table.timer = self.loop.call_later(
                    self.settings.storage_retry, self._timeout, table, key
                )

    async def _think(self, table: Table, bot: Bot, game: Game, seat: int) -> tuple[Action, bool]:
        """The bot's action (and False), thought out in the bot pool within ``bot_budget``
        seconds; else, or if it fails, the default move (and True: played automatically)."""
        loop = asyncio.get_running_loop()
        budget = self.settings.bot_budget
        # decide() also hands search bots (ismcts) their sampler of hidden cards.
        future = loop.run_in_executor(self.bots, think, bot, game, seat)
        try:
            action, moved_on = await asyncio.wait_for(future, budget if budget > 0 else None)
        except TimeoutError:
            log.warning(
                "bot %s at table %s took over %.1f s: the default move is played",
                bot.name,
                table.code,
                budget,
            )
            return default_action(game.legal()), True
        except Exception:
            log.exception("bot %s failed at table %s", bot.name, table.code)
            return default_action(game.legal()), True
        if table.bots.get(seat) is bot:
            table.bots[seat] = moved_on
        return action, False

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
                action, auto = await self._think(table, bot, game, seat)
                if table.game is not game or decision_key(table) != key:
                    return
            else:
                action = default_action(game.legal())
                auto = True
            try:
                await self.manager.act(table, seat, action, auto=auto, key=key)
            except ServerError as exc:
                if exc.code in ("storage_error", "stale"):
                    return  # nothing happened: tried again when the database answers
                log.warning("bot move %r refused at %s: %s", action, table.code, exc.message)
                await self.manager.act(
                    table, seat, default_action(game.legal()), auto=True, key=key
                )
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
