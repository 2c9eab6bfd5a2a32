"""Every house rule and every value it offers has words in English and Japanese (the settings
screens and the web lobby label them from here, never with the raw value)."""

from __future__ import annotations

import re

import pytest

import sabacc
from sabacc.services.house_rules import (
    choice_help,
    choice_label,
    labelled_values,
    option_help,
    option_label,
    spec_json,
)

JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")
VARIANTS = sabacc.variant_names()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_value_of_every_rule_is_labelled_in_both_languages(variant: str) -> None:
    info = sabacc.variant(variant).info
    for spec in info.options_type.specs():
        for lang in ("en", "ja"):
            assert "_" not in option_label(info, spec.name, lang)
            assert option_help(info, spec, lang)
            labels = [choice_label(info, spec.name, value, lang) for value in labelled_values(spec)]
            for value, label in zip(labelled_values(spec), labels, strict=True):
                assert label and "_" not in label and ":N" not in label, (spec.name, value, label)
                if lang == "ja":
                    assert JAPANESE.search(label), (spec.name, value, label)
            assert len(set(labels)) == len(labels), (spec.name, labels)  # no two alike
        for item in spec.items:
            for lang in ("en", "ja"):
                assert choice_help(info, spec.name, item, lang), (spec.name, item, lang)


def test_a_rule_may_word_a_value_its_own_way() -> None:
    # the same value in two rules: "split" the final pots, or "split" a true tie
    info = sabacc.variant("spike").info
    assert choice_label(info, "final_pot", "split") != choice_label(info, "true_tie", "split")


@pytest.mark.parametrize("variant", VARIANTS)
def test_presets_and_items_are_accepted_values(variant: str) -> None:
    options_type = sabacc.variant(variant).info.options_type
    for spec in options_type.specs():
        for preset in spec.presets:
            value = preset.replace(":N", ":3")
            options_type.from_mapping({spec.name: value})
        if spec.items:
            assert spec.kind == "multi"
            options_type.from_mapping({spec.name: ",".join(spec.items[:3])})


def test_the_catalogue_form_carries_the_words() -> None:
    info = sabacc.variant("kessel").info
    spec = next(s for s in info.options_type.specs() if s.kind == "multi")
    doc = spec_json(info, spec)
    assert doc["items"] == list(spec.items) and doc["presets"] == list(spec.presets)
    for lang in ("en", "ja"):
        assert set(doc["labels"][lang]) == set(labelled_values(spec))
        assert all(doc["item_help"][lang][item] for item in spec.items)
        assert doc["label"][lang] and doc["help_text"][lang]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_rules_help_is_in_words_not_raw_values(variant: str) -> None:
    # the lobby said "if_empty (...) | always (...)" under a dropdown already in words
    info = sabacc.variant(variant).info
    for spec in info.options_type.specs():
        if spec.kind in ("choice", "multi") or spec.presets:
            for lang in ("en", "ja"):
                assert "|" not in option_help(info, spec, lang), (spec.name, lang)
