"""Play: an action validated, applied, stored and only then announced; a finished game's
results recorded in its players' stats and ratings.

While the store call runs the table is ``saving`` (no connection is sent its state), so nobody
sees an action before it is durable; if it cannot be stored it is undone first. Why not apply
to a copy: copying a game copies its event log, which costs more per action the longer the
game runs, while undoing is needed only on failure.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

from sabacc.apps.server import snapshots, trace
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.integrity import origins_of
from sabacc.apps.server.persistence import storage_down
from sabacc.apps.server.recovery import undo_last
from sabacc.apps.server.table import Table
from sabacc.core.actions import Action
from sabacc.core.errors import IllegalActionError
from sabacc.core.events import HandStarted
from sabacc.engine.game import Game
from sabacc.services.community.stats import summarise
from sabacc.services.store import ActionRecord, ActionWrite, GameRecord

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

log = logging.getLogger("sabacc.apps.server")


class Play:
    """The actions played at the tables of one :class:`~sabacc.apps.server.manager.TableManager`."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager

    async def act(
        self,
        table: Table,
        seat: int | None,
        text: str | Action,
        *,
        auto: bool = False,
        version: int | None = None,
        key: tuple[int, int] | None = None,
        away: bool = False,
        marks: dict[str, float] | None = None,
    ) -> None:
        """Apply ``seat``'s action: validated, stored, then announced. Refusals change nothing.

        ``version`` (a client's) or ``key`` (a timer's or a bot's decision, ``(game number,
        version)``) must still be the table's, checked under the table's lock: else ``stale``.
        ``away`` also marks the seat away first (a player who let the timer play too often).
        ``marks`` (only when :mod:`~sabacc.apps.server.trace` is on) is given the times its
        steps ended.
        """
        async with table.lock:
            if marks is not None:
                marks["locked"] = trace.now()
            try:
                await self._act(table, seat, text, auto, version, key, away, marks)
            finally:
                table.saving = False
        self.m.changed(table)

    def _check(
        self, table: Table, seat: int | None, version: int | None, key: tuple[int, int] | None
    ) -> tuple[Game, int]:
        """The game and the seat to act, or the refusal: ``stale``, ``no_game``,
        ``not_seated``, ``not_your_turn``, ``storage_error``."""
        if (version is not None and version != table.version) or (
            key is not None and key != (table.games_played, table.version)
        ):
            raise ServerError("stale", "the table moved on before your action arrived: look again")
        game = table.game
        if game is None or table.status != "playing" or game.is_over:
            raise ServerError("no_game", "no game is being played at this table")
        if seat is None:
            raise ServerError("not_seated", "you are watching this table, not seated at it")
        actor = game.current_player
        if actor != seat:
            who = game.names[actor] if actor is not None else "nobody"
            raise ServerError("not_your_turn", f"it is not your turn: {who} is to act")
        if not self.m.storage_ok:
            raise storage_down()
        return game, seat

    async def _act(
        self,
        table: Table,
        seat_asked: int | None,
        text: str | Action,
        auto: bool,
        version: int | None,
        key: tuple[int, int] | None,
        away: bool,
        marks: dict[str, float] | None = None,
    ) -> None:
        game, seat = self._check(table, seat_asked, version, key)
        if away and not table.seats[seat].away:
            await self.m.update_seat(table, seat, away=True)
        hand = game.hand_no
        first_event = len(game.events)
        # Applied, stored, and only then announced (see the module's docstring).
        table.saving = True
        try:
            game.apply(text, seat=seat)
        except IllegalActionError as exc:
            raise ServerError("illegal_action", str(exc)) from None
        if marks is not None:
            marks["applied"] = trace.now()
        result: dict[str, Any] | None = None
        nets: dict[int, int] | None = None
        if game.is_over:
            outcome = game.outcome
            result = outcome.to_dict() if outcome else {}
            nets = {s: table.seats[s].net + pay for s, pay in enumerate(game.payoffs)}
        game_rec = table.game_rec
        assert game_rec is not None
        record = ActionRecord(len(game.actions) - 1, seat, game.actions[-1][1], hand, auto)
        write = ActionWrite(
            table.id, game_rec.id, record, list(game.stacks), game.hand_no, result, nets,
            snapshots.due(game, self.m.settings.history_snapshot_every),
        )  # fmt: skip
        try:
            await self.m.persist_action(write)
        except ServerError:
            table.game = undo_last(game)
            raise
        if marks is not None:
            marks["committed"] = trace.now()
        for s, net in (nets or {}).items():
            table.seats[s].net = net
        await self._after(table, game, seat, auto, first_event)
        if game.is_over:
            table.status = "finished"
            await self.record_results(table, game_rec)

    async def _after(self, table: Table, game: Game, seat: int, auto: bool, first: int) -> None:
        """An action is stored: a timer's move marked as such (its Acted event, ``first``), a
        player's own clears their missed turns and away flag; the hand's first event found."""
        if auto:
            table.auto_events.add(first)  # its Acted event: shown as a timer move
        else:
            table.missed.pop(seat, None)
            if table.seats[seat].away:  # they played themselves: not away any more
                # the action is stored; if the flag cannot be, it clears with their next one
                with contextlib.suppress(ServerError):
                    await self.m.update_seat(table, seat, away=False)
        # Only this action's events can start a hand: the latest HandStarted among them.
        events = game.events
        for i in range(len(events) - 1, max(first, table.hand_event_start + 1) - 1, -1):
            if isinstance(events[i], HandStarted):
                table.hand_event_start = i
                break

    async def record_results(self, table: Table, rec: GameRecord) -> None:
        """The finished game's place in its players' stats and ratings (what cannot be
        stored now is logged: the game itself is stored already)."""
        game = table.game
        if game is None or not game.is_over:
            return
        tokens, bots, variant = list(rec.seat_tokens), list(rec.bots), table.variant
        store = self.m.store
        try:
            summaries = summarise(game)
            linked, pairs = origins_of(self.m).linked(table.code), self.m.settings.rating_pair_games
            await self.m.read(
                lambda: store.record_results(
                    rec.id, variant, tokens, bots, summaries, linked=linked, pair_limit=pairs
                )
            )
        except Exception:
            # Not a reason to stop the server's writes (as a lost database is): the game is
            # stored; only its place in the stats is missing, and the log says so.
            log.exception("table %s: the game's stats could not be stored", table.code)
