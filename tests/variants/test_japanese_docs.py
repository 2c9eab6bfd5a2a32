"""Every variant's rules page, menu line and house-rule help exist in Japanese (the web lobby and
Rules read them), and a help line a variant words for itself is translated by that variant."""

from __future__ import annotations

import re

import pytest

from sabacc.core.options import Options
from sabacc.services.render import vocabulary
from sabacc.variants.registry import lookup, variant_names

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("name", variant_names())
def test_rules_and_summary_are_in_japanese(name: str) -> None:
    info = lookup(name)
    vocab = vocabulary(info, "ja")
    for key in ("rules", "summary"):
        assert vocab.has_own(key), f"{name}: no Japanese {key}"
        assert JAPANESE.search(vocab.template(key))
    # every option and token name the English page spells out is on the Japanese one too
    rules = vocab.template("rules")
    for word in re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", info.rules_text):
        assert word in rules, (name, word)


@pytest.mark.parametrize("name", variant_names())
def test_every_house_rule_has_japanese_help(name: str) -> None:
    info = lookup(name)
    vocab = vocabulary(info, "ja")
    own = info.text.messages.get("ja", {})
    for spec in info.options_type.specs():
        key = f"help.{spec.name}"
        assert vocab.has_own(key), f"{name}: option {spec.name} has no Japanese help"
        assert vocab.has_own(f"option.{spec.name}"), f"{name}: option {spec.name} has no JA name"
        assert JAPANESE.search(vocab.template(key))
        if spec.help != Options.help.get(spec.name):  # the variant's own wording
            assert key in own, f"{name}: its own help for {spec.name} is not translated by it"
        for choice in spec.choices:  # the choices the dropdown lists are named in the help
            assert str(choice) in vocab.template(key), (name, spec.name, choice)
