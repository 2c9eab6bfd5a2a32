"""Exceptions raised by sabacc. Every user-facing error is a ``ValueError`` subclass.

Why: callers (CLI, server, bots) catch one family of errors and show the message; the engine
never leaves a state half-changed when it raises one.
"""

from __future__ import annotations


class SabaccError(Exception):
    """Base class of every error sabacc raises on purpose."""


class IllegalActionError(SabaccError, ValueError):
    """An action that is malformed or not legal now. The game state is left unchanged."""


class CardParseError(SabaccError, ValueError):
    """A card token that does not exist in the variant's deck, or too many copies of one."""


class OptionError(SabaccError, ValueError):
    """An unknown option name, or an option value out of its allowed range."""


class NotToActError(SabaccError, ValueError):
    """A bot asked to act for a seat that is not to act: the game is over, or it is another
    seat's turn (or the observation is a spectator's)."""


class UnknownVariantError(SabaccError, ValueError):
    """A variant name (or alias) that is not registered."""


class HistoryError(SabaccError, ValueError):
    """A hand-history document that is malformed, of an unknown version, or does not replay."""


class SaveError(SabaccError, ValueError):
    """A saved game (:meth:`Game.save`) that is malformed, of an unknown version or another
    variant's, or a game that cannot be saved."""
