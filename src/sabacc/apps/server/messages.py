"""What the server sends: the protocol messages, built from a table as one viewer may see it.

Every message a client receives is built here (see docs/protocol.md), as the typed models of
:mod:`~sabacc.apps.server.outgoing`, and encoded by :func:`~sabacc.apps.server.encode.encode`.
The state message is assembled from parts: the table's public part is encoded once per change
and shared by every connection, the observation and the events once per seat.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sabacc.apps.server.encode import Parts, dumps, encode
from sabacc.apps.server.outgoing import ErrorMessage, Pong, Turn, Welcome, You
from sabacc.apps.server.protocol import PROTOCOL_VERSION
from sabacc.apps.server.runs import RUNS, RunMemo, _timer_marked, rendered_run
from sabacc.apps.server.table import variant_info
from sabacc.core.events import Event, HandStarted
from sabacc.engine.game import Game
from sabacc.engine.observation import Observation
from sabacc.services.explain import explain_hand
from sabacc.services.messages import LANGUAGES
from sabacc.services.render import events_json

if TYPE_CHECKING:
    from sabacc.apps.server.connection import Connection
    from sabacc.apps.server.table import Table

log = logging.getLogger("sabacc.apps.server")

__all__ = ["RUNS", "RunMemo", "_timer_marked", "dumps", "rendered_run"]


def error(code: str, message: str, ref: str | None = None) -> ErrorMessage:
    """A refusal: ``ref`` names the client message type it answers, if any."""
    return {"type": "error", "code": code, "message": message, "ref": ref}


def pong(ping_id: int | None) -> Pong:
    """The answer to ``ping``, with its ``id``."""
    return {"type": "pong", "id": ping_id}


def welcome(table: Table, seat: int | None, host: bool, deltas: bool = False) -> Welcome:
    """The answer to ``hello``: which table and seat this connection is, and whether it is
    sent deltas after its first state."""
    return {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "table": table.code,
        "seat": seat,
        "host": host,
        "deltas": deltas,
    }


def event_dicts(game: Game, events: Sequence[Event], viewer: int | None) -> list[dict[str, Any]]:
    """Events of ``game`` as ``viewer`` (a seat, or None for a spectator) may see them: the
    one place that turns events into what the live table and the history viewer send."""
    return events_json(events, game.names, viewer=viewer, variant=game.info)


def table_info(table: Table) -> dict[str, Any]:
    """The public description of the table (same for every viewer; cached until a change)."""
    if table.info_cache is None:
        connected: dict[int, int] = {}
        for conn in table.conns:
            seat = conn.seat
            if seat is not None:
                connected[seat] = connected.get(seat, 0) + 1
        info = variant_info(table.variant)  # None: an unknown variant's quarantined table
        table.info_cache = {
            "code": table.code,
            "name": table.name,
            "variant": table.variant,
            "title": table.title,
            "options": dict(table.options),
            "turn_timer": table.turn_timer,
            "status": table.status,
            "problem": table.problem,
            "game_no": table.games_played,
            "min_players": info.min_players if info else len(table.seats),
            "max_players": info.max_players if info else len(table.seats),
            "spectators": sum(1 for c in table.conns if c.seat is None),
            "host_seat": table.seat_of(table.host_hash),
            "seats": [
                {
                    "seat": s.position,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "taken": s.kind == "bot" or s.token_hash is not None,
                    "away": s.away,
                    "connected": s.kind == "bot" or connected.get(s.position, 0) > 0,
                    "net": s.net,
                }
                for s in table.seats
            ],
        }
    return table.info_cache


def table_info_json(table: Table) -> str:
    """:func:`table_info` as JSON, encoded once per change for all the connections."""
    if table.info_json_cache is None or table.info_cache is None:
        table.info_json_cache = dumps(table_info(table))
    return table.info_json_cache


def table_summary(table: Table) -> dict[str, Any]:
    """A table's line in the lobby list."""
    open_seats = sum(1 for s in table.seats if s.kind == "human" and s.token_hash is None)
    return {
        "code": table.code,
        "name": table.name,
        "variant": table.variant,
        "title": table.title,
        "status": table.status,
        "problem": table.problem,
        "seats": len(table.seats),
        "open_seats": open_seats,
        "humans": sum(1 for s in table.seats if s.kind == "human"),
        "players": sum(1 for s in table.seats if s.kind == "bot" or s.token_hash is not None),
        "seated": [
            {"name": s.name, "bot": s.kind == "bot"}
            for s in table.seats
            if s.kind == "bot" or s.token_hash is not None
        ],
        "spectators": sum(1 for c in table.conns if c.watching),
        "game_no": table.games_played,
    }


def _views(table: Table, game: Game) -> dict[Any, Any]:
    """The encoded views of ``table``'s game at its current point, shared by every connection
    (see :func:`state`); emptied whenever the game moves (another game object, or events
    added)."""
    stamp = (len(game.events), len(game.actions), table.games_played)
    if table.views_game is not game or table.views_stamp != stamp:
        table.views_game = game
        table.views_stamp = stamp
        table.views = {}
    return table.views


def observation_dicts(table: Table, game: Game, seat: int | None) -> Observation:
    """``game.observation(seat)`` at the game's current point, made once per seat (and once
    for every spectator) per point; the first connection to ask has every connection's seat
    observed (:meth:`~sabacc.engine.game.Game.observations`). Read it, never change it."""
    views = _views(table, game)
    key = ("obsdict", seat)
    found = views.get(key)
    if found is None:
        # every connection's seat at once: the parts they see alike are computed once
        viewers: set[int | None] = {seat}
        for other in table.conns:
            viewers.add(other.seat)
        observed: dict[int | None, Observation] = game.observations(viewers)
        for viewer, obs in observed.items():  # docs/observation.schema.json
            views.setdefault(("obsdict", viewer), obs)
        found = views[key]
    return found  # type: ignore[no-any-return]


def observation_json(table: Table, game: Game, seat: int | None) -> str:
    """:func:`observation_dicts` encoded, once per seat per point of the game."""
    views = _views(table, game)
    key = ("obs", seat)
    found = views.get(key)
    if found is None:
        found = views[key] = dumps(observation_dicts(table, game, seat))
    assert isinstance(found, str)
    return found


def observation_delta_json(
    table: Table, game: Game, seat: int | None, since: tuple[Any, Observation]
) -> tuple[str | None, str | None] | None:
    """What changed in ``seat``'s observation since ``since`` (the point and observation a
    connection was last sent), as the encoded parts of a delta: ``game``, the top-level parts
    that changed, and ``game_rows``, for a list that kept its length (the seats' rows) and
    changed in few places, only its changed items by index (each None when empty). Shared by
    every connection of that seat that was sent the same point. None if a part went away
    (then only a whole state says it)."""
    views = _views(table, game)
    key = ("obsdelta", seat, since[0])
    if key in views:
        cached: tuple[str | None, str | None] | None = views[key]
        return cached
    new = observation_dicts(table, game, seat)
    old: dict[str, Any] = since[1]  # type: ignore[assignment]
    found: tuple[str | None, str | None] | None
    if not new.keys() >= old.keys():
        found = None
    else:
        parts: dict[str, Any] = {}
        rows: dict[str, dict[str, Any]] = {}
        for k, v in new.items():
            was = old.get(k, _MISSING)
            if was is v or was == v:
                continue
            if isinstance(v, list) and isinstance(was, list) and len(v) == len(was) > 2:
                changed = {str(i): item for i, item in enumerate(v) if was[i] != item}
                if 2 * len(changed) <= len(v):
                    rows[k] = changed
                    continue
            parts[k] = v
        found = (dumps(parts) if parts else None, dumps(rows) if rows else None)
    views[key] = found
    return found


_MISSING = object()


def events_view_json(table: Table, game: Game, start: int, seat: int | None) -> str:
    """The events from ``start`` as ``seat`` may see them, encoded. Every connection of the
    table that starts there is served at once: the run is rendered for a spectator and again
    only for the seats that read it differently (see
    :func:`~sabacc.services.render.events_json_views`), and each distinct list is encoded
    once (:func:`rendered_run`: a run rendered at another table before is not rendered
    again)."""
    views = _views(table, game)
    key = ("events", start, seat)
    found = views.get(key)
    if found is None:
        viewers: set[int | None] = {seat, None}
        for other in table.conns:
            viewers.add(other.seat)
        auto = tuple(sorted(i - start for i in table.auto_events if i >= start))
        encoded = rendered_run(game, start, tuple(sorted(viewers, key=_viewer_order)), auto)
        for viewer, text in encoded.items():
            views[("events", start, viewer)] = text
        found = views[key]
    assert isinstance(found, str)
    return found


def explanation_json(table: Table, game: Game, seat: int | None) -> str | None:
    """:func:`explanation` for ``seat``, encoded once per seat per point of the game; None if
    it could not be made (an explanation must never stop the table being sent)."""
    views = _views(table, game)
    key = ("explain", seat)
    if key not in views:
        try:
            views[key] = dumps(explanation(game, seat))
        except Exception:
            log.exception(
                "could not explain hand %d at table %s", len(game.hand_results), table.code
            )
            views[key] = None
    made: str | None = views[key]
    return made


def _viewer_order(viewer: int | None) -> int:
    return -1 if viewer is None else viewer


def state(conn: Connection, now: float) -> str:
    """The state as ``conn`` may see it, with the events it has not been sent yet: a whole
    ``state`` message, or, for a connection that asked for deltas (``hello`` with
    ``"deltas": true``) and was sent a state of this game before, a ``delta`` with only what
    changed since the last one (see docs/protocol.md).

    ``now`` is the event loop's clock (the turn deadline is kept on it). Marks those events as
    sent to ``conn``, and numbers the message (``v``: one more than the last state or delta
    this connection was sent). The observation and the events are computed and encoded once
    per seat (and once for all the spectators) per point of the game, whatever the number of
    connections; a delta's changed parts once per seat and point it follows.
    """
    table = conn.table
    game = table.game
    seat = conn.seat
    events = "[]"
    explain: str | None = None
    base = conn.base
    if base is not None and (
        base.game is not game or base.seat != seat or base.game_no != table.games_played
    ):
        base = None  # another game, or another seat: the whole state again
    turn: Turn | None = None
    if game is not None:
        events, explain = _news(conn, table, game, seat)
        turn = _turn(table, game, now)
    you = _you(conn, table, seat)
    info = table_info_json(table)
    conn.v += 1
    point: tuple[Any, Observation] | None = None
    if conn.deltas and game is not None:
        seen = observation_dicts(table, game, seat)  # sets the point's stamp
        point = (table.views_stamp, seen)
    if game is not None and base is not None and point is not None and base.point is not None:
        changed = observation_delta_json(table, game, seat, base.point)
        if changed is not None:
            conn.base = Base(game, seat, table.games_played, point, info, you, turn)
            return encode(
                Parts(
                    "delta",
                    conn.v,
                    table.version,
                    table.games_played,
                    table=info if info != base.table else None,
                    you=dumps(you) if you != base.you else None,
                    turn=dumps(turn) if turn != base.turn else None,
                    game=changed[0],
                    game_rows=changed[1],
                    events=events if events != "[]" else None,
                    explain=explain,
                )
            )
    obs = observation_json(table, game, seat) if game is not None else "null"
    if point is not None:
        assert game is not None
        conn.base = Base(game, seat, table.games_played, point, info, you, turn)
    # Assembled from parts: the table's part is encoded once for every connection.
    return encode(
        Parts(
            "state",
            conn.v,
            table.version,
            table.games_played,
            table=info,
            you=dumps(you),
            turn=dumps(turn),
            game=obs,
            events=events,
            explain=explain,
        )
    )


def _turn(table: Table, game: Game, now: float) -> Turn | None:
    """Whose turn it is, and the milliseconds left on the turn timer (None: none running)."""
    if table.status != "playing" or game.current_player is None:
        return None
    remaining = None
    if table.deadline is not None:
        remaining = max(0, int((table.deadline - now) * 1000))
    return {"seat": game.current_player, "deadline_ms": remaining, "timer": table.turn_timer}


def _you(conn: Connection, table: Table, seat: int | None) -> You:
    """Who ``conn`` is at ``table``."""
    seated = table.seats[seat] if seat is not None and seat < len(table.seats) else None
    return {
        "seat": seat,
        "host": conn.host,
        "name": seated.name if seated else None,
        "away": seated.away if seated else False,
    }


def _news(conn: Connection, table: Table, game: Game, seat: int | None) -> tuple[str, str | None]:
    """The events ``conn`` has not been sent yet (encoded), and the showdown's explanation
    if a hand finished since its last message; marks them sent."""
    events = "[]"
    explain: str | None = None
    if conn.game_no != table.games_played:
        conn.game_no = table.games_played
        conn.events_sent = table.hand_event_start
    start = conn.events_sent
    if start < len(game.events):
        events = events_view_json(table, game, start, seat)
    conn.events_sent = len(game.events)
    done = len(game.hand_results)
    if done and conn.explained != (table.games_played, done, len(game.events)):
        # sent once per finished hand (and again for the game-end settlement)
        if conn.explained[:2] != (table.games_played, done) or game.is_over:
            explain = explanation_json(table, game, seat)
        conn.explained = (table.games_played, done, len(game.events))
    return events, explain


class Base:
    """What a delta-following connection was last sent, that the next delta is made against:
    the game and seat it was for, the observation's point (the table's view stamp) and the
    observation itself, and the table, ``you`` and ``turn`` parts."""

    __slots__ = ("game", "game_no", "point", "seat", "table", "turn", "you")

    def __init__(
        self,
        game: Game,
        seat: int | None,
        game_no: int,
        point: tuple[Any, Observation] | None,
        table: str,
        you: You,
        turn: Turn | None,
    ) -> None:
        self.game = game
        self.seat = seat
        self.game_no = game_no
        self.point = point
        self.table = table
        self.you = you
        self.turn = turn


def explanation(game: Game, viewer: int | None) -> dict[str, Any]:
    """Why the last finished hand ended as it did, for ``viewer``, in every language
    (:func:`sabacc.services.explain.explain_hand`): ``{"hand": n, "lines": {lang: [...]}}``."""
    result = game.hand_results[-1]
    # only that hand's events and the settlement after it are read: from its HandStarted on
    start = 0
    for i in range(len(game.events) - 1, -1, -1):
        event = game.events[i]
        if isinstance(event, HandStarted) and event.hand == result.hand:
            start = i
            break
    seen = game.events_for(viewer, since=start)
    return {
        "hand": result.hand,
        "lines": {
            lang: explain_hand(game.info, result, game.names, seen, viewer=viewer, lang=lang)
            for lang in LANGUAGES
        },
    }
