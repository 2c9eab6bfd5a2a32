"""Kessel Sabacc actions and events (RULES.md §4), with their text forms.

``stand``, ``draw sand`` / ``draw blood`` / ``draw sand discard`` / ``draw blood discard``,
``keep``, ``discard``, ``impostor 4`` (an Impostor's die at the reveal), ``prime 3`` (Prime
Sabacc's die), ``token free_draw``, ``token target_tariff 2`` (a target seat). Every text form
round-trips through :func:`parse_kessel_action` and ``str()``; ``KesselGame.parse_action`` uses it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

from sabacc.core.actions import Action, parse_action
from sabacc.core.errors import IllegalActionError
from sabacc.core.events import Event
from sabacc.variants.kessel.tokens import TARGETED, TOKEN_HELP, TOKENS

# ------------------------------------------------------------------ actions
DRAW_SOURCES: tuple[str, ...] = ("sand", "blood", "sand discard", "blood discard")


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Pay 1 chip into your pot and take the top card of ``source``."""

    kind: ClassVar[str] = "draw"
    source: str

    def __str__(self) -> str:
        return f"draw {self.source}"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Keep the drawn card; the held card of its family goes face up on its discard pile."""

    kind: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class DiscardDrawn(Action):
    """Put the drawn card face up on its family's discard pile."""

    kind: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class ChooseImpostor(Action):
    """At the reveal: the value (one of the two dice rolled) your Impostor takes."""

    kind: ClassVar[str] = "impostor"
    value: int

    def __str__(self) -> str:
        return f"impostor {self.value}"


@dataclass(frozen=True, slots=True)
class ChoosePrime(Action):
    """Prime Sabacc: the value (one of the two dice rolled) whose pair ranks below Pure."""

    kind: ClassVar[str] = "prime"
    value: int

    def __str__(self) -> str:
        return f"prime {self.value}"


@dataclass(frozen=True, slots=True)
class PlayToken(Action):
    """Play an unused shift token at the start of your turn (``target``: a seat, if needed)."""

    kind: ClassVar[str] = "token"
    token: str
    target: int | None = None

    def __str__(self) -> str:
        return f"token {self.token}" if self.target is None else f"token {self.token} {self.target}"


DRAWS: dict[str, Draw] = {s: Draw(s) for s in DRAW_SOURCES}
KEEP = Keep()
DISCARD_DRAWN = DiscardDrawn()
IMPOSTOR_CHOICES: dict[int, ChooseImpostor] = {v: ChooseImpostor(v) for v in range(1, 7)}
PRIME_CHOICES: dict[int, ChoosePrime] = {v: ChoosePrime(v) for v in range(1, 7)}


@functools.cache
def token_action(token: str, target: int | None = None) -> PlayToken:
    """The interned ``token <name> [seat]`` action."""
    return PlayToken(token, target)


def token_actions(
    seat: int,
    tokens: Sequence[str],
    order: Sequence[int],
    immune: Sequence[bool],
    stood: Sequence[bool],
) -> Iterator[PlayToken]:
    """The token plays open to ``seat`` holding ``tokens``: an untargeted token once, a
    targeted one at every other seat in ``order`` that is not immune (Target Audit: only at a
    seat that has stood). The engine and the search state share it."""
    for token in tokens:
        if token not in TARGETED:
            yield token_action(token)
            continue
        for other in order:
            if other == seat or immune[other]:
                continue
            if token == "target_audit" and not stood[other]:
                continue
            yield token_action(token, other)


def parse_kessel_action(text: str | Action) -> Action:
    """Parse a Kessel action (see the module docstring); other text goes to the core parser."""
    if isinstance(text, Action):
        return text
    if not isinstance(text, str):
        raise IllegalActionError(f"an action must be text or an Action, not {type(text).__name__}")
    norm = " ".join(text.strip().lower().split())
    words = norm.split(" ")
    head = words[0]
    if norm == "keep":
        return KEEP
    if norm == "discard":
        return DISCARD_DRAWN
    if head == "draw":
        rest = " ".join(words[1:])
        if rest in DRAWS:
            return DRAWS[rest]
        raise IllegalActionError(
            f"{text!r}: draw from where? say 'draw sand', 'draw blood', 'draw sand discard' "
            "or 'draw blood discard'"
        )
    if head in ("impostor", "prime") and len(words) == 2:
        if words[1].isdigit() and 1 <= int(words[1]) <= 6:
            return (IMPOSTOR_CHOICES if head == "impostor" else PRIME_CHOICES)[int(words[1])]
        raise IllegalActionError(f"{text!r}: choose a die value 1-6, e.g. '{head} 4'")
    if head == "token" and len(words) in (2, 3):
        name = words[1].replace("-", "_")
        if name not in TOKEN_HELP:
            raise IllegalActionError(f"{text!r}: unknown token; tokens: " + ", ".join(TOKENS))
        if len(words) == 2:
            return token_action(name)
        if not words[2].isdigit():
            raise IllegalActionError(
                f"{text!r}: the target is a seat number, e.g. 'token {name} 2'"
            )
        return token_action(name, int(words[2]))
    return parse_action(text)


# ------------------------------------------------------------------ events
@dataclass(frozen=True, slots=True)
class TokenPlayed(Event):
    """``seat`` played a shift token (on ``target``, for a targeted token)."""

    type: ClassVar[str] = "token_played"
    seat: int
    token: str
    target: int | None


@dataclass(frozen=True, slots=True)
class DiceChoice(Event):
    """Two dice rolled for ``seat`` to choose from (``purpose``: an Impostor's code or
    ``prime_sabacc``)."""

    type: ClassVar[str] = "dice_choice"
    seat: int
    purpose: str
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChipsMoved(Event):
    """Chips moved between pots and stocks by a token (``source``/``to``: ``"stock 2"``,
    ``"round 0"``: seat 0's round pot)."""

    type: ClassVar[str] = "chips_moved"
    seat: int
    amount: int
    source: str
    to: str
    reason: str


@dataclass(frozen=True, slots=True)
class ChipsLost(Event):
    """A loser's round pot and penalty leave the game."""

    type: ClassVar[str] = "chips_lost"
    seat: int
    pot: int
    penalty: int
