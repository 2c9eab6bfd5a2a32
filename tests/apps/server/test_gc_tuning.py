"""``sabacc serve`` tunes the garbage collector before it serves: start-up objects frozen out of
the collector's reach, a higher first threshold (the other two kept)."""

from __future__ import annotations

import gc

from sabacc.apps.server.app import GC_THRESHOLD0, tune_gc


def test_tune_gc_freezes_what_exists_and_raises_the_first_threshold() -> None:
    before = gc.get_threshold()
    try:
        kept = [{"a": [i]} for i in range(100)]  # containers alive now: frozen with the rest
        tune_gc()
        assert gc.get_freeze_count() >= len(kept)
        assert gc.get_threshold() == (GC_THRESHOLD0, before[1], before[2])
        assert before[0] < GC_THRESHOLD0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
