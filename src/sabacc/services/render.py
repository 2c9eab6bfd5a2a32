"""Text rendering of events and observations: pure functions, shared by the CLI and the TUI."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sabacc.core import events as ev


def _who(seat: int | None, names: Sequence[str]) -> str:
    if seat is None:
        return "the dealer"
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def describe_event(event: ev.Event, names: Sequence[str]) -> str | None:
    """One line of plain text for an event (None for events not worth a line)."""
    who = _who(getattr(event, "seat", -1), names) if hasattr(event, "seat") else ""
    if isinstance(event, ev.HandStarted):
        return f"── Hand {event.hand}: {_who(event.dealer, names)} deals ──"
    if isinstance(event, ev.Anted):
        return None
    if isinstance(event, ev.Dealt):
        cards = " ".join(event.cards) if event.cards else f"{event.count} cards"
        what = "dealt" if event.reason == "deal" else f"dealt ({event.reason})"
        return f"{who} is {what}: {cards}"
    if isinstance(event, ev.Flipped):
        return f"{event.card} is turned face up on the {event.pile} pile"
    if isinstance(event, ev.Acted):
        return f"{who}: {event.action or event.public}"
    if isinstance(event, ev.CardTaken):
        card = event.card or "a card"
        return f"{who} takes {card} from the {event.source}"
    if isinstance(event, ev.CardDiscarded):
        return f"{who} discards {event.card}"
    if isinstance(event, ev.Paid):
        if event.reason in ("ante",) or event.reason.startswith(("call", "bet", "raise")):
            return None
        return f"{who} pays {event.amount} to the {event.pot} pot ({event.reason})"
    if isinstance(event, ev.BetReturned):
        return f"{event.amount} uncalled returned to {who}"
    if isinstance(event, ev.DiceRolled):
        shift = "  SABACC SHIFT!" if event.shift else ""
        return f"{_who(event.roller, names)} rolls {' '.join(map(str, event.dice))}{shift}"
    if isinstance(event, ev.Reshuffled):
        return f"The discards are reshuffled into a new draw pile ({event.cards} cards)"
    if isinstance(event, ev.Revealed):
        return f"{who} shows {' '.join(event.cards)}: {event.name} ({event.total:+d})"
    if isinstance(event, ev.BlindDraw):
        return f"{who} blind-draws {event.card}"
    if isinstance(event, ev.PotAwarded):
        parts = ", ".join(
            f"{_who(s, names)} {share}" for s, share in zip(event.seats, event.shares, strict=True)
        )
        return f"The {event.pot} pot ({event.amount}) goes to {parts}: {event.reason}"
    if isinstance(event, ev.PotCarried):
        return f"The {event.pot} pot ({event.amount}) carries over"
    if isinstance(event, ev.Eliminated):
        return f"{who} cannot ante ({event.stack} left) and is out"
    if isinstance(event, ev.HandEnded):
        return None
    if isinstance(event, ev.GameEnded):
        return "── Game over ──"
    return None  # pragma: no cover - unknown event types are skipped


def legal_summary(legal: dict[str, Any]) -> list[str]:
    """The legal actions as short phrases (bet ranges folded): ``["check", "bet 1-97"]``."""
    out = list(legal.get("actions", []))
    for kind in ("bet", "raise"):
        rng = legal.get(kind)
        if rng:
            lo, hi = rng
            out.append(f"{kind} {lo}" if lo == hi else f"{kind} {lo}-{hi}")
    return out
