"""The bots' published strength tables, rendered from the committed benchmark report.

docs/bots.md shows the strongest bot against every bot and every reference opponent (the
matrix) and the difficulty ladder with each level's rating, between
``<!-- matrix:start -->`` / ``<!-- matrix:end -->`` and ``<!-- ladder:start -->`` /
``<!-- ladder:end -->``. Those tables are rendered here from
``benchmarks/results/bench_bots_expert.json`` (``python benchmarks/bench_bots.py --parts
matrix,ladder --candidate wily --game-hands 10 ...``: its command is in the report), so a
published figure is always a measured one; docs/community.md's table of the bots' fixed ratings
(``<!-- ratings:start -->``) comes from the levels' ratings the same way. A test checks them.

    PYTHONPATH=src python scripts/bot_tables.py            # print both tables
    PYTHONPATH=src python scripts/bot_tables.py --write    # docs/bots.md, docs/community.md
    PYTHONPATH=src python scripts/bot_tables.py --check    # exit 1 if a file differs
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "bench_bots_expert.json"
#: The pages showing the matrix and the ladder (the README links to docs/bots.md).
FILES = (ROOT / "docs" / "bots.md",)
#: docs/community.md shows the bots' fixed ratings on the players' scale (its own markers).
COMMUNITY = ROOT / "docs" / "community.md"
#: The marked tables each file carries.
MARKERS = {**{path: ("matrix", "ladder") for path in FILES}, COMMUNITY: ("ratings",)}


def _load_ratings() -> Any:
    """scripts/ratings.py (the ladder's table and ratings), which is not part of the package."""
    spec = importlib.util.spec_from_file_location("ratings", ROOT / "scripts" / "ratings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RATINGS = _load_ratings()


def _ms(d: dict[str, float]) -> str:
    def one(x: float) -> str:
        return f"{x:.2f}" if x < 10 else f"{x:.0f}"

    return f"{one(d['median'])} / {one(d['p95'])}"


def _level_names() -> dict[str, str]:
    """Bot spec -> its level's name (``ismcts:32`` -> ``normal``), for the opponent column."""
    try:
        from sabacc.services.bots.levels import LEVELS
    except ImportError:  # rendering needs no package; the names are a courtesy
        return {}
    return {lv.bot: lv.name for lv in LEVELS.values()}


def matrix_table(report: dict[str, Any]) -> str:
    """The candidate against every opponent, heads-up and one against three."""
    matrix = report["matrix"]
    cand = matrix[0]["lineup"][0]
    levels = _level_names()
    lines = [
        f"| table | `{cand}` against | hands | credits per hand (95% CI) | "
        f"{RATINGS.ahead_label(matrix)} | "
        f"`{cand}` ms median / p95 | opponent ms median / p95 |",
        "|---|---|---:|---|---:|---|---|",
    ]
    for m in matrix:
        me, other = m["bots"][0], m["bots"][1]
        lo, hi = me["ci95"]
        sig = "" if lo > 0 else " (loses)" if hi < 0 else " (n.s.)"
        level = f" ({levels[m['opponent']]})" if m["opponent"] in levels else ""
        lines.append(
            f"| {m['match']} | `{m['opponent']}`{level} | {me['hands']} | "
            f"{me['per_hand']:+.2f} [{lo:+.2f}, {hi:+.2f}]{sig} | {m['deal_score']:.0%} | "
            f"{_ms(me['decision_ms'])} | {_ms(other['decision_ms'])} |"
        )
    return "\n".join(lines)


def ladder_table(report: dict[str, Any]) -> str:
    """The levels, each against the one below heads-up, with the published ratings."""
    return str(RATINGS.table(report["ladder"]))


def community_table() -> str:
    """Each bot's fixed rating as the community ratings use it (``random`` and the levels),
    from ``LEVELS`` (which the levels test ties to the report's ladder)."""
    from sabacc.services.bots.levels import LEVELS
    from sabacc.services.community.ratings import bot_rating, display

    lines = ["| bot | published rating | mu | sigma |", "| --- | --- | --- | --- |"]
    for label, spec in [("`random`", "random")] + [
        (f"`{lv.name}` (`{lv.bot}`)", lv.name) for lv in LEVELS.values()
    ]:
        r = bot_rating(spec)
        lines.append(f"| {label} | {display(r)} | {r.mu:.2f} | {r.sigma:g} |")
    return "\n".join(lines)


def _replace(text: str, name: str, table: str) -> str:
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    pattern = re.compile(re.escape(start) + r"\n(?:.*?\n)?" + re.escape(end), re.S)
    return pattern.sub(lambda _: f"{start}\n{table}\n{end}", text)


def tables(report: dict[str, Any]) -> dict[str, str]:
    """Every marked table, by its marker's name."""
    return {
        "matrix": matrix_table(report),
        "ladder": ladder_table(report),
        "ratings": community_table(),
    }


def render(text: str, report: dict[str, Any], rendered: dict[str, str] | None = None) -> str:
    """``text`` with each of its marked tables replaced by the report's (``rendered``: the
    report's :func:`tables`, when already made)."""
    for name, table in (rendered or tables(report)).items():
        if f"<!-- {name}:start -->" in text:
            text = _replace(text, name, table)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", default=str(RESULTS))
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help="update the files' marked tables")
    what.add_argument("--check", action="store_true", help="exit 1 if they are not up to date")
    args = parser.parse_args(argv)
    report = json.loads(Path(args.results).read_text())
    if not (args.write or args.check):
        print(matrix_table(report), ladder_table(report), sep="\n\n")
        return 0
    stale = []
    rendered = tables(report)
    for path, markers in MARKERS.items():
        text = path.read_text()
        new = render(text, report, rendered)
        if any(f"<!-- {m}:start -->" not in text for m in markers):
            stale.append(f"{path.relative_to(ROOT)} (no markers)")
        elif new != text:
            if args.write:
                path.write_text(new)
            stale.append(str(path.relative_to(ROOT)))
    if args.check and stale:
        print("tables differ from the report in: " + ", ".join(stale))
        return 1
    print(("updated: " + ", ".join(stale)) if stale else "the tables match the report")
    return 0


if __name__ == "__main__":
    sys.exit(main())
