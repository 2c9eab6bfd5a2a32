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


def hint_text(obs: Mapping[str, Any], lang: str = "en") -> Text | None:
    """One line for the observing seat: the best card options (chance to improve ``↑``, chance
    of a Sabacc ``S``), or in a betting phase how the hand fares against a random one."""
    if not available():
        return None
    from sabacc.services.odds import hand_odds, option_odds
    from sabacc.services.render import action_label, vocabulary

    v = vocabulary(str(obs.get("variant", "")) or None, lang)

    try:
        options = option_odds(obs)
        if options:
            ranked = sorted(
                (o for o in options if o.action != "stand"),
                key=lambda o: (o.sabacc, o.better),
                reverse=True,
            )
            text = Text(v.text("ui.odds"), style="bold cyan")
            for i, o in enumerate(ranked[:SHOWN]):
                if i:
                    text.append(" · ", style="dim")
                text.append(action_label(o.action, v), style="bold")
                text.append(f" ↑{_pct(o.better)}", style="green")
                if o.sabacc:
                    text.append(f" S{_pct(o.sabacc)}", style="gold3")
            if not ranked:
                text.append(v.text("ui.odds_only_stand"))
            return text
        odds = hand_odds(obs)
    except (SabaccError, ValueError):
        return None
    if odds is None:
        return None
    text = Text(v.text("ui.odds"), style="bold cyan")
    text.append(v.text("ui.odds_beats"))
    text.append(_pct(odds.win), style="bold green")
    if odds.tie:
        text.append(v.text("ui.odds_ties", pct=_pct(odds.tie)), style="dim")
    return text
