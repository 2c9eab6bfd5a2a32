"""The ``sharp`` family's experiments: ``sharp``, ``shark``, ``shrewd`` and ``canny``, the
expert level's implementation (:mod:`sabacc.services.bots._expert`) with other constants,
registered by name for the benchmarks, the rating scripts and the tests only.

``wily`` (the ``expert`` level's bot) keeps its constants in the product; the experiments here
are the steps that led to it (benchmarks/bots-lab.md).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sabacc.core.errors import OptionError
from sabacc.services.bots._expert import (
    SHREWD,
    STEAL,
    WILY,
    Params,
    SharpBot,
    register_constants,
)
from sabacc.services.bots.base import register_bot

__all__ = ["CANNY", "SHARK", "SHREWD", "STEAL", "WILY", "Params", "SharpBot"]


def _sharp(seed: int | None = None, arg: str | None = None, **params: Any) -> SharpBot:
    if arg is not None:
        raise OptionError("the sharp bot takes no parameter after a colon")
    try:
        return SharpBot(seed, Params(**params) if params else None)
    except TypeError as exc:
        raise OptionError(f"sharp bot: {exc}") from None


register_bot("sharp", _sharp)


#: ``shark``'s constants: ``sharp``'s, with each credible bet or raise of this hand narrowing
#: the opponent's range three times as much (``narrowing=3``), and the narrowing scaled by the
#: fourth power of the opponent's credibility (a maniac's bets narrow almost nothing). Chosen by
#: same-seeds duplicate A/B runs (benchmarks/bots-lab.md, "Finding the leak").
SHARK = Params(narrowing=3.0, cred_power=4.0)


register_constants("shark", SHARK)

register_constants("shrewd", SHREWD)


#: ``canny``'s constants: ``shrewd``'s (so heads-up it is ``shrewd``), and at a table where two
#: or more opponents are in, a third-of-the-pot bet with a hand below the probe floor whenever
#: nobody has bet this hand (a *steal*, a fifth of the pot: ``sharp`` multi-way junks most
#: hands facing a bet), while this bot's own opening bets into several opponents have taken the
#: pot at once at least 15% of the time (counted across the game's hands from a prior of one in
#: four, so three failures stop it against players who call). Chosen by same-deals A/B runs of
#: 10-hand games (benchmarks/bots-lab.md, "Multi-way play"). A game that started with three or more
#: players keeps ``sharp``'s model when eliminations leave two (measured: ``shrewd``'s profile
#: model there lost to maniacs).
CANNY = replace(SHREWD, **STEAL)


register_constants("canny", CANNY)
