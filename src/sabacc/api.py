"""The library's front door: variants, new games and replays."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, overload

from sabacc.core.actions import Action
from sabacc.core.cards import Card, Deck
from sabacc.core.errors import CardParseError, HistoryError
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.game import HISTORY_FORMAT, HISTORY_VERSION, Game
from sabacc.engine.variant import VariantInfo
from sabacc.variants import compiled as _compiled
from sabacc.variants.registry import DEFAULT_VARIANT, lookup, variant_names

if TYPE_CHECKING:
    from sabacc.engine.protocol import GameProtocol
    from sabacc.variants.kessel._kessel_core import KesselCore
    from sabacc.variants.spike_family._spike_core import CoruscantCore, SpikeCore, SurabatCore

    def _both_engines_implement_the_protocol(
        game: Game, core: SpikeCore, surabat: SurabatCore, coruscant: CoruscantCore
    ) -> list[GameProtocol]:
        """Never called: mypy checks here that both engines (every compiled core) implement
        :class:`GameProtocol`."""
        return [game, core, surabat, coruscant]

    def _kessel_core_implements_the_protocol(core: KesselCore) -> GameProtocol:
        """Never called: mypy checks that the compiled Kessel core is a :class:`GameProtocol`."""
        return core

    from sabacc.variants.classic._classic_core import ClassicCore

    def _classic_core_implements_the_protocol(core: ClassicCore) -> GameProtocol:
        """Never called: mypy checks here that the classic core implements the protocol."""
        return core


class Variant:
    """A variant bound to a set of options: its deck, notation, hand evaluation and games."""

    def __init__(self, info: VariantInfo, options: Options) -> None:
        self.info = info
        self.options = options

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def deck(self) -> Deck:
        return self.info.deck

    @property
    def rules_text(self) -> str:
        return self.info.rules_text

    def __repr__(self) -> str:
        return f"Variant({self.name!r}, {self.options.changed()!r})"

    def parse_cards(self, text: str | Sequence[str]) -> list[Card]:
        """Cards from notation (``"+4 -4 0"``); strict (see :meth:`Deck.parse_cards`)."""
        return self.deck.parse_cards(text)

    def evaluate(self, cards: str | Sequence[Card] | Sequence[str]) -> HandValue:
        """The value of a hand: greater compares better, equal is a true tie."""
        if isinstance(cards, str) or (cards and isinstance(cards[0], str)):
            parsed = self.parse_cards(cards)  # type: ignore[arg-type]
        else:
            parsed = list(cards)  # type: ignore[arg-type]
        if not parsed:
            raise CardParseError("a hand needs at least one card")
        return self.info.evaluator(self.options, parsed)

    @overload
    def new_game(
        self,
        players: int | Sequence[str] = ...,
        seed: int | None = ...,
        *,
        log: bool = ...,
        engine: Literal["python"] = ...,
    ) -> Game: ...

    @overload
    def new_game(
        self,
        players: int | Sequence[str] = ...,
        seed: int | None = ...,
        *,
        log: bool = ...,
        engine: Literal["compiled"],
    ) -> GameProtocol: ...

    def new_game(
        self,
        players: int | Sequence[str] = 4,
        seed: int | None = None,
        *,
        log: bool = True,
        engine: str = "python",
    ) -> Game | GameProtocol:
        """A new game. ``engine="compiled"``: the variant's compiled core (Corellian Spike,
        classic; :mod:`sabacc.variants.compiled`), same rules and states, no per-event log,
        much faster."""
        if engine != "python":
            return _compiled.new_compiled_game(self.options, players, seed, engine, self.name)
        return self.info.game_type(self.options, seed=seed, players=players, log=log)


def parse_action(text: str | Action, variant: str = DEFAULT_VARIANT) -> Action:
    """The action of ``text`` in ``variant`` (aliases accepted), by the parser its declared
    action kinds build; :class:`~sabacc.core.errors.IllegalActionError` if it is malformed or
    not one of that variant's actions. An :class:`Action` is checked and returned."""
    return lookup(variant).parse_action(text)


def variant(name: str, **options: Any) -> Variant:
    """The variant called ``name`` (aliases accepted), with ``options`` applied."""
    info = lookup(name)
    return Variant(info, info.options_type.from_mapping(options))


@overload
def new_game(
    name: str = ...,
    players: int | Sequence[str] = ...,
    seed: int | None = ...,
    *,
    log: bool = ...,
    engine: Literal["python"] = ...,
    **options: Any,
) -> Game: ...


@overload
def new_game(
    name: str = ...,
    players: int | Sequence[str] = ...,
    seed: int | None = ...,
    *,
    log: bool = ...,
    engine: Literal["compiled"],
    **options: Any,
) -> GameProtocol: ...


def new_game(
    name: str = DEFAULT_VARIANT,
    players: int | Sequence[str] = 4,
    seed: int | None = None,
    *,
    log: bool = True,
    engine: str = "python",
    **options: Any,
) -> Game | GameProtocol:
    """Start a game: ``sabacc.new_game("spike", players=4, seed=7, rounds=3)``.

    ``engine="compiled"`` plays on the variant's compiled core, for the variants that have one
    (see :mod:`sabacc.variants.compiled`).
    """
    info = lookup(name)
    opts = info.options_type.from_mapping(options)
    if engine == "python":
        return info.game_type(opts, seed=seed, players=players, log=log)
    return _compiled.new_compiled_game(opts, players, seed, engine, info.name)


@overload
def replay(
    history: Mapping[str, Any],
    *,
    upto: int | None = ...,
    log: bool = ...,
    engine: Literal["python"] = ...,
    on_step: Callable[[Game, int], None] | None = ...,
) -> Game: ...


@overload
def replay(
    history: Mapping[str, Any],
    *,
    upto: int | None = ...,
    log: bool = ...,
    engine: Literal["compiled"],
    on_step: Callable[[GameProtocol, int], None] | None = ...,
) -> GameProtocol: ...


def replay(
    history: Mapping[str, Any],
    *,
    upto: int | None = None,
    log: bool = True,
    engine: str = "python",
    on_step: Callable[[Any, int], None] | None = None,
) -> Game | GameProtocol:
    """Rebuild a game from a hand-history document (see :meth:`Game.history`).

    Replays ``upto`` actions (all by default), on the reference engine (``log=False``: without
    building the event log, faster) or (``engine="compiled"``, Corellian Spike) on the compiled
    core. ``on_step(game, n)`` is called with ``n = 0`` before the first action and again after
    each one with the number applied so far, so a caller can look at every intermediate state
    (the web server's step-by-step hand viewer) without a replay loop of its own. This is the
    one replay path: the CLI, the server and the golden-history tests all go through it. Raises
    :class:`HistoryError` if the document is malformed (a missing or non-integer seed included:
    a history replays only from its exact seed) or an action does not apply.
    """
    if not isinstance(history, Mapping):
        raise HistoryError("a hand history must be a JSON object")
    if history.get("format") != HISTORY_FORMAT:
        raise HistoryError(f"not a sabacc hand history (format must be {HISTORY_FORMAT!r})")
    if history.get("version") != HISTORY_VERSION:
        raise HistoryError(
            f"unsupported hand-history version {history.get('version')!r} "
            f"(this sabacc reads version {HISTORY_VERSION})"
        )
    if history.get("seed") is None:
        raise HistoryError("malformed hand history: it has no seed")
    try:
        game: Game | GameProtocol = new_game(  # type: ignore[call-overload]
            str(history["variant"]),
            players=list(history["players"]),
            seed=history["seed"],
            log=log,
            engine=engine,
            **dict(history.get("options") or {}),
        )
        actions = list(history.get("actions") or [])
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"malformed hand history: {exc}") from None
    if on_step is not None:
        on_step(game, 0)
    for i, entry in enumerate(actions[:upto] if upto is not None else actions):
        try:
            game.apply(entry["action"], seat=int(entry["seat"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise HistoryError(f"action {i + 1} ({entry!r}) does not replay: {exc}") from None
        if on_step is not None:
            on_step(game, i + 1)
    return game


__all__ = ["Variant", "new_game", "parse_action", "replay", "variant", "variant_names"]
