"""Bot difficulty levels by name: ``easy``, ``normal``, ``hard``, ``expert``, each a bot and its
budget, with a fixed published rating.

A level is what a player picks ("play against easy bots"); the bot behind it is what
simulations and benchmarks name. :func:`sabacc.services.bots.make_bot` accepts a level name
wherever it accepts a bot name, so ``sabacc play --bots hard`` and a web table's "play vs bots"
share one mapping:

========  ==============  ======================================================================
level     bot             what it means (rating: 1000, 1160, 1191, 1231)
========  ==============  ======================================================================
easy      ``heuristic``   plays its own hand and the pot odds, no search; decides at once
normal    ``ismcts:32``   searches 32 imagined deals per decision (beats ``heuristic``)
hard      ``ismcts:800``  searches 800 imagined deals per decision (about 0.1 s each)
expert    ``wily``        exact odds, value bets, and a model of each opponent's betting and
                          bet sizes learnt across the hands of a game (heads-up; at a table
                          of three or more ``canny``'s learnt steal)
========  ==============  ======================================================================

Each level's ``rating`` is an Elo-scale number computed by ``scripts/ratings.py`` from the
measured heads-up results of adjacent levels in 10-hand duplicate games
(``benchmarks/results/bench_bots_expert.json``, the ladder): ``easy`` is fixed at 1000 and
each step adds ``400 log10(s / (1 - s))``, ``s`` being the harder level's share of duplicate
games finished ahead. A test checks that the numbers here are the ones the script computes
from the committed results.

A variant whose search is slower maps a level to a smaller budget through its bot model
(:attr:`sabacc.engine.bots.BotModel.level_bots`): pass its :class:`VariantInfo` to
:func:`resolve_level` / :func:`bots_for` (Kessel and Coruscant Shift: ``hard`` is
``ismcts:200``, which thinks about as long there as ``ismcts:800`` does in Spike).
:func:`sabacc.services.bots.make_bot` resolves a level for the variant of the game it plays,
so the library, ``sabacc play``, ``sabacc simulate``, web tables and quick match all seat the
same bot for the same level and variant.

Levels that play identical bots in a variant are declared by its bot model
(:attr:`~sabacc.engine.bots.BotModel.same_levels`); :func:`alike_levels` and
:func:`strengths` say so to the UIs ("this variant has 3 bot strengths"), and
:func:`check_levels` refuses a model whose levels coincide undeclared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sabacc.core.errors import OptionError
from sabacc.variants.registry import add_record_check

if TYPE_CHECKING:
    from sabacc.engine.variant import VariantInfo


@dataclass(frozen=True)
class Level:
    """A difficulty level: its ``name``, the ``bot`` spec it maps to, and what it means."""

    name: str
    bot: str
    about: dict[str, str]
    #: The published rating (Elo scale, easy = 1000; see the module docstring).
    rating: int = 1000


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            "heuristic",
            {
                "en": "plays its own hand and the pot odds, no search; decides at once",
                "ja": "自分の手札とポットオッズだけで判断し、先読みはしない（即決）",
            },
            rating=1000,
        ),
        Level(
            "normal",
            "ismcts:32",
            {
                "en": "searches 32 imagined deals per decision",
                "ja": "1手ごとに32通りの配り方を想定して探索する",
            },
            rating=1160,
        ),
        Level(
            "hard",
            "ismcts:800",
            {
                "en": "searches 800 imagined deals per decision (about 0.1 s each)",
                "ja": "1手ごとに800通りの配り方を想定して探索する（1手約0.1秒）",
            },
            rating=1191,
        ),
        Level(
            "expert",
            "wily",
            {
                "en": "exact odds, value bets and bluffs, a model of each opponent's bets "
                "and sizes",
                "ja": "正確な確率、バリューベットとブラフ、相手ごとの賭け方と賭け額のモデルで打つ",
            },
            rating=1231,
        ),
    )
}

#: The level ``sabacc play`` and the web's "play against bots" use unless told otherwise.
DEFAULT_LEVEL = "easy"


def offered_bots() -> list[str]:
    """The bot names players are offered (CLI, TUI, web lobby, server API): the difficulty
    levels, easiest first, and ``random``. The bots behind the levels are private; the
    experiments and reference opponents belong to the lab (benchmarks and tests)."""
    return [*LEVELS, "random"]


def level_names() -> list[str]:
    """The level names, easiest first."""
    return list(LEVELS)


def resolve_level(name: str, variant: VariantInfo | None = None) -> str:
    """The bot spec behind ``name`` if it is a level (``"normal"`` → ``"ismcts:32"``; in
    ``variant``, its bot model's own spec for that level if it declares one), else ``name``
    unchanged (a bot name such as ``"random"`` or ``"ismcts:200"``)."""
    key = name.strip().lower()
    level = LEVELS.get(key)
    if level is None:
        return name
    if variant is not None:
        return variant.bot.level_bots.get(key, level.bot)
    return level.bot


def bots_for(text: str, variant: VariantInfo | None = None) -> tuple[str, ...]:
    """``"easy, random"`` → ``("heuristic", "random")``: levels resolved (for ``variant`` when
    given), bot names kept; an empty text gives the default level's bot. Raises
    :class:`OptionError` for an empty name."""
    names = [part.strip() for part in text.split(",")]
    if all(not n for n in names):
        return (resolve_level(DEFAULT_LEVEL, variant),)
    if any(not n for n in names):
        raise OptionError(f"empty bot name in {text!r}")
    return tuple(resolve_level(n, variant) for n in names)


def level_bots(variant: VariantInfo) -> dict[str, str]:
    """Each level, easiest first, with the bot spec it plays in ``variant``."""
    return {name: resolve_level(name, variant) for name in LEVELS}


def _spec_groups(variant: VariantInfo) -> list[list[str]]:
    """Levels grouped by the bot spec they resolve to in ``variant``, easiest first."""
    groups: dict[str, list[str]] = {}
    for name, spec in level_bots(variant).items():
        groups.setdefault(spec.strip().lower(), []).append(name)
    return list(groups.values())


def check_levels(variant: VariantInfo) -> None:
    """Refuse (:class:`OptionError`) a variant whose bot model declares unknown levels in
    :attr:`~sabacc.engine.bots.BotModel.same_levels`, a level in two groups, or whose distinct
    levels play the same bot spec without declaring them alike (players would pick a
    "harder" level and get the same bot). The variant registry's validation calls this."""
    declared = variant.bot.same_levels
    seen: set[str] = set()
    for group in declared:
        unknown = [n for n in group if n not in LEVELS]
        if unknown:
            raise OptionError(
                f"{variant.name}: same_levels names unknown levels {unknown}; "
                f"the levels are {', '.join(LEVELS)}"
            )
        if len(set(group)) < 2:
            raise OptionError(f"{variant.name}: same_levels group {group} needs two levels")
        twice = seen & set(group)
        if twice:
            raise OptionError(f"{variant.name}: level {sorted(twice)[0]} is in two same_levels")
        seen |= set(group)
    for names in _spec_groups(variant):
        if len(names) > 1 and not any(set(names) <= set(d) for d in declared):
            spec = resolve_level(names[0], variant)
            raise OptionError(
                f"{variant.name}: levels {', '.join(names)} all play {spec}; declare them in "
                f"its bot model's same_levels (players are told) or give each its own bot"
            )


def alike_levels(variant: VariantInfo) -> tuple[tuple[str, ...], ...]:
    """The groups of levels that play identical bots in ``variant`` (each easiest first, the
    groups in level order); empty when every level is its own strength."""
    order = list(LEVELS)
    groups = [tuple(sorted(set(group), key=order.index)) for group in variant.bot.same_levels] + [
        tuple(group) for group in _spec_groups(variant) if len(group) > 1
    ]
    merged: list[set[str]] = []
    for group in groups:
        overlapping = [m for m in merged if m & set(group)]
        union = set(group).union(*overlapping)
        merged = [m for m in merged if not m & set(group)] + [union]
    out = [tuple(sorted(m, key=order.index)) for m in merged]
    return tuple(sorted(out, key=lambda g: order.index(g[0])))


def strengths(variant: VariantInfo) -> int:
    """How many different bots the levels play in ``variant`` (4 when all differ)."""
    return len(LEVELS) - sum(len(group) - 1 for group in alike_levels(variant))


def levels_note(variant: VariantInfo, lang: str = "en") -> str | None:
    """The sentence players are shown (``lang``: ``en`` or ``ja``) when ``variant``'s levels
    are not all different ("Kessel Sabacc has 3 bot strengths: hard and expert play the same
    bot."), else None."""
    groups = alike_levels(variant)
    if not groups:
        return None
    count = strengths(variant)
    if lang == "ja":
        same = "、".join("と".join(group) for group in groups)
        return f"{variant.title}のボットの強さは{count}段階です（{same}は同じボット）。"
    same = "; ".join(" and ".join(group) for group in groups)
    noun = "bot strength" if count == 1 else "bot strengths"
    return f"{variant.title} has {count} {noun}: {same} play the same bot."


def level_faults(variant: VariantInfo) -> list[str]:
    """:func:`check_levels` as the registry's record check: its refusal as a fault."""
    try:
        check_levels(variant)
    except OptionError as exc:
        return [str(exc)]
    return []


add_record_check(level_faults)
