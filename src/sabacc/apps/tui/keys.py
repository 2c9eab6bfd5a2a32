"""The terminal table's input: keys, action-bar clicks and card clicks, and the key bindings."""

from __future__ import annotations

from textual import events, on

from sabacc.apps.tui import hints as odds_hints
from sabacc.apps.tui.controls import Choice, locked_positions, sizer_for, subset_action
from sabacc.apps.tui.screens import ConfirmQuitScreen, RulesScreen
from sabacc.apps.tui.state import TableHost, TableState
from sabacc.apps.tui.widgets import ActionBar, CardsView
from sabacc.core.errors import SabaccError
from sabacc.services.render import glossary_lines, vocabulary


class KeyInput(TableState):
    """What a key, a click on an action or a click on a card means now."""

    def on_key(self, event: events.Key) -> None:
        if self.press_key(event.key, event.character):
            event.stop()
            event.prevent_default()

    @on(ActionBar.Chosen)
    def _chosen(self, message: ActionBar.Chosen) -> None:
        self.press_key(message.key, None)

    @on(CardsView.Picked)
    def _card_clicked(self, message: CardsView.Picked) -> None:
        """A click on a card picks it, when a card is being picked from that row."""
        where = "hand"
        view_id = message.view.id or ""
        if view_id.startswith("pile-cards-"):
            slot = int(view_id.rsplit("-", 1)[1])
            where = self.pile_names[slot] if slot < len(self.pile_names) else ""
        if self.mode == "pick" and self.pick is not None:
            for option in self.pick.options:
                if option.where == where and option.index == message.index:
                    self.act(option.action)
                    return
            return
        if self.mode == "subset" and where == "hand":
            self._toggle(message.index)
            return
        game = self.game
        take = game.info.display.pile_actions.get(where) if game is not None else None
        if game is not None and take and self.human_turn:  # a click on a pile takes from it
            action = game.parse_action(take)
            if game.is_legal(action):
                self.act(action)

    def press_key(self, key: str, character: str | None = None) -> bool:
        """Do what ``key`` means now; True if it meant something."""
        if self.game is None:
            return False
        if self.review is not None:
            if key in ("enter", "space"):
                self.continue_play()
                return True
            return False
        if not self.human_turn:
            return False
        if self.mode == "size" and self.sizer is not None:
            return self._size_key(key, character)
        if self.mode == "subset" and self.pick is not None and self._subset_key(key, character):
            return True
        if self.mode == "pick" and self.pick is not None:
            if key == "escape":
                self._reset_mode()
                self.refresh_table()
                return True
            for option in self.pick.options:
                if option.key == key:
                    self.act(option.action)
                    return True
            # Another choice's key switches to it.
        for choice in self.choices:
            if choice.key == key:
                self._activate(choice)
                return True
        return False

    def _activate(self, choice: Choice) -> None:
        game = self.game
        assert game is not None
        if choice.kind == "direct" and choice.action is not None:
            self.act(choice.action)
        elif choice.kind == "pick":
            self.mode = "pick"
            self.pick = choice
            self.refresh_table()
        elif choice.kind == "subset":
            self.mode = "subset"
            self.pick = choice
            self.chosen = set(locked_positions(choice, self._hand()))
            self.refresh_table()
        elif choice.kind == "size":
            self.mode = "size"
            self.sizer = sizer_for(choice, game.observation(self.human))
            self.refresh_table()

    def _hand(self) -> list[str]:
        game = self.game
        assert game is not None
        obs = game.observation(self.human)
        return list(obs["you"]["cards"]) if "you" in obs else []

    def _toggle(self, index: int) -> None:
        """Choose or unchoose the hand card at ``index`` (cards kept before stay chosen)."""
        if self.pick is None or not 0 <= index < len(self._hand()):
            return
        if index in locked_positions(self.pick, self._hand()):
            self.app.bell()
            return
        self.chosen ^= {index}
        self.refresh_table()

    def _subset_key(self, key: str, character: str | None) -> bool:
        assert self.pick is not None
        if character is not None and character.isdigit() and len(key) == 1:
            self._toggle(int(character) - 1)
            return True
        if key == "enter":
            action = subset_action(self.pick, self._hand(), self.chosen)
            if action is None:
                self.app.bell()
            else:
                self.act(action)
            return True
        if key == "escape":
            self._reset_mode()
            self.refresh_table()
            return True
        return False

    def _size_key(self, key: str, character: str | None) -> bool:
        sizer = self.sizer
        assert sizer is not None
        steps = {"left": -1, "minus": -1, "right": 1, "plus": 1, "equals_sign": 1, "down": -5}
        steps["up"] = 5
        presets = {"m": "min", "h": "half", "p": "pot", "a": "max"}
        if key in steps:
            sizer.step(steps[key])
        elif key in presets:
            sizer.preset(presets[key])
        elif character is not None and character.isdigit() and len(key) == 1:
            if not sizer.type_digit(character):
                self.app.bell()
        elif key == "backspace":
            sizer.backspace()
        elif key == "enter":
            action = sizer.action()
            if action is None:
                self.app.bell()
                return True
            self.act(action)
            return True
        elif key == "escape":
            self._reset_mode()
        else:
            return False
        self.refresh_table()
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hints":
            return odds_hints.available()
        return True

    def rules_pages(self) -> tuple[str, str, str] | None:
        """The variant's title, its one-screen "how to win" with the hand glossary, and its
        full rules, in the table's language."""
        game = self.game
        variant = game.variant if game is not None else self.config.variant
        import sabacc

        try:
            v = sabacc.variant(variant)
        except SabaccError:
            return None
        vocab = vocabulary(v.info, self.lang)
        howto = vocab.text("howto") if vocab.has("howto") else ""
        glossary = "\n".join(glossary_lines(v.name, self.lang))
        intro = "\n\n".join(part for part in (howto, glossary) if part)
        return v.title, intro, v.rules_text.rstrip()

    def action_rules(self) -> None:
        pages = self.rules_pages()
        if pages is None:
            return
        title, intro, rules = pages
        screen = RulesScreen(title, f"{intro}\n\n{rules}" if intro else rules, lang=self.lang)
        self.app.push_screen(screen)

    def show_intro(self) -> None:
        """The one-screen "how to win" (shown when ``sabacc play`` starts; ``?`` shows it again
        with the full rules)."""
        pages = self.rules_pages()
        if pages is None or not pages[1]:
            return
        title, intro, _ = pages
        heading = vocabulary(None, self.lang).text("ui.howto_heading")
        self.app.push_screen(RulesScreen(title, intro, heading=heading, lang=self.lang))

    def action_hints(self) -> None:
        if odds_hints.available():
            self.show_hints = not self.show_hints
            self.refresh_table()

    def action_new_game(self) -> None:
        app = self.app
        if isinstance(app, TableHost):
            app.open_settings(can_cancel=self.game is not None)

    def action_quit(self) -> None:
        """Quit; a game in progress asks first (its history is kept for ``--save`` either way)."""
        game = self.game
        if game is None or game.is_over:
            self.app.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.app.exit()

        v = vocabulary(None, self.lang)
        self.app.push_screen(
            ConfirmQuitScreen(v.text("ui.quit_question", hand=game.hand_no), lang=self.lang),
            callback=answered,
        )
