"""The bot protocol, the registry, and the one way a harness should ask a bot to act.

A bot is given what a human at that seat would have: the seat's observation (a JSON-friendly
dict from :meth:`sabacc.Game.observation`) and the list of legal actions. It never sees the
hidden state. Bots are seeded: a bot built with the same seed, asked the same questions in the
same order, makes the same choices.

Search bots (``ismcts``) also need to imagine the cards they cannot see. They get a
:data:`Sampler`: a callable that, given a :class:`random.Random`, returns a *determinization*,
a full game state consistent with everything the seat knows (built by
:meth:`sabacc.Game.determinize`). Its output depends only on the seat's information set and the
``rng`` passed in, so a search bot still decides from its information alone; the test
``tests/services/bots/test_information.py`` checks exactly that (two games that look the same from
the
seat, with different hidden cards and RNG, get the same decision).

Harnesses (the terminal table, simulations, servers) should call :func:`decide`, which hands
every bot its observation and legal actions, and hands search bots a sampler too. A search bot
asked through plain ``bot.act(observation, legal)`` (no sampler) falls back to its heuristic.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from sabacc.core.actions import Action
from sabacc.core.errors import NotToActError, OptionError
from sabacc.engine.bots import SearchWorld
from sabacc.engine.observation import Observation
from sabacc.engine.protocol import GameProtocol

if TYPE_CHECKING:
    from sabacc.engine.variant import VariantInfo

#: ``sampler(rng)`` -> a game state consistent with one seat's information (a determinization):
#: a reference game, a compiled Corellian Spike core (either way a
#: :class:`~sabacc.engine.protocol.GameProtocol`), or a variant's own compact
#: :class:`~sabacc.engine.bots.SearchWorld` (what :func:`sampler_for` gives search bots where it
#: can).
Sampler = Callable[[random.Random], GameProtocol | SearchWorld]


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` and an ``act(observation, legal)`` method."""

    name: str

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Choose one of ``legal`` given ``observation``."""
        ...


@runtime_checkable
class SearchBot(Bot, Protocol):
    """A bot that can also use a :data:`Sampler` of states consistent with its information."""

    uses_sampler: bool

    def act(
        self,
        observation: Observation,
        legal: Sequence[Action],
        sampler: Sampler | None = None,
    ) -> Action:
        """Choose one of ``legal``; ``sampler`` (if given) imagines the hidden cards."""
        ...


BotFactory = Callable[..., Bot]
"""``factory(seed, arg=None, **params)``: ``arg`` is the text after a colon (``ismcts:200``)."""

BOTS: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available by name (CLI ``--bots``, simulations, web tables)."""
    BOTS[name] = factory


def bot_names() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(BOTS)


def make_bot(
    name: str, seed: int | None = None, variant: VariantInfo | str | None = None, **params: Any
) -> Bot:
    """Build the bot called ``name`` with its own seed.

    ``name`` may carry one argument after a colon: ``ismcts:200`` (200 playouts per decision),
    ``ismcts:0.5s`` (half a second per decision, not deterministic), or be a difficulty level
    (``easy``, ``normal``, ``hard``, ``expert``: :mod:`sabacc.services.bots.levels`). Keyword
    ``params`` go to the bot's constructor (``make_bot("ismcts", 1, playouts=200)``).

    A level gives a :class:`LevelBot`: the bot that level names in ``variant`` (a
    :class:`~sabacc.engine.variant.VariantInfo` or a variant name), or, without one, in the
    variant of the first game it is asked about. So ``make_bot("expert", 1)`` plays Kessel's
    ``expert`` at a Kessel table, exactly as ``sabacc play``, ``sabacc simulate`` and a web
    table do.
    """
    from sabacc.services.bots.levels import LEVELS

    if name.strip().lower() in LEVELS:
        return LevelBot(name.strip().lower(), seed, variant, **params)
    base, _, arg = name.strip().lower().partition(":")
    try:
        factory = BOTS[base.strip()]
    except KeyError:
        from sabacc.services.bots.levels import offered_bots

        raise OptionError(
            f"unknown bot {name!r}; the bots are the levels and random: {', '.join(offered_bots())}"
        ) from None
    if arg.strip():
        return factory(seed, arg.strip(), **params)
    return factory(seed, **params)


class LevelBot:
    """A difficulty level's bot: it plays the bot its level names in the variant at hand
    (:func:`sabacc.services.bots.levels.resolve_level`), built with the level's seed.

    The variant is bound at construction when known, else at the first decision (from the game
    in :func:`decide`, or the observation's ``variant``); a bound bot refuses another variant.
    """

    def __init__(
        self,
        level: str,
        seed: int | None = None,
        variant: VariantInfo | str | None = None,
        **params: Any,
    ) -> None:
        self.name = level
        self.level = level
        self.seed = seed
        self.params = params
        #: The variant it plays and the bot spec its level names there, once bound.
        self.variant: str | None = None
        self.spec: str | None = None
        self.bot: Bot | None = None
        if variant is not None:
            self.bind(variant)

    def bind(self, variant: VariantInfo | str) -> Bot:
        """The bot this level plays in ``variant`` (built at the first call)."""
        if isinstance(variant, str):
            if self.bot is not None and variant == self.variant:
                return self.bot
            from sabacc.variants.registry import lookup

            info = lookup(variant)
        else:
            info = variant
        if self.bot is not None:
            if info.name != self.variant:
                raise OptionError(
                    f"this {self.level} bot plays {self.variant}, not {info.name}: "
                    "make one bot per game"
                )
            return self.bot
        from sabacc.services.bots.levels import resolve_level

        self.spec = resolve_level(self.level, info)
        self.bot = make_bot(self.spec, self.seed, **self.params)
        self.variant = info.name
        return self.bot

    @property
    def uses_sampler(self) -> bool:
        """Whether the bound bot searches (an unbound one is bound by :func:`decide` first)."""
        return self.bot is not None and wants_sampler(self.bot)

    def act(
        self, observation: Observation, legal: Sequence[Action], sampler: Sampler | None = None
    ) -> Action:
        """The bound bot's choice (binding it to the observation's variant if need be)."""
        bot = self.bot
        if bot is None or observation.get("variant") != self.variant:
            bot = self.bind(str(observation.get("variant")))
        if sampler is not None and wants_sampler(bot):
            search: Any = bot
            action: Action = search.act(observation, legal, sampler=sampler)
            return action
        return bot.act(observation, legal)

    def __repr__(self) -> str:
        return f"LevelBot({self.level!r}, variant={self.variant!r}, spec={self.spec!r})"


def sampler_for(game: GameProtocol, seat: int, engine: str = "auto") -> Sampler:
    """A sampler of states as ``seat`` might imagine them (``game.determinize(seat, rng)``).

    ``engine="auto"`` (the default) samples the variant's own compact search worlds where its
    bot model has them (:meth:`BotModel.search_sampler`, built for search: faster there than a
    compiled core whose rollouts read Python observations), else on the
    variant's compiled core when it has one and it is built (:meth:`SpikeCore.determinize`
    makes the same RNG calls and the same states, and search bots then play their rollouts on
    it, many times faster);
    ``"python"`` always uses the reference engine; ``"compiled"`` insists on the core.

    ``game`` may itself be a compiled core (``SpikeCore``): it then samples with its own
    ``determinize`` (``"auto"`` or ``"compiled"``; ``"python"`` is refused, since there is no
    reference game to sample from).
    """
    from sabacc.engine.game import Game
    from sabacc.variants.compiled import resolve_engine

    chosen = resolve_engine(engine, game.variant)
    if engine == "auto":  # a variant's own compact search worlds, where it has them, come first
        compact = game.info.bot.search_sampler(game, seat)
        if compact is not None:
            return compact
    if not isinstance(game, Game):  # a compiled core
        if engine == "python":
            raise OptionError(
                "engine='python': this game runs on the compiled core, which samples its "
                "worlds itself (use engine='auto' or 'compiled')"
            )
        core_game = game

        def sample_own(rng: random.Random) -> GameProtocol:
            return core_game.determinize(seat, rng)

        return sample_own
    if chosen == "compiled":
        loader = game.info.compiled
        assert loader is not None  # "compiled" resolves only for variants with a core
        core_type: Any = loader()
        core: Any = core_type.from_game(game)

        def sample_core(rng: random.Random) -> GameProtocol:
            world: GameProtocol = core.determinize(seat, rng)
            return world

        return sample_core

    def sample(rng: random.Random) -> GameProtocol:
        return game.determinize(seat, rng)

    return sample


def check_turn(observation: Observation, legal: Sequence[Action]) -> None:
    """Raise :class:`NotToActError` unless ``observation`` is the view of the seat to act, with
    legal actions (bots called directly, without :func:`decide`, check this)."""
    seat = observation.get("seat")
    if observation.get("is_over") or observation.get("current_player") is None:
        raise NotToActError("the game is over: nobody is to act")
    if seat is None:
        raise NotToActError("a spectator's observation: no seat to act for")
    if observation.get("current_player") != seat:
        raise NotToActError(
            f"seat {seat} is not to act (seat {observation.get('current_player')} is)"
        )
    if not legal:
        raise NotToActError(f"seat {seat} has no legal action")


def wants_sampler(bot: Bot) -> bool:
    """Whether ``bot`` searches and should be given a sampler."""
    return bool(getattr(bot, "uses_sampler", False))


def decide(bot: Bot, game: GameProtocol, seat: int | None = None) -> Action:
    """Ask ``bot`` for the action of ``seat`` (default: the current player) in ``game``.

    The bot gets the seat's observation, the legal actions and, if it searches, a sampler of
    states consistent with the seat's information: never the game itself. ``game`` is a
    reference game or a compiled Corellian Spike core (same observation, legal actions and
    sampled worlds).
    """
    current = game.current_player
    if current is None:
        raise NotToActError("the game is over: nobody is to act")
    if seat is None:
        seat = current
    elif seat != current:
        raise NotToActError(f"seat {seat} is not to act (seat {current} is)")
    if isinstance(bot, LevelBot):
        bot.bind(game.info)
    observation = game.observation(seat)
    legal = game.legal_actions()
    if wants_sampler(bot):
        search: Any = bot
        action: Action = search.act(observation, legal, sampler=sampler_for(game, seat))
        return action
    return bot.act(observation, legal)
