"""The glossary's examples are hands a player can hold (issue 35, N12: Banthas Wild's example
had six cards, one over the cap, and four of a kind)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import sabacc
from sabacc.variants.registry import lookup


@pytest.mark.parametrize("variant", ["corellian_spike", "surabat_cycle"])
def test_each_example_is_its_hand_within_the_hand_cap(variant: str) -> None:
    info = lookup(variant)
    game = sabacc.variant(variant)
    options: Any = info.options_type()  # the Spike family's options
    cap = int(options.hand_cap)
    for lang in ("en", "ja"):
        english = {g.example: g.name for g in info.text.glossary["en"]}
        for entry in info.text.glossary[lang]:
            cards = entry.example.split()
            assert len(cards) <= cap, (lang, entry)
            assert game.evaluate(entry.example).name == english[entry.example], (lang, entry)


def test_banthas_wilds_example_is_three_of_a_kind() -> None:
    entry = next(
        g for g in lookup("corellian_spike").text.glossary["en"] if g.name == "Banthas Wild"
    )
    kinds = Counter(abs(int(c)) for c in entry.example.split())
    assert max(kinds.values()) == 3, entry.example


@pytest.mark.parametrize("variant", sabacc.variant_names())
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_two_house_rules_share_a_label(variant: str, lang: str) -> None:
    """N13: the length cap (max_hands) and the cards cap (hand_cap) were both "Hand cap"."""
    import dataclasses

    from sabacc.services.render import vocabulary

    vocab = vocabulary(variant, lang)
    names = [f.name for f in dataclasses.fields(lookup(variant).options_type)]
    labels = {n: vocab.text(f"option.{n}") for n in names if vocab.has(f"option.{n}")}
    assert len(set(labels.values())) == len(labels), labels
    for a in labels.values():  # nor one the other's with a note added ("Hand cap (cards)")
        for b in labels.values():
            assert a == b or not b.lower().startswith(a.lower()), (a, b)
