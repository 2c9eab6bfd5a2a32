"""Refusals (wrong token, another seat, out of turn, spectators, stale versions) change nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.apps.server.helpers import Client, ServerProcess, seat_table


def _snapshot(c: Client) -> Any:
    assert c.state is not None
    return (c.state["version"], c.state["game"])


def test_refusals_change_nothing(server: ServerProcess) -> None:
    async def main() -> None:
        code, (a, b, c) = await seat_table(
            server, ["human", "human", "human"], turn_timer=0, options={"game_end": "hands:1"}
        )
        for cl in (a, b, c):
            await cl.drain()
        actor = next(cl for cl in (a, b, c) if cl.my_turn)
        others = [cl for cl in (a, b, c) if cl is not actor]
        before = _snapshot(actor)
        legal = actor.state["game"]["legal"]["actions"]

        # Out of turn: a seated player who is not to act.
        err = await others[0].error_reply({"type": "action", "action": legal[0]})
        assert err["code"] == "not_your_turn" and "turn" in err["message"]
        # Claiming another seat in the message.
        err = await others[1].error_reply(
            {"type": "action", "action": legal[0], "seat": actor.seat}
        )
        assert err["code"] == "not_your_seat"
        # A wrong token: the connection only watches, and its actions are refused.
        intruder = Client(server, code, "not-a-real-token")
        await intruder.open()
        assert any(e["code"] == "bad_token" for e in intruder.errors)
        assert intruder.state is not None and intruder.state["you"]["seat"] is None
        assert "you" not in intruder.state["game"]
        err = await intruder.error_reply({"type": "action", "action": legal[0]})
        assert err["code"] == "not_seated"
        # A spectator without a token.
        watcher = Client(server, code)
        await watcher.open()
        err = await watcher.error_reply({"type": "action", "action": legal[0]})
        assert err["code"] == "not_seated"
        # The actor: an illegal action, an unknown action, a stale version.
        err = await actor.error_reply({"type": "action", "action": "raise 999999"})
        assert err["code"] == "illegal_action" and "can:" in err["message"]
        err = await actor.error_reply({"type": "action", "action": "dance"})
        assert err["code"] == "illegal_action" and "unknown action" in err["message"]
        err = await actor.error_reply(
            {"type": "action", "action": legal[0], "version": before[0] + 5}
        )
        assert err["code"] == "stale"
        # Leaving by HTTP with a wrong token.
        r = httpx.post(f"{server.base}/api/tables/{code}/leave", json={"token": "nope"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
        # Nothing changed: every view is as it was.
        for cl in (a, b, c):
            await cl.send({"type": "sync"})
            await cl.wait_for(lambda m: m["type"] == "state")
        assert _snapshot(actor) == before
        # And the rightful player still plays.
        await actor.send({"type": "action", "action": legal[0], "version": before[0]})
        await actor.wait_for(lambda m: m["type"] == "state" and m["version"] == before[0] + 1)
        for cl in (a, b, c, intruder, watcher):
            await cl.close()

    asyncio.run(main())


def test_lobby_validation(server: ServerProcess) -> None:
    def post(path: str, body: Any) -> httpx.Response:
        return httpx.post(f"{server.base}{path}", json=body, timeout=10)

    r = post("/api/tables", {"variant": "poker"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_variant"
    r = post("/api/tables", {"seats": ["human"] * 9})
    assert r.status_code == 422
    r = post("/api/tables", {"seats": ["human", "dealer"]})
    assert r.status_code == 422
    r = post("/api/tables", {"seats": ["human", "bot:nobody"]})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_bot"
    r = post("/api/tables", {"options": {"rounds": "many"}})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_options"
    r = post("/api/tables", {"options": {"no_such_option": 1}})
    assert r.status_code == 400 and "unknown option" in r.json()["error"]["message"]
    r = post("/api/tables", {"buy_in": 0})
    assert r.status_code == 422
    r = post("/api/tables", {"surprise": True})
    assert r.status_code == 422
    assert server.get("/api/tables/NOPE99").status_code == 404
    code = server.create(seats=["human", "human"], player_name="A", turn_timer=0)["code"]
    r = post(f"/api/tables/{code}/join", {"name": "  "})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name"
    r = post(f"/api/tables/{code}/join", {"name": "B", "seat": 0})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    r = post(f"/api/tables/{code}/join", {"name": "B", "seat": 5})
    assert r.status_code == 400
    r = post(f"/api/tables/{code}/join", {"name": "B\u0000\u202e<b>x</b>"})
    assert r.status_code == 200
    table = server.get(f"/api/tables/{code}").json()
    assert table["seats"][1]["name"] == "B<b>x</b>"  # control characters stripped
    r = post(f"/api/tables/{code}/join", {"name": "C"})
    assert r.status_code == 409
    # History of a running game is withheld (it holds the seed); its hands are not finished.
    r = server.get(f"/api/tables/{code}/games/1/history")
    assert r.status_code == 403
    r = server.get(f"/api/tables/{code}/games/1/hands/1")
    assert r.status_code == 404
    assert server.get(f"/api/tables/{code}/games/7/history").status_code == 404
    catalogue = server.get("/api/variants").json()
    assert {v["name"] for v in catalogue["variants"]} >= {"corellian_spike"}
    assert catalogue["default_variant"] in {v["name"] for v in catalogue["variants"]}
    # players are offered the levels and random; a level's bot is not named
    assert catalogue["bots"] == ["random"]
    assert [level["name"] for level in catalogue["levels"]] == ["easy", "normal", "hard", "expert"]
    assert all("bot" not in level for level in catalogue["levels"])
    strengths = {v["name"]: v["bot_strengths"] for v in catalogue["variants"]}
    assert strengths["kessel"] == 3 and strengths["corellian_spike"] == 4
    kessel = next(v for v in catalogue["variants"] if v["name"] == "kessel")
    assert kessel["alike_levels"] == [["hard", "expert"]]
    assert "3 bot strengths" in kessel["levels_note"]["en"] and kessel["levels_note"]["ja"]
    for v in catalogue["variants"]:
        # Each variant's declared facts: its card art is served as an ES module, its piles and
        # pots are listed, and its enum options carry their choices (the lobby's dropdowns).
        art = server.get(v["card_art"])
        assert art.status_code == 200 and "javascript" in art.headers["content-type"]
        assert "export function cardHTML" in art.text
        first = v["pots"][0]
        assert v["piles"] and (first["pot"] == "main" or first["per_seat"])
        specs = {o["name"]: o for o in v["options"]}
        if "final_pot" in specs:  # variants with antes and shared pots
            assert specs["final_pot"]["kind"] == "choice"
            assert specs["final_pot"]["choices"] == ["split", "house"]
            assert specs["ante"]["kind"] == "int" and specs["ante"]["minimum"] == 0
        else:
            kinds = ("choice", "int", "bool", "text", "multi")
            assert all(o["kind"] in kinds for o in v["options"])
    listed = server.get("/api/tables").json()["tables"]
    assert any(t["code"] == code for t in listed)
    page = server.get(f"/t/{code}")
    assert page.status_code == 200 and "app.js" in page.text
    for asset in ("app.js", "style.css", "i18n.js", "cards.js"):
        assert server.get(f"/static/{asset}").status_code == 200


def test_leaving(server: ServerProcess) -> None:
    async def main() -> None:
        created = server.create(seats=["human", "human", "human"], player_name="A", turn_timer=0)
        code = created["code"]
        b = server.join(code, "B")
        # Before the game: leaving frees the seat.
        r = httpx.post(f"{server.base}/api/tables/{code}/leave", json={"token": b["token"]})
        assert r.status_code == 200
        table = server.get(f"/api/tables/{code}").json()
        assert not table["seats"][b["seat"]]["taken"]
        # During the game: the seat is played automatically until the game ends.
        b = server.join(code, "B")
        c = server.join(code, "C")
        cb = Client(server, code, b["token"])
        await cb.open()
        await cb.send({"type": "leave"})
        st = await cb.wait_for(lambda m: m["type"] == "state" and m["you"]["away"])
        assert st["table"]["seats"][b["seat"]]["away"]
        assert st["table"]["status"] == "playing"
        # Coming back (hello with the token) clears "away".
        await cb.send({"type": "hello", "token": b["token"]})
        await cb.wait_for(lambda m: m["type"] == "state" and not m["you"]["away"])
        await cb.close()
        del c

    asyncio.run(main())


def test_host_who_watched_sits_down_and_stays_host(server: ServerProcess) -> None:
    async def main() -> None:
        created = server.create(seats=["human", "human", "human"], turn_timer=0)
        code, host_token = created["code"], created["host_token"]
        assert created["seat"] is None
        r = httpx.post(
            f"{server.base}/api/tables/{code}/join",
            json={"name": "Hana", "seat": 1, "host_token": host_token},
        )
        assert r.status_code == 200 and r.json()["token"] == host_token
        # A stranger cannot borrow host rights with a made-up host token.
        r = httpx.post(
            f"{server.base}/api/tables/{code}/join",
            json={"name": "Other", "host_token": "guess"},
        )
        assert r.status_code == 200 and r.json()["token"] != host_token
        host = Client(server, code, host_token)
        await host.open()
        assert host.welcome is not None and host.welcome["host"] and host.welcome["seat"] == 1
        await host.send({"type": "start"})
        st = await host.wait_for(lambda m: m["type"] == "state" and m["game"] is not None)
        assert [s["name"] for s in st["game"]["seats"]] == ["Other", "Hana"]
        await host.close()

    asyncio.run(main())
