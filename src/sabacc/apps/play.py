"""The plain terminal table: a Rich prompt loop for one human against bots.

It renders the human's observation (never anything else), prints what happened since the last
prompt as that seat saw it, and reads an action by number or by its text form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.prompt import Prompt
from rich.table import Table

from sabacc.core.errors import IllegalActionError
from sabacc.engine.game import Game
from sabacc.services.bots.base import Bot, decide
from sabacc.services.render import action_label, legal_summary, render_log, vocabulary
from sabacc.variants.registry import lookup

#: The default length of a game at the terminal tables (``sabacc play``): the dealer button
#: goes round this many times (a hand limit of orbits × players), unless ``game_end`` is set.
#: 0: until one player stands.
DEFAULT_ORBITS = 3


def game_length(
    options: Mapping[str, str], players: int, orbits: int = DEFAULT_ORBITS
) -> dict[str, str]:
    """``options`` with the game length filled in: ``game_end`` from ``orbits`` (``hands:`` of
    orbits × players; 0: ``last_standing``) unless the options already set one."""
    out = dict(options)
    if "game_end" not in out:
        out["game_end"] = "last_standing" if orbits == 0 else f"hands:{orbits * players}"
    return out


def card_markup(code: str) -> str:
    """A card as coloured Rich markup: green positive, red negative, gold Sylop/face."""
    if code.startswith("+"):
        return f"[bold green]{code}[/]"
    if code.startswith("-"):
        return f"[bold red]{code}[/]"
    if code == "0":
        return f"[bold yellow]{code}[/]"
    return f"[bold cyan]{code}[/]"


def render_table(obs: Mapping[str, Any]) -> Table:
    """The seats, stacks and pots as a Rich table (a pure function of the observation)."""
    table = Table(title=None, show_edge=False, pad_edge=False, expand=False)
    for col in ("seat", "stack", "bet", "cards", "status", "last action"):
        table.add_column(col)
    for s in obs["seats"]:
        marker = "▶ " if s["seat"] == obs["current_player"] else "  "
        dealer = " (D)" if s["dealer"] else ""
        known = " ".join(s.get("known_cards", []))
        table.add_row(
            f"{marker}{s['name']}{dealer}",
            str(s["stack"]),
            str(s["round_bet"] or ""),
            f"{s['cards']}" + (f" [{known}]" if known else ""),
            s["status"],
            s["last_action"] or "",
        )
    return table


def hints_table(obs: Mapping[str, Any]) -> Table:
    """Exact odds for the seat's options (a pure function of its observation).

    In a card phase: each option's chance to leave the hand better / the same / worse, and of a
    Sabacc. Otherwise: how the hand compares with a random hand of as many unseen cards.
    """
    from sabacc.services.odds import hand_odds, option_odds

    options = option_odds(obs)
    if options:
        table = Table(title="Odds of your options (exact)", show_edge=False, pad_edge=False)
        for col in ("option", "better", "same", "worse", "sabacc"):
            table.add_column(col, justify="left" if col == "option" else "right")
        for o in options:
            table.add_row(
                o.action + ("" if o.known else " (?)"),
                f"{float(o.better):.1%}",
                f"{float(o.same):.1%}",
                f"{float(o.worse):.1%}",
                f"{float(o.sabacc):.1%}",
            )
        return table
    table = Table(title="Your hand (exact odds)", show_edge=False, pad_edge=False)
    for col in ("hand", "vs a random hand: win", "tie", "lose"):
        table.add_column(col, justify="left" if col == "hand" else "right")
    h = hand_odds(obs)
    if h is not None:
        table.add_row(
            f"{h.name} ({h.total:+d})",
            f"{float(h.win):.1%}",
            f"{float(h.tie):.1%}",
            f"{float(h.lose):.1%}",
        )
    return table


class PlainTable:
    """Runs a game with one human seat at a plain prompt; the other seats are bots."""

    def __init__(
        self,
        game: Game,
        *,
        human: int,
        bots: Mapping[int, Bot],
        console: Console,
        hints: bool = False,
        lang: str = "en",
    ) -> None:
        self.game = game
        self.human = human
        self.bots = dict(bots)
        self.console = console
        self.hints = hints
        self.lang = lang
        self.vocab = vocabulary(game.info, lang)
        self.seen = 0

    def show_events(self) -> None:
        game = self.game
        new = game.events_for(self.human, self.seen)
        lines = render_log(new, game.names, viewer=self.human, lang=self.lang, variant=game.info)
        for line in lines:
            if line:
                self.console.print(f"[dim]{line}[/dim]", highlight=False)
        self.seen = len(self.game.events)

    def show_state(self, obs: Mapping[str, Any]) -> None:
        c = self.console
        c.print()
        c.print(render_table(obs))
        pots = obs["pots"]
        info = lookup(str(obs["variant"]))
        piles = []
        for pile in info.piles:  # as the variant declares them
            value = obs.get(pile.key)
            if pile.face_up and pile.spread and value:  # every card (the Sun)
                piles.append(f"{pile.name} " + " ".join(card_markup(x) for x in value))
            elif pile.face_up and value:  # its top
                piles.append(f"{pile.name} top {card_markup(value[-1])}")
            elif not pile.face_up and pile.known_key is not None and value is not None:
                piles.append(f"{pile.name} {value} face down")  # its size (the Moon)
        rnd = f"round {obs['round']}/{obs['rounds']}  " if obs.get("rounds") else ""
        if info.pots and info.pots[0].per_seat:  # one pot per seat (Kessel's round pots)
            names = {s["seat"]: s["name"] for s in obs["seats"]}
            own = ", ".join(f"{names[p['eligible'][0]]} {p['amount']}" for p in pots["side"])
            money = f"{info.pots[0].pot} pots: [bold]{own}[/]  "
        else:
            money = f"main pot [bold]{pots['main']}[/]  sabacc pot [bold]{pots['sabacc']}[/]  "
        c.print(f"{rnd}{money}" + "  ".join(piles))
        you = obs["you"]
        cards = " ".join(card_markup(x) for x in you["cards"]) or "(no cards)"
        hand = you.get("hand") or {}
        name = self.vocab.hand(str(hand.get("name", "")))
        c.print(f"Your hand: {cards}   total [bold]{you['total']:+d}[/]   {name}")

    def show_hints(self, obs: Mapping[str, Any]) -> None:
        """The exact odds of the card options (or of the current hand) for the human seat."""
        if not self.hints:
            return
        self.console.print(hints_table(obs))

    def ask(self, obs: Mapping[str, Any]) -> None:
        self.show_hints(obs)
        legal = self.game.legal_actions()
        phrases = legal_summary(obs["legal"])
        to_call = obs["betting"]["to_call"]
        extra = f" (to call: {to_call})" if to_call else ""
        self.console.print(f"[bold]{self.vocab.phase(obs['phase'])}[/]{extra}. Your options:")
        for i, phrase in enumerate(phrases, 1):
            label = action_label(phrase, self.vocab, to_call=to_call)
            typed = "" if label == phrase else f"  [dim]({phrase})[/]"
            self.console.print(f"  [bold]{i}[/]. {label}{typed}", highlight=False)
        while True:
            answer = Prompt.ask("Your action (number or text, q to quit)", console=self.console)
            text = answer.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise KeyboardInterrupt
            if text.isdigit() and 1 <= int(text) <= len(phrases):
                text = phrases[int(text) - 1]
                if "-" in text.split(" ")[-1] and text.split(" ")[0] in ("bet", "raise"):
                    kind, span = text.split(" ")
                    lo, hi = span.split("-")
                    amount = Prompt.ask(f"How much? ({lo}-{hi})", console=self.console)
                    text = f"{kind} {amount.strip()}"
            try:
                self.game.apply(text, seat=self.human)
                return
            except IllegalActionError as exc:
                self.console.print(f"[red]{exc}[/]")
                if not legal:
                    return

    def run(self) -> None:
        game = self.game
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            if seat == self.human:
                self.show_events()
                obs = game.observation(self.human)
                self.show_state(obs)
                self.ask(obs)
            else:
                game.apply(decide(self.bots[seat], game, seat), seat=seat)
        self.show_events()
        outcome = game.outcome
        if outcome is not None:
            self.console.print("[bold]Final standings[/]")
            for place, s in enumerate(outcome.standings, 1):
                self.console.print(
                    f"{place}. {game.names[s]}: {outcome.stacks[s]} ({outcome.payoffs[s]:+d})"
                )
