"""What a variant says to players: :class:`VariantText`, the variant's own vocabulary.

The generic event phrasing lives in :mod:`sabacc.services.messages`; a variant only declares
what is its own (phase names, action labels and key hints in its vocabulary, hand names and
their glossary, and any event phrasing that differs), in every language the renderer speaks.
Keys are the catalogue's message keys (``"label.junk"``, ``"phase.card"``, ``"hand.Fleet"``,
``"did.junk"``...); a variant's entry wins over the generic one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class GlossaryEntry:
    """A named hand: its ``name`` as shown, a one-line ``definition`` and an ``example``."""

    name: str
    definition: str
    example: str


@dataclass(frozen=True)
class VariantText:
    """A variant's player-facing terms, per language code (``"en"``, ``"ja"``).

    ``messages``: message key → template, overriding the generic catalogue. ``keys``: action
    key (``"stand"``, ``"swap_draw"``...) → the keyboard key the UIs bind it to. ``glossary``:
    the variant's named hands, best first.
    """

    messages: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    keys: Mapping[str, str] = field(default_factory=dict)
    glossary: Mapping[str, tuple[GlossaryEntry, ...]] = field(default_factory=dict)
