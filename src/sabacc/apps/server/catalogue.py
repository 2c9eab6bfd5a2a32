"""The variants' catalogue the web client draws from (``GET /api/variants``): each variant's
declared facts, so that the client never names a variant."""

from __future__ import annotations

import dataclasses
from typing import Any

from sabacc.apps.server.protocol import CreateTable
from sabacc.engine.variant import VariantInfo
from sabacc.services.bots import DEFAULT_LEVEL, LEVELS
from sabacc.services.bots.levels import alike_levels, levels_note, offered_bots, strengths
from sabacc.services.house_rules import spec_json
from sabacc.services.messages import LANGUAGES
from sabacc.services.render import vocabulary, vocabulary_json
from sabacc.variants.registry import lookup, variant_names


def variants_catalogue() -> dict[str, Any]:
    """Each variant's declared facts (what the web client draws from, so that it never names a
    variant): names, players, options with their choices and ranges, piles, pots, card art,
    action kinds and shown fields; and the bots."""
    out = []
    for name in variant_names():
        info = lookup(name)
        out.append(
            {
                "name": info.name,
                "title": info.title,
                "aliases": list(info.aliases),
                "summary": info.summary,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "deck": info.deck.style,
                "signed_values": info.deck.signed_values,
                # the card codes the log's lines may name (the client draws them as the cards)
                "codes": sorted({card.code for card in info.deck.cards}),
                # a stack's unit beside it, in the variant's words ("cr", Kessel's "chips")
                "unit": {lang: vocabulary(info, lang).text("ui.unit") for lang in LANGUAGES},
                # what each player starts with under the default options (the lobby's buy-in
                # box shows it when the option's default is "none": 100 x ante, say)
                "starting_stack": info.options_type().starting_stack,
                "card_art": f"/art/{info.name}.js" if info.card_art else None,
                "rules": info.rules_text,
                # how many different bots the levels play here, and which levels coincide
                "bot_strengths": strengths(info),
                "alike_levels": [list(group) for group in alike_levels(info)],
                "levels_note": {lang: levels_note(info, lang) for lang in LANGUAGES},
                **localized(info),
                "options": [
                    {
                        **spec_json(info, spec),
                        "help_ja": translated(info, f"help.{spec.name}"),
                        "label_ja": translated(info, f"option.{spec.name}"),
                    }
                    for spec in info.options_type.specs()
                ],
                "piles": [dataclasses.asdict(pile) for pile in info.piles],
                "pots": [
                    {"pot": rule.pot, "rule": rule.rule, "per_seat": rule.per_seat}
                    for rule in info.pots
                ],
                "text": vocabulary_json(info),
                "display": dataclasses.asdict(info.display),
                # the declared action kinds: how the client groups and draws each legal action
                "actions": [
                    {
                        "name": kind.name,
                        "head": " ".join(kind.head),
                        "form": kind.form,
                        "control": str(kind.control),
                        "key": kind.key,
                        "pile": kind.pile,
                        "source": kind.source,
                        "betting": kind.betting,
                    }
                    for kind in info.actions
                ],
                # the observation fields shown in a place of their own (not as loose facts)
                "fields": [{"key": f.key, "show": f.show} for f in info.fields],
                "placed_fields": sorted(info.placed_fields),
            }
        )
    default = lookup(str(CreateTable.model_fields["variant"].default)).name
    levels = [
        {"name": level.name, "about": dict(level.about), "rating": level.rating}
        for level in LEVELS.values()
    ]
    return {
        "variants": out,
        "default_variant": default,
        # what a seat may be besides the levels (a level's bot is private: not listed)
        "bots": [name for name in offered_bots() if name not in LEVELS],
        "levels": levels,
        "default_level": DEFAULT_LEVEL,
    }


def translated(info: VariantInfo, key: str, lang: str = "ja") -> str | None:
    """The variant's (or the catalogue's) text ``key`` in ``lang``, None if it has none."""
    vocab = vocabulary(info, lang)
    return vocab.template(key) if vocab.has_own(key) else None


def localized(info: VariantInfo) -> dict[str, Any]:
    """The Japanese menu line and rules, and the one-screen how-to-win in every language."""
    return {
        "summary_ja": translated(info, "summary"),
        "rules_ja": translated(info, "rules"),
        "howto": {lang: translated(info, "howto", lang) for lang in LANGUAGES},
        # hand names as each language writes them (the web's hand value, showdown, glossary)
        "hands": {
            lang: {
                key[5:]: text
                for key, text in info.text.messages.get(lang, {}).items()
                if key.startswith("hand.")
            }
            for lang in LANGUAGES
        },
    }
