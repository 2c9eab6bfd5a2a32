"""Issue 31 S11: nobody passes for an account or a bot by a look-alike name. A guest's name
and a new username are compared with the accounts' and the reserved names (the bots' seat
names, the bot levels, the server's roles such as ``host`` and ``admin``) after Unicode NFKC
and the confusables skeleton (case, ``-``/``_`` and look-alike letters ignored)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.apps.server.helpers import UNLIMITED, ServerProcess
from tests.apps.server.test_community import Browser


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path / "names.db", extra=list(UNLIMITED)).start()
    yield s
    s.stop()


def _join(b: Browser, code: str, name: str) -> tuple[int, str]:
    r = b.post(f"/api/tables/{code}/join", {"name": name})
    return r.status_code, r.json()["error"]["code"] if r.status_code != 200 else ""


def test_guests_cannot_take_look_alikes_of_accounts_or_bots(srv: ServerProcess) -> None:
    lando = Browser(srv)
    assert lando.signup("Lando").status_code == 201
    made = lando.create(seats=["human", "human", "bot:easy"], player_name="x")
    guest = Browser(srv)
    for name in ("L\u0430ndo", "\uff2c\uff41\uff4e\uff44\uff4f", "LANDO", "lan-do"):
        assert _join(guest, made["code"], name) == (409, "name_taken"), name
    for name in ("R2-D2", "r2_d2", "R2\u2010D2", "C-3P0", "Expert", "host", "ADMIN", "Dealer"):
        assert _join(guest, made["code"], name) == (409, "reserved_name"), name
    # Creating a table or a quick match under such a name is refused the same way.
    r = guest.post("/api/tables", {"seats": ["human", "bot:easy"], "player_name": "L\u0430ndo"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
    r = guest.post("/api/match", {"variant": "spike", "seats": 2, "wait": 0, "name": "R2-D2"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "reserved_name"
    seats = srv.get(f"/api/tables/{made['code']}").json()["seats"]
    assert seats[1]["taken"] is False  # nothing changed
    # A name unlike any account's or bot's still sits, in any script.
    assert _join(guest, made["code"], "Ландыш") == (200, "")


def test_usernames_cannot_imitate_accounts_or_bots(srv: ServerProcess) -> None:
    assert Browser(srv).signup("Lando").status_code == 201
    for name in ("LAND0", "Iando", "lan_do"):
        r = Browser(srv).signup(name)
        assert r.status_code == 409, (name, r.text)
        assert r.json()["error"]["code"] == "username_taken"
    for name in ("R2D2", "K-2S0", "Normal"):
        r = Browser(srv).signup(name)
        assert r.status_code == 400 and r.json()["error"]["code"] == "reserved_username", name
    assert Browser(srv).signup("Landon").status_code == 201
