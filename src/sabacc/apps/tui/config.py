"""The settings of a table: variant, seats, bots, options; and building a game from them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import sabacc
from sabacc.apps.play import game_length
from sabacc.core.errors import OptionError
from sabacc.engine.game import Game
from sabacc.services.bots import DEFAULT_LEVEL, LEVELS, Bot, bots_for, make_bot

#: Seconds a bot waits before acting, so a human can follow the play.
DEFAULT_BOT_DELAY = 0.6


@dataclass(frozen=True)
class TableConfig:
    """Everything needed to start a game at the terminal table. The human is seat 0."""

    variant: str = "corellian_spike"
    players: int = 4
    bots: tuple[str, ...] = (LEVELS[DEFAULT_LEVEL].bot,)
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
        bot_names = list(self.bots) or ["heuristic"]
        bots = {
            s: make_bot(bot_names[(s - 1) % len(bot_names)], game.seed + s)
            for s in range(1, self.players)
        }
        return game, bots

    def again(self) -> TableConfig:
        """The same table with a fresh random seed (a rematch)."""
        return replace(self, seed=None)


def parse_bots(text: str) -> tuple[str, ...]:
    """``"heuristic, random"`` → ``("heuristic", "random")``, levels resolved (``"normal"`` →
    ``("ismcts:32",)``); checks each name exists."""
    names = bots_for(",".join(b for b in text.split(",") if b.strip()))
    for name in names:
        make_bot(name, 0)  # raises OptionError naming the known bots
    return names


def parse_option_text(text: str) -> dict[str, str]:
    """``"rounds=4, gain_fee=1"`` → ``{"rounds": "4", "gain_fee": "1"}``."""
    out: dict[str, str] = {}
    for pair in text.replace(";", ",").split(","):
        pair = pair.strip()
        if not pair:
            continue
        if "=" not in pair:
            raise OptionError(f"option {pair!r} must look like name=value")
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def option_text(options: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items())


def bot_text(bots: Sequence[str]) -> str:
    return ", ".join(bots)
