"""``GET /api/match/{ticket}?wait=N`` on a plain server (its queues in memory): answered as
soon as the ticket is matched, else after N seconds, still waiting; a bad wait is refused."""

from __future__ import annotations

import threading
import time
from typing import Any

from tests.apps.server.helpers import ServerProcess
from tests.apps.server.test_community import Browser


def test_a_long_poll_answers_when_the_match_is_made(server: ServerProcess) -> None:
    ann, ben = Browser(server), Browser(server)
    body = {"variant": "kessel", "seats": 2, "wait": 120}
    ticket = ann.post("/api/match", {**body, "name": "Ann"}).json()["ticket"]
    t0 = time.monotonic()
    st = ann.http.get(f"/api/match/{ticket}", params={"wait": 1}).json()
    assert st["status"] == "waiting" and time.monotonic() - t0 >= 0.9  # nobody came
    got: dict[str, Any] = {}

    def poll() -> None:
        got.update(ann.http.get(f"/api/match/{ticket}", params={"wait": 20}).json())
        got["at"] = time.monotonic()

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.5)
    ben.post("/api/match", {**body, "name": "Ben"})
    came = time.monotonic()
    waiter.join(30)
    assert got["status"] == "matched" and got["at"] - came < 10, got
    assert ann.http.get(f"/api/match/{ticket}", params={"wait": 26}).status_code == 422
