"""What the tournament pages and the public API read: the list of events, an event's detail
(standings, tables, your table, the eliminations feed, the clock and levels for the TV page),
a table's view for a seated player, and the standings as CSV or JSON.

A table's view shows the cards of the viewer's seat only; other seats show their stacks and
what they did, as at any table.
"""

from __future__ import annotations

import csv
import io
import time
from typing import TYPE_CHECKING, Any

from sabacc.services.render import legal_summary
from sabacc.services.tournament.standings import Row
from sabacc.services.tournament.structure import ante_cost
from sabacc.services.tournament.text import Feed, level_text, say

if TYPE_CHECKING:
    from sabacc.apps.server.tournaments import LiveEvent

#: Feed lines an event's page shows (the newest).
FEED_LINES = 40
#: The feed's kinds of events (registrations and hands are not news).
NEWS = ("started", "level", "break", "bust", "moved", "table_closed", "redraw", "finished")


def summary(ev: LiveEvent) -> dict[str, Any]:
    """An event's line in the list."""
    d = ev.director
    return {
        "code": ev.code,
        "name": ev.rec.name,
        "template": ev.rec.config.get("template"),
        "format": ev.config.format,
        "variant": ev.config.variant,
        "title": ev.config.info.title,
        "status": ev.status,
        "registered": len(ev.regs),
        "seats": ev.config.seats,
        "left": len(d.state.chips) if d is not None else len(ev.regs),
        "level": (d.state.level + 1) if d is not None else None,
        "url": f"/e/{ev.code}",
    }


def standings(ev: LiveEvent) -> list[dict[str, Any]]:
    """Every player's place, points, chips or bust hand (before the start: the
    registrations)."""
    if ev.director is None:
        return [
            {"place": None, "name": r.name, "bot": r.bot, "points": 0, "chips": None}
            for r in ev.regs
        ]
    cached = ev.cache.get("standings")
    if cached is None:
        state = ev.director.state
        rows: list[Row] = ev.director.standings()
        cached = []
        for row in rows:
            item = row.to_dict()
            entry = next((e.id for e in state.entries_of(row.player) if e.id in state.chips), None)
            item["entry"] = entry
            item["table"] = state.table_of.get(entry) if entry else None
            cached.append(item)
        ev.cache["standings"] = cached
    return list(cached)


def clock(ev: LiveEvent, lang: str = "en") -> dict[str, Any]:
    """The clock, the level and what it sets, the next level, the time left in the level."""
    d = ev.director
    schedule = ev.config.schedule
    assert schedule is not None
    level = d.state.level if d is not None else 0
    info = ev.config.info
    spent = 0.0
    for lvl in schedule.levels[: level + 1]:
        spent += (lvl.minutes or 0.0) + (
            lvl.break_minutes if lvl is not schedule.levels[level] else 0
        )
    last = level == len(schedule.levels) - 1
    left = None if last else spent * 60 - max(0.0, ev.clock() - ev.added)
    nxt = None if last else schedule.levels[level + 1]
    options = ev.config.level_options(level)
    return {
        "running": ev.running and ev.status == "running",
        "elapsed": round(ev.clock(), 1),
        "added": ev.added,
        "level": level + 1,
        "levels": len(schedule.levels),
        "sets": level_text(info, schedule.levels[level].options, lang),
        "ante": ante_cost(info, options),
        "seconds_left": None if left is None else round(max(0.0, left), 1),
        "final_hand": left is not None and left <= 0,
        "next": None if nxt is None else level_text(info, nxt.options, lang),
        "hand": d.state.tick if d is not None else 0,
        "hand_for_hand": bool(d and d.state.hand_for_hand),
    }


def feed(ev: LiveEvent, lang: str = "en") -> list[str]:
    """The newest lines of the event's news: the draw, levels, eliminations, moves, breaks."""
    if ev.director is None:
        return []
    key = ("feed", lang)
    if key not in ev.cache:
        config = ev.config
        reader = Feed(config.info, config.schedule, config.points, lang)
        lines: list[str] = []
        for event in ev.director.events:
            said = reader.read([event])
            if event["type"] in NEWS:
                lines.extend(said)
        ev.cache[key] = lines[-FEED_LINES:][::-1]
    return list(ev.cache[key])


def tables(ev: LiveEvent) -> list[dict[str, Any]]:
    """The tables in play: each seat's name (a bot's level), chips."""
    d = ev.director
    if d is None:
        return []
    state = d.state
    out = []
    for table, seats in sorted(state.tables.items()):
        rows = []
        for entry in seats:
            info = state.players[state.entries[entry].player]
            rows.append(
                {
                    "entry": entry,
                    "name": info["name"],
                    "bot": info["bot"],
                    "chips": state.chips[entry],
                }
            )
        out.append({"table": table, "seats": rows, "pot": state.pots.get(table, 0)})
    return out


def detail(ev: LiveEvent, player: str | None, director: bool, lang: str = "en") -> dict[str, Any]:
    """An event's page: everything public, and the viewer's own entry and table."""
    d = ev.director
    you: dict[str, Any] | None = None
    if player is not None and d is not None:
        state = d.state
        entry = next((e.id for e in state.entries_of(player) if e.id in state.chips), None)
        table = state.table_of.get(entry) if entry else None
        you = {
            "player": player,
            "name": state.players[player]["name"],
            "entry": entry,
            "table": table,
            "link": f"/e/{ev.code}/table/{table}" if table is not None else None,
            "away": player in ev.away,
        }
    points = list(ev.config.points)
    return {
        **summary(ev),
        "version": ev.version,
        "director": director,
        "config": {
            "table_size": ev.config.table_size,
            "starting_stack": ev.config.starting_stack,
            "points": points,
            "min_players": ev.config.min_players,
            "late_until_level": ev.config.late_until_level,
            "turn_timer": ev.rec.config.get("turn_timer"),
            "charity": ev.config.charity,
            "format_name": say(f"tour.format.{ev.config.format}", lang),
        },
        "registration_open": _open(ev),
        "clock": clock(ev, lang),
        "standings": standings(ev),
        "tables": tables(ev),
        "feed": feed(ev, lang),
        "you": you,
        "registered": len(ev.regs),
        "counts": d.counts if d is not None else None,
    }


def _open(ev: LiveEvent) -> bool:
    if ev.status == "registering":
        return ev.config.seats is None or len(ev.regs) < ev.config.seats
    return ev.director is not None and ev.director.registration_open()


def table_view(ev: LiveEvent, table: int, player: str | None) -> dict[str, Any]:
    """One table as its seated player (or a watcher) sees it now."""
    d = ev.director
    run = ev.runs.get(table)
    if d is None or run is None:
        return {"table": table, "playing": False, "version": ev.version}
    game = run.game
    seat = None
    if player is not None:
        seat = next((run.seat[e] for e in run.seat if d.state.entries[e].player == player), None)
    if seat is None:
        return spectator_view(ev, table)
    obs = game.observation(seat)
    turn = ev.turns.get(player) if player is not None else None
    mine = turn is not None and turn[0] == table
    seats = []
    for s in obs["seats"]:
        entry = run.entries[s["seat"]] if s["seat"] < len(run.entries) else None
        bot = None
        if entry is not None and entry in d.state.entries:
            bot = d.state.players[d.state.entries[entry].player]["bot"]
        seats.append({**s, "bot": bot, "you": s["seat"] == seat})
    deadline = ev.deadlines.get(player) if player is not None else None
    return {
        "table": table,
        "playing": True,
        "version": ev.version,
        "hand": obs.get("hand"),
        "phase": obs.get("phase"),
        "seats": seats,
        "pots": obs.get("pots"),
        "current": obs.get("current_player"),
        "you": obs.get("you") if seat is not None else None,
        "seat": seat,
        "your_turn": mine,
        "legal": legal_summary(obs["legal"]) if mine and obs.get("legal") else [],
        "seconds_left": None if deadline is None else round(max(0.0, deadline - time.time()), 1),
        "away": player in ev.away if player is not None else False,
    }


def spectator_view(ev: LiveEvent, table: int) -> dict[str, Any]:
    """A table as a watcher sees it: a hand behind (the stacks as the last hand ended, no
    cards, no actions of the hand in play), so nobody at the table learns from a watcher."""
    d = ev.director
    assert d is not None
    seats = []
    for entry in d.state.tables.get(table, []):
        info = d.state.players[d.state.entries[entry].player]
        seats.append({"name": info["name"], "bot": info["bot"], "stack": d.state.chips[entry]})
    return {
        "table": table,
        "playing": True,
        "delayed": True,
        "version": ev.version,
        "hand": d.state.tick,
        "seats": seats,
        "pots": {"main": d.state.pots.get(table, 0), "sabacc": 0},
        "current": None,
        "you": None,
        "seat": None,
        "your_turn": False,
        "legal": [],
        "seconds_left": None,
        "away": False,
    }


def standings_csv(ev: LiveEvent) -> str:
    """The standings as CSV (place, name, bot level, points, chips, bust hand)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", "name", "bot", "points", "entries", "chips", "bust_hand"])
    for row in standings(ev):
        writer.writerow(
            [
                row.get("place"),
                row["name"],
                row.get("bot") or "",
                row.get("points"),
                row.get("entries", 1),
                "" if row.get("chips") is None else row["chips"],
                "" if row.get("bust_hand") is None else row["bust_hand"],
            ]
        )
    return out.getvalue()


def results(ev: LiveEvent) -> dict[str, Any]:
    """The public read of an event's results."""
    return {
        **summary(ev),
        "points": list(ev.config.points),
        "counts": ev.director.counts if ev.director is not None else None,
        "charity": ev.config.charity,
        "hands": ev.director.state.tick if ev.director is not None else 0,
        "standings": standings(ev),
    }
