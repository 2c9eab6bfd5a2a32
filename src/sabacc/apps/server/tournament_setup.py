"""Tournaments on the web server: the request bodies, the templates an event is made from
(the S4C cantina preset, a Sit & Go, a multi-table freezeout; any variant), and the
director's command log that rebuilds an event exactly (:func:`apply_command`).

Every change the server makes to an event's :class:`~sabacc.services.tournament.Director` is
a command (a plain dict), applied by :func:`apply_command` and stored with the events it made
(:class:`~sabacc.services.store.TournamentStore`); replaying the stored commands on a new
director of the same settings and seed gives the same events, so a restarted server resumes
the event's levels, tables and standings exactly.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from sabacc.apps.server.errors import ServerError
from sabacc.services.tournament import Director, EventConfig, Level, Schedule, TournamentError
from sabacc.services.tournament.structure import S4C_POINTS, check_schedule, default_schedule

#: The templates an event is made from.
TEMPLATES = ("s4c", "sng", "mtt")
#: The format each template plays.
TEMPLATE_FORMAT = {"s4c": "cantina", "sng": "sng", "mtt": "mtt"}
BotLevel = Annotated[str, Field(pattern=r"^[a-z0-9_\-]{1,16}$")]


class CreateEvent(BaseModel):
    """``POST /api/tournaments``: an event from a template."""

    model_config = ConfigDict(extra="forbid")

    template: Annotated[str, Field(pattern=r"^(s4c|sng|mtt)$")] = "sng"
    variant: Annotated[str, Field(min_length=1, max_length=40)] = "corellian_spike"
    name: Annotated[str, Field(max_length=80)] = ""
    table_size: Annotated[int, Field(ge=2, le=8)] | None = None
    #: A Sit & Go's seats (it starts when they fill); default one table's.
    seats: Annotated[int, Field(ge=2, le=200)] | None = None
    #: Each level's length on the event clock, in minutes (fractions allowed, for short events).
    level_minutes: Annotated[float, Field(gt=0, le=240)] = 10.0
    late_until_level: Annotated[int, Field(ge=0, le=50)] = 0
    points: Annotated[list[int], Field(min_length=1, max_length=50)] | None = None
    min_players: Annotated[int, Field(ge=2, le=200)] = 2
    charity: Annotated[float, Field(ge=0)] | None = None
    pot_at_close: Annotated[str, Field(pattern=r"^(split|house)$")] = "split"
    #: Seconds a person has for each action before their seat plays automatically.
    turn_timer: Annotated[float, Field(ge=3, le=600)] = 30.0


class RegisterBody(BaseModel):
    """``POST /api/tournaments/{code}/register``: a guest gives a name (an account's is its
    username)."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=24)] = ""


class TokenBody(BaseModel):
    """A request naming the player's tournament token (a guest's; an account's session
    suffices)."""

    model_config = ConfigDict(extra="forbid")

    token: Annotated[str, Field(max_length=128)] | None = None


class BotsBody(BaseModel):
    """``POST /api/tournaments/{code}/bots``: the director fills seats with disclosed bots."""

    model_config = ConfigDict(extra="forbid")

    count: Annotated[int, Field(ge=1, le=200)] | None = None
    level: BotLevel = "easy"


class ActBody(BaseModel):
    """``POST /api/tournaments/{code}/act``: a seated player's action."""

    model_config = ConfigDict(extra="forbid")

    action: Annotated[str, Field(min_length=1, max_length=60)]
    token: Annotated[str, Field(max_length=128)] | None = None


class DirectorBody(BaseModel):
    """``POST /api/tournaments/{code}/director``: a director's action."""

    model_config = ConfigDict(extra="forbid")

    action: Annotated[str, Field(pattern=r"^(start|pause|resume|add_time|move|break)$")]
    seconds: Annotated[float, Field(ge=-3600, le=3600)] | None = None
    entry: Annotated[str, Field(max_length=20)] | None = None
    table: Annotated[int, Field(ge=1, le=10_000)] | None = None


def event_config(body: CreateEvent) -> dict[str, Any]:
    """The stored settings of an event made from ``body``, checked (``bad_event``)."""
    fmt = TEMPLATE_FORMAT[body.template]
    try:
        base = EventConfig(format=fmt, variant=body.variant)
        info = base.info
        schedule = default_schedule(info, minutes=body.level_minutes)
        config = EventConfig(
            format=fmt,
            variant=body.variant,
            schedule=schedule,
            table_size=body.table_size,
            points=tuple(body.points) if body.points else S4C_POINTS,
            min_players=body.min_players,
            late_until_level=body.late_until_level if fmt == "mtt" else 0,
            pot_at_close=body.pot_at_close,
            charity=body.charity if fmt == "cantina" else None,
            seats=body.seats if fmt == "sng" else None,
        ).resolved()
    except TournamentError as exc:
        raise ServerError("bad_event", str(exc)) from None
    return {"template": body.template, "turn_timer": body.turn_timer, "event": config.to_dict()}


def config_of(stored: dict[str, Any]) -> EventConfig:
    """The :class:`EventConfig` of stored settings (see :func:`event_config`)."""
    raw = dict(stored["event"])
    levels = [Level(**level) for level in raw.pop("schedule")]
    raw["points"] = tuple(raw["points"])
    config = EventConfig(**raw)
    return EventConfig(**{**raw, "schedule": check_schedule(config.info, levels)})


def schedule_of(director: Director) -> Schedule:
    assert director.config.schedule is not None
    return director.config.schedule


def apply_command(director: Director, command: dict[str, Any]) -> None:
    """Apply one stored command to ``director`` (see the module's docstring). Clock commands
    (pause, resume, added time) are in the log for the record and change no director state.
    A refused command raises the director's :class:`TournamentError` having changed nothing."""
    op = command["op"]
    if op == "start":
        for name, bot in command["players"]:
            director.register(name, bot=bot)
        if not director.state.started:
            director.start()
    elif op == "register":
        director.register(command["name"], bot=command.get("bot"))
    elif op == "hand":
        director.report_hand(
            command["table"],
            command["before"],
            command["after"],
            command["pot"],
            tuple(command["out"]),
            command["next_dealer"],
        )
    elif op == "end_hand":
        director.end_hand(command["clock"])
    elif op == "close_pot":
        director.close_pot(command["table"], command["reason"])
    elif op == "move":
        director.move(command["entry"], command["to"])
    elif op == "break":
        director.break_table(command["table"])
    elif op not in ("pause", "resume", "add_time"):
        raise ValueError(f"unknown tournament command {op!r}")


def plain(value: Any) -> Any:
    """``value`` as stored (JSON: table numbers as keys become text, tuples lists)."""
    return json.loads(json.dumps(value))


def replay(config: EventConfig, seed: int, log: list[tuple[dict[str, Any], list[Any]]]) -> Director:
    """A director rebuilt from its stored commands (the same events, checked)."""
    director = Director(config, seed)
    for command, events in log:
        mark = len(director.events)
        apply_command(director, command)
        if plain(director.events[mark:]) != events:
            raise ValueError(f"the stored command {command['op']!r} replays differently")
    return director
