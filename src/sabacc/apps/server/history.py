"""Hand histories for the web: the games of a table, a finished game's replayable document,
and a finished hand step by step as one viewer saw it (the history viewer's frames).

These read the store and replay games: the server calls them in a worker thread, never on the
event loop. A hand's frames replay from the nearest stored snapshot before the hand
(:mod:`~sabacc.apps.server.snapshots`, every ``history_snapshot_every`` actions), so at most
that many actions before the hand, whatever the game's length; a game without snapshots (stored
before them, or with them off) replays from its start, and stores the snapshots it passes on
the way. A finished hand never changes, so its frames are kept in a small :class:`FrameCache`.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import sabacc
from sabacc.apps.server import snapshots
from sabacc.apps.server.auth import hash_token, same_hash
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.messages import event_dicts
from sabacc.apps.server.table import Table, last_hand_start
from sabacc.core.errors import HistoryError, SabaccError
from sabacc.engine.game import Game
from sabacc.services import hand_history
from sabacc.services.explain import explain_hand
from sabacc.services.messages import LANGUAGES
from sabacc.services.store import ActionSpan, GameRecord, SnapshotRecord, Store
from sabacc.services.store.repository import DATA_ERRORS

log = logging.getLogger("sabacc.apps.server")

#: ``on_step(game, applied)``: called with each state a hand's frames step through (the first
#: one as restored or dealt, then after each action applied, ``applied`` counting from the
#: game's start), to see how much was replayed.
Step = Callable[[Game, int], None]
#: Snapshots tried, the nearest first, before a hand replays from the game's start (each one
#: that does not read back is logged).
SNAPSHOT_TRIES = 3


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


def game_record(store: Store, table: Table, number: int, actions: bool = True) -> GameRecord:
    rec = store.load_game(table.id, number, actions=actions)
    if rec is None:
        raise ServerError("no_game", f"this table has no game {number}", status=404)
    return rec


def history(store: Store, table: Table, number: int) -> dict[str, Any]:
    """The replayable history document of a finished game (it holds the seed), in the
    hand-history format (:func:`sabacc.services.hand_history.from_record`)."""
    rec = game_record(store, table, number)
    if rec.result is None:
        raise ServerError(
            "game_running", "a game's full history is published when it is over", status=403
        )
    return hand_history.from_record(rec, table=table.code)


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
    every: int = 0,
    on_step: Step | None = None,
    from_snapshots: bool = True,
) -> dict[str, Any]:
    """A finished hand step by step, as the viewer saw it (their own seat, or a spectator).

    ``every``: the server's snapshot interval, at which a replay that passes an index without a
    snapshot stores one (0: none stored). ``on_step``: see :data:`Step` (not called for a
    cached hand). ``from_snapshots=False`` replays from the game's start (what the frames were
    before snapshots: the tests' and the benchmark's reference)."""
    key = (table.id, number, hand, hash_token(token) if token else None)
    cached = cache.get(key) if cache is not None else None
    if cached is not None:
        return cached
    frames = _hand_frames(store, table, number, hand, token, every, on_step, from_snapshots)
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
    store: Store,
    table: Table,
    number: int,
    hand: int,
    token: str | None,
    every: int,
    on_step: Step | None,
    use_snapshots: bool = True,
) -> dict[str, Any]:
    rec = game_record(store, table, number, actions=False)
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
    span = store.hand_span(rec.id, hand, snapshot=use_snapshots)
    tries = 0
    while True:  # ends: a replay from the start (no snapshot) returns or raises
        try:
            frames, taken = _replay_hand(rec, hand, viewer, span, every, on_step)
            break
        except (SabaccError, *DATA_ERRORS) as exc:
            if span.snapshot is None:
                raise
            # A damaged snapshot (or one another release wrote): an earlier one, or the start.
            tries += 1
            bad = span.snapshot.idx
            log.warning(
                "game %s of table %s: its snapshot at action %d does not replay (%s): "
                "replaying from an earlier one or the start",
                number, table.code, bad, type(exc).__name__,
            )  # fmt: skip
            span = store.hand_span(rec.id, hand, snapshot=tries < SNAPSHOT_TRIES, below=bad)
    _keep(store, rec, taken)
    return {
        "game": number,
        "hand": hand,
        "viewer": viewer,
        "players": rec.players,
        "variant": rec.variant,
        "frames": frames,
    }


def _keep(store: Store, rec: GameRecord, taken: list[SnapshotRecord]) -> None:
    """Store the snapshots a replay took where the game had none (a game stored before
    snapshots, or with them off): the next frames of this game start from them. Only a
    shortcut: a failure is logged, the frames are served all the same."""
    if not taken:
        return
    try:
        store.add_snapshots(rec.id, taken)
    except Exception as exc:
        log.warning("game %s: its snapshots could not be stored (%s)", rec.id, type(exc).__name__)


def _first_state(rec: GameRecord, snap: SnapshotRecord | None) -> Game:
    """The game as restored from ``snap``, or as dealt (None)."""
    if snap is not None:
        return snapshots.restore(snap, rec.players)
    history = rec.history()
    history["actions"] = []
    return sabacc.replay(history)


def _replay_hand(
    rec: GameRecord,
    hand: int,
    viewer: int | None,
    span: ActionSpan,
    every: int,
    on_step: Step | None,
) -> tuple[list[dict[str, Any]], list[SnapshotRecord]]:
    """The frames of ``hand``, replayed from the span's snapshot (None: the game's start)
    through its actions (those from there to the hand's end); and the snapshots taken on the
    way at every ``every``-th action where the game lacks them (more than ``every`` actions to
    replay before the hand)."""
    snap, actions = span.snapshot, span.actions
    game = _first_state(rec, snap)
    offset = snap.idx if snap is not None else 0
    if [a.idx for a in actions] != list(range(offset, offset + len(actions))):
        raise HistoryError(f"game {rec.number}: its stored actions from {offset} are not in order")
    start = offset + next((i for i, a in enumerate(actions) if a.hand >= hand), len(actions))
    end = offset + len(actions)
    backfill = every if every > 0 and start - offset > every else 0
    frames: list[dict[str, Any]] = []
    taken: list[SnapshotRecord] = []
    seen = 0  # events already shown in an earlier frame

    def frame(applied: int) -> None:
        nonlocal seen
        if on_step is not None:
            on_step(game, applied)
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
            a = actions[applied - 1 - offset]
            item: dict[str, Any] = {
                "action": {"seat": a.seat, "auto": a.auto},
                "events": event_dicts(game, game.events[seen:], viewer),
                "game": game.observation(viewer),
            }
            if applied == end and game.hand_results:
                # the hand's end: why it ended so, in every language (the live table's lines)
                item["explain"] = _explain(game, viewer)
            frames.append(item)
        elif backfill and applied > offset and applied % backfill == 0:
            snap_now = snapshots.take(game)
            if snap_now is not None:
                taken.append(snap_now)
        seen = len(game.events)

    frame(offset)
    for a in actions:
        try:
            game.apply(a.action, seat=a.seat)
        except (TypeError, ValueError) as exc:
            raise HistoryError(f"action {a.idx + 1} ({a.action!r}) does not replay: {exc}") from exc
        frame(a.idx + 1)
    return frames, taken
