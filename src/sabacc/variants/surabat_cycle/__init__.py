"""Surabat Cycle: everything the variant is, in one package (importing it registers the variant).

``rules`` holds the game (the reference engine), its options and its record; the other modules
are its parts (text in English and Japanese).
"""

from sabacc.variants.surabat_cycle.rules import SurabatGame, SurabatOptions

__all__ = ["SurabatGame", "SurabatOptions"]
