"""``sabacc tournament simulate``: whole events of bots, and the structure simulator.

:func:`simulate_event` plays one event of bots (a pure function of its :class:`EventSpec`
and seed: same seed, same log) and reports every player's place, points and bust hand, the
event's length in event hands and levels, and the tables' history (moves, breaks, the final
redraw). :func:`structure_report` plays many seeds (in this process, a local process pool or
Ray) and predicts an event's length and its bust curve for a schedule.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sabacc.services.tournament.config import FREEZEOUTS, EventConfig
from sabacc.services.tournament.director import Director
from sabacc.services.tournament.runner import Players, run_freezeout, run_series
from sabacc.services.tournament.series import SeriesDirector

#: The director events that make up the tables' history.
TABLE_EVENTS = ("started", "moved", "table_opened", "table_closed", "redraw", "round")


@dataclass(frozen=True)
class EventSpec:
    """A bots-only event to simulate: its settings and line-up (bot levels cycled over
    ``players``). Picklable: the whole input of :func:`simulate_event` with a seed."""

    config: EventConfig
    players: int
    bots: tuple[str, ...] = ("easy",)
    engine: str = "auto"
    rebuy: bool = True  # bots rebuy and take the add-on whenever offered
    extra: Mapping[str, Any] = field(default_factory=dict)

    def lineup(self) -> list[tuple[str, str]]:
        """(name, level) per player: ``Bot 1``, ``Bot 2``..."""
        return [(f"Bot {i + 1}", self.bots[i % len(self.bots)]) for i in range(self.players)]


def new_director(spec: EventSpec, seed: int) -> Director | SeriesDirector:
    """The event's director with every bot registered and the event started."""
    config = spec.config
    if config.format in ("sng", "cantina") and config.seats is None:
        from dataclasses import replace

        config = replace(config, seats=spec.players)
    director: Director | SeriesDirector
    if config.format in FREEZEOUTS:
        director = Director(config, seed)
    else:
        director = SeriesDirector(config, seed)
    for name, level in spec.lineup():
        director.register(name, bot=level)
    if not director.state.started:
        director.start()
    return director


def simulate_event(spec: EventSpec, seed: int) -> dict[str, Any]:
    """Play one event of bots to its end; its report (see the module docstring)."""
    t0 = time.perf_counter()
    director = new_director(spec, seed)
    levels = {p: info["bot"] for p, info in director.state.players.items()}
    players = Players(seed, levels)
    if isinstance(director, Director):
        yes: Callable[[str], bool] | None = (lambda entry: True) if spec.rebuy else None
        run_freezeout(director, players, rebuy=yes, add_on=yes)
        hands = director.state.tick
        table_hands = sum(1 for e in director.events if e["type"] == "hand")
    else:
        run_series(director, players, spec.engine)
        table_hands = sum(g["hands"] for g in director.state.games)
        hands = _series_length(director)
    seconds = time.perf_counter() - t0
    state = director.state
    return {
        "seed": seed,
        "format": director.config.format,
        "variant": director.config.variant,
        "players": spec.players,
        "standings": [row.to_dict() for row in director.standings()],
        "hands": hands,
        "table_hands": table_hands,
        "levels": state.level + 1 if isinstance(director, Director) else _series_levels(director),
        "tables": [e for e in director.events if e["type"] in TABLE_EVENTS],
        "busts": [
            {"entry": b["entry"], "hand": b["tick"], "level": _level_at(director, b["tick"])}
            for b in state.busts
        ],
        "counts": getattr(director, "counts", True),
        "charity": director.config.charity,
        "seconds": round(seconds, 3),
        "log": director.events,
    }


def _series_length(director: SeriesDirector) -> int:
    """A series' length in event hands: an Arena's clock, a Swiss event's rounds each as long
    as its longest game."""
    if director.config.format == "arena":
        return director.clock_hands
    total = 0
    for r in director.state.rounds:
        tables = {int(t) for t in r["tables"]}
        total += max((g["hands"] for g in director.state.games if g["table"] in tables), default=0)
    return total


def _series_levels(director: SeriesDirector) -> int:
    return max((r["level"] for r in director.state.rounds), default=0) + 1


def _level_at(director: Director | SeriesDirector, tick: int) -> int:
    schedule = director.config.schedule
    assert schedule is not None
    return schedule.level_at(max(0, tick - 1)) + 1


# -------------------------------------------------------------------- many seeds
def _quantiles(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        return float(ordered[min(len(ordered) - 1, math.floor(q * len(ordered)))])

    return {
        "mean": round(statistics.fmean(ordered), 2),
        "p10": at(0.1),
        "median": at(0.5),
        "p90": at(0.9),
        "max": float(ordered[-1]),
    }


def _one(args: tuple[EventSpec, int]) -> dict[str, Any]:
    report = simulate_event(*args)
    report.pop("log")
    return report


def run_seeds(
    spec: EventSpec,
    seeds: Sequence[int],
    workers: int = 1,
    ray_address: str | None = None,
    use_ray: bool = False,
    progress: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """Each seed's report (without its log), in seed order: in this process, on
    ``workers`` local processes, or as Ray tasks (``use_ray``; ``ray_address`` or a local Ray
    instance)."""
    jobs = [(spec, seed) for seed in seeds]
    out: list[dict[str, Any]] = []
    if use_ray:
        try:
            import ray
        except ImportError as exc:  # pragma: no cover - exercised without the extra
            from sabacc.core.errors import OptionError

            raise OptionError('--ray needs Ray: pip install "sabacc[ray]"') from exc
        started = not ray.is_initialized()
        if started:
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if ray_address is not None:
                options["address"] = ray_address
            else:
                options["num_cpus"] = workers
            ray.init(**options)
        try:
            task = ray.remote(_one)
            refs = [task.remote(job) for job in jobs]
            for ref in refs:
                out.append(ray.get(ref))
                if progress:
                    progress()
        finally:
            if started:
                ray.shutdown()
        return out
    if workers <= 1 or len(jobs) == 1:
        for job in jobs:
            out.append(_one(job))
            if progress:
                progress()
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for report in pool.map(_one, jobs):
            out.append(report)
            if progress:
                progress()
    return out


def structure_report(reports: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The structure simulator's summary of many seeds: the event's length (event hands and
    levels: mean, p10, median, p90, max), the bust curve (the share of entries out by the end
    of each level, averaged) and each bot level's mean points and place."""
    reports = list(reports)
    lengths = [r["hands"] for r in reports]
    levels = [r["levels"] for r in reports]
    top = max(levels)
    curve = []
    for level in range(1, top + 1):
        shares = []
        for r in reports:
            entries = max(1, len(r["busts"]) + sum(1 for row in r["standings"] if row["chips"]))
            shares.append(sum(1 for b in r["busts"] if b["level"] <= level) / entries)
        curve.append({"level": level, "busted": round(statistics.fmean(shares), 3)})
    by_bot: dict[str, list[tuple[float, int]]] = {}
    for r in reports:
        for row in r["standings"]:
            by_bot.setdefault(row["bot"] or "human", []).append((row["points"], row["place"]))
    bots = {
        bot: {
            "points": round(statistics.fmean(p for p, _ in rows), 2),
            "place": round(statistics.fmean(q for _, q in rows), 2),
            "wins": sum(1 for _, q in rows if q == 1),
        }
        for bot, rows in sorted(by_bot.items())
    }
    seconds = sum(r["seconds"] for r in reports)
    table_hands = sum(r["table_hands"] for r in reports)
    return {
        "events": len(reports),
        "hands": _quantiles(lengths),
        "levels": _quantiles(levels),
        "bust_curve": curve,
        "bots": bots,
        "table_hands": table_hands,
        "seconds": round(seconds, 2),
        "hands_per_second": round(table_hands / seconds, 1) if seconds else 0.0,
    }


def default_workers() -> int:
    return os.cpu_count() or 1
