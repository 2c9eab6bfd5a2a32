"""Tournament simulation: many seeded hands between named bots, across processes.

How hands are played (see docs/bots.md): the unit is a **deal**. A deal is one game seed
played once per *rotation* of the line-up, so every bot sits in every seat, dealer included,
with the same shuffle (duplicate dealing: luck of the cards cancels out). Each game lasts
``game_hands`` hands (default 1: every hand starts from fresh buy-in stacks, so hands are
independent). Pots left at the end of a game follow the variant's ``final_pot`` option (default
``split``: an unwon sabacc pot goes back to the players). Credits per hand and its 95% confidence
interval are computed over deals, which are independent of each other.

The work is split into chunks of deals. :func:`run_chunk` is a pure function of
``(spec, chunk_index)``: every game and bot seed is derived from the spec's seed and the deal's
global index, so results do not depend on chunk size, worker count or executor. Results are
merged in chunk order. An executor backend is anything that maps :func:`run_chunk` over chunk
indices (see :class:`Backend`); :class:`SerialBackend` and :class:`ProcessBackend` are built in.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import random
import statistics
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Protocol

from sabacc.variants.compiled import CHOICES

Z95 = 1.959963984540054


def derive_seed(*parts: object) -> int:
    """A 63-bit seed derived from ``parts`` (stable across processes and Python runs)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class SimSpec:
    """What to simulate. Picklable, hashable: the whole input of :func:`run_chunk`."""

    variant: str
    bots: tuple[str, ...]  # the line-up, one bot per seat
    hands: int  # hands wanted (rounded up to whole deals)
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()
    game_hands: int = 1
    duplicate: bool = True
    chunk_deals: int | None = None
    #: auto (the variant's compiled core, where it has one, when built) | python | compiled: the
    #: same games and totals either way (the engines reach identical states), only faster.
    engine: str = "auto"

    def __post_init__(self) -> None:
        from sabacc.core.errors import OptionError

        if self.engine not in CHOICES:
            raise OptionError(f"engine={self.engine!r}: must be one of {', '.join(CHOICES)}")

        if len(self.bots) < 2:
            raise OptionError("a simulation needs at least 2 seats")
        if self.hands < 1:
            raise OptionError("a simulation needs at least 1 hand")
        if self.game_hands < 1:
            raise OptionError("game_hands must be at least 1")

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def names(self) -> tuple[str, ...]:
        """Distinct bot names in line-up order (the rows of the results)."""
        return tuple(dict.fromkeys(self.bots))

    @property
    def hands_per_deal(self) -> int:
        return self.players * self.game_hands

    @property
    def deals(self) -> int:
        return max(1, math.ceil(self.hands / self.hands_per_deal))

    @property
    def deals_per_chunk(self) -> int:
        if self.chunk_deals is not None:
            return max(1, self.chunk_deals)
        cap = max(1, 200 // self.hands_per_deal)
        return max(1, min(cap, math.ceil(self.deals / 64)))

    @property
    def chunks(self) -> int:
        return math.ceil(self.deals / self.deals_per_chunk)

    def chunk_range(self, index: int) -> range:
        size = self.deals_per_chunk
        return range(index * size, min(self.deals, (index + 1) * size))

    def lineup(self, rotation: int) -> list[str]:
        """Bot names by seat for a rotation (rotation r moves every bot r seats to the left)."""
        n = self.players
        return [self.bots[(s - rotation) % n] for s in range(n)]

    def game_options(self) -> dict[str, Any]:
        options = dict(self.options)
        options["game_end"] = f"hands:{self.game_hands}"
        return options


@dataclass
class ChunkResult:
    """The results of one chunk of deals. ``times`` (decision seconds) vary from run to run;
    everything else is a pure function of the spec and the chunk index."""

    index: int
    names: tuple[str, ...]
    hands: int = 0  # table hands played
    net: list[int] = field(default_factory=list)
    seat_hands: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    sabacc_wins: list[int] = field(default_factory=list)
    deal_net: list[tuple[int, ...]] = field(default_factory=list)
    deal_hands: list[tuple[int, ...]] = field(default_factory=list)
    times: dict[str, array[float]] = field(default_factory=dict)

    def totals(self) -> tuple[Any, ...]:
        """The deterministic part, for comparisons."""
        return (
            self.hands,
            tuple(self.net),
            tuple(self.seat_hands),
            tuple(self.wins),
            tuple(self.sabacc_wins),
            tuple(self.deal_net),
        )


class HandSeededRandom(random.Random):
    """A game RNG that restarts from its own seed at every hand after the first.

    One RNG serves a whole game, so how many draws a hand made (a reshuffle, the dice rolled
    at each round's end, which a hand junked early never reaches) would change every later
    hand's shuffle between the rotations of a duplicate deal. This one watches its game's
    ``hand_no`` and, at its first draw of a new hand (the deal's shuffle), reseeds itself from
    ``derive_seed(*key, "hand", hand_no)``: every rotation gets the same cards in every hand
    of the game. The first hand uses the game seed, as a plain game does.
    """

    def __init__(self, seed: int, key: tuple[object, ...]) -> None:
        super().__init__(seed)
        self.key = key
        self.hand = 1
        self.game: Any = None

    def _next_hand(self) -> None:
        game = self.game
        if game is not None and game.hand_no != self.hand:
            self.hand = game.hand_no
            super().seed(derive_seed(*self.key, "hand", self.hand))

    def random(self) -> float:
        self._next_hand()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self._next_hand()
        return super().getrandbits(k)


def hand_seeded(spec: SimSpec) -> bool:
    """Whether the deals' games reseed at every hand (duplicate deals of several hands: on the
    reference engine, the compiled cores keep one RNG stream; ``engine="compiled"`` keeps it)."""
    return spec.duplicate and spec.game_hands > 1 and spec.engine != "compiled"


def new_deal_game(spec: SimSpec, deal: int, rotation: int) -> Any:
    """The fresh game of a deal and rotation: the same cards for every rotation when the deals
    are duplicated (in every hand of a several-hand game: :class:`HandSeededRandom`), on the
    engine ``spec.engine`` resolves to (no event log)."""
    import sabacc
    from sabacc.variants import compiled

    game_seed = (
        derive_seed(spec.seed, "deal", deal)
        if spec.duplicate
        else derive_seed(spec.seed, "deal", deal, rotation)
    )
    v = sabacc.variant(spec.variant, **spec.game_options())
    if hand_seeded(spec):
        rng = HandSeededRandom(game_seed, (spec.seed, "deal", deal))
        game = v.info.game_type(v.options, seed=game_seed, players=spec.players, log=False, rng=rng)
        rng.game = game
        return game
    if compiled.resolve_engine(spec.engine, v.name) == "compiled":
        return v.new_game(spec.players, game_seed, engine="compiled")
    return v.new_game(spec.players, game_seed, log=False)


def play_game(
    spec: SimSpec,
    deal: int,
    rotation: int,
    timer: Callable[[str, float], None] | None = None,
) -> Any:
    """Play one game of a deal and rotation; returns the finished game."""
    from sabacc.services.bots import decide, make_bot

    n = spec.players
    lineup = spec.lineup(rotation)
    game = new_deal_game(spec, deal, rotation)
    bots = [
        make_bot(lineup[s], derive_seed(spec.seed, "bot", deal, rotation, s), game.info)
        for s in range(n)
    ]
    clock = time.perf_counter
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        t0 = clock()
        action = decide(bots[seat], game, seat)
        if timer is not None:
            timer(lineup[seat], clock() - t0)
        game.apply(action, seat=seat)
    return game


def sabacc_pot_names(variant: str) -> frozenset[str]:
    """The pots of ``variant`` that count as "sabacc pots won" (its ``PotRule.sabacc``); empty
    for a variant without one (Kessel, Coruscant Shift)."""
    import sabacc

    return frozenset(rule.pot for rule in sabacc.variant(variant).info.pots if rule.sabacc)


def run_chunk(spec: SimSpec, index: int) -> ChunkResult:
    """Play the deals of chunk ``index`` (pure: same spec and index, same totals)."""
    names = spec.names
    pos = {name: i for i, name in enumerate(names)}
    k = len(names)
    res = ChunkResult(index, names, 0, [0] * k, [0] * k, [0] * k, [0] * k)
    times: dict[str, array[float]] = {name: array("d") for name in names}
    sabacc_pots = sabacc_pot_names(spec.variant)

    def timer(name: str, seconds: float) -> None:
        times[name].append(seconds)

    for deal in spec.chunk_range(index):
        dnet = [0] * k
        dhands = [0] * k
        for rotation in range(spec.players):
            lineup = spec.lineup(rotation)
            game = play_game(spec, deal, rotation, timer)
            played = len(game.hand_results)
            res.hands += played
            for seat, payoff in enumerate(game.payoffs):
                i = pos[lineup[seat]]
                dnet[i] += payoff
                dhands[i] += played
            for hr in game.hand_results:
                won_main: set[int] = set()
                for pot in hr.pots:
                    if pot.pot in sabacc_pots:
                        for s in pot.winners:
                            res.sabacc_wins[pos[lineup[s]]] += 1
                    elif pot.pot != "final":
                        won_main.update(pot.winners)
                for s in won_main:
                    res.wins[pos[lineup[s]]] += 1
        for i in range(k):
            res.net[i] += dnet[i]
            res.seat_hands[i] += dhands[i]
        res.deal_net.append(tuple(dnet))
        res.deal_hands.append(tuple(dhands))
    res.times = times
    return res


# --------------------------------------------------------------------------------------------
# Backends
# --------------------------------------------------------------------------------------------


class Backend(Protocol):
    """Maps :func:`run_chunk` over chunk indices; may yield results in any order."""

    def map(self, spec: SimSpec, indices: Sequence[int]) -> Iterable[ChunkResult]: ...


class SerialBackend:
    """Runs every chunk in this process."""

    def map(self, spec: SimSpec, indices: Sequence[int]) -> Iterator[ChunkResult]:
        for i in indices:
            yield run_chunk(spec, i)


class ProcessBackend:
    """Runs chunks on a local process pool (``workers`` processes, default: every core).
    ``setup``: a picklable callable each worker runs first (registering bots the parent
    registered, such as the lab's: ``setup=sabacc.lab.load``)."""

    def __init__(
        self,
        workers: int | None = None,
        start_method: str | None = None,
        setup: Callable[[], None] | None = None,
    ) -> None:
        self.workers = workers or os.cpu_count() or 1
        self.setup = setup
        # forkserver (where available) by default: workers never inherit the parent's threads
        # (a progress bar's refresh thread, for one), which plain fork does.
        if start_method is None and "forkserver" in multiprocessing.get_all_start_methods():
            start_method = "forkserver"
        self.start_method = start_method

    def map(self, spec: SimSpec, indices: Sequence[int]) -> Iterator[ChunkResult]:
        context = multiprocessing.get_context(self.start_method) if self.start_method else None
        with ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=self.setup
        ) as pool:
            futures = [pool.submit(run_chunk, spec, i) for i in indices]
            for future in as_completed(futures):
                yield future.result()


def default_backend(workers: int | None) -> Backend:
    workers = workers or os.cpu_count() or 1
    return SerialBackend() if workers <= 1 else ProcessBackend(workers)


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass
class BotStats:
    """One bot's line of the results table."""

    name: str
    hands: int
    net: int
    per_hand: float
    ci95: tuple[float, float]
    win_rate: float
    sabacc_wins: int
    decisions: int
    decision_ms: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "hands": self.hands,
            "net": self.net,
            "per_hand": self.per_hand,
            "ci95": [self.ci95[0], self.ci95[1]],
            "win_rate": self.win_rate,
            "sabacc_wins": self.sabacc_wins,
            "decisions": self.decisions,
            "decision_ms": dict(self.decision_ms),
        }


@dataclass
class SimResult:
    """Merged results of a simulation (chunks merged in chunk order)."""

    spec: SimSpec
    chunks: list[ChunkResult]
    seconds: float = 0.0
    workers: int = 1

    @property
    def names(self) -> tuple[str, ...]:
        return self.spec.names

    @property
    def hands(self) -> int:
        return sum(c.hands for c in self.chunks)

    def _sum(self, attr: str) -> list[int]:
        k = len(self.names)
        out = [0] * k
        for c in self.chunks:
            values = getattr(c, attr)
            for i in range(k):
                out[i] += values[i]
        return out

    def deal_series(self) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        nets: list[tuple[int, ...]] = []
        hands: list[tuple[int, ...]] = []
        for c in self.chunks:
            nets.extend(c.deal_net)
            hands.extend(c.deal_hands)
        return nets, hands

    def totals(self) -> tuple[Any, ...]:
        """Everything deterministic, for reproducibility checks."""
        return tuple(c.totals() for c in self.chunks)

    def stats(self) -> list[BotStats]:
        net = self._sum("net")
        seat_hands = self._sum("seat_hands")
        wins = self._sum("wins")
        sabacc = self._sum("sabacc_wins")
        nets, hands = self.deal_series()
        out = []
        for i, name in enumerate(self.names):
            xs = [d[i] for d in nets]
            ns = [h[i] for h in hands]
            per_hand, lo, hi = ratio_ci(xs, ns)
            times: list[float] = []
            for c in self.chunks:
                times.extend(c.times.get(name, ()))
            out.append(
                BotStats(
                    name=name,
                    hands=seat_hands[i],
                    net=net[i],
                    per_hand=per_hand,
                    ci95=(lo, hi),
                    win_rate=wins[i] / seat_hands[i] if seat_hands[i] else 0.0,
                    sabacc_wins=sabacc[i],
                    decisions=len(times),
                    decision_ms=timing_summary(times),
                )
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        spec = self.spec
        return {
            "variant": spec.variant,
            "hands": self.hands,
            "players": spec.players,
            "lineup": list(spec.bots),
            "seed": spec.seed,
            "options": dict(spec.options),
            "game_hands": spec.game_hands,
            "duplicate": spec.duplicate,
            "deals": spec.deals,
            "workers": self.workers,
            "seconds": self.seconds,
            "hands_per_second": self.hands / self.seconds if self.seconds else None,
            "bots": [s.to_dict() for s in self.stats()],
        }


def ratio_ci(xs: Sequence[float], ns: Sequence[int]) -> tuple[float, float, float]:
    """Credits per hand (sum x / sum n) and its 95% interval over independent deals.

    The interval is the delta-method (ratio estimator) interval; with equal ``n`` per deal it is
    the usual mean +- 1.96 standard errors of the per-deal averages.
    """
    total_n = sum(ns)
    if not total_n:
        return 0.0, 0.0, 0.0
    r = sum(xs) / total_n
    m = len(xs)
    if m < 2:
        return r, r, r
    mean_n = total_n / m
    resid = [x - r * n for x, n in zip(xs, ns, strict=True)]
    var = sum(e * e for e in resid) / (m - 1)
    se = math.sqrt(var / m) / mean_n
    return r, r - Z95 * se, r + Z95 * se


def timing_summary(seconds: Sequence[float]) -> dict[str, float]:
    """Median and 95th percentile of decision times, in milliseconds."""
    if not seconds:
        return {"median": 0.0, "p95": 0.0}
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"median": statistics.median(ordered) * 1000.0, "p95": p95 * 1000.0}


def simulate(
    spec: SimSpec,
    workers: int | None = None,
    *,
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Run a whole simulation; ``progress(hands)`` is called as each chunk completes."""
    workers = workers or os.cpu_count() or 1
    backend = backend or default_backend(workers)
    start = time.perf_counter()
    results: dict[int, ChunkResult] = {}
    for res in backend.map(spec, range(spec.chunks)):
        results[res.index] = res
        if progress is not None:
            progress(res.hands)
    missing = set(range(spec.chunks)) - set(results)
    if missing:  # pragma: no cover - a backend that lost chunks
        raise RuntimeError(f"the backend returned no result for chunks {sorted(missing)}")
    seconds = time.perf_counter() - start
    return SimResult(spec, [results[i] for i in range(spec.chunks)], seconds, workers)


def plot_cumulative(result: SimResult, path: str) -> None:
    """Save a chart of each bot's cumulative credits over the hands played (PNG, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    nets, _ = result.deal_series()
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    table_hands = 0
    xs: list[int] = []
    per_deal = result.spec.hands_per_deal
    for _ in nets:
        table_hands += per_deal
        xs.append(table_hands)
    for i, name in enumerate(result.names):
        total = 0
        ys = []
        for d in nets:
            total += d[i]
            ys.append(total)
        ax.plot(xs, ys, label=name)
    ax.axhline(0, color="grey", linewidth=0.8)
    spec = result.spec
    ax.set_title(f"{spec.variant}: {spec.players} seats, {result.hands} hands, seed {spec.seed}")
    ax.set_xlabel("hands")
    ax.set_ylabel("cumulative credits")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
