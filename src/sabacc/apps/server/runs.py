"""Runs of events rendered and encoded once for every table that plays them (see
:class:`RunMemo`): the events of the state messages, the server's hottest path."""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from typing import Any

from sabacc.apps.server.encode import dumps, orjson
from sabacc.core.events import Event
from sabacc.engine.game import Game
from sabacc.services.render import events_json_views, mark_timer

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
    marked: dict[int | None, str] | None = None
    memo = orjson is not None and len(run) <= RUN_MEMO_EVENTS
    if memo and not any(_NAME_MARK in name for name in names):
        key = (game.info.name, len(names), tuple(run), viewers, auto)
        try:
            marked = RUNS.get(key)  # the key is hashed once, here
        except TypeError:  # an event with a list or a dict in it: rendered here
            key = None
    if key is None:
        return _render_run(run, list(names), viewers, game, auto)
    if marked is None:
        stand_ins = [_stand_in(s) for s in range(len(names))]
        try:  # orjson only: the standard library would escape the stand-ins
            marked = _render_run(run, stand_ins, viewers, game, auto, _orjson_text)
        except TypeError:  # pragma: no cover - an integer beyond 64 bits
            return _render_run(run, list(names), viewers, game, auto)
        RUNS.put(key, marked)
    swaps = _swaps(tuple(names))
    out: dict[int | None, str] = {}
    done: dict[int, str] = {}
    for viewer, text in marked.items():
        found = done.get(id(text))
        if found is None:
            found = text
            if _NAME_MARK in found:
                for stand_in, name in swaps:
                    found = found.replace(stand_in, name)
            done[id(text)] = found
        out[viewer] = found
    return out


@functools.lru_cache(maxsize=4096)
def _swaps(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Each seat's stand-in and its name JSON-escaped (without the quotes): a table's names
    change only when a seat does, and are escaped once for all its runs."""
    return tuple((_stand_in(s), dumps(name)[1:-1]) for s, name in enumerate(names))


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
