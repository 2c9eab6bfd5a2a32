"""Kessel Sabacc: everything the variant is, in one package (importing it registers the variant).

``rules`` holds the game (the reference engine), its options and its record; the other modules
are its parts (text in English and Japanese, hands, tokens, bot, odds, search, RL layout,
compiled core and card art).
"""

from sabacc.variants.kessel.rules import KesselGame, KesselOptions, evaluate

__all__ = ["KesselGame", "KesselOptions", "evaluate"]
