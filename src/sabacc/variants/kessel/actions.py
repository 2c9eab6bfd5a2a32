"""Kessel Sabacc actions and events (RULES.md §4), with their text forms.

``stand``, ``draw sand`` / ``draw blood`` / ``draw sand discard`` / ``draw blood discard``,
``keep``, ``discard``, ``impostor 4`` (an Impostor's die at the reveal), ``prime 3`` (Prime
Sabacc's die), ``token free_draw``, ``token target_tariff 2`` (a target seat). Every text form
round-trips through :func:`parse_kessel_action` and ``str()``; ``KesselGame.parse_action`` uses it.
The parser is built from Kessel's declared kinds (:data:`KESSEL_KINDS`, in RL table order).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

from sabacc.core.actions import Action, whole_number
from sabacc.core.errors import IllegalActionError
from sabacc.core.events import Event
from sabacc.engine.actions import (
    STAND_KIND,
    ActionKind,
    ActionParser,
    Control,
    constant,
    one_slot,
)
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

    def checked(self) -> Action:
        source: object = self.source
        if type(source) is str and source in DRAW_SOURCES:
            return self
        raise IllegalActionError(
            f"draw {source!r}: draw from where? say 'draw sand', 'draw blood', "
            "'draw sand discard' or 'draw blood discard'"
        )


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

    def checked(self) -> Action:
        return _die_choice(self)


@dataclass(frozen=True, slots=True)
class ChoosePrime(Action):
    """Prime Sabacc: the value (one of the two dice rolled) whose pair ranks below Pure."""

    kind: ClassVar[str] = "prime"
    value: int

    def __str__(self) -> str:
        return f"prime {self.value}"

    def checked(self) -> Action:
        return _die_choice(self)


@dataclass(frozen=True, slots=True)
class PlayToken(Action):
    """Play an unused shift token at the start of your turn (``target``: a seat, if needed)."""

    kind: ClassVar[str] = "token"
    token: str
    target: int | None = None

    def __str__(self) -> str:
        return f"token {self.token}" if self.target is None else f"token {self.token} {self.target}"

    def checked(self) -> Action:
        """The play if its token is a name (``str``) and its target a seat number (``int``) or
        None; a NumPy integer target is converted. A ``bool`` is not a seat number: ``1.0`` and
        ``True`` equal ``1`` (and hash alike), so unchecked they would pass as the legal seat-1
        play and the history would record ``token target_tariff 1.0``, which does not replay."""
        token: object = self.token
        target: object = self.target
        if type(token) is not str:
            raise IllegalActionError(f"token: the token must be a token name (str), got {token!r}")
        if target is None or type(target) is int:
            return self
        whole = whole_number(target)
        if whole is None:
            raise IllegalActionError(
                f"token {token}: the target must be a seat number (int), got {target!r}"
            )
        return PlayToken(token, whole)


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


def _draw_kind(source: str, pile: str, pile_name: str) -> ActionKind:
    """``draw <source>``: take the top of the pile ``pile`` (its observation key), whose
    declared name is ``pile_name``."""
    return ActionKind(
        "draw_" + source.replace(" ", "_"),
        Draw,
        f"draw {source}",
        constant(DRAWS[source]),
        Control.PILE,
        pile=pile,
        source=pile_name,
        matches=lambda action: isinstance(action, Draw) and action.source == source,
        slots=one_slot(DRAWS[source]),
    )


def _die_kind(name: str, choices: dict[int, ChooseImpostor] | dict[int, ChoosePrime]) -> ActionKind:
    def parse(words: Sequence[str], text: str) -> Action | None:
        if len(words) != 1:
            return None
        if words[0].isdigit() and 1 <= int(words[0]) <= 6:
            return choices[int(words[0])]
        raise IllegalActionError(f"{text!r}: choose a die value 1-6, e.g. '{name} 4'")

    def slots(values: Sequence[int], options: object) -> Sequence[Action]:
        return tuple(choices.values())

    cls = ChooseImpostor if name == "impostor" else ChoosePrime
    return ActionKind(name, cls, f"{name} <die>", parse, Control.DIE, key=name[0], slots=slots)


def _parse_token(words: Sequence[str], text: str) -> Action | None:
    if len(words) not in (1, 2):
        return None
    name = words[0].replace("-", "_")
    if name not in TOKEN_HELP:
        raise IllegalActionError(f"{text!r}: unknown token; tokens: " + ", ".join(TOKENS))
    if len(words) == 1:
        return token_action(name)
    if not words[1].isdigit():
        raise IllegalActionError(f"{text!r}: the target is a seat number, e.g. 'token {name} 2'")
    return token_action(name, int(words[1]))


#: The most seats at a Kessel table: a targeted token has one RL slot per seat.
MAX_SEATS = 6


def _token_slots(values: Sequence[int], options: object) -> Sequence[Action]:
    out: list[Action] = []
    for token in TOKENS:
        if token in TARGETED:
            out.extend(token_action(token, s) for s in range(MAX_SEATS))
        else:
            out.append(token_action(token))
    return tuple(out)


#: Kessel's action kinds, in RL action-table order (stand first: the passive choice).
KESSEL_KINDS: tuple[ActionKind, ...] = (
    STAND_KIND,
    _draw_kind("sand", "sand_draw", "sand draw"),
    _draw_kind("blood", "blood_draw", "blood draw"),
    _draw_kind("sand discard", "sand_discard_pile", "sand discard"),
    _draw_kind("blood discard", "blood_discard_pile", "blood discard"),
    ActionKind("keep", Keep, "keep", constant(KEEP), key="k", slots=one_slot(KEEP)),
    ActionKind(
        "discard",
        DiscardDrawn,
        "discard",
        constant(DISCARD_DRAWN),
        key="x",
        slots=one_slot(DISCARD_DRAWN),
    ),
    _die_kind("impostor", IMPOSTOR_CHOICES),
    _die_kind("prime", PRIME_CHOICES),
    ActionKind(
        "token",
        PlayToken,
        "token <token> [seat]",
        _parse_token,
        Control.ITEM,
        key="t",
        slots=_token_slots,
    ),
)

#: Kessel's one text parser, built from :data:`KESSEL_KINDS`.
parse_kessel_action = ActionParser(KESSEL_KINDS)


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
