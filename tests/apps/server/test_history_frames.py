"""The step-by-step hand viewer: every frame is the state after that action, as the viewer
may see it, and the frames of a hand carry each of its events exactly once."""

from __future__ import annotations

import asyncio
from itertools import pairwise
from typing import Any

import sabacc
from sabacc.engine.game import Game
from sabacc.services.explain import explain_hand
from tests.apps.server.helpers import Client, ServerProcess, finished


def _hand_ranges(doc: dict[str, Any]) -> dict[int, tuple[int, int, int, int]]:
    """hand -> (first action, end action, first event, end event) of the replayed game."""
    ranges: dict[int, list[int]] = {}
    marks: list[tuple[int, int, int]] = []  # (applied, hand before next action, events)

    def step(game: Game, applied: int) -> None:
        marks.append((applied, game.hand_no, len(game.events)))

    sabacc.replay(doc, on_step=step)
    for (applied, hand, events), (_, _, after) in pairwise(marks):
        r = ranges.setdefault(hand, [applied, applied + 1, events, after])
        r[1], r[3] = applied + 1, after
    return {h: (a, b, c, d) for h, (a, b, c, d) in ranges.items()}


def test_frames_match_the_replayed_game(server: ServerProcess) -> None:
    code = server.create(
        seats=["bot:heuristic", "bot:random", "bot:heuristic"],
        options={"game_end": "hands:3"},
    )["code"]

    async def wait() -> None:
        async with Client(server, code) as watcher:
            while not finished(watcher.state):
                await watcher.recv(30)

    asyncio.run(wait())
    doc = server.get(f"/api/tables/{code}/games/1/history").json()
    full = sabacc.replay(doc)
    ranges = _hand_ranges(doc)
    for hand in (1, 2, 3):
        first, end, ev_first, ev_end = ranges[hand]
        body = server.get(f"/api/tables/{code}/games/1/hands/{hand}").json()
        frames = body["frames"]
        assert body["viewer"] is None and body["hand"] == hand
        assert len(frames) == 1 + end - first
        assert frames[0]["action"] is None
        for k, frame in enumerate(frames):
            at = sabacc.replay(doc, upto=first + k)
            assert frame["game"] == at.observation(None)
            if k:
                assert frame["action"]["seat"] == doc["actions"][first + k - 1]["seat"]
        # (the rendered "text" of each event is the renderer's business, tested there)
        shown = [{k: v for k, v in e.items() if k != "text"} for f in frames for e in f["events"]]
        start = next(
            i for i in range(ev_first - 1, -1, -1) if type(full.events[i]).__name__ == "HandStarted"
        )
        expected = [e.visible_to(None).to_dict() for e in full.events[start:ev_end]]
        assert shown == expected


def test_a_hand_end_frame_explains_it_in_every_language(server: ServerProcess) -> None:
    # The viewer's showdown said pot names and reasons in English whatever the language: the
    # last frame of a hand carries the server's explanation, as the live table shows it.
    code = server.create(
        variant="classic",
        seats=["bot:heuristic", "bot:random", "bot:heuristic"],
        options={"game_end": "hands:2"},
    )["code"]

    async def wait() -> None:
        async with Client(server, code) as watcher:
            while not finished(watcher.state):
                await watcher.recv(30)

    asyncio.run(wait())
    doc = server.get(f"/api/tables/{code}/games/1/history").json()
    game = sabacc.replay(doc)
    for hand in (1, 2):
        frames = server.get(f"/api/tables/{code}/games/1/hands/{hand}").json()["frames"]
        assert all("explain" not in f for f in frames[:-1])
        explain = frames[-1]["explain"]
        result = next(r for r in game.hand_results if r.hand == hand)
        for lang in ("en", "ja"):
            expected = explain_hand(game.info, result, game.names, game.events_for(None), lang=lang)
            assert explain[lang] == expected and expected
        assert any("\u3040" <= ch <= "\u30ff" for line in explain["ja"] for ch in line)
        assert explain["ja"] != explain["en"]
