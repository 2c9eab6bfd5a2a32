"""Plays an event's tables on the engines: the director decides, this plays the cards.

A freezeout table plays on the reference engine (its event log is what a watched table shows;
the compiled cores take given stacks and pauses too): one game per table and level, hand by hand
(``pause_between_hands``); players moving in and out join and leave it between hands (its pots
go on), a rebuy or add-on is the engine's rebuy; a level change, a break or the final redraw
starts the table's next game from the event's stacks (the director settled the pots left by
``pot_at_close``), as does an arriving player the game has no seat for yet. A series game
(Swiss, Arena) is one plain game from equal stacks, on the compiled core where the variant has
one built (``engine="auto"``).

Who acts is a :class:`Players`: the bots of every player's disclosed level, each seeded from
the event's seed, the game and the seat; a human seat is any callable deciding for it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sabacc.core.actions import Action
from sabacc.core.errors import IllegalActionError
from sabacc.engine.protocol import GameProtocol
from sabacc.engine.seating import BETWEEN_HANDS
from sabacc.services.sim import derive_seed
from sabacc.services.tournament.director import Director
from sabacc.services.tournament.errors import EventStateError
from sabacc.services.tournament.series import SeriesDirector

#: Decides for a seat: (player id, game, seat) -> action.
Decider = Callable[[str, GameProtocol, int], Action | str]
#: The longest event the runner plays, in event hands (a guard against a schedule that never
#: ends an event).
MAX_EVENT_HANDS = 20000


@dataclass
class Players:
    """Who decides for each player: their bot (by the level they registered with) or a
    human's decider (``humans``)."""

    seed: int
    levels: Mapping[str, str]
    humans: Mapping[str, Decider] = field(default_factory=dict)
    _bots: dict[tuple[int, int], Any] = field(default_factory=dict)

    def decide(self, player: str, game: GameProtocol, seat: int) -> Action | str:
        human = self.humans.get(player)
        if human is not None:
            return human(player, game, seat)
        from sabacc.services.bots import decide, make_bot

        key = (id(game), seat)
        bot = self._bots.get(key)
        if bot is None:
            bot = make_bot(
                self.levels[player], derive_seed(self.seed, "bot", player, game.seed), game.info
            )
            self._bots[key] = bot
        return decide(bot, game, seat)

    def forget(self, game: GameProtocol) -> None:
        """Drop the bots of a finished game."""
        for key in [k for k in self._bots if k[0] == id(game)]:
            del self._bots[key]


def variant_options(info: Any, options: Mapping[str, Any]) -> Any:
    import sabacc

    return sabacc.variant(info.name, **dict(options))


# -------------------------------------------------------------------- freezeout tables
class TableRun:
    """One freezeout table's engine game: its entries by seat and the level it plays
    (``log``: keep the engine's event log, for a table a person watches)."""

    def __init__(self, director: Director, table: int, number: int, log: bool = False) -> None:
        state = director.state
        seats = state.tables[table]
        dealer = state.next_dealer.get(table)
        start = seats.index(dealer) if dealer in seats else 0
        self.entries = seats[start:] + seats[:start]
        self.table = table
        self.level = state.level
        options = {"game_end": "last_standing", **director.level_options()}
        if "final_pot" in director.info.options_type.names():
            options["final_pot"] = director.config.pot_at_close
        variant = variant_options(director.info, options)
        self.seed = derive_seed(director.seed, "table", table, number)
        names = [state.players[state.entries[e].player]["name"] for e in self.entries]
        self.game: Any = variant.new_game(
            names,
            self.seed,
            log=log,
            stacks=[state.chips[e] for e in self.entries],
            pause_between_hands=True,
        )
        self.seat = {entry: seat for seat, entry in enumerate(self.entries)}
        self.fresh = True

    def stale(self, director: Director) -> bool:
        """Whether this game no longer fits the event: a new level, pots the director settled
        (a break, the final redraw), or the game is over."""
        state = director.state
        if self.game.is_over or self.level != state.level:
            return True
        return self.pot() != state.pots.get(self.table, 0)

    def seat_moves(self, director: Director) -> bool:
        """Players who moved away leave this game and players who moved here join it, from
        the next hand (the game and its pots go on). False if the game has no seat for an
        arriving player (a full table whose busted seats empty only at the next deal)."""
        state = director.state
        game = self.game
        here = set(state.tables[self.table])
        for entry, seat in list(self.seat.items()):
            if entry in state.chips and entry not in here:
                game.leave(seat)
                del self.seat[entry]
        for entry in state.tables[self.table]:
            if entry in self.seat:
                continue
            name = state.players[state.entries[entry].player]["name"]
            try:
                seat = game.join(name, state.chips[entry])
            except IllegalActionError:
                return False
            if seat == len(self.entries):
                self.entries.append(entry)
            else:
                self.entries[seat] = entry
            self.seat[entry] = seat
        return True

    def pot(self) -> int:
        """Credits on the table's pots (what a later hand can still win): everything the game
        holds but the stacks and what the house kept (Kessel's lost chips)."""
        game = self.game
        return int(game.total_credits() - sum(game.stacks) - game.house)

    def seat_of(self, entry: str) -> int:
        return self.seat[entry]

    def rebuy(self, entry: str, amount: int, kind: str) -> None:
        self.game.rebuy(self.seat_of(entry), amount, kind)

    def play_hand(self, director: Director, players: Players, on_action: Any = None) -> None:
        """Deal and play one hand; report it to the director."""
        game = self.game
        state = director.state
        seated = list(state.tables[self.table])
        before = {e: state.chips[e] for e in seated}
        if game.phase == BETWEEN_HANDS:
            for entry, seat in list(self.seat.items()):  # busted: their remainder leaves too
                if entry not in state.chips:
                    game.leave(seat)
                    del self.seat[entry]
            game.deal()
        self.fresh = False
        dealt_out = tuple(e for e in seated if game.over or game.out[self.seat_of(e)])
        while not game.is_over and game.phase != BETWEEN_HANDS:
            seat = game.current_player
            assert seat is not None
            player = state.entries[self.entries[seat]].player
            action = players.decide(player, game, seat)
            if on_action is not None:
                on_action(self, seat, action)
            game.apply(action, seat=seat)
        after = {e: int(game.stacks[self.seat_of(e)]) for e in seated}
        director.report_hand(
            self.table, before, after, self.pot(), dealt_out, self._next_dealer(seated)
        )

    def _next_dealer(self, seated: Sequence[str]) -> str | None:
        game = self.game
        n = len(self.entries)
        for step in range(1, n + 1):
            seat = (game.dealer + step) % n
            entry = self.entries[seat]
            if entry in seated and self.seat.get(entry) == seat and game.stacks[seat] > 0:
                return str(entry)
        return None


@dataclass
class Watcher:
    """What a runner tells whoever watches (the terminal game): each event hand's new
    director events, each table's fresh game, each action. All optional."""

    events: Callable[[list[dict[str, Any]]], None] | None = None
    game: Callable[[TableRun], None] | None = None
    action: Callable[[TableRun, int, Any], None] | None = None
    hand: Callable[[TableRun], None] | None = None


def run_freezeout(
    director: Director,
    players: Players,
    *,
    rebuy: Callable[[str], bool] | None = None,
    add_on: Callable[[str], bool] | None = None,
    watch: Watcher | None = None,
    minutes_per_hand: float | None = None,
) -> Director:
    """Play a started freezeout to its end. ``rebuy`` / ``add_on``: whether an entry takes
    one when offered (default: never); ``minutes_per_hand``: the clock a level by minutes
    reads (event hands times this)."""
    watch = watch or Watcher()
    runs: dict[int, TableRun] = {}
    games = 0
    if not director.state.started:
        raise EventStateError("start the event first")
    seen = len(director.events)
    while not director.state.finished:
        if director.state.tick >= MAX_EVENT_HANDS:
            raise EventStateError(f"the event did not end in {MAX_EVENT_HANDS} event hands")
        for table in director.playing_tables():
            run = runs.get(table)
            fresh = run is None or run.stale(director)
            if run is not None and not fresh and not run.seat_moves(director):
                director.close_pot(table, "move")  # its game closes: another seats everyone
                fresh = True
            if fresh:
                if run is not None:
                    players.forget(run.game)
                games += 1
                state = director.state
                log = any(state.entries[e].player in players.humans for e in state.tables[table])
                run = runs[table] = TableRun(director, table, games, log)
                if watch.game is not None:
                    watch.game(run)
            assert run is not None
            run.play_hand(director, players, watch.action)
            if watch.hand is not None:
                watch.hand(run)
        _offer_chips(director, runs, rebuy, add_on)
        clock = None if minutes_per_hand is None else (director.state.tick + 1) * minutes_per_hand
        director.end_hand(clock)
        if watch.events is not None:
            watch.events(director.events[seen:])
        seen = len(director.events)
        for table in [t for t in runs if t not in director.state.tables]:
            players.forget(runs.pop(table).game)
    return director


def _offer_chips(
    director: Director,
    runs: Mapping[int, TableRun],
    rebuy: Callable[[str], bool] | None,
    add_on: Callable[[str], bool] | None,
) -> None:
    state = director.state
    cost = director.ante()
    for entry in list(state.chips):
        table = state.table_of.get(entry)
        run = runs.get(table) if table is not None else None
        if run is None or entry not in run.seat or run.game.is_over:
            continue
        short = state.chips[entry] < max(1, cost)
        if rebuy and short and director.can_rebuy(entry) and rebuy(entry):
            run.rebuy(entry, director.rebuy(entry), "rebuy")
        if add_on and director.can_add_on(entry) and add_on(entry):
            run.rebuy(entry, director.add_on(entry), "add_on")


# -------------------------------------------------------------------- series games
def play_game(
    director: SeriesDirector,
    players: Players,
    table: int,
    seats: Sequence[str],
    level: int,
    engine: str = "auto",
) -> tuple[list[list[str]], int]:
    """Play one series game to its end; its places (tied groups, best first) and hands."""
    from sabacc.variants import compiled

    config = director.config
    options = {"game_end": "last_standing", **director.level_options(level)}
    names = director.info.options_type.names()
    if "max_hands" in names and "game_end" not in director.info.levels.options:
        options["max_hands"] = config.game_hands
    if config.starting_stack is not None and director.info.levels.stack_option in names:
        options.setdefault(director.info.levels.stack_option, config.starting_stack)
    variant = variant_options(director.info, options)
    seed = derive_seed(director.seed, "game", table)
    if compiled.resolve_engine(engine, variant.name) == "compiled":
        game: Any = variant.new_game(list(seats), seed, engine="compiled")
    else:
        game = variant.new_game(list(seats), seed, log=False)
    starts: dict[int, list[int]] = {}
    busted: dict[int, tuple[int, int]] = {}
    while not game.is_over:
        hand = game.hand_no
        if hand not in starts:
            starts[hand] = [int(x) for x in game.hand_start_stacks]
        seat = game.current_player
        game.apply(players.decide(seats[seat], game, seat), seat=seat)
        for s in range(len(seats)):  # out at the next deal: busted in this hand
            if game.out[s] and s not in busted:
                busted[s] = (hand, starts[hand][s])
    players.forget(game)
    keyed: list[tuple[tuple[int, ...], str]] = []
    for s in range(len(seats)):
        if s in busted:
            keyed.append(((1, -busted[s][0], -busted[s][1]), seats[s]))
        else:
            keyed.append(((0, -int(game.stacks[s])), seats[s]))
    keyed.sort(key=lambda k: (k[0], k[1]))
    places: list[list[str]] = []
    last = None
    for key, player in keyed:
        if key == last:
            places[-1].append(player)
        else:
            places.append([player])
        last = key
    return places, int(game.hand_no)


def run_series(director: SeriesDirector, players: Players, engine: str = "auto") -> SeriesDirector:
    """Play a started Swiss or Arena event to its end."""
    if not director.state.started:
        raise EventStateError("start the event first")
    if director.config.format == "swiss":
        for _ in range(director.config.rounds):
            tables = director.next_round()
            level = director.state.rounds[-1]["level"]
            for table, seats in tables.items():
                places, hands = play_game(director, players, table, seats, level, engine)
                director.report_game(table, places, hands)
        director.finish()
        return director
    # Arena: tables end at their own pace, measured in event hands
    ending: list[tuple[int, int, list[list[str]], int]] = []
    now = 0
    while True:
        for table, seats in director.seat_waiting(now).items():
            level = director.state.rounds[-1]["level"]
            places, hands = play_game(director, players, table, seats, level, engine)
            heapq.heappush(ending, (now + max(1, hands), table, places, hands))
        if not ending:
            break
        now, table, places, hands = heapq.heappop(ending)
        director.report_game(table, places, hands)
        while ending and ending[0][0] == now:
            _, table, places, hands = heapq.heappop(ending)
            director.report_game(table, places, hands)
    director.clock_hands = now
    director.finish()
    return director
