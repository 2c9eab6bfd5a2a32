"""What the server sends: the protocol messages, built from a table as one viewer may see it.

Every message a client receives is built here (see docs/protocol.md), so a change to the wire
format is a change to this module only. The state message is assembled from parts: the table's
public part is encoded once per change and shared by every connection.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is in the server extra
    orjson = None  # type: ignore[assignment]

from sabacc.apps.server.protocol import PROTOCOL_VERSION
from sabacc.apps.server.table import variant_info
from sabacc.core.events import Event, HandStarted
from sabacc.engine.game import Game
from sabacc.engine.observation import Observation
from sabacc.services.explain import explain_hand
from sabacc.services.messages import LANGUAGES
from sabacc.services.render import events_json, events_json_views, mark_timer

if TYPE_CHECKING:
    from sabacc.apps.server.connection import Connection
    from sabacc.apps.server.table import Table

log = logging.getLogger("sabacc.apps.server")


def dumps(value: Any) -> str:
    """Compact JSON, the encoding of every message: orjson when installed (several times
    faster; non-ASCII as UTF-8 rather than ``\\u`` escapes, the same JSON), else the standard
    library. What orjson refuses (an integer beyond 64 bits, such as a large seed) goes through
    the standard library, so every value that encoded before still encodes."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # orjson.JSONEncodeError: e.g. an int outside 64 bits
            pass
    return json.dumps(value, separators=(",", ":"))


def error(code: str, message: str, ref: str | None = None) -> dict[str, Any]:
    """A refusal: ``ref`` names the client message type it answers, if any."""
    return {"type": "error", "code": code, "message": message, "ref": ref}


def welcome(table: Table, seat: int | None, host: bool, deltas: bool = False) -> dict[str, Any]:
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
) -> str | None:
    """What changed in ``seat``'s observation since ``since`` (the point and observation a
    connection was last sent), as the JSON members of a delta: ``"game"``, the top-level parts
    that changed, and ``"game_rows"``, for a list that kept its length (the seats' rows) and
    changed in few places, only its changed items by index. Shared by every connection of that
    seat that was sent the same point. ``""`` if nothing changed; None if a part went away
    (then only a whole state says it)."""
    views = _views(table, game)
    key = ("obsdelta", seat, since[0])
    if key in views:
        cached: str | None = views[key]
        return cached
    new = observation_dicts(table, game, seat)
    old: dict[str, Any] = since[1]  # type: ignore[assignment]
    found: str | None
    if any(k not in new for k in old):
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
        found = (f',"game":{dumps(parts)}' if parts else "") + (
            f',"game_rows":{dumps(rows)}' if rows else ""
        )
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


#: Stand-ins for the players' names while a run of events is rendered for :data:`RUNS`: each
#: a character of Unicode's private use area (which :func:`~sabacc.apps.server.table.
#: clean_name` removes from names) around the seat number.
_NAME_MARK = "\ue000"


def _stand_in(seat: int) -> str:
    return f"{_NAME_MARK}{seat}\ue001"


class RunMemo:
    """Runs of events already rendered and encoded, whatever the table: ``(variant, seats,
    events, viewers, timer moves) -> {viewer: JSON with stand-in names}``, the least recently
    used forgotten beyond ``size``.

    A line is a function of the events, the viewer, the vocabulary and the names, and the
    renderer puts a name in a line only as it is (``{who}``, ``{target}``...): so a run is
    rendered once with stand-ins for the names, and each table puts its own names in the
    encoded text. Tables play the same moves over and over ("p2 stands", the same card taken
    from the same pile), so most runs were rendered before."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self.runs: OrderedDict[tuple[Any, ...], dict[int | None, str]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[Any, ...]) -> dict[int | None, str] | None:
        found = self.runs.get(key)
        if found is not None:
            self.runs.move_to_end(key)
            self.hits += 1
        else:
            self.misses += 1
        return found

    def put(self, key: tuple[Any, ...], value: dict[int | None, str]) -> None:
        self.runs[key] = value
        if len(self.runs) > self.size:
            self.runs.popitem(last=False)


#: The server's memo of rendered runs (see :class:`RunMemo`).
RUNS = RunMemo()

#: Longer runs (a newcomer's whole hand) are rendered for their table only.
RUN_MEMO_EVENTS = 24


def rendered_run(
    game: Game, start: int, viewers: tuple[int | None, ...], auto: tuple[int, ...] = ()
) -> dict[int | None, str]:
    """The events of ``game`` from ``start``, as each of ``viewers`` may see them, encoded:
    :func:`~sabacc.services.render.events_json_views`, with the moves at ``auto`` (indices
    from ``start``) marked as the timer's. Equal to rendering them for this table (tested
    with Hypothesis); taken from :data:`RUNS` when the same run was rendered before."""
    run = game.events[start:]
    names = game.names
    key: tuple[Any, ...] | None = None
    if orjson is not None and len(run) <= RUN_MEMO_EVENTS:
        key = (game.info.name, len(names), tuple(run), viewers, auto)
        try:
            hash(key)
        except TypeError:  # an event with a list or a dict in it: rendered here
            key = None
        if any(_NAME_MARK in name for name in names):
            key = None
    if key is None:
        return _render_run(run, list(names), viewers, game, auto)
    marked = RUNS.get(key)
    if marked is None:
        stand_ins = [_stand_in(s) for s in range(len(names))]
        try:  # orjson only: the standard library would escape the stand-ins
            marked = _render_run(run, stand_ins, viewers, game, auto, _orjson_text)
        except TypeError:  # pragma: no cover - an integer beyond 64 bits
            return _render_run(run, list(names), viewers, game, auto)
        RUNS.put(key, marked)
    escaped = [dumps(name)[1:-1] for name in names]
    out: dict[int | None, str] = {}
    done: dict[int, str] = {}
    for viewer, text in marked.items():
        found = done.get(id(text))
        if found is None:
            found = text
            if _NAME_MARK in found:
                for s, name in enumerate(escaped):
                    found = found.replace(_stand_in(s), name)
            done[id(text)] = found
        out[viewer] = found
    return out


def _render_run(
    run: Sequence[Event],
    names: list[str],
    viewers: tuple[int | None, ...],
    game: Game,
    auto: tuple[int, ...],
    encode: Callable[[Any], str] | None = None,
) -> dict[int | None, str]:
    """``run`` rendered for each of ``viewers`` and encoded (each distinct list once)."""
    rendered = events_json_views(run, names, viewers, variant=game.info)
    encoded: dict[int, str] = {}
    out: dict[int | None, str] = {}
    for viewer, events in rendered.items():
        text = encoded.get(id(events))
        if text is None:
            text = encoded[id(events)] = (encode or dumps)(_timer_marked(events, 0, auto))
        out[viewer] = text
    return out


def _orjson_text(value: Any) -> str:
    assert orjson is not None
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _timer_marked(
    events: list[dict[str, Any]], start: int, auto: Collection[int]
) -> list[dict[str, Any]]:
    """``events`` (numbered from ``start``) with the moves the timer played (or played for an
    away seat) marked ``auto``, and "(timer)" on the line that says each: the first line from
    the move on that is not null (a null line is said by a later one). Marked events are
    copies: the rendered dicts are shared between viewers."""
    marks = [i for i in range(len(events)) if start + i in auto]
    if not marks:
        return events
    out = list(events)
    for i in marks:
        out[i] = dict(out[i], auto=True)
        for j in range(i, len(out)):
            text = out[j].get("text") or {}
            if text.get("en") is not None:
                out[j] = dict(out[j], text=mark_timer(text))
                break
    return out


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
    if game is not None:
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
    info = table_info_json(table)
    conn.v += 1
    head = f'"v":{conn.v},"version":{table.version},"game_no":{table.games_played}'
    tail = f',"explain":{explain}' if explain is not None else ""
    point: tuple[Any, Observation] | None = None
    if conn.deltas and game is not None:
        seen = observation_dicts(table, game, seat)  # sets the point's stamp
        point = (table.views_stamp, seen)
    if game is not None and base is not None and point is not None and base.point is not None:
        changed = observation_delta_json(table, game, seat, base.point)
        if changed is not None:
            parts = [f'{{"type":"delta",{head}']
            if info != base.table:
                parts.append(f',"table":{info}')
            if you != base.you:
                parts.append(f',"you":{dumps(you)}')
            if turn != base.turn:
                parts.append(f',"turn":{dumps(turn)}')
            if changed:
                parts.append(changed)
            if events != "[]":
                parts.append(f',"events":{events}')
            parts.append(tail + "}")
            conn.base = Base(game, seat, table.games_played, point, info, you, turn)
            return "".join(parts)
    obs = observation_json(table, game, seat) if game is not None else "null"
    if point is not None:
        assert game is not None
        conn.base = Base(game, seat, table.games_played, point, info, you, turn)
    # Assembled from parts: the table's part is encoded once for every connection.
    return (
        f'{{"type":"state",{head},"table":{info},"you":{dumps(you)},"turn":{dumps(turn)},'
        f'"game":{obs},"events":{events}{tail}}}'
    )


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
        you: dict[str, Any],
        turn: dict[str, Any] | None,
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
