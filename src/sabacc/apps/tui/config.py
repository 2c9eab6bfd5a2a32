"""The settings of a table: variant, seats, bots, options; and building a game from them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import sabacc
from sabacc.apps.play import game_length
from sabacc.engine.game import Game
from sabacc.services.bots import DEFAULT_LEVEL, Bot, bots_for, level_names, make_bot
from sabacc.variants.registry import DEFAULT_VARIANT

#: Seconds a bot waits before acting, so a human can follow the play.
DEFAULT_BOT_DELAY = 0.6


@dataclass(frozen=True)
class TableConfig:
    """Everything needed to start a game at the terminal table. The human is seat 0."""

    variant: str = DEFAULT_VARIANT
    players: int = 4
    #: Difficulty levels or bot names, cycled over the bot seats; a level is resolved for the
    #: variant when the game is built (Kessel's ``hard`` searches fewer worlds than Spike's).
    bots: tuple[str, ...] = (DEFAULT_LEVEL,)
    name: str = "You"
    seed: int | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    bot_delay: float = DEFAULT_BOT_DELAY

    def build(self) -> tuple[Game, dict[int, Bot]]:
        """A new game and its bots; raises :class:`~sabacc.core.errors.SabaccError` on bad
        settings."""
        v = sabacc.variant(self.variant, **game_length(self.options, self.players))
        names = [self.name or "You", *[f"Bot {i}" for i in range(1, self.players)]]
        game = v.new_game(names, self.seed)
        bots_for(",".join(self.bots))  # refuses an empty name
        seats = self.bots or (DEFAULT_LEVEL,)  # a level is resolved for this game's variant
        bots = {
            s: make_bot(seats[(s - 1) % len(seats)], game.seed + s, game.info)
            for s in range(1, self.players)
        }
        return game, bots

    def again(self) -> TableConfig:
        """The same table with a fresh random seed (a rematch)."""
        return replace(self, seed=None)


def parse_bots(text: str) -> tuple[str, ...]:
    """``"heuristic, Hard"`` → ``("heuristic", "hard")``: difficulty levels or bot names, kept
    as given (a level is resolved for the variant when the game is built); checks each name
    exists. A blank text is the default level."""
    names = tuple(b.strip() for b in text.split(",") if b.strip()) or (DEFAULT_LEVEL,)
    for name in bots_for(",".join(names)):
        make_bot(name, 0)  # raises OptionError naming the known bots
    return tuple(n.lower() if n.lower() in level_names() else n for n in names)
