"""Plays an event's tables on the server: event hand after event hand, every table at once.

Each table is a :class:`~sabacc.services.tournament.runner.TableRun` (a reference-engine game
from the event's stacks; players moving in and out join and leave it between hands). Bots act
at once at a table of bots and after ``bot_delay`` where a person sits; a person has the
event's turn timer for each action, after which their seat plays automatically (an ``easy``
autopilot, still paying antes) until they act again. When every table has played its hand,
the event hand closes (the director's busts, level by the event clock, breaks, balancing) and
the hands and the close are stored in one transaction. A director's seating change waits for
the end of the event hand in play (``LiveEvent.lock``); while the clock is paused no hand is
dealt.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from sabacc.apps.server.errors import ServerError
from sabacc.core.errors import SabaccError
from sabacc.engine.seating import BETWEEN_HANDS
from sabacc.services.tournament.runner import TableRun

if TYPE_CHECKING:
    from sabacc.apps.server.tournaments import LiveEvent, Tournaments

log = logging.getLogger("sabacc.apps.server")

#: A table of bots gives the event loop a turn after this many actions.
BOT_BATCH = 20


async def run_event(svc: Tournaments, ev: LiveEvent) -> None:
    """Play ``ev`` to its end (a cancelled task stops between actions: nothing half-stored)."""
    while ev.director is not None and not ev.director.state.finished:
        if not ev.running:
            await asyncio.sleep(0.2)
            continue
        try:
            async with ev.lock:
                await event_hand(svc, ev)
        except ServerError as exc:  # the database is down: try again from what is stored
            log.warning("tournament %s: %s; rebuilt from the store", ev.code, exc.message)
            await asyncio.sleep(1.0)
            await rebuild(svc, ev)
        await asyncio.sleep(0)


async def rebuild(svc: Tournaments, ev: LiveEvent) -> None:
    """Throw away what was not stored: the event again from its stored commands."""
    fresh = await svc._rebuild(ev.rec)
    ev.director, ev.seq, ev.players = fresh.director, fresh.seq, fresh.players
    ev.runs.clear()
    ev.changed()
    await svc._settle_restart(ev)


def prepare(svc: Tournaments, ev: LiveEvent, batch: list[Any]) -> list[TableRun]:
    """Each playing table's game: kept, with players moving in and out, or made anew (a new
    level, settled pots, a game with no seat for an arriving player)."""
    director = ev.director
    assert director is not None
    runs = []
    for table in director.playing_tables():
        run = ev.runs.get(table)
        fresh = run is None or run.stale(director)
        if run is not None and not fresh and not run.seat_moves(director):
            batch.append(svc.command(ev, {"op": "close_pot", "table": table, "reason": "move"}))
            fresh = True
        if fresh:
            if run is not None and ev.players is not None:
                ev.players.forget(run.game)
            run = ev.runs[table] = TableRun(director, table, len(director.events))
        assert run is not None
        runs.append(run)
    return runs


async def event_hand(svc: Tournaments, ev: LiveEvent) -> None:
    """One event hand: every table's hand, then the close; stored together."""
    director = ev.director
    assert director is not None
    batch: list[Any] = []
    apply_pending(svc, ev, batch)
    runs = prepare(svc, ev, batch)
    hands = await asyncio.gather(*(table_hand(svc, ev, run) for run in runs))
    for hand in hands:
        batch.append(svc.command(ev, hand))
    batch.append(svc.command(ev, {"op": "end_hand", "clock": ev.level_clock()}))
    status = "finished" if director.state.finished else None
    if status:
        ev.set_running(False)
    await svc.persist(ev, batch, status=status)
    for table in [t for t in ev.runs if t not in director.state.tables]:
        gone = ev.runs.pop(table)
        if ev.players is not None:
            ev.players.forget(gone.game)
    ev.changed()


def apply_pending(svc: Tournaments, ev: LiveEvent, batch: list[Any]) -> None:
    """The seating changes that waited for this moment (late entries, a director's moves
    and breaks), each checked again: one the director now refuses is dropped (and logged)."""
    entered = False
    while ev.pending:
        command = ev.pending.pop(0)
        try:
            batch.append(svc.command(ev, command))
            entered = entered or command["op"] == "register"
        except ServerError as exc:
            log.warning("tournament %s: %s dropped: %s", ev.code, command["op"], exc.message)
    if entered:
        ev.players = svc._players(ev)


async def table_hand(svc: Tournaments, ev: LiveEvent, run: TableRun) -> dict[str, Any]:
    """Deal and play one hand at ``run``'s table; the hand's report (a ``hand`` command)."""
    director = ev.director
    assert director is not None and ev.players is not None
    state, game = director.state, run.game
    seated = list(state.tables[run.table])
    before = {e: state.chips[e] for e in seated}
    if game.phase == BETWEEN_HANDS:
        for entry, seat in list(run.seat.items()):  # busted: their remainder leaves too
            if entry not in state.chips:
                game.leave(seat)
                del run.seat[entry]
        game.deal()
    run.fresh = False
    out = [e for e in seated if game.over or game.out[run.seat_of(e)]]
    people = {state.entries[e].player for e in seated if not bot_of(ev, e)}
    delay = svc.m.settings.bot_delay * 0.5 if people else 0.0
    count = 0
    while not game.is_over and game.phase != BETWEEN_HANDS:
        seat = game.current_player
        assert seat is not None
        player = state.entries[run.entries[seat]].player
        if player in people and player not in ev.away:
            action: Any = await person_turn(ev, run, player, seat)
        else:
            action = ev.players.decide(player, game, seat)
            count += 1
            if delay:
                await asyncio.sleep(delay)
            elif count % BOT_BATCH == 0:
                await asyncio.sleep(0)
        game.apply(action, seat=seat)
        ev.changed()
    after = {e: int(game.stacks[run.seat_of(e)]) for e in seated}
    return {
        "op": "hand",
        "table": run.table,
        "before": before,
        "after": after,
        "pot": run.pot(),
        "out": out,
        "next_dealer": run._next_dealer(seated),
    }


def bot_of(ev: LiveEvent, entry: str) -> str | None:
    assert ev.director is not None
    state = ev.director.state
    level: str | None = state.players[state.entries[entry].player]["bot"]
    return level


async def person_turn(ev: LiveEvent, run: TableRun, player: str, seat: int) -> Any:
    """Wait for a person's action for the turn timer; then their seat plays automatically
    (and keeps doing so until they act again)."""
    assert ev.players is not None
    future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    timer = float(ev.rec.config.get("turn_timer", 30.0))
    ev.turns[player] = (run.table, seat, future)
    ev.deadlines[player] = time.time() + timer
    ev.changed()
    try:
        return await asyncio.wait_for(future, timeout=timer)
    except TimeoutError:
        ev.away.add(player)
        return ev.players.decide(player, run.game, seat)
    finally:
        ev.turns.pop(player, None)
        ev.deadlines.pop(player, None)


def act(ev: LiveEvent, player: str, text: str) -> None:
    """A person's action at their table (checked legal before it is taken)."""
    turn = ev.turns.get(player)
    if turn is None:
        raise ServerError("not_your_turn", "it is not your turn", status=409)
    table, _seat, future = turn
    run = ev.runs.get(table)
    if run is None or future.done():
        raise ServerError("not_your_turn", "it is not your turn", status=409)
    try:
        legal = run.game.is_legal(text)
    except SabaccError:
        legal = False
    if not legal:
        raise ServerError("illegal_action", f"{text!r} is not a legal action now", 409)
    ev.away.discard(player)
    future.set_result(text)
