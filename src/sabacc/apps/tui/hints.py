"""Odds hints for the ``h`` key, from :mod:`sabacc.services.odds` (exact, a pure function of the
observation). The key is hidden when the odds module is not there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from sabacc.core.errors import SabaccError

#: How many card options the hint line names (best first).
SHOWN = 2


def available() -> bool:
    """Whether odds hints can be shown (``sabacc.services.odds`` offers ``option_odds``)."""
    try:
        from sabacc.services.odds import option_odds  # noqa: F401
    except ImportError:  # pragma: no cover - the odds module ships with the package
        return False
    return True


def _pct(p: Any) -> str:
    value = float(p)
    if 0 < value < 0.005:
        return "<1%"
    return f"{value:.0%}"


def hint_text(obs: Mapping[str, Any]) -> Text | None:
    """One line for the observing seat: the best card options (chance to improve ``↑``, chance
    of a Sabacc ``S``), or in a betting phase how the hand fares against a random one."""
    if not available():
        return None
    from sabacc.services.odds import hand_odds, option_odds

    try:
        options = option_odds(obs)
        if options:
            ranked = sorted(
                (o for o in options if o.action != "stand"),
                key=lambda o: (o.sabacc, o.better),
                reverse=True,
            )
            text = Text("Odds ", style="bold cyan")
            for i, o in enumerate(ranked[:SHOWN]):
                if i:
                    text.append(" · ", style="dim")
                text.append(o.action, style="bold")
                text.append(f" ↑{_pct(o.better)}", style="green")
                if o.sabacc:
                    text.append(f" S{_pct(o.sabacc)}", style="gold3")
            if not ranked:
                text.append("standing is all you can do")
            return text
        odds = hand_odds(obs)
    except (SabaccError, ValueError):
        return None
    if odds is None:
        return None
    text = Text("Odds ", style="bold cyan")
    text.append("your hand beats a random hand ")
    text.append(_pct(odds.win), style="bold green")
    if odds.tie:
        text.append(f" (ties {_pct(odds.tie)})", style="dim")
    return text
