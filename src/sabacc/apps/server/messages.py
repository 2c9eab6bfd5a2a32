"""What the server sends: the protocol messages, built from a table as one viewer may see it.

Every message a client receives is built here (see docs/protocol.md), so a change to the wire
format is a change to this module only. The state message is assembled from parts: the table's
public part is encoded once per change and shared by every connection.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sabacc.apps.server.protocol import PROTOCOL_VERSION
from sabacc.core.events import Event
from sabacc.engine.game import Game
from sabacc.engine.observation import Observation
from sabacc.services.explain import explain_hand
from sabacc.services.messages import LANGUAGES
from sabacc.services.render import events_json, mark_timer
from sabacc.variants.registry import lookup

if TYPE_CHECKING:
    from sabacc.apps.server.connection import Connection
    from sabacc.apps.server.table import Table

log = logging.getLogger("sabacc.apps.server")


def dumps(value: Any) -> str:
    """Compact JSON, the encoding of every message."""
    return json.dumps(value, separators=(",", ":"))


def error(code: str, message: str, ref: str | None = None) -> dict[str, Any]:
    """A refusal: ``ref`` names the client message type it answers, if any."""
    return {"type": "error", "code": code, "message": message, "ref": ref}


def welcome(table: Table, seat: int | None, host: bool) -> dict[str, Any]:
    """The answer to ``hello``: which table and seat this connection is."""
    return {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "table": table.code,
        "seat": seat,
        "host": host,
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
        info = lookup(table.variant)
        table.info_cache = {
            "code": table.code,
            "name": table.name,
            "variant": table.variant,
            "title": info.title,
            "options": dict(table.options),
            "turn_timer": table.turn_timer,
            "status": table.status,
            "problem": table.problem,
            "game_no": table.games_played,
            "min_players": info.min_players,
            "max_players": info.max_players,
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


def state(conn: Connection, now: float) -> str:
    """The state as ``conn`` may see it, with the events it has not been sent yet.

    ``now`` is the event loop's clock (the turn deadline is kept on it). Marks those events as
    sent to ``conn``.
    """
    table = conn.table
    game = table.game
    seat = conn.seat
    events: list[dict[str, Any]] = []
    explain: dict[str, Any] | None = None
    obs: Observation | None = None  # docs/observation.schema.json
    if game is not None:
        if conn.game_no != table.games_played:
            conn.game_no = table.games_played
            conn.events_sent = table.hand_event_start
        start = conn.events_sent
        events = event_dicts(game, game.events[start:], seat)
        for i, event in enumerate(events):
            if start + i in table.auto_events:
                event["auto"] = True  # played by the timer (or for an away seat)
                # the mark goes on the line that says the move (a null line is said later)
                for later in events[i:]:
                    if later.get("text", {}).get("en") is not None:
                        later["text"] = mark_timer(later["text"])
                        break
        conn.events_sent = len(game.events)
        obs = game.observation(seat)
        done = len(game.hand_results)
        if done and conn.explained != (table.games_played, done, len(game.events)):
            # sent once per finished hand (and again for the game-end settlement)
            if conn.explained[:2] != (table.games_played, done) or game.is_over:
                try:
                    explain = explanation(game, seat)
                except Exception:  # an explanation must never stop the table being sent
                    log.exception("could not explain hand %d at table %s", done, table.code)
            conn.explained = (table.games_played, done, len(game.events))
    turn: dict[str, Any] | None = None
    if game is not None and table.status == "playing" and game.current_player is not None:
        remaining = None
        if table.deadline is not None:
            remaining = max(0, int((table.deadline - now) * 1000))
        turn = {
            "seat": game.current_player,
            "deadline_ms": remaining,
            "timer": table.turn_timer,
        }
    seated = table.seats[seat] if seat is not None and seat < len(table.seats) else None
    you = {
        "seat": seat,
        "host": conn.host,
        "name": seated.name if seated else None,
        "away": seated.away if seated else False,
    }
    # Assembled from parts: the table's part is encoded once for every connection.
    return (
        f'{{"type":"state","version":{table.version},"game_no":{table.games_played},'
        f'"table":{table_info_json(table)},"you":{dumps(you)},"turn":{dumps(turn)},'
        f'"game":{dumps(obs)},"events":{dumps(events)}'
        + (f',"explain":{dumps(explain)}' if explain is not None else "")
        + "}"
    )


def explanation(game: Game, viewer: int | None) -> dict[str, Any]:
    """Why the last finished hand ended as it did, for ``viewer``, in every language
    (:func:`sabacc.services.explain.explain_hand`): ``{"hand": n, "lines": {lang: [...]}}``."""
    result = game.hand_results[-1]
    seen = game.events_for(viewer)
    return {
        "hand": result.hand,
        "lines": {
            lang: explain_hand(game.info, result, game.names, seen, viewer=viewer, lang=lang)
            for lang in LANGUAGES
        },
    }
