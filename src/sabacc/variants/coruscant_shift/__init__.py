"""Coruscant Shift: everything the variant is, in one package (importing it registers the variant).

``rules`` holds the game (the reference engine), its options and its record; the other modules
are its parts (text in English and Japanese, its bot and odds models).
"""

from sabacc.variants.coruscant_shift.rules import CoruscantGame, CoruscantOptions, evaluate

__all__ = ["CoruscantGame", "CoruscantOptions", "evaluate"]
