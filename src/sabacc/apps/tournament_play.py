"""Offline events in the terminal: ``sabacc play --tournament sng|mtt``.

The human plays one entry at the plain prompt table; bots of the chosen levels play the others
(disclosed in the seat draw). Between hands it prints the director's feed with its reasons
(levels and what they set, the next level, table moves and breaks, the final redraw, busts with
their places, rebuys, pots settled when a table's game closes); at the human's table every
chip movement of the hand is in the engine's log, printed as the seat sees it. When the human
busts, a re-entry is offered if the event allows it, else the bots play on to the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.prompt import Prompt

from sabacc.apps.play import PlainTable
from sabacc.apps.tournament_view import standings_table
from sabacc.core.errors import IllegalActionError
from sabacc.core.events import HandStarted
from sabacc.engine.protocol import GameProtocol
from sabacc.services.render import action_label, legal_summary
from sabacc.services.tournament import Director, EventConfig, Players, run_freezeout
from sabacc.services.tournament.runner import TableRun, Watcher
from sabacc.services.tournament.structure import Schedule
from sabacc.services.tournament.text import Feed, level_text, say

#: Reads one answer: (question) -> text. Rich's prompt by default; a script in the tests.
Ask = Callable[[str], str]


class HumanSeat:
    """The human's entry: shows their table as they see it and asks for their actions."""

    def __init__(self, console: Console, ask: Ask, lang: str, hints: bool = False) -> None:
        self.console = console
        self.ask = ask
        self.lang = lang
        self.hints = hints
        self.tables: dict[int, PlainTable] = {}  # by id(game)

    def view(self, game: Any, seat: int) -> PlainTable:
        table = self.tables.get(id(game))
        if table is None or table.human != seat:
            table = PlainTable(
                game, human=seat, bots={}, console=self.console, hints=self.hints, lang=self.lang
            )
            # a table joined mid-game: its log from the hand in play (the human's first)
            starts = [i for i, e in enumerate(game.events) if isinstance(e, HandStarted)]
            table.seen = starts[-1] if starts else 0
            self.tables = {id(game): table}
        return table

    def decide(self, player: str, game: GameProtocol, seat: int) -> str:
        table = self.view(game, seat)
        table.show_events()
        obs = game.observation(seat)
        table.show_state(obs)
        table.show_hints(obs)
        phrases = legal_summary(obs["legal"])
        to_call = obs["betting"]["to_call"]
        self.console.print(f"[bold]{table.vocab.phase(obs['phase'])}[/]. Your options:")
        for i, phrase in enumerate(phrases, 1):
            label = action_label(phrase, table.vocab, to_call=to_call)
            self.console.print(f"  [bold]{i}[/]. {label}", highlight=False)
        while True:
            text = self.ask("Your action (number or text, q to quit)").strip()
            if text.lower() in ("q", "quit", "exit"):
                raise KeyboardInterrupt
            if text.isdigit() and 1 <= int(text) <= len(phrases):
                text = phrases[int(text) - 1]
                kind, _, span = text.partition(" ")
                if kind in ("bet", "raise") and "-" in span:
                    low, high = span.split("-")
                    text = f"{kind} {self.ask(f'How much? ({low}-{high})').strip()}"
            try:
                if game.is_legal(text):
                    return text
                self.console.print("[red]Not a legal action now.[/]")
            except IllegalActionError as exc:
                self.console.print(f"[red]{exc}[/]")

    def after_hand(self, run: TableRun, seat: int) -> None:
        """The rest of the hand as the human's seat saw it (the showdown, the pots)."""
        self.view(run.game, seat).show_events()


def offline_event(
    fmt: str,
    variant: str,
    players: int,
    bots: Sequence[str],
    *,
    name: str = "You",
    seed: int = 0,
    table_size: int | None = None,
    schedule: Schedule | None = None,
    rebuy_levels: int = 0,
    reentries: int = 0,
    late_levels: int | None = None,
    console: Console | None = None,
    ask: Ask | None = None,
    lang: str = "en",
    hints: bool = False,
) -> Director:
    """Run a Sit & Go or multi-table event with one human entry; returns its director.
    ``reentries``: entries the human may add after busting, while late registration is open
    (``late_levels``: to the end of that level; default 1 with re-entries)."""
    console = console or Console()
    asker: Ask = ask or (lambda question: Prompt.ask(question, console=console))
    config = EventConfig(
        format=fmt,
        variant=variant,
        schedule=schedule,
        table_size=table_size,
        seats=players if fmt == "sng" else None,
        rebuy_until_level=rebuy_levels,
        add_on=rebuy_levels > 0,
        reentries=reentries,
        late_until_level=late_levels if late_levels is not None else (1 if reentries else 0),
    )
    director = Director(config, seed)
    human = director.register(name)
    for i in range(1, players):
        level = bots[(i - 1) % len(bots)]
        director.register(f"Bot {i}", bot=level)
    if not director.state.started:
        director.start()
    seat = HumanSeat(console, asker, lang, hints)
    feed = Feed(director.info, director.config.schedule, director.config.points, lang)
    for line in feed.read(director.events):
        console.print(line, highlight=False, markup=False)
    levels = {p: info["bot"] for p, info in director.state.players.items() if info["bot"]}
    table = Players(seed, levels, {human: seat.decide})
    watch = Watcher(
        events=lambda events: _show(console, director, feed, events, human, asker),
        hand=lambda run: _after_hand(seat, run, director, human),
    )

    def yes(question: str) -> Callable[[str], bool]:
        def answer(entry: str) -> bool:
            if director.state.entries[entry].player != human:
                return True  # bots take every rebuy and add-on offered
            return asker(f"{question} (y/n)").strip().lower().startswith("y")

        return answer

    run_freezeout(director, table, rebuy=yes("Rebuy?"), add_on=yes("Take the add-on?"), watch=watch)
    rows = [row.to_dict() for row in director.standings()]
    console.print(standings_table(rows, lang))
    return director


def _show(
    console: Console,
    director: Director,
    feed: Feed,
    events: Sequence[Mapping[str, Any]],
    human: str,
    ask: Ask,
) -> None:
    """The feed's lines for the event hand just played, the human's news in bold; a busted
    human is offered a re-entry when the event allows one."""
    mine = {e.id for e in director.state.entries_of(human)}
    busted = False
    for event in events:
        lines = feed.read([event])
        bold = event.get("entry") in mine or any(
            out["entry"] in mine for out in event.get("entries", ())
        )
        busted = busted or (event["type"] == "bust" and bold)
        for line in lines:
            console.print(line, style="bold" if bold else None, highlight=False, markup=False)
        if event["type"] == "moved" and bold:
            console.print(say("tour.you.moved", feed.lang, table=event["to"]), style="bold")
        if event["type"] == "level":
            _next_level(console, director, feed.lang, event["level"])
    question = say("tour.you.reenter", feed.lang) + " (y/n)"
    if busted and _may_reenter(director, human) and ask(question).strip().lower()[:1] == "y":
        mark = len(director.events)
        director.reenter(human)
        for line in feed.read(director.events[mark:]):
            console.print(line, style="bold", highlight=False, markup=False)


def _may_reenter(director: Director, human: str) -> bool:
    state = director.state
    entries = state.entries_of(human)
    return (
        not state.finished
        and director.registration_open()
        and len(entries) <= director.config.reentries
        and not any(e.id in state.chips for e in entries)
    )


def _next_level(console: Console, director: Director, lang: str, level: int) -> None:
    schedule = director.config.schedule
    assert schedule is not None
    if level + 1 >= len(schedule.levels) or schedule.by_minutes:
        return
    ends = sum(lv.hands or 0 for lv in schedule.levels[: level + 1])
    what = level_text(director.info, schedule.levels[level + 1].options, lang)
    hands = max(0, ends - director.state.tick)
    console.print(
        say("tour.level.next", lang, level=level + 2, hands=hands, what=what),
        style="dim",
        highlight=False,
    )


def _after_hand(seat: HumanSeat, run: TableRun, director: Director, human: str) -> None:
    for position, entry in enumerate(run.entries):
        if director.state.entries[entry].player == human:
            seat.after_hand(run, position)
            return


def play_offline_event(
    fmt: str,
    variant: str,
    players: int,
    bots: str,
    name: str,
    seed: int | None,
    table_size: int | None,
    option: Sequence[str] | None,
    lang: str,
    hints: bool,
) -> None:
    """``sabacc play --tournament``: check the input (one line on error), then play."""
    import random

    from sabacc.apps.commands.common import fail, get_variant
    from sabacc.core.errors import SabaccError
    from sabacc.services.bots.levels import LEVELS

    if fmt not in ("sng", "mtt"):
        fail(f"--tournament {fmt!r}: sng or mtt")
    if option:
        fail("--tournament plays the variant's tournament levels: no --option")
    if lang not in ("en", "ja"):
        fail("--lang: en or ja")
    v = get_variant(variant)
    levels = [b.strip().lower() for b in bots.split(",") if b.strip()] or ["easy"]
    if any(b not in LEVELS for b in levels):
        fail(f"--bots: levels among {', '.join(LEVELS)}")
    console = Console()
    try:
        offline_event(
            fmt,
            v.name,
            players,
            levels,
            name=name,
            seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
            table_size=table_size,
            console=console,
            lang=lang,
            hints=hints,
        )
    except SabaccError as exc:
        fail(str(exc))
    except (KeyboardInterrupt, EOFError):
        console.print("\n[dim]Event abandoned.[/dim]")
