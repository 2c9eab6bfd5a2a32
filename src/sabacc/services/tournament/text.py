"""The event feed in words, English or Japanese: one line per director event a person reads.

:func:`describe` turns an event of the log into a line (or None for bookkeeping events such
as ``hand`` and ``tick``); :func:`level_text` says what a level sets, with the variant's own
option labels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sabacc.engine.variant import VariantInfo
from sabacc.services.messages import CATALOGUE
from sabacc.services.tournament.standings import entry_places
from sabacc.services.tournament.state import EventState


def say(key: str, lang: str = "en", **fields: Any) -> str:
    """The catalogue's ``key`` in ``lang`` (English where missing), filled in."""
    table = CATALOGUE.get(lang, CATALOGUE["en"])
    return table.get(key, CATALOGUE["en"][key]).format(**fields)


def option_label(info: VariantInfo, name: str, lang: str = "en") -> str:
    """An option's label: the variant's own, the catalogue's, or its name."""
    for table in (
        info.text.messages.get(lang, {}),
        CATALOGUE.get(lang, {}),
        info.text.messages.get("en", {}),
        CATALOGUE["en"],
    ):
        if f"option.{name}" in table:
            return table[f"option.{name}"]
    return name.replace("_", " ")


def level_text(info: VariantInfo, options: Mapping[str, Any], lang: str = "en") -> str:
    """What a level sets: ``Ante 2 · Sabacc ante 2``."""
    parts = []
    for name, value in options.items():
        shown = ("✓" if value else "✗") if isinstance(value, bool) else str(value)
        parts.append(f"{option_label(info, name, lang)} {shown}")
    return " · ".join(parts) or "—"


class Feed:
    """Reads an event's log as it grows and says each event in ``lang``; it keeps the state
    the lines need (names, tables, places)."""

    def __init__(self, info: VariantInfo, schedule: Any, points: Sequence[int], lang: str = "en"):
        self.info = info
        self.schedule = schedule
        self.points = points
        self.lang = lang
        self.state = EventState()

    def name(self, entry: str) -> str:
        e = self.state.entries.get(entry)
        player = e.player if e else entry
        info = self.state.players.get(player)
        return info["name"] if info else entry

    def seat_name(self, entry: str) -> str:
        """A name at the seat draw: a bot's with its level (bots are always disclosed)."""
        e = self.state.entries.get(entry)
        info = self.state.players.get(e.player) if e else None
        name = self.name(entry)
        return f"{name} ({info['bot']})" if info and info.get("bot") else name

    def read(self, events: Sequence[Mapping[str, Any]]) -> list[str]:
        """The lines of ``events`` (the log's next events, in order)."""
        out = []
        for event in events:
            line = self._line(event)
            self.state.apply(event)
            if event["type"] == "bust":
                line = self._busts(event)
            if line:
                out.extend(line.split("\n"))
        return out

    def _line(self, e: Mapping[str, Any]) -> str | None:
        t, lang = e["type"], self.lang
        if t == "registered":
            if e.get("bot"):
                return say("tour.registered.bot", lang, name=e["name"], level=e["bot"])
            return say("tour.registered", lang, name=e["name"])
        if t == "entry" and e.get("table") is not None:
            name = self.state.players[e["player"]]["name"]
            if e["number"] > 1:
                return say(
                    "tour.entry.again",
                    lang,
                    name=name,
                    number=e["number"],
                    table=e["table"],
                    stack=e["stack"],
                )
            return say("tour.entry.late", lang, name=name, table=e["table"], stack=e["stack"])
        if t == "started":
            lines = [say("tour.started", lang, count=len(e["tables"]))]
            for table, seats in e["tables"].items():
                names = ", ".join(f"{i + 1}. {self.seat_name(x)}" for i, x in enumerate(seats))
                lines.append(say("tour.seats", lang, table=table, names=names))
            return "\n".join(lines)
        if t == "level":
            options = self.schedule.levels[e["level"]].options
            return say(
                "tour.level", lang, level=e["level"] + 1, what=level_text(self.info, options, lang)
            )
        if t == "break":
            return say("tour.break", lang, minutes=e["minutes"], level=e["after"] + 1)
        if t == "chips":
            key = "tour.add_on" if e["kind"] == "add_on" else "tour.rebuy"
            return say(key, lang, name=self.name(e["entry"]), amount=e["amount"])
        if t == "moved":
            return say(
                f"tour.moved.{e['reason']}",
                lang,
                name=self.name(e["entry"]),
                source=e["from"],
                target=e["to"],
            )
        if t in ("table_opened", "table_closed"):
            return say(f"tour.{t}", lang, table=e["table"])
        if t == "redraw":
            names = ", ".join(f"{i + 1}. {self.seat_name(x)}" for i, x in enumerate(e["seats"]))
            return say("tour.redraw", lang, names=names)
        if t == "pot_closed":
            reason = say(f"tour.pot_reason.{e['reason']}", lang)
            if not e["shares"]:
                return say(
                    "tour.pot.house", lang, table=e["table"], reason=reason, amount=e["amount"]
                )
            shares = ", ".join(f"{self.name(x)} +{n}" for x, n in e["shares"].items() if n)
            return say(
                "tour.pot.split",
                lang,
                table=e["table"],
                reason=reason,
                amount=e["amount"],
                shares=shares,
            )
        if t == "hand_for_hand":
            return say("tour.hand_for_hand." + ("on" if e["on"] else "off"), lang)
        if t == "finished":
            return say("tour.finished", lang)
        if t == "round":
            tables = "; ".join(
                f"{table}: {', '.join(self.name(p) for p in seats)}"
                for table, seats in e["tables"].items()
            )
            if "round" in e:
                return say("tour.round", lang, round=e["round"], tables=tables)
            return say("tour.arena_tables", lang, tables=tables)
        if t == "bye":
            return say("tour.bye", lang, name=self.name(e["player"]), points=e["points"])
        if t == "game":
            places = " · ".join(
                f"{i + 1}. {' = '.join(self.name(p) for p in group)}"
                for i, group in enumerate(e["places"])
            )
            return say("tour.game", lang, table=e["table"], hands=e["hands"], places=places)
        return None

    def _busts(self, e: Mapping[str, Any]) -> str:
        rows = entry_places(self.state, self.points, True)
        return "\n".join(
            say(
                "tour.bust",
                self.lang,
                name=self.name(out["entry"]),
                place=rows[out["entry"]].place,
                hand=e["tick"],
                start=out["start"],
            )
            for out in e["entries"]
        )
