"""Rich output of ``sabacc tournament simulate`` (and the terminal events' standings)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from sabacc.services.tournament import EventConfig
from sabacc.services.tournament.text import Feed, say


def standings_table(rows: Sequence[Mapping[str, Any]], lang: str, title: str = "") -> Table:
    """The standings: place, player, bot level, points, bust hand or chips (entries if any
    re-entered; games and wins in a series)."""
    series = any("games" in r for r in rows)
    table = Table(box=box.SIMPLE_HEAD, title=title or None)
    cols = ["place", "player", "bot", "points"]
    cols += ["games", "wins"] if series else ["bust", "chips"]
    if any(r.get("entries", 1) > 1 for r in rows):
        cols.append("entries")
    for col in cols:
        table.add_column(
            say(f"tour.col.{col}", lang), justify="left" if col in ("player", "bot") else "right"
        )
    for r in rows:
        cells = {
            "place": str(r["place"]),
            "player": r["name"],
            "bot": r["bot"] or say("tour.human", lang),
            "points": f"{r['points']:g}",
            "games": str(r.get("games", "")),
            "wins": str(r.get("wins", "")),
            "bust": "" if r["bust_hand"] is None else str(r["bust_hand"]),
            "chips": "" if r["chips"] is None else str(r["chips"]),
            "entries": str(r.get("entries", 1)),
        }
        table.add_row(*(cells[c] for c in cols))
    return table


def print_event(
    config: EventConfig,
    report: Mapping[str, Any],
    lang: str,
    log: Sequence[Mapping[str, Any]] | None = None,
    console: Console | None = None,
) -> None:
    """One simulated event: its feed (if given), standings, length and tables' history."""
    console = console or Console()
    info = config.info
    if log is not None:
        feed = Feed(info, config.schedule, config.points, lang)
        for line in feed.read(log):
            console.print(line, highlight=False, markup=False)
    title = say(
        "tour.title",
        lang,
        format=say(f"tour.format.{config.format}", lang),
        variant=info.text.messages.get(lang, {}).get("title", info.title),
        players=report["players"],
        seed=report["seed"],
    )
    console.print(title, style="bold", highlight=False)
    console.print(standings_table(report["standings"], lang))
    seconds = report["seconds"]
    rate = round(report["table_hands"] / seconds) if seconds else 0
    console.print(
        say(
            "tour.duration",
            lang,
            hands=report["hands"],
            levels=report["levels"],
            table_hands=report["table_hands"],
            seconds=seconds,
            rate=rate,
        ),
        highlight=False,
    )
    tables = report["tables"]
    moves = sum(1 for e in tables if e["type"] == "moved" and e["reason"] != "break")
    breaks = sum(1 for e in tables if e["type"] == "table_closed" and e["reason"] == "break")
    final = any(e["type"] == "redraw" for e in tables)
    if config.format in ("mtt", "sng", "cantina"):
        console.print(
            say(
                "tour.history",
                lang,
                moves=moves,
                breaks=breaks,
                final=say("tour.history.final", lang) if final else "",
            ),
            highlight=False,
        )
    if not report.get("counts", True):
        console.print(say("tour.not_counted", lang, n=config.min_players), highlight=False)
    if report.get("charity") is not None:
        console.print(say("tour.charity", lang, amount=report["charity"]), highlight=False)


def print_structure(
    config: EventConfig,
    players: int,
    summary: Mapping[str, Any],
    lang: str,
    console: Console | None = None,
) -> None:
    """The structure simulator's report: length, levels, bust curve, bots."""
    console = console or Console()
    info = config.info
    console.print(
        say(
            "tour.structure.title",
            lang,
            format=say(f"tour.format.{config.format}", lang),
            variant=info.title,
            players=players,
            events=summary["events"],
        ),
        style="bold",
        highlight=False,
    )
    console.print(say("tour.structure.length", lang, **summary["hands"]), highlight=False)
    console.print(say("tour.structure.levels", lang, **summary["levels"]), highlight=False)
    if summary["bust_curve"] and config.format in ("mtt", "sng", "cantina"):
        console.print(say("tour.structure.curve", lang), highlight=False)
        curve = Table(box=box.SIMPLE_HEAD)
        curve.add_column(say("tour.col.level", lang), justify="right")
        curve.add_column(say("tour.col.busted", lang), justify="right")
        for point in summary["bust_curve"]:
            curve.add_row(str(point["level"]), f"{point['busted']:.0%}")
        console.print(curve)
    bots = Table(box=box.SIMPLE_HEAD)
    for key in ("bot", "place_mean", "points_mean", "event_wins"):
        bots.add_column(say(f"tour.col.{key}", lang), justify="left" if key == "bot" else "right")
    for bot, row in summary["bots"].items():
        bots.add_row(bot, f"{row['place']:.2f}", f"{row['points']:.1f}", str(row["wins"]))
    console.print(bots)
    console.print(
        f"[dim]{summary['table_hands']} table hands in {summary['seconds']}s "
        f"({summary['hands_per_second']} hands/s)[/dim]",
        highlight=False,
    )
