"""Hand histories for the web: the games of a table, a finished game's replayable document,
and a finished hand step by step as one viewer saw it (the history viewer's frames).

These read the store and replay games, which takes long for a long game: the server calls them
in a worker thread, never on the event loop. A finished hand never changes, so its frames are
kept in a small :class:`FrameCache`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import sabacc
from sabacc.apps.server.auth import hash_token, same_hash
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.messages import event_dicts
from sabacc.apps.server.table import Table, last_hand_start
from sabacc.engine.game import Game
from sabacc.services.explain import explain_hand
from sabacc.services.messages import LANGUAGES
from sabacc.services.store import GameRecord, Store


def games(store: Store, table: Table) -> list[dict[str, Any]]:
    """Every game played at ``table``, with its stacks and result (no replay needed)."""
    out = []
    for g in store.list_games(table.id):
        over = g.result is not None
        out.append(
            {
                "number": g.number,
                "players": g.players,
                "started_at": g.started_at.isoformat(),
                "finished_at": g.finished_at.isoformat() if g.finished_at else None,
                "hands_finished": g.hands if over else max(0, g.hands - 1),
                "actions": g.action_count,
                "stacks": g.stacks,
                "result": g.result,
            }
        )
    return out


def game_record(store: Store, table: Table, number: int) -> GameRecord:
    rec = store.load_game(table.id, number)
    if rec is None:
        raise ServerError("no_game", f"this table has no game {number}", status=404)
    return rec


def history(store: Store, table: Table, number: int) -> dict[str, Any]:
    """The replayable history document of a finished game (it holds the seed)."""
    rec = game_record(store, table, number)
    if rec.result is None:
        raise ServerError(
            "game_running", "a game's full history is published when it is over", status=403
        )
    return rec.history()


class FrameCache:
    """The frames of the last ``size`` finished hands asked for (thread-safe, least recently
    used first out). Keyed by table, game, hand and the hash of the token given."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int, int, str | None], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[int, int, int, str | None]) -> dict[str, Any] | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[int, int, int, str | None], value: dict[str, Any]) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


def hand_frames(
    store: Store,
    table: Table,
    number: int,
    hand: int,
    token: str | None,
    cache: FrameCache | None = None,
) -> dict[str, Any]:
    """A finished hand step by step, as the viewer saw it (their own seat, or a spectator)."""
    key = (table.id, number, hand, hash_token(token) if token else None)
    cached = cache.get(key) if cache is not None else None
    if cached is not None:
        return cached
    frames = _hand_frames(store, table, number, hand, token)
    if cache is not None:
        cache.put(key, frames)
    return frames


def _explain(game: Game, viewer: int | None) -> dict[str, list[str]]:
    """The explanation of the game's last finished hand for ``viewer``, per language."""
    result = game.hand_results[-1]
    seen = game.events_for(viewer)
    return {
        lang: explain_hand(game.info, result, game.names, seen, viewer=viewer, lang=lang)
        for lang in LANGUAGES
    }


def _hand_frames(
    store: Store, table: Table, number: int, hand: int, token: str | None
) -> dict[str, Any]:
    rec = game_record(store, table, number)
    finished = rec.hands if rec.result is not None else rec.hands - 1
    if not 1 <= hand <= finished:
        raise ServerError(
            "hand_not_finished",
            f"hand {hand} of game {number} is not a finished hand (1-{finished} are)",
            status=404,
        )
    viewer: int | None = None
    if token:
        h = hash_token(token)
        viewer = next((i for i, t in enumerate(rec.seat_tokens) if same_hash(t, h)), None)
    actions = rec.actions
    start = next((i for i, a in enumerate(actions) if a.hand >= hand), len(actions))
    end = next((i for i in range(start, len(actions)) if actions[i].hand != hand), len(actions))
    frames: list[dict[str, Any]] = []
    seen = 0  # events already shown in an earlier frame

    def frame(game: Game, applied: int) -> None:
        nonlocal seen
        if applied == start:  # the hand as dealt, before its first action
            first = last_hand_start(game)
            frames.append(
                {
                    "action": None,
                    "events": event_dicts(game, game.events[first:], viewer),
                    "game": game.observation(viewer),
                }
            )
        elif applied > start:
            a = actions[applied - 1]
            item: dict[str, Any] = {
                "action": {"seat": a.seat, "auto": a.auto},
                "events": event_dicts(game, game.events[seen:], viewer),
                "game": game.observation(viewer),
            }
            if applied == end and game.hand_results:
                # the hand's end: why it ended so, in every language (the live table's lines)
                item["explain"] = _explain(game, viewer)
            frames.append(item)
        seen = len(game.events)

    sabacc.replay(rec.history(), upto=end, on_step=frame)
    return {
        "game": number,
        "hand": hand,
        "viewer": viewer,
        "players": rec.players,
        "variant": rec.variant,
        "frames": frames,
    }
