"""The OpenSpiel adapter: every variant as a ``pyspiel`` Python game.

``import sabacc.apps.rl.openspiel`` registers ``python_sabacc_<name>`` for every variant with
an RL spec (``python_sabacc_spike``, ``python_sabacc_surabat``, ``python_sabacc_classic``,
``python_sabacc_coruscant``, ``python_sabacc_kessel``), each a sequential game with explicit
chance (:mod:`sabacc.apps.rl.research`), information-state and observation strings and tensors
(``make_py_observer``: public and private parts as OpenSpiel's ``IIGObservationType`` asks),
terminal rewards in credits (the game's payoffs: zero-sum only where every credit goes back to
the players, unless ``reward="zero_sum"``, the reward conventions of
:mod:`sabacc.apps.rl.core`). Parameters (``pyspiel.load_game("python_sabacc_spike",
{"max_value": 2, ...})``):

============== =========== ================================================================
``players``     2           seats
``hands``       1           hands per game (the solver sub-game: one hand, fresh stacks)
``max_value``   -1          keep cards with ``|value| <= max_value`` (-1: every card)
``suits``       ``""``      keep suited cards of these suit letters (``""``: every suit)
``sylops``      -1          at most this many unsuited zero cards (-1: all of them)
``rounds``      -1          the variant's ``rounds`` option (-1: its default)
``buy_in``      -1          starting credits (-1: the variant's)
``betting``     ``""``      ``no_limit`` / ``pot_limit`` / ``fixed`` (``""``: the variant's)
``max_raises``  -1          raises per betting phase (-1: the variant's)
``bet_sizes``   ``""``      comma-separated sizes (``min,0.5,max``; ``""``: the defaults)
``rolls``       ``chance``  ``fixed``: dice show fixed faces (no Sabacc Shift): a reduced game
``collapse``    False       the chance after a hand's last decision as its expected payoff
``history``     16          decisions kept in the information-state tensor
``options``     ``""``      any other variant options: ``swap_fee=2,true_tie=split``
``reward``      ``net``     ``zero_sum``: the returns less their mean (always zero-sum)
============== =========== ================================================================

Needs ``pip install "sabacc[research]"`` (``open_spiel``); importing this module without it
raises an ImportError that says so.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - exercised only without open_spiel
    raise ImportError(
        "the OpenSpiel adapter needs open_spiel: pip install 'sabacc[research]'"
    ) from exc

from sabacc.variants.registry import lookup, rl_env_name, variant_names

from .research import ResearchGame, ResearchState

_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "hands": 1,
    "max_value": -1,
    "suits": "",
    "sylops": -1,
    "rounds": -1,
    "buy_in": -1,
    "betting": "",
    "max_raises": -1,
    "bet_sizes": "",
    "rolls": "chance",
    "collapse": False,
    "history": 16,
    "options": "",
    "reward": "net",
}


def _size(text: str) -> str | float | int:
    text = text.strip()
    if text in ("min", "max"):
        return text
    return float(text) if "." in text else int(text)


def research_game(variant: str, params: dict[str, Any]) -> ResearchGame:
    """The :class:`ResearchGame` of OpenSpiel parameters ``params``."""
    p = {**_DEFAULTS, **params}
    options: dict[str, Any] = {}
    names = lookup(variant).options_type.names()
    for key in ("rounds", "buy_in", "max_raises"):
        if p[key] != -1 and key in names:
            options[key] = int(p[key])
    if p["betting"] and "betting" in names:
        options["betting"] = p["betting"]
    for item in filter(None, (x.strip() for x in str(p["options"]).split(","))):
        key, _, value = item.partition("=")
        options[key.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    sizes = tuple(_size(s) for s in p["bet_sizes"].split(",")) if p["bet_sizes"] else None
    return ResearchGame(
        variant,
        int(p["players"]),
        hands=int(p["hands"]),
        max_value=None if p["max_value"] < 0 else int(p["max_value"]),
        suits=p["suits"] or None,
        sylops=None if p["sylops"] < 0 else int(p["sylops"]),
        bet_sizes=sizes,
        history=int(p["history"]),
        collapse_chance=bool(p["collapse"]),
        rolls=p["rolls"],
        reward=p["reward"],
        **options,
    )


def _game_class(variant: str, short_name: str) -> type[Any]:
    info = lookup(variant)
    probe = ResearchGame(variant, max(2, info.min_players))

    def game_type(zero_sum: bool) -> Any:
        return pyspiel.GameType(
            short_name=short_name,
            long_name=f"sabacc: {info.title}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=(
                pyspiel.GameType.Utility.ZERO_SUM
                if zero_sum
                else pyspiel.GameType.Utility.GENERAL_SUM
            ),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=info.max_players,
            min_num_players=info.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=dict(_DEFAULTS),
        )

    # Registered with the default parameters' utility; a game whose parameters change it
    # (reward="zero_sum", a final_pot option) says so in its own type.
    types = {zero_sum: game_type(zero_sum) for zero_sum in (False, True)}

    class SabaccGame(pyspiel.Game):  # type: ignore[misc]
        """A sabacc variant as an OpenSpiel game (see the module docstring)."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            rg = research_game(variant, {**_DEFAULTS, **(params or {})})
            self.rg = rg
            # Credits: a seat can lose at most its stacks over the game, and win the others'.
            stake = float(rg.buy_in)
            game_info = pyspiel.GameInfo(
                num_distinct_actions=rg.num_actions,
                max_chance_outcomes=rg.max_chance_outcomes,
                num_players=rg.n,
                min_utility=-stake,
                max_utility=stake * (rg.n - 1),
                utility_sum=0.0 if rg.zero_sum else None,
                max_game_length=100_000,
            )
            super().__init__(types[rg.zero_sum], game_info, params or {})

        def new_initial_state(self) -> SabaccState:
            return SabaccState(self, self.rg.new_state())

        def make_py_observer(
            self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
        ) -> SabaccObserver:
            return SabaccObserver(
                self.rg, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
            )

    SabaccGame.__name__ = SabaccGame.__qualname__ = f"Sabacc_{short_name}"
    pyspiel.register_game(types[probe.zero_sum], SabaccGame)
    return SabaccGame


class SabaccState(pyspiel.State):  # type: ignore[misc]
    """A state: a thin layer over :class:`~sabacc.apps.rl.research.ResearchState`."""

    def __init__(self, game: Any, state: ResearchState) -> None:
        super().__init__(game)
        self.rs = state

    def current_player(self) -> int:
        rs = self.rs
        if rs.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if rs.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        seat = rs.current_player
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.rs.legal_indices()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(o, float(p)) for o, p in self.rs.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        if self.rs.is_chance_node():
            self.rs.apply_chance(int(action))
        else:
            self.rs.apply_index(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{self.rs.chance_label(action) if self.rs.is_chance_node() else action}"
        return self.rs.action_label(action)

    def is_terminal(self) -> bool:
        return self.rs.is_terminal()

    def returns(self) -> list[float]:
        return self.rs.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SabaccState:
        """A state ``player_id`` cannot tell from this one: the hidden cards re-dealt
        uniformly, from an RNG seeded by a draw of ``probability_sampler`` (a callable
        giving a float in [0, 1), as OpenSpiel's samplers are)."""
        try:
            seed = int(float(probability_sampler()) * 2**32)
        except TypeError:
            seed = random.getrandbits(32)
        new: SabaccState = self.clone()
        new.rs = self.rs.resample_from_infostate(player_id, random.Random(seed))
        return new

    def __str__(self) -> str:
        return " ".join(f"c{a}" if s < 0 else f"{s}:{a}" for s, a in self.rs.cg.history)


class SabaccObserver:
    """OpenSpiel's PyObserver: ``tensor``, ``dict`` of named blocks, ``set_from``,
    ``string_from``. ``perfect_recall=True`` gives the information state; ``private_info``
    NONE leaves the private blocks at zero, ``public_info=False`` the public ones."""

    def __init__(self, rg: ResearchGame, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.rg = rg
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info != pyspiel.PrivateInfoType.NONE
        size = rg.information_state_size if self.recall else rg.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {
            name: self.tensor[start : start + width]
            for name, start, width, _part in rg.blocks(self.recall)
        }
        mask = rg.private_mask(self.recall)
        self._keep = np.ones(size, dtype=bool)
        if not self.private:
            self._keep &= ~mask
        if not self.public:
            self._keep &= mask

    def set_from(self, state: SabaccState, player: int) -> None:
        rs = state.rs
        if self.recall:
            values = rs.information_state_tensor(player)
        else:
            values = rs.observation_tensor(player)
        self.tensor[:] = np.where(self._keep, values, 0.0)

    def string_from(self, state: SabaccState, player: int) -> str:
        rs = state.rs
        text = rs.information_state_string(player) if self.recall else rs.observation_string(player)
        if not self.private:
            return f"public {len(rs.cg.history)}"
        return text


#: The registered games' classes by OpenSpiel short name.
GAMES: dict[str, type[Any]] = {}
for _name in variant_names():
    _info = lookup(_name)
    if _info.rl_spec is None:
        continue
    _short = f"python_sabacc_{rl_env_name(_info)}"
    GAMES[_short] = _game_class(_name, _short)
