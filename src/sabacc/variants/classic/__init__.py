"""Classic 76-card sabacc: everything the variant is, in one package (importing it registers
the variant).

``rules`` holds the game (the reference engine), its options and its record; the other modules
are its parts (text in English and Japanese, bot, odds, compiled core and card art).
"""

from sabacc.variants.classic.rules import ClassicGame, ClassicOptions, evaluate

__all__ = ["ClassicGame", "ClassicOptions", "evaluate"]
