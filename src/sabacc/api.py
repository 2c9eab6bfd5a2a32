"""The library's front door: variants, new games and replays."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, overload

from sabacc.core.actions import Action
from sabacc.core.cards import Card, Deck
from sabacc.core.errors import CardParseError, HistoryError, SaveError
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.game import HISTORY_FORMAT, HISTORY_VERSION, Game
from sabacc.engine.variant import VariantInfo
from sabacc.variants import compiled as _compiled
from sabacc.variants.registry import DEFAULT_VARIANT, lookup, variant_names

if TYPE_CHECKING:
    from sabacc.engine.protocol import GameProtocol
    from sabacc.variants.corellian_spike._corellian_spike_core import SpikeCore
    from sabacc.variants.coruscant_shift._coruscant_shift_core import CoruscantCore
    from sabacc.variants.kessel._kessel_core import KesselCore
    from sabacc.variants.surabat_cycle._surabat_cycle_core import SurabatCore

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
        stacks: Sequence[int] | None = ...,
        pause_between_hands: bool = ...,
    ) -> Game: ...

    @overload
    def new_game(
        self,
        players: int | Sequence[str] = ...,
        seed: int | None = ...,
        *,
        log: bool = ...,
        engine: Literal["compiled"],
        stacks: Sequence[int] | None = ...,
        pause_between_hands: bool = ...,
    ) -> GameProtocol: ...

    def new_game(
        self,
        players: int | Sequence[str] = 4,
        seed: int | None = None,
        *,
        log: bool = True,
        engine: str = "python",
        stacks: Sequence[int] | None = None,
        pause_between_hands: bool = False,
    ) -> Game | GameProtocol:
        """A new game. ``engine="compiled"``: the variant's compiled core (Corellian Spike,
        classic; :mod:`sabacc.variants.compiled`), same rules and states, no per-event log,
        much faster. ``stacks`` and ``pause_between_hands``: as :func:`new_game`."""
        if engine != "python":
            return _compiled.new_compiled_game(
                self.options,
                players,
                seed,
                engine,
                self.name,
                stacks=stacks,
                pause_between_hands=pause_between_hands,
            )
        return self.info.game_type(
            self.options,
            seed=seed,
            players=players,
            log=log,
            stacks=stacks,
            pause_between_hands=pause_between_hands,
        )


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
    stacks: Sequence[int] | None = ...,
    pause_between_hands: bool = ...,
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
    stacks: Sequence[int] | None = ...,
    pause_between_hands: bool = ...,
    **options: Any,
) -> GameProtocol: ...


def new_game(
    name: str = DEFAULT_VARIANT,
    players: int | Sequence[str] = 4,
    seed: int | None = None,
    *,
    log: bool = True,
    engine: str = "python",
    stacks: Sequence[int] | None = None,
    pause_between_hands: bool = False,
    **options: Any,
) -> Game | GameProtocol:
    """Start a game: ``sabacc.new_game("spike", players=4, seed=7, rounds=3)``.

    ``engine="compiled"`` plays on the variant's compiled core, for the variants that have one
    (see :mod:`sabacc.variants.compiled`). ``stacks``: each seat's starting credits
    (``[100, 250, 80]``; default: the options' buy-in each); ``pause_between_hands``: the game
    stops after each hand until ``game.deal()``. Seats join and leave between hands with
    ``game.join``, ``game.leave`` and ``game.rebuy`` (:mod:`sabacc.engine.seating`), on
    either engine.
    """
    info = lookup(name)
    opts = info.options_type.from_mapping(options)
    if engine == "python":
        return info.game_type(
            opts,
            seed=seed,
            players=players,
            log=log,
            stacks=stacks,
            pause_between_hands=pause_between_hands,
        )
    return _compiled.new_compiled_game(
        opts,
        players,
        seed,
        engine,
        info.name,
        stacks=stacks,
        pause_between_hands=pause_between_hands,
    )


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
    (the web server's step-by-step hand viewer) without a replay loop of its own. A history's
    ``setup`` (given stacks, pauses) starts the game as it started, and its ``table`` changes
    (joins, leaves, rebuys, deals: :mod:`sabacc.engine.seating`) are asked for again after the
    same number of actions (with ``upto``, those asked for after the last action replayed are
    left out unless ``upto`` covers every action), on either engine. This is the
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
        setup = dict(history.get("setup") or {})
        unknown = set(setup) - {"stacks", "pause_between_hands"}
        if unknown:
            raise ValueError(f"unknown setup {', '.join(sorted(unknown))}")
        table = [dict(e) for e in history.get("table") or []]
        if any(type(e.get("at")) is not int for e in table):
            raise ValueError("each table change needs its action count 'at'")
        game: Game | GameProtocol = new_game(  # type: ignore[call-overload]
            str(history["variant"]),
            players=list(history["players"]),
            seed=history["seed"],
            log=log,
            engine=engine,
            stacks=setup.get("stacks"),
            pause_between_hands=setup.get("pause_between_hands", False),
            **dict(history.get("options") or {}),
        )
        actions = list(history.get("actions") or [])
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"malformed hand history: {exc}") from None
    todo = actions[:upto] if upto is not None else actions
    # table changes asked for before the action at their 'at' (all of them after a whole replay)
    last = len(todo) if upto is None or upto >= len(actions) else len(todo) - 1
    changes = iter(sorted((e for e in table if e["at"] <= last), key=lambda e: e["at"]))
    change = next(changes, None)

    def table_until(done: int) -> None:
        nonlocal change
        while change is not None and change["at"] <= done:
            try:
                game.apply_table(change)
            except (KeyError, TypeError, ValueError) as exc:
                raise HistoryError(f"table change {change!r} does not replay: {exc}") from None
            change = next(changes, None)

    if on_step is not None:
        on_step(game, 0)
    for i, entry in enumerate(todo):
        table_until(i)
        try:
            game.apply(entry["action"], seat=int(entry["seat"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise HistoryError(f"action {i + 1} ({entry!r}) does not replay: {exc}") from None
        if on_step is not None:
            on_step(game, i + 1)
    table_until(len(todo))
    return game


def save(game: Game | GameProtocol) -> dict[str, Any]:
    """The whole state of ``game`` as a plain JSON-able dict, the RNG state included
    (:meth:`Game.save`): :func:`restore` rebuilds a game going on exactly as this one. A
    compiled core's game is saved through its history, replayed on the reference engine."""
    if isinstance(game, Game):
        return game.save()
    reference = replay(game.history(), log=False)
    return reference.save()


@overload
def restore(
    data: Mapping[str, Any], *, log: bool = ..., engine: Literal["python"] = ...
) -> Game: ...


@overload
def restore(
    data: Mapping[str, Any], *, log: bool = ..., engine: Literal["compiled", "auto"]
) -> GameProtocol: ...


def restore(
    data: Mapping[str, Any], *, log: bool = True, engine: str = "python"
) -> Game | GameProtocol:
    """The game a :func:`save` document describes, going on exactly as the saved one.

    ``engine="compiled"`` continues it on the variant's compiled core, ``"auto"`` there when it
    is built, else on the reference engine (a custom table, given stacks and seat changes
    included, continues on either). Raises :class:`~sabacc.core.errors.SaveError` for a
    malformed document.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("variant"), str):
        raise SaveError("not a saved sabacc game (it names no variant)")
    info = lookup(data["variant"])
    game = info.game_type.restore(data, log=log)
    chosen = _compiled.resolve_engine(engine, info.name)
    if chosen == "python":
        return game
    loader = info.compiled
    assert loader is not None  # resolve_engine refused variants without a core
    core_type: Any = loader()  # every compiled core copies a reference game: from_game
    core: GameProtocol = core_type.from_game(game)
    return core


__all__ = [
    "Variant",
    "new_game",
    "parse_action",
    "replay",
    "restore",
    "save",
    "variant",
    "variant_names",
]
