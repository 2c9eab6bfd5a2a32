"""A fake table for the director's tests: hands that move chips at random (seeded), so the
director's bookkeeping is tested apart from the engines."""

from __future__ import annotations

import random

from sabacc.services.tournament import Director


def play_event_hand(director: Director, rng: random.Random, lose: bool = False) -> None:
    """Every playing table plays one fake hand: chips pass between its entries; some stay
    in its pot; with ``lose``, some leave play (as Kessel's lost chips do)."""
    state = director.state
    for table in director.playing_tables():
        seated = state.tables[table]
        before = {e: state.chips[e] for e in seated}
        after = dict(before)
        pot = state.pots.get(table, 0)
        winner = rng.choice(seated)
        for entry in seated:
            if entry == winner:
                continue
            paid = rng.randint(0, after[entry]) if rng.random() < 0.5 else 0
            after[entry] -= paid
            if lose and paid and rng.random() < 0.3:
                continue  # the credits leave play
            if rng.random() < 0.2:
                pot += paid  # left in the table's pot
            else:
                after[winner] += paid
        if pot and rng.random() < 0.3:  # someone wins the pot
            after[winner] += pot
            pot = 0
        dealer = rng.choice(seated)
        director.report_hand(table, before, after, pot, next_dealer=dealer)
