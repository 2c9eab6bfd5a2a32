"""Game snapshots for the history viewer (issue 31, S9): every N-th action the server stores
the game's state with the action (one transaction), and a hand's frames start from the
nearest snapshot before the hand instead of replaying the whole game.

A snapshot is :meth:`Game.save <sabacc.engine.game.Game.save>`'s document (format
:data:`SNAPSHOT_FORMAT`) with three things left out so that it stays a few kilobytes however
long the game runs and holds nothing personal:

- the action log (the store's action rows are that log; it grows with the game);
- the results of the hands before the last one (the game's record, which grows with it; the
  last hand's result is kept: an observation shows it);
- the players' names (the game row's, which deleting an account rewrites): restored from it.

Everything that decides what comes next and what anyone sees is kept exactly: cards, piles,
stacks, pots, whose turn, the RNG's state. So the frames of a hand replayed from a snapshot
are the frames of a whole replay (the tests compare them for every variant).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sabacc
from sabacc.core.errors import SaveError
from sabacc.engine.game import Game
from sabacc.services.store import SnapshotRecord

#: The version of a snapshot's text; one of another version is not read (the hand replays
#: from an earlier snapshot or the start instead).
SNAPSHOT_FORMAT = 1
#: What a snapshot leaves out of the saved state (see the module's docstring).
LEFT_OUT = ("actions", "names")


def take(game: Game) -> SnapshotRecord | None:
    """The snapshot of ``game`` as it stands (None: a game that cannot be saved, as one on a
    compiled core, whose save would replay it whole: its hands replay from the start)."""
    if not isinstance(game, Game):
        return None
    shadow = object.__new__(type(game))  # the same state, without the growing logs
    shadow.__dict__.update(game.__dict__)
    shadow.actions = []
    shadow.hand_results = game.hand_results[-1:]
    try:
        doc = shadow.save()
    except SaveError:
        return None
    for key in LEFT_OUT:
        doc["state"].pop(key, None)
    text = json.dumps(doc, separators=(",", ":"))
    return SnapshotRecord(len(game.actions), game.hand_no, SNAPSHOT_FORMAT, text)


def due(game: Game, every: int) -> SnapshotRecord | None:
    """The snapshot to store with the action just applied, if it is an ``every``-th one (0:
    never) and the game goes on."""
    done = len(game.actions)  # checked first: this runs after every action
    if every <= 0 or done == 0 or done % every or game.is_over:
        return None
    return take(game)


def restore(snap: SnapshotRecord, players: Sequence[str]) -> Game:
    """The game a snapshot holds, its players named ``players`` (the game row's). Raises
    :class:`~sabacc.core.errors.SaveError` for a snapshot that does not read back (another
    format, damaged text, or not the hand it says)."""
    if snap.format != SNAPSHOT_FORMAT:
        raise SaveError(f"a snapshot of format {snap.format!r} (this server reads 1)")
    try:
        doc = json.loads(snap.state)
        doc["state"]["actions"] = []
        doc["state"]["names"] = list(players)
    except (ValueError, TypeError, KeyError) as exc:
        raise SaveError(f"an unreadable snapshot: {exc!r}") from None
    game = sabacc.restore(doc)
    if game.hand_no != snap.hand or len(game.names) != game.n:
        raise SaveError(f"a snapshot of hand {game.hand_no}, stored as of hand {snap.hand}")
    return game
