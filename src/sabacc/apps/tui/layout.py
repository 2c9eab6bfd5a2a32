"""The terminal table's drawing: its widgets, and each redrawn from the human's observation."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Footer, RichLog, Static

from sabacc.apps.tui import hints as odds_hints
from sabacc.apps.tui.controls import build_choices, subset_action
from sabacc.apps.tui.state import (
    MAX_OPPONENTS,
    MIN_HEIGHT,
    MIN_WIDTH,
    PILE_SLOTS,
    ROOMY_HEIGHT,
    ROOMY_WIDTH,
    TableState,
)
from sabacc.apps.tui.view import (
    CARD_SIZE,
    Pile,
    betting_now,
    chip,
    colour_cards,
    dice_line,
    hand_label,
    info_parts,
    kept_cards,
    key_facts,
    phase_said_by,
    pile_counts,
    piles,
    pot_lines,
    result_lines,
    review_status_line,
    seat_body,
    seat_fact,
    seat_title,
    shift_banner,
    side_hand_text,
    signed_amount,
    status_line,
    you_summary,
)
from sabacc.apps.tui.widgets import ActionBar, CardsView, SeatView
from sabacc.apps.tui.wrap import CellLog
from sabacc.core import events as ev
from sabacc.core.errors import SabaccError
from sabacc.engine.actions import Control
from sabacc.services.render import Vocabulary, vocabulary


class TableLayout(TableState):
    """The widgets of the table and how each is drawn from the human's observation."""

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")
        with Horizontal(id="topbar"):
            yield Static(id="top")
            yield Static(id="top-right")
        with Grid(id="opponents"):
            for i in range(1, MAX_OPPONENTS + 1):
                yield SeatView(id=f"seat-{i}")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                with Vertical(id="centre"):
                    yield Static(id="centre-text")
                    with Horizontal(id="piles"):
                        for i in range(PILE_SLOTS):
                            with Vertical(classes="pile", id=f"pile-{i}"):
                                yield Static(classes="pile-label")
                                yield CardsView(id=f"pile-cards-{i}")
                with Vertical(id="you"):
                    with Horizontal(id="you-row"):
                        yield CardsView(id="hand")
                        yield Static(id="side-hand")
                    yield Static(id="you-summary")
            log = CellLog(id="log", wrap=True, min_width=16, markup=False)
            log.border_title = vocabulary(None, self.lang).text("ui.this_hand")
            log.can_focus = False
            yield log
        yield ActionBar(id="actions")
        yield Footer(compact=True, show_command_palette=False)

    def on_resize(self, event: events.Resize) -> None:
        """Below the minimum size, a notice instead of a clipped table; the log re-wraps."""
        width, height = event.size.width, event.size.height
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(small, "too-small")
        self.set_class(width >= ROOMY_WIDTH and height >= ROOMY_HEIGHT, "roomy")
        notice = self.query_one("#too-small", Static)
        if small:
            message = vocabulary(None, self.lang).text(
                "ui.too_small", width=width, height=height,
                min_width=MIN_WIDTH, min_height=MIN_HEIGHT,
            )  # fmt: skip
            notice.update(Text(message, justify="center"))
        self.call_after_refresh(self._rewrap_log)
        self.call_after_refresh(self.refresh_table)  # pile widths follow the card size

    def _rewrap_log(self) -> None:
        log = self.query_one("#log", RichLog)
        log.clear()
        for line in self.log_lines:
            log.write(line)

    def _layout_seats(self) -> None:
        assert self.game is not None
        opponents = self.game.n - 1
        cols = opponents if opponents <= 4 else math.ceil(opponents / 2)
        self.query_one("#opponents", Grid).styles.grid_size_columns = max(1, cols)
        for i in range(1, MAX_OPPONENTS + 1):
            self.query_one(f"#seat-{i}", SeatView).display = i <= opponents
        self.set_class(opponents > 4, "crowded")

    def refresh_table(self) -> None:
        game = self.game
        if game is None:
            return
        obs = game.observation(self.human)
        review = self.review
        self.choices = build_choices(obs, self.lang, game.parse_action) if self.human_turn else []
        import sabacc

        try:
            title = sabacc.variant(game.variant).title
        except SabaccError:  # pragma: no cover - the game's own variant is registered
            title = game.variant
        vocab = vocabulary(game.variant, self.lang)
        top = (
            status_line(obs, title, self.lang)
            if review is None
            else review_status_line(review, title, vocab)
        )
        if review is None:
            dice = dice_line(obs, self.lang)
            if dice is not None and dice[1]:  # in the top bar: the centre has no line to spare
                top.append("  ")
                top.append_text(shift_banner(vocab))
            if self.final_hand(game):
                top.append("  ")
                top.append(f" {vocab.text('banner.final_hand')} ", style="bold black on cyan")
        self.query_one("#top", Static).update(top)
        seed = f"{vocab.text('ui.seed')} {game.seed} "
        self.query_one("#top-right", Static).update(Text(seed, style="dim"))
        self._draw_seats(obs, review)
        self._draw_centre(obs, review)
        self._draw_you(obs, review)
        self._draw_actions(obs, review)

    def _stack(self, obs: Mapping[str, Any], seat: int) -> int:
        stack = int(obs["seats"][seat]["stack"])
        return stack + self.review_adjust.get(seat, 0) if self.review is not None else stack

    def _draw_seats(self, obs: Mapping[str, Any], review: Mapping[str, Any] | None) -> None:
        seats = obs["seats"]
        winners: set[int] = set()
        if review is not None:
            for pot in review.get("pots") or []:
                winners.update(pot.get("winners") or [])
        for i in range(1, MAX_OPPONENTS + 1):
            view = self.query_one(f"#seat-{i}", SeatView)
            if i >= len(seats):
                continue
            seat = dict(seats[i])
            seat["stack"] = self._stack(obs, i)
            if review is not None:
                seat["dealer"] = review.get("dealer") == i
            to_act = review is None and obs.get("current_player") == i
            view.border_title = seat_title(seat, to_act)
            reveal = None
            net = None
            if review is not None:
                hands = review.get("hands") or {}
                reveal = hands.get(str(i))
                nets = review.get("net") or []
                net = int(nets[i]) if i < len(nets) else None
                if reveal is None:
                    status = self.hand_status.get(i, "waiting")
                    seat["status"] = status if status != "in" else "active"
                    seat["cards"] = 0
                    seat["round_bet"] = 0
                    seat["known_cards"] = []
            view.update(
                seat_body(
                    obs, seat, thinking=self.thinking == i, reveal=reveal, net=net, lang=self.lang
                )
            )
            view.set_class(to_act, "to-act")
            status = str(seats[i].get("status", ""))
            view.set_class(review is None and status in ("junked", "out"), "gone")
            view.set_class(i in winners, "winner")

    def _draw_centre(self, obs: Mapping[str, Any], review: Mapping[str, Any] | None) -> None:
        game = self.game
        assert game is not None
        lines: list[Text] = []
        shown: list[Pile] = []
        menu = self.pick if self.mode == "pick" and self.pick is not None else None
        vocab = vocabulary(game.variant, self.lang)
        if review is not None:
            lines.extend(result_lines(review, self.review_lines, game.variant, vocab))
        elif menu is not None and any(o.where == "menu" for o in menu.options):
            lines.append(side_hand_text(obs, self.lang, menu) or Text())  # entries and effects
        else:
            lines.extend(pot_lines(obs, self.lang))
            facts_line = key_facts(obs, self.lang)
            if facts_line is not None:
                lines.append(facts_line)
            dice = dice_line(obs, self.lang)
            if dice is not None:
                lines[0].append("   ")
                lines[0].append_text(dice[0])
            counts = pile_counts(obs, self.lang)
            facts = [p for p in (counts, Text(" · ".join(info_parts(obs, self.lang)))) if p]
            if facts:
                fact_line = Text(" · ", style="dim").join(facts)
                fact_line.stylize("dim")
                if game.info.display.declared_piles:  # its piles take two label rows
                    lines[0].append(" · ", style="dim")
                    lines[0].append_text(fact_line)
                else:
                    lines.append(fact_line)
            shown = piles(obs, game.info, self.lang)[:PILE_SLOTS]
        self.query_one("#centre-text", Static).update(Text("\n").join(lines))
        # Cards being picked from a pile (a Sun card to take): numbered and lit on that pile.
        pile_picks: dict[str, set[int]] = {}
        if self.mode == "pick" and self.pick is not None:
            for o in self.pick.options:
                if o.where not in ("hand", "menu"):
                    pile_picks.setdefault(o.where, set()).add(o.index)
        self.pile_names = [p.name for p in shown]
        # Each pile as wide as its cards; the widest shrinks to chips if they do not all fit.
        card = CARD_SIZE[self.has_class("roomy") and not self.has_class("crowded")][0]
        widths = [max(card, (len(p.codes) + p.backs) * (card + 1) - 1) for p in shown]
        room = self.query_one("#centre", Vertical).content_size.width or 46
        if widths and sum(w + 2 for w in widths) > room:
            widest = widths.index(max(widths))
            others = sum(w + 2 for i, w in enumerate(widths) if i != widest)
            widths[widest] = max(7, room - others - 2)
        for i in range(PILE_SLOTS):
            slot = self.query_one(f"#pile-{i}", Vertical)
            if i >= len(shown):
                slot.display = False
                continue
            pile = shown[i]
            slot.display = True
            slot.query_one(".pile-label", Static).update(pile.label)
            view = slot.query_one(CardsView)
            label_width = max(cell_len(line) for line in pile.label.split("\n"))
            if self.pile_widths.get(i) != (widths[i], label_width):
                self.pile_widths[i] = (widths[i], label_width)
                view.styles.width = widths[i]
                slot.styles.width = max(widths[i], label_width)
            picks = pile_picks.get(pile.name, set())
            numbered = bool(picks)
            view.show(
                game.variant,
                pile.codes,
                highlight=picks,
                numbered=numbered,
                backs=pile.backs,
                empty_text="—",
            )

    def _draw_you(self, obs: Mapping[str, Any], review: Mapping[str, Any] | None) -> None:
        game = self.game
        assert game is not None
        me = dict(obs["seats"][self.human])
        if review is not None:
            me["dealer"] = review.get("dealer") == self.human
        you = obs.get("you") or {}
        box = self.query_one("#you", Vertical)
        hand_view = self.query_one("#hand", CardsView)
        hints = self.query_one("#you-summary", Static)
        v = vocabulary(game.variant, self.lang)
        title = f"{'▶ ' if self.human_turn else ''}{me['name']}"
        if me.get("dealer"):
            title += " (D)"
        title += f" · {self._stack(obs, self.human)} {v.text('ui.credits')}"
        for fact in game.info.display.seat_facts if review is None else ():
            value = seat_fact(obs, me, fact.key)
            label = fact.label.get(self.lang) or fact.label.get("en", fact.key)
            if fact.flag and value:
                title += f" · {label}"
            elif not fact.flag and value is not None:
                title += " · " + label.format(value=value)
        if review is None and me.get("round_bet") and betting_now(obs):
            title += " · " + v.text("ui.bet", n=me["round_bet"])
        status = str(me.get("status") or "active")
        if review is None and status != "active":
            key = f"ui.status.{status}"
            title += " · " + (v.text(key) if v.has(key) else status.replace("_", "-"))
        box.border_title = title
        box.set_class(self.human_turn, "to-act")
        hint: Text | None = None
        if review is not None:
            shown = (review.get("hands") or {}).get(str(self.human))
            if shown is not None:
                cards = list(shown.get("cards") or [])
                text = Text(v.text("ui.showed"))
                text.append(hand_label(str(shown.get("name", "")), v), style="bold")
            else:
                junked = self.hand_status.get(self.human) == "junked"
                cards = [] if junked else self.last_you_cards
                text = Text(v.text("ui.junked") if junked else v.text("ui.not_shown"))
            nets = review.get("net") or []
            if self.human < len(nets):
                delta = int(nets[self.human])
                text.append(v.text("ui.this_hand_net"))
                text.append(signed_amount(delta), style="green" if delta > 0 else "red")
            hand_view.show(game.variant, cards, numbered=False, empty_text=v.text("ui.no_cards"))
        else:
            cards = list(you.get("cards") or [])
            drawn = obs.get("drawn")
            if isinstance(drawn, dict) and drawn.get("card"):  # drawn, to keep or discard
                cards.append(str(drawn["card"]))
            highlight: set[int] = set()
            numbered = True
            if self.mode == "pick" and self.pick is not None:
                highlight = {o.index for o in self.pick.options if o.where == "hand"}
                numbered = bool(highlight)  # digits pick from another row: hide these
            elif self.mode == "subset":
                highlight = set(self.chosen)
            hand_view.show(
                game.variant,
                cards,
                highlight=highlight,
                numbered=numbered,
                empty_text=v.text("ui.no_cards"),
                kept=kept_cards(obs),
            )
            text = you_summary(obs, self.lang)
            if self.show_hints and self.human_turn:
                hint = odds_hints.hint_text(obs, self.lang)

        side = side_hand_text(obs, self.lang)
        side_view = self.query_one("#side-hand", Static)
        side_view.display = side is not None
        side_view.update(side or "")
        box.border_subtitle = Text(" ") + text + Text(" ")
        hints.display = hint is not None
        hints.update(hint or "")

    def _keep_word(self, v: Vocabulary) -> str:
        """The word confirming a subset: the variant's subset kind's label, else "keep"."""
        game = self.game
        kinds = game.info.actions if game is not None else ()
        name = next((k.name for k in kinds if k.control is Control.SUBSET), "")
        return v.label(name) if name and v.has(f"label.{name}") else v.text("ui.keep")

    def _draw_actions(self, obs: Mapping[str, Any], review: Mapping[str, Any] | None) -> None:
        game = self.game
        assert game is not None
        bar = self.query_one("#actions", ActionBar)
        v = vocabulary(game.variant, self.lang)
        if review is not None:
            last = game.is_over and not any(isinstance(e, ev.HandStarted) for e in self.queue)
            what = v.text("ui.final_standings") if last else v.text("ui.next_hand")
            bar.show(
                Text(v.text("ui.hand_over_prompt", hand=review.get("hand")), style="bold"),
                [("enter", "⏎", what)],
            )
            return
        if game.is_over:
            bar.show(Text(v.text("ui.game_over"), style="bold"), [])
            return
        if not self.human_turn:
            seat = game.current_player
            name = game.names[seat] if seat is not None else "—"
            key = "ui.thinking" if self.thinking == seat else "ui.is_to_act"
            bar.show(Text(v.text(key, who=name), style="italic"), [])
            return
        phase = v.phase(str(obs.get("phase", "")))
        if self.mode == "size" and self.sizer is not None:
            s = self.sizer
            kind = v.label(s.kind)
            prompt = Text(f"{kind[:1].upper()}{kind[1:]} ", style="bold")
            prompt.append(str(s.value), style="bold reverse" if s.valid else "bold red")
            if not s.valid:
                prompt.append(v.text("ui.sizer_out_of_range"), style="bold red")
            prompt.append(
                v.text("ui.sizer_help", low=s.low, high=s.high, unit=s.unit, five=5 * s.unit)
            )
            bar.show(
                prompt,
                [
                    ("left", "←", ""),
                    ("right", "→", ""),
                    ("m", "m", v.text("ui.min")),
                    ("h", "h", v.text("ui.half_pot")),
                    ("p", "p", v.text("ui.pot_word")),
                    ("a", "a", v.text("ui.all_in")),
                    ("enter", "⏎", f"{kind} {s.value}" if s.valid else "—"),
                    ("escape", "esc", v.text("ui.back")),
                ],
            )
            return
        if self.mode == "subset" and self.pick is not None:
            hand = list((obs.get("you") or {}).get("cards") or [])
            chosen = [hand[i] for i in sorted(self.chosen) if i < len(hand)]
            ready = subset_action(self.pick, hand, self.chosen) is not None
            prompt = Text(v.text("ui.keep_which"), style="bold")
            prompt.append_text(colour_cards(game.variant, " ".join(chosen)))
            if not chosen:
                prompt.append(v.text("ui.none_yet"))
            if ready:
                prompt.stylize("reverse", len(v.text("ui.keep_which")))
            bar.show(
                prompt,
                [
                    ("1", "1-5", v.text("ui.toggle")),
                    ("enter", "⏎", self._keep_word(v) if ready else v.text("ui.pick_a_card")),
                    ("escape", "esc", v.text("ui.back")),
                ],
            )
            return
        if self.mode == "pick" and self.pick is not None:
            prompt = Text(self.pick.prompt, style="bold")
            entries: list[tuple[str, str, str | Text]] = [
                (o.key, o.key, "" if o.where == "menu" else chip(game.variant, o.code))
                for o in self.pick.options
            ]
            bar.show(prompt, [*entries, ("escape", "esc", v.text("ui.back"))])
            return
        prompt = Text(
            v.text("ui.your_turn_plain")
            if phase_said_by(phase, [v.text("ui.turn", n=1, of=1)])
            else v.text("ui.your_turn", phase=phase),
            style="bold",
        )
        to_call = int((obs.get("betting") or {}).get("to_call") or 0)
        if to_call:
            prompt.append(v.text("ui.to_call", n=to_call), style="cyan")
        bar.show(prompt, [(c.key, c.key, c.label) for c in self.choices])
