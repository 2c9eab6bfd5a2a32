"""Write a new variant's package skeleton, register it, and print its checklist.

    PYTHONPATH=src python scripts/new_variant.py NAME [--title "Title"] [--root DIR]

``NAME`` is the variant's canonical name, a lowercase Python identifier (``outer_rim``). The
script writes, following the package-per-variant layout (docs/architecture.md):

* ``src/sabacc/variants/NAME/__init__.py``: imports ``rules`` (which registers the variant); its
  docstring is the checklist below;
* ``src/sabacc/variants/NAME/rules.py``: the options, the game, the evaluator, the RL feature
  spec and the ``register(VariantInfo(...))`` record. It starts as Corellian Spike under its
  own name (a subclass of ``SpikeGame``), so it plays from the first minute: change the rules
  from there;
* ``src/sabacc/variants/NAME/text.py``: its words in English and Japanese (Spike's, plus its own
  how-to-win, summary and rules);
* ``tests/variants/NAME/__init__.py`` and ``test_rules.py``: its first tests;

and adds the package's import to ``src/sabacc/variants/__init__.py``, so that ``import sabacc``
registers it and every generic suite over ``sabacc.variant_names()`` covers it. It refuses a
name that is already a package, a test folder, or a registered name or alias. ``--root`` writes
into another copy of the repository (the tests use a temporary one).
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from pathlib import Path
from string import Template

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")

#: The longest name and title the templates keep within the line length (100).
MAX_NAME, MAX_TITLE = 16, 24

CHECKLIST = """\
1. Rules: change the game in
   src/sabacc/variants/$name/rules.py.
   It is Corellian Spike until you do: override the SpikeGame hooks that
   differ (_deal_start, _card_legal, _card_act, _spike_phase, _end_of_round,
   _showdown, _observation_values and observation_extra...), or subclass Game for a
   game unlike Spike (classic/rules.py, kessel/rules.py). Declare new house
   rules as fields of ${camel}Options (help, bounds, Literal choices).
2. The record: bring register(VariantInfo(...)) in rules.py in step with the
   rules: summary, rules_text, pots, tiebreaks, rounds, piles, chance,
   min/max players. Every field, what it is for and who reads it:
   docs/adding-a-variant.md.
3. Words: text.py, English and Japanese: the how-to-win, the Japanese summary
   and rules, and a label, log line and help for every new action, phase,
   option, hand name and event.
4. Models: a bot model (bot.py, BotModel) and an odds model (odds.py,
   OddsModel) when the Spike family's no longer fit the rules; card art
   (art.js) when the deck changes.
5. Tests: worked examples from the rules and invariants over played games in
   tests/variants/$name/test_rules.py;
   then the generic suites over every variant (tests/variants, tests/engine,
   tests/services, tests/apps, tests/test_properties.py, tests/meta).
6. Rules and docs: the rules in docs/rules.md (kept identical to the shared
   specification); its decisions where the rules are silent in
   docs/variants/$name.md
   (and in mkdocs.yml's nav); docs/variants/index.md; python
   scripts/gen_docs.py (docs/options.md); python scripts/gen_schema.py
   (docs/observation.schema.json); its name in README.md (the list and the
   layout map), in docs/adding-a-variant.md's first paragraph and in
   pyproject.toml's description (tests/test_docs.py checks them); CHANGELOG.md.
7. Speed (optional): a compiled core, lockstep-tested against rules.py
   (VariantInfo.compiled, docs/engines.md).
"""

INIT = '''\
"""$title: everything the variant is, in one package.

Importing it registers the variant. ``rules`` holds the game (the reference engine), its
options and its record; ``text`` its words in English and Japanese. Written by
scripts/new_variant.py as Corellian Spike under its own name; its checklist:

$checklist"""

from sabacc.variants.$name.rules import (
    ${camel}Game,
    ${camel}Options,
    evaluate,
)

__all__ = ["${camel}Game", "${camel}Options", "evaluate"]
'''

RULES = '''\
"""$title: the game (the reference engine), its options and its record.

It plays Corellian Spike's rules (docs/rules.md §2) under its own name: its game subclasses
:class:`~sabacc.variants.corellian_spike.rules.SpikeGame` and changes nothing yet. Change the
rules by overriding the hooks that differ (see the package's checklist).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from sabacc.core.cards import Card
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.chance import ChanceEvent
from sabacc.engine.variant import Pile, VariantInfo
$variant_imports


class ${camel}Observation(SpikeObservation):
    """A $title observation: Corellian Spike's keys."""


@dataclass(frozen=True)
class ${camel}Options(SpikeOptions):
    """$title options: Corellian Spike's. Declare new ones here: a field,
    its ``help`` line, its ``bounds`` or ``Literal`` choices."""

    help: ClassVar[dict[str, str]] = {**SpikeOptions.help}


class ${camel}Game(SpikeGame):
    """A game of $title."""

    options: ${camel}Options
    observation_type: ClassVar[type] = ${camel}Observation


def evaluate(options: Options, cards: list[Card]) -> HandValue:
    """A $title hand's value (Corellian Spike's ranking)."""
    return evaluate_spike([c.value for c in cards])


def ${name}_rounds(options: Options, players: int) -> int:
    """Rounds of a hand: the ``rounds`` option."""
    return int(getattr(options, "rounds", 3))


#: The RL feature spec: Spike's observation layout, the variant's own environment names
#: (sabacc_<name>_v1, sabacc/<Name>-v1).
${upper}_FEATURES = replace(SPIKE_FEATURES, env_name="$name")

#: The rules summary (``sabacc rules``, the terminal table's ? and the web Rules button).
${upper}_RULES = "$title (for now: Corellian Spike)\\n" + SPIKE_RULES


${camel}Game.info = register(
    VariantInfo(
        name="$name",
        title="$title",
        aliases=(),
        deck=SPIKE_DECK,
        options_type=${camel}Options,
        game_type=${camel}Game,
        evaluator=evaluate,
        summary="$title: a new variant, Corellian Spike's rules for now.",
        rules_text=${upper}_RULES,
        piles=(Pile("draw", False, "draw_pile"), Pile("discard", True, "discard_pile")),
        # Corellian Spike's action kinds and shown fields: declare the variant's own here
        actions=SpikeGame.info.actions,
        fields=SpikeGame.info.fields,
        pots=SPIKE_POTS,
        rounds=${name}_rounds,
        odds=SpikeOdds(),
        bot=SpikeBot(SPIKE_DECK),
        card_art="spike_family/art.js",
        text=${upper}_TEXT,
        tiebreaks=SPIKE_TIEBREAKS,
        true_ties=SpikeGame.info.true_ties,
        true_tie_option="true_tie",
        rl_spec=${upper}_FEATURES,
        chance=(
            ChanceEvent("shuffle", "the deck before the deal; the discard and muck at a reshuffle"),
            ChanceEvent("roll", "the two spike dice after each betting phase", 6),
        ),
    )
)
'''

TEXT = '''\
"""The variant's player-facing vocabulary (EN/JA): Corellian Spike's, with its own how-to-win,
summary and rules (the English summary and rules are the record's ``summary`` and
``rules_text``)."""

from __future__ import annotations

from sabacc.engine.text import VariantText
from sabacc.variants.corellian_spike.text import SPIKE_TEXT

_EN: dict[str, str] = {
    "howto": (
        "How to win at $title "
        "(Corellian Spike's rules for now): end the hand with cards totalling zero, or as "
        "close to zero as you can. Each Card phase you stand, gain the draw top, or swap a "
        "card with the discard or draw top; then you bet, call or junk (fold). After three "
        "rounds the best hand takes the main pot, and the sabacc pot too if it totals zero."
    ),
}

_JA: dict[str, str] = {
    "howto": (
        "$title の勝ち方"
        "（いまはコレリアン・スパイクのルール）：手札の合計を 0 か、できるだけ 0 に"
        "近づけてハンドを終える。カードフェイズではスタンド、山札の上を取る（ゲイン）、"
        "捨て札か山札の上と 1 枚交換（スワップ）のどれか。続いてベット、コール、ジャンク"
        "（降りる）。3 ラウンド後、最強の手がメインポットを取り、合計 0 ならサバック"
        "ポットも取る。"
    ),
    "summary": "$title：新しいバリアント。いまはコレリアン・スパイクのルール。",
    "rules": (
        "$title：新しいバリアント。いまはコレリアン・スパイクのルールで遊ぶ。\\n"
        + SPIKE_TEXT.messages["ja"]["rules"]
    ),
}

${upper}_TEXT = VariantText(
    messages={
        "en": {**SPIKE_TEXT.messages.get("en", {}), **_EN},
        "ja": {**SPIKE_TEXT.messages.get("ja", {}), **_JA},
    },
    keys=SPIKE_TEXT.keys,
    glossary=SPIKE_TEXT.glossary,
)
'''

TESTS = '''\
"""The variant's own rules tests (the generic suites over ``sabacc.variant_names()`` cover the
protocol, bots, odds, the apps and both languages). Add worked examples from its rules here."""

from __future__ import annotations

import pytest

import sabacc
from sabacc.services.bots import decide, make_bot
from sabacc.variants.$name.rules import (
    ${camel}Game,
    ${camel}Options,
)


def test_the_variant_is_registered_under_its_name() -> None:
    info = sabacc.variant("$name").info
    assert info.name == "$name"
    assert info.game_type is ${camel}Game
    assert info.options_type is ${camel}Options
    assert "$name" in sabacc.variant_names()


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4)])
def test_random_bots_play_a_game_to_the_end(seed: int, players: int) -> None:
    game = sabacc.new_game("$name", players=players, seed=seed)
    assert isinstance(game, ${camel}Game)
    bots = [make_bot("random", seed * 10 + seat) for seat in range(players)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(decide(bots[seat], game, seat))
    assert sum(game.payoffs) == 0  # credits are conserved
    again = sabacc.replay(game.history())
    assert again.payoffs == game.payoffs
    assert again.observation(0) == game.observation(0)


def test_its_words_are_in_both_languages() -> None:
    text = sabacc.variant("$name").info.text
    for lang in ("en", "ja"):
        assert "$title" in text.messages[lang]["howto"]
'''


def camel(name: str) -> str:
    """``outer_rim`` -> ``OuterRim``."""
    return "".join(part.capitalize() for part in name.split("_"))


def registered(src: Path) -> set[str]:
    """Every registered name and alias of the tree under ``src``, normalised as the registry
    does (``corellian-spike`` -> ``corellian_spike``)."""
    sys.path.insert(0, str(src))
    try:
        from sabacc.variants.registry import lookup, variant_names
    finally:
        sys.path.remove(str(src))
    words: set[str] = set()
    for name in variant_names():
        info = lookup(name)
        words |= {w.strip().lower().replace("-", "_") for w in (info.name, *info.aliases)}
    return words


def refusal(name: str, root: Path) -> str | None:
    """Why ``name`` cannot be a new variant's name in the repository at ``root`` (None: it
    can)."""
    if not NAME.match(name) or keyword.iskeyword(name) or len(name) > MAX_NAME:
        return (
            f"{name!r} is not a variant name: lowercase letters, digits and single '_', "
            f"at most {MAX_NAME} characters"
        )
    package = root / "src" / "sabacc" / "variants" / name
    tests = root / "tests" / "variants" / name
    for path in (package, package.with_suffix(".py"), tests):
        if path.exists():
            return f"{path.relative_to(root)} already exists"
    if name in registered(root / "src"):
        return f"{name!r} is already a registered variant name or alias"
    return None


#: rules.py's imports from sabacc.variants, by module (sorted with the package's own).
VARIANT_IMPORTS = {
    "sabacc.variants.corellian_spike.rules": "(\n    SPIKE_FEATURES,\n    SPIKE_POTS,\n"
    "    SPIKE_RULES,\n    SpikeGame,\n    SpikeObservation,\n    SpikeOptions,\n)",
    "sabacc.variants.registry": "register",
    "sabacc.variants.spike_family.bot": "SpikeBot",
    "sabacc.variants.spike_family.deck": "SPIKE_DECK",
    "sabacc.variants.spike_family.hands": "SPIKE_TIEBREAKS, evaluate_spike",
    "sabacc.variants.spike_family.odds": "SpikeOdds",
}


def files(name: str, title: str) -> dict[str, str]:
    """Each file of the skeleton, by its path relative to the repository root."""
    words = {"name": name, "title": title, "camel": camel(name), "upper": name.upper()}
    words["checklist"] = Template(CHECKLIST).substitute(words)
    imports = {**VARIANT_IMPORTS, f"sabacc.variants.{name}.text": f"{name.upper()}_TEXT"}
    words["variant_imports"] = "\n".join(
        f"from {module} import {imports[module]}" for module in sorted(imports)
    )
    package = f"src/sabacc/variants/{name}"
    return {
        f"{package}/__init__.py": Template(INIT).substitute(words),
        f"{package}/rules.py": Template(RULES).substitute(words),
        f"{package}/text.py": Template(TEXT).substitute(words),
        f"tests/variants/{name}/__init__.py": "",
        f"tests/variants/{name}/test_rules.py": Template(TESTS).substitute(words),
    }


IMPORT = re.compile(r"^from sabacc\.variants import (\w+) as \1$", re.M)
ALL = re.compile(r"^__all__ = \[(.*?)\]$", re.M | re.S)


def add_import(init: Path, name: str) -> None:
    """Add ``name`` to the built-in variants imported (and so registered) by
    ``sabacc/variants/__init__.py``, keeping its imports and ``__all__`` sorted."""
    text = init.read_text()
    names = IMPORT.findall(text)
    listed = ALL.search(text)
    if not names or listed is None:
        raise SystemExit(f"{init}: no import list to extend; add `import {name}` by hand")
    names = sorted({*names, name})
    block = "\n".join(f"from sabacc.variants import {n} as {n}" for n in names)
    first, last = IMPORT.search(text), list(IMPORT.finditer(text))[-1]
    assert first is not None
    text = text[: first.start()] + block + text[last.end() :]
    listed = ALL.search(text)
    assert listed is not None
    quoted = ", ".join(f'"{n}"' for n in names)
    exported = f"__all__ = [{quoted}]"
    if len(exported) > 100:  # as ruff format writes it: one name a line
        exported = "__all__ = [\n" + "".join(f'    "{n}",\n' for n in names) + "]"
    text = text[: listed.start()] + exported + text[listed.end() :]
    init.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("name", help="the variant's canonical name, such as outer_rim")
    parser.add_argument("--title", help="its title as players read it (default: from the name)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository to write into")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    name = args.name
    title = args.title or " ".join(part.capitalize() for part in name.split("_"))
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 '-]*", title) or len(title) > MAX_TITLE:
        print(
            f"new_variant: the title {title!r} may hold letters, digits, spaces, - and ', "
            f"at most {MAX_TITLE} characters"
        )
        return 2
    why = refusal(name, root)
    if why is not None:
        print(f"new_variant: {why}; nothing written")
        return 1
    written = files(name, title)
    for rel, text in written.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    add_import(root / "src" / "sabacc" / "variants" / "__init__.py", name)
    print(f"{title} ({name}) written and registered:")
    for rel in [*written, "src/sabacc/variants/__init__.py (its import)"]:
        print(f"  {rel}")
    print("\nIt plays Corellian Spike's rules until you change them. Checklist:\n")
    print(Template(CHECKLIST).substitute(name=name, title=title, camel=camel(name)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
