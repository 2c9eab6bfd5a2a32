"""House rules in words: the label of each option and of each value it takes, EN and JA.

A settings screen (the TUI's, the web lobby's) draws each option from its
:class:`~sabacc.core.options.OptionSpec` and labels it from here, never with the raw value
(``no_limit``, ``rounds:N``, ``free_draw``). Labels come from the variant's vocabulary
(:func:`sabacc.services.render.vocabulary`): ``option.<name>`` for the option,
``choice.<name>.<value>`` or else ``choice.<value>`` for a value (a choice, a preset, an item
of a multi-valued option), ``choice_help.<value>`` for an item's one-line effect, and
``hint.<name>`` (the help in words, where the ``help`` lists raw values) or ``help.<name>``
for the option's help (its English help otherwise). A value is spoken the same
way everywhere, so the variant declares it once.
"""

from __future__ import annotations

from typing import Any

from sabacc.core.options import OptionSpec
from sabacc.engine.variant import VariantInfo
from sabacc.services.messages import LANGUAGES
from sabacc.services.render import vocabulary

__all__ = [
    "COUNTED",
    "choice_help",
    "choice_label",
    "labelled_values",
    "option_help",
    "option_label",
    "spec_json",
]

#: A preset ending so takes a whole number in place of ``N`` (``hands:N`` -> ``hands:12``).
COUNTED = ":N"


def option_label(info: VariantInfo | None, name: str, lang: str = "en") -> str:
    """The option's name in words: ``option.<name>``, else its name spelled out."""
    v = vocabulary(info, lang)
    key = f"option.{name}"
    return v.text(key) if v.has(key) else name.replace("_", " ").capitalize()


def option_help(info: VariantInfo | None, spec: OptionSpec, lang: str = "en") -> str:
    """The option's one-line help in ``lang`` (its declared English help if untranslated)."""
    v = vocabulary(info, lang)
    for key in (f"hint.{spec.name}", f"help.{spec.name}"):  # hint: in words, for a form
        if v.has_own(key):
            return v.text(key)
    return spec.help


def choice_label(info: VariantInfo | None, option: str, value: Any, lang: str = "en") -> str:
    """A value of ``option`` in words (``no_limit`` -> "no limit", ``true`` -> "on")."""
    v = vocabulary(info, lang)
    text = str(value).lower() if isinstance(value, bool) else str(value)
    if isinstance(value, bool) or text in ("true", "false"):
        return v.text("ui.on" if text == "true" else "ui.off")
    for key in (f"choice.{option}.{text}", f"choice.{text}"):
        if v.has(key):
            return v.text(key)
    return text.replace("_", " ")


def choice_help(info: VariantInfo | None, option: str, value: str, lang: str = "en") -> str:
    """An item's one-line effect (``choice_help.<value>``), "" where it has none."""
    v = vocabulary(info, lang)
    for key in (f"choice_help.{option}.{value}", f"choice_help.{value}"):
        if v.has(key):
            return v.text(key)
    return ""


def labelled_values(spec: OptionSpec) -> list[str]:
    """Every value of ``spec`` a control offers by name: its choices (``true``/``false`` for
    a yes-no rule), its presets and its items."""
    values = ["true", "false"] if spec.kind == "bool" else [str(c) for c in spec.choices]
    return values + [p for p in spec.presets if p not in values] + list(spec.items)


def spec_json(info: VariantInfo, spec: OptionSpec) -> dict[str, Any]:
    """An option spec as ``/api/variants`` sends it: the spec, and its words per language
    (``label``, ``help_text``, ``labels``: value -> label, ``item_help``: item -> effect)."""
    values = labelled_values(spec)
    return {
        **spec.to_dict(),
        "label": {lang: option_label(info, spec.name, lang) for lang in LANGUAGES},
        "help_text": {lang: option_help(info, spec, lang) for lang in LANGUAGES},
        "labels": {
            lang: {value: choice_label(info, spec.name, value, lang) for value in values}
            for lang in LANGUAGES
        },
        "item_help": {
            lang: {item: choice_help(info, spec.name, item, lang) for item in spec.items}
            for lang in LANGUAGES
        },
    }
