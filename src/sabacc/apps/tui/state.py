"""The terminal table's session state: what every part of the table reads and changes."""

from __future__ import annotations

from collections import deque
from typing import Any, Protocol, runtime_checkable

from rich.text import Text
from textual.screen import Screen

from sabacc.apps.tui.config import TableConfig
from sabacc.apps.tui.controls import Choice, Sizer
from sabacc.core import events as ev
from sabacc.core.actions import Action
from sabacc.engine.game import Game
from sabacc.services.bots import Bot

MAX_OPPONENTS = 7
PILE_SLOTS = 4
DIGIT_KEYS = "1234567890"
#: The smallest terminal the table is drawn in; below it a notice asks for a larger one.
MIN_WIDTH, MIN_HEIGHT = 80, 24
#: From this size on the table is roomy: big cards (9×7) in your hand and on the piles.
ROOMY_WIDTH, ROOMY_HEIGHT = 110, 36


@runtime_checkable
class TableHost(Protocol):
    """What the table asks of the app that shows it (:class:`sabacc.apps.tui.app.SabaccApp`)."""

    def new_game(self, config: TableConfig) -> None: ...

    def open_settings(self, *, can_cancel: bool = True) -> None: ...


class TableState(Screen[None]):
    """The table's session state and the questions asked of it, shared by its three parts.

    The game loop (:mod:`~sabacc.apps.tui.loop`), the input (:mod:`~sabacc.apps.tui.keys`) and
    the drawing (:mod:`~sabacc.apps.tui.layout`) each add their methods; the few each needs
    from another are declared here and implemented there.
    """

    def __init__(self, human: int = 0) -> None:
        super().__init__()
        self.human = human
        self.lang = "en"  # the language of the log and the action labels
        self.game: Game | None = None
        self.bots: dict[int, Bot] = {}
        self.config = TableConfig()
        self.generation = 0
        self.seen = 0
        self.queue: deque[ev.Event] = deque()
        self.queue_lines: deque[str | None] = deque()  # the log line of each queued event
        self.review: dict[str, Any] | None = None
        self.review_adjust: dict[int, int] = {}
        self.review_lines: list[str] = []  # the hand's explanation (services.explain)
        self.log_lines: list[Text] = []  # this hand's log, rewritten (re-wrapped) on resize
        self.log_events: list[ev.Event] = []  # the events behind it (re-said in a new language)
        self.hand_status: dict[int, str] = {}
        self.last_you_cards: list[str] = []
        self.mode = "play"  # "play" | "pick" | "size" | "subset"
        self.pick: Choice | None = None
        self.chosen: set[int] = set()  # hand positions chosen in a subset choice
        self.sizer: Sizer | None = None
        self.choices: list[Choice] = []
        self.thinking: int | None = None
        self.show_hints = False
        self.over_shown = False
        self.pile_names: list[str] = []
        self.pile_widths: dict[int, tuple[int, int]] = {}

    @property
    def human_turn(self) -> bool:
        game = self.game
        return (
            game is not None
            and self.review is None
            and not game.is_over
            and game.current_player == self.human
        )

    @property
    def state(self) -> str:
        """``"human"`` (your decision), ``"review"`` (hand summary), ``"over"``, ``"bots"``."""
        if self.game is None:
            return "idle"
        if self.review is not None:
            return "review"
        if self.game.is_over and not self.queue:
            return "over"
        if self.human_turn:
            return "human"
        return "bots"

    @staticmethod
    def final_hand(game: Game) -> bool:
        """Whether the hand being played is the game's last by its length setting (a hand
        limit, or the dealer button about to complete its orbit): the top bar says so."""
        if game.is_over or game.hand_no == 0:
            return False
        limit = game.options.hand_limit
        if limit is not None and game.hand_no >= limit:
            return True
        if game.options.game_end != "orbit":
            return False
        step = 1
        while step < game.n and game.out[(game.dealer + step) % game.n]:
            step += 1
        return game.orbit_steps + step >= game.n

    def _reset_mode(self) -> None:
        self.mode = "play"
        self.pick = None
        self.sizer = None
        self.chosen = set()

    # ------------------------------------------------------------------ implemented by the parts
    def advance(self) -> None:
        """Take in new events and hand the turn on (:class:`~sabacc.apps.tui.loop.TurnLoop`)."""
        raise NotImplementedError

    def act(self, action: Action) -> None:
        """Apply the human's action (:class:`~sabacc.apps.tui.loop.TurnLoop`)."""
        raise NotImplementedError

    def continue_play(self) -> None:
        """Leave the hand summary (:class:`~sabacc.apps.tui.loop.TurnLoop`)."""
        raise NotImplementedError

    def refresh_table(self) -> None:
        """Redraw the table (:class:`~sabacc.apps.tui.layout.TableLayout`)."""
        raise NotImplementedError

    def _layout_seats(self) -> None:
        """Arrange the opponents' seats (:class:`~sabacc.apps.tui.layout.TableLayout`)."""
        raise NotImplementedError

    def localize_bindings(self) -> None:
        """Say the footer's keys in the table's language
        (:class:`~sabacc.apps.tui.app.TableScreen`)."""
        raise NotImplementedError

    def action_new_game(self) -> None:
        """Open the settings for a new game (:class:`~sabacc.apps.tui.keys.KeyInput`)."""
        raise NotImplementedError
