"""Proof of strength: the bots' results matrix, decision times and the simulation speed-up.

Runs, on Corellian Spike (``--variant`` another, e.g. ``kessel``: a hand is then a round) with
duplicate deals and seat rotation (see docs/bots.md):

* heads-up: ``ismcts:B`` vs ``heuristic`` and ``heuristic`` vs ``random``;
* 4 players: ``ismcts:B`` vs three ``heuristic``, and ``heuristic`` vs three ``random``;
* the simulation speed-up: the same ``ismcts:B`` vs ``heuristic`` spec on 1 and on N workers;
* the decision time of the default ``ismcts`` (``sabacc play``'s opponent), one core.

Writes ``benchmarks/results/bench_bots.json`` and ``bench_bots.md`` and prints the tables.

    python benchmarks/bench_bots.py                      # the full proof (20,000 hands each)
    python benchmarks/bench_bots.py --hands 2000 --quick # a quick look
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sabacc.lab
from sabacc.services.bots import decide, make_bot
from sabacc.services.sim import (
    Backend,
    ProcessBackend,
    SerialBackend,
    SimSpec,
    simulate,
    timing_summary,
)

RESULTS = Path(__file__).resolve().parent / "results"


def backend(workers: int) -> Backend:
    """This process for one worker, else a pool whose workers register the lab's bots."""
    return SerialBackend() if workers <= 1 else ProcessBackend(workers, setup=sabacc.lab.load)


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def run_match(
    name: str,
    bots: tuple[str, ...],
    hands: int,
    seed: int,
    workers: int,
    variant: str = "corellian_spike",
    game_hands: int = 1,
) -> dict[str, Any]:
    spec = SimSpec(variant, bots, hands, seed, game_hands=game_hands)
    log(
        f"{name}: {', '.join(bots)}, {spec.deals * spec.hands_per_deal} hands "
        f"({game_hands} a game) ..."
    )
    cpu0 = os.times()
    result = simulate(spec, workers, backend=backend(workers))
    cpu1 = os.times()
    data = result.to_dict()
    data["match"] = name
    data["deal_score"] = deal_score(result)
    data["cpu_seconds"] = (cpu1.children_user + cpu1.children_system + cpu1.user + cpu1.system) - (
        cpu0.children_user + cpu0.children_system + cpu0.user + cpu0.system
    )
    for b in data["bots"]:
        log(
            f"  {b['name']:<12} per hand {b['per_hand']:+.3f} "
            f"[{b['ci95'][0]:+.3f}, {b['ci95'][1]:+.3f}]  win {b['win_rate']:.1%}  "
            f"dec {b['decision_ms']['median']:.2f}/{b['decision_ms']['p95']:.2f} ms"
        )
    log(f"  {data['seconds']:.0f}s wall, {data['hands_per_second']:.1f} hands/s")
    return data


def deal_score(result: Any) -> float:
    """The first bot's share of deals it finished ahead on (a tie counts half): over one
    duplicate deal (the same cards from every seat), the chance it beats the rest of the table."""
    nets, _hands = result.deal_series()
    if not nets:
        return 0.5
    return sum(1.0 if d[0] > 0 else 0.5 if d[0] == 0 else 0.0 for d in nets) / len(nets)


#: The opponents of the matrix: every bot we had before the candidate, then the reference
#: opponents written from public strategy descriptions (sabacc.lab.reference).
EXISTING = ("random", "heuristic", "sharp", "ismcts:32", "ismcts:800")
REFERENCE_OPPONENTS = (
    "ref-zero",
    "ref-minimizer",
    "ref-potodds",
    "ref-station",
    "ref-maniac",
    "ref-tight",
    "ref-rule",
    "ref-shover",
)


def slow_search(bot: str) -> bool:
    """Whether ``bot`` searches with a large budget (``ismcts`` above 64 playouts)."""
    return bot.startswith("ismcts") and int(bot.partition(":")[2] or 800) > 64


def matrix_hands(opponent: str, players: int, hands: int, search_hands: int | None = None) -> int:
    """Hands for one pairing: searchers are slow, so their 4-player pairings (three searchers
    at the table), and ``ismcts:800``'s, get fewer hands (the interval says how many were
    enough). ``search_hands``, when given, is the number for every pairing with a slow
    searcher (``--search-hands``: a quiet machine can afford full samples)."""
    if search_hands is not None and slow_search(opponent):
        return max(players * 10, search_hands)
    if opponent.startswith("ismcts"):
        share = 0.15 if slow_search(opponent) else 1.0
        hands = int(hands * share / (2.5 if players > 2 else 1))
    return max(players * 10, hands)


def run_matrix(
    candidate: str,
    hands: int,
    seed: int,
    workers: int,
    variant: str,
    save: Callable[[list[dict[str, Any]]], None] | None = None,
    opponents: set[str] | None = None,
    tables: set[int] | None = None,
    game_hands: int = 1,
    search_hands: int | None = None,
    earlier: list[dict[str, Any]] | None = None,
    pairing_hands: dict[str, int] | None = None,
) -> list[dict[str, Any]]:
    """The candidate against every opponent (or only ``opponents``, at only ``tables`` seat
    counts), heads-up and one against three. Played cheapest first, ``save(results so far)``
    after each pairing (a long run interrupted keeps what it measured); each pairing's seed
    depends only on its place in the table. A pairing in ``earlier`` (a report's matrix,
    ``--matrix-from``) with the same line-up, seed, game length and number of deals is taken
    from it, not played again: the same deals and bot seeds give the same result.
    ``pairing_hands`` (``--pairing-hands``) sets one pairing's hands, keyed ``OPPONENT@SEATS``
    (``ismcts:32@4``): a pairing whose interval is wide gets a larger sample alone."""
    plan: list[tuple[float, int, int, str, int, str, int]] = []
    for players, table in ((2, "heads-up"), (4, "4 players")):
        if tables and players not in tables:
            continue
        for i, opponent in enumerate(EXISTING + REFERENCE_OPPONENTS):
            if opponents and opponent not in opponents:
                continue
            n = matrix_hands(opponent, players, hands, search_hands)
            n = (pairing_hands or {}).get(f"{opponent}@{players}", n)
            cost = n * (players - 1) * _decision_cost(opponent)
            plan.append((cost, len(plan), players, table, i, opponent, n))
    done: dict[int, dict[str, Any]] = {}
    for _cost, place, players, table, i, opponent, n in sorted(plan):
        lineup = (candidate,) + (opponent,) * (players - 1)
        pairing_seed = seed + 100 * players + i
        spec = SimSpec(variant, lineup, n, pairing_seed, game_hands=game_hands)
        same = [
            m
            for m in earlier or []
            if m["lineup"] == list(lineup)
            and m["seed"] == pairing_seed
            and m["variant"] == variant
            and m.get("game_hands", 1) == game_hands
            and m["deals"] == spec.deals
        ]
        if same:
            log(f"{table}: {', '.join(lineup)}, {same[0]['hands']} hands: from --matrix-from")
            data = dict(same[0])
        else:
            data = run_match(table, lineup, n, pairing_seed, workers, variant, game_hands)
        data["opponent"] = opponent
        done[place] = data
        if save is not None:
            save([done[k] for k in sorted(done)])
    return [done[k] for k in sorted(done)]


def _decision_cost(bot: str) -> float:
    """Rough milliseconds per decision, to play cheap pairings first."""
    if bot.startswith("ismcts"):
        return 0.03 * int(bot.partition(":")[2] or 800)
    return 0.1


def run_ladder(
    hands: int,
    seed: int,
    workers: int,
    variant: str,
    matrix: list[dict[str, Any]] | None = None,
    only: set[str] | None = None,
    earlier: list[dict[str, Any]] | None = None,
    game_hands: int = 1,
    search_hands: int | None = None,
    pairing_hands: dict[str, int] | None = None,
) -> list[dict[str, Any]]:
    """Each pair of adjacent difficulty levels, heads-up (the harder level first). A pairing
    the matrix (or an ``earlier`` ladder) already played heads-up is taken from it; searchers
    get fewer hands (``search_hands`` for a step with a slow searcher, when given).
    ``pairing_hands`` keyed by the harder level's name sets that step's hands; such a step is
    reused only from a run of the same deals."""
    from sabacc.services.bots.levels import LEVELS

    levels = list(LEVELS.values())
    out = []
    for i, (low, high) in enumerate(itertools.pairwise(levels)):
        if only and high.name not in only:
            continue
        lineup = (high.bot, low.bot)
        step_seed = seed + 500 + i
        searchers = sum(1 for b in lineup if b.startswith("ismcts"))
        n = hands // (1 if searchers == 0 else 2 if searchers == 1 else 8)
        if search_hands is not None and any(slow_search(b) for b in lineup):
            n = search_hands
        fixed = high.name in (pairing_hands or {})
        if fixed:
            n = (pairing_hands or {})[high.name]
        deals = SimSpec(variant, lineup, n, step_seed, game_hands=game_hands).deals
        done = [
            m
            for m in [*(matrix or []), *(earlier or [])]
            if tuple(m["lineup"]) == lineup
            and m["players"] == 2
            and m.get("deal_score")
            and m.get("game_hands", 1) == game_hands
            and (not fixed or (m["deals"] == deals and m["seed"] == step_seed))
        ]
        if done:
            data = dict(done[0])
        else:
            data = run_match("heads-up", lineup, n, step_seed, workers, variant, game_hands)
        data["match"] = f"{high.name} vs {low.name}"
        data["levels"] = [high.name, low.name]
        out.append(data)
    return out


def speedup(
    bots: tuple[str, ...],
    hands: int,
    seed: int,
    workers: int,
    repeats: int = 3,
    variant: str = "corellian_spike",
) -> dict[str, Any]:
    """Hands per second on 1 worker and on ``workers``, best of ``repeats`` alternated runs
    (the machine is shared: the best run is the least disturbed one)."""
    spec = SimSpec(variant, bots, hands, seed)
    log(f"speed-up: {', '.join(bots)}, {hands} hands on 1 and {workers} workers ...")
    rates: dict[int, list[float]] = {1: [], workers: []}
    totals = set()
    for _ in range(repeats):
        for w in (1, workers):
            # Both worker counts run in a fresh process pool started the same way (cold caches
            # alike), so the 1-worker run is not favoured by running in this process.
            result = simulate(spec, w, backend=ProcessBackend(w, setup=sabacc.lab.load))
            totals.add(result.totals())
            rates[w].append(result.hands / result.seconds)
            log(f"  {w} worker(s): {rates[w][-1]:.2f} hands/s")
    assert len(totals) == 1, "totals differ between worker counts"
    rate1 = max(rates[1])
    rate_n = max(rates[workers])
    log(
        f"  best: 1 worker {rate1:.2f} hands/s, {workers} workers {rate_n:.2f} hands/s: "
        f"x{rate_n / rate1:.2f} (identical totals)"
    )
    return {
        "bots": list(bots),
        "hands": spec.deals * spec.hands_per_deal,
        "workers": workers,
        "repeats": repeats,
        "rates_1": rates[1],
        "rates_n": rates[workers],
        "hands_per_second_1": rate1,
        "hands_per_second_n": rate_n,
        "speedup": rate_n / rate1,
        "identical_totals": True,
        "load_average": list(os.getloadavg()),
    }


def default_bot_times(decisions: int, seed: int, variant: str = "spike") -> dict[str, Any]:
    """Decision times of the default ``ismcts`` (sabacc play's opponent) in 2- and 4-seat games."""
    import sabacc

    out: dict[str, Any] = {}
    for players in (2, 4):
        times: list[float] = []
        rng = random.Random(seed + players)
        while len(times) < decisions:
            game = sabacc.new_game(
                variant,
                players=players,
                seed=rng.randrange(10**9),
                log=False,
                game_end="hands:1",
            )
            bots = [make_bot("ismcts", rng.randrange(10**9)) for _ in range(players)]
            while not game.is_over and len(times) < decisions:
                seat = game.current_player
                assert seat is not None
                t0 = time.perf_counter()
                action = decide(bots[seat], game, seat)
                if len(game.legal_actions()) > 1:
                    times.append(time.perf_counter() - t0)
                game.apply(action)
        summary = timing_summary(times)
        summary["max"] = max(times) * 1000.0
        summary["mean"] = statistics.fmean(times) * 1000.0
        out[f"{players}p"] = summary
        log(
            f"default ismcts, {players} seats: median {summary['median']:.0f} ms, "
            f"p95 {summary['p95']:.0f} ms, max {summary['max']:.0f} ms"
        )
    return out


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"# Bot benchmark ({report.get('variant', 'corellian_spike')})",
        "",
        f"Command: `{report['command']}`  ",
        *[f"Then: `{c}`  " for c in dict.fromkeys(report.get("commands", [])[1:])],
        f"Machine: {report['machine']}; {report['date']}; load average at start "
        f"{report['load_average_start'][0]:.1f}, at end "
        f"{report.get('load_average_end', [0.0])[0]:.1f} "
        "(the machine is shared: wall-clock times include other users' load)",
        "",
        "| match | bot | hands | credits/hand | 95% CI | win rate | sabacc pots | "
        "decision median / p95 (ms) |",
        "|---|---|---:|---:|---|---:|---:|---|",
    ]
    for m in report["matches"]:
        for b in m["bots"]:
            lines.append(
                f"| {m['match']} | {b['name']} | {b['hands']} | {b['per_hand']:+.3f} | "
                f"[{b['ci95'][0]:+.3f}, {b['ci95'][1]:+.3f}] | {b['win_rate']:.1%} | "
                f"{b['sabacc_wins']} | {b['decision_ms']['median']:.2f} / "
                f"{b['decision_ms']['p95']:.2f} |"
            )
    matrix = report.get("matrix") or []
    if matrix:
        cand = matrix[0]["lineup"][0]
        lines += [
            "",
            f"## `{cand}` against every bot and every reference opponent",
            "",
            f"Credits per hand of `{cand}` (95% CI over duplicate deals), the share of deals it "
            "finished ahead on, and its decision time (wall clock, median / p95 ms).",
            "",
            "| table | opponent | hands | credits/hand | 95% CI | significant | deals ahead | "
            f"`{cand}` ms median / p95 | opponent ms median / p95 |",
            "|---|---|---:|---:|---|---|---:|---|---|",
        ]
        for m in matrix:
            me, other = m["bots"][0], m["bots"][1]
            lo, hi = me["ci95"]
            sig = "yes" if lo > 0 else "no (loses)" if hi < 0 else "no"
            lines.append(
                f"| {m['match']} | {m['opponent']} | {me['hands']} | {me['per_hand']:+.3f} | "
                f"[{lo:+.3f}, {hi:+.3f}] | {sig} | {m['deal_score']:.1%} | "
                f"{me['decision_ms']['median']:.2f} / {me['decision_ms']['p95']:.2f} | "
                f"{other['decision_ms']['median']:.2f} / {other['decision_ms']['p95']:.2f} |"
            )
    ladder = report.get("ladder") or []
    if ladder:
        lines += [
            "",
            "## The difficulty ladder (adjacent levels, heads-up)",
            "",
            "| match | line-up | hands | credits/hand of the harder level | 95% CI | deals ahead |",
            "|---|---|---:|---:|---|---:|",
        ]
        for m in ladder:
            me = m["bots"][0]
            lines.append(
                f"| {m['match']} | {' vs '.join(m['lineup'])} | {me['hands']} | "
                f"{me['per_hand']:+.3f} | [{me['ci95'][0]:+.3f}, {me['ci95'][1]:+.3f}] | "
                f"{m['deal_score']:.1%} |"
            )
    lines += ["", "| match | line-up | wall s | CPU s |", "|---|---|---:|---:|"]
    cpu = 0.0
    for m in report["matches"] + matrix + ladder:
        cpu += m.get("cpu_seconds", 0.0)
        lines.append(
            f"| {m['match']} | {', '.join(m['lineup'])} | {m['seconds']:.0f} | "
            f"{m.get('cpu_seconds', 0.0):.0f} |"
        )
    lines.append(f"\nMatches: {cpu:.0f} CPU seconds ({cpu / 120:.1f} minutes of 2-core time).")
    s = report.get("speedup")
    if s:
        lines += [
            "",
            f"Simulation speed-up ({', '.join(s['bots'])}, {s['hands']} hands, best of "
            f"{s.get('repeats', 1)} alternated runs): {s['hands_per_second_1']:.2f} hands/s on "
            f"1 worker, {s['hands_per_second_n']:.2f} on {s['workers']}: "
            f"**x{s['speedup']:.2f}**, identical totals.",
        ]
    d = report.get("default_ismcts")
    if d:
        lines += ["", "Default `ismcts` (the `sabacc play` opponent) decision time, one core:"]
        for k, v in d.items():
            lines.append(
                f"- {k}: median {v['median']:.0f} ms, p95 {v['p95']:.0f} ms, max {v['max']:.0f} ms"
            )
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands per match")
    parser.add_argument("--budget", default="32", help="ismcts playouts per decision")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--speedup-hands", type=int, default=400)
    parser.add_argument("--timing-decisions", type=int, default=120)
    parser.add_argument("--quick", action="store_true", help="skip the speed-up and timing runs")
    parser.add_argument("--candidate", default="sharp", help="the bot of the matrix")
    parser.add_argument(
        "--matrix-hands",
        type=int,
        default=2000,
        help="hands per matrix pairing (searching opponents get a quarter to a half)",
    )
    parser.add_argument(
        "--opponents", default="", help="only these matrix opponents (comma-separated)"
    )
    parser.add_argument(
        "--tables", default="", help="only these matrix table sizes (comma-separated: 2,4)"
    )
    parser.add_argument("--ladder-hands", type=int, default=2000, help="hands per ladder step")
    parser.add_argument(
        "--search-hands",
        type=int,
        default=None,
        help="hands for every matrix pairing and ladder step with a slow searcher "
        "(ismcts above 64 playouts); default: a share of --matrix-hands / --ladder-hands",
    )
    parser.add_argument(
        "--matrix-from",
        default="",
        help="a report (JSON) whose matrix pairings are reused where the same pairing would "
        "be played again (same line-up, seed, game length and deals)",
    )
    parser.add_argument(
        "--pairing-hands",
        default="",
        help="hands for single pairings, comma-separated KEY=N: OPPONENT@SEATS for a matrix "
        "pairing (ismcts:32@4=20000), a level's name for its ladder step (hard=12000)",
    )
    parser.add_argument(
        "--ladder-from",
        default="",
        help="a report (JSON) whose ladder steps are reused instead of played again",
    )
    parser.add_argument(
        "--ladder-steps",
        default="",
        help="only these ladder steps, by the harder level's name (comma-separated)",
    )
    parser.add_argument(
        "--parts",
        default="matches,speedup,timing",
        help="what to run, comma-separated, of matches, speedup, timing, matrix, ladder; "
        "parts not run are kept from an earlier report",
    )
    parser.add_argument(
        "--game-hands",
        type=int,
        default=1,
        help="hands per game in the matrix and the ladder (the bots keep what they learnt "
        "across a game's hands; the interval is over games)",
    )
    parser.add_argument("--out", default=str(RESULTS / "bench_bots"))
    parser.add_argument(
        "--variant", default="corellian_spike", help="the variant played (default: Spike)"
    )
    args = parser.parse_args(argv)
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    pairing_hands: dict[str, int] = {}
    for item in filter(None, (x.strip() for x in args.pairing_hands.split(","))):
        key, sep, value = item.rpartition("=")
        if not sep or not key or not value.isdigit():
            parser.error(f"--pairing-hands: {item!r} is not KEY=N")
        pairing_hands[key] = int(value)
    if args.quick:
        parts -= {"speedup", "timing"}

    import sabacc

    sabacc.variant_names()  # import every module now: workers fork from this state
    search = f"ismcts:{args.budget}"
    out = Path(args.out)
    command = "python " + " ".join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])])
    report: dict[str, Any] = {}
    if (
        parts != {"matches", "speedup", "timing", "matrix", "ladder"}
        and out.with_suffix(".json").exists()
    ):
        report = json.loads(out.with_suffix(".json").read_text())
        report.setdefault("commands", [report.get("command", "")]).append(command)
    else:
        report = {
            "command": command,
            "machine": f"{platform.platform()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}",
            "date": time.strftime("%Y-%m-%d %H:%M"),
            "load_average_start": list(os.getloadavg()),
            "variant": args.variant,
            "matches": [],
        }
    started = time.perf_counter()
    plan = [
        ("heads-up", (search, "heuristic")),
        ("heads-up", ("heuristic", "random")),
        ("4 players", (search, "heuristic", "heuristic", "heuristic")),
        ("4 players", ("heuristic", "random", "random", "random")),
    ]
    if "matches" in parts:
        report["matches"] = [
            run_match(name, bots, args.hands, args.seed + i, args.workers, args.variant)
            for i, (name, bots) in enumerate(plan)
        ]
    if "speedup" in parts:
        report["speedup"] = speedup(
            (search, "heuristic"),
            args.speedup_hands,
            args.seed + 10,
            args.workers,
            variant=args.variant,
        )
    if "timing" in parts:
        report["default_ismcts"] = default_bot_times(args.timing_decisions, args.seed, args.variant)

    def save(key: str) -> Callable[[list[dict[str, Any]]], None]:
        def write(results: list[dict[str, Any]]) -> None:
            report[key] = results
            out.parent.mkdir(parents=True, exist_ok=True)
            out.with_suffix(".json").write_text(json.dumps(report, indent=1))
            out.with_suffix(".md").write_text(markdown(report))

        return write

    if "matrix" in parts:
        report["matrix"] = run_matrix(
            args.candidate,
            args.matrix_hands,
            args.seed,
            args.workers,
            args.variant,
            save("matrix"),
            {x.strip() for x in args.opponents.split(",") if x.strip()} or None,
            {int(x) for x in args.tables.split(",") if x.strip()} or None,
            args.game_hands,
            args.search_hands,
            json.loads(Path(args.matrix_from).read_text()).get("matrix", [])
            if args.matrix_from
            else None,
            pairing_hands,
        )
    if "ladder" in parts:
        steps = {x.strip() for x in args.ladder_steps.split(",") if x.strip()} or None
        earlier = (
            json.loads(Path(args.ladder_from).read_text()).get("ladder", [])
            if args.ladder_from
            else None
        )
        report["ladder"] = run_ladder(
            args.ladder_hands,
            args.seed,
            args.workers,
            args.variant,
            report.get("matrix"),
            steps,
            earlier,
            args.game_hands,
            args.search_hands,
            pairing_hands,
        )
    if "matches" in parts:
        report["total_seconds"] = time.perf_counter() - started
        report["load_average_end"] = list(os.getloadavg())
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(report, indent=1))
    out.with_suffix(".md").write_text(markdown(report))
    print(markdown(report))
    log(f"done in {time.perf_counter() - started:.0f}s; results in {out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
