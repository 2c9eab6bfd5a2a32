"""A Python client of a sabacc server's API for programs (docs/api.md), and the runner that
puts a bot on a server.

It needs nothing beyond the standard library (``urllib``)::

    from sabacc.apps.client import Client, BotRunner
    from sabacc.services.bots import make_bot

    client = Client("https://sabacc.example", token="sbc_...")
    print(client.whoami())                      # {"username": ..., "bot": true, ...}
    BotRunner(client, lambda variant: make_bot("easy", variant=variant)).run()

:class:`Client` is one call per endpoint (each refusal an :class:`ApiError` with the server's
code); :meth:`Client.events` and :meth:`Client.game` read the NDJSON streams. :class:`BotRunner`
accepts the challenges of the bot account (of the variants it is told), plays each game in a
thread of its own with a bot of the same interface as the local bots
(:class:`sabacc.services.bots.Bot`: ``act(observation, legal)``), and answers each state where
its seat is to act with the bot's choice. ``sabacc bot connect`` runs it from the command line.

Search levels (``normal``, ``hard``) imagine the hidden cards from the game itself, which a
remote seat never has: through the API they decide as their fallback (the heuristic) does.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from sabacc.core.actions import Action
from sabacc.engine.betting import Legal
from sabacc.services.bots import Bot
from sabacc.variants.registry import lookup

log = logging.getLogger("sabacc.client")

#: Seconds a call may take; a stream may be quiet up to this long (the server sends an empty
#: line every few seconds).
TIMEOUT = 30.0


class ApiError(Exception):
    """A refusal of the server: its ``code`` (``illegal_action``, ``missing_scope``...), its
    message and the HTTP ``status``."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(f"{code}: {message} (HTTP {status})")
        self.code = code
        self.message = message
        self.status = status


def legal_actions(observation: Mapping[str, Any]) -> list[Action]:
    """The legal actions of the seat to act, from its observation's compact ``legal`` (fixed
    actions as text, bet and raise ranges), as the engine lists them."""
    info = lookup(str(observation["variant"]))
    legal = observation.get("legal") or {}
    fixed = tuple(info.parse_action(text) for text in legal.get("actions", ()))
    bet, raise_ = legal.get("bet"), legal.get("raise")
    return Legal(
        fixed,
        None if bet is None else (int(bet[0]), int(bet[1])),
        None if raise_ is None else (int(raise_[0]), int(raise_[1])),
    ).actions()


class Client:
    """The API of one server, as the account of one personal API token."""

    def __init__(self, server: str, token: str, timeout: float = TIMEOUT) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.timeout = timeout

    def __repr__(self) -> str:  # never the token
        return f"Client({self.server!r})"

    # -------------------------------------------------------------- plumbing
    def _request(self, method: str, path: str, body: Any = None) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        return urllib.request.Request(self.server + path, data, headers, method=method)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """One API call: its JSON answer, or :class:`ApiError`."""
        try:
            with urllib.request.urlopen(
                self._request(method, path, body), timeout=self.timeout
            ) as res:
                return json.loads(res.read() or b"null")
        except urllib.error.HTTPError as exc:
            raise _api_error(exc) from None

    def stream(self, path: str, keepalives: bool = False) -> Iterator[dict[str, Any]]:
        """The objects of an NDJSON stream until it ends; its keep-alive lines (empty) are
        skipped, or with ``keepalives`` given as ``{"type": "keepalive"}`` (a reader that
        wants to stop between events sees one every few seconds)."""
        try:
            res = urllib.request.urlopen(self._request("GET", path), timeout=self.timeout)
        except urllib.error.HTTPError as exc:
            raise _api_error(exc) from None
        with res:
            for raw in res:
                text = raw.strip()
                if text:
                    yield json.loads(text)
                elif keepalives:
                    yield {"type": "keepalive"}

    # -------------------------------------------------------------- endpoints
    def whoami(self) -> dict[str, Any]:
        """The token's account (``username``, ``bot``) and its ``scopes``."""
        return dict(self.call("GET", "/api/account/whoami"))

    def become_bot(self) -> dict[str, Any]:
        """Make the account a bot account (an account with no games; token scope ``bot``)."""
        return dict(self.call("POST", "/api/account/bot"))

    def events(self, keepalives: bool = False) -> Iterator[dict[str, Any]]:
        """The account's events (``challenge``, ``game_start``, ``game_finish``...)."""
        return self.stream("/api/stream/events", keepalives)

    def challenge(
        self,
        username: str,
        variant: str,
        turn_timer: float = 30.0,
        options: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Challenge the bot account ``username`` to a game of ``variant`` (with the variant's
        ``options``, as a table's; ``turn_timer``: seconds a turn may take before the timer
        plays it)."""
        body = {"variant": variant, "turn_timer": turn_timer, "options": dict(options or {})}
        return dict(self.call("POST", f"/api/challenge/{_q(username)}", body))

    def challenge_status(self, challenge_id: str) -> dict[str, Any]:
        return dict(self.call("GET", f"/api/challenge/{_q(challenge_id)}"))

    def accept(self, challenge_id: str) -> dict[str, Any]:
        return dict(self.call("POST", f"/api/challenge/{_q(challenge_id)}/accept"))

    def decline(self, challenge_id: str) -> dict[str, Any]:
        return dict(self.call("POST", f"/api/challenge/{_q(challenge_id)}/decline"))

    def cancel(self, challenge_id: str) -> dict[str, Any]:
        return dict(self.call("POST", f"/api/challenge/{_q(challenge_id)}/cancel"))

    def game(self, code: str) -> Iterator[dict[str, Any]]:
        """The game at table ``code`` as the account's seat sees it: one ``state`` per change
        until the game is over."""
        return self.stream(f"/api/games/{_q(code)}/stream")

    def move(self, code: str, action: str | Action, version: int | None = None) -> dict[str, Any]:
        """Play ``action`` at the account's seat of table ``code`` (``version``: refused as
        ``stale`` if the table moved on)."""
        body: dict[str, Any] = {"action": str(action)}
        if version is not None:
            body["version"] = version
        return dict(self.call("POST", f"/api/games/{_q(code)}/move", body))

    def bots(self) -> list[dict[str, Any]]:
        return list(self.call("GET", "/api/bots")["bots"])

    def bot_leaders(self, variant: str) -> dict[str, Any]:
        return dict(self.call("GET", f"/api/bots/leaders?variant={_q(variant)}"))


def _q(part: str) -> str:
    return urllib.parse.quote(part, safe="")


def _api_error(exc: urllib.error.HTTPError) -> ApiError:
    try:
        error = json.loads(exc.read() or b"{}").get("error") or {}
    except ValueError:
        error = {}
    return ApiError(str(error.get("code", "http")), str(error.get("message", exc.reason)), exc.code)


BotFactory = Callable[[str], Bot]
"""``factory(variant)``: a fresh bot for one game of ``variant``."""


@dataclass
class BotRunner:
    """Plays a bot account's games on a server with bots from ``factory`` (one per game).

    ``variants`` (empty: any) are the variants whose challenges it accepts; the others are
    declined. ``games`` (0: no end) stops :meth:`run` after that many games.
    """

    client: Client
    factory: BotFactory
    variants: tuple[str, ...] = ()
    games: int = 0
    played: int = 0
    errors: list[str] = field(default_factory=list)
    _threads: dict[str, threading.Thread] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        """Listen to the account's events until ``games`` games are played (or forever),
        reconnecting after a dropped stream."""
        while not self._stop.is_set():
            try:
                events = self.client.events(keepalives=True)
                for event in events:
                    self.handle(event)
                    if self._stop.is_set():
                        break
                close = getattr(events, "close", None)
                if close is not None:
                    close()  # the stream's connection too
            except ApiError as exc:
                if exc.status in (401, 403):
                    raise
                log.warning("event stream refused: %s", exc)
            except OSError as exc:
                log.warning("event stream lost: %s", exc)
            if not self._stop.is_set():
                time.sleep(1.0)
        for thread in list(self._threads.values()):
            thread.join(timeout=self.client.timeout)

    def stop(self) -> None:
        self._stop.set()

    def handle(self, event: Mapping[str, Any]) -> None:
        """Answer one event: a challenge accepted or declined, a game started played."""
        kind = event.get("type")
        if kind == "challenge":
            ch = event["challenge"]
            wanted = not self.variants or ch["variant"] in self.variants
            with contextlib.suppress(ApiError):  # canceled or expired meanwhile
                if wanted:
                    self.client.accept(ch["id"])
                else:
                    self.client.decline(ch["id"])
        elif kind == "game_start":
            code = str(event["game"]["code"])
            if code not in self._threads:
                thread = threading.Thread(target=self.play, args=(code,), daemon=True)
                self._threads[code] = thread
                thread.start()

    def play(self, code: str) -> None:
        """Play the account's seat of table ``code`` until its game is over."""
        bot: Bot | None = None
        try:
            for state in self.client.game(code):
                obs = state.get("observation")
                if obs is None or state.get("over"):
                    continue
                if bot is None:
                    bot = self.factory(str(obs["variant"]))
                if state.get("to_act") == state.get("seat"):
                    self._move(code, bot, obs, int(state["version"]))
        except (ApiError, OSError, ValueError) as exc:
            self.errors.append(f"{code}: {exc}")
            log.warning("game %s: %s", code, exc)
        finally:
            self._threads.pop(code, None)
            self.played += 1
            if self.games and self.played >= self.games:
                self._stop.set()

    def _move(self, code: str, bot: Bot, obs: dict[str, Any], version: int) -> None:
        action = bot.act(obs, legal_actions(obs))  # type: ignore[arg-type]
        for _ in range(20):
            try:
                self.client.move(code, action, version)
                return
            except ApiError as exc:
                if exc.code == "stale":  # the timer played first: the next state says so
                    return
                if exc.status != 429:
                    raise
                time.sleep(0.5)
