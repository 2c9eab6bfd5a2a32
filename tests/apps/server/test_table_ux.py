"""The server side of the web table as a product: away and "I'm back", seats kept across New
game, timer moves marked, table chat, and the lobby list."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.apps.server.helpers import Client, ServerProcess


def _state(pred: Any) -> Any:
    return lambda m: m["type"] == "state" and pred(m)


def test_away_clears_on_back(server: ServerProcess) -> None:
    async def main() -> None:
        created = server.create(
            seats=["human", "human"], player_name="Ann", turn_timer=0.3,
            options={"game_end": "hands:3"},
        )  # fmt: skip
        code = created["code"]
        bob = server.join(code, "Bob")
        async with (
            Client(server, code, created["token"]) as ann,
            Client(server, code, bob["token"]) as cb,
        ):
            # Nobody clicks: after two timer moves in a row a seat counts as away.
            st = await ann.wait_for(_state(lambda m: m["you"]["away"]), timeout=20)
            assert st["table"]["seats"][0]["away"]
            timer_lines = [
                e for m in ann.messages if m["type"] == "state" for e in m["events"]
                if e.get("auto")
            ]  # fmt: skip
            assert timer_lines and all(
                e["text"] is None or e["text"]["en"] is None or e["text"]["en"].endswith("(timer)")
                for e in timer_lines
            )
            assert any(e["text"] and "時間切れ" in (e["text"]["ja"] or "") for e in timer_lines)
            # "I'm back" clears it, without reconnecting.
            await ann.send({"type": "back"})
            st = await ann.wait_for(_state(lambda m: not m["you"]["away"]))
            assert not st["table"]["seats"][0]["away"]
            # Bob is away too; while both are, their seats play themselves (no timer).
            await cb.send({"type": "back"})
            await cb.wait_for(_state(lambda m: not m["you"]["away"]))

    asyncio.run(main())


def test_connected_players_keep_their_seats_across_new_game(server: ServerProcess) -> None:
    async def main() -> None:
        created = server.create(
            seats=["human", "human", "human"], player_name="Hana", turn_timer=0.15,
            options={"game_end": "hands:1"},
        )  # fmt: skip
        code = created["code"]
        guest = server.join(code, "Guest")
        gone = server.join(code, "Gone")
        host = Client(server, code, created["token"])
        g = Client(server, code, guest["token"])
        await host.open()
        await g.open()
        # Nobody plays: the timer plays every turn, both connected players end up away, and
        # "Gone" never connects at all.
        await host.wait_for(_state(lambda m: m["table"]["status"] == "finished"), timeout=60)
        assert host.state is not None and host.state["you"]["away"]
        await host.send({"type": "new_game"})
        st = await host.wait_for(_state(lambda m: m["table"]["status"] != "finished"))
        seats = st["table"]["seats"]
        assert st["you"]["seat"] == 0 and seats[0]["name"] == "Hana" and not seats[0]["away"]
        assert seats[guest["seat"]]["name"] == "Guest" and seats[guest["seat"]]["taken"]
        assert not seats[gone["seat"]]["taken"]  # away and not connected: the seat is freed
        assert st["table"]["host_seat"] == 0
        await host.close()
        await g.close()

    asyncio.run(main())


def test_chat_is_shared_limited_and_kept_for_newcomers(server: ServerProcess) -> None:
    async def main() -> None:
        created = server.create(seats=["human", "human"], player_name="Ann", turn_timer=0)
        code = created["code"]
        async with Client(server, code, created["token"]) as ann, Client(server, code) as spy:
            await ann.send({"type": "chat", "text": "  <b>hi</b>\x07 there  "})
            line = await spy.wait_for(lambda m: m["type"] == "chat")
            # Control characters and extra spaces go; markup is kept as text (the client
            # escapes it); the sender is named by their seat.
            assert line["text"] == "<b>hi</b> there"
            assert line["name"] == "Ann" and line["seat"] == 0
            err = await ann.error_reply({"type": "chat", "text": "x" * 201})
            assert err["code"] == "bad_message"
            for i in range(8):
                await ann.send({"type": "chat", "text": f"line {i}"})
            await ann.drain(0.3)
            codes = [e["code"] for e in ann.errors]
            assert "chat_rate" in codes  # a burst of 5, then one line every 2 s
            async with Client(server, code) as late:
                await late.drain(0.2)
                kept = [m["text"] for m in late.messages if m["type"] == "chat"]
                assert kept[0] == "<b>hi</b> there" and len(kept) == 5

    asyncio.run(main())


def test_lobby_lists_who_is_seated_and_drops_finished_tables(server: ServerProcess) -> None:
    async def main() -> None:
        created = server.create(
            name="Cloud City", seats=["human", "human", "bot:random"], player_name="Lando",
            turn_timer=0,
        )  # fmt: skip
        code = created["code"]
        row = next(t for t in server.get("/api/tables").json()["tables"] if t["code"] == code)
        assert row["name"] == "Cloud City" and row["players"] == 2 and row["seats"] == 3
        assert {"name": "Lando", "bot": False} in row["seated"]
        assert any(s["bot"] for s in row["seated"])
        # A table whose game is over leaves the list.
        quick = server.create(seats=["bot:random", "bot:random"], options={"game_end": "hands:1"})
        async with Client(server, quick["code"]) as w:
            await w.wait_for(_state(lambda m: m["table"]["status"] == "finished"), timeout=30)
        codes = [t["code"] for t in server.get("/api/tables").json()["tables"]]
        assert code in codes and quick["code"] not in codes

    asyncio.run(main())


def test_the_catalogue_speaks_japanese_and_teaches_each_variant(server: ServerProcess) -> None:
    catalogue = server.get("/api/variants").json()
    assert len(catalogue["variants"]) >= 5
    for v in catalogue["variants"]:
        # the one-screen how-to-win in both languages, the Japanese menu line and rules
        assert v["howto"]["en"] and v["howto"]["ja"], v["name"]
        assert v["howto"]["en"] != v["howto"]["ja"]
        assert v["summary_ja"] and v["summary_ja"] != v["summary"], v["name"]
        assert v["rules_ja"] and v["rules_ja"] != v["rules"], v["name"]
        for o in v["options"]:  # every house rule's help, translated
            assert o["help_ja"] and o["help_ja"] != o["help"], (v["name"], o["name"])
            assert o["label_ja"], (v["name"], o["name"])


def test_odds_for_the_seat_to_act_in_every_variant_with_a_model(server: ServerProcess) -> None:
    catalogue = server.get("/api/variants").json()
    for v in catalogue["variants"]:
        created = server.create(
            variant=v["name"], seats=["human", "bot:random"], player_name="Ann", turn_timer=0
        )
        code, token = created["code"], created["token"]
        r = server.get(f"/api/tables/{code}/odds")
        assert r.status_code == 400 and r.json()["error"]["code"] == "not_seated"
        r = server.get(f"/api/tables/{code}/odds", headers={"X-Seat-Token": token})
        assert r.status_code == 200, (v["name"], r.text)
        body = r.json()
        assert set(body) == {"options", "hand"}
        # each option's chances, or (no card decision now) the hand against a random one
        assert body["options"] or body["hand"], v["name"]
        for option in body["options"]:
            assert option["action"] and sum(
                option[k]["probability"] for k in ("better", "same", "worse")
            ) == pytest.approx(1.0)
        if body["hand"] is not None:
            chances = [body["hand"][k]["probability"] for k in ("win", "tie", "lose")]
            assert sum(chances) == pytest.approx(1.0)


def test_every_variant_explains_its_showdowns_in_both_languages(server: ServerProcess) -> None:
    """A seated player is sent why each hand ended, in English and Japanese, in every variant
    (Kessel's lost pots and penalties and Coruscant's target included)."""

    async def main() -> None:
        catalogue = server.get("/api/variants").json()
        for v in catalogue["variants"]:
            created = server.create(
                variant=v["name"], seats=["human", "bot:random"], player_name="Ann",
                turn_timer=0.05,
            )  # fmt: skip
            async with Client(server, created["code"], created["token"]) as ann:
                st = await ann.wait_for(_state(lambda m: "explain" in m), timeout=60)
                lines = st["explain"]["lines"]
                assert lines["en"] and lines["ja"], v["name"]
                assert any("Net this hand" in line for line in lines["en"]), lines["en"]
                assert any("このハンドの収支" in line for line in lines["ja"]), lines["ja"]
                assert st["explain"]["hand"] >= 1

    asyncio.run(main())
