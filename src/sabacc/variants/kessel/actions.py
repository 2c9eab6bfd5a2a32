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

from sabacc.core.actions import (
    Action,
    Call,
    CallHand,
    Check,
    Junk,
    Stand,
    checked_action,
    parse_action,
    whole_number,
)
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


@functools.lru_cache(maxsize=None, typed=True)
def token_action(token: str, target: int | None = None) -> PlayToken:
    """The interned ``token <name> [seat]`` action (``typed``: a ``True`` or ``1.0`` target is
    never handed out as the seat-1 action, nor the other way round)."""
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


def _die_choice(action: ChooseImpostor | ChoosePrime) -> Action:
    """``action`` if its die value is an ``int``; a NumPy integer is converted."""
    value: object = action.value
    if type(value) is int:
        return action
    whole = whole_number(value)
    if whole is None:
        raise IllegalActionError(
            f"{action.kind}: the value must be a die value 1-6 (int), got {value!r}"
        )
    return type(action)(whole)


def _token_play(action: PlayToken) -> PlayToken:
    """``action`` if its token is a name (``str``) and its target a seat number (``int``) or
    None; a NumPy integer target is converted. A ``bool`` is not a seat number."""
    token: object = action.token
    target: object = action.target
    if type(token) is not str:
        raise IllegalActionError(f"token: the token must be a token name (str), got {token!r}")
    if target is None or type(target) is int:
        return action
    whole = whole_number(target)
    if whole is None:
        raise IllegalActionError(
            f"token {token}: the target must be a seat number (int), got {target!r}"
        )
    return PlayToken(token, whole)


#: The action kinds without fields: nothing to check (the first test: the most common plays).
_FIELDLESS: frozenset[type[Action]] = frozenset(
    {Stand, Keep, DiscardDrawn, Check, Call, Junk, CallHand}
)


def checked_kessel_action(action: Action) -> Action:
    """``action`` if its fields are well formed, raising :class:`IllegalActionError` if not
    (both engines' boundary, before any change): a token's target is a seat number, a die
    choice a whole number, a draw's source one of :data:`DRAW_SOURCES`; the core's actions go
    through :func:`~sabacc.core.actions.checked_action`. ``1.0`` and ``True`` equal ``1`` (and
    hash alike), so without this they would pass as the legal seat-1 action and the history
    would record ``token target_tariff 1.0``, which does not replay."""
    kind = type(action)
    if kind in _FIELDLESS:
        return action
    if kind is Draw:
        source: object = action.source  # type: ignore[attr-defined]
        if type(source) is str and source in DRAWS:
            return action
        raise IllegalActionError(
            f"draw {source!r}: draw from where? say 'draw sand', 'draw blood', "
            "'draw sand discard' or 'draw blood discard'"
        )
    if kind is PlayToken:
        return _token_play(action)  # type: ignore[arg-type]
    if kind is ChooseImpostor or kind is ChoosePrime:
        return _die_choice(action)  # type: ignore[arg-type]
    return checked_action(action)


def parse_kessel_action(text: str | Action) -> Action:
    """Parse a Kessel action (see the module docstring); other text goes to the core parser.
    An :class:`Action` is checked by :func:`checked_kessel_action`."""
    if isinstance(text, Action):
        return checked_kessel_action(text)
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
