"""Kessel Sabacc's RL feature spec (:class:`~sabacc.engine.features.FeatureSpec`).

The variant's part of the seat view is built by one function, :func:`kessel_extra`, from the
variant's public observation part, for the game (``KesselGame._view_extra``) and for a JSON
observation alike, so the two views agree by construction. Its blocks: the turn, the starting
player, both discard tops and piles by card kind, the draw piles' sizes, a drawn card (its face
when this seat knows it, and the pile it came from), the round's token rules, the dice to choose
from, per seat the unplayed token count, stood, immune and embargoed, this seat's own unplayed
tokens, and the chips lost so far. Its actions (and their RL table slots) are declared in
:mod:`sabacc.variants.kessel.actions`.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence
from typing import Any

from sabacc.engine.features import Block, ExtraWriter, FeatureSpec, Layout
from sabacc.variants.kessel.actions import DRAW_SOURCES
from sabacc.variants.kessel.tokens import TOKENS

#: Card kinds of a family, in feature order: 1-6, Impostor, Sylop.
_KIND = {"1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "I": 6, "0": 7}
_SOURCE = {s: i for i, s in enumerate(DRAW_SOURCES)}
_TOKEN = {t: i for i, t in enumerate(TOKENS)}


def _kind(code: str | None) -> int:
    """Index of a card's (family, kind): Sand 0-7, Blood 8-15; -1 for none."""
    if not code:
        return -1
    return _KIND[code[:-1]] + (0 if code[-1] == "s" else 8)


def kessel_extra(part: Mapping[str, Any], seat: int, n: int) -> tuple[Any, ...]:
    """The variant's seat-view tuple from its observation part (see the module docstring)."""
    drawn = part["drawn"] or {}
    rules = part["rules"]
    dice = part["dice"] or [0, 0]
    order = [(seat + k) % n for k in range(n)]
    mine = part["my_tokens"] or []
    return (
        part["turn"],
        part["turns"],
        (part["starting_player"] - seat) % n,
        _kind(part["sand_discard"]),
        _kind(part["blood_discard"]),
        tuple(_kind(c) for c in part["sand_discard_pile"] + part["blood_discard_pile"]),
        part["sand_draw"],
        part["blood_draw"],
        _kind(drawn.get("card")),
        _SOURCE.get(drawn.get("from") or "", -1),
        (
            part["draw_is_free"],
            rules["major_fraud"],
            rules["markdown"],
            rules["cook_the_books"],
        ),
        rules["prime"] or 0,
        (dice[0], dice[1]),
        tuple(part["tokens_left"][s] for s in order),
        tuple(part["stood"][s] for s in order),
        tuple(part["immune"][s] for s in order),
        tuple(part["embargoed"][s] for s in order),
        tuple(_TOKEN[t] for t in mine),
        part["chips_lost"],
    )


def _writer(at: Layout) -> ExtraWriter:
    o = at.offsets
    n = at.n

    def write(f: MutableSequence[float], extra: tuple[Any, ...]) -> None:
        (turn, turns, starter, stop, btop, piles, nsand, nblood, drawn, source, flags, prime,
         dice, left, stood, immune, embargoed, mine, lost) = extra  # fmt: skip
        f[o["turn"]] = turn / turns
        if turn >= turns:
            f[o["turn"] + 1] = 1.0
        f[o["starting_player"] + starter] = 1.0
        for top in (stop, btop):
            if top >= 0:
                f[o["tops"] + top] = 1.0
        for k in piles:
            f[o["discards"] + k] += 1.0
        f[o["draws"]] = nsand / 22.0
        f[o["draws"] + 1] = nblood / 22.0
        if drawn >= 0:
            f[o["drawn"] + drawn] = 1.0
        if source >= 0:
            f[o["drawn_from"] + source] = 1.0
        for i, flag in enumerate(flags):
            if flag:
                f[o["rules"] + i] = 1.0
        if prime:
            f[o["prime"] + prime - 1] = 1.0
        f[o["dice"]] = dice[0] / 6.0
        f[o["dice"] + 1] = dice[1] / 6.0
        for k in range(n):
            f[o["tokens_left"] + k] = left[k] / 16.0
            f[o["stood"] + k] = 1.0 if stood[k] else 0.0
            f[o["immune"] + k] = 1.0 if immune[k] else 0.0
            f[o["embargoed"] + k] = 1.0 if embargoed[k] else 0.0
        for t in mine:
            f[o["my_tokens"] + t] = 1.0
        f[o["chips_lost"]] = min(1.0, lost / 60.0)

    return write


def _from_observation(obs: Mapping[str, Any], ids: Mapping[str, int]) -> tuple[Any, ...]:
    return kessel_extra(obs, obs["seat"], len(obs["seats"]))


KESSEL_FEATURES = FeatureSpec(
    phases=("turn", "draw", "impostor", "prime"),
    ranks=4,  # Pure, Prime, Sabacc, a difference
    total_scale=6.0,
    blocks=(
        Block("turn", 2),
        Block("starting_player", "seats"),
        Block("tops", 16),
        Block("discards", 16, high=22.0),
        Block("draws", 2),
        Block("drawn", 16, private=True),  # the drawn card, when this seat knows it
        Block("drawn_from", 4),
        Block("rules", 4),
        Block("prime", 6),
        Block("dice", 2),
        Block("tokens_left", "seats"),
        Block("stood", "seats"),
        Block("immune", "seats"),
        Block("embargoed", "seats"),
        Block("my_tokens", 16, private=True),
        Block("chips_lost", 1),
    ),
    writer=_writer,
    from_observation=_from_observation,
    bet_sizes=lambda options: (),
    env_name="kessel",
)
