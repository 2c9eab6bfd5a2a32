"""Runs of events rendered once for every table (``messages.RUNS``): what a table is sent from
the memo is exactly what rendering its own events for it gives, with its own names, and
however many other tables (other names, other seeds) filled the memo first."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.apps.server import messages
from sabacc.services.render import events_json
from sabacc.variants.registry import variant_names

#: Names with what JSON must escape, what a template could trip on, and other scripts.
NAMES = st.text(alphabet=st.sampled_from(list('ab Z"\\{}%/<>é漢字\u202e')), min_size=1, max_size=12)


def _expected(game: sabacc.Game, start: int, viewer: int | None, auto: set[int]) -> list[object]:
    """The events from ``start`` rendered for this table only (no run memo), timer moves marked
    by the server's own marking."""
    want = events_json(game.events[start:], game.names, viewer=viewer, variant=game.info)
    return json.loads(json.dumps(messages._timer_marked(want, start, auto)))


@settings(max_examples=30, deadline=None)
@given(
    variant=st.sampled_from(variant_names()),
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    names=st.lists(NAMES, min_size=4, max_size=4, unique=True),
    other_names=st.lists(NAMES, min_size=4, max_size=4, unique=True),
    timer_moves=st.sets(st.integers(0, 80), max_size=6),
)
def test_a_remembered_run_is_the_tables_own_rendering(
    variant: str,
    seed: int,
    players: int,
    names: list[str],
    other_names: list[str],
    timer_moves: set[int],
) -> None:
    messages.RUNS.runs.clear()
    # Two tables play the same seed under different names: the second is served from the
    # memo the first filled (the same runs of events), and must read its own names.
    games = [
        sabacc.new_game(variant, players=table_names[:players], seed=seed)
        for table_names in (other_names, names)
    ]
    rngs = [random.Random(seed), random.Random(seed)]
    starts = [0, 0]
    viewers = (None, *range(players))
    for _ in range(60):
        if games[1].is_over:
            break
        for k, game in enumerate(games):
            legal = game.legal_actions()
            game.apply(legal[rngs[k].randrange(len(legal))])
            auto = {i for i in timer_moves if i < len(game.events)}
            rel = tuple(sorted(i - starts[k] for i in auto if i >= starts[k]))
            sent = messages.rendered_run(game, starts[k], viewers, rel)
            for viewer in viewers:
                assert json.loads(sent[viewer]) == _expected(game, starts[k], viewer, auto)
            starts[k] = len(game.events)
    assert messages.RUNS.hits > 0  # the second table was served from the memo


def test_names_are_never_taken_from_another_table() -> None:
    """The same moves at two tables: each reads its own players' names (the memo keeps
    stand-ins, never a table's names)."""
    messages.RUNS.runs.clear()
    a = sabacc.new_game("corellian_spike", players=["Ann", "Bob"], seed=3)
    b = sabacc.new_game("corellian_spike", players=["Cleo", "Dov"], seed=3)
    for game in (a, b):
        game.apply(game.legal_actions()[0])
    text_a = messages.rendered_run(a, 0, (None, 0, 1))
    text_b = messages.rendered_run(b, 0, (None, 0, 1))
    assert messages.RUNS.hits >= 1
    for viewer in (None, 0, 1):
        assert "Ann" in text_a[viewer] or "Bob" in text_a[viewer]
        assert "Ann" not in text_b[viewer] and "Bob" not in text_b[viewer]
        assert "\ue000" not in text_b[viewer]
