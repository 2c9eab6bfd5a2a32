"""The typed protocol of a game, which every engine implements.

:class:`GameProtocol` is what bots, simulations, odds, RL and the apps may use of a game,
whichever engine runs it: the reference :class:`~sabacc.engine.game.Game` (every variant) or
a compiled core (Corellian Spike's
:class:`sabacc.variants.corellian_spike._corellian_spike_core.SpikeCore` and the others). mypy
checks that both implement it (``tests/engine/test_protocol.py`` assigns each to it), so code typed
against the protocol runs on either engine without ``isinstance`` branches or ``Any``.

Everything in it is read-only from outside: the state changes only through :meth:`apply`. The
list-valued state (``stacks``, ``hands``...) is the engine's own on the reference engine and a
fresh copy on the compiled core: read it, never mutate it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sabacc.core.actions import Action
    from sabacc.core.cards import Card
    from sabacc.core.events import Event
    from sabacc.core.hands import HandValue
    from sabacc.core.options import Options
    from sabacc.engine.betting import Legal, Pot
    from sabacc.engine.features import SeatView
    from sabacc.engine.game import GameOutcome, HandResult
    from sabacc.engine.observation import Observation
    from sabacc.engine.observe import ObservationSnapshot
    from sabacc.engine.variant import VariantInfo


class GameProtocol(Protocol):
    """A game on any engine: the decision, the actions, the public state and the results."""

    # ------------------------------------------------------------------ the table
    @property
    def variant(self) -> str:
        """The variant's registered name (``"corellian_spike"``...)."""
        ...

    @property
    def info(self) -> VariantInfo:
        """The variant's record (name, title, deck, options type, evaluator...)."""
        ...

    @property
    def options(self) -> Options:
        """The validated house rules this game is played with."""
        ...

    @property
    def seed(self) -> int:
        """The seed of the game's RNG (with the actions, it replays the game exactly)."""
        ...

    @property
    def names(self) -> list[str]:
        """The players' names, by seat."""
        ...

    @property
    def n(self) -> int:
        """The number of seats (as :attr:`num_players`)."""
        ...

    @property
    def num_players(self) -> int: ...

    # ------------------------------------------------------------------ the decision
    @property
    def current_player(self) -> int | None:
        """The seat that must act now, or ``None`` when the game is over."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat to act (``None`` between decisions and once over)."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def over(self) -> bool: ...

    @property
    def phase(self) -> str:
        """The phase of the hand (``"card"``, ``"betting"``..., ``"over"``)."""
        ...

    def legal(self) -> Legal:
        """The legal actions in compact form (fixed actions plus bet/raise ranges)."""
        ...

    def legal_actions(self) -> list[Action]:
        """Every legal action for :attr:`current_player`."""
        ...

    def is_legal(self, action: Action | str) -> bool: ...

    def apply(self, action: Action | str, seat: int | None = None) -> list[Event] | None:
        """Apply the current player's action (the events it caused; ``None`` on an engine that
        keeps no event log). Raises ``IllegalActionError`` and changes nothing if refused."""
        ...

    # ------------------------------------------------------------------ the state
    @property
    def hand_no(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def stacks(self) -> list[int]: ...

    @property
    def out(self) -> list[bool]: ...

    @property
    def in_hand(self) -> list[bool]: ...

    @property
    def folded(self) -> list[bool]: ...

    @property
    def acted(self) -> list[bool]: ...

    @property
    def committed(self) -> list[int]: ...

    @property
    def round_bet(self) -> list[int]: ...

    @property
    def hand_start_stacks(self) -> list[int]: ...

    @property
    def cur_bet(self) -> int: ...

    @property
    def raises(self) -> int: ...

    @property
    def dead(self) -> int: ...

    @property
    def sabacc_pot(self) -> int: ...

    @property
    def hands(self) -> list[list[Card]]:
        """Every seat's cards (hidden information: for engines, search and tests)."""
        ...

    @property
    def public_ids(self) -> list[set[int]]:
        """Per seat, the ids of its cards everybody saw go into its hand."""
        ...

    @property
    def last_action(self) -> list[str | None]: ...

    @property
    def bet_unit(self) -> int:
        """The minimum bet and raise increment."""
        ...

    @property
    def rounds(self) -> int | None:
        """Rounds per hand (``None``: no fixed count)."""
        ...

    def pot_total(self) -> int: ...

    def total_credits(self) -> int: ...

    def pots(self) -> list[Pot]: ...

    def card_locations(self) -> list[Card]: ...

    def evaluate(self, cards: Sequence[Card]) -> HandValue: ...

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know, as JSON-ready data (``None``: a spectator), typed and
        versioned (:mod:`sabacc.engine.observation`)."""
        ...

    def observations(self, viewers: Iterable[int | None]) -> dict[int | None, Observation]:
        """``{viewer: observation(viewer)}`` for several viewers, the parts they see alike
        made once (:func:`sabacc.engine.observe.observe_many`)."""
        ...

    def observation_snapshot(self) -> ObservationSnapshot:
        """What every observation of this state is made of, as plain immutable data (equal on
        both engines in the same state; :mod:`sabacc.engine.observe`)."""
        ...

    def seat_view(self, seat: int) -> SeatView:
        """What ``observation(seat)`` shows that the RL encoder needs, as one flat tuple
        (:data:`sabacc.engine.features.SeatView`; the same on every engine)."""
        ...

    def full_state(self) -> dict[str, Any]: ...

    # ------------------------------------------------------------------ results and logs
    @property
    def payoffs(self) -> list[int]: ...

    @property
    def outcome(self) -> GameOutcome | None: ...

    @property
    def hand_results(self) -> list[HandResult]: ...

    @property
    def hand_nets(self) -> list[tuple[int, int, str, tuple[int, ...]]]:
        """``(hand, dealer, reason, net per seat)`` of every finished hand (cheap on both)."""
        ...

    @property
    def actions(self) -> list[tuple[int, str]]: ...

    @property
    def action_count(self) -> int: ...

    def history(self) -> dict[str, Any]:
        """The versioned hand-history document (:func:`sabacc.replay` rebuilds the game)."""
        ...

    # ------------------------------------------------------------------ seats between hands
    # (sabacc.engine.seating: requested any time, carried out when the hand in play ends)
    def join(self, name: str, stack: int, *, seat: int | None = None) -> int:
        """Seat a player with ``stack`` credits from the next hand; returns the seat."""
        ...

    def leave(self, seat: int) -> None:
        """The player at ``seat`` leaves after the hand in play, the seat then empty."""
        ...

    def rebuy(self, seat: int, amount: int, reason: str = "rebuy") -> None:
        """Add ``amount`` credits to ``seat``'s stack before the next hand."""
        ...

    def deal(self) -> list[Event] | None:
        """Start the next hand of a game paused between hands (``None`` on an engine that
        keeps no event log)."""
        ...

    def apply_table(self, entry: Mapping[str, Any]) -> None:
        """Carry out one entry of a history's ``table`` list."""
        ...

    @property
    def pending_changes(self) -> list[dict[str, Any]]: ...
    @property
    def table_log(self) -> list[dict[str, Any]]: ...
    @property
    def custom_table(self) -> bool: ...
    @property
    def vacant(self) -> list[bool]: ...
    def credits_at_table(self) -> int: ...

    # ------------------------------------------------------------------ search
    def clone(self, *, log: bool | None = None, reseed: int | None = None) -> GameProtocol:
        """An independent copy (``reseed``: with a fresh RNG)."""
        ...

    def determinize(self, viewer: int, rng: random.Random) -> GameProtocol:
        """A copy as ``viewer`` might imagine it (hidden cards redealt from ``rng``)."""
        ...
